// Jacobian and influence coefficients through the wasm module. Rows as in fk.bench.mjs:
//   achain-wasm                 m.pointJacobian(q): JS wrapper, result in a new Float64Array
//   achain-wasm (out)           m.pointJacobian(q, {out}): written into the caller's array (per-frame path)
//   achain-wasm (raw call)      the Embind function on a q already in wasm memory
//   achain-wasm (in-wasm loop)  256 configurations in one pointJacobianSeries call (the batch kernel, SIMD128):
//                               time per evaluation
import { configurations } from './states.mjs';

export function cases(achain) {
  const out = [];
  const M = achain.module;
  for (const robot of ['puma560', 'prototype-4a']) {
    const m = achain.loadModel(robot);
    const n = m.dof;
    const qs = configurations(m);
    const flat = new Float64Array(256 * n);
    qs.forEach((q, i) => flat.set(q, i * n));
    const J = { out: new Float64Array(6 * n) };
    let k = 0;
    out.push({ name: `Jacobian/${robot}/achain-wasm`, fn: () => m.pointJacobian(qs[k++ & 255]) });
    out.push({ name: `Jacobian/${robot}/achain-wasm (out)`, fn: () => m.pointJacobian(qs[k++ & 255], J) });
    out.push({ name: `Jacobian/${robot}/achain-wasm (raw call)`, setup: () => m._input([qs[0], 'q', n], [[0, 0, 0], 'point', 3]),
      fn: () => M.pointJacobian(m.raw, -1, false, 0) });
    out.push({
      name: `Jacobian/${robot}/achain-wasm (in-wasm loop)`, per: 256,
      setup: () => m._input([flat, 'qs', flat.length], [[0, 0, 0], 'point', 3]),
      fn: () => M.pointJacobianSeries(m.raw, -1, false, 0, 256),
    });
    out.push({ name: `InfluenceGH/${robot}/achain-wasm`, fn: () => m.influence(qs[k++ & 255]), dispose: () => m.dispose() });
  }
  return out;
}
