// Teleoperation frame of the studio (issue 7 target ≤ 1 ms): fk + jacobian + one ikSolve seeded with q.
export function cases(achain) {
  const D = Math.PI / 180;
  const setups = [
    ['prototype-4a', [150, 120, 200, 100], { positionOnly: true }],
    ['puma560', [10, 30, -40, 20, 30, 10], {}],
  ];
  return setups.map(([robot, q0, opts]) => {
    const m = achain.loadModel(robot);
    const q = Float64Array.from(q0, (v) => v * D);
    const T = Float64Array.from(m.fk(q).tool);
    T[3] += 0.01;
    return {
      name: `TeleopFrame/${robot}/achain-wasm`,
      fn: () => { m.fk(q); m.jacobian(q); m.ikSolve(T, q, opts); },
      dispose: () => m.dispose(),
    };
  });
}
