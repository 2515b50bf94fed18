// Fixture for the browser test of the Controller panel: the real panel with a minimal studio
// context (prototype-4a joint limits, a joint vector with listeners).
import { mountControllerPanel } from '../../../web/src/controller/panel.js';

const D = Math.PI / 180;
const joints = [0, 1, 2, 3].map((j) => ({ name: `j${j + 1}`, kind: 'A', lower: 60 * D, upper: 300 * D,
  velocity: (j < 3 ? 180 : 171) * D, acceleration: (j < 3 ? 720 : 1430) * D, effort: j < 3 ? 39.5 : 6.9 }));
let q = Float64Array.from([60, 60, 60, 60].map((x) => x * D));
const listeners = [];
const ctx = {
  achain: null,
  getModel: () => ({ name: 'prototype-4a', dof: 4, joints }),
  getQ: () => q,
  setQ: (v) => { q = Float64Array.from(v); listeners.forEach((cb) => cb(q, 'controller')); },
  onQ: (cb) => { listeners.push(cb); return () => listeners.splice(listeners.indexOf(cb), 1); },
  // test hook: the "gizmo" moves the studio's joints
  drag: (v) => { q = Float64Array.from(v); listeners.forEach((cb) => cb(q, 'gizmo')); },
};
window.__ctx = ctx;
window.__panel = mountControllerPanel(document.getElementById('mount'), ctx);
