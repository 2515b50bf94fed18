// Trajectory-check worker (Vibration view): the core's checkFlexibleTrajectory (a planned move simulated on the
// chain with the drive springs, unshaped and with ZV / ZVD shaping) off the page's thread, so the page stays
// responsive during the three simulations. Cancel = the page terminates the worker.
//   → {type:'start', id, model (JSON description), from, to, options}  (options as model.checkFlexibleTrajectory's)
//   ← {type:'result', id, result, ms}  ← {type:'error', id, message}
import { loadAchain } from '../../../wasm/achain.mjs';

const ready = loadAchain();

self.onmessage = async (event) => {
  const msg = event.data ?? {};
  if (msg.type !== 'start') return;
  const { id } = msg;
  let model = null;
  try {
    const achain = await ready;
    model = achain.loadModel(msg.model);
    const t0 = performance.now();
    const result = model.checkFlexibleTrajectory(msg.from, msg.to, msg.options);
    self.postMessage({ type: 'result', id, result, ms: performance.now() - t0 });
  } catch (e) {
    self.postMessage({ type: 'error', id, message: String(e.message ?? e) });
  } finally {
    model?.dispose();
  }
};
