// DesignView: a chain editor. The working document is the core's own JSON robot description
// (SI, from model.modelToJson()); every edit is handed to achain.loadModel() so validation is the
// core's, and its message (with the field path) is shown as is. Live 3D update, undo/redo,
// JSON import/export, start from a built-in or from scratch.
import { DEG, INCH, fmt } from '../lib/units.js';
import { downloadText, exportModel } from '../ui/exportModel.js';
import { renderTree } from '../ui/TreePanel.js';
import { readFileText } from '../ui/readFile.js';

const KINDS = ['R', 'P', 'H', 'A'];
const DEFAULT_LEG = 6 * INCH; // the prototype's leg length

function lengthF(u) { return u.length === 'in' ? 1 / INCH : u.length === 'mm' ? 1000 : 1; }
function angleF(u) { return u.angle === 'deg' ? 1 / DEG : 1; }

export class DesignView {
  constructor() { this.id = 'design'; this.title = 'Design'; this.key = '1'; }

  mount(panel, studio) {
    this.studio = studio;
    this.undoStack = [];
    this.redoStack = [];
    panel.innerHTML = `
      <h3>Chain</h3>
      <div class="row">
        <label>name <input type="text" class="d-name" size="14" aria-label="chain name"></label>
        <label title="switching converts the parameters so the arm keeps its tool pose (the core's convertConvention)">DH <select class="d-conv" aria-label="DH convention"><option value="standard">standard (distal)</option><option value="modified">modified (proximal)</option></select></label>
      </div>
      <div class="row">
        <button type="button" class="d-new" title="Start an empty chain with one R joint">New chain</button>
        <select class="d-addkind" aria-label="kind of joint to add">${KINDS.map((k) => `<option>${k}</option>`).join('')}</select>
        <button type="button" class="d-add">Add joint</button>
        <button type="button" class="d-undo" title="Ctrl+Z">Undo</button>
        <button type="button" class="d-redo" title="Ctrl+Y">Redo</button>
        <button type="button" class="d-fit" title="frame the camera on what is shown: the arm at its pose, ghosts, the workspace cloud (key V)">Fit view</button>
      </div>
      <div class="d-error error-box" hidden></div>
      <h3 class="d-keep">Links and tool</h3>
      <div class="d-tree d-keep" data-testid="tree-panel"></div>
      <div class="d-joints"></div>
      <h3>Loop</h3>
      <div class="d-loop"></div>
      <h3>JSON (the core's robot description)</h3>
      <p class="hint">Import checks the file with the core's validator; errors name the field.</p>
      <div class="row">
        <button type="button" class="d-export">Export JSON</button>
        <label class="filebtn"><input type="file" class="d-file" accept=".json,application/json" hidden><span class="btnlike">Import file…</span></label>
        <button type="button" class="d-show">Show / edit text</button>
      </div>
      <div class="row">
        <button type="button" class="d-export-urdf" title="the model as URDF (A-pairs as the achain:apair extension); what URDF cannot carry is listed as warnings">Export URDF</button>
        <button type="button" class="d-export-mjcf" title="the model as MuJoCo MJCF (A-pairs as hinge + slide tied by a fitted equality); warnings list what MJCF cannot carry">Export MJCF</button>
      </div>
      <div class="d-textbox" hidden>
        <textarea class="d-text" rows="14" spellcheck="false" aria-label="robot JSON"></textarea>
        <div class="row"><button type="button" class="d-apply primary">Load this JSON</button></div>
      </div>`;
    this.$ = (s) => panel.querySelector(s);
    this.panel = panel;
    this.$('.d-name').addEventListener('change', (e) => this.edit((d) => { d.name = e.target.value || 'my-chain'; }));
    this.$('.d-conv').addEventListener('change', (e) => this.convertTo(e.target.value));
    this.$('.d-new').addEventListener('click', () => this.newChain());
    this.$('.d-add').addEventListener('click', () => this.addJoint(this.$('.d-addkind').value));
    this.$('.d-undo').addEventListener('click', () => this.undo());
    this.$('.d-redo').addEventListener('click', () => this.redo());
    this.$('.d-fit').addEventListener('click', () => this.studio.fitView());
    this.$('.d-export').addEventListener('click', () => this.exportJson());
    for (const f of ['urdf', 'mjcf']) {
      this.$(`.d-export-${f}`).addEventListener('click', () => {
        try { this.lastExport = exportModel(this.studio, f).text; } catch (e) { this.studio.status(`${f.toUpperCase()} export: ${e.message}`, true); }
      });
    }
    this.$('.d-file').addEventListener('change', async (e) => {
      const f = e.target.files[0];
      e.target.value = '';
      if (!f) return;
      let text;
      try { text = await readFileText(f); } catch (err) { this.studio.status(err.message, true); return; }
      this.importText(text);
    });
    this.$('.d-show').addEventListener('click', () => {
      const box = this.$('.d-textbox');
      box.hidden = !box.hidden;
      if (!box.hidden) this.$('.d-text').value = JSON.stringify(this.doc, null, 2);
    });
    this.$('.d-apply').addEventListener('click', () => this.importText(this.$('.d-text').value));

    studio.onModel((m) => {
      if (this._applying) return;
      clearTimeout(this._t);  // a field's pending edit belongs to the last robot, not to this one
      this._pre = null;
      this.doc = m.modelToJson();
      // a new robot: the last document's error is not this one's
      this.$('.d-error').hidden = true;
      this.$('.d-error').textContent = '';
      this.errorPath = null;
      this.ok = true;
      // the loaded robot: undoing back to this document names it again
      this.origin = { source: studio.modelSource, json: JSON.stringify(this.doc) };
      this.undoStack = [];
      this.redoStack = [];
      this.render();
    });
    studio.addEventListener('units', () => this.render());
    studio.addEventListener('urdf', () => {
      this.renderTree();
      if (studio.urdf?.pending) this.$('.d-tree').scrollIntoView({ block: 'nearest' });
    });
  }

  /**
   * The tree panel: a URDF's links (its own tree, from the core) or the model's; picking a link reloads the
   * URDF with that tool link, or sets a description's tool.link. A URDF waiting for its tool asks for it.
   */
  renderTree() {
    const studio = this.studio;
    const box = this.$('.d-tree');
    const u = studio.urdf;
    const pickUrdf = (link) => u.reload(link).catch((e) => studio.status(e.message, true));
    // while a URDF waits for its tool link, only its tree is shown: the chain fields still hold the robot before it
    this.panel.classList.toggle('urdf-pending', !!u?.pending);
    if (u?.pending) {
      renderTree(box, u.tree, {
        units: studio.units, tool: '', onPick: pickUrdf,
        sentence: `${u.path}: this robot is a tree with ${u.tree.leaves.length} end links (${u.tree.leaves.join(', ')}): choose the tool link.`,
      });
    } else if (u && u.model === studio.model) {
      renderTree(box, u.tree, { units: studio.units, tool: u.toolLink, onPick: pickUrdf });
    } else if (studio.model) {
      const t = studio.model.modelTree();
      renderTree(box, t, {
        units: studio.units, tool: t.toolLink,
        // links[i + 1] is joint i's link
        onPick: (name) => this.edit((d) => { d.tool = { ...d.tool, link: t.links.findIndex((l) => l.name === name) - 1 }; }),
      });
    }
  }

  activate() { this.render(); }

  // ---------------------------------------------------------------- document edits
  /** Applies fn to a copy of the working document and hands it to the core. */
  edit(fn, { pushUndo = true, rerender = true } = {}) {
    const before = structuredClone(this.doc);
    const next = structuredClone(this.doc);
    fn(next);
    if (pushUndo) { this.undoStack.push(before); this.redoStack = []; if (this.undoStack.length > 200) this.undoStack.shift(); }
    this.doc = next;
    return this.apply({ rerender });
  }

  /** Loads the working document through the core; shows its error (and keeps the last valid picture). */
  apply({ rerender = true, refit = false } = {}) {
    const err = this.$('.d-error');
    try {
      this._applying = true;
      const source = this.origin?.source && JSON.stringify(this.doc) === this.origin.json ? this.origin.source : null;
      this.studio.replaceModel(this.doc, { source, refit });
      err.hidden = true;
      err.textContent = '';
      this.errorPath = null;
      this.ok = true;
    } catch (e) {
      err.hidden = false;
      err.textContent = e.message;
      this.errorPath = (/^([\w\[\].]+):/.exec(e.message) || [])[1] ?? null;
      this.ok = false;
    } finally {
      this._applying = false;
    }
    if (rerender) this.render();
    else this._markInvalid();
    this.$('.d-undo').disabled = !this.undoStack.length;
    this.$('.d-redo').disabled = !this.redoStack.length;
    return this.ok;
  }

  undo() {
    if (!this.undoStack.length) return;
    this.redoStack.push(this.doc);
    this.doc = this.undoStack.pop();
    this.apply({ refit: true });
  }

  redo() {
    if (!this.redoStack.length) return;
    this.undoStack.push(this.doc);
    this.doc = this.redoStack.pop();
    this.apply({ refit: true });
  }

  newChain() {
    this.edit((d) => {
      for (const k of Object.keys(d)) delete d[k];
      Object.assign(d, {
        schema_version: 1, name: 'my-chain', description: 'designed in the achain studio', convention: 'standard',
        joints: [DesignView.defaultJoint('R', 0)],
      });
    });
    this.studio.fitView();
  }

  static defaultJoint(kind, index) {
    const j = { name: `joint${index + 1}`, kind, a: 0.25, alpha: 0, d: index === 0 ? 0.2 : 0, theta_f: 0, sign: 1,
      // default speed and acceleration limits (180°/s, 720°/s²; 0.5 m/s, 2 m/s² for P), shown in the table
      limits: { lower: -Math.PI, upper: Math.PI, velocity: Math.PI, acceleration: 4 * Math.PI }, link: { mass: 1, com: [0, 0, 0], inertia: [[0.01, 0, 0], [0, 0.01, 0], [0, 0, 0.01]] } };
    return DesignView.setKind(j, kind);
  }

  /** Changes a joint's kind, dropping fields the new kind does not take and adding its defaults. */
  static setKind(j, kind) {
    j.kind = kind;
    if (kind !== 'H') delete j.pitch; else if (j.pitch == null) j.pitch = 0.01;
    if (kind !== 'A') { delete j.rho; delete j.leg_length; delete j.side; delete j.legs; } else {
      if (j.rho == null && j.leg_length == null && j.side == null) j.leg_length = DEFAULT_LEG;
      if (!j.legs) j.legs = { mass: 0.05, radius: 0 };
      j.limits = { ...(j.limits ?? {}), lower: 60 * DEG, upper: 300 * DEG };
    }
    if (kind === 'P') j.limits = { ...(j.limits ?? {}), lower: 0, upper: 0.5, velocity: 0.5, acceleration: 2 };
    else if (j.limits && j.limits.upper != null && j.limits.upper <= 1 && kind !== 'A') j.limits = { ...j.limits, lower: -Math.PI, upper: Math.PI, velocity: Math.PI, acceleration: 4 * Math.PI };
    return j;
  }

  /**
   * Switches the DH convention keeping the arm where it is: the core's convertConvention() rewrites
   * the description (a, α, d, θ_f, base/tool, link frames and inertials) so that every q gives the
   * same tool pose. Without that binding the numbers are re-read in the other convention.
   */
  convertTo(target) {
    if ((this.doc.convention ?? 'standard') === target) return true;
    const err = this.$('.d-error');
    let src = null;
    let conv = null;
    try {
      src = this.studio.achain.loadModel(this.doc);
      conv = src.convertConvention(target);
      const json = conv.modelToJson();
      json.name = this.doc.name ?? json.name;
      return this.edit((d) => {
        for (const k of Object.keys(d)) delete d[k];
        Object.assign(d, json);
      });
    } catch (e) {
      err.hidden = false;
      err.textContent = `DH convention: ${e.message}`;
      this.$('.d-conv').value = this.doc.convention ?? 'standard';
      return false;
    } finally {
      conv?.dispose();
      src?.dispose();
    }
  }

  addJoint(kind) {
    this.edit((d) => {
      d.joints.push(DesignView.defaultJoint(kind, d.joints.length));
      if (d.loop) delete d.loop.assembly;  // one value per coordinate: no longer the right length
    });
  }

  removeJoint(i) {
    if (this.doc.joints.length <= 1) return;
    this.edit((d) => {
      d.joints.splice(i, 1);
      for (const j of d.joints) if (j.parent != null) delete j.parent; // keep it a serial chain
      if (d.tool && d.tool.link != null) delete d.tool.link;
      DesignView.dropLinkGeometry(d, i);
      if (d.loop) {  // the removed joint is no longer a coordinate; indices after it move down
        const gone = this.doc.joints[i].name;
        d.loop.coordinates = d.loop.coordinates.filter((c) => c !== gone && c !== i).map((c) => (typeof c === 'number' && c > i ? c - 1 : c));
        delete d.loop.assembly;
      }
    });
  }

  /**
   * The visual/collision shapes (URDF meshes and primitives) belong to links: removing joint i removes its
   * link's shapes, and the shapes of the links after it follow their link to its new index.
   */
  static dropLinkGeometry(d, i) {
    if (!Array.isArray(d.geometry)) return;
    d.geometry = d.geometry.filter((g) => g.link !== i).map((g) => (g.link > i ? { ...g, link: g.link - 1 } : g));
    if (!d.geometry.length) delete d.geometry;
  }

  exportJson() {
    const text = JSON.stringify(this.doc, null, 2);
    this.lastExport = text;
    downloadText(text, `${this.doc.name || 'robot'}.json`, 'application/json');
  }

  /** Loads a JSON text (any units block the core accepts). On success the editor shows it in SI. */
  importText(text) {
    const err = this.$('.d-error');
    let model;
    try {
      model = this.studio.achain.loadModel(text);
    } catch (e) {
      err.hidden = false;
      err.textContent = e.message;
      return false;
    }
    const si = model.modelToJson();
    model.dispose();
    this.undoStack.push(this.doc);
    this.redoStack = [];
    this.doc = si;
    const ok = this.apply();
    if (ok) this.studio.fitView();
    return ok;
  }

  // ---------------------------------------------------------------- table
  render() {
    if (!this.doc || !this.$) return;
    const u = this.studio.units;
    const lf = lengthF(u);
    const af = angleF(u);
    const lu = u.length;
    const au = u.angle === 'deg' ? '°' : 'rad';
    this.$('.d-name').value = this.doc.name ?? '';
    this.$('.d-conv').value = this.doc.convention ?? 'standard';
    this.$('.d-undo').disabled = !this.undoStack.length;
    this.$('.d-redo').disabled = !this.redoStack.length;
    this.renderTree();
    const info = this.studio.model?.joints ?? [];
    const box = this.$('.d-joints');
    const focusKey = document.activeElement?.dataset?.field ? `${document.activeElement.dataset.joint}:${document.activeElement.dataset.field}` : null;
    box.replaceChildren();
    this.doc.joints.forEach((j, i) => {
      const card = document.createElement('div');
      card.className = 'd-joint';
      card.dataset.joint = String(i);
      const angular = info[i] ? info[i].angular : j.kind !== 'P';  // the core's joint model once the model is loaded
      const lim = j.limits ?? {};
      // a joint placed by origin/axis (as in URDF) shows its origin and axis, not DH a and α (the file has none)
      const placed = j.origin != null || j.axis != null;
      const o = placed ? this._originParts(j) : null;
      const fields = placed ? [
        ...['x', 'y', 'z'].map((c, k) => [`origin.xyz.${k}`, `origin ${c}`, lu, o.origin.xyz[k], lf]),
        ...['roll', 'pitch', 'yaw'].map((c, k) => [`origin.rpy.${k}`, c, au, o.origin.rpy[k], af]),
        ...['x', 'y', 'z'].map((c, k) => [`axis.${k}`, `axis ${c}`, '', o.axis[k], 1]),
        ['d', 'd', lu, j.d ?? 0, lf],
        ['theta_f', 'θ_f', au, j.theta_f ?? 0, af],
      ] : [
        ['a', 'a', lu, j.a ?? 0, lf],
        ['alpha', 'α', au, j.alpha ?? 0, af],
        ['d', 'd', lu, j.d ?? 0, lf],
        ['theta_f', 'θ_f', au, j.theta_f ?? 0, af],
      ];
      fields.push(
        ['limits.lower', 'lower', angular ? au : lu, lim.lower, angular ? af : lf],
        ['limits.upper', 'upper', angular ? au : lu, lim.upper, angular ? af : lf],
        ['link.mass', 'mass', 'kg', j.link?.mass ?? 0, 1]);
      const after = placed ? 11 : 4;  // the joint's own parameters follow its placement
      if (j.kind === 'H') fields.splice(after, 0, ['pitch', 'pitch', `${lu}/${au}`, j.pitch ?? 0, lf / af]);
      if (j.kind === 'A') {
        const mode = j.leg_length != null ? 'leg_length' : j.side != null ? 'side' : 'rho';
        const v = j[mode] ?? info[i]?.rho ?? 0;
        fields.splice(after, 0, [mode, mode === 'rho' ? 'ρ' : mode === 'side' ? 'side' : 'leg l', lu, v, lf]);
      }
      const head = document.createElement('div');
      head.className = 'row d-head';
      head.innerHTML = `<b>${i + 1}</b>`;
      const name = this._input('text', j.name ?? `joint${i + 1}`, i, 'name');
      name.title = name.value;
      name.setAttribute('aria-label', `joint ${i + 1} name`);
      name.style.flexBasis = `${Math.max(7, name.value.length + 2)}ch`;
      name.addEventListener('change', () => this.edit((d) => {
        const old = d.joints[i].name;
        d.joints[i].name = name.value;
        if (d.loop) d.loop.coordinates = d.loop.coordinates.map((c) => (c === old ? name.value : c));  // the loop names it
      }));
      const kind = document.createElement('select');
      kind.dataset.joint = String(i);
      kind.dataset.field = 'kind';
      kind.setAttribute('aria-label', `joint ${i + 1} kind`);
      for (const k of KINDS) kind.add(new Option(k, k, false, k === j.kind));
      kind.addEventListener('change', () => this.edit((d) => { DesignView.setKind(d.joints[i], kind.value); }));
      const sign = document.createElement('select');
      sign.dataset.joint = String(i);
      sign.dataset.field = 'sign';
      sign.setAttribute('aria-label', `joint ${i + 1} sign`);
      sign.add(new Option('s = +1', '1', false, (j.sign ?? 1) === 1));
      sign.add(new Option('s = −1', '-1', false, j.sign === -1));
      sign.addEventListener('change', () => this.edit((d) => { d.joints[i].sign = Number(sign.value); }));
      const del = document.createElement('button');
      del.type = 'button';
      del.textContent = '✕';
      del.title = 'remove joint';
      del.disabled = this.doc.joints.length <= 1;
      del.addEventListener('click', () => this.removeJoint(i));
      head.append(name, kind, sign);
      if (j.kind === 'A') {
        const mode = document.createElement('select');
        mode.setAttribute('aria-label', `joint ${i + 1} A-pair size`);
        mode.dataset.joint = String(i);
        mode.dataset.field = 'asize';
        const cur = j.leg_length != null ? 'leg_length' : j.side != null ? 'side' : 'rho';
        for (const [v, t] of [['rho', 'ρ'], ['leg_length', 'leg l'], ['side', 'side']]) mode.add(new Option(t, v, false, v === cur));
        mode.addEventListener('change', () => this.edit((d) => {
          const J = d.joints[i];
          const m = this.studio.model?.joints[i];
          delete J.rho; delete J.leg_length; delete J.side;
          J[mode.value] = mode.value === 'rho' ? m?.rho ?? 0.1 : mode.value === 'side' ? m?.side ?? 0.17 : m?.legLength ?? DEFAULT_LEG;
        }));
        head.append(mode);
      }
      head.append(del);
      card.appendChild(head);
      const grid = document.createElement('div');
      grid.className = 'd-grid';
      for (const f of fields) grid.appendChild(this._field(i, ...f));
      card.appendChild(grid);
      // more: rate/effort limits and the link's mass properties
      const more = document.createElement('details');
      more.className = 'd-more';
      more.open = this._open?.has(i) ?? false;
      more.addEventListener('toggle', () => { this._open ??= new Set(); if (more.open) this._open.add(i); else this._open.delete(i); });
      const sum = document.createElement('summary');
      sum.textContent = 'rate limits, CoM, inertia';
      more.appendChild(sum);
      const grid2 = document.createElement('div');
      grid2.className = 'd-grid';
      const com = j.link?.com ?? [0, 0, 0];
      const I = Array.isArray(j.link?.inertia?.[0]) ? j.link.inertia : [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
      const extra = [
        ['limits.velocity', 'v max', angular ? `${au}/s` : `${lu}/s`, lim.velocity, angular ? af : lf],
        ['limits.acceleration', 'a max', angular ? `${au}/s²` : `${lu}/s²`, lim.acceleration, angular ? af : lf],
        ['limits.effort', 'effort', angular ? 'N·m' : 'N', lim.effort, 1],
        ['link.com.0', 'CoM x', lu, com[0], lf], ['link.com.1', 'CoM y', lu, com[1], lf], ['link.com.2', 'CoM z', lu, com[2], lf],
        ['link.inertia.0.0', 'Ixx', 'kg·m²', I[0][0], 1], ['link.inertia.1.1', 'Iyy', 'kg·m²', I[1][1], 1], ['link.inertia.2.2', 'Izz', 'kg·m²', I[2][2], 1],
        ['link.inertia.0.1', 'Ixy', 'kg·m²', I[0][1], 1], ['link.inertia.0.2', 'Ixz', 'kg·m²', I[0][2], 1], ['link.inertia.1.2', 'Iyz', 'kg·m²', I[1][2], 1],
      ];
      for (const f of extra) grid2.appendChild(this._field(i, ...f));
      more.appendChild(grid2);
      card.appendChild(more);
      box.appendChild(card);
    });
    this._renderLoop();
    this._markInvalid();
    if (focusKey) {
      const [ji, f] = focusKey.split(':');
      const el = box.querySelector(`[data-joint="${ji}"][data-field="${CSS.escape(f)}"]`);
      if (el && el !== document.activeElement) { el.focus(); if (el.type === 'number' || el.type === 'text') { const n = el.value.length; try { el.setSelectionRange?.(n, n); } catch { /* number inputs */ } } }
    }
  }

  /**
   * The loop section: declare a closed chain by tying the tool, where it is now, to the ground (a planar pin,
   * a ball joint or a weld), and choose the joints kept as coordinates (M − N of them, N from the core's
   * closureSpaceSize). Whether the loop closes and the coordinate choice is regular is checked when
   * Teleoperate closes it (the core's message names a mobility mismatch or a singular choice).
   */
  _renderLoop() {
    const box = this.$('.d-loop');
    box.replaceChildren();
    const d = this.doc;
    const achain = this.studio.achain;
    const kinds = [['planar_pin', 'planar pin (X, Y)'], ['point', 'ball joint (x, y, z)'], ['pose', 'weld (full pose)']];
    const select = document.createElement('select');
    select.className = 'd-loop-kind';
    select.setAttribute('aria-label', 'loop closure');
    for (const [v, t] of kinds) select.add(new Option(t, v, false, v === (d.loop?.closure ?? 'planar_pin')));
    const hint = document.createElement('p');
    hint.className = 'hint';
    const row = document.createElement('div');
    row.className = 'row';
    const button = (cls, text, title, fn) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = cls;
      b.textContent = text;
      b.title = title;
      b.addEventListener('click', fn);
      return b;
    };
    const M = d.joints.length;
    const keep = (kind) => Math.max(0, M - achain.closureSpaceSize(kind));
    if (!d.loop) {
      hint.textContent = 'An open chain. Tie its tool to the ground where it is now to make a closed chain (Freeman\'s model transfer): Teleoperate then moves it by its coordinates with the loop closed and shows the constraint forces.';
      row.append('tool → ground by', select, button('d-loop-add', 'Close the loop here', 'pin the tool at its current pose; the first M − N joints become the coordinates', () => this.closeLoopHere(select.value)));
      box.append(hint, row);
      return;
    }
    const n = keep(d.loop.closure);
    hint.textContent = `${d.loop.closure.replace('_', ' ')} at the tool: keep ${n} of the ${M} joints as coordinates (M − N with N = ${achain.closureSpaceSize(d.loop.closure)}); the others follow the loop.`;
    select.addEventListener('change', () => this.edit((doc) => {
      doc.loop.closure = select.value;
      doc.loop.coordinates = doc.joints.slice(0, keep(select.value)).map((j, k) => j.name ?? k);
    }));
    row.append('closure', select,
      button('d-loop-here', 'Pin here', 'move the ground point to the tool\'s current pose and take the current joints as the assembly', () => this.closeLoopHere(d.loop.closure)),
      button('d-loop-remove', 'Open the loop', 'remove the loop section: an open chain again', () => this.edit((doc) => { delete doc.loop; })));
    const coords = document.createElement('div');
    coords.className = 'row d-loop-coords';
    coords.append('coordinates');
    d.joints.forEach((j, k) => {
      const label = document.createElement('label');
      const cb = document.createElement('input');
      cb.type = 'checkbox';
      cb.dataset.loopJoint = String(k);
      cb.checked = d.loop.coordinates.includes(j.name) || d.loop.coordinates.includes(k);
      cb.addEventListener('change', () => this.edit((doc) => {
        const name = doc.joints[k].name ?? k;
        const rest = doc.loop.coordinates.filter((c) => c !== name && c !== k);
        doc.loop.coordinates = cb.checked ? [...rest, name] : rest;
      }));
      label.append(cb, j.name ?? `joint${k + 1}`);
      coords.append(label);
    });
    box.append(hint, row, coords);
  }

  /** Declares (or moves) the loop: the tool tied to the ground at its current pose, the current q as the assembly. */
  closeLoopHere(kind) {
    const s = this.studio;
    const T = s.lastFk?.tool;
    if (!T) return false;
    const keep = Math.max(0, this.doc.joints.length - s.achain.closureSpaceSize(kind));
    return this.edit((d) => {
      const coordinates = d.loop?.closure === kind ? d.loop.coordinates : d.joints.slice(0, keep).map((j, k) => j.name ?? k);
      d.loop = { closure: kind, ground: { matrix: [0, 1, 2, 3].map((r) => [T[4 * r], T[4 * r + 1], T[4 * r + 2], T[4 * r + 3]]) },
        coordinates, assembly: Array.from(s.q) };
    });
  }

  /** One labelled number input bound to a path in joint i of the document (display units ↔ SI by factor f). */
  _field(i, path, label, unit, si, f) {
    const cell = document.createElement('label');
    const inp = this._input('number', si == null ? '' : String(Number((si * f).toPrecision(7))), i, path);
    inp.placeholder = si == null ? 'none' : '';
    inp.step = 'any';
    inp.setAttribute('aria-label', `joint ${i + 1} ${label}`);
    const commit = (pushUndo) => {
      const txt = inp.value.trim();
      let v = txt === '' ? null : Number(txt) / f;
      if (v !== null && !Number.isFinite(v)) return;
      if (v === null && /^link\.(com|inertia)\./.test(path)) v = 0;
      this.edit((d) => {
        if (/^(origin|axis)\./.test(path)) Object.assign(d.joints[i], this._originParts(d.joints[i]));  // as xyz/rpy and axis
        setPath(d.joints[i], path, v);
        const m = /^link\.inertia\.(\d)\.(\d)$/.exec(path);
        if (m && m[1] !== m[2]) setPath(d.joints[i], `link.inertia.${m[2]}.${m[1]}`, v); // keep it symmetric
      }, { pushUndo, rerender: false });
    };
    inp.addEventListener('focus', () => { this._pre = structuredClone(this.doc); });
    inp.addEventListener('input', () => { clearTimeout(this._t); this._t = setTimeout(() => commit(false), 120); });
    inp.addEventListener('change', () => {
      clearTimeout(this._t);
      commit(false);
      if (this._pre && JSON.stringify(this._pre) !== JSON.stringify(this.doc)) { this.undoStack.push(this._pre); this.redoStack = []; this._pre = structuredClone(this.doc); this.$('.d-undo').disabled = false; }
    });
    cell.append(`${label} `, inp, ` ${unit}`);
    return cell;
  }

  /**
   * The origin of an origin/axis joint as position, roll-pitch-yaw (the core's matrixToRpy) and axis, SI, for its
   * fields and for an edit (the description then holds {xyz, rpy}, which the core reads as it reads a matrix).
   */
  _originParts(j) {
    const O = j.origin ?? {};
    const M = O.matrix;
    const xyz = M ? [M[0][3], M[1][3], M[2][3]] : [...(O.xyz ?? [0, 0, 0])];
    const rpy = M ? Array.from(this.studio.achain.matrixToRpy(M.flat())) : [...(O.rpy ?? [0, 0, 0])];
    return { origin: { xyz, rpy }, axis: [...(j.axis ?? [0, 0, 1])] };
  }

  _markInvalid() {
    const e = this.errorPath;
    for (const inp of this.$('.d-joints').querySelectorAll('input[data-field]')) {
      const path = `joints[${inp.dataset.joint}].${inp.dataset.field}`;
      const bad = !!e && (path === e || path.startsWith(`${e}.`) || e.startsWith(`${path}.`) || e.startsWith(`${path}[`));
      inp.classList.toggle('invalid', bad);
      if (bad) inp.closest('details')?.setAttribute('open', '');
    }
  }

  _input(type, value, i, field) {
    const inp = document.createElement('input');
    inp.type = type;
    inp.value = String(value);
    inp.dataset.joint = String(i);
    inp.dataset.field = field;
    return inp;
  }
}

function setPath(obj, path, v) {
  const parts = path.split('.');
  let o = obj;
  for (let k = 0; k < parts.length - 1; k++) {
    const key = parts[k];
    if (o[key] == null) o[key] = key === 'com' ? [0, 0, 0] : key === 'inertia' ? [[0, 0, 0], [0, 0, 0], [0, 0, 0]] : /^\d+$/.test(parts[k + 1]) ? [] : {};
    if (key === 'inertia' && !Array.isArray(o[key][0])) { // [Ixx, Iyy, Izz, Ixy, Iyz, Ixz] → 3×3
      const [xx, yy, zz, xy, yz, xz] = o[key];
      o[key] = [[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]];
    }
    o = o[key];
  }
  const last = parts[parts.length - 1];
  if (v === null) delete o[last]; else o[last] = v;
}
