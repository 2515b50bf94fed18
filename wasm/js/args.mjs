// The one place where the JS carriers check what they hand to wasm: joint vectors, poses and options
// (putVector) and scalar numbers (finiteNumber, integer). Embind itself converts silently ('1234' → 1234,
// null → 0, ['1', '2'] → [1, 2]), so every argument is checked here first and a wrong one throws an Error
// naming it ("q[2]: must be a finite number", "qd: expected 6 values, got 5") before wasm memory is touched.

/** A short description of a wrong value for a message (strings cut, never echoed in full). */
export function describe(v) {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  if (typeof v === 'string') return `the string '${v.length > 20 ? `${v.slice(0, 20)}…` : v}'`;
  if (typeof v === 'number') return String(v);
  if (typeof v === 'bigint') return `the bigint ${v}`;
  if (Array.isArray(v)) return `an array of ${v.length}`;
  return `a ${typeof v === 'object' ? (v.constructor?.name ?? 'object') : typeof v}`;
}

function notFinite(what, v) {
  return new Error(`${what}: must be a finite number${typeof v === 'number' ? '' : ` (got ${describe(v)})`}`);
}

/** A finite number, or `fallback` when v is undefined and a fallback is given. */
export function finiteNumber(v, what, fallback) {
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw notFinite(what, v);
  return v;
}

/** options[key] as a finite number named `options.key` in errors, or `fallback` when it is undefined. */
export function option(options, key, fallback) {
  return finiteNumber(options[key], `options.${key}`, fallback);
}

/** An integer in [lo, hi], or `fallback` when v is undefined and a fallback is given. */
export function integer(v, what, fallback, lo = -2147483648, hi = 2147483647) {
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) {
    throw new Error(`${what}: must be an integer in [${lo}, ${hi}] (got ${describe(v)})`);
  }
  return v;
}

/**
 * Checks v (an array or typed array of exactly n finite numbers, named `what` in errors) and copies it
 * into `target` (a Float64Array: wasm's HEAPF64 or a staging buffer) at element offset o.
 */
export function putVector(target, o, v, what, n) {
  if (v == null || typeof v !== 'object' || typeof v.length !== 'number') {
    throw new Error(`${what}: must be an array of ${n} numbers (got ${describe(v)})`);
  }
  if (v.length !== n) throw new Error(`${what}: expected ${n} values, got ${v.length}`);
  if (ArrayBuffer.isView(v) && !(v instanceof BigInt64Array || v instanceof BigUint64Array)) {
    for (let i = 0; i < n; i++) if (!Number.isFinite(v[i])) throw notFinite(`${what}[${i}]`, v[i]);
    if (n <= 16) for (let i = 0; i < n; i++) target[o + i] = v[i];  // cheaper than set() for short vectors
    else target.set(v, o);
    return;
  }
  for (let i = 0; i < n; i++) {
    const x = v[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) throw notFinite(`${what}[${i}]`, x);
    target[o + i] = x;
  }
}

/** v checked as putVector does, as a new Float64Array. */
export function vector(v, what, n) {
  const out = new Float64Array(n);
  putVector(out, 0, v, what, n);
  return out;
}
