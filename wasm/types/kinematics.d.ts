// Model methods of the kinematics area (see wasm/js/kinematics.mjs, wasm/bind_kinematics.cpp, docs/kinematics.md).
//
// Units SI (m, rad; θ_v for A-pairs). Matrices are row-major Float64Arrays: J[r*dof + c], rows
// (vx, vy, vz, ωx, ωy, ωz) in the base frame unless `frame: 'tool'`. Returned arrays are fresh copies.
import type { Vector } from '../achain';

export interface PointOptions {
  /** Link index, 0-based (the body joint k moves); -1 or omitted = the tool's link. */
  link?: number;
  /** A point fixed on the link, in the link's frame (m). Default: tool origin (tool link) or link origin. */
  point?: Vector;
}

export interface JacobianOptions extends PointOptions {
  /** Frame the rows are expressed in (default 'base'). */
  frame?: 'base' | 'tool';
}

export interface InfluenceOptions extends PointOptions {
  /** 1: G; 2: G, H (default); 3: G, H, D. */
  order?: 1 | 2 | 3;
}

export interface Influence {
  /** 6×dof row-major: the geometric Jacobian. */
  G: Float64Array;
  /** 6 planes of dof×dof: H[(p*dof + m)*dof + n] = ∂g_n/∂q_m (rotational planes p = 3..5 are not symmetric). */
  H?: Float64Array;
  /** D[((p*dof + l)*dof + m)*dof + n] = ∂h^p_mn/∂q_l (order 3). */
  D?: Float64Array;
}

export interface ManipulabilityMeasures {
  /** Descending, min(rows, dof) entries. */
  singularValues: Float64Array;
  sigmaMin: number;
  sigmaMax: number;
  /** σ_max/σ_min; Infinity at a singularity. */
  condition: number;
  inverseCondition: number;
  /** Π σ_i: √det(J Jᵀ) when rows ≤ dof, √det(JᵀJ) when rows > dof. */
  yoshikawa: number;
  rank: number;
}

export interface Singularity {
  kind: 'apair-axial' | 'collinear-axes' | 'wrist' | 'elbow' | 'shoulder' | 'rank-deficient';
  /** 0-based joint indices involved. */
  joints: number[];
  /** Distance to the condition (0 at the singularity). */
  measure: number;
  description: string;
}

export interface EllipsoidData {
  /** Matrix (nested rows) whose COLUMNS are the unit principal directions. */
  axes: number[][];
  /** Semi-axes; Infinity along directions the structure bears alone (force ellipsoid at a singularity). */
  radii: number[];
}

export interface ManipulabilitySummary {
  singularValues: number[];
  sigmaMin: number;
  sigmaMax: number;
  condition: number;
  inverseCondition: number;
  yoshikawa: number;
  rank: number;
  rankTolerance: number;
}

export interface ManipulabilityReport extends ManipulabilitySummary {
  linear: ManipulabilitySummary & { velocityEllipsoid: EllipsoidData; forceEllipsoid: EllipsoidData };
  angular: ManipulabilitySummary & { velocityEllipsoid: EllipsoidData; momentEllipsoid: EllipsoidData };
  singularities: Singularity[];
  lengthScale: number;
}

export interface KinematicsMethods {
  /** Tool pose only (row-major 4×4): the per-frame path. Written into `out` (≥ 16 numbers) when given. */
  fkTool<T extends Float64Array | number[] = Float64Array>(q: Vector, out?: T): T;
  /** Tool poses of many configurations in one wasm call: count·16 numbers (row-major 4×4 each). */
  fkToolSeries(qs: Vector[] | Vector): Float64Array;
  /** Geometric Jacobian, 6×dof row-major. With opts.out, written into it and returned (no allocation). */
  pointJacobian(q: Vector, opts?: JacobianOptions & { out?: Float64Array }): Float64Array;
  /** Jacobians of many configurations in one wasm call: count·6·dof numbers (row-major 6×dof each). */
  pointJacobianSeries(qs: Vector[] | Vector, opts?: JacobianOptions): Float64Array;
  /** dJ/dt (base frame) and J̇·q̇. */
  pointJacobianDerivative(q: Vector, qd: Vector, opts?: PointOptions): { Jdot: Float64Array; JdotQd: Float64Array };
  /** Analytical Jacobian (rows x, y, z, roll, pitch, yaw; R = Rz(yaw)Ry(pitch)Rx(roll)). Throws at pitch = ±90°. */
  analyticalJacobian(q: Vector): { Ja: Float64Array; rpy: Float64Array };
  /** Freeman's influence coefficients. */
  influence(q: Vector, opts?: InfluenceOptions): Influence;
  /** Acceleration G·q̈ + q̇ᵀHq̇ (v; ω) of the tool or a point. */
  influenceAcceleration(q: Vector, qd: Vector, qdd: Vector, opts?: PointOptions): Float64Array;
  /** Jerk (v; ω) of the tool or a point from G, H, D. */
  influenceJerk(q: Vector, qd: Vector, qdd: Vector, qddd: Vector, opts?: PointOptions): Float64Array;
  /** Hot-path manipulability numbers of the tool Jacobian. */
  manipulability(q: Vector, options?: { rows?: 'all' | 'linear' | 'angular' }): ManipulabilityMeasures;
  /** The report of `achain manipulability` with camelCase keys (+inf as Infinity). */
  manipulabilityReport(q: Vector, options?: { tol?: number }): ManipulabilityReport;
  /** Named singular conditions (tol dimensionless, default 1e-6). */
  detectSingularities(q: Vector, options?: { tol?: number }): Singularity[];
  /** τ = Jᵀ·F for the tool wrench F = (f; m) in the base (default) or tool frame. */
  staticTorques(q: Vector, wrench: Vector, options?: { frame?: 'base' | 'tool' }): Float64Array;
}
