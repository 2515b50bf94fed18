// Model methods of the dynamics area: inverse dynamics (RNEA) with a torque breakdown, mass matrix
// (CRBA), Christoffel Coriolis matrix, gravity, forward dynamics, energies, simulation (RK4 /
// semi-implicit Euler), Lee's G-D terms and Freeman's I*/P*, the operational-space (Cartesian) inertia and
// the dynamic manipulability measures. C++: wasm/bind_dynamics.cpp →
// core/dynamics/*. Types: wasm/types/dynamics.d.ts. Docs: docs/dynamics.md.
//
// Conventions: SI; q, qd, qdd, tau are arrays / typed arrays of dof numbers (θ_v for A-pairs).
// Matrices come back as row-major Float64Arrays (M[r*dof + c]). Every method takes an optional
// options object: { legs: 'massless'|'lumped'|'full'|'potential' (default 'full'), motors, friction,
// limitStops (the joint-limit spring–dampers of forwardDynamics / simulate),
// gravity: [x, y, z] (default: the model's), wrench: [fx, fy, fz, mx, my, mz] (the tool exerts on
// the environment, moment about the tool origin), wrenchFrame: 'base'|'tool' }. The single-result
// methods (inverseDynamics, massMatrix, gravityTorques, coriolisMatrix, forwardDynamics) also take
// opts.out: a Float64Array to write the result into and return (no allocation per call).

import { finiteNumber, integer, putVector } from './args.mjs';

const LEGS = { massless: 0, lumped: 1, full: 2, potential: 3 };  // LegModel's order and toString's words (dynamics/options.hpp)

const EXTRA = new Float64Array(9);  // reused: copied into wasm memory at once
const ENCODED = { legs: 2, flags: 0, extra: EXTRA };  // reused: encode() allocates nothing
const NO_OPTIONS = {};

/** opts.dcMotors [{torqueConstant, backEmfConstant, resistance, inductance}] as the flat numbers the module reads. */
function dcMotorData(motors) {
  if (!Array.isArray(motors)) throw new Error('dcMotors: must be an array of {torqueConstant, backEmfConstant, resistance, inductance}');
  const md = new Float64Array(4 * motors.length);
  motors.forEach((mo, k) => {
    ['torqueConstant', 'backEmfConstant', 'resistance', 'inductance'].forEach((key, i) => {
      if (typeof mo?.[key] !== 'number') throw new Error(`dcMotors[${k}].${key}: must be a number`);
      md[4 * k + i] = mo[key];
    });
  });
  return md;
}

/**
 * A linearisation the module wrote at `address` (its outputLinearization layout): S states, u inputs, r outputs,
 * n coordinates of the partials. {A, B, C, D (row-major), states, outputs, poles [{re, im}], dTdq, dTdqd, Istar, T}.
 */
export function readLinearization(model, address, S, u, r, n) {
  const sizes = [S * S, S * u, r * S, r * u, 2 * S, n * n, n * n, n * n, S * S];
  const a = model._output(address, sizes.reduce((x, y) => x + y, 0)).slice();
  const parts = [];
  let at = 0;
  for (const k of sizes) parts.push(a.subarray(at, at += k));
  const poles = [];
  for (let k = 0; k < S; k++) poles.push({ re: parts[4][2 * k], im: parts[4][2 * k + 1] });
  return { A: parts[0], B: parts[1], C: parts[2], D: parts[3], states: S, outputs: r, poles, dTdq: parts[5], dTdqd: parts[6], Istar: parts[7], T: parts[8] };
}

const TOOL_ROWS = ['x', 'y', 'z', 'wx', 'wy', 'wz'];

/**
 * The linearisation's extra inputs: the DC motors' data, then the tool rows of opts.coordinates 'tool' (names as
 * the CLI's --tool-rows; the core checks them against the model). {data, motors, coords} with coords −1 for joint
 * coordinates, 0 for all six tool rows, else the count of rows given.
 */
function linearizeInputs(opts) {
  const motors = opts.dcMotors ?? [];
  const md = dcMotorData(motors);
  const coordinates = opts.coordinates ?? 'joints';
  if (coordinates !== 'joints' && coordinates !== 'tool') throw new Error(`coordinates: must be 'joints' or 'tool' (got '${coordinates}')`);
  const rows = opts.toolRows ?? [];
  if (!Array.isArray(rows) || rows.length > 6) throw new Error(`toolRows: must be an array of up to six of ${TOOL_ROWS.join(', ')}`);
  if (coordinates === 'joints' && rows.length) throw new Error("toolRows: given, but coordinates is 'joints'");
  const data = new Float64Array(md.length + rows.length);
  data.set(md);
  rows.forEach((r, k) => {
    const i = TOOL_ROWS.indexOf(r);
    if (i < 0) throw new Error(`toolRows[${k}]: ${JSON.stringify(r)} is not a tool row (${TOOL_ROWS.join(', ')})`);
    data[md.length + k] = i;
  });
  return { data, motors: motors.length, coords: coordinates === 'tool' ? rows.length : -1 };
}

/** Options → (legs code, flags, gravity/wrench block). The result object is shared: use it at once. */
export function encode(opts = NO_OPTIONS) {
  const legs = LEGS[opts.legs ?? 'full'];
  if (legs === undefined) throw new Error(`legs: expected massless, lumped, full or potential (got '${opts.legs}')`);
  let flags = 0;
  if (opts.motors) flags |= 1;
  if (opts.friction) flags |= 2;
  if (opts.limitStops) flags |= 32;
  const extra = EXTRA;
  extra.fill(0);
  if (opts.gravity != null) {
    flags |= 4;
    putVector(extra, 0, opts.gravity, 'gravity', 3);
  }
  if (opts.wrench != null) {
    flags |= 8;
    putVector(extra, 3, opts.wrench, 'wrench', 6);
    const f = opts.wrenchFrame ?? 'base';
    if (f === 'tool') flags |= 16;
    else if (f !== 'base') throw new Error(`wrenchFrame: must be 'base' or 'tool' (got '${f}')`);
  }
  ENCODED.legs = legs;
  ENCODED.flags = flags;
  return ENCODED;
}

/**
 * Stages [v₁ … v_k | options] (k vectors of dof numbers, named for errors) without allocating. The
 * gravity/wrench block is only copied when the flags say the C++ side reads it (4: gravity, 8: wrench).
 */
function stage(model, enc, k, v1, w1, v2, w2, v3, w3) {
  const n = model.dof;
  const raw = model._reserve(k * n + 9);
  model._put(v1, w1, n, 0);
  if (k >= 2) model._put(v2, w2, n, n);
  if (k >= 3) model._put(v3, w3, n, 2 * n);
  if (enc.flags & 12) model._put(enc.extra, 'options', 9, k * n);
  return raw;
}

const ROWS = { all: 0, linear: 1, angular: 2 };

function rowsCode(rows = 'all') {
  const k = ROWS[rows];
  if (k === undefined) throw new Error(`rows: expected all, linear or angular (got '${rows}')`);
  return k;
}

function rankTol(tol) {
  if (tol === undefined) return -1;
  if (typeof tol !== 'number' || !(tol >= 0) || !Number.isFinite(tol)) throw new Error(`rankTol: must be a finite number ≥ 0 (got ${tol})`);
  return tol;
}

/** The block [rank, rankTolerance, m, Λ, Λ⁻¹, eigenvalues, axes] at offset o (see bind_dynamics.cpp putInertia). */
function readInertia(a, o, rows) {
  const m = a[o + 2], mm = m * m;
  const b = o + 3;
  return {
    Lambda: a.subarray(b, b + mm), LambdaInv: a.subarray(b + mm, b + 2 * mm),
    eigenvalues: a.subarray(b + 2 * mm, b + 2 * mm + m), axes: a.subarray(b + 2 * mm + m, b + 3 * mm + m),
    rank: a[o], rankTolerance: a[o + 1], rows,
  };
}

const BREAKDOWN = ['total', 'inertial', 'velocity', 'gravity', 'friction', 'wrench', 'rotor', 'translational', 'rotational'];

export function install(Model) {
  /** Joint torques τ = M q̈ + C q̇ + g (+ friction, rotor inertia, Jᵀh_e) by RNEA. */
  Model.prototype.inverseDynamics = function inverseDynamics(q, qd, qdd, opts = NO_OPTIONS) {
    const n = this.dof;
    const enc = encode(opts), { legs, flags } = enc;
    const raw = stage(this, enc, 3, q, 'q', qd, 'qd', qdd, 'qdd');
    return this._output(this.achain.module.inverseDynamics(raw, legs, flags), n, opts.out);
  };

  /** τ and its parts: {total, inertial, velocity, gravity, friction, wrench, rotor, translational, rotational}. */
  Model.prototype.torqueBreakdown = function torqueBreakdown(q, qd, qdd, opts = {}) {
    const n = this.dof;
    const { legs, flags, extra } = encode(opts);
    const raw = this._input([q, 'q', n], [qd, 'qd', n], [qdd, 'qdd', n], [extra, 'options', 9]);
    const all = this._output(this.achain.module.torqueBreakdown(raw, legs, flags), 9 * n);
    const out = {};
    BREAKDOWN.forEach((k, i) => { out[k] = all.subarray(i * n, (i + 1) * n); });
    return out;
  };

  /** Torques along a sampled trajectory {q: [[…]…], qd, qdd} (qd/qdd default zero): Float64Array[] per sample. */
  Model.prototype.inverseDynamicsSeries = function inverseDynamicsSeries(traj, opts = {}) {
    const n = this.dof;
    const count = traj.q.length;
    const buf = new Float64Array(3 * n * count);
    for (let k = 0; k < count; k++) {
      for (const [key, off] of [['q', 0], ['qd', n], ['qdd', 2 * n]]) {
        const row = traj[key]?.[k];
        if (row == null) { if (key === 'q') throw new Error(`q[${k}]: missing`); continue; }
        putVector(buf, 3 * n * k + off, row, `${key}[${k}]`, n);
      }
    }
    const { legs, flags, extra } = encode(opts);
    const raw = this._input([buf, 'trajectory', buf.length], [extra, 'options', 9]);
    const all = this._output(this.achain.module.inverseDynamicsSeries(raw, legs, flags, count), n * count);
    const out = [];
    for (let k = 0; k < count; k++) out.push(all.subarray(k * n, (k + 1) * n));
    return out;
  };

  /** Mass matrix M(q), row-major dof×dof (CRBA; rotor inertia with opts.motors). */
  Model.prototype.massMatrix = function massMatrix(q, opts = NO_OPTIONS) {
    const n = this.dof;
    const enc = encode(opts), { legs, flags } = enc;
    const raw = stage(this, enc, 1, q, 'q');
    return this._output(this.achain.module.massMatrix(raw, legs, flags), n * n, opts.out);
  };

  /** Generalized gravity torques g(q). */
  Model.prototype.gravityTorques = function gravityTorques(q, opts = NO_OPTIONS) {
    const n = this.dof;
    const enc = encode(opts), { legs, flags } = enc;
    const raw = stage(this, enc, 1, q, 'q');
    return this._output(this.achain.module.gravityTorques(raw, legs, flags), n, opts.out);
  };

  /** Coriolis matrix in Christoffel form (row-major), so Ṁ − 2C is skew-symmetric. */
  Model.prototype.coriolisMatrix = function coriolisMatrix(q, qd, opts = NO_OPTIONS) {
    const n = this.dof;
    const enc = encode(opts), { legs, flags } = enc;
    const raw = stage(this, enc, 2, q, 'q', qd, 'qd');
    return this._output(this.achain.module.coriolisMatrix(raw, legs, flags), n * n, opts.out);
  };

  /** Joint accelerations for torques tau (Cholesky solve of the CRBA mass matrix). */
  Model.prototype.forwardDynamics = function forwardDynamics(q, qd, tau, opts = NO_OPTIONS) {
    const n = this.dof;
    const enc = encode(opts), { legs, flags } = enc;
    const raw = stage(this, enc, 3, q, 'q', qd, 'qd', tau, 'tau');
    return this._output(this.achain.module.forwardDynamics(raw, legs, flags), n, opts.out);
  };

  /** Kinetic energy ½q̇ᵀMq̇ (J). */
  Model.prototype.kineticEnergy = function kineticEnergy(q, qd, opts = NO_OPTIONS) {
    const enc = encode(opts), { legs, flags } = enc;
    return this.achain.module.kineticEnergy(stage(this, enc, 2, q, 'q', qd, 'qd'), legs, flags);
  };

  /** Potential energy (J): gravity, plus the A-pair leg springs with legs 'potential'. */
  Model.prototype.potentialEnergy = function potentialEnergy(q, opts = NO_OPTIONS) {
    const enc = encode(opts), { legs, flags } = enc;
    return this.achain.module.potentialEnergy(stage(this, enc, 1, q, 'q'), legs, flags);
  };

  /** Lee's G-D terms: {Dtran, Drot, D (row-major), htran, hrot, c, other}. */
  Model.prototype.leeTerms = function leeTerms(q, qd, opts = {}) {
    const n = this.dof;
    const { legs, flags, extra } = encode(opts);
    const raw = this._input([q, 'q', n], [qd, 'qd', n], [extra, 'options', 9]);
    const a = this._output(this.achain.module.leeTerms(raw, legs, flags), 3 * n * n + 4 * n);
    const m = n * n, v = 3 * m;
    return {
      Dtran: a.subarray(0, m), Drot: a.subarray(m, 2 * m), D: a.subarray(2 * m, 3 * m),
      htran: a.subarray(v, v + n), hrot: a.subarray(v + n, v + 2 * n), c: a.subarray(v + 2 * n, v + 3 * n),
      other: a.subarray(v + 3 * n, v + 4 * n),
    };
  };

  /**
   * Linearised dynamics about (q, q̇, q̈) (Freeman 2-200…2-252): {A, B, C, D (row-major), states, outputs, poles
   * [{re, im}], dTdq, dTdqd, Istar (row-major dof×dof), T (the state transform, states × states)}. opts: the dynamics
   * options, plus output 'joints' (default) or 'tool', dcMotors [{torqueConstant, backEmfConstant, resistance,
   * inductance}] (one for all or one per coordinate) for voltage inputs with the currents in the state, and
   * coordinates 'joints' (default) or 'tool' with toolRows (one per coordinate of 'x', 'y', 'z', 'wx', 'wy', 'wz';
   * default all six): the state in the tool's coordinates (Freeman 3-47…3-53).
   */
  Model.prototype.linearizeDynamics = function linearizeDynamics(q, qd, qdd, opts = {}) {
    const n = this.dof;
    const { legs, flags, extra } = encode(opts);
    const output = opts.output ?? 'joints';
    if (output !== 'joints' && output !== 'tool') throw new Error(`output: must be 'joints' or 'tool' (got '${output}')`);
    const li = linearizeInputs(opts);
    const raw = this._input([q, 'q', n], [qd, 'qd', n], [qdd, 'qdd', n], [extra, 'options', 9], [li.data, 'dcMotors', li.data.length]);
    const S = li.motors ? 3 * n : 2 * n, r = output === 'tool' ? 6 : n;
    const address = this.achain.module.linearizeDynamics(raw, legs, flags, output === 'tool' ? 1 : 0, li.motors, li.coords);
    return readLinearization(this, address, S, n, r, n);
  };

  /**
   * The frequency response G(jω) = C (jωI − A)⁻¹ B + D of the linearisation about (q, q̇, q̈), one input → one output
   * (0-based; default input 0, output = input: the coordinate's torque to its angle), on `points` (default 200)
   * log-spaced ω: opts.range [lo, hi] rad/s, or by default 0.1× the smallest to 10× the largest nonzero |pole|.
   * {input, output, omega (rad/s), magnitude, magnitudeDb, phaseDeg (unwrapped along ω), poleFrequencies (the distinct
   * nonzero |pole|, rad/s)}. opts: the dynamics options, dcMotors as linearizeDynamics, outputs 'joints' | 'tool'
   * (linearizeDynamics' output).
   */
  Model.prototype.frequencyResponse = function frequencyResponse(q, qd, qdd, opts = {}) {
    const n = this.dof;
    const { legs, flags, extra } = encode(opts);
    const outputs = opts.outputs ?? 'joints';
    if (outputs !== 'joints' && outputs !== 'tool') throw new Error(`outputs: must be 'joints' or 'tool' (got '${outputs}')`);
    const li = linearizeInputs(opts);
    const input = integer(opts.input ?? 0, 'input');
    const output = integer(opts.output ?? input, 'output');
    const points = integer(opts.points ?? 200, 'points');
    let lo = 0, hi = 0;
    if (opts.range != null) {
      if (!Array.isArray(opts.range) || opts.range.length !== 2) throw new Error('range: must be [lo, hi] in rad/s');
      lo = finiteNumber(opts.range[0], 'range[0]');
      hi = finiteNumber(opts.range[1], 'range[1]');
      if (!(lo > 0)) throw new Error('range: lo must be > 0 rad/s');
    }
    const raw = this._input([q, 'q', n], [qd, 'qd', n], [qdd, 'qdd', n], [extra, 'options', 9], [li.data, 'dcMotors', li.data.length]);
    const S = li.motors ? 3 * n : 2 * n;
    const total = 1 + 4 * Math.max(points, 0) + S;
    const a = this._output(this.achain.module.frequencyResponse(raw, legs, flags, outputs === 'tool' ? 1 : 0, li.motors,
      li.coords, input, output, points, lo, hi), total).slice();
    const P = a[0];
    const part = (k) => a.subarray(1 + k * points, 1 + (k + 1) * points);
    return {
      input, output, omega: part(0), magnitude: part(1), magnitudeDb: part(2), phaseDeg: part(3),
      poleFrequencies: a.subarray(1 + 4 * points, 1 + 4 * points + P),
    };
  };

  /** Each joint's motor-torque → motor-angle 1/(J s² + B s) as the Robotics Toolbox's jointdynamics: [{J, B, numerator, denominator}]. */
  Model.prototype.jointTransferFunctions = function jointTransferFunctions(q, qd, opts = {}) {
    const n = this.dof;
    const { legs, flags, extra } = encode(opts);
    const raw = this._input([q, 'q', n], [qd, 'qd', n], [extra, 'options', 9]);
    const a = this._output(this.achain.module.jointTransferFunctions(raw, legs, flags), 2 * n);
    return Array.from({ length: n }, (_, k) => ({ J: a[2 * k], B: a[2 * k + 1], numerator: [1], denominator: [a[2 * k], a[2 * k + 1], 0] }));
  };

  /** Freeman's model: {Istar (row-major), Pstar (P[(k*dof + m)*dof + n]), TL}: τ = I*q̈ + q̇ᵀP*q̇ − T^L. */
  Model.prototype.freemanModel = function freemanModel(q, qd, opts = {}) {
    const n = this.dof;
    const { legs, flags, extra } = encode(opts);
    const raw = this._input([q, 'q', n], [qd, 'qd', n], [extra, 'options', 9]);
    const a = this._output(this.achain.module.freemanModel(raw, legs, flags), n * n + n * n * n + n);
    return { Istar: a.subarray(0, n * n), Pstar: a.subarray(n * n, n * n + n * n * n), TL: a.subarray(n * n + n * n * n) };
  };

  /**
   * Operational-space inertia of the tool: {Lambda, LambdaInv (row-major m×m), eigenvalues (of LambdaInv,
   * descending), axes (row-major, columns = eigenvectors), rank, rankTolerance, rows}. opts: the dynamics
   * options (legs, motors) plus rows: 'all'|'linear'|'angular' (default 'all') and rankTol (default 1e-10).
   */
  Model.prototype.cartesianInertia = function cartesianInertia(q, opts = NO_OPTIONS) {
    const enc = encode(opts), { legs, flags } = enc;
    const raw = stage(this, enc, 1, q, 'q');
    const ptr = this.achain.module.cartesianInertia(raw, legs, flags, rowsCode(opts.rows), rankTol(opts.rankTol));
    const m = this._output(ptr, 3)[2];
    return readInertia(this._output(ptr, 3 + 3 * m * m + m), 0, opts.rows ?? 'all');
  };

  /**
   * Yoshikawa's dynamic manipulability and Asada's inertia-ellipsoid ratio of the tool:
   * {yoshikawa, asada, rank, radii (σ of J M⁻¹, descending), axes (row-major, columns), inertia} with
   * inertia as cartesianInertia returns it. opts as cartesianInertia.
   */
  Model.prototype.dynamicManipulability = function dynamicManipulability(q, opts = NO_OPTIONS) {
    const enc = encode(opts), { legs, flags } = enc;
    const raw = stage(this, enc, 1, q, 'q');
    const ptr = this.achain.module.dynamicManipulability(raw, legs, flags, rowsCode(opts.rows), rankTol(opts.rankTol));
    const m = this._output(ptr, 4)[3];
    const a = this._output(ptr, 4 + m + m * m + 3 + 3 * m * m + m);
    return {
      yoshikawa: a[0], asada: a[1], rank: a[2], rows: opts.rows ?? 'all',
      radii: a.subarray(4, 4 + m), axes: a.subarray(4 + m, 4 + m + m * m),
      inertia: readInertia(a, 4 + m + m * m, opts.rows ?? 'all'),
    };
  };

  /**
   * Simulates from (q, qd) under a constant torque (default zero) for `duration` s with step dt.
   * Returns {t, q: Float64Array[], qd: Float64Array[], energy} sampled every `every` steps.
   * onProgress(fraction) is called about every 1 % (or 1000 steps); returning false stops the run, which then
   * throws an Error 'simulate: cancelled at step k of N (t = … s)'.
   */
  Model.prototype.simulate = function simulate(sim, opts = {}) {
    const n = this.dof;
    const dt = sim.dt ?? 1e-3;
    if (!(dt > 0) || !Number.isFinite(dt)) throw new Error(`dt: must be a positive number (got ${dt})`);
    const duration = sim.duration ?? 1;
    if (!(duration >= 0) || !Number.isFinite(duration)) throw new Error(`duration: must be ≥ 0 (got ${duration})`);
    const steps = Math.ceil(duration / dt - 1e-9);
    if (steps > 1e8) throw new Error(`duration: ${duration} s is ${steps} steps of dt; at most 1e8`);
    const integ = sim.integrator ?? 'rk4';
    if (integ !== 'rk4' && integ !== 'euler') throw new Error(`integrator: expected rk4 or euler (got '${integ}')`);
    const { legs, flags, extra } = encode(opts);
    const zero = new Float64Array(n);
    const raw = this._input([sim.q, 'q', n], [sim.qd ?? zero, 'qd', n], [sim.tau ?? zero, 'tau', n], [extra, 'options', 9]);
    const rows = this.achain.module.simulate(raw, legs, flags, dt, steps, integer(sim.every, 'every', 10, 1, 1e6), integ === 'euler' ? 1 : 0,
      typeof sim.onProgress === 'function' ? sim.onProgress : null).slice();
    const w = 2 * n + 2, count = rows.length / w;
    const out = { t: new Float64Array(count), q: [], qd: [], energy: new Float64Array(count) };
    for (let k = 0; k < count; k++) {
      out.t[k] = rows[k * w];
      out.q.push(rows.subarray(k * w + 1, k * w + 1 + n));
      out.qd.push(rows.subarray(k * w + 1 + n, k * w + 1 + 2 * n));
      out.energy[k] = rows[k * w + w - 1];
    }
    return out;
  };

  /**
   * Computed-torque tracking (τ = M̂(q̈_d + Kv ė + Kp e) + ĉ + ĝ) of a sampled trajectory
   * {t, q, qd, qdd} on the simulated chain. spec: {traj, kp, kv (numbers or per joint; default
   * (2π·5)², 2·2π·5), controllerLegs (default: the plant's opts.legs), q0, qd0 (default: the first
   * sample), dt, duration (default: the trajectory's), every, integrator, onProgress (false stops: "control: cancelled …"), motor: {R, L, Kt, Ke}
   * (optional DC motors with Freeman's voltage feed-forward)}.
   * Returns {t, q, qDes, error, tau (arrays of Float64Array), maxAbsError, rmsError [, current, voltage]}.
   */
  Model.prototype.simulateComputedTorque = function simulateComputedTorque(spec, opts = {}) {
    const n = this.dof;
    const tr = spec.traj;
    const count = tr?.t?.length ?? 0;
    if (count < 1) throw new Error('traj: needs t, q (and optionally qd, qdd) with at least one sample');
    const w = 1 + 3 * n;
    const dc = spec.motor != null;
    const buf = new Float64Array(count * w + (dc ? 8 : 4) * n);
    for (let k = 0; k < count; k++) {
      buf[k * w] = finiteNumber(tr.t[k], `traj.t[${k}]`);
      for (const [key, off] of [['q', 1], ['qd', 1 + n], ['qdd', 1 + 2 * n]]) {
        const row = tr[key]?.[k];
        if (row == null) { if (key === 'q') throw new Error(`q[${k}]: missing`); continue; }
        putVector(buf, k * w + off, row, `${key}[${k}]`, n);
      }
    }
    const om = 2 * Math.PI * 5;
    const gain = (g, def, what) => {
      if (g == null) return new Float64Array(n).fill(def);
      if (typeof g === 'number') return new Float64Array(n).fill(finiteNumber(g, what));
      if (g.length !== n) throw new Error(`${what}: expected 1 or ${n} values, got ${g.length}`);
      const out = new Float64Array(n);
      putVector(out, 0, g, what, n);
      return out;
    };
    const base = count * w;
    buf.set(gain(spec.kp, om * om, 'kp'), base);
    buf.set(gain(spec.kv, 2 * om, 'kv'), base + n);
    putVector(buf, base + 2 * n, spec.q0 ?? buf.subarray(1, 1 + n), 'q0', n);
    putVector(buf, base + 3 * n, spec.qd0 ?? buf.subarray(1 + n, 1 + 2 * n), 'qd0', n);
    if (dc) {
      ['R', 'L', 'Kt', 'Ke'].forEach((key, j) => {
        if (spec.motor[key] == null) throw new Error(`motor.${key}: missing (give R, L, Kt, Ke)`);
        buf.set(gain(spec.motor[key], 0, `motor.${key}`), base + (4 + j) * n);
      });
    }
    const ctrl = spec.controllerLegs == null ? -1 : encode({ legs: spec.controllerLegs }).legs;
    const { legs, flags, extra } = encode(opts);  // after the line above: encode() reuses one buffer
    const dt = spec.dt ?? 1e-3;
    if (!(dt > 0) || !Number.isFinite(dt)) throw new Error(`dt: must be a positive number (got ${dt})`);
    const duration = finiteNumber(spec.duration, 'duration', tr.t[count - 1] - tr.t[0]);
    const integ = spec.integrator ?? 'rk4';
    if (integ !== 'rk4' && integ !== 'euler') throw new Error(`integrator: expected rk4 or euler (got '${integ}')`);
    const raw = this._input([buf, 'trajectory', buf.length], [extra, 'options', 9]);
    const rows = this.achain.module.simulateComputedTorque(raw, legs, flags, ctrl, dt, duration, integer(spec.every, 'every', 10, 1, 1e6),
      integ === 'euler' ? 1 : 0, count, dc ? 1 : 0, typeof spec.onProgress === 'function' ? spec.onProgress : null).slice();
    const rw = 1 + (dc ? 6 : 4) * n, m = (rows.length - 2 * n) / rw;
    const out = { t: new Float64Array(m), q: [], qDes: [], error: [], tau: [] };
    if (dc) { out.current = []; out.voltage = []; }
    for (let k = 0; k < m; k++) {
      out.t[k] = rows[k * rw];
      out.q.push(rows.subarray(k * rw + 1, k * rw + 1 + n));
      out.qDes.push(rows.subarray(k * rw + 1 + n, k * rw + 1 + 2 * n));
      out.error.push(rows.subarray(k * rw + 1 + 2 * n, k * rw + 1 + 3 * n));
      out.tau.push(rows.subarray(k * rw + 1 + 3 * n, k * rw + 1 + 4 * n));
      if (dc) {
        out.current.push(rows.subarray(k * rw + 1 + 4 * n, k * rw + 1 + 5 * n));
        out.voltage.push(rows.subarray(k * rw + 1 + 5 * n, k * rw + 1 + 6 * n));
      }
    }
    out.maxAbsError = rows.subarray(m * rw, m * rw + n);
    out.rmsError = rows.subarray(m * rw + n);
    return out;
  };
}
