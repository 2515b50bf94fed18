// Teleoperation frame of the studio (issue 7 target ≤ 1 ms): fk + jacobian + one ikNumeric seeded with q.
//   achain-wasm         as the studio calls it: m.forwardKinematics(q) (every frame, for drawing), m.pointJacobian(q), ikNumeric
//   achain-wasm (out)   the lean per-frame path: fkTool and jacobian writing into reused arrays, ikNumeric
export function cases(achain) {
  const D = Math.PI / 180;
  const setups = [
    ['prototype-4a', [150, 120, 200, 100], { positionOnly: true }],
    ['puma560', [10, 30, -40, 20, 30, 10], {}],
  ];
  const out = [];
  for (const [robot, q0, opts] of setups) {
    const m = achain.loadModel(robot);
    const q = Float64Array.from(q0, (v) => v * D);
    const T = Float64Array.from(m.forwardKinematics(q).tool);
    T[3] += 0.01;
    const pose = new Float64Array(16), J = { out: new Float64Array(6 * m.dof) };
    out.push({ name: `TeleopFrame/${robot}/achain-wasm`, fn: () => { m.forwardKinematics(q); m.pointJacobian(q); m.ikNumeric(T, q, opts); } });
    out.push({
      name: `TeleopFrame/${robot}/achain-wasm (out)`,
      fn: () => { m.fkTool(q, pose); m.pointJacobian(q, J); m.ikNumeric(T, q, opts); },
      dispose: () => m.dispose(),
    });
  }
  return out;
}
