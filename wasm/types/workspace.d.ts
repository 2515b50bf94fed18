// Model methods of the workspace area (see wasm/js/workspace.mjs).
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface WorkspaceMethods {}
