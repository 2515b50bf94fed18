// Model methods of the ik area (see wasm/js/ik.mjs, wasm/bind_ik.cpp, core/ik/*, docs/ik.md).
//
// Units: SI (m, rad; θ_v for A-pairs, unwrapped). Poses are row-major 4×4 (16 numbers, world frame,
// i.e. the same frame as fk(q).tool). Every returned q is a fresh Float64Array (safe to keep).
import type { Vector } from '../achain';

/**
 * Outcome of an IK request.
 *  - 'ok'          the pose (or position in positionOnly mode) is reached within tolerance, inside limits
 *  - 'unreachable' no configuration inside the limits reaches it; q is the nearest reachable
 *                  (weighted least squares) configuration and `residual` says how far it is
 *  - 'singular'    (closed form) degenerate target family, e.g. sin(θ₂−θ₃)=0 on the 4A prototype:
 *                  q is one member of the one-parameter family (see IkAllResult.family)
 *  - 'limits'      the pose is reachable, but only outside the joint limits. ikNumeric: q is the nearest
 *                  configuration INSIDE the limits (safe to command); ikAll: the exact solutions are in
 *                  outsideLimits
 */
export type IkStatus = 'ok' | 'unreachable' | 'singular' | 'limits';

export interface IkOptions {
  /** Weight of position error [1/m] (default 1). */
  positionWeight?: number;
  /** Weight of orientation error [1/rad] (default 1; ignored with positionOnly). */
  orientationWeight?: number;
  /** Solve the position of the tool only (3 equations). Default false. */
  positionOnly?: boolean;
  /** Max LM iterations per start (default 100). */
  maxIterations?: number;
  /** Success tolerance on the weighted pose error norm (default 1e-9 → |Δp| ~ 1e-9 m, |Δφ| ~ 1e-9 rad). */
  tolerance?: number;
  /**
   * Extra random starts (first near the seed, then spread over the limits) when the start from seedQ
   * fails. Default 0 for ikNumeric (continuity while dragging: the answer stays on the seed's branch),
   * 20 for ikAll (number of numeric starts).
   */
  restarts?: number;
  /** Seed of the random restarts (deterministic), default 1. */
  randomSeed?: number;
  /** Respect joint limits inside the solver (default true). */
  respectLimits?: boolean;
  /** Singularity escape for dragging (default false): if the start from the seed fails, one more start
   *  from the seed nudged 3° (3 mm) per joint, kept when it succeeds or halves the residual. */
  escapeSingularity?: boolean;
  /** Continuity bound for dragging (default 0: off): every coordinate of the answer stays within maxStep
   *  of seedQ (rad, or m for linear coordinates), inside the solver like a joint limit; a farther target
   *  is approached along that boundary ('unreachable' within this step), never by a jump to another branch. */
  maxStep?: number;
  /** ikAll, numeric multi-start (default 0: exact duplicates only): a solution within minSeparation of one
   *  already kept in every coordinate (rad, or m) is the same posture and is dropped (position-only mode on a
   *  chain with spare joints gives a continuum of solutions; this keeps distinct postures). */
  minSeparation?: number;
}

export interface IkResult {
  /** Joint values, length dof. For 'unreachable': the nearest reachable configuration. */
  q: Float64Array;
  status: IkStatus;
  /** Position error |p(q) − p*| [m]. */
  positionError: number;
  /** Orientation error angle |log(R(q)ᵀR*)| [rad] (0 in positionOnly mode). */
  orientationError: number;
  /** Weighted error norm sqrt(wp²|Δp|² + wo²|Δφ|²) — the residual of the least-squares problem. */
  residual: number;
  /** LM iterations used (sum over restarts). */
  iterations: number;
}

export type IkMethod = 'closed' | 'algebraic' | 'general6r' | '3r3p' | 'sweep' | 'numeric' | 'auto';

export interface IkSolution {
  q: Float64Array;
  /** Within the joint limits. */
  withinLimits: boolean;
  positionError: number;
  orientationError: number;
  /** PUMA-class closed form: {arm: 'left'|'right', elbow: 'up'|'down', wrist: 'flip'|'noflip'}. */
  flags?: Record<string, string>;
}

export interface IkAllResult {
  status: IkStatus;
  /** Method actually used ('closed' for 4A prototype class and PUMA class when method is 'auto', 'general6r' for
   * another 6R, 5R1P or 4R2P chain ('numeric' when its geometry is degenerate for the eigenvalue method — see
   * note), '3r3p' for three revolute and three prismatic joints ('numeric' when the arm or target gives a continuum
   * — see note), 'sweep' for another four-joint chain of R, A or H joints). */
  method: 'closed' | 'algebraic' | 'general6r' | '3r3p' | 'sweep' | 'numeric';
  /** Solutions inside the limits (sorted by distance to the seed if one was given). */
  solutions: IkSolution[];
  /** Solutions of the kinematic equations outside the limits (kept for display). */
  outsideLimits: IkSolution[];
  /** Smallest residual found (0 when status is 'ok'). */
  residual: number;
  /** For 'unreachable': the nearest reachable configuration inside the limits (weighted least squares). */
  nearest?: IkSolution;
  /** For 'singular' with a one-parameter family: q(t) = q0 + t·direction. */
  family?: { q0: Float64Array; direction: Float64Array };
  /** Human-readable detail (degenerate case, fallback used, …). */
  note?: string;
}

/** What happened to a branch in the last trackBranches call (toString(BranchEvent) of the core). */
export type BranchEvent = 'none' | 'leftLimits' | 'enteredLimits' | 'singular' | 'ended';

export interface BranchTrackOptions {
  /** Largest accepted Newton step per coordinate [rad or m] (default 0.25); larger halves the path segment. */
  maxJointStep?: number;
  /** Halvings of one segment before the branch is declared ended (default 14, at most 40). */
  maxHalvings?: number;
  /** Pose error at the new target [m + rad] (default 1e-10). */
  tolerance?: number;
  /** Two alive branches within this (every coordinate, modulo periods) have met (default 1e-6). */
  meetDistance?: number;
}

export interface IkBranch {
  /** Joint values (dof); an ended branch keeps its last ones. */
  q: Float64Array;
  alive: boolean;
  withinLimits: boolean;
  event: BranchEvent;
  /** 'singular': the branch it met (index), else −1. */
  partner: number;
  /** Pose error at q [m + rad]. */
  error: number;
}

export interface IkMethods {
  /**
   * Branch tracking while dragging: starts a set at targetT from the given solutions (e.g. ikAll's q's,
   * at most 16; the model handle keeps one set).
   */
  startBranches(targetT: Vector, solutions?: Vector[]): void;
  /** Adds one branch (dof values solving the set's target); returns its index. */
  addBranch(q: Vector): number;
  /**
   * Follows every alive branch to targetT (predictor–corrector on the chain, segment halving): one call per
   * frame. Branches keep their indices; a fold ends two branches as a pair ('singular', partner), a branch
   * crossing a limit reports 'leftLimits' / 'enteredLimits'. Branches born at a fold need ikAll again.
   */
  trackBranches(targetT: Vector, options?: BranchTrackOptions): { branches: IkBranch[]; newtonSteps: number; halvings: number };
  /**
   * Numeric IK (damped least squares / Levenberg–Marquardt with limits inside the solver) from the seed —
   * the call for teleoperation: one call per animation frame with the current q as seed. Allocation-free
   * in wasm; the result stays on the seed's branch (no flips) unless options.restarts > 0 and the seed fails.
   * A 4-DOF chain given an unreachable 6-DOF pose returns status 'unreachable' with the nearest pose.
   * Throws Error for malformed input ("target: rotation is not orthonormal", "seedQ[2]: must be a finite number").
   */
  ikNumeric(targetT: Vector, seedQ: Vector, options?: IkOptions): IkResult;
  /** @deprecated The former name of ikNumeric; kept for one release. */
  solveNumeric(targetT: Vector, seedQ: Vector, options?: IkOptions): IkResult;
  /**
   * All solutions: closed form / algebraic where the chain allows (4A prototype class, PUMA class), every
   * solution of a 3R3P chain exactly ('3r3p', at most 2), of any other 6R chain by the eigenvalue method
   * ('general6r', up to 16), of any other four-joint
   * R/A/H chain by the orientation sweep ('sweep'), numeric multi-start otherwise. seedQ (optional) sorts
   * solutions nearest first.
   */
  ikAll(targetT: Vector, options?: IkOptions & { method?: IkMethod; seedQ?: Vector }): IkAllResult;
}
