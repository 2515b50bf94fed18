// LoopPanel: the Teleoperate view's controls for a closed chain, a robot whose file declares a loop
// (model.info.loop, docs/robot-format.md#loops). The user moves the chain by its coordinates
// y = (α; f): the joints the file keeps as coordinates, then the free closure components (a planar pin's
// tool angle). At every change the core closes the loop from the previous solution (model.closeLoop), so the
// branch is kept while dragging, and a pose the loop cannot reach is refused with the core's words. With the
// rates ẏ, ÿ the core gives the actuator loads T_y and the constraint loads T_c (model.closedChainLoads,
// Freeman 4-30/4-31); T_c is drawn as an arrow at the closure. Simulate runs the free closed chain
// (model.closedChainStep, RK4 with the loop re-closed at every stage) in real time, the arrow following.
// Everything computed here is a core call; this file converts units and draws.
import * as THREE from 'three';
import { JointSliders } from './JointSliders.js';
import { fmt, jointFromDisplay, jointToDisplay, jointUnitLabel } from '../lib/units.js';
import { closeAt, loopCoordinates } from '../lib/loop.js';

const FRAME_DT = 1 / 60;   // s of simulated time per animation frame (real time at 60 frames per second)
const SUBSTEPS = 10;       // RK4 steps per frame (1.7 ms each)

export class LoopPanel {
  /**
   * @param {HTMLElement} container  the panel section (hidden for open chains)
   * @param {import('../Studio.js').Studio} studio
   */
  constructor(container, studio) {
    this.container = container;
    this.studio = studio;
    container.innerHTML = `
      <h3>Closed loop</h3>
      <p class="hint loop-hint"></p>
      <div class="loop-sliders"></div>
      <div class="loop-rates"></div>
      <div class="row">
        <button type="button" class="loop-sim">Simulate free motion</button>
        <button type="button" class="loop-zero">Zero rates</button>
        <label title="while you drag a slider, ẏ of that coordinate is its speed (change per second between slider events) and ÿ = 0, so the loads are those of the chain moving as you drag it"><input type="checkbox" class="loop-drag-rates" checked> rates from the drag</label>
      </div>
      <div class="loop-status muted"></div>
      <table class="loop-loads"></table>`;
    this.$ = (s) => container.querySelector(s);
    this.sliders = new JointSliders(this.$('.loop-sliders'), { prefix: 'y', onChange: (y, i) => this.dragTo(y, i) });
    this.$('.loop-sim').addEventListener('click', () => this.setSimulating(!this.simulating));
    this.$('.loop-zero').addEventListener('click', () => { this.setRates(new Float64Array(this.ny), new Float64Array(this.ny)); this.update(); });
    this.arrow = new THREE.ArrowHelper(new THREE.Vector3(1, 0, 0), new THREE.Vector3(), 0.1, 0xf43f5e);
    this.arrow.name = 'constraint-force';
    this.arrow.visible = false;
    studio.viewport.world.add(this.arrow);
    this.simulating = false;
    this.shown = false;   // the view is on screen (the arrow is drawn only then)
    this.forceScale = 0;  // largest |T_c| seen for this robot: the arrow's full length
    studio.viewport.onFrame(() => this._frame());
  }

  /** True when the current robot is a closed chain (the panel is shown). */
  get active() { return !!this.loop; }

  /** Rebuilds the panel for a model: shown for a closed chain, hidden (and idle) otherwise. */
  setModel(model) {
    this.setSimulating(false);
    this.loop = model.info.loop;
    this.container.hidden = !this.loop;
    this.arrow.visible = false;
    this.forceScale = 0;
    if (!this.loop) return;
    const L = this.loop;
    this.model = model;
    this.coords = loopCoordinates(model);
    this.ny = this.coords.length;
    this.$('.loop-hint').textContent = `${model.name} is a single loop: its tool is tied to the ground by a ${L.closure.replace('_', ' ')}. `
      + `Move it by its coordinates y (${this.coords.map((c) => c.name).join(', ')}); the core closes the loop at every step and keeps the branch. `
      + 'With rates ẏ, ÿ it gives the actuator loads T_y and the ground\'s constraint loads T_c (the red arrow).';
    this.yd = new Float64Array(this.ny);
    this.ydd = new Float64Array(this.ny);
    this.error = null;
    this.iterations = null;
    this.closeMs = null;
    this._buildRates();
    this._syncSliders();
    this.update();
  }

  /** The coordinates y of the studio's current (closed) configuration. */
  coordinates() { return this.model.closedChainCoordinates(this.studio.q); }

  /**
   * Moves the chain to coordinates y (SI): closes the loop from the current configuration. Returns true, or
   * false with the core's message in the status when the loop cannot close there (the chain stays put).
   */
  moveTo(y, { refresh = true } = {}) {
    const t0 = performance.now();
    try {
      const r = closeAt(this.model, this.studio.q, y);
      this.closeMs = performance.now() - t0;
      this.studio.setQ(r.q, this);
      this.iterations = r.iterations;
      this.error = null;
    } catch (e) {
      this.error = e.message;
      this._syncSliders();
    }
    if (refresh) this.update();
    return !this.error;
  }

  /**
   * A slider drag: closes the loop at y and, with "rates from the drag", takes the moved coordinate's speed
   * since the previous slider event as its ẏ (other rates and ÿ zero), so the arrow shows the loads of the
   * chain moving as it is dragged. Events more than 0.25 s apart start a new drag (no speed yet).
   */
  dragTo(y, i) {
    const now = performance.now();
    const prev = this.coordinates();
    const last = this._lastDrag;
    this._lastDrag = { t: now, i };
    const ok = this.moveTo(y, { refresh: false });  // one load computation per event: after the rates are set
    if (ok && this.$('.loop-drag-rates').checked && i != null) {
      const yd = new Float64Array(this.ny);
      if (last && last.i === i && now - last.t < 250) yd[i] = (y[i] - prev[i]) / (Math.max(now - last.t, 8) / 1000);
      this.setRates(yd, new Float64Array(this.ny));
    }
    this.update();
    return ok;
  }

  /** Sets the rates (SI) and shows them in the inputs. */
  setRates(yd, ydd) {
    this.yd = Float64Array.from(yd);
    this.ydd = Float64Array.from(ydd);
    this._showRates();
  }

  /** The loads at the current configuration and rates: {Ty, Tc, qd, qdd} from the core, or null on error. */
  loads() {
    try {
      return this.model.closedChainLoads(this.studio.q, this.yd, this.ydd);
    } catch (e) {
      this.error = e.message;
      return null;
    }
  }

  /** Recomputes the loads, the readout and the arrow. */
  update() {
    if (!this.loop) return;
    const res = this.loads();
    this._status();
    this._table(res);
    this._drawArrow(res);
  }

  setSimulating(on) {
    this.simulating = !!on && this.active;
    this.$('.loop-sim').textContent = this.simulating ? 'Stop' : 'Simulate free motion';
    this.$('.loop-sim').classList.toggle('primary', this.simulating);
    if (this.simulating) {
      this.simTime = 0;
      this.energy0 = this._energy();
    }
  }

  /** The view was shown or hidden: the arrow with it; hiding stops a simulation. */
  setShown(on) {
    this.shown = !!on;
    if (!this.shown) this.setSimulating(false);
    if (this.loop) this.update();
    else this.arrow.visible = false;
  }

  /** The display units changed: sliders, rates and limits in the new units. */
  setUnits() {
    if (!this.loop) return;
    this._syncSliders();
    this._showRates();
  }

  /** The configuration changed elsewhere (another view, Home): the sliders follow and the loads are recomputed. */
  configurationChanged() {
    if (!this.loop) return;
    try { this.sliders.set(this.coordinates()); } catch { /* not closed: sliders keep their values */ }
    this.update();
  }

  // ---- internals

  _energy() {
    const res = this.model.closedChainLoads(this.studio.q, this.yd, new Float64Array(this.ny));
    return this.model.kineticEnergy(this.studio.q, res.qd) + this.model.potentialEnergy(this.studio.q);
  }

  /** One animation frame of the free simulation: FRAME_DT of simulated time, T_y = 0. */
  _frame() {
    if (!this.simulating || !this.active || this.studio.model !== this.model) return;
    const m = this.model;
    try {
      const s = m.closedChainStep(this.studio.q, this.yd, new Float64Array(this.ny), { dt: FRAME_DT / SUBSTEPS, steps: SUBSTEPS });
      this.simTime += FRAME_DT;
      this.studio.setQ(s.q, this);
      const ydd = m.closedChainForwardDynamics(s.q, s.yd, new Float64Array(this.ny));
      this.setRates(s.yd, ydd);
      this.sliders.set(s.y);
      this.error = null;
      this.update();
    } catch (e) {
      this.error = `simulation stopped: ${e.message}`;
      this.setSimulating(false);
      this._status();
    }
  }

  _syncSliders() {
    let y;
    try {
      y = this.coordinates();
    } catch (e) {  // e.g. a loop being edited in Design whose coordinates do not fit its closure yet
      this.error = e.message;
      y = new Float64Array(this.ny);
    }
    this.sliders.build(this.coords, y, this.studio.units);
  }

  _unitsOf(c) { return jointUnitLabel(c, this.studio.units); }

  _buildRates() {
    const box = this.$('.loop-rates');
    box.replaceChildren();
    this.rateInputs = this.coords.map((c, k) => {
      const row = document.createElement('div');
      row.className = 'row';
      const name = document.createElement('span');
      name.textContent = `y${k + 1} ${c.name}`;
      name.className = 'muted';
      const mk = (what) => {
        const label = document.createElement('label');
        const input = document.createElement('input');
        input.type = 'number';
        input.step = 'any';
        input.style.width = '72px';
        input.dataset.rate = `${what}${k}`;
        input.setAttribute('aria-label', `${what === 'yd' ? 'rate' : 'acceleration'} of y${k + 1}`);
        input.addEventListener('change', () => {
          const v = jointFromDisplay(c, Number(input.value), this.studio.units);
          if (!Number.isFinite(v)) { this._showRates(); return; }
          this[what][k] = v;
          this.update();
        });
        const unit = document.createElement('span');
        label.append(`${what === 'yd' ? 'ẏ' : 'ÿ'}`, input, unit);
        return { input, unit, label };
      };
      const rate = mk('yd'), acc = mk('ydd');
      row.append(name, rate.label, acc.label);
      box.appendChild(row);
      return { rate, acc, c };
    });
    this._showRates();
  }

  _showRates() {
    if (!this.rateInputs) return;
    this.rateInputs.forEach(({ rate, acc, c }, k) => {
      const u = this._unitsOf(c);
      rate.input.value = fmt(jointToDisplay(c, this.yd[k], this.studio.units), 3);
      acc.input.value = fmt(jointToDisplay(c, this.ydd[k], this.studio.units), 3);
      rate.unit.textContent = `${u}/s`;
      acc.unit.textContent = `${u}/s²`;
    });
  }

  _status() {
    const el = this.$('.loop-status');
    if (this.error) {
      el.textContent = this.error;
      el.style.color = '#f87171';
      el.dataset.status = 'error';
      return;
    }
    el.style.color = '';
    el.dataset.status = 'closed';
    const parts = ['loop closed'];
    if (this.iterations != null) parts.push(`${this.iterations} Newton iterations${this.closeMs != null ? `, ${fmt(this.closeMs, 2)} ms` : ''}`);
    if (this.simulating) {
      const e = this._energy();
      parts.push(`t = ${fmt(this.simTime, 2)} s, energy drift ${(e - this.energy0).toExponential(1)} J`);
    }
    el.textContent = parts.join(' · ');
  }

  /** Loads with their units: a coordinate's load is a torque (N·m) for an angle, a force (N) for a length. */
  _table(res) {
    const t = this.$('.loop-loads');
    t.replaceChildren();
    if (!res) return;
    const row = (label, value, unit) => {
      const tr = document.createElement('tr');
      for (const text of [label, fmt(value, 4), unit]) {
        const td = document.createElement('td');
        td.textContent = text;
        tr.appendChild(td);
      }
      t.appendChild(tr);
    };
    this.coords.forEach((c, k) => row(`T_y${k + 1} (${c.name})`, res.Ty[k], c.angular ? 'N·m' : 'N'));
    const names = { planar_pin: ['X', 'Y'], point: ['x', 'y', 'z'], pose: ['x', 'y', 'z', 'mx', 'my', 'mz'] }[this.loop.closure];
    names.forEach((n, k) => row(`T_c ${n}`, res.Tc[k], k < 3 ? 'N' : 'N·m'));
  }

  /** The ground's force on the tool, at the closure point, scaled to the largest force seen on this robot. */
  _drawArrow(res) {
    const a = this.arrow;
    if (!res) { a.visible = false; this.studio.viewport.requestRender(); return; }
    const g = this.loop.ground;
    const F = new THREE.Vector3(res.Tc[0], res.Tc[1], this.loop.closure === 'planar_pin' ? 0 : res.Tc[2]);
    const mag = F.length();
    this.forceScale = Math.max(this.forceScale, mag);
    const visible = this.shown && mag > 1e-9 * Math.max(1, this.forceScale);
    a.visible = visible;
    a.userData.force = [F.x, F.y, F.z];
    if (visible) {
      const len = 0.35 * this.studio.size * (0.15 + 0.85 * mag / this.forceScale);
      a.position.set(g[3], g[7], g[11]);
      a.setDirection(F.clone().normalize());
      a.setLength(len, 0.25 * len, 0.12 * len);
    }
    this.container.dataset.force = `${fmt(mag, 4)} N`;
    this.studio.viewport.requestRender();
  }
}
