// Dynamics through the wasm module (including the JS wrapper's copies): RNEA, CRBA, forward
// dynamics for puma560 and prototype-4a, plus Lee's G-D form and the Coriolis matrix.
export function cases(achain) {
  const out = [];
  for (const robot of ['puma560', 'prototype-4a']) {
    const m = achain.loadModel(robot);
    const n = m.dof;
    const qs = [], vs = [], as = [];
    for (let k = 0; k < 256; k++) {
      qs.push(Float64Array.from(m.joints, (j, i) => {
        const lo = j.lower ?? -3, hi = j.upper ?? 3;
        return lo + ((k * 7919 + i * 104729) % 1000) / 1000 * (hi - lo);
      }));
      vs.push(Float64Array.from({ length: n }, (_, i) => Math.sin(k + 2 * i)));
      as.push(Float64Array.from({ length: n }, (_, i) => Math.cos(3 * k + i)));
    }
    const fdOpts = robot === 'puma560' ? { motors: true } : {};
    let k = 0;
    out.push({ name: `RNEA/${robot}/achain-wasm`, fn: () => { const i = k++ & 255; return m.inverseDynamics(qs[i], vs[i], as[i]); } });
    out.push({ name: `CRBA/${robot}/achain-wasm`, fn: () => m.massMatrix(qs[k++ & 255]) });
    out.push({ name: `ForwardDynamics/${robot}/achain-wasm`, fn: () => { const i = k++ & 255; return m.forwardDynamics(qs[i], vs[i], as[i], fdOpts); } });
    out.push({ name: `CoriolisMatrix/${robot}/achain-wasm`, fn: () => { const i = k++ & 255; return m.coriolisMatrix(qs[i], vs[i]); } });
    out.push({ name: `LeeGD/${robot}/achain-wasm`, fn: () => { const i = k++ & 255; return m.leeTerms(qs[i], vs[i]); },
      dispose: () => m.dispose() });
  }
  return out;
}
