// achain.urdfTree: a URDF's link/joint tree from the core (no model built), as the studio's tree panel shows
// it — links depth-first with their parent joints (type, limits in SI, mimic as written), the root, the leaves
// and the file's own achain:tool; the reader's errors for a bad tree.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { xmlTree } from '../../wasm/js/xml.mjs';
import { loadAchain, root } from './helpers.mjs';

const achain = await loadAchain();
const text = (name) => fs.readFileSync(path.join(root, 'tests/fixtures/urdf', name), 'utf8');

describe('urdfTree', () => {
  test('a torso with two arms: links, parents, depths, joint types and limits; two leaves, no tool named', () => {
    const t = achain.urdfTree(text('tree_two_tools.urdf'));
    assert.equal(t.name, 'two_arms');
    assert.equal(t.root, 'torso');
    assert.deepEqual(t.leaves, ['left_tool', 'right_tool']);
    assert.equal(t.toolLink, '');
    assert.deepEqual(t.links.map((l) => [l.name, l.parent, l.depth, l.joint?.name ?? null, l.joint?.type ?? null]), [
      ['torso', -1, 0, null, null],
      ['chest', 0, 1, 'waist', 'revolute'],
      ['left_upper', 1, 2, 'left_shoulder', 'revolute'],
      ['left_tool', 2, 3, 'left_elbow', 'revolute'],
      ['right_upper', 1, 2, 'right_shoulder', 'revolute'],
      ['right_tool', 4, 3, 'right_slide', 'prismatic'],
    ]);
    assert.deepEqual(t.links[1].joint.limits, { lower: -3, upper: 3, velocity: 1, effort: 50 });
    assert.deepEqual(t.links[5].joint.limits, { lower: 0, upper: 0.2, velocity: 0.5, effort: 100 });
    assert.equal(t.links[5].joint.mimic, null);
  });

  test('a gripper: continuous (no position limits), fixed, and mimic joints as written', () => {
    const t = achain.urdfTree(xmlTree(text('gripper_mimic.urdf'))); // the element tree works as text does
    assert.deepEqual(t.leaves, ['pad', 'tip_link']);
    assert.deepEqual(t.links.map((l) => `${l.name}/${l.joint?.type ?? ''}`),
      ['base/', 'palm/continuous', 'left/prismatic', 'tip_link/fixed', 'right/prismatic', 'pad/prismatic']);
    assert.deepEqual(t.links[1].joint.limits, { lower: null, upper: null, velocity: 2, effort: 5 });
    assert.deepEqual(t.links[3].joint.limits, { lower: null, upper: null, velocity: null, effort: null });
    assert.deepEqual(t.links[4].joint.mimic, { joint: 'finger_left', multiplier: 1, offset: 0 });
    assert.deepEqual(t.links[5].joint.mimic, { joint: 'finger_right', multiplier: 2, offset: 0.01 });
  });

  test('the file\'s own tool link (achain:tool), as URDF export writes it; errors as modelFromUrdf', () => {
    const m = achain.modelFromUrdf(text('tree_two_tools.urdf'), { toolLink: 'right_tool' });
    const t = achain.urdfTree(m.modelToUrdf().urdf);
    assert.ok(t.toolLink !== '');
    assert.ok(t.links.some((l) => l.name === t.toolLink));
    const back = achain.modelFromUrdf(m.modelToUrdf().urdf);
    const q = [0.1, -0.2, 0.3, 0.4, 0.05];
    assert.deepEqual(Array.from(back.fkTool(q), (v) => v.toFixed(12)), Array.from(m.fkTool(q), (v) => v.toFixed(12)));
    [m, back].forEach((x) => x.dispose());
    assert.throws(() => achain.urdfTree(text('cycle.urdf')), { message: /cycle/ });
    assert.throws(() => achain.urdfTree(text('missing_parent.urdf')), { message: /^URDF <parent> \(line 7\): parent link 'shoulder' is not defined/ });
  });
});
