// Jacobian and influence coefficients through the wasm module, including the JS wrapper's copy.
export function cases(achain) {
  const out = [];
  for (const robot of ['puma560', 'prototype-4a']) {
    const m = achain.loadModel(robot);
    const n = m.dof;
    const qs = [];
    for (let k = 0; k < 256; k++) {
      const q = new Float64Array(n);
      m.joints.forEach((j, i) => {
        const lo = j.lower ?? -3, hi = j.upper ?? 3;
        q[i] = lo + ((k * 7919 + i * 104729) % 1000) / 1000 * (hi - lo);
      });
      qs.push(q);
    }
    let k = 0;
    out.push({ name: `Jacobian/${robot}/achain-wasm`, fn: () => m.jacobian(qs[k++ & 255]) });
    out.push({ name: `InfluenceGH/${robot}/achain-wasm`, fn: () => m.influence(qs[k++ & 255]), dispose: () => m.dispose() });
  }
  return out;
}
