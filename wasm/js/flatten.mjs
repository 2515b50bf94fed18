// Shared by the hot-path wrappers: many configurations packed into one flat Float64Array for a
// batch (series) call into wasm.

/** An array of configurations (or a flat array of count·n numbers) as one flat Float64Array. */
export function flatten(rows, n, what) {
  if (rows == null || typeof rows.length !== 'number') throw new Error(`${what}: must be an array of configurations`);
  if (rows.length === 0) return new Float64Array(0);
  if (typeof rows[0] === 'number') {
    if (rows.length % n !== 0) throw new Error(`${what}: expected a multiple of ${n} numbers, got ${rows.length}`);
    return rows instanceof Float64Array ? rows : Float64Array.from(rows);
  }
  const flat = new Float64Array(rows.length * n);
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k];
    if (r == null || r.length !== n) throw new Error(`${what}[${k}]: expected ${n} values, got ${r?.length}`);
    flat.set(r, k * n);
  }
  return flat;
}
