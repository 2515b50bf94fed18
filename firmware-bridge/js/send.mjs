#!/usr/bin/env node
// Node host: stream a trajectory to a controller over a serial port / PTY with the same engine the
// studio uses (C++ host engine through wasm + serialport). Mirrors `achain send`.
//   node firmware-bridge/js/send.mjs --port /dev/ttyACM0 [--baud 115200] (TRAJECTORY.json | --demo thesis-trapezoid)
//        [--clear-faults] [--segment-ms 10] [--inject-drop p] [--inject-corrupt p]
// Prints one JSON object on stdout; progress lines ("started", percentages) on stderr.
import fs from 'node:fs';

import { loadBridge, thesisTrapezoid } from '../../web/src/controller/bridge.js';
import { Streamer, intervalClock } from '../../web/src/controller/streamer.js';
import { NodeSerialTransport } from './node_serial_transport.mjs';

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
const file = args.find((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--') && !['--clear-faults'].includes(args[i - 1])));
let traj;
if (demo === 'thesis-trapezoid') traj = thesisTrapezoid(0.001);
else if (file) traj = JSON.parse(fs.readFileSync(file, 'utf8'));
else fail('give a trajectory JSON file or --demo thesis-trapezoid');

const bridge = await loadBridge();
let transport;
try {
  transport = await NodeSerialTransport.open(port, Number(opt('--baud', 115200)));
} catch (e) {
  fail(e.message);
}
const streamer = new Streamer(bridge, transport, { clock: intervalClock(1) });
const drop = Number(opt('--inject-drop', 0));
const corrupt = Number(opt('--inject-corrupt', 0));
if (drop || corrupt) streamer.engine.inject(drop, corrupt, 7);
try {
  await streamer.connect();
  const joints = [0, 1, 2, 3].map((j) => bridge.defaultJointConfig(j));
  await streamer.configure(joints, bridge.defaultGlobalConfig(), { clearFaults: flag('--clear-faults') });
  let said = false;
  let lastPct = -1;
  const report = await streamer.sendTrajectory(traj, {
    segmentDt: Number(opt('--segment-ms', 10)) / 1000,
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
