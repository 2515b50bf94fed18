// FK through the wasm module. Rows, from the user's view down to the compiled code:
//   achain-wasm                 m.forwardKinematics(q): every frame, copied into a new Float64Array (JS wrapper included)
//   achain-wasm (fkTool, out)   m.fkTool(q, out): tool pose only, written into the caller's array (per-frame path)
//   achain-wasm (raw call)      the Embind method on a q already in wasm memory: no JS wrapper, no copies
//   achain-wasm (in-wasm loop)  256 configurations in one fkToolSeries call: time per evaluation (compiled code alone)
import { configurations } from './states.mjs';

export function cases(achain) {
  const out = [];
  for (const robot of ['puma560', 'prototype-4a']) {
    const m = achain.loadModel(robot);
    const n = m.dof;
    const qs = configurations(m);
    const flat = new Float64Array(256 * n);
    qs.forEach((q, i) => flat.set(q, i * n));
    const pose = new Float64Array(16);
    let k = 0;
    out.push({ name: `FK/${robot}/achain-wasm`, fn: () => m.forwardKinematics(qs[k++ & 255]) });
    out.push({ name: `FK/${robot}/achain-wasm (fkTool, out)`, fn: () => m.fkTool(qs[k++ & 255], pose) });
    out.push({ name: `FK/${robot}/achain-wasm (raw call)`, setup: () => m._q(qs[0]), fn: () => m.raw.fkTool() });
    out.push({
      name: `FK/${robot}/achain-wasm (in-wasm loop)`, per: 256,
      setup: () => { m._reserve(flat.length); m._put(flat, 'qs', flat.length, 0); },
      fn: () => m.raw.fkToolSeries(256),
      dispose: () => m.dispose(),
    });
  }
  return out;
}
