#!/usr/bin/env node
// Node host: stream a trajectory to a controller over a serial port / PTY with the same engine the
// studio uses (C++ host engine through wasm + serialport). Mirrors `achain send`.
//   node firmware-bridge/js/send.mjs --port /dev/ttyACM0 [--baud 115200] (TRAJECTORY.json | --demo thesis-trapezoid)
//        [--robot prototype-4a|FILE.json] [--clear-faults] [--approach] [--segment-ms 10] [--watchdog-ms 200]
//        [--silence-periods 5] [--inject-drop p] [--inject-corrupt p]
// Prints one JSON object on stdout; progress lines ("started", percentages) on stderr.
import fs from 'node:fs';

import { loadAchain } from '../../wasm/achain.mjs';
import { loadBridge } from './bridge.mjs';
import { NodeSerialTransport } from './node_serial_transport.mjs';
import { Streamer, intervalClock } from './streamer.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const flag = (name) => args.includes(name);
const fail = (msg, code = 1) => {
  process.stderr.write(`send.mjs: error: ${msg}\n`);
  process.exit(code);
};

const port = opt('--port');
if (!port) fail('--port PATH is required');
const demo = opt('--demo');
const whole = (name, dflt, lo, hi) => {
  const v = Number(opt(name, dflt));
  if (!(Number.isInteger(v) && v >= lo && v <= hi)) fail(`${name}: must be a whole number from ${lo} to ${hi}`);
  return v;
};
const watchdogMs = Number(opt('--watchdog-ms', 200)); // range-checked by the engine (configureGlobal), before the wire
const silencePeriods = whole('--silence-periods', 5, 1, 1000);
const file = args.find((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--') && !['--clear-faults', '--approach'].includes(args[i - 1])));
const bridge = await loadBridge();
let traj;
if (demo === 'thesis-trapezoid') traj = bridge.thesisTrapezoid(0.001);
else if (file) {
  try {
    traj = fs.readFileSync(file, 'utf8');
    bridge.validateTrajectory(traj);
  } catch (e) {
    fail(`${file}: ${e.message}`);
  }
} else fail('give a trajectory JSON file or --demo thesis-trapezoid');

// The controller's joint configuration comes from the robot model (the C++ jointConfigsFromModel).
const achain = await loadAchain();
const robot = opt('--robot', 'prototype-4a');
let joints;
try {
  const model = robot.endsWith('.json') ? achain.modelFromJsonString(fs.readFileSync(robot, 'utf8')) : achain.builtinModel(robot);
  joints = bridge.jointConfigsFromModel(model);
  model.dispose();
} catch (e) {
  fail(`--robot ${robot}: ${e.message}`);
}

let transport;
try {
  transport = await NodeSerialTransport.open(port, Number(opt('--baud', 115200)));
} catch (e) {
  fail(e.message);
}
const streamer = new Streamer(bridge, transport, { clock: intervalClock(1), silencePeriods });
const drop = Number(opt('--inject-drop', 0));
const corrupt = Number(opt('--inject-corrupt', 0));
if (drop || corrupt) streamer.engine.inject(drop, corrupt, 7);
try {
  await streamer.connect();
  await streamer.configure(joints, { ...bridge.defaultGlobalConfig(), watchdogMs }, { clearFaults: flag('--clear-faults') });
  let said = false;
  let lastPct = -1;
  const report = await streamer.sendTrajectory(traj, {
    segmentDt: Number(opt('--segment-ms', 10)) / 1000,
    approach: flag('--approach'),
    onProgress: (p) => {
      if (!said && p.state === 'running') {
        said = true;
        process.stderr.write('started\n');
      }
      const pct = Math.floor((100 * p.segmentsDone) / p.segmentsTotal / 10) * 10;
      if (pct !== lastPct) {
        lastPct = pct;
        process.stderr.write(`${pct}% segment ${p.segmentsDone}/${p.segmentsTotal} buffer ${p.queueFill}\n`);
      }
    },
  });
  process.stdout.write(`${JSON.stringify({ ok: true, max_final_error_deg: (report.maxAbsError * 180) / Math.PI,
    final_error: report.finalError, segments: report.segments, counters: report.counters, state: report.status.state })}\n`);
  await streamer.close();
  process.exit(0);
} catch (e) {
  process.stdout.write(`${JSON.stringify({ ok: false, error: e.message, status: streamer.status })}\n`);
  await streamer.close();
  process.exit(e.faults ? 2 : 1);
}
