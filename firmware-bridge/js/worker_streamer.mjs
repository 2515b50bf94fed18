// The page's side of the streaming worker (stream.worker.mjs): the Streamer's interface (connect, configure,
// sendTrajectory, start/pause/resume/stop/estop/clearFaults, streamTarget, close; events status, faults, estop,
// link-lost; status, counters and caps) with the engine and the link in a Worker, so a busy page never starves the
// controller's watchdog. The status, counters and caps read here are the latest the worker sent (50 Hz).
import { chooseSerialPort, startVirtualController } from './transports.mjs';
import { WorkerClient } from './worker_client.mjs';

export class WorkerStreamer extends WorkerClient {
  /**
   * Opens a streaming worker on the virtual controller (its own Worker, joined to the streaming worker by a
   * MessageChannel) or on a serial port (chosen here: a granted one, or the browser's chooser, which needs a click).
   * @param options {source: 'virtual'|'serial', baudRate, silencePeriods, servoHz}
   */
  static async open({ source = 'virtual', baudRate = 115200, silencePeriods, servoHz = 1000 } = {}) {
    const portInfo = source === 'serial' ? (await chooseSerialPort()).getInfo() : undefined;
    const channel = source === 'serial' ? null : new MessageChannel();
    const controller = channel ? await startVirtualController({ servoHz, port: channel.port1 }) : null;
    const s = new WorkerStreamer(new Worker(new URL('./stream.worker.mjs', import.meta.url), { type: 'module' }), controller);
    try {
      await s.request({ type: 'open', source, baudRate, silencePeriods, portInfo, port: channel?.port2 }, channel ? [channel.port2] : []);
    } catch (e) {
      s.terminate();
      throw e;
    }
    return s;
  }

  constructor(worker, controller = null) {
    super(worker, 'the streamer is closed');
    this.controller = controller; // the virtual controller's Worker, if any
    this.snap = { status: null, counters: {}, caps: {} };
    worker.onerror = (e) => this.lost(`the streaming worker stopped: ${e.message}`);
    if (controller) controller.onerror = (e) => this.lost(`the virtual controller crashed: ${e.message}`);
  }

  onMessage(m) {
    if (m.snap) this.snap = m.snap;
    if (m.type === 'event') {
      this.dispatchEvent(Object.assign(new Event(m.name), m.detail));
    } else if (m.type === 'progress') {
      this.pending.get(m.id)?.onProgress?.(m.progress);
    } else {
      super.onMessage(m);
    }
  }

  errorOf(e) { return Object.assign(new Error(e.message), { status: e.status, faults: e.faults }); }

  lost(reason) {
    if (this.closed) return;
    this.failPending(reason);
    this.dispatchEvent(Object.assign(new Event('link-lost'), { reason }));
  }

  /** A command: callers may ignore the promise (a button's click), so a refusal is never an unhandled rejection. */
  command(method, ...args) {
    const p = this.call(method, ...args);
    p.catch(() => {});
    return p;
  }

  get status() { return this.snap.status; }
  get counters() { return this.snap.counters; }
  get caps() { return this.snap.caps; }

  connect(timeoutMs) { return this.call('connect', timeoutMs); }
  configure(joints, global, options) { return this.call('configure', joints, global, options); }
  /** As Streamer.sendTrajectory; `onProgress` is called here with each progress report of the worker. */
  sendTrajectory(traj, { onProgress = null, ...options } = {}) {
    return this.request({ type: 'call', method: 'sendTrajectory', args: [traj, options] }, [], onProgress);
  }
  // Commands: sent at once, answered when the worker has pumped them onto the link.
  start() { return this.command('start'); }
  pause() { return this.command('pause'); }
  resume() { return this.command('resume'); }
  clearFaults() { return this.command('clearFaults'); }
  stop() { return this.command('stop'); }
  estop() { return this.command('estop'); }
  streamTarget(q, lookAhead = 0.1) { return this.command('streamTarget', q, lookAhead); }

  /** Closes the link (the controller's watchdog stops a moving arm) and ends both workers (close: WorkerClient). */
  terminate() {
    super.terminate();
    this.controller?.terminate();
  }
}
