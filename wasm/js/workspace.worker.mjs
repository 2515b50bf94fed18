// A Web Worker that computes workspaces off the page's thread (module worker):
//   const w = new Worker(new URL('achain/wasm/js/workspace.worker.mjs', import.meta.url), { type: 'module' });
//   w.postMessage({ type: 'start', id: 1, model: 'prototype-4a' | jsonText | object, options: { voxel: 0.0127 },
//                   output: 'surface' | 'centres' | 'mesh' | 'none' });
//   w.postMessage({ type: 'cancel', id: 1 });
// Replies: {type: 'progress', id, fraction}, {type: 'result', id, summary, centres?, positions?, indices?}
// (arrays transferred), {type: 'cancelled', id, summary}, {type: 'error', id, message}.
import { loadAchain } from '../achain.mjs';

const achainReady = loadAchain();
const running = new Map();

self.onmessage = async (event) => {
  const msg = event.data ?? {};
  if (msg.type === 'cancel') {
    running.get(msg.id)?.abort();
    return;
  }
  if (msg.type !== 'start') return;
  const { id } = msg;
  const ctrl = new AbortController();
  running.set(id, ctrl);
  let model = null;
  let ws = null;
  try {
    const achain = await achainReady;
    model = achain.loadModel(msg.model);
    ws = await model.computeWorkspaceAsync(msg.options ?? {}, {
      signal: ctrl.signal,
      onProgress: (fraction) => self.postMessage({ type: 'progress', id, fraction }),
    });
    const out = { type: 'result', id, summary: ws.summary() };
    const transfer = [];
    const kind = msg.output ?? 'surface';
    if (kind === 'surface' || kind === 'centres') {
      out.centres = ws.voxelCentres({ surfaceOnly: kind === 'surface' });
      transfer.push(out.centres.buffer);
    } else if (kind === 'mesh') {
      const m = ws.voxelSurfaceMesh();
      out.positions = m.positions;
      out.indices = m.indices;
      transfer.push(m.positions.buffer, m.indices.buffer);
    }
    self.postMessage(out, transfer);
  } catch (e) {
    self.postMessage({ type: e.name === 'AbortError' ? 'cancelled' : 'error', id, message: String(e.message ?? e) });
  } finally {
    ws?.dispose();
    model?.dispose();
    running.delete(id);
  }
};
