// web/src/three/FlexibleLinks.js in node (three.js without a renderer): the drawn points are the core's
// flexibleLinkCurve, the deflection scaled by the exaggeration; one deflected line (and one rigid) per flexible link;
// dispose frees the geometries.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAchain } from './helpers.mjs';
import { FlexibleLinks } from '../../web/src/three/FlexibleLinks.js';

const achain = await loadAchain();

test('FlexibleLinks draws the core\'s curves with the deflection exaggerated', () => {
  const m = achain.loadModel('space-arm');
  const phi = new Float64Array(16);
  for (let i = 6; i < 16; i++) phi[i] = 0.01 * (i - 10);
  const view = new FlexibleLinks({ exaggeration: 10, samples: 9 });
  view.update(m, phi);
  assert.equal(view.group.children.length, 4);  // links 2 and 3: deflected and rigid each
  const c = m.flexibleLinkCurve(phi, 2, { samples: 9 });
  const drawn = view.group.children.filter((o) => o.userData.joint === 2)[0].geometry.getAttribute('position');
  for (let i = 0; i < 9; i++) {
    for (let a = 0; a < 3; a++) {
      const want = c.rigid[3 * i + a] + 10 * (c.deflected[3 * i + a] - c.rigid[3 * i + a]);
      assert.ok(Math.abs(drawn.array[3 * i + a] - want) <= 1e-5 * Math.max(1, Math.abs(want)), `point ${i}.${a}`);
    }
  }
  view.update(m, phi);  // redraw replaces, never accumulates
  assert.equal(view.group.children.length, 4);
  view.dispose();
  assert.equal(view.group.children.length, 0);
  m.dispose();
});
