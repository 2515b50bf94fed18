// Operation counts of the single-state kernels: the floor estimate printed beside the timings by
// bench/run.mjs. Method: a counted formula per joint, read off the core's code paths (the files named
// below) for a serial chain, counting every scalar multiply and add/subtract the C++ source writes
// (Eigen's 3×3 and 6×6 products at their full size: 27 multiplies for a 3×3·3×3, even where the
// operand has zeros) and every call of sin/cos (`trig`), sqrt and division (`other`). Not counted:
// loads/stores, index arithmetic, branches, and for A-pair chains with legs 'full' the leg particles
// (so prototype-4a's floor is a lower bound).
//
// The floor: a core doing two fused multiply-adds per cycle needs at least max(mul, add) / 2 cycles
// for the arithmetic; trigonometry comes on top (a sin/cos pair is tens of cycles in libm).

const add = (a, b) => ({ mul: a.mul + b.mul, add: a.add + b.add, trig: a.trig + b.trig, other: a.other + b.other });
const times = (k, a) => ({ mul: k * a.mul, add: k * a.add, trig: k * a.trig, other: k * a.other });
const ops = (mul, add_, trig = 0, other = 0) => ({ mul, add: add_, trig, other });
const ZERO = ops(0, 0);

/** joint law evaluation (core/include/achain/model/joint.hpp, JointModel::evaluate / AxialLaw::evaluate). */
function jointState(kind) {
  // u = k·q + c₀; θ = θ₀ + r·u; dz = d₀ + f; rates: r·k, f'·k, f''·k², f'''·k³
  const linear = ops(6, 3);
  if (kind !== 'A') return add(linear, ops(1, 0));  // f = c₁u
  // cubic (Horner, 3 lines) + one sine term: x = ωu + φ, sin, cos, f..f''' (a·s, a·w·c, a·w²·s, a·w³·c)
  return add(linear, add(ops(9, 6), ops(10, 5, 2)));
}

/** FK (core/src/kinematics/fk.cpp), standard-DH joint: cos/sin, Rz(θ)·Tz(dz), then Tx(a)·Rx(α). */
function fkJoint(kind) {
  return add(jointState(kind), ops(30, 18, 2));  // Rm: 12m 6a; pm: 3m 3a; p: 3m 3a; R cols 1, 2: 12m 6a
}
const fkTool = ops(36, 27);  // oMtool = oMi[tool] · tool: 3×3·3×3 and R·p + p

function fk(joints) {
  return joints.reduce((s, j) => add(s, fkJoint(j.kind)), fkTool);
}

/** Point Jacobian of the tool (core/src/kinematics/jacobian.cpp, worldPointJacobian), FK included. */
function jacobian(joints) {
  // w = r·z (3m); w × (p − o) (6m, 6a); + a·z (3m 3a); two += into J (6a)
  return add(fk(joints), times(joints.length, ops(12, 15)));
}

/** RNEA body terms (core/src/dynamics/rnea.cpp, rnea): forward and backward pass of one joint. */
function rneaJoint(j) {
  let s = ops(12, 6);                   // S_w, S_v = o × S_w + a·z
  s = add(s, ops(6, 6));                // V = V_p + S·q̇
  s = add(s, ops(35, 27));              // A_w, A_v (evaluated in full also when q̈ = 0, as in forward dynamics)
  if (j.mass !== 0) s = add(s, ops(36, 30));  // c = R·com + p; a_c (3 crosses); f = m·a_c; n = c × f
  s = add(s, ops(51, 39));              // rotational: Rᵀω, Rᵀα, I·α, I·ω, ω × Iω, R·(…), n +=
  s = add(s, ops(6, 11));               // τ = S·F (two dots); F_parent += F
  return s;
}

function rnea(joints) {
  return joints.reduce((s, j) => add(s, rneaJoint(j)), fk(joints));
}

/** CRBA (core/src/dynamics/crba.cpp, crba; detail.hpp, rotationalInertiaAtOrigin), without FK. */
function crbaOnly(joints) {
  const n = joints.length;
  // per joint: S_w, S_v (12m 6a); I_o = R·I·Rᵀ − h·cᵀ + (h·c)·1 with c = R·com + p, h = m·c (78m 59a);
  // F_n = I_o·S_w + h × S_v, F_f = S_w × h + m·S_v (24m 18a); the diagonal (6m 6a)
  let s = times(n, ops(12 + 78 + 24 + 6, 6 + 59 + 18 + 6));
  s = add(s, ops(0, 13 * (n - 1)));                 // composite (I_o, h, m) of the parent += the child's
  s = add(s, times((n * (n - 1)) / 2, ops(6, 7)));  // off-diagonal: two dots, two stores by +=
  return s;
}

function crba(joints) {
  return add(fk(joints), crbaOnly(joints));
}

/** Forward dynamics (core/src/dynamics/forward.cpp): FK, CRBA, RNEA bias (q̈ = 0), τ − b, LLT, solve. */
function forwardDynamics(joints) {
  const n = joints.length;
  let s = add(crba(joints), joints.reduce((t, j) => add(t, rneaJoint(j)), ZERO));
  s = add(s, ops(0, n));  // τ − b
  // Cholesky: column j: Σ_k<j L_jk² (j m, j a), sqrt; rows i > j: dot of length j (j m, j a) and a division
  let chol = ZERO;
  for (let j = 0; j < n; j++) chol = add(chol, add(ops(j + (n - 1 - j) * j, j + (n - 1 - j) * j), ops(0, 0, 0, 1 + (n - 1 - j))));
  // two triangular solves: n(n−1)/2 multiply-adds and n divisions each
  const solve = times(2, ops((n * (n - 1)) / 2, (n * (n - 1)) / 2, 0, n));
  return add(add(s, chol), solve);
}

const KERNELS = { FK: fk, Jacobian: jacobian, RNEA: rnea, CRBA: crba, ForwardDynamics: forwardDynamics };

/** {mul, add, trig, other} of `kernel` (FK | Jacobian | RNEA | CRBA | ForwardDynamics) for joints [{kind, mass}], or null. */
export function opCount(kernel, joints) {
  const f = KERNELS[kernel];
  return f ? f(joints) : null;
}

/** The arithmetic floor in ns at `ghz`: max(mul, add) / 2 cycles (two FMA units). Trig not included. */
export function floorNs(count, ghz) {
  return Math.max(count.mul, count.add) / 2 / ghz;
}
