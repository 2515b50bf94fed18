// Model methods of lumped joint flexibility (issue 13; Spong's spring k, damper c and reflected motor inertia J
// per coordinate): natural modes with the drive springs, the check of a planned move against them with and
// without ZV / ZVD input shaping, the plan bandwidth; and makeShaper / jointFlexibilityFromJsonString, carried by
// the Achain instance. C++: wasm/bind_flexibility.cpp → core/dynamics/joint_flexibility.*, core/trajectory/
// flex_check.*. Types: wasm/types/flexibility.d.ts. Docs: docs/flexible.md, docs/studio-vibration.md.
//
// The flexibility {stiffness, damping, motorInertia} (SI; each one number for every coordinate or one per
// coordinate) defaults field by field to the robot file's drive blocks (model.info.drives, joints[i].drive).
import { finiteNumber, integer } from './args.mjs';
import { legCode, planParts } from './trajectory.mjs';

const FIELDS = ['stiffness', 'damping', 'motorInertia'];

/** The flexibility's input parts [stiffness | damping | motorInertia] (n each) and the bits of the ones given. */
function flexParts(model, options) {
  const n = model.dof;
  let given = 0;
  const parts = FIELDS.map((key, b) => {
    const v = options[key];
    if (v == null) return [new Float64Array(n), `options.${key}`, n];
    given |= 1 << b;
    return [typeof v === 'number' ? new Float64Array(n).fill(v) : v, `options.${key}`, n];
  });
  return { parts, given };
}

const toArrays = (o, keys) => { for (const k of keys) o[k] = Float64Array.from(o[k]); return o; };

/** {stiffness, damping, motorInertia} of the core's JSON as Float64Arrays (a motor inertia not given: NaN). */
const drives = (d) => ({ stiffness: Float64Array.from(d.stiffness), damping: Float64Array.from(d.damping),
  motorInertia: Float64Array.from(d.motorInertia, (v) => (v == null ? NaN : v)) });

export function install(Model) {
  /** The robot file's drive blocks in SI ({stiffness, damping, motorInertia}, Float64Arrays; a motor inertia
   * the file does not give is NaN), or null when the file declares none. */
  Model.prototype.jointFlexibility = function jointFlexibility() {
    return this.info.drives ? drives(this.info.drives) : null;
  };

  /** Throws the core's message (field, coordinate, joint) unless the flexibility is valid for this model. */
  Model.prototype.checkJointFlexibility = function checkJointFlexibility(flex = {}, { needMotorInertia = false } = {}) {
    const { parts, given } = flexParts(this, flex);
    this.achain.module.checkJointFlexibility(this._input(...parts), given, !!needMotorInertia);
  };

  /**
   * Natural modes about q with the drive springs (no gravity stiffness, no damping). options: {stiffness,
   * motorInertia (motor 'free'), motor: 'locked' (default) | 'free', legs}. Returns {motor, omega (rad/s),
   * frequencyHz, shapes: one Float64Array per mode (link angles; with free motors (q, θ)), mass-normalised}.
   */
  Model.prototype.jointFlexibilityModes = function jointFlexibilityModes(q, options = {}) {
    const motor = options.motor ?? 'locked';
    if (typeof motor !== 'string') throw new Error('options.motor: must be \'locked\' or \'free\'');
    const { parts, given } = flexParts(this, options);
    const raw = this._input([q, 'q', this.dof], ...parts);
    const r = JSON.parse(this.achain.module.jointFlexibilityModes(raw, motor, legCode(options.legs), given));
    toArrays(r, ['omega', 'frequencyHz']);
    r.shapes = r.shapes.map((s) => Float64Array.from(s));
    return r;
  };

  /**
   * Checks the joint-space move from → to (planned as planJointPath plans it, with its options) against the
   * drive flexibility: the motors follow the plan, the links through the springs. options also: stiffness,
   * damping (default: the file's drives), shaper 'none' | 'zv' | 'zvd' | 'all' (default 'all'), shaperFrequency
   * (Hz; default the first frequency at the end of the move), shaperDamping (default that mode's damping ratio),
   * dt, settle (s; 0 = automatic), samples (frequency map, default 21), traceSamples (default 0 = no trace).
   */
  Model.prototype.checkFlexibleTrajectory = function checkFlexibleTrajectory(from, to, options = {}) {
    const shaper = options.shaper ?? 'all';
    if (typeof shaper !== 'string') throw new Error('options.shaper: must be \'none\', \'zv\', \'zvd\' or \'all\'');
    const plan = planParts(this, from, to, options);
    const { parts, given } = flexParts(this, options);
    const raw = this._input(...plan.parts, ...parts);
    const r = JSON.parse(this.achain.module.checkFlexibleTrajectory(raw, shaper,
      finiteNumber(options.shaperFrequency, 'options.shaperFrequency', 0), finiteNumber(options.shaperDamping, 'options.shaperDamping', -1),
      finiteNumber(options.dt, 'options.dt', 0), finiteNumber(options.settle, 'options.settle', 0),
      integer(options.samples, 'options.samples', 21, 2, 10000), integer(options.traceSamples, 'options.traceSamples', 0, 0, 1e6), given));
    toArrays(r, ['stiffness', 'damping']);
    toArrays(r.firstFrequency, ['t', 'hz']);
    for (const row of r.results) {
      toArrays(row.trace, ['t', 'tipError', 'deflection']);
      if (row.impulses) toArrays(row.impulses, ['amplitude', 'time']);
    }
    return r;
  };

  /** The bandwidth (Hz) of the move from → to (planJointPath's options): the frequency below which
   * options.energyFraction (0.95) of the joint-acceleration energy lies, the plan sampled at options.sampleRate (1000 Hz). */
  Model.prototype.accelerationBandwidth = function accelerationBandwidth(from, to, options = {}) {
    const plan = planParts(this, from, to, options);
    return this.achain.module.accelerationBandwidth(this._input(...plan.parts),
      finiteNumber(options.sampleRate, 'options.sampleRate', 1000), finiteNumber(options.energyFraction, 'options.energyFraction', 0.95));
  };
}

/** Achain.makeShaper: the ZV / ZVD impulses (Singer & Seering) for omega (rad/s) and damping ratio zeta. */
export function makeShaper(module, kind, omega, zeta = 0) {
  if (typeof kind !== 'string') throw new Error('kind: must be \'none\', \'zv\' or \'zvd\'');
  return toArrays(JSON.parse(module.makeShaper(kind, finiteNumber(omega, 'omega'), finiteNumber(zeta, 'zeta'))), ['amplitude', 'time']);
}

/** Achain.jointFlexibilityFromJsonString: the drive blocks of a robot file's JSON text, in SI (as model.jointFlexibility()). */
export function jointFlexibilityFromJsonString(module, text) {
  if (typeof text !== 'string') throw new Error('text: must be a string of JSON');
  return drives(JSON.parse(module.jointFlexibilityFromJsonString(text)));
}
