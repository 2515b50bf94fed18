// Shared by the hot-path wrappers: many configurations packed into one flat Float64Array for a
// batch (series) call into wasm. Every number is checked (js/args.mjs): qs[1][2] names a bad one.
import { putVector } from './args.mjs';

/** An array of configurations (or a flat array of count·n numbers) as one flat Float64Array. */
export function flatten(rows, n, what) {
  if (rows == null || typeof rows.length !== 'number') throw new Error(`${what}: must be an array of configurations`);
  if (rows.length === 0) return new Float64Array(0);
  if (typeof rows === 'string') throw new Error(`${what}: must be an array of configurations (got a string)`);
  if (typeof rows[0] !== 'object' || rows[0] === null) {  // a flat array of count·n numbers
    if (rows.length % n !== 0) throw new Error(`${what}: expected a multiple of ${n} numbers, got ${rows.length}`);
    const flat = rows instanceof Float64Array ? rows : new Float64Array(rows.length);
    putVector(flat, 0, rows, what, rows.length);
    return flat;
  }
  const flat = new Float64Array(rows.length * n);
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k];
    if (r == null || r.length !== n) throw new Error(`${what}[${k}]: expected ${n} values, got ${r?.length}`);
    putVector(flat, k * n, r, `${what}[${k}]`, n);
  }
  return flat;
}
