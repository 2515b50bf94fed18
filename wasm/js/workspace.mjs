// Model methods of the workspace area: reachable workspaces on a voxel grid, run whole or in slices
// (for a Web Worker with progress and cancel), and the A-pair leg-collision range.
// C++: wasm/bind_workspace.cpp → core/workspace/*, core/apair_collision.*. Types: wasm/types/workspace.d.ts.
// Units: SI (m, rad). Every returned array is a fresh copy (safe to keep or transfer).

import { finiteNumber } from './args.mjs';

const AXES = { x: 0, y: 1, z: 2 };

const registry = typeof FinalizationRegistry !== 'undefined'
  ? new FinalizationRegistry((raw) => { try { raw.delete(); } catch { /* already freed */ } })
  : null;

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/** A workspace computation: step() it in slices, or let Model.computeWorkspace() run it to the end. */
export class Workspace {
  constructor(model, raw) {
    this.model = model;
    this.raw = raw;
    this._summary = null;
    registry?.register(this, raw, this);
  }
  _raw() {
    if (this.raw === null) throw new Error('achain: workspace was disposed');
    return this.raw;
  }
  /** Runs about `budget` point evaluations; returns the progress estimate in [0, 1] (1 = done). */
  step(budget = 1e6) {
    this._summary = null;
    return this._raw().step(finiteNumber(budget, 'budget'));
  }
  get done() { return this._raw().done(); }
  get progress() { return this._raw().progress(); }
  get evaluations() { return this._raw().evaluations(); }
  /** Stops the job; the partial result stays readable. */
  cancel() { this._summary = null; this._raw().cancel(); }
  /** {robot, method, representative, voxels, volume, voxel, origin, bounds, seconds, evaluations, sweeps, done, cancelled} */
  summary() {
    if (!this._summary) this._summary = JSON.parse(this._raw().summary());
    return this._summary;
  }
  get voxels() { return this.summary().voxels; }
  get volume() { return this.summary().volume; }
  get bounds() { return this.summary().bounds; }
  /**
   * Voxel centres (xyz per voxel) for a three.js Points cloud; surfaceOnly keeps the boundary voxels. With
   * `sharedWith` (another workspace on the same lattice) only the voxels it also contains, with `notIn` only those
   * it does not: an overlap's parts in their own colours.
   */
  voxelCentres({ surfaceOnly = false, sharedWith = null, notIn = null } = {}) {
    if (sharedWith && notIn) throw new Error('voxelCentres: give sharedWith or notIn, not both');
    const other = sharedWith ?? notIn;
    if (!other) return this._raw().voxelCentres(!!surfaceOnly).slice();
    return this._raw().voxelCentresAgainst(other._raw(), !!surfaceOnly, !!sharedWith).slice();
  }
  /** Lattice indices (i, j, k per voxel): voxel = origin + voxel·[i, i+1) × … */
  lattice() { return this._raw().lattice().slice(); }
  /** Boundary surface as an indexed triangle mesh (outward faces): {positions, indices}. */
  voxelSurfaceMesh() {
    const m = this._raw().voxelSurfaceMesh();
    return { positions: m.positions.slice(), indices: m.indices.slice() };
  }
  /** Axis-aligned cross-section through the plane {axis = value}: an occupancy image (row-major, nu × nv). */
  voxelSection(axis, value) {
    const a = typeof axis === 'string' ? AXES[axis] : axis;
    if (a !== 0 && a !== 1 && a !== 2) throw new Error(`axis: must be 'x', 'y', 'z' or 0..2, got ${axis}`);
    const s = this._raw().voxelSection(a, finiteNumber(value, 'value'));
    return { ...s, image: s.image.slice() };
  }
  /** Overlap with another workspace on the same lattice: {a, b, shared, onlyA, onlyB, union, jaccard, sharedVolume}. */
  voxelOverlap(other) { return JSON.parse(this._raw().voxelOverlap(other._raw())); }
  /** Centres of the voxels both workspaces contain. */
  voxelIntersection(other) { return this._raw().voxelIntersection(other._raw()).slice(); }
  dispose() {
    if (this.raw) {
      registry?.unregister(this);
      this.raw.delete();
      this.raw = null;
    }
  }
  [Symbol.dispose ?? Symbol.for('Symbol.dispose')]() { this.dispose(); }
}

function abortError() {
  const e = new Error('workspace: cancelled');
  e.name = 'AbortError';
  return e;
}

export function install(Model) {
  /** What a job with these options would cost ({cells, voxels, bytes, evaluations, seconds}), without running it. */
  Model.prototype.estimateWorkspace = function estimateWorkspace(options = {}) {
    return JSON.parse(this.achain.module.estimateWorkspace(this._raw(), JSON.stringify(options)));
  };
  /** A workspace job, not started: call step(budget) until done (e.g. inside a Web Worker). */
  Model.prototype.workspaceJob = function workspaceJob(options = {}) {
    const raw = this.achain.module.computeWorkspace(this._raw(), JSON.stringify(options));
    return new Workspace(this, raw);
  };
  /**
   * Smallest leg clearance (m) of each joint's A-pair legs at q (legs.radius; negative = interference,
   * +Infinity for joints that are not A-pairs). For colouring legs near a self-collision.
   */
  Model.prototype.apairClearance = function apairClearance(q) {
    const n = this.dof;
    return this._output(this.achain.module.apairClearance(this._input([q, 'q', n])), n);
  };
  /** Runs the whole computation synchronously (blocks the thread: use computeWorkspaceAsync on a page). */
  Model.prototype.computeWorkspace = function computeWorkspace(options = {}) {
    const w = this.workspaceJob(options);
    try {
      while (!w.done) w.step(1e7);
    } catch (e) {
      w.dispose();
      throw e;
    }
    return w;
  };
  /**
   * Runs in slices of about sliceMs, yielding to the event loop between them so progress can be
   * shown and a cancel (AbortSignal) honoured. Rejects with an AbortError when aborted.
   */
  Model.prototype.computeWorkspaceAsync = async function computeWorkspaceAsync(options = {}, { onProgress, signal, sliceMs = 25 } = {}) {
    const w = this.workspaceJob(options);
    let budget = 2e5;
    try {
      while (!w.done) {
        if (signal?.aborted) { w.cancel(); throw abortError(); }
        const t0 = now();
        const p = w.step(budget);
        const dt = now() - t0;
        if (dt > 0) budget = Math.min(Math.max(budget * sliceMs / dt, 1e4), 1e8);
        onProgress?.(p, w);
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      if (signal?.aborted) throw abortError();
    } catch (e) {
      w.dispose();
      throw e;
    }
    return w;
  };
}
