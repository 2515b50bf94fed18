// TeleopView: drag the tool with a TransformControls gizmo while the core's numeric IK
// (model.ikNumeric, seeded with the current q → continuous, no branch flips) follows every frame;
// joint sliders; all IK solutions as ghost arms (model.ikAll) with one click to switch;
// R-twin overlay, frames, joint-limit and singularity warnings.
import * as THREE from 'three';
import { JointSliders } from '../ui/JointSliders.js';
import { ChainView, matrixFromRowMajor } from '../three/ChainView.js';
import { DragIk, canHoldPose, rowMajorFromMatrix } from '../three/DragIk.js';
import { ANGULAR, DEG, fmt, jointToDisplay, jointUnitLabel, lengthFactor } from '../lib/units.js';
import { BatchIk } from '../ui/BatchIk.js';
import { LoopPanel } from '../ui/LoopPanel.js';

/** Solve all: solutions within this of one already shown (every joint, rad) are the same posture (the core's minSeparation). */
const DISTINCT_POSTURE = 20 * Math.PI / 180;
/** One colour per ghost arm: up to 16, the most a 6R arm has (general 6R). */
const GHOST_COLOURS = [0x22d3ee, 0xfacc15, 0x4ade80, 0xf472b6, 0xfb923c, 0x818cf8, 0xa3e635, 0xf87171,
  0x2dd4bf, 0xfde047, 0x86efac, 0xf9a8d4, 0xfdba74, 0xc4b5fd, 0xd9f99d, 0xfca5a5];

export { rowMajorFromMatrix };

/** An IkAllResult's solutions, inside the limits first, as many as there are ghost colours. */
function solutionList(res) {
  return [...res.solutions.map((x) => ({ ...x, inside: true })), ...res.outsideLimits.map((x) => ({ ...x, inside: false }))]
    .slice(0, GHOST_COLOURS.length);
}

export class TeleopView {
  constructor() { this.id = 'teleop'; this.title = 'Teleoperate'; this.key = '2'; }

  /** True while the user drags the gizmo. */
  get dragging() { return !!this.drag?.dragging; }

  mount(panel, studio) {
    this.studio = studio;
    this.ghosts = [];
    this.solveTimes = [];
    panel.innerHTML = `
      <h3 class="ik-head">Tool gizmo &amp; IK</h3>
      <p class="start-hint" hidden></p>
      <div class="ik-ui">
        <p class="hint">Drag an arrow (or the centre square) of the gizmo on the tool — the orange ball: the core's numeric IK moves the arm to follow, every frame, from the current pose. Keys: W move, E rotate; drag empty space to orbit the camera.</p>
        <div class="row">
          <button type="button" data-mode="translate" class="primary">Move (W)</button>
          <button type="button" data-mode="rotate">Rotate (E)</button>
          <label><input type="checkbox" class="gizmo-on" checked> gizmo</label>
          <label title="gizmo axes along the tool frame instead of the base frame"><input type="checkbox" class="gizmo-local"> tool axes</label>
        </div>
        <div class="row">
          <label>Goal <select class="goal">
            <option value="pose">full pose (6 equations)</option>
            <option value="position">position only</option>
            <option value="weighted">least squares, weighted orientation</option>
          </select></label>
        </div>
        <div class="goal-note muted" hidden></div>
        <div class="row weight-row" hidden><label>orientation weight <input type="range" class="ow" min="0" max="1" step="0.01" value="0.2"></label><span class="ow-val">0.20 m/rad</span></div>
        <div class="row jog" aria-label="Cartesian jog">jog
          <button type="button" data-jog="x-">−x</button><button type="button" data-jog="x+">+x</button>
          <button type="button" data-jog="y-">−y</button><button type="button" data-jog="y+">+y</button>
          <button type="button" data-jog="z-">−z</button><button type="button" data-jog="z+">+z</button>
        </div>
        <div class="row jog">
          <button type="button" data-jog="rx-">−rx</button><button type="button" data-jog="rx+">+rx</button>
          <button type="button" data-jog="ry-">−ry</button><button type="button" data-jog="ry+">+ry</button>
          <button type="button" data-jog="rz-">−rz</button><button type="button" data-jog="rz+">+rz</button>
          <label title="jog step: length unit for ±x/y/z, degrees for rotations">step <input type="number" class="jog-step" min="0" step="any" value="10" style="width:72px"></label><span class="jog-unit muted"></span>
        </div>
        <div class="ik-status muted">IK status: drag the gizmo to start</div>
      </div>
      <div class="loop-ui" hidden></div>
      <div class="joints-ui">
      <h3>Joints</h3>
      <div class="sliders"></div>
      <div class="row"><button type="button" class="home">Home (H)</button><button type="button" class="copy-q" title="copy the joint values (display units) to the clipboard">Copy q</button></div>
      </div>
      <h3>Display</h3>
      <div class="row">
        <label><input type="checkbox" class="twin"> R-twin overlay (T)</label>
        <label><input type="checkbox" class="frames" checked> frames (F)</label>
      </div>
      <div class="sing muted"></div>
      <h3 class="sol-head">All IK solutions</h3>
      <div class="sol-ui">
        <div class="row"><button type="button" class="solve-all">Solve all</button> for <select class="solve-of" title="the tool pose: every configuration with exactly this tool pose (the exact methods: closed form, general 6R, orientation sweep); the tool point: distinct postures that put the tool at this point (numeric multi-start)"><option value="pose">the tool pose</option><option value="point">the tool point</option></select><button type="button" class="clear-ghosts">Clear</button>
          <label title="while you drag the tool, every ghost arm is solved again for the new pose (model.ikAll each frame)"><input type="checkbox" class="ghosts-follow" checked> follow the drag</label></div>
        <div class="solutions"></div>
      </div>
      <div class="batch-ui">
        <h3>Tool path (batch IK)</h3>
        <div class="batch"></div>
      </div>`;
    this.$ = (s) => panel.querySelector(s);
    this.sliders = new JointSliders(this.$('.sliders'), { onChange: (q) => studio.setQ(q, this) });
    // a closed chain (its file declares a loop) is moved by its coordinates with the loop kept closed
    this.loopPanel = new LoopPanel(this.$('.loop-ui'), studio);

    // gizmo: the shared drag-to-IK controller (also used by <achain-viewer>)
    const vp = studio.viewport;
    this.drag = new DragIk(vp, {
      size: 1.1,
      model: () => studio.model,
      q: () => studio.q,
      tool: () => studio.lastFk?.tool,
      reach: () => studio.size,
      options: () => this._options(),
      onSolve: (r, ms) => this._applySolve(r, ms),
      onError: (e) => { this.$('.ik-status').textContent = `IK error: ${e.message}`; },
    });
    this.proxy = this.drag.proxy;
    this.gizmo = this.drag.gizmo;
    this.gizmoHelper = this.drag.helper;
    vp.onFrame(() => this._frame());

    panel.querySelectorAll('[data-mode]').forEach((b) => b.addEventListener('click', () => this.setMode(b.dataset.mode)));
    this.$('.gizmo-on').addEventListener('change', (e) => this._showGizmo(e.target.checked));
    this.$('.gizmo-local').addEventListener('change', (e) => this.drag.setSpace(e.target.checked ? 'local' : 'world'));
    this.$('.goal').addEventListener('change', () => this._goalChanged());
    this.$('.ow').addEventListener('input', () => { this.$('.ow-val').textContent = `${Number(this.$('.ow').value).toFixed(2)} m/rad`; });
    this.$('.home').addEventListener('click', () => this.home());
    this.$('.copy-q').addEventListener('click', () => this.copyQ());
    panel.querySelectorAll('[data-jog]').forEach((b) => b.addEventListener('click', () => this.jog(b.dataset.jog)));
    const jogUnit = () => { this.$('.jog-unit').textContent = `${studio.units.length} / °`; };
    jogUnit();
    studio.addEventListener('units', jogUnit);
    this.$('.twin').addEventListener('change', (e) => studio.setTwin(e.target.checked));
    studio.addEventListener('twin', (e) => { this.$('.twin').checked = e.detail; });
    this.$('.frames').addEventListener('change', (e) => studio.setFramesVisible(e.target.checked));
    this.$('.solve-all').addEventListener('click', () => this.solveAll());
    this.$('.solve-of').addEventListener('change', () => { if (this.ghosts.length) this.solveAll(); });
    this.$('.clear-ghosts').addEventListener('click', () => this.clearGhosts());
    this.batch = new BatchIk(this.$('.batch'), studio, { options: () => this._options() });

    studio.onModel((m) => {
      this.sliders.build(m.coordinates, studio.q, studio.units);
      this.loopPanel.setModel(m);
      // the open chain's tools (IK gizmo, joint sliders, solutions, tool paths) would open the loop
      const closed = this.loopPanel.active;
      for (const sel of ['.ik-head', '.ik-ui', '.joints-ui', '.sol-head', '.sol-ui', '.batch-ui']) this.$(sel).hidden = closed;
      this.clearGhosts();
      this.$('.twin').disabled = !m.info.hasApair;
      // offer only the goals the chain can follow: fewer than six coordinates moving the tool cannot hold a full
      // pose (a hand's finger has three or four, whatever the hand's dof)
      const full = this.$('.goal option[value="pose"]');
      full.disabled = full.hidden = !canHoldPose(m);
      this.$('.goal').value = canHoldPose(m) ? 'pose' : 'position';
      this._goalChanged();
      // the last solve belonged to the previous robot
      const st = this.$('.ik-status');
      st.textContent = 'IK status: drag the gizmo to start';
      delete st.dataset.status;
      st.style.color = '';
      this.lastResult = null;
      this.solveTimes = [];
      this.gizmo.size = 1.1;
      this._showGizmo(this.$('.gizmo-on').checked);
    });
    studio.onQ((q, source) => {
      if (source !== this) { this.sliders.set(q); this.clearGhosts(); }
      if (source !== this.loopPanel) this.loopPanel.configurationChanged();
      if (!this.drag.dragging) this._syncProxy();
      this._singularity(q);
    });
    studio.addEventListener('units', (e) => { this.sliders.setUnits(e.detail); this.loopPanel.setUnits(); this._renderSolutions(); });
  }

  activate() { this.active = true; this._showGizmo(this.$('.gizmo-on').checked); this.batch.setActive(true); this.loopPanel.setShown(true); }
  deactivate() { this.active = false; this._showGizmo(false, true); this.clearGhosts(); this.batch.setActive(false); this.loopPanel.setShown(false); }

  _showGizmo(on, keepCheckbox = false) {
    const m = this.studio.model;
    this.drag.setVisible(!!(on && this.active && m && !this.loopPanel.active));
    if (!keepCheckbox) this.$('.gizmo-on').checked = on;
  }

  /** Shows the weight slider and says what a least-squares goal gives up. */
  _goalChanged() {
    const goal = this.$('.goal').value;
    const m = this.studio.model;
    this.$('.weight-row').hidden = goal !== 'weighted';
    const note = this.$('.goal-note');
    note.hidden = !(m && !canHoldPose(m) && goal === 'weighted');
    if (!note.hidden) {
      note.textContent = `${m.info.toolCoordinates.length} coordinates moving the tool cannot follow all six pose directions: position and orientation are met in the weighted least-squares sense, so the tool gives up some of both (|Δp| and |Δφ| in the status).`;
    }
  }

  setMode(mode) {
    // rotating a chain of fewer than six joints: the position-only goal ignores rotation, so rotation
    // follows in least squares (and says what it gives up)
    if (mode === 'rotate' && this.studio.model && !canHoldPose(this.studio.model) && this.$('.goal').value === 'position') {
      this.$('.goal').value = 'weighted';
      this._goalChanged();
    }
    this.drag.setMode(mode);
    this.$$mode = mode;
    this.studio.els.panel.querySelectorAll('[data-view="teleop"] [data-mode]').forEach((b) => b.classList.toggle('primary', b.dataset.mode === mode));
  }

  home() {
    const m = this.studio.model;
    const q = Float64Array.from(m.coordinates, (j) => {
      const lo = j.lower ?? -Infinity; const hi = j.upper ?? Infinity;
      return lo <= 0 && 0 <= hi ? 0 : 0.5 * (lo + hi);
    });
    this.studio.setQ(q);
  }

  /**
   * One Cartesian jog step of the tool from its current pose ('x+', 'rz-', …: along / about the base
   * axes, about the tool point), solved by the core's IK like one drag frame (continuity box included).
   */
  jog(what) {
    const s = this.studio;
    const step = Number(this.$('.jog-step').value);
    if (!(step > 0) || !s.lastFk) return null;
    const sign = what.endsWith('-') ? -1 : 1;
    const m = new THREE.Matrix4();
    matrixFromRowMajor(m, s.lastFk.tool);
    if (what[0] === 'r') {
      if (!canHoldPose(s.model) && this.$('.goal').value === 'position') { this.$('.goal').value = 'weighted'; this._goalChanged(); }
      const p = new THREE.Vector3().setFromMatrixPosition(m);
      const axis = { x: new THREE.Vector3(1, 0, 0), y: new THREE.Vector3(0, 1, 0), z: new THREE.Vector3(0, 0, 1) }[what[1]];
      m.premultiply(new THREE.Matrix4().makeRotationAxis(axis, sign * step * DEG)).setPosition(p);
    } else {
      const d = { x: 0, y: 0, z: 0 };
      d[what[0]] = (sign * step) / lengthFactor(s.units);
      m.premultiply(new THREE.Matrix4().makeTranslation(d.x, d.y, d.z));
    }
    const r = this.drag.solveToward(rowMajorFromMatrix(m), { ...this._options(), maxStep: this.drag.stepFor(m) });
    this._syncProxy();
    return r;
  }

  /** Copies q in display units (deg or rad, mm/in/m for P) to the clipboard; returns the text. */
  copyQ() {
    const s = this.studio;
    const text = Array.from(s.q, (v, i) => fmt(jointToDisplay(s.model.coordinates[i], v, s.units), 4)).join(', ');
    navigator.clipboard?.writeText(text).catch(() => {});
    this.$('.ik-status').textContent = `q = (${text}) copied`;
    return text;
  }

  /** Puts the gizmo on the core's tool pose. */
  _syncProxy() { this.drag.syncToTool(); }

  _options() {
    const goal = this.$('.goal').value;
    if (goal === 'position') return { positionOnly: true };
    if (goal === 'weighted') return { orientationWeight: Number(this.$('.ow').value) };
    return {};
  }

  /** One IK solve toward the gizmo, seeded with the current q (runs at most once per frame). */
  _frame() {
    this.drag.frame();
    // branches ended during the drag: solve all again once it is over (new branches are found only that way)
    if (this._resolveAfterDrag && !this.drag.dragging) {
      this._resolveAfterDrag = false;
      if (this.ghosts.length) this.solveAll();
    }
  }

  /** Solves IK toward a row-major target from the current q and applies it. Returns the IkResult. */
  solveToward(target, opts = this._options()) {
    return this.drag.solveToward(target, opts);
  }

  _applySolve(r, dt) {
    const s = this.studio;
    this.solveTimes.push(dt);
    if (this.solveTimes.length > 60) this.solveTimes.shift();
    s.setQ(r.q, this);
    this.sliders.set(r.q);
    this.lastResult = r;
    if (this.ghosts.length && this.$('.ghosts-follow').checked) this._followGhosts();
    const avg = this.solveTimes.reduce((a, b) => a + b, 0) / this.solveTimes.length;
    const posUnit = s.units.length;
    const f = posUnit === 'in' ? 1 / 0.0254 : posUnit === 'mm' ? 1000 : 1;
    const st = this.$('.ik-status');
    st.textContent = `${r.status} · |Δp| ${fmt(r.positionError * f, 3)} ${posUnit} · |Δφ| ${fmt(r.orientationError / DEG, 3)}° · ${r.iterations} it · ${fmt(avg, 2)} ms/solve`;
    st.dataset.status = r.status;
    st.style.color = r.status === 'ok' ? 'var(--ok)' : r.status === 'unreachable' ? 'var(--warn)' : '';
    return r;
  }

  // ---------------------------------------------------------------- singularity warnings
  /**
   * σ_min / condition of the tool Jacobian (model.manipulability) and the core's named singular
   * conditions within SING_TOL (model.singularities: A-pair axial at θ_v = 180°, collinear axes,
   * wrist / elbow / shoulder, rank deficiency). Without the kinematics module only the A-pair
   * 180° condition is flagged, from q alone.
   */
  _singularity(q) {
    const s = this.studio;
    const m = s.model;
    const out = [];
    const el = this.$('.sing');
    let text = '';
    const SING_TOL = 0.02;
    if (this.loopPanel.active) {  // the open chain's tool Jacobian says nothing about the closed loop's motion
      el.textContent = '';
      this.singularities = [];
      s.setWarnings('singularity', []);
      return;
    }
    try {
      const r = m.manipulability(q);
      text = `tool Jacobian: σ_min ${fmt(r.sigmaMin, 4)}, σ_max ${fmt(r.sigmaMax, 4)}, rank ${r.rank}, 1/κ ${fmt(r.inverseCondition, 4)}`;
    } catch (e) { text = e.message; }
    {
      try {
        const list = m.detectSingularities(q, { tol: SING_TOL });
        const axial = list.filter((x) => x.kind === 'apair-axial');
        if (axial.length) out.push({ text: `A-pair${axial.length > 1 ? 's' : ''} ${axial.map((x) => `q${x.joints[0] + 1}`).join(', ')} near θ_v = 180°: axial singularity (no axial velocity)`, level: 'warn' });
        for (const x of list) if (x.kind !== 'apair-axial') out.push({ text: x.description, level: 'warn' });
      } catch (e) { out.push({ text: e.message, level: 'warn' }); }
    }
    el.textContent = text;
    this.singularities = out;
    s.setWarnings('singularity', out);
  }

  // ---------------------------------------------------------------- all solutions as ghosts
  /**
   * Every IK solution of the current tool pose (model.ikAll), drawn as ghost arms, and the start of their
   * branch tracking (model.startBranches) so that they follow a drag. Returns the IkAllResult.
   */
  solveAll() {
    this.clearGhosts();
    const res = this._ikAll();
    if (!res) return null;
    this.allResult = res;
    this.solutions = solutionList(res);
    this.tracked = null;
    // the tracker follows configurations of one tool pose: postures of a point are solved again instead
    this.tracking = false;
    if (this.$('.solve-of').value === 'pose')
      try {
        this.studio.model.startBranches(this.studio.lastFk.tool, this.solutions.map((x) => x.q));
        this.tracking = true;
      } catch { /* a chain the tracker does not take (more than 6 coordinates): re-solve instead */ }
    this._drawGhosts();
    this.studio.frameIfClipped();  // a ghost arm out of the picture brings the camera back to all of them
    return res;
  }

  /**
   * model.ikAll for the current tool pose (every configuration with that pose), or for its point (distinct
   * postures reaching it: the multi-start in position-only mode), timed; an error is shown in the list and gives null.
   */
  _ikAll() {
    const s = this.studio;
    const t0 = performance.now();
    try {
      const options = this.$('.solve-of').value === 'point' ? { positionOnly: true } : {};
      const res = s.model.ikAll(s.lastFk.tool, { seedQ: s.q, ...options, minSeparation: DISTINCT_POSTURE });
      this.allMs = performance.now() - t0;
      return res;
    } catch (e) {
      this.$('.solutions').innerHTML = '';
      const d = document.createElement('div');
      d.className = 'error-box';
      d.textContent = e.message;
      this.$('.solutions').appendChild(d);
      return null;
    }
  }

  /**
   * While the tool is dragged with ghosts shown, every ghost follows it: the core follows each solution
   * branch to the arm's new tool pose (model.trackBranches: a predictor–corrector step per branch, tens of
   * µs), so a ghost keeps its colour and never jumps to another branch. A branch that ends (two meeting at a
   * singularity, or leaving the reach) disappears; when the drag ends, Solve all runs again to pick up the
   * branches born there. Without tracking, ikAll runs again (at most every 4× its own time when slower than a frame).
   */
  _followGhosts() {
    const s = this.studio;
    if (this.tracking) {
      const t0 = performance.now();
      try {
        const r = s.model.trackBranches(s.lastFk.tool);
        this.allMs = performance.now() - t0;
        this.tracked = r;
        this.solutions = r.branches.map((b) => ({ q: b.q, inside: b.alive && b.withinLimits, alive: b.alive, event: b.event }));
        if (r.branches.some((b) => !b.alive)) this._resolveAfterDrag = true;
        this._drawGhosts();
        return;
      } catch { this.tracking = false; }
    }
    const now = performance.now();
    if (this.allMs > 16 && now - (this._lastFollow ?? 0) < 4 * this.allMs) return;
    this._lastFollow = now;
    const res = this._ikAll();
    if (!res) return;
    this.allResult = res;
    this.tracked = null;
    this.solutions = solutionList(res);
    this._drawGhosts();
  }

  /** Ghost k draws solution (branch) k in colour k while it is inside the limits; the list shows them all. */
  _drawGhosts() {
    const s = this.studio;
    const m = s.model;
    this.solutions.forEach((sol, k) => {
      let v = this.ghosts[k];
      if (!sol.inside) {
        if (v) v.group.visible = false;
        return;
      }
      if (!v) {
        v = new ChainView({ ghost: true, color: GHOST_COLOURS[k] });
        v.build(m, s.size);
        s.viewport.world.add(v.group);
        this.ghosts[k] = v;
      }
      v.group.visible = true;
      v.update(m.forwardKinematics(sol.q), m.apairLegEndpoints(sol.q));
    });
    for (const v of this.ghosts.splice(this.solutions.length)) v.dispose();
    this._renderSolutions();
    s.viewport.requestRender();
  }

  _renderSolutions() {
    const box = this.$('.solutions');
    box.replaceChildren();
    if (!this.solutions) return;
    const s = this.studio;
    const head = document.createElement('div');
    head.className = 'muted';
    const alive = this.solutions.filter((x) => x.alive !== false).length;
    head.textContent = (this.tracked
      ? `${this.allResult.method}, tracked · ${alive} of ${this.solutions.length} branches alive, ${this.solutions.filter((x) => x.inside).length} inside limits · ${fmt(this.allMs, 2)} ms/frame`
      : `${this.allResult.method} · ${this.allResult.status} · ${this.allResult.solutions.length} inside limits, ${this.allResult.outsideLimits.length} outside · ${fmt(this.allMs, 2)} ms`)
      + (this.allResult.method === 'numeric' ? ` · distinct postures: solutions within ${fmt(jointToDisplay(ANGULAR, DISTINCT_POSTURE, s.units), 0)}${jointUnitLabel(ANGULAR, s.units)} of one shown are merged${this.allResult.note ? ` (${this.allResult.note})` : ''}` : '');
    box.appendChild(head);
    this.solutions.forEach((sol, k) => {
      const row = document.createElement('div');
      row.className = 'row solution';
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = sol.inside ? 'use' : sol.alive === false ? 'ended' : 'outside';
      b.disabled = !sol.inside;
      b.style.borderLeft = `4px solid #${GHOST_COLOURS[k % GHOST_COLOURS.length].toString(16).padStart(6, '0')}`;
      b.addEventListener('click', () => { s.setQ(sol.q, this); this.sliders.set(sol.q); });
      const t = document.createElement('span');
      t.textContent = Array.from(sol.q, (v, i) => fmt(jointToDisplay(s.model.coordinates[i], v, s.units), 1) + jointUnitLabel(s.model.coordinates[i], s.units)).join(' ');
      row.append(b, t);
      box.appendChild(row);
    });
  }

  clearGhosts() {
    for (const g of this.ghosts ?? []) g.dispose();
    this.ghosts = [];
    this.solutions = null;
    this.tracking = false;
    this.tracked = null;
    this._resolveAfterDrag = false;
    if (this.$) this.$('.solutions').replaceChildren();
    this.studio?.viewport.requestRender();
  }
}
