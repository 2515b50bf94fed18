// The servo-bus worker: the studio's Dynamixel / Feetech bus host (the C++ ServoHost through wasm) and its link
// run here, off the page's thread, pumped every 2 ms on the wall clock, so a busy page never stalls a stream.
// The link is a WebSerial port (a USB adapter on a real bus) or a simulated bus (the C++ ServoBusSim) whose clock
// follows the wall clock. The jobs are the C++ ones in pieces (ServoSendJob, servoJointMap, zeroAtPresent); this
// file only moves bytes, keeps time and answers the page. The page's side: ServoBusSession (servo_session.mjs).
//   page → worker  {type:'open', id, protocol, source:'sim'|'serial', servos?, portInfo?, baudRate, hostOptions}
//                  {type:'call', id, method, args}
//   worker → page  {type:'reply', id, ok, value | error, snap}   {type:'snap', snap} (30 Hz)
// `snap`: {ready, monitoring, streaming, estopped, busy, error, feedback, goals, periods, overruns, lastPeriod,
//          baud, job: {phase, t, duration} | null, link}
import { loadAchain } from '../../wasm/achain.mjs';
import { loadServoBus } from './servo.mjs';
import { findGrantedPort } from './transports.mjs';

const PUMP_MS = 2;
const SNAP_MS = 33;

let sb = null;
let achain = null;
let host = null;
let link = null;
let job = null;          // {job, resolve}: a trajectory being sent
let waiters = [];        // {until(now) → value | undefined, resolve, reject, end}
let pumpTimer = 0;
let snapTimer = 0;

/** A simulated bus whose clock follows the wall clock (the bus advances by the time elapsed since the last pump). */
class SimLink {
  constructor(protocol, servos, echo) {
    this.bus = new sb.ServoBusSim(protocol, servos);
    this.bus.setEcho(!!echo);  // as the host is told the adapter does
    this.t0 = performance.now();
    this.kind = 'sim';
  }
  now() {
    const wall = (performance.now() - this.t0) * 1000;
    // at most 60 s per advance (the bus's own guard); a longer stall of this worker is not replayed
    if (wall > this.bus.now()) this.bus.advance(Math.min(wall, this.bus.now() + 59e6));
    return this.bus.now();
  }
  read() { return this.bus.read(); }
  write(bytes) { this.bus.write(bytes); }
  setBaud(baud) { this.bus.setPortBaud(baud); }
  close() { this.bus.delete(); }
}

/** A WebSerial port (a USB–TTL or U2D2-style adapter): bytes as they arrive; the baud rate set by reopening. */
class SerialLink {
  static async open(portInfo, baud) {
    const l = new SerialLink(await findGrantedPort(portInfo));
    await l.reopen(baud);
    return l;
  }
  constructor(port) {
    this.port = port;
    this.kind = 'serial';
    this.inbox = [];
    this.baud = 0;
    this.lost = '';
    this.t0 = performance.now();
  }
  now() { return (performance.now() - this.t0) * 1000; }
  async reopen(baud) {
    this.switching = true;
    try {
      await this.release();
      await this.port.open({ baudRate: baud, bufferSize: 4096 });
      this.baud = baud;
      this.writer = this.port.writable.getWriter();
      this.reader = this.port.readable.getReader();
      this.readLoop(this.reader);
    } finally {
      this.switching = false;
    }
  }
  async readLoop(reader) {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        if (value?.length) this.inbox.push(value);
      }
    } catch (e) {
      if (!this.switching) this.lost = `the serial port stopped: ${e.message}`;
    }
  }
  async release() {
    try { await this.reader?.cancel(); } catch { /* already closed */ }
    try { this.reader?.releaseLock(); } catch { /* idem */ }
    try { this.writer?.releaseLock(); } catch { /* idem */ }
    this.reader = this.writer = null;
    if (this.port.readable || this.port.writable) await this.port.close();
  }
  read() {
    if (!this.inbox.length) return new Uint8Array(0);
    const n = this.inbox.reduce((a, b) => a + b.length, 0);
    const out = new Uint8Array(n);
    let o = 0;
    for (const b of this.inbox) { out.set(b, o); o += b.length; }
    this.inbox = [];
    return out;
  }
  write(bytes) {
    if (this.writer && !this.switching) this.writer.write(bytes).catch((e) => { this.lost = `the serial port refused a write: ${e.message}`; });
  }
  setBaud(baud) {
    if (baud !== this.baud && !this.switching) this.reopen(baud).catch((e) => { this.lost = `cannot reopen the port at ${baud} baud: ${e.message}`; });
  }
  close() { this.release().catch(() => {}); }
}

/**
 * The host's time for a call between pumps: a pump first, so the host has received every byte that has arrived by
 * then. Reading the link's clock alone would move the host's time past a reply it has not been given (a simulated
 * bus advances to the wall clock when asked the time), and a call that updates the host (estop) would then declare
 * that servo silent.
 */
function pumpedNow() {
  pump();
  return lastNow;
}
let lastNow = 0;
let estopAt = null;  // {wallMs, busUs} of the last E-STOP the worker took (estopTiming)

/** One pump: the link's bytes to the host, the host's clock, the send job, the host's bytes to the link. */
function pump() {
  if (!host || !link) return;
  const now = link.now();
  lastNow = now;
  const bytes = link.read();
  if (bytes.length) host.receive(bytes, now);
  host.update(now);
  if (job && job.job.step(now)) finishJob();
  if (host.baud() !== link.baudSet) {
    link.baudSet = host.baud();
    link.setBaud(link.baudSet);
  }
  const out = host.takeOutput();
  if (out.length) link.write(out);
  if (link.lost) fail(link.lost);
  for (const w of waiters.slice()) {
    let v;
    try {
      v = w.until(now);
    } catch (e) {
      waiters = waiters.filter((x) => x !== w);
      w.reject(e);
      continue;
    }
    if (v !== undefined) {
      waiters = waiters.filter((x) => x !== w);
      w.resolve(v);
    } else if (now >= w.end) {
      waiters = waiters.filter((x) => x !== w);
      w.reject(new Error(w.timeoutText()));
    }
  }
}

/** Resolves with until(now)'s first defined value, pumped; rejects after seconds with timeoutText(). */
function waitFor(until, seconds, timeoutText) {
  return new Promise((resolve, reject) => waiters.push({ until, resolve, reject, end: lastNow + seconds * 1e6, timeoutText }));
}

function fail(why) {
  for (const w of waiters) w.reject(new Error(why));
  waiters = [];
  if (job) job.job.stop(why);
  link.lost = '';
  self.postMessage({ type: 'lost', reason: why });
}

function finishJob() {
  const { job: j, resolve } = job;
  job = null;
  const report = j.report();
  j.delete();
  resolve(report);
}

const bytesDone = () => (host.busy() ? undefined : true);
const protocolText = () => (host.protocol() === 'dynamixel' ? 'Dynamixel' : 'Feetech');

function snap() {
  if (!host) return null;
  return {
    ready: host.ready(), monitoring: host.monitoring(), streaming: host.streaming(), estopped: host.estopped(),
    busy: host.busy(), error: host.error(), safeText: host.safeText(), feedback: host.feedback(), goals: host.lastGoals(),
    periods: host.periods(), overruns: host.overruns(), lastPeriod: host.lastPeriod(), baud: host.baud(),
    job: job ? { phase: job.job.phase(), t: job.job.t(), duration: job.job.duration() } : null, link: link?.kind ?? null,
  };
}

async function open(m) {
  sb ??= await loadServoBus();
  achain ??= await loadAchain();
  host = new sb.ServoHost(m.protocol, m.hostOptions ?? {});
  link = m.source === 'serial' ? await SerialLink.open(m.portInfo, m.baudRate) : new SimLink(m.protocol, m.servos, m.hostOptions?.echo);
  link.baudSet = 0;
  pumpTimer = setInterval(pump, PUMP_MS);
  snapTimer = setInterval(() => self.postMessage({ type: 'snap', snap: snap() }), SNAP_MS);
}

/** Connects with a calibration (or a joint map), then monitors: the present state is read every period from now on. */
async function connect(calibration) {
  if (job) throw new Error('a trajectory is being sent: stop it first');
  host.stopStreaming();
  host.stopMonitoring();
  host.connect(calibration);
  await waitFor(() => (host.busy() ? undefined : true), 2 + 0.05 * JSON.parse(host.calibration()).joints.length,
    () => `${protocolText()} bus: no answer while connecting`);
  if (!host.ready()) throw new Error(host.error() || `${protocolText()} bus: no answer while connecting`);
  const why = host.startMonitoring(pumpedNow());
  if (why) throw new Error(why);
  await waitFor(() => (host.error() ? true : host.feedback().every((f) => f.valid) ? true : undefined), 1,
    () => `${protocolText()} bus: the present positions were not read within 1 s`);
  if (host.error()) throw new Error(host.error());
  return host.calibration();
}

const METHODS = {
  async scan(ids, bauds) {
    host.stopMonitoring();
    const before = host.error();  // a bus error that stands from the session is not the scan's
    host.scan(ids, bauds);
    const perPing = (host.options().returnDelayUs + host.options().timeoutMarginUs + 2000) * 1e-6;
    await waitFor(bytesDone, 1 + perPing * ids.length * bauds.length + 0.2 * bauds.length, () => 'scan: the bus host did not finish the scan');
    if (host.error() !== before) throw new Error(`scan: ${host.error()}`);  // an echo problem (a silent ID is no error)
    return host.found();
  },
  connect,
  /** The arm held at the robot's zero pose: its calibration (JSON text), then connected with it. */
  async calibrateAtZero(robotJson, baud, ids, directions) {
    const model = achain.loadModel(robotJson);
    try {
      const map = sb.servoJointMap(host.protocol(), baud, model, ids, directions);
      await connect(map);
      const cal = sb.zeroAtPresent(map, host, model);
      await connect(cal);
      return cal;
    } finally {
      model.dispose();
    }
  },
  /** The guided calibration's limits: joint `joint` stands at one end of its travel (moved by hand, torque off); on a
   *  simulated bus `handQ` (rad) is where the hand moves it first. Reads it afresh, takes that end as the joint's
   *  lower or upper limit (limitAtPresent) and connects with the result: {calibration, note}. */
  async limitAtPresent(robotJson, calibration, joint, upper, handQ) {
    if (job) throw new Error('a trajectory is being sent: stop it first');
    if (handQ != null) {
      if (link.kind !== 'sim') throw new Error('only a simulated bus is moved by the page; move the real arm by hand');
      const id = JSON.parse(calibration).joints[joint].id;
      if (!link.bus.moveByHand(id, sb.jointToCounts(calibration, joint, handQ))) throw new Error(`servo ${id} holds its position: turn torque off first`);
    }
    if (!host.monitoring()) host.startMonitoring(pumpedNow());
    const after = pumpedNow();
    await waitFor(() => (host.error() ? true : host.feedback()[joint]?.atUs > after ? true : undefined), 1,
      () => `${protocolText()} bus: the position of joint ${joint + 1} was not read within 1 s`);
    if (host.error()) throw new Error(host.error());
    const model = achain.loadModel(robotJson);
    try {
      const r = sb.limitAtPresent(calibration, host, model, joint, !!upper);
      await connect(r.calibration);
      return r;
    } finally {
      model.dispose();
    }
  },
  async torque(on) {
    if (!host.ready()) throw new Error(host.error() || 'connect first');
    host.stopMonitoring();  // the torque writes go out between no reads, as connectServos does it
    host.enableTorque(!!on);
    await waitFor(bytesDone, 2, () => `torque ${on ? 'on' : 'off'}: the bus did not answer`);
    if (host.error()) throw new Error(host.error());
    if (!host.streaming()) host.startMonitoring(pumpedNow());
    return true;
  },
  /** Teleoperation: torque on, then stream (the goal from follow() every period under the rate limit). */
  async teleop(on) {
    if (!on) {
      if (job) return true;  // a send's stream is the job's, not teleoperation's
      host.stopStreaming();
      if (!host.error()) host.startMonitoring(pumpedNow());
      return true;
    }
    if (job) throw new Error('a trajectory is being sent: stop it first');
    await METHODS.torque(true);
    const why = host.startStreaming(pumpedNow());
    if (why) throw new Error(why);
    return true;
  },
  /** The goal of a stream (rad, m): '' when taken, else the refusal (the joint and its limit), nothing sent. */
  follow(q) { return host.streaming() ? host.setTarget(q) : 'not streaming: turn teleoperation on'; },
  check(q) { return host.checkTarget(q); },
  send(trajectory, options) {
    if (job) throw new Error('a trajectory is being sent already');
    if (!host.ready()) throw new Error(host.error() || 'connect first');
    host.stopMonitoring();
    const j = new sb.ServoSendJob(host, trajectory, options ?? {});
    if (j.done()) {  // refused before anything moved
      const r = j.report();
      j.delete();
      if (!host.error()) host.startMonitoring(pumpedNow());
      return r;
    }
    return new Promise((resolve) => { job = { job: j, resolve }; }).then((r) => {
      if (!host.error() && !host.streaming()) host.startMonitoring(pumpedNow());
      return r;
    });
  },
  /** E-STOP: the host's e-stop action at once (torque off or hold), and a running send ends saying so. */
  estop() {
    estopAt = { wallMs: performance.timeOrigin + performance.now(), busUs: pumpedNow() };  // taken here, on both clocks
    if (job) job.job.stop("the studio's E-STOP");
    const now = pumpedNow();
    host.estop(now);
    if (!job && !host.error()) host.startMonitoring(now);  // the twin keeps showing the arm (a send resumes it when it ends)
    return host.safeText();
  },
  estopAction(action) { host.setEstopAction(action); return true; },
  /** A fault on the simulated bus (what a real bus does now and then): 'corrupt' (the next 3 replies of servo id
   *  fail their CRC/checksum), 'silence' (it stops answering), 'overload' (its overload bit), 'clear' (all gone). */
  inject(kind, id) {
    if (link.kind !== 'sim') throw new Error('faults can be injected on the simulated bus only');
    const bus = link.bus;
    if (bus.find(id) < 0) throw new Error(`the simulated bus has no servo ID ${id}`);
    if (kind === 'corrupt') bus.injectCorruptReplies(id, 3);
    else if (kind === 'silence') bus.injectSilence(id, -1);
    else if (kind === 'overload') bus.injectHardwareError(id, sb.servoHardwareErrors(host.protocol()).find((e) => e.name === 'overload').bit);
    else if (kind === 'clear') { bus.injectCorruptReplies(id, 0); bus.injectSilence(id, 0); bus.injectHardwareError(id, 0); } else throw new Error(`inject: unknown fault '${kind}'`);
    return true;
  },
  /** Simulated bus only: when the last E-STOP reached the bus. Pumps until its safe state's sync write has crossed
   *  the wire; {estopWallMs (performance.timeOrigin-based, when the worker took the E-STOP), hostToBusUs (from then
   *  to the end of that sync write, bus time), address (the register it wrote), periodUs}. */
  async estopTiming() {
    if (link.kind !== 'sim') throw new Error('E-STOP timing is measured on the simulated bus only');
    if (!estopAt) throw new Error('no E-STOP yet');
    const at = estopAt;
    await waitFor(() => (link.bus.lastSyncWrite().atUs >= at.busUs ? true : undefined), 1, () => 'the E-STOP\'s sync write did not reach the bus within 1 s');
    const w = link.bus.lastSyncWrite();
    return { estopWallMs: at.wallMs, hostToBusUs: w.atUs - at.busUs, address: w.address, periodUs: host.options().periodUs };
  },
  /** Simulated bus only: a hand turns servo id (torque off) to counts; false when its torque holds it. */
  moveByHand(id, counts) {
    if (link.kind !== 'sim') throw new Error('only a simulated bus is moved by the page; move the real arm by hand');
    return link.bus.moveByHand(id, counts);
  },
  async close() {
    clearInterval(pumpTimer);
    clearInterval(snapTimer);
    if (job) { job.job.stop('closing the bus'); job.job.delete(); job = null; }
    host?.delete();
    host = null;
    link?.close();
    link = null;
    return true;
  },
};

self.onmessage = async (e) => {
  const m = e.data;
  try {
    let value;
    if (m.type === 'open') value = await open(m);
    else {
      const f = METHODS[m.method];
      if (!f) throw new Error(`the servo-bus worker has no method ${m.method}`);
      if (!host && m.method !== 'close') throw new Error('the servo bus is not open');
      value = await f(...(m.args ?? []));
    }
    self.postMessage({ type: 'reply', id: m.id, ok: true, value, snap: snap() });
  } catch (err) {
    self.postMessage({ type: 'reply', id: m.id, ok: false, error: { message: err?.message ?? String(err) }, snap: snap() });
  }
};
