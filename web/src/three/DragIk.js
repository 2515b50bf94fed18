// One drag-to-IK controller, shared by the studio's Teleoperate view and <achain-viewer>: a three.js
// TransformControls gizmo on a proxy placed at the tool; while the user drags it, at most one IK solve per
// frame toward the proxy's pose, seeded with the current q (the core's numeric solver), with the
// singularity escape of ikFollow and the core's continuity box (options.maxStep): in one frame no joint
// moves farther than STEP_FLOOR + STEP_GAIN·(|Δp|/reach + |Δφ|), where Δp, Δφ are the gizmo's motion since
// the previous solve. So when the target leaves the reachable set or a joint meets its limit the arm
// slides along that boundary or stops; it never jumps to another branch. While an answer rests on the box
// (the arm lags behind the gizmo) the next frames solve again with the floor step, so the arm catches up.
// The owner says how to read the model, q, the tool pose and the reach (m), which IK options to use, and
// what to do with a result. With keepToolInView, a camera move (a missed grab orbits the view, or a pan or
// zoom) never loses the tool off-screen: the camera then pans with it, see keepToolInView().
import * as THREE from 'three';
import { TransformControls } from 'three/addons/controls/TransformControls.js';
import { matrixFromRowMajor } from './ChainView.js';
import { ikFollow } from '../lib/follow.js';

const _m = new THREE.Matrix4();
const _one = new THREE.Vector3(1, 1, 1);
const _p = new THREE.Vector3();
const _v = new THREE.Vector3();
const _w = new THREE.Vector3();

/** keepToolInView keeps the tool within this fraction of the half canvas from its centre (NDC). */
export const KEEP_MARGIN = 0.85;

/** Continuity box per frame: the floor (rad, or m for linear joints) and the gain on the target's motion. */
export const STEP_FLOOR = (2 * Math.PI) / 180;
export const STEP_GAIN = 8;

/** Row-major 16 from a THREE.Matrix4 (column-major elements). */
export function rowMajorFromMatrix(m, out = new Float64Array(16)) {
  const e = m.elements;
  for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) out[4 * r + c] = e[4 * c + r];
  return out;
}

/** Six or more coordinates move the tool (the core's model.info.toolCoordinates): a full pose goal is possible. */
export function canHoldPose(model) { return model.info.toolCoordinates.length >= 6; }

export class DragIk {
  /**
   * @param viewport  the Viewport (camera, canvas, scene, world, controls, requestRender)
   * @param opts {size, space, model(): Model, q(): Float64Array, tool(): row-major tool pose,
   *              reach(): m (the chain's size, scales the step bound), options(): IK options,
   *              onSolve(result, ms), onError(error), onDragEnd(), keepToolInView (bool, default off)}
   */
  constructor(viewport, opts) {
    this.vp = viewport;
    this.opts = opts;
    this.dragging = false;
    this._pending = false;
    this._catchUp = false;
    this._lastPos = new THREE.Vector3();
    this._lastQuat = new THREE.Quaternion();
    /** The step bound of the last drag solve (rad / m), for tests and the status line. */
    this.lastMaxStep = 0;
    this._target = new Float64Array(16);
    this.proxy = new THREE.Object3D();
    this.proxy.name = 'tool-target';
    viewport.world.add(this.proxy);
    this.gizmo = new TransformControls(viewport.camera, viewport.canvas);
    this.gizmo.size = opts.size ?? 1;
    this.gizmo.setSpace(opts.space ?? 'world');
    this.gizmo.attach(this.proxy);
    this.helper = this.gizmo.getHelper();
    viewport.scene.add(this.helper);
    this.gizmo.addEventListener('change', () => viewport.requestRender());
    this.gizmo.addEventListener('dragging-changed', (e) => {
      viewport.controls.enabled = !e.value; // the camera stays still while dragging (three.js PR #14619)
      this.dragging = e.value;
      if (e.value) this._markTarget();
      if (!e.value) {
        this._pending = false;
        this._catchUp = false;
        this.syncToTool();
        opts.onDragEnd?.();
      }
    });
    this.gizmo.addEventListener('objectChange', () => { if (this.dragging) this._pending = true; });
    this._onCamera = opts.keepToolInView ? () => this.keepToolInView() : null;
    if (this._onCamera) viewport.controls.addEventListener('change', this._onCamera);
  }

  /**
   * After a camera move: when the tool has left the central `margin` of the canvas (NDC), pans the camera
   * and its orbit target together (the view direction unchanged) just enough to put it back on that border.
   * So a pointer-down that misses the gizmo, then a drag, orbits the view and the tool stays inside.
   */
  keepToolInView(margin = KEEP_MARGIN) {
    const T = this.opts.tool();
    if (!T) return;
    const cam = this.vp.camera;
    cam.updateMatrixWorld();
    _p.set(T[3], T[7], T[11]);
    if (_v.copy(_p).applyMatrix4(cam.matrixWorldInverse).z > -cam.near) return; // behind the camera: no pan helps
    _v.copy(_p).project(cam);
    const x = Math.min(margin, Math.max(-margin, _v.x));
    const y = Math.min(margin, Math.max(-margin, _v.y));
    if (x === _v.x && y === _v.y) return;
    _w.set(x, y, _v.z).unproject(cam); // where the tool should appear, at its depth
    _p.sub(_w);
    cam.position.add(_p);
    this.vp.controls.target.add(_p);
    cam.updateMatrixWorld();
    this.vp.requestRender();
  }

  /** Shows or hides the gizmo (a hidden gizmo takes no input). */
  setVisible(on) {
    this.helper.visible = on;
    this.gizmo.enabled = on;
    this.vp.requestRender();
  }

  setMode(mode) { this.gizmo.setMode(mode); }
  setSpace(space) { this.gizmo.setSpace(space); this.vp.requestRender(); }

  /** Puts the proxy on the current tool pose (row-major 4×4 from the core's FK). */
  syncToTool() {
    const T = this.opts.tool();
    if (!T) return;
    matrixFromRowMajor(_m, T);
    _m.decompose(this.proxy.position, this.proxy.quaternion, this.proxy.scale);
    this.proxy.updateMatrixWorld(true);
    this.vp.requestRender();
  }

  /** The proxy's pose, row-major. */
  target() {
    this.proxy.updateMatrixWorld(true);
    _m.compose(this.proxy.position, this.proxy.quaternion, _one);
    return rowMajorFromMatrix(_m, this._target);
  }

  /** Solves IK toward a row-major target from the current q; hands the result and the solve time (ms)
   *  to onSolve. */
  solveToward(target, options = this.opts.options()) {
    let r;
    const t0 = performance.now();
    try {
      r = ikFollow(this.opts.model(), target, this.opts.q(), options);
    } catch (e) {
      this.opts.onError?.(e);
      return null;
    }
    this.opts.onSolve(r, performance.now() - t0);
    return r;
  }

  /** The continuity box (rad / m) for a move of the target from the tool to the pose m (a THREE.Matrix4). */
  stepFor(m) {
    const T = this.opts.tool();
    const a = new THREE.Matrix4();
    matrixFromRowMajor(a, T);
    const pa = new THREE.Vector3(); const qa = new THREE.Quaternion(); const pb = new THREE.Vector3(); const qb = new THREE.Quaternion();
    a.decompose(pa, qa, new THREE.Vector3());
    m.decompose(pb, qb, new THREE.Vector3());
    return this._box(pa.distanceTo(pb), qa.angleTo(qb));
  }

  /** The continuity box for a target motion of `distance` m and `angle` rad. */
  _box(distance, angle) {
    const reach = Math.max(this.opts.reach?.() ?? 0.5, 1e-3);
    return STEP_FLOOR + STEP_GAIN * (distance / reach + angle);
  }

  _markTarget() {
    this._lastPos.copy(this.proxy.position);
    this._lastQuat.copy(this.proxy.quaternion);
  }

  /** Call once per animation frame: runs the pending solve, if the gizmo moved or the arm still lags. */
  frame() {
    if (!this._pending && !this._catchUp) return;
    this._pending = false;
    this._catchUp = false;
    const maxStep = this._box(this.proxy.position.distanceTo(this._lastPos), this.proxy.quaternion.angleTo(this._lastQuat));
    this._markTarget();
    this.lastMaxStep = maxStep;
    const q0 = Float64Array.from(this.opts.q());
    const r = this.solveToward(this.target(), { ...this.opts.options(), maxStep });
    // resting on the box: the arm lags behind the gizmo; go on next frame (only while dragging)
    if (r && r.status !== 'ok' && this.dragging) this._catchUp = r.q.some((v, i) => Math.abs(v - q0[i]) >= maxStep * (1 - 1e-9));
  }

  dispose() {
    if (this._onCamera) this.vp.controls.removeEventListener('change', this._onCamera);
    this.helper.removeFromParent();
    this.proxy.removeFromParent();
    this.gizmo.dispose();
  }
}
