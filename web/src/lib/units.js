// Display units. The core is SI (m, rad); the UI converts only for display and input.
export const DEG = Math.PI / 180;
export const INCH = 0.0254;

/**
 * True when a coordinate's variable is a length, false for an angle. `j` is a joint of model.info
 * (model.coordinates[i] for q[i]): the core's joint model says whether it rotates (`angular`).
 */
export function isLinear(j) { return !j.angular; }
/** Stands for any angular coordinate (an angle shown in the angle unit). */
export const ANGULAR = Object.freeze({ angular: true });

/** Unit settings: angle 'deg' | 'rad', length 'mm' | 'in' | 'm'. */
export function makeUnits(angle = 'deg', length = 'mm') { return { angle, length }; }

export function lengthFactor(u) { return u.length === 'in' ? 1 / INCH : u.length === 'mm' ? 1000 : 1; }
export function angleFactor(u) { return u.angle === 'deg' ? 1 / DEG : 1; }

/** SI joint value → display value for a coordinate j (a joint of model.info). */
export function jointToDisplay(j, v, u) { return v * (isLinear(j) ? lengthFactor(u) : angleFactor(u)); }
/** Display value → SI joint value. */
export function jointFromDisplay(j, v, u) { return v / (isLinear(j) ? lengthFactor(u) : angleFactor(u)); }
export function jointUnitLabel(j, u) { return isLinear(j) ? u.length : u.angle === 'deg' ? '°' : 'rad'; }
export function jointStep(j, u) {
  if (isLinear(j)) return u.length === 'mm' ? 1 : u.length === 'in' ? 0.05 : 0.001;
  return u.angle === 'deg' ? 0.5 : 0.005;
}

/**
 * Default slider range (SI) for a joint of model.info: its limits, or where unbounded a span from the core's joint
 * model: ±0.5 m for a length, one period from 0 for a periodic joint that also translates (an A-pair's θ_v: 0…4π),
 * else ±π.
 */
export function jointRange(j) {
  let lo = j.lower;
  let hi = j.upper;
  const fromZero = j.period > 0 && !j.revolute;
  if (lo == null || !Number.isFinite(lo)) lo = isLinear(j) ? -0.5 : fromZero ? 0 : -Math.PI;
  if (hi == null || !Number.isFinite(hi)) hi = isLinear(j) ? 0.5 : fromZero ? j.period : Math.PI;
  return [lo, hi];
}

/** Start configuration: zero when inside the limits, otherwise the middle of the range. */
export function homeConfiguration(joints) {
  return Float64Array.from(joints.map((j) => {
    const [lo, hi] = jointRange(j);
    return lo <= 0 && 0 <= hi ? 0 : 0.5 * (lo + hi);
  }));
}

export function fmt(v, digits = 3) {
  if (!Number.isFinite(v)) return String(v);
  const s = v.toFixed(digits);
  return s === `-${(0).toFixed(digits)}` ? (0).toFixed(digits) : s;
}
