// JointSliders: one slider + number box per joint, in display units, within the joint limits.
import { jointRange, jointToDisplay, jointFromDisplay, jointUnitLabel, jointStep, fmt } from '../lib/units.js';

export class JointSliders {
  /**
   * @param {HTMLElement} container
   * @param {{onChange: (q: Float64Array) => void, prefix?: string}} opts  prefix: the label's letter (default 'q')
   */
  constructor(container, opts) {
    this.container = container;
    this.onChange = opts.onChange;
    this.prefix = opts.prefix ?? 'q';
    this.rows = [];
    this.q = new Float64Array(0);
  }

  build(joints, q, units) {
    this.joints = joints;
    this.units = units;
    this.q = Float64Array.from(q);
    this.container.replaceChildren();
    this.rows = joints.map((j, i) => {
      const row = document.createElement('div');
      row.className = 'joint';
      const [lo, hi] = jointRange(j);
      const label = document.createElement('label');
      const name = document.createElement('span');
      const b = document.createElement('b');
      b.textContent = `${this.prefix}${i + 1} ${j.name}`;  // the file's name: text, never markup
      const kind = document.createElement('span');
      kind.className = `kind kind-${j.kind}`;
      kind.textContent = j.kind;
      name.append(b, kind);
      const lim = document.createElement('span');
      lim.className = 'lim';
      label.append(name, lim);
      const range = document.createElement('input');
      range.type = 'range';
      range.dataset.joint = String(i);
      range.setAttribute('aria-label', `${this.prefix === 'q' ? 'joint' : 'coordinate'} ${i + 1} ${j.name}`);
      const num = document.createElement('input');
      num.type = 'number';
      num.dataset.joint = String(i);
      num.setAttribute('aria-label', `${this.prefix === 'q' ? 'joint' : 'coordinate'} ${i + 1} ${j.name} value`);
      const commit = (displayValue) => {
        let v = jointFromDisplay(j, Number(displayValue), this.units);
        if (!Number.isFinite(v)) return;
        v = Math.min(hi, Math.max(lo, v));
        this.q[i] = v;
        this._show(i);
        this.onChange(Float64Array.from(this.q), i);
      };
      range.addEventListener('input', () => commit(range.value));
      num.addEventListener('change', () => commit(num.value));
      row.append(label, range, num);
      this.container.appendChild(row);
      // a turning joint without position limits: its value runs on unwrapped (a free simulation past 180°), the
      // slider shows it turned into its one-turn range and no limit is flagged
      const turns = j.angular && !(Number.isFinite(j.lower) && Number.isFinite(j.upper)) && hi - lo >= 2 * Math.PI - 1e-12;
      return { row, range, num, lim, lo, hi, turns, joint: j };
    });
    this.setUnits(units);
  }

  setUnits(units) {
    this.units = units;
    this.rows.forEach((r, i) => {
      const lo = jointToDisplay(r.joint, r.lo, units);
      const hi = jointToDisplay(r.joint, r.hi, units);
      const step = jointStep(r.joint, units);
      for (const el of [r.range, r.num]) { el.min = String(lo); el.max = String(hi); el.step = String(step / (el === r.num ? 1 : 1)); }
      r.range.step = 'any';
      const u = jointUnitLabel(r.joint, units);
      r.lim.textContent = `${fmt(lo, units.angle === 'rad' && r.joint.angular ? 3 : 1)} … ${fmt(hi, units.angle === 'rad' && r.joint.angular ? 3 : 1)} ${u}`;
      this._show(i);
    });
  }

  /** Shows q (SI) without firing onChange. */
  set(q) {
    this.q = Float64Array.from(q);
    for (let i = 0; i < this.rows.length; i++) this._show(i);
  }

  _show(i) {
    const r = this.rows[i];
    const v = jointToDisplay(r.joint, this.q[i], this.units);
    const turn = 2 * Math.PI;
    const onSlider = r.turns ? r.lo + ((((this.q[i] - r.lo) % turn) + turn) % turn) : this.q[i];
    r.range.value = String(r.turns ? jointToDisplay(r.joint, onSlider, this.units) : v);
    r.num.value = fmt(v, !r.joint.angular ? (this.units.length === 'mm' ? 1 : 4) : this.units.angle === 'deg' ? 2 : 4);
    const span = r.hi - r.lo;
    r.row.classList.toggle('at-limit', !r.turns && (this.q[i] <= r.lo + 0.01 * span || this.q[i] >= r.hi - 0.01 * span));
  }
}
