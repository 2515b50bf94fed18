// Issue 32, item 11: a new workspace run replaces the last one's result. Before, cancelling a run left the previous
// run's voxel count in the table (and its cloud on the arm) under the new settings, as if it were their result.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, waitReady, screenshot } from './helpers.mjs';

let srv;
let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.close(); });

test('Workspace: a cancelled run shows no result, not the previous run\'s count and cloud', { timeout: 120000 }, async () => {
  const { page, errors, context } = await openPage(browser, `${srv.url}#robot=prototype-4a&view=workspace`, { width: 1280, height: 800 });
  try {
    await waitReady(page);
    const P = '.view-panel[data-view="workspace"]';
    const view = () => page.evaluate(() => {
      const w = window.__achain.views.workspace;
      return { count: w.result?.count ?? null, table: w.$('.w-result').textContent, cloud: w.group.children.length, status: w.$('.w-status').textContent };
    });
    await page.fill(`${P} .w-voxel`, '50'); // mm: a coarse lattice, done in a moment
    await page.click(`${P} .w-run`);
    await page.waitForFunction(() => window.__achain.views.workspace.result, null, { timeout: 60000 });
    const first = await view();
    assert.ok(first.count > 10 && first.table.includes(first.count.toLocaleString('en')), JSON.stringify(first));
    assert.ok(first.cloud > 0);
    await page.fill(`${P} .w-voxel`, '4'); // fine: runs long enough to be cancelled
    await page.click(`${P} .w-run`);
    await page.waitForFunction(() => window.__achain.views.workspace.running, null, { timeout: 10000 });
    await page.click(`${P} .w-cancel`);
    await page.waitForFunction(() => /^cancelled/.test(window.__achain.views.workspace.$('.w-status').textContent), null, { timeout: 30000 });
    await screenshot(page, 'workspace-cancelled');
    const after = await view();
    assert.equal(after.count, null, 'no result');
    assert.equal(after.table, '', 'the table is empty, not the 50 mm run\'s count');
    assert.equal(after.cloud, 0, 'the 50 mm cloud is gone');
    assert.match(after.status, /^cancelled: no result/);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});
