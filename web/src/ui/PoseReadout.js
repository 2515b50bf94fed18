// PoseReadout: the tool pose from the core's FK, position in mm and in, rotation as
// Z-Y-X angles (the core's matrixToRpy) and the rotation matrix.
import { INCH, DEG, fmt } from '../lib/units.js';

export class PoseReadout {
  constructor(el) { this.el = el; }

  /** T: row-major 4×4 tool pose; achain: the loaded module (its matrixToRpy gives roll, pitch, yaw). */
  update(T, units, achain) {
    const p = [T[3], T[7], T[11]];
    const [roll, pitch, yaw] = achain.matrixToRpy(T);
    const rpy = { roll, pitch, yaw };
    const ang = units.angle === 'deg' ? (v) => `${fmt(v / DEG, 2)}°` : (v) => `${fmt(v, 4)} rad`;
    const mm = p.map((v) => fmt(v * 1000, 2).padStart(9)).join(' ');
    const inch = p.map((v) => fmt(v / INCH, 3).padStart(9)).join(' ');
    const row = (k) => [T[4 * k], T[4 * k + 1], T[4 * k + 2]].map((v) => fmt(v, 4).padStart(8)).join(' ');
    this.el.innerHTML = '';
    const lines = [
      ['tool  ', '        x         y         z'],
      ['p mm  ', mm],
      ['p in  ', inch],
      ['rpy   ', `roll ${ang(rpy.roll)}  pitch ${ang(rpy.pitch)}  yaw ${ang(rpy.yaw)}`],
      ['R     ', row(0)],
      ['      ', row(1)],
      ['      ', row(2)],
    ];
    for (const [i, [k, v]] of lines.entries()) {
      const line = document.createElement('div');
      if (i >= 4) line.className = 'r-row';  // the rotation matrix: hidden in a small window (studio.css), rpy stays
      const ks = document.createElement('span');
      ks.className = 'k';
      ks.textContent = k;
      const vs = document.createElement('span');
      vs.textContent = v;
      line.append(ks, vs);
      this.el.appendChild(line);
    }
    this.el.dataset.px = String(p[0]);
    this.el.dataset.py = String(p[1]);
    this.el.dataset.pz = String(p[2]);
  }
}
