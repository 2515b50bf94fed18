// Teleoperate view: dragging the tool gizmo runs the core's IK every frame; the camera stays
// still while dragging; the joint readout agrees with the native CLI's FK; all IK solutions
// show as ghosts and one click switches; R-twin overlay; URL state.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { serveDist, launch, openPage, waitReady, screenshot, canvasStats, repo, zArrow } from './helpers.mjs';

const cliPath = path.join(repo, 'build/native/achain');
let srv;
let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.close(); });

async function teleop(hash = '#view=teleop') {
  const o = await openPage(browser, srv.url + hash);
  await waitReady(o.page);
  await o.page.waitForTimeout(200);
  return o;
}

test('dragging the tool gizmo moves the tool; IK follows; camera still; joints agree with the native FK', async (t) => {
  const { page, errors, context } = await teleop('#robot=prototype-4a&q=150,120,200,100&view=teleop');
  try {
    const before = await page.evaluate(() => ({ q: window.__achain.q, tool: window.__achain.tool, cam: window.__achain.studio.viewport.camera.position.toArray() }));
    const start = await page.evaluate(([x, y, z]) => window.__achain.screenOf(x, y, z), [before.tool[3], before.tool[7], before.tool[11]]);
    await screenshot(page, 'teleop-before-drag');
    await page.mouse.move(start.x, start.y);
    await page.waitForTimeout(50);
    await page.mouse.down();
    for (let k = 1; k <= 12; k++) {
      await page.mouse.move(start.x + 5 * k, start.y + 2 * k);
      await page.waitForTimeout(30);
    }
    const mid = await page.evaluate(() => ({ dragging: window.__achain.views.teleop.dragging, orbit: window.__achain.studio.viewport.controls.enabled }));
    assert.equal(mid.dragging, true, 'the gizmo grabbed the tool');
    assert.equal(mid.orbit, false, 'orbit controls are paused while dragging');
    await page.mouse.up();
    await page.waitForTimeout(200);
    const after = await page.evaluate(() => ({
      q: window.__achain.q, tool: window.__achain.tool, cam: window.__achain.studio.viewport.camera.position.toArray(),
      orbit: window.__achain.studio.viewport.controls.enabled, status: document.querySelector('.ik-status').dataset.status,
    }));
    await screenshot(page, 'teleop-after-drag');
    assert.equal(after.orbit, true, 'orbit controls back after the drag');
    const moved = Math.hypot(after.tool[3] - before.tool[3], after.tool[7] - before.tool[7], after.tool[11] - before.tool[11]);
    assert.ok(moved > 0.01, `tool moved ${moved} m`);
    assert.ok(after.q.some((v, i) => Math.abs(v - before.q[i]) > 1e-3), 'joints changed');
    assert.ok(after.cam.every((v, i) => Math.abs(v - before.cam[i]) < 1e-9), 'camera did not move while dragging');
    assert.ok(['ok', 'unreachable', 'limits'].includes(after.status), after.status);
    // continuity: a small drag gives a small joint change (no branch flip)
    const dq = Math.max(...after.q.map((v, i) => Math.abs(v - before.q[i])));
    assert.ok(dq < 1.0, `largest joint change ${dq} rad`);
    // the page's joint readout, fed to the native CLI, gives the page's tool pose
    const qText = await page.locator('.view-panel[data-view="teleop"] .sliders input[type=number]').evaluateAll((els) => els.map((e) => Number(e.value)));
    assert.ok(qText.every((v, i) => Math.abs(v - after.q[i] * 180 / Math.PI) < 0.006), `readout ${qText} vs q`);
    if (fs.existsSync(cliPath)) {
      const out = JSON.parse(execFileSync(cliPath, ['fk', '--robot', 'prototype-4a', '--q', after.q.map((v) => v.toPrecision(17)).join(',')], { encoding: 'utf8' }));
      const T = out.T.flat();
      const d = Math.max(...T.map((v, i) => Math.abs(v - after.tool[i])));
      assert.ok(d < 1e-12, `native FK differs from the page's tool pose by ${d}`);
      const pz = Number(await page.locator('#readout').getAttribute('data-pz'));
      assert.ok(Math.abs(pz - T[11]) < 1e-12);
    } else {
      assert.fail('native CLI not built: npm test builds it before the browser suite');
    }
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('an unreachable full-pose target holds the nearest pose and says so', async () => {
  const { page, errors, context } = await teleop('#robot=prototype-4a&q=150,120,200,100&view=teleop');
  try {
    const r = await page.evaluate(() => {
      const v = window.__achain.views.teleop;
      const T = Float64Array.from(window.__achain.tool);
      T[3] += 5; // 5 m away: out of reach
      const a = v.solveToward(T, {});
      const q1 = window.__achain.q;
      const b = v.solveToward(T, {});
      return { status: a.status, err: a.positionError, q1, q2: window.__achain.q, text: document.querySelector('.ik-status').textContent };
    });
    assert.equal(r.status, 'unreachable');
    assert.ok(r.err > 3, `position error ${r.err}`);
    assert.ok(r.q1.every((v, i) => Math.abs(v - r.q2[i]) < 1e-4), 'no jitter when solving the same unreachable target again');
    assert.match(r.text, /unreachable/);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('all IK solutions appear as ghost arms; clicking one switches the arm to it', async () => {
  const { page, errors, context } = await teleop('#robot=puma560&q=10,30,-40,20,30,10&view=teleop');
  try {
    const tool0 = await page.evaluate(() => window.__achain.tool);
    await page.click('.solve-all');
    await page.waitForTimeout(200);
    const n = await page.evaluate(() => window.__achain.views.teleop.ghosts.length);
    assert.ok(n >= 2, `${n} ghost arms`);
    const buttons = page.locator('.solutions .solution button:not([disabled])');
    assert.equal(await buttons.count(), n);
    await screenshot(page, 'teleop-ik-solutions');
    const q0 = await page.evaluate(() => window.__achain.q);
    let switched = false;
    for (let k = 0; k < n; k++) {
      await buttons.nth(k).click();
      const q = await page.evaluate(() => window.__achain.q);
      const tool = await page.evaluate(() => window.__achain.tool);
      const dp = Math.max(...tool.map((v, i) => Math.abs(v - tool0[i])));
      assert.ok(dp < 1e-6, `solution ${k} reaches the same tool pose (|ΔT| = ${dp})`);
      if (q.some((v, i) => Math.abs(v - q0[i]) > 1e-3)) switched = true;
    }
    assert.ok(switched, 'at least one solution is a different arm configuration');
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

/**
 * Drags the gizmo's z arrow down in 12 frames (mouse left down) while counting the ghost redraws, then reads
 * the live branches: how often the ghosts followed, how many are alive, visible and inside the limits, whether
 * they are distinct, the largest |ΔT| of a live ghost's FK against the dragged tool pose, the tool pose and
 * the solutions heading. Returns { steps, moved (m), ...that }.
 */
async function dragWithGhosts(page) {
  await page.evaluate(() => {
    const v = window.__achain.views.teleop;
    const draw = v._drawGhosts.bind(v);
    window.__follows = 0;
    v._drawGhosts = () => { window.__follows++; return draw(); };
  });
  const tool0 = await page.evaluate(() => window.__achain.tool);
  const p = await zArrow(page);
  await page.mouse.down();
  const steps = 12;
  for (let k = 1; k <= steps; k++) {
    await page.mouse.move(p.x, p.y + 3 * k);
    await page.waitForTimeout(40);
  }
  await page.waitForTimeout(100);
  const r = await page.evaluate(() => {
    const a = window.__achain;
    const v = a.views.teleop;
    const m = a.studio.model;
    const tool = a.tool;
    // every live branch (ghost) reaches the tool pose where the drag ended, not the pose it started at
    const live = v.solutions.filter((x) => x.alive !== false);
    const err = live.map((x) => Math.max(...m.fkTool(x.q).map((e, i) => Math.abs(e - tool[i]))));
    const distinct = live.every((x, i) => live.every((y, j) => j <= i || x.q.some((e, k) => Math.abs(e - y.q[k]) > 1e-6)));
    return { follows: window.__follows, live: live.length, visible: v.ghosts.filter((g) => g.group.visible).length,
      inside: v.solutions.filter((x) => x.inside).length, err: Math.max(...err), distinct, tool, head: v.$('.solutions .muted').textContent };
  });
  return { ...r, steps, moved: Math.hypot(r.tool[3] - tool0[3], r.tool[7] - tool0[7], r.tool[11] - tool0[11]) };
}

test('general 6R: Solve all shows its 16 ghost arms (method general6r), and every ghost follows its branch while the tool is dragged', { timeout: 120000 }, async () => {
  const q16 = [2.297, -0.767, 0.021, -2.465, 1.906, 0.897].map((v) => (v * 180 / Math.PI).toFixed(6));
  const { page, errors, context } = await teleop(`#robot=general-6r&q=${q16.join(',')}&view=teleop`);
  try {
    await page.click('.solve-all');
    const first = await page.evaluate(() => { const v = window.__achain.views.teleop; return { method: v.allResult.method, n: v.allResult.solutions.length, ghosts: v.ghosts.length }; });
    assert.deepEqual(first, { method: 'general6r', n: 16, ghosts: 16 });
    await screenshot(page, 'teleop-general6r-16');
    const r = await dragWithGhosts(page);
    assert.ok(r.moved > 0.01, `the tool moved ${r.moved} m`);
    assert.ok(r.follows >= r.steps / 2, `the ghosts were tracked in ${r.follows} of ${r.steps} drag frames`);
    assert.equal(r.visible, r.inside, 'a visible ghost per live branch inside the limits');
    assert.ok(r.live >= 2 && r.distinct, `${r.live} distinct live branches at the dragged pose`);
    assert.ok(r.err < 1e-9, `every ghost reaches the dragged tool pose (max |ΔT| = ${r.err})`);
    assert.match(r.head, /general6r, tracked · \d+ of 16 branches alive/);
    await page.mouse.up();
    await page.waitForTimeout(300);
    // branches that ended in the drag: Solve all runs again at the pose where it ended (the branches born there)
    const after = await page.evaluate(() => { const v = window.__achain.views.teleop; return { tracked: !!v.tracked, n: v.solutions.length }; });
    assert.equal(after.tracked, r.live === 16, `after the drag: ${JSON.stringify(after)}, ${r.live} live branches in it`);
    await screenshot(page, 'teleop-general6r-dragged');
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('general 4A-chain: Solve all uses the orientation sweep (method sweep) and its ghost arms follow the drag', { timeout: 120000 }, async (t) => {
  const { page, errors, context } = await teleop('#robot=general-4a&q=100,200,150,250&view=teleop');
  try {
    const t0 = Date.now();
    await page.click('.solve-all');
    // read right after the click: Solve all answers synchronously (a result still pending would be missing here)
    const first = await page.evaluate(() => {
      const v = window.__achain.views.teleop;
      return { method: v.allResult.method, n: v.allResult.solutions.length + v.allResult.outsideLimits.length, ghosts: v.ghosts.length };
    });
    assert.equal(first.method, 'sweep');
    assert.ok(first.n >= 1 && first.ghosts === first.n, JSON.stringify(first));
    t.diagnostic(`Solve all (method sweep), click to result: ${Date.now() - t0} ms (measured, not asserted)`);
    await screenshot(page, 'teleop-general4a');
    const r = await dragWithGhosts(page);
    assert.ok(r.moved > 0.005, `the tool moved ${r.moved} m`);
    assert.ok(r.follows >= r.steps / 2, `the ghosts followed in ${r.follows} of ${r.steps} drag frames`);
    assert.ok(r.live >= 1, `${r.live} live branches at the dragged pose`);
    assert.ok(r.err < 1e-9, `every ghost reaches the dragged tool pose (max |ΔT| = ${r.err})`);
    assert.match(r.head, /sweep, tracked · \d+ of \d+ branches alive/);
    await page.mouse.up();
    await page.waitForTimeout(300);
    await screenshot(page, 'teleop-general4a-dragged');
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('the five-bar (a robot file with a loop) opens assembled, its free end on the ground pin, and says how the studio moves it', async () => {
  const { page, errors, context } = await teleop('#robot=five-bar&view=teleop');
  try {
    const r = await page.evaluate(() => {
      const a = window.__achain;
      return { q: a.q, tool: a.tool, loop: a.studio.model.info.loop };
    });
    // before: q = 0, the chain stretched straight out along x with its end 72 in from the base
    assert.deepEqual(r.q.map((v) => Math.round(v * 180 / Math.PI)), [70, -35, -100, -25]);
    assert.ok(Math.hypot(r.tool[3] - r.loop.ground[3], r.tool[7] - r.loop.ground[7]) < 1e-4, 'the free end is on the pin');
    assert.match(await page.locator('#warnings').textContent(), /five-bar is a closed chain \(planar pin at its tool\): Teleoperate moves it by its coordinates with the loop closed/);
    await screenshot(page, 'teleop-five-bar');
    // another robot clears the note; the hook returns nothing (it returned the Model, which page.evaluate
    // serialised back for 30-39 s)
    assert.equal(await page.evaluate(() => window.__achain.setRobot('puma560')), undefined);
    assert.doesNotMatch(await page.locator('#warnings').textContent(), /closed chain/);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('singularity warnings come from the core; the per-frame budget (FK + Jacobian + one IK solve) is measured', async (t) => {
  const { page, errors, context } = await teleop('#robot=prototype-4a&view=teleop');
  try {
    const warn = await page.locator('#warnings').textContent();
    assert.match(warn, /180°/, 'A-pair axial singularity at the home pose');
    const has = await page.evaluate(() => typeof window.__achain.studio.model.manipulability === 'function' && typeof window.__achain.studio.model.jacobian === 'function');
    if (has) {
      assert.match(await page.locator('.view-panel[data-view="teleop"] .sing').innerText(), /σ_min/);
      // away from singularities the warning list clears
      await page.evaluate(() => window.__achain.setQ([150, 120, 200, 100].map((v) => v * Math.PI / 180)));
      assert.doesNotMatch(await page.locator('#warnings').textContent(), /singular|180°/);
      // frame budget: measured, not asserted (issue 7 target ≤ 1 ms per frame)
      const ms = await page.evaluate(() => {
        const m = window.__achain.studio.model;
        const q = Float64Array.from(window.__achain.q);
        const T = Float64Array.from(window.__achain.tool);
        T[3] += 0.01;
        const N = 500;
        const t0 = performance.now();
        for (let k = 0; k < N; k++) { m.forwardKinematics(q); m.pointJacobian(q); m.ikNumeric(T, q, { positionOnly: true }); }
        return (performance.now() - t0) / N;
      });
      t.diagnostic(`frame budget (prototype-4a, headless chromium): fk + jacobian + ikNumeric = ${ms.toFixed(4)} ms per frame`);
      fs.mkdirSync(path.join(repo, 'test-results', 'web'), { recursive: true });
      fs.writeFileSync(path.join(repo, 'test-results', 'web', 'frame-budget.json'), JSON.stringify({ robot: 'prototype-4a', msPerFrame: ms, what: 'fk + jacobian + ikNumeric (position only), wasm in headless chromium' }, null, 2));
    }
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('R-twin overlay, frames toggle and the shareable URL state', async () => {
  const { page, errors, context } = await teleop('#robot=prototype-4a&q=150,120,200,100&view=teleop');
  try {
    await page.check('.view-panel[data-view="teleop"] .twin');
    await page.waitForTimeout(200);
    const tw = await page.evaluate(() => !!window.__achain.studio.twin && window.__achain.studio.twin.model.joints.every((j) => j.kind === 'R'));
    assert.equal(tw, true);
    await screenshot(page, 'teleop-r-twin');
    // the twin is the core's R chain: its tool equals prototype-4r's FK at the same q
    const same = await page.evaluate(() => {
      const s = window.__achain.studio;
      const r = s.achain.loadModel('prototype-4r');
      const a = r.forwardKinematics(s.q).tool; const b = s.twin.model.forwardKinematics(s.q).tool;
      r.dispose();
      return Math.max(...Array.from(a, (v, i) => Math.abs(v - b[i])));
    });
    assert.ok(same < 1e-12, `twin vs prototype-4r: ${same}`);
    await page.waitForTimeout(400);
    const hash = await page.evaluate(() => location.hash);
    assert.match(hash, /robot=prototype-4a/);
    assert.match(hash, /q=150%2C120%2C200%2C100|q=150,120,200,100/);
    assert.match(hash, /twin=1/);
    // open the link in a fresh page: same robot, same q
    const o2 = await openPage(browser, srv.url + hash);
    await waitReady(o2.page);
    const q2 = await o2.page.evaluate(() => window.__achain.q);
    assert.ok([150, 120, 200, 100].every((v, i) => Math.abs(q2[i] * 180 / Math.PI - v) < 1e-9));
    assert.equal(await o2.page.evaluate(() => !!window.__achain.studio.twin), true);
    await o2.context.close();
    // keyboard: F hides frames, 1 opens Design
    await page.locator('#viewport canvas').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('f');
    assert.equal(await page.evaluate(() => window.__achain.studio.chain.showFrames), false);
    await page.keyboard.press('1');
    assert.equal(await page.evaluate(() => window.__achain.studio.activeView.id), 'design');
    const s = await canvasStats(page, '#viewport canvas');
    assert.ok(s.nonBackground / s.total > 0.02);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});
