// Dynamics through the wasm module: RNEA, CRBA, forward dynamics for puma560 and prototype-4a, plus
// Lee's G-D form and the Coriolis matrix. Rows as in fk.bench.mjs:
//   achain-wasm                 the Model method: JS wrapper, result in a new Float64Array
//   achain-wasm (out)           the Model method writing into the caller's array (opts.out)
//   achain-wasm (raw call)      the Embind function on inputs already in wasm memory
//   achain-wasm (in-wasm loop)  256 states in one dynamicsSeries call: time per evaluation (compiled code alone;
//                               for RNEA op 3, one single call per state; CRBA and forward dynamics run the
//                               batch kernels, SIMD128, as fkToolSeries in fk.bench.mjs)
//   achain-wasm batch (per state)  RNEA over 256 states in one inverseDynamicsSeries call, time per state
import { accelerations, configurations, velocities } from './states.mjs';

const OP = { RNEA: 0, CRBA: 1, ForwardDynamics: 2, RNEASingle: 3 };  // 3: the single call per state (no batch kernel)

export function cases(achain) {
  const out = [];
  const M = achain.module;
  for (const robot of ['puma560', 'prototype-4a']) {
    const m = achain.loadModel(robot);
    const n = m.dof;
    const qs = configurations(m), vs = velocities(n), as = accelerations(n);
    // Native ForwardDynamics/puma560 includes the rotor inertias (bench_dynamics.cpp): so do these rows.
    const fdOpts = robot === 'puma560' ? { motors: true } : {};
    const flags = robot === 'puma560' ? 1 : 0;  // wasm/bind_dynamics.cpp: 1 = motors (forward dynamics only)
    const tau = { out: new Float64Array(n) }, mass = { out: new Float64Array(n * n) }, fdOut = { ...fdOpts, out: new Float64Array(n) };
    const options = new Float64Array(9);  // gravity and wrench slots (unused: flags select the model's)
    const series = (op) => {
      const stride = op === 1 ? n : 3 * n;
      const buf = new Float64Array(256 * stride);
      for (let i = 0; i < 256; i++) {
        buf.set(qs[i], i * stride);
        if (op !== 1) { buf.set(vs[i], i * stride + n); buf.set(as[i], i * stride + 2 * n); }
      }
      return () => m._input([buf, 'states', buf.length], [options, 'options', 9]);
    };
    const single = () => m._input([qs[0], 'q', n], [vs[0], 'qd', n], [as[0], 'qdd', n], [options, 'options', 9]);
    const massOnly = () => m._input([qs[0], 'q', n], [options, 'options', 9]);
    let k = 0;
    out.push({ name: `RNEA/${robot}/achain-wasm`, fn: () => { const i = k++ & 255; return m.inverseDynamics(qs[i], vs[i], as[i]); } });
    out.push({ name: `RNEA/${robot}/achain-wasm (out)`, fn: () => { const i = k++ & 255; return m.inverseDynamics(qs[i], vs[i], as[i], tau); } });
    out.push({ name: `RNEA/${robot}/achain-wasm (raw call)`, setup: single, fn: () => M.inverseDynamics(m.raw, 2, 0) });
    out.push({ name: `RNEA/${robot}/achain-wasm (in-wasm loop)`, per: 256, setup: series(OP.RNEA), fn: () => M.dynamicsSeries(m.raw, OP.RNEASingle, 2, 0, 256) });
    // The batch kernel (core dynamics/batch.hpp, SIMD128): 256 states in one call, time per state.
    out.push({ name: `RNEA/${robot}/achain-wasm batch (per state)`, per: 256, setup: series(OP.RNEA), fn: () => M.inverseDynamicsSeries(m.raw, 2, 0, 256) });
    out.push({ name: `CRBA/${robot}/achain-wasm`, fn: () => m.massMatrix(qs[k++ & 255]) });
    out.push({ name: `CRBA/${robot}/achain-wasm (out)`, fn: () => m.massMatrix(qs[k++ & 255], mass) });
    out.push({ name: `CRBA/${robot}/achain-wasm (raw call)`, setup: massOnly, fn: () => M.massMatrix(m.raw, 2, 0) });
    out.push({ name: `CRBA/${robot}/achain-wasm (in-wasm loop)`, per: 256, setup: series(OP.CRBA), fn: () => M.dynamicsSeries(m.raw, OP.CRBA, 2, 0, 256) });
    out.push({ name: `ForwardDynamics/${robot}/achain-wasm`, fn: () => { const i = k++ & 255; return m.forwardDynamics(qs[i], vs[i], as[i], fdOpts); } });
    out.push({ name: `ForwardDynamics/${robot}/achain-wasm (out)`, fn: () => { const i = k++ & 255; return m.forwardDynamics(qs[i], vs[i], as[i], fdOut); } });
    out.push({ name: `ForwardDynamics/${robot}/achain-wasm (raw call)`, setup: single, fn: () => M.forwardDynamics(m.raw, 2, flags) });
    out.push({ name: `ForwardDynamics/${robot}/achain-wasm (in-wasm loop)`, per: 256, setup: series(OP.ForwardDynamics),
      fn: () => M.dynamicsSeries(m.raw, OP.ForwardDynamics, 2, flags, 256) });
    out.push({ name: `CoriolisMatrix/${robot}/achain-wasm`, fn: () => { const i = k++ & 255; return m.coriolisMatrix(qs[i], vs[i]); } });
    out.push({ name: `LeeGD/${robot}/achain-wasm`, fn: () => { const i = k++ & 255; return m.leeTerms(qs[i], vs[i]); },
      dispose: () => m.dispose() });
  }
  return out;
}
