// Model methods of the ik area: solveNumeric (numeric, per frame) and ikAll (every solution).
// Status names come from the core (module.ikStatusNames, toString(IkStatus)).
// C++: wasm/bind_ik.cpp → core/ik/*. Types: wasm/types/ik.d.ts.

import { option } from './args.mjs';

function optionVector(o = {}) {
  return [
    option(o, 'positionWeight', 1),
    option(o, 'orientationWeight', 1),
    o.positionOnly ? 1 : 0,
    option(o, 'maxIterations', 100),
    option(o, 'tolerance', 1e-10),
    option(o, 'restarts', 0),
    option(o, 'randomSeed', 1),
    o.respectLimits === false ? 0 : 1,
    o.escapeSingularity ? 1 : 0,
    option(o, 'maxStep', 0),
    option(o, 'minSeparation', 0),
  ];
}

function solution(s) {
  return { ...s, q: Float64Array.from(s.q) };
}

export function install(Model) {
  /** Numeric IK from seedQ (teleoperation: call every frame with the current q). */
  Model.prototype.solveNumeric = function solveNumeric(targetT, seedQ, options) {
    const n = this.dof;
    const raw = this._input([targetT, 'targetT', 16], [seedQ, 'seedQ', n], [optionVector(options), 'options', 11]);
    const out = this._output(this.achain.module.solveNumeric(raw), n + 5);
    return {
      q: out.slice(0, n),
      status: this.achain.ikStatusNames[out[n]],
      positionError: out[n + 1],
      orientationError: out[n + 2],
      residual: out[n + 3],
      iterations: out[n + 4],
    };
  };

  /** Every solution (closed form / algebraic / general 6R eigenvalue method where the chain allows, numeric multi-start otherwise). */
  Model.prototype.ikAll = function ikAll(targetT, options = {}) {
    const n = this.dof;
    const hasSeed = options.seedQ != null;
    const opts = { restarts: 20, ...options };
    const raw = this._input([targetT, 'targetT', 16], [hasSeed ? options.seedQ : new Float64Array(n), 'seedQ', n],
      [optionVector(opts), 'options', 11]);
    const r = JSON.parse(this.achain.module.ikAll(raw, options.method ?? 'auto', hasSeed));
    const out = {
      status: r.status,
      method: r.method,
      solutions: r.solutions.map(solution),
      outsideLimits: r.outsideLimits.map(solution),
      residual: r.residual,
    };
    if (r.nearest) out.nearest = solution(r.nearest);
    if (r.family) out.family = { q0: Float64Array.from(r.family.q0), direction: Float64Array.from(r.family.direction) };
    if (r.note) out.note = r.note;
    return out;
  };
}
