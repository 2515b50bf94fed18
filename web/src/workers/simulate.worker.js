// Simulation worker: integrates the core's forward dynamics (model.simulate, RK4 or Euler) off the
// page's thread with progress. Cancel = the page terminates the worker.
//   → {type:'start', id, model, q, qd, tau, duration, dt, every, integrator, legs, limitStops}
//   ← {type:'progress', id, fraction}  ← {type:'result', id, t, q, qd, energy, dof, limitStops}  ← {type:'error', id, message}
import { serveModelJobs } from './modelJob.js';

serveModelJobs((model, msg) => {
  const { id } = msg;
  let last = 0;
  const r = model.simulate({
    q: msg.q, qd: msg.qd, tau: msg.tau, duration: msg.duration, dt: msg.dt, every: msg.every, integrator: msg.integrator,
    onProgress: (f) => { if (f - last >= 0.02 || f >= 1) { last = f; self.postMessage({ type: 'progress', id, fraction: f }); } },
  }, { legs: msg.legs, limitStops: !!msg.limitStops });
  const n = model.dof;
  const N = r.t.length;
  const q = new Float64Array(N * n);
  const qd = new Float64Array(N * n);
  for (let k = 0; k < N; k++) { q.set(r.q[k], k * n); qd.set(r.qd[k], k * n); }
  self.postMessage({ type: 'result', id, dof: n, t: r.t, q, qd, energy: r.energy, limitStops: !!msg.limitStops }, [q.buffer, qd.buffer]);
});
