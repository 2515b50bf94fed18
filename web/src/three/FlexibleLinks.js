// FlexibleLinks: the deflected beams of a chain with flexible links (issue 13), drawn from the core's answers.
// Every point comes from model.flexibleLinkCurve(phi, joint) (core: flexibleLinkCurve): the beam's centreline
// root → tip, deflected and rigid, world. This class only scales the deflection for visibility
// (rigid + exaggeration·(deflected − rigid)) and places tubes through the points; it computes no kinematics.
// Whoever mounts it owns it: add `group` to a scene (under the same parent and scale as the ChainView), call
// update(model, phi) when φ changes, dispose() when done. See docs/flexible-wasm.md.
import * as THREE from 'three';

export class FlexibleLinks {
  /**
   * @param {{exaggeration?: number, samples?: number, radius?: number, color?: number, showRigid?: boolean,
   *   rigidColor?: number}} [opts] exaggeration: deflection scale (default 1: true size); samples per link
   *   (default 21); radius of the tube (m, default 0: a line)
   */
  constructor(opts = {}) {
    this.exaggeration = opts.exaggeration ?? 1;
    this.samples = opts.samples ?? 21;
    this.radius = opts.radius ?? 0;
    this.showRigid = opts.showRigid ?? true;
    this.group = new THREE.Group();
    this.group.name = 'achain-flexible-links';
    this._mat = this.radius > 0
      ? new THREE.MeshStandardMaterial({ color: opts.color ?? 0xf97316, roughness: 0.6 })
      : new THREE.LineBasicMaterial({ color: opts.color ?? 0xf97316 });
    this._rigidMat = new THREE.LineDashedMaterial({ color: opts.rigidColor ?? 0x94a3b8, dashSize: 0.05, gapSize: 0.03 });
    this._objects = [];
    /** The last curves drawn: [{joint, u, deflected, rigid}] as the core returned them (unscaled). */
    this.curves = [];
  }

  /** Redraws every flexible link of `model` (model.info.flexibleLinks) at φ; options.baseMass as the model's methods. */
  update(model, phi, options = {}) {
    const links = model.info.flexibleLinks ?? [];
    this.curves = links.map((l) => model.flexibleLinkCurve(phi, l.joint, { samples: this.samples, baseMass: options.baseMass }));
    this.redraw();
  }

  /** Rebuilds the drawing from the last curves (a new exaggeration, say) without asking the core again. */
  redraw() {
    this._clear();
    for (const c of this.curves) {
      const n = c.u.length, pts = [];
      for (let i = 0; i < n; i++) {
        const k = 3 * i, f = this.exaggeration;
        pts.push(new THREE.Vector3(c.rigid[k] + f * (c.deflected[k] - c.rigid[k]), c.rigid[k + 1] + f * (c.deflected[k + 1] - c.rigid[k + 1]),
          c.rigid[k + 2] + f * (c.deflected[k + 2] - c.rigid[k + 2])));
      }
      const geom = this.radius > 0
        ? new THREE.TubeGeometry(new THREE.CatmullRomCurve3(pts), 4 * n, this.radius, 8, false)
        : new THREE.BufferGeometry().setFromPoints(pts);
      this._add(this.radius > 0 ? new THREE.Mesh(geom, this._mat) : new THREE.Line(geom, this._mat), c.joint);
      if (this.showRigid) {
        const g = new THREE.BufferGeometry().setAttribute('position', new THREE.Float32BufferAttribute(Array.from(c.rigid), 3));
        const line = new THREE.Line(g, this._rigidMat);
        line.computeLineDistances();
        this._add(line, c.joint);
      }
    }
  }

  _add(obj, joint) {
    obj.userData.joint = joint;
    this._objects.push(obj);
    this.group.add(obj);
  }

  _clear() {
    for (const o of this._objects) {
      this.group.remove(o);
      o.geometry.dispose();
    }
    this._objects = [];
  }

  /** Frees the geometries and materials; removes the group from its parent. */
  dispose() {
    this._clear();
    this._mat.dispose();
    this._rigidMat.dispose();
    this.group.removeFromParent();
  }
}
