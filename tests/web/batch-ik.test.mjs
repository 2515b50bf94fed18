// Batch IK in a Web Worker (Teleoperate → Tool path): a tool path solved pose by pose by the core's
// ikNumeric off the page's thread, with progress, cancel, replay and the core's FK of every answer
// reaching its target. The worker runs the same wasm code as the page, so its answers equal the page's
// own ikNumeric chain (same seeds, same options) to 1e-12.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, waitReady, screenshot } from './helpers.mjs';

let srv;
let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.close(); });

const P = '.view-panel[data-view="teleop"]';

async function open(hash) {
  const o = await openPage(browser, srv.url + hash);
  await waitReady(o.page);
  await o.page.waitForTimeout(200);
  return o;
}

test('batch IK: a circle of tool positions solved in the worker reaches every target; same answers as the page', async () => {
  const { page, errors, context } = await open('#robot=prototype-4a&view=teleop&q=150,120,200,100&units=deg,mm');
  try {
    assert.equal(await page.locator(`${P} .batch-ui`).isVisible(), true, 'the batch IK section is shown');
    await page.selectOption(`${P} .b-kind`, 'circle');
    await page.fill(`${P} .b-n`, '360');
    await page.fill(`${P} .b-r`, '60');
    await page.selectOption(`${P} .b-plane`, 'yz');
    const q0 = await page.evaluate(() => window.__achain.q);
    await page.click(`${P} .b-run`);
    await page.waitForFunction(() => { const b = window.__achain.views.teleop.batch; return b.result && !b.running; }, null, { timeout: 30000 });
    const r = await page.evaluate(() => {
      const b = window.__achain.views.teleop.batch;
      const m = window.__achain.studio.model;
      const res = b.result;
      const n = res.dof;
      let maxErr = 0;
      for (let k = 0; k < res.count; k++) {
        const T = m.forwardKinematics(res.q.subarray(k * n, (k + 1) * n)).tool;
        const t = b.targets.subarray(16 * k, 16 * k + 16);
        maxErr = Math.max(maxErr, Math.hypot(T[3] - t[3], T[7] - t[7], T[11] - t[11]));
      }
      return {
        count: res.count, total: res.total, cancelled: res.cancelled, stats: b.stats, maxErr,
        progress: b.progressLog.slice(), status: b.$('.b-status').textContent, replayHidden: b.$('.b-replay').hidden,
      };
    });
    assert.equal(r.count, 360);
    assert.equal(r.total, 360);
    assert.equal(r.cancelled, false);
    assert.ok(r.progress.length >= 1 && r.progress.at(-1) === 1, `progress ${r.progress}`);
    for (let i = 1; i < r.progress.length; i++) assert.ok(r.progress[i] >= r.progress[i - 1], 'progress is monotone');
    assert.deepEqual(Object.keys(r.stats.counts), ['ok'], `every pose reached: ${JSON.stringify(r.stats.counts)}`);
    assert.ok(r.maxErr < 1e-6, `FK of the worker's answers reaches the targets: ${r.maxErr} m`);
    assert.ok(r.stats.maxJointStep < 5 * Math.PI / 180, `continuous joint path (largest step ${r.stats.maxJointStep} rad)`);
    assert.match(r.status, /360 poses solved/);
    assert.equal(r.replayHidden, false);

    // parity: the worker's answers equal the page's own ikNumeric chain from the same seed (same wasm code)
    const parity = await page.evaluate((q0) => {
      const b = window.__achain.views.teleop.batch;
      const m = window.__achain.studio.model;
      const res = b.result;
      const n = res.dof;
      const opts = { ...window.__achain.views.teleop._options(), restarts: 0 };
      let prev = Float64Array.from(q0);
      let worst = 0;
      for (let k = 0; k < 40; k++) {
        const s = m.ikNumeric(b.targets.subarray(16 * k, 16 * k + 16), prev, opts);
        for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs(s.q[i] - res.q[k * n + i]));
        prev = s.q;
      }
      return worst;
    }, q0);
    assert.ok(parity <= 1e-12, `worker vs page ikNumeric: ${parity}`);

    // replay: the scrubber puts the arm on pose k of the solved path
    await page.locator(`${P} .b-scrub`).fill('90');
    await page.waitForTimeout(100);
    const at = await page.evaluate(() => {
      const b = window.__achain.views.teleop.batch;
      const n = b.result.dof;
      return { q: window.__achain.q, expect: Array.from(b.result.q.subarray(90 * n, 91 * n)), label: b.$('.b-at').textContent };
    });
    assert.deepEqual(at.q, at.expect);
    assert.match(at.label, /^91\/360 ok/);
    // the joint sliders follow the replay
    const slider = await page.locator(`${P} .sliders input[type=number][data-joint="0"]`).inputValue();
    assert.ok(Math.abs(Number(slider) - (at.q[0] * 180) / Math.PI) < 0.01, `slider ${slider}`);
    // the target path (dashed) and the reached path are drawn
    const lines = await page.evaluate(() => window.__achain.views.teleop.batch.group.children.map((c) => c.name));
    assert.deepEqual(lines, ['batch-targets', 'batch-reached']);
    await page.locator(`${P} .b-run`).scrollIntoViewIfNeeded();
    await screenshot(page, 'teleop-batch-ik');
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('batch IK: a long job reports progress and Cancel keeps the poses solved so far', async () => {
  const { page, errors, context } = await open('#robot=prototype-4a&view=teleop&q=150,120,200,100&units=deg,mm');
  try {
    await page.selectOption(`${P} .b-kind`, 'line');
    await page.fill(`${P} .b-n`, '1000000');
    await page.fill(`${P} .b-dx`, '80');
    await page.fill(`${P} .b-dy`, '0');
    await page.fill(`${P} .b-dz`, '-40');
    await page.click(`${P} .b-run`);
    await page.waitForFunction(() => window.__achain.views.teleop.batch.progressLog.length >= 2, null, { timeout: 30000 });
    assert.equal(await page.locator(`${P} .b-cancel`).isDisabled(), false);
    await page.click(`${P} .b-cancel`);
    await page.waitForFunction(() => { const b = window.__achain.views.teleop.batch; return b.result && !b.running; }, null, { timeout: 30000 });
    const r = await page.evaluate(() => {
      const b = window.__achain.views.teleop.batch;
      return { count: b.result.count, total: b.result.total, cancelled: b.result.cancelled, status: b.$('.b-status').textContent,
        progress: b.progressLog.at(-1), cancelDisabled: b.$('.b-cancel').disabled, runDisabled: b.$('.b-run').disabled };
    });
    assert.equal(r.cancelled, true);
    assert.equal(r.total, 1000000);
    assert.ok(r.count > 0 && r.count < r.total, `cancelled part way: ${r.count}`);
    assert.ok(r.progress > 0 && r.progress < 1);
    assert.match(r.status, /^cancelled after/);
    assert.equal(r.cancelDisabled, true);
    assert.equal(r.runDisabled, false);
    // (how long it took is the machine's business: the cancelled part-way count above is the check)
    // bad input: a malformed pose list names the problem, nothing runs
    await page.selectOption(`${P} .b-kind`, 'json');
    await page.fill(`${P} .b-text`, '[[0.1, 0.2], [0, 0, 0.9]]');
    await page.click(`${P} .b-run`);
    assert.equal(await page.locator(`${P} .b-error`).textContent(), 'poses[0]: expected 3 numbers (a position in m) or 16 (a row-major 4×4 pose)');
    // a valid pose list: two positions near the current tool point
    const tool = await page.evaluate(() => window.__achain.tool);
    await page.fill(`${P} .b-text`, JSON.stringify([[tool[3], tool[7], tool[11]], [tool[3] + 0.01, tool[7], tool[11] - 0.01]]));
    await page.click(`${P} .b-run`);
    await page.waitForFunction(() => { const b = window.__achain.views.teleop.batch; return b.result && !b.running && b.result.total === 2; }, null, { timeout: 30000 });
    assert.equal(await page.evaluate(() => window.__achain.views.teleop.batch.stats.counts.ok), 2);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});
