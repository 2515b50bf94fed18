// Model methods of the trajectory area (see wasm/js/trajectory.mjs).
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface TrajectoryMethods {}
