// Studio entry point: loads the wasm core, fills the robot picker, mounts the views, wires the
// units switch, the shareable URL state (#robot=…&q=…) and the keyboard shortcuts.
import { loadAchain } from '../../wasm/achain.mjs';
import { Studio } from './Studio.js';
import { DesignView } from './views/DesignView.js';
import { TeleopView } from './views/TeleopView.js';
import { MotionView } from './views/MotionView.js';
import { WorkspaceView } from './views/WorkspaceView.js';
import { ControllerView } from './views/ControllerView.js';
import { VibrationView } from './views/VibrationView.js';
import { SweepView } from './views/SweepView.js';
import { makeUnits } from './lib/units.js';
import { captureSession, applySession } from './ui/session.js';
import { UrdfGeometry } from './three/UrdfGeometry.js';
import { installFileDrop } from './ui/fileDrop.js';
import { readFileText } from './ui/readFile.js';

const $ = (id) => document.getElementById(id);
const els = {
  viewport: $('viewport'), readout: $('readout'), status: $('status'), panel: $('panel'),
  tabs: $('tabs'), select: $('robot-select'), overlay: $('overlay-msg'), warnings: $('warnings'), units: $('units-box'),
  help: $('help'),
};

function showFatal(err) {
  els.overlay.hidden = false;
  els.overlay.textContent = `The studio could not start:\n${err && err.message ? err.message : err}`;
  els.status.textContent = `error: ${err && err.message ? err.message : err}`;
  els.status.classList.add('error');
}

const CUSTOM = '__custom__';
const MESH_NOTE = 'mesh files are not carried by a link (open the URDF with its meshes to draw them)';
/** The model draws mesh files (URDF visuals): a share link carries their names, not the files. */
const hasMeshes = (model) => !!model?.info.geometry.some((g) => g.shape === 'mesh' && !g.collision);

async function main() {
  const achain = await loadAchain();
  const studio = new Studio(achain, els);
  const builtins = achain.builtinRobots();
  for (const b of builtins) {
    const opt = document.createElement('option');
    opt.value = b.name;
    opt.textContent = `${b.name} (${b.dof})`;
    opt.title = b.description;
    els.select.appendChild(opt);
  }
  const customOpt = document.createElement('option');
  customOpt.value = CUSTOM;
  customOpt.textContent = '(custom design)';
  customOpt.hidden = true;
  els.select.appendChild(customOpt);

  const visuals = new UrdfGeometry(studio); // URDF visuals (meshes from dropped files), before the first model
  const views = [new DesignView(), new TeleopView(), new MotionView(), new WorkspaceView(), new ControllerView(), new VibrationView(), new SweepView()];
  for (const v of views) studio.addView(v);

  // units switch
  els.units.innerHTML = `<label>angles <select id="unit-angle" aria-label="angle unit"><option value="deg">deg</option><option value="rad">rad</option></select></label>
    <label>lengths <select id="unit-length" aria-label="length unit"><option value="mm">mm</option><option value="in">in</option><option value="m">m</option></select></label>
    <button type="button" id="share" title="Copy a link to this robot and pose (a URDF robot goes as its JSON description: mesh files are not carried by a link)">Share</button>
    <button type="button" id="session-save" title="Save the session (robot, design, pose, camera, Motion and Workspace settings) as a file">Save</button>
    <label class="filebtn" title="Open a saved session file"><input type="file" id="session-open" accept=".json,application/json" hidden><span class="btnlike">Open</span></label>
    <a href="./tutorials/index.html" target="_blank" rel="noopener">Tutorials</a>
    <button type="button" id="help-btn" title="Keyboard shortcuts (?)">?</button>`;
  const openUrdf = installFileDrop(studio, visuals, els.units);
  const ua = $('unit-angle');
  const ul = $('unit-length');
  const applyUnits = () => { studio.setUnits(makeUnits(ua.value, ul.value)); scheduleHash(); };
  ua.addEventListener('change', applyUnits);
  ul.addEventListener('change', applyUnits);
  studio.addEventListener('units', (e) => { ua.value = e.detail.angle; ul.value = e.detail.length; });

  // model picker
  studio.addEventListener('model', () => {
    const src = studio.modelSource;
    customOpt.hidden = !!src;
    els.select.value = src ?? CUSTOM;
  });
  els.select.addEventListener('change', () => {
    if (els.select.value === CUSTOM) return;
    // a trajectory streaming to the controller belongs to this robot: ask, then stop it (controlled stop;
    // the link stays up, so the watchdog does not fault)
    const ctl = views.find((v) => v.id === 'controller');
    if (ctl?.busy) {
      if (!window.confirm(`A trajectory is streaming to ${ctl.busyText}. Stop it and switch the robot?`)) {
        els.select.value = studio.modelSource ?? CUSTOM;
        return;
      }
      ctl.stop();
    }
    try { studio.setModel(els.select.value); } catch (e) { studio.status(e.message, true); }
  });

  /**
   * A fresh open (no link state) does not start at a singular pose: when the core finds the home pose
   * singular (the prototype's all-180°, stretched), the arm starts bent 30° per joint, alternating,
   * if the core finds that pose regular; a one-line hint says what to do and where the home pose is.
   */
  function startPose() {
    const m = studio.model;
    const home = studio.q;
    if (!m.detectSingularities(home).length) return;
    const q = Float64Array.from(home, (v, i) => {
      const j = m.coordinates[i];
      if (!j.angular) return v;
      const bent = v + (i % 2 ? 30 : -30) * Math.PI / 180;
      return bent >= (j.lower ?? -Infinity) && bent <= (j.upper ?? Infinity) ? bent : v;
    });
    if (m.detectSingularities(q).length) return;
    studio.setQ(q);
    studio.fitView();
    const hint = document.querySelector('.view-panel[data-view="teleop"] .start-hint');
    if (!hint) return;
    hint.textContent = 'Drag the orange ball at the tool (or a slider) to move the arm; Home (H) is the thesis pose, all joints 180° (stretched, singular).';
    hint.hidden = false;
    const hide = () => { hint.hidden = true; };
    studio.addEventListener('model', hide, { once: true });
  }

  // URL state
  let hashTimer = 0;
  let writingHash = false;
  function scheduleHash() {
    clearTimeout(hashTimer);
    hashTimer = setTimeout(() => {
      const h = `#${studio.hashState()}`;
      if (h !== location.hash) { writingHash = true; history.replaceState(null, '', h); writingHash = false; }
    }, 250);
  }
  function applyHash(hash) {
    const st = Studio.parseHash(hash);
    if (st.units) studio.setUnits(st.units);
    let loaded = false;
    const shown = studio.model;
    // The first thing wrong with the link is shown on the status line once everything else has loaded (a
    // later successful load must not overwrite it): a bad link is said, never ignored.
    let linkError = null;
    if (st.json) {
      try { studio.setModel(st.json); loaded = true; } catch (e) { linkError = `link: ${e.message}`; }
      if (loaded && hasMeshes(studio.model)) studio.status(`link: ${studio.model.name} as its JSON description — ${MESH_NOTE}`);
    }
    if (!loaded) {
      const name = st.robot && builtins.some((b) => b.name === st.robot) ? st.robot : (builtins.some((b) => b.name === 'prototype-4a') ? 'prototype-4a' : builtins[0].name);
      if (!studio.model || studio.modelSource !== name) studio.setModel(name);
      if (st.jsonError) linkError ??= `link: ${st.jsonError}`;
      if (st.robot && st.robot !== name) linkError ??= `link: no built-in robot named '${st.robot}'`;
      if (linkError) linkError += ` — showing ${name}`;
    }
    const q = Studio.qFromHash(studio.model, st.qDisplay);
    if (q) { try { studio.setQ(q); } catch (e) { linkError ??= `link: ${e.message}`; } }
    else if (st.qDisplay) {
      const bad = st.qDisplay.findIndex((v) => !Number.isFinite(v));
      linkError ??= `link: q=: ${bad >= 0 ? `item ${bad + 1} is not a number` : `${st.qDisplay.length} values for ${studio.model.dof} joints`} — the pose was not applied`;
    }
    if (q && studio.model !== shown) studio.fitView(); // a robot loaded at the link's pose: frame it as posed
    if (st.twin) studio.setTwin(true);
    studio.showView(views.some((v) => v.id === st.view) ? st.view : 'teleop');
    if (linkError) studio.status(linkError, true);
  }
  const freshOpen = !location.hash || location.hash === '#';
  applyHash(location.hash);
  if (freshOpen) startPose();
  studio.addEventListener('q', scheduleHash);
  studio.addEventListener('model', scheduleHash);
  studio.addEventListener('view', scheduleHash);
  studio.addEventListener('twin', scheduleHash);
  window.addEventListener('hashchange', () => { if (!writingHash) applyHash(location.hash); });
  $('share').addEventListener('click', async () => {
    const url = `${location.origin}${location.pathname}#${studio.hashState()}`;
    history.replaceState(null, '', `#${studio.hashState()}`);
    const note = hasMeshes(studio.model) ? ` — ${MESH_NOTE}` : '';
    try { await navigator.clipboard.writeText(url); studio.status(`link copied to the clipboard${note}`); } catch { studio.status(`link: ${url}${note}`); }
  });

  // session files
  $('session-save').addEventListener('click', () => {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([JSON.stringify(captureSession(studio), null, 1)], { type: 'application/json' }));
    a.download = `${studio.model.name}-session.json`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  });
  const openSession = (text, name = 'session') => {
    try {
      applySession(studio, text, applyHash);
      studio.status(`${name}: session loaded`);
    } catch (e) {
      studio.status(`${name}: ${e.message}`, true);
    }
  };
  $('session-open').addEventListener('change', async (e) => {
    const f = e.target.files?.[0];
    e.target.value = '';
    if (!f) return;
    let text;
    try { text = await readFileText(f); } catch (err) { studio.status(err.message, true); return; }
    openSession(text, f.name);
  });

  // keyboard shortcuts
  const teleop = views.find((v) => v.id === 'teleop');
  const shortcuts = [
    ['1 … 7', 'switch view (Design, Teleoperate, Motion, Workspace, Controller, Vibration, Sweep)'],
    ['W / E', 'gizmo: move / rotate'],
    ['T', 'R-twin overlay on/off'],
    ['F', 'link frames on/off'],
    ['H', 'home pose'],
    ['V', 'fit the view to what is shown (the arm, the workspace cloud)'],
    ['U', 'cycle length unit (mm → in → m)'],
    ['D', 'angles in deg / rad'],
    ['Ctrl+Z / Ctrl+Y', 'undo / redo in Design'],
    ['?', 'this help'],
  ];
  els.help.innerHTML = `<h3>Keyboard shortcuts</h3><table class="grid">${shortcuts.map(([k, d]) => `<tr><td><kbd>${k}</kbd></td><td>${d}</td></tr>`).join('')}</table><p class="muted">Esc closes</p>`;
  $('help-btn').addEventListener('click', () => { els.help.hidden = !els.help.hidden; });
  window.addEventListener('keydown', (e) => {
    const t = e.target;
    // typing: text, number and select fields; a slider, checkbox or button that has the focus keeps the shortcuts
    const typing = t && ((t.tagName === 'INPUT' && !['range', 'checkbox', 'radio', 'button'].includes(t.type)) ||
      t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);
    if ((e.ctrlKey || e.metaKey) && !typing) {
      const design = views.find((v) => v.id === 'design');
      if (e.key.toLowerCase() === 'z' && !e.shiftKey) { design.undo(); e.preventDefault(); }
      else if (e.key.toLowerCase() === 'y' || (e.key.toLowerCase() === 'z' && e.shiftKey)) { design.redo(); e.preventDefault(); }
      return;
    }
    if (typing || e.altKey || e.ctrlKey || e.metaKey) return;
    const k = e.key;
    if (k >= '1' && k <= String(views.length)) studio.showView(views[Number(k) - 1].id);
    else if (k === 'w' || k === 'W') teleop.setMode('translate');
    else if (k === 'e' || k === 'E') teleop.setMode('rotate');
    else if (k === 't' || k === 'T') studio.setTwin(!studio.twin);
    else if (k === 'f' || k === 'F') { studio.setFramesVisible(!studio.chain.showFrames); }
    else if (k === 'h' || k === 'H') teleop.home();
    else if (k === 'v' || k === 'V') studio.fitView();
    else if (k === 'u' || k === 'U') { ul.value = { mm: 'in', in: 'm', m: 'mm' }[ul.value]; applyUnits(); }
    else if (k === 'd' || k === 'D') { ua.value = ua.value === 'deg' ? 'rad' : 'deg'; applyUnits(); }
    else if (k === '?') els.help.hidden = !els.help.hidden;
    else if (k === 'Escape') els.help.hidden = true;
    else return;
    e.preventDefault();
  });

  // testing / scripting hook
  window.__achain = {
    studio,
    achain,
    views: Object.fromEntries(views.map((v) => [v.id, v])),
    get ready() { return !!studio.model; },
    get robot() { return studio.model?.name; },
    get legCount() { return studio.chain.legCount; },
    get q() { return Array.from(studio.q); },
    get tool() { return Array.from(studio.lastFk.tool); },
    get frames() { return studio.viewport.frames ?? 0; },
    setQ: (q) => studio.setQ(Float64Array.from(q)),
    // returns nothing: page.evaluate(() => __achain.setRobot(…)) would otherwise serialise the whole Model
    // (its bound getters) back to the test, tens of seconds
    setRobot: (name) => { studio.setModel(name); },
    visuals,
    /** Loads a URDF robot from [{path, file}] as a drop does; resolves when its meshes are drawn. */
    openUrdf,
    captureSession: () => captureSession(studio),
    openSession,
    /** Screen (CSS px, page coordinates) of a world point, for driving the gizmo in tests. */
    screenOf(x, y, z) {
      const v = new studio.viewport.camera.position.constructor(x, y, z).project(studio.viewport.camera);
      const r = studio.viewport.canvas.getBoundingClientRect();
      return { x: r.left + ((v.x + 1) / 2) * r.width, y: r.top + ((1 - v.y) / 2) * r.height };
    },
  };
  document.body.dataset.ready = '1';
}

main().catch((e) => { console.error(e); showFatal(e); });
