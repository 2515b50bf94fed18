// MJCF export in the wasm module: model.modelToMjcf() writes the same text as the native CLI
// (`achain export --format mjcf`), with the A-pair couplings and their fit errors as warnings.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { cliPath, loadAchain } from './helpers.mjs';

const achain = await loadAchain();

describe('MJCF', () => {
  test('modelToMjcf: the native text, hinge + slide per A-pair tied by a quartic joint equality', () => {
    const m = achain.loadModel('prototype-4a');
    const { mjcf, warnings } = m.modelToMjcf();
    const native = execFileSync(cliPath, ['export', '--robot', 'prototype-4a', '--format', 'mjcf'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    // the same text, but for the fitted polycoef: the least-squares solve rounds differently in wasm
    const coef = /polycoef="([^"]*)"/g;
    assert.equal(mjcf.replace(coef, 'polycoef=""'), native.replace(coef, 'polycoef=""'));
    const nums = (t) => [...t.matchAll(coef)].flatMap((x) => x[1].split(' ').map(Number));
    const a = nums(mjcf), b = nums(native);
    assert.equal(a.length, 20);
    for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i] - b[i]) < 1e-15, `polycoef ${i}: ${a[i]} vs ${b[i]}`);
    assert.equal((mjcf.match(/type="hinge"/g) || []).length, 4);
    assert.equal((mjcf.match(/type="slide"/g) || []).length, 4);
    assert.equal((mjcf.match(/_coupling" joint1="/g) || []).length, 4);
    const fits = warnings.filter((w) => w.includes('quartic polycoef fitted'));
    assert.equal(fits.length, 4);
    for (const w of fits) {
      const err = Number(/max error ([0-9.e+-]+) m/.exec(w)[1]);
      assert.ok(err > 1e-6 && err < 1e-5, w);
    }
    m.dispose();
  });

  test('modelToMjcf refuses an A-pair without a finite range, naming the joint', () => {
    const d = achain.loadModel('prototype-4a').modelToJson();
    delete d.joints[1].limits.lower;
    delete d.joints[1].limits.upper;
    const m = achain.loadModel(d);
    assert.throws(() => m.modelToMjcf(), /joint 2 \(shoulder\).*finite position range/);
    m.dispose();
  });
});
