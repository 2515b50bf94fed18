// Flexible links in a chain in the wasm module (wasm/js/flexible_chain.mjs → core/dynamics/flexible_chain): the
// built-in space arm (Tesar & Graves' links 2 and 3 flexible, five modes each): model.info.flexibleLinks, the
// coupled modes, the static deflection, the time response and each link's stiffness and clamped modes against the
// native CLI (`achain flex-modes`, `flex-deflection`, `flex-simulate`, `flex-link`) to 1e-9 relative; the deflected
// kinematics against the drawn centreline; the errors.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { cli, loadAchain, root } from './helpers.mjs';

const achain = await loadAchain();
const deg = Math.PI / 180;

/** |a − b| ≤ tol·max(|a|, |b|) for numbers; for vectors relative to their largest entry. Returns the relative error. */
function close(a, b, what, tol = 1e-9) {
  if (typeof a === 'number') {
    const e = Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b), 1e-300);
    assert.ok(e <= tol || a === b, `${what}: ${a} vs ${b}`);
    return a === b ? 0 : e;
  }
  assert.equal(a.length, b.length, `${what}: length`);
  let scale = 0, err = 0;
  for (let i = 0; i < a.length; i++) scale = Math.max(scale, Math.abs(a[i]), Math.abs(b[i]));
  for (let i = 0; i < a.length; i++) {
    assert.ok(Math.abs(a[i] - b[i]) <= tol * scale, `${what}[${i}]: ${a[i]} vs ${b[i]}`);
    err = Math.max(err, scale ? Math.abs(a[i] - b[i]) / scale : 0);
  }
  return err;
}

const worst = {};
const note = (k, e) => { worst[k] = Math.max(worst[k] ?? 0, e); };

describe('flexible chain (space arm)', () => {
  const m = achain.loadModel('space-arm');
  const QDEG = [0, 30, 90, 0, 45, 0];
  const q = QDEG.map((v) => v * deg);
  const cliQ = ['--q', QDEG.join(','), '--deg'];

  test('model.info.flexibleLinks and makeFlexibleChain: links 2 and 3 (joints 1 and 2), five modes each', () => {
    const f = m.info.flexibleLinks;
    assert.deepEqual(f.map((l) => l.joint), [1, 2]);
    assert.deepEqual(f.map((l) => l.count), [5, 5]);
    assert.deepEqual(f.map((l) => l.offset), [6, 11]);
    assert.deepEqual(f[0].modes, ['y bending', 'y bending', 'z bending', 'z bending', 'torsion']);
    const s = m.makeFlexibleChain();
    assert.deepEqual([s.nv, s.nf, s.nb, s.dof], [6, 10, 0, 16]);
    assert.equal(s.coordinates[0], 'shoulder_pitch q1 (y bending)');
    assert.equal(m.makeFlexibleChain({ baseMass: 100 }).dof, 19);
    const text = achain.flexibleLinksFromJsonString(fs.readFileSync(path.join(root, 'core/robots/space-arm.json'), 'utf8'));
    assert.deepEqual(text.map((l) => l.joint), [1, 2]);
    close(text[0].length, f[0].length, 'length', 1e-15);
  });

  test('flexibleChainModes equals `achain flex-modes` (fixed and translating base); clamped links = `flex-link`', () => {
    for (const baseMass of [0, 200]) {
      const native = cli('flex-modes', '--robot', 'space-arm', ...cliQ, '--base-mass', String(baseMass));
      const r = m.flexibleChainModes(q, { baseMass });
      assert.deepEqual(r.coordinates, native.coordinates);
      assert.equal(r.omega.length, baseMass ? 13 : 10);
      const k0 = baseMass ? 3 : 0;  // the rigid translations at 0 are compared absolutely below
      note('modes omega', close(r.omega.slice(k0), native.modes.slice(k0).map((x) => x.omega), `omega (base ${baseMass})`));
      note('modes Hz', close(r.frequencyHz.slice(k0), native.modes.slice(k0).map((x) => x.frequency_hz), `Hz (base ${baseMass})`));
      for (let k = k0; k < r.shapes.length; k++) note('mode shapes', close(r.shapes[k], native.modes[k].shape, `shape ${k}`));
      for (let k = 0; k < k0; k++) assert.ok(r.omega[k] < 1e-6 * r.omega[k0]);
      for (let i = 0; i < 2; i++) note('clamped Hz', close(r.clampedLinks[i].frequencyHz, native.clamped_links[i].frequency_hz, 'clamped'));
    }
    for (const [i, link] of [[0, 1], [1, 2]]) {
      const native = cli('flex-link', '--robot', 'space-arm', '--link', String(link));
      note('flex-link clamped Hz', close(m.info.flexibleLinks[i].clampedFrequencyHz, native.clamped_modes.map((x) => x.frequency_hz), `link ${link} clamped`));
      const K = m.flexibleStiffness(), o = m.info.flexibleLinks[i].offset;
      for (let r = 0; r < 5; r++) note('flex-link K', close(K[o + r].slice(o, o + 5), native.K[r], `link ${link} K row ${r}`));
    }
  });

  test('flexibleStaticDeflection equals `achain flex-deflection`; flexibleDeflection and flexibleKinematics agree with it', () => {
    const force = [3, -2, 5], moment = [0.5, 1, -0.2];
    const native = cli('flex-deflection', '--robot', 'space-arm', ...cliQ, '--force', force.join(','), '--moment', moment.join(','));
    const r = m.flexibleStaticDeflection(q, { force, moment });
    assert.deepEqual(r.coordinates, native.coordinates);
    note('static modal', close(r.modal, native.modal, 'modal'));
    const d = r.deflection;
    note('static tool displacement', close(d.toolDisplacement, native.tool_displacement, 'tool displacement'));
    note('static scalars', close(d.toolPositionError, native.tool_position_error, 'tool position error'));
    note('static scalars', close(d.toolRotationError, native.tool_rotation_error_rad, 'tool rotation error'));
    note('static scalars', close(d.maxLinkRotationDeg, native.max_link_rotation_deg, 'max link rotation'));
    assert.equal(d.maxRotationJointName, native.max_rotation_joint);
    assert.equal(d.above3deg, native.above_3deg);
    assert.equal(d.above5deg, native.above_5deg);
    // the same φ through flexibleDeflection and flexibleKinematics
    const again = m.flexibleDeflection(r.phi);
    close(again.toolDisplacement, d.toolDisplacement, 'flexibleDeflection', 1e-15);
    const k = m.flexibleKinematics(r.phi);
    close(k.deflection.toolDisplacement, d.toolDisplacement, 'flexibleKinematics', 1e-15);
    const rigid = m.forwardKinematics(q);
    const tool = [k.tool[3], k.tool[7], k.tool[11]], rigidTool = [rigid.tool[3], rigid.tool[7], rigid.tool[11]];
    close(tool.map((x, i) => x - rigidTool[i]), Array.from(d.toolDisplacement), 'tool − rigid FK', 1e-9);
    assert.equal(k.links.length, 6);
    assert.deepEqual(k.tips.map((t) => t.joint), [1, 2]);
    // a large load: past the paper's 3° and 5° small-angle limits
    const big = m.flexibleStaticDeflection(q, { moment: [2e5, 0, 0] }).deflection;
    assert.ok(big.above3deg && big.above5deg, `max link rotation ${big.maxLinkRotationDeg}°`);
  });

  test('flexibleLinkCurve: the deflected beam ends at the next frame of flexibleKinematics; straight when undeflected', () => {
    const phi = new Float64Array(16);
    phi.set(q);
    for (let i = 6; i < 16; i++) phi[i] = 0.02 * Math.sin(i);
    const k = m.flexibleKinematics(phi);
    for (const joint of [1, 2]) {
      const c = m.flexibleLinkCurve(phi, joint, { samples: 11 });
      assert.equal(c.deflected.length, 33);
      const end = c.deflected.slice(30, 33), next = k.links[joint + 1];
      close(Array.from(end), [next[3], next[7], next[11]], `joint ${joint} tip = next frame`, 1e-12);
      close(Array.from(end), Array.from(k.tips[joint - 1].tip), `joint ${joint} tip`, 1e-12);
      const root = c.deflected.slice(0, 3), frame = k.links[joint];
      close(Array.from(root), [frame[3], frame[7], frame[11]], `joint ${joint} root`, 1e-12);
    }
    const straight = m.flexibleLinkCurve(Float64Array.from([...q, ...new Array(10).fill(0)]), 1, { samples: 5 });
    assert.deepEqual(Array.from(straight.deflected), Array.from(straight.rigid));
  });

  test('flexibleSimulate equals `achain flex-simulate` (a pulse, joints locked; free joints with a translating base)', () => {
    const cases = [
      [{ force: [0, 2, 1], moment: [0.5, 0, 0], load: 'pulse', stop: 0.2, duration: 0.6, samples: 7 }, ['--load', 'pulse', '--stop', '0.2', '--duration', '0.6', '--samples', '7', '--force', '0,2,1', '--moment', '0.5,0,0']],
      [{ force: [0, 0, 5], load: 'sine', frequency: 2, duration: 0.3, samples: 4, joints: 'free', baseMass: 500 }, ['--load', 'sine', '--frequency', '2', '--duration', '0.3', '--samples', '4', '--force', '0,0,5', '--joints', 'free', '--base-mass', '500']],
    ];
    for (const [options, args] of cases) {
      const native = cli('flex-simulate', '--robot', 'space-arm', ...cliQ, ...args);
      const r = m.flexibleSimulate(q, options);
      assert.equal(r.steps, native.steps);
      note('simulate', close(r.dt, native.dt, 'dt'));
      note('simulate', close(r.t, native.t, 't'));
      assert.deepEqual(r.coordinates, native.coordinates);
      for (let s = 0; s < r.t.length; s++) {
        note('simulate', close(r.modal[s], native.modal[s], `modal ${s}`));
        if (s > 0) note('simulate', close(r.toolDisplacement[s], native.tool_displacement[s], `tool ${s}`));
        if (s > 0 && r.baseTranslation) note('simulate', close(r.baseTranslation[s], native.base_translation[s], `base ${s}`));
      }
      assert.equal(r.baseTranslation === null, native.base_translation === null);
      note('simulate', close(r.peakToolDeflection, native.peak_tool_deflection, 'peak'));
      note('simulate', close(r.peakLinkRotationDeg, native.peak_link_rotation_deg, 'peak rotation'));
    }
  });

  test('dynamics: inverse of forward is the identity, energy, a step, the mass matrix', () => {
    const phi = new Float64Array(16), rate = new Float64Array(16), tau = new Float64Array(16);
    phi.set(q);
    for (let i = 0; i < 16; i++) { rate[i] = 0.01 * Math.cos(i); tau[i] = Math.sin(3 * i); }
    const acc = m.flexibleForwardDynamics(phi, rate, tau);
    close(Array.from(m.flexibleInverseDynamics(phi, rate, acc)), Array.from(tau), 'inverse(forward)', 1e-9);
    const I = m.flexibleMassMatrix(phi);
    assert.equal(I.length, 16);
    for (let i = 0; i < 16; i++) for (let j = 0; j < i; j++) assert.ok(Math.abs(I[i][j] - I[j][i]) <= 1e-12 * Math.abs(I[i][i]));
    const e = m.flexibleEnergy(phi, rate);
    let kin = 0;
    for (let i = 0; i < 16; i++) for (let j = 0; j < 16; j++) kin += 0.5 * rate[i] * I[i][j] * rate[j];
    close(e, kin, 'energy (undeflected: kinetic only)', 1e-12);
    const h = m.flexibleStableStep(phi);
    assert.ok(h > 0 && h < 1);
    const s = m.flexibleStep(phi, rate, tau, h);
    assert.equal(s.phi.length, 16);
    assert.equal(m.flexibleBiasForces(phi, rate).length, 16);
    const com = m.flexibleCenterOfMass(phi);
    assert.equal(com.jacobian.length, 3);
    assert.equal(m.flexibleJacobians(phi).tool.length, 6);
    const locked = new Float64Array(16);
    assert.throws(() => m.flexibleForwardDynamics(phi, rate, tau, { lockJoints: true }), /with the joints locked their rates must be zero/);
    assert.equal(m.flexibleForwardDynamics(phi, locked, tau, { lockJoints: true }).slice(0, 6).every((a) => a === 0), true);
  });

  test('errors: wrong lengths, NaN, bad options, a model without flexible links', () => {
    assert.throws(() => m.flexibleChainModes([0, 0, 0]), /q: expected 6 values, got 3/);
    assert.throws(() => m.flexibleDeflection(new Float64Array(6)), /phi: expected 16 values, got 6/);
    assert.throws(() => m.flexibleKinematics([0, 0, 0, 0, 0, NaN, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), /phi\[5\]: must be a finite number/);
    assert.throws(() => m.flexibleStaticDeflection(q, { force: [1, 2] }), /force: expected 3 values, got 2/);
    assert.throws(() => m.flexibleChainModes(q, { baseMass: -1 }), /options.baseMass: must be positive/);
    assert.throws(() => m.flexibleSimulate(q, { load: 'ramp' }), /load: expected step, pulse or sine \(got 'ramp'\)/);
    assert.throws(() => m.flexibleSimulate(q, { load: 'sine' }), /frequency: a sine load needs a positive frequency/);
    assert.throws(() => m.flexibleSimulate(q, { joints: 'loose' }), /options.joints: must be 'locked' or 'free'/);
    assert.throws(() => m.flexibleLinkCurve(new Float64Array(16), 0), /flexibleLinkCurve: joint 0 carries no flexible link/);
    assert.throws(() => m.flexibleLinkCurve(new Float64Array(16), 1, { samples: 1 }), /options.samples: must be an integer in \[2, 100000\]/);
    const p = achain.loadModel('puma560');
    assert.equal(p.info.flexibleLinks, null);
    assert.throws(() => p.flexibleChainModes([0, 0, 0, 0, 0, 0]), /flexible chain: 'puma560' declares no flexible link/);
    assert.throws(() => p.makeFlexibleChain(), /declares no flexible link/);
    assert.throws(() => p.flexibleDeflection(new Float64Array(16)), /flexible chain: 'puma560' declares no flexible link/);
    p.dispose();
  });

  test('parity summary', () => {
    console.log(`worst relative error against the native CLI: ${JSON.stringify(worst)}`);
    for (const v of Object.values(worst)) assert.ok(v <= 1e-9);
  });
});
