// The page's side of the servo-bus worker (servo.worker.mjs): a Dynamixel or Feetech bus host in a Worker, on a
// WebSerial port or on a simulated bus, so a busy page never stalls a stream. Every call is answered by the
// worker; `snap` is the latest state it sent (30 Hz, and with every reply). Types: servo_session.d.mts.
import { chooseSerialPort } from './transports.mjs';
import { WorkerClient } from './worker_client.mjs';

export class ServoBusSession extends WorkerClient {
  /**
   * Opens a bus: source 'sim' (a simulated bus in the worker: `servos` as ServoBusSim takes them) or 'serial'
   * (a port chosen here: a granted one, or the browser's chooser, which needs a click), at baudRate.
   */
  static async open({ protocol, source = 'sim', servos = [], baudRate = 1000000, hostOptions = {} } = {}) {
    const portInfo = source === 'serial' ? (await chooseSerialPort()).getInfo() : undefined;
    const s = new ServoBusSession(new Worker(new URL('./servo.worker.mjs', import.meta.url), { type: 'module' }));
    try {
      await s.request({ type: 'open', protocol, source, servos, portInfo, baudRate, hostOptions });
    } catch (e) {
      s.terminate();
      throw e;
    }
    s.protocol = protocol;
    s.source = source;
    return s;
  }

  constructor(worker) {
    super(worker, 'the servo bus is closed');
    this.snap = null;
    worker.onerror = (e) => this.lost(`the servo-bus worker stopped: ${e.message}`);
  }

  onMessage(m) {
    if (m.snap) {
      this.snap = m.snap;
      this.dispatchEvent(Object.assign(new Event('snap'), { snap: m.snap }));
    }
    if (m.type === 'lost') this.lost(m.reason);
    super.onMessage(m);
  }

  lost(reason) {
    if (this.closed) return;
    this.dispatchEvent(Object.assign(new Event('link-lost'), { reason }));
  }

  /** Pings every ID at every baud rate; the servos that answered [{baud, id, model, modelName}]. */
  scan(ids, bauds) { return this.call('scan', Array.from(ids), Array.from(bauds)); }
  /** Connects with a calibration (JSON text or object) and monitors the present state; its normalized text. */
  connect(calibration) { return this.call('connect', typeof calibration === 'string' ? calibration : JSON.stringify(calibration)); }
  /** The arm held at the robot's zero pose (robot: its description, model.modelToJson()): the calibration taken
   *  there (JSON text), connected. */
  calibrateAtZero(robot, baud, ids, directions = []) {
    return this.call('calibrateAtZero', typeof robot === 'string' ? robot : JSON.stringify(robot), baud, Array.from(ids), Array.from(directions));
  }
  /** The guided calibration's limits: joint `joint` at one end of its travel becomes its lower or upper limit
   *  (limitAtPresent); on a simulated bus handQ (rad) is where a hand moves it first. {calibration, note}, connected. */
  limitAtPresent(robot, calibration, joint, upper, handQ = null) {
    return this.call('limitAtPresent', typeof robot === 'string' ? robot : JSON.stringify(robot),
      typeof calibration === 'string' ? calibration : JSON.stringify(calibration), joint, !!upper, handQ);
  }
  torque(on) { return this.call('torque', !!on); }
  /** Teleoperation on: torque on where the servos stand, then a goal per period from follow(q). */
  teleop(on) { return this.call('teleop', !!on); }
  /** The stream's goal (rad, m): '' when taken, else the refusal (nothing sent). */
  follow(q) { return this.call('follow', Array.from(q)); }
  /** What follow(q) would answer, sending nothing. */
  check(q) { return this.call('check', Array.from(q)); }
  /** Streams a trajectory (as sendToServos; achain-trajectory text or object, or {t, q}); its report. */
  send(trajectory, options = {}) { return this.call('send', trajectory, options); }
  /** The e-stop action at once; a running send ends with "stopped by the studio's E-STOP". The safe state in words. */
  estop() { return this.call('estop'); }
  setEstopAction(action) { return this.call('estopAction', action); }
  /** Simulated bus only: a fault on servo id, 'corrupt' | 'silence' | 'overload' | 'clear'. */
  inject(kind, id) { return this.call('inject', kind, id); }
  /** Simulated bus only: when the last E-STOP reached the bus ({estopWallMs, hostToBusUs, address, periodUs}). */
  estopTiming() { return this.call('estopTiming'); }
  /** Simulated bus only: a hand turns servo id (torque off) to counts; false when its torque holds it. */
  moveByHand(id, counts) { return this.call('moveByHand', id, counts); }
}
