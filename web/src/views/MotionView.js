// MotionView: plan a joint-space trajectory with the core (model.planJointPath: trapezoid, cubic,
// quintic, septic, spline through via points), animate it, and plot position, velocity, acceleration,
// torque against the limits, power and work (model.analyzeTrajectory, RNEA with the chosen leg model).
// The torque breakdown (inertial / velocity / gravity) uses the dynamics area's inverse dynamics when
// present. Plots: uPlot, in a dock over the 3D view.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { fmt, jointToDisplay, jointFromDisplay, jointUnitLabel, lengthFactor } from '../lib/units.js';
import { escapeHtml } from '../ui/html.js';
import { defaultMove } from '../lib/plans.js';

const COLOURS = ['#60a5fa', '#f472b6', '#4ade80', '#facc15', '#fb923c', '#a78bfa', '#22d3ee', '#f87171'];
const INLBF = 0.112984829; // N·m per in·lbf

function column(flat, dof, j) {
  const N = flat.length / dof;
  const out = new Float64Array(N);
  for (let k = 0; k < N; k++) out[k] = flat[k * dof + j];
  return out;
}

/** Colour key of the per-joint plot lines (uPlot's own legends are off to save room). */
function plotKey(joints) {
  const key = document.createElement('div');
  key.className = 'plot-key';
  joints.forEach((j, i) => {
    const item = document.createElement('span');
    const sw = document.createElement('i');
    sw.style.background = COLOURS[i % COLOURS.length];
    item.append(sw, `q${i + 1} ${j.name}`);
    key.appendChild(item);
  });
  const note = document.createElement('span');
  note.className = 'muted';
  note.textContent = 'dashed: limits · orange line: time shown on the arm';
  key.appendChild(note);
  return key;
}

/** Playback speeds: the move's time per wall-clock second. */
const PLAYBACK_RATES = [0.1, 0.25, 0.5, 1, 2, 4];

export class MotionView {
  constructor() { this.id = 'motion'; this.title = 'Motion'; this.key = '3'; }

  mount(panel, studio) {
    this.studio = studio;
    this.plots = [];
    panel.innerHTML = `
      <h3>Trajectory</h3>
      <div class="m-ui">
        <p class="hint m-joint-only">Joint-space move from <b>start</b> through optional via points to <b>goal</b> (joint values in display units).
        The defaults for the prototype are the thesis's trapezoid, 60° → 300° on every joint.</p>
        <div class="row"><label>path <select class="m-mode" aria-label="path kind">
          <option value="joint">joint space</option><option value="cart-line">Cartesian line</option><option value="cart-arc">Cartesian arc</option></select></label></div>
        <label class="m-lab">start <input type="text" class="m-from" aria-label="start configuration"></label>
        <div class="row"><button type="button" class="m-from-cur">start = current pose</button><button type="button" class="m-thesis">thesis move</button></div>
        <div class="m-joint-only">
          <div class="m-vias"></div>
          <div class="row"><button type="button" class="m-add-via">+ via = current pose</button></div>
          <label class="m-lab">goal <input type="text" class="m-to" aria-label="goal configuration"></label>
          <div class="row"><button type="button" class="m-to-cur">goal = current pose</button></div>
        </div>
        <div class="m-cart-only" hidden>
          <p class="hint">The tool moves on a straight line (or a circular arc through a via point) to the goal pose; the core
          solves IK along the path (position only for chains with fewer than six joints) and times it within the joint limits.
          Pose the arm in Teleoperate, then capture.</p>
          <div class="row"><button type="button" class="m-goal-cap">goal pose = current tool pose</button></div>
          <div class="m-goal muted"></div>
          <div class="row m-arc-only"><button type="button" class="m-arc-cap">arc via = current tool position</button></div>
          <div class="m-arc muted m-arc-only"></div>
          <div class="row"><label>tool speed <input type="number" class="m-speed" min="0.001" step="any" value="0.25" style="width:70px"> m/s</label></div>
        </div>
        <div class="row m-joint-only">
          <label>profile <select class="m-profile" aria-label="profile">
            <option value="trapezoid">trapezoid</option><option value="cubic">cubic</option><option value="quintic">quintic</option>
            <option value="septic">septic</option><option value="spline">spline (via points)</option></select></label>
          <label title="common switch times: a straight line in joint space"><input type="checkbox" class="m-sync"> sync</label>
        </div>
        <div class="row m-joint-only">
          <label>duration <input type="number" class="m-duration" min="0" step="0.1" placeholder="fastest" style="width:70px"> s</label>
          <label>speed ×<input type="number" class="m-vscale" min="0.01" max="1" step="0.05" value="1" style="width:72px"></label>
        </div>
        <div class="row">
          <label>legs <select class="m-legs" aria-label="leg model">
            <option value="full">full leg model</option><option value="lumped">lumped mass</option>
            <option value="massless">massless legs</option><option value="potential">potential energy only</option></select></label>
          <label title="slow the move until every torque is within the effort limits" class="m-joint-only"><input type="checkbox" class="m-tlim"> torque limits</label>
        </div>
        <div class="row"><label>breakdown of <select class="m-bj" aria-label="joint of the torque breakdown"></select></label></div>
        <div class="row"><button type="button" class="m-plan primary">Plan &amp; plot</button>
          <button type="button" class="m-export" disabled>Export JSON</button></div>
        <div class="row"><button type="button" class="m-csv" disabled title="t, q, q̇ per joint in the display units">Export CSV</button>
          <button type="button" class="m-png" disabled title="the plots as one PNG image">Plots as PNG</button></div>
        <div class="row m-playback" title="play, pause, step and scrub the planned move or the simulation's recording">
          <button type="button" class="m-play" disabled>▶ Play</button>
          <button type="button" class="m-step-back" disabled title="one sample back" aria-label="step back">◀❙</button>
          <button type="button" class="m-step" disabled title="one sample forward" aria-label="step forward">❙▶</button>
          <label>speed <select class="m-rate" aria-label="playback speed">${PLAYBACK_RATES.map((r) => `<option value="${r}"${r === 1 ? ' selected' : ''}>×${r}</option>`).join('')}</select></label>
          <span class="m-time muted" aria-live="off"></span></div>
        <input type="range" class="m-scrub" min="0" max="1" step="any" value="0" disabled aria-label="time">
        <div class="m-error error-box" hidden></div>
        <div class="m-summary"></div>
      </div>
      <h3>Simulation</h3>
      <div class="s-ui">
        <p class="hint">Let go from the current pose: the core integrates the forward dynamics with zero joint torque
        (gravity and the leg model only) in a Web Worker.</p>
        <p class="hint s-contact"><b>Joint-limit stops, no floor:</b> with <i>limit stops</i> on, a joint past its limit meets the
        core's spring–damper (20 Hz, critically damped; it sinks in a little, see the dynamics docs); off, the arm swings through its
        limits. There is no floor and no self-collision: the links pass through the ground.</p>
        <div class="row">
          <label title="the core's joint-limit spring–dampers (DynamicsOptions::limit_stops)"><input type="checkbox" class="s-stops" checked> limit stops</label>
          <label>time <input type="number" class="s-duration" min="0.01" step="any" value="2" style="width:72px"> s</label>
          <label>dt <input type="number" class="s-dt" min="0.00001" step="any" value="0.001" style="width:70px"> s</label>
          <label><select class="s-int" aria-label="integrator"><option value="rk4">RK4</option><option value="euler">Euler</option></select></label>
        </div>
        <div class="row"><button type="button" class="s-run">Simulate</button><button type="button" class="s-cancel" disabled>Cancel</button></div>
        <progress class="s-progress" max="1" value="0"></progress>
        <div class="s-status muted"></div>
      </div>`;
    this.$ = (s) => panel.querySelector(s);
    this.panelEl = panel;
    // the plot dock lives over the viewport, shown only in this view
    this.dock = document.createElement('div');
    this.dock.className = 'dock';
    this.dock.hidden = true;
    this.dock.dataset.testid = 'motion-plots';
    studio.els.viewport.appendChild(this.dock);

    this.vias = [];
    this.$('.m-from-cur').addEventListener('click', () => { this.$('.m-from').value = this._fmtQ(studio.q); });
    this.$('.m-to-cur').addEventListener('click', () => { this.$('.m-to').value = this._fmtQ(studio.q); });
    this.$('.m-thesis').addEventListener('click', () => this._defaults(true));
    this.$('.m-add-via').addEventListener('click', () => { this.vias.push(Float64Array.from(studio.q)); this._renderVias(); this.$('.m-profile').value = 'spline'; });
    this.$('.m-plan').addEventListener('click', () => this.plan());
    this.$('.m-play').addEventListener('click', () => this.togglePlay());
    this.$('.m-step').addEventListener('click', () => this.step(1));
    this.$('.m-step-back').addEventListener('click', () => this.step(-1));
    this.$('.m-rate').addEventListener('change', () => { this.rate = Number(this.$('.m-rate').value) || 1; });
    this.rate = 1;
    this.$('.m-export').addEventListener('click', () => this.exportJson());
    this.$('.m-csv').addEventListener('click', () => this._download(new Blob([this.csv()], { type: 'text/csv' }), 'trajectory.csv'));
    this.$('.m-png').addEventListener('click', () => this.plotsPng().toBlob((b) => this._download(b, 'plots.png')));
    this.$('.m-scrub').addEventListener('input', () => { this.playing = false; this._setTime(Number(this.$('.m-scrub').value) * (this.traj?.duration ?? 0)); this._playLabel(); });
    this.$('.m-legs').addEventListener('change', () => { if (this.traj) this.analyze(); });
    this.$('.m-bj').addEventListener('change', () => { if (this.traj) this._plot(); });
    this.$('.m-mode').addEventListener('change', () => this._mode());
    this.$('.m-goal-cap').addEventListener('click', () => {
      this.goalT = Float64Array.from(studio.lastFk.tool);
      const f = lengthFactor(studio.units);
      this.$('.m-goal').textContent = `goal: p = (${[3, 7, 11].map((k) => fmt(this.goalT[k] * f, studio.units.length === 'mm' ? 1 : 3)).join(', ')}) ${studio.units.length}`;
    });
    this.$('.m-arc-cap').addEventListener('click', () => {
      const T = studio.lastFk.tool;
      this.arcVia = Float64Array.of(T[3], T[7], T[11]);
      const f = lengthFactor(studio.units);
      this.$('.m-arc').textContent = `arc via: (${Array.from(this.arcVia, (v) => fmt(v * f, studio.units.length === 'mm' ? 1 : 3)).join(', ')}) ${studio.units.length}`;
    });
    studio.viewport.onFrame((dt) => this._tick(dt));
    this.simId = 0;
    this.$('.s-run').addEventListener('click', () => this.simulate());
    this.$('.s-cancel').addEventListener('click', () => this.cancelSimulation());

    studio.onModel((m) => {
      this.vias = [];
      this._renderVias();
      this._clear();
      this._defaults(false);
      this.$('.m-mode').value = 'joint';
      this._mode();
      this.cancelSimulation();
      this.$('.s-status').textContent = '';
      this.$('.s-progress').value = 0;
      this.$('.m-error').hidden = true;
      const sel = this.$('.m-bj');
      sel.replaceChildren(...m.coordinates.map((j, i) => new Option(`q${i + 1} ${j.name}`, String(i))));
      sel.value = String(Math.min(1, m.dof - 1));
    });
    studio.addEventListener('units', () => { this._defaults(false, true); if (this.traj) this._plot(); });
  }

  activate() { this.active = true; this._showDock(!!this.traj); this._resizePlots(); }
  deactivate() { this._showDock(false); this.active = false; this.playing = false; this._playLabel(); }

  _showDock(on) {
    this.dock.hidden = !on;
    this.studio.viewport.setBottomInset(on ? 0.47 : 0);
  }

  _fmtQ(q) {
    const s = this.studio;
    return Array.from(q, (v, i) => String(Number(jointToDisplay(s.model.coordinates[i], v, s.units).toPrecision(6)))).join(', ');
  }

  _parseQ(text, what) {
    const m = this.studio.model;
    const vals = text.split(/[,\s]+/).filter(Boolean).map(Number);
    if (vals.length !== m.dof || vals.some((v) => !Number.isFinite(v))) throw new Error(`${what}: expected ${m.dof} numbers (${m.coordinates.map((j) => jointUnitLabel(j, this.studio.units)).join(', ')})`);
    return Float64Array.from(vals, (v, i) => jointFromDisplay(m.coordinates[i], v, this.studio.units));
  }

  /** Start/goal defaults: the robot file's default move (the thesis's 60° → 300° for the prototype), else 25 % → 75 % of each range; forced: limit to limit. */
  _defaults(force, keep = false) {
    const s = this.studio;
    const m = s.model;
    if (!m) return;
    if (keep && this._from && this._to) { this.$('.m-from').value = this._fmtQ(this._from); this.$('.m-to').value = this._fmtQ(this._to); return; }
    const { from, to } = defaultMove(m, { limits: !!force });
    this._from = from; this._to = to;
    this.$('.m-from').value = this._fmtQ(from);
    this.$('.m-to').value = this._fmtQ(to);
    if (force) { this.$('.m-profile').value = 'trapezoid'; this.$('.m-sync').checked = false; this.$('.m-duration').value = ''; this.$('.m-vscale').value = '1'; this.vias = []; this._renderVias(); }
  }

  _renderVias() {
    const box = this.$('.m-vias');
    box.replaceChildren();
    this.vias.forEach((v, k) => {
      const row = document.createElement('div');
      row.className = 'row';
      const t = document.createElement('span');
      t.className = 'muted';
      t.textContent = `via ${k + 1}: ${this._fmtQ(v)}`;
      const del = document.createElement('button');
      del.type = 'button';
      del.textContent = '✕';
      del.addEventListener('click', () => { this.vias.splice(k, 1); this._renderVias(); });
      row.append(t, del);
      box.appendChild(row);
    });
  }

  _mode() {
    const mode = this.$('.m-mode').value;
    const cart = mode !== 'joint';
    for (const el of this.panelEl.querySelectorAll('.m-joint-only')) el.hidden = cart;
    for (const el of this.panelEl.querySelectorAll('.m-cart-only')) el.hidden = !cart;
    for (const el of this.panelEl.querySelectorAll('.m-arc-only')) el.hidden = mode !== 'cart-arc';
  }

  /** Plans with the core; shows the core's error message on bad input. */
  plan() {
    const err = this.$('.m-error');
    err.hidden = true;
    try {
      const from = this._parseQ(this.$('.m-from').value, 'start');
      const mode = this.$('.m-mode').value;
      this.traj = mode === 'joint' ? this._planJoint(from) : this._planCartesian(from, mode === 'cart-arc' ? 'arc' : 'line');
      this._started();
      return this.traj;
    } catch (e) {
      err.hidden = false;
      err.textContent = e.message;
      return null;
    }
  }

  _planJoint(from) {
    const to = this._parseQ(this.$('.m-to').value, 'goal');
    this._from = from; this._to = to;
    const opts = {
      profile: this.$('.m-profile').value,
      sync: this.$('.m-sync').checked,
      velocityScale: Number(this.$('.m-vscale').value) || 1,
      torqueLimits: this.$('.m-tlim').checked,
      legs: this.$('.m-legs').value,
    };
    const dur = Number(this.$('.m-duration').value);
    if (this.$('.m-duration').value !== '' && dur > 0) opts.duration = dur;
    if (this.vias.length) opts.via = this.vias;
    if (opts.profile === 'spline' && !this.vias.length) opts.profile = 'quintic';
    return this.studio.model.planJointPath(from, to, opts);
  }

  _planCartesian(from, kind) {
    if (!this.goalT) throw new Error('goal pose: capture one with "goal pose = current tool pose"');
    if (kind === 'arc' && !this.arcVia) throw new Error('arc via: capture a point with "arc via = current tool position"');
    const opts = { kind, speed: Number(this.$('.m-speed').value) || 0.25, legs: this.$('.m-legs').value };
    if (kind === 'arc') opts.arcVia = this.arcVia;
    return this.studio.model.planCartesianPath(from, this.goalT, opts);
  }

  _started() {
    this.analyze();
    this._startPlayback(true);
  }

  /** Rewinds to t = 0 and plays, with play and scrub enabled (export only for a planned trajectory). */
  _startPlayback(exportable) {
    this.time = 0;
    for (const c of ['.m-play', '.m-step', '.m-step-back']) this.$(c).disabled = false;
    this.$('.m-export').disabled = !exportable;
    this.$('.m-csv').disabled = false;
    this.$('.m-png').disabled = false;
    this.$('.m-scrub').disabled = false;
    this._setTime(0);
    this.playing = true;
    this._playLabel();
  }

  analyze() {
    const s = this.studio;
    const m = s.model;
    try {
      this.analysis = m.analyzeTrajectory(this.traj, { legs: this.$('.m-legs').value });
    } catch (e) {
      this.analysis = null;
      const err = this.$('.m-error');
      err.hidden = false;
      err.textContent = `torque analysis: ${e.message}`;
    }
    this.breakdown = this._breakdown();
    this._summary();
    this._plot();
  }

  /** The core's torque breakdown (model.torqueBreakdown) at every sample, for the chosen leg model. */
  _breakdown() {
    const m = this.studio.model;
    const { q, qd, qdd, samples } = this.traj;
    const n = m.dof;
    const keys = ['total', 'inertial', 'velocity', 'gravity', 'translational', 'rotational'];
    const out = Object.fromEntries(keys.map((k) => [k, new Float64Array(samples * n)]));
    const legs = this.$('.m-legs').value;
    try {
      for (let k = 0; k < samples; k++) {
        const b = m.torqueBreakdown(q.subarray(k * n, (k + 1) * n), qd.subarray(k * n, (k + 1) * n), qdd.subarray(k * n, (k + 1) * n), { legs });
        for (const key of keys) out[key].set(b[key], k * n);
      }
    } catch { return null; }
    return out;
  }

  _summary() {
    const box = this.$('.m-summary');
    const tr = this.traj;
    const a = this.analysis;
    const m = this.studio.model;
    let html = `<p><b>${escapeHtml(tr.profile)}</b>, ${tr.samples} samples, duration <b>${fmt(tr.duration, 4)} s</b>, continuous up to ${['position', 'velocity', 'acceleration', 'jerk'][tr.continuity] ?? tr.continuity}.`;
    if (tr.cartesian) html += ` Cartesian ${tr.profile}: ${fmt(tr.cartesian.length * 1000, 1)} mm, largest IK error ${fmt(tr.cartesian.maxIkError * 1000, 4)} mm, largest deviation from the ideal path ${fmt(tr.cartesian.maxDeviation * 1000, 3)} mm${tr.cartesian.positionOnly ? ' (position only)' : ''}.`;
    if (tr.torqueScaling && tr.torqueScaling.factor > 1) html += ` Slowed ×${fmt(tr.torqueScaling.factor, 3)} for the torque limit of q${tr.torqueScaling.joint + 1}.`;
    html += '</p>';
    if (a) {
      html += `<table class="grid m-table"><tr><th>joint</th><th>peak |τ| N·m</th><th>of limit</th><th>work J</th><th>work in·lbf</th></tr>`;
      m.coordinates.forEach((j, i) => {
        const ratio = a.effortRatio[i];
        html += `<tr><td>q${i + 1} ${escapeHtml(j.name)}</td><td>${fmt(a.peakTau[i], 3)}</td><td${ratio > 1 ? ' style="color:var(--bad)"' : ''}>${ratio > 0 ? `${fmt(100 * ratio, 1)} %` : '—'}</td><td>${fmt(a.work[i], 3)}</td><td>${fmt(a.work[i] / INLBF, 2)}</td></tr>`;
      });
      html += `<tr><td><b>total</b></td><td></td><td></td><td><b>${fmt(a.totalWork, 3)}</b></td><td><b>${fmt(a.totalWork / INLBF, 2)}</b></td></tr></table>`;
      html += a.withinEffort ? '<p class="ok-box">All torques within the effort limits.</p>' : '<p style="color:var(--warn)">Some torques exceed the effort limits (see the torque plot).</p>';
    }
    box.innerHTML = html;
  }

  // ---------------------------------------------------------------- plots
  _clear() {
    for (const p of this.plots) p.destroy();
    this.plots = [];
    this.dock.replaceChildren();
    this._showDock(false);
    this.traj = null;
    this.analysis = null;
    this.$('.m-summary').replaceChildren();
    for (const c of ['.m-play', '.m-step', '.m-step-back']) this.$(c).disabled = true;
    this.$('.m-time').textContent = '';
    this.$('.m-export').disabled = true;
    this.$('.m-csv').disabled = true;
    this.$('.m-png').disabled = true;
    this.$('.m-scrub').disabled = true;
    this.playing = false;
    this._playLabel();
  }

  _plot() {
    for (const p of this.plots) p.destroy();
    this.plots = [];
    this.dock.replaceChildren();
    this._showDock(!!this.active);
    const s = this.studio;
    const m = s.model;
    const n = m.dof;
    const tr = this.traj;
    const t = Array.from(tr.t);
    const conv = (i) => jointToDisplay(m.coordinates[i], 1, s.units);
    const lab = (i, suffix) => `${jointUnitLabel(m.coordinates[i], s.units)}${suffix}`;
    const series = (flat, scale = conv) => Array.from({ length: n }, (_, i) => Array.from(column(flat, n, i), (v) => v * scale(i)));
    this.dock.appendChild(plotKey(m.coordinates));
    const charts = [
      { title: `position (${lab(0, '')})`, data: series(tr.q), unit: (i) => lab(i, '') },
      { title: `velocity (${lab(0, '/s')})`, data: series(tr.qd), limit: (j) => j.velocity, unit: (i) => lab(i, '/s') },
    ];
    if (tr.energy) {
      const e0 = tr.energy[0];
      charts.push({ title: `total energy − E(0) (J): ${tr.limitStops ? 'change (limit stops absorb energy)' : 'drift'} ${fmt(tr.energy[tr.energy.length - 1] - e0, 6)} J`, data: [Array.from(tr.energy, (v) => v - e0)], labels: ['energy'], colours: ['#f97316'], dashed: [], unit: () => 'J' });
    }
    if (tr.qdd) charts.push({ title: `acceleration (${lab(0, '/s²')})`, data: series(tr.qdd), limit: (j) => j.acceleration, unit: (i) => lab(i, '/s²') });
    if (this.analysis) {
      charts.push({ title: 'torque (N·m) — dashed: effort limits', data: series(this.analysis.tau, () => 1), limit: (j) => j.effort, limitScale: () => 1, unit: (i) => (m.coordinates[i].angular ? 'N·m' : 'N') });
      charts.push({ title: `power (W) — total work ${fmt(this.analysis.totalWork, 3)} J`, data: series(this.analysis.power, () => 1), unit: () => 'W' });
    }
    if (this.breakdown) {
      const j = Math.min(Number(this.$('.m-bj').value) || 0, n - 1);
      const parts = [['total', 'total', '#e2e8f0'], ['inertial', 'inertial M·q̈', '#60a5fa'], ['velocity', 'velocity C·q̇', '#facc15'],
        ['gravity', 'gravity g', '#4ade80'], ['translational', "Lee: translational", '#f472b6'], ['rotational', "Lee: rotational", '#fb923c']];
      charts.push({
        title: `torque breakdown of q${j + 1} ${m.coordinates[j].name} (N·m)`,
        data: parts.map(([k]) => Array.from(column(this.breakdown[k], n, j))),
        labels: parts.map(([, l]) => l), colours: parts.map(([, , c]) => c), dashed: [4, 5], legend: true,
        unit: () => (m.coordinates[j].angular ? 'N·m' : 'N'),
      });
    }
    const width = Math.max(240, Math.floor((this.dock.clientWidth || s.els.viewport.clientWidth) / 2) - 16);
    for (const c of charts) {
      const el = document.createElement('div');
      el.className = 'chart';
      this.dock.appendChild(el);
      const data = [t, ...c.data];
      const ser = c.labels
        ? [{}, ...c.labels.map((l, i) => ({ label: l, stroke: c.colours[i], width: 1.5, dash: c.dashed.includes(i) ? [6, 4] : undefined }))]
        : [{}, ...m.coordinates.map((j, i) => ({ label: `q${i + 1}`, stroke: COLOURS[i % COLOURS.length], width: 1.5 }))];
      if (c.limit) {
        m.coordinates.forEach((j, i) => {
          const L = c.limit(j);
          if (L == null || !Number.isFinite(L)) return;
          const f = c.limitScale ? c.limitScale(i) : conv(i);
          for (const sign of [1, -1]) {
            data.push(t.map(() => sign * L * f));
            ser.push({ label: sign > 0 ? `+lim q${i + 1}` : `−lim q${i + 1}`, stroke: COLOURS[i % COLOURS.length], width: 1, dash: [5, 5], show: true });
          }
        });
      }
      // hover readout: the time and every line's value with its unit at the cursor (synchronised across plots)
      const hover = document.createElement('div');
      hover.className = 'chart-hover';
      const lines = c.data.length;
      const hoverText = (u) => {
        const k = u.cursor.idx;
        if (k == null || k < 0) { hover.textContent = '\u00a0'; return; }
        hover.textContent = [`t ${fmt(u.data[0][k], 3)} s`,
          ...ser.slice(1, 1 + lines).map((sr, i) => { const un = c.unit ? c.unit(i) : ''; return `${sr.label} ${fmt(u.data[i + 1][k], 3)}${un.startsWith('°') || !un ? '' : ' '}${un}`; })].join(' · ');
      };
      hover.textContent = '\u00a0';
      const opts = {
        title: c.title, width, height: 170,
        cursor: { sync: { key: 'achain-motion' } },
        legend: { show: !!c.legend, live: false },
        scales: { x: { time: false } },
        axes: [
          { stroke: '#94a3b8', grid: { stroke: '#1e293b' }, label: 't (s)', labelSize: 14, size: 32 },
          { stroke: '#94a3b8', grid: { stroke: '#1e293b' }, size: 70, space: 22, values: (u, vals) => vals.map((v) => (Math.abs(v) >= 1000 ? `${+(v / 1000).toPrecision(3)}k` : String(+v.toPrecision(4)))) },
        ],
        series: ser,
        hooks: { setCursor: [(u) => { if (u.cursor.idx != null && u.cursor.event) this._hoverIdx = u.cursor.idx; hoverText(u); }] },
      };
      this.plots.push(new uPlot(opts, data, el));
      el.appendChild(hover);
    }
    this._cursorLine();
  }

  _resizePlots() {
    if (!this.plots.length) return;
    const width = Math.max(240, Math.floor(this.dock.clientWidth / 2) - 16);
    for (const p of this.plots) p.setSize({ width, height: 170 });
  }

  _cursorLine() {
    if (!this.traj) return;
    for (const p of this.plots) {
      const x = p.valToPos(this.time ?? 0, 'x');
      let line = p.over.querySelector('.tline');
      if (!line) { line = document.createElement('div'); line.className = 'tline'; p.over.appendChild(line); }
      line.style.left = `${x}px`;
    }
  }

  // ---------------------------------------------------------------- animation
  togglePlay() {
    if (!this.traj) return;
    if (!this.playing && this.time >= this.traj.duration) this.time = 0;
    this.playing = !this.playing;
    this._playLabel();
  }

  _playLabel() { this.$('.m-play').textContent = this.playing ? '❚❚ Pause' : '▶ Play'; }

  /** Pauses and moves k samples (of the plan or the simulation's recording) from the one shown. */
  step(k) {
    const tr = this.traj;
    if (!tr) return;
    this.playing = false;
    this._playLabel();
    this._setTime(tr.t[Math.max(0, Math.min(tr.samples - 1, (this.sample ?? 0) + k))]);
  }

  /** One animation frame of playback: dt of wall-clock time is dt × speed of the move's time. */
  _tick(dt) {
    if (!this.playing || !this.traj || !this.active) return;
    this.time = Math.min(this.traj.duration, (this.time ?? 0) + dt * this.rate);
    this._setTime(this.time);
    if (this.time >= this.traj.duration) { this.playing = false; this._playLabel(); }
  }

  /** Shows the sample nearest to time t (s) on the arm. */
  _setTime(t) {
    const tr = this.traj;
    if (!tr) return;
    this.time = t;
    const n = tr.dof;
    let k = Math.round((t / Math.max(tr.duration, 1e-9)) * (tr.samples - 1));
    while (k > 0 && tr.t[k] > t + 1e-12) k--;
    while (k < tr.samples - 1 && tr.t[k + 1] <= t) k++;
    this.sample = k;
    this.studio.setQ(tr.q.subarray(k * n, (k + 1) * n), this);
    this.$('.m-scrub').value = String(tr.duration > 0 ? t / tr.duration : 0);
    this.$('.m-time').textContent = `t = ${fmt(t, 3)} / ${fmt(tr.duration, 3)} s · sample ${k + 1} of ${tr.samples}`;
    this._cursorLine();
  }

  // ---------------------------------------------------------------- simulation (worker)
  simulate() {
    const s = this.studio;
    this.cancelSimulation();
    const id = ++this.simId;
    this.simWorker = new Worker(new URL('../workers/simulate.worker.js', import.meta.url), { type: 'module' });
    this.simulating = true;
    this.simProgress = [];
    this.$('.s-run').disabled = true;
    this.$('.s-cancel').disabled = false;
    this.$('.s-progress').value = 0;
    this.$('.s-status').textContent = 'simulating…';
    const t0 = performance.now();
    this.simWorker.onmessage = (e) => {
      const msg = e.data;
      if (msg.id !== id) return;
      if (msg.type === 'progress') { this.simProgress.push(msg.fraction); this.$('.s-progress').value = msg.fraction; return; }
      this._endSimulation();
      if (msg.type === 'error') { this.$('.s-status').textContent = msg.message; return; }
      const n = msg.dof;
      this.traj = { profile: 'simulation', simulated: true, t: msg.t, q: msg.q, qd: msg.qd, energy: msg.energy, limitStops: msg.limitStops, dof: n, samples: msg.t.length, duration: msg.t[msg.t.length - 1], continuity: 1 };
      this.analysis = null;
      this.breakdown = null;
      const drift = msg.energy[msg.energy.length - 1] - msg.energy[0];
      // without stops say when the motion passes the joint limits (the core's withinLimits per sample);
      // with stops the energy falls at each stop (the damper), so it is called a change, not a drift
      let passes = false;
      for (let k = 0; k < msg.t.length && !passes; k++) passes = !s.model.withinLimits(msg.q.slice(k * n, (k + 1) * n));
      const note = msg.limitStops
        ? `; energy change ${fmt(drift, 6)} J${passes ? ' (the limit stops absorb energy; a joint on a stop sinks in slightly)' : ''}`
        : `; energy drift ${fmt(drift, 6)} J${passes ? '; the arm passes its joint limits (limit stops off; no floor)' : ''}`;
      this.$('.s-status').textContent = `${msg.t.length} samples over ${fmt(this.traj.duration, 3)} s in ${fmt((performance.now() - t0) / 1000, 2)} s${note}`;
      this.$('.m-summary').replaceChildren();
      this._plot();
      this._startPlayback(false);
    };
    this.simWorker.onerror = (e) => { this._endSimulation(); this.$('.s-status').textContent = e.message || 'simulation worker failed'; };
    this.simWorker.postMessage({
      type: 'start', id, model: s.model.modelToJson(), q: Array.from(s.q), qd: new Array(s.model.dof).fill(0), tau: new Array(s.model.dof).fill(0),
      duration: Number(this.$('.s-duration').value) || 1, dt: Number(this.$('.s-dt').value) || 1e-3, every: 10,
      integrator: this.$('.s-int').value, legs: this.$('.m-legs').value, limitStops: this.$('.s-stops').checked,
    });
  }

  cancelSimulation() {
    if (!this.simWorker) return;
    const was = this.simulating;
    this._endSimulation();
    if (was) this.$('.s-status').textContent = 'cancelled';
  }

  _endSimulation() {
    this.simWorker?.terminate();
    this.simWorker = null;
    this.simulating = false;
    this.$('.s-run').disabled = false;
    this.$('.s-cancel').disabled = true;
  }

  exportJson() {
    const data = this.studio.model.trajectoryToJson(this.traj);
    this._download(new Blob([JSON.stringify(data)], { type: 'application/json' }), 'trajectory.json');
  }

  _download(blob, suffix) {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `${this.studio.model.name}-${suffix}`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  /** The trajectory as CSV: t (s), then q and q̇ of every joint in the display units (header names them). */
  csv() {
    const tr = this.traj;
    const s = this.studio;
    const n = tr.dof;
    const js = s.model.coordinates;
    const head = ['t (s)', ...js.map((j, i) => `q${i + 1} ${j.name} (${jointUnitLabel(j, s.units)})`),
      ...js.map((j, i) => `qd${i + 1} ${j.name} (${jointUnitLabel(j, s.units)}/s)`)];
    const rows = [head.map((h) => `"${h}"`).join(',')];
    for (let k = 0; k < tr.samples; k++) {
      const q = js.map((j, i) => jointToDisplay(j, tr.q[k * n + i], s.units));
      const qd = js.map((j, i) => jointToDisplay(j, tr.qd[k * n + i], s.units));
      rows.push([tr.t[k], ...q, ...qd].map((v) => String(Number(v.toPrecision(10)))).join(','));
    }
    return `${rows.join('\n')}\n`;
  }

  /** Every plot of the dock drawn into one canvas (two columns, as on the page). */
  plotsPng() {
    const cs = [...this.dock.querySelectorAll('.uplot canvas')];
    const r0 = this.dock.getBoundingClientRect();
    const out = document.createElement('canvas');
    const boxes = cs.map((c) => c.getBoundingClientRect());
    out.width = Math.max(1, ...boxes.map((b) => b.right - r0.left));
    out.height = Math.max(1, ...boxes.map((b) => b.bottom - r0.top + this.dock.scrollTop));
    const g = out.getContext('2d');
    g.fillStyle = '#0b1220';
    g.fillRect(0, 0, out.width, out.height);
    cs.forEach((c, i) => g.drawImage(c, boxes[i].left - r0.left, boxes[i].top - r0.top + this.dock.scrollTop, boxes[i].width, boxes[i].height));
    return out;
  }
}

