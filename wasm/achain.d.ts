// TypeScript declarations for the achain ES module (wasm/achain.mjs).
// Per-area method sets live in wasm/types/*.d.ts and are merged into Model here.
import type { KinematicsMethods } from './types/kinematics';
import type { IkMethods } from './types/ik';
import type { DynamicsMethods } from './types/dynamics';
import type { ClosedChainMethods } from './types/closed_chain';
import type { WorkspaceMethods } from './types/workspace';
import type { TrajectoryMethods } from './types/trajectory';
import type { FlexibilityMethods } from './types/flexibility';
import type { FlexibleChainMethods, FlexibleLinkInfo, FlexibleLinkDescription } from './types/flexible_chain';

export type JointKind = 'R' | 'P' | 'H' | 'A' | 'law' | 'fixed';
export type Vector = ArrayLike<number>;
// Returned Float64Arrays of up to 256 numbers (Jacobians, mass matrices, poses, torques) are views into a
// shared result pool (wasm/achain.mjs, RESULT_SLAB): each holds its own numbers, but `.buffer` is shared —
// `.slice()` one before transferring its buffer to a worker.

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
  /** Placed by origin/axis (URDF) rather than DH a/alpha: origin is the joint frame in the parent link frame (row-major 4×4), axis a unit vector in it. */
  hasOrigin: boolean; origin: number[]; axis: [number, number, number];
  /** Index of the joint this one mimics (−1: none): u = mimicMultiplier·u_mimic + mimicOffset. */
  mimic: number; mimicMultiplier: number; mimicOffset: number;
  /** The joint variable is an angle (R, H, A and laws that rotate); false for a length (P). From the core's joint model. */
  angular: boolean;
  /** Period of the joint's motion in its variable (2π for R and H, 4π for an A-pair's θ_v), 0 when not periodic (P). From the core's joint model. */
  period: number;
  /** A pure rotation (R-like: it rotates and does not translate). From the core's joint model. */
  revolute: boolean;
  /** The generalized coordinate this joint follows (−1: fixed). A mimic joint follows its leader's. */
  coordinate: number;
}

/** A visual or collision shape on a link (URDF <visual>/<collision>), for drawing. */
export interface GeometryInfo {
  /** Joint index whose link carries the shape (−1: the base). */
  link: number;
  collision: boolean;
  name: string;
  /** Link frame ← shape frame, row-major 4×4. */
  origin: number[];
  shape: 'box' | 'cylinder' | 'sphere' | 'mesh';
  /** box: x, y, z; cylinder: radius, length, 0; sphere: radius, 0, 0 (m). */
  size: [number, number, number];
  /** mesh: the file name as written (package://, relative or absolute); '' otherwise. */
  mesh: string;
  scale: [number, number, number];
  /** 0…1, or null when the file gives no colour. */
  rgba: [number, number, number, number] | null;
}

export interface ModelInfo {
  name: string; description: string; notes: string[];
  convention: 'standard' | 'modified';
  dof: number;
  joints: JointInfo[];
  /** For each generalized coordinate (q index), the joint that owns it (length dof). */
  coordJoint: number[];
  /** The coordinates that move the tool (joints on the path from its link to the base; a mimic joint counts as its leader), ascending. */
  toolCoordinates: number[];
  /**
   * The robot file's loop-closure constraint (its "loop" section, docs/robot-format.md#loops), or null: the
   * closure kind, the kept coordinates (q indices), the ground pose (row-major 4×4, SI), the closure's space N
   * and constraint count R (the core's closureSpaceSize / closureConstraintCount) and the assembly
   * configuration (SI; empty when the file gives none).
   */
  loop: { closure: 'planar_pin' | 'point' | 'pose'; coordinates: number[]; ground: number[]; space: number; constraints: number; assembly: number[] } | null;
  geometry: GeometryInfo[];
  /** The joint whose link carries the tool. */
  toolLink: number;
  /** Every joint is placed by DH constants (else by origin/axis, as URDF places them). */
  hasDh: boolean;
  /**
   * The DH description the closed-form IK reads: 'given' (hasDh), 'extracted' (a URDF chain that admits one,
   * docs/robot-format.md#dh-extraction) or 'none (reason)'.
   */
  dh: string;
  /**
   * The robot file's drive blocks (joints[i].drive, docs/robot-format.md#drives) in SI, or null: per coordinate
   * stiffness, damping and the motor inertia at the joint (null where the file gives none).
   */
  drives: { stiffness: number[]; damping: number[]; motorInertia: (number | null)[] } | null;
  /** The robot file's flexible links (joints[i].flexible, docs/flexible.md), or null: see wasm/types/flexible_chain.d.ts. */
  flexibleLinks: FlexibleLinkInfo[] | null;
  /** Some joint is an A-pair (the core's hasApair): the model has an R twin that differs from it (rPairTwin). */
  hasApair: boolean;
  /** The robot file's "defaults" section (docs/robot-format.md#defaults) in SI, or null when it has none. */
  defaults: RobotDefaults | null;
}

/** What a front end starts with for this robot (docs/robot-format.md#defaults), SI. */
export interface RobotDefaults {
  /** The default joint-space move (per coordinate), with its display name ('' when unnamed), or null. */
  move: { name: string; from: number[]; to: number[] } | null;
  /** The default workspace voxel edge (m), or null. */
  workspaceVoxel: number | null;
  /** A published voxel count at workspaceVoxel to compare a result with, or null. */
  workspaceReference: { voxels: number; source: string; note: string } | null;
  /** A variant file under core/robots/variants/ (name without .json) whose drive blocks the robot gets when it declares none, or null. */
  driveVariant: string | null;
}

/** An upper bound of how far the robot reaches (core reachBound), m; null where a joint translates without bound. */
export interface ReachBound {
  /** Over every link origin and the tool. */
  radius: number | null;
  tool: number | null;
  /** Per link origin, joint order. */
  links: (number | null)[];
}

export interface UrdfOptions {
  /** The link carrying the tool, by name (default: the single leaf link). */
  toolLink?: string;
  /** Replace inertias that break the triangle inequality by the mean of their principal moments (MuJoCo's balanceinertia). */
  balanceInertia?: boolean;
  /** Keep fixed joints as joints (default: each fixed joint's link is merged into its parent, as MuJoCo's fusestatic). */
  keepFixed?: boolean;
}

/** The XML element tree the core maps (io/xml_tree.hpp). */
export interface XmlElementTree {
  name: string;
  line?: number;
  attributes?: [string, string][];
  children?: XmlElementTree[];
}

export interface FkResult {
  /** Tool pose, row-major 4×4. */
  tool: Float64Array;
  /** Base frame, row-major 4×4. */
  base: Float64Array;
  /** Link frames 1…n, one per joint (n = joints.length: more than dof when joints mimic or fixed joints are kept), each row-major 4×4. */
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

export interface Model extends KinematicsMethods, IkMethods, DynamicsMethods, ClosedChainMethods, WorkspaceMethods, TrajectoryMethods, FlexibilityMethods, FlexibleChainMethods {}
export class Model {
  readonly info: ModelInfo;
  readonly name: string;
  readonly dof: number;
  readonly joints: JointInfo[];
  /** The joint owning each generalized coordinate: coordinates[i] describes q[i] (length dof). With fixed or
   *  mimic joints this differs from joints, which lists every joint. */
  readonly coordinates: JointInfo[];
  readonly disposed: boolean;
  /** Every link frame and the tool pose (dof + 2 views). Per animation frame, when only the tool pose is needed: fkTool(q, out) — several times cheaper. */
  forwardKinematics(q: Vector): FkResult;
  apairLegEndpoints(q: Vector): ApairLegs[];
  withinLimits(q: Vector): boolean;
  /** The same arm in the other DH convention: a new Model with the same tool pose. */
  convertConvention(target: 'standard' | 'modified'): Model;
  /** The R-pair twin: every A-pair made an R-pair (ρ = 0, no legs), named '<name>-r-twin' (core rPairTwin). A new Model. */
  rPairTwin(): Model;
  /** Upper bound of the distance from the base origin to every link origin and the tool over the joint limits (core reachBound). */
  reachBound(): ReachBound;
  /** The link tree in urdfTree's shape, named as Export URDF writes it (links[i + 1] is joint i's link '<joint name>_link'). */
  modelTree(): UrdfTree;
  /** The model as a JSON robot description (SI units). */
  modelToJson(): any;
  /** The model as URDF text (A-pairs as the achain:apair extension) and what URDF cannot carry. */
  modelToUrdf(): { urdf: string; warnings: string[] };
  /** The model as MuJoCo MJCF text (A-pairs as hinge + slide tied by a fitted quartic joint equality), what MJCF cannot carry and the fit errors. */
  modelToMjcf(): { mjcf: string; warnings: string[] };
  dispose(): void;
}

export interface BuiltinRobot { name: string; dof: number; description: string; }

export interface ApairStudyRow {
  legs: string; vertical: number; horizontal: number; thesisVertical: number | null; thesisHorizontal: number | null;
}
export interface ApairStudyResult { duration: number; profile: string; rhoIn: number; inchPound: number; rows: ApairStudyRow[]; }

/** A URDF joint as the file gives it (Achain.urdfTree), or a model's joint (Model.modelTree); limits in rad or m (SI), null when absent. */
export interface UrdfTreeJoint {
  name: string;
  type: 'revolute' | 'continuous' | 'prismatic' | 'fixed' | 'floating' | 'planar' | 'helical' | 'A-pair' | 'law' | string;
  /** The coordinate is an angle (limits in rad), else a length (m). */
  angular: boolean;
  limits: { lower: number | null; upper: number | null; velocity: number | null; effort: number | null };
  /** The joint this one mimics, as written (not composed). */
  mimic: { joint: string; multiplier: number; offset: number } | null;
}
export interface UrdfTreeLink {
  name: string;
  /** Index into UrdfTree.links of the parent link; −1 for the root. */
  parent: number;
  depth: number;
  /** The joint whose child this link is; null for the root. */
  joint: UrdfTreeJoint | null;
}
export interface UrdfTree {
  name: string;
  root: string;
  /** Depth-first from the root (first), child joints in document order. */
  links: UrdfTreeLink[];
  /** Links with no child joint: the tool candidates, in document order. */
  leaves: string[];
  /** The link the file names in <achain:tool link="…"/>, or ''. */
  toolLink: string;
  notes: string[];
}

export class Achain {
  readonly version: string;
  /** IK status names in code order, from the core. */
  readonly ikStatusNames: readonly IkStatus[];
  builtinRobots(): BuiltinRobot[];
  builtinRobotFile(name: string): string;
  builtinModel(name: string): Model;
  modelFromJsonString(text: string): Model;
  /** A model from URDF text or its element tree (docs/robot-format.md, URDF); warnings in info.notes. */
  modelFromUrdf(source: string | XmlElementTree, options?: UrdfOptions): Model;
  /** A URDF's link/joint tree without building a model (what choosing the tool link needs). */
  urdfTree(source: string | XmlElementTree): UrdfTree;
  /** A built-in name, a JSON text or a description object, or URDF text (options apply to URDF). */
  loadModel(source: string | object, options?: UrdfOptions): Model;
  /** Roll, pitch, yaw (rad) of a row-major 4×4 pose or 3×3 rotation; R = Rz(yaw)·Ry(pitch)·Rx(roll). */
  matrixToRpy(T: Vector): Float64Array;
  apairUsableRange(side: number, legRadius: number): ApairRangeResult;
  /** A closure kind's space N (3 planar pin, 6 point or pose): a loop keeps M − N joints as coordinates. */
  closureSpaceSize(kind: 'planar_pin' | 'point' | 'pose'): number;
  /** A closure kind's constraint count R (2 planar pin, 3 point, 6 pose). */
  closureConstraintCount(kind: 'planar_pin' | 'point' | 'pose'): number;
  legPairSample(side: number, options?: { samples?: number }): LegPairCurves;
  apairStudy(options?: { duration?: number; profile?: string; rhoIn?: number; exactLegInertia?: boolean }): ApairStudyResult;
  /** Cartesian interpolation between two row-major 4×4 poses without IK (Robotics Toolbox ctraj). */
  interpolateCartesian(start: Vector, goal: Vector, options?: InterpolationOptions): CartesianInterpolation;
  /** ZV / ZVD input-shaper impulses for a mode of omega rad/s and damping ratio zeta (default 0). */
  makeShaper(kind: ShaperKind, omega: number, zeta?: number): InputShaper;
  /** The drive blocks (joints[i].drive) of a robot file's JSON text, in SI. */
  jointFlexibilityFromJsonString(text: string): JointFlexibility;
  /** The flexible blocks (joints[i].flexible) of a robot file's JSON text, in SI. */
  flexibleLinksFromJsonString(text: string): FlexibleLinkDescription[];
  /** Design k's robot description: the base robot of a design space (a merged sweep's design_space, or its JSON text) with design k's values written in. */
  designRobotJson(space: DesignSpaceDocument | string, index: number): Record<string, unknown>;
  /** Design k's parameter values by name, in the robot file's units. */
  designParametersJson(space: DesignSpaceDocument | string, index: number): Record<string, number>;
}

import type { ApairRangeResult, LegPairCurves } from './types/workspace';
import type { InterpolationOptions, CartesianInterpolation } from './types/trajectory';
import type { IkStatus } from './types/ik';
import type { ShaperKind, InputShaper, JointFlexibility } from './types/flexibility';
import type { DesignSpaceDocument } from './types/design';
export type { DesignSpaceDocument, MergedSweep, DesignRecordJson } from './types/design';
export { Workspace } from './types/workspace';
export type { WorkspaceOptions, WorkspaceSummary, ApairRangeResult, LegPairCurves } from './types/workspace';
export function loadAchain(): Promise<Achain>;
export default loadAchain;
