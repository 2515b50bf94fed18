// MuJoCo's own WebAssembly build (npm mujoco-js) on the same robots: mj_inverse (the position and
// velocity stages plus mj_rne), mass matrix (mj_crb, sparse qM), forward dynamics (mj_forward) and FK
// (mj_kinematics). The MJCF is generated here from the achain model (standard-DH serial R chains,
// like bench/peers/mujoco_model.hpp); prototype-4a runs its R twin (MuJoCo has no A-pairs).
import loadMujoco from 'mujoco-js';

function quat(R) {  // row-major 3×3 → (w, x, y, z)
  const [a, b, c, d, e, f, g, h, i] = R;
  const tr = a + e + i;
  let w, x, y, z;
  if (tr > 0) { const s = Math.sqrt(tr + 1) * 2; w = s / 4; x = (h - f) / s; y = (c - g) / s; z = (d - b) / s; }
  else if (a > e && a > i) { const s = Math.sqrt(1 + a - e - i) * 2; w = (h - f) / s; x = s / 4; y = (b + d) / s; z = (c + g) / s; }
  else if (e > i) { const s = Math.sqrt(1 + e - a - i) * 2; w = (c - g) / s; x = (b + d) / s; y = s / 4; z = (f + h) / s; }
  else { const s = Math.sqrt(1 + i - a - e) * 2; w = (d - b) / s; x = (c + g) / s; y = (f + h) / s; z = s / 4; }
  return [w, x, y, z];
}
const mul = (A, B) => { const C = new Array(9).fill(0); for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) C[3 * r + c] += A[3 * r + k] * B[3 * k + c]; return C; };
const rotX = (t) => [1, 0, 0, 0, Math.cos(t), -Math.sin(t), 0, Math.sin(t), Math.cos(t)];
const rotZ = (t) => [Math.cos(t), -Math.sin(t), 0, Math.sin(t), Math.cos(t), 0, 0, 0, 1];
const apply = (R, v) => [0, 1, 2].map((r) => R[3 * r] * v[0] + R[3 * r + 1] * v[1] + R[3 * r + 2] * v[2]);

/** MJCF for a standard-DH serial R chain given as an achain robot description in SI. */
export function mjcf(desc) {
  const g = desc.gravity ?? [0, 0, -9.80665];
  let xml = `<mujoco model="${desc.name}"><compiler angle="radian" inertiafromgeom="false"/>`;
  xml += `<option gravity="${g.join(' ')}"><flag contact="disable" constraint="disable" limit="disable"/></option><worldbody>`;
  let prevA = 0, prevAlpha = 0;
  for (const j of desc.joints) {
    if (j.kind !== 'R') throw new Error('mujoco bench: R joints only');
    // Body i at the motion frame: parent's post Tx(a)Rx(α), then Rz(θ_f) Tz(d).
    const Rp = mul(rotX(prevAlpha), rotZ(j.theta_f ?? 0));
    const p = apply(rotX(prevAlpha), [0, 0, j.d ?? 0]).map((v, i) => v + (i === 0 ? prevA : 0));
    xml += `<body pos="${p.join(' ')}" quat="${quat(Rp).join(' ')}"><joint type="hinge" axis="0 0 ${j.sign ?? 1}" limited="false"/>`;
    const post = rotX(j.alpha ?? 0);
    const c = apply(post, j.link.com).map((v, i) => v + (i === 0 ? (j.a ?? 0) : 0));
    const I = j.link.inertia.flat();
    const Ib = mul(mul(post, I), [post[0], post[3], post[6], post[1], post[4], post[7], post[2], post[5], post[8]]);
    xml += `<inertial pos="${c.join(' ')}" mass="${j.link.mass}" fullinertia="${[Ib[0], Ib[4], Ib[8], Ib[1], Ib[2], Ib[5]].join(' ')}"/>`;
    prevA = j.a ?? 0;
    prevAlpha = j.alpha ?? 0;
  }
  xml += '</body>'.repeat(desc.joints.length) + '</worldbody></mujoco>';
  return xml;
}

export async function cases(achain) {
  const mujoco = await loadMujoco();
  mujoco.FS.mkdir('/bench');
  const out = [];
  for (const robot of ['puma560', 'prototype-4a']) {
    const peer = robot === 'prototype-4a' ? 'prototype-4r' : robot;
    const m = achain.loadModel(peer);
    const desc = m.modelToJson();
    if (peer === 'puma560') {  // MuJoCo needs physical inertias (see tests/peers/test_peers_dynamics.cpp)
      desc.joints[0].link.inertia = [[0.35, 0, 0], [0, 0.35, 0], [0, 0, 0.35]];
      desc.joints[0].link.mass = 1;
      desc.joints[2].link.inertia[1][1] = 0.066 + 0.0125;
    }
    const n = m.dof;
    m.dispose();
    mujoco.FS.writeFile(`/bench/${peer}.xml`, mjcf(desc));
    const model = mujoco.MjModel.loadFromXML(`/bench/${peer}.xml`);
    const data = new mujoco.MjData(model);
    const states = [];
    for (let k = 0; k < 256; k++) {
      states.push(Float64Array.from({ length: 3 * n }, (_, i) => Math.sin(k * 7.3 + i * 1.7)));
    }
    let k = 0;
    const load = (acc) => {
      const s = states[k++ & 255];
      data.qpos.set(s.subarray(0, n));
      data.qvel.set(s.subarray(n, 2 * n));
      if (acc) data.qacc.set(s.subarray(2 * n));
      return s;
    };
    const suffix = robot === 'prototype-4a' ? ' (4R twin)' : '';
    // mj_inverse (position and velocity stages + mj_rne → qfrc_inverse; checked equal to achain's τ
    // on prototype-4r and planar-2r): the embind mj_rne does not copy its result array back.
    out.push({ name: `RNEA/${robot}/mujoco-js${suffix}`, fn: () => { load(true); mujoco.mj_inverse(model, data); return data.qfrc_inverse; } });
    out.push({ name: `CRBA/${robot}/mujoco-js${suffix}`, fn: () => { load(false); mujoco.mj_kinematics(model, data); mujoco.mj_comPos(model, data); mujoco.mj_crb(model, data); return data.qM; } });
    out.push({ name: `ForwardDynamics/${robot}/mujoco-js${suffix}`, fn: () => { const s = load(false); data.qfrc_applied.set(s.subarray(2 * n)); mujoco.mj_forward(model, data); } });
    out.push({ name: `FK/${robot}/mujoco-js${suffix}`, fn: () => { load(false); mujoco.mj_kinematics(model, data); },
      dispose: () => { data.delete(); model.delete(); } });
  }
  return out;
}
