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

// Issue 32, item 11: a robot without speed limits, planned without a duration, is told what to give in the
// studio's words (q1, its joint, a duration), not "joints[0].limits.velocity … (give --vmax)".
test('Motion: a plan without speed limits or a duration names q1, its joint and the duration field, no CLI flag', { timeout: 60000 }, async () => {
  const { page, errors, context } = await openPage(browser, `${srv.url}#robot=puma560&view=motion`, { width: 1280, height: 800 });
  try {
    await waitReady(page);
    const M = '.view-panel[data-view="motion"]';
    await page.fill(`${M} .m-from`, '0, 0, 0, 0, 0, 0');
    await page.fill(`${M} .m-to`, '0, 20, 0, 0, 0, 0');
    await page.fill(`${M} .m-duration`, '');
    await page.click(`${M} .m-plan`);
    await page.waitForSelector(`${M} .m-error:not([hidden])`);
    const msg = (await page.textContent(`${M} .m-error`)).trim();
    await screenshot(page, 'motion-no-speed-limit');
    const shoulder = await page.evaluate(() => window.__achain.studio.model.joints[1].name);
    assert.equal(msg, `q2 (joint '${shoulder}') has no speed limit, and the plan has no duration: give the joint a speed limit (vmax) or the plan a duration`);
    await page.fill(`${M} .m-duration`, '2');
    await page.click(`${M} .m-plan`);
    await page.waitForFunction((sel) => document.querySelector(sel).hidden, `${M} .m-error`);
    assert.ok(Math.abs(await page.evaluate(() => window.__achain.views.motion.traj.duration) - 2) < 1e-9);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

// Issue 32: playback controls as in MuJoCo's viewer: pause, step a sample either way, scrub, speed; the same for a
// simulation's recording.
test('Motion: pause, step, scrub and speed for a planned move and for a simulation\'s recording', { timeout: 90000 }, async () => {
  const { page, errors, context } = await openPage(browser, `${srv.url}#robot=prototype-4a&view=motion`, { width: 1280, height: 800 });
  try {
    await waitReady(page);
    const M = '.view-panel[data-view="motion"]';
    await page.click(`${M} .m-plan`);
    await page.waitForFunction(() => window.__achain.views.motion.traj && !window.__achain.views.motion.traj.simulated);
    const shown = () => page.evaluate(() => {
      const v = window.__achain.views.motion;
      const n = v.traj.dof;
      return { k: v.sample, playing: v.playing, q: Array.from(window.__achain.studio.q), qk: Array.from(v.traj.q.slice(v.sample * n, (v.sample + 1) * n)),
        samples: v.traj.samples, time: v.time, label: document.querySelector('.view-panel[data-view="motion"] .m-time').textContent };
    });
    await page.click(`${M} .m-play`);  // pause
    await page.evaluate(() => window.__achain.views.motion._setTime(0));  // as the scrub bar's left end does
    for (let i = 0; i < 3; i++) await page.click(`${M} .m-step`);
    let s = await shown();
    assert.equal(s.k, 3);
    assert.equal(s.playing, false);
    assert.deepEqual(s.q, s.qk, 'the arm shows sample 3');
    assert.match(s.label, new RegExp(`^t = [\\d.]+ / [\\d.]+ s · sample 4 of ${s.samples}$`));
    await page.click(`${M} .m-step-back`);
    s = await shown();
    assert.equal(s.k, 2);
    assert.deepEqual(s.q, s.qk);
    // speed ×0.25: a 0.2-s animation frame advances the move by 0.05 s
    await page.selectOption(`${M} .m-rate`, '0.25');
    const advanced = await page.evaluate(() => {
      const v = window.__achain.views.motion;
      const t0 = v.time;
      v.playing = true;
      v._tick(0.2);
      v.playing = false;
      return v.time - t0;
    });
    assert.ok(Math.abs(advanced - 0.05) < 1e-12, `advanced ${advanced} s`);
    await screenshot(page, 'motion-playback-controls');
    // a simulation's recording: the same controls scrub back through it
    await page.fill(`${M} .s-duration`, '0.5');
    await page.click(`${M} .s-run`);
    await page.waitForFunction(() => window.__achain.views.motion.traj?.simulated, null, { timeout: 60000 });
    await page.click(`${M} .m-play`);
    await page.evaluate(() => window.__achain.views.motion._setTime(0.25));
    for (let i = 0; i < 2; i++) await page.click(`${M} .m-step-back`);
    s = await shown();
    assert.ok(s.time < 0.25 && s.time > 0.2, `two samples before 0.25 s: ${s.time}`);
    assert.deepEqual(s.q, s.qk, 'the arm shows the recorded sample');
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});
