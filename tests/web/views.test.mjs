// Design, Motion, Workspace and Controller views: each loads without console errors, renders a
// non-blank canvas and responds (edits go through the core's loader, plans through the core's
// planner). Screenshots of each view go to test-results/web/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, waitReady, screenshot, canvasStats } from './helpers.mjs';

let srv;
let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.close(); });

async function open(hash) {
  const o = await openPage(browser, srv.url + hash);
  await waitReady(o.page);
  await o.page.waitForTimeout(200);
  return o;
}
const tool = (page) => page.evaluate(() => window.__achain.tool);
const notBlank = async (page) => {
  const s = await canvasStats(page, '#viewport canvas');
  assert.ok(s.nonBackground / s.total > 0.01, `canvas blank: ${JSON.stringify(s)}`);
};

test('Design: a chain from scratch with R, A, P and H joints, live update, core validation, undo/redo', async () => {
  const { page, errors, context } = await open('#robot=prototype-4a&view=design');
  try {
    const P = '.view-panel[data-view="design"]';
    await page.click(`${P} .d-new`);
    assert.equal(await page.evaluate(() => window.__achain.studio.model.dof), 1);
    assert.equal(await page.locator('#robot-select').inputValue(), '__custom__');
    for (const k of ['A', 'P', 'H']) {
      await page.selectOption(`${P} .d-addkind`, k);
      await page.click(`${P} .d-add`);
    }
    const kinds = await page.evaluate(() => window.__achain.studio.model.joints.map((j) => j.kind).join(''));
    assert.equal(kinds, 'RAPH');
    assert.equal(await page.evaluate(() => window.__achain.legCount), 6, 'the A joint draws its six legs');
    // live update: change a of joint 1 (display unit mm) → the tool moves by that much
    const t0 = await tool(page);
    const a1 = page.locator(`${P} input[data-joint="0"][data-field="a"]`);
    await a1.fill('400');
    await a1.press('Enter');
    await page.waitForTimeout(300);
    const a1si = await page.evaluate(() => window.__achain.studio.model.joints[0].a);
    assert.ok(Math.abs(a1si - 0.4) < 1e-12, `a1 = ${a1si}`);
    const t1 = await tool(page);
    assert.ok(Math.hypot(t1[3] - t0[3], t1[7] - t0[7], t1[11] - t0[11]) > 0.1, 'tool moved');
    await screenshot(page, 'design-from-scratch');
    // the A-pair's size as a leg length → the core derives ρ = 2√2/3 · l
    await page.selectOption(`${P} select[data-joint="1"][data-field="asize"]`, 'leg_length');
    const leg = page.locator(`${P} input[data-joint="1"][data-field="leg_length"]`);
    await leg.fill('150');
    await leg.press('Enter');
    await page.waitForTimeout(300);
    const rho = await page.evaluate(() => window.__achain.studio.model.joints[1].rho);
    assert.ok(Math.abs(rho - (2 * Math.SQRT2 / 3) * 0.15) < 1e-12, `rho = ${rho}`);
    // invalid input: negative link mass → the core's message naming the field; the last valid model stays
    const dofBefore = await page.evaluate(() => window.__achain.studio.model.dof);
    const mass = page.locator(`${P} input[data-joint="2"][data-field="link.mass"]`);
    await mass.fill('-2');
    await mass.press('Enter');
    await page.waitForTimeout(300);
    const err = await page.locator(`${P} .d-error`).innerText();
    assert.match(err, /joints\[2\]\.link\.mass/);
    assert.equal(await mass.evaluate((e) => e.classList.contains('invalid')), true);
    assert.equal(await page.evaluate(() => window.__achain.studio.model.dof), dofBefore);
    await screenshot(page, 'design-validation-error');
    // undo twice: mass fixed, then leg length back to ρ
    await page.click(`${P} .d-undo`);
    await page.waitForTimeout(200);
    assert.equal(await page.locator(`${P} .d-error`).isVisible(), false);
    await page.click(`${P} .d-undo`);
    await page.waitForTimeout(200);
    const rho2 = await page.evaluate(() => window.__achain.studio.model.joints[1].rho);
    assert.ok(Math.abs(rho2 - (2 * Math.SQRT2 / 3) * 0.15) > 1e-6, 'undo restored the previous A-pair size');
    await page.click(`${P} .d-redo`);
    const rho3 = await page.evaluate(() => window.__achain.studio.model.joints[1].rho);
    assert.ok(Math.abs(rho3 - (2 * Math.SQRT2 / 3) * 0.15) < 1e-12, 'redo');
    // mass properties: an off-diagonal inertia entry stays symmetric; an impossible tensor is refused by the core
    await page.locator(`${P} .d-joint[data-joint="0"] details summary`).click();
    const ixy = page.locator(`${P} input[data-joint="0"][data-field="link.inertia.0.1"]`);
    await ixy.fill('0.002');
    await ixy.press('Enter');
    await page.waitForTimeout(300);
    const I = await page.evaluate(() => window.__achain.studio.model.modelToJson().joints[0].link.inertia);
    assert.equal(I[0][1], 0.002);
    assert.equal(I[1][0], 0.002);
    const ixx = page.locator(`${P} input[data-joint="0"][data-field="link.inertia.0.0"]`);
    await ixx.fill('-1');
    await ixx.press('Enter');
    await page.waitForTimeout(300);
    assert.match(await page.locator(`${P} .d-error`).innerText(), /joints\[0\]\.link\.inertia/);
    assert.equal(await ixx.evaluate((e) => e.classList.contains('invalid')), true);
    await page.click(`${P} .d-undo`);
    await page.waitForTimeout(200);
    assert.equal(await page.locator(`${P} .d-error`).isVisible(), false);
    // the designed chain travels in the URL (json=…)
    await page.waitForTimeout(400);
    const hash = await page.evaluate(() => location.hash);
    assert.match(hash, /json=/);
    const o2 = await openPage(browser, srv.url + hash);
    await waitReady(o2.page);
    assert.equal(await o2.page.evaluate(() => window.__achain.studio.model.joints.map((j) => j.kind).join('')), 'RAPH');
    assert.equal(await o2.page.evaluate(() => window.__achain.studio.model.modelToJson().joints[0].link.inertia[1][0]), 0.002);
    await o2.context.close();
    // modified DH
    await page.selectOption(`${P} .d-conv`, 'modified');
    assert.equal(await page.evaluate(() => window.__achain.studio.model.info.convention), 'modified');
    await notBlank(page);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('Design: JSON export round-trips through the core, import shows the core\'s errors', async () => {
  const { page, errors, context } = await open('#robot=puma560&view=design');
  try {
    const P = '.view-panel[data-view="design"]';
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(`${P} .d-export`)]);
    assert.equal(download.suggestedFilename(), 'puma560.json');
    const text = await page.evaluate(() => window.__achain.views.design.lastExport);
    const same = await page.evaluate((t) => {
      const a = window.__achain.achain.loadModel(t);
      const q = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6];
      const x = a.forwardKinematics(q).tool; const y = window.__achain.studio.model.forwardKinematics(q).tool;
      a.dispose();
      return Math.max(...Array.from(x, (v, i) => Math.abs(v - y[i])));
    }, text);
    assert.equal(same, 0);
    // paste a broken description
    await page.click(`${P} .d-show`);
    const bad = JSON.parse(text);
    bad.joints[1].limits.lower = 3; bad.joints[1].limits.upper = 1;
    await page.fill(`${P} .d-text`, JSON.stringify(bad));
    await page.click(`${P} .d-apply`);
    const msg = await page.locator(`${P} .d-error`).innerText();
    assert.match(msg, /joints\[1\]\.limits/);
    // a good one in inches/degrees is converted by the core and shown in SI
    const good = { schema_version: 1, name: 'two-link', units: { length: 'in', angle: 'deg' }, joints: [{ kind: 'R', a: 10 }, { kind: 'A', a: 5, leg_length: 6 }] };
    await page.fill(`${P} .d-text`, JSON.stringify(good));
    await page.click(`${P} .d-apply`);
    assert.equal(await page.evaluate(() => window.__achain.studio.model.name), 'two-link');
    assert.ok(Math.abs(await page.evaluate(() => window.__achain.studio.model.joints[0].a) - 0.254) < 1e-12);
    assert.equal(await page.evaluate(() => window.__achain.legCount), 6);
    await notBlank(page);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('Motion: the thesis trapezoid is planned by the core, plotted with uPlot and animated', async (t) => {
  const { page, errors, context } = await open('#robot=prototype-4a&view=motion');
  try {
    const P = '.view-panel[data-view="motion"]';
    assert.equal(await page.locator(`${P} .m-na`).isVisible(), false, 'planJointPath missing from the wasm build');
    await page.click(`${P} .m-plan`);
    await page.waitForTimeout(300);
    const charts = await page.locator('[data-testid="motion-plots"] .uplot').count();
    assert.ok(charts >= 5, `${charts} plots`);
    // the thesis: joints 1–3 reach 300° at t = 1.5833 s
    const d = await page.evaluate(() => window.__achain.views.motion.traj.duration);
    assert.ok(Math.abs(d - 1.5833333) < 1e-3, `duration ${d}`);
    assert.match(await page.locator(`${P} .m-summary`).innerText(), /1\.583/);
    const q1 = await page.evaluate(() => window.__achain.q);
    await page.waitForTimeout(500);
    const q2 = await page.evaluate(() => window.__achain.q);
    assert.ok(q1.some((v, i) => Math.abs(v - q2[i]) > 1e-3), 'the arm moves along the trajectory');
    await page.waitForFunction(() => !window.__achain.views.motion.playing, null, { timeout: 30000 });
    await page.waitForTimeout(200);
    await screenshot(page, 'motion-thesis-trapezoid');
    const end = await page.evaluate(() => window.__achain.q);
    assert.ok(end.every((v) => Math.abs(v - 300 * Math.PI / 180) < 1e-9), `ends at 300°: ${end}`);
    // leg model switch changes the work (legs add mass)
    const wFull = await page.evaluate(() => window.__achain.views.motion.analysis.totalWork);
    await page.selectOption(`${P} .m-legs`, 'massless');
    const wNone = await page.evaluate(() => window.__achain.views.motion.analysis.totalWork);
    assert.ok(wFull > wNone, `work full ${wFull} vs massless ${wNone}`);
    // the core's torque breakdown for the chosen joint
    {
      const titles = await page.locator('[data-testid="motion-plots"] .u-title').allInnerTexts();
      assert.ok(titles.some((x) => /torque breakdown of q2/.test(x)), titles.join(' | '));
      // parts add up: inertial + velocity + gravity = total (no friction, no wrench here)
      const worst = await page.evaluate(() => {
        const b = window.__achain.views.motion.breakdown;
        let w = 0;
        for (let k = 0; k < b.total.length; k++) w = Math.max(w, Math.abs(b.inertial[k] + b.velocity[k] + b.gravity[k] - b.total[k]));
        return w;
      });
      assert.ok(worst < 1e-9, `breakdown sums to the total within ${worst}`);
    }
    // legs turn red at the collision limit (θ_v = 300° is where legs 1 and 2 meet)
    const red = await page.evaluate(() => window.__achain.studio.chain.legWarned());
    assert.deepEqual(red, [true, true, true, true]);
    // a bad goal shows a message, no exception
    await page.fill(`${P} .m-to`, '1, 2');
    await page.click(`${P} .m-plan`);
    assert.match(await page.locator(`${P} .m-error`).innerText(), /goal: expected 4 numbers/);
    await notBlank(page);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('Motion: a Cartesian line to a captured tool pose, planned by the core', async (t) => {
  const { page, errors, context } = await open('#robot=prototype-4a&q=150,120,200,100&view=motion');
  try {
    const P = '.view-panel[data-view="motion"]';
    const goal = await page.evaluate(() => window.__achain.tool);
    await page.click(`${P} .m-from-cur`);
    await page.selectOption(`${P} .m-mode`, 'cart-line');
    await page.click(`${P} .m-goal-cap`);
    await page.fill(`${P} .m-from`, '170, 170, 170, 170');
    await page.click(`${P} .m-plan`);
    await page.waitForTimeout(300);
    const r = await page.evaluate(() => { const tr = window.__achain.views.motion.traj; return tr && { c: tr.cartesian, d: tr.duration, n: tr.samples }; });
    assert.ok(r && r.c, 'a Cartesian trajectory');
    assert.ok(r.c.maxIkError < 1e-6, `IK error ${r.c.maxIkError}`);
    // the last sample puts the tool on the captured goal position
    const end = await page.evaluate(() => { const v = window.__achain.views.motion; const tr = v.traj; const n = tr.dof; return Array.from(window.__achain.studio.model.forwardKinematics(tr.q.subarray((tr.samples - 1) * n)).tool); });
    const dp = Math.hypot(end[3] - goal[3], end[7] - goal[7], end[11] - goal[11]);
    assert.ok(dp < 1e-5, `goal missed by ${dp} m`);
    assert.match(await page.locator(`${P} .m-summary`).innerText(), /Cartesian line/);
    await page.waitForTimeout(500);
    await screenshot(page, 'motion-cartesian-line');
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('Motion: a forward-dynamics simulation runs in a worker with progress, conserves energy, can be cancelled', async (t) => {
  const { page, errors, context } = await open('#robot=prototype-4a&q=150,120,200,100&view=motion');
  try {
    const P = '.view-panel[data-view="motion"]';
    assert.equal(await page.locator(`${P} .s-na`).isVisible(), false, 'simulate missing from the wasm build');
    await page.uncheck(`${P} .s-stops`); // conservation is the integrator's; the limit stops (on by default) absorb energy
    await page.click(`${P} .s-run`);
    await page.waitForFunction(() => { const v = window.__achain.views.motion; return !v.simulating && v.traj?.simulated; }, null, { timeout: 60000 });
    const r = await page.evaluate(() => { const v = window.__achain.views.motion; const e = v.traj.energy; return { p: v.simProgress.length, n: v.traj.samples, drift: e[e.length - 1] - e[0], e0: e[0] }; });
    assert.ok(r.p >= 2, `${r.p} progress reports`);
    assert.ok(r.n > 100, `${r.n} samples`);
    assert.ok(Math.abs(r.drift) < 1e-6 * Math.max(1, Math.abs(r.e0)), `energy drift ${r.drift} J (RK4, no friction, zero torque)`);
    assert.ok((await page.locator('[data-testid="motion-plots"] .uplot').count()) >= 3);
    const q1 = await page.evaluate(() => window.__achain.q);
    await page.waitForTimeout(400);
    assert.ok((await page.evaluate(() => window.__achain.q)).some((v, i) => Math.abs(v - q1[i]) > 1e-4), 'the arm falls');
    await screenshot(page, 'motion-simulation');
    // cancel a long run
    await page.fill(`${P} .s-duration`, '500');
    await page.click(`${P} .s-run`);
    await page.waitForFunction(() => window.__achain.views.motion.simProgress.length > 0, null, { timeout: 60000 });
    await page.click(`${P} .s-cancel`);
    assert.match(await page.locator(`${P} .s-status`).innerText(), /cancelled/);
    assert.equal(await page.evaluate(() => window.__achain.views.motion.simulating), false);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('Controller: the mount point shows the bridge panel or a placeholder, without errors', async () => {
  const { page, errors, context } = await open('#robot=prototype-4a&view=controller');
  try {
    const mount = page.locator('[data-testid="controller-mount"]');
    await page.waitForTimeout(500);
    const text = await mount.innerText();
    assert.ok(text.trim().length > 0, 'the controller area is not empty');
    // when the bridge's panel is mounted it can take the Motion view's plan (ctx.getTrajectory)
    const mounted = await page.evaluate(() => !!window.__achain.views.controller.mounted);
    if (mounted && await page.evaluate(() => typeof window.__achain.studio.model.planJointPath === 'function')) {
      assert.equal(await page.evaluate(() => window.__achain.views.controller.ctx.getTrajectory()), null);
      await page.keyboard.press('3');
      await page.click('.view-panel[data-view="motion"] .m-plan');
      const tr = await page.evaluate(() => { const t = window.__achain.views.controller.ctx.getTrajectory(); return t && { schema: t.schema, version: t.version, n: t.t.length, dof: t.q[0].length }; });
      assert.deepEqual({ schema: tr.schema, version: tr.version, dof: tr.dof }, { schema: 'achain-trajectory', version: 1, dof: 4 });
      assert.ok(tr.n > 100);
      await page.keyboard.press('5');
    }
    await screenshot(page, 'controller-view');
    await notBlank(page);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('Workspace: the view loads, and the worker job reports progress and completes', async () => {
  const { page, errors, context } = await open('#robot=prototype-4a&view=workspace');
  try {
    const P = '.view-panel[data-view="workspace"]';
    {
      await page.click(`${P} .w-run`);
      await page.waitForFunction(() => window.__achain.views.workspace.lastProgress > 0, null, { timeout: 60000 });
      await page.waitForFunction(() => window.__achain.views.workspace.result, null, { timeout: 120000 });
      const r = await page.evaluate(() => ({ n: window.__achain.views.workspace.result.count, p: window.__achain.views.workspace.progressLog.length }));
      assert.ok(r.n > 100, `${r.n} voxels`);
      assert.ok(r.p >= 2, 'several progress reports');
      // the worker's numbers are the core's: the same job on the page's own module gives the same count
      const direct = await page.evaluate(() => {
        const s = window.__achain.views.workspace.result.summary;
        const w = window.__achain.studio.model.computeWorkspace({ voxel: s.voxel, method: s.method });
        const n = w.summary().voxels;
        w.dispose();
        return n;
      });
      assert.equal(direct, r.n);
      await page.waitForTimeout(300);
      await screenshot(page, 'workspace-view');
      // A vs R overlap and a cross-section
      await page.check(`${P} .w-twin`);
      await page.click(`${P} .w-run`);
      await page.waitForFunction(() => window.__achain.views.workspace.result?.overlap, null, { timeout: 120000 });
      const o = await page.evaluate(() => window.__achain.views.workspace.result.overlap);
      assert.ok(o.shared > 0 && o.onlyA > 0 && o.union === o.shared + o.onlyA + o.onlyB, JSON.stringify(o));
      await page.selectOption(`${P} .w-axis`, '2');
      await page.waitForFunction(() => /area/.test(document.querySelector('.w-section').textContent), null, { timeout: 10000 });
      await page.waitForTimeout(200);
      await screenshot(page, 'workspace-overlap-section');
      // cancel: a fine grid, cancelled after the first progress report
      await page.uncheck(`${P} .w-twin`);
      await page.fill(`${P} .w-voxel`, '3');
      await page.click(`${P} .w-run`);
      await page.waitForFunction(() => window.__achain.views.workspace.progressLog.length > 0, null, { timeout: 60000 });
      await page.click(`${P} .w-cancel`);
      await page.waitForFunction(() => !window.__achain.views.workspace.running, null, { timeout: 60000 });
      const st = await page.locator(`${P} .w-status`).innerText();
      assert.ok(/cancelled/.test(st) || /done/.test(st), st);
    }
    await notBlank(page);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('units switch and keyboard shortcuts', async () => {
  const { page, errors, context } = await open('#robot=prototype-4a&view=teleop');
  try {
    await page.selectOption('#unit-angle', 'rad');
    const v = await page.locator('.view-panel[data-view="teleop"] input[type=number][data-joint="0"]').inputValue();
    assert.ok(Math.abs(Number(v) - Math.PI) < 1e-3, `q1 in rad: ${v}`);
    await page.selectOption('#unit-length', 'in');
    assert.match(await page.locator('#readout').innerText(), /rad/);
    await page.locator('#viewport canvas').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('3');
    assert.equal(await page.evaluate(() => window.__achain.studio.activeView.id), 'motion');
    await page.keyboard.press('?');
    assert.equal(await page.locator('#help').isVisible(), true);
    await screenshot(page, 'shortcuts-help');
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('#help').isVisible(), false);
    await page.keyboard.press('t');
    assert.equal(await page.evaluate(() => !!window.__achain.studio.twin), true);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('tab switches keep the 3D canvas (no drawing buffer re-made), and a hidden Workspace makes its estimate when shown', async () => {
  const { page, errors, context } = await open('#robot=prototype-4a&view=teleop');
  try {
    // the Workspace panel is hidden: its estimate waits until it is shown (it cost every page load 0.15 s)
    assert.equal(await page.evaluate(() => window.__achain.views.workspace.estimate ?? null), null);
    // setting a canvas's size, even to the size it has, re-makes its drawing buffer (100–300 ms under software
    // WebGL); Motion's dock toggles on every switch, so each switch did it
    await page.evaluate(() => {
      const r = window.__achain.studio.viewport.renderer;
      window.__setSizeCalls = 0;
      const f = r.setSize.bind(r);
      r.setSize = (...a) => { window.__setSizeCalls++; return f(...a); };
    });
    for (const v of ['motion', 'design', 'motion', 'vibration', 'teleop']) {
      await page.click(`#tabs button[data-view="${v}"]`);
      await page.waitForTimeout(50);
    }
    assert.equal(await page.evaluate(() => window.__setSizeCalls), 0, 'a tab switch with the canvas unchanged resized it');
    await page.click('#tabs button[data-view="workspace"]');
    const e = await page.evaluate(() => window.__achain.views.workspace.estimate);
    const core = await page.evaluate(() => window.__achain.studio.model.estimateWorkspace({ voxel: window.__achain.views.workspace._options().voxel, method: 'robinson' }));
    assert.ok(e && e.cells > 0, 'the estimate is made when the panel is shown');
    assert.equal(e.cells, core.cells);
    // a real size change still resizes
    await page.setViewportSize({ width: 1000, height: 700 });
    await page.waitForFunction(() => window.__setSizeCalls > 0);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

// Under software WebGL (these tests' SwiftShader: no GPU) every multisample is drawn on the CPU: the studio asks a
// throwaway context what draws before making its own, and goes single-sampled there (a prototype frame 40 → 17 ms,
// with a 50,000-point workspace cloud 96 → 46 ms at 1280×800). The first two frames' times are kept for the
// cold-load figure (bench/web/studio.mjs).
test('under software WebGL the 3D view draws without multisampling, and keeps the times of its first frames', async () => {
  const { page, errors, context } = await open('#robot=prototype-4a&view=teleop');
  try {
    const r = await page.evaluate(() => {
      const vp = window.__achain.studio.viewport;
      return { software: vp.software, antialias: vp.renderer.getContextAttributes().antialias, first: vp.firstFramesAt };
    });
    assert.equal(r.software, true, 'the test browser renders with SwiftShader');
    assert.equal(r.antialias, false, 'a software renderer is asked for no multisampling');
    assert.equal(r.first.length, 2);
    assert.ok(r.first[0] > 0 && r.first[1] >= r.first[0], `first frames at ${r.first} ms`);
    assert.ok(await canvasStats(page).then((s) => s.distinct > 4), 'the robot is drawn');
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

// Showing a workspace result re-made every shader program of the arm (the camera's re-framing rebuilt the arm's
// meshes, disposing their materials) and one more for the cloud (the warm-up compiled it without the clipping plane):
// six program links and a first frame of 0.27 s on the page's main thread under software WebGL. Now the result
// uses only programs the page already had.
test('Workspace: a result is shown with the shader programs made at load (the arm is not rebuilt, the cloud\'s was warmed)', async () => {
  const { page, errors, context } = await open('#robot=prototype-4a&view=workspace&units=deg,mm');
  try {
    await page.waitForFunction(() => !!window.__achain.views.workspace._warm, null, { timeout: 10000 });
    const programs = () => page.evaluate(() => window.__achain.studio.viewport.renderer.info.programs.map((p) => p.id).sort((a, b) => a - b));
    const before = await programs();
    const W = '.view-panel[data-view="workspace"]';
    await page.fill(`${W} .w-voxel`, '12.7');
    await page.click(`${W} .w-run`);
    await page.waitForFunction(() => !!document.querySelector('.view-panel[data-view="workspace"] .w-result td'), null, { timeout: 60000 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.ok(await page.evaluate(() => window.__achain.views.workspace.group.children.length) >= 1, 'the cloud is drawn');
    assert.deepEqual(await programs(), before, 'shader programs made or dropped by showing the result');
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});
