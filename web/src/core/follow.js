// IK for dragging: one core solveNumeric from the current q (continuity: stays on the seed's branch), plus a
// singularity escape. At a stretched or folded pose (e.g. the prototype's 180° home) the gradient of the
// pose error can vanish and the solve stays put; then one more solve from a seed nudged 3° (3 mm for P
// joints) off the current pose is kept if it is 'ok' or at least halves the residual, so the arm bends
// to follow, while a truly unreachable target still holds the nearest pose without jitter.
import { DEG } from './units.js';

/** The seed moved 3° (3 mm for P joints) per joint, alternating in sign, kept inside the limits. */
export function nudged(joints, q) {
  return Float64Array.from(q, (v, i) => {
    const j = joints[i];
    const lo = j.lower ?? -Infinity;
    const hi = j.upper ?? Infinity;
    const step = (i % 2 ? -1 : 1) * (j.kind === 'P' ? 0.003 : 3 * DEG);
    const x = v + step <= hi && v + step >= lo ? v + step : v - step;
    return Math.min(hi, Math.max(lo, x));
  });
}

/** model.solveNumeric(target, q, opts) with the singularity escape above. Throws the core's errors. */
export function ikFollow(model, target, q, opts) {
  const r = model.solveNumeric(target, q, opts);
  if (r.status === 'ok') return r;
  const r2 = model.solveNumeric(target, nudged(model.joints, q), opts);
  return r2.status === 'ok' || r2.residual < 0.5 * r.residual ? r2 : r;
}
