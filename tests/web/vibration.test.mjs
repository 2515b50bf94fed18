// The Vibration view (issue 13's studio item): the prototype opens with its derived drive (read by the core from
// core/robots/variants/prototype-4a-drive.json), the modes table shows the core's first locked-motor frequencies at
// the current pose, a mode animates on the arm, and the thesis trapezoid is checked unshaped, with ZV and with ZVD
// in a Web Worker: the residual tip vibration falls ZVD < ZV < unshaped, as docs/flexible.md's table says
// (2.58, 0.272, 0.152 mm). The rigid PUMA's poles and Bode plot at the pose are the core's linearisation. Bad
// stiffness input is refused with a clear message. Screenshots: test-results/web/vibration-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, waitReady, screenshot } from './helpers.mjs';

let srv;
let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.close(); });

const P = '.view-panel[data-view="vibration"]';
const D = '[data-testid="vibration-plots"]';  // the plot dock under the arm: the check's table and plots

test('Vibration: the prototype\'s modes, a mode animation, and the thesis trapezoid checked unshaped / ZV / ZVD', { timeout: 120000 }, async () => {
  const { page, errors, context } = await openPage(browser, `${srv.url}#robot=prototype-4a&q=150,210,150,210&view=vibration`);
  try {
    await waitReady(page);
    await page.waitForSelector(`${P} .v-mode-table`);
    assert.match(await page.locator(`${P} .v-source`).innerText(), /the robot file's drive variant \(5354 N·m\/rad\) from core\/robots\/variants\/prototype-4a-drive\.json/);
    assert.equal(await page.locator(`${P} .v-k`).inputValue(), '5353.63');
    // the table's frequencies are the core's at the pose (to the displayed precision)
    const shown = (await page.locator(`${P} .v-mode-table .v-hz`).allInnerTexts()).map(Number);
    const core = await page.evaluate(() => {
      const a = window.__achain;
      const drive = a.achain.jointFlexibilityFromJsonString(a.views.vibration.constructor.prototypeDriveText);
      return Array.from(a.studio.model.jointFlexibilityModes(a.studio.q, { stiffness: drive.stiffness }).frequencyHz);
    });
    assert.equal(shown.length, 4);
    assert.deepEqual(shown, core.map((v) => Number(v.toFixed(2))));
    assert.ok(shown[0] > 5 && shown[0] < 7, `first mode ${shown[0]} Hz`);  // docs/flexible.md: 5.91–6.68 Hz along the path
    await page.waitForSelector('[data-testid="vibration-sweep"] canvas');
    await screenshot(page, 'vibration-modes');
    await screenshot(page, 'vibration-sweep', { locator: page.locator(`${P} .v-sweep-plot`) });

    // mode animation: the arm moves about the pose and comes back when stopped
    const q0 = await page.evaluate(() => window.__achain.q);
    await page.locator(`${P} .v-anim[data-mode="0"]`).click();
    await page.waitForTimeout(400);
    const qa = await page.evaluate(() => window.__achain.q);
    assert.ok(qa.some((v, i) => Math.abs(v - q0[i]) > 1e-3), 'the mode animation moves the arm');
    await screenshot(page, 'vibration-animation');
    await page.locator(`${P} .v-anim[data-mode="0"]`).click();
    assert.deepEqual(await page.evaluate(() => window.__achain.q), q0);

    // the thesis trapezoid, unshaped / ZV / ZVD, in the worker
    assert.match(await page.locator(`${P} .v-move-hint`).innerText(), /thesis trapezoid: \(60\.0, 60\.0, 60\.0, 60\.0\) → \(300\.0, 300\.0, 300\.0, 300\.0\) °/);
    const t0 = Date.now();
    await page.locator(`${P} .v-check`).click();
    assert.match(await page.locator(`${P} .v-status`).innerText(), /checking…|checked/);
    await page.waitForSelector(`${D} .v-check-table`, { timeout: 60000 });
    const wall = Date.now() - t0;
    const timing = await page.evaluate(() => window.__achain.views.vibration.timing);
    console.log(`# trajectory check in the browser worker: ${timing.core.toFixed(0)} ms in the core, ${wall} ms from the click`);
    const residual = {};
    for (const s of ['none', 'zv', 'zvd']) residual[s] = Number(await page.locator(`${D} tr[data-shaper="${s}"] .v-residual`).innerText());
    assert.deepEqual(residual, { none: 2.581, zv: 0.273, zvd: 0.152 });  // mm, docs/flexible.md
    assert.ok(residual.zvd < residual.zv && residual.zv < residual.none);
    assert.match(await page.locator(`${D} .v-results`).innerText(), /5\.91–6\.68 Hz/);
    await page.waitForSelector('[data-testid="vibration-tip-error"] canvas');
    await page.waitForSelector('[data-testid="vibration-path-frequency"] canvas');
    const traces = await page.evaluate(() => window.__achain.views.vibration.result.results.map((r) => r.trace.t.length));
    assert.deepEqual(traces, [601, 601, 601]);
    await screenshot(page, 'vibration-check');

    // bad input: the core's message, no stale table
    await page.fill(`${P} .v-k`, '0');
    await page.locator(`${P} .v-k`).dispatchEvent('change');
    assert.match(await page.locator(`${P} .v-error`).innerText(), /stiffness\[0\] \(joint 'waist'\).*positive/);
    assert.equal(await page.locator(`${P} .v-mode-table`).count(), 0);
    assert.equal(await page.locator(D).isVisible(), false, 'no stale plots or table');
    assert.equal(await page.locator(`${P} .v-status`).innerText(), '');
    await page.fill(`${P} .v-k`, '5000, abc');
    await page.locator(`${P} .v-k`).dispatchEvent('change');
    assert.match(await page.locator(`${P} .v-error`).innerText(), /stiffness: 'abc' is not a number/);
    await page.locator(`${P} .v-check`).click();
    assert.match(await page.locator(`${P} .v-error`).innerText(), /stiffness: 'abc' is not a number/);
    await screenshot(page, 'vibration-error');
    await page.locator(`${P} .v-reset`).click();
    assert.equal(await page.locator(`${P} .v-error`).isVisible(), false);
    assert.equal(await page.locator(`${P} .v-mode-table .v-hz`).count(), 4);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('Vibration: the rigid arm\'s poles at the current pose are the core\'s linearisation (PUMA 560 at qn)', { timeout: 60000 }, async () => {
  const { page, errors, context } = await openPage(browser, `${srv.url}#robot=puma560&q=0,45,180,0,45,0&view=vibration`);
  try {
    await waitReady(page);
    await page.waitForSelector(`${P} .v-pole-table`);
    const read = async () => {
      const re = (await page.locator(`${P} .v-pole-re`).allInnerTexts()).map(Number);
      const im = (await page.locator(`${P} .v-pole-im`).allInnerTexts()).map(Number);
      return re.map((r, k) => [r, im[k]]);
    };
    const poles = await read();
    assert.equal(poles.length, 12);
    // docs/dynamics.md (achain linearize --robot puma560 --q 0,45,180,0,45,0 --deg --motors): ±2.476, ±0.2709, ±2.664i
    // and six at 0
    const has = (re, im) => poles.some(([a, b]) => Math.abs(a - re) < 6e-4 && Math.abs(b - im) < 6e-4);
    for (const [re, im] of [[2.476, 0], [-2.476, 0], [0.2709, 0], [-0.2709, 0], [0, 2.664], [0, -2.664]]) assert.ok(has(re, im), `pole ${re} ${im}i in ${poles}`);
    assert.equal(poles.filter(([a, b]) => a === 0 && b === 0).length, 6);
    await screenshot(page, 'vibration-poles', { locator: page.locator(`${P} .v-lin`) });
    // the Bode plot of the first joint (τ1 → q1): its data are the core's frequency response at the pose, ω in Hz
    await page.waitForSelector('[data-testid="vibration-bode"] canvas');
    assert.equal(await page.locator(`${P} .v-bode-joint`).inputValue(), '0');
    const bode = () => page.evaluate(() => {
      const a = window.__achain;
      const v = a.views.vibration;
      const m = a.studio.model;
      const zero = new Float64Array(m.dof);
      const core = m.frequencyResponse(a.studio.q, zero, zero, { input: v.bode.joint, motors: v.$('.v-lin-motors').checked });
      return {
        joint: v.bode.joint, plot: v.bodePlot.data.map((s) => Array.from(s)), omega: Array.from(core.omega),
        db: Array.from(core.magnitudeDb), phase: Array.from(core.phaseDeg), poles: Array.from(core.poleFrequencies),
        log: v.bodePlot.scales.x.distr,
      };
    });
    const checkBode = (b, joint) => {
      assert.equal(b.joint, joint);
      assert.equal(b.log, 3, 'log frequency axis');
      assert.equal(b.plot[0].length, 200);
      assert.deepEqual(b.plot[0], b.omega.map((w) => w / (2 * Math.PI)));
      assert.deepEqual(b.plot[1], b.db);
      assert.deepEqual(b.plot[2], b.phase);
      // the grid spans 0.1× the smallest to 10× the largest nonzero |pole| (0.2709 … at qn with the rotor inertia)
      assert.ok(Math.abs(b.omega[0] - 0.1 * b.poles[0]) < 1e-12 * b.poles[0]);
      assert.ok(Math.abs(b.omega[199] - 10 * b.poles[b.poles.length - 1]) < 1e-9 * b.poles[b.poles.length - 1]);
      for (let k = 1; k < b.phase.length; k++) assert.ok(Math.abs(b.phase[k] - b.phase[k - 1]) <= 180);
    };
    const b1 = await bode();
    checkBode(b1, 0);
    assert.ok(b1.poles.some((w) => Math.abs(w - 0.2709) < 6e-4), `|pole| 0.2709 in ${b1.poles}`);
    await screenshot(page, 'vibration-bode', { locator: page.locator(`${P} .v-bode-plot`) });
    // another joint
    await page.locator(`${P} .v-bode-joint`).selectOption('2');
    const b3 = await bode();
    checkBode(b3, 2);
    assert.notDeepEqual(b3.plot[1], b1.plot[1]);
    await screenshot(page, 'vibration-bode-q3', { locator: page.locator(`${P} .v-bode-plot`) });
    // without the rotor inertia the arm is lighter at the motors: the unstable pair moves
    await page.locator(`${P} .v-lin-motors`).uncheck();
    const light = await read();
    assert.ok(!light.some(([a, b]) => Math.abs(a - 2.476) < 6e-4 && b === 0), 'the poles change without rotor inertia');
    // a new pose, new poles, a new Bode plot (still the chosen joint)
    const before = await bode();
    await page.evaluate(() => window.__achain.studio.setQ(Float64Array.from([0, 0, 0, 0, 0, 0])));
    assert.notDeepEqual(await read(), light);
    const after = await bode();
    checkBode(after, 2);
    assert.notDeepEqual(after.plot[1], before.plot[1]);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('Vibration: a closed chain (five-bar) lists its own poles in its coordinates y, the core\'s linearizeClosedChain', { timeout: 60000 }, async () => {
  const { page, errors, context } = await openPage(browser, `${srv.url}#robot=five-bar&view=vibration`);
  try {
    await waitReady(page);
    await page.waitForSelector(`${P} .v-pole-table`);
    // y = (q1, θz): four poles (not the open chain's eight)
    const shown = (await page.locator(`${P} .v-pole-re`).allInnerTexts()).length;
    assert.equal(shown, 4);
    assert.match(await page.locator(`${P} .v-lin-which`).innerText(), /Closed chain: poles in its own coordinates y/);
    const core = await page.evaluate(() => {
      const a = window.__achain;
      const m = a.studio.model;
      const ny = m.closedChainCoordinates(a.studio.q).length;
      return m.linearizeClosedChain(a.studio.q, new Float64Array(ny), new Float64Array(ny), { motors: true }).poles;
    });
    const re = (await page.locator(`${P} .v-pole-re`).allInnerTexts()).map(Number);
    core.forEach((p, k) => assert.ok(Math.abs(re[k] - p.re) <= 5e-4 * Math.max(1, Math.abs(p.re)), `pole ${k}: ${re[k]} vs ${p.re}`));
    assert.match(await page.locator(`${P} .v-bode-plot`).innerText(), /No Bode plot for a closed chain/);
    // no joint selector for a plot that is not there (it was shown above the message before)
    assert.equal(await page.locator(`${P} .v-bode-row`).isHidden(), true);
    await screenshot(page, 'vibration-five-bar-poles', { locator: page.locator(`${P} .v-lin`) });
    // another robot in the same view: the selector and the plot come back
    await page.evaluate(() => window.__achain.setRobot('puma560'));
    await page.waitForSelector(`${P} .v-bode-row:not([hidden])`);
    await page.waitForSelector('[data-testid="vibration-bode"] canvas');
    assert.equal(await page.locator(`${P} .v-lin-which`).innerText(), '');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('Vibration: a robot without drives asks for a stiffness; free motors list the flexible modes', { timeout: 60000 }, async () => {
  const { page, errors, context } = await openPage(browser, `${srv.url}#robot=puma560&view=vibration`);
  try {
    await waitReady(page);
    await page.waitForSelector(`${P} .v-error:not([hidden])`);
    assert.match(await page.locator(`${P} .v-source`).innerText(), /puma560 declares no joint drives: type a stiffness/);
    assert.match(await page.locator(`${P} .v-error`).innerText(), /stiffness: type one number/);
    assert.equal(await page.locator(`${P} .v-free`).isDisabled(), true);
    await page.fill(`${P} .v-k`, '20000');
    await page.locator(`${P} .v-k`).dispatchEvent('change');
    await page.waitForSelector(`${P} .v-mode-table`);
    assert.equal(await page.locator(`${P} .v-mode-table .v-hz`).count(), 6);
    assert.equal(await page.locator(`${P} .v-error`).isVisible(), false);
    // the prototype's drive has motor inertias: free motors give n flexible modes (the rigid ones not listed)
    await page.evaluate(() => { window.__achain.setRobot('prototype-4a'); });  // (not returning the model: Playwright would serialise it)
    await page.waitForFunction(() => window.__achain.robot === 'prototype-4a');
    await page.locator(`${P} .v-free`).check();
    await page.waitForFunction((sel) => document.querySelector(sel)?.innerText.includes('Motors free'), `${P} .v-modes`);
    assert.equal(await page.locator(`${P} .v-mode-table .v-hz`).count(), 4);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('Vibration: a robot with flexible links (space-arm) lists the coupled modes, bends its links in a mode and under a tool force', { timeout: 60000 }, async () => {
  const { page, errors, context } = await openPage(browser, `${srv.url}#robot=space-arm&view=vibration`);
  const F = '[data-testid="flexible-links"]';
  try {
    await waitReady(page);
    await page.waitForSelector(`${F} .fl-mode-table`);
    // the table is the core's flexibleChainModes at the pose, and the same as `achain flex-modes` (tests/wasm)
    const shown = (await page.locator(`${F} .fl-hz`).allInnerTexts()).map(Number);
    const core = await page.evaluate(() => Array.from(window.__achain.studio.model.flexibleChainModes(window.__achain.studio.q).frequencyHz));
    assert.equal(shown.length, 10);
    assert.deepEqual(shown, core.map((v) => Number(v.toFixed(3))));
    assert.ok(Math.abs(shown[0] - 1.718) < 2e-3, `first coupled mode ${shown[0]} Hz (docs/flexible.md: 1.718 Hz at configuration #1)`);
    // ▶ mode 1: the links are drawn bent, from the core's curve
    await page.locator(`${F} .fl-anim[data-mode="0"]`).click();
    await page.waitForTimeout(500);
    const bent = await page.evaluate(() => {
      const p = window.__achain.views.vibration.flexibleLinks;
      let big = 0;
      for (const c of p.links.curves) for (let i = 0; i < c.rigid.length; i++) big = Math.max(big, Math.abs(c.deflected[i] - c.rigid[i]));
      return { curves: p.links.curves.length, big, inScene: !!window.__achain.studio.viewport.world.getObjectByName('achain-flexible-links') };
    });
    assert.equal(bent.curves, 2);
    assert.ok(bent.inScene, 'the deflected links are in the scene');
    assert.ok(bent.big > 0, `the animated mode bends the links (${bent.big} m)`);
    await screenshot(page, 'vibration-flexible-mode');
    // static deflection under 1 kN down at the tool: the readout is the core's
    await page.locator(`${F} .fl-static`).click();
    const text = await page.locator(`${F} [data-testid="flexible-static"]`).innerText();
    const mm = await page.evaluate(() => {
      const s = window.__achain.studio;
      return s.model.flexibleStaticDeflection(s.q, { force: [0, 0, -1000] }).deflection.toolPositionError * 1e3;
    });
    assert.match(text, new RegExp(`tool displaced ${mm.toFixed(2)} mm`));
    assert.match(text, /below the 3° small-angle limit|above 3°|above 5°/);
    await screenshot(page, 'vibration-flexible-static');
    // a robot without flexible links: the panel and the drawing go away
    await page.evaluate(() => { window.__achain.setRobot('prototype-4a'); });
    await page.waitForFunction(() => window.__achain.robot === 'prototype-4a');
    await page.waitForSelector(`${F}[hidden]`, { state: 'attached' });
    assert.equal(await page.evaluate(() => !!window.__achain.studio.viewport.world.getObjectByName('achain-flexible-links')), false);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
