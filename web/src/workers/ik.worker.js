// Batch IK worker: solves the core's numeric IK (model.ikNumeric) along a list of tool poses off the
// page's thread, each solve seeded with the previous answer (the first with the page's q), so the
// joint path stays on one branch. Progress after every slice (~20 ms); cancel between slices keeps
// the poses solved so far.
//   → {type:'start', id, model, poses: Float64Array(16·N), seed: number[], options}
//   → {type:'cancel', id}
//   ← {type:'progress', id, fraction, count}
//   ← {type:'result', id, cancelled, count, dof, q: Float64Array(count·dof), status: Uint8Array(count),
//      statusNames (the core's IK status names: status code k ↔ statusNames[k]),
//      positionError: Float64Array(count), orientationError: Float64Array(count), iterations, seconds}
//   ← {type:'error', id, message}
import { serveModelJobs } from './modelJob.js';

const cancelled = new Set();
const tick = () => new Promise((r) => setTimeout(r, 0));

serveModelJobs(async (model, msg, achain) => {
  const { id } = msg;
  try {
    const n = model.dof;
    const poses = msg.poses instanceof Float64Array ? msg.poses : Float64Array.from(msg.poses ?? []);
    if (poses.length === 0 || poses.length % 16 !== 0) throw new Error(`poses: expected 16·N numbers (row-major 4×4 each), got ${poses.length}`);
    const N = poses.length / 16;
    const seed = Float64Array.from(msg.seed ?? []);
    if (seed.length !== n) throw new Error(`seed: expected ${n} joint values, got ${seed.length}`);
    const q = new Float64Array(N * n);
    const status = new Uint8Array(N);
    const positionError = new Float64Array(N);
    const orientationError = new Float64Array(N);
    const options = { ...(msg.options ?? {}) };
    let iterations = 0;
    let prev = seed;
    let k = 0;
    const t0 = performance.now();
    while (k < N) {
      if (cancelled.has(id)) break;
      const slice0 = performance.now();
      while (k < N && performance.now() - slice0 < 20) {
        const r = model.ikNumeric(poses.subarray(16 * k, 16 * k + 16), prev, options);
        q.set(r.q, k * n);
        const code = achain.ikStatusNames.indexOf(r.status);
        status[k] = code < 0 ? 255 : code;
        positionError[k] = r.positionError;
        orientationError[k] = r.orientationError;
        iterations += r.iterations;
        prev = r.q;
        k++;
      }
      self.postMessage({ type: 'progress', id, fraction: k / N, count: k });
      await tick(); // lets a 'cancel' message in
    }
    const stop = cancelled.has(id);
    cancelled.delete(id);
    const out = {
      type: 'result', id, cancelled: stop, count: k, total: N, dof: n, statusNames: [...achain.ikStatusNames],
      q: q.slice(0, k * n), status: status.slice(0, k), positionError: positionError.slice(0, k),
      orientationError: orientationError.slice(0, k), iterations, seconds: (performance.now() - t0) / 1000,
    };
    self.postMessage(out, [out.q.buffer, out.status.buffer, out.positionError.buffer, out.orientationError.buffer]);
  } finally {
    cancelled.delete(id);
  }
}, (msg) => { if (msg.type === 'cancel') cancelled.add(msg.id); });
