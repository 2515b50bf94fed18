// <achain-viewer>: an embeddable live view of an achain robot, usable from any static page with one
// script tag (the build writes it to web/dist/achain-viewer.js):
//
//   <script type="module" src="achain-viewer.js"></script>
//   <achain-viewer robot="prototype-4a" q="180,180,180,180" units="deg" controls></achain-viewer>
//
// Attributes (all observed):
//   robot     built-in name (default prototype-4a); another robot starts at its home pose unless q is set with it
//   src       URL of a JSON robot description or a URDF (instead of robot); a file that cannot be fetched is said so (status, URL)
//   tool-link a URDF's tool link by name (default: the file's achain:tool, else its single end link; a tree with
//             several end links and neither says so, listing them)
//   q         joint values, comma separated, angles in `units`, lengths in metres; outside the limits: a warning
//   units     deg (default) | rad
//   controls  show joint sliders          gizmo     drag the tool (the core's IK follows)
//   readout   show the tool pose          frames    show link frames (default on; frames="off" hides)
//   twin      overlay the R-pair twin     height    CSS height (default 360px)
//   animate   "joint,from,to,seconds": sweeps one joint back and forth (angles in `units`)
// A closed chain (a robot file with a loop section, e.g. the built-in five-bar) starts assembled and moves by
// its coordinates y (the sliders and `animate` index y), the core closing the loop at every step; no gizmo.
// The robot description can also be inline: <achain-viewer><script type="application/json">{…}</script></achain-viewer>.
// Events (bubbling, composed): achain-load {model}, achain-change {q}, achain-error {message}, achain-ik {status,…}.
// Properties: q (Float64Array, SI; settable), model, achain; methods setQ(q), dispose().
import * as THREE from 'three';
import { loadAchain } from '../../../wasm/achain.mjs';
import { looksLikeXml } from '../../../wasm/js/xml.mjs';
import { Viewport } from '../three/Viewport.js';
import { ChainView } from '../three/ChainView.js';
import { DragIk, canHoldPose } from '../three/DragIk.js';
import { JointSliders } from '../ui/JointSliders.js';
import { PoseReadout } from '../ui/PoseReadout.js';
import { homeConfiguration, makeUnits, DEG, jointRange } from '../lib/units.js';
import { robotSize } from '../lib/size.js';
import { closeAt, loopCoordinates } from '../lib/loop.js';

const CSS = `
:host { display: block; position: relative; height: var(--achain-height, 360px); border: 1px solid #25324d; border-radius: 8px; overflow: hidden;
  background: #0f172a; color: #e2e8f0; font: 13px system-ui, sans-serif; contain: content; }
.wrap { display: flex; height: 100%; }
.view { position: relative; flex: 1; min-width: 0; }
.view canvas { display: block; width: 100%; height: 100%; }
.side { width: 210px; overflow-y: auto; padding: 8px; background: #111a2e; border-left: 1px solid #25324d; }
.side[hidden] { display: none; }
.joint { display: grid; grid-template-columns: 1fr 64px; gap: 2px 6px; align-items: center; margin-bottom: 6px; }
.joint label { display: flex; justify-content: space-between; color: #94a3b8; grid-column: 1 / 3; font-size: 12px; }
.joint label b { color: #e2e8f0; font-weight: 600; }
.joint .kind { font-size: 9px; padding: 0 4px; border-radius: 3px; margin-left: 3px; color: #0b1220; font-weight: 700; }
.kind-R { background: #3b82f6; } .kind-P { background: #22c55e; } .kind-H { background: #f59e0b; } .kind-A { background: #a855f7; }
.joint input[type=range] { width: 100%; accent-color: #a855f7; }
.joint input[type=number] { width: 64px; font: inherit; font-size: 12px; color: #e2e8f0; background: #16213a; border: 1px solid #25324d; border-radius: 3px; }
.lim { font-size: 10px; }
.readout { position: absolute; left: 6px; bottom: 6px; background: rgba(15,23,42,.82); border: 1px solid #25324d; border-radius: 6px; padding: 5px 7px;
  font: 10px ui-monospace, monospace; white-space: pre; pointer-events: none; line-height: 1.4; }
.readout[hidden] { display: none; }
.readout .k { color: #94a3b8; }
.msg { position: absolute; inset: auto 8px 8px 8px; background: rgba(127,29,29,.92); border: 1px solid #ef4444; border-radius: 6px; padding: 6px 8px; white-space: pre-wrap; }
.msg[hidden] { display: none; }
.ik { position: absolute; right: 6px; bottom: 6px; font-size: 11px; color: #94a3b8; background: rgba(15,23,42,.8); padding: 2px 6px; border-radius: 4px; }
.ik[hidden] { display: none; }
.warn { position: absolute; top: 6px; right: 6px; max-width: 70%; background: rgba(120,53,15,.92); border: 1px solid #f59e0b; border-radius: 6px;
  padding: 4px 8px; font-size: 12px; white-space: pre-wrap; }
.warn[hidden] { display: none; }
`;


export class AchainViewer extends HTMLElement {
  static get observedAttributes() { return ['robot', 'src', 'tool-link', 'q', 'units', 'controls', 'gizmo', 'readout', 'frames', 'twin', 'height', 'animate']; }

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    this.shadowRoot.innerHTML = `<style>${CSS}</style><div class="wrap"><div class="view"><div class="readout" hidden></div><div class="ik" hidden></div><div class="warn" role="status" hidden></div><div class="msg" hidden></div></div><div class="side" hidden></div></div>`;
    this._els = {
      view: this.shadowRoot.querySelector('.view'), side: this.shadowRoot.querySelector('.side'),
      readout: this.shadowRoot.querySelector('.readout'), msg: this.shadowRoot.querySelector('.msg'), ik: this.shadowRoot.querySelector('.ik'),
      warn: this.shadowRoot.querySelector('.warn'),
    };
    this.model = null;
    this._q = new Float64Array(0);
    this._loadToken = 0;
    this._loading = false;  // a robot / src load is under way
    this._qJustSet = false; // the q attribute changed in this task (cleared on the next microtask)
    this._qWithRobot = false; // q came with the robot being loaded: apply it, else the new robot starts at home
  }

  get q() { return Float64Array.from(this._q); }
  set q(v) { this.setQ(v); }
  get units() { return makeUnits(this.getAttribute('units') === 'rad' ? 'rad' : 'deg', 'mm'); }
  /** Number of A-pair legs drawn (6 per A-pair). */
  get legCount() { return this.chain ? this.chain.legCount : 0; }
  get ready() { return !!this.model && (this.viewport?.frames ?? 0) > 0; }

  connectedCallback() {
    if (this.viewport) return;
    this.style.setProperty('--achain-height', this.getAttribute('height') || '360px');
    this.viewport = new Viewport(this._els.view, { preserveDrawingBuffer: true });
    this.chain = new ChainView();
    this.viewport.world.add(this.chain.group);
    this.readout = new PoseReadout(this._els.readout);
    this.sliders = new JointSliders(this._els.side, { onChange: (v) => (this._loop ? this._moveLoop(v, 'sliders') : this.setQ(v, 'sliders')) });
    this._anim = null;
    this.viewport.onFrame((dt) => this._tick(dt));
    this._reload();
  }

  disconnectedCallback() {
    // keep it cheap to move the element around; free resources on the next microtask if really gone
    queueMicrotask(() => { if (!this.isConnected) this.dispose(); });
  }

  dispose() {
    this.drag?.dispose();
    this.viewport?.dispose();
    this.chain?.dispose();
    this.twin?.view.dispose();
    this.twin?.model.dispose();
    this.model?.dispose();
    this.viewport = null;
    this.model = null;
    this.twin = null;
  }

  attributeChangedCallback(name, oldV, newV) {
    if (!this.viewport || oldV === newV) return;
    if (name === 'robot' || name === 'src' || name === 'tool-link') {
      // q set in the same task as the robot (before or after it) is that robot's q; otherwise the old robot's q
      // means nothing for the new one (issue 32: a stanford arm given the puma's q slid its P joint to -60 m)
      this._qWithRobot = this._qJustSet;
      this._reload();
    } else if (name === 'q') {
      this._qJustSet = true;
      queueMicrotask(() => { this._qJustSet = false; });
      if (this._loading) this._qWithRobot = true; // applied when the robot is loaded
      else this._applyQAttr();
    }
    else if (name === 'height') this.style.setProperty('--achain-height', newV || '360px');
    else if (name === 'units') { this.sliders.setUnits(this.units); this._render(); }
    else this._applyFlags();
  }

  _error(message) {
    this._els.msg.hidden = false;
    this._els.msg.textContent = message;
    this.dispatchEvent(new CustomEvent('achain-error', { detail: { message }, bubbles: true, composed: true }));
  }

  async _source() {
    const src = this.getAttribute('src');
    if (src) {
      const url = new URL(src, document.baseURI).href;
      const failed = `the robot file could not be fetched: ${url}`;
      let res;
      try { res = await fetch(url); } catch (e) { throw new Error(`${failed} (${e.message})`); }
      if (!res.ok) throw new Error(`${failed}: HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`);
      const text = await res.text();
      // a server that answers a missing file with its index page (vite's dev and preview servers do): not a robot file
      if (/text\/html/i.test(res.headers.get('content-type') || '') && /^\s*(<!doctype html|<html)/i.test(text)) {
        throw new Error(`${failed}: the server answered with an HTML page (HTTP ${res.status}), not a robot description — is the path right?`);
      }
      return text;
    }
    const inline = this.querySelector('script[type="application/json"]');
    if (inline) return inline.textContent;
    return this.getAttribute('robot') || 'prototype-4a';
  }

  async _reload() {
    const token = ++this._loadToken;
    this._loading = true;
    try {
      const [achain, source] = await Promise.all([loadAchain(), this._source()]);
      if (token !== this._loadToken || !this.viewport) return;
      this._loading = false;
      // the first robot takes the q attribute; a later one only when q was set with it
      const takeQ = !this.model || this._qWithRobot;
      this._qWithRobot = false;
      this.achain = achain;
      const toolLink = this.getAttribute('tool-link') || '';
      if (!toolLink && looksLikeXml(source)) { // a tree needs its tool named: say so in the component's terms
        const tree = achain.urdfTree(source);
        if (!tree.toolLink && tree.leaves.length > 1) {
          throw new Error(`${tree.name} is a tree with ${tree.leaves.length} end links (${tree.leaves.join(', ')}): choose the tool link with the tool-link attribute`);
        }
      }
      const model = achain.loadModel(source, { toolLink });
      this.model?.dispose();
      this.model = model;
      this._els.msg.hidden = true;
      const loop = model.info.loop;
      this._loop = loop ? loopCoordinates(model) : null;
      this._q = loop?.assembly.length === model.dof ? Float64Array.from(loop.assembly) : homeConfiguration(model.coordinates);
      if (takeQ) this._qFromAttr();
      const L = robotSize(model, this._q, 0.15);
      this.size = L;
      this.chain.build(model, L);
      this.viewport.setGrid(L * 1.1);
      this.sliders.prefix = this._loop ? 'y' : 'q';
      this.sliders.build(this._loop ?? model.coordinates, this._sliderValues(), this.units);
      this._applyFlags();
      this._render();
      this._frame();
      this.dispatchEvent(new CustomEvent('achain-load', { detail: { model }, bubbles: true, composed: true }));
    } catch (e) {
      if (token === this._loadToken) {
        this._loading = false;
        this._qWithRobot = false;
        this._error(e.message || String(e));
      }
    }
  }

  _qFromAttr() {
    const text = this.getAttribute('q');
    if (!text || !this.model) return false;
    const vals = text.split(',').map((s) => Number(s.trim()));
    if (vals.length !== this.model.dof || vals.some((v) => !Number.isFinite(v))) {
      this._error(`q: expected ${this.model.dof} numbers, got "${text}"`);
      return false;
    }
    const f = this.units.angle === 'deg' ? DEG : 1;
    this._q = Float64Array.from(vals, (v, i) => (this.model.coordinates[i].angular ? v * f : v));
    return true;
  }

  _applyQAttr() {
    if (this._qFromAttr()) {
      this.sliders.set(this._sliderValues());
      this._render();
      if (this.viewport.clips(this.viewport.visibleBox())) this._frame();  // a new pose out of the picture
    }
  }

  /** The camera on the arm as drawn at its pose (the reach sphere while nothing is drawn). */
  _frame() {
    const box = this.viewport.visibleBox();
    if (!box.isEmpty()) { this.viewport.frameBox(box); return; }
    const b = this.model.forwardKinematics(this._q).base;
    this.viewport.frame(new THREE.Vector3(b[3], b[7], b[11] + 0.45 * this.size), 0.72 * this.size);
  }

  _flag(name, dflt = false) {
    if (!this.hasAttribute(name)) return dflt;
    const v = this.getAttribute(name);
    return v !== 'off' && v !== 'false';
  }

  _applyFlags() {
    if (!this.model) return;
    this._els.side.hidden = !this._flag('controls');
    this._els.readout.hidden = !this._flag('readout');
    this.chain.setFramesVisible(this._flag('frames', true));
    this._setupTwin(this._flag('twin'));
    this._setupGizmo(this._flag('gizmo') && !this._loop);
    const a = (this.getAttribute('animate') || '').split(',').map(Number);
    this._anim = a.length === 4 && a.every(Number.isFinite) && (this._loop ?? this.model.coordinates)[a[0]]
      ? { joint: a[0], from: a[1], to: a[2], period: a[3], t: 0 } : null;
    this.viewport.resize();
  }

  _setupTwin(on) {
    if (this.twin) { this.twin.view.dispose(); this.twin.model.dispose(); this.twin = null; }
    if (!on || !this.model.info.hasApair) return;
    const model = this.model.rPairTwin();  // the core's R-pair twin (every A-pair an R-pair)
    const view = new ChainView({ ghost: true, color: 0x38bdf8 });
    view.build(model, this.size);
    this.viewport.world.add(view.group);
    this.twin = { model, view };
  }

  _setupGizmo(on) {
    if (!on) {
      if (this.drag) { this.drag.dispose(); this.drag = null; this.gizmo = null; this.proxy = null; }
      this._els.ik.hidden = true;
      return;
    }
    this._els.ik.hidden = false;
    this._els.ik.textContent = 'drag the tool';
    if (this.drag) return;
    // the shared drag-to-IK controller (also used by the studio's Teleoperate view)
    this.drag = new DragIk(this.viewport, {
      size: 1.6, // large enough to grab in a small viewer (issue 18); the readout sits bottom left, away from the tool
      keepToolInView: true, // a missed grab orbits the view and never loses the tool off-screen (issue 18)
      model: () => this.model,
      q: () => this._q,
      tool: () => this._fk?.tool,
      reach: () => this.size,
      options: () => (canHoldPose(this.model) ? {} : { positionOnly: true }),
      onSolve: (res) => {
        this.setQ(res.q, 'gizmo');
        this._els.ik.textContent = `IK ${res.status} · |Δp| ${(res.positionError * 1000).toFixed(2)} mm`;
        this.dispatchEvent(new CustomEvent('achain-ik', { detail: res, bubbles: true, composed: true }));
      },
      onError: (err) => { this._els.ik.textContent = err.message; },
    });
    this.gizmo = this.drag.gizmo;
    this.proxy = this.drag.proxy;
  }

  get _dragging() { return !!this.drag?.dragging; }

  _syncProxy() { this.drag?.syncToTool(); }

  _tick(dt) {
    if (this.drag && this.model) this.drag.frame();
    if (this._anim && this.model && !this._dragging) {
      const a = this._anim;
      a.t += dt;
      const s = 0.5 - 0.5 * Math.cos((2 * Math.PI * a.t) / a.period);
      const coords = this._loop ?? this.model.coordinates;
      const f = coords[a.joint].angular && this.units.angle === 'deg' ? DEG : 1;
      const v = Float64Array.from(this._sliderValues());
      const [lo, hi] = jointRange(coords[a.joint]);
      v[a.joint] = Math.min(hi, Math.max(lo, (a.from + (a.to - a.from) * s) * f));
      if (this._loop) this._moveLoop(v, 'animate');
      else this.setQ(v, 'animate');
    }
  }

  /** Page coordinates (CSS px) of a world point (m), e.g. to script a drag of the gizmo. */
  project(x, y, z) {
    const v = new THREE.Vector3(x, y, z).project(this.viewport.camera);
    const r = this.viewport.canvas.getBoundingClientRect();
    return { x: r.left + ((v.x + 1) / 2) * r.width, y: r.top + ((1 - v.y) / 2) * r.height };
  }

  /** The tool pose (row-major 4×4, SI) from the core's FK at the current q. */
  get tool() { return this._fk ? Float64Array.from(this._fk.tool) : null; }

  /** Sets the joint vector (SI: rad, m) and redraws. */
  setQ(q, source = 'api') {
    if (!this.model) return;
    if (!q || q.length !== this.model.dof) throw new Error(`q: expected ${this.model.dof} values`);
    this._q = Float64Array.from(q);
    if (source !== 'sliders') this.sliders.set(this._sliderValues());
    this._render();
    this.dispatchEvent(new CustomEvent('achain-change', { detail: { q: this.q, source }, bubbles: true, composed: true }));
  }

  /** What the sliders show: q, or a closed chain's coordinates y. */
  _sliderValues() { return this._loop ? this.model.closedChainCoordinates(this._q) : this._q; }

  /**
   * A closed chain to coordinates y (SI): the core closes the loop from the current q (the branch is kept).
   * A y the loop cannot reach stops the animation and reports the core's message (achain-error); q stays.
   */
  _moveLoop(y, source) {
    try {
      this.setQ(closeAt(this.model, this._q, y).q, source);
    } catch (e) {
      this._anim = null;
      this.sliders.set(this._sliderValues());
      this.dispatchEvent(new CustomEvent('achain-error', { detail: { message: e.message }, bubbles: true, composed: true }));
      this._els.ik.hidden = false;
      this._els.ik.textContent = e.message;
    }
  }

  /**
   * A visible warning when q is outside the joint limits (the core's withinLimits decides); it names the
   * coordinates outside their [lower, upper] as the sliders do, q1…qn, with the value and the limits.
   */
  _limitWarning() {
    const m = this.model;
    const w = this._els.warn;
    if (m.withinLimits(this._q)) { w.hidden = true; w.textContent = ''; return; }
    const u = this.units;
    const show = (j, v) => (j.angular && u.angle === 'deg' ? `${+(v / DEG).toFixed(2)}°` : `${+v.toFixed(4)} ${j.angular ? 'rad' : 'm'}`);
    const out = [];
    m.coordinates.forEach((j, i) => {
      const v = this._q[i];
      if ((j.lower != null && v < j.lower) || (j.upper != null && v > j.upper)) {
        out.push(`q${i + 1} ${j.name} = ${show(j, v)} (limits ${j.lower == null ? '−∞' : show(j, j.lower)} … ${j.upper == null ? '∞' : show(j, j.upper)})`);
      }
    });
    w.textContent = `⚠ outside the joint limits${out.length ? `: ${out.join('; ')}` : ''}`;
    w.hidden = false;
  }

  _render() {
    if (!this.model || !this.viewport) return;
    const fk = this.model.forwardKinematics(this._q);
    this._fk = fk;
    this.chain.update(fk, this.model.apairLegEndpoints(this._q));
    if (this.twin) this.twin.view.update(this.twin.model.forwardKinematics(this._q), this.twin.model.apairLegEndpoints(this._q));
    if (!this._els.readout.hidden) this.readout.update(fk.tool, this.units, this.achain);
    this._limitWarning();
    if (!this._dragging) this._syncProxy();
    this.viewport.requestRender();
  }
}

if (!customElements.get('achain-viewer')) customElements.define('achain-viewer', AchainViewer);
