// The bridge host library (firmware-bridge/js/) as the JS hosts use it: the C++ codec through wasm,
// pinned to the same golden vectors as the Catch2 tests; the C++ segment builder behind
// HostEngine.queueTrajectory; the Model → controller configuration; engine ↔ virtual controller in-process.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { loadAchain } from '../../wasm/achain.mjs';
import { loadBridge } from '../../firmware-bridge/js/bridge.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const golden = JSON.parse(fs.readFileSync(path.join(here, 'golden.json'), 'utf8'));
const hex = (u8) => Buffer.from(u8).toString('hex');
const unhex = (s) => Uint8Array.from(Buffer.from(s, 'hex'));
const bridge = await loadBridge();
const achain = await loadAchain();
const configsOf = (name) => {
  const m = achain.builtinModel(name);
  try {
    return bridge.jointConfigsFromModel(m);
  } finally {
    m.dispose();
  }
};
const DEG = Math.PI / 180;

test('CRC-16/CCITT-FALSE golden values', () => {
  for (const v of golden.crc16) assert.equal(bridge.codec.crc16(unhex(v.data)), v.crc);
  assert.equal(bridge.codec.crc16(new TextEncoder().encode('123456789')), 0x29b1);
});

test('COBS golden vectors, both directions', () => {
  for (const v of golden.cobs) {
    assert.equal(hex(bridge.codec.cobsEncode(unhex(v.raw))), v.encoded);
    assert.equal(hex(bridge.codec.cobsDecode(unhex(v.encoded))), v.raw);
  }
});

test('message frames: build and decode match the golden bytes', () => {
  for (const m of golden.messages) {
    assert.equal(hex(bridge.codec.buildFrame(m.type, m.seq, unhex(m.body))), m.frame, m.name);
    const d = bridge.codec.decodeFrame(unhex(m.frame));
    assert.equal(d.type, m.type, m.name);
    assert.equal(d.seq, m.seq, m.name);
    assert.equal(hex(d.body), m.body, m.name);
  }
});

test('property: frame(decode(frame(x))) = x on random bodies; damage is detected', () => {
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296);
  for (let it = 0; it < 500; it++) {
    const body = Uint8Array.from({ length: Math.floor(rand() * 113) }, () => (rand() < 0.2 ? 0 : Math.floor(rand() * 256)));
    const type = 1 + Math.floor(rand() * 15);
    const seq = Math.floor(rand() * 256);
    const f = bridge.codec.buildFrame(type, seq, body);
    assert.equal(f.indexOf(0), f.length - 1, 'the only zero is the delimiter');
    const d = bridge.codec.decodeFrame(f);
    assert.deepEqual([d.type, d.seq, hex(d.body)], [type, seq, hex(body)]);
    const bad = f.slice();
    const k = Math.floor(rand() * (f.length - 1));
    bad[k] ^= 1 + Math.floor(rand() * 255);
    if (bad[k] === 0) bad[k] = 0x5a;
    const r = bridge.codec.decodeFrame(bad);
    assert.ok(r.error, 'a damaged frame is refused');
  }
});

test('joint configuration from the model: limits, signed gear ratio and encoder counts (jointConfigsFromModel)', () => {
  const proto = configsOf('prototype-4a');
  assert.equal(proto.length, 4);
  const vmax = [180, 180, 180, 171];
  const amax = [720, 720, 720, 1430];
  proto.forEach((c, j) => {
    assert.equal(c.joint, j);
    assert.ok(Math.abs(c.qMin - 60 * DEG) < 1e-6 && Math.abs(c.qMax - 300 * DEG) < 1e-6, `joint ${j} limits`);
    assert.ok(Math.abs(c.vMax - vmax[j] * DEG) < 1e-5, `joint ${j} vMax`);
    assert.ok(Math.abs(c.aMax - amax[j] * DEG) < 1e-4, `joint ${j} aMax`);
    assert.equal(c.gearRatio, -50); // no motor data in the prototype's file: the simulated drive (1:−1 spline × 50:1)
    assert.equal(c.countsPerRev, 4096);
  });
  // The PUMA 560's file has motor data: its signed gear ratios reach the controller.
  const puma = configsOf('puma560');
  assert.equal(puma.length, 6);
  assert.ok(Math.abs(puma[0].gearRatio - -62.6111) < 1e-4, `${puma[0].gearRatio}`);
  assert.ok(Math.abs(puma[1].gearRatio - 107.815) < 1e-3, `${puma[1].gearRatio}`);
  // A joint without limits gets the wide ±1000 rad the wire can carry; encoder counts from the file.
  const text = JSON.stringify({
    schema_version: 1, name: 'one', joints: [{ kind: 'R', a: 0, d: 0, alpha: 0, motor: { gear_ratio: -9, encoder_counts: 2000 } }],
  });
  const m = achain.modelFromJsonString(text);
  const [c] = bridge.jointConfigsFromModel(m);
  m.dispose();
  assert.deepEqual([c.qMin, c.qMax, c.gearRatio, c.countsPerRev], [-1000, 1000, -9, 2000]);
});

test('trajectory validation is the C++ one: it names the field', () => {
  const traj = bridge.thesisTrapezoid(0.001);
  assert.deepEqual(bridge.validateTrajectory(traj), { dof: 4, samples: traj.t.length, duration: traj.t.at(-1) });
  const bad = structuredClone(traj);
  bad.q[12][3] = 'x';
  assert.throws(() => bridge.validateTrajectory(bad), /q\[12\]\[3\]/);
  assert.throws(() => bridge.validateTrajectory('{"schema": "achain-trajectory"'), /not valid JSON/);
});

test('segments from the thesis trapezoid are built and limit-checked in C++ (queueTrajectory)', () => {
  const traj = bridge.thesisTrapezoid(0.001);
  assert.equal(traj.q.at(-1)[0], 300 * DEG);
  const host = new bridge.HostEngine();
  try {
    const limits = configsOf('prototype-4a');
    // without a configuration the host refuses to check limits it does not know
    assert.throws(() => host.queueTrajectory(bridge.trajectoryText(traj), {}), /configure every joint first/);
    limits.forEach((c) => host.configureJoint(c));
    const plan = host.queueTrajectory(bridge.trajectoryText(traj), { segmentDt: 0.01 });
    assert.ok(plan.segments > 150 && plan.segments < 170, `${plan.segments} segments`);
    assert.equal(plan.lastId - plan.firstId + 1, plan.segments);
    assert.ok(Math.abs(plan.duration - traj.t.at(-1)) < 1e-12);
    plan.planned.forEach((q) => assert.equal(q, Math.round(300 * DEG * 1e6) / 1e6));
    // 25 % too fast: refused by the host, naming the joint, and nothing is queued
    const fast = structuredClone(traj);
    fast.t = fast.t.map((t) => t / 1.25);
    fast.qd = fast.qd.map((r) => r.map((v) => v * 1.25));
    const before = host.segmentsPending;
    // every sample is checked before any segment is built (issue 17): the first offending sample, by name
    assert.throws(() => host.queueTrajectory(bridge.trajectoryText(fast), { segmentDt: 0.01 }), /sample 96 \(t = 0\.0768 s\), joint 4: velocity 2\.994985 rad\/s outside ±2\.984513 rad\/s; refusing to send anything/);
    assert.equal(host.segmentsPending, before);
    // in the studio's units when the caller says which joints are angular (issue 18): joint 4's limit is 171°/s
    assert.throws(() => host.queueTrajectory(bridge.trajectoryText(fast), { segmentDt: 0.01, angular: [true, true, true, true] }),
      /joint 4: velocity 171\.6\d{3}°\/s outside ±171\.0000°\/s; refusing to send anything/);
    // samples within the limits whose cubic segments are not (issue 18's segment message in degrees): the
    // trapezoid's positions with every sampled velocity 0, so each piece is a rest-to-rest cubic; the first
    // one accelerates joint 1 at 6·Δq/T² ≈ 2160°/s², past 720°/s² × 1.5
    const still = structuredClone(traj);
    still.qd = still.qd.map((r) => r.map(() => 0));
    assert.throws(() => host.queueTrajectory(bridge.trajectoryText(still), { segmentDt: 0.01, angular: [true, true, true, true] }),
      /segment 0 \(t = 0\.000 s\), joint 1: acceleration -?\d+\.\d{4}°\/s² outside ±1080\.0000°\/s² \(a_max × accel_margin\); refusing to send/);
    assert.throws(() => host.queueTrajectory(bridge.trajectoryText(fast), { angular: 'yes' }), /options\.angular: must be an array of booleans/);
  } finally {
    host.delete();
  }
});

test('limit check of one piece is the firmware\'s', () => {
  const lim = { qMin: 0, qMax: 1, vMax: 1, aMax: 1 };
  assert.equal(bridge.codec.checkPiece(0, 0, 0.5, 0, 2, lim).violation, 'none');
  const r = bridge.codec.checkPiece(0, 0, 1.5, 0, 2, lim);
  assert.equal(r.violation, 'position');
  assert.ok(r.worst > 1);
});

/** Engine and virtual controller in lockstep: step(n) runs n ms of both; rig.t is the shared clock (ms). */
function lockstep(host, vc) {
  const rig = {
    t: 0,
    step(n = 1) {
      for (let i = 0; i < n; i++) {
        host.update(rig.t);
        const out = host.takeOutput();
        if (out.length) vc.write(out);
        vc.step(1);
        rig.t += 1;
        const back = vc.read();
        if (back.length) host.receive(back, rig.t);
      }
    },
  };
  return rig;
}

test('engine ↔ virtual controller in-process: trapezoid to < 0.1°, e-stop reported', () => {
  const vc = new bridge.VirtualController(1000, '');
  const host = new bridge.HostEngine();
  const limits = configsOf('prototype-4a');
  const rig = lockstep(host, vc);
  const step = (n) => rig.step(n);
  host.connect(rig.t);
  for (let i = 0; i < 2000 && !host.connected; i++) step();
  assert.ok(host.connected);
  assert.equal(host.caps.joints, 4);
  assert.equal(host.caps.servoHz, 1000);
  host.configureGlobal(bridge.defaultGlobalConfig());
  limits.forEach((c) => host.configureJoint(c));
  step(100);
  assert.equal(host.status.state, 'idle');
  const plan = host.queueTrajectory(bridge.trajectoryText(bridge.thesisTrapezoid(0.001)), {});
  step(100);
  host.start();
  for (let i = 0; i < 5000 && !(host.status.state === 'idle' && host.status.segmentId === plan.lastId); i++) step();
  step(500);
  const err = host.status.q.map((q) => Math.abs(q - (300 * Math.PI) / 180));
  assert.ok(Math.max(...err) < (0.1 * Math.PI) / 180, `final error ${err.map((e) => (e * 180) / Math.PI)}°`);
  assert.equal(vc.segmentsDone(), plan.segments);
  host.estop(rig.t);
  vc.write(host.takeOutput());
  assert.equal(vc.estop(), true, 'engaged as the bytes arrive');
  step(50);
  assert.equal(host.status.estop, true);
  assert.ok(host.status.faultNames.includes('estop'));
  host.delete();
  vc.delete();
});

test('the send job through wasm (beginSend / sendStep): refusals by name, phases in order, the same final error', () => {
  const vc = new bridge.VirtualController(1000, '');
  const host = new bridge.HostEngine();
  const text = bridge.trajectoryText(bridge.thesisTrapezoid(0.001));
  assert.throws(() => host.sendStep(0), /no send in progress/);
  const rig = lockstep(host, vc);
  const step = (n) => rig.step(n);
  assert.throws(() => host.beginSend(text, { checkLimits: false }, rig.t), /not connected to a controller/);
  host.connect(rig.t);
  for (let i = 0; i < 2000 && !host.connected; i++) step();
  host.configureGlobal(bridge.defaultGlobalConfig());
  configsOf('prototype-4a').forEach((c) => host.configureJoint(c));
  step(100);
  // a plan that does not start where the arm is: refused before anything is queued
  const moved = bridge.thesisTrapezoid(0.001);
  moved.q = moved.q.map((row) => row.map((x) => x + 0.2));
  assert.throws(() => host.beginSend(bridge.trajectoryText(moved), { checkLimits: false }, rig.t), /joint 1 is at [\d.]+ rad but the trajectory starts at [\d.]+ rad/);
  assert.equal(host.segmentsPending, 0);
  const plan = host.beginSend(text, { settleMs: 300 }, rig.t);
  const phases = ['streaming'];
  let r;
  let lastDone = 0;
  for (let i = 0; i < 10000; i++) {
    step();
    r = host.sendStep(rig.t);
    if (r.phase !== phases.at(-1)) phases.push(r.phase);
    assert.ok(r.progress.segmentsDone >= lastDone);
    lastDone = r.progress.segmentsDone;
    if (r.phase === 'done' || r.phase === 'failed') break;
  }
  assert.deepEqual(phases, ['streaming', 'settling', 'done']);
  assert.equal(r.ok, true);
  assert.equal(lastDone, plan.segments);
  assert.equal(vc.segmentsDone(), plan.segments);
  assert.deepEqual(r.planned, plan.planned);
  const measured = vc.positions().map((q, j) => q - plan.planned[j]);
  r.finalError.forEach((e, j) => assert.ok(Math.abs(e - measured[j]) < 2e-4, `joint ${j + 1}: ${e} vs ${measured[j]}`));
  assert.ok(r.maxAbsError < (0.1 * Math.PI) / 180, `final error ${r.maxAbsError} rad`);
  assert.equal(host.sendStep(rig.t).phase, 'done');  // the outcome stays until the next beginSend
  host.delete();
  vc.delete();
});

test('Streamer: a trajectory sent while another runs replaces it; the first send rejects naming that, the second finishes', async () => {
  const { Streamer } = await import('../../firmware-bridge/js/streamer.mjs');
  const vc = new bridge.VirtualController(1000, '');
  let t = 0; // virtual ms: the controller and the engine share it
  const transport = { write: (b) => vc.write(b), ondata: null, onclose: null, close() {} };
  let tick = null;
  const clock = { start(cb) { tick = cb; }, stop() { tick = null; } };
  const streamer = new Streamer(bridge, transport, { clock, now: () => t });
  const timer = setInterval(() => {  // 5 ms of controller time per turn of the event loop
    for (let i = 0; i < 5; i++) {
      vc.step(1);
      t += 1;
      const back = vc.read();
      if (back.length) transport.ondata(back);
      tick?.();
    }
  }, 0);
  try {
    await streamer.connect();
    await streamer.configure(configsOf('prototype-4a'));
    const traj = bridge.thesisTrapezoid(0.001);
    const first = streamer.sendTrajectory(traj, { settleMs: 100 }).then(() => 'resolved', (e) => e.message);
    await streamer.waitFor(() => streamer.status?.state === 'running', 5000, 'the first send to run');
    const second = await streamer.sendTrajectory(traj, { blendFirst: true, settleMs: 100 });
    assert.match(await first, /replaced by a newer trajectory/);
    assert.ok(second.maxAbsError < 0.1 * DEG, `final error ${second.maxAbsError} rad`);
    assert.equal(streamer.status.state, 'idle');
  } finally {
    clearInterval(timer);
    await streamer.close();
    vc.delete();
  }
});

// Issue 37: a host that configured a controller which had just gone quiet waited out its whole timeout and reported
// "timeout after 5000 ms waiting for a status after configuring", hiding the engine's own verdict (silent).
test('Streamer: a wait ends at once with the engine\'s error when the controller falls silent meanwhile', async () => {
  const { Streamer } = await import('../../firmware-bridge/js/streamer.mjs');
  const vc = new bridge.VirtualController(1000, '');
  let t = 0; // virtual ms
  let linkUp = true;  // false: the controller's bytes no longer reach the host (a stopped controller)
  const transport = { write: (b) => { if (linkUp) vc.write(b); }, ondata: null, onclose: null, close() {} };
  let tick = null;
  const clock = { start(cb) { tick = cb; }, stop() { tick = null; } };
  const streamer = new Streamer(bridge, transport, { clock, now: () => t });
  const timer = setInterval(() => {
    for (let i = 0; i < 5; i++) {
      vc.step(1);
      t += 1;
      const back = vc.read();
      if (back.length && linkUp) transport.ondata(back);
      tick?.();
    }
  }, 0);
  try {
    await streamer.connect();
    linkUp = false;
    const t0 = t;
    await assert.rejects(streamer.configure(configsOf('prototype-4a'), undefined, { timeoutMs: 5000 }),
      /controller is silent: no status for \d+ ms .*\(while waiting for (the configuration to be acknowledged|a status after configuring)\)/);
    assert.ok(t - t0 < 500, `rejected after ${t - t0} ms of silence, not at the 5000 ms timeout`);
    assert.equal(streamer.engine.sessionLost, 'silent');
  } finally {
    clearInterval(timer);
    await streamer.close();
    vc.delete();
  }
});

test('configureGlobal range-checks the watchdog before the 16-bit wire (100000 wrapped to 34464 ms)', () => {
  const host = new bridge.HostEngine();
  try {
    const global = bridge.defaultGlobalConfig();
    for (const watchdogMs of [100000, -1, 0, 9, 10001, 12.5, Number.NaN]) {
      assert.throws(() => host.configureGlobal({ ...global, watchdogMs }), /global\.watchdogMs: .*(not a watchdog|finite)/, `watchdogMs ${watchdogMs}`);
    }
    assert.throws(() => host.configureGlobal({ ...global, statusPeriodMs: 70000 }), /global\.statusPeriodMs/);
    assert.throws(() => host.configureGlobal({ ...global, accelMargin: Number.NaN }), /global\.accelMargin: must be a finite number/);
    // the bounds themselves are taken
    assert.doesNotThrow(() => host.configureGlobal({ ...global, watchdogMs: 10000 }));
    assert.doesNotThrow(() => host.configureGlobal({ ...global, watchdogMs: 10 }));
  } finally {
    host.delete();
  }
});
