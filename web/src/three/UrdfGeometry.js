// UrdfGeometry: draws the visual shapes of a URDF model (model.info.geometry, from the core) in the link
// frames the core's forwardKinematics returns. Primitives become three.js meshes; mesh files (STL, OBJ,
// COLLADA) are read from the files the user dropped (resolved by path suffix, web/src/ui/fileDrop.js) with
// three's loaders. A mesh file that was not dropped gets a placeholder box and a warning naming it; a file
// the loader cannot read gets an error overlay naming it, and the rest of the robot is still drawn.
// Loaded geometry is cached per file and disposed when the robot or the dropped file set changes.
import * as THREE from 'three';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { ColladaLoader } from 'three/examples/jsm/loaders/ColladaLoader.js';
import { matrixFromRowMajor } from './ChainView.js';

const DEFAULT_COLOR = 0xb8c2cc;
const PLACEHOLDER_COLOR = 0xf97316;

/** Path segments of a mesh file name or a dropped file's path: package://, file://, '.', '..' and '' dropped. */
export function pathSegments(p) {
  return String(p).replace(/^package:\/\//, '').replace(/^file:\/\//, '').replace(/^model:\/\//, '')
    .split(/[\\/]+/).filter((s) => s && s !== '.' && s !== '..');
}

/**
 * The dropped file for a mesh file name: the one whose path shares the longest suffix of segments with it
 * (at least the file name). `files`: Map path → File. Returns {file, path} or null.
 */
export function resolveMesh(filename, files) {
  const want = pathSegments(filename);
  if (!want.length) return null;
  let best = null;
  let bestLen = 0;
  for (const [p, file] of files) {
    const have = pathSegments(p);
    let n = 0;
    while (n < want.length && n < have.length && want[want.length - 1 - n] === have[have.length - 1 - n]) n++;
    if (n > bestLen) { best = { file, path: p }; bestLen = n; }
  }
  return best;
}

function extensionOf(name) {
  const m = /\.([a-z0-9]+)$/i.exec(name);
  return m ? m[1].toLowerCase() : '';
}

export class UrdfGeometry {
  /** @param {import('../Studio.js').Studio} studio */
  constructor(studio) {
    this.studio = studio;
    this.group = new THREE.Group();
    this.group.name = 'achain-urdf-visuals';
    studio.viewport.world.add(this.group);
    this.files = new Map(); // dropped path → File
    this._cache = new Map(); // File → Promise<THREE.Object3D template>
    this._links = []; // {frame, object}
    this._own = []; // geometries/materials made for primitives (disposed on rebuild)
    this.missing = [];
    this.broken = [];
    this._overlay = null;
    this._build = 0;
    studio.addEventListener('model', (e) => this.build(e.detail));
    studio.addEventListener('q', () => this.update());
  }

  /** Sets the dropped files used to resolve mesh names; a new set disposes the cached meshes of the old one. */
  setFiles(files) {
    this._disposeCache();
    this.files = new Map(files);
  }

  /** Counts for tests and scripts: drawn meshes from files, primitives, placeholders; missing and broken files. */
  stats() {
    let meshes = 0; let primitives = 0; let placeholders = 0;
    this.group.traverse((o) => {
      if (!o.isMesh) return;
      if (o.userData.placeholder) placeholders++;
      else if (o.userData.fromFile) meshes++;
      else primitives++;
    });
    return { meshes, primitives, placeholders, missing: this.missing.slice(), broken: this.broken.map((b) => b.file), pending: this.pending ?? 0 };
  }

  /** Rebuilds the visuals of a model (async: mesh files are read and parsed). Resolves when all are placed. */
  async build(model) {
    const token = ++this._build;
    this._clearScene();
    this.missing = [];
    this.broken = [];
    const visuals = (model?.info?.geometry ?? []).filter((g) => !g.collision);
    if (!visuals.length) {
      // another robot without URDF visuals: nothing of the dropped set is needed any more. An edit in Design
      // (New chain, removing the links that carry them) keeps the files: undo brings the visuals back.
      if (!this.studio.editing) {
        this._disposeCache();
        this.files = new Map();
      }
      this.pending = 0;
      this._report();
      this.ready = Promise.resolve();
      return this.ready;
    }
    this.pending = visuals.length;
    const jobs = visuals.map(async (g) => {
      const holder = new THREE.Group(); // the shape frame in the link frame
      holder.matrixAutoUpdate = false;
      matrixFromRowMajor(holder.matrix, g.origin);
      const obj = await this._shape(g);
      if (token !== this._build) return; // a newer build started (its primitives are disposed with it)
      holder.add(obj);
      const link = new THREE.Group();
      link.matrixAutoUpdate = false;
      link.add(holder);
      this.group.add(link);
      this._links.push({ frame: g.link + 1, object: link });
      this.pending--;
    });
    this.ready = Promise.all(jobs).then(() => {
      if (token !== this._build) return;
      this.update();
      this._report();
    });
    return this.ready;
  }

  /** Places every link's visuals at its frame of the studio's last forward kinematics. */
  update() {
    const fk = this.studio.lastFk;
    if (!fk || !this._links.length) return;
    for (const { frame, object } of this._links) {
      const F = fk.frames[frame];
      if (!F) continue;
      matrixFromRowMajor(object.matrix, F);
      object.matrixWorldNeedsUpdate = true;
    }
    this.studio.viewport.requestRender();
  }

  _material(g) {
    const c = g.rgba;
    const m = new THREE.MeshStandardMaterial({
      color: c ? new THREE.Color(c[0], c[1], c[2]) : DEFAULT_COLOR, roughness: 0.6, metalness: 0.1,
      transparent: !!c && c[3] < 1, opacity: c ? c[3] : 1,
    });
    this._own.push(m);
    return m;
  }

  async _shape(g) {
    const s = g.size;
    let geom = null;
    if (g.shape === 'box') geom = new THREE.BoxGeometry(s[0], s[1], s[2]);
    else if (g.shape === 'sphere') geom = new THREE.SphereGeometry(s[0], 24, 16);
    else if (g.shape === 'cylinder') geom = new THREE.CylinderGeometry(s[0], s[0], s[1], 24).rotateX(Math.PI / 2); // URDF: along z
    if (geom) {
      this._own.push(geom);
      return new THREE.Mesh(geom, this._material(g));
    }
    const found = resolveMesh(g.mesh, this.files);
    if (!found) {
      this.missing.push(g.mesh);
      return this._placeholder(g);
    }
    let template;
    try {
      template = await this._load(found.file);
    } catch (e) {
      this.broken.push({ file: g.mesh, path: found.path, message: e.message || String(e) });
      return this._placeholder(g);
    }
    const obj = template.clone(true); // shares geometry (cached), own materials per visual when coloured
    obj.scale.multiply(new THREE.Vector3(g.scale[0], g.scale[1], g.scale[2]));
    obj.traverse((o) => {
      if (!o.isMesh) return;
      o.userData.fromFile = g.mesh;
      if (g.rgba || o.userData.plain) o.material = this._material(g);
    });
    return obj;
  }

  _placeholder(g) {
    const L = 0.1 * (this.studio.size || 1);
    const geom = new THREE.BoxGeometry(L, L, L);
    this._own.push(geom);
    const mat = new THREE.MeshStandardMaterial({ color: PLACEHOLDER_COLOR, wireframe: true });
    this._own.push(mat);
    const m = new THREE.Mesh(geom, mat);
    m.userData.placeholder = g.mesh;
    return m;
  }

  /** The parsed file as an Object3D template (cached per File). Throws naming what is wrong. */
  _load(file) {
    if (!this._cache.has(file)) this._cache.set(file, this._parse(file));
    return this._cache.get(file);
  }

  async _parse(file) {
    const ext = extensionOf(file.name);
    if (ext === 'stl') {
      const buf = await file.arrayBuffer();
      let geom;
      try { geom = new STLLoader().parse(buf); } catch (e) { throw new Error(`not a readable STL file (${e.message})`); }
      const n = geom.getAttribute('position')?.count ?? 0;
      if (!n || !finiteAttribute(geom)) { geom.dispose(); throw new Error('not a readable STL file (no triangles)'); }
      geom.computeVertexNormals();
      const mesh = new THREE.Mesh(geom, new THREE.MeshStandardMaterial({ color: DEFAULT_COLOR, roughness: 0.6, metalness: 0.1 }));
      mesh.userData.plain = true;
      return mesh;
    }
    if (ext === 'obj') {
      const group = new OBJLoader().parse(await file.text());
      let n = 0;
      group.traverse((o) => { if (o.isMesh) n += o.geometry.getAttribute('position')?.count ?? 0; });
      if (!n) throw new Error('no faces could be read (not an OBJ file?)');
      return group;
    }
    if (ext === 'dae') {
      const text = await file.text();
      const manager = new THREE.LoadingManager();
      // textures the COLLADA file names are taken from the dropped files too
      const urls = [];
      manager.setURLModifier((url) => {
        const f = resolveMesh(url, this.files);
        if (!f) return url;
        const u = URL.createObjectURL(f.file);
        urls.push(u);
        return u;
      });
      let dae = null;
      const errors = [];
      const warn = console.error;
      try {
        console.error = (...a) => errors.push(a.join(' ')); // the loader reports bad XML on the console
        dae = new ColladaLoader(manager).parse(text, '');
      } finally { console.error = warn; }
      if (!dae || !dae.scene) throw new Error(errors[0] || 'not a COLLADA document');
      // the URDF frame is the file's own (as ROS tools use it): undo the loader's Z_UP → Y_UP turn
      dae.scene.rotation.set(0, 0, 0);
      dae.scene.updateMatrix();
      setTimeout(() => urls.forEach((u) => URL.revokeObjectURL(u)), 10000);
      return dae.scene;
    }
    throw new Error(`unsupported mesh format '.${ext}' (STL, OBJ or DAE)`);
  }

  /** Warnings for missing files, the overlay for broken ones. */
  _report() {
    const items = [...new Set(this.missing)].map((f) => ({ text: `mesh not found: ${f} — drop it with the URDF (placeholder box drawn)`, level: 'warn' }));
    for (const b of this.broken) items.push({ text: `mesh could not be read: ${b.file}`, level: 'bad' });
    this.studio.setWarnings('meshes', items);
    this._showOverlay(this.broken);
  }

  _showOverlay(broken) {
    if (!broken.length) { if (this._overlay) this._overlay.hidden = true; return; }
    if (!this._overlay) {
      const d = document.createElement('div');
      d.className = 'mesh-error';
      d.setAttribute('role', 'alert');
      const close = document.createElement('button');
      close.type = 'button';
      close.textContent = '×';
      close.title = 'close';
      close.addEventListener('click', () => { d.hidden = true; });
      const text = document.createElement('div');
      text.className = 'mesh-error-text';
      d.append(close, text);
      this.studio.els.viewport.appendChild(d);
      this._overlay = d;
    }
    this._overlay.querySelector('.mesh-error-text').textContent = broken
      .map((b) => `Broken mesh file ${b.file} (${b.path}): ${b.message}. Drawn as a placeholder box; the rest of the robot is shown.`).join('\n');
    this._overlay.hidden = false;
  }

  _clearScene() {
    for (const { object } of this._links) this.group.remove(object);
    this._links = [];
    for (const x of this._own) x.dispose();
    this._own = [];
  }

  _disposeCache() {
    for (const p of this._cache.values()) {
      p.then((obj) => obj.traverse((o) => {
        if (!o.isMesh) return;
        o.geometry?.dispose();
        for (const m of [].concat(o.material ?? [])) { m.map?.dispose(); m.dispose(); }
      }), () => {});
    }
    this._cache.clear();
  }

  dispose() {
    this._build++;
    this._clearScene();
    this._disposeCache();
    this.group.removeFromParent();
    this._overlay?.remove();
  }
}

function finiteAttribute(geom) {
  const a = geom.getAttribute('position').array;
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) return false;
  return true;
}
