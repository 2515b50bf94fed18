// The batch kernels (private): forward kinematics and RNEA on kLanes states at once, every number a
// lane (GCC/Clang vector extension of kLanes doubles). Included by batch_kernel_base.cpp (baseline
// flags; -msimd128 in wasm) and batch_kernel_avx2.cpp (-mavx2 -mfma), each defining ACHAIN_BATCH_SUFFIX:
// one source for every instruction set. Everything here has internal linkage (anonymous namespace), so
// the two compilations never share an out-of-line copy. The math follows fk.cpp and rnea.cpp term for
// term; joint motion comes only from the joint model (JointModel::evaluateT).
#pragma once
#include <cmath>

#include "batch_plan.hpp"

#ifndef ACHAIN_BATCH_SUFFIX
#error "define ACHAIN_BATCH_SUFFIX (Base, Avx2) before including batch_kernel.hpp"
#endif
#define ACHAIN_BATCH_CAT2(a, b) a##b
#define ACHAIN_BATCH_CAT(a, b) ACHAIN_BATCH_CAT2(a, b)
#define ACHAIN_BATCH_FN(name) ACHAIN_BATCH_CAT(name, ACHAIN_BATCH_SUFFIX)

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

namespace achain::batch_detail {
namespace {

typedef double V4 __attribute__((vector_size(kLanes * sizeof(double))));

/// kLanes doubles, one per state.
struct Lane {
  V4 v;
  Lane() : v{0, 0, 0, 0} {}
  Lane(double x) : v{x, x, x, x} {}  // NOLINT: a constant in every lane
  explicit Lane(const V4& x) : v(x) {}
};
static_assert(kLanes == 4, "Lane is written for four lanes");
inline Lane operator+(const Lane& a, const Lane& b) { return Lane(a.v + b.v); }
inline Lane operator-(const Lane& a, const Lane& b) { return Lane(a.v - b.v); }
inline Lane operator*(const Lane& a, const Lane& b) { return Lane(a.v * b.v); }
inline Lane operator-(const Lane& a) { return Lane(-a.v); }
inline Lane& operator+=(Lane& a, const Lane& b) { a.v += b.v; return a; }
inline Lane& operator-=(Lane& a, const Lane& b) { a.v -= b.v; return a; }
typedef long long V4i __attribute__((vector_size(kLanes * sizeof(long long))));

/// sin and cos of every lane at once: Cody–Waite reduction by π/2 (fdlibm's three-part π/2, exact products
/// for |x| < 2^20·π/2) and fdlibm's minimax kernels on [−π/4, π/4] (≤ 1 ulp from libm). Lanes beyond
/// |x| ≤ 1e5 (or not finite) fall back to std::sin/std::cos for the whole lane set.
inline void sincos(const Lane& x, Lane& s, Lane& c) {
  bool small = true;
  for (int l = 0; l < kLanes; ++l) small = small && std::abs(x.v[l]) <= 1e5;
  if (!small) {
    for (int l = 0; l < kLanes; ++l) {
      s.v[l] = std::sin(x.v[l]);
      c.v[l] = std::cos(x.v[l]);
    }
    return;
  }
  const V4 shifter = V4{0, 0, 0, 0} + 0x1.8p52;
  const V4 t = x.v * 0.63661977236758134308 + shifter;  // 2/π; the low bits of t hold round(x·2/π)
  const V4 j = t - shifter;
  const V4i q = (V4i)(t);
  const V4 r = ((x.v - j * 1.57079632673412561417e+00) - j * 6.07710050630396597660e-11) - j * 2.02226624871116645580e-21;
  const V4 z = r * r;
  const V4 ps = r + r * z * (-1.66666666666666324348e-01 + z * (8.33333333332248946124e-03 + z * (-1.98412698298579493134e-04 +
                z * (2.75573137070700676789e-06 + z * (-2.50507602534068634195e-08 + z * 1.58969099521155010221e-10)))));
  const V4 pc = (1.0 - 0.5 * z) + z * z * (4.16666666666666019037e-02 + z * (-1.38888888888741095749e-03 + z * (2.48015872894767294178e-05 +
                z * (-2.75573143513906633035e-07 + z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11)))));
  // quadrant q: sin = (s, c, −s, −c)[q], cos = (c, −s, −c, s)[q]
  const V4i swap = (q & 1) == 1;  // all ones where the roles of the two kernels swap
  const V4i bs = (V4i)(ps), bc = (V4i)(pc);
  const V4i sin_bits = ((swap & bc) | (~swap & bs)) ^ ((q & 2) << 62);
  const V4i cos_bits = ((swap & bs) | (~swap & bc)) ^ (((q + 1) & 2) << 62);
  s.v = (V4)(sin_bits);
  c.v = (V4)(cos_bits);
}
inline Lane sin(const Lane& x) {
  Lane s, c;
  sincos(x, s, c);
  return s;
}
inline Lane cos(const Lane& x) {
  Lane s, c;
  sincos(x, s, c);
  return c;
}

struct V3 {
  Lane x, y, z;
};
inline V3 operator+(const V3& a, const V3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline V3 operator-(const V3& a, const V3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline V3 operator*(const Lane& s, const V3& a) { return {s * a.x, s * a.y, s * a.z}; }
inline V3& operator+=(V3& a, const V3& b) { a = a + b; return a; }
inline V3 cross(const V3& a, const V3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline Lane dot(const V3& a, const V3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline V3 splat3(const double* p) { return {Lane(p[0]), Lane(p[1]), Lane(p[2])}; }

/// A rigid transform on lanes: R column-major (c[0], c[1], c[2] its columns), p.
struct Frame {
  V3 c[3];
  V3 p;
};
inline V3 rot(const Frame& T, const V3& x) { return x.x * T.c[0] + x.y * T.c[1] + x.z * T.c[2]; }
inline V3 rotT(const Frame& T, const V3& x) { return {dot(T.c[0], x), dot(T.c[1], x), dot(T.c[2], x)}; }
inline V3 act(const Frame& T, const V3& x) { return rot(T, x) + T.p; }
/// T·X for a constant X (column-major R, p).
inline Frame compose(const Frame& T, const Frame12& X) {
  Frame out;
  for (int k = 0; k < 3; ++k) out.c[k] = rot(T, V3{Lane(X.R[3 * k]), Lane(X.R[3 * k + 1]), Lane(X.R[3 * k + 2])});
  out.p = act(T, splat3(X.p));
  return out;
}
/// T·X for X = (Rx(α), (a, 0, 0)).
inline Frame composeX(const Frame& T, double ca, double sa, double a) {
  Frame out;
  out.c[0] = T.c[0];
  out.c[1] = Lane(ca) * T.c[1] + Lane(sa) * T.c[2];
  out.c[2] = Lane(-sa) * T.c[1] + Lane(ca) * T.c[2];
  out.p = T.p + Lane(a) * T.c[0];
  return out;
}
inline Frame splatFrame(const Frame12& X) {
  Frame out;
  for (int k = 0; k < 3; ++k) out.c[k] = splat3(X.R + 3 * k);
  out.p = splat3(X.p);
  return out;
}
inline Frame place(const Frame& T, int kind, double ca, double sa, double a, const Frame12& X) {
  if (kind == kXForm) return composeX(T, ca, sa, a);
  if (kind == kGeneral) return compose(T, X);
  return T;
}

/// Per joint: the kernel's lane scratch (kLanesPerJoint lanes).
struct JointLanes {
  Frame oMj, oMi;
  Lane rot_rate, axial_rate, axial_curv;
  V3 S_w, S_v, V_w, V_v, A_w, A_v, F_n, F_f;
};
static_assert(sizeof(JointLanes) == kLanesPerJoint * sizeof(Lane), "kLanesPerJoint (batch_plan.hpp)");

struct Scratch {
  JointLanes* j;
  Lane* tau;    // nv
  Frame* tool;  // 1 (12 lanes)
};
inline Scratch scratchOf(const Plan& p) {
  Lane* base = static_cast<Lane*>(p.scratch);
  return {reinterpret_cast<JointLanes*>(base), base + static_cast<long>(p.njoints) * kLanesPerJoint,
          reinterpret_cast<Frame*>(base + static_cast<long>(p.njoints) * kLanesPerJoint + p.nv)};
}

/// Lane l = entry i of state k0 + l (the last state repeated in the spare lanes of a short block).
inline Lane gather(const double* x, int stride, int i, int k0, int m) {
  Lane r;
  for (int l = 0; l < kLanes; ++l) r.v[l] = x[static_cast<long>(stride) * (k0 + (l < m ? l : m - 1)) + i];
  return r;
}

/// Forward kinematics of one block: every oMj/oMi, the joint rates, and the tool pose.
inline void fkBlock(const Plan& p, const Scratch& s, const double* q, int k0, int m) {
  const Frame base = splatFrame(p.base);
  for (int i = 0; i < p.njoints; ++i) {
    const JointPlan& J = p.joints[i];
    JointLanes& L = s.j[i];
    const Frame& parent = J.parent < 0 ? base : s.j[J.parent].oMi;
    const Lane qc = J.jm->coord < 0 ? Lane(0.0) : gather(q, p.nq, J.jm->coord, k0, m);
    JointStateOf<Lane> js;
    J.jm->evaluateT(qc, js);
    L.rot_rate = js.rot_rate;
    L.axial_rate = js.axial_rate;
    L.axial_curv = js.axial_curv;
    Lane sn, c;
    sincos(js.theta, sn, c);
    L.oMj = place(parent, J.pre, J.pre_c, J.pre_s, J.pre_a, J.pre_T);
    const Frame& A = L.oMj;
    // Motion Rz(θ) Tz(dz) in the axis frame.
    Frame M;
    M.c[0] = c * A.c[0] + sn * A.c[1];
    M.c[1] = -sn * A.c[0] + c * A.c[1];
    M.c[2] = A.c[2];
    M.p = A.p + js.dz * A.c[2];
    L.oMi = place(M, J.post, J.post_c, J.post_s, J.post_a, J.post_T);
  }
  *s.tool = compose(s.j[p.tool_link].oMi, p.tool);
}

/// Classical acceleration of world point x moving with body i (−1: the base, acceleration a_base).
inline V3 pointAcceleration(const Scratch& s, int i, const V3& x, const V3& a_base) {
  if (i < 0) return a_base;
  const JointLanes& L = s.j[i];
  return L.A_v + cross(L.A_w, x) + cross(L.V_w, L.V_v + cross(L.V_w, x));
}

/// RNEA of one block (FK done): τ lanes in s.tau, with the drive and wrench terms of the options.
inline void rneaBlock(const Plan& p, const Scratch& s, const double* qd, const double* qdd, int k0, int m) {
  const V3 a_base = {Lane(-p.g[0]), Lane(-p.g[1]), Lane(-p.g[2])};
  for (int k = 0; k < p.nv; ++k) s.tau[k] = Lane(0.0);
  for (int i = 0; i < p.njoints; ++i) {
    const JointPlan& J = p.joints[i];
    JointLanes& L = s.j[i];
    const V3 z = L.oMj.c[2];
    const V3& o = L.oMj.p;
    L.S_w = L.rot_rate * z;
    L.S_v = cross(o, L.S_w) + L.axial_rate * z;
    const Lane v = J.coord < 0 || !qd ? Lane(0.0) : gather(qd, p.nv, J.coord, k0, m);
    const Lane a = J.coord < 0 || !qdd ? Lane(0.0) : gather(qdd, p.nv, J.coord, k0, m);
    if (J.parent < 0) {
      L.V_w = v * L.S_w;
      L.V_v = v * L.S_v;
      L.A_w = a * L.S_w;
      L.A_v = a_base + a * L.S_v + (L.axial_curv * v * v) * z;
    } else {
      const JointLanes& P = s.j[J.parent];
      L.V_w = P.V_w + v * L.S_w;
      L.V_v = P.V_v + v * L.S_v;
      L.A_w = P.A_w + a * L.S_w + v * cross(P.V_w, L.S_w);
      L.A_v = P.A_v + a * L.S_v + v * (cross(P.V_w, L.S_v) + cross(P.V_v, L.S_w)) + (L.axial_curv * v * v) * z;
    }
    V3 n_o = {Lane(0.0), Lane(0.0), Lane(0.0)}, f = n_o;
    if (J.mass != 0) {
      const V3 c = act(L.oMi, splat3(J.com));
      const V3& w = L.V_w;
      const V3 ac = L.A_v + cross(L.A_w, c) + cross(w, L.V_v + cross(w, c));
      f = Lane(J.mass) * ac;
      n_o = cross(c, f);
    }
    const V3 wl = rotT(L.oMi, L.V_w), al = rotT(L.oMi, L.A_w);
    const double* I = J.inertia;
    const V3 Iw = {I[0] * wl.x + I[3] * wl.y + I[6] * wl.z, I[1] * wl.x + I[4] * wl.y + I[7] * wl.z,
                   I[2] * wl.x + I[5] * wl.y + I[8] * wl.z};
    const V3 Ia = {I[0] * al.x + I[3] * al.y + I[6] * al.z, I[1] * al.x + I[4] * al.y + I[7] * al.z,
                   I[2] * al.x + I[5] * al.y + I[8] * al.z};
    n_o += rot(L.oMi, Ia + cross(wl, Iw));
    L.F_n = n_o;
    L.F_f = f;
  }
  if (p.legs_full || p.legs_weight) {
    for (int e = 0; e < p.nlegs; ++e) {
      const LegPlan& G = p.legs[e];
      const V3 B = G.parent < 0 ? splat3(G.B) : act(s.j[G.parent].oMi, splat3(G.B));
      const V3 P = act(s.j[G.joint].oMi, splat3(G.P));
      V3 half;
      if (p.legs_full) {
        const V3 aB = pointAcceleration(s, G.parent, B, a_base);
        const V3 aP = pointAcceleration(s, G.joint, P, a_base);
        half = Lane(G.mass / 3.0 * 0.5) * (aB + aP);
      } else {
        half = Lane(-0.5 * G.mass) * V3{Lane(p.g[0]), Lane(p.g[1]), Lane(p.g[2])};
      }
      s.j[G.joint].F_f += half;
      s.j[G.joint].F_n += cross(P, half);
      if (G.parent >= 0) {
        s.j[G.parent].F_f += half;
        s.j[G.parent].F_n += cross(B, half);
      }
    }
  }
  for (int i = p.njoints - 1; i >= 0; --i) {
    const JointPlan& J = p.joints[i];
    JointLanes& L = s.j[i];
    if (J.coord >= 0) s.tau[J.coord] += dot(L.S_w, L.F_n) + dot(L.S_v, L.F_f);
    if (J.parent >= 0) {
      s.j[J.parent].F_n += L.F_n;
      s.j[J.parent].F_f += L.F_f;
    }
  }
  // Drive terms (as addActuationTerms: rotor inertia, then friction, then the tool wrench).
  if (p.motors && qdd)
    for (int i = 0; i < p.njoints; ++i)
      if (p.joints[i].drive) s.tau[p.joints[i].coord] += Lane(p.joints[i].rotor) * gather(qdd, p.nv, p.joints[i].coord, k0, m);
  if (p.friction && qd)
    for (int i = 0; i < p.njoints; ++i) {
      const JointPlan& J = p.joints[i];
      if (!J.drive) continue;
      const Lane v = gather(qd, p.nv, J.coord, k0, m);
      Lane t = Lane(J.fric_visc) * v;
      for (int l = 0; l < kLanes; ++l) {  // Coulomb: sign(q̇), zero at rest
        if (v.v[l] > 0) t.v[l] += J.fric_pos;
        else if (v.v[l] < 0) t.v[l] -= J.fric_neg;
      }
      s.tau[J.coord] += t;
    }
  if (p.wrench) {
    V3 f = splat3(p.wrench6), mo = splat3(p.wrench6 + 3);
    if (p.wrench_tool) {
      f = rot(*s.tool, f);
      mo = rot(*s.tool, mo);
    }
    const V3 n_o = mo + cross(s.tool->p, f);
    for (int i = p.tool_link; i >= 0; i = p.joints[i].parent) {
      const JointLanes& L = s.j[i];
      const V3 z = L.oMj.c[2];
      const V3 sw = L.rot_rate * z;
      const V3 sv = cross(L.oMj.p, sw) + L.axial_rate * z;
      if (p.joints[i].coord >= 0) s.tau[p.joints[i].coord] += dot(sw, n_o) + dot(sv, f);
    }
  }
}

inline void scatter(const Lane& x, double* out, int stride, int i, int k0, int m) {
  for (int l = 0; l < m; ++l) out[static_cast<long>(stride) * (k0 + l) + i] = x.v[l];
}

}  // namespace

void ACHAIN_BATCH_FN(fkToolBlocks)(const Plan& p, int count, const double* q, double* tool) {
  const Scratch s = scratchOf(p);
  for (int k0 = 0; k0 < count; k0 += kLanes) {
    const int m = count - k0 < kLanes ? count - k0 : kLanes;
    fkBlock(p, s, q, k0, m);
    const Frame& T = *s.tool;
    for (int k = 0; k < 3; ++k) {
      scatter(T.c[k].x, tool, 12, 3 * k, k0, m);
      scatter(T.c[k].y, tool, 12, 3 * k + 1, k0, m);
      scatter(T.c[k].z, tool, 12, 3 * k + 2, k0, m);
    }
    scatter(T.p.x, tool, 12, 9, k0, m);
    scatter(T.p.y, tool, 12, 10, k0, m);
    scatter(T.p.z, tool, 12, 11, k0, m);
  }
}

void ACHAIN_BATCH_FN(rneaBlocks)(const Plan& p, int count, const double* q, const double* qd, const double* qdd,
                                 double* tau) {
  const Scratch s = scratchOf(p);
  for (int k0 = 0; k0 < count; k0 += kLanes) {
    const int m = count - k0 < kLanes ? count - k0 : kLanes;
    fkBlock(p, s, q, k0, m);
    rneaBlock(p, s, qd, qdd, k0, m);
    for (int k = 0; k < p.nv; ++k) scatter(s.tau[k], tau, p.nv, k, k0, m);
  }
}

}  // namespace achain::batch_detail

#pragma GCC diagnostic pop
