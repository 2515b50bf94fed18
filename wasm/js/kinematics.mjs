// Model methods of the kinematics area: Jacobians, influence coefficients, manipulability,
// singularities, statics. C++: wasm/bind_kinematics.cpp → core/jacobian, influence, singularity,
// statics. Types: wasm/types/kinematics.d.ts. Docs: docs/kinematics.md.
//
// Conventions: SI units; q, qd, … are arrays/typed arrays of dof numbers (θ_v for A-pairs).
// Matrices come back as row-major Float64Arrays (J[r*dof + c]); rows are (vx, vy, vz, ωx, ωy, ωz).
// `link` is 0-based (the body joint k moves); omit it (or pass -1) for the tool. `point` is in the
// link's frame (m); without it the reference point is the tool origin (tool link) or the link origin.

import { flatten } from './flatten.mjs';
import { finiteNumber } from './args.mjs';

function pointArgs(model, opts = {}) {
  const link = opts.link ?? -1;
  if (!Number.isInteger(link) || link < -1 || link >= model.dof) {
    throw new Error(`link: must be an integer in [0, ${model.dof - 1}] or -1 for the tool (got ${link})`);
  }
  const usePoint = opts.point != null;
  return { link, usePoint, point: usePoint ? opts.point : NO_POINT };
}

function frameCode(frame = 'base') {
  if (frame === 'base') return 0;
  if (frame === 'tool') return 1;
  throw new Error(`frame: must be 'base' or 'tool' (got '${frame}')`);
}

const ROWS = { all: 0, linear: 1, angular: 2 };
const NO_POINT = [0, 0, 0];

function fixInf(v) {
  return v === null ? Infinity : v;
}
function fixReport(r) {
  const fixSummary = (s) => {
    s.condition = fixInf(s.condition);
    for (const k of ['velocityEllipsoid', 'forceEllipsoid', 'momentEllipsoid']) {
      if (s[k]) s[k].radii = s[k].radii.map(fixInf);
    }
  };
  fixSummary(r);
  fixSummary(r.linear);
  fixSummary(r.angular);
  return r;
}

export function install(Model) {
  /** Tool pose only (row-major 4×4, 16 numbers), the per-frame path: written into `out` when given. */
  Model.prototype.fkTool = function fkTool(q, out) {
    return this._output(this._q(q).fkTool(), 16, out);
  };

  /**
   * Tool poses of many configurations in one wasm call: qs is an array of configurations or a flat
   * array of count·dof numbers. Returns a Float64Array of count·16 (row-major 4×4 per sample).
   */
  Model.prototype.fkToolSeries = function fkToolSeries(qs) {
    const n = this.dof;
    const flat = flatten(qs, n, 'qs');
    const count = flat.length / n;
    const raw = this._reserve(flat.length);
    this._put(flat, 'qs', flat.length, 0);
    return this._output(raw.fkToolSeries(count), 16 * count);
  };

  /**
   * Geometric Jacobian 6×dof (row-major) of the tool or of a point on a link. opts.out: a
   * Float64Array (≥ 6·dof) to write into and return instead of allocating one (per-frame use).
   */
  Model.prototype.pointJacobian = function pointJacobian(q, opts = {}) {
    const n = this.dof;
    const { link, usePoint, point } = pointArgs(this, opts);
    const raw = this._reserve(n + 3);
    this._put(q, 'q', n, 0);
    this._put(point, 'point', 3, n);
    return this._output(this.achain.module.pointJacobian(raw, link, usePoint, frameCode(opts.frame)), 6 * n, opts.out);
  };

  /**
   * Jacobians of many configurations in one wasm call: qs is an array of configurations or a flat
   * array of count·dof numbers; opts as for pointJacobian (link, point, frame). Returns a Float64Array of
   * count·6·dof (one row-major 6×dof block per sample).
   */
  Model.prototype.pointJacobianSeries = function pointJacobianSeries(qs, opts = {}) {
    const n = this.dof;
    const { link, usePoint, point } = pointArgs(this, opts);
    const flat = flatten(qs, n, 'qs');
    const count = flat.length / n;
    const raw = this._reserve(flat.length + 3);
    this._put(flat, 'qs', flat.length, 0);
    this._put(point, 'point', 3, flat.length);
    return this._output(this.achain.module.pointJacobianSeries(raw, link, usePoint, frameCode(opts.frame), count), 6 * n * count);
  };

  /** dJ/dt (base frame) for joint rates qd, and J̇·q̇. */
  Model.prototype.pointJacobianDerivative = function pointJacobianDerivative(q, qd, opts = {}) {
    const n = this.dof;
    const { link, usePoint, point } = pointArgs(this, opts);
    const raw = this._input([q, 'q', n], [qd, 'qd', n], [point, 'point', 3]);
    const out = this._output(this.achain.module.pointJacobianDerivative(raw, link, usePoint), 6 * n + 6);
    return { Jdot: out.subarray(0, 6 * n), JdotQd: out.subarray(6 * n) };
  };

  /** Analytical Jacobian of the tool for roll-pitch-yaw (R = Rz(yaw)Ry(pitch)Rx(roll)). */
  Model.prototype.analyticalJacobian = function analyticalJacobian(q) {
    const n = this.dof;
    const out = this._output(this.achain.module.analyticalJacobian(this._input([q, 'q', n])), 6 * n + 3);
    return { Ja: out.subarray(0, 6 * n), rpy: out.subarray(6 * n) };
  };

  /**
   * Freeman's influence coefficients of the tool (or a point on a link): G (6×dof, row-major),
   * H (6 planes of dof×dof: H[(p*dof + m)*dof + k] = ∂²u_p/∂q_m∂q_k) and, for order 3,
   * D (D[((p*dof + l)*dof + m)*dof + k]).
   */
  Model.prototype.influence = function influence(q, opts = {}) {
    const n = this.dof;
    const order = opts.order ?? 2;
    if (order !== 1 && order !== 2 && order !== 3) throw new Error(`order: must be 1, 2 or 3 (got ${order})`);
    const { link, usePoint, point } = pointArgs(this, opts);
    const raw = this._input([q, 'q', n], [point, 'point', 3]);
    const size = 6 * n + (order >= 2 ? 6 * n * n : 0) + (order >= 3 ? 6 * n * n * n : 0);
    const out = this._output(this.achain.module.influence(raw, link, usePoint, order), size);
    const r = { G: out.subarray(0, 6 * n) };
    if (order >= 2) r.H = out.subarray(6 * n, 6 * n + 6 * n * n);
    if (order >= 3) r.D = out.subarray(6 * n + 6 * n * n);
    return r;
  };

  /** Acceleration G·q̈ + q̇ᵀHq̇ of the tool (or a point): 6 numbers (v; ω). */
  Model.prototype.influenceAcceleration = function influenceAcceleration(q, qd, qdd, opts = {}) {
    const n = this.dof;
    const { link, usePoint, point } = pointArgs(this, opts);
    const raw = this._input([q, 'q', n], [qd, 'qd', n], [qdd, 'qdd', n], [point, 'point', 3]);
    return this._output(this.achain.module.influenceAcceleration(raw, link, usePoint), 6);
  };

  /** Jerk of the tool (or a point) from Freeman's G, H, D: 6 numbers (v; ω). */
  Model.prototype.influenceJerk = function influenceJerk(q, qd, qdd, qddd, opts = {}) {
    const n = this.dof;
    const { link, usePoint, point } = pointArgs(this, opts);
    const raw = this._input([q, 'q', n], [qd, 'qd', n], [qdd, 'qdd', n], [qddd, 'qddd', n], [point, 'point', 3]);
    return this._output(this.achain.module.influenceJerk(raw, link, usePoint), 6);
  };

  /** Per-frame manipulability numbers of the tool Jacobian (rows 'all' | 'linear' | 'angular'). */
  Model.prototype.manipulability = function manipulability(q, { rows = 'all' } = {}) {
    const n = this.dof;
    const code = ROWS[rows];
    if (code === undefined) throw new Error(`rows: must be 'all', 'linear' or 'angular' (got '${rows}')`);
    const k = Math.min(code === 0 ? 6 : 3, n);
    const out = this._output(this.achain.module.manipulability(this._input([q, 'q', n]), code), k + 6);
    return {
      singularValues: out.slice(0, k),
      sigmaMin: out[k],
      sigmaMax: out[k + 1],
      condition: out[k + 2],
      inverseCondition: out[k + 3],
      yoshikawa: out[k + 4],
      rank: out[k + 5],
    };
  };

  /** The full report of `achain manipulability` (ellipsoids, named singularities); +inf as Infinity. */
  Model.prototype.manipulabilityReport = function manipulabilityReport(q, { tol = 1e-6 } = {}) {
    return fixReport(JSON.parse(this.achain.module.manipulabilityReport(this._input([q, 'q', this.dof]), finiteNumber(tol, 'tol'))));
  };

  /** Named singular conditions at q: [{kind, joints, measure, description}]. */
  Model.prototype.detectSingularities = function detectSingularities(q, { tol = 1e-6 } = {}) {
    return JSON.parse(this.achain.module.detectSingularities(this._input([q, 'q', this.dof]), finiteNumber(tol, 'tol')));
  };

  /** τ = Jᵀ·F for the wrench F = (fx, fy, fz, mx, my, mz) the tool exerts, in the base (or tool) frame. */
  Model.prototype.staticTorques = function staticTorques(q, wrench, { frame = 'base' } = {}) {
    const n = this.dof;
    const raw = this._input([q, 'q', n], [wrench, 'wrench', 6]);
    return this._output(this.achain.module.staticTorques(raw, frameCode(frame)), n);
  };
}
