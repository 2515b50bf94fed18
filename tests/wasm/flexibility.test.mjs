// Lumped joint flexibility in the wasm module (wasm/js/flexibility.mjs → core/dynamics/joint_flexibility,
// core/trajectory/flex_check): the drive blocks of core/robots/variants/prototype-4a-drive.json, the natural modes
// (locked and free motors) and the check of the thesis trapezoid with and without ZV / ZVD shaping, each against
// the native CLI (`achain modes`, `achain flex-check`) to 1e-9 relative; the opt-in trace; the errors.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { cli, loadAchain, root } from './helpers.mjs';

const achain = await loadAchain();
const deg = Math.PI / 180;
const variantPath = path.join(root, 'core/robots/variants/prototype-4a-drive.json');
const variant = fs.readFileSync(variantPath, 'utf8');
const FROM = [60, 60, 60, 60].map((v) => v * deg), TO = [300, 300, 300, 300].map((v) => v * deg);

/** |a − b| ≤ tol·max(|a|, |b|) for numbers; for vectors relative to their largest entry. */
function close(a, b, what, tol = 1e-9) {
  if (typeof a === 'number') {
    assert.ok(Math.abs(a - b) <= tol * Math.max(Math.abs(a), Math.abs(b)), `${what}: ${a} vs ${b}`);
    return;
  }
  assert.equal(a.length, b.length, `${what}: length`);
  let scale = 0;
  for (let i = 0; i < a.length; i++) scale = Math.max(scale, Math.abs(a[i]), Math.abs(b[i]));
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i] - b[i]) <= tol * scale, `${what}[${i}]: ${a[i]} vs ${b[i]}`);
}

const list = (v) => Array.from(v, String).join(',');

describe('joint flexibility (prototype with the derived drive)', () => {
  const m = achain.loadModel(variant);

  test('the drive blocks: model.info.drives, jointFlexibility(), jointFlexibilityFromJsonString and the CLI agree', () => {
    const f = m.jointFlexibility();
    const g = achain.jointFlexibilityFromJsonString(variant);
    assert.deepEqual(Array.from(f.stiffness), Array.from(g.stiffness));
    assert.deepEqual(Array.from(f.damping), Array.from(g.damping));
    assert.deepEqual(Array.from(f.motorInertia), Array.from(g.motorInertia));
    assert.deepEqual(m.info.drives.stiffness, Array.from(f.stiffness));
    const native = cli('flex-check', '--robot', variantPath, '--from', '60,60,60,60', '--to', '300,300,300,300', '--deg', '--shaper', 'none');
    close(f.stiffness, native.stiffness, 'stiffness', 1e-15);
    close(f.damping, native.damping, 'damping', 1e-15);
    assert.ok(Math.abs(f.stiffness[0] - 5354) < 1, `stiffness ${f.stiffness[0]} N·m/rad`);  // docs/flexible.md: 5354 N·m/rad
    assert.ok(f.motorInertia.every((J) => J > 0));
    // the built-in prototype declares no drives
    const p = achain.loadModel('prototype-4a');
    assert.equal(p.info.drives, null);
    assert.equal(p.jointFlexibility(), null);
    p.dispose();
  });

  test('jointFlexibilityModes (locked and free motors) equal `achain modes` to 1e-9', () => {
    const f = m.jointFlexibility();
    const qDeg = [150, 210, 150, 210];
    const q = qDeg.map((v) => v * deg);
    for (const motor of ['locked', 'free']) {
      const args = ['modes', '--robot', variantPath, '--deg', '--q', qDeg.join(','), '--joint-stiffness', list(f.stiffness), '--motor', motor];
      if (motor === 'free') args.push('--motor-inertia', list(f.motorInertia));
      const native = cli(...args);
      const r = m.jointFlexibilityModes(q, { motor });  // stiffness and motor inertia from the file's drives
      assert.equal(r.motor, motor);
      assert.equal(r.omega.length, motor === 'free' ? 8 : 4);
      close(r.omega.slice(motor === 'free' ? 4 : 0), native.modes.slice(motor === 'free' ? 4 : 0).map((x) => x.omega), `${motor} omega`);
      close(r.frequencyHz.slice(motor === 'free' ? 4 : 0), native.modes.slice(motor === 'free' ? 4 : 0).map((x) => x.frequency_hz), `${motor} Hz`);
      for (let k = motor === 'free' ? 4 : 0; k < r.shapes.length; k++) close(r.shapes[k], native.modes[k].shape, `${motor} shape ${k}`);
    }
    // explicit stiffness on a model without drives gives the same modes
    const p = achain.loadModel('prototype-4a');
    const r = p.jointFlexibilityModes(q, { stiffness: f.stiffness });
    close(r.omega, m.jointFlexibilityModes(q).omega, 'explicit stiffness', 1e-15);
    // a uniform stiffness may be one number
    close(p.jointFlexibilityModes(q, { stiffness: f.stiffness[0] }).omega, r.omega, 'one number', 1e-15);
    p.dispose();
  });

  test('checkFlexibleTrajectory of the thesis trapezoid equals `achain flex-check` to 1e-9 (unshaped, ZV, ZVD)', () => {
    let t0 = performance.now();
    const native = cli('flex-check', '--robot', variantPath, '--from', '60,60,60,60', '--to', '300,300,300,300', '--deg');
    const tNative = performance.now() - t0;
    t0 = performance.now();
    const r = m.checkFlexibleTrajectory(FROM, TO);
    const tWasm = performance.now() - t0;
    console.log(`# flex-check of the thesis trapezoid (3 runs): native CLI ${tNative.toFixed(0)} ms (process), wasm ${tWasm.toFixed(0)} ms`);
    assert.equal(r.plan.profile, native.plan.profile);
    close(r.plan.duration, native.plan.duration, 'plan duration');
    close(r.firstFrequency.t, native.first_frequency_hz.t, 'frequency t');
    close(r.firstFrequency.hz, native.first_frequency_hz.hz, 'first Hz');
    for (const k of ['min', 'max', 'end']) close(r.firstFrequency[k], native.first_frequency_hz[k], `first Hz ${k}`);
    close(r.firstDampingRatioEnd, native.first_damping_ratio_end, 'damping ratio');
    close(r.highestHz, native.highest_frequency_hz, 'highest Hz');
    close(r.shaperFrequencyHz, native.shaper_frequency_hz, 'shaper Hz');
    close(r.shaperDampingRatio, native.shaper_damping_ratio, 'shaper zeta');
    assert.deepEqual(r.results.map((x) => x.shaper), ['none', 'zv', 'zvd']);
    const keys = [['duration', 'duration'], ['bandwidthHz', 'bandwidth_hz'], ['bandwidthRatio', 'bandwidth_ratio'],
      ['peakTipError', 'peak_tip_error_m'], ['peakTipErrorTime', 'peak_tip_error_time'], ['peakDeflection', 'peak_deflection'],
      ['staticTipSag', 'static_tip_sag_m'], ['residualTipVibration', 'residual_tip_vibration_m'],
      ['residualDeflection', 'residual_deflection'], ['settle', 'settle'], ['dt', 'dt'], ['residualReduction', 'residual_reduction']];
    let worst = 0;
    r.results.forEach((row, i) => {
      const n = native.results[i];
      for (const [a, b] of keys) {
        close(row[a], n[b], `${row.shaper} ${a}`);
        if (n[b] !== 0) worst = Math.max(worst, Math.abs(row[a] - n[b]) / Math.abs(n[b]));
      }
      assert.equal(row.steps, n.steps);
      if (i > 0) {
        close(row.impulses.amplitude, n.impulses.amplitude, `${row.shaper} amplitudes`);
        close(row.impulses.time, n.impulses.time, `${row.shaper} times`);
      } else assert.equal(row.impulses, null);
      assert.equal(row.trace.t.length, 0);  // no trace unless asked for
    });
    console.log(`# largest relative difference wasm vs native over the result rows: ${worst.toExponential(2)}`);
    // docs/flexible.md's table: residual 2.58 mm unshaped, 0.272 mm ZV, 0.152 mm ZVD; first Hz 5.91–6.68
    const mm = r.results.map((x) => x.residualTipVibration * 1e3);
    [2.58, 0.272, 0.152].forEach((want, i) => assert.ok(Math.abs(mm[i] / want - 1) < 5e-3, `${r.results[i].shaper}: ${mm[i]} mm vs ${want}`));
    assert.equal(r.firstFrequency.min.toFixed(2), '5.91');
    assert.equal(r.firstFrequency.max.toFixed(2), '6.68');
    assert.ok(mm[2] < mm[1] && mm[1] < mm[0]);
  });

  test('the trace: its maximum is the peak tip error within sampling; the other results do not change', () => {
    const plain = m.checkFlexibleTrajectory(FROM, TO, { shaper: 'zv' });
    const r = m.checkFlexibleTrajectory(FROM, TO, { shaper: 'zv', traceSamples: 400 });
    const row = r.results[0], base = plain.results[0];
    assert.equal(r.results.length, 1);
    assert.equal(row.shaper, 'zv');
    assert.equal(row.peakTipError, base.peakTipError);
    assert.equal(row.residualTipVibration, base.residualTipVibration);
    const n = row.trace.t.length;
    assert.equal(n, 401);  // steps round(j·steps/400), j = 0…400
    assert.equal(row.trace.tipError.length, n);
    assert.equal(row.trace.deflection.length, n);
    assert.equal(row.trace.t[0], 0);
    close(row.trace.t[n - 1], row.steps * row.dt, 'last trace time', 1e-12);
    const peak = Math.max(...row.trace.tipError);
    assert.ok(peak <= row.peakTipError && peak >= 0.97 * row.peakTipError, `trace max ${peak} vs peak ${row.peakTipError}`);
    assert.ok(Math.max(...row.trace.deflection) <= row.peakDeflection);
  });

  test('makeShaper and accelerationBandwidth', () => {
    const w = 2 * Math.PI * 6;
    const zv = achain.makeShaper('zv', w, 0);
    assert.equal(zv.kind, 'zv');
    close(zv.amplitude, [0.5, 0.5], 'undamped ZV amplitudes', 1e-15);
    close(zv.time, [0, Math.PI / w], 'ZV times', 1e-15);
    const zvd = achain.makeShaper('zvd', w, 0.05);
    assert.equal(zvd.amplitude.length, 3);
    close(zvd.amplitude.reduce((a, b) => a + b, 0), 1, 'ZVD sum', 1e-15);
    const none = achain.makeShaper('none', w);
    assert.deepEqual([Array.from(none.amplitude), Array.from(none.time)], [[1], [0]]);
    const r = m.checkFlexibleTrajectory(FROM, TO, { shaper: 'none' });
    close(m.accelerationBandwidth(FROM, TO), r.results[0].bandwidthHz, 'bandwidth', 1e-15);
  });

  test('bad input is a clear Error', () => {
    const q = [150 * deg, 210 * deg, 150 * deg, 210 * deg];
    assert.throws(() => m.jointFlexibilityModes(q, { stiffness: 0 }), /stiffness\[0\].*waist.*positive/);
    assert.throws(() => m.jointFlexibilityModes(q, { stiffness: [1, 2, 3] }), /options\.stiffness: expected 4 values, got 3/);
    assert.throws(() => m.jointFlexibilityModes(q, { stiffness: [1, 2, NaN, 4] }), /options\.stiffness\[2\]: must be a finite number/);
    assert.throws(() => m.jointFlexibilityModes(q, { motor: 'loose' }), /motor side: expected locked or free/);
    assert.throws(() => m.checkJointFlexibility({ damping: -1 }), /damping\[0\].*zero or positive/);
    assert.doesNotThrow(() => m.checkJointFlexibility({}, { needMotorInertia: true }));
    assert.throws(() => m.checkFlexibleTrajectory(FROM, TO, { shaper: 'zvdd' }), /shaper: expected none, zv or zvd/);
    assert.throws(() => m.checkFlexibleTrajectory(FROM, TO, { stiffness: -5 }), /stiffness\[0\].*positive/);
    assert.throws(() => m.checkFlexibleTrajectory(FROM, TO, { samples: 1 }), /options\.samples: must be an integer in \[2, 10000\]/);
    assert.throws(() => m.checkFlexibleTrajectory(FROM, [1, 2], {}), /to: expected 4 values, got 2/);
    assert.throws(() => achain.makeShaper('zv', 0, 0), /shaper frequency: must be positive/);
    assert.throws(() => achain.makeShaper('zv', 10, 1), /damping ratio: must be in \[0, 1\)/);
    assert.throws(() => achain.makeShaper('zx', 10, 0), /shaper: expected none, zv or zvd/);
    const p = achain.loadModel('prototype-4a');
    assert.throws(() => p.jointFlexibilityModes(q), /options\.stiffness: required \('prototype-4a' declares no joint drives/);
    assert.throws(() => p.jointFlexibilityModes(q, { stiffness: 5000, motor: 'free' }), /options\.motorInertia: required with motor 'free'/);
    assert.throws(() => p.checkFlexibleTrajectory(FROM, TO), /options\.stiffness: required/);
    assert.throws(() => achain.jointFlexibilityFromJsonString(achain.builtinRobotFile('prototype-4a')), /no drive section/);
    assert.throws(() => achain.jointFlexibilityFromJsonString(variant.replace('"stiffness": 827.0', '"stiffness": 0')), /joints\[0\]\.drive\.stiffness: must be positive/);
    p.dispose();
  });
});
