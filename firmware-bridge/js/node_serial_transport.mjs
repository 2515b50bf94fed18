// Node transport for the bridge's Streamer: a serial device or PTY through the `serialport` package.
//
// `serialport` opens and configures the port and delivers what arrives. What the host sends is written here, on
// the event loop's thread, straight to the port's non-blocking descriptor: a frame is a few dozen bytes and a
// write of it returns at once. serialport's own write path queues each chunk for a thread-pool write, one at a
// time: with a write every millisecond (the host's pump) bytes stayed queued for 1.5 s on an idle machine, and a
// loaded PTY test that failed on its watchdog still had 831 bytes queued there (issue 37). What the port does not
// take now (EAGAIN: a full buffer) waits here and is retried every millisecond, in order.
import fs from 'node:fs';
import { SerialPort } from 'serialport';

/** Bytes kept for a port that takes nothing (a device with nobody reading); beyond this the oldest are dropped. */
const MAX_PENDING = 65536;

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
    this.queue = [];   // Buffers not yet taken by the port, oldest first (the first one from `offset`)
    this.offset = 0;
    this.queued = 0;   // bytes in `queue` (the first one's whole length included)
    this.retry = null;
    this.droppedBytes = 0; // dropped for a port that took nothing while more than MAX_PENDING waited
    this.closed = false;
    port.on('data', (d) => this.ondata?.(new Uint8Array(d.buffer, d.byteOffset, d.length)));
    port.on('close', () => this.onclose?.('the port closed'));
    port.on('error', (e) => this.onclose?.(e.message));
  }

  /** Bytes handed to write() that the port has not taken yet. */
  pending() {
    return this.queued - this.offset;
  }

  write(bytes) {
    const b = this.txTap ? this.txTap(bytes) : bytes;
    if (this.closed || !b || !b.length) return;
    this.queue.push(Buffer.from(b)); // a copy: the caller's view may be reused
    this.queued += b.length;
    while (this.pending() > MAX_PENDING && this.queue.length > 1) {
      this.droppedBytes += this.queue[0].length - this.offset;
      this.dropHead();
    }
    this.flush();
  }

  /** Writes what is queued until the port takes no more; then retries in 1 ms. */
  flush() {
    const fd = this.port.port?.fd;
    while (this.queue.length && !this.closed) {
      if (fd === null || fd === undefined) return this.fail('the port is not open');
      const head = this.queue[0];
      let n;
      try {
        n = fs.writeSync(fd, head, this.offset, head.length - this.offset);
      } catch (e) {
        if (e.code === 'EAGAIN' || e.code === 'EWOULDBLOCK' || e.code === 'EINTR') return this.later();
        return this.fail(`write failed: ${e.message}`);
      }
      this.offset += n;
      if (this.offset < head.length) return this.later();
      this.dropHead();
    }
  }

  dropHead() {
    this.queued -= this.queue.shift().length;
    this.offset = 0;
  }

  later() {
    if (this.retry !== null) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.flush();
    }, 1);
    this.retry.unref?.();
  }

  fail(reason) {
    this.queue = [];
    this.queued = 0;
    this.offset = 0;
    this.onclose?.(reason);
  }

  close() {
    this.closed = true;
    if (this.retry !== null) clearTimeout(this.retry);
    this.retry = null;
    return new Promise((resolve) => {
      if (!this.port.isOpen) return resolve();
      this.port.close(() => resolve());
    });
  }
}
