// achain — ES-module wrapper over the Embind core (wasm/dist/achain_wasm.*).
// Works in browsers, workers and Node ≥ 20. Every Model owns wasm memory: call
// model.dispose() when done (a FinalizationRegistry frees forgotten ones eventually).
import createAchainModule from './dist/achain_wasm.mjs';
import { install as installKinematics } from './js/kinematics.mjs';
import { install as installIk } from './js/ik.mjs';
import { install as installDynamics } from './js/dynamics.mjs';
import { install as installClosedChain } from './js/closed_chain.mjs';
import { install as installWorkspace } from './js/workspace.mjs';
import { install as installTrajectory, interpolateCartesian } from './js/trajectory.mjs';
import { install as installFlexibility, makeShaper, jointFlexibilityFromJsonString } from './js/flexibility.mjs';
import { designRobotJson, designParametersJson } from './js/design.mjs';
import { install as installFlexibleChain, flexibleLinksFromJsonString } from './js/flexible_chain.mjs';
import { looksLikeXml, prepareXmlParser, xmlTree } from './js/xml.mjs';
import { finiteNumber, integer, putVector } from './js/args.mjs';

const isNode = typeof process !== 'undefined' && !!(process.versions && process.versions.node);

async function wasmBinary() {
  const url = new URL('./dist/achain_wasm.wasm', import.meta.url);
  if (isNode) {
    const fsName = 'node:fs/promises';
    const fs = await import(/* @vite-ignore */ fsName);
    return fs.readFile(url);
  }
  const res = await fetch(url);
  if (!res.ok) throw new Error(`achain: cannot load ${url} (HTTP ${res.status})`);
  return new Uint8Array(await res.arrayBuffer());
}

const registry = typeof FinalizationRegistry !== 'undefined'
  ? new FinalizationRegistry((raw) => { try { raw.delete(); } catch { /* already freed */ } })
  : null;

// Result pool. V8 keeps a typed array of up to 64 bytes on its own heap; a larger one gets a separate
// backing store, which costs ~200–300 ns to create and more in garbage collection, whatever is copied
// into it: a plain `pointJacobian(q)` (36 doubles) paid ~1 µs for a result the core computes in ~0.2 µs.
// Results of up to RESULT_POOL_MAX doubles are therefore carved out of a shared RESULT_SLAB-double
// ArrayBuffer, as Node pools small Buffers: each result is its own Float64Array over its own range
// (results never alias one another and stay valid), only `.buffer` is shared. So do not transfer a
// result's `.buffer` to a worker (copy it with `.slice()` first); a kept result keeps its slab alive
// (at most RESULT_SLAB · 8 bytes per kept result). Larger results get their own buffer.
const RESULT_SLAB = 2048;       // doubles (16 KiB)
const RESULT_POOL_MAX = 256;    // doubles: FK of a 14-joint chain, a 16×16 mass matrix

/** A chain model living in wasm memory. */
export class Model {
  constructor(achain, raw) {
    this.achain = achain;
    this.raw = raw;
    this.info = JSON.parse(raw.info());
    this.coordinates = this.info.coordJoint.map((j) => this.info.joints[j]);
    this._inPtr = 0;
    this._inCap = 0;
    registry?.register(this, raw, this);
  }
  get name() { return this.info.name; }
  get dof() { return this.info.dof; }
  get joints() { return this.info.joints; }
  /** @returns {boolean} */
  get disposed() { return this.raw === null; }
  _raw() {
    if (this.raw === null) throw new Error(`achain: model '${this.info.name}' was disposed`);
    return this.raw;
  }
  // ---- hot-path plumbing: inputs are written straight into wasm memory, results copied out.
  /** Makes the input buffer hold `total` doubles; returns the raw handle. */
  _reserve(total) {
    const raw = this._raw();
    if (total > this._inCap) {
      const cap = Math.max(total, 64);
      this._inPtr = raw.reserveInput(cap);
      this._inCap = cap;
    }
    return raw;
  }
  /** Writes vector v (n numbers, named `what` in errors) at double offset `at` of the input buffer. */
  _put(v, what, n, at) {
    putVector(this.achain.module.HEAPF64, (this._inPtr >>> 3) + at, v, what, n);  // checked: js/args.mjs
  }
  /** Writes q (dof numbers) as the only input; returns the raw handle. */
  _q(q) {
    const raw = this._reserve(this.info.dof);
    this._put(q, 'q', this.info.dof, 0);
    return raw;
  }
  /** Writes vectors into the model's input buffer: _input([q, 'q', n], [target, 'target', 16], …). */
  _input(...parts) {
    let total = 0;
    for (const [, , n] of parts) total += n;
    const raw = this._reserve(total);
    let at = 0;
    for (const [v, what, n] of parts) {
      this._put(v, what, n, at);
      at += n;
    }
    return raw;
  }
  /**
   * Copies n doubles at byte address ptr out of wasm memory: into `out` when given (a Float64Array or
   * array with room for n numbers; returned, no allocation), else into a new Float64Array.
   */
  _output(ptr, n, out) {
    const heap = this.achain.module.HEAPF64, at = ptr >>> 3;
    if (out == null) {
      if (n > RESULT_POOL_MAX) return heap.slice(at, at + n);
      const r = this.achain._pooled(n);
      for (let i = 0; i < n; i++) r[i] = heap[at + i];
      return r;
    }
    if (typeof out.length !== 'number' || out.length < n) throw new Error(`out: needs room for ${n} numbers`);
    for (let i = 0; i < n; i++) out[i] = heap[at + i];
    return out;
  }

  /** Forward kinematics. q in SI (rad, m; θ_v for A-pairs). Matrices are row-major 4×4. */
  forwardKinematics(q) {
    const n = this.info.joints.length;  // a frame per joint (more than dof with mimic or kept fixed joints)
    const all = this._output(this._q(q).forwardKinematics(), 16 * (n + 2));
    const frames = [];
    for (let i = 0; i < n + 1; i++) frames.push(all.subarray(16 * (i + 1), 16 * (i + 2)));
    return { tool: all.subarray(0, 16), base: frames[0], links: frames.slice(1), frames };
  }
  /** A-pair legs for q: per A-pair joint, {joint, base: Float64Array(18), platform: Float64Array(18)}. */
  apairLegEndpoints(q) {
    const apairs = this.info.joints.map((j, i) => (j.kind === 'A' ? i : -1)).filter((i) => i >= 0);
    const all = this._output(this._q(q).apairLegEndpoints(), 36 * apairs.length);
    return apairs.map((joint, k) => ({ joint, base: all.subarray(36 * k, 36 * k + 18), platform: all.subarray(36 * k + 18, 36 * k + 36) }));
  }
  withinLimits(q) { return this._q(q).withinLimits(); }
  /** The same arm in the other DH convention ('standard' | 'modified'): a new Model (same tool pose, inertials moved). */
  convertConvention(target) { return new Model(this.achain, this._raw().convertConvention(target)); }
  /** The R-pair twin (core rPairTwin): every A-pair made an R-pair (ρ = 0, no legs), named '<name>-r-twin'; a new Model. */
  rPairTwin() { return new Model(this.achain, this._raw().rPairTwin()); }
  /**
   * Upper bound of the distance from the base origin to every link origin and the tool over the joint limits (core
   * reachBound), m: {radius, tool, links}; radius (and an entry) null when a joint translates without bound.
   */
  reachBound() { return JSON.parse(this._raw().reachBound()); }
  /**
   * The model's link tree in urdfTree's shape (core modelTree), named as Export URDF writes it: 'base_link', then
   * links[i + 1] is joint i's link '<joint name>_link'; toolLink is the model's tool link. Joint types add
   * 'helical', 'A-pair' and 'law' to URDF's.
   */
  modelTree() { return JSON.parse(this._raw().modelTree()); }
  /** The model as a JSON robot description (SI units). */
  modelToJson() { return JSON.parse(this._raw().modelToJson()); }
  /** The model as URDF text (A-pairs as the achain:apair extension): {urdf, warnings: what URDF cannot carry}. */
  modelToUrdf() { return JSON.parse(this._raw().modelToUrdf()); }
  /** The model as MuJoCo MJCF text (A-pairs as hinge + slide tied by a fitted joint equality): {mjcf, warnings: what MJCF cannot carry and the fit errors}. */
  modelToMjcf() { return JSON.parse(this._raw().modelToMjcf()); }
  /** Frees the wasm memory; the model is unusable afterwards. */
  dispose() {
    if (this.raw) {
      registry?.unregister(this);
      this.raw.delete();
      this.raw = null;
    }
  }
  [Symbol.dispose ?? Symbol.for('Symbol.dispose')]() { this.dispose(); }
}

installKinematics(Model);
installIk(Model);
installDynamics(Model);
installClosedChain(Model);
installWorkspace(Model);
installTrajectory(Model);
installFlexibility(Model);
installFlexibleChain(Model);

export class Achain {
  constructor(module) {
    this.module = module;
    this._slab = new ArrayBuffer(RESULT_SLAB * 8);
    this._slabAt = 0;
    /** IK status names in code order ('ok', 'unreachable', 'singular', 'limits'), from the core's toString(IkStatus). */
    this.ikStatusNames = Object.freeze(Array.from(module.ikStatusNames()));
  }
  /** A new Float64Array of n ≤ RESULT_POOL_MAX doubles carved out of the result slab (see RESULT_SLAB). */
  _pooled(n) {
    if (this._slabAt + n > RESULT_SLAB || this._slab.byteLength === 0) {  // full, or detached by a transfer
      this._slab = new ArrayBuffer(RESULT_SLAB * 8);
      this._slabAt = 0;
    }
    const r = new Float64Array(this._slab, this._slabAt * 8, n);
    this._slabAt += n;
    return r;
  }
  get version() { return this.module.version(); }
  /** A closure kind's space N: 3 for 'planar_pin' (X, Y, θz), 6 for 'point' and 'pose'. A loop keeps M − N joints as coordinates. */
  closureSpaceSize(kind) { return this.module.closureSpaceSize(String(kind)); }
  /** A closure kind's constraint count R: 2 for 'planar_pin', 3 for 'point', 6 for 'pose'. */
  closureConstraintCount(kind) { return this.module.closureConstraintCount(String(kind)); }
  /** [{name, dof, description}] */
  builtinRobots() { return JSON.parse(this.module.builtinRobots()); }
  /** The JSON text of a built-in robot file (original units, with its notes). */
  builtinRobotFile(name) { return this.module.builtinRobotFile(name); }
  /** A built-in robot by name. */
  builtinModel(name) {
    if (typeof name !== 'string') throw new Error(`name: must be a built-in robot's name (got ${typeof name})`);
    return new Model(this, this.module.builtinModel(name));
  }
  /** A model from a JSON robot description (text). Throws Error naming the bad field. */
  modelFromJsonString(text) {
    if (typeof text !== 'string') throw new Error(`text: must be a string of JSON (got ${typeof text})`);
    return new Model(this, this.module.modelFromJsonString(text));
  }
  /**
   * A model from URDF text (or its element tree {name, line, attributes, children}): parsed by the page's XML
   * parser, mapped by the core. options: {toolLink: the tool's link by name (default: the single leaf),
   * balanceInertia, keepFixed: keep fixed joints instead of merging their links into the parents}. URDF warnings are in model.info.notes ("URDF warning: …").
   */
  modelFromUrdf(source, { toolLink = '', balanceInertia = false, keepFixed = false } = {}) {
    const tree = typeof source === 'string' ? xmlTree(source) : source;
    return new Model(this, this.module.modelFromUrdf(JSON.stringify(tree), toolLink, balanceInertia, keepFixed));
  }
  /**
   * A URDF's link/joint tree without building a model (text or its element tree, as modelFromUrdf): {name, root,
   * links: [{name, parent (index, −1 for the root), depth, joint: null for the root | {name, type, angular, limits: {lower,
   * upper, velocity, effort} (SI, null: none), mimic: null | {joint, multiplier, offset}}}] depth-first, leaves
   * (the tool candidates), toolLink (the file's achain:tool, or ''), notes}. Throws as modelFromUrdf on a bad tree.
   */
  urdfTree(source) {
    const tree = typeof source === 'string' ? xmlTree(source) : source;
    return JSON.parse(this.module.urdfTree(JSON.stringify(tree)));
  }
  /** Loads a built-in by name, a JSON text, a parsed description object, or URDF text (options as modelFromUrdf). */
  loadModel(source, options = {}) {
    if (looksLikeXml(source)) return this.modelFromUrdf(source, options);
    if (typeof source === 'string' && !source.trimStart().startsWith('{')) return this.builtinModel(source);
    return this.modelFromJsonString(typeof source === 'string' ? source : JSON.stringify(source));
  }
  /** Roll, pitch, yaw (rad; R = Rz(yaw)·Ry(pitch)·Rx(roll)) of a row-major 4×4 pose or 3×3 rotation. */
  matrixToRpy(T) { return Float64Array.from(this.module.matrixToRpy(T)); }
  /** Usable A-pair range (rad) for legs of radius legRadius on a triangle of side `side` (only the ratio matters). */
  apairUsableRange(side, legRadius) {
    return JSON.parse(this.module.apairUsableRange(finiteNumber(side, 'side'), finiteNumber(legRadius, 'legRadius')));
  }
  /** Leg-pair centreline curves over θ = 0…2π (options.samples + 1 points, default 360): theta, d12, d16, omega12, omega16. */
  legPairSample(side, { samples = 360 } = {}) {
    const c = JSON.parse(this.module.legPairSample(finiteNumber(side, 'side'), integer(samples, 'samples', undefined, 1, 1e6)));
    return Object.fromEntries(Object.entries(c).map(([k, v]) => [k, Float64Array.from(v)]));
  }
  /** Robinson's single-A-pair work study, 60° → 300°: options {duration (s, default 10), profile (default 'quintic'), rhoIn (in, default 4√2), exactLegInertia}. */
  apairStudy({ duration = 10, profile = 'quintic', rhoIn = 4 * Math.SQRT2, exactLegInertia = false } = {}) {
    return JSON.parse(this.module.apairStudy(finiteNumber(duration, 'duration'), profile, finiteNumber(rhoIn, 'rhoIn'), !!exactLegInertia));
  }
  /** Cartesian interpolation between two row-major 4×4 poses without IK (Robotics Toolbox ctraj); see wasm/types/trajectory.d.ts. */
  interpolateCartesian(start, goal, options = {}) { return interpolateCartesian(this.module, start, goal, options); }
  /** ZV / ZVD input-shaper impulses for a mode of omega rad/s and damping ratio zeta (Singer & Seering); see wasm/types/flexibility.d.ts. */
  makeShaper(kind, omega, zeta = 0) { return makeShaper(this.module, kind, omega, zeta); }
  /** The drive blocks (joints[i].drive) of a robot file's JSON text, in SI: {stiffness, damping, motorInertia}. */
  jointFlexibilityFromJsonString(text) { return jointFlexibilityFromJsonString(this.module, text); }
  /** The flexible blocks (joints[i].flexible) of a robot file's JSON text, in SI; see wasm/types/flexible_chain.d.ts. */
  flexibleLinksFromJsonString(text) { return flexibleLinksFromJsonString(this.module, text); }
  /** Design k's robot description from a design space (a merged sweep's design_space); see wasm/types/design.d.ts. */
  designRobotJson(space, index) { return designRobotJson(this.module, space, index); }
  /** Design k's parameter values by name, in the robot file's units. */
  designParametersJson(space, index) { return designParametersJson(this.module, space, index); }
}

let shared = null;
/** Loads the wasm module once (per realm) and resolves to an Achain instance. */
export function loadAchain() {
  if (!shared) {
    shared = prepareXmlParser()
      .then(() => wasmBinary())
      .then((bin) => createAchainModule({ wasmBinary: bin, print: () => {}, printErr: (s) => console.warn(s) }))
      .then((m) => new Achain(m));
  }
  return shared;
}

export { Workspace } from './js/workspace.mjs';

export default loadAchain;
