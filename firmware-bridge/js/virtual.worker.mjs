// The virtual controller: the reference firmware on the simulated prototype (the C++ VirtualController
// through wasm), run in real time in a Worker behind the same byte-stream interface as a serial port.
// Bytes travel as {type:'data', bytes} over the MessagePort given at init (the studio joins it to the
// streaming worker), or over the Worker itself when none is given.
import { loadBridge } from './bridge.mjs';

let vc = null;
let last = 0;
let timer = null;
let pending = [];
let link = self; // where bytes and plant states go
const MAX_CATCHUP_TICKS = 40; // ms of simulated time per timer callback at most (the timer runs every 4 ms)

async function init(servoHz) {
  const bridge = await loadBridge();
  vc = new bridge.VirtualController(servoHz, '');
  last = performance.now();
  for (const b of pending) vc.write(b);
  pending = [];
  timer = setInterval(() => {
    const now = performance.now();
    let ticks = Math.floor(now - last); // 1 kHz servo: one tick per elapsed millisecond
    if (ticks <= 0) return;
    last += ticks;
    // A late timer means this worker was not scheduled (a starved CPU, a paused browser), which never happens to a
    // real controller: its clock waits instead of jumping. The host's worker was usually starved too; a jump of
    // 200 ms would have found no message from it and tripped the 200 ms watchdog (npm test on 2 loaded cores).
    // Up to MAX_CATCHUP_TICKS of lateness is caught up, so the host's 50 ms heartbeat keeps a wide margin.
    if (ticks > MAX_CATCHUP_TICKS) ticks = MAX_CATCHUP_TICKS;
    vc.step(ticks);
    const out = vc.read();
    if (out.length) link.postMessage({ type: 'data', bytes: out }, [out.buffer]);
    link.postMessage({ type: 'plant', q: vc.positions(), time: vc.time });
  }, 4);
  self.postMessage({ type: 'ready', joints: vc.joints });
}

/** Blocks this worker for `ms` (the tests' stand-in for a CPU that does not schedule it). */
function busyFor(ms) {
  const t = performance.now();
  while (performance.now() - t < ms);
}

function onMessage(e) {
  const m = e.data;
  if (m.type === 'init') {
    if (m.port) {
      link = m.port;
      link.onmessage = onMessage;
    }
    init(m.servoHz ?? 1000);
  } else if (m.type === 'data') {
    if (vc) vc.write(m.bytes); // bytes reach the firmware's RX path as they arrive (e-stop acts here)
    else pending.push(m.bytes);
  } else if (m.type === 'stall') {
    busyFor(m.ms); // test hook: this worker descheduled for m.ms (a starved CPU)
  } else if (m.type === 'close') {
    clearInterval(timer);
    vc?.delete();
    vc = null;
    self.close();
  }
}
self.onmessage = onMessage;
