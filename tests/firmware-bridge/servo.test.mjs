// The servo-bus host and the simulated buses through wasm (firmware-bridge/wasm/bind_servo.cpp, js/servo.mjs):
// the jobs of `achain bus …` / `achain send --bus` on simulated Dynamixel and Feetech buses in their own time,
// with the built-in arms so101 (Feetech) and openmanipulator-x (Dynamixel) and their default calibrations;
// the host's byte-level I/O driven from JS; refusals before anything is written; each injected bus fault; and
// the numbers of the native jobs (test_bridge_servo_jobs.cpp, and `achain send --bus … --virtual` when the
// native CLI is built) reproduced exactly.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { loadAchain } from '../../wasm/achain.mjs';
import { loadServoBus } from '../../firmware-bridge/js/bridge.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const achain = await loadAchain();
const sb = await loadServoBus();
const PROTOCOLS = ['dynamixel', 'feetech'];
const MODEL_NAME = { dynamixel: 'XM430-W350', feetech: 'STS3215' };
const COUNT = (2 * Math.PI) / 4096;  // rad per servo count

/** The default calibration file of a built-in arm (core/robots/calibration/). */
const calibrationFile = (name) => fs.readFileSync(path.join(root, 'core/robots/calibration', name), 'utf8');
const ARMS = {
  feetech: { robot: 'so101', file: 'so101.feetech.json', busIds: [1, 2, 3, 4, 5, 6], zero: 2047,
    goal: [0.5, -0.4, 0.6, -0.5, 1.0] },
  dynamixel: { robot: 'openmanipulator-x', file: 'openmanipulator-x.dynamixel.json', busIds: [11, 12, 13, 14, 15], zero: 2048,
    goal: [0.8, -0.6, 0.5, 0.9] },
};

/** Runs fn with Embind objects and frees them (and models: dispose). */
function using(objects, fn) {
  try {
    return fn(...objects);
  } finally {
    for (const o of objects) (o.dispose ?? o.delete).call(o);
  }
}

/** The host's bytes to the bus and back, as servo_jobs.cpp's pumpServo does (every stepUs of bus time), until done()
 *  or maxUs of bus time. */
function pump(host, bus, done, maxUs, stepUs = 100) {
  const end = bus.now() + maxUs;
  for (;;) {
    const now = bus.now();
    const replies = bus.read();
    if (replies.length) host.receive(replies, now);
    host.update(now);
    if (bus.portBaud() !== host.baud()) bus.setPortBaud(host.baud());
    const out = host.takeOutput();
    if (out.length) bus.write(out);
    if (done()) return true;
    if (now >= end) return false;
    bus.step(stepUs);
  }
}

/** Six servos, IDs 1-6, at 1 Mbit/s, standing at 1500 + 200·i counts (test_bridge_servo_jobs.cpp's addSix). */
const sixServos = () => [0, 1, 2, 3, 4, 5].map((i) => ({ id: i + 1, startPosition: 1500 + 200 * i }));

describe('scan', () => {
  for (const protocol of PROTOCOLS) {
    test(`${protocol}: six servos at 1 Mbit/s, IDs 1-9 at 57600 and 1M: exactly the six, with their model`, () => {
      using([new sb.ServoBusSim(protocol, sixServos()), new sb.ServoHost(protocol)], (bus, host) => {
        const found = sb.scanServos(host, bus, [1, 2, 3, 4, 5, 6, 7, 8, 9], [57600, 1000000]);
        assert.deepEqual(found, [1, 2, 3, 4, 5, 6].map((id) => ({ baud: 1000000, id, model: protocol === 'dynamixel' ? 1020 : 777,
          modelName: MODEL_NAME[protocol] })));
        assert.deepEqual(host.found(), found);
        assert.equal(sb.servoModelName(protocol, found[0].model), MODEL_NAME[protocol]);
        // the same scan driven byte by byte from JS through the host's I/O methods
        host.scan([2, 4, 7], [57600, 1000000]);
        assert.ok(pump(host, bus, () => !host.busy(), 1e6));
        assert.deepEqual(host.found().map((f) => [f.id, f.baud]), [[2, 1000000], [4, 1000000]]);
        // at the wrong baud rate nothing answers
        assert.deepEqual(sb.scanServos(host, bus, [1, 2, 3], [57600]), []);
      });
    });
  }
  test('an adapter that echoes: with echo on, the same servos; without, a named error and no phantom servo', () => {
    for (const protocol of PROTOCOLS) {
      using([new sb.ServoBusSim(protocol, [1, 2, 3]), new sb.ServoHost(protocol, { echo: true }), new sb.ServoHost(protocol)],
        (bus, echoing, plain) => {
          bus.setEcho(true);
          assert.equal(bus.echo(), true);
          assert.equal(echoing.options().echo, true);
          assert.equal(plain.options().echo, false);
          assert.deepEqual(sb.scanServos(echoing, bus, [1, 2, 3, 4], [1000000]).map((f) => f.id), [1, 2, 3], protocol);
          assert.throws(() => sb.scanServos(plain, bus, [4, 5], [1000000]),
            /scan: a packet the host sent came back as if it were a reply: the adapter echoes what it sends; turn on the adapter echo option|the adapter echoes what the host sends; turn on the adapter echo option/);
        });
    }
    assert.throws(() => new sb.ServoHost('feetech', { echo: 1 }), /ServoHost: options\.echo: must be true or false/);
    using([new sb.ServoBusSim('dynamixel', [1])], (bus) => assert.throws(() => bus.setEcho('yes'), /setEcho: must be true or false/));
  });
  test('an arm bus: so101 IDs 1-6 (Feetech), openmanipulator-x IDs 11-15 (Dynamixel)', () => {
    for (const protocol of PROTOCOLS) {
      const { busIds } = ARMS[protocol];
      using([new sb.ServoBusSim(protocol, busIds), new sb.ServoHost(protocol)], (bus, host) => {
        const ids = Array.from({ length: 20 }, (_, i) => i + 1);
        assert.deepEqual(sb.scanServos(host, bus, ids, [1000000]).map((f) => `${f.id} ${f.modelName}`),
          busIds.map((id) => `${id} ${MODEL_NAME[protocol]}`));
      });
    }
  });
});

describe('the host driven from JS through its I/O methods (receive, update, takeOutput, baud)', () => {
  for (const protocol of PROTOCOLS) {
    test(`${protocol}: connect, torque on, a stream at 100 Hz polled every 10 µs: the bytes and wire time of a period; e-stop`, () => {
      using([new sb.ServoBusSim(protocol, sixServos()), new sb.ServoHost(protocol)], (bus, host) => {
        const cal = { format: 'achain-servo-calibration', version: 1, protocol, baud: 1000000,
          joints: sixServos().map((s, i) => ({ name: `j${i + 1}`, id: s.id, direction: 1, zero_offset: s.startPosition,
            counts_per_turn: 4096, min: -1, max: 1, max_velocity: 3 })) };
        host.connect(cal);
        assert.ok(pump(host, bus, () => !host.busy(), 1e6, 10));
        assert.ok(host.ready(), host.error());
        host.enableTorque(true);
        assert.ok(pump(host, bus, () => !host.busy(), 1e6, 10));
        const sent = bus.now();  // the torque-on sync write has no reply: it has left the host, its bytes still cross the wire
        pump(host, bus, () => bus.now() - sent >= 1000, 1e6, 10);
        for (let i = 0; i < 6; i++) assert.equal(bus.torqueOn(i), true);
        assert.equal(host.startStreaming(bus.now()), '');
        assert.equal(host.setTarget([0.1, -0.1, 0.2, -0.2, 0.05, 0]), '');
        const t0 = bus.now();
        pump(host, bus, () => bus.now() - t0 >= 300000, 1e6, 10);
        const s = host.lastPeriod();
        const wire = s.endedUs - s.startedUs;
        // 10 bits a byte at 1 Mbit/s, return delay 0: test_bridge_servo_host.cpp's numbers
        assert.deepEqual([s.bytesOut, s.bytesIn], protocol === 'dynamixel' ? [64, 192] : [40, 84]);
        assert.ok(wire >= 10 * (s.bytesOut + s.bytesIn) && wire <= 10 * (s.bytesOut + s.bytesIn) + 20, `${wire} µs`);
        assert.equal(host.overruns(), 0);
        assert.ok(host.periods() >= 29, `${host.periods()} periods`);
        assert.deepEqual(host.lastGoals(), [0.1, -0.1, 0.2, -0.2, 0.05, 0].map((q, j) => sb.jointToCounts(cal, j, q)));
        host.feedback().forEach((f, j) => assert.ok(f.valid && Math.abs(f.counts - host.lastGoals()[j]) <= 1));
        // e-stop: the torque-off sync write reaches every servo within one period
        const stopAt = bus.now();
        host.estop(stopAt);
        assert.ok(pump(host, bus, () => [0, 1, 2, 3, 4, 5].every((i) => !bus.torqueOn(i)), 10000, 10));
        assert.equal(host.streaming(), false);
        assert.equal(host.error(), '');
        console.log(`# ${protocol} host I/O from JS: ${s.bytesOut} + ${s.bytesIn} bytes, ${wire} µs per period; ` +
          `torque off on every servo ${bus.now() - stopAt} µs after estop()`);
      });
    });
  }
});

describe('the native jobs test, through wasm (test_bridge_servo_jobs.cpp: puma560, six servos)', () => {
  for (const protocol of PROTOCOLS) {
    test(`${protocol}: calibration at the zero pose, range notes, a planned move within one count; bytes per period`, () => {
      using([new sb.ServoBusSim(protocol, sixServos()), achain.loadModel('puma560')], (bus, puma) => {
        const cal = using([new sb.ServoHost(protocol)], (h) =>
          JSON.parse(sb.calibrateAtZero(h, bus, protocol, 1000000, puma, [1, 2, 3, 4, 5, 6], [1, -1, 1, -1, 1, -1])));
        assert.equal(cal.protocol, protocol);
        assert.deepEqual(cal.joints.map((j) => j.zero_offset), [1500, 1700, 1900, 2100, 2300, 2500]);
        assert.deepEqual(cal.joints.map((j) => j.name), puma.coordinates.map((j) => j.name));
        assert.deepEqual(cal.joints.map((j) => j.direction), [1, -1, 1, -1, 1, -1]);
        assert.ok(Math.abs(cal.joints[1].min - (-45 * Math.PI) / 180) < 1e-12);
        const notes = sb.rangeNotes(cal, puma);
        assert.equal(notes.length, 3);
        assert.ok(notes[0].startsWith("joint 'j2' (servo ID 2): streams are limited to -0.7854 .. 3.1416 rad (-45.0° .. 180.0°)"), notes[0]);
        assert.ok(notes[1].startsWith("joint 'j3' (servo ID 3): "));
        assert.ok(notes[2].startsWith("joint 'j6' (servo ID 6): "));
        assert.equal(sb.narrowToModel(cal, puma), sb.servoCalibrationFromJson(cal));  // already narrowed
        using([new sb.ServoHost(protocol)], (host) => {
          sb.connectServos(host, bus, JSON.stringify(cal));
          assert.ok(host.ready());
          const q0 = host.feedback().map((f) => f.position);
          assert.ok(q0.every((q) => q === 0), `${q0}`);  // each servo stands at its zero
          const goal = [0.6, -0.4, 0.3, 0.8, -0.5, 0.7];
          const plan = puma.planJointPath(q0, goal, { profile: 'quintic', duration: 1.5 });
          let calls = 0;
          const rep = sb.sendToServos(host, bus, { t: plan.t, q: plan.q }, { progress: () => { calls++; } });
          assert.equal(rep.error, '');
          assert.ok(rep.ok);
          assert.ok(calls > 5);
          assert.equal(rep.overruns, 0);
          assert.ok(Math.abs(rep.elapsed - (plan.duration + 0.5)) <= 0.02, `elapsed ${rep.elapsed}`);
          assert.ok(rep.periods > (0.9 * (plan.duration + 0.5)) / 0.01, `periods ${rep.periods}`);
          for (let j = 0; j < 6; j++) {
            assert.ok(Math.abs(rep.finalErrorCounts[j]) <= 1, `joint ${j}: ${rep.finalErrorCounts[j]} counts`);
            assert.ok(Math.abs(bus.position(j) - sb.jointToCounts(cal, j, goal[j])) <= 1);
            assert.ok(bus.torqueOn(j));  // holds the last pose
          }
          // one period: one sync write and one sync read (docs/servo-buses.md, "Measured: one streaming period"); the
          // job polls the bus every 100 µs, so the last reply byte is seen up to 100 µs after it arrived
          const bytes = rep.lastPeriod.bytesOut + rep.lastPeriod.bytesIn;
          const wire = rep.lastPeriod.endedUs - rep.lastPeriod.startedUs;
          assert.equal(bytes, protocol === 'dynamixel' ? 256 : 124);
          assert.ok(wire >= 10 * bytes && wire <= 10 * bytes + 100, `${wire} µs`);
          assert.deepEqual(host.lastPeriod(), rep.lastPeriod);
          console.log(`# ${protocol} puma560: final error counts [${rep.finalErrorCounts}], ${rep.periods} periods, ` +
            `${rep.overruns} overruns, ${rep.lastPeriod.bytesOut} + ${rep.lastPeriod.bytesIn} bytes in ${wire} µs per period`);
        });
      });
    });
  }
});

describe('the built-in arms and their default calibrations', () => {
  for (const protocol of PROTOCOLS) {
    const arm = ARMS[protocol];
    test(`${arm.robot} on ${protocol}: calibrateAtZero, connect with ${arm.file}, a planned move within one count`, () => {
      const offsets = [0, 12, -20, 7, -3, 5];  // where each servo stands, counts from the file's zero
      const servos = arm.busIds.map((id, i) => ({ id, startPosition: arm.zero + offsets[i] }));
      using([new sb.ServoBusSim(protocol, servos), achain.loadModel(arm.robot)], (bus, model) => {
        const file = JSON.parse(calibrationFile(arm.file));
        const n = model.dof;
        assert.equal(file.joints.length, n);
        const ids = file.joints.map((j) => j.id);
        // the arm held at its zero pose: each servo's present position becomes the zero
        const cal = using([new sb.ServoHost(protocol)], (h) =>
          JSON.parse(sb.calibrateAtZero(h, bus, protocol, file.baud, model, ids)));
        assert.deepEqual(cal.joints.map((j) => j.zero_offset), offsets.slice(0, n).map((d) => arm.zero + d));
        assert.deepEqual(cal.joints.map((j) => [j.name, j.id, j.direction]), file.joints.map((j) => [j.name, j.id, j.direction]));
        const narrowed = JSON.parse(sb.narrowToModel(file, model));
        assert.deepEqual(narrowed.joints, JSON.parse(sb.servoCalibrationFromJson(file)).joints);  // the file is the model's
        // the model's limits, within the ±3.14159 rad a joint starts from (ServoJoint): OpenManipulator-X joint1's ±π is cut there
        cal.joints.forEach((j, i) => assert.deepEqual([j.min, j.max],
          [Math.max(narrowed.joints[i].min, -3.14159), Math.min(narrowed.joints[i].max, 3.14159)]));
        assert.deepEqual(sb.rangeNotes(narrowed, model), []);
        using([new sb.ServoHost(protocol)], (host) => {
          sb.connectServos(host, bus, sb.narrowToModel(calibrationFile(arm.file), model));
          assert.deepEqual(host.models(), ids.map(() => (protocol === 'dynamixel' ? 1020 : 777)));
          const fb = host.feedback();
          assert.deepEqual(fb.map((f) => f.counts), offsets.slice(0, n).map((d) => arm.zero + d));
          fb.forEach((f, i) => assert.ok(Math.abs(f.position - offsets[i] * COUNT) < 1e-12));
          fb.forEach((f) => assert.ok(Math.abs(f.voltage - (protocol === 'dynamixel' ? 12 : 7.4)) < 1e-9));
          const q0 = fb.map((f) => f.position);
          const plan = model.planJointPath(q0, arm.goal, { profile: 'quintic', duration: 1.5 });
          const traj = protocol === 'dynamixel' ? model.trajectoryToJson(plan) : { t: plan.t, q: plan.q };
          const rep = sb.sendToServos(host, bus, traj);
          assert.equal(rep.error, '');
          assert.ok(rep.ok);
          assert.ok(rep.periods > 0);
          assert.equal(rep.overruns, 0);
          for (let j = 0; j < n; j++) {
            assert.ok(Math.abs(rep.finalErrorCounts[j]) <= 1, `${file.joints[j].name}: ${rep.finalErrorCounts[j]} counts`);
            assert.ok(Math.abs(rep.finalQ[j] - arm.goal[j]) <= 1.5 * COUNT);
          }
          assert.deepEqual(host.lastGoals(), arm.goal.map((q, j) => sb.jointToCounts(file, j, q)));
          const wire = rep.lastPeriod.endedUs - rep.lastPeriod.startedUs;
          console.log(`# ${arm.robot} (${protocol}, ${n} servos): final error counts [${rep.finalErrorCounts}], ` +
            `${rep.periods} periods, ${rep.overruns} overruns, approach ${rep.approach} s, elapsed ${rep.elapsed} s, ` +
            `${rep.lastPeriod.bytesOut} + ${rep.lastPeriod.bytesIn} bytes in ${wire} µs per period`);
        });
      });
    });
  }
});

describe('refusals before anything is written', () => {
  for (const protocol of PROTOCOLS) {
    const arm = ARMS[protocol];
    test(`${arm.robot}: a sample outside the limits, a goal outside them, NaN, the wrong count`, () => {
      const servos = arm.busIds.map((id) => ({ id, startPosition: arm.zero }));
      using([new sb.ServoBusSim(protocol, servos), new sb.ServoHost(protocol), achain.loadModel(arm.robot)], (bus, host, model) => {
        const file = sb.narrowToModel(calibrationFile(arm.file), model);
        const joints = JSON.parse(file).joints;
        sb.connectServos(host, bus, file);
        const n = model.dof;
        const last = joints[n - 1];
        const over = arm.goal.slice();
        over[n - 1] = last.max + 0.05;
        const before = { syncWrites: bus.syncWrites(), instructions: bus.instructions(), now: bus.now(),
          positions: arm.busIds.map((_, i) => bus.position(i)) };
        const rep = sb.sendToServos(host, bus, { t: [0, 1], q: [new Array(n).fill(0), over] });
        assert.equal(rep.ok, false);
        assert.match(rep.error, /^sample 1 \(t = 1\.000 s\): /);
        assert.ok(rep.error.includes(`joint '${last.name}' (servo ID ${last.id}): goal ${over[n - 1].toFixed(4)} rad is above its maximum ${last.max.toFixed(4)} rad`), rep.error);
        assert.ok(rep.error.endsWith('refused, nothing was sent'));
        assert.deepEqual(rep.finalQ, []);
        assert.equal(bus.syncWrites(), before.syncWrites);
        assert.equal(bus.instructions(), before.instructions);
        assert.equal(bus.now(), before.now);  // not one byte went out
        assert.deepEqual(arm.busIds.map((_, i) => bus.position(i)), before.positions);
        arm.busIds.forEach((_, i) => assert.equal(bus.torqueOn(i), false));
        // the host's own check, as a stream's setTarget gets it
        assert.match(host.checkTarget(over), /above its maximum/);
        assert.match(host.setTarget(new Array(n).fill(NaN)), /goal nan rad is not a number; refused, nothing was sent/);
        assert.match(host.setTarget([0]), new RegExp(`a goal needs ${n} joint values, got 1; refused, nothing was sent`));
        assert.equal(host.takeOutput().length, 0);
        assert.equal(host.checkTarget(arm.goal), '');
      });
    });
  }
});

describe('bus faults during a stream: the servo ID and the safe state', () => {
  const faults = {
    silence: { inject: (bus, id) => bus.injectSilence(id, -1), says: (id) => `servo ID ${id} did not reply` },
    'corrupt reply': { inject: (bus, id) => bus.injectCorruptReplies(id, 3),
      says: (id, protocol) => `servo ID ${id}: its reply failed the ${protocol === 'dynamixel' ? 'CRC-16' : 'checksum'} check` },
    overload: { inject: (bus, id, protocol) => bus.injectHardwareError(id, sb.servoHardwareErrors(protocol).find((e) => e.name === 'overload').bit),
      says: (id, protocol) => (protocol === 'dynamixel' ? `servo ID ${id} reports a hardware error, overload` : `servo ID ${id} reports overload`) },
  };
  for (const protocol of PROTOCOLS) {
    for (const [fault, f] of Object.entries(faults)) {
      for (const estopAction of ['torque-off', 'hold']) {
        test(`${protocol}, ${fault}, e-stop action ${estopAction}`, () => {
          const arm = ARMS[protocol];
          const servos = arm.busIds.map((id) => ({ id, startPosition: arm.zero }));
          using([new sb.ServoBusSim(protocol, servos), new sb.ServoHost(protocol, { estopAction }), achain.loadModel(arm.robot)],
            (bus, host, model) => {
              const file = sb.narrowToModel(calibrationFile(arm.file), model);
              sb.connectServos(host, bus, file);
              const id = arm.busIds[2];
              const plan = model.planJointPath(new Array(model.dof).fill(0), arm.goal, { profile: 'quintic', duration: 1.5 });
              let injected = false;
              const rep = sb.sendToServos(host, bus, { t: plan.t, q: plan.q }, {
                progress: (t) => {
                  if (t >= 0.4 && !injected) {
                    injected = true;
                    f.inject(bus, id, protocol);
                  }
                },
              });
              assert.equal(rep.ok, false);
              assert.ok(rep.error.startsWith(f.says(id, protocol)), rep.error);
              assert.ok(rep.error.endsWith(host.safeText()), rep.error);
              assert.equal(host.error(), rep.error);
              assert.match(host.safeText(), estopAction === 'torque-off' ? /torque turned off on every servo/ : /holds its last present position/);
              assert.equal(host.streaming(), false);
              assert.ok(rep.finalQ.length === model.dof);
              for (let i = 0; i < arm.busIds.length; i++) {
                if (fault === 'silence' && arm.busIds[i] === id) continue;  // the silent one hears nothing
                if (arm.busIds[i] > Math.max(...JSON.parse(file).joints.map((j) => j.id))) continue;  // the gripper: not driven
                const faulted = fault === 'overload' && arm.busIds[i] === id;  // released its torque itself
                assert.equal(bus.torqueOn(i), estopAction === 'hold' && !faulted, `servo ID ${arm.busIds[i]}`);
              }
              // nothing more is sent after the safe state
              host.update(bus.now() + 50000);
              assert.equal(host.takeOutput().length, 0);
            });
        });
      }
    }
  }
  test('e-stop from JS mid-stream (the progress callback returns false, or throws): the safe state, named', () => {
    using([new sb.ServoBusSim('feetech', sixServos()), new sb.ServoHost('feetech', { estopAction: 'hold' })], (bus, host) => {
      const cal = { format: 'achain-servo-calibration', version: 1, protocol: 'feetech', baud: 1000000,
        joints: sixServos().map((s, i) => ({ name: `j${i + 1}`, id: s.id, direction: 1, zero_offset: s.startPosition,
          counts_per_turn: 4096, min: -1, max: 1, max_velocity: 2 })) };
      sb.connectServos(host, bus, cal);
      const rep = sb.sendToServos(host, bus, { t: [0, 2], q: [[0, 0, 0, 0, 0, 0], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5]] },
        { progress: (t) => t < 0.5 });
      assert.equal(rep.ok, false);
      assert.match(rep.error, /stopped by options\.progress during the trajectory: streaming stopped; every servo holds/);
      assert.ok(host.estopped());
      for (let i = 0; i < 6; i++) assert.equal(bus.torqueOn(i), true);
      assert.ok(rep.finalQ.every((q) => q > 0.05 && q < 0.5), `${rep.finalQ}`);
      // a progress callback that throws stops the job the same way, then its exception is rethrown
      host.setEstopAction('torque-off');
      assert.throws(() => sb.sendToServos(host, bus, { t: [0, 2], q: [[0, 0, 0, 0, 0, 0], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5]] },
        { progress: (t) => { if (t > 0.3) throw new RangeError('boom'); } }),
      (e) => e.cause instanceof RangeError && /^sendToServos: options\.progress threw \(boom\); stopped by options\.progress during the trajectory: streaming stopped and torque turned off/.test(e.message));
      assert.equal(host.streaming(), false);
      for (let i = 0; i < 6; i++) assert.equal(bus.torqueOn(i), false);
    });
  });
});

describe('parity with the native job: `achain send --bus … --virtual`', () => {
  const cli = path.join(root, 'build/native/achain');
  for (const protocol of PROTOCOLS) {
    const arm = ARMS[protocol];
    test(`${arm.robot}: the same report, number for number`, { skip: !fs.existsSync(cli) && 'build/native/achain is not built' }, () => {
      using([achain.loadModel(arm.robot)], (model) => {
        const text = calibrationFile(arm.file);
        const plan = model.planJointPath(new Array(model.dof).fill(0), arm.goal, { profile: 'quintic', duration: 1.5 });
        const move = JSON.stringify(model.trajectoryToJson(plan));
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'achain-servo-'));
        let native;
        try {
          fs.writeFileSync(path.join(dir, 'move.json'), move);
          native = JSON.parse(execFileSync(cli, ['send', '--robot', arm.robot, '--bus', protocol, '--calibration',
            path.join(root, 'core/robots/calibration', arm.file), '--virtual', '--quiet', path.join(dir, 'move.json')], { encoding: 'utf8' }));
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
        // as sendToBus builds it: the calibration narrowed to the model, its servos standing at their zeros
        const cal = JSON.parse(sb.narrowToModel(text, model));
        const servos = cal.joints.map((j) => ({ id: j.id, baud: cal.baud, startPosition: j.zero_offset }));
        using([new sb.ServoBusSim(protocol, servos), new sb.ServoHost(protocol)], (bus, host) => {
          sb.connectServos(host, bus, cal);
          const rep = sb.sendToServos(host, bus, move, { timeout: 60 });
          assert.ok(rep.ok && native.ok);
          assert.deepEqual({
            approach: rep.approach, elapsed: rep.elapsed, periods: rep.periods, overruns: rep.overruns, final_q: rep.finalQ,
            final_error: rep.finalError, final_error_counts: rep.finalErrorCounts,
            last_period: { bytes_out: rep.lastPeriod.bytesOut, bytes_in: rep.lastPeriod.bytesIn, wire_us: rep.lastPeriod.endedUs - rep.lastPeriod.startedUs },
          }, {
            approach: native.approach, elapsed: native.elapsed, periods: native.periods, overruns: native.overruns, final_q: native.final_q,
            final_error: native.final_error, final_error_counts: native.final_error_counts, last_period: native.last_period,
          });
          console.log(`# parity ${arm.robot}: native and wasm both final error counts [${native.final_error_counts}], ` +
            `${native.periods} periods, ${native.last_period.bytes_out} + ${native.last_period.bytes_in} bytes in ${native.last_period.wire_us} µs`);
        });
      });
    });
  }
});

describe('arguments', () => {
  test('protocols, IDs, options and calibrations are refused by name, never wrapped', () => {
    assert.throws(() => new sb.ServoBusSim('can', [1]), /ServoBusSim: protocol: 'dynamixel' or 'feetech' \(got 'can'\)/);
    assert.throws(() => new sb.ServoBusSim('dynamixel', [300]), /servos\[0\]: must be a whole number from 0 to 252/);
    assert.throws(() => new sb.ServoBusSim('dynamixel', [1, 1]), /servo ID 1 is given twice/);
    assert.throws(() => new sb.ServoBusSim('feetech', [{ id: 1, speed: 3 }]), /servos\[0\]: unknown option 'speed'/);
    assert.throws(() => new sb.ServoBusSim('feetech', [{ id: 1, baud: 2000000 }]), /2000000 is not a baud rate of feetech servos/);
    assert.throws(() => new sb.ServoHost('dynamixel', { estopAction: 'off' }), /'torque-off' or 'hold'/);
    assert.throws(() => new sb.ServoHost('dynamixel', { periodMs: 10 }), /unknown option 'periodMs'/);
    using([new sb.ServoBusSim('dynamixel', [1, 2]), new sb.ServoHost('feetech'), new sb.ServoHost('dynamixel')], (bus, ft, dxl) => {
      assert.throws(() => sb.scanServos(ft, bus, [1], [1000000]), /scanServos: the host speaks feetech, the bus is a dynamixel bus/);
      assert.throws(() => sb.scanServos(dxl, bus, [300], [1000000]), /scan: servo ID 300 is outside 0 \.\. 252/);
      assert.throws(() => sb.scanServos(dxl, bus, [1], [1000001]), /bauds\[0\]: 1000001 is not a baud rate of dynamixel servos/);
      assert.throws(() => bus.injectSilence(3, -1), /injectSilence: no servo with ID 3 on this bus/);
      assert.throws(() => bus.position(2), /position: servo index/);
      assert.throws(() => bus.step(-1), /step: dt must be/);
      assert.throws(() => dxl.receive([256], 0), /receive\[0\]: must be a whole number from 0 to 255/);
      assert.throws(() => dxl.update(-5), /update: nowUs: must be a time in µs/);
      assert.throws(() => sb.connectServos(dxl, bus, calibrationFile('so101.feetech.json')),
        /servo calibration: it is for a feetech bus, this host drives a dynamixel bus/);
      const bad = JSON.parse(calibrationFile('openmanipulator-x.dynamixel.json'));
      bad.joints[1].direction = 2;
      assert.throws(() => sb.connectServos(dxl, bus, bad), /servo calibration: joint 'joint2' "direction" must be 1 or -1/);
      assert.throws(() => sb.servoCalibrationFromJson('{'), /servo calibration: not JSON/);
      assert.throws(() => sb.sendToServos(dxl, bus, { t: [0, 1], q: [0, 1, 2] }), /a flat q needs a connected host/);
      assert.throws(() => sb.sendToServos(dxl, bus, { t: [1, 0], q: [[0], [0]] }), /trajectory\.t\[1\]: times must increase/);
    });
    using([achain.loadModel('so101')], (so101) => {
      assert.throws(() => sb.narrowToModel(calibrationFile('openmanipulator-x.dynamixel.json'), so101),
        /servo calibration: 4 joints, but robot 'so101' has 5 coordinates/);
      const cal = calibrationFile('so101.feetech.json');
      assert.equal(sb.jointToCounts(cal, 0, 0), 2047);
      assert.equal(sb.jointToCounts(cal, 0, 100 * COUNT), 2147);
      assert.equal(sb.countsToJoint(cal, 4, 2047 - 4096), -2 * Math.PI);
      assert.throws(() => sb.jointToCounts(cal, 5, 0), /jointToCounts: joint: must be a whole number from 0 to 4/);
      using([new sb.ServoHost('feetech'), new sb.ServoBusSim('feetech', [1])], (host, bus) => {
        assert.throws(() => sb.calibrateAtZero(host, bus, 'feetech', 1000000, {}, [1]), /model: must be an achain Model/);
        assert.throws(() => sb.calibrateAtZero(host, bus, 'feetech', 1000000, so101, [1]),
          /--ids: give one servo ID per coordinate of robot 'so101' \(5\), got 1/);
      });
    });
    assert.equal(sb.servoModelName('dynamixel', 1060), 'XL430-W250');
    assert.equal(sb.servoModelName('feetech', 1020), 'model 1020');
  });
});

describe('the send and the calibration in pieces, for a caller that pumps the host itself (the studio\'s bus worker)', () => {
  for (const protocol of PROTOCOLS) {
    const arm = ARMS[protocol];
    test(`${arm.robot} (${protocol}): ServoSendJob stepped after each pump gives sendToServos' report, to the count`, () => {
      using([achain.loadModel(arm.robot)], (model) => {
        const plan = model.planJointPath(new Array(model.dof).fill(0), arm.goal, { duration: 1.5 });
        const run = (viaJob) => using([new sb.ServoBusSim(protocol, arm.busIds.map((id) => ({ id, startPosition: arm.zero + 37 })),
        ), new sb.ServoHost(protocol)], (bus, host) => {
          sb.connectServos(host, bus, calibrationFile(arm.file));
          if (!viaJob) return sb.sendToServos(host, bus, plan, { settle: 0.3 });
          return using([new sb.ServoSendJob(host, plan, { settle: 0.3 })], (job) => {
            assert.equal(job.phase(), 'start');
            assert.ok(Math.abs(job.duration() - 1.5) < 1e-9, `${job.duration()}`);
            const phases = new Set();
            assert.ok(pump(host, bus, () => { phases.add(job.phase()); return job.step(bus.now()); }, 10e6));
            assert.deepEqual([...phases], ['start', 'torque on', 'moving to the first sample', 'running']);
            assert.equal(job.phase(), 'done');
            assert.equal(job.t(), 1.5);
            return job.report();
          });
        });
        const whole = run(false);
        const pieces = run(true);
        assert.equal(pieces.ok, true, pieces.error);
        assert.equal(whole.ok, true, whole.error);
        for (const r of [whole, pieces]) assert.ok(r.finalErrorCounts.every((c) => Math.abs(c) <= 1), `${r.finalErrorCounts}`);
        // the same job in the same bus time: the same numbers
        assert.deepEqual(pieces.finalErrorCounts, whole.finalErrorCounts);
        assert.equal(pieces.periods, whole.periods);
        assert.ok(Math.abs(pieces.approach - whole.approach) < 1e-3, `${pieces.approach} vs ${whole.approach}`);
      });
    });

    test(`${arm.robot} (${protocol}): servoJointMap, a connection and zeroAtPresent give calibrateAtZero's file`, () => {
      using([achain.loadModel(arm.robot)], (model) => {
        const ids = arm.busIds.slice(0, model.dof);
        const servos = () => arm.busIds.map((id, i) => ({ id, startPosition: 1900 + 41 * i }));
        const direct = using([new sb.ServoBusSim(protocol, servos()), new sb.ServoHost(protocol)],
          (bus, host) => sb.calibrateAtZero(host, bus, protocol, 1000000, model, ids, ids.map((_, i) => (i % 2 ? -1 : 1))));
        const pieces = using([new sb.ServoBusSim(protocol, servos()), new sb.ServoHost(protocol)], (bus, host) => {
          const map = sb.servoJointMap(protocol, 1000000, model, ids, ids.map((_, i) => (i % 2 ? -1 : 1)));
          assert.ok(JSON.parse(map).joints.every((j) => j.zero_offset === 2048), 'the default offsets, not yet read');
          host.connect(map);
          assert.throws(() => sb.zeroAtPresent(map, host, model), /has not been read/);
          assert.ok(pump(host, bus, () => host.ready(), 2e6));
          assert.equal(host.startMonitoring(bus.now()), '');
          assert.ok(pump(host, bus, () => host.feedback().every((f) => f.valid), 2e6));
          return sb.zeroAtPresent(map, host, model);
        });
        assert.equal(pieces, direct);
        assert.deepEqual(JSON.parse(pieces).joints.map((j) => j.zero_offset), ids.map((_, i) => 1900 + 41 * i));
      });
    });

    test(`${arm.robot} (${protocol}): limitAtPresent takes a joint's end of travel, moved by hand, 1° inside (the guided limits)`, () => {
      using([achain.loadModel(arm.robot)], (model) => {
        const cal = calibrationFile(arm.file);
        const zero = JSON.parse(cal).joints.map((j) => j.zero_offset);
        using([new sb.ServoBusSim(protocol, arm.busIds.slice(0, model.dof).map((id, i) => ({ id, startPosition: zero[i] }))),
          new sb.ServoHost(protocol)], (bus, host) => {
          const read = () => {
            sb.connectServos(host, bus, cal);
            return host.feedback();
          };
          const lower = model.coordinates[1].lower;
          // by hand to 30° inside joint 2's lower limit: that end, 1° further in, is the new lower limit
          const end = lower + (30 * Math.PI) / 180;
          const counts = sb.jointToCounts(cal, 1, end);
          assert.equal(bus.moveByHand(arm.busIds[1], counts), true);
          read();
          const r = sb.limitAtPresent(cal, host, model, 1, false);
          assert.equal(r.note, '');
          const measured = sb.countsToJoint(cal, 1, counts);
          assert.ok(Math.abs(JSON.parse(r.calibration).joints[1].min - (measured + Math.PI / 180)) < 1e-12, r.calibration);
          assert.deepEqual(JSON.parse(r.calibration).joints.map((j, i) => (i === 1 ? null : [j.min, j.max])),
            JSON.parse(cal).joints.map((j, i) => (i === 1 ? null : [j.min, j.max])), 'the other limits unchanged');
          // past the model's upper limit: the model's is kept, and said
          assert.equal(bus.moveByHand(arm.busIds[1], sb.jointToCounts(cal, 1, model.coordinates[1].upper + 0.2)), true);
          read();
          const past = sb.limitAtPresent(cal, host, model, 1, true);
          assert.match(past.note, /the upper end measured at \S+° is past the model's upper limit \S+°; the model's limit is kept/);
          assert.equal(JSON.parse(past.calibration).joints[1].max, model.coordinates[1].upper);
          // the upper end taken below the lower limit: refused, saying what to change
          assert.equal(bus.moveByHand(arm.busIds[1], sb.jointToCounts(cal, 1, lower - 0.1)), true);
          read();
          assert.throws(() => sb.limitAtPresent(cal, host, model, 1, true), /is at or below the lower limit .*set its direction to -1 and take the zero again/);
          assert.throws(() => sb.limitAtPresent(cal, host, model, 1, 'yes'), /limitAtPresent: upper must be true or false/);
          assert.throws(() => sb.limitAtPresent(cal, host, model, model.dof, true), /limitAtPresent: joint/);
        });
      });
    });
  }

  test('a stop from the page: the safe state goes out, the report says who stopped it; a refused trajectory never starts', () => {
    using([new sb.ServoBusSim('feetech', sixServos()), new sb.ServoHost('feetech', { estopAction: 'torque-off' })], (bus, host) => {
      const cal = { format: 'achain-servo-calibration', version: 1, protocol: 'feetech', baud: 1000000,
        joints: sixServos().map((s, i) => ({ name: `j${i + 1}`, id: s.id, direction: 1, zero_offset: s.startPosition,
          counts_per_turn: 4096, min: -1, max: 1, max_velocity: 2 })) };
      sb.connectServos(host, bus, cal);
      const traj = { t: [0, 2], q: [[0, 0, 0, 0, 0, 0], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5]] };
      using([new sb.ServoSendJob(host, traj)], (job) => {
        assert.equal(pump(host, bus, () => job.step(bus.now()) || job.t() >= 0.4, 10e6), true);
        assert.equal(job.done(), false);
        const writes = bus.instructions();
        job.stop('the studio\'s E-STOP');
        job.stop('a second press');  // the first reason stays
        assert.ok(pump(host, bus, () => job.step(bus.now()), 1e6));
        const rep = job.report();
        assert.equal(rep.ok, false);
        assert.match(rep.error, /^stopped by the studio's E-STOP during the trajectory: streaming stopped and torque turned off on every servo/);
        assert.ok(bus.instructions() > writes, 'the safe state went out');
        for (let i = 0; i < 6; i++) assert.equal(bus.torqueOn(i), false);
        assert.ok(rep.finalQ.every((q) => q > 0.05 && q < 0.5), `${rep.finalQ}`);
      });
      // outside the limits at sample 1: refused when made, nothing sent
      const sent = bus.instructions();
      using([new sb.ServoSendJob(host, { t: [0, 1], q: [[0, 0, 0, 0, 0, 0], [0, 0, 1.5, 0, 0, 0]] })], (job) => {
        assert.equal(job.done(), true);
        assert.match(job.report().error, /^sample 1 \(t = 1\.000 s\): .*j3/);
        assert.equal(job.step(bus.now()), true);
      });
      pump(host, bus, () => false, 50e3);
      assert.equal(bus.instructions(), sent);
      // a job outliving its host refuses to step
      const host2 = new sb.ServoHost('feetech');
      host2.connect(cal);
      const job = new sb.ServoSendJob(host2, traj, { settle: 0.1, torqueOffAtEnd: true });
      host2.delete();
      assert.throws(() => job.step(0), /ServoSendJob\.step: its ServoHost was deleted/);
      job.delete();
      assert.throws(() => new sb.ServoSendJob(host, traj, { progress: () => {} }), /ServoSendJob: unknown option 'progress'/);
    });
  });
});
