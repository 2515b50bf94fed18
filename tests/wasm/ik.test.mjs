// IK through the wasm module: thesis example, PUMA 8 solutions, native parity, teleoperation loop, errors.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadAchain, cli, rng, randomQ, maxAbsDiff } from './helpers.mjs';

const deg = Math.PI / 180;
const achain = await loadAchain();

test('ikAll: prototype-4a thesis target → exactly the thesis solution', () => {
  const m = achain.loadModel('prototype-4a');
  const T = m.forwardKinematics([84.107 * deg, 224.203 * deg, 106.791 * deg, 236.997 * deg]).tool;
  const r = m.ikAll(T);
  assert.equal(r.status, 'ok');
  assert.equal(r.method, 'closed');
  assert.equal(r.solutions.length, 1);
  const got = Array.from(r.solutions[0].q, (x) => x / deg);
  assert.ok(maxAbsDiff(got, [84.107, 224.203, 106.791, 236.997]) < 0.01, String(got));
  m.dispose();
});

test('ikAll: puma560 gives 8 solutions with flags, each reproducing the pose; parity with the CLI', () => {
  const m = achain.loadModel('puma560');
  const q = [20, 30, -60, 40, 50, 60].map((x) => x * deg);
  const T = m.forwardKinematics(q).tool;
  const r = m.ikAll(T);
  const every = [...r.solutions, ...r.outsideLimits];
  assert.equal(every.length, 8);
  for (const s of every) {
    assert.ok(s.positionError < 1e-9 && s.orientationError < 1e-9);
    assert.ok(maxAbsDiff(m.forwardKinematics(s.q).tool, T) < 1e-9);
    assert.ok(['left', 'right'].includes(s.flags.arm));
  }
  const native = cli('ik', '--robot', 'puma560', '--q-target', '20,30,-60,40,50,60', '--deg', '--all');
  assert.equal(native.details.length, r.solutions.length);
  for (let k = 0; k < r.solutions.length; k++) {
    assert.ok(maxAbsDiff(native.details[k].q, r.solutions[k].q) < 1e-11);
  }
  m.dispose();
});

test('ikNumeric: IK∘FK from random seeds on both robots (≥ 99.9 % with restarts)', () => {
  for (const robot of ['puma560', 'prototype-4a']) {
    const m = achain.loadModel(robot);
    const rand = rng(9);
    let ok = 0;
    const N = 300;
    for (let k = 0; k < N; k++) {
      const T = m.forwardKinematics(randomQ(m, rand)).tool;
      const r = m.ikNumeric(T, randomQ(m, rand), { restarts: 50 });
      if (r.status === 'ok' && m.withinLimits(r.q) && maxAbsDiff(m.forwardKinematics(r.q).tool, T) < 1e-6) ok++;
    }
    assert.ok(ok >= N - 1, `${robot}: ${ok}/${N}`);
    m.dispose();
  }
});

test('ikNumeric: teleoperation loop stays on the seed branch; unreachable gives the nearest pose', () => {
  const m = achain.loadModel('puma560');
  let q = Float64Array.from([0.1, 0.6, -1.2, 0.3, 0.9, 0.2]);
  for (let k = 0; k < 100; k++) {
    const qt = Float64Array.from(q);
    qt[0] += 0.005; qt[2] += 0.003;
    const T = m.forwardKinematics(qt).tool;
    const r = m.ikNumeric(T, q);
    assert.equal(r.status, 'ok');
    assert.ok(maxAbsDiff(r.q, qt) < 1e-7);
    q = r.q;
  }
  // far beyond reach: least squares, finite, inside limits
  const T = Float64Array.from([1, 0, 0, 5, 0, 1, 0, 0, 0, 0, 1, 0.5, 0, 0, 0, 1]);
  const r = m.ikNumeric(T, q);
  assert.equal(r.status, 'unreachable');
  assert.ok(Number.isFinite(r.residual) && r.residual > 1);
  assert.ok(m.withinLimits(r.q));
  m.dispose();
});

test('ikNumeric: native parity (same code, same numbers)', () => {
  const m = achain.loadModel('stanford');
  const native = cli('ik', '--robot', 'stanford', '--q-target', '10,20,0.5,40,50,60', '--deg', '--seed', '0,0,0.4,0,0,0', '--restarts', '0');
  const T = Float64Array.from(native.target.flat());
  const r = m.ikNumeric(T, [0, 0, 0.4, 0, 0, 0].map((x, i) => (i === 2 ? x : x * deg)));
  assert.equal(r.status, native.status);
  const nq = native.q;  // the CLI prints SI (rad, m)
  assert.ok(maxAbsDiff(r.q, nq) < 1e-9, `${Array.from(r.q)} vs ${nq}`);
  m.dispose();
});

test('ik: malformed targets and options throw named errors', () => {
  const m = achain.loadModel('puma560');
  const q = new Float64Array(6);
  assert.throws(() => m.ikNumeric([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1], q), /targetT: rotation is not orthonormal/);
  assert.throws(() => m.ikNumeric([NaN, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], q), { message: 'targetT[0]: must be a finite number' });
  assert.throws(() => m.ikNumeric(m.forwardKinematics(q).tool, [0, 0, NaN, 0, 0, 0]), /seedQ\[2\]/);
  assert.throws(() => m.ikNumeric(m.forwardKinematics(q).tool, [0, 0]), /seedQ: expected 6 values/);
  assert.throws(() => m.ikNumeric(m.forwardKinematics(q).tool, q, { positionWeight: -1 }), /positionWeight/);
  // weights whose squares overflow ran unbounded in a worker (issue 37): refused with the range
  assert.throws(() => m.ikNumeric(m.forwardKinematics(q).tool, q, { positionWeight: 1e308 }), /positionWeight: 1e\+308 is outside \[1e-6, 1e6\]/);
  assert.throws(() => m.ikNumeric(m.forwardKinematics(q).tool, q, { orientationWeight: 1e160 }), /orientationWeight: 1e\+160 is outside/);
  assert.throws(() => m.ikAll(m.forwardKinematics(q).tool, { method: 'magic' }), /method/);
  m.dispose();
});

test('ikAll method algebraic (homotopy): thesis target, 4 real intersection points, 1 genuine; parity with the CLI', () => {
  const m = achain.loadModel('prototype-4a');
  const T = m.forwardKinematics([84.107 * deg, 224.203 * deg, 106.791 * deg, 236.997 * deg]).tool;
  const r = m.ikAll(T, { method: 'algebraic' });
  assert.equal(r.status, 'ok');
  assert.equal(r.method, 'algebraic');
  assert.equal(r.solutions.length, 1);
  assert.match(r.note, /4 real intersection point\(s\) \(homotopy\), 3 spurious/);
  const got = Array.from(r.solutions[0].q, (x) => x / deg);
  assert.ok(maxAbsDiff(got, [84.107, 224.203, 106.791, 236.997]) < 0.01, String(got));
  const native = cli('ik', '--robot', 'prototype-4a', '--q-target', '84.107,224.203,106.791,236.997', '--deg', '--all', '--method', 'algebraic');
  assert.ok(maxAbsDiff(native.solutions[0], r.solutions[0].q) < 1e-9);
  m.dispose();
});

test('per-model IK state lives in the model handle: two models solve independently, dispose frees it', () => {
  const a = achain.loadModel('puma560');
  const b = achain.loadModel('prototype-4a');
  const qa = [0.3, -0.4, 0.5, 0.6, -0.7, 0.8];
  const qb = [1.5, 4.0, 2.0, 4.2];
  const ra = a.ikNumeric(a.forwardKinematics(qa).tool, qa.map((x) => x + 0.01));
  const rb = b.ikNumeric(b.forwardKinematics(qb).tool, qb.map((x) => x + 0.01));
  const ra2 = a.ikNumeric(a.forwardKinematics(qa).tool, qa.map((x) => x + 0.01));
  assert.equal(ra.status, 'ok');
  assert.equal(rb.status, 'ok');
  assert.ok(maxAbsDiff(ra.q, qa) < 1e-8 && maxAbsDiff(rb.q, qb) < 1e-8);
  assert.ok(maxAbsDiff(ra.q, ra2.q) === 0);
  assert.equal(typeof achain.module.ikRelease, 'undefined');  // no side table to release any more
  a.dispose();
  b.dispose();
  const c = achain.loadModel('puma560');  // a fresh handle gets fresh state
  assert.equal(c.ikNumeric(c.forwardKinematics(qa).tool, qa).status, 'ok');
  c.dispose();
});

test('ikAll minSeparation: position-only on prototype-4a keeps distinct postures (same as the native option); bad values refused', () => {
  const m = achain.loadModel('prototype-4a');
  const seedQ = [150, 120, 200, 100].map((x) => x * deg);
  const T = m.forwardKinematics(seedQ).tool;
  const raw = m.ikAll(T, { seedQ, positionOnly: true, restarts: 20 });
  const sep = 30 * deg;
  const r = m.ikAll(T, { seedQ, positionOnly: true, restarts: 20, minSeparation: sep });
  assert.ok(raw.solutions.length >= 10 && r.solutions.length >= 2 && r.solutions.length < raw.solutions.length, `${r.solutions.length} of ${raw.solutions.length}`);
  assert.ok(maxAbsDiff(r.solutions[0].q, seedQ) < 1e-6, 'the seed first');
  for (let a = 0; a < r.solutions.length; a++)
    for (let b = 0; b < a; b++) assert.ok(maxAbsDiff(r.solutions[a].q, r.solutions[b].q) >= sep);
  for (const s of raw.solutions) assert.ok(Math.min(...r.solutions.map((k) => maxAbsDiff(s.q, k.q))) < sep, 'every dropped one has a representative');
  assert.match(r.note, /converged, \d+ distinct/);
  assert.throws(() => m.ikAll(T, { seedQ, positionOnly: true, minSeparation: -1 }), /minSeparation/);
  assert.throws(() => m.ikAll(T, { seedQ, positionOnly: true, minSeparation: NaN }), /minSeparation/);
  m.dispose();
});

test("ikAll: a general 6R arm (no closed form) → method 'general6r', all 16 solutions, the same set as native", () => {
  const a = [0.921, 0.050, -0.601, 0.373, 1.031, 0.694], alpha = [1.291, -1.876, 1.032, -1.704, 1.174, -0.159];
  const d = [0.465, -0.210, -0.634, 0.587, 0.226, -0.617];
  const desc = { schema_version: 1, name: 'arm16', units: { length: 'm', angle: 'rad' }, convention: 'standard',
    joints: a.map((_, i) => ({ name: `j${i + 1}`, kind: 'R', a: a[i], d: d[i], alpha: alpha[i] })) };
  const m = achain.loadModel(desc);
  const q = [2.297, -0.767, 0.021, -2.465, 1.906, 0.897];
  const T = m.forwardKinematics(q).tool;
  const auto = m.ikAll(T, { seedQ: q });
  assert.equal(auto.method, 'general6r');
  assert.equal(auto.status, 'ok');
  assert.equal(auto.solutions.length, 16);
  assert.ok(maxAbsDiff(auto.solutions[0].q, q) < 1e-9);  // nearest the seed first: the generating one
  for (const s of auto.solutions) {
    assert.ok(s.positionError + s.orientationError <= 1e-10);
    assert.ok(maxAbsDiff(m.forwardKinematics(s.q).tool, T) < 1e-9);
  }
  const explicit = m.ikAll(T, { method: 'general6r' });
  assert.equal(explicit.method, 'general6r');
  assert.equal(explicit.solutions.length, 16);
  assert.throws(() => m.ikAll(T, { method: 'eigen' }), /general6r/);
  m.dispose();
});

test("ikAll: a general 4A-chain (axes 2, 3 skew: no closed form) → method 'sweep', the same set as native and as the homotopy", () => {
  const m = achain.loadModel('general-4a');
  const qdeg = [100, 200, 150, 250];
  const T = m.forwardKinematics(qdeg.map((x) => x * deg)).tool;
  const auto = m.ikAll(T, { seedQ: qdeg.map((x) => x * deg) });
  assert.equal(auto.method, 'sweep');
  assert.equal(auto.status, 'ok');
  assert.ok(auto.solutions.length >= 1);
  assert.ok(maxAbsDiff(auto.solutions[0].q, qdeg.map((x) => x * deg)) < 1e-9);  // nearest the seed: the generating one
  for (const s of [...auto.solutions, ...auto.outsideLimits]) assert.ok(maxAbsDiff(m.forwardKinematics(s.q).tool, T) < 1e-9);
  const native = cli('ik', '--robot', 'general-4a', '--q-target', qdeg.join(','), '--deg', '--all', '--seed', qdeg.join(','));
  assert.equal(native.method, 'sweep');
  assert.equal(native.details.length, auto.solutions.length);
  for (let k = 0; k < auto.solutions.length; k++) assert.ok(maxAbsDiff(native.details[k].q, auto.solutions[k].q) < 1e-11);
  const reference = m.ikAll(T, { method: 'algebraic' });
  assert.equal(reference.solutions.length + reference.outsideLimits.length, auto.solutions.length + auto.outsideLimits.length);
  m.dispose();
});

test('trackBranches: every PUMA branch followed along a drag; the generating one exactly; named errors', () => {
  const m = achain.loadModel('puma560');
  const q0 = [20, 30, -60, 40, 50, 60].map((x) => x * deg);
  const path = (f) => q0.map((x, i) => x + 0.3 * Math.sin(0.01 * f * (i + 1)));
  let T = m.forwardKinematics(path(0)).tool;
  const r = m.ikAll(T);
  const every = [...r.solutions, ...r.outsideLimits].map((s) => s.q);
  assert.equal(every.length, 8);
  m.startBranches(T, every);
  const truth = every.findIndex((q) => maxAbsDiff(q, path(0)) < 1e-9);
  assert.ok(truth >= 0);
  for (let f = 1; f <= 300; f++) {
    T = m.forwardKinematics(path(f)).tool;
    const { branches } = m.trackBranches(T);
    assert.equal(branches.length, 8);
    assert.ok(maxAbsDiff(branches[truth].q, path(f)) < 1e-6, `frame ${f}`);
    for (const b of branches) {
      assert.ok(b.alive && ['none', 'leftLimits', 'enteredLimits'].includes(b.event), `frame ${f}: ${b.event}`);
      assert.ok(maxAbsDiff(m.forwardKinematics(b.q).tool, T) < 1e-9);  // each branch reproduces the target
      assert.equal(b.withinLimits, m.withinLimits(b.q));
    }
  }
  assert.throws(() => m.trackBranches(T, { maxJointStep: 0 }), /options\.maxJointStep/);
  assert.throws(() => m.addBranch([0, 0, NaN, 0, 0, 0]), /q\[2\]/);
  m.dispose();
});

test('solveNumeric, the former name of ikNumeric, still gives the same answer (deprecated alias for one release)', () => {
  const m = achain.loadModel('puma560');
  const rand = rng(31);
  const T = m.forwardKinematics(randomQ(m, rand)).tool;
  const seed = randomQ(m, rand);
  const a = m.ikNumeric(T, seed), b = m.solveNumeric(T, seed);
  assert.equal(b.status, a.status);
  assert.deepEqual(Array.from(b.q), Array.from(a.q));
  m.dispose();
});
