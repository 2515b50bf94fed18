// Issue 32, item 7: the camera frames what is drawn. <achain-viewer robot="puma560" q="0,-30,-60,0,45,0"> showed an
// almost empty grid (the camera aimed at the upright arm's reach sphere, not at the posed arm); Solve all's ghost
// arms ran off-screen (the camera stayed where it was). Now the viewer frames the posed arm, and Solve all brings
// the camera back when a ghost is out of the picture. Screenshots: test-results/web/framing-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, waitReady, screenshot } from './helpers.mjs';

let srv;
let browser;
before(async () => { [srv, browser] = await Promise.all([serveDist(), launch()]); });
after(async () => { await browser?.close(); await srv?.close(); });

test('<achain-viewer robot="puma560" q="0,-30,-60,0,45,0">: the posed arm fills the picture', async () => {
  const { page, errors, context } = await openPage(browser, `${srv.url}tutorials/index.html`, { width: 900, height: 700 });
  try {
    await page.setContent(`<!doctype html><html><head><link rel="icon" href="data:,"><script type="module" src="${srv.url}achain-viewer.js"></script></head>
      <body style="margin:0"><achain-viewer id="v" robot="puma560" q="0,-30,-60,0,45,0" height="400px"></achain-viewer></body></html>`);
    await page.waitForFunction(() => document.getElementById('v')?.model, null, { timeout: 30000 });
    await page.waitForTimeout(300);
    const extent = () => page.evaluate(() => { const vp = document.getElementById('v').viewport; const e = vp.ndcExtent(vp.visibleBox()); return [e.x0, e.x1, e.y0, e.y1]; });
    const e = await extent();
    await screenshot(page, 'framing-viewer-puma-posed');
    assert.ok(e[0] >= -1 && e[1] <= 1 && e[2] >= -1 && e[3] <= 1, `the arm is inside the picture: ${e.map((x) => x.toFixed(2))}`);
    assert.ok(Math.max(e[1] - e[0], e[3] - e[2]) > 1.0, `and fills at least half of it: ${e.map((x) => x.toFixed(2))}`);
    // a new pose far from the framed one brings the camera along
    await page.evaluate(() => new Promise((resolve) => { document.getElementById('v').setAttribute('q', '90,-90,0,0,0,0'); setTimeout(resolve, 200); }));
    const e2 = await extent();
    assert.ok(e2[0] >= -1 && e2[1] <= 1 && e2[2] >= -1 && e2[3] <= 1, `the new pose is inside the picture: ${e2.map((x) => x.toFixed(2))}`);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('Solve all: ghost arms out of the picture bring the camera back to all of them', { timeout: 60000 }, async () => {
  const { page, errors, context } = await openPage(browser, `${srv.url}#robot=puma560&view=teleop`, { width: 1280, height: 800 });
  try {
    await waitReady(page);
    // the camera close up on the tool, as after zooming in on the gripper
    await page.evaluate(() => {
      const s = window.__achain.studio;
      const t = s.lastFk.tool;
      s.viewport.frame(new s.viewport.camera.position.constructor(t[3], t[7], t[11]), 0.08);
    });
    await page.click('.view-panel[data-view="teleop"] .solve-all');
    await page.waitForFunction(() => window.__achain.views.teleop.ghosts.length > 1);
    await page.waitForTimeout(200);
    const r = await page.evaluate(() => {
      const s = window.__achain.studio;
      const e = s.viewport.ndcExtent(s.shownBox());
      return { ghosts: window.__achain.views.teleop.ghosts.length, clips: s.viewport.clips(s.shownBox()), extent: [e.x0, e.x1, e.y0, e.y1] };
    });
    await screenshot(page, 'framing-solve-all-ghosts');
    assert.ok(r.ghosts >= 4, `the PUMA has several solutions: ${r.ghosts}`);
    assert.equal(r.clips, false, `every ghost is in the picture: ${r.extent.map((x) => x.toFixed(2))}`);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});
