// Long computations stop through the core's Progress (achain/math/progress.hpp), as natively: simulate,
// simulateComputedTorque and flexibleSimulate call onProgress(fraction) every 1 % or 1000 steps, and a return of
// false stops the run with an Error naming the step ("simulate: cancelled at step k of N (t = … s)"); the module
// stays usable.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAchain } from './helpers.mjs';

let achain;
before(async () => { achain = await loadAchain(); });

const q = [0.1, 0.2, 0.3, 0, 0.5, 0];

test('simulate: onProgress returning false stops the run naming the step; undefined goes on and changes nothing', () => {
  const m = achain.loadModel('puma560');
  try {
    let calls = 0;
    assert.throws(() => m.simulate({ q, duration: 1, dt: 1e-3, onProgress: () => (++calls < 25 ? undefined : false) }),
      { message: 'simulate: cancelled at step 250 of 1000 (t = 0.25 s)' });
    assert.equal(calls, 25);
    const plain = m.simulate({ q, duration: 0.1, dt: 1e-3 });
    const seen = [];
    const told = m.simulate({ q, duration: 0.1, dt: 1e-3, onProgress: (f) => { seen.push(f); } });
    assert.equal(seen.length, 100);
    assert.equal(seen.at(-1), 1);
    assert.deepEqual(Array.from(told.q.at(-1)), Array.from(plain.q.at(-1)));
    // a 1e8-step run (minutes) given a deadline by its own callback: stopped within 1000 steps of the deadline
    const t0 = performance.now();
    assert.throws(() => m.simulate({ q, duration: 1000, dt: 1e-5, every: 100000, onProgress: () => (performance.now() - t0 < 100 ? undefined : false) }),
      { message: /^simulate: cancelled at step \d*000 of 100000000 \(t = [0-9.e-]+ s\)$/ });
    // the module is intact after the stop
    assert.deepEqual(Array.from(m.simulate({ q, duration: 0.1, dt: 1e-3 }).q.at(-1)), Array.from(plain.q.at(-1)));
  } finally {
    m.dispose();
  }
});

test('simulateComputedTorque: the same contract ("control: cancelled …")', () => {
  const m = achain.loadModel('puma560');
  try {
    const traj = { t: [0, 2], q: [q, q] };
    let calls = 0;
    assert.throws(() => m.simulateComputedTorque({ traj, dt: 1e-3, onProgress: () => (++calls < 3 ? undefined : false) }),
      { message: 'control: cancelled at step 60 of 2000 (t = 0.06 s)' });
    assert.equal(calls, 3);
    const r = m.simulateComputedTorque({ traj, dt: 1e-3, duration: 0.1, onProgress: () => true });
    assert.ok(r.t.length > 0);
  } finally {
    m.dispose();
  }
});

test('flexibleSimulate: the same contract ("flexibleSimulate: cancelled …"); watched or not, the same response', () => {
  const m = achain.loadModel('space-arm');
  try {
    const q0 = [0, 0, 0, 0, 0, 0];
    const opts = { force: [0, 2, 1], moment: [0.5, 0, 0], duration: 0.05, samples: 5 };
    const plain = m.flexibleSimulate(q0, opts);
    const tick = Math.max(1, Math.min(Math.floor(plain.steps / 100), 1000));
    const seen = [];
    const told = m.flexibleSimulate(q0, { ...opts, onProgress: (f) => { seen.push(f); } });
    assert.equal(seen.length, Math.floor(plain.steps / tick));
    assert.ok(seen.every((f, i) => i === 0 || f >= seen[i - 1]));
    assert.deepEqual(told.toolDisplacement.map((r) => Array.from(r)), plain.toolDisplacement.map((r) => Array.from(r)));
    let calls = 0;
    assert.throws(() => m.flexibleSimulate(q0, { ...opts, onProgress: () => (++calls < 10 ? true : false) }),
      { message: new RegExp(`^flexibleSimulate: cancelled at step ${10 * tick} of ${plain.steps} \\(t = [0-9.e-]+ s\\)$`) });
    assert.equal(calls, 10);
    // the model is intact after the stop
    assert.deepEqual(m.flexibleSimulate(q0, opts).toolDisplacement.map((r) => Array.from(r)), plain.toolDisplacement.map((r) => Array.from(r)));
  } finally {
    m.dispose();
  }
});
