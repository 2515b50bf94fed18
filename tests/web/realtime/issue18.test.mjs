// Issue 18, as a new user would meet it, at 800×600 (and the stop buttons at 1440×900 too): the drag
// never jumps to another IK branch; the Motion view's own plan streams to the virtual controller; a
// second send offers a move to the start (planned within the limits) instead of a limit fault, also
// after an e-stop; Space e-stops while a number field has the focus. Screenshots: test-results/web/i18-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage, waitReady, screenshot, zArrow, planAndConnect, sendMsg, waitSent } from '../helpers.mjs';

let srv;
let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.close(); });

const DEG = Math.PI / 180;

async function studio(hash = '', size = { width: 800, height: 600 }) {
  const o = await openPage(browser, srv.url + hash, size);
  await waitReady(o.page);
  await o.page.waitForTimeout(200);
  return o;
}


test('bug 1: dragging the prototype\'s tool down from Home never jumps to another IK branch', async () => {
  const { page, errors, context } = await studio('#robot=prototype-4a&view=teleop');
  try {
    await page.click('.view-panel[data-view="teleop"] .home');
    await page.waitForTimeout(100);
    // record every drag solve: q and the gizmo's target position
    await page.evaluate(() => {
      const a = window.__achain;
      const v = a.views.teleop;
      window.__log = [];
      a.studio.addEventListener('q', (e) => {
        if (e.detail.source !== v) return;
        const p = v.proxy.position;
        window.__log.push({ q: Array.from(e.detail.q), p: [p.x, p.y, p.z], tool: a.tool.slice() });
      });
    });
    const start = await zArrow(page);
    const reach = await page.evaluate(() => window.__achain.studio.size);
    const z0 = await page.evaluate(() => window.__achain.tool[11]);
    await page.mouse.down();
    for (let k = 1; k <= 50; k++) { await page.mouse.move(start.x, start.y + 8 * k); await page.waitForTimeout(20); }
    await page.waitForTimeout(400); // let the arm catch up if it lags
    const log = await page.evaluate(() => window.__log);
    await screenshot(page, 'i18-drag-down');
    await page.mouse.up();
    assert.ok(log.length >= 10, `${log.length} drag solves`);
    // the bound: 3° of slack plus 10 rad per reach-length of target motion in that frame
    let worst = { ratio: 0 };
    let prev = { q: log[0].q, p: log[0].p };
    for (const e of log.slice(1)) {
      const dp = Math.hypot(e.p[0] - prev.p[0], e.p[1] - prev.p[1], e.p[2] - prev.p[2]);
      const dq = Math.max(...e.q.map((v, i) => Math.abs(v - prev.q[i])));
      const bound = 3 * DEG + (10 * dp) / reach;
      if (dq / bound > worst.ratio) worst = { ratio: dq / bound, dq: dq / DEG, dp, from: prev.q.map((v) => v / DEG), to: e.q.map((v) => v / DEG) };
      prev = e;
    }
    assert.ok(worst.ratio <= 1, `a joint jumped in one frame: ${JSON.stringify(worst)}`);
    const z1 = log[log.length - 1].tool[11];
    assert.ok(z1 < z0 - 0.1, `the tool went down with the gizmo: z ${z0} → ${z1} m`);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('bug 2: the Motion view\'s own plan (60° → 300°, and back) streams to the virtual controller', { timeout: 120000 }, async () => {
  for (const reverse of [false, true]) {
    const { page, errors, context } = await studio('#robot=prototype-4a&view=teleop');
    try {
      await planAndConnect(page, { reverse });
      if (reverse) {
        // the arm starts at 60°, this plan at 300°: the core refuses the start and the panel offers the move
        await page.click('[data-testid=ctl-send]');
        await page.waitForFunction(() => /move to the start first/.test(document.querySelector('[data-testid=ctl-send-message]').textContent));
        assert.match(await sendMsg(page), /starts at \(300\.0, 300\.0, 300\.0, 300\.0\)°/);
        await page.click('[data-testid=ctl-to-start]');
      } else {
        await page.click('[data-testid=ctl-send]');
      }
      const msg = await waitSent(page);
      await screenshot(page, `i18-sent${reverse ? '-reverse' : ''}`);
      assert.match(msg, reverse ? /^Moving to the start, then streaming: done, final error/ : /^Streaming: done, final error/, msg);
      const max = Number(/max ([\d.]+)°/.exec(msg)[1]);
      assert.ok(max < 0.1, `final error ${max}°`);
      assert.deepEqual(errors, []);
    } finally { await context.close(); }
  }
});

test('bug 3: sending again after a completed run, and after e-stop + clear, offers the core\'s move to the start', { timeout: 120000 }, async () => {
  const { page, errors, context } = await studio('#robot=prototype-4a&view=teleop');
  try {
    await planAndConnect(page);
    await page.click('[data-testid=ctl-send]');
    assert.match(await waitSent(page), /^Streaming: done/);
    // again: the arm is at 300°, the plan starts at 60° — the core refuses the start (no limit fault), the panel offers the move
    await page.click('[data-testid=ctl-send]');
    await page.waitForFunction(() => /move to the start first/.test(document.querySelector('[data-testid=ctl-send-message]').textContent));
    const offer = await sendMsg(page);
    assert.match(offer, /The arm is at \(300\.0, 300\.0, 300\.0, 300\.0\)°, the trajectory starts at \(60\.0, 60\.0, 60\.0, 60\.0\)°: move to the start first/);
    assert.equal(await page.isVisible('[data-testid=ctl-to-start]'), true);
    assert.equal(await page.evaluate(() => window.__achain.views.controller.handle.streamer.status.faults), 0, 'no fault');
    await screenshot(page, 'i18-move-to-start-offer');
    // one send: the core's approach 300° → 60° within the limits, then the plan 60° → 300°
    await page.click('[data-testid=ctl-to-start]');
    assert.match(await waitSent(page), /^Moving to the start, then streaming: done/);
    const st = await page.evaluate(() => window.__achain.views.controller.handle.streamer.status);
    assert.equal(st.faults, 0);
    assert.ok(st.qCmd.every((v) => Math.abs(v - 300 * DEG) < 1e-4), `at the plan's end: ${st.qCmd}`);
    // e-stop mid-run, clear faults, send again: again the offer, not a fault
    await page.click('[data-testid=ctl-send]');
    await page.waitForFunction(() => /move to the start first/.test(document.querySelector('[data-testid=ctl-send-message]').textContent));
    await page.click('[data-testid=ctl-to-start]');
    await page.waitForFunction(() => /^Moving to the start, then streaming…/.test(document.querySelector('[data-testid=ctl-send-message]').textContent));
    await page.waitForTimeout(500);
    await page.click('[data-testid=ctl-estop]');
    assert.match(await waitSent(page), /fault|emergency/);
    await page.waitForFunction(() => document.querySelector('[data-testid=ctl-state]').textContent.includes('E-STOP'));
    await page.click('[data-testid=ctl-clear]');
    await page.waitForFunction(() => { const s = window.__achain.views.controller.handle.streamer.status; return !s.estop && !s.faults; }, null, { timeout: 5000 })
      .catch(async (e) => { throw new Error(`${e.message}: ${JSON.stringify(await page.evaluate(() => window.__achain.views.controller.handle.streamer.status))} ${await page.textContent('[data-testid=ctl-faults]')}`); });
    await page.click('[data-testid=ctl-send]');
    await page.waitForFunction(() => /move to the start first/.test(document.querySelector('[data-testid=ctl-send-message]').textContent));
    assert.match(await sendMsg(page), /The arm is at \([\d., ]+\)°, the trajectory starts at \(60\.0, 60\.0, 60\.0, 60\.0\)°: move to the start first/);
    await page.click('[data-testid=ctl-to-start]');
    assert.match(await waitSent(page), /^Moving to the start, then streaming: done/);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('bug 4: Space e-stops while a number field has the focus; the stop buttons are visible at 800×600 and 1440×900', { timeout: 120000 }, async () => {
  for (const size of [{ width: 800, height: 600 }, { width: 1440, height: 900 }]) {
    const { page, errors, context } = await studio('#robot=prototype-4a&view=teleop', size);
    try {
      await planAndConnect(page);
      for (const id of ['ctl-stop', 'ctl-estop']) {
        const b = await page.locator(`[data-testid=${id}]`).boundingBox();
        assert.ok(b && b.x >= 0 && b.y >= 0 && b.x + b.width <= size.width && b.y + b.height <= size.height, `${id} inside the window: ${JSON.stringify(b)}`);
        const top = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest('button')?.dataset.testid, [b.x + b.width / 2, b.y + b.height / 2]);
        assert.equal(top, id, `${id} is on top at its centre`);
      }
      await page.click('[data-testid=ctl-send]');
      await page.waitForFunction(() => window.__achain.views.controller.handle.streamer.status.state === 'running', null, { timeout: 10000 });
      // focus a number field (the baud rate), then Space
      const field = page.locator('.view-panel[data-view="controller"] input[type=number]').first();
      await field.focus();
      assert.equal(await page.evaluate(() => document.activeElement.type), 'number');
      await page.keyboard.press('Space');
      await page.waitForFunction(() => window.__achain.views.controller.handle.streamer.status.estop, null, { timeout: 3000 });
      await screenshot(page, `i18-estop-${size.width}x${size.height}`);
      assert.deepEqual(errors, []);
    } finally { await context.close(); }
  }
});

test('bug 6: switching robot during a batch IK job cancels it cleanly (no page error, no stale summary)', async () => {
  const { page, errors, context } = await studio('#robot=puma560&view=teleop&q=10,30,-40,20,30,10', { width: 1440, height: 900 });
  try {
    const P = '.view-panel[data-view="teleop"]';
    await page.selectOption(`${P} .b-kind`, 'circle');
    await page.fill(`${P} .b-n`, '200000');
    await page.click(`${P} .b-run`);
    await page.waitForFunction(() => window.__achain.views.teleop.batch.progressLog.length >= 1, null, { timeout: 30000 });
    await page.selectOption('#robot-select', 'prototype-4a');
    await page.waitForTimeout(1500); // the worker's late answer (6-joint q) must be ignored
    const st = await page.evaluate(() => {
      const b = window.__achain.views.teleop.batch;
      return { running: b.running, result: b.result, status: b.$('.b-status').textContent, run: b.$('.b-run').disabled, cancel: b.$('.b-cancel').disabled, dof: window.__achain.q.length };
    });
    assert.deepEqual(st, { running: false, result: null, status: '', run: false, cancel: true, dof: 4 });
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('bug 9: undo back to the robot names it in the picker and refits the view', async () => {
  const { page, errors, context } = await studio('#robot=puma560&view=design', { width: 1440, height: 900 });
  try {
    const D = '.view-panel[data-view="design"]';
    const cam0 = await page.evaluate(() => window.__achain.studio.viewport.camera.position.toArray());
    await page.click(`${D} .d-new`);
    await page.click(`${D} .d-fit`);
    assert.equal(await page.inputValue('#robot-select'), '__custom__');
    const cam1 = await page.evaluate(() => window.__achain.studio.viewport.camera.position.toArray());
    assert.ok(Math.hypot(...cam1.map((v, i) => v - cam0[i])) > 1e-3, 'the new chain was framed');
    await page.click(`${D} .d-undo`);
    await page.waitForTimeout(100);
    assert.equal(await page.inputValue('#robot-select'), 'puma560');
    assert.equal(await page.evaluate(() => window.__achain.studio.modelSource), 'puma560');
    const cam2 = await page.evaluate(() => window.__achain.studio.viewport.camera.position.toArray());
    assert.ok(Math.hypot(...cam2.map((v, i) => v - cam0[i])) < 1e-6, `the view is the robot's again: ${cam2} vs ${cam0}`);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('bug 11: no stale text after a robot switch (IK status, Play label) or after STOP', { timeout: 120000 }, async () => {
  const { page, errors, context } = await studio('#robot=prototype-4a&view=teleop&q=150,120,200,100', { width: 1440, height: 900 });
  try {
    await page.evaluate(() => { const T = Float64Array.from(window.__achain.tool); T[11] -= 0.01; window.__achain.views.teleop.solveToward(T, { positionOnly: true }); });
    assert.match(await page.textContent('.ik-status'), /^ok ·/);
    await page.click('#tabs button[data-view="motion"]');
    await page.click('.view-panel[data-view="motion"] .m-plan');
    await page.waitForTimeout(200);
    assert.equal(await page.textContent('.view-panel[data-view="motion"] .m-play'), '❚❚ Pause');
    await page.selectOption('#robot-select', 'puma560');
    assert.equal(await page.textContent('.view-panel[data-view="motion"] .m-play'), '▶ Play');
    assert.equal(await page.textContent('.ik-status'), 'IK status: drag the gizmo to start');
    // STOP while streaming: the message says the run stopped, it does not stay "Streaming…"
    await page.selectOption('#robot-select', 'prototype-4a');
    await planAndConnect(page);
    await page.click('[data-testid=ctl-send]');
    await page.waitForFunction(() => window.__achain.views.controller.handle.streamer.status.state === 'running', null, { timeout: 10000 })
      .catch(async (e) => { throw new Error(`${e.message}: ${await sendMsg(page)}`); });
    await page.click('[data-testid=ctl-stop]');
    const msg = await waitSent(page, 10000);
    assert.match(msg, /^Streaming: stopped before the end: \d+ of \d+ segments ran/);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('bug 8: Rotate (E) on the 4-joint prototype follows in least squares and says what it gives up; no full-pose goal offered', async () => {
  const { page, errors, context } = await studio('#robot=prototype-4a&view=teleop&q=150,120,200,100', { width: 1440, height: 900 });
  try {
    const P = '.view-panel[data-view="teleop"]';
    assert.equal(await page.evaluate((p) => document.querySelector(`${p} .goal option[value="pose"]`).disabled, P), true, 'full pose is not offered for 4 joints');
    assert.equal(await page.inputValue(`${P} .goal`), 'position');
    await page.click('#viewport canvas', { position: { x: 5, y: 300 } });
    await page.keyboard.press('e');
    assert.equal(await page.inputValue(`${P} .goal`), 'weighted');
    assert.match(await page.textContent(`${P} .goal-note`), /4 coordinates moving the tool cannot follow all six pose directions.*gives up/);
    // a 10° turn of the tool about the base z axis, solved as the drag solves it
    const r = await page.evaluate(() => {
      const a = window.__achain;
      const T = Float64Array.from(a.tool);
      const c = Math.cos(0.1745), s = Math.sin(0.1745);
      for (let col = 0; col < 3; col++) {
        const x = T[col], y = T[4 + col];
        T[col] = c * x - s * y; T[4 + col] = s * x + c * y;
      }
      const p0 = a.tool.filter((_, i) => i === 3 || i === 7 || i === 11);
      const res = a.views.teleop.solveToward(T);
      const p1 = a.tool.filter((_, i) => i === 3 || i === 7 || i === 11);
      return { it: res.iterations, dphi: res.orientationError, moved: Math.hypot(...p1.map((v, i) => v - p0[i])) };
    });
    assert.ok(r.it > 0, 'the solver ran');
    assert.ok(r.dphi < 0.17, `the tool turned toward the target: |Δφ| ${r.dphi} rad of 0.1745`);
    assert.ok(r.moved < 0.1, `the arm stays near the gizmo: tool moved ${r.moved} m`);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('bugs 5, 7, 10 (fixed on main before this branch): planning with a duration, the rank warning, URDF in one line; new joints show default rate limits', { timeout: 60000 }, async () => {
  const { page, errors, context } = await studio('#robot=stanford&view=motion', { width: 1440, height: 900 });
  try {
    const M = '.view-panel[data-view="motion"]';
    // 5: a chain without speed limits plans with a given duration, and the page names no CLI flag
    await page.fill(`${M} .m-duration`, '3');
    await page.click(`${M} .m-plan`);
    await page.waitForTimeout(300);
    assert.equal(await page.locator(`${M} .m-error`).isVisible(), false, await page.textContent(`${M} .m-error`));
    assert.ok(Math.abs(await page.evaluate(() => window.__achain.views.motion.traj.duration) - 3) < 1e-9);
    // 5: a new chain's joints come with speed and acceleration limits the user sees (rate limits: 180°/s, 720°/s²)
    await page.click('#tabs button[data-view="design"]');
    const D = '.view-panel[data-view="design"]';
    await page.click(`${D} .d-new`);
    await page.click(`${D} .d-add`);
    const lim = await page.evaluate(() => window.__achain.studio.model.joints.map((j) => [j.velocity ?? j.limits?.velocity, j.acceleration ?? j.limits?.acceleration]));
    const json = await page.evaluate(() => window.__achain.studio.model.modelToJson().joints.map((j) => [j.limits.velocity, j.limits.acceleration]));
    assert.deepEqual(json.map(([v, a]) => [Math.round(v / DEG), Math.round(a / DEG)]), [[180, 720], [180, 720]], JSON.stringify(lim));
    await page.click('#tabs button[data-view="motion"]');
    await page.fill(`${M} .m-to`, '90, 45');
    await page.fill(`${M} .m-duration`, '');
    await page.click(`${M} .m-plan`);
    await page.waitForTimeout(300);
    assert.equal(await page.locator(`${M} .m-error`).isVisible(), false, await page.textContent(`${M} .m-error`));
    assert.doesNotMatch(await page.textContent(M), /--duration|--vmax|--amax/);
    // 7: no self-contradictory rank warning ("rank n < n") at stretched or folded poses
    for (const [robot, q] of [['puma560', [0, 0, 0, 0, 0, 0]], ['puma560', [0, -90, 90, 0, 0, 0]], ['puma560', [0, 0, -90, 0, 0, 0]], ['prototype-4a', [180, 180, 180, 180]]]) {
      await page.evaluate(([r, v]) => { window.__achain.setRobot(r); window.__achain.setQ(v.map((x) => x * Math.PI / 180)); }, [robot, q]);
      const w = await page.textContent('#warnings');
      assert.doesNotMatch(w, /rank (\d+) < \1\b/, `${robot} ${q}: ${w}`);
    }
    // 10: XML given as a robot: one line naming the problem, no echo of the file. (URDF import now exists: a
    // URDF with no joint is refused by the core's URDF reader, which names what is missing.)
    await page.click('#tabs button[data-view="design"]');
    await page.click(`${D} .d-show`);
    await page.fill(`${D} .d-text`, '<?xml version="1.0"?>\n<robot name="r2d2">\n  <link name="base"/>\n</robot>\n');
    await page.click(`${D} .d-apply`);
    const err = await page.textContent(`${D} .d-error`);
    assert.match(err, /joint/);
    assert.doesNotMatch(err, /unknown built-in|not supported/);
    // one line naming the element (<robot name='r2d2'>, line 2), never the file's text
    assert.ok(!err.includes('\n') && !err.includes('<?xml') && !err.includes('<link') && err.length < 200, `one line: ${err}`);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('bug 12: the simulation has joint-limit stops (the core spring–damper): the falling PUMA stays at its limits within a small sink-in and loses energy; with stops off it passes them; no floor, said on the page', { timeout: 120000 }, async () => {
  const { page, errors, context } = await studio('#robot=puma560&view=motion&q=0,0,0,0,0,0', { width: 1440, height: 900 });
  try {
    const M = '.view-panel[data-view="motion"]';
    assert.match(await page.textContent(`${M} .s-contact`), /Joint-limit stops, no floor:.*spring–damper.*no floor/s);
    assert.equal(await page.isChecked(`${M} .s-stops`), true, 'stops on by default');
    await page.fill(`${M} .s-duration`, '2');
    const run = async () => {
      await page.click(`${M} .s-run`);
      await page.waitForFunction(() => { const v = window.__achain.views.motion; return !v.simulating && v.traj?.simulated; }, null, { timeout: 60000 });
      return page.evaluate(() => {
        const v = window.__achain.views.motion;
        const m = window.__achain.studio.model;
        const n = v.traj.dof;
        let worst = 0; // largest excursion past a limit, rad
        for (let k = 0; k < v.traj.samples; k++)
          m.joints.forEach((j, i) => { const x = v.traj.q[k * n + i]; worst = Math.max(worst, x - j.upper, j.lower - x); });
        const e = v.traj.energy;
        let rise = 0; for (let k = 1; k < e.length; k++) rise = Math.max(rise, e[k] - e[0]);
        return { worst, rise, loss: e[0] - e[e.length - 1], status: v.$('.s-status').textContent };
      });
    };
    const on = await run();
    await screenshot(page, 'issue18-sim-limit-stops');
    // the PUMA let go from q = 0 falls onto a stop: it sinks in by at most a degree or two, and the damper takes energy out
    assert.ok(on.worst > 0, `a joint reaches a stop (${on.worst} rad past)`);
    assert.ok(on.worst < 2 * Math.PI / 180, `sink-in at the stop ${(on.worst * 180 / Math.PI).toFixed(3)}° < 2°`);
    assert.ok(on.loss > 1, `energy dissipated at the stop: ${on.loss} J`);
    assert.ok(on.rise < 1e-3, `never gains energy: ${on.rise} J`);
    assert.match(on.status, /energy change .* J \(the limit stops absorb energy/);
    await page.uncheck(`${M} .s-stops`);
    const off = await run();
    assert.ok(off.worst > 10 * Math.PI / 180, `without stops the PUMA falls far past a limit (${(off.worst * 180 / Math.PI).toFixed(1)}°)`);
    assert.match(off.status, /passes its joint limits \(limit stops off; no floor\)/);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('bug 6: switching robot while streaming asks first; yes stops the arm cleanly (no watchdog fault), no keeps the robot; a running workspace job is dropped', { timeout: 120000 }, async () => {
  const { page, errors, context } = await studio('#robot=prototype-4a&view=teleop', { width: 1440, height: 900 });
  try {
    await planAndConnect(page);
    const running = () => page.waitForFunction(() => window.__achain.views.controller.handle.streamer.status.state === 'running', null, { timeout: 10000 });
    await page.click('[data-testid=ctl-send]');
    await running();
    const asked = [];
    page.once('dialog', (d) => { asked.push(d.message()); d.dismiss(); });
    await page.selectOption('#robot-select', 'puma560');
    assert.match(asked[0] ?? '', /streaming to the controller/);
    assert.equal(await page.inputValue('#robot-select'), 'prototype-4a', 'No keeps the robot');
    assert.equal(await page.evaluate(() => window.__achain.robot), 'prototype-4a');
    page.once('dialog', (d) => d.accept());
    await page.selectOption('#robot-select', 'puma560');
    assert.equal(await page.evaluate(() => window.__achain.robot), 'puma560');
    assert.match(await waitSent(page, 10000), /stopped before the end/);
    await page.waitForTimeout(1000); // the link stays up: no watchdog fault after the switch
    const st = await page.evaluate(() => window.__achain.views.controller.handle.streamer.status);
    assert.equal(st.faults, 0, JSON.stringify(st));
    assert.equal(st.state, 'idle');
    // workspace: a job running on the old robot is dropped, its late result never drawn
    await page.click('#tabs button[data-view="workspace"]');
    await page.click('.view-panel[data-view="workspace"] .w-run');
    await page.waitForFunction(() => window.__achain.views.workspace.running);
    await page.selectOption('#robot-select', 'prototype-4a');
    await page.waitForTimeout(3000);
    const w = await page.evaluate(() => ({ running: window.__achain.views.workspace.running, result: window.__achain.views.workspace.result }));
    assert.deepEqual(w, { running: false, result: null });
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('layout at 800×600 and 1920×1080: every tab reachable, the arm inside the canvas, the readout under a third of the view, stop buttons visible', { timeout: 120000 }, async () => {
  for (const size of [{ width: 800, height: 600 }, { width: 1920, height: 1080 }]) {
    const { page, errors, context } = await studio('#robot=prototype-4a&view=teleop&q=150,120,200,100', size);
    try {
      for (const v of ['design', 'teleop', 'motion', 'workspace', 'vibration', 'controller']) {
        const tab = page.locator(`#tabs button[data-view="${v}"]`);
        const b = await tab.boundingBox();
        assert.ok(b && b.x >= 0 && b.x + b.width <= size.width && b.y >= 0 && b.y + b.height <= size.height, `${size.width}: tab ${v} inside the window ${JSON.stringify(b)}`);
        const top = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest('button')?.dataset.view, [b.x + b.width / 2, b.y + b.height / 2]);
        assert.equal(top, v, `${size.width}: tab ${v} is not covered`);
        await tab.click();
        assert.equal(await tab.getAttribute('aria-selected'), 'true');
        // the arm inside the canvas: every frame origin and the tool project into it
        const inside = await page.evaluate(() => {
          const a = window.__achain;
          const fk = a.studio.lastFk;
          const r = a.studio.viewport.canvas.getBoundingClientRect();
          return [...fk.frames, fk.tool].every((F) => { const p = a.screenOf(F[3], F[7], F[11]); return p.x > r.left && p.x < r.right && p.y > r.top && p.y < r.bottom; });
        });
        assert.ok(inside, `${size.width}: the arm is inside the canvas in ${v}`);
      }
      const frac = await page.evaluate(() => {
        const a = document.getElementById('readout').getBoundingClientRect();
        const c = document.getElementById('viewport').getBoundingClientRect();
        return (a.width * a.height) / (c.width * c.height);
      });
      assert.ok(frac < 1 / 3, `${size.width}: the readout covers ${(100 * frac).toFixed(1)} % of the view`);
      await page.click('[data-testid=ctl-connect]');
      await page.waitForFunction(() => document.querySelector('[data-testid=ctl-message]').textContent.startsWith('Connected'), null, { timeout: 20000 });
      for (const id of ['ctl-stop', 'ctl-estop']) {
        const b = await page.locator(`[data-testid=${id}]`).boundingBox();
        assert.ok(b && b.x >= 0 && b.y >= 0 && b.x + b.width <= size.width && b.y + b.height <= size.height, `${id} inside the window`);
      }
      await screenshot(page, `i18-layout-${size.width}x${size.height}`);
      assert.deepEqual(errors, []);
    } finally { await context.close(); }
  }
});

test('layout at 480×640: the view full width on top, the side panel under it, neither covering the other', { timeout: 120000 }, async () => {
  const size = { width: 480, height: 640 };
  const { page, errors, context } = await studio('#robot=prototype-4a&view=teleop&q=150,120,200,100', size);
  try {
    for (const v of ['teleop', 'motion', 'workspace']) {
      await page.click(`#tabs button[data-view="${v}"]`);
      const { c, p } = await page.evaluate(() => {
        const box = (el) => { const r = el.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; };
        return { c: box(window.__achain.studio.viewport.canvas), p: box(document.querySelector('.layout .panel')) };
      });
      // before: the 1100 px rule's two columns came back, the view was a 180 px strip beside the panel
      assert.ok(c.w >= 0.95 * size.width, `${v}: the view is ${c.w} px wide of ${size.width}`);
      assert.ok(c.h >= 0.3 * size.height, `${v}: the view is ${c.h} px high of ${size.height}`);
      assert.ok(p.w >= 0.95 * size.width && p.y >= c.y + c.h - 1, `${v}: the panel (${JSON.stringify(p)}) is under the view (${JSON.stringify(c)})`);
      const inside = await page.evaluate(() => {
        const a = window.__achain;
        const fk = a.studio.lastFk;
        const r = a.studio.viewport.canvas.getBoundingClientRect();
        return [...fk.frames, fk.tool].every((F) => { const q = a.screenOf(F[3], F[7], F[11]); return q.x > r.left && q.x < r.right && q.y > r.top && q.y < r.bottom; });
      });
      assert.ok(inside, `${v}: the arm is inside the view`);
    }
    await page.click('#tabs button[data-view="teleop"]');
    await screenshot(page, 'i18-layout-480x640');
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('keyboard: shortcuts keep working after a joint slider has been touched', async () => {
  const { page, errors, context } = await studio('#robot=prototype-4a&view=teleop&q=150,120,200,100', { width: 1440, height: 900 });
  try {
    const s1 = page.locator('.view-panel[data-view="teleop"] .sliders input[type=range][data-joint="0"]');
    const box = await s1.boundingBox();
    await page.mouse.click(box.x + box.width * 0.4, box.y + box.height / 2);
    assert.equal(await page.evaluate(() => document.activeElement.type), 'range');
    await page.keyboard.press('3');
    assert.equal(await page.getAttribute('#tabs button[data-view="motion"]', 'aria-selected'), 'true');
    await page.keyboard.press('2');
    assert.equal(await page.getAttribute('#tabs button[data-view="teleop"]', 'aria-selected'), 'true');
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('workspace: the volume in the chosen length unit, and the +4.6 % against the thesis explained on the page', { timeout: 120000 }, async () => {
  const { page, errors, context } = await studio('#robot=prototype-4a&view=workspace&units=deg,mm', { width: 1440, height: 900 });
  try {
    const W = '.view-panel[data-view="workspace"]';
    await page.click(`${W} .w-run`);
    await page.waitForFunction(() => window.__achain.views.workspace.result, null, { timeout: 90000 });
    const n = await page.evaluate(() => window.__achain.views.workspace.result.count);
    const vol = await page.evaluate(() => window.__achain.views.workspace.result.summary.volume);
    const cell = () => page.textContent(`${W} .w-result table tr:nth-child(2) td:nth-child(3)`);
    assert.equal(await cell(), `${Math.round(vol * 1e9).toLocaleString('en')} mm³`);
    await page.selectOption('#unit-length', 'in');
    assert.match(await cell(), /^[\d,]+ in³$/);
    await page.selectOption('#unit-length', 'm');
    assert.match(await cell(), /^\d\.\d{4} m³$/);
    const note = await page.textContent(`${W} .w-thesis`);
    assert.match(note, new RegExp(`487,640 voxels; this is ${(100 * (n / 487640 - 1)).toFixed(1)} % more`));
    assert.match(note, /Why the counts differ/);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('teleoperate: Cartesian jog buttons with a step, and Copy q', async () => {
  const { page, errors, context } = await studio('#robot=puma560&view=teleop&q=10,30,-40,20,30,10&units=deg,mm', { width: 1440, height: 900 });
  try {
    const P = '.view-panel[data-view="teleop"]';
    const t0 = await page.evaluate(() => window.__achain.tool);
    await page.fill(`${P} .jog-step`, '20');
    await page.click(`${P} [data-jog="z-"]`);
    const t1 = await page.evaluate(() => window.__achain.tool);
    assert.ok(Math.abs(t1[11] - (t0[11] - 0.02)) < 1e-6 && Math.abs(t1[3] - t0[3]) < 1e-6, `20 mm down: ${t0[11]} → ${t1[11]}`);
    await page.fill(`${P} .jog-step`, '5');
    await page.click(`${P} [data-jog="rz+"]`);
    const t2 = await page.evaluate(() => window.__achain.tool);
    // rotated 5° about the base z axis about the tool point: R2 = Rz(5°)·R1, the position kept
    const c = Math.cos(5 * DEG); const s = Math.sin(5 * DEG);
    for (let col = 0; col < 3; col++) {
      assert.ok(Math.abs(t2[col] - (c * t1[col] - s * t1[4 + col])) < 1e-6);
      assert.ok(Math.abs(t2[4 + col] - (s * t1[col] + c * t1[4 + col])) < 1e-6);
    }
    assert.ok(Math.hypot(t2[3] - t1[3], t2[7] - t1[7], t2[11] - t1[11]) < 1e-6);
    const copied = await page.evaluate(() => window.__achain.views.teleop.copyQ());
    const q = await page.evaluate(() => window.__achain.q.map((v) => v * 180 / Math.PI));
    assert.deepEqual(copied.split(', ').map(Number), q.map((v) => Number(v.toFixed(4))));
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('a shareable link with a bad json= says so instead of ignoring it', async () => {
  const { page, errors, context } = await studio('#json=%%%not-base64', { width: 1440, height: 900 });
  try {
    assert.match(await page.textContent('#status'), /^link: json=: not a base64url-encoded robot description .* — showing prototype-4a$/);
    assert.equal(await page.evaluate(() => window.__achain.robot), 'prototype-4a');
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('Motion: the plan exports as CSV in the display units and the plots as one PNG', async () => {
  const { page, errors, context } = await studio('#robot=prototype-4a&view=motion&units=deg,mm', { width: 1440, height: 900 });
  try {
    const M = '.view-panel[data-view="motion"]';
    await page.click(`${M} .m-plan`);
    await page.waitForTimeout(300);
    const dl = page.waitForEvent('download');
    await page.click(`${M} .m-csv`);
    const file = await (await dl).path();
    const lines = (await import('node:fs')).readFileSync(file, 'utf8').trim().split('\n');
    assert.equal(lines[0], '"t (s)","q1 waist (°)","q2 shoulder (°)","q3 elbow (°)","q4 wrist (°)","qd1 waist (°/s)","qd2 shoulder (°/s)","qd3 elbow (°/s)","qd4 wrist (°/s)"');
    const n = await page.evaluate(() => window.__achain.views.motion.traj.samples);
    assert.equal(lines.length, n + 1);
    assert.deepEqual(lines[1].split(',').slice(0, 5).map(Number), [0, 60, 60, 60, 60]);
    assert.deepEqual(lines.at(-1).split(',').slice(1, 5).map((v) => Number(Number(v).toFixed(6))), [300, 300, 300, 300]);
    const png = await page.evaluate(() => { const c = window.__achain.views.motion.plotsPng(); return { w: c.width, h: c.height, url: c.toDataURL().slice(0, 22) }; });
    assert.ok(png.w > 300 && png.h > 200, JSON.stringify(png));
    assert.equal(png.url, 'data:image/png;base64,');
    const dl2 = page.waitForEvent('download');
    await page.click(`${M} .m-png`);
    assert.match((await dl2).suggestedFilename(), /^prototype-4a-plots\.png$/);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('Controller plot: commanded vs measured labelled, and the y range at least 1° (servo noise does not fill it)', { timeout: 60000 }, async () => {
  const { page, errors, context } = await studio('#robot=prototype-4a&view=controller', { width: 1440, height: 900 });
  try {
    await page.waitForSelector('[data-testid=ctl-connect]');
    await page.click('[data-testid=ctl-connect]');
    await page.waitForFunction(() => document.querySelector('[data-testid=ctl-message]').textContent.startsWith('Connected'), null, { timeout: 20000 });
    await page.waitForTimeout(1500); // the arm rests at 60°: only servo noise
    assert.match(await page.textContent('[data-testid=ctl-plot-key]'), /q1q2q3q4dashed: commanded · solid: measured/);
    const y = await page.evaluate(() => { const u = window.__achain.views.controller.handle.plot; return { min: u.scales.y.min, max: u.scales.y.max, n: u.data[0].length }; });
    assert.ok(y.n > 10, `${y.n} samples plotted`);
    assert.ok(y.max - y.min >= 1 && y.min < 60 && y.max > 60, `y range ${y.min}…${y.max}°`);
    // hover readout: t and each joint's commanded / measured angle in degrees at the cursor
    const over = await page.locator('[data-testid=ctl-plot] .u-over').boundingBox();
    await page.mouse.move(over.x + 0.5 * over.width, over.y + 0.5 * over.height);
    await page.waitForTimeout(100);
    const hov = await page.evaluate(() => {
      const u = window.__achain.views.controller.handle.plot;
      const k = u.cursor.idx;
      return { k, t: u.data[0][k], cmd: u.data[1][k], meas: u.data[5][k], text: document.querySelector('[data-testid=ctl-plot-hover]').textContent };
    });
    assert.ok(hov.k != null, 'the cursor is on a sample');
    assert.ok(hov.text.startsWith(`t ${hov.t.toFixed(2)} s · q1 ${hov.cmd.toFixed(3)}° cmd / ${hov.meas.toFixed(3)}° meas`), hov.text);
    assert.match(hov.text, /q4 [\d.]+° cmd \/ [\d.]+° meas$/);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('sessions: save a session file and open it again (design, pose, camera, Motion and Workspace settings); a bad file is named', { timeout: 60000 }, async () => {
  const { page, errors, context } = await studio('#robot=puma560&view=design&q=10,20,30,40,50,60', { width: 1440, height: 900 });
  try {
    const D = '.view-panel[data-view="design"]';
    const a2 = page.locator(`${D} input[data-joint="1"][data-field="a"]`);
    await a2.fill('500');
    await a2.press('Enter');
    await page.click('#tabs button[data-view="motion"]');
    await page.fill('.view-panel[data-view="motion"] .m-duration', '2.5');
    await page.click('#tabs button[data-view="workspace"]');
    await page.fill('.view-panel[data-view="workspace"] .w-voxel', '20');
    await page.evaluate(() => { const c = window.__achain.studio.viewport.camera; c.position.set(2, -1, 1.5); window.__achain.studio.viewport.controls.update(); });
    const dl = page.waitForEvent('download');
    await page.click('#session-save');
    const file = await (await dl).path();
    const text = (await import('node:fs')).readFileSync(file, 'utf8');
    const saved = await page.evaluate(() => ({ q: window.__achain.q, a: window.__achain.studio.model.joints[1].a, cam: window.__achain.studio.viewport.camera.position.toArray() }));
    // somewhere else entirely, then open the file
    await page.selectOption('#robot-select', 'prototype-4a');
    await page.click('#tabs button[data-view="motion"]');
    await page.fill('.view-panel[data-view="motion"] .m-duration', '');
    await page.setInputFiles('#session-open', { name: 'my.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.waitForFunction(() => /session loaded/.test(document.getElementById('status').textContent));
    const back = await page.evaluate(() => ({ q: window.__achain.q, a: window.__achain.studio.model.joints[1].a, cam: window.__achain.studio.viewport.camera.position.toArray(), name: window.__achain.robot }));
    assert.equal(back.name, 'puma560');
    assert.ok(Math.abs(back.a - saved.a) < 1e-12 && Math.abs(back.a - 0.5) < 1e-9, `the edited design: a2 = ${back.a}`);
    assert.ok(back.q.every((v, i) => Math.abs(v - saved.q[i]) < 1e-6));
    assert.ok(back.cam.every((v, i) => Math.abs(v - saved.cam[i]) < 1e-9), `camera ${back.cam}`);
    assert.equal(await page.inputValue('.view-panel[data-view="motion"] .m-duration'), '2.5');
    assert.equal(await page.inputValue('.view-panel[data-view="workspace"] .w-voxel'), '20');
    // a bad file: the status names what is wrong
    await page.setInputFiles('#session-open', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ schema: 'achain-studio-session', version: 1, link: 'robot=puma560', camera: { position: [0, 0], target: [0, 0, 0] } })) });
    await page.waitForFunction(() => /bad\.json/.test(document.getElementById('status').textContent));
    assert.equal(await page.textContent('#status'), 'bad.json: session.camera.position: must be 3 finite numbers');
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('Solve all in position-only mode: near-duplicate solutions are merged (the core\'s minSeparation), distinct postures are drawn', { timeout: 60000 }, async () => {
  const { page, errors, context } = await studio('#robot=prototype-4a&view=teleop&q=150,120,200,100', { width: 1440, height: 900 });
  try {
    assert.equal(await page.inputValue('.view-panel[data-view="teleop"] .goal'), 'position', 'the default goal on 4 joints');
    await page.selectOption('.view-panel[data-view="teleop"] .solve-of', 'point');
    await page.click('.view-panel[data-view="teleop"] .solve-all');
    await page.waitForFunction(() => window.__achain.views.teleop.allResult);
    await screenshot(page, 'i18-solve-all-distinct');
    const r = await page.evaluate(() => {
      const a = window.__achain;
      const v = a.views.teleop;
      const m = a.studio.model;
      const T = a.studio.lastFk.tool;
      // the same call without the merge: the raw multi-start of a 4-joint arm reaching a point (a continuum)
      const raw = m.ikAll(T, { seedQ: a.studio.q, positionOnly: true, restarts: 20 });
      const sols = v.allResult.solutions.map((s) => Array.from(s.q));
      const reach = sols.map((q) => { const t = m.forwardKinematics(q).tool; return Math.hypot(t[3] - T[3], t[7] - T[7], t[11] - T[11]); });
      return { method: v.allResult.method, sols, reach, raw: raw.solutions.length, ghosts: v.ghosts.length, head: v.$('.solutions .muted').textContent };
    });
    assert.equal(r.method, 'numeric');
    assert.ok(r.raw >= 10, `the raw multi-start gives ${r.raw} near-duplicate solutions`);
    assert.ok(r.sols.length >= 2 && r.sols.length < r.raw, `${r.sols.length} distinct postures of ${r.raw}`);
    for (let a = 0; a < r.sols.length; a++)
      for (let b = 0; b < a; b++) {
        const d = Math.max(...r.sols[a].map((x, i) => Math.abs(x - r.sols[b][i])));
        assert.ok(d >= 20 * DEG - 1e-12, `postures ${a} and ${b} differ by ${(d / DEG).toFixed(1)}° (≥ 20°)`);
      }
    assert.ok(r.reach.every((e) => e < 1e-6), `every posture reaches the tool point: ${r.reach}`);
    assert.equal(r.ghosts, Math.min(r.sols.length, 16), 'one ghost per distinct posture');
    assert.match(r.head, /distinct postures: solutions within 20° of one shown are merged \(numeric multi-start \(\d+ starts\): \d+ converged, \d+ distinct\)/);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

/** Screen extent (fractions of the canvas) of a box under the current camera: the studio's shown box, or with
 *  `cloud` the workspace cloud's own box. */
async function shownExtent(page, cloud = false) {
  return page.evaluate((cloud) => {
    const s = window.__achain.studio;
    let box = s.shownBox();
    if (cloud) {
      box = box.clone().makeEmpty();
      for (const c of window.__achain.views.workspace.group.children) {
        c.geometry.computeBoundingBox();
        box.union(c.geometry.boundingBox.clone().applyMatrix4(c.matrixWorld));
      }
    }
    const e = s.viewport.ndcExtent(box);  // NDC −1…1 → fractions of the canvas
    return { x0: (e.x0 + 1) / 2, x1: (e.x1 + 1) / 2, y0: (e.y0 + 1) / 2, y1: (e.y1 + 1) / 2, size: box.getSize(box.min.clone()).toArray() };
  }, cloud);
}

test('camera: after a workspace run the view frames the arm and the cloud; Fit view (V) frames the arm as posed, not the reach sphere', { timeout: 120000 }, async () => {
  const { page, errors, context } = await studio('#robot=prototype-4a&view=workspace&units=deg,mm', { width: 1440, height: 900 });
  try {
    const W = '.view-panel[data-view="workspace"]';
    await page.fill(`${W} .w-voxel`, '40');
    await page.click(`${W} .w-run`);
    await page.waitForFunction(() => window.__achain.views.workspace.result, null, { timeout: 90000 });
    await page.waitForTimeout(200);
    await screenshot(page, 'i18-camera-workspace');
    const c = await shownExtent(page);
    const cloud = await shownExtent(page, true);
    const inside = (e) => e.x0 >= -0.01 && e.x1 <= 1.01 && e.y0 >= -0.01 && e.y1 <= 1.01;
    assert.ok(cloud.size[2] > 1, `a cloud was drawn (${cloud.size.map((v) => v.toFixed(2))} m)`);
    assert.ok(inside(c) && inside(cloud), `the cloud and the arm inside the canvas: ${JSON.stringify({ c, cloud })}`);
    assert.ok(Math.max(c.x1 - c.x0, c.y1 - c.y0) > 0.6, `and they fill it: ${JSON.stringify(c)}`);
    // Teleoperate, a bent pose, zoom out with the wheel, then V: the arm as posed fills the view
    await page.click('#tabs button[data-view="teleop"]');
    await page.evaluate(() => window.__achain.setQ([150, 120, 200, 100].map((v) => v * Math.PI / 180)));
    const canvas = await page.locator('#viewport canvas').boundingBox();
    await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
    for (let k = 0; k < 6; k++) { await page.mouse.wheel(0, 400); await page.waitForTimeout(30); }
    const far = await shownExtent(page);
    await page.keyboard.press('v');
    await page.waitForTimeout(150);
    await screenshot(page, 'i18-camera-fit-arm');
    const fit = await shownExtent(page);
    const span = (e) => Math.max(e.x1 - e.x0, e.y1 - e.y0);
    assert.ok(inside(fit), `the arm inside the canvas after V: ${JSON.stringify(fit)}`);
    assert.ok(span(fit) > 0.6 && span(fit) > 1.5 * span(far), `V frames the arm: span ${span(fit).toFixed(2)} (zoomed out ${span(far).toFixed(2)})`);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

/** The camera (position, target) now, and after Fit view (V): a frame made by the same function leaves it where it is. */
async function cameraAndFit(page) {
  const cam = () => page.evaluate(() => { const v = window.__achain.studio.viewport; return [...v.camera.position.toArray(), ...v.controls.target.toArray()]; });
  const now = await cam();
  await page.evaluate(() => window.__achain.studio.fitView()); // what V and Design's Fit view call
  await page.waitForTimeout(100);
  return { now, fit: await cam() };
}

/** Asserts the arm (the shown box) lies inside the canvas and spans at least 15 % of its shorter side. */
async function assertFramed(page, what) {
  const e = await shownExtent(page);
  const { w, h } = await page.evaluate(() => { const c = window.__achain.studio.viewport.canvas; return { w: c.clientWidth, h: c.clientHeight }; });
  const inside = e.x0 >= -0.01 && e.x1 <= 1.01 && e.y0 >= -0.01 && e.y1 <= 1.01;
  assert.ok(inside, `${what}: the arm inside the canvas ${JSON.stringify(e)}`);
  const span = Math.max((e.x1 - e.x0) * w, (e.y1 - e.y0) * h);
  assert.ok(span >= 0.15 * Math.min(w, h), `${what}: the arm spans ${span.toFixed(0)} px of ${Math.min(w, h)} px`);
  return span / Math.min(w, h);
}

test('camera: a robot switch and undo/redo frame the arm as posed (the Fit view framing), not the reach sphere', { timeout: 60000 }, async () => {
  const { page, errors, context } = await studio();
  try {
    const same = (a, b) => a.every((v, i) => Math.abs(v - b[i]) < 1e-9);
    const spans = {};
    for (const robot of ['prototype-4a', 'puma560', 'planar-2r']) {
      if (robot !== 'prototype-4a') {
        // zoom out first: the switch, not the previous view, must decide the frame
        const canvas = await page.locator('#viewport canvas').boundingBox();
        await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 3);
        for (let k = 0; k < 4; k++) { await page.mouse.wheel(0, 400); await page.waitForTimeout(30); }
        await page.selectOption('#robot-select', robot);
        await page.waitForTimeout(150);
      }
      assert.equal(await page.evaluate(() => window.__achain.studio.modelSource), robot);
      await screenshot(page, `i18-camera-switch-${robot}`);
      spans[robot] = await assertFramed(page, robot);
      const { now, fit } = await cameraAndFit(page);
      assert.ok(same(now, fit), `${robot}: the switch frames as Fit view does: ${now} vs ${fit}`);
    }
    // undo/redo in Design: New chain, undo (planar-2r again), redo (the new chain), each framed as V frames it
    await page.click('#tabs button[data-view="design"]');
    const D = '.view-panel[data-view="design"]';
    await page.click(`${D} .d-new`);
    for (const [button, name] of [['.d-undo', 'planar-2r'], ['.d-redo', 'my-chain']]) {
      const canvas = await page.locator('#viewport canvas').boundingBox();
      await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 3);
      for (let k = 0; k < 4; k++) { await page.mouse.wheel(0, 400); await page.waitForTimeout(30); }
      await page.click(`${D} ${button}`);
      await page.waitForTimeout(150);
      assert.equal(await page.evaluate(() => window.__achain.studio.model.name), name);
      await screenshot(page, `i18-camera-${button.slice(3)}`);
      await assertFramed(page, `after ${button.slice(3)}`);
      const { now, fit } = await cameraAndFit(page);
      assert.ok(same(now, fit), `${button.slice(3)}: framed as Fit view does: ${now} vs ${fit}`);
    }
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('plots: hovering a Motion plot reads out the time and every joint\'s value with its unit, on every plot at once', { timeout: 60000 }, async () => {
  const { page, errors, context } = await studio('#robot=prototype-4a&view=motion', { width: 1440, height: 900 });
  try {
    await page.click('.view-panel[data-view="motion"] .m-plan');
    await page.waitForFunction(() => window.__achain.views.motion.plots?.length >= 2);
    const over = page.locator('.chart .u-over').first();
    const b = await over.boundingBox();
    await page.mouse.move(b.x + 0.4 * b.width, b.y + 0.5 * b.height);
    await page.waitForTimeout(150);
    await screenshot(page, 'i18-plot-hover');
    const r = await page.evaluate(() => {
      const v = window.__achain.views.motion;
      const k = v.plots[0].cursor.idx;
      const n = v.traj.dof;
      return { k, t: v.traj.t[k], q: Array.from(v.traj.q.slice(k * n, (k + 1) * n), (x) => x * 180 / Math.PI),
        qd: Array.from(v.traj.qd.slice(k * n, (k + 1) * n), (x) => x * 180 / Math.PI),
        texts: [...document.querySelectorAll('.chart .chart-hover')].map((e) => e.textContent) };
    });
    assert.ok(r.k > 0, `cursor at sample ${r.k}`);
    const pos = r.texts[0];
    assert.match(pos, new RegExp(`^t ${r.t.toFixed(3)} s · q1 `));
    r.q.forEach((v, i) => assert.ok(pos.includes(`q${i + 1} ${v.toFixed(3)}°`), `position readout ${pos} has q${i + 1} = ${v.toFixed(3)}°`));
    const vel = r.texts[1];
    assert.match(vel, new RegExp(`^t ${r.t.toFixed(3)} s · `), 'the velocity plot follows the same cursor');
    r.qd.forEach((v, i) => assert.ok(vel.includes(`q${i + 1} ${(Math.abs(v) < 5e-4 ? 0 : v).toFixed(3)}°/s`), `velocity readout ${vel} has q${i + 1} in °/s`));
    assert.ok(r.texts.slice(2).some((s) => /N·m|W/.test(s)) || r.texts.length === 2, `torque/power in N·m and W: ${r.texts.slice(2)}`);
    await page.mouse.move(5, 5);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});
