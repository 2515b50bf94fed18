// The flexible links of the loaded model (issue 13; Tesar & Graves, docs/flexible.md "Flexible chain"), shown in the
// Vibration view when the robot file has `flexible` blocks (model.info.flexibleLinks, e.g. the built-in space arm):
//   * the coupled modes with the joints locked at the current pose (model.flexibleChainModes: det(K_ff − ω²·I*_ff));
//   * ▶ per mode: the links bend as φ_f = s·shape·sin(2π·f_anim·t), drawn by FlexibleLinks from the core's
//     flexibleLinkCurve (the rigid beam dashed); s makes the largest tip deflection a few percent of the arm's size;
//   * the static deflection under a tool force (model.flexibleStaticDeflection), drawn the same way, with the tool's
//     displacement and the largest link tip rotation against the paper's 3° / 5° limits.
// Every number is the core's; this file only formats, scales the drawing and routes events.
import { FlexibleLinks } from '../three/FlexibleLinks.js';
import { fmt } from '../lib/units.js';
import { escapeHtml } from './html.js';

const ANIMATION_HZ = 0.8;       // the drawn oscillation (the true frequencies are in the table)
const DRAWN_DEFLECTION = 0.06;  // largest drawn tip deflection of an animated mode, × the arm's size

export class FlexibleLinksPanel {
  /** box: an element of the Vibration panel; the panel fills it while the model has flexible links. */
  constructor(box, studio) {
    this.box = box;
    this.studio = studio;
    this.links = null;   // FlexibleLinks (three.js), while shown
    this.anim = null;
    this.modes = null;
    studio.viewport.onFrame((dt) => this._tick(dt));
  }

  /** True when the model has flexible links (the panel is shown). */
  get active() { return !!this.studio.model?.info.flexibleLinks?.length; }

  /** A new model, pose or activation: recompute the modes and redraw the undeflected links. */
  update(visible = true) {
    this.stop();
    if (!this.active || !visible) { this.hide(); return; }
    const s = this.studio, m = s.model, info = m.info.flexibleLinks;
    if (!this.links) {
      this.links = new FlexibleLinks({ samples: 21, radius: 0.012 * s.size });
      s.viewport.world.add(this.links.group);
    }
    this.box.hidden = false;
    const nf = info.reduce((n, l) => n + l.count, 0);
    this.nf = nf;
    if (!this.box.firstChild) this._build();
    this.$('.fl-links').textContent = info.map((l) => `${l.name}: ${l.count} modes, ${fmt(l.length, 2)} m`).join(' · ');
    try {
      this.modes = m.flexibleChainModes(s.q);
      this._error(null);
    } catch (e) {
      this.modes = null;
      this._error(e.message);
    }
    this._table();
    this._draw(new Float64Array(nf));
  }

  hide() {
    this.stop();
    this.box.hidden = true;
    if (this.links) { this.links.dispose(); this.links = null; }
  }

  _build() {
    this.box.innerHTML = `
      <h3>Flexible links (joints locked)</h3>
      <p class="hint">Coupled modes of the links' assumed modes with the gross-motion coupling (Tesar &amp; Graves I*):
      det(K − ω²·I*) = 0 at the current pose. ▶ bends the links in that mode (drawn in orange, the rigid beam dashed).</p>
      <div class="fl-links muted"></div>
      <div class="fl-error error-box" hidden data-testid="flexible-error"></div>
      <div class="fl-modes" data-testid="flexible-modes"></div>
      <h3>Static deflection under a tool force</h3>
      <div class="row"><label>force (N, world) <input type="text" class="fl-force" value="0,0,-1000" aria-label="tool force" style="width:110px"></label>
        <button type="button" class="fl-static">Deflect</button></div>
      <div class="fl-static-out muted" data-testid="flexible-static"></div>`;
    this.$ = (sel) => this.box.querySelector(sel);
    this.$('.fl-static').addEventListener('click', () => this.staticDeflection());
  }

  _error(msg) {
    const box = this.$('.fl-error');
    box.hidden = !msg;
    box.textContent = msg ?? '';
  }

  _table() {
    const box = this.$('.fl-modes');
    const r = this.modes;
    if (!r) { box.replaceChildren(); return; }
    let html = '<table class="grid m-table fl-mode-table"><tr><th>mode</th><th>f (Hz)</th><th>largest coordinate</th><th></th></tr>';
    const names = r.coordinates ?? [];
    r.frequencyHz.forEach((f, k) => {
      const shape = r.shapes[k];
      let top = 0;
      shape.forEach((v, i) => { if (Math.abs(v) > Math.abs(shape[top])) top = i; });
      html += `<tr data-mode="${k}"><td>${k + 1}</td><td class="fl-hz">${fmt(f, 3)}</td>`
        + `<td class="muted" style="white-space:normal">${escapeHtml(names[top] ?? `modal ${top + 1}`)}</td>`
        + `<td><button type="button" class="fl-anim" data-mode="${k}" title="bend the links in this mode">▶</button></td></tr>`;
    });
    box.innerHTML = `${html}</table>`;
    for (const b of box.querySelectorAll('.fl-anim')) b.addEventListener('click', () => this.toggle(Number(b.dataset.mode)));
  }

  /** Draws the links at modal coordinates `modal` (length nf) at the current pose. */
  _draw(modal) {
    const q = this.studio.q;
    const phi = new Float64Array(q.length + modal.length);
    phi.set(q);
    phi.set(modal, q.length);
    this.links.update(this.studio.model, phi);
    this.studio.viewport.requestRender();
  }

  /** The largest |deflected − rigid| of the last drawn curves (m). */
  _largestDeflection() {
    let big = 0;
    for (const c of this.links.curves)
      for (let i = 0; i < c.deflected.length; i++) big = Math.max(big, Math.abs(c.deflected[i] - c.rigid[i]));
    return big;
  }

  toggle(k) {
    if (this.anim?.mode === k) { this.stop(); this._draw(new Float64Array(this.nf)); return; }
    this.stop();
    const shape = this.modes?.shapes[k];
    if (!shape) return;
    const unit = Float64Array.from(shape.subarray(0, this.nf));
    this._draw(unit);
    const d = this._largestDeflection();
    if (!(d > 0)) return;
    this.anim = { mode: k, shape: unit, scale: (DRAWN_DEFLECTION * this.studio.size) / d, time: 0 };
    this._buttons();
  }

  stop() {
    this.anim = null;
    if (this.box.firstChild) this._buttons();
  }

  _buttons() {
    for (const b of this.box.querySelectorAll('.fl-anim')) {
      const on = this.anim?.mode === Number(b.dataset.mode);
      b.textContent = on ? '■' : '▶';
      b.classList.toggle('primary', on);
    }
  }

  _tick(dt) {
    const a = this.anim;
    if (!a || this.box.hidden) return;
    a.time += dt;
    const s = a.scale * Math.sin(2 * Math.PI * ANIMATION_HZ * a.time);
    this._draw(a.shape.map((v) => s * v));
  }

  /** Static deflection under the typed tool force, drawn at true size (× the exaggeration that makes it visible). */
  staticDeflection() {
    this.stop();
    const out = this.$('.fl-static-out');
    try {
      const f = this.$('.fl-force').value.split(',').map((t) => Number(t.trim()));
      if (f.length !== 3 || !f.every(Number.isFinite)) throw new Error('force: type three numbers fx,fy,fz (N)');
      const r = this.studio.model.flexibleStaticDeflection(this.studio.q, { force: f });
      this._error(null);
      const d = r.deflection;
      this.links.exaggeration = 1;
      this._draw(r.modal);
      const big = this._largestDeflection();
      const scale = big > 0 ? Math.max(1, (DRAWN_DEFLECTION * this.studio.size) / big) : 1;
      this.links.exaggeration = scale;
      this.links.redraw();
      this.studio.viewport.requestRender();
      this.links.exaggeration = 1;
      const deg = (v) => (v * 180) / Math.PI;
      out.textContent = `tool displaced ${fmt(d.toolPositionError * 1e3, 2)} mm, rotated ${fmt(deg(d.toolRotationError), 3)}°; `
        + `largest link tip rotation ${fmt(deg(d.maxLinkRotation), 3)}°${d.above5deg ? ' — above 5°: the modal model is not valid (use sub-links)' : d.above3deg ? ' — above 3°: geometric error above 5 %' : ' (below the 3° small-angle limit)'}`
        + (scale > 1 ? `; drawn ×${fmt(scale, 0)}` : '');
      this.static = r;
    } catch (e) {
      out.textContent = '';
      this._error(e.message);
    }
  }
}
