// The studio's servo-bus worker (firmware-bridge/js/servo.worker.mjs) in node: its messages driven directly, the
// wall clock it reads (performance.now) replaced by one the test moves, so what a descheduled worker meets in a
// loaded browser happens here on purpose.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const calibration = fs.readFileSync(`${root}core/robots/calibration/openmanipulator-x.dynamixel.json`, 'utf8');

// the worker's global scope: postMessage collects what it sends; performance.now is the test's clock (ms)
let clockMs = 1000;
performance.now = () => clockMs;
const sent = [];
globalThis.self = globalThis;
globalThis.postMessage = (m) => sent.push(m);
await import('../../firmware-bridge/js/servo.worker.mjs');

let nextId = 1;
/** Sends one message as the page does and resolves with the worker's reply. */
function call(method, ...args) {
  const id = nextId++;
  const data = method === 'open' ? { type: 'open', id, ...args[0] } : { type: 'call', id, method, args };
  self.onmessage({ data });
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      const r = sent.find((m) => m.type === 'reply' && m.id === id);
      if (!r) return;
      clearInterval(poll);
      if (r.ok) resolve(r); else reject(new Error(r.error.message));
    }, 1);
  });
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Moves the worker's clock forward in steps of stepMs, letting its pump (every 2 ms of real time) run at each. */
async function run(ms, stepMs = 0.5) {
  for (let t = 0; t < ms; t += stepMs) {
    clockMs += stepMs;
    await sleep(3);
  }
}

after(async () => { await call('close'); });

test('E-STOP right after the worker was descheduled with a sync read in flight: the stop, not a silent servo', async () => {
  await call('open', { protocol: 'dynamixel', source: 'sim', servos: [11, 12, 13, 14].map((id) => ({ id, startPosition: 2048 })), baudRate: 1000000 });
  const c = call('connect', calibration);
  await run(200);
  await c;
  const t = call('teleop', true);
  await run(200);
  await t;
  // until a transaction is in flight at the present time (a period's sync read)
  let snap;
  for (let k = 0; k < 400; k++) {
    clockMs += 0.3;
    await sleep(3);
    snap = (await call('check', [0, 0, 0, 0])).snap;
    if (snap.busy && snap.streaming) break;
  }
  assert.ok(snap.busy && snap.streaming, 'a stream with a transaction in flight');
  // 50 ms pass with no pump (the worker descheduled), then the E-STOP message is the first thing it runs
  clockMs += 50;
  const safe = await call('estop');
  assert.equal(safe.value, 'streaming stopped and torque turned off on every servo (e-stop action: torque off)');
  await run(20);
  const after = (await call('check', [0, 0, 0, 0])).snap;
  assert.equal(after.error, '', `the host reported: ${after.error}`);
  assert.equal(after.estopped, true);
  assert.equal(after.streaming, false);
});
