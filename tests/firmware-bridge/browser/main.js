// Fixture for the browser test of the Controller panel: the real panel with a minimal studio
// context (the prototype's model from the achain core, a joint vector with listeners).
import { loadAchain } from '../../../wasm/achain.mjs';
import { mountControllerPanel } from '../../../web/src/controller/panel.js';

const D = Math.PI / 180;
const achain = await loadAchain();
const model = achain.builtinModel('prototype-4a');
let q = Float64Array.from([60, 60, 60, 60].map((x) => x * D));
const listeners = [];
const ctx = {
  achain,
  getModel: () => model,
  getQ: () => q,
  setQ: (v) => { q = Float64Array.from(v); listeners.forEach((cb) => cb(q, 'controller')); },
  onQ: (cb) => { listeners.push(cb); return () => listeners.splice(listeners.indexOf(cb), 1); },
  // test hook: the "gizmo" moves the studio's joints
  drag: (v) => { q = Float64Array.from(v); listeners.forEach((cb) => cb(q, 'gizmo')); },
};
window.__ctx = ctx;
window.__panel = mountControllerPanel(document.getElementById('mount'), ctx);
