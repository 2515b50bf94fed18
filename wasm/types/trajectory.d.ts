// Model methods of the trajectory area (see wasm/js/trajectory.mjs, core/trajectory/*).
// Units: SI (s, rad, m, N·m, N, W, J); A-pairs use θ_v. Series are row-major Float64Arrays:
// sample k, joint i at index k * dof + i (use jointSeries() from wasm/js/trajectory.mjs for a column).
import type { Vector } from '../achain';

export type TrajectoryProfile = 'trapezoid' | 'cubic' | 'quintic' | 'septic' | 'spline';
export type LegModelName = 'massless' | 'lumped' | 'full' | 'potential';

export interface PlanOptions extends PlanBoundary {
  /** Default 'trapezoid', or 'spline' when via points are given. With via points, trapezoid/cubic/
   * quintic/septic run rest-to-rest segments; 'spline' is one C² cubic spline through them. */
  profile?: TrajectoryProfile;
  via?: Vector[];
  /** Spline knot times (s) from 0, one per point (from, each via, to); default: from the limits. */
  times?: Vector;
  /** Sampling rate in Hz (default 100); the end point is always sampled. */
  rate?: number;
  /** > 0: uniformly time-scale the whole path to exactly this duration (s). */
  duration?: number;
  /** Trapezoid: common switch times for all joints (a straight line in joint space). */
  sync?: boolean;
  /** Per-joint limit overrides (rad/s, rad/s²; m/s, m/s² for P) — default: the model's. */
  vmax?: Vector;
  amax?: Vector;
  velocityScale?: number;
  accelerationScale?: number;
  /** Also slow the path uniformly until |τ| ≤ limits.effort everywhere (RNEA). */
  torqueLimits?: boolean;
  legs?: LegModelName;
  motors?: boolean;
  friction?: boolean;
}

/** The same boundary rates through planJointPath's options (jtraj). */
export interface PlanBoundary {
  /** cubic / quintic / septic without via points: start and end velocities per joint (rad/s, m/s); needs `duration`. */
  v0?: Vector;
  v1?: Vector;
  /** quintic / septic: start and end accelerations per joint (default zero). */
  a0?: Vector;
  a1?: Vector;
}

export interface InterpolationOptions {
  /** Time scaling of the path parameter s (default 'quintic'). */
  profile?: 'trapezoid' | 'cubic' | 'quintic' | 'septic';
  /** s; default 0: the shortest duration within the limits below. A trapezoid accelerates for a third of a given duration. */
  duration?: number;
  /** Tool speed / acceleration limits (m/s, m/s²; defaults 0.25, 1). */
  speed?: number;
  acceleration?: number;
  /** Rotation (SLERP angle) limits (rad/s, rad/s²; defaults 1, 4). */
  angularSpeed?: number;
  angularAcceleration?: number;
  /** Samples per second (default 100); the end is always sampled. */
  rate?: number;
}

export interface CartesianInterpolation {
  profile: string;
  samples: number;
  duration: number;
  /** m, straight-line distance; rad, SLERP angle θ ∈ [0, π]. */
  length: number;
  rotation: number;
  /** Unit rotation axis in the base frame (zero when there is no rotation). */
  axis: Float64Array;
  t: Float64Array;
  /** Path parameter s(t) ∈ [0, 1] and its derivatives. */
  s: Float64Array;
  sd: Float64Array;
  sdd: Float64Array;
  /** samples × 16: row-major 4×4 poses (base frame); first = start, last = goal exactly. */
  poses: Float64Array;
  /** samples × 6: (v, ω) of the tool origin, base frame. */
  twists: Float64Array;
  /** samples × 6: (a, α). */
  accelerations: Float64Array;
}

export interface PlannedTrajectory {
  robot: string;
  joints: string[];
  /** The profile, or 'line' / 'arc' for planCartesianPath. */
  profile: TrajectoryProfile | 'line' | 'arc';
  samples: number;
  dof: number;
  duration: number;
  /** Highest continuous derivative: 1 velocity (trapezoid, cubic), 2 acceleration, 3 jerk (septic). */
  continuity: number;
  t: Float64Array;
  /** samples × dof, row-major */
  q: Float64Array;
  qd: Float64Array;
  qdd: Float64Array;
  /** Per joint: times (s) where its profile changes piece, including 0 and its end. */
  breakpoints: Float64Array[];
  /** planJointPath: factor > 1 when torqueLimits slowed the path; joint = binding joint index (−1 none). */
  torqueScaling?: { factor: number; joint: number };
}

export interface TrajectorySeries {
  t: Float64Array | number[];
  q: Float64Array;
  qd: Float64Array;
  qdd: Float64Array;
}

export interface AnalyzeOptions {
  legs?: LegModelName;
  motors?: boolean;
  friction?: boolean;
}

export interface TrajectoryAnalysis {
  /** ∫|τ_i q̇_i| dt per joint (J) — the thesis's "total work". */
  work: Float64Array;
  /** ∫ τ_i q̇_i dt per joint (J). */
  netWork: Float64Array;
  peakTau: Float64Array;
  /** t (s) of each joint's torque peak. */
  peakTime: Float64Array;
  /** peakTau / limits.effort (0 when unlimited). */
  effortRatio: Float64Array;
  peakPower: Float64Array;
  totalWork: number;
  withinEffort: boolean;
  /** samples × dof, row-major */
  tau: Float64Array;
  power: Float64Array;
}

/** The shared interchange format (also written by `achain traj`). */
export interface TrajectoryJSON {
  schema: 'achain-trajectory';
  version: 1;
  robot: string;
  joints: string[];
  t: number[];
  q: number[][];
  qd: number[][];
  qdd: number[][];
  profile?: string;
  duration?: number;
  breakpoints?: number[][];
}

export interface CartesianOptions {
  kind?: 'line' | 'arc';
  /** Arc: a point (m, base frame) the circle passes through between start and goal. */
  arcVia?: Vector;
  rate?: number;
  /** Tool speed / acceleration along the path (m/s, m/s²; defaults 0.25, 1). */
  speed?: number;
  acceleration?: number;
  /** Orientation (SLERP) rate limits (rad/s, rad/s²; defaults 1, 4). */
  angularSpeed?: number;
  angularAcceleration?: number;
  /** IK solutions along the path (default 41); a C² spline joins them. */
  knots?: number;
  /** Default: position only when the robot has fewer than 6 joints. */
  positionOnly?: boolean;
  /** Slow down uniformly until joint speed/acceleration limits hold (default true). */
  jointLimits?: boolean;
}

export interface CartesianTrajectory extends PlannedTrajectory {
  cartesian: {
    length: number; rotation: number;
    /** m: largest IK position error at the knots. */
    maxIkError: number;
    /** m: largest tool deviation from the ideal path between knots. */
    maxDeviation: number;
    positionOnly: boolean;
    jointLimitFactor: number;
  };
}

export interface TrajectoryMethods {
  planJointPath(from: Vector, to: Vector, options?: PlanOptions): PlannedTrajectory;
  /** goal: row-major 4×4 tool pose (base frame). Throws naming s when the IK fails along the path. */
  planCartesianPath(from: Vector, goal: Vector, options?: CartesianOptions): CartesianTrajectory;
  analyzeTrajectory(traj: TrajectorySeries, options?: AnalyzeOptions): TrajectoryAnalysis;
  trajectoryToJson(traj: PlannedTrajectory | TrajectorySeries): TrajectoryJSON;
}

/** Column j of a row-major samples × dof series (exported by wasm/js/trajectory.mjs). */
export function jointSeries(flat: Float64Array, dof: number, j: number): Float64Array;
