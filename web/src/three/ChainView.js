// ChainView: a three.js picture of an achain Model, synchronised from the core's answers.
// Every position drawn comes from the wasm core: frames from model.forwardKinematics(q), A-pair anchor
// points from model.apairLegEndpoints(q). Nothing here recomputes kinematics; the view only places
// primitives between points the core returned. World frame is the robot's base frame (z up).
import * as THREE from 'three';

const KIND_COLOR = { R: 0x3b82f6, P: 0x22c55e, H: 0xf59e0b, A: 0xa855f7 };

// module-level scratch objects (no allocation per update)
const _a = new THREE.Vector3();
const _b = new THREE.Vector3();
const _c = new THREE.Vector3();
const _dir = new THREE.Vector3();
const _yAxis = new THREE.Vector3(0, 1, 0);

/** Copies a row-major 4×4 (Float64Array(16)) into a THREE.Matrix4. */
export function matrixFromRowMajor(target, a) {
  return target.set(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15]);
}
function origin(a, out) { return out.set(a[3], a[7], a[11]); }
function column(a, k, out) { return out.set(a[k], a[4 + k], a[8 + k]); }

const _o = new THREE.Object3D(); // an instance's placement, copied into its InstancedMesh
const LEG_COLOR = new THREE.Color(0xe2e8f0);
const LEG_WARN_COLOR = new THREE.Color(0xef4444);
const BALL_COLOR = new THREE.Color(0x334155);

/** Places a unit cylinder (height 1 along y, centred) between points p and q; returns the length (0: hidden). */
function placeBetween(mesh, p, q, radius) {
  _dir.subVectors(q, p);
  const len = _dir.length();
  if (len < 1e-9) { mesh.visible = false; return 0; }
  mesh.visible = true;
  mesh.position.addVectors(p, q).multiplyScalar(0.5);
  mesh.quaternion.setFromUnitVectors(_yAxis, _dir.divideScalar(len));
  mesh.scale.set(radius, len, radius);
  return len;
}

/** Instance i of `inst` as a unit cylinder between p and q (a zero scale hides it); returns the length. */
function placeInstanceBetween(inst, i, p, q, radius) {
  const len = placeBetween(_o, p, q, radius);
  if (!len) _o.scale.setScalar(0);
  _o.updateMatrix();
  inst.setMatrixAt(i, _o.matrix);
  return len;
}

/** Instance i of `inst` as a unit primitive at point p (null: the origin) scaled by s (0 hides it). */
function placeInstanceAt(inst, i, p, s) {
  if (p) _o.position.copy(p); else _o.position.set(0, 0, 0);
  _o.quaternion.identity();
  _o.scale.setScalar(s);
  _o.updateMatrix();
  inst.setMatrixAt(i, _o.matrix);
}

function makeTriad(size, opacity) {
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute([0, 0, 0, size, 0, 0, 0, 0, 0, 0, size, 0, 0, 0, 0, 0, 0, size], 3));
  g.setAttribute('color', new THREE.Float32BufferAttribute([1, 0.2, 0.2, 1, 0.2, 0.2, 0.2, 0.8, 0.2, 0.2, 0.8, 0.2, 0.3, 0.4, 1, 0.3, 0.4, 1], 3));
  const mat = new THREE.LineBasicMaterial({ vertexColors: true, transparent: opacity < 1, opacity, depthTest: true });
  const l = new THREE.LineSegments(g, mat);
  l.matrixAutoUpdate = false;
  return l;
}

export class ChainView {
  /**
   * @param {{ghost?: boolean, color?: number}} [opts] ghost: one translucent colour, no frames
   */
  constructor(opts = {}) {
    this.ghost = !!opts.ghost;
    this.ghostColor = opts.color ?? 0x94a3b8;
    this.group = new THREE.Group();
    this.group.name = this.ghost ? 'achain-ghost' : 'achain-chain';
    this._geoms = [];
    this._mats = [];
    this.scale = 1;
    this.showFrames = true;
    this.legWarn = null;
  }

  _mat(color, extra = {}) {
    const m = this.ghost
      ? new THREE.MeshStandardMaterial({ color: this.ghostColor, transparent: true, opacity: 0.28, depthWrite: false, roughness: 0.8 })
      : new THREE.MeshStandardMaterial({ color, roughness: 0.55, metalness: 0.15, ...extra });
    this._mats.push(m);
    return m;
  }
  _geom(g) { this._geoms.push(g); return g; }

  /** Builds the meshes for a model. `scale` is a characteristic length of the chain (m). */
  build(model, scale) {
    this.clear();
    this.model = model;
    this.info = model.info;
    this.scale = scale;
    const L = scale;
    const cyl = this._geom(new THREE.CylinderGeometry(1, 1, 1, 20, 1));
    const sph = this._geom(new THREE.SphereGeometry(1, 16, 12));
    this._cyl = cyl;
    this.linkRadius = 0.014 * L;
    const linkMat = this._mat(0x9aa4b2);
    const n = this.info.joints.length;

    // links: parent frame origin → elbow → link origin (two straight pieces per DH link), tool piece
    this.links = [];
    for (let i = 0; i < n; i++) {
      const seg1 = new THREE.Mesh(cyl, linkMat);
      const seg2 = new THREE.Mesh(cyl, linkMat);
      const knee = new THREE.Mesh(sph, linkMat);
      knee.scale.setScalar(this.linkRadius);
      this.group.add(seg1, seg2, knee);
      this.links.push({ seg1, seg2, knee });
    }
    // the tool hangs from the link named by the description's tool.link (a joint index), else the last
    let toolLink = n - 1;
    try {
      const k = model.modelToJson().tool?.link;
      if (Number.isInteger(k) && k >= 0 && k < n) toolLink = k;
    } catch { /* keep the last link */ }
    this.toolLink = toolLink;
    this.toolSeg = new THREE.Mesh(cyl, linkMat);
    this.group.add(this.toolSeg);

    // joint axes: a short fat cylinder along each joint axis, coloured by kind
    this.axes = this.info.joints.map((j) => {
      const m = new THREE.Mesh(cyl, this._mat(KIND_COLOR[j.kind] ?? 0xffffff));
      m.name = `axis-${j.name}`;
      this.group.add(m);
      return m;
    });

    // A-pairs: base plate (B1,B3,B5), platform (P2,P4,P6), six legs B_k→P_k, 12 ball joints. The legs and balls of
    // all A-pairs are two instanced meshes (two draw calls, not 18 per A-pair): software WebGL (SwiftShader) drew the
    // prototype's frame in 13 ms with one mesh each, about half of it the 72 leg and ball draws.
    const plateMatB = this._mat(0x64748b, { side: THREE.DoubleSide, transparent: true, opacity: 0.85 });
    const plateMatP = this._mat(0xc084fc, { side: THREE.DoubleSide, transparent: true, opacity: 0.85 });
    const nA = this.info.joints.filter((j) => j.kind === 'A').length;
    this.apairs = [];
    this.legMesh = null;
    this.ballMesh = null;
    this._legLengths = new Float64Array(6 * nA);
    this._legWarned = new Array(nA).fill(false);
    if (nA > 0) {
      // instance colours: a leg near a collision is drawn red (the ghost keeps its one colour). Legs and balls share
      // one material, so one shader program: each new program costs a software renderer tens of ms at the first frame
      const instMat = this.ghost ? this._mat(0) : this._mat(0xffffff);
      this.legMesh = new THREE.InstancedMesh(cyl, instMat, 6 * nA);
      this.ballMesh = new THREE.InstancedMesh(sph, instMat, 12 * nA);
      for (const m of [this.legMesh, this.ballMesh]) {
        m.frustumCulled = false; // the bounds are the unit primitive's, not the instances'
        m.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
        this.group.add(m);
      }
      this.legMesh.name = 'apair-legs';
      this.ballMesh.name = 'apair-balls';
      // hidden (zero scale) until update() places them: an unplaced instance is a primitive of radius 1 m
      for (let k = 0; k < 6 * nA; k++) placeInstanceAt(this.legMesh, k, null, 0);
      for (let k = 0; k < 12 * nA; k++) placeInstanceAt(this.ballMesh, k, null, 0);
      if (!this.ghost) {
        for (let k = 0; k < 6 * nA; k++) this.legMesh.setColorAt(k, LEG_COLOR);
        for (let k = 0; k < 12 * nA; k++) this.ballMesh.setColorAt(k, BALL_COLOR);
      }
    }
    for (let i = 0; i < n; i++) {
      const j = this.info.joints[i];
      if (j.kind !== 'A') continue;
      const side = j.side > 0 ? j.side : Math.max(j.rho * 1.2247, 0.05 * L);
      const legR = j.legRadius > 0 ? j.legRadius : Math.max(0.022 * side, 0.002);
      const mkPlate = (mat) => {
        const g = this._geom(new THREE.BufferGeometry());
        g.setAttribute('position', new THREE.BufferAttribute(new Float32Array(9), 3));
        g.setIndex([0, 1, 2]);
        const mesh = new THREE.Mesh(g, mat);
        mesh.frustumCulled = false;
        const eg = this._geom(new THREE.BufferGeometry());
        eg.setAttribute('position', new THREE.BufferAttribute(new Float32Array(9), 3));
        const edge = new THREE.LineLoop(eg, new THREE.LineBasicMaterial({ color: this.ghost ? this.ghostColor : 0x1e293b, transparent: this.ghost, opacity: this.ghost ? 0.4 : 1 }));
        this._mats.push(edge.material);
        edge.frustumCulled = false;
        this.group.add(mesh, edge);
        return { mesh, edge };
      };
      const basePlate = mkPlate(plateMatB);
      const platform = mkPlate(plateMatP);
      // legs: instances 6a … 6a+5 of legMesh; balls: 12a … 12a+11 of ballMesh (base ends, then platform ends)
      this.apairs.push({ joint: i, basePlate, platform, legR, ballR: legR * 1.9 });
    }

    // frames (not in ghost mode)
    this.triads = [];
    if (!this.ghost) {
      for (let k = 0; k < n + 1; k++) {
        const t = makeTriad(0.07 * L, 0.9);
        this.group.add(t);
        this.triads.push(t);
      }
    }
    this.toolTriad = makeTriad((this.ghost ? 0.08 : 0.12) * L, 1);
    this._mats.push(this.toolTriad.material);
    this._geoms.push(this.toolTriad.geometry);
    this.group.add(this.toolTriad);
    this.toolBall = new THREE.Mesh(sph, this._mat(0xf97316));
    this.toolBall.scale.setScalar(0.022 * L);
    this.group.add(this.toolBall);
    for (const t of this.triads) { this._mats.push(t.material); this._geoms.push(t.geometry); }
    this.setFramesVisible(this.showFrames);
  }

  setFramesVisible(on) {
    this.showFrames = on;
    for (const t of this.triads ?? []) t.visible = on;
  }

  /** Number of legs currently drawn (6 per A-pair; a leg of zero length is not). */
  get legCount() {
    let c = 0;
    for (const len of this._legLengths ?? []) if (len > 0) c++;
    return c;
  }

  /** Each drawn leg's length B_k → P_k (m), A-pair by A-pair, as placed by the last update. */
  legLengths() { return Array.from(this._legLengths ?? []); }

  /** Per A-pair: whether its legs are drawn red (near a collision) since the last update. */
  legWarned() { return Array.from(this._legWarned ?? []); }

  /**
   * Moves every primitive to the core's answer for one configuration.
   * @param {import('../../../wasm/achain.mjs').FkResult} fk model.forwardKinematics(q)
   * @param {Array<{joint:number, base:Float64Array, platform:Float64Array}>} legs model.apairLegEndpoints(q)
   * @param {{legWarn?: boolean[]}} [flags] per A-pair: draw its legs red (near a collision)
   */
  update(fk, legs, flags = {}) {
    const info = this.info;
    const n = info.joints.length;
    const modified = info.convention === 'modified';
    const r = this.linkRadius;
    const axisLen = 0.16 * this.scale;
    const axisR = 0.028 * this.scale;
    for (let i = 0; i < n; i++) {
      const j = info.joints[i];
      const parent = fk.frames[j.parent + 1];
      const link = fk.frames[i + 1];
      origin(parent, _a);
      origin(link, _b);
      // the DH "elbow": where the common normal meets the next frame's origin line
      if (modified) column(parent, 0, _c).multiplyScalar(j.a).add(_a);
      else column(link, 0, _c).multiplyScalar(-j.a).add(_b);
      const L = this.links[i];
      placeBetween(L.seg1, _a, _c, r);
      placeBetween(L.seg2, _c, _b, r);
      L.knee.position.copy(_c);
      // joint axis: standard DH → z of the parent frame; modified → z of the link frame
      const axisFrame = modified ? link : parent;
      origin(axisFrame, _a);
      column(axisFrame, 2, _dir);
      if (j.kind === 'A') {
        // through the plate centres, a little beyond both plates
        _b.copy(_a).addScaledVector(_dir, -0.25 * axisLen);
        _c.copy(_a).addScaledVector(_dir, Math.max(j.rho, 0) + 0.25 * axisLen);
        placeBetween(this.axes[i], _b, _c, axisR * 0.35);
      } else {
        _b.copy(_a).addScaledVector(_dir, -0.5 * axisLen);
        _c.copy(_a).addScaledVector(_dir, 0.5 * axisLen);
        placeBetween(this.axes[i], _b, _c, j.kind === 'P' ? axisR * 0.7 : axisR);
      }
    }
    origin(fk.frames[this.toolLink + 1], _a);
    origin(fk.tool, _b);
    placeBetween(this.toolSeg, _a, _b, r * 0.8);
    this.toolBall.position.copy(_b);
    matrixFromRowMajor(this.toolTriad.matrix, fk.tool);
    this.toolTriad.matrixWorldNeedsUpdate = true;
    for (let k = 0; k < this.triads.length; k++) {
      matrixFromRowMajor(this.triads[k].matrix, fk.frames[k]);
      this.triads[k].matrixWorldNeedsUpdate = true;
    }

    for (let a = 0; a < this.apairs.length; a++) {
      const ap = this.apairs[a];
      const lg = legs[a];
      const B = lg.base;
      const P = lg.platform;
      const setTri = (plate, src, i0, i1, i2) => {
        for (const g of [plate.mesh.geometry, plate.edge.geometry]) {
          const pos = g.attributes.position;
          pos.setXYZ(0, src[3 * i0], src[3 * i0 + 1], src[3 * i0 + 2]);
          pos.setXYZ(1, src[3 * i1], src[3 * i1 + 1], src[3 * i1 + 2]);
          pos.setXYZ(2, src[3 * i2], src[3 * i2 + 1], src[3 * i2 + 2]);
          pos.needsUpdate = true;
        }
        plate.mesh.geometry.computeVertexNormals();
      };
      setTri(ap.basePlate, B, 0, 2, 4); // B1, B3, B5
      setTri(ap.platform, P, 1, 3, 5); // P2, P4, P6
      const warn = !!(flags.legWarn && flags.legWarn[a]);
      this._legWarned[a] = warn;
      for (let k = 0; k < 6; k++) {
        _a.set(B[3 * k], B[3 * k + 1], B[3 * k + 2]);
        _b.set(P[3 * k], P[3 * k + 1], P[3 * k + 2]);
        this._legLengths[6 * a + k] = placeInstanceBetween(this.legMesh, 6 * a + k, _a, _b, ap.legR);
        if (!this.ghost) this.legMesh.setColorAt(6 * a + k, warn ? LEG_WARN_COLOR : LEG_COLOR);
        placeInstanceAt(this.ballMesh, 12 * a + k, _a, ap.ballR);
        placeInstanceAt(this.ballMesh, 12 * a + 6 + k, _b, ap.ballR);
      }
    }
    if (this.legMesh) {
      this.legMesh.instanceMatrix.needsUpdate = true;
      if (this.legMesh.instanceColor) this.legMesh.instanceColor.needsUpdate = true;
      this.ballMesh.instanceMatrix.needsUpdate = true;
    }
  }

  /** Removes all meshes and frees GPU resources. */
  clear() {
    for (const c of [...this.group.children]) this.group.remove(c);
    this.legMesh?.dispose(); // its instance buffers
    this.ballMesh?.dispose();
    this.legMesh = this.ballMesh = null;
    for (const g of this._geoms) g.dispose();
    for (const m of this._mats) m.dispose();
    this._geoms = [];
    this._mats = [];
    this.apairs = [];
    this.triads = [];
  }

  dispose() {
    this.clear();
    this.group.removeFromParent();
  }
}

