// Model methods of the workspace area (see wasm/js/workspace.mjs, wasm/bind_workspace.cpp,
// core/workspace/*, core/apair_collision.*, docs/workspace.md). Units: SI (m, rad).

export type WorkspaceMethod = 'robinson' | 'castelli' | 'montecarlo';
/** The point standing for a voxel when Robinson's sweep moves it: 'witness' (default, a reachable
 * point near the voxel centre), 'centre' (the thesis's choice), 'near' / 'far' (corners: inner / outer estimates). */
export type Representative = 'witness' | 'centre' | 'near' | 'far';

export interface WorkspaceOptions {
  /** Voxel edge, m (required). */
  voxel: number;
  method?: WorkspaceMethod;
  /** Joint step for R/H/A joints, rad (default 0 = automatic: about `spacing` voxels of motion per step). */
  step?: number;
  /** Joint step for P joints, m (default automatic). */
  stepLinear?: number;
  /** Automatic step: largest point motion per step, in voxels (default 0.5). */
  spacing?: number;
  representative?: Representative;
  /** Robinson: keep the moved points on a grid `refine` times finer (1–8, default 1). */
  refine?: number;
  /** Monte-Carlo samples (default 2e7) and seed (default 1). */
  samples?: number;
  seed?: number;
  /** Swept point in the tool frame (default [0, 0, 0]). */
  point?: [number, number, number];
  /** Lattice origin: voxel faces at origin + k·voxel (default [0, 0, 0]). */
  origin?: [number, number, number];
  /**
   * Resource caps (docs/reliability.md#resource-caps): a job whose estimate (estimateWorkspace) is past one is refused
   * before it allocates anything. Grid cells (default 2^30), memory in bytes (default 2^30 = 1 GiB) and point
   * evaluations as Robinson point moves, i.e. a time (default 2e10, about 17 min; Castelli's and Monte-Carlo's
   * evaluations count 40 times); raise them to run a larger job on purpose.
   */
  maxCells?: number;
  maxBytes?: number;
  maxEvaluations?: number;
}

/** What a workspace job would cost, computed before it starts. */
export interface WorkspaceEstimate {
  /** Cells of the grid box. */
  cells: number;
  /** Filled voxels (Robinson: extrapolated from two pilot runs on coarse grids; otherwise the reach ball's, an upper bound). */
  voxels: number;
  /** Memory of the job, bytes. */
  bytes: number;
  /** Point evaluations (Robinson: estimated, within a factor of about 1.5 on the built-ins; Castelli, Monte-Carlo: exact). */
  evaluations: number;
  /** Seconds at the nominal single-thread rate (2e7 evaluations/s Robinson, 5e5 FK/s otherwise). */
  seconds: number;
  /** What maxEvaluations is checked against: the time as Robinson point moves (seconds × 2e7). */
  cost: number;
  /**
   * The caps the job is checked against (the options' maxCells, maxBytes, maxEvaluations or their defaults); seconds:
   * the time the evaluations cap stands for (maxEvaluations Robinson point moves at the nominal rate).
   */
  caps: { cells: number; bytes: number; evaluations: number; seconds: number };
  /** Whether the job would start (false: computeWorkspace / workspaceJob refuse it naming the cap). */
  withinCaps: boolean;
}

export interface WorkspaceSweepInfo { joint: number; lower: number; upper: number; steps: number; voxelsAfter: number; }

export interface WorkspaceSummary {
  robot: string;
  method: WorkspaceMethod;
  representative: Representative;
  voxels: number;
  /** voxels · voxel³, m³ */
  volume: number;
  voxel: number;
  origin: [number, number, number];
  bounds: { min: [number, number, number]; max: [number, number, number] } | null;
  seconds: number;
  evaluations: number;
  sweeps: WorkspaceSweepInfo[];
  done: boolean;
  cancelled: boolean;
}

export interface WorkspaceSection {
  axis: 0 | 1 | 2;
  layer: number;
  /** Centre of the voxel layer cut by the plane, m. */
  coordinate: number;
  uAxis: number; vAxis: number;
  uLo: number; vLo: number;
  nu: number; nv: number;
  voxels: number;
  /** m² */
  area: number;
  /** Row-major occupancy, image[v·nu + u] ∈ {0, 1}. */
  image: Uint8Array;
}

export interface WorkspaceOverlap {
  a: number; b: number; shared: number; onlyA: number; onlyB: number; union: number; jaccard: number; sharedVolume: number;
}

export class Workspace {
  /** Runs about `budget` point evaluations; returns progress in [0, 1]. */
  step(budget?: number): number;
  readonly done: boolean;
  readonly progress: number;
  readonly evaluations: number;
  readonly voxels: number;
  readonly volume: number;
  readonly bounds: WorkspaceSummary['bounds'];
  cancel(): void;
  summary(): WorkspaceSummary;
  /** Centres of the voxels (surface only or all); with sharedWith / notIn only those another workspace on the same lattice also has / lacks. */
  voxelCentres(options?: { surfaceOnly?: boolean; sharedWith?: Workspace; notIn?: Workspace }): Float32Array;
  lattice(): Int32Array;
  voxelSurfaceMesh(): { positions: Float32Array; indices: Uint32Array };
  voxelSection(axis: 'x' | 'y' | 'z' | 0 | 1 | 2, value: number): WorkspaceSection;
  voxelOverlap(other: Workspace): WorkspaceOverlap;
  voxelIntersection(other: Workspace): Float32Array;
  dispose(): void;
}

export interface WorkspaceMethods {
  /** Smallest A-pair leg clearance per joint at q, m (negative = legs interfere; +Infinity if not an A-pair). */
  apairClearance(q: ArrayLike<number>): Float64Array;
  /** Cost of a job with these options (cells, voxels, bytes, evaluations, seconds), without running it. */
  estimateWorkspace(options: WorkspaceOptions): WorkspaceEstimate;
  /** Whole computation, synchronous. */
  computeWorkspace(options: WorkspaceOptions): Workspace;
  /** A job to step() in slices (Web Worker). */
  workspaceJob(options: WorkspaceOptions): Workspace;
  /** Slices of ~sliceMs with progress; rejects with an AbortError when `signal` aborts. */
  computeWorkspaceAsync(options: WorkspaceOptions, control?: {
    onProgress?: (fraction: number, job: Workspace) => void;
    signal?: AbortSignal;
    sliceMs?: number;
  }): Promise<Workspace>;
}

export interface ApairRangeResult {
  side: number; legRadius: number; rOverA: number;
  /** rad */
  lower: number; upper: number; range: number;
  lowerLegs: [number, number]; upperLegs: [number, number];
}
export interface LegPairCurves {
  theta: Float64Array; d12: Float64Array; d16: Float64Array; omega12: Float64Array; omega16: Float64Array;
}
