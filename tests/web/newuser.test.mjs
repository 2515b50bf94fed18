// The issue-7 acceptance walk, as a new user would do it, with clicks only (no scripting of the
// studio's internals to drive it): open the studio with no link state → the prototype; drag its tool
// away from the stretched 180° home pose (a singular pose); plan and plot the thesis's trapezoid with
// the defaults; compute the workspace; design a chain from scratch. Screenshots: test-results/web/walk-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, waitReady, screenshot, canvasStats } from './helpers.mjs';

let srv;
let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.close(); });

test('new user: prototype at start, drag the tool from home, thesis trapezoid, workspace, a chain from scratch', async () => {
  const { page, errors, context } = await openPage(browser, srv.url);
  try {
    await waitReady(page);
    await page.waitForTimeout(300);
    // 1. the studio opens on the prototype, Teleoperate, at a pose that is not singular (issue 18) with a
    //    one-line hint; the thesis's home pose (all 180°) is one click away
    assert.equal(await page.locator('#robot-select').inputValue(), 'prototype-4a');
    assert.equal(await page.locator('#tabs button[aria-selected="true"]').textContent(), 'Teleoperate');
    assert.equal(await page.evaluate(() => window.__achain.legCount), 24);
    await screenshot(page, 'walk-1-start');
    const hint = page.locator('.view-panel[data-view="teleop"] .start-hint');
    assert.equal(await hint.isVisible(), true);
    assert.match(await hint.textContent(), /Drag the orange ball.*Home \(H\) is the thesis pose, all joints 180°/);
    const hintBox = await hint.boundingBox();
    const lineHeight = await hint.evaluate((e) => parseFloat(getComputedStyle(e).lineHeight) || 1.4 * parseFloat(getComputedStyle(e).fontSize));
    assert.ok(hintBox.height < 4 * lineHeight, `a short hint (${hintBox.height}px)`);
    const start = await page.evaluate(() => { const a = window.__achain; return { q: a.q.map((v) => v * 180 / Math.PI), sing: a.studio.model.detectSingularities(a.studio.q).length }; });
    assert.deepEqual(start.q.map((v) => Math.round(v)), [150, 210, 150, 210]);
    assert.equal(start.sing, 0, 'the core finds the start pose regular');
    assert.doesNotMatch(await page.locator('#warnings').textContent(), /180°/);
    await page.click('.view-panel[data-view="teleop"] .home');
    assert.match(await page.locator('#readout').textContent(), /38\.657/);
    await screenshot(page, 'walk-1b-home');

    // 2. drag the gizmo's centre down the screen: from the stretched home pose the arm must bend to follow
    const tool0 = await page.evaluate(() => window.__achain.tool);
    const c = await page.evaluate(([x, y, z]) => window.__achain.screenOf(x, y, z), [tool0[3], tool0[7], tool0[11]]);
    await page.mouse.move(c.x, c.y);
    await page.mouse.down();
    for (let k = 1; k <= 20; k++) { await page.mouse.move(c.x + 2 * k, c.y + 6 * k); await page.waitForTimeout(25); }
    await page.mouse.up();
    await page.waitForTimeout(200);
    const tool1 = await page.evaluate(() => window.__achain.tool);
    const moved = Math.hypot(tool1[3] - tool0[3], tool1[7] - tool0[7], tool1[11] - tool0[11]);
    assert.ok(moved > 0.05, `the tool followed the drag from the singular home pose: moved ${moved} m`);
    assert.ok(tool1[11] < tool0[11] - 0.03, 'it went down with the mouse');
    assert.match(await page.locator('.ik-status').textContent(), /^(ok|unreachable|limits) ·/);
    await screenshot(page, 'walk-2-dragged');

    // 3. Motion: the defaults are the thesis's trapezoid; one click plans and plots it
    await page.click('#tabs button[data-view="motion"]');
    await page.click('.view-panel[data-view="motion"] .m-plan');
    await page.waitForTimeout(400);
    const summary = await page.locator('.view-panel[data-view="motion"] .m-summary').textContent();
    assert.match(summary, /trapezoid.*duration 1\.5833 s/s);
    assert.ok(await page.locator('[data-testid="motion-plots"] .uplot').count() >= 5);
    const key = await page.locator('[data-testid="motion-plots"] .plot-key').textContent();
    assert.match(key, /q1 waist.*q2 shoulder.*q3 elbow.*q4 wrist/, 'the plots say which colour is which joint');
    await page.waitForTimeout(1800); // the animation plays to the end: every joint at 300°
    const qEnd = await page.evaluate(() => window.__achain.q.map((v) => (v * 180) / Math.PI));
    assert.ok(qEnd.every((v) => Math.abs(v - 300) < 1e-6), `arm at the goal: ${qEnd}`);
    await screenshot(page, 'walk-3-motion');

    // 4. Workspace: Compute with the defaults (the thesis's 0.5 in voxels)
    await page.click('#tabs button[data-view="workspace"]');
    await page.click('.view-panel[data-view="workspace"] .w-run');
    await page.waitForFunction(() => window.__achain.views.workspace.result, null, { timeout: 60000 });
    const vox = await page.evaluate(() => window.__achain.views.workspace.result.count);
    assert.ok(vox > 400000, `voxels ${vox}`);
    assert.match(await page.locator('.view-panel[data-view="workspace"] .w-result').textContent(), /prototype-4a/);
    // the colour key names only what is drawn: one cloud, no A-vs-R sets
    const W = '.view-panel[data-view="workspace"]';
    assert.equal(await page.locator(`${W} .w-labA`).textContent(), 'workspace');
    assert.equal(await page.locator(`${W} .w-showS`).isVisible(), false);
    assert.equal(await page.locator(`${W} .w-showB`).isVisible(), false);
    await screenshot(page, 'walk-4-workspace');

    // 5. Design: a new chain, add two joints, change a length, then move it with a slider
    await page.click('#tabs button[data-view="design"]');
    const D = '.view-panel[data-view="design"]';
    await page.click(`${D} .d-new`);
    await page.selectOption(`${D} .d-addkind`, 'R');
    await page.click(`${D} .d-add`);
    await page.selectOption(`${D} .d-addkind`, 'A');
    await page.click(`${D} .d-add`);
    const a2 = page.locator(`${D} input[data-joint="1"][data-field="alpha"]`);
    await a2.fill('90');
    await a2.press('Enter');
    await page.waitForTimeout(200);
    assert.equal(await page.evaluate(() => window.__achain.studio.model.joints.map((j) => j.kind).join('')), 'RRA');
    // "Fit view" frames the new chain: its reach sets the drawing scale, the tool is well inside the canvas
    await page.click(`${D} .d-fit`);
    await page.waitForTimeout(200);
    const fit = await page.evaluate(() => {
      const s = window.__achain.studio;
      const t = window.__achain.tool;
      const p = window.__achain.screenOf(t[3], t[7], t[11]);
      const r = s.viewport.canvas.getBoundingClientRect();
      return { size: s.size, u: (p.x - r.left) / r.width, v: (p.y - r.top) / r.height };
    });
    assert.ok(fit.size < 0.9, `scale from the new chain's reach, not the prototype's: ${fit.size} m`);
    assert.ok(fit.u > 0.1 && fit.u < 0.9 && fit.v > 0.1 && fit.v < 0.9, `tool inside the view: ${JSON.stringify(fit)}`);
    await screenshot(page, 'walk-5-design');
    await page.click('#tabs button[data-view="teleop"]');
    const before = await page.evaluate(() => window.__achain.tool);
    const s1 = page.locator('.view-panel[data-view="teleop"] .sliders input[type=range][data-joint="0"]');
    const box = await s1.boundingBox();
    await page.mouse.click(box.x + box.width * 0.8, box.y + box.height / 2);
    await page.waitForTimeout(200);
    const after = await page.evaluate(() => window.__achain.tool);
    assert.ok(Math.hypot(after[3] - before[3], after[7] - before[7]) > 0.05, 'the slider turns the new chain');
    const st = await canvasStats(page, '#viewport canvas');
    assert.ok(st.nonBackground / st.total > 0.01);
    await screenshot(page, 'walk-6-new-chain-teleop');
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});
