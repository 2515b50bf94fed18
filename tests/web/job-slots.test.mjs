// Long CPU-bound page jobs take turns (web/src/workers/jobSlots.js, issue 32): on a 2-core machine a workspace and a
// batch IK path at once left the software renderer a third of a core, and a frame held the main thread up to 104 ms
// beside a stream. The second job waits, says what it waits for, can be cancelled while it waits, and starts when the
// first ends. Before, both started at once (the batch status said "solving" while the workspace ran).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, waitReady } from './helpers.mjs';
import { JobSlots } from '../../web/src/workers/jobSlots.js';

test('JobSlots: at most `limit` jobs run, the rest wait in order and name what they wait for; release frees a slot', async () => {
  const slots = new JobSlots(1);
  const order = [];
  const a = slots.enter('the workspace');
  const b = slots.enter('the batch IK path');
  const c = slots.enter('the third');
  a.ready.then(() => order.push('a'));
  b.ready.then(() => order.push('b'));
  c.ready.then(() => order.push('c'));
  await Promise.resolve();
  assert.equal(a.waitingFor, null);
  assert.equal(b.waitingFor, 'the workspace');
  assert.match(b.waitingText, /^waiting for the workspace to finish \(one long job at a time on this \d+-core machine\)…$/);
  assert.equal(a.waitingText, null);
  assert.deepEqual(slots.running, ['the workspace']);
  b.release(); // cancelled while it waited: it never runs
  a.release();
  a.release(); // a second release does nothing
  await c.ready;
  assert.deepEqual(order, ['a', 'c']);
  assert.equal(b.started, false);
  assert.deepEqual(slots.running, ['the third']);
  const two = new JobSlots(2);
  assert.equal(two.enter('x').waitingFor, null);
  assert.equal(two.enter('y').waitingFor, null);
  const z = two.enter('z');
  assert.equal(z.waitingFor, 'x');
  assert.match(z.waitingText, /^waiting for x to finish \(2 long jobs at a time on this \d+-core machine\)…$/);
  assert.equal(new JobSlots().limit >= 1, true);
});

let srv;
let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.close(); });

test('studio: a batch IK path started during a workspace computation waits for it, can be cancelled meanwhile, then runs', { timeout: 120000 }, async () => {
  const { page, errors, context } = await openPage(browser, `${srv.url}#robot=prototype-4a&view=workspace&units=deg,mm`);
  try {
    await waitReady(page);
    const W = '.view-panel[data-view="workspace"]';
    const T = '.view-panel[data-view="teleop"]';
    assert.equal(await page.evaluate(() => navigator.hardwareConcurrency), 2, 'this test expects the 2-core machine (one job at a time)');
    await page.fill(`${W} .w-voxel`, '3.175');
    await page.waitForTimeout(400); // the estimate
    if (await page.locator(`${W} .w-raise-row`).isVisible()) await page.check(`${W} .w-raise`);
    await page.click(`${W} .w-run`);
    await page.click('#tabs button[data-view="teleop"]');
    await page.fill(`${T} .b-n`, '200');
    await page.click(`${T} .b-run`);
    const waiting = await page.locator(`${T} .b-status`).textContent();
    assert.match(waiting, /^waiting for the workspace to finish \(one long job at a time on this 2-core machine\)…$/);
    assert.deepEqual(await page.evaluate(() => window.__achain.studio.jobs.running), ['the workspace']);
    // cancelled while it waits: nothing solved, the workspace goes on
    await page.click(`${T} .b-cancel`);
    assert.equal(await page.locator(`${T} .b-status`).textContent(), 'cancelled while it waited for its turn: nothing was solved');
    assert.equal(await page.evaluate(() => window.__achain.views.teleop.batch.running), false);
    assert.equal(await page.evaluate(() => window.__achain.views.workspace.running), true);
    // again, then the workspace is cancelled: the batch starts and solves its poses
    await page.click(`${T} .b-run`);
    assert.match(await page.locator(`${T} .b-status`).textContent(), /^waiting for the workspace/);
    await page.click('#tabs button[data-view="workspace"]');
    await page.click(`${W} .w-cancel`);
    await page.waitForFunction(() => !window.__achain.views.workspace.running, null, { timeout: 30000 });
    await page.waitForFunction(() => { const b = window.__achain.views.teleop.batch; return b.result && !b.running; }, null, { timeout: 60000 });
    assert.match(await page.locator(`${T} .b-status`).textContent(), /^200 poses solved in/);
    assert.deepEqual(await page.evaluate(() => window.__achain.studio.jobs.running), []);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});
