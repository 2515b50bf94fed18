// Model methods of the ik area: ikNumeric (numeric, per frame), ikAll (every solution) and branch tracking
// (startBranches, addBranch, trackBranches: every solution branch followed per frame while dragging).
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

/** The core's BranchEvent names in code order (toString(BranchEvent)), read once per wasm module. */
const eventNames = new WeakMap();

function solution(s) {
  return { ...s, q: Float64Array.from(s.q) };
}

export function install(Model) {
  /** Numeric IK from seedQ (teleoperation: call every frame with the current q). */
  Model.prototype.ikNumeric = function ikNumeric(targetT, seedQ, options) {
    const n = this.dof;
    const raw = this._input([targetT, 'targetT', 16], [seedQ, 'seedQ', n], [optionVector(options), 'options', 11]);
    const out = this._output(this.achain.module.ikNumeric(raw), n + 5);
    return {
      q: out.slice(0, n),
      status: this.achain.ikStatusNames[out[n]],
      positionError: out[n + 1],
      orientationError: out[n + 2],
      residual: out[n + 3],
      iterations: out[n + 4],
    };
  };  /** @deprecated The former name of ikNumeric (issue 31: IK's one verb family is ik*); kept for one release. */
  Model.prototype.solveNumeric = function solveNumeric(targetT, seedQ, options) {
    return this.ikNumeric(targetT, seedQ, options);
  };


  /** Starts branch tracking at targetT with the given solutions (each dof values, e.g. ikAll's solutions' q). */
  Model.prototype.startBranches = function startBranches(targetT, solutions = []) {
    this.achain.module.startBranches(this._input([targetT, 'targetT', 16]));
    for (const q of solutions) this.addBranch(q);
  };

  /** Adds one branch (dof values solving the current target); returns its index. */
  Model.prototype.addBranch = function addBranch(q) {
    return this.achain.module.addBranch(this._input([q, 'q', this.dof]));
  };

  /** Follows every alive branch to targetT (one frame of a drag); see wasm/types/ik.d.ts. */
  Model.prototype.trackBranches = function trackBranches(targetT, options = {}) {
    const n = this.dof, w = n + 5;
    const opts = [option(options, 'maxJointStep', 0.25), option(options, 'maxHalvings', 14),
      option(options, 'tolerance', 1e-10), option(options, 'meetDistance', 1e-6)];
    const M = this.achain.module;
    const ptr = M.trackBranches(this._input([targetT, 'targetT', 16], [opts, 'options', 4]));
    const count = this._output(ptr, 1)[0];
    const all = this._output(ptr, 3 + w * count);
    if (!eventNames.has(M)) eventNames.set(M, Object.freeze(Array.from(M.branchEventNames())));
    const names = eventNames.get(M);
    const branches = [];
    for (let k = 0; k < count; k++) {
      const r = all.subarray(3 + w * k, 3 + w * (k + 1));
      branches.push({
        q: r.slice(0, n),
        alive: r[n] !== 0,
        withinLimits: r[n + 1] !== 0,
        event: names[r[n + 2]],
        partner: r[n + 3],
        error: r[n + 4],
      });
    }
    return { branches, newtonSteps: all[1], halvings: all[2] };
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
