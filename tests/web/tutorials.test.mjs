// Tutorial pages (docs/tutorials/*.html, copied to web/dist/tutorials/) and the <achain-viewer>
// web component: every page loads without console errors and each live viewer renders.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serveDist, launch, openPage, screenshot, canvasStats, dist, repo } from './helpers.mjs';
import { cli } from '../wasm/helpers.mjs';

let srv;
let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.close(); });

const pages = fs.readdirSync(path.join(repo, 'docs', 'tutorials')).filter((f) => f.endsWith('.html'));

test('the build ships the web component at a stable name and the tutorial pages', () => {
  assert.ok(fs.existsSync(path.join(dist, 'achain-viewer.js')), 'web/dist/achain-viewer.js');
  assert.ok(pages.length >= 4, `${pages.length} tutorial pages`);
  for (const p of pages) assert.ok(fs.existsSync(path.join(dist, 'tutorials', p)), `web/dist/tutorials/${p}`);
});

async function waitViewers(page) {
  await page.waitForFunction(() => {
    const vs = [...document.querySelectorAll('achain-viewer')];
    return vs.length > 0 && vs.every((v) => v.ready);
  }, null, { timeout: 30000 });
  await page.waitForTimeout(400);
}

for (const file of pages) {
  test(`tutorial ${file}: loads cleanly and every live viewer renders`, async () => {
    const { page, errors, context } = await openPage(browser, `${srv.url}tutorials/${file}`, { width: 1100, height: 900 });
    try {
      await waitViewers(page);
      const ids = await page.locator('achain-viewer').evaluateAll((vs) => vs.map((v, i) => { if (!v.id) v.id = `viewer-${i}`; return v.id; }));
      for (const id of ids) {
        const s = await canvasStats(page, `#${id} >>> canvas`);
        assert.ok(s && s.nonBackground / s.total > 0.01, `${file}#${id}: canvas blank (${JSON.stringify(s)})`);
      }
      const msgs = await page.locator('achain-viewer').evaluateAll((vs) => vs.map((v) => v.shadowRoot.querySelector('.msg')).filter((m) => !m.hidden).map((m) => m.textContent));
      assert.deepEqual(msgs, []);
      await page.locator('achain-viewer').first().scrollIntoViewIfNeeded();
      await screenshot(page, `tutorial-${file.replace('.html', '')}`);
      assert.deepEqual(errors, []);
    } finally { await context.close(); }
  });
}

test('<achain-viewer>: the prototype shows 24 legs, the thesis home pose, sliders move it, attributes are live', async () => {
  const { page, errors, context } = await openPage(browser, `${srv.url}tutorials/prototype-fk-ik.html`);
  try {
    await waitViewers(page);
    const home = await page.evaluate(() => { const v = document.getElementById('home'); return { legs: v.legCount, q: Array.from(v.q), text: v.shadowRoot.querySelector('.readout').textContent }; });
    assert.equal(home.legs, 24);
    assert.ok(home.q.every((x) => Math.abs(x - Math.PI) < 1e-12));
    assert.match(home.text, /38\.657/);
    // the IK example of the thesis: p ≈ (−1.345, −19.848, 13.763) in
    const ik = await page.evaluate(() => document.getElementById('ikex').shadowRoot.querySelector('.readout').dataset);
    const p = [Number(ik.px), Number(ik.py), Number(ik.pz)].map((v) => v / 0.0254);
    const want = [-1.3449, -19.8482, 13.7627];
    assert.ok(p.every((v, i) => Math.abs(v - want[i]) < 2e-3), `p = ${p}`);
    // sliders inside the component move the arm
    const drag = page.locator('#drag');
    const before = await drag.evaluate((v) => Array.from(v.q));
    const slider = drag.locator('input[type=range]').nth(2);
    await slider.scrollIntoViewIfNeeded();
    const box = await slider.boundingBox();
    await page.mouse.click(box.x + box.width * 0.2, box.y + box.height / 2);
    await page.waitForTimeout(150);
    const after = await drag.evaluate((v) => Array.from(v.q));
    assert.ok(Math.abs(after[2] - before[2]) > 0.1, `q3 ${before[2]} → ${after[2]}`);
    // changing the q attribute moves the viewer
    await page.evaluate(() => document.getElementById('home').setAttribute('q', '90,180,180,180'));
    const q2 = await page.evaluate(() => Array.from(document.getElementById('home').q));
    assert.ok(Math.abs(q2[0] - Math.PI / 2) < 1e-12);
    // a bad robot name shows the core's error inside the viewer instead of a blank canvas
    await page.evaluate(() => document.getElementById('home').setAttribute('robot', 'no-such-robot'));
    await page.waitForFunction(() => !document.getElementById('home').shadowRoot.querySelector('.msg').hidden);
    const msg = await page.evaluate(() => document.getElementById('home').shadowRoot.querySelector('.msg').textContent);
    assert.match(msg, /no-such-robot/);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('the A-pair tutorial plots d = ρ·sin(θ_v/2) from the core and the legs keep their length', async () => {
  const { page, errors, context } = await openPage(browser, `${srv.url}tutorials/apair.html`);
  try {
    await waitViewers(page);
    await page.waitForFunction(() => window.__apairPlot, null, { timeout: 10000 });
    const r = await page.evaluate(() => window.__apairPlot);
    const rho = 4 * Math.SQRT2; // in
    assert.ok(Math.abs(r.d180 - rho) < 1e-9, `d(180°) = ${r.d180} in`);
    assert.ok(Math.abs(r.d60 - rho / 2) < 1e-9, `d(60°) = ${r.d60} in`);
    assert.ok(Math.abs(r.d540 + rho) < 1e-9, `d(540°) = ${r.d540} in (sign flips after 360°)`);
    assert.ok(r.worstLeg < 1e-12, `leg length error ${r.worstLeg} m`);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

/** The FK/IK tutorial page with its drag viewer (#drag) rendered and scrolled into view. */
async function dragViewer() {
  const o = await openPage(browser, `${srv.url}tutorials/prototype-fk-ik.html`);
  try {
    await waitViewers(o.page);
    const drag = o.page.locator('#drag');
    await drag.scrollIntoViewIfNeeded();
    await o.page.waitForTimeout(300);
    return { ...o, drag };
  } catch (e) { await o.context.close(); throw e; }
}

test('<achain-viewer gizmo>: dragging the tool runs the core\'s IK and fires achain-ik', async (t) => {
  const { page, errors, context, drag } = await dragViewer();
  try {
    assert.ok(await drag.evaluate((v) => !!v.gizmo), 'the gizmo viewer has no gizmo');
    await page.evaluate(() => { window.__ik = []; document.getElementById('drag').addEventListener('achain-ik', (e) => window.__ik.push(e.detail.status)); });
    const before = await drag.evaluate((v) => ({ q: Array.from(v.q), tool: Array.from(v.tool) }));
    const p = await drag.evaluate((v) => { const T = v.tool; return v.project(T[3], T[7], T[11]); });
    await page.mouse.move(p.x, p.y);
    await page.mouse.down();
    for (let k = 1; k <= 10; k++) { await page.mouse.move(p.x - 4 * k, p.y + 3 * k); await page.waitForTimeout(30); }
    await page.mouse.up();
    await page.waitForTimeout(200);
    const after = await drag.evaluate((v) => ({ q: Array.from(v.q), tool: Array.from(v.tool) }));
    const moved = Math.hypot(after.tool[3] - before.tool[3], after.tool[7] - before.tool[7], after.tool[11] - before.tool[11]);
    assert.ok(moved > 0.005, `tool moved ${moved} m`);
    const statuses = await page.evaluate(() => window.__ik);
    assert.ok(statuses.length > 0 && statuses.every((s) => ['ok', 'unreachable', 'limits'].includes(s)), statuses.join(','));
    await screenshot(page, 'viewer-gizmo-drag', { locator: drag });
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('<achain-viewer> works from a bare page with one script tag', async () => {
  const { page, errors, context } = await openPage(browser, `${srv.url}tutorials/index.html`);
  try {
    await page.setContent(`<!doctype html><html><head><link rel="icon" href="data:,"><script type="module" src="${srv.url}achain-viewer.js"></script></head>
      <body><achain-viewer id="v" robot="puma560" q="0,45,-90,0,30,0" units="deg" controls readout height="300px"></achain-viewer></body></html>`);
    await page.waitForFunction(() => document.getElementById('v')?.ready, null, { timeout: 30000 });
    await page.waitForTimeout(300);
    const s = await canvasStats(page, '#v >>> canvas');
    assert.ok(s.nonBackground / s.total > 0.01);
    assert.equal(await page.evaluate(() => document.getElementById('v').shadowRoot.querySelectorAll('input[type=range]').length), 6);
    await screenshot(page, 'viewer-bare-page');
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('<achain-viewer gizmo>: the gizmo is large enough to grab and not under the readout (issue 18)', async () => {
  const { page, errors, context, drag } = await dragViewer();
  try {
    const r = await drag.evaluate((v) => {
      const T = v.tool;
      const p = v.project(T[3], T[7], T[11]);
      const ro = v.shadowRoot.querySelector('.readout').getBoundingClientRect();
      const view = v.shadowRoot.querySelector('.view').getBoundingClientRect();
      // the gizmo's arrows: 0.1 m along each base axis from the tool, on the screen
      const tips = [[0.1, 0, 0], [0, 0.1, 0], [0, 0, 0.1]].map(([x, y, z]) => v.project(T[3] + x, T[7] + y, T[11] + z));
      return { size: v.gizmo.size, p, tips, ro: { l: ro.left, r: ro.right, t: ro.top, b: ro.bottom }, view: { l: view.left, r: view.right, t: view.top, b: view.bottom } };
    });
    await screenshot(page, 'viewer-gizmo-grab', { locator: drag });
    assert.ok(r.size >= 1.5, `gizmo size ${r.size}`);
    // a 90-px square around the tool (the gizmo's arrows) clears the readout and stays inside the view
    const g = { l: r.p.x - 90, r: r.p.x + 90, t: r.p.y - 90, b: r.p.y + 90 };
    const overlap = !(g.r < r.ro.l || g.l > r.ro.r || g.b < r.ro.t || g.t > r.ro.b);
    assert.ok(!overlap, `the gizmo around ${JSON.stringify(r.p)} clears the readout ${JSON.stringify(r.ro)}`);
    for (const q of [r.p, ...r.tips]) assert.ok(q.x > r.view.l && q.x < r.view.r && q.y > r.view.t && q.y < r.view.b, `inside the view: ${JSON.stringify(q)}`);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('<achain-viewer gizmo>: a missed grab orbits the view and never loses the tool off-screen (issue 18)', async () => {
  const { page, errors, context, drag } = await dragViewer();
  try {
    const state = () => drag.evaluate((v) => {
      const T = v.tool;
      const r = v.viewport.canvas.getBoundingClientRect();
      return { p: v.project(T[3], T[7], T[11]), r: { l: r.left, t: r.top, w: r.width, h: r.height }, q: Array.from(v.q), cam: v.viewport.camera.position.toArray() };
    });
    const s0 = await state();
    const { r } = s0;
    // pointer-downs on empty space around the arm (the gizmo does not take them), then long drags
    // (without keeping the tool in view, the first drag, down from the top, already puts it above the canvas)
    const spots = [[0.1, 0.1], [0.1, 0.9], [0.12, 0.5], [0.88, 0.5], [0.9, 0.1], [0.5, 0.9]];
    const moves = [[0, 300], [0, -300], [115, 0], [-230, 0], [-100, 300], [300, -300]];
    let orbited = 0;
    for (let k = 0; k < moves.length; k++) {
      let a = null;
      for (let j = 0; j < spots.length && !a; j++) {
        const c = spots[(k + j) % spots.length];
        const b = { x: r.l + c[0] * r.w, y: r.t + c[1] * r.h };
        await page.mouse.move(b.x, b.y);
        await page.waitForTimeout(40);
        if (await drag.evaluate((v) => v.gizmo.axis) === null) a = b; // the gizmo does not take this pointer-down
      }
      assert.ok(a, `drag ${k}: a spot off the gizmo`);
      const before = await state();
      await page.mouse.down();
      for (let i = 1; i <= 15; i++) { await page.mouse.move(a.x + moves[k][0] * i / 15, a.y + moves[k][1] * i / 15); await page.waitForTimeout(20); }
      await page.mouse.up();
      await page.waitForTimeout(400); // the orbit's damping settles
      const s = await state();
      if (Math.hypot(...s.cam.map((v, i) => v - before.cam[i])) > 1e-3) orbited++;
      assert.ok(s.p.x > r.l && s.p.x < r.l + r.w && s.p.y > r.t && s.p.y < r.t + r.h,
        `drag ${k}: the tool at ${JSON.stringify(s.p)} stays inside the canvas ${JSON.stringify(r)}`);
      assert.ok(s.q.every((v, i) => v === s0.q[i]), `drag ${k}: a missed grab does not move the arm`);
    }
    assert.ok(orbited >= 3, `the missed grabs orbit the camera (${orbited} of ${moves.length})`);
    await screenshot(page, 'viewer-missed-grab', { locator: drag });
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('closed-chains tutorial: the five-bar viewer moves by its coordinates with the loop closed; Freeman\'s Table C-3 from the live model', async () => {
  const { page, errors, context } = await openPage(browser, `${srv.url}tutorials/closed-chains.html`, { width: 1100, height: 900 });
  try {
    await waitViewers(page);
    await page.waitForFunction(() => !!window.__closedChains, null, { timeout: 30000 });
    const r = await page.evaluate(() => window.__closedChains);
    assert.equal(r.failed, null);
    assert.equal(r.poses, 101);
    for (const row of r.rows) assert.ok(Math.abs(row.got - row.want) <= 0.005 * Math.abs(row.want) + 1e-4, `${row.n}: ${row.got} vs ${row.want}`);
    // the viewer: sliders are the coordinates y; the animation keeps the free end on the pin
    const v = page.locator('#fivebar');
    assert.deepEqual(await v.evaluate((el) => [...el.shadowRoot.querySelectorAll('.joint b')].map((b) => b.textContent)), ['y1 O1', 'y2 tool angle θz']);
    const gaps = [];
    for (let k = 0; k < 5; k++) {
      await page.waitForTimeout(250);
      gaps.push(await v.evaluate((el) => {
        const g = el.model.info.loop.ground, t = el.tool;
        return { gap: Math.hypot(t[3] - g[3], t[7] - g[7]), q0: el.q[0] };
      }));
    }
    assert.ok(gaps.every((s) => s.gap < 1e-9), JSON.stringify(gaps));
    assert.ok(new Set(gaps.map((s) => s.q0.toFixed(6))).size > 1, 'the animation moves crank 1');
    await page.locator('#tcplot').scrollIntoViewIfNeeded();
    await screenshot(page, 'tutorial-closed-chains-plot');
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('vibration tutorial: the modes and the trapezoid check from the live model equal the native CLI\'s; shaping cuts the ringing', async () => {
  const { page, errors, context } = await openPage(browser, `${srv.url}tutorials/vibration.html`, { width: 1100, height: 900 });
  try {
    await waitViewers(page);
    await page.waitForFunction(() => !!window.__vibration?.check, null, { timeout: 60000 });
    const r = await page.evaluate(() => window.__vibration);
    const drive = path.join(repo, 'core/robots/variants/prototype-4a-drive.json');
    // the page and the CLI both take the stiffness from the file's drive blocks (827 lbf·in/deg)
    const modes = cli('drive-modes', '--robot', drive, '--q', '180,180,180,180', '--deg');
    modes.joint_stiffness.forEach((k) => assert.ok(Math.abs(k - 827 * 0.1129848290276167 / (Math.PI / 180)) < 1e-9 * k));
    const native = modes.modes.map((m) => m.frequency_hz);
    assert.equal(r.modesHz.length, 4);
    r.modesHz.forEach((f, i) => assert.ok(Math.abs(f - native[i]) <= 1e-9 * native[i], `mode ${i + 1}: page ${f} Hz, CLI ${native[i]} Hz`));
    const check = cli('drive-check', '--robot', drive, '--from', '60,60,60,60', '--to', '300,300,300,300', '--deg');
    const byShaper = Object.fromEntries(check.results.map((x) => [x.shaper, x]));
    for (const row of r.check) {
      const n = byShaper[row.shaper];
      assert.ok(n, `CLI row for ${row.shaper}`);
      assert.ok(Math.abs(row.residual - n.residual_tip_vibration_m) <= 1e-9 * n.residual_tip_vibration_m + 1e-15, `${row.shaper} residual: page ${row.residual}, CLI ${n.residual_tip_vibration_m}`);
      assert.ok(Math.abs(row.peak - n.peak_tip_error_m) <= 1e-9 * n.peak_tip_error_m, `${row.shaper} peak: page ${row.peak}, CLI ${n.peak_tip_error_m}`);
    }
    const res = Object.fromEntries(r.check.map((x) => [x.shaper, x.residual]));
    assert.ok(res.zv < res.none / 5 && res.zvd < res.zv, JSON.stringify(res));
    // a slider move re-computes the modes (another pose, other frequencies)
    await page.locator('#arm').evaluate((el) => el.setQ(Float64Array.from([180, 90, 200, 180].map((d) => d * Math.PI / 180)), 'test'));
    await page.waitForFunction((q0) => window.__vibration.q[1] !== q0, r.q[1], { timeout: 10000 });
    const moved = await page.evaluate(() => window.__vibration.modesHz);
    assert.ok(moved.some((f, i) => Math.abs(f - r.modesHz[i]) > 1e-3), `${moved} vs ${r.modesHz}`);
    await page.locator('#tipplot').scrollIntoViewIfNeeded();
    await screenshot(page, 'tutorial-vibration-plot');
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});
