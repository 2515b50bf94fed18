// BatchIk: IK along a whole tool path in a Web Worker (web/src/workers/ik.worker.js) with a progress
// bar and Cancel, then a replay of the joint path on the arm. The path starts at the current tool
// pose and keeps its orientation: a circle or a straight line from here, or any list of positions /
// row-major poses pasted as JSON. Every pose is solved by the core's model.ikNumeric seeded with the
// previous answer (the first with the current q), so the joint path stays on one branch.
import * as THREE from 'three';
import { DEG, fmt, lengthFactor } from '../lib/units.js';

const MAX_DRAWN = 4000; // points of the path lines drawn (the job itself may hold many more poses)

export class BatchIk {
  /**
   * @param {HTMLElement} box container (inside the Teleoperate panel)
   * @param {import('../Studio.js').Studio} studio
   * @param {{options: () => object}} opts options: the IK goal of the Teleoperate panel
   */
  constructor(box, studio, opts) {
    this.studio = studio;
    this.getOptions = opts.options;
    this.jobId = 0;
    this.progressLog = [];
    box.innerHTML = `
      <p class="hint">Solves IK for a whole tool path in a Web Worker — every pose seeded with the previous answer — then
      replays it. The path starts at the current tool pose and keeps its orientation; the goal (full pose / position
      only) is the one chosen above.</p>
      <div class="row">
        <label>path <select class="b-kind" aria-label="tool path">
          <option value="circle">circle from here</option><option value="line">line from here</option>
          <option value="json">list of poses (JSON)</option></select></label>
        <label title="number of tool poses on the path">poses <input type="number" class="b-n" min="2" max="1000000" step="1" value="360" style="width:80px"></label>
      </div>
      <div class="row b-only-circle">
        <label>radius <input type="number" class="b-r" min="0" step="any" style="width:70px"> <span class="b-unit"></span></label>
        <label>plane <select class="b-plane" aria-label="circle plane"><option value="xy">xy</option><option value="yz" selected>yz</option><option value="zx">zx</option></select></label>
      </div>
      <div class="row b-only-line" hidden>
        <label>Δx <input type="number" class="b-dx" step="any" style="width:58px"></label>
        <label>Δy <input type="number" class="b-dy" step="any" style="width:58px"></label>
        <label>Δz <input type="number" class="b-dz" step="any" style="width:58px"></label>
        <span class="b-unit muted"></span>
      </div>
      <div class="b-only-json" hidden>
        <textarea class="b-text" rows="4" spellcheck="false" aria-label="tool poses as JSON"
          placeholder="[[x, y, z], …] positions in metres (orientation of the current tool), or [[16 numbers], …] row-major 4×4 poses"></textarea>
      </div>
      <div class="row"><button type="button" class="b-run primary">Solve path</button><button type="button" class="b-cancel" disabled>Cancel</button></div>
      <progress class="b-progress" max="1" value="0" aria-label="batch IK progress"></progress>
      <div class="b-status muted"></div>
      <div class="b-error error-box" hidden></div>
      <div class="b-replay" hidden>
        <div class="row"><button type="button" class="b-play">▶ Play</button>
          <input type="range" class="b-scrub" min="0" max="0" step="1" value="0" aria-label="pose on the path" style="flex:1">
          <span class="b-at muted"></span></div>
      </div>`;
    this.$ = (s) => box.querySelector(s);
    this.box = box;
    this.group = new THREE.Group();
    this.group.name = 'batch-ik-path';
    this.group.visible = false;
    studio.viewport.world.add(this.group);

    this.$('.b-kind').addEventListener('change', () => this._kind());
    this.$('.b-run').addEventListener('click', () => { this.run().catch(() => {}); });
    this.$('.b-cancel').addEventListener('click', () => this.cancel());
    this.$('.b-play').addEventListener('click', () => { this.playing = !this.playing; if (this.playing && this.k >= this.result.count - 1) this.k = 0; this._playLabel(); });
    this.$('.b-scrub').addEventListener('input', () => { this.playing = false; this._playLabel(); this.show(Number(this.$('.b-scrub').value)); });
    studio.viewport.onFrame((dt) => this._tick(dt));
    studio.onModel(() => { this.abandon(); this.clear(); this._defaults(); });
    studio.addEventListener('units', () => this._defaults(true));
  }

  setActive(on) {
    this.active = on;
    this.group.visible = on;
    if (!on) { this.playing = false; this._playLabel(); }
    this.studio.viewport.requestRender();
  }

  _kind() {
    const k = this.$('.b-kind').value;
    this.$('.b-only-circle').hidden = k !== 'circle';
    this.$('.b-only-line').hidden = k !== 'line';
    this.$('.b-only-json').hidden = k !== 'json';
  }

  /** Radius and line offsets scaled to the chain (display units); keeps the SI values on a units switch. */
  _defaults(keep = false) {
    const u = this.studio.units;
    const f = lengthFactor(u);
    if (!keep || !this._si) {
      const L = this.studio.size ?? 0.5;
      this._si = { r: 0.12 * L, dx: 0.2 * L, dy: 0, dz: -0.1 * L };
    } else {
      this._si = { r: Number(this.$('.b-r').value) / this._f, dx: Number(this.$('.b-dx').value) / this._f, dy: Number(this.$('.b-dy').value) / this._f, dz: Number(this.$('.b-dz').value) / this._f };
    }
    this._f = f;
    const show = (v) => String(Number((v * f).toPrecision(4)));
    this.$('.b-r').value = show(this._si.r);
    this.$('.b-dx').value = show(this._si.dx);
    this.$('.b-dy').value = show(this._si.dy);
    this.$('.b-dz').value = show(this._si.dz);
    this.box.querySelectorAll('.b-unit').forEach((e) => { e.textContent = u.length; });
  }

  /** The tool poses (row-major 4×4 each, world frame) of the chosen path, from the current tool pose. */
  poses() {
    const T0 = this.studio.lastFk.tool;
    const kind = this.$('.b-kind').value;
    const f = lengthFactor(this.studio.units);
    const num = (sel, what) => {
      const v = Number(this.$(sel).value);
      if (!Number.isFinite(v)) throw new Error(`${what}: must be a number`);
      return v / f;
    };
    const withP = (out, k, x, y, z) => { out.set(T0, 16 * k); out[16 * k + 3] = x; out[16 * k + 7] = y; out[16 * k + 11] = z; };
    if (kind === 'json') {
      let list;
      try { list = JSON.parse(this.$('.b-text').value); } catch (e) { throw new Error(`poses: not valid JSON (${e.message})`); }
      if (list && !Array.isArray(list) && Array.isArray(list.poses)) list = list.poses;
      if (!Array.isArray(list) || !list.length) throw new Error('poses: expected a non-empty array of [x, y, z] positions or 16-number poses');
      const out = new Float64Array(16 * list.length);
      list.forEach((p, k) => {
        const flat = Array.isArray(p) ? p.flat() : null;
        if (!flat || (flat.length !== 3 && flat.length !== 16) || flat.some((v) => typeof v !== 'number' || !Number.isFinite(v))) {
          throw new Error(`poses[${k}]: expected 3 numbers (a position in m) or 16 (a row-major 4×4 pose)`);
        }
        if (flat.length === 3) withP(out, k, flat[0], flat[1], flat[2]); else out.set(flat, 16 * k);
      });
      return out;
    }
    const N = Math.round(Number(this.$('.b-n').value));
    if (!(N >= 2 && N <= 1e6)) throw new Error('poses: the number of poses must be between 2 and 1,000,000');
    const out = new Float64Array(16 * N);
    const p0 = [T0[3], T0[7], T0[11]];
    if (kind === 'line') {
      const d = [num('.b-dx', 'Δx'), num('.b-dy', 'Δy'), num('.b-dz', 'Δz')];
      for (let k = 0; k < N; k++) { const s = k / (N - 1); withP(out, k, p0[0] + s * d[0], p0[1] + s * d[1], p0[2] + s * d[2]); }
      return out;
    }
    const r = num('.b-r', 'radius');
    if (!(r > 0)) throw new Error('radius: must be a positive length');
    const [a, b] = { xy: [0, 1], yz: [1, 2], zx: [2, 0] }[this.$('.b-plane').value];
    for (let k = 0; k < N; k++) {
      // starts at the current point: centre = p0 − r·e_a
      const t = (2 * Math.PI * k) / (N - 1);
      const p = p0.slice();
      p[a] += r * (Math.cos(t) - 1);
      p[b] += r * Math.sin(t);
      withP(out, k, p[0], p[1], p[2]);
    }
    return out;
  }

  _worker() {
    if (!this.worker) {
      this.worker = new Worker(new URL('../workers/ik.worker.js', import.meta.url), { type: 'module' });
      this.worker.onmessage = (e) => this._onMessage(e.data);
      this.worker.onerror = (e) => this._finish({ type: 'error', id: this.jobId, message: e.message || 'batch IK worker failed' });
    }
    return this.worker;
  }

  /**
   * Starts a batch IK job. Resolves with the worker's result ({count, total, cancelled, q, status, …})
   * when it finishes or is cancelled; rejects with the core's / the input's error message.
   * @param {{poses?: Float64Array, seed?: Float64Array, options?: object}} [job] defaults: the panel's path
   */
  run(job = {}) {
    const s = this.studio;
    this.cancel();
    if (this._pending) { this._pending.resolve({ type: 'result', cancelled: true, count: 0, superseded: true }); this._pending = null; }
    this.$('.b-error').hidden = true;
    let poses;
    try { poses = job.poses ?? this.poses(); } catch (e) { this._error(e.message); return Promise.reject(e); }
    const id = ++this.jobId;
    this.targets = poses;
    this.progressLog = [];
    this.running = true;
    this.playing = false;
    this._playLabel();
    this.$('.b-run').disabled = true;
    this.$('.b-cancel').disabled = false;
    this.$('.b-progress').value = 0;
    this.$('.b-replay').hidden = true;
    const solving = `solving ${(poses.length / 16).toLocaleString('en')} poses…`;
    this._drawTargets(poses);
    const options = { ...(job.options ?? this.getOptions()), restarts: 0 };
    const seed = Array.from(job.seed ?? s.q);
    const model = s.model.modelToJson();
    // one long job at a time on a machine whose other core the page needs (workers/jobSlots.js)
    this._slot?.release();
    const slot = (this._slot = s.jobs.enter('the batch IK path'));
    this.$('.b-status').textContent = slot.waitingText || solving;
    return new Promise((resolve, reject) => {
      this._pending = { id, resolve, reject };
      slot.ready.then(() => {
        if (id !== this.jobId || !this.running) return;  // cancelled or replaced while it waited
        this._t0 = performance.now();
        this.$('.b-status').textContent = solving;
        this._worker().postMessage({ type: 'start', id, model, poses, seed, options });
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
      this._finish({ type: 'result', id: this.jobId, cancelled: true, waited: true, count: 0, total: this.targets.length / 16, seconds: 0,
        dof: this.studio.model.dof, q: new Float64Array(0), status: new Uint8Array(0), statusNames: [],
        positionError: new Float64Array(0), orientationError: new Float64Array(0) });
      return;
    }
    this.worker?.postMessage({ type: 'cancel', id: this.jobId });
  }

  /**
   * Drops the running job for good (the robot changed): the worker is told to stop, its late answers
   * (joint vectors of the old robot) are ignored, and run()'s promise resolves as cancelled.
   */
  abandon() {
    if (!this.running) return;
    this.worker?.postMessage({ type: 'cancel', id: this.jobId });
    this._release();
    this.jobId++;
    this.running = false;
    this.$('.b-run').disabled = false;
    this.$('.b-cancel').disabled = true;
    const p = this._pending;
    this._pending = null;
    p?.resolve({ type: 'result', cancelled: true, count: 0, superseded: true });
  }

  _onMessage(msg) {
    if (msg.id !== this.jobId) return;
    if (msg.type === 'progress') {
      this.progressLog.push(msg.fraction);
      this.$('.b-progress').value = msg.fraction;
      this.$('.b-status').textContent = `solving: ${msg.count.toLocaleString('en')} of ${(this.targets.length / 16).toLocaleString('en')} poses (${fmt(100 * msg.fraction, 0)} %)`;
      return;
    }
    this._finish(msg);
  }

  _finish(msg) {
    if (!this.running) return;
    this._release();
    this.running = false;
    this.$('.b-run').disabled = false;
    this.$('.b-cancel').disabled = true;
    const p = this._pending;
    this._pending = null;
    if (msg.type === 'error') {
      this._error(msg.message);
      this.$('.b-status').textContent = '';
      p?.reject(new Error(msg.message));
      return;
    }
    this.result = msg;
    this._summary(msg);
    if (msg.count > 0) {
      this._drawReached(msg);
      this.$('.b-replay').hidden = false;
      const scrub = this.$('.b-scrub');
      scrub.max = String(msg.count - 1);
      this.k = 0;
      this.show(0);
    }
    p?.resolve(msg);
  }

  _error(message) {
    const e = this.$('.b-error');
    e.hidden = false;
    e.textContent = message;
  }

  _summary(r) {
    const u = this.studio.units;
    const f = lengthFactor(u);
    const counts = {};
    let maxP = 0; let maxO = 0; let maxStep = 0;
    const n = r.dof;
    for (let k = 0; k < r.count; k++) {
      const st = r.statusNames[r.status[k]] ?? 'unknown';
      counts[st] = (counts[st] ?? 0) + 1;
      maxP = Math.max(maxP, r.positionError[k]);
      maxO = Math.max(maxO, r.orientationError[k]);
      if (k > 0) for (let i = 0; i < n; i++) maxStep = Math.max(maxStep, Math.abs(r.q[k * n + i] - r.q[(k - 1) * n + i]));
    }
    this.stats = { counts, maxPositionError: maxP, maxOrientationError: maxO, maxJointStep: maxStep };
    if (r.waited) {
      this.$('.b-status').textContent = 'cancelled while it waited for its turn: nothing was solved';
      this.$('.b-progress').value = 0;
      return;
    }
    const head = r.cancelled ? `cancelled after ${r.count.toLocaleString('en')} of ${r.total.toLocaleString('en')} poses` : `${r.count.toLocaleString('en')} poses solved`;
    const st = Object.entries(counts).map(([k, v]) => `${v.toLocaleString('en')} ${k}`).join(', ');
    const ms = r.count ? (1000 * r.seconds) / r.count : 0;
    const step = this.studio.model.coordinates.some((j) => j.angular) ? `${fmt(maxStep / DEG, 2)}°` : `${fmt(maxStep * f, 3)} ${u.length}`;
    this.$('.b-status').textContent = `${head} in ${fmt(r.seconds, 2)} s (${fmt(ms, 3)} ms/pose): ${st || 'none'}; largest |Δp| ${fmt(maxP * f, 4)} ${u.length}, |Δφ| ${fmt(maxO / DEG, 3)}°, largest joint step ${step}`;
    this.$('.b-progress').value = r.count / Math.max(r.total, 1);
  }

  /** Puts the arm on pose k of the solved path. */
  show(k) {
    const r = this.result;
    if (!r || !r.count) return;
    k = Math.max(0, Math.min(r.count - 1, Math.round(k)));
    this.k = k;
    const n = r.dof;
    this.studio.setQ(r.q.subarray(k * n, (k + 1) * n), this);
    this.$('.b-scrub').value = String(k);
    this.$('.b-at').textContent = `${k + 1}/${r.count} ${r.statusNames[r.status[k]] ?? ''}`;
  }

  _playLabel() { this.$('.b-play').textContent = this.playing ? '❚❚ Pause' : '▶ Play'; }

  _tick(dt) {
    if (!this.playing || !this.active || !this.result) return;
    const per = Math.max(1, this.result.count / 4); // the whole path in about 4 s
    this._acc = (this._acc ?? 0) + dt * per;
    const step = Math.floor(this._acc);
    if (step < 1) return;
    this._acc -= step;
    const next = this.k + step;
    if (next >= this.result.count - 1) { this.show(this.result.count - 1); this.playing = false; this._playLabel(); } else this.show(next);
  }

  // ---------------------------------------------------------------- path lines
  _line(points, color, name, dashed = false) {
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute(points, 3));
    const m = dashed
      ? new THREE.LineDashedMaterial({ color, dashSize: 0.01 * (this.studio.size ?? 1), gapSize: 0.008 * (this.studio.size ?? 1), depthTest: false, transparent: true })
      : new THREE.LineBasicMaterial({ color, depthTest: false, transparent: true });
    const l = new THREE.Line(g, m);
    if (dashed) l.computeLineDistances();
    l.name = name;
    l.renderOrder = 5;
    l.frustumCulled = false;
    this.group.add(l);
    return l;
  }

  _drawTargets(poses) {
    this.clear(false);
    const N = poses.length / 16;
    const stride = Math.max(1, Math.ceil(N / MAX_DRAWN));
    const pts = [];
    for (let k = 0; k < N; k += stride) pts.push(poses[16 * k + 3], poses[16 * k + 7], poses[16 * k + 11]);
    if ((N - 1) % stride) pts.push(poses[16 * (N - 1) + 3], poses[16 * (N - 1) + 7], poses[16 * (N - 1) + 11]);
    this._line(pts, 0xf97316, 'batch-targets', true);
    this.studio.viewport.requestRender();
  }

  /** The tool path actually reached: the core's FK of the solved joint path (subsampled for drawing). */
  _drawReached(r) {
    const m = this.studio.model;
    const n = r.dof;
    const stride = Math.max(1, Math.ceil(r.count / MAX_DRAWN));
    const pts = [];
    for (let k = 0; k < r.count; k += stride) {
      const T = m.forwardKinematics(r.q.subarray(k * n, (k + 1) * n)).tool;
      pts.push(T[3], T[7], T[11]);
    }
    this._line(pts, 0x4ade80, 'batch-reached');
    this.studio.viewport.requestRender();
  }

  clear(all = true) {
    for (const c of [...this.group.children]) { c.geometry.dispose(); c.material.dispose(); this.group.remove(c); }
    if (all) {
      this.result = null;
      this.playing = false;
      if (this.$) { this.$('.b-replay').hidden = true; this.$('.b-status').textContent = ''; this.$('.b-progress').value = 0; this.$('.b-error').hidden = true; }
    }
    this.studio.viewport.requestRender();
  }
}
