// Model methods of the kinematics area (see wasm/js/kinematics.mjs).
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface KinematicsMethods {}
