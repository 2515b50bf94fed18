// Linearised dynamics in the wasm module: model.linearizeDynamics(), model.jointTransferFunctions() and
// model.frequencyResponse() (the Bode data of `achain linearize --bode`) give the
// native CLI's numbers (`achain linearize`, the same C++ core) on the PUMA 560 with rotor inertia and friction, with
// DC motors in series and tool outputs, and on the prototype 4A; bad options are refused by name.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { cliPath, loadAchain } from './helpers.mjs';

const achain = await loadAchain();

const cli = (args) => JSON.parse(execFileSync(cliPath, ['linearize', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
const flat = (rows) => rows.flat();
const worst = (a, b) => {
  assert.equal(a.length, b.length);
  let w = 0;
  const scale = Math.max(1, ...Array.from(b, (x) => Math.abs(x)));
  for (let i = 0; i < a.length; i++) w = Math.max(w, Math.abs(a[i] - b[i]) / scale);
  return w;
};

describe('linearize', () => {
  const q = [0.1, 0.7, -1.2, 0.3, 0.5, -0.4], qd = [0.2, -0.3, 0.4, 0.1, -0.2, 0.3], qdd = [0.5, 0.1, -0.2, 0.3, 0.2, -0.1];
  const list = (v) => v.join(',');

  test('PUMA 560, rotor inertia and friction: A, B, C, D, poles and the partials equal the CLI', () => {
    const m = achain.loadModel('puma560');
    const w = m.linearizeDynamics(q, qd, qdd, { motors: true, friction: true });
    const n = cli(['--robot', 'puma560', '--q', list(q), '--qd', list(qd), '--qdd', list(qdd), '--motors', '--friction']);
    assert.equal(w.states, 12);
    assert.equal(w.outputs, 6);
    for (const key of ['A', 'B', 'C', 'D']) assert.ok(worst(w[key], flat(n[key])) < 1e-12, key);
    assert.ok(worst(w.dTdq, flat(n.dT_dq)) < 1e-12);
    assert.ok(worst(w.dTdqd, flat(n.dT_dqd)) < 1e-12);
    assert.ok(worst(w.Istar, flat(n.Istar)) < 1e-12);
    // poles: the same set (the eigen-solver may order rounding-close poles differently)
    assert.equal(w.poles.length, 12);
    w.poles.forEach((p, k) => {
      const near = Math.min(...n.poles.map(([re, im]) => Math.hypot(p.re - re, p.im - im)));
      assert.ok(near < 1e-8 * Math.max(1, Math.hypot(p.re, p.im)), `pole ${k}: ${p.re} ${p.im}`);
    });
    m.dispose();
  });

  test("the state in the tool's coordinates (Freeman 3-47…3-53): A, B, C, T and the Bode data equal the CLI's", () => {
    const m = achain.loadModel('puma560');
    const motor = { torqueConstant: 0.2, backEmfConstant: 0.2, resistance: 1.6, inductance: 4e-3 };
    const w = m.linearizeDynamics(q, qd, qdd, { dcMotors: [motor], coordinates: 'tool' });
    const n = cli(['--robot', 'puma560', '--q', list(q), '--qd', list(qd), '--qdd', list(qdd), '--dc-motor', '0.2,0.2,1.6,4e-3', '--coordinates', 'tool']);
    assert.equal(n.coordinates, 'tool');
    assert.deepEqual(n.states.slice(0, 7), ['x', 'y', 'z', 'wx', 'wy', 'wz', 'x_rate']);
    for (const key of ['A', 'B', 'C', 'T']) assert.ok(worst(w[key], flat(n[key])) < 1e-12, key);
    // T's corner is the tool Jacobian; in joint coordinates T is the identity
    const J = m.pointJacobian(q);
    for (let r = 0; r < 6; r++) for (let c = 0; c < 6; c++) assert.ok(Math.abs(w.T[r * 18 + c] - J[r * 6 + c]) < 1e-14);
    const joint = m.linearizeDynamics(q, qd, qdd, { dcMotors: [motor] });
    joint.T.forEach((v, k) => assert.equal(v, Math.floor(k / 18) === k % 18 ? 1 : 0));
    // a planar 2R with two rows; the frequency response of τ1 → y (the tool's y, state 1 with outputs in tool rows)
    const p = achain.loadModel('planar-2r');
    const fr = p.frequencyResponse([0.3, 1.1], [0, 0], [0, 0], { coordinates: 'tool', toolRows: ['x', 'y'], input: 0, output: 1, points: 5 });
    const nb = JSON.parse(execFileSync(cliPath, ['linearize', '--robot', 'planar-2r', '--q', '0.3,1.1', '--coordinates', 'tool', '--tool-rows', 'x,y', '--bode', '1,2', '--bode-points', '5'], { encoding: 'utf8' }));
    assert.ok(worst(fr.magnitude, nb.bode.magnitude) < 1e-12);
    assert.throws(() => p.linearizeDynamics([0.3, 1.1], [0, 0], [0, 0], { coordinates: 'hand' }), /coordinates: must be 'joints' or 'tool'/);
    assert.throws(() => p.linearizeDynamics([0.3, 1.1], [0, 0], [0, 0], { coordinates: 'tool', toolRows: ['x', 'q'] }), /toolRows\[1\]: "q" is not a tool row/);
    assert.throws(() => p.linearizeDynamics([0.3, 1.1], [0, 0], [0, 0], { coordinates: 'tool' }), /choose 2 of x, y, z/);
    assert.throws(() => p.linearizeDynamics([0.3, 0], [0, 0], [0, 0], { coordinates: 'tool', toolRows: ['x', 'y'] }), /rank 1 of 2/);
    p.dispose();
    m.dispose();
  });

  test('DC motors in series and tool outputs: 18 states, voltage inputs, C = [J 0 0]', () => {
    const m = achain.loadModel('puma560');
    const motor = { torqueConstant: 0.2, backEmfConstant: 0.2, resistance: 1.6, inductance: 4e-3 };
    const w = m.linearizeDynamics(q, qd, qdd, { dcMotors: [motor], output: 'tool' });
    const n = cli(['--robot', 'puma560', '--q', list(q), '--qd', list(qd), '--qdd', list(qdd), '--dc-motor', '0.2,0.2,1.6,4e-3', '--output', 'tool']);
    assert.equal(w.states, 18);
    assert.equal(w.outputs, 6);
    assert.deepEqual(n.inputs, ['v1', 'v2', 'v3', 'v4', 'v5', 'v6']);
    for (const key of ['A', 'B', 'C']) assert.ok(worst(w[key], flat(n[key])) < 1e-12, key);
    // G31 = L⁻¹ on the current rows, F33 = −L⁻¹R
    assert.equal(w.B[12 * 6 + 0], 1 / 4e-3);
    assert.ok(Math.abs(w.A[12 * 18 + 12] + 1.6 / 4e-3) < 1e-9);
    const J = m.pointJacobian(q);
    for (let r = 0; r < 6; r++) for (let c = 0; c < 6; c++) assert.ok(Math.abs(w.C[r * 18 + c] - J[r * 6 + c]) < 1e-14);
    m.dispose();
  });

  test('jointTransferFunctions: the toolbox convention, as the CLI', () => {
    const m = achain.loadModel('puma560');
    const w = m.jointTransferFunctions(q, qd, {});
    const n = cli(['--robot', 'puma560', '--q', list(q), '--qd', list(qd), '--jointdynamics']).jointdynamics;
    assert.equal(w.length, 6);
    w.forEach((t, k) => {
      assert.ok(Math.abs(t.J - n[k].J) < 1e-15 * Math.max(1, n[k].J), `J ${k}`);
      assert.ok(Math.abs(t.B - n[k].B) < 1e-15 * Math.max(1, n[k].B), `B ${k}`);
      assert.deepEqual(t.denominator, [t.J, t.B, 0]);
    });
    m.dispose();
  });

  test('prototype 4A, full leg model: the same numbers as the CLI', () => {
    const m = achain.loadModel('prototype-4a');
    const qa = [1.5, 2.5, 3.5, 4.5];
    const w = m.linearizeDynamics(qa, [0.3, -0.2, 0.1, 0.4], [0, 0, 0, 0], { legs: 'full' });
    const n = cli(['--robot', 'prototype-4a', '--q', list(qa), '--qd', '0.3,-0.2,0.1,0.4', '--legs', 'full']);
    for (const key of ['A', 'B']) assert.ok(worst(w[key], flat(n[key])) < 1e-12, key);
    m.dispose();
  });

  test('frequencyResponse: the Bode data equal `achain linearize --bode` (default grid, a range, DC motors and tool outputs)', () => {
    const m = achain.loadModel('puma560');
    const motor = { torqueConstant: 0.2, backEmfConstant: 0.2, resistance: 1.6, inductance: 4e-3 };
    const cases = [
      [{ input: 1, motors: true, friction: true }, ['--bode', '2,2', '--motors', '--friction']],
      [{ input: 0, output: 2, points: 37, range: [0.5, 500] }, ['--bode', '1,3', '--bode-points', '37', '--bode-range', '0.5,500']],
      [{ input: 3, output: 5, outputs: 'tool', points: 25, range: [1, 1000], dcMotors: [motor] },
        ['--bode', '4,6', '--output', 'tool', '--bode-points', '25', '--bode-range', '1,1000', '--dc-motor', '0.2,0.2,1.6,4e-3']],
    ];
    for (const [opts, args] of cases) {
      const w = m.frequencyResponse(q, qd, qdd, opts);
      const n = cli(['--robot', 'puma560', '--q', list(q), '--qd', list(qd), '--qdd', list(qdd), ...args]).bode;
      const what = args.join(' ');
      assert.equal(w.omega.length, opts.points ?? 200);
      assert.equal(w.output, opts.output ?? opts.input);
      // the pole frequencies as the poles (the eigen-solver's rounding may differ between the builds: 1e-8)
      assert.equal(w.poleFrequencies.length, n.pole_frequencies.length, what);
      w.poleFrequencies.forEach((p, k) => assert.ok(Math.abs(p - n.pole_frequencies[k]) < 1e-8 * Math.max(1, p), `${what}: |pole| ${k}`));
      // the response on the same grid: to 1e-12 (|G| relative at every point)
      for (const [key, nk] of [['omega', 'omega'], ['magnitudeDb', 'magnitude_db'], ['phaseDeg', 'phase_deg']])
        assert.ok(worst(w[key], n[nk]) < 1e-12, `${what}: ${key} ${worst(w[key], n[nk])}`);
      w.magnitude.forEach((g, k) => assert.ok(Math.abs(g - n.magnitude[k]) < 1e-12 * n.magnitude[k], `${what}: |G| at ${k}`));
      // dB from the magnitude, the phase continuous along ω
      w.magnitude.forEach((g, k) => assert.ok(Math.abs(w.magnitudeDb[k] - 20 * Math.log10(g)) < 1e-9));
      for (let k = 1; k < w.phaseDeg.length; k++) assert.ok(Math.abs(w.phaseDeg[k] - w.phaseDeg[k - 1]) <= 180);
    }
    // the default grid around the poles of a DC-motor model with tool outputs: 0.1× the smallest to 10× the largest
    const dc = m.frequencyResponse(q, qd, qdd, { outputs: 'tool', output: 5, input: 3, points: 25, dcMotors: [motor] });
    const pf = dc.poleFrequencies;
    assert.ok(Math.abs(dc.omega[0] - 0.1 * pf[0]) < 1e-14 * pf[0]);
    assert.ok(Math.abs(dc.omega[24] - 10 * pf[pf.length - 1]) < 1e-12 * pf[pf.length - 1]);
    const z = [0, 0, 0, 0, 0, 0];
    assert.throws(() => m.frequencyResponse(z, z, z, { input: 6 }), /input 6 is out of range/);
    assert.throws(() => m.frequencyResponse(z, z, z, { range: [5, 1] }), /0 < lo < hi/);
    assert.throws(() => m.frequencyResponse(z, z, z, { range: [0, 1] }), /range: lo must be > 0/);
    assert.throws(() => m.frequencyResponse(z, z, z, { points: 1 }), /points must be from 2 to 1000000/);
    assert.throws(() => m.frequencyResponse(z, z, z, { outputs: 'hand' }), /outputs: must be 'joints' or 'tool'/);
    m.dispose();
  });

  test("a closed chain linearised in its coordinates y (five-bar): the CLI's `closure --linearize`", () => {
    const m = achain.loadModel('five-bar');
    const deg = Math.PI / 180;
    const start = Float64Array.from(m.info.loop.assembly);
    start[m.info.loop.coordinates[0]] = 70 * deg;
    const { q } = m.closeLoop(start, { fTarget: [90 * deg] });
    const w = m.linearizeClosedChain(q, [2 * deg, 3 * deg], [1 * deg, 0.5 * deg]);  // the CLI's --deg rates
    const n = JSON.parse(execFileSync(cliPath, ['closure', '--robot', 'five-bar', '--q', '70,90', '--deg', '--qd', '2,3', '--qdd', '1,0.5', '--linearize'], { encoding: 'utf8' })).linearized;
    assert.equal(w.states, 4);
    for (const key of ['A', 'B', 'C', 'D']) assert.ok(worst(w[key], flat(n[key])) < 1e-12, key);
    assert.ok(worst(w.dTdq, flat(n.dT_dy)) < 1e-12);
    assert.ok(worst(w.dTdqd, flat(n.dT_dyd)) < 1e-12);
    assert.ok(worst(w.Istar, flat(n.Istar)) < 1e-12);
    assert.throws(() => m.linearizeClosedChain(q, [2, 3, 4], [1, 0.5]), /yd/);
    const open = achain.loadModel('puma560');
    assert.throws(() => open.linearizeClosedChain([0, 0, 0, 0, 0, 0], [0], [0]), /not a closed chain/);
    open.dispose();
    m.dispose();
  });

  test('bad options are refused by name', () => {
    const m = achain.loadModel('puma560');
    const z = [0, 0, 0, 0, 0, 0];
    assert.throws(() => m.linearizeDynamics(z, z, z, { output: 'hand' }), /output: must be 'joints' or 'tool'/);
    assert.throws(() => m.linearizeDynamics(z, z, z, { dcMotors: [{ torqueConstant: 1 }] }), /dcMotors\[0\]\.backEmfConstant/);
    assert.throws(() => m.linearizeDynamics(z, z, z, { dcMotors: [{ torqueConstant: 1, backEmfConstant: 1, resistance: 0, inductance: 1 }] }),
      /resistance must be > 0/);
    assert.throws(() => m.linearizeDynamics(z, z, z, { wrench: [1, 0, 0, 0, 0, 0] }), /tool wrench/);
    assert.throws(() => m.linearizeDynamics(z, [0, NaN, 0, 0, 0, 0], z), /qd/);
    m.dispose();
  });
});
