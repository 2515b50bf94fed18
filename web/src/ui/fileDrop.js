// Bringing a URDF robot into the studio: drag and drop (files, or a folder through DataTransfer items) onto
// the page, or the "Open URDF" pickers (several files, or a folder via webkitdirectory). The URDF is loaded
// by the core (achain.loadModel); the other files are kept by path for UrdfGeometry to resolve the mesh
// file names against (package://pkg/path and relative paths, by path suffix). A zip is unpacked (fflate, as
// bundled with three).
import { unzipSync } from 'three/examples/jsm/libs/fflate.module.js';
import { readFileText, readFileBytes } from './readFile.js';

/** Reads every file under a FileSystemEntry (drag and drop of a folder). Resolves to [{path, file}]. */
async function readEntry(entry) {
  if (entry.isFile) {
    const file = await new Promise((res, rej) => entry.file(res, rej));
    return [{ path: entry.fullPath.replace(/^\//, ''), file }];
  }
  if (!entry.isDirectory) return [];
  const reader = entry.createReader();
  const out = [];
  for (;;) {
    const batch = await new Promise((res, rej) => reader.readEntries(res, rej)); // batches until empty
    if (!batch.length) break;
    for (const e of batch) out.push(...await readEntry(e));
  }
  return out;
}

/** The dropped files as [{path, file}] (folders walked when the browser gives entries). */
async function droppedFiles(dt) {
  const entries = Array.from(dt.items ?? [])
    .filter((it) => it.kind === 'file')
    .map((it) => it.webkitGetAsEntry?.())
    .filter(Boolean);
  if (entries.length) {
    const out = [];
    for (const e of entries) out.push(...await readEntry(e));
    return out;
  }
  return Array.from(dt.files ?? [], (file) => ({ path: file.webkitRelativePath || file.name, file }));
}

/** Zip files in the list replaced by their entries (paths under the zip's name); a bad zip throws naming it. */
async function expandZips(list) {
  const out = [];
  for (const f of list) {
    if (!/\.zip$/i.test(f.path)) { out.push(f); continue; }
    let entries;
    const bytes = await readFileBytes(f.file, f.path);
    try { entries = unzipSync(bytes); } catch (e) { throw new Error(`${f.path}: not a readable zip file (${e.message})`); }
    const base = f.path.replace(/\.zip$/i, '');
    for (const [name, bytes] of Object.entries(entries)) {
      if (name.endsWith('/')) continue; // a folder entry
      out.push({ path: `${base}/${name}`, file: new File([bytes], name.split('/').pop()) });
    }
  }
  return out;
}

/**
 * Loads a URDF robot from a set of files (zip files are unpacked): the one .urdf (or, when there are several, the shallowest, then
 * first by name) is the robot; the rest resolve its meshes. Reports on the studio status line.
 * @param {import('../Studio.js').Studio} studio
 * @param {import('../three/UrdfGeometry.js').UrdfGeometry} visuals
 * @param {{path: string, file: File}[]} list
 */
export async function loadUrdfFiles(studio, visuals, dropped) {
  const list = await expandZips(dropped);
  const urdfs = list.filter((f) => /\.(urdf|xml)$/i.test(f.path))
    .sort((a, b) => a.path.split('/').length - b.path.split('/').length || a.path.localeCompare(b.path));
  if (!urdfs.length) {
    const json = list.find((f) => /\.json$/i.test(f.path));
    if (json) {
      try { studio.setModel(await readFileText(json.file, 'the file')); } catch (e) { studio.status(`${json.path}: ${e.message}`, true); }
      return;
    }
    studio.status(`no URDF among the dropped files (${list.map((f) => f.path).slice(0, 5).join(', ')}${list.length > 5 ? ', …' : ''})`, true);
    return;
  }
  const main = urdfs[0];
  const extra = urdfs.length > 1 ? ` (${urdfs.length} URDF files dropped: loaded the first, ${main.path})` : '';
  await openUrdfText(studio, visuals, { path: main.path, text: await readFileText(main.file, main.path), list, extra });
}

/**
 * Loads URDF text with the files its meshes come from, the tool on `toolLink` ('' = the link the file names in
 * achain:tool, else its single end link). The core's tree (achain.urdfTree) is kept as studio.urdf = {path,
 * text, tree, toolLink, model, pending, reload(toolLink)} for the Design view's tree panel, whose pick calls
 * reload. A tree with several end links and no tool named is not loaded: studio.urdf is pending, the Design
 * view is shown and its tree panel asks for the tool link (event 'urdf'). Reports on the status line.
 */
export async function openUrdfText(studio, visuals, src, toolLink = '') {
  const { path, text, list } = src;
  let tree;
  try {
    tree = studio.achain.urdfTree(text);
  } catch (e) {
    studio.status(`${path}: ${e.message}`, true);
    return;
  }
  const tool = toolLink || tree.toolLink || (tree.leaves.length === 1 ? tree.leaves[0] : '');
  const reload = (link) => openUrdfText(studio, visuals, src, link);
  if (!tool) {
    studio.urdf = { path, text, tree, toolLink: '', model: null, pending: true, reload };
    studio.dispatchEvent(new CustomEvent('urdf', { detail: studio.urdf }));
    studio.showView('design');
    studio.status(`${path}: ${tree.name} is a tree with ${tree.leaves.length} end links: choose the tool link in the Design view`);
    studio.showPendingRobot(`${tree.name} (${path}) is drawn once its tool link is chosen: pick one of its ${tree.leaves.length} end links in the Design view's tree.`);
    return;
  }
  const previous = visuals.files;
  visuals.setFiles(list.map((f) => [f.path, f.file]));
  let model;
  try {
    model = studio.setModel(text, undefined, { toolLink });
  } catch (e) {
    visuals.setFiles(previous);
    studio.status(`${path}: ${e.message}`, true);
    return;
  }
  studio.urdf = { path, text, tree, toolLink: tool, model, pending: false, reload };
  studio.dispatchEvent(new CustomEvent('urdf', { detail: studio.urdf }));
  const notes = model.info.notes.filter((n) => /warning/i.test(n));
  studio.setWarnings('urdf', notes.map((n) => ({ text: `${path}: ${n}`, level: 'warn' })));
  // the URDF's warnings belong to this model: another robot clears them
  const clear = (e) => { if (e.detail !== model) { studio.setWarnings('urdf', []); studio.removeEventListener('model', clear); } };
  studio.addEventListener('model', clear);
  await visuals.ready;
  const s = visuals.stats();
  const toolText = tree.leaves.length > 1 ? `, tool link ${tool}` : '';
  studio.status(`${model.name} from ${path}: ${model.dof} joints${toolText}, ${s.meshes} mesh parts, ${s.primitives} shapes`
    + `${s.missing.length ? `, ${s.missing.length} missing` : ''}${s.broken.length ? `, ${s.broken.length} broken` : ''}${src.extra ?? ''}`, s.broken.length > 0);
}

/**
 * Wires drag and drop on the whole page and adds the "Open URDF" pickers to `bar`.
 * Returns a function loading [{path, file}] (the same path the drop takes).
 */
export function installFileDrop(studio, visuals, bar) {
  const load = (list) => loadUrdfFiles(studio, visuals, list).catch((e) => studio.status(e.message, true));
  const wrap = document.createElement('span');
  wrap.className = 'urdf-open';
  wrap.innerHTML = `<label class="filebtn" title="Open a URDF robot with its mesh files (select them together, or a zip of them), or drop them on the page"><input type="file" id="urdf-files" multiple accept=".urdf,.xml,.zip,.stl,.obj,.dae,.json,.png,.jpg" hidden><span class="btnlike">URDF…</span></label>
    <label class="filebtn" title="Open a folder holding a URDF robot and its meshes"><input type="file" id="urdf-folder" webkitdirectory multiple hidden><span class="btnlike">Folder…</span></label>`;
  bar.prepend(wrap);
  for (const input of wrap.querySelectorAll('input')) {
    input.addEventListener('change', async () => {
      const list = Array.from(input.files, (file) => ({ path: file.webkitRelativePath || file.name, file }));
      input.value = '';
      if (list.length) await load(list);
    });
  }
  const hint = document.createElement('div');
  hint.className = 'drop-hint';
  hint.textContent = 'Drop a URDF with its meshes, or a folder holding one';
  hint.hidden = true;
  studio.els.viewport.appendChild(hint);
  let depth = 0;
  const hasFiles = (e) => Array.from(e.dataTransfer?.types ?? []).includes('Files');
  window.addEventListener('dragenter', (e) => { if (!hasFiles(e)) return; depth++; hint.hidden = false; });
  window.addEventListener('dragleave', () => { depth = Math.max(0, depth - 1); if (!depth) hint.hidden = true; });
  window.addEventListener('dragover', (e) => { if (hasFiles(e)) e.preventDefault(); });
  window.addEventListener('drop', async (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth = 0;
    hint.hidden = true;
    const list = await droppedFiles(e.dataTransfer);
    if (list.length) await load(list);
  });
  return load;
}
