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
  forwardKinematics(q: Vector): FkResult;
  apairLegEndpoints(q: Vector): ApairLegs[];
  withinLimits(q: Vector): boolean;
  /** The same arm in the other DH convention: a new Model with the same tool pose. */
  convertConvention(target: 'standard' | 'modified'): Model;
  /** The model as a JSON robot description (SI units). */
  modelToJson(): any;
  dispose(): void;
}

export interface BuiltinRobot { name: string; dof: number; description: string; }

export interface ApairStudyRow {
  legs: string; vertical: number; horizontal: number; thesisVertical: number | null; thesisHorizontal: number | null;
}
export interface ApairStudyResult { duration: number; profile: string; rhoIn: number; inchPound: number; rows: ApairStudyRow[]; }

export class Achain {
  readonly version: string;
  /** IK status names in code order, from the core. */
  readonly ikStatusNames: readonly IkStatus[];
  builtinRobots(): BuiltinRobot[];
  builtinRobotFile(name: string): string;
  builtinModel(name: string): Model;
  modelFromJsonString(text: string): Model;
  /** A built-in name, a JSON text or a description object. */
  loadModel(source: string | object): Model;
  /** Roll, pitch, yaw (rad) of a row-major 4×4 pose or 3×3 rotation; R = Rz(yaw)·Ry(pitch)·Rx(roll). */
  matrixToRpy(T: Vector): Float64Array;
  apairUsableRange(side: number, legRadius: number): ApairRangeResult;
  legPairSample(side: number, options?: { samples?: number }): LegPairCurves;
  apairStudy(options?: { duration?: number; profile?: string; rhoIn?: number; exactLegInertia?: boolean }): ApairStudyResult;
  /** Cartesian interpolation between two row-major 4×4 poses without IK (Robotics Toolbox ctraj). */
  interpolateCartesian(start: Vector, goal: Vector, options?: InterpolationOptions): CartesianInterpolation;
}

import type { ApairRangeResult, LegPairCurves } from './types/workspace';
import type { InterpolationOptions, CartesianInterpolation } from './types/trajectory';
import type { IkStatus } from './types/ik';
export { Workspace } from './types/workspace';
export type { WorkspaceOptions, WorkspaceSummary, ApairRangeResult, LegPairCurves } from './types/workspace';
export function loadAchain(): Promise<Achain>;
export default loadAchain;
