// The studio's default joint-space move, shared by the Motion and Vibration views: the thesis's trapezoid for the
// prototype (every joint from its lower to its upper limit, 60° → 300°, with the model's speed and acceleration
// limits, Robinson Table 3.11), else 25 % → 75 % of each joint's range.
import { jointRange } from './units.js';

/** True for the prototype (and its R twin and drive variant), whose default move is the thesis's. */
export const isThesisRobot = (model) => /^prototype-4[ar]/.test(model.name);

/** {from, to} (SI): the thesis move when `thesis` (lower → upper limits where given), else 25 % → 75 % of each range. */
export function defaultMove(model, thesis = isThesisRobot(model)) {
  const from = Float64Array.from(model.coordinates, (j) => { const [lo, hi] = jointRange(j); return thesis && j.lower != null ? j.lower : lo + 0.25 * (hi - lo); });
  const to = Float64Array.from(model.coordinates, (j) => { const [lo, hi] = jointRange(j); return thesis && j.upper != null ? j.upper : lo + 0.75 * (hi - lo); });
  return { from, to };
}
