// Node transport for the bridge's Streamer: a serial device or PTY through the `serialport` package.
import { SerialPort } from 'serialport';

export class NodeSerialTransport {
  /** Opens `path` at `baudRate` (8N1, raw); `lock: false` skips serialport's exclusive lock. */
  static open(path, baudRate = 115200, { lock = true } = {}) {
    return new Promise((resolve, reject) => {
      const port = new SerialPort({ path, baudRate, autoOpen: false, lock });
      port.open((err) => (err ? reject(new Error(`--port ${path}: ${err.message}`)) : resolve(new NodeSerialTransport(port))));
    });
  }

  constructor(port) {
    this.port = port;
    this.ondata = null;
    this.onclose = null;
    this.txTap = null; // test hook: (bytes) => bytes | null (damage or drop outgoing bytes)
    port.on('data', (d) => this.ondata?.(new Uint8Array(d.buffer, d.byteOffset, d.length)));
    port.on('close', () => this.onclose?.('the port closed'));
    port.on('error', (e) => this.onclose?.(e.message));
  }

  write(bytes) {
    const b = this.txTap ? this.txTap(bytes) : bytes;
    if (b && b.length) this.port.write(Buffer.from(b.buffer, b.byteOffset, b.length));
  }

  close() {
    return new Promise((resolve) => {
      if (!this.port.isOpen) return resolve();
      this.port.close(() => resolve());
    });
  }
}
