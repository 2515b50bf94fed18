// Dynamics through the wasm module: parity with the native CLI (same C++), identities, options,
// simulation with progress, error messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAchain, cli, cliFails, rng, randomQ, maxAbsDiff } from './helpers.mjs';

const achain = await loadAchain();

function randVec(rand, n, s) { return Float64Array.from({ length: n }, () => (2 * rand() - 1) * s); }
function matVec(M, v, n) {
  const out = new Float64Array(n);
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) out[r] += M[r * n + c] * v[c];
  return out;
}

test('inverse dynamics: wasm = native CLI (≤ 1e-12) for every built-in and leg model', () => {
  const rand = rng(5);
  for (const { name } of achain.builtinRobots()) {
    const m = achain.loadModel(name);
    const n = m.dof;
    for (const legs of ['massless', 'lumped', 'full', 'potential']) {
      const q = randomQ(m, rand), qd = randVec(rand, n, 1), qdd = randVec(rand, n, 2);
      const w = m.inverseDynamics(q, qd, qdd, { legs, motors: true, friction: true });
      const c = cli('id', '--robot', name, '--q', Array.from(q).join(','), '--qd', Array.from(qd).join(','),
        '--qdd', Array.from(qdd).join(','), '--legs', legs, '--motors', '--friction');
      const scale = Math.max(1, ...c.tau.map(Math.abs));
      assert.ok(maxAbsDiff(w, c.tau) <= 1e-12 * scale, `${name} ${legs}`);
      const b = m.torqueBreakdown(q, qd, qdd, { legs, motors: true, friction: true });
      assert.ok(maxAbsDiff(b.total, w) <= 1e-12 * scale);
      assert.ok(maxAbsDiff(b.gravity, c.breakdown.gravity) <= 1e-12 * scale);
    }
    m.dispose();
  }
});

test('τ = M q̈ + C q̇ + g, forward∘inverse = identity, Lee and Freeman agree (prototype-4a, full legs)', () => {
  const m = achain.loadModel('prototype-4a');
  const n = m.dof, rand = rng(9);
  for (let k = 0; k < 10; k++) {
    const q = randomQ(m, rand), qd = randVec(rand, n, 2), qdd = randVec(rand, n, 3);
    const tau = m.inverseDynamics(q, qd, qdd);
    const M = m.massMatrix(q), g = m.gravityTorques(q);
    const C = m.coriolisMatrix(q, qd);
    const Mq = matVec(M, qdd, n), Cq = matVec(C, qd, n);
    const rhs = Mq.map((v, i) => v + Cq[i] + g[i]);
    const scale = Math.max(1, ...Array.from(tau, Math.abs));
    assert.ok(maxAbsDiff(tau, rhs) < 1e-10 * scale);
    assert.ok(maxAbsDiff(m.forwardDynamics(q, qd, tau), qdd) < 1e-9 * 3);
    const L = m.leeTerms(q, qd);
    const lee = matVec(L.D, qdd, n).map((v, i) => v + L.htran[i] + L.hrot[i] + L.c[i] + L.other[i]);
    assert.ok(maxAbsDiff(lee, tau) < 1e-10 * scale);
    const F = m.freemanModel(q, qd);
    const fr = matVec(F.Istar, qdd, n);
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) s += qd[a] * F.Pstar[(i * n + a) * n + b] * qd[b];
      fr[i] += s - F.TL[i];
    }
    assert.ok(maxAbsDiff(fr, tau) < 1e-10 * scale);
  }
  m.dispose();
});

test('series = per-sample calls; gravity and wrench options', () => {
  const m = achain.loadModel('puma560');
  const n = m.dof, rand = rng(13);
  const traj = { q: [], qd: [], qdd: [] };
  for (let k = 0; k < 5; k++) { traj.q.push(randomQ(m, rand)); traj.qd.push(randVec(rand, n, 1)); traj.qdd.push(randVec(rand, n, 1)); }
  const series = m.inverseDynamicsSeries(traj, { wrench: [1, 2, 3, 0.1, 0.2, 0.3] });
  for (let k = 0; k < 5; k++) {
    // The series runs the vectorised batch kernel (dynamics/batch.hpp): equal to rounding, not bit for bit.
    const single = m.inverseDynamics(traj.q[k], traj.qd[k], traj.qdd[k], { wrench: [1, 2, 3, 0.1, 0.2, 0.3] });
    assert.ok(maxAbsDiff(series[k], single) <= 1e-14 * Math.max(1, ...Array.from(single, Math.abs)));
  }
  // Corke's qn gravity load.
  const qn = [0, Math.PI / 4, Math.PI, 0, Math.PI / 4, 0];
  const g = m.gravityTorques(qn);
  [0, 31.6399, 6.0351, 0, 0.0283, 0].forEach((v, i) => assert.ok(Math.abs(g[i] - v) < 6e-5));
  const g0 = m.gravityTorques(qn, { gravity: [0, 0, 0] });
  assert.ok(Math.max(...Array.from(g0, Math.abs)) === 0);
  m.dispose();
});

test('simulation conserves energy and reports progress', () => {
  const m = achain.loadModel('planar-2r');
  const fractions = [];
  const r = m.simulate({ q: [0.3, -0.5], qd: [0.5, 0], dt: 1e-3, duration: 1, every: 10, onProgress: (f) => fractions.push(f) });
  assert.equal(r.t.length, 101);
  assert.ok(fractions.length >= 90 && fractions.at(-1) === 1);
  const E0 = r.energy[0];
  const drift = Math.max(...Array.from(r.energy, (e) => Math.abs(e - E0)));
  assert.ok(drift < 1e-6 * Math.max(1, Math.abs(E0)), `drift ${drift}`);
  m.dispose();
});

test('kineticEnergy = ½ q̇ᵀ M q̇ (massMatrix); kinetic + potential = the simulation\'s energy', () => {
  const m = achain.loadModel('planar-2r');
  const q = [0.3, -0.5], qd = [0.5, -1.25];
  const M = m.massMatrix(q);
  const half = 0.5 * (qd[0] * (M[0] * qd[0] + M[1] * qd[1]) + qd[1] * (M[2] * qd[0] + M[3] * qd[1]));
  const ke = m.kineticEnergy(q, qd);
  assert.ok(ke > 0 && Math.abs(ke - half) <= 1e-12 * ke, `${ke} vs ${half}`);
  const r = m.simulate({ q, qd, dt: 1e-3, duration: 0.01, every: 10 });
  assert.ok(Math.abs(r.energy[0] - (ke + m.potentialEnergy(q))) <= 1e-12 * Math.max(1, Math.abs(r.energy[0])));
  assert.equal(m.kineticEnergy(q, [0, 0]), 0);
  assert.notEqual(m.potentialEnergy(q), m.potentialEnergy(q, { gravity: [0, 0, -1] }));
  m.dispose();
});

test('errors name the bad argument, in wasm and in the CLI', () => {
  const m = achain.loadModel('puma560');
  assert.throws(() => m.inverseDynamics([0, 0, 0, 0, 0, 0], [0, 0, NaN, 0, 0, 0], [0, 0, 0, 0, 0, 0]), /qd\[2\]: must be a finite number/);
  assert.throws(() => m.inverseDynamics([0, 0, 0], [0], [0]), /q: expected 6 values/);
  assert.throws(() => m.massMatrix([0, 0, 0, 0, 0, 0], { legs: 'heavy' }), /legs: expected/);
  assert.throws(() => m.forwardDynamics([0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0], { wrench: [1] }), /wrench: expected 6/);
  m.dispose();
  const f = cliFails('id', '--robot', 'puma560', '--q', '0,0,0,0,0,0', '--legs', 'heavy');
  assert.equal(f.status, 1);
  assert.match(f.stderr, /achain id: error: legs: expected/);
});

test('computed-torque tracking in wasm = native CLI; a leg-less controller tracks worse', () => {
  const m = achain.loadModel('prototype-4a');
  const traj = { t: [], q: [], qd: [], qdd: [] };
  for (let k = 0; k <= 50; k++) {
    const s = 0.01 * k;
    traj.t.push(s);
    traj.q.push(new Array(4).fill(2 + 0.3 * Math.sin(2 * s)));
    traj.qd.push(new Array(4).fill(0.6 * Math.cos(2 * s)));
    traj.qdd.push(new Array(4).fill(-1.2 * Math.sin(2 * s)));
  }
  let calls = 0;
  const good = m.simulateComputedTorque({ traj, every: 50, onProgress: () => { calls++; } });
  const bad = m.simulateComputedTorque({ traj, every: 50, controllerLegs: 'massless' });
  assert.equal(good.t.length, 11);
  assert.ok(calls > 50);
  assert.ok(Math.max(...good.maxAbsError) < 1e-4);
  assert.ok(Math.max(...bad.maxAbsError) > 3 * Math.max(...good.maxAbsError));
  const dc = m.simulateComputedTorque({ traj, every: 50, dt: 1e-4, motor: { R: 1, L: 1e-4, Kt: 0.5, Ke: 0.5 } });
  assert.equal(dc.current.length, dc.t.length);
  assert.ok(Math.max(...dc.maxAbsError) < 1e-3);
  const k = 5;
  for (let i = 0; i < 4; i++) assert.ok(Math.abs(0.5 * dc.current[k][i] - dc.tau[k][i]) < 0.02 * Math.abs(dc.tau[k][i]) + 1e-3);
  m.dispose();
});

test('cartesianInertia / dynamicManipulability: wasm = native CLI (≤ 1e-12), rows, pseudo-inverse rank, errors', () => {
  const rand = rng(17);
  const flat = (rows) => rows.flat();
  for (const [name, rowsList] of [['puma560', ['all', 'linear', 'angular']], ['prototype-4a', ['all', 'linear']], ['planar-2r', ['linear']]]) {
    const m = achain.loadModel(name);
    for (const rows of rowsList) {
      const q = randomQ(m, rand);
      const qs = Array.from(q).join(',');
      const w = m.cartesianInertia(q, { rows, legs: 'full' });
      const c = cli('cartesian-inertia', '--robot', name, '--q', qs, '--rows', rows);
      assert.equal(w.rank, c.rank, `${name} ${rows}`);
      assert.equal(w.rows, rows);
      const scale = Math.max(...flat(c.Lambda).map(Math.abs));
      // Λ inverts J M⁻¹ Jᵀ, so two builds of the same C++ agree on it only to about ε·κ (κ = μ₁/μ_rank,
      // up to 1e7 on the PUMA); J M⁻¹ Jᵀ itself, its eigenvalues and the dynamic measures to 1e-12.
      const kappa = c.eigenvalues[0] / c.eigenvalues[c.rank - 1];
      assert.ok(maxAbsDiff(w.Lambda, flat(c.Lambda)) <= Math.max(1e-12, 1e-14 * kappa) * scale, `${name} ${rows} Λ`);
      assert.ok(maxAbsDiff(w.LambdaInv, flat(c.Lambda_inv)) <= 1e-12 * Math.max(...flat(c.Lambda_inv).map(Math.abs)));
      assert.ok(maxAbsDiff(w.eigenvalues, c.eigenvalues) <= 1e-12 * c.eigenvalues[0]);
      const d = m.dynamicManipulability(q, { rows });
      const cd = cli('dynamic-manipulability', '--robot', name, '--q', qs, '--rows', rows);
      assert.ok(Math.abs(d.yoshikawa - cd.yoshikawa) <= 1e-12 * cd.yoshikawa, `${name} ${rows} w_d`);
      assert.ok(Math.abs(d.asada - cd.asada) <= 1e-12);
      assert.equal(d.rank, cd.rank);
      assert.ok(maxAbsDiff(d.radii, cd.radii) <= 1e-12 * cd.radii[0]);
      assert.ok(maxAbsDiff(d.inertia.Lambda, w.Lambda) <= 1e-15 * scale);  // the same build: the same numbers
    }
    m.dispose();
  }
  const p = achain.loadModel('prototype-4a');
  assert.equal(p.cartesianInertia([2, 3.5, 2, 2.6]).rank, 4);  // 4 DOF, six rows: the pseudo-inverse
  assert.throws(() => p.cartesianInertia([2, 3.5, 2, 2.6], { rows: 'xyz' }), /rows: expected all, linear or angular/);
  assert.throws(() => p.dynamicManipulability([2, 3.5, 2, 2.6], { rankTol: -1 }), /rankTol/);
  assert.throws(() => p.cartesianInertia([2, 3.5, 2]), /q: expected 4 values/);
  p.dispose();
});

test('limitStops: past a limit forward dynamics adds the stop M_ii·ω²·δ (+ damping); inside the limits nothing changes', () => {
  const m = achain.loadModel('prototype-4a');
  const n = m.dof;
  const j = m.joints[1];
  const w = 2 * Math.PI * 20; // the core's default stop frequency
  const q = [Math.PI, j.upper + 0.01, Math.PI, Math.PI];
  const zero = new Float64Array(n);
  const free = m.forwardDynamics(q, zero, zero);
  const stop = m.forwardDynamics(q, zero, zero, { limitStops: true });
  // M (q̈_stop − q̈_free) = τ_stop = −M_11·ω²·δ on joint 2 only (at rest: no damping)
  const M = m.massMatrix(q);
  const tau = Array.from({ length: n }, (_, r) => { let s = 0; for (let c = 0; c < n; c++) s += M[r * n + c] * (stop[c] - free[c]); return s; });
  const expect = -M[1 * n + 1] * w * w * 0.01;
  assert.ok(Math.abs(tau[1] - expect) < 1e-9 * Math.abs(expect), `τ_stop ${tau[1]} vs ${expect}`);
  for (const i of [0, 2, 3]) assert.ok(Math.abs(tau[i]) < 1e-9 * Math.abs(expect), `joint ${i + 1}: ${tau[i]}`);
  const inside = [Math.PI, Math.PI, Math.PI, Math.PI];
  assert.ok(maxAbsDiff(m.forwardDynamics(inside, zero, zero), m.forwardDynamics(inside, zero, zero, { limitStops: true })) === 0);
  m.dispose();
});
