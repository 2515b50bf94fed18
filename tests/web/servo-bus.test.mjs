// The Controller view's servo-bus panel (issue 33, item 6) on the simulated buses in the page: so101 on a Feetech
// bus (through an adapter that echoes) and openmanipulator-x on a Dynamixel bus. Scan, connect with the built-in
// calibration, the live twin, a teleoperation drag and the Motion view's plan each end within one encoder count;
// E-STOP stops a send with the safe state named; an injected fault is named with its servo ID; the guided
// calibration at zero; switching robot in the middle of a send stops it. The host and the bus run in a worker
// (servo.worker.mjs) on the wall clock.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { launch, openPage, screenshot, serveDist, waitReady } from './helpers.mjs';

let server;
let browser;
let base;
before(async () => {
  server = await serveDist();
  base = server.url;
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const ARMS = {
  feetech: { robot: 'so101', ids: [1, 2, 3, 4, 5], goal: [0.3, -0.25, 0.4, 0.2, 0.6], echo: true },
  dynamixel: { robot: 'openmanipulator-x', ids: [11, 12, 13, 14], goal: [0.4, -0.3, 0.3, 0.5] },
};
const T = (name) => `[data-testid=bus-${name}]`;

async function openBus(protocol, arm, opts = {}) {
  const o = await openPage(browser, `${base}#robot=${arm.robot}&view=controller`, opts);
  await waitReady(o.page);
  await o.page.selectOption('[data-testid=controller-link]', protocol);
  await o.page.waitForSelector(`[data-testid=bus-mount-${protocol}] ${T('open')}`);
  return o;
}
const panelOf = (protocol) => `[data-testid=bus-mount-${protocol}]`;
const text = (page, protocol, name) => page.textContent(`${panelOf(protocol)} ${T(name)}`);
const waitText = (page, protocol, name, re, timeout = 20000) => page.waitForFunction(([sel, src]) => new RegExp(src).test(document.querySelector(sel)?.textContent ?? ''),
  [`${panelOf(protocol)} ${T(name)}`, re.source], { timeout }).catch(async (e) => {
  throw new Error(`${e.message}: ${name} reads "${await text(page, protocol, name)}"; message "${await text(page, protocol, 'message')}"`);
});
/** The latest state the bus worker sent (feedback, goals, error, job). (waitForFunction does not await a promise: the
 *  predicates read the mounted panel's handle, busHandles, synchronously.) */
const snapOf = (page, protocol) => page.evaluate((p) => window.__achain.views.controller.busHandles[p].session.snap, protocol);

for (const [protocol, arm] of Object.entries(ARMS)) {
  test(`${arm.robot} on a simulated ${protocol} bus: scan, connect, live twin, a drag and the plan within one count, E-STOP and a fault named`, async () => {
    const { page, errors, context } = await openBus(protocol, arm);
    const P = panelOf(protocol);
    try {
      // the built-in calibration is offered and chosen
      assert.match(await page.locator(`${P} ${T('calibration')} option:checked`).textContent(), new RegExp(`built-in ${arm.robot}\\.${protocol}\\.json`));
      // the Feetech run has the adapter echo box ticked: its simulated bus echoes every byte and the host discards it,
      // so everything below runs the same through an echoing adapter (the Dynamixel run has none)
      if (arm.echo) await page.check(`${P} ${T('echo')}`);
      await page.click(`${P} ${T('open')}`);
      await waitText(page, protocol, 'message', new RegExp(`simulated ${protocol === 'feetech' ? 'Feetech' : 'Dynamixel'} bus runs in the page: ${arm.ids.length} servos`));
      assert.equal(await page.isDisabled(`${P} ${T('echo')}`), true, 'the echo box is fixed while the bus is open');
      assert.equal(await page.evaluate((p) => window.__achain.views.controller.busHandles[p].session.snap?.error ?? '', protocol), '');
      // scan: every servo, with its model name
      await page.click(`${P} ${T('scan')}`);
      await waitText(page, protocol, 'message', new RegExp(`^${arm.ids.length} servos answered`));
      const rows = await page.locator(`${P} ${T('found')} tr`).allTextContents();
      assert.deepEqual(rows.slice(1), arm.ids.map((id) => `${id}${protocol === 'feetech' ? 'STS3215' : 'XM430-W350'}1000000`));
      // connect: the present positions read; the twin is drawn where the servos stand (±40 counts off zero)
      await page.click(`${P} ${T('connect')}`);
      await waitText(page, protocol, 'message', /^Connected: /);
      await page.waitForFunction(() => !!window.__achain.studio.measured);
      const COUNT = (2 * Math.PI) / 4096;
      let s = await snapOf(page, protocol);
      s.feedback.forEach((f, i) => assert.ok(Math.abs(Math.abs(f.position) - 40 * COUNT) < 1e-9, `joint ${i + 1}: ${f.position}`));
      assert.equal(await page.evaluate(() => window.__achain.studio.viewport.world.getObjectByName('achain-measured')?.visible), true);
      await screenshot(page, `bus-${protocol}-connected`);

      // teleoperation: the studio's pose (as a drag sets it) streamed; the servos end within one count of the goal
      await page.check(`${P} ${T('teleop')}`);
      await waitText(page, protocol, 'message', /^Teleoperation on/);
      await page.evaluate((q) => window.__achain.studio.setQ(Float64Array.from(q), 'drag'), arm.goal);
      // (until the stream has reached the goal: as it starts, its goals are where the servos stand)
      await page.waitForFunction(([p, goal, count]) => {
        const snap = window.__achain.views.controller.busHandles[p].session.snap;
        return snap.goals.length && snap.feedback.every((f, i) => Math.abs(f.counts - snap.goals[i]) <= 1 && Math.abs(f.position - goal[i]) <= 1.5 * count);
      }, [protocol, arm.goal, COUNT], { timeout: 20000 });
      s = await snapOf(page, protocol);
      s.feedback.forEach((f, i) => assert.ok(Math.abs(f.position - arm.goal[i]) <= 1.5 * COUNT, `q${i + 1}: ${f.position} vs ${arm.goal[i]}`));
      // a goal outside the limits is refused by the host, named, and nothing moves
      await page.evaluate((q) => window.__achain.studio.setQ(Float64Array.from(q), 'drag'), arm.goal.map((v, i) => (i === 1 ? 9 : v)));
      await waitText(page, protocol, 'message', /^Not sent: joint '[^']+' \(servo ID \d+\): goal 9\.0000 rad is above its maximum .* refused, nothing was sent$/);
      s = await snapOf(page, protocol);
      s.feedback.forEach((f, i) => assert.ok(Math.abs(f.position - arm.goal[i]) <= 1.5 * COUNT, `q${i + 1} stayed: ${f.position}`));
      await page.evaluate((q) => window.__achain.studio.setQ(Float64Array.from(q), 'drag'), arm.goal);
      await page.uncheck(`${P} ${T('teleop')}`);

      // the Motion view's plan from the current pose back to zero, streamed; final error within one count
      await page.click('#tabs button[data-view="motion"]');
      await page.click('.view-panel[data-view="motion"] .m-from-cur');
      const zeros = arm.goal.map(() => '0').join(', ');
      await page.fill('.view-panel[data-view="motion"] .m-to', zeros);
      await page.fill('.view-panel[data-view="motion"] .m-duration', '1.5');
      await page.click('.view-panel[data-view="motion"] .m-plan');
      await page.waitForFunction(() => !!window.__achain.views.motion.traj);
      await page.click('#tabs button[data-view="controller"]');
      await page.click(`${P} ${T('send')}`);
      await waitText(page, protocol, 'send-message', /^(Done|Not done)/, 30000);
      const done = await text(page, protocol, 'send-message');
      const m = done.match(/final error (.*) counts/);
      assert.ok(m, done);
      assert.ok(m[1].split(', ').map(Number).every((c) => Math.abs(c) <= 1), done);

      // E-STOP in the middle of a send: the job ends saying so, the safe state named
      await page.evaluate(() => window.__achain.studio.setQ(new Float64Array(window.__achain.studio.q.length), 'drag'));
      await page.click('#tabs button[data-view="motion"]');
      await page.fill('.view-panel[data-view="motion"] .m-from', zeros);
      await page.fill('.view-panel[data-view="motion"] .m-to', arm.goal.map((v) => String((v * 180) / Math.PI)).join(', '));
      await page.fill('.view-panel[data-view="motion"] .m-duration', '3');
      await page.click('.view-panel[data-view="motion"] .m-plan');
      await page.click('#tabs button[data-view="controller"]');
      await page.click(`${P} ${T('send')}`);
      await page.waitForFunction((p) => window.__achain.views.controller.busHandles[p].session.snap?.job?.phase === 'running', protocol, { timeout: 20000 });
      // (the click dispatched in the page, its time taken there: Playwright's own round trips are not the page's)
      const clickMs = await page.evaluate((sel) => {
        const t = performance.timeOrigin + performance.now();
        document.querySelector(sel).click();
        return t;
      }, T('estop'));
      await waitText(page, protocol, 'send-message', /^Not done: stopped by the studio's E-STOP during the trajectory: streaming stopped and torque turned off on every servo/);
      // the safe state's sync write (torque off) on the bus within one streaming period of the worker taking the
      // E-STOP (bus time); the click's way to the worker (page, message, wall clock) is reported, not judged
      const timing = await page.evaluate((p) => window.__achain.views.controller.busHandles[p].session.estopTiming(), protocol);
      assert.ok(timing.hostToBusUs >= 0 && timing.hostToBusUs <= timing.periodUs, JSON.stringify(timing));
      console.log(`# ${protocol}: E-STOP click → worker ${(timing.estopWallMs - clickMs).toFixed(1)} ms (wall), worker → torque off on the bus ${timing.hostToBusUs.toFixed(0)} µs (bus time)`);
      s = await snapOf(page, protocol);
      assert.equal(s.estopped, true);
      assert.equal(s.streaming, false);

      // each fault on servo 3 of the chain (a silent servo, corrupt replies, the overload bit): named with its ID and
      // what happened, the safe state said; teleoperation ends; cleared, a reconnect reads the servos afresh
      const id = arm.ids[2];
      const says = {
        silence: `servo ID ${id} did not reply`,
        corrupt: `servo ID ${id}: its reply failed the ${protocol === 'dynamixel' ? 'CRC-16' : 'checksum'} check`,
        overload: protocol === 'dynamixel' ? `servo ID ${id} reports a hardware error, overload` : `servo ID ${id} reports overload`,
      };
      for (const [kind, text0] of Object.entries(says)) {
        await page.click(`${P} ${T('torque-on')}`);
        await page.check(`${P} ${T('teleop')}`);
        await waitText(page, protocol, 'message', /^Teleoperation on/);
        await page.selectOption(`${P} ${T('fault-kind')}`, kind);
        await page.fill(`${P} input[aria-label="servo ID"]`, String(id));
        await page.click(`${P} ${T('inject')}`);
        await waitText(page, protocol, 'error', new RegExp(text0.replace(/[()]/g, '\\$&')));
        assert.match(await text(page, protocol, 'error'), /torque turned off on every servo/, kind);
        assert.equal(await page.isChecked(`${P} ${T('teleop')}`), false, `${kind}: teleoperation ended`);
        s = await snapOf(page, protocol);
        assert.equal(s.streaming, false, kind);
        await page.selectOption(`${P} ${T('fault-kind')}`, 'clear');
        await page.click(`${P} ${T('inject')}`);
        await page.click(`${P} ${T('clear')}`);
        await waitText(page, protocol, 'message', /^Connected: /);
        assert.equal(await text(page, protocol, 'error'), '', `${kind}: cleared`);
      }
      await screenshot(page, `bus-${protocol}-after-fault`);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}

test('guided calibration at zero on the Feetech bus: a picture of each step, the zero offsets read, kept in the session; a robot switch mid-send stops the send', async () => {
  const protocol = 'feetech';
  const arm = ARMS.feetech;
  const { page, errors, context } = await openBus(protocol, arm);
  const P = panelOf(protocol);
  try {
    await page.click(`${P} ${T('open')}`);
    await waitText(page, protocol, 'message', /runs in the page/);
    await page.click(`${P} ${T('calibrate')}`);
    await page.waitForSelector(`${P} ${T('take-zero')}`);
    assert.match(await text(page, protocol, 'guide'), /^Step 1 of 3 — so101 at its zero pose/);
    const src = await page.getAttribute(`${P} ${T('picture')}`, 'src');
    assert.ok(src.startsWith('data:image/png;base64,') && src.length > 5000, 'a picture of the zero pose');
    assert.deepEqual(await page.evaluate(() => window.__achain.q), [0, 0, 0, 0, 0], 'the studio shows the zero pose');
    await screenshot(page, 'bus-calibrate-step1');
    await page.fill(`${P} ${T('ids')}`, '1,2,3,4,5');
    await page.click(`${P} ${T('take-zero')}`);
    await waitText(page, protocol, 'message', /^Calibrated at zero: 5 joints; zero offsets /);
    // the simulated servos stand 40 counts off the built-in zero (2047), alternately up and down
    assert.match(await text(page, protocol, 'message'), /zero offsets 2087, 2007, 2087, 2007, 2087 counts/);
    // step 2: each joint's ends, one at a time, the picture showing the model at that end; on the simulated bus
    // Record turns the servo there first (as a hand would), and the limit is kept 1° inside the end measured
    const model = await page.evaluate(() => window.__achain.studio.model.coordinates.map((c) => [c.lower, c.upper]));
    assert.match(await text(page, protocol, 'guide'), /^Step 2 of 3 — the limits, joint 1 of 5: move q1 \S+ by hand to its lower end/);
    const zeroPicture = src;
    assert.notEqual(await page.getAttribute(`${P} ${T('picture')}`, 'src'), zeroPicture, 'a picture of the lower end');
    assert.deepEqual(await page.evaluate(() => window.__achain.q), [model[0][0], 0, 0, 0, 0], 'the studio shows q1 at its lower limit');
    await screenshot(page, 'bus-calibrate-step2');
    await page.click(`${P} ${T('record-limit')}`);
    await waitText(page, protocol, 'message', /^q1 lower limit: /);
    await waitText(page, protocol, 'guide', /^Step 2 of 3 — the limits, joint 1 of 5: move q1 \S+ by hand to its upper end/);
    await page.click(`${P} ${T('record-limit')}`);
    await waitText(page, protocol, 'message', /^q1 upper limit: /);
    await waitText(page, protocol, 'guide', /joint 2 of 5: move q2 \S+ by hand to its lower end/);
    await page.click(`${P} ${T('skip-limit')}`);  // q2's lower limit stays the model's
    await waitText(page, protocol, 'guide', /joint 2 of 5: move q2 \S+ by hand to its upper end/);
    await page.click(`${P} ${T('finish-limits')}`);
    await waitText(page, protocol, 'guide', /^Step 3 of 3 — check/);
    await screenshot(page, 'bus-calibrate-step3');
    const cal = (await page.evaluate(() => window.__achain.captureSession())).servoCalibration.calibration;
    const COUNT = (2 * Math.PI) / 4096, ONE_DEG = Math.PI / 180;
    assert.ok(Math.abs(cal.joints[0].min - (model[0][0] + ONE_DEG)) <= COUNT, `q1 min ${cal.joints[0].min}`);
    assert.ok(Math.abs(cal.joints[0].max - (model[0][1] - ONE_DEG)) <= COUNT, `q1 max ${cal.joints[0].max}`);
    assert.ok(Math.abs(cal.joints[1].min - model[1][0]) < 1e-9 && Math.abs(cal.joints[1].max - model[1][1]) < 1e-9, 'q2 untouched');
    assert.match(await text(page, protocol, 'limits'), /^limits: q1 /);
    // the simulated hand put servo 1 at q1's upper end: back to zero, as the rest of this test expects
    assert.equal(await page.evaluate(([p, counts]) => window.__achain.views.controller.busHandles[p].session.moveByHand(1, counts),
      [protocol, cal.joints[0].zero_offset]), true);
    await page.click(`${P} ${T('keep')}`);
    // kept in the studio session (Save writes it) and offered as this session's
    const session = await page.evaluate(() => window.__achain.captureSession());
    assert.deepEqual(session.servoCalibration.calibration.joints.map((j) => j.zero_offset), [2087, 2007, 2087, 2007, 2087]);
    assert.match(await page.locator(`${P} ${T('calibration')} option:checked`).textContent(), /this session's \(taken at zero and the limits\)/);
    // measured with the new calibration, the arm is at zero
    await page.waitForFunction((p) => window.__achain.views.controller.busHandles[p].session.snap.feedback.every((f) => Math.abs(f.position) < 1e-12),
      protocol, { timeout: 5000 }).catch(async (e) => { throw new Error(`${e.message}: ${JSON.stringify((await snapOf(page, protocol)).feedback.map((f) => f.position))}`); });

    // a send running when the robot is switched: asked, then stopped with the E-STOP action
    await page.click('#tabs button[data-view="motion"]');
    await page.fill('.view-panel[data-view="motion"] .m-from', '0, 0, 0, 0, 0');
    await page.fill('.view-panel[data-view="motion"] .m-to', '20, -15, 25, 10, 30');
    await page.fill('.view-panel[data-view="motion"] .m-duration', '4');
    await page.click('.view-panel[data-view="motion"] .m-plan');
    await page.click('#tabs button[data-view="controller"]');
    await page.click(`${P} ${T('send')}`);
    await page.waitForFunction(() => window.__achain.views.controller.busHandles.feetech.session.snap?.job?.phase === 'running', null, { timeout: 20000 });
    let asked = '';
    page.once('dialog', (d) => { asked = d.message(); d.accept(); });
    await page.selectOption('#robot-select', 'puma560');
    await waitText(page, protocol, 'send-message', /^Not done: stopped by the studio's E-STOP during the trajectory/);
    assert.match(asked, /^A trajectory is streaming to the Feetech bus \(stopping it is the E-STOP action\)\. Stop it and switch the robot\?$/);
    assert.equal(await page.evaluate(() => window.__achain.studio.model.name), 'puma560');
    assert.equal(await page.evaluate(() => window.__achain.studio.measured === null), true, 'no twin of the old robot');
    // a session file carries the calibration back with its robot; a bad one is refused naming the field
    await page.evaluate(() => { window.__achain.studio.servoCalibration = null; });
    await page.evaluate((text) => window.__achain.openSession(text, 'arm.session.json'), JSON.stringify({ ...session, servoCalibration: { ...session.servoCalibration, from: 'my SO-101' } }));
    assert.equal(await page.textContent('#status'), 'arm.session.json: session loaded');
    assert.match(await page.locator(`${P} ${T('calibration')} option:checked`).textContent(), /this session's \(my SO-101\)/);
    await page.evaluate((text) => window.__achain.openSession(text, 'bad.session.json'), JSON.stringify({ ...session, servoCalibration: { robot: 'so101' } }));
    assert.match(await page.textContent('#status'), /^bad\.session\.json: session\.servoCalibration: must be \{robot, protocol/);
    assert.equal(await page.evaluate(() => window.__achain.studio.model.name), 'so101');
    // a robot switch in the middle of the guided calibration closes the guide (it was the old robot's)
    await page.click(`${P} ${T('calibrate')}`);
    await page.waitForSelector(`${P} ${T('take-zero')}`);
    await page.selectOption('#robot-select', 'openmanipulator-x');
    await page.waitForFunction(() => window.__achain.studio.model?.name === 'openmanipulator-x');
    assert.equal(await page.isHidden(`${P} ${T('guide')}`), true, 'the guide of the old robot is closed');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
