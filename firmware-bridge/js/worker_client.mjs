// The page's side of a bridge worker (the streaming worker, the servo-bus worker): numbered requests answered by
// {type:'reply', id, ok, value | error}, a close that waits at most 1 s for the worker's own, and a terminate that
// fails whatever is still pending. WorkerStreamer (worker_streamer.mjs) and ServoBusSession (servo_session.mjs)
// add their messages on top.
export class WorkerClient extends EventTarget {
  /** closedText: the error a request gets once the client is closed ("the streamer is closed"). */
  constructor(worker, closedText) {
    super();
    this.worker = worker;
    this.closedText = closedText;
    this.pending = new Map();
    this.nextId = 1;
    this.closed = false;
    worker.onmessage = (e) => this.onMessage(e.data);
  }

  /** A reply settles its request; subclasses handle their other messages and call this. */
  onMessage(m) {
    if (m.type !== 'reply') return;
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (m.ok) p.resolve(m.value);
    else p.reject(this.errorOf(m.error));
  }

  /** The Error a refused request rejects with (subclasses add fields). */
  errorOf(e) { return new Error(e.message); }

  /** Fails every pending request with `reason` (the worker or the link was lost). */
  failPending(reason) {
    for (const p of this.pending.values()) p.reject(new Error(reason));
    this.pending.clear();
  }

  request(message, transfer = [], onProgress = null) {
    if (this.closed) return Promise.reject(new Error(this.closedText));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      this.worker.postMessage({ ...message, id }, transfer);
    });
  }

  call(method, ...args) {
    return this.request({ type: 'call', method, args });
  }

  /** Asks the worker to close (at most 1 s), then ends it. */
  async close() {
    if (this.closed) return;
    try {
      await Promise.race([this.call('close'), new Promise((r) => setTimeout(r, 1000))]);
    } finally {
      this.terminate();
    }
  }

  terminate() {
    this.closed = true;
    this.failPending(this.closedText);
    this.worker.terminate();
  }
}
