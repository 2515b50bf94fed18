// TypeScript declarations for the achain ES module (wasm/achain.mjs).
// Per-area method sets live in wasm/types/*.d.ts and are merged into Model here.
import type { KinematicsMethods } from './types/kinematics';
import type { IkMethods } from './types/ik';
import type { DynamicsMethods } from './types/dynamics';
import type { WorkspaceMethods } from './types/workspace';
import type { TrajectoryMethods } from './types/trajectory';

export type JointKind = 'R' | 'P' | 'H' | 'A';
export type Vector = ArrayLike<number>;

/** One joint as the UI sees it, in SI units (m, rad, kg); null = unbounded. */
export interface JointInfo {
  name: string;
  kind: JointKind;
  parent: number;
  a: number; alpha: number; d: number; thetaF: number; sign: 1 | -1;
  pitch: number;
  rho: number; side: number; legLength: number; legMass: number; legRadius: number;
  lower: number | null; upper: number | null;
  velocity: number | null; acceleration: number | null; effort: number | null;
  mass: number;
}

export interface ModelInfo {
  name: string; description: string; notes: string[];
  convention: 'standard' | 'modified';
  dof: number;
  joints: JointInfo[];
}

export interface FkResult {
  /** Tool pose, row-major 4×4. */
  tool: Float64Array;
  /** Base frame, row-major 4×4. */
  base: Float64Array;
  /** Link frames 1…n, each row-major 4×4. */
  links: Float64Array[];
  /** [base, link 1, …, link n]. */
  frames: Float64Array[];
}

export interface ApairLegs {
  joint: number;
  /** B1…B6, xyz each, world frame. */
  base: Float64Array;
  /** P1…P6, xyz each, world frame. */
  platform: Float64Array;
}

export interface Model extends KinematicsMethods, IkMethods, DynamicsMethods, WorkspaceMethods, TrajectoryMethods {}
export class Model {
  readonly info: ModelInfo;
  readonly name: string;
  readonly dof: number;
  readonly joints: JointInfo[];
  readonly disposed: boolean;
  fk(q: Vector): FkResult;
  legs(q: Vector): ApairLegs[];
  withinLimits(q: Vector): boolean;
  /** The same arm in the other DH convention: a new Model with the same tool pose. */
  convertConvention(target: 'standard' | 'modified'): Model;
  toJSON(): object;
  dispose(): void;
}

export interface BuiltinRobot { name: string; dof: number; description: string; }

export class Achain {
  readonly version: string;
  builtins(): BuiltinRobot[];
  builtinFile(name: string): string;
  loadModel(source: string | object): Model;
}

export { Workspace, apairRange, apairLegCurves } from './types/workspace';
export type { WorkspaceOptions, WorkspaceSummary, ApairRangeResult } from './types/workspace';
export function loadAchain(): Promise<Achain>;
export default loadAchain;
