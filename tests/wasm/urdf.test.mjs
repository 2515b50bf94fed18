// URDF in the wasm module: loadModel(urdfText) parses with the platform's XML parser (here @xmldom/xmldom),
// the core maps the tree; FK equals the native CLI on the same file and the built-in DH PUMA.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { cli, loadAchain, maxAbsDiff, randomQ, rng, root } from './helpers.mjs';

const achain = await loadAchain();
const fixture = (name) => path.join(root, 'tests/fixtures/urdf', name);
const text = (name) => fs.readFileSync(fixture(name), 'utf8');

describe('URDF', () => {
  test('loadModel(urdfText) gives the native FK and the DH PUMA\'s, to 1e-12', () => {
    const u = achain.loadModel(text('puma560.urdf'));
    const dh = achain.loadModel('puma560');
    assert.equal(u.dof, 6);
    assert.equal(u.info.hasDh, false);
    assert.equal(u.info.toolLink, 5);  // the fixed tool joint merged into link6
    assert.equal(u.info.joints.length, 6);
    const rand = rng(15);
    for (let k = 0; k < 5; k++) {
      const q = randomQ(dh, rand);
      const tool = u.fkTool(q);
      assert.ok(maxAbsDiff(tool, dh.fkTool(q)) < 1e-12);
      const native = cli('fk', '--robot', fixture('puma560.urdf'), '--q', Array.from(q, (v) => v.toPrecision(17)).join(','));
      assert.ok(maxAbsDiff(tool, native.T.flat()) < 1e-12);
    }
    const n = u.info.geometry.length;
    assert.equal(n, 8);
    assert.equal(u.info.geometry[0].mesh, 'package://puma560/meshes/base.stl');
    assert.deepEqual(u.info.geometry[0].scale, [0.001, 0.001, 0.001]);
    assert.equal(u.info.geometry[1].shape, 'cylinder');
    assert.ok(u.info.notes.some((s) => s.includes("<transmission name='trans1'> (line 80)")));
    [u, dh].forEach((m) => m.dispose());
  });

  test('the URDF PUMA has an extracted DH description: info.dh, and ikAll solves it by the closed form as the built-in', () => {
    const u = achain.loadModel(text('puma560.urdf'));
    const dh = achain.loadModel('puma560');
    const tree = achain.loadModel(text('tree_two_tools.urdf'), { toolLink: 'right_tool' });
    assert.equal(u.info.dh, 'extracted');
    assert.equal(dh.info.dh, 'given');
    assert.match(tree.info.dh, /^none \(joints\[1\] 'left_shoulder' moves a link off the path/);
    const rand = rng(560);
    for (let k = 0; k < 3; k++) {
      const T = dh.fkTool(randomQ(dh, rand));
      const a = u.ikAll(T), b = dh.ikAll(T);
      assert.equal(a.method, 'closed');
      assert.equal(a.solutions.length, b.solutions.length);
      for (const s of a.solutions) {
        const d = Math.min(...b.solutions.map((t) => maxAbsDiff(s.q, t.q)));
        assert.ok(d < 1e-9, `a URDF solution is ${d} from the built-in's`);
      }
    }
    [u, dh, tree].forEach((m) => m.dispose());
  });

  test('errors name the element and line, as in C++', () => {
    assert.throws(() => achain.loadModel(text('missing_parent.urdf')),
      { message: /^URDF <parent> \(line 7\): parent link 'shoulder' is not defined/ });
    assert.throws(() => achain.loadModel(text('negative_mass.urdf')), { message: /^URDF <mass> \(line 5\): link 'arm': mass must be ≥ 0/ });
    assert.throws(() => achain.loadModel(text('malformed.urdf')), { message: /^\(document\): malformed XML/ });
    assert.throws(() => achain.loadModel(text('tree_two_tools.urdf')), { message: /2 leaf links \('left_tool', 'right_tool'\)/ });
  });

  test('tool link by name, mimic couplings and the A-pair extension', () => {
    const tree = achain.loadModel(text('tree_two_tools.urdf'), { toolLink: 'right_tool' });
    assert.equal(tree.dof, 5);
    const native = cli('fk', '--robot', fixture('tree_two_tools.urdf'), '--tool-link', 'right_tool', '--q', '0.1,0.2,0.3,0.4,0.05');
    assert.ok(maxAbsDiff(tree.fkTool([0.1, 0.2, 0.3, 0.4, 0.05]), native.T.flat()) < 1e-12);
    const g = achain.modelFromUrdf(text('gripper_mimic.urdf'), { toolLink: 'tip_link' });
    assert.equal(g.dof, 2);
    assert.equal(g.info.joints[3].mimic, 1);
    assert.equal(g.info.joints[3].mimicMultiplier, 2);
    // each q index names the joint that owns it; mimic joints follow their leader's coordinate
    assert.deepEqual(g.info.coordJoint, [0, 1]);
    assert.deepEqual(g.coordinates.map((j) => [j.name, j.angular, j.coordinate]), [['wrist', true, 0], ['finger_left', false, 1]]);
    assert.deepEqual(g.info.joints.map((j) => j.coordinate), [0, 1, 1, 1]);
    // a frame per joint, not per coordinate (before: dof + 1 frames, the mimic links' frames cut off)
    const fk = g.forwardKinematics([0.3, 0.02]);
    assert.equal(fk.links.length, g.info.joints.length);
    const tipNative = cli('fk', '--robot', fixture('gripper_mimic.urdf'), '--tool-link', 'tip_link', '--q', '0.3,0.02', '--frames');
    for (let i = 0; i < fk.links.length; i++) assert.ok(maxAbsDiff(fk.links[i], tipNative.frames[i].flat()) < 1e-12, `link ${i}`);
    const a = achain.loadModel(text('apair.urdf'));
    assert.equal(a.info.joints[0].kind, 'A');
    const T = a.fkTool([2]);
    assert.ok(Math.abs(T[11] - (0.1 + a.info.joints[0].rho * Math.sin(1))) < 1e-15);
    [tree, g, a].forEach((m) => m.dispose());
  });

  test('modelToUrdf: the exported text loads back to the same FK (A-pairs through the extension)', () => {
    const m = achain.loadModel('prototype-4a');
    const { urdf, warnings } = m.modelToUrdf();
    assert.match(urdf, /<achain:apair rho="0.1436840979371064\d*"/);
    assert.equal(warnings.length, 4);  // acceleration limits
    const back = achain.loadModel(urdf);
    assert.equal(back.dof, 4);
    assert.deepEqual(back.info.joints.map((j) => j.kind), ['A', 'A', 'A', 'A']);
    const rand = rng(4);
    for (let k = 0; k < 5; k++) {
      const q = randomQ(m, rand);
      assert.ok(maxAbsDiff(m.fkTool(q), back.fkTool(q)) < 1e-12);
    }
    [m, back].forEach((x) => x.dispose());
  });
});
