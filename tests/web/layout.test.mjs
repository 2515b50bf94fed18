// Issue 32: layout bugs of the studio and the <achain-viewer> component.
//  1. the Controller view's number fields are wide enough to click their text (not the spinner) and are labelled;
//  2. the view tabs fit (every label fully visible and clickable) at 800, 1366, 1440, 1536 and 1920 px;
//  3. warnings are one collapsible list in a corner of the 3D view, cleared when another robot is loaded;
//  4. <achain-viewer>: a src that cannot be fetched says so (HTTP status, URL); a new robot starts at its home
//     pose unless q comes with it; a q outside the joint limits shows a warning.
// Screenshots: test-results/web/layout-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, waitReady, screenshot } from './helpers.mjs';

let srv;
let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.close(); });

async function open(hash, size) {
  const o = await openPage(browser, srv.url + hash, size);
  await waitReady(o.page);
  await o.page.waitForTimeout(200);
  return o;
}

// ------------------------------------------------------------------ 1. number fields
test('Controller view: every number field is at least 64 px wide, a click in it does not change it, and it has a label', async () => {
  const { page, errors, context } = await open('#robot=prototype-4a&view=controller', { width: 1440, height: 900 });
  try {
    const C = '.view-panel[data-view="controller"]';
    await page.waitForSelector('[data-testid=ctl-connect]');
    await page.click('[data-testid=ctl-connect]');
    await page.waitForFunction(() => document.querySelector('[data-testid=ctl-message]').textContent.startsWith('Connected'), null, { timeout: 20000 });
    const inputs = page.locator(`${C} input[type=number]`);
    const n = await inputs.count();
    assert.ok(n >= 1 + 3 * 4, `the baud rate and 3 configuration fields per joint: ${n} number fields`);
    const narrow = [];
    const changed = [];
    for (let i = 0; i < n; i++) {
      const inp = inputs.nth(i);
      if (!await inp.isVisible()) continue;
      await inp.scrollIntoViewIfNeeded();
      const box = await inp.boundingBox();
      if (box.width < 64) narrow.push(`#${i} ${Math.round(box.width)} px`);
      const before = await inp.inputValue();
      await inp.click(); // the middle of the field
      await page.waitForTimeout(30);
      const after = await inp.inputValue();
      if (after !== before) changed.push(`#${i} ${before} → ${after}`);
    }
    assert.deepEqual(narrow, [], 'number fields narrower than 64 px');
    assert.deepEqual(changed, [], 'a click in the middle of a number field changed its value');
    // accessible names: from the accessibility tree (a <label for>, a wrapping label or aria-label)
    const names = await inputs.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') || [...(e.labels ?? [])].map((l) => l.textContent.trim()).join(' ')));
    const snap = await page.locator(C).ariaSnapshot();
    const spin = snap.split('\n').filter((l) => /- spinbutton/.test(l));
    assert.equal(spin.length, n, `every number field is a spinbutton of the accessibility tree:\n${snap}`);
    const unnamed = spin.filter((l) => !/- spinbutton "[^"]+"/.test(l));
    assert.deepEqual(unnamed, [], 'number fields without an accessible name');
    for (const name of names) assert.equal(await page.getByLabel(name, { exact: true }).count(), 1, `getByLabel("${name}") finds one field`);
    assert.ok(names.includes('joint 1 gear ratio'), `names: ${names.join(' | ')}`);
    await screenshot(page, 'layout-controller-config', { locator: page.locator(C) });
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

for (const [width, height] of [[1440, 900], [800, 600]]) {
  test(`every view's number fields are at least 64 px wide and labelled at ${width}×${height}`, async () => {
    const { page, errors, context } = await open('#robot=prototype-4a&view=teleop', { width, height });
    try {
      const narrow = [];
      const unnamed = [];
      for (const v of ['design', 'teleop', 'motion', 'workspace', 'controller', 'vibration', 'sweep']) {
        await page.click(`#tabs button[data-view="${v}"]`);
        await page.waitForTimeout(200);
        // every <details> of the view open, so the fields inside are measured too
        const r = await page.evaluate(() => {
          document.querySelectorAll('.view-panel:not([hidden]) details').forEach((d) => { d.open = true; });
          return [...document.querySelectorAll('input[type=number]')].filter((e) => e.offsetParent).map((e) => ({
            width: Math.round(e.getBoundingClientRect().width),
            what: e.className || e.dataset.field || e.outerHTML.slice(0, 80),
            name: e.getAttribute('aria-label') || [...(e.labels ?? [])].map((l) => l.textContent.trim()).join(' '),
          }));
        });
        for (const x of r) {
          if (x.width < 64) narrow.push(`${v}: ${x.what} (${x.name}) ${x.width} px`);
          if (!x.name) unnamed.push(`${v}: ${x.what}`);
        }
      }
      assert.deepEqual(narrow, [], 'number fields narrower than 64 px');
      assert.deepEqual(unnamed, [], 'number fields without a label');
      assert.deepEqual(errors, []);
    } finally { await context.close(); }
  });
}

// ------------------------------------------------------------------ 2. tabs
for (const [width, height] of [[800, 600], [1366, 768], [1440, 900], [1536, 864], [1920, 1080]]) {
  test(`tabs: every view tab is fully visible and clickable at ${width}×${height}`, async () => {
    const { page, errors, context } = await open('#robot=prototype-4a&view=teleop', { width, height });
    try {
      const tabs = await page.locator('#tabs button').evaluateAll((bs) => bs.map((b) => {
        const r = b.getBoundingClientRect();
        const nav = b.parentElement.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return {
          label: b.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom,
          navLeft: nav.left, navRight: nav.right, scrollWidth: b.scrollWidth, clientWidth: b.clientWidth,
          hit: hit === b || b.contains(hit),
        };
      }));
      assert.equal(tabs.length, 7);
      await screenshot(page, `layout-tabs-${width}`);
      for (const t of tabs) {
        assert.ok(t.left >= 0 && t.right <= width && t.top >= 0 && t.bottom <= height, `${t.label} inside the ${width}×${height} window: ${JSON.stringify(t)}`);
        assert.ok(t.left >= t.navLeft - 0.5 && t.right <= t.navRight + 0.5, `${t.label} not clipped by the tab bar: ${JSON.stringify(t)}`);
        assert.ok(t.scrollWidth <= t.clientWidth, `${t.label}: text not truncated (${t.scrollWidth} > ${t.clientWidth})`);
        assert.ok(t.hit, `${t.label}: its middle is the tab itself (not covered)`);
      }
      // each tab is clickable where it is, and its view fits the window: a picture of each (layout-WIDTH-VIEW.png,
      // 35 in all, looked at for issue 32), and nothing of the page runs past the window's right or bottom edge
      // (the panels scroll inside themselves)
      for (const id of ['design', 'teleop', 'motion', 'workspace', 'controller', 'vibration', 'sweep']) {
        await page.click(`#tabs button[data-view="${id}"]`, { timeout: 3000 });
        assert.equal(await page.getAttribute(`#tabs button[data-view="${id}"]`, 'aria-selected'), 'true');
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        await screenshot(page, `layout-${width}-${id}`);
        const page_ = await page.evaluate(() => ({ w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight }));
        assert.ok(page_.w <= width && page_.h <= height, `${id} at ${width}×${height}: the page is ${page_.w}×${page_.h}`);
        // a check box and the first line of its label's text share a row (at 800 px the Controller's
        // "stream the studio's joints" went to a line of its own, below a lone box)
        const apart = await page.evaluate(() => [...document.querySelectorAll('.view-panel:not([hidden]) label')].flatMap((l) => {
          const box = l.querySelector('input[type=checkbox]');
          const text = [...l.childNodes].find((n) => n.nodeType === 3 && n.textContent.trim());
          if (!box || !text || !box.offsetParent) return [];
          const range = document.createRange();
          range.selectNodeContents(text);
          const line = range.getClientRects()[0];
          const b = box.getBoundingClientRect();
          return line && Math.abs((line.top + line.bottom) / 2 - (b.top + b.bottom) / 2) > 8 ? [text.textContent.trim()] : [];
        }));
        assert.deepEqual(apart, [], `${id} at ${width}×${height}: check boxes apart from their labels`);
      }
      assert.deepEqual(errors, []);
    } finally { await context.close(); }
  });
}

// ------------------------------------------------------------------ 3. warnings
/** A URDF chain of `n` revolute joints whose links each draw a mesh file that is not given. */
function missingMeshUrdf(n) {
  const inertial = '<inertial><origin xyz="0 0 0"/><mass value="0.5"/><inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial>';
  const link = (k) => `<link name="l${k}"><visual><origin xyz="0 0 0.02"/><geometry><mesh filename="package://lost/meshes/part${k}.stl"/></geometry></visual>${inertial}</link>`;
  let s = `<?xml version="1.0"?>\n<robot name="lostmeshes">\n${link(0)}\n`;
  for (let k = 1; k <= n; k++) {
    s += `<joint name="j${k}" type="revolute"><parent link="l${k - 1}"/><child link="l${k}"/><origin xyz="0 0 0.04"/><axis xyz="${k % 2 ? '0 0 1' : '0 1 0'}"/><limit lower="-2" upper="2" effort="5" velocity="2"/></joint>\n${link(k)}\n`;
  }
  return `${s}</robot>\n`;
}

// Issue 32 (screenshots of every tab at five sizes): at 800×600 Teleoperate's Goal menu, the Controller's file
// picker and the Vibration mode table ran past the side panel's right edge (cut off).
test('800×600: nothing in any view\'s side panel runs past the panel\'s edge', async () => {
  const { page, errors, context } = await open('#robot=prototype-4a&view=design', { width: 800, height: 600 });
  try {
    const over = {};
    for (const v of ['design', 'teleop', 'motion', 'workspace', 'controller', 'controller/dynamixel', 'controller/feetech', 'vibration', 'sweep']) {
      const [tab, link] = v.split('/');
      await page.click(`#tabs button[data-view="${tab}"]`);
      if (link) {  // the Controller view's bus panels (servo-bus.test.mjs opens them)
        await page.selectOption('[data-testid=controller-link]', link);
        await page.waitForSelector(`[data-testid=bus-mount-${link}] [data-testid=bus-open]`);
      }
      await page.waitForTimeout(300);
      const cut = await page.evaluate((v) => {
        const p = document.querySelector(`.view-panel[data-view="${v.split('/')[0]}"]`);
        const edge = p.getBoundingClientRect().right;
        return [...p.querySelectorAll('*')].filter((e) => { const b = e.getBoundingClientRect(); return b.width > 0 && b.right > edge + 1; })
          .map((e) => `${e.tagName.toLowerCase()}${e.className ? `.${String(e.className).split(' ')[0]}` : ''}`);
      }, v);
      if (cut.length) over[v] = cut.slice(0, 4);
    }
    await screenshot(page, 'layout-vibration-800x600');
    assert.deepEqual(over, {});
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('warnings: one collapsed list with a count in a corner of the 3D view, cleared by another robot', async () => {
  const { page, errors, context } = await open('#robot=prototype-4a&view=design', { width: 1440, height: 900 });
  try {
    const urdf = missingMeshUrdf(24); // 25 links, 25 missing meshes
    await page.evaluate(async (text) => {
      await window.__achain.openUrdf([{ path: 'lost/lost.urdf', file: new File([text], 'lost.urdf') }]);
    }, urdf);
    await page.waitForFunction(() => window.__achain.robot === 'lostmeshes');
    await page.waitForTimeout(300);
    const list = page.locator('#warnings');
    const state = async () => page.evaluate(() => {
      const box = document.getElementById('warnings');
      const items = [...box.querySelectorAll('.warn-item')].map((e) => e.textContent);
      const r = box.getBoundingClientRect();
      const c = document.querySelector('#viewport canvas').getBoundingClientRect();
      const visible = !box.hidden && r.width > 0 && r.height > 0;
      return { open: box.open, summary: box.querySelector('summary')?.textContent ?? '', items, visible, area: (r.width * r.height) / (c.width * c.height) };
    });
    let s = await state();
    assert.equal(await list.evaluate((e) => e.tagName), 'DETAILS', 'the warnings are one <details> list');
    const missing = s.items.filter((t) => /mesh not found/.test(t));
    assert.equal(missing.length, 25, `25 missing-mesh warnings: ${s.items.join(' | ')}`);
    assert.equal(s.open, false, 'collapsed by default');
    assert.match(s.summary, new RegExp(`⚠\\s*${s.items.length} warnings`), `the summary counts ${s.items.length}: "${s.summary}"`);
    assert.ok(s.visible && s.area < 0.15, `the collapsed list covers ${(100 * s.area).toFixed(1)} % of the 3D view`);
    await screenshot(page, 'layout-warnings-collapsed');
    // an MJCF export adds its warnings to the same list (still collapsed, counted)
    const P = '.view-panel[data-view="design"]';
    await Promise.all([page.waitForEvent('download'), page.click(`${P} .d-export-mjcf`)]);
    await page.waitForTimeout(200);
    const s2 = await state();
    assert.ok(s2.items.some((t) => /^MJCF export:/.test(t)), `the export's warnings are listed: ${s2.items.join(' | ')}`);
    assert.ok(s2.items.length > s.items.length);
    assert.equal(s2.open, false);
    assert.match(s2.summary, new RegExp(`⚠\\s*${s2.items.length} warnings`));
    assert.ok(s2.area < 0.15, `collapsed after the export: ${(100 * s2.area).toFixed(1)} %`);
    // opened: the list scrolls inside a corner instead of covering the view
    await page.click('#warnings summary');
    const s3 = await state();
    assert.equal(s3.open, true);
    await screenshot(page, 'layout-warnings-open');
    // another robot: the URDF's and the export's warnings are gone
    await page.evaluate(() => window.__achain.setRobot('puma560'));
    await page.waitForTimeout(300);
    const s4 = await state();
    assert.deepEqual(s4.items.filter((t) => /mesh not found|MJCF export|lost\.urdf/.test(t)), [], `left over: ${s4.items.join(' | ')}`);
    if (!s4.items.length) assert.equal(s4.visible, false, 'no warnings: no list');
    await screenshot(page, 'layout-warnings-cleared');
    assert.deepEqual(errors.filter((e) => !/HTTP 404|requestfailed/.test(e)), []);
  } finally { await context.close(); }
});

// ------------------------------------------------------------------ 4. <achain-viewer>
async function bare(body) {
  const o = await openPage(browser, `${srv.url}tutorials/index.html`);
  await o.page.setContent(`<!doctype html><html><head><link rel="icon" href="data:,"><script type="module" src="${srv.url}achain-viewer.js"></script></head>
    <body>${body}</body></html>`);
  return o;
}

test('<achain-viewer src>: a URL that answers 404 is reported as not fetched, with the status and the URL', async () => {
  const url = `${srv.url}robots/no-such-robot.json`;
  const { page, context } = await bare(`<achain-viewer id="v" src="${url}" height="240px"></achain-viewer>`);
  try {
    await page.waitForFunction(() => { const m = document.getElementById('v')?.shadowRoot?.querySelector('.msg'); return m && !m.hidden; }, null, { timeout: 30000 });
    const msg = await page.evaluate(() => document.getElementById('v').shadowRoot.querySelector('.msg').textContent);
    assert.match(msg, /could not be fetched/i, msg);
    assert.match(msg, /HTTP 404/, msg);
    assert.ok(msg.includes(url), `names the URL: ${msg}`);
    assert.doesNotMatch(msg, /XML|malformed|parse/i, msg);
    await screenshot(page, 'layout-viewer-404');
  } finally { await context.close(); }
});

test('<achain-viewer src>: a server answering a missing file with its HTML index page (SPA fallback) is not parsed as a robot', async () => {
  // vite's dev and preview servers answer any unknown path with index.html and status 200
  const url = `${srv.url}robots/missing-robot.json`;
  const { page, context } = await openPage(browser, `${srv.url}tutorials/index.html`);
  try {
    await page.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html>\n<html><head><title>achain studio</title></head><body></body></html>\n' }));
    await page.setContent(`<!doctype html><html><head><link rel="icon" href="data:,"><script type="module" src="${srv.url}achain-viewer.js"></script></head>
      <body><achain-viewer id="v" src="${url}" height="240px"></achain-viewer></body></html>`);
    await page.waitForFunction(() => { const m = document.getElementById('v')?.shadowRoot?.querySelector('.msg'); return m && !m.hidden; }, null, { timeout: 30000 });
    const msg = await page.evaluate(() => document.getElementById('v').shadowRoot.querySelector('.msg').textContent);
    assert.match(msg, /could not be fetched/i, msg);
    assert.match(msg, /HTML page/, msg);
    assert.ok(msg.includes(url), `names the URL: ${msg}`);
    assert.doesNotMatch(msg, /XML|malformed|parse/i, msg);
  } finally { await context.close(); }
});

test('<achain-viewer>: a new robot starts at its home pose unless q comes with it; a q outside the limits is warned', async () => {
  const { page, errors, context } = await bare(`<achain-viewer id="v" robot="puma560" q="0,45,-60,0,30,0" units="deg" controls height="300px"></achain-viewer>
    <achain-viewer id="ref" robot="stanford" height="200px"></achain-viewer>`);
  try {
    await page.waitForFunction(() => document.getElementById('v')?.ready && document.getElementById('ref')?.ready, null, { timeout: 30000 });
    const warning = () => page.evaluate(() => { const w = document.getElementById('v').shadowRoot.querySelector('.warn'); return w && !w.hidden ? w.textContent : ''; });
    // sets the viewer's attributes in one task (in this order) and waits for the robot it loads
    const setAndLoad = async (attrs) => {
      await page.evaluate((a) => new Promise((resolve) => {
        const v = document.getElementById('v');
        v.addEventListener('achain-load', () => resolve(), { once: true });
        for (const [k, val] of a) v.setAttribute(k, val);
      }), attrs);
      await page.waitForTimeout(100);
    };
    assert.equal(await warning(), '', 'the puma at q within its limits: no warning');
    // robot changes alone → the new robot's home pose (the same as a fresh viewer of that robot)
    await setAndLoad([['robot', 'stanford']]);
    const r = await page.evaluate(() => {
      const v = document.getElementById('v');
      return { name: v.model.name, q: Array.from(v.q), home: Array.from(document.getElementById('ref').q), within: v.model.withinLimits(v.q) };
    });
    assert.equal(r.name, 'stanford');
    assert.deepEqual(r.q, r.home, 'the new robot starts at its home pose, not the old q');
    assert.equal(r.within, true);
    assert.equal(await warning(), '');
    await screenshot(page, 'layout-viewer-robot-change', { locator: page.locator('#v') });
    // robot and q changed together → that q
    await setAndLoad([['robot', 'puma560'], ['q', '10,20,-30,0,40,0']]);
    const q2 = await page.evaluate(() => Array.from(document.getElementById('v').q, (x) => Math.round(x * 180 / Math.PI)));
    assert.deepEqual(q2, [10, 20, -30, 0, 40, 0]);
    // a q outside the joint limits (the core's withinLimits) → a visible warning naming the joint as q1…qn
    await setAndLoad([['robot', 'stanford'], ['q', '0,0,-60,0,0,0']]);
    assert.equal(await page.evaluate(() => document.getElementById('v').model.withinLimits(document.getElementById('v').q)), false);
    const w = await warning();
    assert.match(w, /q3/, `the warning names q3: "${w}"`);
    assert.match(w, /limit/, w);
    await screenshot(page, 'layout-viewer-out-of-limits', { locator: page.locator('#v') });
    // back within the limits → the warning goes
    await page.evaluate(() => document.getElementById('v').setAttribute('q', '0,0,0.5,0,0,0'));
    await page.waitForTimeout(100);
    assert.equal(await warning(), '');
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('800×600: the pose readout covers none of the arm\'s joint origins or its tool (prototype-4a, stanford, puma560)', async () => {
  // Before: the readout's seven rows covered the prototype's tool (where the gizmo is grabbed) and a stanford joint.
  // In a small window it keeps position and roll-pitch-yaw and drops the rotation matrix rows.
  for (const robot of ['prototype-4a', 'stanford', 'puma560']) {
    const { page, errors, context } = await open(`#robot=${robot}`, { width: 800, height: 600 });
    try {
      await page.waitForTimeout(300);
      const r = await page.evaluate(() => {
        const a = window.__achain;
        const box = document.querySelector('.readout').getBoundingClientRect();
        const pts = a.studio.lastFk.frames.map((T) => a.screenOf(T[3], T[7], T[11]));
        const tool = a.studio.lastFk.tool;
        pts.push(a.screenOf(tool[3], tool[7], tool[11]));
        return { rows: document.querySelectorAll('.readout > div:not(.r-row)').length, covered: pts.filter((p) => p.x >= box.left && p.x <= box.right && p.y >= box.top && p.y <= box.bottom).length };
      });
      assert.equal(r.rows, 4, `${robot}: tool header, p mm, p in, rpy`);
      assert.equal(r.covered, 0, `${robot}: points under the readout`);
      assert.deepEqual(errors, []);
    } finally { await context.close(); }
  }
});
