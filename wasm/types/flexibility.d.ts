// Model methods of lumped joint flexibility (see wasm/js/flexibility.mjs, wasm/bind_flexibility.cpp,
// docs/flexible.md, docs/studio-vibration.md): Spong's spring k, damper c and reflected motor inertia J per
// coordinate. Each field of JointFlexibilityInput defaults to the robot file's drive blocks (model.info.drives);
// without drives, stiffness is required. Units SI.
import type { Vector } from '../achain';
import type { LegModelName, PlanOptions } from './trajectory';

/** Drive flexibility: one number for every coordinate, or one per coordinate (SI). */
export interface JointFlexibilityInput {
  /** k, N·m/rad (N/m prismatic), > 0. */
  stiffness?: number | Vector;
  /** c, N·m·s/rad, ≥ 0 (the modal analysis ignores it). */
  damping?: number | Vector;
  /** J = J_m·G² at the joint, kg·m², > 0; needed with motor 'free'. */
  motorInertia?: number | Vector;
}

/** The drive blocks of a robot file in SI (a motor inertia the file does not give: NaN). */
export interface JointFlexibility {
  stiffness: Float64Array;
  damping: Float64Array;
  motorInertia: Float64Array;
}

export interface JointFlexibilityModesOptions extends JointFlexibilityInput {
  /** 'locked' (servo-stiff motors, default: dof modes) or 'free' (2·dof modes over (q, θ), the first dof rigid). */
  motor?: 'locked' | 'free';
  legs?: LegModelName;
}

export interface JointFlexibilityModes {
  motor: 'locked' | 'free';
  /** rad/s, ascending. */
  omega: Float64Array;
  frequencyHz: Float64Array;
  /** One mass-normalised shape per mode (link angles; with free motors (q, θ)), largest entry positive. */
  shapes: Float64Array[];
}

export type ShaperKind = 'none' | 'zv' | 'zvd';

export interface InputShaper {
  kind: ShaperKind;
  /** rad/s */
  omega: number;
  zeta: number;
  /** Impulse amplitudes (sum 1) and times (s). */
  amplitude: Float64Array;
  time: Float64Array;
}

export interface FlexCheckOptions extends PlanOptions, JointFlexibilityInput {
  /** The shaped plans to check (default 'all': unshaped, ZV, ZVD). */
  shaper?: ShaperKind | 'all';
  /** Hz shaped for (default: the first locked-motor frequency at the end of the move). */
  shaperFrequency?: number;
  /** Damping ratio shaped for (default: the first mode's at the end, from the drive damping). */
  shaperDamping?: number;
  /** Integration step, s (0 = automatic: 1/20 of the shortest locked-motor period, at most 1 ms). */
  dt?: number;
  /** Seconds simulated after the move (0 = automatic: 5 periods of the lowest first frequency, ≥ 0.5 s). */
  settle?: number;
  /** Configurations along the path for the frequency map (default 21, ≥ 2). */
  samples?: number;
  /** About this many points of the run traced per result (default 0: no trace). */
  traceSamples?: number;
}

export interface FlexCheckRow {
  shaper: ShaperKind;
  /** The shaper's impulses (null unshaped). */
  impulses: { amplitude: Float64Array; time: Float64Array } | null;
  /** s, the (shaped) plan's duration. */
  duration: number;
  bandwidthHz: number;
  /** bandwidth / lowest first frequency along the path. */
  bandwidthRatio: number;
  /** m and s: max |p(q) − p(θ)| over the run. */
  peakTipError: number;
  peakTipErrorTime: number;
  /** rad or m: max |q − θ|∞. */
  peakDeflection: number;
  /** m: |p(q*) − p(θ_end)|. */
  staticTipSag: number;
  /** m: max |p(q) − p(q*)| after the move. */
  residualTipVibration: number;
  residualDeflection: number;
  /** Unshaped residual / this residual. */
  residualReduction: number;
  settle: number;
  dt: number;
  steps: number;
  /** With traceSamples > 0 (else empty): t (s), tip error |p(q) − p(θ)| (m), deflection max |q − θ|∞. */
  trace: { t: Float64Array; tipError: Float64Array; deflection: Float64Array };
}

export interface FlexCheckResult {
  plan: { profile: string; duration: number };
  stiffness: Float64Array;
  damping: Float64Array;
  /** First locked-motor frequency (Hz) at samples along the unshaped plan. */
  firstFrequency: { t: Float64Array; hz: Float64Array; min: number; max: number; end: number };
  firstDampingRatioEnd: number;
  highestHz: number;
  shaperFrequencyHz: number;
  shaperDampingRatio: number;
  results: FlexCheckRow[];
}

export interface FlexibilityMethods {
  /** The robot file's drive blocks in SI, or null when it declares none. */
  jointFlexibility(): JointFlexibility | null;
  /** Throws the core's message (field, coordinate, joint) unless the flexibility is valid. */
  checkJointFlexibility(flex?: JointFlexibilityInput, options?: { needMotorInertia?: boolean }): void;
  /** Natural modes about q with the drive springs (no gravity stiffness, no damping). */
  jointFlexibilityModes(q: Vector, options?: JointFlexibilityModesOptions): JointFlexibilityModes;
  /** The move from → to (planned as planJointPath) checked against the drive flexibility, with and without input shaping. */
  checkFlexibleTrajectory(from: Vector, to: Vector, options?: FlexCheckOptions): FlexCheckResult;
  /** Hz below which energyFraction (0.95) of the joint-acceleration energy of the move lies. */
  accelerationBandwidth(from: Vector, to: Vector, options?: PlanOptions & { sampleRate?: number; energyFraction?: number }): number;
}
