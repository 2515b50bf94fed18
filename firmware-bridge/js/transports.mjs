// Transports for the Streamer in the browser: WebSerial (real controllers) and the virtual controller in a
// Worker. Both expose {write(bytes), ondata, onclose, close()}.

/** Feature detection (never browser sniffing): why WebSerial is unavailable, or null if it is. */
export function webSerialUnavailableReason() {
  if (typeof window !== 'undefined' && !window.isSecureContext) return 'WebSerial needs a secure context (https:// or http://localhost).';
  if (typeof navigator === 'undefined' || !navigator.serial || typeof navigator.serial.requestPort !== 'function') {
    return 'This browser has no WebSerial (navigator.serial). Use a browser that provides it, or the virtual controller.';
  }
  return null;
}

export class WebSerialTransport {
  /**
   * Opens a port: a previously granted one (navigator.serial.getPorts()) when `reuse` and one
   * exists, otherwise asks the user (requestPort needs a click/keypress).
   */
  static async open({ baudRate = 115200, reuse = true, filters = [] } = {}) {
    const why = webSerialUnavailableReason();
    if (why) throw new Error(why);
    let port = null;
    if (reuse) {
      const granted = await navigator.serial.getPorts();
      if (granted.length) port = granted[0];
    }
    if (!port) {
      try {
        port = await navigator.serial.requestPort({ filters });
      } catch (e) {
        if (e.name === 'NotFoundError') throw new Error('No port chosen.');
        if (e.name === 'SecurityError') throw new Error('Serial access was blocked (permissions policy or no user gesture).');
        throw e;
      }
    }
    try {
      await port.open({ baudRate });
    } catch (e) {
      throw new Error(`Cannot open the port at ${baudRate} baud: ${e.message} (is another program or tab using it?)`);
    }
    return new WebSerialTransport(port, baudRate);
  }

  constructor(port, baudRate) {
    this.port = port;
    this.baudRate = baudRate;
    this.ondata = null;
    this.onclose = null;
    this.closing = false;
    this.queue = Promise.resolve();
    this.writer = port.writable.getWriter(); // one writer for the port's lifetime
    this.readLoop(); // one long-lived reader feeding the frame decoder (no per-read lock churn)
    this.onDisconnect = (e) => {
      if (e.target === this.port) this.onclose?.('the device was unplugged');
    };
    navigator.serial.addEventListener('disconnect', this.onDisconnect);
  }

  async readLoop() {
    while (this.port.readable && !this.closing) {
      const reader = this.port.readable.getReader();
      this.reader = reader;
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          if (value?.length) this.ondata?.(value);
        }
      } catch (e) {
        // framing/parity/buffer-overrun errors are recoverable: loop and get a new reader
        if (e.name === 'NetworkError' || e.name === 'NotFoundError') {
          this.onclose?.('the device was lost');
          break;
        }
      } finally {
        reader.releaseLock();
      }
    }
  }

  write(bytes) {
    // a single write queue keeps frames whole and ordered
    this.queue = this.queue.then(() => this.writer.write(bytes));
    return this.queue;
  }

  async close() {
    this.closing = true;
    navigator.serial.removeEventListener('disconnect', this.onDisconnect);
    try { await this.reader?.cancel(); } catch { /* already gone */ }
    try { this.writer.releaseLock(); } catch { /* already released */ }
    try { await this.port.close(); } catch { /* unplugged */ }
  }
}

/** The virtual controller (firmware + simulated prototype, wasm) running in its own Worker. */
export class VirtualTransport {
  static async open({ servoHz = 1000 } = {}) {
    const worker = new Worker(new URL('./virtual.worker.mjs', import.meta.url), { type: 'module' });
    const t = new VirtualTransport(worker);
    await new Promise((resolve, reject) => {
      const to = setTimeout(() => reject(new Error('the virtual controller did not start')), 10000);
      t.onready = () => { clearTimeout(to); resolve(); };
      worker.postMessage({ type: 'init', servoHz });
    });
    return t;
  }
  constructor(worker) {
    this.worker = worker;
    this.ondata = null;
    this.onclose = null;
    this.onplant = null; // {q, time} of the simulated joints (for plots)
    worker.onmessage = (e) => {
      const m = e.data;
      if (m.type === 'data') this.ondata?.(m.bytes);
      else if (m.type === 'plant') this.onplant?.(m);
      else if (m.type === 'ready') this.onready?.();
    };
    worker.onerror = (e) => this.onclose?.(`virtual controller crashed: ${e.message}`);
  }
  write(bytes) {
    const copy = bytes.slice();
    this.worker.postMessage({ type: 'data', bytes: copy }, [copy.buffer]);
  }
  close() {
    this.worker.postMessage({ type: 'close' });
  }
}
