// Model methods of the trajectory area: planJointPath (plan + sample), planCartesianPath, analyzeTrajectory
// (torque, power, work via the RNEA), trajectoryToJson (the shared "achain-trajectory" v1 format); and
// interpolateCartesian (two poses, no model), carried by the Achain instance.
// C++: wasm/bind_trajectory.cpp → core/trajectory/*. Types: wasm/types/trajectory.d.ts.
// Series are row-major Float64Arrays (sample k, joint i at k*dof + i); jointSeries() extracts a column.
import { option } from './args.mjs';

const PROFILES = ['trapezoid', 'cubic', 'quintic', 'septic', 'spline'];
const LEGS = ['massless', 'lumped', 'full', 'potential'];
const BOUNDARY = ['v0', 'v1', 'a0', 'a1'];  // jtraj: boundary velocities / accelerations (header slot 14 bits)

export function legCode(legs) {
  if (legs === undefined) return 2;
  const k = LEGS.indexOf(legs === 'pe' ? 'potential' : legs);
  if (k < 0) throw new Error(`options.legs: '${legs}' is not one of ${LEGS.join(', ')}`);
  return k;
}

/** Column j of a row-major samples × dof series. */
export function jointSeries(flat, dof, j) {
  const N = flat.length / dof;
  const out = new Float64Array(N);
  for (let k = 0; k < N; k++) out[k] = flat[k * dof + j];
  return out;
}

/**
 * The joint-space plan q0 → q1 as the input parts of model._input (header, from, to, via…) that the core's
 * planSpecFromInput reads (wasm/bind_trajectory.cpp): planJointPath's options. Also used by the flexibility
 * area (checkFlexibleTrajectory, accelerationBandwidth), which take the same plan description.
 */
export function planParts(model, from, to, options = {}) {
  const n = model.dof;
  const via = options.via ?? [];
  const profile = options.profile ?? (via.length ? 'spline' : 'trapezoid');
  const p = PROFILES.indexOf(profile);
  if (p < 0) throw new Error(`options.profile: '${profile}' is not one of ${PROFILES.join(', ')}`);
  const times = options.times ?? [];
  const header = [
    p, options.sync ? 1 : 0, option(options, 'rate', 100), option(options, 'duration', 0),
    via.length, times.length, options.vmax ? 1 : 0, options.amax ? 1 : 0,
    option(options, 'velocityScale', 1), option(options, 'accelerationScale', 1),
    options.torqueLimits ? 1 : 0, legCode(options.legs), options.motors ? 1 : 0, options.friction ? 1 : 0,
    BOUNDARY.reduce((bits, key, i) => bits | (options[key] != null ? 1 << i : 0), 0), 0,
  ];
  const parts = [[header, 'header', 16], [from, 'from', n], [to, 'to', n]];
  via.forEach((v, k) => parts.push([v, `via[${k}]`, n]));
  if (times.length) parts.push([times, 'options.times', times.length]);
  if (options.vmax) parts.push([options.vmax, 'options.vmax', n]);
  if (options.amax) parts.push([options.amax, 'options.amax', n]);
  for (const key of BOUNDARY) if (options[key] != null) parts.push([options[key], `options.${key}`, n]);
  return { parts, profile };
}

/** Unpacks the output layout shared by planJointPath / planCartesianPath. */
function readTrajectory(model, ptr, profile) {
  const n = model.dof;
  const h = model._output(ptr, 8);
  const N = h[0], nb = h[6], ne = h[7];
  const all = model._output(ptr, 8 + N + 3 * N * n + nb + ne);
  let o = 8;
  const take = (len) => { const v = all.subarray(o, o + len); o += len; return v; };
  const t = take(N), q = take(N * n), qd = take(N * n), qdd = take(N * n);
  const breakpoints = [];
  for (let j = 0; j < n; j++) { const c = all[o++]; breakpoints.push(take(c)); }
  return {
    traj: {
      robot: model.name, joints: model.joints.map((j) => j.name), profile,
      samples: N, dof: n, duration: h[2], continuity: h[3], t, q, qd, qdd, breakpoints,
    },
    h,
    extra: take(ne),
  };
}

/**
 * Cartesian interpolation between two poses without IK (the Achain method interpolateCartesian): straight
 * line, SLERP rotation, trapezoid or polynomial time scaling. start/goal: row-major 4×4 poses.
 */
export function interpolateCartesian(module, start, goal, options = {}) {
  const profile = options.profile ?? 'quintic';
  if (typeof profile !== 'string') throw new Error('options.profile: must be a string');
  const a = module.interpolateCartesian(start, goal, profile, option(options, 'duration', 0),
    option(options, 'speed', 0.25), option(options, 'acceleration', 1),
    option(options, 'angularSpeed', 1), option(options, 'angularAcceleration', 4),
    option(options, 'rate', 100));
  const N = a[0];
  let o = 8;
  const take = (len) => { const v = a.subarray(o, o + len); o += len; return v; };
  return {
    profile, samples: N, duration: a[1], length: a[2], rotation: a[3], axis: a.subarray(4, 7),
    t: take(N), s: take(N), sd: take(N), sdd: take(N), poses: take(16 * N), twists: take(6 * N), accelerations: take(6 * N),
  };
}

export function install(Model) {
  /** Plans q0 → q1 (SI; θ_v for A-pairs) and samples it at options.rate Hz (default 100). */
  Model.prototype.planJointPath = function planJointPath(from, to, options = {}) {
    const { parts, profile } = planParts(this, from, to, options);
    const ptr = this.achain.module.planJointPath(this._input(...parts));
    const { traj, h } = readTrajectory(this, ptr, profile);
    traj.torqueScaling = { factor: h[4], joint: h[5] };
    return traj;
  };

  /** Tool line or arc from configuration `from` to the pose `goal` (row-major 4×4), through the numeric IK.
   * options: {kind: 'line'|'arc', arcVia: [x,y,z], rate, speed, acceleration, angularSpeed,
   * angularAcceleration, knots, positionOnly, jointLimits}. */
  Model.prototype.planCartesianPath = function planCartesianPath(from, goal, options = {}) {
    const n = this.dof;
    const kind = options.kind ?? 'line';
    if (kind !== 'line' && kind !== 'arc') throw new Error(`options.kind: '${kind}' is not line or arc`);
    if (kind === 'arc' && !options.arcVia) throw new Error('options.arcVia: required for an arc');
    const header = [
      kind === 'line' ? 0 : 1, option(options, 'rate', 100), option(options, 'speed', 0.25),
      option(options, 'acceleration', 1), option(options, 'angularSpeed', 1),
      option(options, 'angularAcceleration', 4), option(options, 'knots', 41),
      options.positionOnly === undefined ? -1 : (options.positionOnly ? 1 : 0), options.jointLimits === false ? 0 : 1, 0, 0, 0,
    ];
    const ptr = this.achain.module.planCartesianPath(this._input([header, 'header', 12], [from, 'from', n],
      [goal, 'goal', 16], [options.arcVia ?? [0, 0, 0], 'options.arcVia', 3]));
    const { traj, h, extra } = readTrajectory(this, ptr, kind);
    traj.cartesian = {
      length: extra[0], rotation: extra[1], maxIkError: extra[2], maxDeviation: extra[3],
      positionOnly: extra[4] === 1, jointLimitFactor: h[4],
    };
    return traj;
  };

  /** Torque (RNEA), power τ_i·q̇_i and work ∫|τ_i q̇_i|dt along a trajectory (planJointPath's result
   * or any {t, q, qd, qdd} with row-major series). options: {legs, motors, friction}. */
  Model.prototype.analyzeTrajectory = function analyzeTrajectory(traj, options = {}) {
    const n = this.dof;
    const N = traj.t.length;
    const header = [N, legCode(options.legs), options.motors ? 1 : 0, options.friction ? 1 : 0];
    const ptr = this.achain.module.analyzeTrajectory(this._input([header, 'header', 4], [traj.t, 't', N],
      [traj.q, 'q', N * n], [traj.qd, 'qd', N * n], [traj.qdd, 'qdd', N * n]));
    const all = this._output(ptr, 6 * n + 2 + 2 * N * n);
    const v = (k) => all.subarray(k * n, (k + 1) * n);
    return {
      work: v(0), netWork: v(1), peakTau: v(2), peakTime: v(3), effortRatio: v(4), peakPower: v(5),
      totalWork: all[6 * n], withinEffort: all[6 * n + 1] === 1,
      tau: all.subarray(6 * n + 2, 6 * n + 2 + N * n),
      power: all.subarray(6 * n + 2 + N * n, 6 * n + 2 + 2 * N * n),
    };
  };

  /** The shared interchange object {"schema":"achain-trajectory","version":1,…} (nested arrays). */
  Model.prototype.trajectoryToJson = function trajectoryToJson(traj) {
    const n = this.dof;
    const rows = (flat) => Array.from({ length: traj.t.length }, (_, k) => Array.from(flat.subarray(k * n, (k + 1) * n)));
    const out = {
      schema: 'achain-trajectory', version: 1, robot: this.name, joints: this.joints.map((j) => j.name),
      t: Array.from(traj.t), q: rows(traj.q), qd: rows(traj.qd), qdd: rows(traj.qdd),
    };
    if (traj.profile) out.profile = traj.profile;
    if (traj.duration !== undefined) out.duration = traj.duration;
    if (traj.breakpoints) out.breakpoints = traj.breakpoints.map((b) => Array.from(b));
    return out;
  };
}
