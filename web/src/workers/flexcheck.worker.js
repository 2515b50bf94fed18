// Trajectory-check worker (Vibration view): the core's checkFlexibleTrajectory (a planned move simulated on the
// chain with the drive springs, unshaped and with ZV / ZVD shaping) off the page's thread, so the page stays
// responsive during the three simulations. Cancel = the page terminates the worker.
//   → {type:'start', id, model (JSON description), from, to, options}  (options as model.checkFlexibleTrajectory's)
//   ← {type:'result', id, result, ms}  ← {type:'error', id, message}
import { serveModelJobs } from './modelJob.js';

serveModelJobs((model, msg) => {
  const t0 = performance.now();
  const result = model.checkFlexibleTrajectory(msg.from, msg.to, msg.options);
  self.postMessage({ type: 'result', id: msg.id, result, ms: performance.now() - t0 });
});
