// Issue 15, deliver 5: a URDF robot with STL meshes brought into the studio. The test writes a 3R arm
// (URDF) and its meshes (binary and ASCII STL, one in millimetres with a scale) into a temp dir, opens them
// through the file pickers (several files; a folder) and a drop, and checks: the meshes are in the scene and
// in the picture (pixels of their colour appear only when they are shown), a missing mesh gets the placeholder
// box and a warning naming it, a broken STL gets the error overlay naming it with the rest still drawn, the
// tool drags with IK, and Export URDF gives text that loads back with the same FK (Export MJCF: a <mujoco>).
// Screenshots: test-results/web/urdf-meshes-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveDist, launch, openPage, waitReady, screenshot, canvasStats, zArrow } from './helpers.mjs';

let srv;
let browser;
let dir;
before(async () => {
  srv = await serveDist();
  browser = await launch();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'achain-urdf-meshes-'));
  writeArm(dir);
});
after(async () => {
  await browser?.close();
  await srv?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

// ------------------------------------------------------------------ fixtures written by the test
/** The 12 triangles of an axis-aligned box centred at c with half sizes h: [[n, v1, v2, v3], …]. */
function boxTriangles(c, h) {
  const v = (sx, sy, sz) => [c[0] + sx * h[0], c[1] + sy * h[1], c[2] + sz * h[2]];
  const quads = [
    [[1, 0, 0], v(1, -1, -1), v(1, 1, -1), v(1, 1, 1), v(1, -1, 1)],
    [[-1, 0, 0], v(-1, -1, -1), v(-1, -1, 1), v(-1, 1, 1), v(-1, 1, -1)],
    [[0, 1, 0], v(-1, 1, -1), v(-1, 1, 1), v(1, 1, 1), v(1, 1, -1)],
    [[0, -1, 0], v(-1, -1, -1), v(1, -1, -1), v(1, -1, 1), v(-1, -1, 1)],
    [[0, 0, 1], v(-1, -1, 1), v(1, -1, 1), v(1, 1, 1), v(-1, 1, 1)],
    [[0, 0, -1], v(-1, -1, -1), v(-1, 1, -1), v(1, 1, -1), v(1, -1, -1)],
  ];
  return quads.flatMap(([n, a, b, cc, d]) => [[n, a, b, cc], [n, a, cc, d]]);
}
function binaryStl(tris) {
  const buf = Buffer.alloc(84 + 50 * tris.length);
  buf.write('binary STL written by urdf-meshes.test.mjs', 0, 'ascii');
  buf.writeUInt32LE(tris.length, 80);
  tris.forEach((t, k) => {
    const o = 84 + 50 * k;
    t.flat().forEach((x, i) => buf.writeFloatLE(x, o + 4 * i));
  });
  return buf;
}
function asciiStl(tris) {
  const f = (p) => p.map((x) => x.toExponential(6)).join(' ');
  return `solid part\n${tris.map(([n, a, b, c]) => `  facet normal ${f(n)}\n    outer loop\n      vertex ${f(a)}\n      vertex ${f(b)}\n      vertex ${f(c)}\n    endloop\n  endfacet\n`).join('')}endsolid part\n`;
}

const MAGENTA = '<material name="magenta"><color rgba="1 0 1 1"/></material>';
const inertial = '<inertial><origin xyz="0 0 0"/><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>';
const meshVisual = (file, origin, scale = '') => `<visual><origin xyz="${origin}"/><geometry><mesh filename="${file}"${scale ? ` scale="${scale}"` : ''}/></geometry>${MAGENTA}</visual>`;
/** A 3R arm: base (binary STL, package://), link1 (ASCII STL, relative), link2 (binary STL in mm, scaled), link3 a box + `extra`. */
function armUrdf(name, extra = '') {
  return `<?xml version="1.0"?>
<robot name="${name}">
  <link name="base_link">${meshVisual('package://testarm/meshes/base.stl', '0 0 0.05')}${inertial}</link>
  <joint name="j1" type="revolute"><parent link="base_link"/><child link="link1"/><origin xyz="0 0 0.1"/><axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="50" velocity="2"/></joint>
  <link name="link1">${meshVisual('../meshes/link1.stl', '0 0 0.1')}${inertial}</link>
  <joint name="j2" type="revolute"><parent link="link1"/><child link="link2"/><origin xyz="0 0 0.2"/><axis xyz="0 1 0"/><limit lower="-2.5" upper="2.5" effort="50" velocity="2"/></joint>
  <link name="link2">${meshVisual('package://testarm/meshes/upper.stl', '0.15 0 0', '0.001 0.001 0.001')}${inertial}</link>
  <joint name="j3" type="revolute"><parent link="link2"/><child link="link3"/><origin xyz="0.3 0 0"/><axis xyz="0 1 0"/><limit lower="-2.5" upper="2.5" effort="50" velocity="2"/></joint>
  <link name="link3"><visual><origin xyz="0.125 0 0"/><geometry><box size="0.25 0.05 0.05"/></geometry>${MAGENTA}</visual>${extra}${inertial}</link>
  <joint name="tool" type="fixed"><parent link="link3"/><child link="tool_link"/><origin xyz="0.25 0 0"/></joint>
  <link name="tool_link"/>
</robot>
`;
}

function writeArm(root) {
  const pkg = path.join(root, 'testarm');
  fs.mkdirSync(path.join(pkg, 'meshes'), { recursive: true });
  fs.mkdirSync(path.join(pkg, 'urdf'), { recursive: true });
  fs.writeFileSync(path.join(pkg, 'meshes', 'base.stl'), binaryStl(boxTriangles([0, 0, 0], [0.08, 0.08, 0.05])));
  fs.writeFileSync(path.join(pkg, 'meshes', 'link1.stl'), asciiStl(boxTriangles([0, 0, 0], [0.035, 0.035, 0.1])));
  fs.writeFileSync(path.join(pkg, 'meshes', 'upper.stl'), binaryStl(boxTriangles([0, 0, 0], [150, 30, 30]))); // mm
  fs.writeFileSync(path.join(pkg, 'meshes', 'broken.stl'), Buffer.from('solid nothing here\nthis is not a facet list\n\x00\x01\x02'));
  fs.writeFileSync(path.join(pkg, 'urdf', 'arm.urdf'), armUrdf('testarm'));
  // separate folders so that each holds one URDF
  for (const [variant, extra] of [
    ['missing', meshVisual('package://testarm/meshes/gripper.stl', '0.25 0 0')],
    ['broken', meshVisual('package://testarm/meshes/broken.stl', '0.25 0 0')],
  ]) {
    fs.mkdirSync(path.join(root, variant), { recursive: true });
    fs.writeFileSync(path.join(root, variant, `arm-${variant}.urdf`), armUrdf(`testarm-${variant}`, extra));
  }
}
const meshFile = (n) => path.join(dir, 'testarm', 'meshes', n);
const goodMeshes = () => ['base.stl', 'link1.stl', 'upper.stl'].map(meshFile);

// ------------------------------------------------------------------ page helpers
async function studio(hash = '#view=teleop') {
  const o = await openPage(browser, srv.url + hash, { width: 1100, height: 750 });
  await waitReady(o.page);
  return o;
}
/** Sets files on a picker and waits until the URDF robot and its meshes are drawn. */
async function openFiles(page, selector, files, robot) {
  await page.setInputFiles(selector, files);
  await page.waitForFunction((name) => window.__achain.robot === name && window.__achain.visuals.pending === 0, robot, { timeout: 10000 });
  await page.evaluate(() => window.__achain.visuals.ready);
  await page.waitForTimeout(150);
}
const stats = (page) => page.evaluate(() => window.__achain.visuals.stats());
const warnings = (page) => page.evaluate(() => Array.from(document.querySelectorAll('#warnings .warn-item'), (d) => d.textContent));

/** Canvas pixels of the mesh colour (magenta, lit): red and blue well above green. */
async function magentaPixels(page) {
  return page.evaluate(() => {
    const c = window.__achain.studio.viewport.canvas;
    const tmp = document.createElement('canvas');
    tmp.width = c.width; tmp.height = c.height;
    const g = tmp.getContext('2d');
    g.drawImage(c, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] > d[i + 1] + 50 && d[i + 2] > d[i + 1] + 50 && Math.abs(d[i] - d[i + 2]) < 70) n++;
    return n;
  });
}
async function renderNow(page) {
  await page.evaluate(() => new Promise((r) => { window.__achain.studio.viewport.requestRender(); requestAnimationFrame(() => requestAnimationFrame(r)); }));
}


// ------------------------------------------------------------------ tests
test('a URDF with binary and ASCII STL meshes opens from the file picker: meshes in the scene and in the picture, FK as the core', async () => {
  const { page, errors, context } = await studio();
  try {
    await openFiles(page, '#urdf-files', [path.join(dir, 'testarm', 'urdf', 'arm.urdf'), ...goodMeshes()], 'testarm');
    const s = await stats(page);
    assert.deepEqual(s, { meshes: 3, primitives: 1, placeholders: 0, missing: [], broken: [], pending: 0 });
    assert.equal(await page.evaluate(() => window.__achain.studio.model.dof), 3);
    assert.equal(await page.isVisible('.mesh-error'), false);
    assert.deepEqual((await warnings(page)).filter((w) => /mesh/.test(w)), []);
    // the scaled mm mesh: 300 mm long box → 0.3 m in the link frame; placed at the link's FK frame
    const placed = await page.evaluate(() => {
      const a = window.__achain;
      a.setQ([0.4, -0.6, 0.9]);
      const box = { min: [], max: [] };
      let upper = null;
      a.visuals.group.traverse((o) => { if (o.isMesh && o.userData.fromFile === 'package://testarm/meshes/upper.stl') upper = o; });
      upper.updateWorldMatrix(true, false);
      upper.geometry.computeBoundingBox();
      const b = upper.geometry.boundingBox.clone().applyMatrix4(upper.matrixWorld);
      const centre = b.getCenter(b.min.clone());
      // the box centre is link2's frame ∘ (0.15, 0, 0)
      const F = a.studio.lastFk.frames[2];
      const expect = [0, 1, 2].map((r) => F[4 * r] * 0.15 + F[4 * r + 3]);
      const s = new upper.position.constructor();
      upper.matrixWorld.decompose(new upper.position.constructor(), new upper.quaternion.constructor(), s);
      return { centre: [centre.x, centre.y, centre.z], expect, scale: [s.x, s.y, s.z] };
    });
    for (let i = 0; i < 3; i++) assert.ok(Math.abs(placed.centre[i] - placed.expect[i]) < 1e-6, `upper.stl centre ${placed.centre} vs FK ${placed.expect}`);
    for (const k of placed.scale) assert.ok(Math.abs(k - 0.001) < 1e-9, `scale ${placed.scale}`);
    // pixels: magenta only with the visuals shown
    await renderNow(page);
    const shown = await magentaPixels(page);
    await screenshot(page, 'urdf-meshes-arm');
    await page.evaluate(() => { window.__achain.visuals.group.visible = false; });
    await renderNow(page);
    const hidden = await magentaPixels(page);
    await page.evaluate(() => { window.__achain.visuals.group.visible = true; });
    assert.ok(shown > 3000 && hidden < shown / 20, `magenta pixels: ${shown} shown, ${hidden} hidden`);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('a folder (webkitdirectory) resolves package:// and ../ paths; a missing mesh gets a placeholder box and a warning naming it', async () => {
  const { page, errors, context } = await studio();
  try {
    // the whole temp dir without broken/: two URDFs, the shallowest (missing/arm-missing.urdf) is the robot
    fs.renameSync(path.join(dir, 'broken'), path.join(dir, '..', `${path.basename(dir)}-broken`));
    try {
      await openFiles(page, '#urdf-folder', dir, 'testarm-missing');
    } finally {
      fs.renameSync(path.join(dir, '..', `${path.basename(dir)}-broken`), path.join(dir, 'broken'));
    }
    const s = await stats(page);
    assert.deepEqual(s, { meshes: 3, primitives: 1, placeholders: 1, missing: ['package://testarm/meshes/gripper.stl'], broken: [], pending: 0 });
    const w = await warnings(page);
    assert.ok(w.some((t) => t.includes('mesh not found: package://testarm/meshes/gripper.stl')), w.join('\n'));
    // the core's URDF warnings are listed too, with the file
    assert.ok(w.some((t) => /arm-missing\.urdf: URDF warning: <link name='base_link'> \(line 3\): inertial of the root link not used/.test(t)), w.join('\n'));
    assert.match(await page.textContent('#status'), /testarm-missing from .*arm-missing\.urdf: 3 joints, 3 mesh parts, 1 shapes, 1 missing/);
    await screenshot(page, 'urdf-meshes-missing');
    // back to a built-in: visuals, warnings and the cached meshes go
    await page.evaluate(() => window.__achain.setRobot('puma560'));
    await page.waitForTimeout(100);
    assert.deepEqual(await stats(page), { meshes: 0, primitives: 0, placeholders: 0, missing: [], broken: [], pending: 0 });
    assert.deepEqual((await warnings(page)).filter((t) => /mesh|URDF/.test(t)), []);
    assert.equal(await page.evaluate(() => window.__achain.visuals.files.size), 0);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('a broken STL: the error overlay names it, the rest of the robot is drawn; a drop of the good files replaces it', async () => {
  const { page, errors, context } = await studio();
  try {
    await openFiles(page, '#urdf-files', [path.join(dir, 'broken', 'arm-broken.urdf'), ...goodMeshes(), meshFile('broken.stl')], 'testarm-broken');
    const s = await stats(page);
    assert.deepEqual(s, { meshes: 3, primitives: 1, placeholders: 1, missing: [], broken: ['package://testarm/meshes/broken.stl'], pending: 0 });
    assert.ok(await page.isVisible('.mesh-error'));
    assert.match(await page.textContent('.mesh-error'), /Broken mesh file package:\/\/testarm\/meshes\/broken\.stl \(broken\.stl\): not a readable STL file/);
    await renderNow(page);
    assert.ok(await magentaPixels(page) > 3000, 'the good meshes are still drawn');
    const c = await canvasStats(page, '#viewport canvas');
    assert.ok(c.nonBackground > 500 && c.distinct > 20, JSON.stringify(c));
    await screenshot(page, 'urdf-meshes-broken');

    // a drop (DataTransfer with files) of the good arm: loads it, the overlay goes
    const files = await Promise.all([path.join(dir, 'testarm', 'urdf', 'arm.urdf'), ...goodMeshes()]
      .map(async (f) => ({ name: path.basename(f), b64: fs.readFileSync(f).toString('base64') })));
    await page.evaluate((list) => {
      const dt = new DataTransfer();
      for (const f of list) dt.items.add(new File([Uint8Array.from(atob(f.b64), (ch) => ch.charCodeAt(0))], f.name));
      const target = document.querySelector('#viewport canvas');
      target.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true }));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, files);
    await page.waitForFunction(() => window.__achain.robot === 'testarm' && window.__achain.visuals.pending === 0);
    await page.evaluate(() => window.__achain.visuals.ready);
    assert.deepEqual(await stats(page), { meshes: 3, primitives: 1, placeholders: 0, missing: [], broken: [], pending: 0 });
    assert.equal(await page.isVisible('.mesh-error'), false);
    assert.equal(await page.isVisible('.drop-hint'), false);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('the URDF arm drags with IK, and Export URDF / MJCF download text that loads back', async () => {
  const { page, errors, context } = await studio();
  try {
    await openFiles(page, '#urdf-files', [path.join(dir, 'testarm', 'urdf', 'arm.urdf'), ...goodMeshes()], 'testarm');
    await page.evaluate(() => window.__achain.setQ([0.3, -0.5, 1.0]));
    await page.waitForTimeout(150);
    const before = await page.evaluate(() => ({ q: window.__achain.q, tool: window.__achain.tool }));
    const start = await zArrow(page);
    await page.mouse.down();
    for (let k = 1; k <= 15; k++) { await page.mouse.move(start.x, start.y + 4 * k); await page.waitForTimeout(25); }
    await page.mouse.up();
    await page.waitForTimeout(300);
    const afterDrag = await page.evaluate(() => {
      const a = window.__achain;
      let upper = null;
      a.visuals.group.traverse((o) => { if (o.isMesh && o.userData.fromFile === 'package://testarm/meshes/upper.stl') upper = o; });
      upper.updateWorldMatrix(true, false);
      const e = upper.matrixWorld.elements;
      return { q: a.q, tool: a.tool, meshAt: [e[12], e[13], e[14]], link2: Array.from(a.studio.lastFk.frames[2]) };
    });
    const dq = Math.max(...afterDrag.q.map((v, i) => Math.abs(v - before.q[i])));
    assert.ok(dq > 0.02, `the joints moved: ${before.q} → ${afterDrag.q}`);
    assert.ok(afterDrag.tool[11] < before.tool[11] - 0.02, `the tool went down: z ${before.tool[11]} → ${afterDrag.tool[11]}`);
    // the mesh follows: its origin is link2's frame ∘ (0.15, 0, 0) at the dragged pose
    const F = afterDrag.link2;
    for (let r = 0; r < 3; r++) assert.ok(Math.abs(afterDrag.meshAt[r] - (F[4 * r] * 0.15 + F[4 * r + 3])) < 1e-6, `mesh at ${afterDrag.meshAt}`);

    await page.click('#tabs button[data-view="design"]');
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('.d-export-urdf')]);
    assert.equal(dl.suggestedFilename(), 'testarm.urdf');
    const urdf = fs.readFileSync(await dl.path(), 'utf8');
    assert.match(urdf, /<robot name="testarm"/);
    const back = await page.evaluate((text) => {
      const a = window.__achain;
      const m = a.achain.loadModel(text);
      const q = [0.7, -0.2, 0.4];
      const out = { dof: m.dof, names: m.joints.map((j) => j.name), t1: Array.from(m.fkTool(q)), t0: Array.from(a.studio.model.fkTool(q)) };
      m.dispose();
      return out;
    }, urdf);
    assert.equal(back.dof, 3);
    assert.deepEqual(back.names, ['j1', 'j2', 'j3']);
    for (let i = 0; i < 16; i++) assert.ok(Math.abs(back.t1[i] - back.t0[i]) < 1e-12, `T[${i}] ${back.t1[i]} vs ${back.t0[i]}`);

    const [dm] = await Promise.all([page.waitForEvent('download'), page.click('.d-export-mjcf')]);
    assert.equal(dm.suggestedFilename(), 'testarm.xml');
    const mjcf = fs.readFileSync(await dm.path(), 'utf8');
    assert.match(mjcf, /<mujoco model="testarm"/);
    assert.equal((mjcf.match(/<joint /g) ?? []).length, 3);
    assert.match(await page.textContent('#status'), /exported testarm\.xml/);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('OBJ and COLLADA meshes: read, scaled (the DAE unit in mm) and placed in the base frame, the DAE in its own axes', async () => {
  const sub = path.join(dir, 'formats');
  fs.mkdirSync(sub, { recursive: true });
  fs.writeFileSync(path.join(sub, 'tri.obj'), '# a triangle\nv 0 0 0\nv 0.1 0 0\nv 0 0.2 0\nf 1 2 3\n');
  fs.writeFileSync(path.join(sub, 'tri.dae'), `<?xml version="1.0"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="millimeter" meter="0.001"/><up_axis>Z_UP</up_axis></asset>
  <library_geometries><geometry id="g"><mesh>
    <source id="p"><float_array id="pa" count="9">0 0 0 100 0 0 0 0 300</float_array>
      <technique_common><accessor source="#pa" count="3" stride="3"><param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>
    <vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
    <triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></triangles>
  </mesh></geometry></library_geometries>
  <library_visual_scenes><visual_scene id="s"><node id="n"><instance_geometry url="#g"/></node></visual_scene></library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
`);
  fs.writeFileSync(path.join(sub, 'formats.urdf'), `<?xml version="1.0"?>
<robot name="formats">
  <link name="base_link">${meshVisual('package://formats/tri.obj', '1 0 0', '2 2 2')}${meshVisual('tri.dae', '0 1 0')}</link>
  <joint name="j1" type="revolute"><parent link="base_link"/><child link="link1"/><origin xyz="0 0 0.1"/><axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="50" velocity="2"/></joint>
  <link name="link1">${inertial}<visual><geometry><cylinder radius="0.02" length="0.2"/></geometry></visual><visual><geometry><sphere radius="0.03"/></geometry></visual>${meshVisual('tri.obj', '0 0 0.5')}</link>
</robot>
`);
  const { page, errors, context } = await studio();
  try {
    await openFiles(page, '#urdf-files', ['formats.urdf', 'tri.obj', 'tri.dae'].map((f) => path.join(sub, f)), 'formats');
    assert.deepEqual(await stats(page), { meshes: 3, primitives: 2, placeholders: 0, missing: [], broken: [], pending: 0 });
    // tri.obj is used twice and parsed once: the two meshes share one geometry, disposed on a robot switch
    const shared = await page.evaluate(() => {
      const a = window.__achain;
      const objs = [];
      a.visuals.group.traverse((o) => { if (o.isMesh && /tri\.obj$/.test(o.userData.fromFile)) objs.push(o); });
      window.__disposed = 0;
      objs[0].geometry.addEventListener('dispose', () => { window.__disposed++; });
      return { n: objs.length, same: objs[0].geometry === objs[1].geometry };
    });
    assert.deepEqual(shared, { n: 2, same: true });
    const boxes = await page.evaluate(() => {
      const out = {};
      const a = window.__achain;
      a.visuals.group.updateWorldMatrix(true, true);
      a.visuals.group.traverse((o) => {
        if (!o.isMesh) return;
        if (!o.geometry.boundingBox) o.geometry.computeBoundingBox();
        const b = o.geometry.boundingBox.clone().applyMatrix4(o.matrixWorld);
        out[o.userData.fromFile ?? o.geometry.type] = [b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z];
      });
      out.base = Array.from(a.studio.lastFk.frames[0]);
      return out;
    });
    // the base frame is the identity here
    assert.deepEqual(boxes.base, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    const near = (got, want, what) => want.forEach((w, i) => assert.ok(Math.abs(got[i] - w) < 1e-6, `${what}: ${got} vs ${want}`));
    near(boxes['package://formats/tri.obj'], [1, 0, 0, 1.2, 0.4, 0], 'OBJ ×2 at (1, 0, 0)');
    near(boxes['tri.dae'], [0, 1, 0, 0.1, 1, 0.3], 'DAE in mm at (0, 1, 0), z up as written');
    near(boxes.CylinderGeometry, [-0.02, -0.02, 0, 0.02, 0.02, 0.2], 'cylinder along link1 z, centred on its origin (0, 0, 0.1)');
    await page.evaluate(() => window.__achain.setRobot('puma560'));
    await page.waitForFunction(() => window.__disposed === 1);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('Export MJCF of the A-chain prototype: the core\'s warnings are shown on the studio', async () => {
  const { page, errors, context } = await studio('#robot=prototype-4a&view=design');
  try {
    const expected = await page.evaluate(() => window.__achain.studio.model.modelToMjcf().warnings);
    assert.ok(expected.length > 0, 'the prototype\'s A-pairs give MJCF warnings');
    const [dm] = await Promise.all([page.waitForEvent('download'), page.click('.d-export-mjcf')]);
    assert.equal(dm.suggestedFilename(), 'prototype-4a.xml');
    assert.match(fs.readFileSync(await dm.path(), 'utf8'), /<mujoco /);
    const w = await warnings(page);
    for (const e of expected) assert.ok(w.includes(`MJCF export: ${e}`), `${e}\nshown: ${w.join('\n')}`);
    assert.match(await page.textContent('#status'), new RegExp(`exported prototype-4a\\.xml with ${expected.length} warning`));
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('a zip of the package folder: unpacked in the page, the meshes resolved inside it; a bad zip is named', async () => {
  const { zipSync } = await import('three/examples/jsm/libs/fflate.module.js');
  const entries = {};
  for (const f of ['urdf/arm.urdf', 'meshes/base.stl', 'meshes/link1.stl', 'meshes/upper.stl']) {
    entries[`testarm/${f}`] = new Uint8Array(fs.readFileSync(path.join(dir, 'testarm', f)));
  }
  const zip = path.join(dir, 'testarm.zip');
  fs.writeFileSync(zip, zipSync(entries));
  const bad = path.join(dir, 'bad.zip');
  fs.writeFileSync(bad, 'PK this is not a zip');
  const { page, errors, context } = await studio();
  try {
    await openFiles(page, '#urdf-files', zip, 'testarm');
    assert.deepEqual(await stats(page), { meshes: 3, primitives: 1, placeholders: 0, missing: [], broken: [], pending: 0 });
    assert.match(await page.textContent('#status'), /testarm from testarm\/testarm\/urdf\/arm\.urdf: 3 joints, 3 mesh parts/);
    await page.setInputFiles('#urdf-files', bad);
    await page.waitForFunction(() => /bad\.zip: not a readable zip file/.test(document.querySelector('#status').textContent));
    assert.equal(await page.evaluate(() => window.__achain.robot), 'testarm', 'the robot shown stays');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    fs.rmSync(zip); fs.rmSync(bad);
  }
});

test('Design edits keep the URDF meshes; removing a joint drops only its link\'s visuals, the others follow their links', async () => {
  const { page, errors, context } = await studio();
  try {
    await openFiles(page, '#urdf-files', [path.join(dir, 'testarm', 'urdf', 'arm.urdf'), ...goodMeshes()], 'testarm');
    await page.click('#tabs button[data-view="design"]');
    const settle = async () => {
      await page.waitForFunction(() => window.__achain.visuals.pending === 0);
      await page.evaluate(() => window.__achain.visuals.ready);
      await page.waitForTimeout(150);
    };
    // an edit of a number (link 2's mass) and of the name: a new model, the same links, the same visuals
    await page.fill('input[data-joint="1"][data-field="link.mass"]', '2.5');
    await page.press('input[data-joint="1"][data-field="link.mass"]', 'Enter');
    await page.fill('.d-name', 'testarm-edited');
    await page.press('.d-name', 'Enter');
    await page.waitForFunction(() => window.__achain.robot === 'testarm-edited');
    await settle();
    assert.equal(await page.evaluate(() => window.__achain.studio.model.info.joints[1].mass), 2.5);
    assert.deepEqual(await stats(page), { meshes: 3, primitives: 1, placeholders: 0, missing: [], broken: [], pending: 0 });
    await renderNow(page);
    assert.ok(await magentaPixels(page) > 3000, 'the meshes are still drawn after the edits');
    // removing joint 2 (link2 carries upper.stl): its visual goes; link3's box becomes link 2's and follows it
    await page.click('.d-joint[data-joint="1"] button[title="remove joint"]');
    await page.waitForFunction(() => window.__achain.studio.model.dof === 2);
    await settle();
    assert.equal(await page.isVisible('.d-error'), false);
    assert.deepEqual(await stats(page), { meshes: 2, primitives: 1, placeholders: 0, missing: [], broken: [], pending: 0 });
    const placed = await page.evaluate(() => {
      const a = window.__achain;
      a.setQ([0.4, -0.7]);
      let box = null;
      const files = [];
      a.visuals.group.traverse((o) => {
        if (!o.isMesh) return;
        if (o.userData.fromFile) files.push(o.userData.fromFile);
        else box = o;
      });
      box.updateWorldMatrix(true, false);
      const e = box.matrixWorld.elements;
      return { links: a.studio.model.info.geometry.map((g) => g.link), files: files.sort(), at: [e[12], e[13], e[14]], F: Array.from(a.studio.lastFk.frames[2]) };
    });
    assert.deepEqual(placed.links, [-1, 0, 1]);
    assert.deepEqual(placed.files, ['../meshes/link1.stl', 'package://testarm/meshes/base.stl']);
    for (let r = 0; r < 3; r++) assert.ok(Math.abs(placed.at[r] - (placed.F[4 * r] * 0.125 + placed.F[4 * r + 3])) < 1e-9, `box at ${placed.at}`);
    // undo: the three links and their three meshes are back
    await page.click('.d-undo');
    await page.waitForFunction(() => window.__achain.studio.model.dof === 3);
    await settle();
    assert.deepEqual(await stats(page), { meshes: 3, primitives: 1, placeholders: 0, missing: [], broken: [], pending: 0 });
    await screenshot(page, 'urdf-meshes-design-edit');
    // New chain replaces every link (no visuals); undo returns to the URDF robot with its meshes, read from the
    // files dropped before (not placeholders)
    await page.click('.d-new');
    await page.waitForFunction(() => window.__achain.studio.model.dof === 1);
    await settle();
    assert.deepEqual(await stats(page), { meshes: 0, primitives: 0, placeholders: 0, missing: [], broken: [], pending: 0 });
    await page.click('.d-undo');
    await page.waitForFunction(() => window.__achain.studio.model.dof === 3);
    await settle();
    assert.deepEqual(await stats(page), { meshes: 3, primitives: 1, placeholders: 0, missing: [], broken: [], pending: 0 });
    // another robot (not an edit) still lets the dropped files go
    await page.evaluate(() => window.__achain.setRobot('puma560'));
    await page.waitForTimeout(100);
    assert.equal(await page.evaluate(() => window.__achain.visuals.files.size), 0);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('Share of a URDF robot: the link carries it as JSON and opens the same robot (FK); the UI says meshes are not carried', async () => {
  const { page, errors, context } = await studio();
  let second = null;
  try {
    await openFiles(page, '#urdf-files', [path.join(dir, 'testarm', 'urdf', 'arm.urdf'), ...goodMeshes()], 'testarm');
    await page.evaluate(() => window.__achain.setQ([0.3, -0.5, 1.0]));
    await page.click('#share');
    await page.waitForFunction(() => /mesh files are not carried by a link/.test(document.querySelector('#status').textContent));
    const hash = await page.evaluate(() => window.__achain.studio.hashState());
    assert.match(hash, /(^|&)json=/);
    assert.doesNotMatch(hash, /(^|&)robot=/);
    const Q = [[0.7, -0.2, 0.4], [-1.1, 1.3, -2.0], [0, 0, 0]];
    const tool = (p, qs) => p.evaluate((list) => list.map((q) => Array.from(window.__achain.studio.model.fkTool(q))), qs);
    const want = await tool(page, Q);
    const wantHere = await page.evaluate(() => window.__achain.tool);

    second = await studio(`#${hash}`);
    const p2 = second.page;
    await p2.waitForFunction(() => window.__achain.robot === 'testarm' && window.__achain.visuals.pending === 0);
    assert.equal(await p2.evaluate(() => window.__achain.studio.model.dof), 3);
    const got = await tool(p2, Q);
    for (let k = 0; k < Q.length; k++) for (let i = 0; i < 16; i++) assert.ok(Math.abs(got[k][i] - want[k][i]) < 1e-12, `q ${Q[k]}: T[${i}] ${got[k][i]} vs ${want[k][i]}`);
    // the pose travels too (degrees with 8 significant digits)
    const q2 = await p2.evaluate(() => window.__achain.q);
    [0.3, -0.5, 1.0].forEach((v, i) => assert.ok(Math.abs(q2[i] - v) < 1e-8, `q ${q2}`));
    const toolHere = await p2.evaluate(() => window.__achain.tool);
    for (let i = 0; i < 16; i++) assert.ok(Math.abs(toolHere[i] - wantHere[i]) < 1e-8, `tool[${i}]`);
    assert.match(await p2.textContent('#status'), /link: testarm as its JSON description — mesh files are not carried by a link/);
    // the meshes are named, not carried: placeholders with a warning each; the primitive is drawn
    const s = await p2.evaluate(() => window.__achain.visuals.stats());
    assert.equal(s.placeholders, 3);
    assert.equal(s.primitives, 1);
    assert.ok((await warnings(p2)).some((t) => t.includes('mesh not found: package://testarm/meshes/upper.stl')));
    assert.deepEqual(second.errors, []);
    assert.deepEqual(errors, []);
  } finally {
    await second?.context.close();
    await context.close();
  }
});

test('a URDF with mimic joints: one slider per coordinate (not per joint), each moving its own q in its own unit', async () => {
  const { page, errors, context } = await studio();
  try {
    // a chain (one leaf: the studio's tool) whose slide is doubled by a mimic joint further out
    const link = (n) => `<link name="${n}"><inertial><mass value="0.1"/><inertia ixx="1e-4" iyy="1e-4" izz="1e-4"/></inertial></link>`;
    const file = path.join(dir, 'slide_mimic.urdf');
    fs.writeFileSync(file, `<?xml version="1.0"?><robot name="slide-mimic"><link name="base"/>${link('a')}${link('b')}${link('c')}
      <joint name="wrist" type="revolute"><parent link="base"/><child link="a"/><origin xyz="0 0 0.1"/><axis xyz="0 0 1"/><limit lower="-3" upper="3" velocity="2" effort="5"/></joint>
      <joint name="slide" type="prismatic"><parent link="a"/><child link="b"/><origin xyz="0.1 0 0"/><axis xyz="1 0 0"/><limit lower="0" upper="0.04" velocity="0.1" effort="20"/></joint>
      <joint name="follower" type="prismatic"><parent link="b"/><child link="c"/><origin xyz="0.05 0 0"/><axis xyz="1 0 0"/><limit lower="-1" upper="1" velocity="1" effort="1"/><mimic joint="slide" multiplier="2" offset="0.01"/></joint>
      </robot>`);
    await openFiles(page, '#urdf-files', [file], 'slide-mimic');
    const info = await page.evaluate(() => {
      const m = window.__achain.studio.model;
      return { dof: m.dof, joints: m.joints.length, coordinates: m.coordinates.map((j) => [j.name, j.angular]) };
    });
    // wrist (R) and slide (P) own the two coordinates; follower mimics slide
    assert.equal(info.dof, 2);
    assert.equal(info.joints, 3);
    assert.deepEqual(info.coordinates, [['wrist', true], ['slide', false]]);
    const panel = page.locator('.view-panel[data-view="teleop"] .sliders');
    // before: a slider per joint (3), the third writing q[2] past the model's 2 coordinates
    assert.equal(await panel.locator('input[type=range]').count(), 2);
    assert.match(await panel.locator('.joint').nth(1).textContent(), /q2 slide.*mm/);
    await panel.locator('input[type=number][data-joint="1"]').fill('20');
    await panel.locator('input[type=number][data-joint="1"]').dispatchEvent('change');
    const q = await page.evaluate(() => window.__achain.q);
    assert.equal(q.length, 2);
    assert.ok(Math.abs(q[1] - 0.02) < 1e-12, `q = ${q}`);
    // the tool moved by the slide and by its mimic: 0.1 + 0.02 + 0.05 + (2·0.02 + 0.01) along x
    const x = await page.evaluate(() => window.__achain.tool[3]);
    assert.ok(Math.abs(x - 0.22) < 1e-9, `tool x = ${x}`);
    await screenshot(page, 'urdf-mimic-sliders');
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});
