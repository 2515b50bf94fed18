// Issue 32, item 1: a branched URDF in the studio. Opened through the file picker without a tool link, it is
// not an error naming a CLI flag: the Design view's tree panel lists its links and asks for the tool link.
// Picking right_tool loads the robot with the tool there (the studio's tool FK equals the core's with
// {toolLink: 'right_tool'}), left_tool likewise; Export URDF re-opens with the same tool (achain:tool); the
// share link keeps it; a built-in's tool link is picked the same way. Screenshots at 1280×800 and 800×600:
// test-results/web/tree-panel-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serveDist, launch, openPage, waitReady, screenshot, repo, artifacts } from './helpers.mjs';

const FIXTURE = path.join(repo, 'tests/fixtures/urdf/tree_two_tools.urdf');
const Q = [0.4, -0.8, 1.1, 0.6, 0.15];
let srv;
let browser;
before(async () => { [srv, browser] = await Promise.all([serveDist(), launch()]); });
after(async () => { await browser?.close(); await srv?.close(); });

/** The studio's tool pose at Q and the core's for the same URDF text and tool link (row-major 4×4 each). */
function toolPoses(page, toolLink) {
  return page.evaluate(({ q, toolLink, text }) => {
    const a = window.__achain;
    a.setQ(q);
    const m = a.achain.modelFromUrdf(text, { toolLink });
    const core = Array.from(m.fkTool(q));
    m.dispose();
    return { studio: a.tool, core };
  }, { q: Q, toolLink, text: fs.readFileSync(FIXTURE, 'utf8') });
}
const maxDiff = (a, b) => Math.max(...a.map((v, i) => Math.abs(v - b[i])));
const rowsOf = (page) => page.$$eval('.d-tree .t-link', (rows) => rows.map((r) => ({
  link: r.dataset.link, text: r.textContent, leaf: r.classList.contains('leaf'), tool: r.classList.contains('tool'),
  indent: parseFloat(r.style.paddingLeft), disabled: r.querySelector('input').disabled,
})));
async function pick(page, link) {
  await page.click(`.d-tree .t-link[data-link="${link}"] input`);
  await page.waitForFunction((l) => window.__achain.studio.urdf?.toolLink === l && window.__achain.robot === 'two_arms'
    && window.__achain.studio.urdf.model === window.__achain.studio.model, link, { timeout: 10000 });
  await page.waitForTimeout(100);
}

for (const [width, height] of [[1280, 800], [800, 600]]) {
  test(`a branched URDF: the tree panel asks for the tool link; picks, export and link keep it (${width}×${height})`, async () => {
    const { page, errors } = await openPage(browser, `${srv.url}#view=teleop`, { width, height });
    try {
      await waitReady(page);
      const first = await page.evaluate(() => window.__achain.robot);
      await page.setInputFiles('#urdf-files', [FIXTURE]);
      await page.waitForSelector('.d-tree .t-ask', { state: 'visible', timeout: 10000 });
      // the Design view is shown with the question, not the core's error naming --tool-link
      assert.equal(await page.getAttribute('#tabs button[data-view="design"]', 'aria-selected'), 'true');
      const ask = await page.textContent('.d-tree .t-ask');
      assert.match(ask, /this robot is a tree with 2 end links \(left_tool, right_tool\): choose the tool link/);
      const status = await page.textContent('#status');
      assert.doesNotMatch(`${ask} ${status}`, /--tool-link|leaf links/);
      assert.equal(await page.evaluate(() => window.__achain.robot), first, 'nothing loaded yet');
      // the robot shown before is hidden while the choice is pending, not passed off as the new one; the view says why
      const shown = () => page.evaluate(() => {
        const st = window.__achain.studio;
        const note = document.querySelector('.pending-robot');
        return { world: st.viewport.world.visible, note: note && !note.hidden ? note.textContent : null, readout: !st.readout.el.hidden };
      });
      const pending = await shown();
      assert.equal(pending.world, false, 'the previous robot is not drawn');
      assert.equal(pending.readout, false, 'nor its tool pose shown');
      assert.match(pending.note ?? '', /is drawn once its tool link is chosen: pick one of its 2 end links/);
      let rows = await rowsOf(page);
      assert.deepEqual(rows.map((r) => r.link), ['torso', 'chest', 'left_upper', 'left_tool', 'right_upper', 'right_tool']);
      assert.deepEqual(rows.filter((r) => r.leaf).map((r) => r.link), ['left_tool', 'right_tool']);
      assert.deepEqual(rows.map((r) => r.disabled), [true, false, false, false, false, false]);
      assert.ok(rows[3].indent > rows[2].indent && rows[2].indent > rows[1].indent && rows[1].indent > rows[0].indent);
      // limits in the display units (deg, mm): waist ±3 rad, right_slide 0…0.2 m
      assert.match(rows[1].text, /waist: revolute · -171\.89 … 171\.89°/);
      assert.match(rows[5].text, /right_slide: prismatic · 0 … 200 mm · end link/);
      const panelBox = await page.$eval('.d-tree', (e) => { const r = e.getBoundingClientRect(); return { right: r.right, width: r.width, scroll: e.scrollWidth, client: e.clientWidth }; });
      assert.ok(panelBox.scroll <= panelBox.client + 1, `the panel does not scroll sideways: ${JSON.stringify(panelBox)}`);
      await screenshot(page, `tree-panel-ask-${width}x${height}`);

      await pick(page, 'right_tool');
      let p = await toolPoses(page, 'right_tool');
      assert.ok(maxDiff(p.studio, p.core) < 1e-12, `right_tool: studio ${p.studio} vs core ${p.core}`);
      assert.ok(Math.abs(p.core[11]) > 0.3, 'a real pose');
      rows = await rowsOf(page);
      assert.deepEqual(rows.filter((r) => r.tool).map((r) => r.link), ['right_tool']);
      assert.equal(await page.$('.d-tree .t-ask'), null);
      assert.deepEqual(await shown(), { world: true, note: null, readout: true }, 'the picked robot is drawn');
      await screenshot(page, `tree-panel-right-${width}x${height}`);

      await pick(page, 'left_tool');
      p = await toolPoses(page, 'left_tool');
      assert.ok(maxDiff(p.studio, p.core) < 1e-12, `left_tool: studio ${p.studio} vs core ${p.core}`);
      const right = await toolPoses(page, 'right_tool');
      assert.ok(maxDiff(p.studio, right.core) > 0.1, 'the tool moved to the other arm');
      const leftTool = p.studio;

      // the share link (a URDF goes as its JSON description) keeps the tool
      const link = await page.evaluate(() => window.__achain.studio.hashState());
      const shared = await openPage(browser, `${srv.url}#${link}`, { width, height });
      try {
        await waitReady(shared.page);
        const t = await shared.page.evaluate(() => window.__achain.tool);
        assert.ok(maxDiff(t, leftTool) < 1e-6, `shared link (q to 8 digits): ${t} vs ${leftTool}`);
        assert.deepEqual(shared.errors, []);
      } finally { await shared.page.close(); }

      // Export URDF re-opens with the same tool, without asking
      const [dl] = await Promise.all([page.waitForEvent('download'), page.click('.d-export-urdf')]);
      fs.mkdirSync(artifacts, { recursive: true });
      const exported = path.join(artifacts, `tree-panel-export-${width}x${height}.urdf`); // kept with the screenshots
      fs.copyFileSync(await dl.path(), exported);
      assert.match(fs.readFileSync(exported, 'utf8'), /<achain:tool link="/);
      await page.evaluate(() => window.__achain.setRobot('puma560'));
      await page.setInputFiles('#urdf-files', [exported]);
      await page.waitForFunction(() => window.__achain.robot === 'two_arms' && window.__achain.studio.urdf?.model === window.__achain.studio.model, null, { timeout: 10000 });
      assert.equal(await page.$('.d-tree .t-ask'), null);
      const back = await page.evaluate((q) => { window.__achain.setQ(q); return { tool: window.__achain.tool, urdf: window.__achain.studio.urdf.toolLink }; }, Q);
      assert.ok(maxDiff(back.tool, leftTool) < 1e-9, `re-opened export: ${back.tool} vs ${leftTool}`);
      assert.ok((await rowsOf(page)).some((r) => r.tool && r.link === back.urdf));

      // a built-in: the panel lists the model's links; picking one sets the description's tool link
      await page.evaluate(() => window.__achain.setRobot('puma560'));
      await page.waitForFunction(() => document.querySelectorAll('.d-tree .t-link').length === 7);
      rows = await rowsOf(page);
      assert.equal(rows[0].link, 'base_link');
      assert.deepEqual(rows.filter((r) => r.tool).map((r) => r.link), [rows[6].link]);
      await page.click(`.d-tree .t-link[data-link="${rows[3].link}"] input`);
      await page.waitForFunction(() => window.__achain.studio.model.info.toolLink === 2);
      assert.deepEqual((await rowsOf(page)).filter((r) => r.tool).map((r) => r.link), [rows[3].link]);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
}

test('the gripper: fixed and mimic joints are marked, a continuous joint has no position limit', async () => {
  const { page, errors } = await openPage(browser, `${srv.url}#view=design`, { width: 1280, height: 800 });
  try {
    await waitReady(page);
    await page.setInputFiles('#urdf-files', [path.join(repo, 'tests/fixtures/urdf/gripper_mimic.urdf')]);
    await page.waitForSelector('.d-tree .t-ask', { state: 'visible', timeout: 10000 });
    assert.match(await page.textContent('.d-tree .t-ask'), /tree with 2 end links \(pad, tip_link\)/);
    const rows = await page.$$eval('.d-tree .t-link', (rs) => Object.fromEntries(rs.map((r) => [r.dataset.link,
      { text: r.querySelector('.t-info').textContent, fixed: r.classList.contains('fixed'), mimic: r.classList.contains('mimic') }])));
    assert.deepEqual(Object.keys(rows), ['base', 'palm', 'left', 'tip_link', 'right', 'pad']);
    assert.equal(rows.palm.text, 'wrist: continuous · no position limit');
    assert.equal(rows.left.text, 'finger_left: prismatic · 0 … 40 mm');
    assert.deepEqual([rows.tip_link.text, rows.tip_link.fixed], ['tip: fixed · end link', true]);
    assert.deepEqual([rows.right.text, rows.right.mimic], ['finger_right: prismatic · 0 … 40 mm · mimics finger_left', true]);
    assert.deepEqual([rows.pad.text, rows.pad.mimic], ['follower: prismatic · -1000 … 1000 mm · mimics finger_right ×2 · end link', true]);
    await page.click('.d-tree .t-link[data-link="tip_link"] input');
    await page.waitForFunction(() => window.__achain.robot === 'gripper' && window.__achain.studio.urdf?.toolLink === 'tip_link');
    const p = await page.evaluate((text) => {
      const a = window.__achain;
      a.setQ([0.3, 0.02]);
      const m = a.achain.modelFromUrdf(text, { toolLink: 'tip_link' });
      const core = Array.from(m.fkTool([0.3, 0.02]));
      m.dispose();
      return { studio: a.tool, core };
    }, fs.readFileSync(path.join(repo, 'tests/fixtures/urdf/gripper_mimic.urdf'), 'utf8'));
    assert.ok(maxDiff(p.studio, p.core) < 1e-12);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test('<achain-viewer src=…urdf>: a tree asks for the tool-link attribute (no CLI flag); tool-link="right_tool" gives the core\'s FK', async () => {
  const url = `${srv.url}robots/two_arms.urdf`;
  const text = fs.readFileSync(FIXTURE, 'utf8');
  const { page, errors, context } = await openPage(browser, `${srv.url}tutorials/index.html`);
  try {
    await page.route(url, (route) => route.fulfill({ status: 200, contentType: 'application/xml', body: text }));
    await page.setContent(`<!doctype html><html><head><link rel="icon" href="data:,"><script type="module" src="${srv.url}achain-viewer.js"></script></head>
      <body><achain-viewer id="v" src="${url}" height="240px"></achain-viewer></body></html>`);
    await page.waitForFunction(() => { const m = document.getElementById('v')?.shadowRoot?.querySelector('.msg'); return m && !m.hidden; }, null, { timeout: 30000 });
    const msg = await page.evaluate(() => document.getElementById('v').shadowRoot.querySelector('.msg').textContent);
    assert.match(msg, /two_arms is a tree with 2 end links \(left_tool, right_tool\): choose the tool link with the tool-link attribute/);
    assert.doesNotMatch(msg, /--tool-link/);
    await page.evaluate(() => new Promise((resolve) => {
      const v = document.getElementById('v');
      v.addEventListener('achain-load', resolve, { once: true });
      v.setAttribute('tool-link', 'right_tool');
    }));
    const p = await page.evaluate(({ q, text }) => {
      const v = document.getElementById('v');
      const m = v.achain.modelFromUrdf(text, { toolLink: 'right_tool' });
      const out = { viewer: Array.from(v.model.fkTool(q)), core: Array.from(m.fkTool(q)), hidden: v.shadowRoot.querySelector('.msg').hidden };
      m.dispose();
      return out;
    }, { q: Q, text });
    assert.ok(maxDiff(p.viewer, p.core) < 1e-12);
    assert.equal(p.hidden, true);
    assert.deepEqual(errors.filter((e) => !/favicon/.test(e)), []);
  } finally { await context.close(); }
});

// Issue 32, item 11: joint names were cut off in Design (a 76-px field: "shoulder_pan_joint" showed as "shoulder_p").
// Each name field now shows its whole name, at the narrowest layout too.
const LONG_NAMES = ['shoulder_pan_joint', 'shoulder_lift_joint', 'elbow_flex_joint', 'wrist_roll_joint_4'];
function serialUrdf(names) {
  const links = ['base_link', ...names.map((n) => `${n}_link`)].map((l) => `  <link name="${l}"/>`);
  const joints = names.map((n, i) => `  <joint name="${n}" type="revolute"><parent link="${i ? `${names[i - 1]}_link` : 'base_link'}"/>` +
    `<child link="${n}_link"/><origin xyz="0 0 0.2"/><axis xyz="${i % 2 ? '0 1 0' : '0 0 1'}"/><limit lower="-2" upper="2" effort="10" velocity="1"/></joint>`);
  return `<?xml version="1.0"?>\n<robot name="long_names">\n${links.join('\n')}\n${joints.join('\n')}\n</robot>\n`;
}
for (const [width, height] of [[800, 600], [1440, 900]]) {
  test(`Design shows each joint's whole name (${width}×${height})`, async () => {
    const { page, errors } = await openPage(browser, `${srv.url}#view=design`, { width, height });
    try {
      await waitReady(page);
      await page.setInputFiles('#urdf-files', [{ name: 'long_names.urdf', mimeType: 'application/xml', buffer: Buffer.from(serialUrdf(LONG_NAMES)) }]);
      await page.waitForFunction(() => window.__achain.robot === 'long_names', null, { timeout: 10000 });
      await page.click('#tabs button[data-view="design"]');
      const fields = await page.$$eval('.d-joint .d-head input[type=text]', (els) => els.map((e) => ({
        value: e.value, title: e.title, label: e.getAttribute('aria-label'), scroll: e.scrollWidth, client: e.clientWidth,
      })));
      assert.deepEqual(fields.map((f) => f.value), LONG_NAMES);
      for (const [k, f] of fields.entries()) {
        assert.ok(f.scroll <= f.client + 1, `${f.value}: text ${f.scroll} px in a ${f.client}-px field`);
        assert.equal(f.title, f.value);
        assert.equal(f.label, `joint ${k + 1} name`);
      }
      // nothing in the panel scrolls sideways
      assert.ok(await page.$eval('.view-panel[data-view="design"]', (p) => p.scrollWidth <= p.clientWidth + 1));
      await screenshot(page, `design-long-names-${width}x${height}`);
      assert.deepEqual(errors, []);
    } finally { await page.context().close(); }
  });
}

// Issue 32, item 6: Design showed DH a, α (all 0) for a joint placed by origin/axis, and editing one gave "give
// either origin/axis or the DH a/alpha, not both", a red box that stayed through later robot loads.
test('Design edits an origin/axis (URDF) joint by its origin and axis; an error does not outlive its robot', async () => {
  const { page, errors } = await openPage(browser, `${srv.url}#view=design&units=deg,mm`, { width: 1440, height: 900 });
  try {
    await waitReady(page);
    const urdf = serialUrdf(['j1', 'j2', 'j3']).replace('<joint name="j2" type="revolute"><parent link="j1_link"/><child link="j2_link"/><origin xyz="0 0 0.2"/>',
      '<joint name="j2" type="revolute"><parent link="j1_link"/><child link="j2_link"/><origin xyz="0.05 0 0.2" rpy="0.3 0 0"/>');
    assert.match(urdf, /rpy="0.3 0 0"/);
    await page.setInputFiles('#urdf-files', [{ name: 'origins.urdf', mimeType: 'application/xml', buffer: Buffer.from(urdf) }]);
    await page.waitForFunction(() => window.__achain.robot === 'long_names', null, { timeout: 10000 });
    await page.click('#tabs button[data-view="design"]');
    const D = '.view-panel[data-view="design"]';
    const labels = await page.$$eval(`${D} .d-joint[data-joint="1"] .d-grid:not(details .d-grid) input`, (els) => els.map((e) => [e.getAttribute('aria-label'), Number(e.value)]));
    const byLabel = Object.fromEntries(labels);
    assert.ok(!('joint 2 a' in byLabel) && !('joint 2 α' in byLabel), `no DH a/α fields: ${JSON.stringify(labels)}`);
    assert.equal(byLabel['joint 2 origin x'], 50);
    assert.equal(byLabel['joint 2 origin z'], 200);
    assert.ok(Math.abs(byLabel['joint 2 roll'] - 0.3 * 180 / Math.PI) < 1e-4, `roll ${byLabel['joint 2 roll']}°`);
    assert.deepEqual([byLabel['joint 2 axis x'], byLabel['joint 2 axis y'], byLabel['joint 2 axis z']], [0, 1, 0]);
    await screenshot(page, 'design-origin-axis');
    // an edit moves the joint: origin z 200 → 300 mm raises the tool of the straight arm (q = 0) by 0.1 m
    const z0 = await page.evaluate(() => window.__achain.tool[11]);
    await page.fill(`${D} input[aria-label="joint 2 origin z"]`, '300');
    await page.press(`${D} input[aria-label="joint 2 origin z"]`, 'Enter');
    await page.waitForFunction((z) => Math.abs(window.__achain.tool[11] - z - 0.1) < 1e-9, z0, { timeout: 5000 });
    assert.equal(await page.locator(`${D} .d-error`).isVisible(), false, await page.textContent(`${D} .d-error`));
    const roll = await page.evaluate(() => window.__achain.achain.matrixToRpy(window.__achain.studio.model.modelToJson().joints[1].origin.matrix.flat())[0]);
    assert.ok(Math.abs(roll - 0.3) < 1e-12, `the roll is kept: ${roll}`);
    // a zero axis is the core's error, shown on the field; loading another robot clears it
    for (const c of ['x', 'y', 'z']) {
      await page.fill(`${D} input[aria-label="joint 2 axis ${c}"]`, '0');
      await page.press(`${D} input[aria-label="joint 2 axis ${c}"]`, 'Enter');
    }
    await page.waitForSelector(`${D} .d-error:not([hidden])`);
    assert.match(await page.textContent(`${D} .d-error`), /^joints\[1\]\.axis: must not be the zero vector/);
    await page.evaluate(() => window.__achain.setRobot('puma560'));
    await page.waitForFunction(() => window.__achain.robot === 'puma560');
    assert.equal(await page.locator(`${D} .d-error`).isVisible(), false, `the error of the last robot is gone: ${await page.textContent(`${D} .d-error`)}`);
    const dh = await page.$$eval(`${D} .d-joint[data-joint="0"] input[type=number]`, (els) => els.map((e) => e.getAttribute('aria-label')));
    assert.ok(dh.includes('joint 1 a') && dh.includes('joint 1 α'), `a DH robot keeps its DH fields: ${dh}`);
    assert.deepEqual(errors, []);
  } finally { await page.context().close(); }
});
