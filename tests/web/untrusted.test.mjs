// Issue 17, Deliver 8 and 3: the page treats robot files and links as untrusted — names, descriptions and notes
// holding markup are shown literally and never run; a bad link is said on the status line, not ignored — and the
// Workspace view shows the core's estimate of a job before it starts, refusing one past the caps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, waitReady, screenshot } from './helpers.mjs';

let srv;
let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.close(); });

async function studio(hash = '', size = { width: 1280, height: 800 }) {
  const o = await openPage(browser, srv.url + hash, size);
  await waitReady(o.page);
  await o.page.waitForTimeout(200);
  return o;
}

const IMG = '<img src=x onerror="window.__pwned=(window.__pwned||0)+1">';
const SCRIPT = '<script>window.__pwned=(window.__pwned||0)+10</script>';

/** planar-2r's description with markup in every free-text field the page shows. */
function hostileRobot() {
  return {
    schema_version: 1,
    name: `evil ${IMG}`,
    description: `described ${SCRIPT}${IMG}`,
    notes: [`a note ${IMG}`],
    units: { length: 'm', angle: 'deg', mass: 'kg' },
    gravity: [0, -9.81, 0],
    joints: [
      { name: `sh${IMG}`, kind: 'R', a: 1.0, limits: { lower: -180, upper: 180, velocity: 180, acceleration: 720, effort: 60 },
        link: { mass: 2.0, com: [-0.5, 0, 0], inertia: [1e-4, 0.1667, 0.1667, 0, 0, 0] } },
      { name: `el<b>bold</b>`, kind: 'R', a: 0.8, limits: { lower: -170, upper: 170, velocity: 180, acceleration: 720, effort: 20 },
        link: { mass: 1.0, com: [-0.4, 0, 0], inertia: [1e-4, 0.0533, 0.0533, 0, 0, 0] } },
    ],
  };
}

const b64url = (text) => Buffer.from(text).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** No element made from the file's markup, and no handler of it ran. */
async function assertInert(page) {
  const found = await page.evaluate(() => ({
    pwned: window.__pwned ?? 0,
    imgs: document.querySelectorAll('img[src="x"]').length,
    bolds: [...document.querySelectorAll('b')].filter((b) => b.textContent === 'bold').length,
    scripts: [...document.querySelectorAll('script')].filter((s) => s.textContent.includes('__pwned')).length,
  }));
  assert.deepEqual(found, { pwned: 0, imgs: 0, bolds: 0, scripts: 0 });
}

test('a robot file whose names, description and notes hold markup: shown literally, nothing runs (file picker, then Motion and Workspace tables)', async () => {
  const { page, errors, context } = await studio('#robot=planar-2r');
  try {
    const text = JSON.stringify(hostileRobot());
    await page.setInputFiles('#urdf-files', { name: 'evil.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.waitForFunction(() => window.__achain.studio.model?.name?.startsWith('evil'), null, { timeout: 10000 });
    await page.waitForTimeout(300);
    // the status line names the robot with its markup as text
    assert.match(await page.textContent('#status'), /^evil <img src=x onerror="window\.__pwned=\(window\.__pwned\|\|0\)\+1">: 2 joints/);
    // the joint sliders' labels
    const labels = await page.locator('.view-panel[data-view="teleop"] .joint label b').allTextContents();
    assert.deepEqual(labels, [`q1 sh${IMG}`, 'q2 el<b>bold</b>']);
    await assertInert(page);
    // Motion: the summary table lists the joints by name
    await page.click('#tabs button[data-view="motion"]');
    await page.click('.view-panel[data-view="motion"] .m-plan');
    await page.waitForTimeout(500);
    const cells = await page.locator('.view-panel[data-view="motion"] .m-summary td').allTextContents();
    assert.ok(cells.includes(`q1 sh${IMG}`), `Motion table: ${cells.slice(0, 6).join(' | ')}`);
    assert.ok(cells.includes('q2 el<b>bold</b>'));
    await assertInert(page);
    // Workspace: the result table names the robot
    await page.click('#tabs button[data-view="workspace"]');
    await page.fill('.view-panel[data-view="workspace"] .w-voxel', '100');  // mm: a quick job
    await page.click('.view-panel[data-view="workspace"] .w-run');
    await page.waitForFunction(() => !!document.querySelector('.view-panel[data-view="workspace"] .w-result td'), null, { timeout: 20000 });
    const ws = await page.locator('.view-panel[data-view="workspace"] .w-result td').allTextContents();
    assert.ok(ws.includes(`evil ${IMG}`), `Workspace table: ${ws.join(' | ')}`);
    await assertInert(page);
    await screenshot(page, 'untrusted-file');
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('the same description through a json= link: shown literally, nothing runs', async () => {
  const { page, errors, context } = await studio(`#json=${b64url(JSON.stringify(hostileRobot()))}`);
  try {
    assert.equal(await page.evaluate(() => window.__achain.studio.model.name), `evil ${IMG}`);
    assert.match(await page.textContent('#status'), /^evil <img src=x/);
    assert.equal(await page.locator('.view-panel[data-view="teleop"] .joint label b').first().textContent(), `q1 sh${IMG}`);
    await assertInert(page);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('bad links are said on the status line, not ignored: an invalid description, an unknown robot, a bad q=', async () => {
  // a well-encoded json= whose description the core refuses: its message, not the fallback's status
  const bad = hostileRobot();
  bad.joints[0].a = 1e200;
  let o = await studio(`#json=${b64url(JSON.stringify(bad))}`);
  try {
    assert.match(await o.page.textContent('#status'), /^link: joints\[0\]\.a: magnitude 1e\+200 exceeds the physical range .* — showing prototype-4a$/);
    assert.equal(await o.page.evaluate(() => window.__achain.studio.els.status.classList.contains('error')), true);
    await assertInert(o.page);
    assert.deepEqual(o.errors, []);
  } finally { await o.context.close(); }
  o = await studio('#robot=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E');
  try {
    assert.equal(await o.page.textContent('#status'), "link: no built-in robot named '<img src=x onerror=alert(1)>' — showing prototype-4a");
    await assertInert(o.page);
  } finally { await o.context.close(); }
  o = await studio('#robot=puma560&q=10,abc,0,0,0,0');
  try {
    assert.equal(await o.page.textContent('#status'), 'link: q=: item 2 is not a number — the pose was not applied');
  } finally { await o.context.close(); }
  o = await studio('#robot=puma560&q=10,20');
  try {
    assert.equal(await o.page.textContent('#status'), 'link: q=: 2 values for 6 joints — the pose was not applied');
    assert.deepEqual(o.errors, []);
  } finally { await o.context.close(); }
});

test('Workspace: the core\'s estimate is shown before a job starts; past the caps the job is refused, naming the cap', async () => {
  const { page, errors, context } = await studio('#robot=prototype-4a&view=workspace&units=deg,mm');
  try {
    const panel = page.locator('.view-panel[data-view="workspace"]');
    const estimate = panel.locator('.w-estimate');
    // the thesis's 0.5 in voxel: the estimate is the core's (model.estimateWorkspace), within the caps
    const core = await page.evaluate(() => window.__achain.studio.model.estimateWorkspace({ voxel: 0.0127, method: 'robinson' }));
    assert.equal(core.withinCaps, true);
    assert.equal(core.caps.seconds, core.caps.evaluations / 2e7, 'the time the evaluations cap stands for, from the core');
    const shown = await estimate.textContent();
    assert.match(shown, /^estimate: [\d.]+ M grid cells, ≤ [\d.]+ k voxels, [\d.]+ MiB, [\d.]+ M evaluations, (< 1 s|≈ [\d.]+ s)$/);
    const [cellsM, voxelsK, mib, evalsM] = shown.match(/[\d.]+/g).map(Number);
    const near = (a, b) => Math.abs(a - b) <= 0.01 * Math.abs(b);
    assert.ok(near(cellsM * 1e6, core.cells) && near(voxelsK * 1e3, core.voxels) && near(mib * 2 ** 20, core.bytes) &&
      near(evalsM * 1e6, core.evaluations), `shown ${shown}; core ${JSON.stringify(core)}`);
    // Castelli at 5 mm: 3e13 evaluations, past the caps, said before anything runs
    // typed key by key, the estimate (two pilot sweeps) runs once, after typing pauses — not per keystroke
    await page.evaluate(() => {
      const m = window.__achain.studio.model;
      const est = m.estimateWorkspace;
      window.__estimates = 0;
      m.estimateWorkspace = function counted(o) { window.__estimates++; return est.call(this, o); };
    });
    // The six edits land in one task, as a fast typist's would between two timer ticks: a wall-clock gap between
    // real keystrokes could pass the 250 ms pause on a loaded machine and count a second estimate (seen in CI, 2).
    await page.evaluate(() => {
      const panel = document.querySelector('.view-panel[data-view="workspace"]');
      const method = panel.querySelector('.w-method');
      const voxel = panel.querySelector('.w-voxel');
      method.value = 'castelli';
      method.dispatchEvent(new Event('input', { bubbles: true }));
      // what the field holds after each key of "5.000" (a number input's value is always a valid number or '': "5."
      // reads as '', so the prefixes are given as the numbers they stand for)
      for (const v of ['', '5', '5.0', '5.00', '5.000']) { voxel.value = v; voxel.dispatchEvent(new Event('input', { bubbles: true })); }
    });
    assert.equal(await page.evaluate(() => window.__estimates), 0, 'no estimate while typing');
    await page.waitForFunction(() => / — past the caps \(/.test(document.querySelector('[data-testid=workspace-estimate]').textContent));
    await page.waitForTimeout(400);
    assert.equal(await page.evaluate(() => window.__estimates), 1, 'one estimate for a method change and five edits');
    assert.match(await estimate.textContent(), / — past the caps \(/);
    assert.equal(await panel.locator('.w-raise-row').isHidden(), false);
    await panel.locator('.w-run').click();
    await page.waitForTimeout(200);
    assert.equal(await panel.locator('.w-error').isVisible(), true);
    // in the studio's units and controls (issue 32, item 11): not the core's "voxel: 0.005 m … max_evaluations (CLI …)"
    const refused = await panel.locator('.w-error').textContent();
    assert.match(refused, /^Castelli, voxel 5 mm: about 3\.21e\+13 point evaluations, ≈ [\d.,]+ h \(estimate\), more than the cap of about 16\.67 min; Castelli's cost is a product over the joints: use a larger voxel or the Robinson sweep, or tick “run anyway” to raise the cap$/);
    assert.doesNotMatch(refused, /max_evaluations|--max|maxEvaluations| m /);
    assert.equal(await panel.locator('.w-cancel').isDisabled(), true, 'no job started');
    assert.doesNotMatch(await panel.locator('.w-status').textContent(), /computing/);
    await screenshot(page, 'workspace-estimate-capped');
    // back to Robinson and a coarse voxel: within the caps again, and the job runs with its estimate in the status
    await panel.locator('.w-method').selectOption('robinson');
    await panel.locator('.w-voxel').fill('50');
    await panel.locator('.w-voxel').dispatchEvent('input');
    await page.waitForFunction(() => !/past the caps/.test(document.querySelector('[data-testid=workspace-estimate]').textContent));
    assert.doesNotMatch(await estimate.textContent(), /past the caps/);
    assert.equal(await panel.locator('.w-raise-row').isHidden(), true);
    await panel.locator('.w-run').click();
    assert.match(await panel.locator('.w-status').textContent(), /^(computing… \(estimate .*\)|done in|prototype-4a: \d+ %)/);
    await page.waitForFunction(() => !!document.querySelector('.view-panel[data-view="workspace"] .w-result td'), null, { timeout: 30000 });
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});
