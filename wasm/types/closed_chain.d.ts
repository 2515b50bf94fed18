// Model methods of closed chains (see wasm/js/closed_chain.mjs, wasm/bind_closed_chain.cpp,
// docs/dynamics.md#closed-chains). They need a model whose robot file has a loop section (model.info.loop);
// on any other model they throw "… is not a closed chain".
//
// y = (α; f): the joints kept as coordinates (loop.coordinates), then the free closure components (the tool
// angle of a planar pin; none for a pose closure). Units SI.
import type { Vector } from '../achain';
import type { DynamicsOptions, Linearization } from './dynamics';

/** Options of the closed-chain dynamics: the leg model, rotor inertia and friction (gravity is the model's). */
export type ClosedChainOptions = Pick<DynamicsOptions, 'legs' | 'motors' | 'friction'>;

export interface CloseLoopResult {
  /** The closed configuration (dof values). */
  q: Float64Array;
  /** Newton iterations used. */
  iterations: number;
}

export interface ClosedChainLoads {
  /** Loads the actuators at the coordinates y apply (N·m or N), ny values. */
  Ty: Float64Array;
  /** Loads the ground applies to the tool along the constrained directions (the pin's bearing forces, N, world frame). */
  Tc: Float64Array;
  /** Joint rates of the whole loop (dof values). */
  qd: Float64Array;
  qdd: Float64Array;
}

/** Nested arrays: a matrix is rows of numbers; a tensor is planes P[k][m][n]. */
export interface ClosedChainTerms { Istar: number[][]; Pstar: number[][][]; TL: number[]; }

export interface ClosedChainModelResult {
  /** Joint coordinates M, closure space N, constraints R. */
  M: number; N: number; R: number;
  alpha: number[]; beta: number[];
  /** Positions of y = (α; f) and of c inside w = (α; e). */
  yInW: number[]; cInW: number[];
  /** [G^e_φ], [G^w_φ], [G^φ_w] and [H^φ_ww] (Freeman 4-11…4-23). */
  Ge: number[][]; GwPhi: number[][]; GphiW: number[][]; HphiWw: number[][][];
  /** The open chain in φ, the intermediate model in w and the closed chain's own model in y. */
  open: ClosedChainTerms; w: ClosedChainTerms; y: ClosedChainTerms;
  Icy: number[][]; Pcyy: number[][][]; TLc: number[];
}

export interface ClosedChainStepOptions extends ClosedChainOptions {
  /** Step (s). */
  dt: number;
  /** Number of steps (default 1, at most 100000). */
  steps?: number;
}

export interface ClosedChainMethods {
  closedChainCoordinates(q: Vector): Float64Array;
  closeLoop(q: Vector, opts?: { fTarget?: Vector }): CloseLoopResult;
  closedChainLoads(q: Vector, yd: Vector, ydd: Vector, opts?: ClosedChainOptions): ClosedChainLoads;
  closedChainForwardDynamics(q: Vector, yd: Vector, Ty: Vector, opts?: ClosedChainOptions): Float64Array;
  /** the linearised dynamics in y = (α; f): x = (δy, δẏ), u = δT_y, outputs y (dTdq = ∂T_y/∂y, Istar = I*_yy) */
  linearizeClosedChain(q: Vector, yd: Vector, ydd: Vector, opts?: ClosedChainOptions): Linearization;
  closedChainStep(q: Vector, yd: Vector, Ty: Vector, opts: ClosedChainStepOptions): { q: Float64Array; y: Float64Array; yd: Float64Array };
  closedChainModel(q: Vector, opts?: ClosedChainOptions): ClosedChainModelResult;
}
