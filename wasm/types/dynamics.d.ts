// Model methods of the dynamics area (see wasm/js/dynamics.mjs, wasm/bind_dynamics.cpp, docs/dynamics.md).
//
// Units SI (m, rad, kg, N·m, N; θ_v for A-pairs). Matrices are row-major Float64Arrays (M[r*dof + c]).
import type { Vector } from '../achain';

export type LegModel = 'massless' | 'lumped' | 'full' | 'potential';

export interface DynamicsOptions {
  /** A-pair leg model (default 'full'): see docs/dynamics.md. */
  legs?: LegModel;
  /** Rotor inertia J_m·G² from the motor data. */
  motors?: boolean;
  /** Viscous + Coulomb joint friction from the motor data. */
  friction?: boolean;
  /** Joint-limit stops (forwardDynamics, simulate): a one-sided spring–damper past each limit, 20 Hz and
   *  critically damped relative to the joint's own inertia (docs/dynamics.md); other algorithms ignore it. */
  limitStops?: boolean;
  /** Gravity vector (m/s², base frame); default: the model's. */
  gravity?: Vector;
  /** Wrench the tool exerts on the environment (fx, fy, fz, mx, my, mz), moment about the tool origin. */
  wrench?: Vector;
  /** Frame of `wrench` (default 'base'). */
  wrenchFrame?: 'base' | 'tool';
  /**
   * inverseDynamics, massMatrix, gravityTorques, coriolisMatrix, forwardDynamics: write the result
   * into this array (dof or dof² numbers) and return it instead of allocating one.
   */
  out?: Float64Array;
}

export interface TorqueBreakdown {
  /** inertial + velocity + gravity + friction + wrench */
  total: Float64Array;
  /** M(q) q̈, rotor inertia included */
  inertial: Float64Array;
  /** C(q, q̇) q̇ */
  velocity: Float64Array;
  /** g(q) */
  gravity: Float64Array;
  friction: Float64Array;
  /** Jᵀ h_e */
  wrench: Float64Array;
  /** J_m G² q̈ (part of inertial) */
  rotor: Float64Array;
  /** Due to the bodies' masses (links, legs); all of the gravity part (Lee's translational effects) */
  translational: Float64Array;
  /** Due to the links' rotational inertia about their CoMs (Lee's rotational effects) */
  rotational: Float64Array;
}

export interface SimulationSpec {
  q: Vector;
  qd?: Vector;
  /** Constant joint torque (default zero). */
  tau?: Vector;
  /** Step, s (default 1e-3). */
  dt?: number;
  /** Simulated time, s (default 1). */
  duration?: number;
  /** Keep every k-th step (default 10). */
  every?: number;
  integrator?: 'rk4' | 'euler';
  /** Told the fraction done about every 1 % (or 1000 steps); return false to stop: the call then throws
   *  an Error "simulate: cancelled at step k of N (t = … s)" ("control: …" for simulateComputedTorque). */
  onProgress?: (fraction: number) => unknown;
}

export interface SimulationResult {
  t: Float64Array;
  q: Float64Array[];
  qd: Float64Array[];
  /** Kinetic + potential energy at each sample (J). */
  energy: Float64Array;
}

/** A separately excited DC motor, motor side (the gear ratio, rotor inertia and viscous friction come from the model). */
export interface DcMotor {
  /** K_t, N·m/A */
  torqueConstant: number;
  /** K_e, V·s/rad */
  backEmfConstant: number;
  /** R, Ω (> 0) */
  resistance: number;
  /** L, H (> 0) */
  inductance: number;
}

export interface LinearizeOptions extends DynamicsOptions {
  /** 'joints' (y = δq, default) or 'tool' (y = J δq: the tool's v, ω) */
  output?: 'joints' | 'tool';
  /** one for every coordinate or one for all: voltage inputs, the armature currents in the state */
  dcMotors?: DcMotor[];
  /** the state's coordinates: 'joints' (x = (δq, δq̇[, δi]), default) or 'tool' (x = (δy, δẏ[, δi]) in toolRows) */
  coordinates?: 'joints' | 'tool';
  /** with coordinates 'tool': one row of the tool's motion per coordinate; default all six */
  toolRows?: ToolRow[];
}

/** A row of the tool's motion: the tool point's translation, or a small rotation (world frame). */
export type ToolRow = 'x' | 'y' | 'z' | 'wx' | 'wy' | 'wz';

/** Linearised dynamics and state space (Freeman 2-200…2-252); matrices row-major. */
export interface Linearization {
  /** states × states; x = (δq, δq̇) or (δq, δq̇, δi) */
  A: Float64Array;
  /** states × dof; u = δτ or δv */
  B: Float64Array;
  /** outputs × states */
  C: Float64Array;
  /** outputs × dof */
  D: Float64Array;
  states: number;
  outputs: number;
  /** eigenvalues of A */
  poles: { re: number; im: number }[];
  /** ∂T/∂q, ∂T/∂q̇, I* (dof × dof) */
  dTdq: Float64Array;
  dTdqd: Float64Array;
  Istar: Float64Array;
  /** the state transform x = T x_joints (states × states; the identity for joint coordinates) */
  T: Float64Array;
}

export interface FrequencyResponseOptions extends Omit<LinearizeOptions, 'output'> {
  /** the input (a column of B: a coordinate's torque, or voltage with dcMotors), 0-based; default 0 */
  input?: number;
  /** the output (a row of C: a coordinate's angle, or a tool motion row with outputs 'tool'), 0-based; default = input */
  output?: number;
  /** linearizeDynamics' output: 'joints' (default) or 'tool' */
  outputs?: 'joints' | 'tool';
  /** log-spaced frequencies (≥ 2; default 200) */
  points?: number;
  /** [lo, hi] rad/s; default 0.1× the smallest to 10× the largest nonzero |pole| */
  range?: [number, number];
}

/** G(jω) = C (jωI − A)⁻¹ B + D of one input → output pair of the linearisation. */
export interface FrequencyResponse {
  input: number;
  output: number;
  /** rad/s, log-spaced */
  omega: Float64Array;
  /** |G| */
  magnitude: Float64Array;
  /** 20 log₁₀ |G| */
  magnitudeDb: Float64Array;
  /** arg G in degrees, unwrapped along ω */
  phaseDeg: Float64Array;
  /** the distinct nonzero |pole| (rad/s), ascending */
  poleFrequencies: Float64Array;
}

/** One joint's motor-torque → motor-angle 1/(J s² + B s), as the Robotics Toolbox's jointdynamics. */
export interface JointTransferFunction {
  J: number;
  B: number;
  numerator: number[];
  /** [J, B, 0] */
  denominator: number[];
}

export interface LeeTerms {
  Dtran: Float64Array;
  Drot: Float64Array;
  /** Dtran + Drot (+ rotor inertia) */
  D: Float64Array;
  htran: Float64Array;
  hrot: Float64Array;
  c: Float64Array;
  /** friction + Jᵀh_e */
  other: Float64Array;
}

export interface FreemanModel {
  /** Effective inertia I* (row-major). */
  Istar: Float64Array;
  /** Inertia power modeling matrix: Pstar[(k*dof + m)*dof + n]. */
  Pstar: Float64Array;
  /** Applied loads T^L, so τ = I*q̈ + q̇ᵀP*q̇ − T^L. */
  TL: Float64Array;
}

export interface ComputedTorqueSpec {
  /** Desired motion samples (SI); qd/qdd default to zero. */
  traj: { t: ArrayLike<number>; q: Vector[]; qd?: Vector[]; qdd?: Vector[] };
  /** Position gains 1/s² (one number or per joint; default (2π·5)²). */
  kp?: number | Vector;
  /** Velocity gains 1/s (default 2·2π·5). */
  kv?: number | Vector;
  /** The controller's leg model (default: the plant's, i.e. a perfect model). */
  controllerLegs?: LegModel;
  q0?: Vector;
  qd0?: Vector;
  /** Control period = integration step, s (default 1e-3). */
  dt?: number;
  /** Default: the trajectory's length. */
  duration?: number;
  every?: number;
  integrator?: 'rk4' | 'euler';
  /** Told the fraction done about every 1 % (or 1000 steps); return false to stop: the call then throws
   *  an Error "simulate: cancelled at step k of N (t = … s)" ("control: …" for simulateComputedTorque). */
  onProgress?: (fraction: number) => unknown;
  /** Drive through armature-controlled DC motors (motor side; joint torque = Kt·G·i, G from the
   *  model's motor data or 1) with Freeman's voltage feed-forward. Ω, H, N·m/A, V·s/rad. */
  motor?: { R: number | Vector; L: number | Vector; Kt: number | Vector; Ke: number | Vector };
}

export interface ComputedTorqueResult {
  t: Float64Array;
  q: Float64Array[];
  qDes: Float64Array[];
  /** q_des − q */
  error: Float64Array[];
  tau: Float64Array[];
  maxAbsError: Float64Array;
  rmsError: Float64Array;
  /** DC motors only: armature currents (A) and voltages (V) per sample. */
  current?: Float64Array[];
  voltage?: Float64Array[];
}

export type TaskRows = 'all' | 'linear' | 'angular';

export interface OperationalOptions extends DynamicsOptions {
  /** Task rows of the tool Jacobian (base frame, v then ω): default 'all' (6), or 'linear' / 'angular' (3). */
  rows?: TaskRows;
  /** Relative rank tolerance: eigenvalues of J M⁻¹ Jᵀ at or below rankTol·μ_max count as zero (default 1e-10). */
  rankTol?: number;
}

/** The operational-space inertia Λ of the tool (see docs/dynamics.md). m = 6, or 3 for 'linear'/'angular'. */
export interface CartesianInertia {
  /** Row-major m×m: (J M⁻¹ Jᵀ)⁻¹, or its pseudo-inverse below full rank. */
  Lambda: Float64Array;
  /** Row-major m×m mobility matrix J M⁻¹ Jᵀ. */
  LambdaInv: Float64Array;
  /** Eigenvalues μ of LambdaInv, descending (Λ has 1/μ on its rank). */
  eigenvalues: Float64Array;
  /** Row-major m×m; column i is the unit eigenvector of eigenvalues[i]. */
  axes: Float64Array;
  rank: number;
  /** Absolute tolerance rankTol·μ_max. */
  rankTolerance: number;
  rows: TaskRows;
}

export interface DynamicManipulability {
  /** Yoshikawa's w_d = √det(J (MᵀM)⁻¹ Jᵀ) (product of the min(m, dof) largest σ of J M⁻¹). */
  yoshikawa: number;
  /** Asada's measure (Robotics Toolbox): λ_min(Λ)/λ_max(Λ); 0 below full rank. */
  asada: number;
  rank: number;
  rows: TaskRows;
  /** σ_i(J M⁻¹), descending: semi-axes of the dynamic manipulability ellipsoid (accelerations per unit ‖τ‖). */
  radii: Float64Array;
  /** Row-major m×m; columns are the ellipsoid's principal directions. */
  axes: Float64Array;
  /** Λ: the generalized inertia ellipsoid ẋᵀΛẋ = 1. */
  inertia: CartesianInertia;
}

export interface DynamicsMethods {
  /** Operational-space (Cartesian) inertia of the tool: Λ = (J M⁻¹ Jᵀ)⁻¹ (pseudo-inverse below full rank). */
  cartesianInertia(q: Vector, opts?: OperationalOptions): CartesianInertia;
  /** Yoshikawa's dynamic manipulability, its ellipsoid, and Asada's inertia-ellipsoid ratio. */
  dynamicManipulability(q: Vector, opts?: OperationalOptions): DynamicManipulability;
  /** Computed-torque + PD tracking of a sampled trajectory on the simulated chain (thesis Fig. 2.18). */
  simulateComputedTorque(spec: ComputedTorqueSpec, opts?: DynamicsOptions): ComputedTorqueResult;
  inverseDynamics(q: Vector, qd: Vector, qdd: Vector, opts?: DynamicsOptions): Float64Array;
  torqueBreakdown(q: Vector, qd: Vector, qdd: Vector, opts?: DynamicsOptions): TorqueBreakdown;
  inverseDynamicsSeries(traj: { q: Vector[]; qd?: Vector[]; qdd?: Vector[] }, opts?: DynamicsOptions): Float64Array[];
  /** Row-major dof×dof. */
  massMatrix(q: Vector, opts?: DynamicsOptions): Float64Array;
  gravityTorques(q: Vector, opts?: DynamicsOptions): Float64Array;
  coriolisMatrix(q: Vector, qd: Vector, opts?: DynamicsOptions): Float64Array;
  forwardDynamics(q: Vector, qd: Vector, tau: Vector, opts?: DynamicsOptions): Float64Array;
  /** Kinetic energy ½q̇ᵀMq̇ (J). */
  kineticEnergy(q: Vector, qd: Vector, opts?: DynamicsOptions): number;
  /** Potential energy (J). */
  potentialEnergy(q: Vector, opts?: DynamicsOptions): number;
  leeTerms(q: Vector, qd: Vector, opts?: DynamicsOptions): LeeTerms;
  freemanModel(q: Vector, qd: Vector, opts?: DynamicsOptions): FreemanModel;
  linearizeDynamics(q: Vector, qd: Vector, qdd: Vector, opts?: LinearizeOptions): Linearization;
  jointTransferFunctions(q: Vector, qd: Vector, opts?: DynamicsOptions): JointTransferFunction[];
  /** The Bode data of one input → output pair at the operating point (q, q̇, q̈). */
  frequencyResponse(q: Vector, qd: Vector, qdd: Vector, opts?: FrequencyResponseOptions): FrequencyResponse;
  simulate(sim: SimulationSpec, opts?: DynamicsOptions): SimulationResult;
}
