// Run one file at a time, after the other browser tests (scripts/test.sh: the "browser, real time" stage): two CPU-bound workers
// (the workspace and batch IK) beside a stream saturate the 2-core machine, and a stream of another test file running
// at the same time (the suite runs two files at once) then missed its controller's 200 ms watchdog (seen in a fresh
// clone's npm test: issue18's "bug 3" faulted beside this test).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, waitReady, screenshot, planAndConnect, waitSent } from '../helpers.mjs';

let srv;
let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.close(); });

const status = (page) => page.evaluate(() => window.__achain.views.controller.handle.streamer.status);

// Issue 32's acceptance: stream a 40 s move while the page computes the workspace at 3.175 mm (1/8 in) and solves a
// batch IK path: no watchdog fault; the longest task on the page's main thread is logged. Before,
// building the point cloud took 2.7 s of page script (a string-keyed split of a million centres, and copies into
// plain arrays); now the core splits the overlap in the workspace worker and the page draws the worker's
// Float32Arrays (thinned to 50,000 points under software WebGL), so the view's own work on the result is asserted
// under 100 ms. The longest task is logged, not asserted (it is wall time): 270–335 ms before 2026-12-03, the first
// frame with the cloud re-making the arm's shader programs and drawing multisampled under software WebGL; 78–112 ms
// since, 134 ms with both cores busy (docs/studio.md; views.test.mjs checks that no program is made for a result).
test('a 40 s stream beside a 3.175 mm workspace and a batch IK path: no fault; the cloud is built in under 100 ms', { timeout: 240000 }, async () => {
  const { page, errors, context } = await openPage(browser, `${srv.url}#robot=prototype-4a&view=teleop&units=deg,mm`, { width: 1280, height: 800 });
  try {
    await waitReady(page);
    await planAndConnect(page, { duration: 40 });
    await page.evaluate(() => {
      window.__tasks = [];
      new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__tasks.push({ ms: e.duration, at: e.startTime }); }).observe({ type: 'longtask' });
      const v = window.__achain.views.workspace;
      const show = v._show.bind(v);
      v._show = (msg) => { const t = performance.now(); show(msg); window.__showMs = performance.now() - t; };
    });
    await page.click('[data-testid=ctl-send]');
    await page.waitForFunction(() => window.__achain.views.controller.handle.streamer.status?.state === 'running', null, { timeout: 15000 });
    // the workspace at 1/8 in (its own worker; the R twin's overlap split is tests/wasm/one-robot.test.mjs's)
    await page.click('#tabs button[data-view="workspace"]');
    const W = '.view-panel[data-view="workspace"]';
    await page.fill(`${W} .w-voxel`, '3.175');
    await page.waitForTimeout(400);  // the estimate
    if (await page.locator(`${W} .w-raise-row`).isVisible()) await page.check(`${W} .w-raise`);
    await page.click(`${W} .w-run`);
    // a batch IK path (Teleoperate → Tool path), 2,000 poses on a circle
    await page.click('#tabs button[data-view="teleop"]');
    await page.fill('.view-panel[data-view="teleop"] .b-n', '2000');
    await page.click('.view-panel[data-view="teleop"] .b-run');
    await page.click('#tabs button[data-view="workspace"]');
    await page.waitForFunction(() => !!document.querySelector('.view-panel[data-view="workspace"] .w-result td'), null, { timeout: 180000 });
    const cloud = await page.evaluate(() => ({ drawn: window.__achain.views.workspace.group.children.reduce((n, c) => n + c.geometry.attributes.position.count, 0),
      ...window.__achain.views.workspace.drawn, showMs: window.__showMs, status: document.querySelector('.view-panel[data-view="workspace"] .w-status').textContent }));
    const msg = await waitSent(page, 120000);
    await screenshot(page, 'streaming-beside-workspace');
    const tasks = await page.evaluate(() => window.__tasks);
    const longest = Math.max(0, ...tasks.map((t) => t.ms));
    console.log(`# longest main-thread task ${longest.toFixed(0)} ms (tasks over 50 ms: ${tasks.map((t) => Math.round(t.ms)).join(', ')}) while streaming 40 s; `
      + `the result shown in ${cloud.showMs.toFixed(0)} ms: ${cloud.drawn} of ${cloud.total} cloud points drawn; a 2,000-pose IK path`);
    assert.match(msg, /^Streaming: done, final error/, msg);
    assert.equal((await status(page)).faults, 0);
    assert.ok(cloud.total > 100000, `the surface cloud has ${cloud.total} points`);
    assert.ok(cloud.drawn <= 50000 && cloud.drawn >= cloud.total / cloud.stride - 3, `${cloud.drawn} drawn of ${cloud.total} (every ${cloud.stride}th)`);
    assert.match(cloud.status, new RegExp(`drawn: every ${cloud.stride}th of ${cloud.total.toLocaleString('en')} points \\(software WebGL: no GPU\\)`));
    assert.ok(cloud.showMs < 100, `the view took ${cloud.showMs.toFixed(0)} ms to show the result (2.7 s before)`);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});
