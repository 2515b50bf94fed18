// Reachable workspace through the wasm module (single thread, as in a Web Worker).
// Each case is timed here (fastest of 5 runs after 2 warm-ups, as run.mjs keeps the fastest repetition):
// a run takes 0.1 s, too long for timeIt's 50 warm-ups.
const now = () => performance.now();

function fastest(fn, runs = 5, warm = 2) {
  for (let i = 0; i < warm; i++) fn();
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = now();
    fn();
    best = Math.min(best, now() - t0);
  }
  return best * 1e6;
}

export function cases(achain) {
  const out = [];
  for (const [robot, label] of [['prototype-4a', 'prototype-4a@12.7mm'], ['puma560', 'puma560-wrist@12.7mm']]) {
    const m = achain.loadModel(robot);
    let voxels = 0;
    const ns = fastest(() => {
      const w = m.computeWorkspace({ voxel: 0.0127 });
      voxels = w.voxels;
      w.dispose();
    });
    out.push({ name: `Workspace/${label}/achain-wasm`, ns, extra: { voxels }, dispose: () => m.dispose() });
  }
  // How the time grows with resolution, 1 in to 1/8 in (issue 16 item 3: 1/8 in in ≤ 3 s in the worker);
  // the fine grids run once or twice (1/8 in takes seconds).
  for (const [voxel, label, runs, warm] of [[0.0254, '25.4mm', 5, 2], [0.00635, '6.35mm', 2, 0], [0.003175, '3.175mm', 1, 0]]) {
    const m = achain.loadModel('prototype-4a');
    let voxels = 0;
    const ns = fastest(() => {
      const w = m.computeWorkspace({ voxel });
      voxels = w.voxels;
      w.dispose();
    }, runs, warm);
    out.push({ name: `Workspace/prototype-4a@${label}/achain-wasm`, ns, extra: { voxels }, dispose: () => m.dispose() });
  }
  const m = achain.loadModel('prototype-4a');
  const ns = fastest(() => {
    const w = m.computeWorkspace({ voxel: 0.0127, step: 0.5 * Math.PI / 180, representative: 'centre' });
    w.dispose();
  }, 3, 1);
  out.push({ name: 'Workspace/prototype-4a@12.7mm/achain-wasm-centre-0.5deg', ns, dispose: () => m.dispose() });
  return out;
}
