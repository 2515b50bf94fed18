// Model methods of the ik area (see wasm/js/ik.mjs).
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface IkMethods {}
