// End to end over real pseudo-terminals: the simulator (`achain controller-sim`, the reference
// firmware at 1 kHz on the simulated prototype) on one end of a socat PTY pair, the Node host
// (serialport + the wasm host engine) on the other. Every test has a timeout and kills what it spawned.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { loadAchain } from '../../wasm/achain.mjs';
import { loadBridge } from '../../firmware-bridge/js/bridge.mjs';
import { Streamer, intervalClock } from '../../firmware-bridge/js/streamer.mjs';
import { NodeSerialTransport } from '../../firmware-bridge/js/node_serial_transport.mjs';
import { readSimLog, sleep, spawnControllerSim, stopProcess, waitFile } from './sim_log.mjs';
import { MachineProbe, judgedAgainstMachine } from './machine_probe.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cliPath = path.join(root, 'build/native/achain');
const DEG = Math.PI / 180;
const bridge = await loadBridge();
// The prototype's controller configuration, from its model (the same C++ mapping as `achain send`).
const prototypeJoints = await loadAchain().then((a) => {
  const m = a.builtinModel('prototype-4a');
  const c = bridge.jointConfigsFromModel(m);
  m.dispose();
  return c;
});

/** socat PTY pair + controller-sim on one end; returns {hostPort, log(), close()}. */
async function startRig(tag) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `achain-bridge-${tag}-`));
  const ctrl = path.join(dir, 'ctrl');
  const host = path.join(dir, 'host');
  const logPath = path.join(dir, 'log.jsonl');
  const socat = spawn('socat', [`pty,raw,echo=0,link=${ctrl}`, `pty,raw,echo=0,link=${host}`], { stdio: 'ignore' });
  await waitFile(ctrl);
  await waitFile(host);
  const { sim, banner } = await spawnControllerSim(cliPath, ['--port', ctrl, '--log', logPath, '--log-period', '0.001'])
    .catch(async (e) => { await stopProcess(socat); throw e; });
  assert.equal(banner.port, ctrl);
  const streamers = [];
  return {
    hostPort: host,
    sim,
    streamers,
    async log() {
      await stopProcess(sim);
      return readSimLog(logPath);
    },
    async close() {
      hostCounters = streamers.filter((st) => !st.closed).map((st) => ({ ...st.counters, portQueuedBytes: st.transport.pending?.() }));
      for (const st of streamers) if (!st.closed) await st.close().catch(() => {});
      await stopProcess(sim);
      await stopProcess(socat);
      try {
        const log = readSimLog(logPath);
        simLateMs = Math.max(simLateMs, log.max_late_ms ?? 0);
        simCounters = log.counters ?? null;
        simEvents = log.events.filter((e) => e.event !== 'late' || e.late_ms >= 20);
      } catch { /* no log: nothing measured */ }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

// The simulator is a process on a machine that npm test loads with other suites: a stall of 100 ms (the
// default 5 status periods) would have the host declare it silent mid-test. Real firmware does not stall;
// these tests give it 1 s (50 periods) unless they test the silence itself.
const SIM_SILENCE_PERIODS = 50;

// Each streaming test is judged against what the machine delivered (issue 37, item 4; machine_probe.mjs): a real-time
// failure while a 1 ms timer in this process or the simulator's own loop ran 100 ms late or more, or the hypervisor
// took a fifth of the CPU time, is reported as skipped with the figures; otherwise it fails.
// controller-sim logs how late its own loop ran (max_late_ms): the simulator's side of the same question.
const probe = new MachineProbe();
after(() => probe.stop());
let simLateMs = 0;
let simCounters = null; // the last simulator's counters, logged with a failure (what it received, refused, dropped)
let simEvents = [];     // its events (faults with the time since the host's last byte, its own lateness)
let hostCounters = [];  // each host's counters when the rig closed (frames sent, resent, ACKs, NAKs, statuses)
let cliPauseMs = 0;     // `achain send`'s own longest pause (its report): a native host pauses only when not run
const realtimeTest = (name, opts, body, { simStalledByTest = false } = {}) => test(name, opts, (t) => {
  simLateMs = 0;
  simCounters = null;
  simEvents = [];
  hostCounters = [];
  cliPauseMs = 0;
  // a test that stops the simulator itself (SIGSTOP) makes it late on purpose: that is no evidence of load
  const others = () => [...(simStalledByTest ? [] : [{ what: 'controller-sim', lateMs: simLateMs }]),
    ...(cliPauseMs > 0 ? [{ what: 'achain send (its own loop)', lateMs: cliPauseMs }] : [])];
  return judgedAgainstMachine(t, probe, async () => {
    try {
      return await body(t);
    } catch (e) {
      if (simCounters) t.diagnostic(`controller-sim counters: ${JSON.stringify(simCounters)}`);
      if (simEvents.length) t.diagnostic(`controller-sim events: ${JSON.stringify(simEvents.slice(0, 20))}`);
      for (const c of hostCounters) t.diagnostic(`host counters: ${JSON.stringify(c)}`);
      throw e;
    }
  }, { others });
});

async function connectHost(rig, { silencePeriods = SIM_SILENCE_PERIODS, watchdogMs = 500 } = {}) {
  const transport = await NodeSerialTransport.open(rig.hostPort, 115200);
  const streamer = new Streamer(bridge, transport, { clock: intervalClock(1), silencePeriods });
  rig.streamers.push(streamer); // closed by rig.close() even when a test fails
  await streamer.connect();
  const joints = prototypeJoints;
  // npm test runs suites in parallel: give the real-time link some slack against scheduling stalls
  await streamer.configure(joints, { ...bridge.defaultGlobalConfig(), watchdogMs });
  return { streamer, transport, joints };
}

/** Executed motion vs plan, with the plan's time origin fitted on the commanded positions. */
function compareWithPlan(log, traj) {
  const s = log.samples;
  const planAt = (t) => {
    const i = Math.min(traj.t.length - 2, Math.max(0, Math.floor(t / 0.001)));
    const f = Math.min(1, Math.max(0, (t - traj.t[i]) / 0.001));
    return traj.q[i].map((q, j) => q + f * (traj.q[i + 1][j] - q));
  };
  const first = s.state.indexOf('running');
  assert.ok(first >= 0, 'the controller ran');
  const idx = s.t.map((_, i) => i).filter((i) => s.state[i] === 'running');
  let best = { t0: 0, cmd: Infinity };
  for (let dt = -0.004; dt <= 0.004; dt += 0.0005) {
    const t0 = s.t[first] + dt;
    let worst = 0;
    for (const i of idx) {
      const p = planAt(s.t[i] - t0);
      for (let j = 0; j < 4; j++) worst = Math.max(worst, Math.abs(s.q_cmd[i][j] - p[j]));
    }
    if (worst < best.cmd) best = { t0, cmd: worst };
  }
  let track = 0;
  for (const i of idx) {
    const p = planAt(s.t[i] - best.t0);
    for (let j = 0; j < 4; j++) track = Math.max(track, Math.abs(s.q[i][j] - p[j]));
  }
  return { cmd: best.cmd, track };
}

/** The thesis trapezoid run `k` times slower (6.3 s for k = 4): the kill tests stop its host 0.4–0.5 s after it starts,
 * which must land mid-stream however late a loaded machine delivers the "started" line (the 1.6 s original once ended
 * first: no watchdog, as the controller was idle). */
function slowTrapezoid(k) {
  const tr = bridge.thesisTrapezoid(0.001);
  return { ...tr, t: tr.t.map((t) => t * k), qd: tr.qd.map((r) => r.map((v) => v / k)), qdd: tr.qdd.map((r) => r.map((a) => a / (k * k))) };
}

test('a missing controller-sim binary fails at once, naming it (it used to leave the test waiting)', { timeout: 10000 }, async () => {
  await assert.rejects(spawnControllerSim(path.join(root, 'build/no-such-folder/achain'), []), /build\/no-such-folder\/achain is missing: build the CLI first/);
});

realtimeTest('PTY: the thesis trapezoid, all four joints, executed as planned', { timeout: 60000 }, async () => {
  const rig = await startRig('trap');
  try {
    const { streamer } = await connectHost(rig);
    const traj = bridge.thesisTrapezoid(0.001);
    const report = await streamer.sendTrajectory(traj);
    await streamer.close();
    assert.ok(report.maxAbsError < 0.1 * DEG, `final error ${(report.maxAbsError / DEG).toFixed(4)}° < 0.1°`);
    const log = await rig.log();
    assert.deepEqual(log.final.faults, []);
    // no lost, duplicated or reordered segment: each accepted once, all executed, none refused
    assert.equal(log.counters.segments_accepted, report.segments);
    assert.equal(log.counters.segments_done, report.segments);
    assert.equal(log.counters.segments_rejected, 0);
    const cmp = compareWithPlan(log, traj);
    assert.ok(cmp.cmd < 0.05 * DEG, `commanded vs plan ${(cmp.cmd / DEG).toFixed(4)}°`);
    assert.ok(cmp.track < 0.5 * DEG, `executed vs plan ${(cmp.track / DEG).toFixed(4)}°`);
  } finally {
    await rig.close();
  }
});

realtimeTest('PTY: corrupted and dropped bytes in both directions are detected and recovered', { timeout: 60000 }, async () => {
  const rig = await startRig('dmg');
  try {
    // What is tested is recovery from damage, not the watchdog (its own tests below): a cold npm test once saw this
    // stream stop on a 500 ms watchdog with the node suites and their wasm workers loading both cores, the host
    // resending 191 of 314 frames. 5 s keeps a scheduling stall from ending the stream early.
    const { streamer, transport } = await connectHost(rig, { watchdogMs: 5000 });
    let seed = 5;
    const rand = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 4294967296);
    let flipped = 0, dropped = 0;
    const damage = (bytes) => {
      const out = [];
      for (const b of bytes) {
        const r = rand();
        if (r < 0.0005) { dropped++; continue; }
        if (r < 0.001) { flipped++; out.push(b ^ 0x41); continue; }
        out.push(b);
      }
      return Uint8Array.from(out);
    };
    transport.txTap = damage; // host → controller
    streamer.rxTap = damage;  // controller → host
    const report = await streamer.sendTrajectory(bridge.thesisTrapezoid(0.001));
    await streamer.close();
    assert.ok(flipped > 0 && dropped > 0, 'damage was injected');
    assert.ok(report.maxAbsError < 0.1 * DEG, `final error ${(report.maxAbsError / DEG).toFixed(4)}°`);
    assert.ok(report.counters.framesResent > 0, 'frames were resent');
    assert.ok(report.counters.rxCrcErrors + report.counters.rxMalformed > 0, 'the host saw damaged replies');
    const log = await rig.log();
    assert.ok(log.counters.crc_errors + log.counters.malformed > 0, 'the controller saw damaged frames');
    assert.equal(log.counters.segments_accepted, report.segments);
    assert.equal(log.counters.segments_done, report.segments);
    assert.equal(log.counters.segments_rejected, 0);
    assert.deepEqual(log.final.faults, []);
  } finally {
    await rig.close();
  }
});

realtimeTest('PTY: a simulator stalled 300 ms is declared silent by default, and tolerated with silencePeriods', { timeout: 60000 }, async () => {
  // npm test's parallel suites can stall the simulator's process; this is what that does to a session
  const stall = async (rig) => {
    rig.sim.kill('SIGSTOP');
    await sleep(300);
    rig.sim.kill('SIGCONT');
    await sleep(100);
  };
  const strict = await startRig('silent');
  try {
    const { streamer } = await connectHost(strict, { silencePeriods: 5 });
    await stall(strict);
    assert.equal(streamer.engine.sessionLost, 'silent');
    assert.match(streamer.engine.error, /controller is silent: no status for \d+ ms \(5 status periods of 20 ms\)/);
  } finally {
    await strict.close();
  }
  const patient = await startRig('patient');
  try {
    const { streamer } = await connectHost(patient, { silencePeriods: 50 });
    await stall(patient);
    assert.equal(streamer.engine.sessionLost, '', streamer.engine.error);
    const report = await streamer.sendTrajectory(bridge.thesisTrapezoid(0.001));
    assert.ok(report.maxAbsError < 0.1 * DEG, `final error ${(report.maxAbsError / DEG).toFixed(4)}°`);
  } finally {
    await patient.close();
  }
  assert.throws(() => new bridge.HostEngine({ silencePeriods: 0 }), /silencePeriods must be a whole number/);
  assert.throws(() => new bridge.HostEngine({ silence: 9 }), /unknown option 'silence'/);
}, { simStalledByTest: true });

// Issue 37: a simulator that waited for the CPU read the host's queued window and resends (kilobytes) in one PTY
// read and fed it to the firmware before its main loop ran: the 20-frame inbox overflowed (inbox_full 15 and 58 in
// loaded runs), frames were dropped, resent into the same overflow, and the stream ended in an underrun. Here the
// simulator is stopped while a send begins (the host's window and its resends pile up), then continued.
realtimeTest('PTY: a burst queued while the simulator was stopped reaches the firmware without overflowing its inbox', { timeout: 60000 }, async () => {
  const rig = await startRig('burst');
  try {
    const { streamer } = await connectHost(rig);
    rig.sim.kill('SIGSTOP');
    const done = streamer.sendTrajectory(slowTrapezoid(2));
    await sleep(350); // 16 frames, then a resend of all 16 every 80 ms
    rig.sim.kill('SIGCONT');
    const report = await done;
    assert.ok(report.maxAbsError < 0.1 * DEG, `final error ${(report.maxAbsError / DEG).toFixed(4)}°`);
    assert.ok(report.counters.framesResent >= 16, `the stop made the host resend (${report.counters.framesResent} frames)`);
    await streamer.close();
    const log = await rig.log();
    assert.equal(log.counters.inbox_full, 0, 'no frame was dropped for a full inbox');
    assert.equal(log.counters.segments_done, report.segments);
    assert.deepEqual(log.final.faults, []);
  } finally {
    await rig.close();
  }
}, { simStalledByTest: true });

realtimeTest('PTY: killing the host mid-stream triggers the watchdog stop', { timeout: 60000 }, async () => {
  const rig = await startRig('kill');
  try {
    const trajPath = path.join(path.dirname(rig.hostPort), 'slow-trapezoid.json');
    fs.writeFileSync(trajPath, JSON.stringify(slowTrapezoid(4)));
    const child = spawn(process.execPath, [path.join(root, 'firmware-bridge/js/send.mjs'), '--port', rig.hostPort, trajPath,
      '--silence-periods', String(SIM_SILENCE_PERIODS)], { stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise((resolve, reject) => {
      let err = '', out = '';
      const to = setTimeout(() => reject(new Error('send.mjs did not start')), 15000);
      child.stdout.on('data', (d) => { out += d; });
      child.stderr.on('data', (d) => { err += d; if (err.includes('started')) { clearTimeout(to); resolve(); } });
      child.once('exit', (c) => { clearTimeout(to); reject(new Error(`send.mjs exited early (${c}): ${err}${out}`)); });
    });
    await sleep(500);
    child.kill('SIGKILL');
    await sleep(1500);
    const log = await rig.log();
    assert.ok(log.final.faults.includes('watchdog'), `faults: ${log.final.faults}`);
    assert.equal(log.final.state, 'fault');
    const iStop = log.samples.state.indexOf('stopping');
    assert.ok(iStop > 0, 'a controlled stop happened');
    // stopped: the last samples are at rest, and short of the planned end (it really stopped mid-stream)
    const n = log.samples.q.length;
    for (let j = 0; j < 4; j++) {
      assert.ok(Math.abs(log.samples.q[n - 1][j] - log.samples.q[n - 50][j]) < 1e-4, 'at rest');
      assert.ok(log.samples.q[n - 1][j] < 299 * DEG);
    }
  } finally {
    await rig.close();
  }
});

realtimeTest('PTY: e-stop halts within one servo period and is reported back', { timeout: 60000 }, async () => {
  const rig = await startRig('estop');
  try {
    const { streamer } = await connectHost(rig);
    const done = streamer.sendTrajectory(bridge.thesisTrapezoid(0.001)).catch((e) => e);
    await streamer.waitFor(() => streamer.status?.state === 'running' && streamer.status.trajTime > 0.5, 10000, 'motion');
    streamer.estop();
    await streamer.waitFor(() => streamer.status?.estop === true, 2000, 'the e-stop to be reported');
    const err = await done;
    assert.match(String(err.message), /estop/);
    await sleep(300);
    await streamer.close();
    const log = await rig.log();
    assert.equal(log.estop.engaged, true);
    assert.equal(log.estop.drive_enabled, false);
    assert.ok(log.estop.halt_tick - log.estop.rx_tick <= 1, `drive off ${log.estop.halt_tick - log.estop.rx_tick} ticks after the frame`);
    assert.ok(log.final.faults.includes('estop'));
  } finally {
    await rig.close();
  }
});

realtimeTest('PTY: out-of-limit segments are refused by the host and by the controller', { timeout: 60000 }, async () => {
  const rig = await startRig('limits');
  try {
    const { streamer } = await connectHost(rig);
    const fast = bridge.thesisTrapezoid(0.001);
    fast.t = fast.t.map((t) => t / 1.25);
    fast.qd = fast.qd.map((r) => r.map((v) => v * 1.25));
    await assert.rejects(streamer.sendTrajectory(fast), /sample \d+ \(t = [\d.]+ s\), joint \d: (velocity|acceleration)/); // host side, every sample
    // bypass the host check: the controller refuses and stops
    await assert.rejects(streamer.sendTrajectory(fast, { checkLimits: false }), /segment_limit/);
    const ev = streamer.engine.events;
    assert.ok(ev.some((e) => e.fault === 'segment_limit' && e.joint !== null));
    await streamer.close();
    const log = await rig.log();
    assert.ok(log.counters.segments_rejected >= 1);
  } finally {
    await rig.close();
  }
});

realtimeTest('CLI acceptance: controller-sim + achain send stream the trapezoid; killing send triggers the watchdog', { timeout: 90000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'achain-bridge-cli-'));
  const logPath = path.join(dir, 'log.jsonl');
  const trajPath = path.join(dir, 'trapezoid.json');
  const slowPath = path.join(dir, 'slow-trapezoid.json');
  fs.writeFileSync(trajPath, JSON.stringify(bridge.thesisTrapezoid(0.001)));
  fs.writeFileSync(slowPath, JSON.stringify(slowTrapezoid(4)));
  const start = async (log) => {
    const { sim, banner } = await spawnControllerSim(cliPath, ['--log', log]);
    return { sim, port: banner.port };
  };
  // what the machine delivered: both simulators' lateness (their logs) and the sender's own pauses (its report)
  const judge = (text) => {
    const m = /own loop paused for up to (\d+) ms/.exec(text) ?? /"max_host_pause_ms":\s*([\d.]+)/.exec(text);
    if (m) cliPauseMs = Math.max(cliPauseMs, Number(m[1]));
  };
  const simLate = (file) => {
    try {
      const L = readSimLog(file);
      simLateMs = Math.max(simLateMs, L.max_late_ms ?? 0, ...L.events.filter((e) => e.event === 'late').map((e) => e.late_ms));
    } catch { /* no log: nothing measured */ }
  };
  let a, b;
  try {
    a = await start(path.join(dir, 'log-a.jsonl'));
    // This part checks streaming end to end, not timing: a 1 s watchdog keeps a CPU-starved machine (parallel
    // builds, loaded CI) from stopping the arm between two heartbeats. The 200 ms default is checked below.
    const send = spawn(cliPath, ['send', '--port', a.port, '--baud', '115200', '--watchdog-ms', '1000', '--silence-periods', String(SIM_SILENCE_PERIODS), trajPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    send.stdout.on('data', (d) => { out += d; });
    send.stderr.on('data', (d) => { err += d; });
    const code = await new Promise((resolve) => send.once('exit', resolve));
    judge(err + out);
    if (code !== 0) {
      await stopProcess(a.sim);
      simLate(path.join(dir, 'log-a.jsonl'));
    }
    assert.equal(code, 0, err);
    const rep = JSON.parse(out);
    assert.equal(rep.ok, true);
    assert.ok(rep.max_final_error_deg < 0.1, `max final error ${rep.max_final_error_deg}°`);
    assert.ok(rep.final_error_deg.every((e) => Math.abs(e) < 0.1));
    assert.match(err, /segment \d+\/\d+/, 'progress on stderr');

    b = await start(logPath);
    const send2 = spawn(cliPath, ['send', '--port', b.port, '--silence-periods', String(SIM_SILENCE_PERIODS), slowPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise((resolve, reject) => {
      let e2 = '';
      const to = setTimeout(() => reject(new Error(`send did not start: ${e2}`)), 15000);
      send2.stderr.on('data', (d) => { e2 += d; if (/running/.test(e2)) { clearTimeout(to); resolve(); } });
      send2.once('exit', (c) => {
        clearTimeout(to);
        judge(e2);
        reject(new Error(`send exited early (${c}): ${e2}`));
      });
    }).catch(async (e) => {
      await stopProcess(b.sim);
      simLate(logPath);
      throw e;
    });
    await sleep(400);
    send2.kill('SIGKILL');
    await sleep(1500);
    await stopProcess(b.sim);
    simLate(logPath);
    const log = readSimLog(logPath);
    assert.ok(log.final.faults.includes('watchdog'), `faults ${log.final.faults}`);
    assert.equal(log.final.state, 'fault');
  } finally {
    await stopProcess(a?.sim);
    await stopProcess(b?.sim);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
