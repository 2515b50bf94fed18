// WorkspaceView: the reachable workspace as a voxel cloud, computed by the core (model.workspaceJob,
// Robinson's sweep / Castelli / Monte Carlo) in a Web Worker with a progress bar and cancel; the
// A-vs-R overlap (the R twin on the same lattice) and cross-section planes (clipping + the core's
// section area).
import * as THREE from 'three';
import { INCH, fmt, lengthFactor } from '../lib/units.js';
import { escapeHtml } from '../ui/html.js';

const ESTIMATE_DELAY_MS = 250;
/** Points drawn at most, over all clouds: past this every k-th centre is drawn (the table counts them all). A software
 *  WebGL renderer (no GPU) takes about 0.5 s per frame for 150,000 points and 0.2 s for 50,000 (measured, 1280×800). */
const MAX_DRAWN_POINTS = { gpu: 2000000, software: 50000 };
const COL_A = new THREE.Color(0xa855f7);
const COL_SHARED = new THREE.Color(0xcbd5e1);
const COL_B = new THREE.Color(0x22d3ee);

export class WorkspaceView {
  constructor() { this.id = 'workspace'; this.title = 'Workspace'; this.key = '4'; }

  mount(panel, studio) {
    this.studio = studio;
    this.jobId = 0;
    this.progressLog = [];
    this.lastProgress = 0;
    panel.innerHTML = `
      <h3>Reachable workspace</h3>
      <div class="w-ui">
        <p class="hint">Voxels reached by the tool point over the joint limits, computed by the core in a Web Worker.
        The thesis used 0.5 in voxels (prototype: 487,640 voxels ≈ 60,955 in³).</p>
        <div class="row">
          <label>voxel <input type="number" class="w-voxel" min="0.001" step="any" style="width:80px"> <span class="w-unit">mm</span></label>
          <label>method <select class="w-method" aria-label="workspace method">
            <option value="robinson">Robinson sweep</option><option value="castelli">Castelli</option><option value="montecarlo">Monte Carlo</option></select></label>
        </div>
        <div class="w-estimate muted" data-testid="workspace-estimate"></div>
        <label class="w-raise-row" hidden title="the caps guard the page against a job that would take minutes or gigabytes"><input type="checkbox" class="w-raise"> run anyway (raise the caps to this estimate)</label>
        <div class="row">
          <label><input type="checkbox" class="w-surface" checked> surface voxels only</label>
          <label title="the same chain with every A-pair replaced by an R-pair, on the same lattice"><input type="checkbox" class="w-twin"> A vs R overlap</label>
        </div>
        <div class="row"><button type="button" class="w-run primary">Compute</button><button type="button" class="w-cancel" disabled>Cancel</button></div>
        <progress class="w-progress" max="1" value="0"></progress>
        <div class="w-status muted"></div>
        <div class="w-error error-box" hidden></div>
        <div class="w-result"></div>
        <h3>Cross-section</h3>
        <div class="row">
          <label>plane <select class="w-axis" aria-label="section axis"><option value="none" selected>off</option><option value="0">x ≤</option><option value="1">y ≤</option><option value="2">z ≤</option></select></label>
          <input type="range" class="w-cut" min="0" max="1" step="any" value="0.5" aria-label="section position" style="flex:1">
        </div>
        <div class="w-section muted"></div>
        <div class="row">
          <label><input type="checkbox" class="w-showA" checked> <span style="color:#a855f7">■</span> <span class="w-labA">A only</span></label>
          <label><input type="checkbox" class="w-showS" checked> <span style="color:#cbd5e1">■</span> shared</label>
          <label><input type="checkbox" class="w-showB" checked> <span style="color:#22d3ee">■</span> R only</label>
        </div>
      </div>`;
    this.$ = (s) => panel.querySelector(s);
    this.group = new THREE.Group();
    this.group.name = 'workspace';
    studio.viewport.world.add(this.group);
    this.clip = new THREE.Plane(new THREE.Vector3(0, 0, -1), 0);
    studio.viewport.renderer.localClippingEnabled = true;

    this.$('.w-run').addEventListener('click', () => this.run());
    // the estimate runs two pilot sweeps (tens of ms): once typing pauses, not on every keystroke
    for (const c of ['.w-voxel', '.w-method']) this.$(c).addEventListener('input', () => this._estimateSoon());
    this.$('.w-raise').addEventListener('change', () => this._estimate());
    this.$('.w-cancel').addEventListener('click', () => this.cancel());
    for (const c of ['.w-axis', '.w-cut']) this.$(c).addEventListener('input', () => this._section());
    for (const c of ['.w-showA', '.w-showS', '.w-showB']) this.$(c).addEventListener('change', () => this._visibility());

    const idle = window.requestIdleCallback ?? ((f) => setTimeout(f, 200));
    idle(() => this._warmUp(), { timeout: 3000 });
    studio.onModel((m) => {
      this.abandon();
      this._clearResult();
      this.$('.w-twin').disabled = !m.info.hasApair;
      this.$('.w-twin').checked = false;
      this._setVoxelDefault();
      this._estimateWhenShown();
    });
    studio.addEventListener('units', () => { this._setVoxelDefault(true); this._estimateWhenShown(); if (this.result && this.lastMsg) this._table(this.lastMsg); });
  }

  /** The job's options from the controls (SI), with the caps raised to the estimate when the user asked. */
  _options() {
    const voxel = Number(this.$('.w-voxel').value) / lengthFactor(this.studio.units);
    const o = { voxel, method: this.$('.w-method').value };
    const e = this.estimate;
    if (e && !e.withinCaps && this.$('.w-raise').checked) {
      o.maxBytes = Math.max(e.caps.bytes, 1.01 * e.bytes);
      o.maxEvaluations = Math.max(e.caps.evaluations, 1.01 * e.cost);
    }
    return o;
  }

  /** The estimate ESTIMATE_DELAY_MS after the last edit (run() and a model change estimate at once). */
  _estimateSoon() {
    clearTimeout(this._estimateTimer);
    this._estimateTimer = setTimeout(() => this._estimate(), ESTIMATE_DELAY_MS);
  }

  /**
   * The core's estimate of the job (grid cells, voxels, memory, time), shown before it starts; a job past the
   * caps is refused unless "run anyway" raises them (docs/reliability.md#resource-caps).
   */
  /** The estimate now when the panel is shown, else when it is next shown (a hidden panel's estimate costs a page load 0.15 s). */
  _estimateWhenShown() {
    if (this.active) this._estimate();
    else this._estimateStale = true;
  }

  _estimate() {
    this._estimateStale = false;
    clearTimeout(this._estimateTimer);
    this._estimateTimer = 0;
    const box = this.$('.w-estimate');
    this.estimate = null;
    this.overCaps = false;
    this.capsWhy = '';
    const o = this._options();  // the default caps: the estimate says whether they hold
    if (!(o.voxel > 0) || !this.studio.model) { box.textContent = ''; return; }
    try {
      const e = this.studio.model.estimateWorkspace(o);
      this.estimate = e;
      const big = (x) => (x >= 1e12 ? x.toExponential(2) : x >= 1e6 ? `${fmt(x / 1e6, 3)} M` : x >= 1e3 ? `${fmt(x / 1e3, 3)} k` : fmt(x, 3));
      const bytes = (b) => (b >= 2 ** 30 ? `${fmt(b / 2 ** 30, 3)} GiB` : `${fmt(b / 2 ** 20, 3)} MiB`);
      const mem = bytes(e.bytes);
      const secs = e.seconds < 1 ? '< 1 s' : e.seconds < 120 ? `≈ ${fmt(e.seconds, 2)} s` : e.seconds < 7200 ? `≈ ${fmt(e.seconds / 60, 2)} min` : `≈ ${Number((e.seconds / 3600).toPrecision(3))} h`;
      const twin = this.$('.w-twin').checked ? ' (×2 with the R twin)' : '';
      this.overCaps = !e.withinCaps;
      const capMem = bytes(e.caps.bytes);
      box.textContent = `estimate: ${big(e.cells)} grid cells, ≤ ${big(e.voxels)} voxels, ${mem}, ${big(e.evaluations)} evaluations, ${secs}${twin}` +
        (this.overCaps ? ` — past the caps (${big(e.caps.cells)} cells, ${capMem}, ${big(e.caps.evaluations)} evaluations)` : '');
      box.classList.toggle('error', this.overCaps);
      const gridCap = e.cells > e.caps.cells;  // the grid's cap stands (int32 lattice)
      this.$('.w-raise-row').hidden = !this.overCaps || gridCap;
      if (this.overCaps) {
        // why a run is refused, in the studio's units and controls (the core's own sentence names CLI and JS options)
        const u = this.studio.units;
        const what = `${o.method === 'castelli' ? 'Castelli, voxel' : o.method === 'montecarlo' ? 'Monte Carlo, voxel' : 'voxel'} ${Number((o.voxel * lengthFactor(u)).toPrecision(6))} ${u.length}`;
        const raise = ', or tick “run anyway” to raise the cap';
        this.capsWhy = gridCap ? `${what}: the grid over the reach box would have ${big(e.cells)} cells, more than the cap of ${big(e.caps.cells)}; use a larger voxel`
          : e.bytes > e.caps.bytes ? `${what}: about ${mem} of memory (estimate), more than the cap of ${capMem}; use a larger voxel${raise}`
            : `${what}: about ${big(e.evaluations)} point evaluations, ${secs} (estimate), more than the cap of about ${fmt(e.caps.seconds / 60, 2)} min; ` +
              `${o.method === 'castelli' ? 'Castelli\'s cost is a product over the joints: use a larger voxel or the Robinson sweep' : 'use a larger voxel'}${raise}`;
      }
    } catch (err) {
      box.textContent = `estimate: ${err.message}`;
      box.classList.add('error');
      this.$('.w-raise-row').hidden = true;
    }
  }

  _setVoxelDefault(keep = false) {
    const u = this.studio.units;
    const f = lengthFactor(u);
    this.$('.w-unit').textContent = u.length;
    // the robot file's default voxel (defaults.workspace.voxel: the thesis's 0.5 in for the prototype), else 1/60 of its size
    const fileVoxel = this.studio.model?.info.defaults?.workspaceVoxel;
    const si = keep && this._voxelSi ? this._voxelSi : (fileVoxel ?? Math.max(0.01, (this.studio.size ?? 1) / 60));
    this._voxelSi = si;
    this.$('.w-voxel').value = String(Number((si * f).toPrecision(4)));
  }

  activate() {
    this.active = true;
    this.group.visible = true;
    if (this._estimateStale) this._estimate();
    this.studio.viewport.requestRender();
  }
  deactivate() { this.active = false; this.group.visible = false; this.studio.viewport.requestRender(); }

  _worker() {
    if (!this.worker) {
      this.worker = new Worker(new URL('../../../wasm/js/workspace.worker.mjs', import.meta.url), { type: 'module' });
      this.worker.onmessage = (e) => this._onMessage(e.data);
      this.worker.onerror = (e) => this._fail(e.message || 'workspace worker failed');
    }
    return this.worker;
  }

  /** Starts a job in the worker with the current model (as the core's JSON) and options. */
  run() {
    const s = this.studio;
    const options = this._options();
    const voxel = options.voxel;
    this.$('.w-error').hidden = true;
    if (!(voxel > 0)) { this._fail('voxel: must be a positive length'); return; }
    this._estimate();
    if (this.overCaps && !this.$('.w-raise').checked) { this._fail(this.capsWhy); return; }  // refused before any worker starts
    this._voxelSi = voxel;
    const json = s.model.modelToJson();
    const twin = this.$('.w-twin').checked && s.model.info.hasApair;  // the worker makes the core's R twin
    const id = ++this.jobId;
    this.progressLog = [];
    this.lastProgress = 0;
    this._clearResult(); // a new run replaces the last one's cloud and table, also when it is cancelled
    this.running = true;
    this.$('.w-run').disabled = true;
    this.$('.w-cancel').disabled = false;
    this.$('.w-progress').value = 0;
    const computing = this.estimate ? `computing… (estimate ${this.$('.w-estimate').textContent.replace(/^estimate: /, '')})` : 'computing…';
    // one long job at a time on a machine whose other core the page needs (workers/jobSlots.js)
    this._slot?.release();
    const slot = (this._slot = s.jobs.enter('the workspace'));
    this.$('.w-status').textContent = slot.waitingText || computing;
    slot.ready.then(() => {
      if (id !== this.jobId || !this.running) return;  // cancelled or replaced while it waited
      this._t0 = performance.now();
      this.$('.w-status').textContent = computing;
      this._worker().postMessage({
        type: 'start', id, model: json, twin, output: this.$('.w-surface').checked ? 'surface' : 'centres',
        options,
      });
    });
  }

  /** The job's claim on a core ends (finished, cancelled, failed or dropped). */
  _release() {
    this._slot?.release();
    this._slot = null;
  }

  cancel() {
    if (!this.running) return;
    if (this._slot && !this._slot.started) {  // still waiting: nothing runs, so it ends here
      this._release();
      this._onMessage({ type: 'cancelled', id: this.jobId });
      return;
    }
    this.worker?.postMessage({ type: 'cancel', id: this.jobId });
  }

  /** Drops the running job for good (the robot changed): the worker stops, its late answers are ignored. */
  abandon() {
    if (!this.running) return;
    this.worker?.postMessage({ type: 'cancel', id: this.jobId });
    this._release();
    this.jobId++;
    this.running = false;
    this.$('.w-run').disabled = false;
    this.$('.w-cancel').disabled = true;
    this.$('.w-status').textContent = '';
    this.$('.w-progress').value = 0;
  }

  _fail(message) {
    this._release();
    this.running = false;
    this.$('.w-run').disabled = false;
    this.$('.w-cancel').disabled = true;
    const e = this.$('.w-error');
    e.hidden = false;
    e.textContent = message;
    this.$('.w-status').textContent = '';
  }

  _onMessage(msg) {
    if (msg.id !== this.jobId) return;
    if (msg.type === 'progress') {
      this.lastProgress = msg.fraction;
      this.progressLog.push(msg.fraction);
      this.$('.w-progress').value = msg.fraction;
      this.$('.w-status').textContent = `${msg.phase === 'twin' ? 'R twin' : this.studio.model.name}: ${fmt(100 * msg.fraction, 0)} %`;
    } else if (msg.type === 'cancelled') {
      this._release();
      this.running = false;
      this.$('.w-run').disabled = false;
      this.$('.w-cancel').disabled = true;
      this.$('.w-status').textContent = 'cancelled: no result (compute again to get one)';
      this.cancelled = true;
    } else if (msg.type === 'error') {
      if (this.running) this._fail(msg.message);
      else this.$('.w-section').textContent = msg.message;
    } else if (msg.type === 'result') {
      this._release();
      this.running = false;
      this.$('.w-run').disabled = false;
      this.$('.w-cancel').disabled = true;
      this.$('.w-progress').value = 1;
      this._show(msg);
    } else if (msg.type === 'section') {
      const a = msg;
      const area = (v) => (this.studio.units.length === 'in' ? `${fmt(v / INCH ** 2, 1)} in²` : `${fmt(v, 4)} m²`);
      let t = `section at ${fmt(a.coordinate * lengthFactor(this.studio.units), 1)} ${this.studio.units.length}: area ${area(a.area)} (${a.voxels} voxels)`;
      if (msg.twin) t += ` · R twin ${area(msg.twin.area)}`;
      this.$('.w-section').textContent = t;
      this.sectionResult = msg;
    }
  }

  _show(msg) {
    const s = this.studio;
    const u = s.units;
    const a = msg.summary;
    const secs = (performance.now() - this._t0) / 1000;
    this.$('.w-status').textContent = `done in ${fmt(secs, 2)} s (core: ${fmt(a.seconds + (msg.twin?.summary.seconds ?? 0), 2)} s, ${a.evaluations.toLocaleString('en')} evaluations)`;
    this.lastMsg = msg;
    this._table(msg);
    this.result = { count: a.voxels, summary: a, overlap: msg.overlap ?? null };
    this._buildCloud(msg);
    if (this.drawn.stride > 1) {
      this.$('.w-status').textContent += ` · drawn: every ${this.drawn.stride}th of ${this.drawn.total.toLocaleString('en')} points${this.studio.viewport.software ? ' (software WebGL: no GPU)' : ''}`;
    }
    this._section();
    this.studio.fitView(); // the camera frames the arm and the new cloud
  }

  /** The result table, volumes in the chosen length unit (in³, mm³ or m³); the thesis comparison. */
  _table(msg) {
    const u = this.studio.units;
    const a = msg.summary;
    const whole = (x) => Math.round(x).toLocaleString('en');
    const vol = (v) => (u.length === 'in' ? `${whole(v / INCH ** 3)} in³` : u.length === 'mm' ? `${whole(v * 1e9)} mm³` : `${fmt(v, 4)} m³`);
    let html = `<table class="grid"><tr><th></th><th>voxels</th><th>volume</th></tr><tr><td>${escapeHtml(a.robot)}</td><td>${a.voxels.toLocaleString('en')}</td><td>${vol(a.volume)}</td></tr>`;
    if (msg.twin) {
      const o = msg.overlap;
      const b = msg.twin.summary;
      html += `<tr><td>R twin</td><td>${b.voxels.toLocaleString('en')}</td><td>${vol(b.volume)}</td></tr>`;
      html += `<tr><td>shared</td><td>${o.shared.toLocaleString('en')}</td><td>${vol(o.sharedVolume)}</td></tr>`;
      html += `<tr><td>A only / R only</td><td>${o.onlyA.toLocaleString('en')} / ${o.onlyB.toLocaleString('en')}</td><td>Jaccard ${fmt(o.jaccard, 3)}</td></tr>`;
    }
    html += '</table>';
    this.$('.w-result').innerHTML = html;
    // a published count at the file's default voxel (defaults.workspace.reference: the thesis's 487,640 for the prototype)
    const d = this.studio.model?.info.defaults;
    const ref = d?.workspaceReference;
    if (ref && Math.abs(a.voxel - d.workspaceVoxel) < 1e-9 * d.workspaceVoxel) {
      const note = document.createElement('p');
      note.className = 'hint w-thesis';
      const diff = 100 * (a.voxels / ref.voxels - 1);
      note.textContent = `${ref.source || 'The reference'} reports ${ref.voxels.toLocaleString('en')} voxels; this is ${fmt(Math.abs(diff), 1)} % ${diff >= 0 ? 'more' : 'fewer'}.${ref.note ? ` ${ref.note}` : ''}`;
      this.$('.w-result').appendChild(note);
    }
  }

  /** The clouds' material: every cloud uses the same shader program (only the colour and size differ). */
  _cloudMaterial(color, size) {
    return new THREE.PointsMaterial({ color, size, sizeAttenuation: true, transparent: true, opacity: 0.55, depthWrite: false, clippingPlanes: [this.clip] });
  }

  /**
   * Makes the clouds' shader program, and has the renderer draw with it once, while the page is idle after loading.
   * A software WebGL renderer (no GPU) took about 1 s to compile it, blocking the page at the first result
   * (measured beside a stream). It is drawn, not only compiled: three.js's compile() leaves out the clipping plane,
   * so it made a program the cloud never used. The point is drawn fully transparent (opacity is a uniform: the
   * program and the renderer's state are the cloud's). three.js keeps a program while a material uses it, so this
   * material is kept.
   */
  _warmUp() {
    const s = this.studio;
    if (this._warm || !s.viewport) return;
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3), 3));
    const m = this._cloudMaterial(COL_A, 0.01);
    m.opacity = 0;
    this._warm = new THREE.Points(g, m);
    this._warm.frustumCulled = false;
    this.group.add(this._warm);
    s.viewport.renderNow();
    this.group.remove(this._warm);
    s.viewport.requestRender();
  }

  /** No result shown: the cloud, the table, the section and the legend cleared. */
  _clearResult() {
    this._clearCloud();
    this.result = null;
    this.lastMsg = null;
    this.$('.w-result').replaceChildren();
    this.$('.w-section').textContent = '';
    this._legend(null);
  }

  _clearCloud() {
    for (const c of [...this.group.children]) { c.geometry.dispose(); c.material.dispose(); this.group.remove(c); }
    this.planeMesh = null;
    this.studio.viewport.requestRender();
  }

  _buildCloud(msg) {
    this._clearCloud();
    const voxel = msg.summary.voxel;
    const parts = msg.parts ? [msg.parts.onlyA, msg.parts.shared, msg.parts.onlyB] : [msg.centres];
    const total = parts.reduce((n, a) => n + a.length / 3, 0);
    const stride = Math.max(1, Math.ceil(total / MAX_DRAWN_POINTS[this.studio.viewport.software ? 'software' : 'gpu']));
    this.drawn = { total, stride };
    const mk = (all, color, name) => {
      let arr = all;  // the worker's Float32Array, drawn as it is unless it is thinned
      if (stride > 1) {
        arr = new Float32Array(3 * Math.ceil(all.length / 3 / stride));
        for (let i = 0, o = 0; i < all.length; i += 3 * stride, o += 3) arr.set(all.subarray(i, i + 3), o);
      }
      const g = new THREE.BufferGeometry();
      g.setAttribute('position', new THREE.BufferAttribute(arr, 3));
      const m = this._cloudMaterial(color, voxel * 0.9);
      const p = new THREE.Points(g, m);
      p.name = name;
      p.frustumCulled = false;
      this.group.add(p);
      return p;
    };
    if (msg.parts) {  // the overlap's parts, split by the core in the worker
      const p = msg.parts;
      this.clouds = { A: mk(p.onlyA, COL_A, 'A-only'), S: mk(p.shared, COL_SHARED, 'shared'), B: mk(p.onlyB, COL_B, 'R-only') };
    } else {
      this.clouds = { A: mk(msg.centres, COL_A, 'A'), S: null, B: null };
    }
    const b = msg.summary.bounds;
    this.bounds = b;
    this._legend(!!msg.twin);
    this._visibility();
  }

  /** The colour key: three sets with the A-vs-R overlap, one ("workspace") without it; none before a run. */
  _legend(overlap) {
    const show = (sel, on) => { this.$(sel).closest('label').hidden = !on; };
    const any = overlap !== null;
    show('.w-showA', any);
    show('.w-showS', any && overlap);
    show('.w-showB', any && overlap);
    this.$('.w-labA').textContent = overlap ? 'A only' : 'workspace';
  }

  _visibility() {
    if (!this.clouds) return;
    if (this.clouds.A) this.clouds.A.visible = this.$('.w-showA').checked;
    if (this.clouds.S) this.clouds.S.visible = this.$('.w-showS').checked;
    if (this.clouds.B) this.clouds.B.visible = this.$('.w-showB').checked;
    this.studio.viewport.requestRender();
  }

  /** Clips the cloud at the section plane and asks the core for the section area. */
  _section() {
    const axis = this.$('.w-axis').value;
    if (this.planeMesh) { this.planeMesh.geometry.dispose(); this.planeMesh.material.dispose(); this.planeMesh.removeFromParent(); this.planeMesh = null; }
    if (axis === 'none' || !this.bounds) {
      this.clip.set(new THREE.Vector3(0, 0, -1), 1e9);
      this.$('.w-section').textContent = '';
      this.studio.viewport.requestRender();
      return;
    }
    const k = Number(axis);
    const lo = this.bounds.min[k];
    const hi = this.bounds.max[k];
    const value = lo + Number(this.$('.w-cut').value) * (hi - lo);
    const n = new THREE.Vector3();
    n.setComponent(k, -1);
    this.clip.set(n, value); // keeps points with coordinate ≤ value
    // a translucent quad marks the cut
    const b = this.bounds;
    const [u, v] = [0, 1, 2].filter((x) => x !== k);
    const du = b.max[u] - b.min[u];
    const dv = b.max[v] - b.min[v];
    const geo = new THREE.PlaneGeometry(du * 1.05, dv * 1.05);
    const mat = new THREE.MeshBasicMaterial({ color: 0xf97316, transparent: true, opacity: 0.12, side: THREE.DoubleSide, depthWrite: false });
    const quad = new THREE.Mesh(geo, mat);
    // the plane's local x, y map to axes u, v; its normal to axis k
    const ex = new THREE.Vector3().setComponent(u, 1);
    const ey = new THREE.Vector3().setComponent(v, 1);
    const ez = new THREE.Vector3().setComponent(k, 1);
    quad.quaternion.setFromRotationMatrix(new THREE.Matrix4().makeBasis(ex, ey, ez.clone().crossVectors(ex, ey)));
    const c = new THREE.Vector3((b.min[0] + b.max[0]) / 2, (b.min[1] + b.max[1]) / 2, (b.min[2] + b.max[2]) / 2).setComponent(k, value);
    quad.position.copy(c);
    quad.name = 'section-plane';
    this.group.add(quad);
    this.planeMesh = quad;
    this.studio.viewport.requestRender();
    clearTimeout(this._secT);
    this._secT = setTimeout(() => this.worker?.postMessage({ type: 'section', id: this.jobId, axis: k, value }), 60);
  }
}
