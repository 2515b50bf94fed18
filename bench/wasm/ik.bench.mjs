// IK through the wasm module (JS wrapper included): 1000 reachable targets per robot, one random
// seed each (numeric), as in bench/bench_ik.cpp. extra: success_pct, median_us, mean_us.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomQ(m, rand) {
  return Float64Array.from(m.joints, (j) => {
    const f = j.kind === 'P' ? 1 : Math.PI;
    const lo = j.lower ?? -f, hi = j.upper ?? f;
    return lo + rand() * (hi - lo);
  });
}

function poseOk(m, q, T) {
  if (!m.withinLimits(q)) return false;
  const F = m.forwardKinematics(q).tool;
  let pe = 0;
  for (const i of [3, 7, 11]) pe = Math.max(pe, Math.abs(F[i] - T[i]));
  let oe = 0;
  for (const i of [0, 1, 2, 4, 5, 6, 8, 9, 10]) oe = Math.max(oe, Math.abs(F[i] - T[i]));
  return pe <= 1e-6 && oe <= 1e-6;
}

function stats(m, targets, solve) {
  const us = [];
  let ok = 0;
  for (let k = 0; k < targets.length; k++) {
    const t0 = process.hrtime.bigint();
    const q = solve(k);
    us.push(Number(process.hrtime.bigint() - t0) / 1e3);
    if (q && poseOk(m, q, targets[k])) ok++;
  }
  const s = [...us].sort((a, b) => a - b);
  return { success_pct: (100 * ok) / targets.length, median_us: s[s.length >> 1], mean_us: us.reduce((a, b) => a + b, 0) / us.length };
}

export function cases(achain) {
  const out = [];
  for (const robot of ['puma560', 'prototype-4a']) {
    const m = achain.loadModel(robot);
    const rand = rng(2024);
    const targets = [], seeds = [], near = [];
    for (let k = 0; k < 1000; k++) {
      const q = randomQ(m, rand);
      targets.push(Float64Array.from(m.forwardKinematics(q).tool));
      seeds.push(randomQ(m, rand));
      near.push(q.map((x) => x + (rand() - 0.5) * 0.04));
    }
    const track = (k) => {
      const r = m.solveNumeric(targets[k], near[k]);
      return r.status === 'ok' ? r.q : null;
    };
    const numeric = (k) => {
      const r = m.solveNumeric(targets[k], seeds[k], { restarts: 50 });
      return r.status === 'ok' ? r.q : null;
    };
    const all = (k) => {
      const r = m.ikAll(targets[k], { method: 'closed' });
      return r.solutions.length ? r.solutions[0].q : null;
    };
    let k1 = 0, k2 = 0, k3 = 0, k4 = 0;
    if (robot === 'prototype-4a') {
      // the algebraic method (Study parameters, homotopy with 128 paths) on the first 20 targets
      const alg = (k) => {
        const r = m.ikAll(targets[k], { method: 'algebraic' });
        return r.solutions.length ? r.solutions[0].q : null;
      };
      out.push({ name: `IK/${robot}/achain-wasm-algebraic (20 targets)`, fn: () => alg(k4++ % 20), extra: stats(m, targets.slice(0, 20), alg) });
    }
    out.push({ name: `IK-track/${robot}/achain-wasm`, fn: () => track(k3++ % 1000), extra: stats(m, targets, track) });
    out.push({ name: `IK/${robot}/achain-wasm`, fn: () => numeric(k1++ % 1000), extra: stats(m, targets, numeric) });
    out.push({ name: `IK/${robot}/achain-wasm-closed`, fn: () => all(k2++ % 1000), extra: stats(m, targets, all), dispose: () => m.dispose() });
  }
  return out;
}
