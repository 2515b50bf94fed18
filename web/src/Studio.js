// Studio: owns the wasm core, the current model and joint vector, the 3D viewport and the
// views (tabs). Views get the studio as context and react to model / configuration changes.
// Every number shown comes from the core (fk, legs, ik, …); the studio only draws and converts units.
import * as THREE from 'three';
import { Viewport } from './three/Viewport.js';
import { ChainView } from './three/ChainView.js';
import { PoseReadout } from './ui/PoseReadout.js';
import { JobSlots } from './workers/jobSlots.js';
import { homeConfiguration, makeUnits, jointRange, DEG } from './lib/units.js';
import { robotSize } from './lib/size.js';

export class Studio extends EventTarget {
  constructor(achain, els) {
    super();
    this.achain = achain;
    this.els = els;
    this.units = makeUnits('deg', 'mm');
    this.model = null;
    this.modelSource = null; // built-in name, or null for a custom (JSON) model
    this.urdf = null; // the URDF the model came from, with its tree (ui/fileDrop.js openUrdfText), or pending a tool link
    this.q = new Float64Array(0);
    this.viewport = new Viewport(els.viewport, { preserveDrawingBuffer: true });
    this.jobs = new JobSlots(); // long CPU-bound jobs (workspace, batch IK) take turns: one core stays for the page
    this.chain = new ChainView();
    this.viewport.world.add(this.chain.group);
    this.readout = new PoseReadout(els.readout);
    this.views = [];
    this.activeView = null;
    this._qListeners = new Set();
    this._modelListeners = new Set();
    this._warnSources = new Map();
    els.warnings.addEventListener('toggle', () => this._renderWarnings());
    this.lastFk = null;
    this.lastLegs = null;
    this.twin = null; // {model, view} R-twin overlay
  }

  // ---------------------------------------------------------------- status / warnings
  status(text, isError = false) {
    this.els.status.textContent = text;
    this.els.status.classList.toggle('error', isError);
  }

  /**
   * Sets the warning list of one source (a view or the studio); [] clears it. items: [{text, level}], level
   * 'info' | 'warn' | 'bad'. All sources are shown in one collapsible list in a corner of the 3D view, collapsed
   * to its count ("⚠ 23 warnings") until opened; a new model clears every source (see _adoptModel).
   */
  setWarnings(source, items) {
    if (items.length) this._warnSources.set(source, items);
    else this._warnSources.delete(source);
    this._renderWarnings();
  }

  _renderWarnings() {
    const box = this.els.warnings;
    const list = box.querySelector('.warn-list');
    const all = [...this._warnSources.values()].flat();
    list.replaceChildren(...all.map((w) => {
      const d = document.createElement('div');
      d.className = `warn-item ${w.level || 'warn'}`;
      d.setAttribute('role', 'listitem');
      d.textContent = w.text;
      return d;
    }));
    box.hidden = !all.length || !!this._pending;
    const notes = all.every((w) => w.level === 'info');
    const n = all.length;
    box.querySelector('summary').textContent = notes ? `ⓘ ${n} note${n === 1 ? '' : 's'}` : `⚠ ${n} warning${n === 1 ? '' : 's'}`;
    box.classList.toggle('has-bad', all.some((w) => w.level === 'bad'));
    box.classList.toggle('notes', notes);
    box.title = box.open ? '' : all.map((w) => w.text).join('\n');
  }

  // ---------------------------------------------------------------- model and configuration
  /**
   * Loads a built-in by name, a JSON description (text or object) or URDF text (options: loadModel's, e.g.
   * {toolLink}). Throws the core's error.
   */
  setModel(source, q, options = {}) {
    const model = this.achain.loadModel(source, options);
    // a built-in's name; null for a JSON description or URDF text
    this.modelSource = typeof source === 'string' && !/^[{<]/.test(source.trimStart()) ? source : null;
    this._adoptModel(model, q);
    return model;
  }

  /**
   * Replaces the model by an edited description, keeping the view (camera, unless `refit`) and as much
   * of q as still fits the limits. `source`: the built-in name when the description is that robot's
   * unchanged (e.g. after undoing every edit), so the picker names it. Throws the core's validation
   * error unchanged.
   */
  replaceModel(json, { source = null, refit = false } = {}) {
    const model = this.achain.loadModel(json);
    this.modelSource = source;
    const q = model.dof === this.q.length
      ? Float64Array.from(this.q, (v, i) => { const [lo, hi] = jointRange(model.coordinates[i]); return Math.min(hi, Math.max(lo, v)); })
      : null;
    // listeners of 'model' can tell an edit of the robot shown (Design, undo/redo) from another robot
    this.editing = true;
    try { this._adoptModel(model, q, { keepCamera: !refit }); } finally { this.editing = false; }
    return model;
  }

  /**
   * A robot file that waits for a choice before it can be read (a URDF tree without its tool link, ui/fileDrop.js):
   * the robot drawn until now is hidden, so it is not taken for the new one, and the 3D view says what to do.
   * Adopting a model (the choice made, or another robot opened) ends it.
   */
  showPendingRobot(text) {
    if (!this._pendingNote) {
      this._pendingNote = document.createElement('div');
      this._pendingNote.className = 'pending-robot';
      this._pendingNote.setAttribute('role', 'status');
      this.els.viewport.appendChild(this._pendingNote);
    }
    this._pendingNote.textContent = text;
    this._pendingNote.hidden = false;
    this.viewport.world.visible = false;
    this.readout.el.hidden = true; // the old robot's tool pose
    this._pending = true;
    this._renderWarnings(); // its warnings are hidden too
    this.viewport.requestRender();
  }

  _endPendingRobot() {
    if (this._pendingNote) this._pendingNote.hidden = true;
    this.viewport.world.visible = true;
    this.readout.el.hidden = false;
    if (this._pending) { this._pending = false; this._renderWarnings(); }
  }

  _adoptModel(model, q, { keepCamera = false } = {}) {
    const old = this.model;
    this.setMeasured(null);  // a measured pose belongs to the robot it was measured on
    this.model = model;
    this.urdf = null; // a URDF load sets it again once its model is adopted (openUrdfText)
    this._endPendingRobot();
    // the warnings belong to the model shown: its sources (limits, singularities, meshes, …) set them again
    this._warnSources.clear();
    if (!this.editing) this.els.warnings.open = false;
    const loop = model.info.loop;
    // a closed chain starts assembled (its file's assembly configuration), not stretched open at q = 0
    this.q = q && q.length === model.dof ? Float64Array.from(q)
      : loop?.assembly.length === model.dof ? Float64Array.from(loop.assembly) : homeConfiguration(model.coordinates);
    this.setWarnings('loop', loop ? [{ text: `${model.name} is a closed chain (${loop.closure.replace('_', ' ')} at its tool): Teleoperate moves it by its coordinates with the loop closed and shows the constraint forces; the Motion and Workspace views treat it as its open chain`, level: 'info' }] : []);
    const L = this._reach(model);
    if (!keepCamera || !this.size) this.size = L;
    this.chain.build(model, this.size);
    this._rebuildTwin();
    this._render();
    for (const cb of this._modelListeners) cb(model);
    this.dispatchEvent(new CustomEvent('model', { detail: model }));
    // after the views dropped the old robot's ghosts and cloud: frame the arm as posed, as Fit view does
    if (!keepCamera) this._frameShown();
    if (old && old !== model) old.dispose();
    this._notifyQ(null);
    this.status(`${model.name}: ${model.dof} joints (${model.joints.map((j) => j.kind).join('')}, ${model.info.convention} DH), ${this.chain.legCount} legs drawn — core ${this.achain.version}`);
  }

  /** Characteristic size of a model (m): the core's reach bound (base to every link origin and the tool), at least 0.2. */
  _reach(model) { return robotSize(model, this.q.length === model.dof ? this.q : homeConfiguration(model.coordinates), 0.2); }

  /** Grid and camera for the reach sphere: the fallback of _frameShown() when nothing is drawn. */
  _frameReach(model, L) {
    const b = model.forwardKinematics(this.q).base;
    this.viewport.setGrid(L * 1.1);
    this.viewport.frame(new THREE.Vector3(b[3], b[7], b[11] + 0.42 * L), 0.95 * L);
  }

  /**
   * Re-frames the camera (and the drawing scale) on what is shown: the arm at its pose, the ghost arms
   * and the workspace cloud when visible (not the reach sphere), e.g. after a new design or a workspace run.
   */
  fitView() {
    if (!this.model) return;
    const size = this._reach(this.model);
    // the arms are redrawn only for a new drawing scale: a rebuild disposes their materials, and under software
    // WebGL re-making those shader programs blocked the page for about 0.25 s after every workspace run
    if (!(Math.abs(size - this.size) <= 1e-9 * size)) {  // (also when no scale is set yet)
      this.size = size;
      this.chain.build(this.model, this.size);
      this._rebuildTwin();
      this.measured?.build(this.model, this.size);  // redrawn at the next measured pose
    }
    this._render();
    this._frameShown();
    this.dispatchEvent(new CustomEvent('fit', { detail: this.size }));
  }

  /** Grid for the drawing scale and camera on shownBox() (the reach sphere only when nothing is drawn). */
  _frameShown() {
    this.viewport.setGrid(this.size * 1.1);
    const box = this.shownBox();
    if (box.isEmpty()) this._frameReach(this.model, this.size);
    else this.viewport.frameBox(box);
  }

  /** Re-frames on what is shown when part of it is out of the picture (e.g. Solve all's ghost arms); else keeps the camera. */
  frameIfClipped() {
    if (!this.model || !this.viewport.clips(this.shownBox())) return false;
    this._frameShown();
    return true;
  }

  /** World-frame box of the visible drawn objects of the 3D world (the arm, ghosts, workspace cloud). */
  shownBox() { return this.viewport.visibleBox(); }

  /** Sets the joint vector (SI) and redraws. `source` names who changed it (views ignore their own). */
  setQ(q, source = null) {
    if (!this.model || q.length !== this.model.dof) throw new Error(`q: expected ${this.model?.dof} values, got ${q.length}`);
    for (let i = 0; i < q.length; i++) if (!Number.isFinite(q[i])) throw new Error(`q[${i}]: must be a finite number`);
    this.q = Float64Array.from(q);
    this._render();
    this._notifyQ(source);
  }

  getQ() { return Float64Array.from(this.q); }
  getModel() { return this.model; }

  onQ(cb) { this._qListeners.add(cb); return () => this._qListeners.delete(cb); }
  onModel(cb) { this._modelListeners.add(cb); return () => this._modelListeners.delete(cb); }

  _notifyQ(source) {
    for (const cb of this._qListeners) {
      try { cb(this.q, source); } catch (e) { console.error(e); }
    }
    this.dispatchEvent(new CustomEvent('q', { detail: { q: this.q, source } }));
    this._updateLimitWarnings();
  }

  _render() {
    const fk = this.model.forwardKinematics(this.q);
    const legs = this.model.apairLegEndpoints(this.q);
    this.lastFk = fk;
    this.lastLegs = legs;
    this.chain.update(fk, legs, { legWarn: this._legWarn(legs) });
    this.readout.update(fk.tool, this.units, this.achain);
    if (this.twin) {
      this.twin.view.update(this.twin.model.forwardKinematics(this.q), this.twin.model.apairLegEndpoints(this.q));
    }
    this.viewport.requestRender();
  }

  /**
   * Per A-pair: true when its legs are near a self-collision — within LEG_WARN of the collision-free
   * range the core computes for the pair's triangle side and leg radius (achain.apairUsableRange,
   * Robinson §3.2: 60°…300° for centre lines).
   */
  _legWarn(legs) {
    const m = this.model;
    if (!legs.length) return null;
    if (this._legRangesFor !== m) {
      this._legRangesFor = m;
      this._legRanges = null;
      try {
        this._legRanges = legs.map(({ joint }) => {
          const j = m.joints[joint];
          return this.achain.apairUsableRange(j.side, j.legRadius || 0);
        });
      } catch { this._legRanges = null; }
    }
    if (!this._legRanges) return null;
    const LEG_WARN = 3 * DEG;
    return legs.map(({ joint }, k) => {
      const r = this._legRanges[k];
      // the collision pattern repeats every 360° of θ_v
      const v = ((this.q[m.joints[joint].coordinate] % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
      return v < r.lower + LEG_WARN || v > r.upper - LEG_WARN;
    });
  }

  _updateLimitWarnings() {
    const m = this.model;
    if (!m) return;
    const out = [];
    const within = m.withinLimits(this.q);
    m.coordinates.forEach((j, i) => {
      if (j.lower == null || j.upper == null) return;
      const span = j.upper - j.lower;
      const v = this.q[i];
      if (v < j.lower || v > j.upper) out.push({ text: `q${i + 1} ${j.name} outside its limits`, level: 'bad' });
      else if (v <= j.lower + 0.01 * span || v >= j.upper - 0.01 * span) out.push({ text: `q${i + 1} ${j.name} at its limit`, level: 'warn' });
    });
    if (!within && !out.length) out.push({ text: 'configuration outside the joint limits', level: 'bad' });
    this.setWarnings('limits', out);
  }

  setUnits(units) {
    this.units = units;
    if (this.model) this.readout.update(this.lastFk.tool, units, this.achain);
    this.dispatchEvent(new CustomEvent('units', { detail: units }));
  }

  setFramesVisible(on) {
    this.chain.setFramesVisible(on);
    this.viewport.requestRender();
  }

  // ---------------------------------------------------------------- R-twin overlay
  /** Shows the R-pair twin of the current A-chain (every A-pair replaced by an R-pair) as a ghost. */
  setTwin(on) {
    this.twinWanted = !!on;
    this._rebuildTwin();
    if (this.model) this._render();
    this.dispatchEvent(new CustomEvent('twin', { detail: !!this.twin }));
  }

  _rebuildTwin() {
    if (this.twin) { this.twin.view.dispose(); this.twin.model.dispose(); this.twin = null; }
    if (!this.twinWanted || !this.model || !this.model.info.hasApair) return;
    const model = this.model.rPairTwin();  // the core's R-pair twin (every A-pair an R-pair)
    const view = new ChainView({ ghost: true, color: 0x38bdf8 });
    view.build(model, this.size);
    this.viewport.world.add(view.group);
    this.twin = { model, view };
  }

  // ---------------------------------------------------------------- measured pose (the live twin of a real arm)
  /**
   * Draws the arm at q (SI), the pose a servo bus or a controller measures, as an orange ghost beside the commanded
   * arm; null (or a q of another length) hides it. Called by the Controller view at its display rate.
   */
  setMeasured(q) {
    if (!q || !this.model || q.length !== this.model.dof) {
      if (this.measured) {
        this.measured.dispose();
        this.measured = null;
        this.viewport.requestRender();
      }
      return;
    }
    if (!this.measured) {
      this.measured = new ChainView({ ghost: true, color: 0xf97316 });
      this.measured.group.name = 'achain-measured';
      this.measured.build(this.model, this.size);
      this.viewport.world.add(this.measured.group);
    }
    this.measured.update(this.model.forwardKinematics(q), this.model.apairLegEndpoints(q));
    this.viewport.requestRender();
  }

  // ---------------------------------------------------------------- URL state
  /** robot (built-in name) or json (base64url of a custom description), q in degrees/metres, view. */
  hashState() {
    const p = new URLSearchParams();
    if (this.modelSource) p.set('robot', this.modelSource);
    else if (this.model) p.set('json', encodeJson(this.model.modelToJson()));
    if (this.model) {
      p.set('q', Array.from(this.q, (v, i) => {
        const x = this.model.coordinates[i].angular ? v / DEG : v;
        return String(Number(x.toPrecision(8)));
      }).join(','));
    }
    if (this.activeView) p.set('view', this.activeView.id);
    p.set('units', `${this.units.angle},${this.units.length}`);
    if (this.twin) p.set('twin', '1');
    return p.toString();
  }

  /** Parses a hash produced by hashState(). Returns {robot?, json?, jsonError?, q? (SI), view?, units?, twin?}. */
  static parseHash(hash) {
    const p = new URLSearchParams(hash.replace(/^#/, ''));
    const out = {};
    if (p.get('robot')) out.robot = p.get('robot');
    if (p.get('json')) {
      try { out.json = decodeJson(p.get('json')); } catch (e) { out.jsonError = `json=: not a base64url-encoded robot description (${e.message})`; }
    }
    if (p.get('q')) out.qDisplay = p.get('q').split(',').map(Number);
    if (p.get('view')) out.view = p.get('view');
    const u = (p.get('units') || '').split(',');
    if (u[0] === 'deg' || u[0] === 'rad') out.units = makeUnits(u[0], ['mm', 'in', 'm'].includes(u[1]) ? u[1] : 'mm');
    if (p.get('twin') === '1') out.twin = true;
    return out;
  }

  /** q from the hash's display values (degrees for rotary joints, metres for P). */
  static qFromHash(model, qDisplay) {
    if (!qDisplay || qDisplay.length !== model.dof || qDisplay.some((v) => !Number.isFinite(v))) return null;
    return Float64Array.from(qDisplay, (v, i) => (model.coordinates[i].angular ? v * DEG : v));
  }

  // ---------------------------------------------------------------- views
  addView(view) {
    this.views.push(view);
    const btn = document.createElement('button');
    btn.type = 'button';
    btn.setAttribute('role', 'tab');
    btn.textContent = view.title;
    btn.dataset.view = view.id;
    btn.title = view.title + (view.key ? ` (key ${view.key})` : '');
    btn.setAttribute('aria-selected', 'false');
    btn.addEventListener('click', () => this.showView(view.id));
    this.els.tabs.appendChild(btn);
    view.tab = btn;
    view.panel = document.createElement('section');
    view.panel.className = 'view-panel';
    view.panel.dataset.view = view.id;
    view.panel.hidden = true;
    this.els.panel.appendChild(view.panel);
    view.mount(view.panel, this);
  }

  showView(id) {
    const next = this.views.find((v) => v.id === id);
    if (!next || next === this.activeView) return;
    if (this.activeView) {
      this.activeView.deactivate?.();
      this.activeView.panel.hidden = true;
      this.activeView.tab.setAttribute('aria-selected', 'false');
    }
    this.activeView = next;
    next.panel.hidden = false;
    next.tab.setAttribute('aria-selected', 'true');
    next.activate?.();
    this.viewport.requestRender();
    this.dispatchEvent(new CustomEvent('view', { detail: id }));
  }
}

function encodeJson(obj) {
  const bytes = new TextEncoder().encode(JSON.stringify(obj));
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
function decodeJson(b64) {
  const s = atob(b64.replace(/-/g, '+').replace(/_/g, '/'));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(s, (c) => c.charCodeAt(0))));
}
