// Shared by the studio's model workers (simulate, batch IK, trajectory check): the wasm core loaded once per
// worker; a {type:'start', id, model (JSON description), …} message runs the worker's job on a model loaded from
// msg.model and disposed afterwards; an exception becomes {type:'error', id, message}.
import { loadAchain } from '../../../wasm/achain.mjs';

const ready = loadAchain();

/**
 * Installs self.onmessage: 'start' → await job(model, msg, achain); any other message → other(msg) (cancel
 * requests). The job posts its own progress and result.
 */
export function serveModelJobs(job, other = () => {}) {
  self.onmessage = async (event) => {
    const msg = event.data ?? {};
    if (msg.type !== 'start') { other(msg); return; }
    let model = null;
    try {
      const achain = await ready;
      model = achain.loadModel(msg.model);
      await job(model, msg, achain);
    } catch (e) {
      self.postMessage({ type: 'error', id: msg.id, message: String(e.message ?? e) });
    } finally {
      model?.dispose();
    }
  };
}
