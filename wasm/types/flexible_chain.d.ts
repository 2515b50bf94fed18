// Model methods of flexible links in a chain (see wasm/js/flexible_chain.mjs, wasm/bind_flexible_chain.cpp,
// docs/flexible.md, docs/flexible-wasm.md; Tesar & Graves 1988). φ = (q: dof joint coordinates, then each flexible
// link's modal coordinates in joint order, then with baseMass > 0 the base translation, 3 world coordinates).
// Units SI. A model without flexible links (model.info.flexibleLinks === null) throws from every method.
import type { Vector } from '../achain';

/** One flexible link of the loaded robot file (model.info.flexibleLinks). */
export interface FlexibleLinkInfo {
  /** The joint whose link it is (0-based). */
  joint: number;
  name: string;
  /** Beam length along the link's x axis, m. */
  length: number;
  /** Each mode's direction: 'y bending' | 'z bending' | 'torsion'. */
  modes: string[];
  /** modes.length. */
  count: number;
  /** Index of its first modal coordinate in φ. */
  offset: number;
  /** The link alone with its root clamped, Hz. */
  clampedFrequencyHz: number[];
}

/** A flexible block of a robot file's text in SI (achain.flexibleLinksFromJsonString). */
export interface FlexibleLinkDescription {
  joint: number;
  length: number;
  mass: number;
  eiY: number;
  eiZ: number;
  gj: number;
  torsionalInertia: number;
  modes: string[];
  /** SI per file unit of each modal coordinate. */
  coordinateUnit: number[];
}

export interface FlexibleChainOptions {
  /** kg; > 0: the base translates freely (φ gains 3 base coordinates). Default 0: fixed. */
  baseMass?: number;
}

export interface FlexibleChainSizes {
  nv: number;
  nf: number;
  nb: number;
  dof: number;
  baseMass: number;
  coordinates: string[];
}

export interface FlexibleChainModes {
  /** rad/s, ascending. */
  omega: Float64Array;
  frequencyHz: Float64Array;
  /** One shape per mode over the modal (and base) coordinates. */
  shapes: Float64Array[];
  /** "joint q1 (y bending)", … */
  coordinates: string[];
  clampedLinks: { joint: number; name: string; frequencyHz: Float64Array }[];
}

export interface FlexibleDeflection {
  /** Deflected − rigid tool position, world, m. */
  toolDisplacement: Float64Array;
  toolPositionError: number;
  /** rad */
  toolRotationError: number;
  /** Largest link tip rotation |θ|, rad. */
  maxLinkRotation: number;
  maxLinkRotationDeg: number;
  maxRotationJoint: number;
  maxRotationJointName: string | null;
  /** The paper's limits: > 3° (5 % geometric error), > 5° (use sub-links). */
  above3deg: boolean;
  above5deg: boolean;
}

export interface FlexibleKinematics {
  /** Row-major 4×4 poses, world. */
  base: Float64Array;
  links: Float64Array[];
  /** Joint axis frames (axis z through the origin). */
  axes: Float64Array[];
  tool: Float64Array;
  tips: { joint: number; tip: Float64Array; theta: Float64Array }[];
  deflection: FlexibleDeflection;
}

export interface FlexibleStaticResult {
  phi: Float64Array;
  modal: Float64Array;
  coordinates: string[];
  deflection: FlexibleDeflection;
}

export interface FlexibleLinkCurve {
  joint: number;
  /** Stations x/L, 0 … 1. */
  u: Float64Array;
  /** World points flat x0, y0, z0, x1, … (m): the deflected beam and the rigid one. */
  deflected: Float64Array;
  rigid: Float64Array;
}

export interface FlexibleDynamicsOptions extends FlexibleChainOptions {
  /** Joints held servo-stiff (their rates must be 0). */
  lockJoints?: boolean;
}

export interface FlexibleSimulateOptions extends FlexibleChainOptions {
  /** At the tool origin, world: N and N·m. */
  force?: Vector;
  moment?: Vector;
  load?: 'step' | 'pulse' | 'sine';
  /** Hz (sine). */
  frequency?: number;
  start?: number;
  stop?: number;
  /** s, default 2. */
  duration?: number;
  /** s, 0 = automatic (2π/ω_max/20). */
  dt?: number;
  /** Default 101. */
  samples?: number;
  joints?: 'locked' | 'free';
  /** Told the fraction done about every 1 % (or 1000 steps); returning false stops the run: it throws
   *  "flexibleSimulate: cancelled at step k of N (t = … s)". */
  onProgress?: (fraction: number) => unknown;
}

export interface FlexibleSimulation {
  dt: number;
  steps: number;
  t: Float64Array;
  coordinates: string[];
  modal: Float64Array[];
  toolDisplacement: Float64Array[];
  baseTranslation: Float64Array[] | null;
  peakToolDeflection: number;
  peakLinkRotation: number;
  peakLinkRotationDeg: number;
  above3deg: boolean;
  above5deg: boolean;
}

export interface FlexibleChainMethods {
  makeFlexibleChain(options?: FlexibleChainOptions): FlexibleChainSizes;
  flexibleChainModes(q: Vector, options?: FlexibleChainOptions): FlexibleChainModes;
  flexibleDeflection(phi: Vector, options?: FlexibleChainOptions): FlexibleDeflection;
  flexibleKinematics(phi: Vector, options?: FlexibleChainOptions): FlexibleKinematics;
  flexibleJacobians(phi: Vector, options?: FlexibleChainOptions): { links: Float64Array[][]; tool: Float64Array[] };
  flexibleMassMatrix(phi: Vector, options?: FlexibleChainOptions): Float64Array[];
  flexibleStiffness(options?: FlexibleChainOptions): Float64Array[];
  flexibleCenterOfMass(phi: Vector, options?: FlexibleChainOptions): { com: Float64Array; jacobian: Float64Array[] };
  flexibleStaticDeflection(q: Vector, load?: { force?: Vector; moment?: Vector }): FlexibleStaticResult;
  flexibleLinkCurve(phi: Vector, joint: number, options?: FlexibleChainOptions & { samples?: number }): FlexibleLinkCurve;
  flexibleBiasForces(phi: Vector, phidot: Vector, options?: FlexibleChainOptions): Float64Array;
  flexibleInverseDynamics(phi: Vector, phidot: Vector, phiddot: Vector, options?: FlexibleChainOptions): Float64Array;
  flexibleForwardDynamics(phi: Vector, phidot: Vector, tau: Vector, options?: FlexibleDynamicsOptions): Float64Array;
  flexibleEnergy(phi: Vector, phidot: Vector, options?: FlexibleChainOptions): number;
  flexibleStep(phi: Vector, phidot: Vector, tau: Vector, dt: number, options?: FlexibleDynamicsOptions): { phi: Float64Array; phidot: Float64Array };
  flexibleStableStep(phi: Vector, options?: FlexibleDynamicsOptions): number;
  flexibleSimulate(q: Vector, options?: FlexibleSimulateOptions): FlexibleSimulation;
}
