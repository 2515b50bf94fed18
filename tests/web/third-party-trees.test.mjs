// Issue 32, acceptance item for real third-party branched URDFs: six trees written by others — a Franka Panda, a
// PR2, the urdf-loaders T12 hexapod and TriATHLETE, a PSYONIC Ability Hand and a ROBEL D'Claw (provenance in
// tests/fixtures/urdf/third-party/README.md; their mesh files are not included) — each:
//   1. opens through the file picker: nothing loads, the Design view's tree panel asks for the tool link (no CLI
//      flag named), every end link marked; picking the tool link loads the robot with the tool there (the studio's
//      tool pose = the core's modelFromUrdf(text, {toolLink}).fkTool(q) to 1e-9 at a q inside the limits, and not
//      on another end link); the missing mesh files are listed as warnings by the names the file gives;
//   2. drags with IK in Teleoperate: the gizmo's z arrow pulled 48 px down moves the tool down, following the
//      gizmo exactly (status ok, < 1e-6 m) where the tool's joints can;
//   3. plans a 2 s trapezoid in Motion between two configurations inside the limits typed in the display units;
//   4. exports URDF and MJCF: the URDF re-opens without asking (achain:tool) with the same tool pose (1e-9); the
//      MJCF loads in MuJoCo (mujoco-js, in this process) with one body per joint plus the world, one joint per
//      joint, a joint equality per mimic joint, and its tool site at the studio's tool pose (1e-9).
// Screenshots at 1280×800 and the exported files: test-results/web/third-party-*.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import loadMujoco from 'mujoco-js';
import { serveDist, launch, openPage, waitReady, screenshot, repo, artifacts } from './helpers.mjs';

const DIR = path.join(repo, 'tests/fixtures/urdf/third-party');

/**
 * Per robot: the file and the robot's name; its end links (how many, and the first two as the question lists
 * them); the picked tool link and another end link (the tool must not be there); the model's coordinates (dof)
 * and joints (mimic joints have no coordinate; fixed joints are merged), the mimic joints (MuJoCo equalities); the
 * distinct visual mesh files the file names (all missing here); how far down the 48 px drag must move the tool (m;
 * measured: Panda 0.120, PR2 0.132, T12 0.883, TriATHLETE 0.698, Ability Hand 0.015, D'Claw 0.026). `goal`: the
 * IK goal the drag needs when the default does not do (see the todo tests at the end), `chain`: the coordinates
 * that move the tool then; `arc`: one coordinate moves the tool, so it cannot follow the gizmo exactly.
 */
const ROBOTS = [
  { id: 'panda', file: 'panda.urdf', name: 'panda', leaves: 2, firstLeaves: ['panda_leftfinger', 'panda_rightfinger'],
    tool: 'panda_hand', other: 'panda_leftfinger', dof: 8, joints: 9, mimic: 1, meshes: 10, drop: 0.05 },
  { id: 'pr2', file: 'pr2.urdf', name: 'pr2', leaves: 40, firstLeaves: ['base_bellow_link', 'base_laser_link'],
    tool: 'r_gripper_tool_frame', other: 'l_gripper_tool_frame', dof: 39, joints: 45, mimic: 6, meshes: 20, drop: 0.05 },
  { id: 't12', file: 'T12.URDF', name: 'T12', leaves: 6, firstLeaves: ['Foot1', 'Foot2'],
    tool: 'Foot1', other: 'Foot4', dof: 36, joints: 36, mimic: 0, meshes: 37, drop: 0.3 },
  { id: 'triathlete', file: 'TriATHLETE.URDF', name: 'TriATHLETE', leaves: 12, firstLeaves: ['Wheel1', 'ToolCam1'],
    tool: 'Wheel1', other: 'Wheel2', dof: 30, joints: 30, mimic: 0, meshes: 31, drop: 0.3 },
  { id: 'ability-hand', file: 'ability_hand_right_large.urdf', name: 'ability_hand', leaves: 35, firstLeaves: ['index_anchor', 'fsr0'],
    tool: 'index_anchor', other: 'thumb_anchor', dof: 6, joints: 10, mimic: 4, meshes: 7, drop: 0.005, goal: 'position', chain: 1, arc: true },
  { id: 'dclaw', file: 'dclaw_gripper.urdf', name: 'dclaw_gripper', leaves: 3, firstLeaves: ['link_f1_head', 'link_f2_head'],
    tool: 'link_f1_head', other: 'link_f2_head', dof: 9, joints: 9, mimic: 0, meshes: 4, drop: 0.01, goal: 'position', chain: 3 },
];

let srv;
let browser;
let mujoco;
before(async () => {
  [srv, browser, mujoco] = await Promise.all([serveDist(), launch(), loadMujoco()]);
  mujoco.FS.mkdir('/third-party');
});
after(async () => { await browser?.close(); await srv?.close(); });

const maxDiff = (a, b) => Math.max(...Array.from(a, (v, i) => Math.abs(v - b[i])));
const position = (T) => [T[3], T[7], T[11]];
const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
/** Golden-ratio fractions in [0.2, 0.8): a configuration that is not special (no zeros, no limits). */
const frac = (i, shift) => 0.2 + 0.6 * (((i + 1) * 0.6180339887 + shift) % 1);
/** A coordinate's range: its limits, else ±π (angles) or ±0.5 m, as the studio's sliders. */
const range = (j) => [j.lower ?? (j.angular ? -Math.PI : -0.5), j.upper ?? (j.angular ? Math.PI : 0.5)];
/** A configuration strictly inside every limit, SI. */
const configuration = (coords, shift) => coords.map((j, i) => { const [lo, hi] = range(j); return lo + frac(i, shift) * (hi - lo); });
/** SI → the page's display units (deg, mm) as typed into a Motion field. */
const display = (coords, q) => q.map((v, i) => (coords[i].angular ? (v * 180) / Math.PI : v * 1000).toFixed(9)).join(', ');

/** Opens `file` through the URDF picker on a fresh page; resolves when the tree panel asks for the tool link. */
async function openAsking(file) {
  const o = await openPage(browser, `${srv.url}#view=teleop`, { width: 1280, height: 800 });
  await waitReady(o.page);
  o.first = await o.page.evaluate(() => window.__achain.robot);
  await o.page.setInputFiles('#urdf-files', [file]);
  await o.page.waitForSelector('.d-tree .t-ask', { state: 'visible', timeout: 20000 });
  return o;
}

/** Picks the robot's tool link in the tree panel; resolves when the robot is loaded with it. */
async function pick(page, robot) {
  await page.click(`.d-tree .t-link[data-link="${robot.tool}"] input`);
  await page.waitForFunction(({ tool, name }) => window.__achain.studio.urdf?.toolLink === tool && window.__achain.robot === name
    && window.__achain.studio.urdf.model === window.__achain.studio.model, { tool: robot.tool, name: robot.name }, { timeout: 20000 });
  await page.waitForTimeout(100);
}

/** The model's coordinates as the page has them. */
const coordinates = (page) => page.evaluate(() => window.__achain.studio.model.coordinates.map((j) => ({ name: j.name, lower: j.lower, upper: j.upper, angular: j.angular })));

/** Sets q; the studio's tool pose and the core's for `text` with each of `links` as the tool (row-major 4×4 each). */
function poses(page, q, text, links) {
  return page.evaluate(({ q, text, links }) => {
    const a = window.__achain;
    a.setQ(q);
    const core = links.map((toolLink) => { const m = a.achain.modelFromUrdf(text, { toolLink }); const T = Array.from(m.fkTool(q)); m.dispose(); return T; });
    return { studio: a.tool, core, within: a.studio.model.withinLimits(q) };
  }, { q, text, links });
}

/** Screen point of the gizmo's z arrow: hovers up the screen from the tool until TransformControls names the axis Z. */
async function zArrow(page) {
  const [x, y, z] = position(await page.evaluate(() => window.__achain.tool));
  const o = await page.evaluate(([x, y, z]) => window.__achain.screenOf(x, y, z), [x, y, z]);
  const u = await page.evaluate(([x, y, z]) => window.__achain.screenOf(x, y, z + 1e-3), [x, y, z]);
  const len = Math.hypot(u.x - o.x, u.y - o.y) || 1;
  const dir = { x: (u.x - o.x) / len, y: (u.y - o.y) / len }; // +z on the screen
  for (let px = 30; px <= 150; px += 6) {
    const p = { x: o.x + dir.x * px, y: o.y + dir.y * px };
    await page.mouse.move(p.x, p.y);
    await page.waitForTimeout(25);
    if (await page.evaluate(() => window.__achain.views.teleop.gizmo.axis) === 'Z') return { ...p, dir };
  }
  throw new Error('the gizmo z arrow was not found above the tool');
}

/**
 * Drags the gizmo's z arrow 48 px down the screen (12 mouse moves with the left button held), waits 300 ms for the
 * IK to catch up, reads the tool, the gizmo's target and the IK status while still holding, then lets go.
 */
async function dragDown(page) {
  const before = await page.evaluate(() => ({ q: window.__achain.q, tool: window.__achain.tool }));
  const a = await zArrow(page);
  await page.mouse.down();
  for (let k = 1; k <= 12; k++) {
    await page.mouse.move(a.x - a.dir.x * 4 * k, a.y - a.dir.y * 4 * k);
    await page.waitForTimeout(40);
  }
  await page.waitForTimeout(300);
  const held = await page.evaluate(() => {
    const v = window.__achain.views.teleop;
    const st = document.querySelector('.ik-status');
    return { dragging: v.dragging, target: Array.from(v.drag.target()), tool: window.__achain.tool, q: window.__achain.q,
      status: st.dataset.status, text: st.textContent, goal: document.querySelector('.view-panel[data-view="teleop"] .goal').value };
  });
  await page.mouse.up();
  await page.waitForTimeout(200);
  const t0 = position(before.tool); const t1 = position(held.tool);
  return { ...held, q0: before.q, dx: t1[0] - t0[0], dy: t1[1] - t0[1], dz: t1[2] - t0[2], moved: dist(t0, t1), lag: dist(t1, position(held.target)) };
}

/** Loads MJCF text in MuJoCo; its counts and the tool site's pose (position, row-major axes) at the joint values `qpos`. */
function mujocoLoad(text, qpos) {
  mujoco.FS.writeFile('/third-party/model.xml', text);
  const m = mujoco.MjModel.loadFromXML('/third-party/model.xml');
  const d = new mujoco.MjData(m);
  try {
    assert.equal(m.nq, qpos.length);
    d.qpos.set(qpos);
    mujoco.mj_kinematics(m, d);
    return { nbody: m.nbody, njnt: m.njnt, nq: m.nq, neq: m.neq, nsite: m.nsite, site: Array.from(d.site_xpos.slice(0, 3)), R: Array.from(d.site_xmat.slice(0, 9)) };
  } finally { d.delete(); m.delete(); }
}

for (const robot of ROBOTS) {
  test(`${robot.file}: asks for the tool link, picks ${robot.tool}, drags with IK, plans, exports URDF and MJCF that re-open`, { timeout: 180000 }, async () => {
    const file = path.join(DIR, robot.file);
    const text = fs.readFileSync(file, 'utf8');
    const { page, errors, context, first } = await openAsking(file);
    try {
      // 1. the question, in the Design view, naming no CLI flag; nothing loaded yet
      assert.equal(await page.getAttribute('#tabs button[data-view="design"]', 'aria-selected'), 'true');
      const ask = await page.textContent('.d-tree .t-ask');
      const lead = `${robot.file}: this robot is a tree with ${robot.leaves} end links (${robot.firstLeaves.join(', ')}`;
      assert.ok(ask.startsWith(`${lead}, `) || ask.startsWith(`${lead})`), ask);
      assert.ok(ask.endsWith('): choose the tool link.'), ask);
      assert.doesNotMatch(`${ask} ${await page.textContent('#status')}`, /--tool-link|tool-link|leaf links/);
      assert.equal(await page.evaluate(() => window.__achain.robot), first, 'nothing loaded yet');
      const leafRows = await page.$$eval('.d-tree .t-link.leaf', (rows) => rows.map((r) => r.dataset.link));
      assert.equal(leafRows.length, robot.leaves);
      assert.ok(leafRows.includes(robot.other));
      await screenshot(page, `third-party-${robot.id}-ask`);

      await pick(page, robot);
      assert.equal(await page.$('.d-tree .t-ask'), null);
      const info = await page.evaluate(() => ({
        dof: window.__achain.studio.model.dof, joints: window.__achain.studio.model.joints.length,
        tool: [...document.querySelectorAll('.d-tree .t-link.tool')].map((r) => r.dataset.link), missing: window.__achain.visuals.stats().missing,
        meshWarnings: [...document.querySelectorAll('#warnings .warn-item')].map((e) => e.textContent).filter((t) => t.startsWith('mesh not found: ')),
      }));
      assert.equal(info.dof, robot.dof);
      assert.equal(info.joints, robot.joints);
      assert.deepEqual(info.tool, [robot.tool]);
      // the mesh files are not here: each distinct one is listed once as missing, by the name the file gives
      const missing = [...new Set(info.missing)].sort();
      assert.equal(missing.length, robot.meshes);
      assert.deepEqual(info.meshWarnings.map((t) => t.slice('mesh not found: '.length).split(' — ')[0]).sort(), missing);
      assert.ok(missing.every((f) => text.includes(`filename="${f}"`)), missing.join(', '));
      // the tool pose at a configuration inside the limits is the core's with this tool link, not another end link's
      const coords = await coordinates(page);
      const Q = configuration(coords, 0);
      const p = await poses(page, Q, text, [robot.tool, robot.other]);
      assert.equal(p.within, true);
      assert.ok(maxDiff(p.studio, p.core[0]) < 1e-9, `${robot.tool}: studio ${p.studio} vs core ${p.core[0]}`);
      assert.ok(dist(position(p.core[0]), position(p.core[1])) > 0.01, `the tool is on ${robot.tool}, not on ${robot.other}`);
      const toolAtQ = p.studio;
      await screenshot(page, `third-party-${robot.id}-picked`);

      // 2. drag the tool with IK: the gizmo's z arrow pulled down
      await page.click('#tabs button[data-view="teleop"]');
      await page.waitForTimeout(300);
      if (robot.goal) await page.selectOption('.view-panel[data-view="teleop"] .goal', robot.goal);
      const d = await dragDown(page);
      assert.equal(d.dragging, true, 'the gizmo grabbed the tool');
      assert.equal(d.goal, robot.goal ?? 'pose');
      assert.ok(d.dz < -robot.drop, `the tool went down ${-d.dz} m (at least ${robot.drop} m); IK: ${d.text}`);
      assert.ok(d.q.some((v, i) => Math.abs(v - d.q0[i]) > 1e-3), 'the joints moved');
      if (robot.arc) {
        // one coordinate moves the fingertip (index_q1; index_q2 mimics it): it goes down its arc, as near the gizmo as it gets
        assert.equal(d.status, 'unreachable');
        assert.ok(d.lag < d.moved, `the tool is ${d.lag} m from the gizmo after moving ${d.moved} m`);
      } else {
        // the tool follows the gizmo exactly, straight down
        assert.equal(d.status, 'ok', d.text);
        assert.ok(d.lag < 1e-6, `the tool is ${d.lag} m from the gizmo`);
        assert.ok(Math.hypot(d.dx, d.dy) < 1e-6, `the tool moved sideways ${Math.hypot(d.dx, d.dy)} m`);
      }
      await screenshot(page, `third-party-${robot.id}-drag`);
      assert.deepEqual(errors, []);

      // 3. plan a 2 s joint move between two configurations inside the limits, typed in degrees and millimetres
      await page.click('#tabs button[data-view="motion"]');
      const M = '.view-panel[data-view="motion"]';
      const from = configuration(coords, 0.1);
      const to = configuration(coords, 0.5);
      await page.fill(`${M} .m-from`, display(coords, from));
      await page.fill(`${M} .m-to`, display(coords, to));
      await page.fill(`${M} .m-duration`, '2');
      await page.click(`${M} .m-plan`);
      await page.waitForTimeout(300);
      const plan = await page.evaluate(({ from, to }) => {
        const tr = window.__achain.views.motion.traj;
        const e = document.querySelector('.view-panel[data-view="motion"] .m-error');
        const m = window.__achain.studio.model;
        return { error: e.hidden ? null : e.textContent, within: m.withinLimits(from) && m.withinLimits(to), duration: tr?.duration, profile: tr?.profile, dof: tr?.dof,
          first: tr && Array.from(tr.q.subarray(0, tr.dof)), last: tr && Array.from(tr.q.subarray((tr.samples - 1) * tr.dof)), tEnd: tr?.t[tr.samples - 1] };
      }, { from, to });
      assert.equal(plan.within, true);
      assert.equal(plan.error, null);
      assert.equal(await page.isVisible(`${M} .m-error`), false);
      assert.equal(plan.profile, 'trapezoid');
      assert.equal(plan.dof, robot.dof);
      // measured: exactly 2 for four robots, 1.9999999999999998 (one ulp below) for T12 and TriATHLETE
      assert.ok(Math.abs(plan.duration - 2) < 1e-12 && Math.abs(plan.tEnd - 2) < 1e-12, `duration ${plan.duration}, last sample at ${plan.tEnd} s`);
      assert.ok(maxDiff(plan.first, from) < 1e-9 && maxDiff(plan.last, to) < 1e-9, 'the move runs from the start to the goal typed');
      await screenshot(page, `third-party-${robot.id}-motion`);

      // 4. export URDF and MJCF (at Q), kept with the screenshots
      await page.click('#tabs button[data-view="design"]');
      await page.evaluate((q) => window.__achain.setQ(q), Q);
      fs.mkdirSync(artifacts, { recursive: true });
      const [du] = await Promise.all([page.waitForEvent('download'), page.click('.d-export-urdf')]);
      const urdfOut = path.join(artifacts, `third-party-${robot.id}.urdf`);
      fs.copyFileSync(await du.path(), urdfOut);
      const [dm] = await Promise.all([page.waitForEvent('download'), page.click('.d-export-mjcf')]);
      const mjcfOut = path.join(artifacts, `third-party-${robot.id}.xml`);
      fs.copyFileSync(await dm.path(), mjcfOut);
      assert.match(fs.readFileSync(urdfOut, 'utf8'), /<achain:tool link="/);

      // the MJCF in MuJoCo: every joint a body (+ the world) and a joint, every mimic an equality, the tool site at the studio's tool
      const qpos = await page.evaluate((q) => {
        const js = window.__achain.studio.model.joints;
        const value = (i) => (js[i].mimic >= 0 ? js[i].mimicMultiplier * value(js[i].mimic) + js[i].mimicOffset : q[js[i].coordinate]);
        return js.map((_, i) => value(i));
      }, Q);
      const mj = mujocoLoad(fs.readFileSync(mjcfOut, 'utf8'), qpos);
      assert.deepEqual([mj.nbody, mj.njnt, mj.nq, mj.neq, mj.nsite], [robot.joints + 1, robot.joints, robot.joints, robot.mimic, 1]);
      assert.ok(dist(mj.site, position(toolAtQ)) < 1e-9, `MuJoCo's tool site ${mj.site} vs the studio's tool ${position(toolAtQ)}`);
      const axes = [0, 1, 2, 4, 5, 6, 8, 9, 10].map((k) => toolAtQ[k]);
      assert.ok(maxDiff(mj.R, axes) < 1e-9, `MuJoCo's tool site axes ${mj.R} vs the studio's ${axes}`);

      // the URDF re-opens without asking (achain:tool) with the same tool pose at Q
      await page.evaluate(() => window.__achain.setRobot('puma560'));
      await page.setInputFiles('#urdf-files', [urdfOut]);
      await page.waitForFunction((name) => window.__achain.robot === name && window.__achain.studio.urdf?.model === window.__achain.studio.model, robot.name, { timeout: 20000 });
      assert.equal(await page.$('.d-tree .t-ask'), null);
      const back = await page.evaluate((q) => { window.__achain.setQ(q); const m = window.__achain.studio.model; return { tool: window.__achain.tool, dof: m.dof, joints: m.joints.length }; }, Q);
      assert.deepEqual([back.dof, back.joints], [robot.dof, robot.joints]);
      assert.ok(maxDiff(back.tool, toolAtQ) < 1e-9, `re-opened URDF: ${back.tool} vs ${toolAtQ}`);
      await screenshot(page, `third-party-${robot.id}-reopened`);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}

// Found by these robots: Teleoperate offered and defaulted to the "full pose" IK goal from the whole model's
// coordinate count (model.dof ≥ 6), not from the coordinates that move the tool. The Ability Hand (6 coordinates;
// its index fingertip moved by 1) and the D'Claw (9; a fingertip moved by 3) got a goal a finger cannot hold: the
// z-arrow drag ended "unreachable" with the fingertip 0.03 mm and 7 mm lower (measured before the fix). The goal now
// follows the core's model.info.toolCoordinates.
for (const robot of ROBOTS.filter((r) => r.chain)) {
  test(`${robot.file}: with ${robot.tool} as the tool (moved by ${robot.chain} coordinate${robot.chain > 1 ? 's' : ''}), the drag's default goal is position only and the tool follows`,
    { timeout: 60000 }, async () => {
      const file = path.join(DIR, robot.file);
      const { page, errors, context } = await openAsking(file);
      try {
        await pick(page, robot);
        await page.evaluate((q) => window.__achain.setQ(q), configuration(await coordinates(page), 0)); // the main test's pose
        await page.click('#tabs button[data-view="teleop"]');
        await page.waitForTimeout(300);
        assert.deepEqual(await page.evaluate(() => window.__achain.studio.model.info.toolCoordinates.length), robot.chain);
        assert.equal(await page.locator('.view-panel[data-view="teleop"] .goal option[value="pose"]').isDisabled(), true, 'no full-pose goal offered');
        const d = await dragDown(page);
        await screenshot(page, `third-party-${robot.id}-default-goal-drag`);
        assert.deepEqual(errors, []);
        assert.ok(d.goal === 'position' && d.dz < -robot.drop,
          `default goal "${d.goal}": the tool went down ${-d.dz} m (at least ${robot.drop} m expected); IK: ${d.text}`);
      } finally { await context.close(); }
    });
}
