// A file the user chose is read by the browser lazily, from disk. When it has been moved or deleted in between
// (or sat on a drive since removed), the read fails with NotFoundError. Every file input names that on the page
// (web/src/ui/readFile.js) and the page keeps working; before, the Sweep, Design and session inputs left an
// unhandled rejection and showed nothing. The CI run of a602e92 met this in sweep.test.mjs, which deleted its
// file right after choosing it: on a loaded machine the read came after the deletion.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveDist, launch, openPage, waitReady } from './helpers.mjs';

let srv;
let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.close(); });

/** Hands `selector`'s input a chosen file that no longer exists on disk, as a change event does. */
async function chooseDeletedFile(page, selector, name) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'achain-gone-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, '{}');
  await page.evaluate(() => { const i = document.createElement('input'); i.type = 'file'; i.id = 'gone-file'; i.hidden = true; document.body.appendChild(i); });
  await page.setInputFiles('#gone-file', file);
  fs.rmSync(dir, { recursive: true, force: true });
  await page.evaluate((selector) => {
    const f = document.getElementById('gone-file').files[0];
    document.getElementById('gone-file').remove();
    const dt = new DataTransfer();
    dt.items.add(f);
    const input = document.querySelector(selector);
    input.files = dt.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }, selector);
}

const CASES = [
  { what: 'Sweep: Open merged sweep', view: 'sweep', input: '.view-panel[data-view="sweep"] .sw-open', shown: '.view-panel[data-view="sweep"] .sw-error' },
  { what: 'Design: Import file', view: 'design', input: '.view-panel[data-view="design"] .d-file', shown: '#status' },
  { what: 'session Open', view: 'teleop', input: '#session-open', shown: '#status' },
];

for (const c of CASES) {
  test(`${c.what}: a chosen file deleted before it is read is named on the page; the robot stays`, { timeout: 60000 }, async () => {
    const { page, errors, context } = await openPage(browser, `${srv.url}#robot=prototype-4a&view=${c.view}`);
    try {
      await waitReady(page);
      await chooseDeletedFile(page, c.input, 'moved-away.json');
      await page.waitForFunction((sel) => /moved-away\.json: the file could not be read \(.+\); was it moved or deleted/.test(document.querySelector(sel)?.textContent || ''),
        c.shown, { timeout: 20000 });
      assert.equal(await page.evaluate(() => window.__achain.robot), 'prototype-4a', 'the robot shown stays');
      assert.deepEqual(errors, []);
    } finally { await context.close(); }
  });
}
