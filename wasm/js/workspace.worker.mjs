// The workspace Web Worker (module worker): the package's "./workspace.worker" export, and the worker the studio's
// Workspace view runs. It computes a workspace with the core's job (model.workspaceJob → job.step() slices) off the
// page's thread, with progress and cancel; optionally the model's R twin (the core's rPairTwin) on the same lattice,
// for the A-vs-R overlap. The last finished result stays alive to answer cross-sections until the next start.
//   const w = new Worker(new URL('achain/workspace.worker', import.meta.url), { type: 'module' });
// Messages in (one job at a time: a new start ends the previous job):
//   {type: 'start', id, model: 'prototype-4a' | jsonText | object, options: {voxel: 0.0127, …},
//    twin?: true (also the R twin), output?: 'surface' (default) | 'centres' | 'mesh' | 'none'}
//   {type: 'cancel', id}
//   {type: 'section', id, axis: 'x' | 'y' | 'z', value}                 (after that job's result)
// Replies (arrays transferred):
//   {type: 'progress', id, fraction, phase: 'model' | 'twin'}
//   {type: 'result', id, summary, centres? | positions?, indices?,
//    twin?: {summary, centres? | positions?, indices?}, overlap?,
//    parts? {onlyA, shared, onlyB}: with twin and centres, instead of the two `centres`, the centres (surface or all,
//    as `output`) of a's voxels b lacks, of a's voxels b has, and of b's voxels a lacks: a's centres are onlyA and
//    shared (b's, with output 'centres', shared and onlyB), and each centre crosses once}
//   {type: 'section', id, area, voxels, coordinate, twin?: {area, voxels, coordinate}}
//   {type: 'cancelled', id}   {type: 'error', id, message}
import { loadAchain } from '../achain.mjs';

const ready = loadAchain();
let current = null;  // the latest job: {id, models, jobs, cancelled, running, done, released}

/** Frees a job's models and results; a running one is told to stop and frees itself when it does. */
function release(state) {
  if (!state || state.released) return;
  state.cancelled = true;
  if (state.running) return;
  state.released = true;
  for (const j of state.jobs) j.dispose();
  for (const m of state.models) m.dispose();
}

const tick = () => new Promise((r) => setTimeout(r, 0));

/** Steps a job to its end in ~16 ms slices, posting progress; false when cancelled. */
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

/** The job's result shapes for `output`, their buffers added to `transfer`. */
function shapes(job, output, transfer) {
  const out = { summary: job.summary() };
  if (output === 'surface' || output === 'centres') {
    out.centres = job.voxelCentres({ surfaceOnly: output === 'surface' });
    transfer.push(out.centres.buffer);
  } else if (output === 'mesh') {
    const m = job.voxelSurfaceMesh();
    out.positions = m.positions;
    out.indices = m.indices;
    transfer.push(m.positions.buffer, m.indices.buffer);
  } else if (output !== 'none') {
    throw new Error(`output: expected 'surface', 'centres', 'mesh' or 'none', got ${JSON.stringify(output)}`);
  }
  return out;
}

function section(msg) {
  if (!current || current.id !== msg.id || !current.done) throw new Error('section: no finished workspace');
  const [a, b] = current.jobs;
  const cut = (job) => { const s = job.voxelSection(msg.axis, msg.value); return { area: s.area, voxels: s.voxels, coordinate: s.coordinate }; };
  const out = { type: 'section', id: msg.id, ...cut(a) };
  if (b) out.twin = cut(b);
  return out;
}

async function start(msg, state) {
  const { id } = msg;
  const achain = await ready;
  const model = achain.loadModel(msg.model);
  state.models.push(model);
  const twin = !!msg.twin;
  if (twin && !model.info.hasApair) throw new Error(`twin: '${model.name}' has no A-pair, so its R twin is itself`);
  const ja = model.workspaceJob(msg.options ?? {});
  state.jobs.push(ja);
  if (!(await run(ja, id, 'model', twin ? 0.5 : 1, 0, state))) return [{ type: 'cancelled', id }, []];
  let jb = null;
  if (twin) {
    const b = model.rPairTwin();
    state.models.push(b);
    jb = b.workspaceJob(msg.options ?? {});
    state.jobs.push(jb);
    if (!(await run(jb, id, 'twin', 0.5, 0.5, state))) return [{ type: 'cancelled', id }, []];
  }
  const transfer = [];
  const output = msg.output ?? 'surface';
  const split = jb && (output === 'surface' || output === 'centres');  // the overlap's parts replace the centres
  const out = { type: 'result', id, ...shapes(ja, split ? 'none' : output, transfer) };
  if (jb) {
    out.twin = shapes(jb, split ? 'none' : output, transfer);
    out.overlap = ja.voxelOverlap(jb);
    if (split) {
      // the three coloured parts, split by the core here so that the page only draws them
      const surfaceOnly = output === 'surface';
      out.parts = {
        onlyA: ja.voxelCentres({ surfaceOnly, notIn: jb }),
        shared: ja.voxelCentres({ surfaceOnly, sharedWith: jb }),
        onlyB: jb.voxelCentres({ surfaceOnly, notIn: ja }),
      };
      for (const p of Object.values(out.parts)) transfer.push(p.buffer);
    }
  }
  state.done = true;
  return [out, transfer];
}

self.onmessage = async (event) => {
  const msg = event.data ?? {};
  if (msg.type === 'cancel') {
    if (current && current.id === msg.id) current.cancelled = true;
    return;
  }
  if (msg.type === 'section') {
    try { self.postMessage(section(msg)); } catch (e) { self.postMessage({ type: 'error', id: msg.id, message: String(e.message ?? e) }); }
    return;
  }
  if (msg.type !== 'start') return;
  const state = { id: msg.id, models: [], jobs: [], cancelled: false, running: true, done: false, released: false };
  const previous = current;
  current = state;
  release(previous);
  let reply;
  try {
    reply = await start(msg, state);
  } catch (e) {
    reply = [{ type: 'error', id: msg.id, message: String(e.message ?? e) }, []];
  }
  state.running = false;
  if (!state.done || current !== state) release(state);  // only the latest finished job is kept (for sections)
  self.postMessage(reply[0], reply[1]);
};
