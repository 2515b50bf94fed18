// Issue 32, item 8: Motion refuses a goal outside the joint limits at once, with the core's sentence (q1 … qn,
// degrees), instead of planning it and leaving the Controller to refuse it later.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, waitReady, screenshot } from './helpers.mjs';

let srv;
let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.close(); });

test('Motion: a goal outside the joint limits is refused naming q1, its joint and the limits; a goal inside plans', { timeout: 60000 }, async () => {
  const { page, errors, context } = await openPage(browser, `${srv.url}#robot=prototype-4a&view=motion`, { width: 1280, height: 800 });
  try {
    await waitReady(page);
    const M = '.view-panel[data-view="motion"]';
    await page.fill(`${M} .m-from`, '60, 60, 60, 60');
    await page.fill(`${M} .m-to`, '320, 300, 300, 300');
    await page.click(`${M} .m-plan`);
    await page.waitForSelector(`${M} .m-error:not([hidden])`);
    await screenshot(page, 'motion-goal-outside-limits');
    assert.equal((await page.textContent(`${M} .m-error`)).trim(),
      "goal: q1 (joint 'waist') = 320° is outside its limits [60°, 300°]; choose a pose within the limits");
    await page.fill(`${M} .m-to`, '300, 300, 300, 300');
    await page.click(`${M} .m-plan`);
    await page.waitForFunction((sel) => document.querySelector(sel).hidden, `${M} .m-error`);
    const duration = await page.evaluate(() => window.__achain.views.motion.traj.duration);
    assert.ok(Math.abs(duration - 1.5833) < 1e-3, `the thesis move takes ${duration} s (1.5833 s in the thesis)`);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});
