// Workspace worker: runs the core's workspace computation (model.workspaceJob → step() slices) off the
// page's thread, with progress and cancel; optionally the R-twin on the same lattice for the A-vs-R
// overlap. Keeps the last result alive to answer cross-section queries.
//   → {type:'start', id, model, twin?, options, surfaceOnly}
//   → {type:'cancel', id}      → {type:'section', id, axis, value}
//   ← {type:'progress', id, fraction, phase}   ← {type:'result', id, a, b?, overlap?, centres…}
//   ← {type:'cancelled', id}   ← {type:'error', id, message}   ← {type:'section', id, a, b?}
import { loadAchain } from '../../../wasm/achain.mjs';

const ready = loadAchain();
let current = null; // {id, models: [], jobs: [], cancelled}

function release() {
  if (!current) return;
  for (const j of current.jobs) j.dispose();
  for (const m of current.models) m.dispose();
  current = null;
}

const tick = () => new Promise((r) => setTimeout(r, 0));

async function run(job, id, phase, weight, offset, state) {
  let budget = 5e4;
  while (!job.done) {
    if (state.cancelled) { job.cancel(); return false; }
    const t0 = performance.now();
    const p = job.step(budget);
    const dt = performance.now() - t0;
    if (dt > 0) budget = Math.min(Math.max((budget * 16) / dt, 1e4), 5e7);
    self.postMessage({ type: 'progress', id, phase, fraction: offset + weight * p });
    await tick();
  }
  return true;
}

self.onmessage = async (event) => {
  const msg = event.data ?? {};
  if (msg.type === 'cancel') { if (current && current.id === msg.id) current.cancelled = true; return; }
  if (msg.type === 'section') {
    if (!current || current.id !== msg.id || !current.done) { self.postMessage({ type: 'error', id: msg.id, message: 'section: no finished workspace' }); return; }
    try {
      const [a, b] = current.jobs;
      const sa = a.voxelSection(msg.axis, msg.value);
      const out = { type: 'section', id: msg.id, a: { area: sa.area, voxels: sa.voxels, coordinate: sa.coordinate } };
      if (b) { const sb = b.voxelSection(msg.axis, msg.value); out.b = { area: sb.area, voxels: sb.voxels, coordinate: sb.coordinate }; }
      self.postMessage(out);
    } catch (e) { self.postMessage({ type: 'error', id: msg.id, message: String(e.message ?? e) }); }
    return;
  }
  if (msg.type !== 'start') return;
  release();
  const state = { id: msg.id, models: [], jobs: [], cancelled: false, done: false };
  current = state;
  const { id } = msg;
  try {
    const achain = await ready;
    const a = achain.loadModel(msg.model);
    state.models.push(a);
    const ja = a.workspaceJob(msg.options);
    state.jobs.push(ja);
    const w = msg.twin ? 0.5 : 1;
    if (!(await run(ja, id, 'a', w, 0, state))) { self.postMessage({ type: 'cancelled', id }); return; }
    let jb = null;
    if (msg.twin) {
      const b = achain.loadModel(msg.twin);
      state.models.push(b);
      jb = b.workspaceJob(msg.options);
      state.jobs.push(jb);
      if (!(await run(jb, id, 'b', 0.5, 0.5, state))) { self.postMessage({ type: 'cancelled', id }); return; }
    }
    const out = { type: 'result', id, a: ja.summary() };
    const transfer = [];
    const surface = !!msg.surfaceOnly;
    if (jb) {
      // three sets on one lattice: shared, A only, R only (from the core's lattice indices)
      out.b = jb.summary();
      out.overlap = ja.voxelOverlap(jb);
      out.shared = ja.voxelIntersection(jb);
      out.centresA = ja.voxelCentres({ surfaceOnly: surface });
      out.centresB = jb.voxelCentres({ surfaceOnly: surface });
      transfer.push(out.shared.buffer, out.centresA.buffer, out.centresB.buffer);
    } else {
      out.centresA = ja.voxelCentres({ surfaceOnly: surface });
      transfer.push(out.centresA.buffer);
    }
    state.done = true;
    self.postMessage(out, transfer);
  } catch (e) {
    self.postMessage({ type: 'error', id, message: String(e.message ?? e) });
  }
};
