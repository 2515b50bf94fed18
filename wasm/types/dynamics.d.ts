// Model methods of the dynamics area (see wasm/js/dynamics.mjs).
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface DynamicsMethods {}
