// The tree panel (Design view): the robot's links as an indented tree — each link with the joint that carries
// it (type, limits in the display units, mimic and fixed joints marked) — where the user picks the tool link.
// Both trees come from the core: a URDF's from achain.urdfTree (the file's own link names, fixed joints included),
// a built-in or JSON robot's from model.modelTree() (links[i + 1] is joint i's link, named as Export URDF names it).
// Picking is the caller's: a URDF reloads with {toolLink}, a description gets tool.link.
import { lengthFactor, angleFactor } from '../lib/units.js';

/** A display number without trailing zeros (2 decimals at most: 171.89°, 200 mm). */
const num = (x) => String(Number(x.toFixed(2)) || 0);

/** "−170° … 170°", "0 … 200 mm" or "no position limit" for a joint of a tree in the display units. */
export function limitsText(joint, units) {
  const { lower, upper } = joint.limits;
  if (joint.type === 'fixed' || joint.type === 'floating' || joint.type === 'planar') return '';
  const angular = joint.angular;
  if (lower === null && upper === null) return 'no position limit';
  const f = angular ? angleFactor(units) : lengthFactor(units);
  const unit = angular ? (units.angle === 'deg' ? '°' : ' rad') : ` ${units.length}`;
  const v = (x) => (x === null ? '∞' : num(x * f));
  return `${v(lower)} … ${v(upper)}${unit}`;
}

/**
 * Renders `tree` into `box`: a sentence (when given), then one row per link, indented by depth, with a radio
 * button for every link but the root; `tool` is the checked link's name; onPick(name) is called on a change.
 */
export function renderTree(box, tree, { units, tool, sentence = '', onPick }) {
  box.replaceChildren();
  if (sentence) {
    const p = document.createElement('p');
    p.className = 't-ask';
    p.setAttribute('role', 'alert');
    p.textContent = sentence;
    box.appendChild(p);
  }
  const list = document.createElement('div');
  list.className = 't-list';
  list.setAttribute('role', 'radiogroup');
  list.setAttribute('aria-label', 'tool link');
  const leaves = new Set(tree.leaves);
  for (const l of tree.links) {
    const row = document.createElement('label');
    row.className = 't-link';
    row.dataset.link = l.name;
    row.style.paddingLeft = `${0.2 + 1.1 * l.depth}em`;
    const radio = document.createElement('input');
    radio.type = 'radio';
    radio.name = 'tool-link';
    radio.value = l.name;
    radio.disabled = !l.joint; // the root is the base: it cannot carry the tool
    radio.checked = l.name === tool;
    radio.addEventListener('change', () => { if (radio.checked) onPick(l.name); });
    const name = document.createElement('span');
    name.className = 't-name';
    name.textContent = l.name;
    row.append(radio, name);
    const tags = [];
    if (!l.joint) tags.push('root');
    else {
      tags.push(`${l.joint.name}: ${l.joint.type}`);
      const lim = limitsText(l.joint, units);
      if (lim) tags.push(lim);
      if (l.joint.mimic) tags.push(`mimics ${l.joint.mimic.joint}${l.joint.mimic.multiplier !== 1 ? ` ×${num(l.joint.mimic.multiplier)}` : ''}`);
    }
    if (leaves.has(l.name)) tags.push('end link');
    if (l.name === tool) tags.push('tool');
    const info = document.createElement('span');
    info.className = 't-info';
    info.textContent = tags.join(' · ');
    row.appendChild(info);
    row.classList.toggle('fixed', l.joint?.type === 'fixed');
    row.classList.toggle('mimic', !!l.joint?.mimic);
    row.classList.toggle('leaf', leaves.has(l.name));
    row.classList.toggle('tool', l.name === tool);
    list.appendChild(row);
  }
  box.appendChild(list);
}
