// Batch (series) calls through wasm: the core's vectorised kernels (dynamics/batch.hpp, SIMD128 in wasm) against
// the single calls in the same module to 1e-14, and against the native CLI (the same C++ without SIMD128) —
// on puma560, stanford, prototype-4a under every leg model, and a mimic URDF tree, for counts that are not a
// multiple of the kernels' four lanes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadAchain, cli, rng, randomQ, maxAbsDiff, root } from './helpers.mjs';

const achain = await loadAchain();

function randVec(rand, n, s) { return Float64Array.from({ length: n }, () => (2 * rand() - 1) * s); }
/** A configuration: inside the limits per joint, or (mimic models: fewer coordinates than joints) in ±0.5. */
const randomConfig = (m, rand) => (m.dof === m.joints.length ? randomQ(m, rand) : randVec(rand, m.dof, 0.5));
function trajectory(m, rand, count) {
  const t = { q: [], qd: [], qdd: [] };
  for (let k = 0; k < count; k++) {
    t.q.push(randomConfig(m, rand));
    t.qd.push(k % 5 === 3 ? new Float64Array(m.dof) : randVec(rand, m.dof, 2));  // some at rest: sign(0) = 0
    t.qdd.push(randVec(rand, m.dof, 2));
  }
  return t;
}
const relative = (a, b) => maxAbsDiff(a, b) / Math.max(1, ...Array.from(b, Math.abs));

const models = () => [
  ...['puma560', 'stanford', 'prototype-4a'].map((name) => achain.loadModel(name)),
  achain.modelFromUrdf(fs.readFileSync(path.join(root, 'tests/fixtures/urdf/gripper_mimic.urdf'), 'utf8'), { toolLink: 'tip_link' }),
];

test('inverseDynamicsSeries = inverseDynamics (≤ 1e-14 relative) for every leg model and every term', () => {
  const rand = rng(16);
  for (const m of models()) {
    for (const legs of ['massless', 'lumped', 'full', 'potential']) {
      for (const opts of [{ legs }, { legs, motors: true, friction: true, wrench: [1, -2, 3, 0.1, 0.2, -0.3], wrenchFrame: 'tool', gravity: [0.5, -1, -9.7] }]) {
        const count = 37;
        const t = trajectory(m, rand, count);
        const series = m.inverseDynamicsSeries(t, opts);
        assert.equal(series.length, count);
        for (let k = 0; k < count; k++) {
          const single = m.inverseDynamics(t.q[k], t.qd[k], t.qdd[k], opts);
          assert.ok(relative(series[k], single) <= 1e-14, `${m.name} ${legs} sample ${k}: ${relative(series[k], single)}`);
        }
      }
    }
    m.dispose();
  }
});

test('fkToolSeries = fkTool and pointJacobianSeries = pointJacobian (≤ 1e-14)', () => {
  const rand = rng(17);
  for (const m of models()) {
    const count = 23;
    const qs = Array.from({ length: count }, () => randomConfig(m, rand));
    const tools = m.fkToolSeries(qs);
    assert.equal(tools.length, 16 * count);
    for (const frame of ['base', 'tool']) {
      const Js = m.pointJacobianSeries(qs, { frame });
      for (let k = 0; k < count; k++) {
        const J = m.pointJacobian(qs[k], { frame });
        assert.ok(relative(Js.subarray(6 * m.dof * k, 6 * m.dof * (k + 1)), J) <= 1e-14, `${m.name} ${frame} J ${k}`);
      }
    }
    for (let k = 0; k < count; k++) {
      assert.ok(relative(tools.subarray(16 * k, 16 * (k + 1)), m.fkTool(qs[k])) <= 1e-14, `${m.name} tool ${k}`);
    }
    m.dispose();
  }
});

test('wasm inverseDynamicsSeries = native CLI id (≤ 1e-12, the CLI prints decimal text)', () => {
  const rand = rng(18);
  for (const name of ['puma560', 'prototype-4a']) {
    const m = achain.loadModel(name);
    const t = trajectory(m, rand, 5);
    for (const legs of ['massless', 'full']) {
      const series = m.inverseDynamicsSeries(t, { legs, motors: true, friction: true });
      for (let k = 0; k < 5; k++) {
        const c = cli('id', '--robot', name, '--q', Array.from(t.q[k]).join(','), '--qd', Array.from(t.qd[k]).join(','),
          '--qdd', Array.from(t.qdd[k]).join(','), '--legs', legs, '--motors', '--friction');
        assert.ok(relative(series[k], c.tau) <= 1e-12, `${name} ${legs} sample ${k}`);
      }
    }
    m.dispose();
  }
});
