// Viewport: renderer, scene (z up, like the robot's base frame), orbit camera, lights,
// ground grid, resize handling and on-demand rendering.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

const SOFTWARE_RENDERER = /swiftshader|llvmpipe|softpipe|software/i;

/** The renderer string of a WebGL context (the unmasked one where the browser gives it). */
function rendererName(gl) {
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  return String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
}

let probed = null;
/**
 * Whether this browser's WebGL draws on the CPU (no GPU: SwiftShader, llvmpipe), asked once of a throwaway context:
 * multisampling must be chosen when the real context is made, and a software renderer pays for each sample. With
 * antialias off, SwiftShader drew the prototype's frame in 17 instead of 40 ms, and with a 50,000-point workspace
 * cloud in 46 instead of 96 ms (1280×800, docs/studio.md).
 */
export function softwareWebGL() {
  if (probed === null) {
    const gl = document.createElement('canvas').getContext('webgl2') || document.createElement('canvas').getContext('webgl');
    probed = !!gl && SOFTWARE_RENDERER.test(rendererName(gl));
    gl?.getExtension('WEBGL_lose_context')?.loseContext();
  }
  return probed;
}

export class Viewport {
  /** @param {HTMLElement} container element the canvas fills (resize-aware) */
  constructor(container, opts = {}) {
    this.container = container;
    // edges are smoothed by multisampling on a GPU; a software renderer draws single-sampled, twice as fast
    this.renderer = new THREE.WebGLRenderer({ antialias: !softwareWebGL(), preserveDrawingBuffer: !!opts.preserveDrawingBuffer });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.renderer.setClearColor(opts.background ?? 0x0f172a);
    this.canvas = this.renderer.domElement;
    this.canvas.className = 'achain-canvas';
    container.appendChild(this.canvas);

    // a software renderer (no GPU: SwiftShader, llvmpipe) draws each frame on the CPU: views draw less there
    this.software = SOFTWARE_RENDERER.test(rendererName(this.renderer.getContext()));

    this.scene = new THREE.Scene();
    this.camera = new THREE.PerspectiveCamera(40, 1, 0.005, 200);
    this.camera.up.set(0, 0, 1);
    this.camera.position.set(1.6, -1.9, 1.3);
    this.controls = new OrbitControls(this.camera, this.canvas);
    this.controls.enableDamping = true;
    this.controls.dampingFactor = 0.12;
    this.controls.addEventListener('change', () => this.requestRender());

    this.scene.add(new THREE.HemisphereLight(0xe2e8f0, 0x334155, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 1.9);
    sun.position.set(2, -3, 5);
    this.scene.add(sun);
    const fill = new THREE.DirectionalLight(0xffffff, 0.6);
    fill.position.set(-3, 2, 1);
    this.scene.add(fill);

    this.world = new THREE.Group();
    this.scene.add(this.world);
    this.grid = null;
    this.setGrid(1);

    this._needsRender = true;
    this.firstFramesAt = [];
    this._frameCallbacks = new Set();
    this._ro = new ResizeObserver(() => this.resize());
    this._ro.observe(container);
    this.resize();
    this._loop = this._loop.bind(this);
    this._raf = requestAnimationFrame(this._loop);
  }

  /** Grid on the base plane (z = 0) sized to the robot. */
  setGrid(size) {
    if (this.grid) { this.scene.remove(this.grid); this.grid.geometry.dispose(); this.grid.material.dispose(); }
    const step = size > 1.5 ? 0.25 : 0.1;
    const half = Math.ceil(size / step) * step;
    this.grid = new THREE.GridHelper(2 * half, Math.round((2 * half) / step), 0x475569, 0x1e293b);
    this.grid.rotation.x = Math.PI / 2;
    this.scene.add(this.grid);
    this.requestRender();
  }

  /** Points the camera at a box around the robot (centre, radius in m). */
  frame(center, radius) {
    const r = Math.max(radius, 0.1);
    this.controls.target.copy(center);
    const dir = new THREE.Vector3(1.0, -1.25, 0.62).normalize();
    const dist = r / Math.sin((this.camera.fov * Math.PI) / 360) * 0.95;
    this.camera.position.copy(center).addScaledVector(dir, dist);
    this.camera.near = dist / 200;
    this.camera.far = dist * 50;
    this.camera.updateProjectionMatrix();
    this.controls.update();
    this.requestRender();
  }

  /** Points the camera at a world-frame box (the visible drawing, say), all of it in the picture. */
  frameBox(box) {
    this.frame(box.getCenter(new THREE.Vector3()), 0.5 * box.getSize(new THREE.Vector3()).length() * 1.05);
  }

  /** World-frame box of the visible drawn objects under `root` (default: the world group; sprites and labels excluded). */
  visibleBox(root = this.world) {
    const box = new THREE.Box3();
    const part = new THREE.Box3();
    root.updateMatrixWorld(true);
    root.traverseVisible((o) => {
      if (!o.geometry || o.isSprite) return;
      if (o.isInstancedMesh) {
        o.computeBoundingBox(); // the instances' union as placed now (the A-pair legs and balls move)
        part.copy(o.boundingBox).applyMatrix4(o.matrixWorld);
      } else {
        if (!o.geometry.boundingBox) o.geometry.computeBoundingBox();
        part.copy(o.geometry.boundingBox).applyMatrix4(o.matrixWorld);
      }
      if (!part.isEmpty() && Number.isFinite(part.min.x) && Number.isFinite(part.max.x)) box.union(part);
    });
    return box;
  }

  /** Where a world box's corners fall in the picture: {x0, x1, y0, y1} in normalised device coordinates (−1 … 1
   *  across the canvas) and zMax (> 1: a corner behind the camera or past the far plane). */
  ndcExtent(box) {
    this.camera.updateMatrixWorld();
    const v = new THREE.Vector3();
    const e = { x0: Infinity, x1: -Infinity, y0: Infinity, y1: -Infinity, zMax: -Infinity };
    for (let k = 0; k < 8; k++) {
      v.set(k & 1 ? box.max.x : box.min.x, k & 2 ? box.max.y : box.min.y, k & 4 ? box.max.z : box.min.z).project(this.camera);
      e.x0 = Math.min(e.x0, v.x); e.x1 = Math.max(e.x1, v.x); e.y0 = Math.min(e.y0, v.y); e.y1 = Math.max(e.y1, v.y);
      e.zMax = Math.max(e.zMax, v.z);
    }
    return e;
  }

  /** True when a corner of `box` falls outside the picture (or behind the camera). */
  clips(box) {
    if (box.isEmpty()) return false;
    const e = this.ndcExtent(box);
    return !(e.x0 >= -1 && e.x1 <= 1 && e.y0 >= -1 && e.y1 <= 1 && e.zMax <= 1);
  }

  resize() {
    const w = Math.max(1, this.container.clientWidth);
    const h = Math.max(1, this.container.clientHeight);
    // Setting a canvas's size, even to the size it has, reallocates its drawing buffer (measured: 100–300 ms a
    // time under a software renderer, on every tab switch that toggles a dock): only a real change does it.
    const inset = this.bottomInset > 0 ? this.bottomInset : 0;
    if (this._size && this._size.w === w && this._size.h === h && this._size.inset === inset) { this.requestRender(); return; }
    this._size = { w, h, inset };
    this.renderer.setSize(w, h, false);
    this.canvas.style.width = '100%';
    this.canvas.style.height = '100%';
    this.camera.aspect = w / h;
    if (this.bottomInset > 0) this.camera.setViewOffset(w, h, 0, 0.5 * this.bottomInset * h, w, h);
    else this.camera.clearViewOffset();
    this.camera.updateProjectionMatrix();
    this.requestRender();
  }

  /** Keeps the picture centred in the part of the canvas above a panel covering `fraction` of its height. */
  setBottomInset(fraction) {
    this.bottomInset = Math.max(0, Math.min(0.8, fraction || 0));
    this.resize();
  }

  requestRender() { this._needsRender = true; }

  /** cb(dtSeconds) runs each animation frame before rendering; returns an unsubscribe function. */
  onFrame(cb) { this._frameCallbacks.add(cb); return () => this._frameCallbacks.delete(cb); }

  _loop(t) {
    this._raf = requestAnimationFrame(this._loop);
    const dt = this._lastT === undefined ? 0 : Math.min(0.1, (t - this._lastT) / 1000);
    this._lastT = t;
    for (const cb of this._frameCallbacks) cb(dt);
    if (this.controls.enabled) this.controls.update();
    if (this._needsRender) {
      this._needsRender = false;
      this.renderer.render(this.scene, this.camera);
      this.frames = (this.frames ?? 0) + 1;
      if (this.frames <= 2) this.firstFramesAt.push(performance.now());  // a cold load's "drawn" (docs/studio.md)
    }
  }

  /** Renders now (synchronously), e.g. before reading pixels. */
  renderNow() { this.renderer.render(this.scene, this.camera); }

  dispose() {
    cancelAnimationFrame(this._raf);
    this._ro.disconnect();
    this.controls.dispose();
    this.renderer.dispose();
    this.canvas.remove();
  }
}
