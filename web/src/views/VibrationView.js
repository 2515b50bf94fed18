// VibrationView: the chain with lumped drive flexibility (Spong's spring k and damper c between each motor and
// its link; issue 13). It shows the core's natural modes at the current pose (model.jointFlexibilityModes, motors
// locked or free) with a mode-shape animation on the arm, the first frequency across a joint's range, and the
// check of the Motion view's default move (the robot file's, e.g. the thesis trapezoid for the prototype) unshaped and with ZV / ZVD input
// shaping (model.checkFlexibleTrajectory, in a Web Worker): tip error against time, the first frequency along the
// path and a results table. Every number is the core's; the page draws, converts units and routes events.
//
// The drive: the robot file's drive blocks (model.info.drives) when it has them; else the drive of the variant file
// its defaults name (defaults.drive_variant: for the built-in prototype, which has none, the derived drive of
// core/robots/variants/prototype-4a-drive.json), read by the core (achain.jointFlexibilityFromJsonString); else the
// stiffness is typed in.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { FlexibleLinksPanel } from '../ui/FlexibleLinksPanel.js';
// the variant files a robot file may name as its drive (defaults.drive_variant), bundled by name
const driveVariants = Object.fromEntries(Object.entries(import.meta.glob('../../../core/robots/variants/*.json', { query: '?raw', import: 'default', eager: true }))
  .map(([path, text]) => [path.replace(/^.*\//, '').replace(/\.json$/, ''), text]));
import { fmt, jointToDisplay, jointUnitLabel, lengthFactor } from '../lib/units.js';
import { defaultMove } from '../lib/plans.js';
import { escapeHtml } from '../ui/html.js';

const SHAPERS = [['none', 'unshaped', '#f87171'], ['zv', 'ZV', '#facc15'], ['zvd', 'ZVD', '#4ade80']];
const MODE_COLOURS = ['#60a5fa', '#f472b6', '#4ade80', '#facc15'];
const ANIMATION_HZ = 0.8;   // the mode animation is slowed to this (the modes are at 5–70 Hz)
const TRACE_SAMPLES = 600;  // points of each tip-error trace
const PATH_SAMPLES = 41;    // configurations along the path for the first frequency

/** "a" when every value is a, else "a, b, c" (numbers to 6 significant digits). */
function fmtList(v) {
  const s = Array.from(v, (x) => String(Number(x.toPrecision(6))));
  return s.every((x) => x === s[0]) ? s[0] : s.join(', ');
}

/** One number for every joint, or n numbers ("what: 'x' is not a number"). */
function parseList(text, n, what) {
  const tokens = text.split(/[,\s]+/).filter(Boolean);
  const bad = tokens.find((t) => !Number.isFinite(Number(t)));
  if (bad !== undefined) throw new Error(`${what}: '${bad}' is not a number`);
  if (tokens.length === 1) return new Float64Array(n).fill(Number(tokens[0]));
  if (tokens.length !== n) throw new Error(`${what}: one number for every joint or ${n} numbers (got ${tokens.length})`);
  return Float64Array.from(tokens, Number);
}

export class VibrationView {
  /** The bundled variant files by name (core/robots/variants/NAME.json), for a robot file's defaults.drive_variant. */
  static driveVariants = driveVariants;
  /** The JSON text of core/robots/variants/prototype-4a-drive.json, the prototype's drive variant. */
  static prototypeDriveText = driveVariants['prototype-4a-drive'];

  constructor() { this.id = 'vibration'; this.title = 'Vibration'; this.key = '6'; }

  mount(panel, studio) {
    this.studio = studio;
    this.plots = [];
    this.checkId = 0;
    panel.innerHTML = `
      <h3>Vibration (drive flexibility)</h3>
      <p class="hint">Lumped joint flexibility (Spong): a spring <i>k</i> and a damper <i>c</i> between each motor and its link.
      Modes about the current pose and the check of a planned move, unshaped and with ZV / ZVD input shaping — all computed by the core.</p>
      <div class="v-source muted" data-testid="vibration-source"></div>
      <label class="m-lab">stiffness <i>k</i> <input type="text" class="v-k" aria-label="drive stiffness"> <span class="v-k-unit">N·m/rad</span></label>
      <label class="m-lab">damping <i>c</i> <input type="text" class="v-c" aria-label="drive damping"> N·m·s/rad</label>
      <div class="row"><button type="button" class="v-reset" title="the drive of the robot file (or of the prototype's drive variant)">drive from the file</button>
        <label title="motors free: 2·n modes over (link, motor) angles, the first n rigid"><input type="checkbox" class="v-free"> free motors</label></div>
      <div class="v-error error-box" hidden data-testid="vibration-error"></div>
      <h3>Modes at the current pose</h3>
      <div class="v-modes" data-testid="vibration-modes"></div>
      <div class="row"><label>exaggeration <input type="range" class="v-amp" min="1" max="45" step="1" value="15" aria-label="mode amplitude"></label>
        <span class="v-amp-text muted"></span></div>
      <p class="hint">▶ animates the chain as q₀ + a·φ·sin ωt (a: the largest joint swing; slowed to ${ANIMATION_HZ} Hz to be seen).</p>
      <div class="row"><label>frequency across <select class="v-sweep" aria-label="swept joint"></select></label></div>
      <div class="v-sweep-plot"></div>
      <h3>Rigid arm, linearised at the current pose</h3>
      <p class="hint">Poles of the rigid arm about the current pose at rest (torque inputs; <code>model.linearizeDynamics</code>,
      Freeman's linearised model). Positive real parts grow without control; a pair ±i·ω swings at ω.</p>
      <div class="row"><label title="rotor inertia J_m·G² from the motor data"><input type="checkbox" class="v-lin-motors" checked> rotor inertia</label></div>
      <p class="hint v-lin-which"></p>
      <div class="v-lin" data-testid="vibration-poles"></div>
      <div class="row v-bode-row"><label title="the frequency response of the joint's torque to its angle, G(jω) = C (jωI − A)⁻¹ B (model.frequencyResponse)">Bode plot of
        <select class="v-bode-joint" aria-label="Bode plot joint"></select></label></div>
      <div class="v-bode-plot" data-testid="vibration-bode"></div>
      <h3>Trajectory check</h3>
      <p class="hint v-move-hint"></p>
      <div class="row">
        <label title="blank: the first locked-motor frequency at the end of the move">shaper at <input type="number" class="v-wf" min="0" step="any" placeholder="auto" style="width:64px"> Hz</label>
        <label title="blank: the first mode's damping ratio from the drive damping">ζ <input type="number" class="v-zeta" min="0" max="0.99" step="any" placeholder="auto" style="width:72px"></label>
      </div>
      <div class="row"><button type="button" class="v-check primary">Check unshaped / ZV / ZVD</button><button type="button" class="v-cancel" disabled>Cancel</button></div>
      <progress class="v-progress" hidden aria-label="checking"></progress>
      <div class="v-status muted" data-testid="vibration-status"></div>
      <div class="v-flexible" hidden data-testid="flexible-links"></div>`;
    this.$ = (s) => panel.querySelector(s);
    this.flexibleLinks = new FlexibleLinksPanel(this.$('.v-flexible'), studio);
    this.dock = document.createElement('div');
    this.dock.className = 'dock';
    this.dock.hidden = true;
    this.dock.dataset.testid = 'vibration-plots';
    studio.els.viewport.appendChild(this.dock);

    // a new drive makes the last check stale (the free-motors switch does not: the check's motors follow the plan)
    for (const sel of ['.v-k', '.v-c']) {
      this.$(sel).addEventListener('input', () => { this.edited = true; });
      this.$(sel).addEventListener('change', () => { this._stale(); this._changed(); });
    }
    this.$('.v-free').addEventListener('change', () => this._changed());
    this.$('.v-lin-motors').addEventListener('change', () => this._poles());
    this.$('.v-bode-joint').addEventListener('change', () => this._bode());
    this.$('.v-reset').addEventListener('click', () => { this._driveFromFile(); this._stale(); this._changed(); });
    this.$('.v-amp').addEventListener('input', () => this._ampText());
    this.$('.v-sweep').addEventListener('change', () => this._plot());
    this.$('.v-check').addEventListener('click', () => this.check());
    this.$('.v-cancel').addEventListener('click', () => this.cancel());
    studio.viewport.onFrame((dt) => this._tick(dt));
    studio.onQ((q, source) => {
      if (source !== this && this.active) { this.stopAnimation(false); this._modes(); this._poles(); this._plot(); this.flexibleLinks.update(); }
    });
    studio.onModel((m) => {
      this.stopAnimation(false);
      this.flexibleLinks.hide();
      this.cancel();
      this.result = null;
      this.$('.v-status').textContent = '';
      const sel = this.$('.v-sweep');
      sel.replaceChildren(...m.coordinates.map((j, i) => new Option(`q${i + 1} ${j.name}`, String(i))));
      sel.value = String(Math.min(1, m.dof - 1));
      const bode = this.$('.v-bode-joint');
      bode.replaceChildren(...m.coordinates.map((j, i) => new Option(`τ${i + 1} → q${i + 1} ${j.name}`, String(i))));
      bode.value = '0';
      this.$('.v-k-unit').textContent = m.coordinates.every((j) => j.angular) ? 'N·m/rad' : 'N·m/rad (N/m prismatic)';
      this._driveFromFile();
      this.move = defaultMove(m);
      this._moveHint();
      if (this.active) this._changed();
    });
    studio.addEventListener('units', () => { this._moveHint(); if (this.active) { this._modes(); this._plot(); } });
    this._ampText();
  }

  activate() { this.active = true; this._changed(); }
  deactivate() { this.stopAnimation(true); this._showDock(false); this.flexibleLinks.hide(); this.active = false; }

  _showDock(on) {
    this.dock.hidden = !on;
    this.studio.viewport.setBottomInset(on ? 0.47 : 0);
  }

  /** The move the check plans, in display units. */
  _moveHint() {
    const s = this.studio;
    const m = s.model;
    if (!m || !this.move) return;
    const show = (v) => Array.from(v, (x, i) => fmt(jointToDisplay(m.coordinates[i], x, s.units), 1)).join(', ');
    const units = [...new Set(m.coordinates.map((j) => jointUnitLabel(j, s.units)))].join('/');
    const name = this.move.name ? this.move.name[0].toUpperCase() + this.move.name.slice(1) : 'The Motion view\'s default move';
    this.$('.v-move-hint').textContent = `${name}: `
      + `(${show(this.move.from)}) → (${show(this.move.to)}) ${units}, trapezoid at the joint speed and acceleration limits; `
      + 'the motors follow it exactly, the links through the drive springs.';
  }

  _ampText() { this.$('.v-amp-text').textContent = `a = ${this.$('.v-amp').value}° (largest joint)`; }

  /** The drive of the robot file, else of the variant file its defaults name (defaults.drive_variant), read by the core. */
  _driveFromFile() {
    const s = this.studio;
    const m = s.model;
    let drive = m.jointFlexibility();
    let source = 'the robot file\'s drive blocks (joints[i].drive)';
    const variant = m.info.defaults?.driveVariant;
    if (!drive && variant) {
      const text = VibrationView.driveVariants[variant];
      if (text != null) {
        drive = s.achain.jointFlexibilityFromJsonString(text);
        source = `the robot file's drive variant (${fmt(drive.stiffness[0], 0)} N·m/rad) from core/robots/variants/${variant}.json`;
      }
    }
    this.drive = drive;
    this.edited = false;
    this.$('.v-k').value = drive ? fmtList(drive.stiffness) : '';
    this.$('.v-c').value = drive ? fmtList(drive.damping) : '0';
    this.$('.v-free').disabled = !drive || drive.motorInertia.some((J) => !Number.isFinite(J));
    if (this.$('.v-free').disabled) this.$('.v-free').checked = false;
    this.$('.v-reset').disabled = !drive;
    this.$('.v-source').textContent = drive ? `drive: ${source}` : `${m.name} declares no joint drives: type a stiffness (one number for every joint, or one per joint).`;
  }

  /** The flexibility for the core: the file's exact values while the fields are untouched, else the typed ones. */
  _flex() {
    const n = this.studio.model.dof;
    if (this.drive && !this.edited) return { stiffness: this.drive.stiffness, damping: this.drive.damping, motorInertia: this.drive.motorInertia };
    const text = this.$('.v-k').value.trim();
    if (!text) throw new Error('stiffness: type one number for every joint, or one per joint');
    const flex = { stiffness: parseList(text, n, 'stiffness'), damping: parseList(this.$('.v-c').value.trim() || '0', n, 'damping') };
    if (this.drive) flex.motorInertia = this.drive.motorInertia;
    this.studio.model.checkJointFlexibility(flex);  // the core's message names the joint
    return flex;
  }

  _stale() {
    this.cancel();
    this.result = null;
    this.$('.v-status').textContent = '';
  }

  _changed() {
    if (!this.active) return;
    this.stopAnimation(true);
    this._modes();
    this._poles();
    this._plot();
    this.flexibleLinks.update();
  }

  _error(msg) {
    const box = this.$('.v-error');
    box.hidden = !msg;
    box.textContent = msg ?? '';
  }

  // ---------------------------------------------------------------- modes
  _modes() {
    const s = this.studio;
    const m = s.model;
    const box = this.$('.v-modes');
    this.modes = null;
    try {
      const flex = this._flex();
      const motor = this.$('.v-free').checked ? 'free' : 'locked';
      this.modes = m.jointFlexibilityModes(s.q, { ...flex, motor });
      this._error(null);
    } catch (e) {
      this._error(e.message);
      box.replaceChildren();
      return;
    }
    const r = this.modes;
    const n = m.dof;
    const rigid = r.motor === 'free' ? n : 0;  // free motors: the first n modes are the rigid-body ones (ω = 0)
    let html = `<table class="grid m-table v-mode-table"><tr><th>mode</th><th>f (Hz)</th><th>ω (rad/s)</th><th title="mass-normalised link angles (kg^-½·m^-1)">shape φ (links)</th><th></th></tr>`;
    for (let k = rigid; k < r.omega.length; k++) {
      const shape = Array.from(r.shapes[k].subarray(0, n), (v) => fmt(v, 2)).join(', ');
      html += `<tr data-mode="${k}"><td>${k - rigid + 1}</td><td class="v-hz">${fmt(r.frequencyHz[k], 2)}</td><td>${fmt(r.omega[k], 1)}</td>`
        + `<td class="v-shape">${escapeHtml(shape)}</td><td><button type="button" class="v-anim" data-mode="${k}" title="animate this mode on the arm">▶</button></td></tr>`;
    }
    html += '</table>';
    html += `<p class="muted">${r.motor === 'free' ? `Motors free (${n} rigid-body modes at 0 Hz not listed)` : 'Motors locked (servo-stiff)'}; no gravity stiffness, no damping.</p>`;
    box.innerHTML = html;
    for (const b of box.querySelectorAll('.v-anim')) b.addEventListener('click', () => this.toggleAnimation(Number(b.dataset.mode)));
  }

  // ---------------------------------------------------------------- rigid-arm poles
  /** The rigid arm's poles at the current pose, at rest (the core's linearisation; the page only lists them). */
  _poles() {
    const s = this.studio;
    const m = s.model;
    const box = this.$('.v-lin');
    const zero = new Float64Array(m.dof);
    const motors = this.$('.v-lin-motors').checked;
    let lin;
    try {
      if (m.info.loop) {  // a closed chain: its own state model in its coordinates y (the open chain's is not the mechanism's)
        const zy = new Float64Array(m.closedChainCoordinates(s.q).length);
        lin = m.linearizeClosedChain(s.q, zy, zy, { motors });
      } else {
        lin = m.linearizeDynamics(s.q, zero, zero, { motors });
      }
    } catch (e) {
      box.innerHTML = `<p class="error-box">${escapeHtml(e.message)}</p>`;
      this._bode();
      return;
    }
    this.poles = lin.poles;
    this.$('.v-lin-which').textContent = m.info.loop
      ? 'Closed chain: poles in its own coordinates y (the kept joints, then the pin angle; model.linearizeClosedChain).'
      : '';
    const rows = lin.poles.map((p, k) => `<tr data-pole="${k}"><td>${k + 1}</td><td class="v-pole-re">${fmt(p.re, 4)}</td>`
      + `<td class="v-pole-im">${fmt(p.im, 4)}</td></tr>`).join('');
    box.innerHTML = `<table class="grid m-table v-pole-table"><tr><th>pole</th><th>real (1/s)</th><th>imaginary (rad/s)</th></tr>${rows}</table>`;
    this._bode();
  }

  /** The chosen joint's torque → angle frequency response at the pose (the core's; the page converts ω to Hz and draws). */
  _bode() {
    const s = this.studio;
    const m = s.model;
    const box = this.$('.v-bode-plot');
    this.bodePlot?.destroy();
    this.bodePlot = null;
    this.bode = null;
    box.replaceChildren();
    if (!this.active || !m) return;
    this.$('.v-bode-row').hidden = !!m.info.loop;  // no joint to choose where there is no plot
    if (m.info.loop) {  // the Bode plot is of one joint of an open chain
      box.innerHTML = '<p class="muted">No Bode plot for a closed chain: its joints do not move alone. Its poles are listed above.</p>';
      return;
    }
    const j = Math.min(Number(this.$('.v-bode-joint').value) || 0, m.dof - 1);
    const zero = new Float64Array(m.dof);
    let fr;
    try {
      fr = m.frequencyResponse(s.q, zero, zero, { input: j, motors: this.$('.v-lin-motors').checked });
    } catch (e) {
      box.innerHTML = `<p class="error-box">${escapeHtml(e.message)}</p>`;
      return;
    }
    this.bode = { joint: j, response: fr };
    const hz = Array.from(fr.omega, (w) => w / (2 * Math.PI));
    const marks = Array.from(fr.poleFrequencies, (w) => w / (2 * Math.PI));
    const unit = m.coordinates[j].angular ? 'rad/(N·m)' : 'm/N';  // the core's SI
    const el = document.createElement('div');
    el.className = 'chart';
    box.appendChild(el);
    const grid = { stroke: '#1e293b' };
    // the poles' natural frequencies |p|/2π as dashed vertical lines
    const poleLines = {
      hooks: {
        draw: [(u) => {
          const { ctx, bbox } = u;
          ctx.save();
          ctx.strokeStyle = '#94a3b8';
          ctx.setLineDash([4, 4]);
          ctx.lineWidth = 1;
          for (const f of marks) {
            const x = Math.round(u.valToPos(f, 'x', true)) + 0.5;
            if (x < bbox.left || x > bbox.left + bbox.width) continue;
            ctx.beginPath();
            ctx.moveTo(x, bbox.top);
            ctx.lineTo(x, bbox.top + bbox.height);
            ctx.stroke();
          }
          ctx.restore();
        }],
      },
    };
    const width = Math.max(220, (box.clientWidth || 300) - 4);
    this.bodePlot = new uPlot({
      title: `Bode τ${j + 1} → q${j + 1} (dashed: poles)`,
      width, height: 220, legend: { show: true, live: false }, plugins: [poleLines],
      scales: {
        x: { time: false, distr: 3, log: 10, range: (u, lo, hi) => [lo, hi] },  // the core's grid, not whole decades
        db: { auto: true },
        // the phase on whole quarter turns (a little margin: a line at 0° or −180° stays off the frame), at least half
        // a turn tall (a constant phase is a line in the middle)
        deg: { range: (u, lo, hi) => { const a = 90 * Math.floor(lo / 90), b = 90 * Math.ceil(hi / 90); return b - a < 180 ? [a - 90, b + 90] : [a - 20, b + 20]; } },
      },
      axes: [
        { stroke: '#94a3b8', grid, ticks: { stroke: '#1e293b' }, label: 'f (Hz)', labelSize: 14, size: 32, space: 40 },
        { scale: 'db', stroke: '#60a5fa', grid, size: 44, space: 22 },
        { scale: 'deg', side: 1, stroke: '#f472b6', grid: { show: false }, size: 44, space: 22, incrs: [45, 90, 180, 360, 720] },
      ],
      series: [{}, { label: `|G| dB re 1 ${unit}`, scale: 'db', stroke: '#60a5fa', width: 1.5 },
        { label: 'phase °', scale: 'deg', stroke: '#f472b6', width: 1.5 }],
    }, [hz, Array.from(fr.magnitudeDb), Array.from(fr.phaseDeg)], el);
  }

  // ---------------------------------------------------------------- animation
  toggleAnimation(k) {
    if (this.anim?.mode === k) { this.stopAnimation(true); return; }
    this.stopAnimation(true);
    if (!this.modes) return;
    const n = this.studio.model.dof;
    const phi = this.modes.shapes[k].subarray(0, n);
    let big = 0;
    for (const v of phi) big = Math.max(big, Math.abs(v));
    if (!(big > 0)) return;
    this.anim = { mode: k, q0: Float64Array.from(this.studio.q), phi: Float64Array.from(phi, (v) => v / big), time: 0 };
    this._animButtons();
  }

  stopAnimation(restore) {
    const a = this.anim;
    this.anim = null;
    if (a && restore) this.studio.setQ(a.q0, this);
    this._animButtons();
  }

  _animButtons() {
    for (const b of this.$('.v-modes').querySelectorAll('.v-anim')) {
      const on = this.anim?.mode === Number(b.dataset.mode);
      b.textContent = on ? '■' : '▶';
      b.classList.toggle('primary', on);
    }
  }

  _tick(dt) {
    const a = this.anim;
    if (!a || !this.active) return;
    a.time += dt;
    const amp = Number(this.$('.v-amp').value) * Math.PI / 180 * Math.sin(2 * Math.PI * ANIMATION_HZ * a.time);
    this.studio.setQ(Float64Array.from(a.q0, (v, i) => v + amp * a.phi[i]), this);
  }

  // ---------------------------------------------------------------- trajectory check (worker)
  check() {
    const s = this.studio;
    this.cancel();
    let flex;
    try { flex = this._flex(); this._error(null); } catch (e) { this._error(e.message); return null; }
    const id = ++this.checkId;
    const options = { profile: 'trapezoid', stiffness: Array.from(flex.stiffness), damping: Array.from(flex.damping), shaper: 'all', traceSamples: TRACE_SAMPLES, samples: PATH_SAMPLES };
    const wf = this.$('.v-wf').value, zeta = this.$('.v-zeta').value;
    if (wf !== '') options.shaperFrequency = Number(wf);
    if (zeta !== '') options.shaperDamping = Number(zeta);
    this.worker = new Worker(new URL('../workers/flexcheck.worker.js', import.meta.url), { type: 'module' });
    this.$('.v-check').disabled = true;
    this.$('.v-cancel').disabled = false;
    this.$('.v-progress').hidden = false;
    this.$('.v-status').textContent = 'checking… (three simulations in a Web Worker)';
    const t0 = performance.now();
    return new Promise((resolve) => {
      this.worker.onmessage = (e) => {
        const msg = e.data;
        if (msg.id !== id) return;
        this._endCheck();
        if (msg.type === 'error') { this.$('.v-status').textContent = ''; this._error(`trajectory check: ${msg.message}`); resolve(null); return; }
        this.result = msg.result;
        this.timing = { core: msg.ms, total: performance.now() - t0 };
        this.$('.v-status').textContent = `checked in ${fmt(msg.ms / 1000, 2)} s in the worker (${msg.result.results.map((r) => r.steps).join(' + ')} steps of ${fmt(msg.result.results[0].dt * 1000, 3)} ms); results and plots below the arm`;
        this._plot();
        resolve(this.result);
      };
      this.worker.onerror = (e) => { this._endCheck(); this._error(`trajectory check: ${e.message || 'the worker failed'}`); resolve(null); };
      this.worker.postMessage({ type: 'start', id, model: s.model.modelToJson(), from: Array.from(this.move.from), to: Array.from(this.move.to), options });
    });
  }

  cancel() {
    if (!this.worker) return;
    const busy = this.$('.v-check').disabled;  // disabled while a check runs
    this._endCheck();
    if (busy) this.$('.v-status').textContent = 'cancelled';
  }

  _endCheck() {
    this.worker?.terminate();
    this.worker = null;
    this.$('.v-check').disabled = false;
    this.$('.v-cancel').disabled = true;
    this.$('.v-progress').hidden = true;
  }

  /** The check's results table (in the plot dock, which has the width for it). */
  _resultsTable() {
    const r = this.result;
    const u = this.studio.units;
    const f = lengthFactor(u);
    const L = u.length;
    const d = u.length === 'mm' ? 3 : u.length === 'in' ? 4 : 6;
    const box = document.createElement('div');
    box.className = 'v-results';
    box.dataset.testid = 'vibration-results';
    let html = `<p>First locked-motor frequency along the path <b>${fmt(r.firstFrequency.min, 2)}–${fmt(r.firstFrequency.max, 2)} Hz</b> (end ${fmt(r.firstFrequency.end, 2)} Hz, ζ ${fmt(r.firstDampingRatioEnd, 4)}); shapers at ${fmt(r.shaperFrequencyHz, 3)} Hz, ζ ${fmt(r.shaperDampingRatio, 4)}.
      Residual: the largest tip motion about the static equilibrium after the move; peak tip error: |p(q) − p(θ)| over the run (deflection and sag).</p>`;
    html += `<table class="grid m-table v-check-table"><tr><th></th><th>duration s</th><th title="95 % of the joint-acceleration energy below">bandwidth Hz</th><th title="bandwidth / lowest first frequency">ratio</th>`
      + `<th>peak tip error ${L}</th><th>static sag ${L}</th><th>residual vibration ${L}</th><th>reduction</th></tr>`;
    for (const row of r.results) {
      const [, name, colour] = SHAPERS.find(([k]) => k === row.shaper);
      html += `<tr data-shaper="${row.shaper}"><td><i class="v-swatch" style="background:${colour}"></i>${name}</td><td>${fmt(row.duration, 3)}</td><td>${fmt(row.bandwidthHz, 2)}</td><td>${fmt(row.bandwidthRatio, 3)}</td>`
        + `<td>${fmt(row.peakTipError * f, d)}</td><td>${fmt(row.staticTipSag * f, d)}</td><td class="v-residual">${fmt(row.residualTipVibration * f, d)}</td><td>×${fmt(row.residualReduction, 1)}</td></tr>`;
    }
    box.innerHTML = `${html}</table>`;
    return box;
  }

  // ---------------------------------------------------------------- plots
  _plot() {
    for (const p of this.plots) p.destroy();
    this.plots = [];
    this.dock.replaceChildren();
    const sweepBox = this.$('.v-sweep-plot');
    sweepBox.replaceChildren();
    const r = this.result;
    // the dock (under the arm) holds the check's table and plots, so it is shown once there is a check; the sweep
    // lives in the side panel, leaving the arm in full view for the mode animation
    this._showDock(!!(this.active && this.modes && r));
    if (!this.active || !this.modes) return;
    const axis = (label) => ({ stroke: '#94a3b8', grid: { stroke: '#1e293b' }, label, labelSize: 14, size: 32 });
    const yaxis = { stroke: '#94a3b8', grid: { stroke: '#1e293b' }, size: 48, space: 22 };
    const chart = (parent, width, height, title, data, series, xlabel, testid) => {
      const el = document.createElement('div');
      el.className = 'chart';
      el.dataset.testid = testid;
      parent.appendChild(el);
      this.plots.push(new uPlot({
        title, width, height, legend: { show: true, live: false }, scales: { x: { time: false } },
        axes: [axis(xlabel), yaxis], series: [{}, ...series],
      }, data, el));
    };
    const u = this.studio.units;
    if (r) {
      const width = Math.max(240, Math.floor((this.dock.clientWidth || this.studio.els.viewport.clientWidth) / 2) - 16);
      this.dock.appendChild(this._resultsTable());
      const f = lengthFactor(u);
      // the traces share t = 0 but end at different times (the shaped moves are longer): one x grid per plot,
      // the union of the sample times, each trace null where it has no sample
      const times = [...new Set(r.results.flatMap((row) => Array.from(row.trace.t)))].sort((a, b) => a - b);
      const at = new Map(times.map((t, i) => [t, i]));
      const ys = r.results.map((row) => {
        const y = new Array(times.length).fill(null);
        row.trace.t.forEach((t, k) => { y[at.get(t)] = row.trace.tipError[k] * f; });
        return y;
      });
      chart(this.dock, width, 190, `tip error |p(q) − p(θ)| (${u.length}); unshaped move ends ${fmt(r.plan.duration, 3)} s`, [times, ...ys],
        r.results.map((row) => { const [, label, stroke] = SHAPERS.find(([k]) => k === row.shaper); return { label, stroke, width: 1.5, spanGaps: true }; }),
        't (s)', 'vibration-tip-error');
      chart(this.dock, width, 190, 'first frequency along the unshaped move (Hz, motors locked)', [Array.from(r.firstFrequency.t), Array.from(r.firstFrequency.hz)],
        [{ label: 'f₁ (Hz)', stroke: '#60a5fa', width: 1.5, points: { show: true, size: 4 } }], 't (s)', 'vibration-path-frequency');
    }
    const panelWidth = Math.max(220, (sweepBox.clientWidth || 300) - 4);
    this._sweepPlot((...args) => chart(sweepBox, panelWidth, 170, ...args));
  }

  /** The lowest frequencies across the chosen joint's range, the other joints as posed (the core at 41 poses). */
  _sweepPlot(add) {
    const s = this.studio;
    const m = s.model;
    const j = Math.min(Number(this.$('.v-sweep').value) || 0, m.dof - 1);
    const c = m.coordinates[j];
    const lo = c.lower ?? -Math.PI, hi = c.upper ?? Math.PI;
    const N = 41;
    const x = [];
    const count = Math.min(m.dof, 3);
    const ys = Array.from({ length: count }, () => []);
    let flex;
    try { flex = { ...this._flex(), motor: this.$('.v-free').checked ? 'free' : 'locked' }; } catch { return; }
    const q = Float64Array.from(s.q);
    const rigid = flex.motor === 'free' ? m.dof : 0;
    for (let k = 0; k < N; k++) {
      q[j] = lo + (hi - lo) * k / (N - 1);
      const r = m.jointFlexibilityModes(q, flex);
      x.push(jointToDisplay(c, q[j], s.units));
      for (let i = 0; i < count; i++) ys[i].push(r.frequencyHz[rigid + i]);
    }
    add(`lowest frequencies across q${j + 1} (Hz)`, [x, ...ys],
      ys.map((_, i) => ({ label: `f${i + 1}`, stroke: MODE_COLOURS[i], width: 1.5 })), `q${j + 1} (${jointUnitLabel(c, s.units)})`, 'vibration-sweep');
  }
}
