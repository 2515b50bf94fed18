// The per-frame and batch paths of the wasm API (fkTool, fkToolSeries, jacobian/dynamics with
// `out`, pointJacobianSeries, the dynamicsSeries batch entry point): the `out` paths give the allocating
// methods' numbers bit for bit, the batch kernels (core dynamics/batch.hpp) to rounding; native parity
// (≤ 1e-12), argument errors, and the per-model dynamics state (WasmModel::dynamics_state) living and dying
// with its model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAchain, cli, rng, randomQ, maxAbsDiff } from './helpers.mjs';

const achain = await loadAchain();
const list = (v) => Array.from(v).join(',');
function randVec(rand, n, s) { return Float64Array.from({ length: n }, () => (2 * rand() - 1) * s); }

test('fkTool (with and without out) = fk().tool exactly, and = native CLI fk (≤ 1e-12)', () => {
  const rand = rng(11);
  for (const { name } of achain.builtinRobots()) {
    const m = achain.loadModel(name);
    const out = new Float64Array(16);
    for (let k = 0; k < 5; k++) {
      const q = randomQ(m, rand);
      const full = m.forwardKinematics(q).tool;
      assert.deepEqual(m.fkTool(q), full, name);
      assert.equal(m.fkTool(q, out), out);
      assert.deepEqual(out, full);
      if (k === 0) {
        const T = cli('fk', '--robot', name, '--q', list(q)).T.flat();
        assert.ok(maxAbsDiff(out, T) <= 1e-12, name);
      }
    }
    const plain = new Array(16).fill(0);
    m.fkTool(randomQ(m, rand), plain);  // a plain array works as `out` too
    assert.equal(plain.length, 16);
    m.dispose();
  }
});

test('fkToolSeries = fkTool per sample to 1e-14 (nested or flat input)', () => {
  const m = achain.loadModel('prototype-4a');
  const rand = rng(12);
  const qs = Array.from({ length: 37 }, () => randomQ(m, rand));
  const a = m.fkToolSeries(qs);
  const flat = new Float64Array(37 * 4);
  qs.forEach((q, i) => flat.set(q, 4 * i));
  const b = m.fkToolSeries(flat);
  assert.equal(a.length, 37 * 16);
  assert.deepEqual(a, b);
  // The series runs the batch kernel (its own vectorised sin/cos, within an ulp of libm): equal to 1e-14, not bit for bit.
  qs.forEach((q, i) => assert.ok(maxAbsDiff(a.subarray(16 * i, 16 * i + 16), m.fkTool(q)) <= 1e-14));
  assert.equal(m.fkToolSeries([]).length, 0);
  m.dispose();
});

test('jacobian with out = jacobian exactly, pointJacobianSeries (batch kernel) to 1e-14; native parity', () => {
  const rand = rng(13);
  for (const name of ['puma560', 'prototype-4a', 'stanford']) {
    const m = achain.loadModel(name);
    const n = m.dof;
    const qs = Array.from({ length: 9 }, () => randomQ(m, rand));
    const out = new Float64Array(6 * n);
    for (const frame of ['base', 'tool']) {
      const S = m.pointJacobianSeries(qs, { frame });
      qs.forEach((q, i) => {
        const J = m.pointJacobian(q, { frame });
        assert.equal(m.pointJacobian(q, { frame, out }), out);
        assert.deepEqual(out, J);
        // the batch kernel: equal to rounding (≤ 1e-14 relative to the largest |J|)
        assert.ok(maxAbsDiff(S.subarray(6 * n * i, 6 * n * (i + 1)), J) <= 1e-14 * Math.max(1, ...Array.from(J, Math.abs)), `${name} ${frame} ${i}`);
      });
    }
    const point = [0.01, -0.02, 0.03];
    const Sp = m.pointJacobianSeries(qs, { link: 1, point });
    const Jp = m.pointJacobian(qs[0], { link: 1, point });
    assert.ok(maxAbsDiff(Sp.subarray(0, 6 * n), Jp) <= 1e-14 * Math.max(1, ...Array.from(Jp, Math.abs)), `${name} point`);
    const c = cli('jacobian', '--robot', name, '--q', list(qs[3]));
    assert.ok(maxAbsDiff(m.pointJacobian(qs[3], { out }), c.J.flat()) <= 1e-12, name);
    m.dispose();
  }
});

test('dynamics with out = without; dynamicsSeries: single-call RNEA = single calls exactly, batch RNEA and CRBA to 1e-14, batch forward to 1e-12; native parity', () => {
  const rand = rng(14);
  const M = achain.module;
  for (const name of ['puma560', 'prototype-4a']) {
    const m = achain.loadModel(name);
    const n = m.dof, count = 7;
    const opts = name === 'puma560' ? { motors: true } : { legs: 'lumped' };
    const legs = name === 'puma560' ? 2 : 1, flags = name === 'puma560' ? 1 : 0;
    const S = Array.from({ length: count }, () => [randomQ(m, rand), randVec(rand, n, 1), randVec(rand, n, 2)]);
    const tau = new Float64Array(n), Mo = new Float64Array(n * n), acc = new Float64Array(n);
    for (const [q, qd, qdd] of S) {
      assert.deepEqual(m.inverseDynamics(q, qd, qdd, { ...opts, out: tau }), m.inverseDynamics(q, qd, qdd, opts));
      assert.deepEqual(m.massMatrix(q, { ...opts, out: Mo }), m.massMatrix(q, opts));
      assert.deepEqual(m.forwardDynamics(q, qd, qdd, { ...opts, out: acc }), m.forwardDynamics(q, qd, qdd, opts));
      assert.deepEqual(m.gravityTorques(q, { ...opts, out: tau }), m.gravityTorques(q, opts));
      assert.deepEqual(m.coriolisMatrix(q, qd, { ...opts, out: Mo }), m.coriolisMatrix(q, qd, opts));
    }
    const run = (op) => {
      const stride = op === 1 ? n : 3 * n, result = op === 1 ? n * n : n;
      const buf = new Float64Array(count * stride);
      S.forEach(([q, qd, x], i) => { buf.set(q, i * stride); if (op !== 1) { buf.set(qd, i * stride + n); buf.set(x, i * stride + 2 * n); } });
      const ptr = M.dynamicsSeries(m._input([buf, 'states', buf.length], [new Float64Array(9), 'options', 9]), op, legs, flags, count);
      return m._output(ptr, count * result);
    };
    const rnea = run(0), crba = run(1), fd = run(2), rneaSingle = run(3);
    S.forEach(([q, qd, x], i) => {
      // ops 0-2 run the vectorised batch kernels (dynamics/batch.hpp): equal to rounding; op 3 loops the single
      // call: exact. Forward dynamics to 1e-12: the solve amplifies the ≈1e-16 differences of M and the bias by
      // up to M's condition number, ≤ 100 for these two models and options (native test_batch.cpp holds
      // 1e-14·κ(M); measured ≈5e-15 here natively).
      const rel = (a, b) => maxAbsDiff(a, b) / Math.max(1, ...Array.from(b, Math.abs));
      const single = m.inverseDynamics(q, qd, x, opts);
      assert.ok(rel(rnea.subarray(i * n, (i + 1) * n), single) <= 1e-14, `${name} rnea ${i}`);
      assert.deepEqual(rneaSingle.subarray(i * n, (i + 1) * n), single);
      assert.ok(rel(crba.subarray(i * n * n, (i + 1) * n * n), m.massMatrix(q, opts)) <= 1e-14, `${name} crba ${i}`);
      assert.ok(rel(fd.subarray(i * n, (i + 1) * n), m.forwardDynamics(q, qd, x, opts)) <= 1e-12, `${name} fd ${i}`);
    });
    const series = m.inverseDynamicsSeries({ q: S.map((s) => s[0]), qd: S.map((s) => s[1]), qdd: S.map((s) => s[2]) }, opts);
    series.forEach((t, i) => assert.deepEqual(t, rnea.subarray(i * n, (i + 1) * n)));
    const [q, qd, qdd] = S[2];
    const args = ['--robot', name, '--q', list(q), '--qd', list(qd), ...(flags ? ['--motors'] : ['--legs', 'lumped'])];
    const c = cli('id', ...args, '--qdd', list(qdd));
    assert.ok(maxAbsDiff(rnea.subarray(2 * n, 3 * n), c.tau) <= 1e-12 * Math.max(1, ...c.tau.map(Math.abs)), name);
    const f = cli('fd', ...args, '--tau', list(qdd));
    assert.ok(maxAbsDiff(fd.subarray(2 * n, 3 * n), f.qdd) <= 1e-10 * Math.max(1, ...f.qdd.map(Math.abs)), name);
    m.dispose();
  }
});

test('errors on the hot paths name the argument', () => {
  const m = achain.loadModel('puma560');
  const M = achain.module;
  const q = new Float64Array(6);
  assert.throws(() => m.fkTool(q, new Float64Array(15)), { message: 'out: needs room for 16 numbers' });
  assert.throws(() => m.fkTool([1, 2]), { message: 'q: expected 6 values, got 2' });
  assert.throws(() => m.pointJacobian(q, { out: new Float64Array(35) }), { message: 'out: needs room for 36 numbers' });
  assert.throws(() => m.inverseDynamics(q, q, q, { out: new Float64Array(5) }), { message: 'out: needs room for 6 numbers' });
  assert.throws(() => m.fkToolSeries([q, [1, 2, 3]]), { message: 'qs[1]: expected 6 values, got 3' });
  assert.throws(() => m.fkToolSeries(new Float64Array(7)), { message: 'qs: expected a multiple of 6 numbers, got 7' });
  assert.throws(() => m.fkToolSeries([q, Float64Array.of(0, 0, NaN, 0, 0, 0)]), { message: 'qs[1][2]: must be a finite number' });
  assert.throws(() => m.pointJacobianSeries([q], { link: 9 }), { message: /^link: must be an integer/ });
  assert.throws(() => m.coriolisMatrix(q, undefined), { message: /^qd: must be an array/ });
  m._input([q, 'q', 6], [new Float64Array(9), 'options', 9]);
  assert.throws(() => M.dynamicsSeries(m.raw, 4, 2, 0, 1), { message: 'op: must be 0 (inverse), 1 (mass), 2 (forward) or 3 (inverse, single calls)' });
  assert.throws(() => M.dynamicsSeries(m.raw, 0, 2, 0, -1), { message: 'count: must be ≥ 0' });
  // a count beyond the staged input is refused, not read past the buffer
  assert.throws(() => M.dynamicsSeries(m.raw, 0, 2, 0, 1e6), { message: /^count: 18000000 input numbers needed, \d+ staged$/ });
  assert.throws(() => m.raw.fkToolSeries(1e6), { message: /^count: 6000000 input numbers needed/ });
  assert.throws(() => M.pointJacobianSeries(m.raw, -1, false, 0, 1e6), { message: /^count: 6000003 input numbers needed/ });
  m.dispose();
});

test('dynamics state belongs to its model: freeing one model leaves the others right', () => {
  const rand = rng(15);
  const a = achain.loadModel('puma560');
  const q = randomQ(a, rand), qd = randVec(rand, 6, 1), qdd = randVec(rand, 6, 1);
  const ref = a.inverseDynamics(q, qd, qdd);
  for (let k = 0; k < 20; k++) {  // handles come and go (their addresses get reused)
    const b = achain.loadModel(k % 2 ? 'prototype-4a' : 'stanford');
    b.massMatrix(randomQ(b, rand));
    b.dispose();
    const c = achain.loadModel('puma560');
    assert.deepEqual(c.inverseDynamics(q, qd, qdd), ref);
    c.dispose();
  }
  assert.deepEqual(a.inverseDynamics(q, qd, qdd), ref);
  a.dispose();
  assert.throws(() => a.inverseDynamics(q, qd, qdd), { message: /was disposed/ });
});

test('pooled results (≤ 256 doubles share a slab): independent, stable across slab turnover, survive a transferred buffer', () => {
  const m = achain.loadModel('puma560');
  const rand = rng(17);
  const qs = Array.from({ length: 300 }, () => randomQ(m, rand));
  // 300 Jacobians (36 doubles each) span several 2048-double slabs: every one must keep its own numbers.
  const kept = qs.map((q) => m.pointJacobian(q));
  const out = new Float64Array(36);
  qs.forEach((q, i) => {
    m.pointJacobian(q, { out });
    assert.deepEqual(kept[i], out, `sample ${i}`);
    assert.equal(kept[i].length, 36);
  });
  // Two results in one slab do not overlap: writing one leaves the other alone.
  const a = m.massMatrix(qs[0]), b = m.massMatrix(qs[1]);
  const b0 = b.slice();
  a.fill(Number.NaN);
  assert.deepEqual(b, b0);
  // A caller who transfers (detaches) a pooled result's buffer: later results still come back whole.
  const t = m.inverseDynamics(qs[2], qs[3], qs[4]);
  structuredClone(t, { transfer: [t.buffer] });
  assert.equal(t.length, 0);  // detached, as transferring any typed array's buffer does
  const tau = m.inverseDynamics(qs[2], qs[3], qs[4]);
  assert.equal(tau.length, 6);
  assert.deepEqual(tau, m.inverseDynamics(qs[2], qs[3], qs[4], { out: new Float64Array(6) }));
  // Results larger than the pool get their own buffer.
  const big = achain.loadModel('prototype-4a');
  const G = big.influence(randomQ(big, rand), { order: 3 });
  assert.ok(G.D.length > 256);
  m.dispose();
  big.dispose();
});
