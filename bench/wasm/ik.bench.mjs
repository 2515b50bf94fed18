// IK through the wasm module (JS wrapper included): 1000 reachable targets per robot, one random
// seed each (numeric), as in bench/bench_ik.cpp. extra: success_pct, median_us, p99_us, mean_us; and branch
// tracking per frame on the PUMA (trackBranches).
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
  return { success_pct: (100 * ok) / targets.length, median_us: s[s.length >> 1], p99_us: s[Math.floor(s.length * 0.99)],
    mean_us: us.reduce((a, b) => a + b, 0) / us.length };
}

/** Branch tracking per frame on the PUMA (as bench_ik.cpp's IK-branches row): every solution of frame 0
 *  followed along a 1000-frame drag, target = FK of a smooth random joint path. */
function branchCase(achain) {
  const m = achain.loadModel('puma560');
  const rand = rng(77);
  const q0 = [], amp = [], fr = [], ph = [];
  for (let i = 0; i < 6; i++) q0.push(rand() - 0.5), amp.push(1.2 * (rand() - 0.5)), fr.push(0.5 + rand()), ph.push(Math.PI * (2 * rand() - 1));
  const path = [];
  for (let f = 0; f <= 1000; f++) {
    const q = Float64Array.from(q0, (x, i) => x + amp[i] * Math.sin((2 * Math.PI * fr[i] * f) / 1000 + ph[i]));
    path.push(Float64Array.from(m.forwardKinematics(q).tool));
  }
  const restart = () => {
    const r = m.ikAll(path[0], { method: 'closed' });
    m.startBranches(path[0], [...r.solutions, ...r.outsideLimits].map((s) => s.q));
  };
  restart();
  const us = [];
  let alive = 0;
  for (let f = 1; f <= 1000; f++) {
    const t0 = process.hrtime.bigint();
    const { branches } = m.trackBranches(path[f]);
    us.push(Number(process.hrtime.bigint() - t0) / 1e3);
    alive += branches.filter((b) => b.alive).length;
  }
  const s = [...us].sort((a, b) => a - b);
  let f = 1;
  return {
    name: 'IK-branches/puma560/achain-wasm-track (per frame)',
    fn: () => {
      m.trackBranches(path[f]);
      if (++f > 1000) restart(), (f = 1);
    },
    extra: { frames: 1000, median_us: s[500], p99_us: s[990], branches_mean: alive / 1000 },
    dispose: () => m.dispose(),
  };
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
      const r = m.ikNumeric(targets[k], near[k]);
      return r.status === 'ok' ? r.q : null;
    };
    const numeric = (k) => {
      const r = m.ikNumeric(targets[k], seeds[k], { restarts: 50 });
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
  {
    // every solution of a general 4A-chain (axes 2, 3 skew: no closed form) by the orientation sweep, 1000 targets
    const m = achain.loadModel('general-4a');
    const rand = rng(2024);
    const targets = [];
    for (let k = 0; k < 1000; k++) targets.push(Float64Array.from(m.forwardKinematics(randomQ(m, rand)).tool));
    const sweep = (k) => {
      const r = m.ikAll(targets[k], { method: 'sweep' });
      return r.solutions.length ? r.solutions[0].q : null;
    };
    let k5 = 0;
    out.push({ name: 'IK/general-4a/achain-wasm-sweep (all)', fn: () => sweep(k5++ % 1000), extra: stats(m, targets, sweep), dispose: () => m.dispose() });
  }
  out.push(branchCase(achain));
  return out;
}
