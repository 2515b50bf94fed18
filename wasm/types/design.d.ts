// Design sweeps (see wasm/js/design.mjs, wasm/bind_design.cpp, docs/sweeps.md): the design-space document and the
// merged sweep file written by `achain sweep-merge`, as the studio's Sweep view reads them. Units SI in metrics;
// parameters in the robot file's own units.

/** A design space ("format": "achain-design-space"): its base robot, parameters, sample, metrics, constraints, objectives. */
export interface DesignSpaceDocument {
  format: 'achain-design-space';
  version: number;
  robot: string | Record<string, unknown>;
  parameters: Array<Record<string, unknown>>;
  sample?: { kind: 'grid' | 'random' | 'sobol'; count?: number; seed?: number };
  metrics?: Record<string, unknown>;
  constraints?: Array<{ metric: string; min?: number; max?: number }>;
  objectives?: Array<{ metric: string; goal: 'min' | 'max' }>;
}

/** One design's record in a merged sweep (a shard line without its "seconds"). */
export interface DesignRecordJson {
  design: number;
  parameters: Record<string, number>;
  metrics: Record<string, number | number[]>;
  feasible: boolean;
  violations: string[];
  error: string | null;
}

/** The merged sweep ("format": "achain-sweep"): every design once, sorted, the Pareto front and a summary. */
export interface MergedSweep {
  format: 'achain-sweep';
  version: number;
  design_space: DesignSpaceDocument;
  count: number;
  objectives: Array<{ metric: string; goal: 'min' | 'max' }>;
  designs: DesignRecordJson[];
  pareto: number[];
  summary: Record<string, unknown>;
}
