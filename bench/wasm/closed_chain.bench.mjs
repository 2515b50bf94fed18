// Closed chains through the wasm module, the rows of bench/bench_closed_chain.cpp (five-bar):
//   LoopClosure/five-bar/achain-wasm     one drag frame: model.closeLoop from the previous frame's solution
//   ClosedChainID/five-bar/achain-wasm   model.closedChainLoads (closure model, transfer, T_y and T_c)
const DEG = Math.PI / 180;

export function cases(achain) {
  const m = achain.loadModel('five-bar');
  const L = m.info.loop;
  const frame = (q, k) => {
    q[L.coordinates[0]] = (70 + 0.5 * k) * DEG;
    return m.closeLoop(q, { fTarget: [(90 - 0.25 * k) * DEG] }).q;
  };
  // the closed states of the drag, y = (70° + s, 90° − s/2), s = 0 … 40° in 0.5° frames
  const path = [];
  let q = Float64Array.from(L.assembly);
  for (let k = 0; k <= 80; k++) { q = Float64Array.from(frame(q, k)); path.push(q); }
  const yd = [114.59 * DEG, 171.887 * DEG], ydd = [57.2958 * DEG, 28.6479 * DEG];
  let k = 0, dir = 1, i = 0;
  const cur = Float64Array.from(path[0]);
  return [
    { name: 'LoopClosure/five-bar/achain-wasm', fn: () => {
      k += dir;
      if (k === 80 || k === 0) dir = -dir;
      cur.set(frame(cur, k));
    } },
    { name: 'ClosedChainID/five-bar/achain-wasm', fn: () => m.closedChainLoads(path[i++ % path.length], yd, ydd),
      dispose: () => m.dispose() },
  ];
}
