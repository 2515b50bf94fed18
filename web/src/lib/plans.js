// The studio's default joint-space move, shared by the Motion and Vibration views: the robot file's default move
// (its "defaults.move" section, model.info.defaults.move: the thesis trapezoid 60° → 300° for the prototype), else
// 25 % → 75 % of each joint's range; or, asked for, every joint from its lower to its upper limit.
import { jointRange } from './units.js';

/**
 * {from, to, name} (SI): with `limits`, lower → upper limits where given (25 % → 75 % of the range elsewhere); else
 * the robot file's default move when it has one (name: its display name), else 25 % → 75 % of each range (name '').
 */
export function defaultMove(model, { limits = false } = {}) {
  const d = model.info.defaults?.move;
  if (d && !limits) return { from: Float64Array.from(d.from), to: Float64Array.from(d.to), name: d.name };
  const from = Float64Array.from(model.coordinates, (j) => { const [lo, hi] = jointRange(j); return limits && j.lower != null ? j.lower : lo + 0.25 * (hi - lo); });
  const to = Float64Array.from(model.coordinates, (j) => { const [lo, hi] = jointRange(j); return limits && j.upper != null ? j.upper : lo + 0.75 * (hi - lo); });
  return { from, to, name: limits ? 'limit to limit' : '' };
}
