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

/**
 * The page's half of opening a serial port: a previously granted port (navigator.serial.getPorts()) when
 * `reuse` and one exists, otherwise the browser's chooser (requestPort needs a click/keypress). The port
 * is not opened here: the streaming worker opens it (findGrantedPort), so page stalls never delay the link.
 */
export async function chooseSerialPort({ reuse = true, filters = [] } = {}) {
  const why = webSerialUnavailableReason();
  if (why) throw new Error(why);
  if (reuse) {
    const granted = await navigator.serial.getPorts();
    if (granted.length) return granted[0];
  }
  try {
    return await navigator.serial.requestPort({ filters });
  } catch (e) {
    if (e.name === 'NotFoundError') throw new Error('No port chosen.');
    if (e.name === 'SecurityError') throw new Error('Serial access was blocked (permissions policy or no user gesture).');
    throw e;
  }
}

const sameInfo = (a, b) => ['usbVendorId', 'usbProductId', 'bluetoothServiceClassId'].every((k) => a?.[k] === b?.[k]);

/** The worker's half: the granted port whose getInfo() is `info` (ports granted to the page are granted to its workers). */
export async function findGrantedPort(info) {
  if (typeof navigator === 'undefined' || !navigator.serial) throw new Error('This browser has no WebSerial in workers (WorkerNavigator.serial): use a current Chromium.');
  const port = (await navigator.serial.getPorts()).find((p) => sameInfo(p.getInfo(), info));
  if (!port) throw new Error(`The chosen serial port (${JSON.stringify(info)}) is not among the ports granted to this page any more: choose it again.`);
  return port;
}

export class WebSerialTransport {
  /**
   * Opens a port: a previously granted one (navigator.serial.getPorts()) when `reuse` and one
   * exists, otherwise asks the user (requestPort needs a click/keypress).
   */
  /** Opens a port chosen by chooseSerialPort (the page) or found by findGrantedPort (a worker). */
  static async open(port, { baudRate = 115200 } = {}) {
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

/**
 * Bytes over a Worker or a MessagePort ({type:'data', bytes} both ways): the virtual controller's link. The studio
 * joins the virtual controller's worker to the streaming worker by a MessageChannel, so bytes never pass the page.
 */
export class PortTransport {
  constructor(port) {
    this.port = port;
    this.ondata = null;
    this.onclose = null;
    this.onplant = null; // {q, time} of the simulated joints (for plots)
    port.onmessage = (e) => {
      const m = e.data;
      if (m.type === 'data') this.ondata?.(m.bytes);
      else if (m.type === 'plant') this.onplant?.(m);
    };
  }
  write(bytes) {
    const copy = bytes.slice();
    this.port.postMessage({ type: 'data', bytes: copy }, [copy.buffer]);
  }
  close() {
    this.port.postMessage({ type: 'close' });
  }
}

/**
 * Starts the virtual controller (firmware + simulated prototype, wasm) in its own Worker and resolves with the
 * Worker once it runs. With `port` (a MessagePort) its bytes go over that port; without, over the Worker itself.
 */
export async function startVirtualController({ servoHz = 1000, port = null } = {}) {
  const worker = new Worker(new URL('./virtual.worker.mjs', import.meta.url), { type: 'module' });
  try {
    await new Promise((resolve, reject) => {
      const to = setTimeout(() => reject(new Error('the virtual controller did not start')), 10000);
      worker.addEventListener('message', (e) => { if (e.data.type === 'ready') { clearTimeout(to); resolve(); } });
      worker.addEventListener('error', (e) => { clearTimeout(to); reject(new Error(`the virtual controller crashed: ${e.message}`)); });
      worker.postMessage({ type: 'init', servoHz, port }, port ? [port] : []);
    });
  } catch (e) {
    worker.terminate();
    throw e;
  }
  return worker;
}

/** The virtual controller in a Worker of this page, as a transport of the page. */
export class VirtualTransport extends PortTransport {
  static async open({ servoHz = 1000 } = {}) {
    const worker = await startVirtualController({ servoHz });
    const t = new VirtualTransport(worker);
    worker.onerror = (e) => t.onclose?.(`virtual controller crashed: ${e.message}`);
    return t;
  }
}
