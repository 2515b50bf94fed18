// Long CPU-bound page jobs (the workspace, a batch IK path) run in workers, and the page itself draws on the same
// cores: the main thread, the streaming worker that feeds the controller and, without a GPU, the software renderer
// (SwiftShader draws each frame on the CPU, and the page waits for it). On a 2-core machine a workspace and a batch
// IK path at once left the renderer a third of a core: a frame of the prototype then held the main thread 60–104 ms
// (issue 32). JobSlots lets at most `limit` such jobs run at once (one core stays for the page: hardwareConcurrency − 1,
// at least 1); the others wait in the order they came, and say so.

export class JobSlots {
  /** @param {number} [limit] jobs that may run at once (default: the machine's cores less one, at least 1) */
  constructor(limit = Math.max(1, ((globalThis.navigator?.hardwareConcurrency) || 2) - 1)) {
    this.limit = limit;
    this.cores = globalThis.navigator?.hardwareConcurrency || limit + 1;
    this.active = [];
    this.queue = [];
  }

  /**
   * Asks for a slot for the job `label` ("the workspace", "the batch IK path"). Returns {ready, waitingFor,
   * waitingText, release}: `ready` resolves when the job may start; `waitingFor` is the label of a running job it
   * waits behind (null: it starts at once) and `waitingText` the status line saying so; `release()` ends the job's
   * claim, running or waiting (call it once the job ends, is cancelled or fails; a second call does nothing).
   */
  enter(label) {
    const slot = { label, started: false, released: false };
    slot.ready = new Promise((resolve) => { slot.start = resolve; });
    slot.waitingFor = this.active.length + this.queue.length >= this.limit ? (this.active[0] ?? this.queue[0]).label : null;
    // what the job's status line says while it waits
    slot.waitingText = slot.waitingFor &&
      `waiting for ${slot.waitingFor} to finish (${this.limit === 1 ? 'one long job' : `${this.limit} long jobs`} at a time on this ${this.cores}-core machine)…`;
    slot.release = () => {
      if (slot.released) return;
      slot.released = true;
      this.active = this.active.filter((s) => s !== slot);
      this.queue = this.queue.filter((s) => s !== slot);
      this._pump();
    };
    this.queue.push(slot);
    this._pump();
    return slot;
  }

  /** Labels of the jobs running now. */
  get running() { return this.active.map((s) => s.label); }

  _pump() {
    while (this.active.length < this.limit && this.queue.length) {
      const s = this.queue.shift();
      this.active.push(s);
      s.started = true;
      s.start();
    }
  }
}
