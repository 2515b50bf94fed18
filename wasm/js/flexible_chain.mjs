// Model methods of flexible links in a chain (issue 13, Tesar & Graves 1988): the robot file's flexible blocks
// (model.info.flexibleLinks) as assumed-modes beams, with φ = (q: the dof joint coordinates, then each flexible
// link's modal coordinates in joint order, then with options.baseMass > 0 the base's translation, 3 world
// coordinates). C++: wasm/bind_flexible_chain.cpp → core/dynamics/flexible_chain.*. Types:
// wasm/types/flexible_chain.d.ts. Docs: docs/flexible.md, docs/flexible-wasm.md. Units SI.
//
// Every method takes options.baseMass (kg; default 0: the base is fixed). The model keeps one chain and its scratch
// in wasm, built on first use (rebuilt when baseMass changes) and freed with the model.
import { finiteNumber, integer } from './args.mjs';

const F64 = (v) => Float64Array.from(v);
const rows = (r) => r.map(F64);
const baseMass = (options) => finiteNumber(options?.baseMass, 'options.baseMass', 0);

/** The deflection summary of the core (flexibleDeflection) with its vector as a Float64Array. */
function deflection(d) {
  d.toolDisplacement = F64(d.toolDisplacement);
  return d;
}

export function install(Model) {
  /** The chain's sizes {nv, nf, nb, dof, baseMass} and the names of its modal (and base) coordinates. */
  Model.prototype.makeFlexibleChain = function makeFlexibleChain(options = {}) {
    return JSON.parse(this.achain.module.makeFlexibleChain(this._raw(), baseMass(options)));
  };

  /** φ's length for these options (nv + Σ modes (+ 3 with a translating base)). */
  Model.prototype._flexDof = function _flexDof(options) {
    // without flexible links the core's message, before any length check of φ
    if (!this.info.flexibleLinks) this.achain.module.makeFlexibleChain(this._raw(), 0);
    const nf = this.info.flexibleLinks.reduce((s, l) => s + l.count, 0);
    return this.dof + nf + (baseMass(options) > 0 ? 3 : 0);
  };

  /** Calls the Embind entry `name` with [vector, 'what', n] parts staged, then the extra arguments; parses its JSON. */
  Model.prototype._flex = function _flex(name, parts, ...args) {
    return JSON.parse(this.achain.module[name](this._input(...parts), ...args));
  };

  const phiPart = (m, phi, options, what = 'phi') => [phi, what, m._flexDof(options)];

  /**
   * Coupled natural modes about q with the joints locked and the links undeflected: det(K_ff − ω²·I*_ff) = 0 over
   * the modal coordinates (and the base's with options.baseMass: three rigid-body modes at 0 first). Returns
   * {omega, frequencyHz, shapes (one Float64Array per mode over the modal coordinates), coordinates (names),
   * clampedLinks: [{joint, name, frequencyHz}] (each link alone, root clamped)}.
   */
  Model.prototype.flexibleChainModes = function flexibleChainModes(q, options = {}) {
    const r = this._flex('flexibleChainModes', [[q, 'q', this.dof]], baseMass(options));
    r.omega = F64(r.omega);
    r.frequencyHz = F64(r.frequencyHz);
    r.shapes = rows(r.shapes);
    for (const l of r.clampedLinks) l.frequencyHz = F64(l.frequencyHz);
    return r;
  };

  /** How far the links bend at φ: the tool against the rigid pose (same q, modes zero), the largest link tip rotation
   * and the paper's 3° / 5° small-angle flags. */
  Model.prototype.flexibleDeflection = function flexibleDeflection(phi, options = {}) {
    return deflection(this._flex('flexibleDeflection', [phiPart(this, phi, options)], baseMass(options)));
  };

  /** Deflected forward kinematics at φ: {base, links, axes, tool (Float64Array(16) row-major 4×4 each), tips:
   * [{joint, tip, theta}] per flexible link, deflection (as flexibleDeflection)}. */
  Model.prototype.flexibleKinematics = function flexibleKinematics(phi, options = {}) {
    const r = this._flex('flexibleKinematics', [phiPart(this, phi, options)], baseMass(options));
    r.base = F64(r.base);
    r.tool = F64(r.tool);
    r.links = rows(r.links);
    r.axes = rows(r.axes);
    for (const t of r.tips) { t.tip = F64(t.tip); t.theta = F64(t.theta); }
    deflection(r.deflection);
    return r;
  };

  /** The world Jacobians at φ (6×dof, rows v then ω): {links: one per joint frame origin, tool}. */
  Model.prototype.flexibleJacobians = function flexibleJacobians(phi, options = {}) {
    const r = this._flex('flexibleJacobians', [phiPart(this, phi, options)], baseMass(options));
    return { links: r.links.map(rows), tool: rows(r.tool) };
  };

  /** I*(φ), dof×dof (one Float64Array per row). */
  Model.prototype.flexibleMassMatrix = function flexibleMassMatrix(phi, options = {}) {
    return rows(this._flex('flexibleMassMatrix', [phiPart(this, phi, options)], baseMass(options)));
  };

  /** K*, dof×dof: the links' stiffness on their modal coordinates. */
  Model.prototype.flexibleStiffness = function flexibleStiffness(options = {}) {
    return rows(JSON.parse(this.achain.module.flexibleStiffness(this._raw(), baseMass(options))));
  };

  /** The system's centre of mass at φ (world) and its 3×dof Jacobian. */
  Model.prototype.flexibleCenterOfMass = function flexibleCenterOfMass(phi, options = {}) {
    const r = this._flex('flexibleCenterOfMass', [phiPart(this, phi, options)], baseMass(options));
    return { com: F64(r.com), jacobian: rows(r.jacobian) };
  };

  /**
   * Static deflection under a load at the tool (force, N, and moment about the tool origin, N·m; world), joints
   * locked, linearised at q (fixed base only). Returns {phi, modal, coordinates, deflection}.
   */
  Model.prototype.flexibleStaticDeflection = function flexibleStaticDeflection(q, load = {}) {
    const r = this._flex('flexibleStaticDeflection',
      [[q, 'q', this.dof], [load.force ?? [0, 0, 0], 'force', 3], [load.moment ?? [0, 0, 0], 'moment', 3]]);
    r.phi = F64(r.phi);
    r.modal = F64(r.modal);
    deflection(r.deflection);
    return r;
  };

  /**
   * The centreline of the flexible link moved by `joint`, for drawing: options.samples (default 21) points from
   * root to tip, world, flat x0, y0, z0, x1, …: {joint, u, deflected, rigid} (rigid: the same beam with every mode
   * zero). The deflected last point is the next frame's origin of flexibleKinematics.
   */
  Model.prototype.flexibleLinkCurve = function flexibleLinkCurve(phi, joint, options = {}) {
    const r = this._flex('flexibleLinkCurve', [phiPart(this, phi, options)], baseMass(options),
      integer(joint, 'joint', undefined, 0, this.info.joints.length - 1), integer(options.samples, 'options.samples', 21, 2, 100000));
    return { joint: r.joint, u: F64(r.u), deflected: F64(r.deflected), rigid: F64(r.rigid) };
  };

  /** c(φ, φ̇): Coriolis and centrifugal generalized forces. */
  Model.prototype.flexibleBiasForces = function flexibleBiasForces(phi, phidot, options = {}) {
    return F64(this._flex('flexibleBiasForces', [phiPart(this, phi, options), phiPart(this, phidot, options, 'phidot')], baseMass(options)));
  };

  /** τ = I*·φ̈ + c + K*·φ (joint torques, then modal forces). */
  Model.prototype.flexibleInverseDynamics = function flexibleInverseDynamics(phi, phidot, phiddot, options = {}) {
    return F64(this._flex('flexibleInverseDynamics',
      [phiPart(this, phi, options), phiPart(this, phidot, options, 'phidot'), phiPart(this, phiddot, options, 'phiddot')], baseMass(options)));
  };

  /** φ̈ = I*⁻¹·(τ − c − K*·φ); options.lockJoints holds the joints (their rates must be 0). */
  Model.prototype.flexibleForwardDynamics = function flexibleForwardDynamics(phi, phidot, tau, options = {}) {
    return F64(this._flex('flexibleForwardDynamics',
      [phiPart(this, phi, options), phiPart(this, phidot, options, 'phidot'), phiPart(this, tau, options, 'tau')], baseMass(options), !!options.lockJoints));
  };

  /** ½·φ̇ᵀ·I*·φ̇ + ½·φᵀ·K*·φ, J. */
  Model.prototype.flexibleEnergy = function flexibleEnergy(phi, phidot, options = {}) {
    return this._flex('flexibleEnergy', [phiPart(this, phi, options), phiPart(this, phidot, options, 'phidot')], baseMass(options));
  };

  /** One RK4 step of dt seconds with τ held: {phi, phidot} (new arrays). options.lockJoints as flexibleForwardDynamics. */
  Model.prototype.flexibleStep = function flexibleStep(phi, phidot, tau, dt, options = {}) {
    const r = this._flex('flexibleStep', [phiPart(this, phi, options), phiPart(this, phidot, options, 'phidot'), phiPart(this, tau, options, 'tau')],
      baseMass(options), finiteNumber(dt, 'dt'), !!options.lockJoints);
    return { phi: F64(r.phi), phidot: F64(r.phidot) };
  };

  /** 2π/ω_max/20 s: a stable RK4 step at φ (options.lockJoints: over the modal coordinates only). */
  Model.prototype.flexibleStableStep = function flexibleStableStep(phi, options = {}) {
    return this._flex('flexibleStableStep', [phiPart(this, phi, options)], baseMass(options), !!options.lockJoints);
  };

  /**
   * Time response to a load at the tool from rest at q, links undeflected (`achain flex-simulate`): options {force,
   * moment (world, N, N·m), load 'step' | 'pulse' | 'sine', frequency (Hz), start, stop, duration (s, default 2),
   * dt (0: automatic), samples (101), joints 'locked' (default) | 'free', baseMass, onProgress(fraction): about every 1 %
   * (or 1000 steps); returning false stops the run, which throws "flexibleSimulate: cancelled at step …"}. Returns {dt, steps, t,
   * coordinates, modal (per sample), toolDisplacement (per sample, m), baseTranslation (or null), peakToolDeflection,
   * peakLinkRotation (rad), peakLinkRotationDeg, above3deg, above5deg}.
   */
  Model.prototype.flexibleSimulate = function flexibleSimulate(q, options = {}) {
    const load = options.load ?? 'step', joints = options.joints ?? 'locked';
    if (typeof load !== 'string') throw new Error('options.load: must be \'step\', \'pulse\' or \'sine\'');
    if (joints !== 'locked' && joints !== 'free') throw new Error('options.joints: must be \'locked\' or \'free\'');
    const r = this._flex('flexibleSimulate',
      [[q, 'q', this.dof], [options.force ?? [0, 0, 0], 'options.force', 3], [options.moment ?? [0, 0, 0], 'options.moment', 3]],
      baseMass(options), load, finiteNumber(options.frequency, 'options.frequency', 0), finiteNumber(options.start, 'options.start', 0),
      finiteNumber(options.stop, 'options.stop', 0), finiteNumber(options.duration, 'options.duration', 2),
      finiteNumber(options.dt, 'options.dt', 0), integer(options.samples, 'options.samples', 101, 2, 100000), joints === 'locked',
      typeof options.onProgress === 'function' ? options.onProgress : null);
    r.t = F64(r.t);
    r.modal = rows(r.modal);
    r.toolDisplacement = rows(r.toolDisplacement);
    if (r.baseTranslation) r.baseTranslation = rows(r.baseTranslation);
    return r;
  };
}

/** Achain.flexibleLinksFromJsonString: the flexible blocks of a robot file's JSON text, in SI. */
export function flexibleLinksFromJsonString(module, text) {
  if (typeof text !== 'string') throw new Error('text: must be a string of JSON');
  return JSON.parse(module.flexibleLinksFromJsonString(text));
}
