// The 256 joint states every wasm benchmark cycles through (as bench/bench_common.hpp does natively):
// configurations spread over the joint limits (±3 where a joint has none), velocities and accelerations.
export function configurations(m) {
  const qs = [];
  for (let k = 0; k < 256; k++) {
    qs.push(Float64Array.from(m.joints, (j, i) => {
      const lo = j.lower ?? -3, hi = j.upper ?? 3;
      return lo + ((k * 7919 + i * 104729) % 1000) / 1000 * (hi - lo);
    }));
  }
  return qs;
}

export function velocities(n) {
  return Array.from({ length: 256 }, (_, k) => Float64Array.from({ length: n }, (_, i) => Math.sin(k + 2 * i)));
}

export function accelerations(n) {
  return Array.from({ length: 256 }, (_, k) => Float64Array.from({ length: n }, (_, i) => Math.cos(3 * k + i)));
}
