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
    if (ticks > 200) ticks = 200; // the worker was paused: do not fast-forward seconds of physics
    vc.step(ticks);
    const out = vc.read();
    if (out.length) link.postMessage({ type: 'data', bytes: out }, [out.buffer]);
    link.postMessage({ type: 'plant', q: vc.positions(), time: vc.time });
  }, 4);
  self.postMessage({ type: 'ready', joints: vc.joints });
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
  } else if (m.type === 'close') {
    clearInterval(timer);
    vc?.delete();
    vc = null;
    self.close();
  }
}
self.onmessage = onMessage;
