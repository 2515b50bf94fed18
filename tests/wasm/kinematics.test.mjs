// The kinematics area through wasm: parity with the native CLI (≤ 1e-12, same C++ code) for
// Jacobians, J̇, analytical Jacobian, influence coefficients, manipulability, statics; named errors.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cli, loadAchain, maxAbsDiff, randomQ, rng } from './helpers.mjs';

const achain = await loadAchain();
const ROBOTS = ['prototype-4a', 'prototype-4r', 'puma560', 'stanford', 'planar-2r'];
const flat = (rows) => rows.flat(Infinity);
const list = (v) => Array.from(v).join(',');
const rel = (a, b) => maxAbsDiff(a, b) / Math.max(1, ...Array.from(b, Math.abs));

describe('kinematics (wasm vs native)', () => {
  test('jacobian: every built-in, random states, tool and points on links, base and tool frame', () => {
    const rand = rng(3);
    for (const name of ROBOTS) {
      const m = achain.loadModel(name);
      for (let k = 0; k < 3; k++) {
        const q = randomQ(m, rand);
        const J = m.pointJacobian(q);
        assert.equal(J.length, 6 * m.dof);
        assert.ok(rel(J, flat(cli('jacobian', '--robot', name, '--q', list(q)).J)) <= 1e-12, name);
        const link = k % m.dof;
        const point = [0.01 * k, -0.02, 0.03];
        const Jp = m.pointJacobian(q, { link, point, frame: 'tool' });
        const ref = cli('jacobian', '--robot', name, '--q', list(q), '--link', String(link), '--point', list(point), '--frame', 'tool');
        assert.ok(rel(Jp, flat(ref.J)) <= 1e-12, `${name} link ${link}`);
      }
      m.dispose();
    }
  });

  test("jacobian at the thesis's IK example equals the native (thesis-verified) result", () => {
    const m = achain.loadModel('prototype-4a');
    const deg = Math.PI / 180;
    const q = [84.107, 224.203, 106.791, 236.997].map((x) => x * deg);
    const ref = cli('jacobian', '--robot', 'prototype-4a', '--q', '84.107,224.203,106.791,236.997', '--deg');
    assert.ok(rel(m.pointJacobian(q), flat(ref.J)) <= 1e-12);
    m.dispose();
  });

  test('pointJacobianDerivative and analyticalJacobian', () => {
    const rand = rng(4);
    for (const name of ['puma560', 'prototype-4a', 'stanford']) {
      const m = achain.loadModel(name);
      const q = randomQ(m, rand);
      const qd = Float64Array.from(q, () => rand() - 0.5);
      const { Jdot, JdotQd } = m.pointJacobianDerivative(q, qd);
      const ref = cli('jacobian', '--robot', name, '--q', list(q), '--qd', list(qd), '--analytic');
      assert.ok(rel(Jdot, flat(ref.Jdot)) <= 1e-12, name);
      assert.ok(rel(JdotQd, ref.Jdot_qd) <= 1e-12, name);
      const { Ja, rpy } = m.analyticalJacobian(q);
      assert.ok(rel(Ja, flat(ref.Ja)) <= 1e-12, name);
      assert.ok(maxAbsDiff(rpy, ref.rpy) <= 1e-12, name);
      m.dispose();
    }
  });

  test('influence G, H, D and acceleration/jerk', () => {
    const rand = rng(5);
    for (const name of ['prototype-4a', 'puma560', 'stanford']) {
      const m = achain.loadModel(name);
      const q = randomQ(m, rand);
      const v = Float64Array.from(q, () => rand() - 0.5);
      const a = Float64Array.from(q, () => rand() - 0.5);
      const j = Float64Array.from(q, () => rand() - 0.5);
      const inf = m.influence(q, { order: 3, link: 1, point: [0.02, 0.01, -0.03] });
      const ref = cli('influence', '--robot', name, '--q', list(q), '--order', '3', '--link', '1', '--point', '0.02,0.01,-0.03');
      assert.ok(rel(inf.G, flat(ref.G)) <= 1e-12, name);
      assert.ok(rel(inf.H, flat(ref.H)) <= 1e-12, name);
      assert.ok(rel(inf.D, flat(ref.D)) <= 1e-12, name);
      const mo = { acceleration: m.influenceAcceleration(q, v, a), jerk: m.influenceJerk(q, v, a, j) };
      const ref2 = cli('influence', '--robot', name, '--q', list(q), '--order', '3', '--qd', list(v), '--qdd', list(a), '--qddd', list(j));
      assert.ok(rel(mo.acceleration, ref2.acceleration) <= 1e-12, name);
      assert.ok(rel(mo.jerk, ref2.jerk) <= 1e-12, name);
      // H's rotational planes are not symmetric, the translational ones are
      const n = m.dof;
      const H = (p, r, c) => inf.H[(p * n + r) * n + c];
      assert.equal(H(0, 0, 1), H(0, 1, 0));
      m.dispose();
    }
  });

  test('manipulability (hot path and report) and singularities', () => {
    const m = achain.loadModel('prototype-4a');
    const q = [Math.PI, Math.PI, Math.PI, Math.PI];
    const ref = cli('manipulability', '--robot', 'prototype-4a', '--q', list(q));
    const mm = m.manipulability(q);
    assert.equal(mm.rank, 3);
    assert.equal(mm.condition, Infinity);
    assert.ok(maxAbsDiff(mm.singularValues, ref.singular_values) <= 1e-12);
    const rep = m.manipulabilityReport(q);
    assert.equal(rep.linear.forceEllipsoid.radii[1], Infinity);
    assert.deepEqual(rep.singularities.map((s) => s.kind), ref.singularities.map((s) => s.kind));
    assert.equal(m.detectSingularities(q).filter((s) => s.kind === 'apair-axial').length, 4);
    m.dispose();
    const p = achain.loadModel('puma560');
    const rand = rng(6);
    for (let k = 0; k < 3; k++) {
      const qp = randomQ(p, rand);
      const r = cli('manipulability', '--robot', 'puma560', '--q', list(qp));
      const lin = p.manipulability(qp, { rows: 'linear' });
      assert.ok(rel(lin.singularValues, r.linear.singular_values) <= 1e-12);
      assert.ok(Math.abs(p.manipulability(qp).yoshikawa - r.yoshikawa) <= 1e-12 * Math.max(1, r.yoshikawa));
    }
    p.dispose();
  });

  test('staticTorques', () => {
    const rand = rng(7);
    for (const name of ['prototype-4a', 'puma560']) {
      const m = achain.loadModel(name);
      const q = randomQ(m, rand);
      const w = [1, -2, 3, 0.1, 0.2, -0.3];
      for (const frame of ['base', 'tool']) {
        const ref = cli('statics', '--robot', name, '--q', list(q), '--wrench', list(w), '--frame', frame);
        assert.ok(rel(m.staticTorques(q, w, { frame }), ref.tau) <= 1e-12, name);
      }
      m.dispose();
    }
  });

  test('errors name the bad argument', () => {
    const m = achain.loadModel('puma560');
    const q = new Float64Array(6);
    assert.throws(() => m.pointJacobian(q, { link: 7 }), /link/);
    assert.throws(() => m.pointJacobian(q, { frame: 'world' }), /frame/);
    assert.throws(() => m.pointJacobian([0, 0]), /q: expected 6 values/);
    assert.throws(() => m.pointJacobian(q, { point: [0, 0] }), /point/);
    assert.throws(() => m.influence(q, { order: 4 }), /order/);
    assert.throws(() => m.pointJacobian([0, 0, NaN, 0, 0, 0]), /q\[2\]/);
    assert.throws(() => m.staticTorques(q, [0, 0, 0, 0, 0, Infinity]), /wrench\[5\]/);
    assert.throws(() => m.manipulability(q, { rows: 'both' }), /rows/);
    m.dispose();
  });
});
