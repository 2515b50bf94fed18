// Design view: switching the DH convention converts the arm with the core's convertConvention (the
// tool pose, the legs and the gravity torques stay; the numbers change; undo restores), and the chain
// view hangs the tool from the link named by the description's tool.link.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, waitReady, screenshot } from './helpers.mjs';

let srv;
let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.close(); });

const P = '.view-panel[data-view="design"]';
async function open(hash) {
  const o = await openPage(browser, srv.url + hash);
  await waitReady(o.page);
  await o.page.waitForTimeout(200);
  return o;
}
const maxDiff = (a, b) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);

for (const robot of ['prototype-4a', 'puma560']) {
  test(`Design: switching ${robot} to modified DH keeps the arm where it is (core convertConvention), undo restores`, async () => {
    const q = robot === 'puma560' ? '20,-40,30,50,-60,70' : '150,120,200,100';
    const { page, errors, context } = await open(`#robot=${robot}&view=design&q=${q}`);
    try {
      const state = () => page.evaluate(() => {
        const s = window.__achain.studio;
        const m = s.model;
        const g = typeof m.gravityTorques === 'function' ? Array.from(m.gravityTorques(s.q)) : null;
        const legs = m.apairLegEndpoints(s.q).flatMap((l) => [...l.base, ...l.platform]);
        return { conv: m.info.convention, q: Array.from(s.q), tool: Array.from(s.lastFk.tool), joints: m.joints.map((j) => [j.a, j.alpha, j.d, j.thetaF]), g, legs, legCount: window.__achain.legCount };
      });
      const before = await state();
      assert.equal(before.conv, 'standard');
      await page.selectOption(`${P} .d-conv`, 'modified');
      await page.waitForTimeout(200);
      const after = await state();
      assert.equal(after.conv, 'modified');
      assert.equal(await page.locator(`${P} .d-error`).isHidden(), true);
      assert.deepEqual(after.q, before.q, 'q kept');
      assert.ok(maxDiff(after.tool, before.tool) < 1e-12, `same tool pose: ${maxDiff(after.tool, before.tool)}`);
      assert.ok(maxDiff(after.legs, before.legs) < 1e-12, 'the A-pair legs stay where they were');
      assert.equal(after.legCount, before.legCount);
      if (before.g) assert.ok(maxDiff(after.g, before.g) < 1e-9, `same gravity torques (inertials converted): ${maxDiff(after.g, before.g)}`);
      assert.ok(maxDiff(after.joints.flat(), before.joints.flat()) > 1e-3, 'the DH numbers are rewritten');
      // the same arm at other configurations too: compare with the built-in loaded afresh
      const other = await page.evaluate((robot) => {
        const s = window.__achain.studio;
        const ref = s.achain.loadModel(robot);
        let worst = 0;
        for (let k = 0; k < 5; k++) {
          const qq = Float64Array.from(s.model.joints, (j, i) => { const lo = j.lower ?? -Math.PI; const hi = j.upper ?? Math.PI; return lo + ((k + 1) / 6 + 0.07 * i) % 1 * (hi - lo); });
          const a = s.model.forwardKinematics(qq).tool; const b = ref.forwardKinematics(qq).tool;
          for (let i = 0; i < 16; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
        }
        ref.dispose();
        return worst;
      }, robot);
      assert.ok(other < 1e-12, `converted vs original at other q: ${other}`);
      assert.match(await page.locator('#status').textContent(), /modified DH/);
      if (robot === 'prototype-4a') await screenshot(page, 'design-modified-dh');
      // and back: the standard numbers return
      await page.selectOption(`${P} .d-conv`, 'standard');
      await page.waitForTimeout(200);
      const back = await state();
      assert.equal(back.conv, 'standard');
      assert.ok(maxDiff(back.joints.flat(), before.joints.flat()) < 1e-9, `round trip of the DH numbers: ${maxDiff(back.joints.flat(), before.joints.flat())}`);
      assert.ok(maxDiff(back.tool, before.tool) < 1e-12);
      // undo → modified again (one undo step per switch)
      await page.click(`${P} .d-undo`);
      await page.waitForTimeout(200);
      const undone = await state();
      assert.equal(undone.conv, 'modified');
      assert.equal(await page.locator(`${P} .d-conv`).inputValue(), 'modified');
      assert.ok(maxDiff(undone.tool, before.tool) < 1e-12);
      assert.deepEqual(errors, []);
    } finally { await context.close(); }
  });
}

test('chain view: the tool segment starts at the link named by tool.link, not at the last link', async () => {
  const { page, errors, context } = await open('#robot=prototype-4a&view=design&q=150,120,200,100');
  try {
    const measure = () => page.evaluate(() => {
      const s = window.__achain.studio;
      const fk = s.lastFk;
      const seg = s.chain.toolSeg;
      const o = (F) => [F[3], F[7], F[11]];
      const mid = (a, b) => a.map((v, i) => (v + b[i]) / 2);
      const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
      const p = [seg.position.x, seg.position.y, seg.position.z];
      const tool = o(fk.tool);
      return {
        toolLink: s.chain.toolLink,
        fromLink: fk.frames.map((F) => dist(p, mid(o(F), tool))),
        length: seg.scale.y,
      };
    });
    const last = await measure();
    assert.equal(last.toolLink, 3);
    // prototype's tool sits at the last frame's origin: a zero-length tool segment from frame 4
    // now attach a tool 0.2 m along x of link 2 (joint index 1)
    const json = await page.evaluate(() => window.__achain.studio.model.modelToJson());
    json.tool = { xyz: [0.2, 0, 0], rpy: [0, 0, 0], link: 1 };
    await page.click(`${P} .d-show`);
    await page.fill(`${P} .d-text`, JSON.stringify(json));
    await page.click(`${P} .d-apply`);
    await page.waitForTimeout(200);
    assert.equal(await page.locator(`${P} .d-error`).isHidden(), true);
    const r = await measure();
    assert.equal(r.toolLink, 1);
    assert.ok(r.fromLink[2] < 1e-6, `segment centred between link 2's origin and the tool: ${r.fromLink}`);
    assert.ok(Math.abs(r.length - 0.2) < 1e-6, `segment length = |tool offset| = ${r.length}`);
    assert.ok(r.fromLink[4] > 1e-3, 'not drawn from the last link');
    await screenshot(page, 'design-tool-on-link-2');
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});
