// The batch kernels (private): forward kinematics, and on it RNEA, the point Jacobian and CRBA, on kLanes
// states at once, every number a lane (GCC/Clang vector extension of kLanes doubles). Included by
// batch_kernel_base.cpp (baseline flags; -msimd128 in wasm) and batch_kernel_avx2.cpp (-mavx2 -mfma), each
// defining ACHAIN_BATCH_SUFFIX: one source for every instruction set. Everything here has internal linkage
// (anonymous namespace), so the two compilations never share an out-of-line copy. The math follows fk.cpp,
// rnea.cpp, jacobian.cpp and crba.cpp term for term; joint motion and link placement come only from the joint
// model (JointModel::evaluateT, JointModel::placeLink on lane frames), in the one FK block every algorithm
// starts from.
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
inline Lane operator/(const Lane& a, const Lane& b) { return Lane(a.v / b.v); }
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
inline V3& operator-=(V3& a, const V3& b) { a = a - b; return a; }
inline V3 cross(const V3& a, const V3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline const Lane& entry(const V3& a, int k) { return k == 0 ? a.x : k == 1 ? a.y : a.z; }
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
// The placement's frame interface (joint.hpp: composeFixed, moveAlongZ, JointModel::placeLink).
inline V3& frameCol(Frame& T, int k) { return T.c[k]; }
inline const V3& frameCol(const Frame& T, int k) { return T.c[k]; }
inline Frame splatFrame(const FixedTransform& X) {
  Frame out;
  for (int k = 0; k < 3; ++k) out.c[k] = splat3(X.R + 3 * k);
  out.p = splat3(X.p);
  return out;
}

/// Per joint: the kernel's lane scratch (kLanesPerJoint lanes).
struct JointLanes {
  Frame oMj, oMi;
  Lane rot_rate, axial_rate, axial_curv;
  V3 S_w, S_v, V_w, V_v, A_w, A_v, F_n, F_f;
};
static_assert(sizeof(JointLanes) == kLanesPerJoint * sizeof(Lane), "kLanesPerJoint (batch_plan.hpp)");

/// Composite inertia of a subtree about the world origin: I_o (columns), first moment h, mass (as crba.cpp).
struct CompositeLanes {
  V3 Io[3];
  V3 h;
  Lane m;
};
static_assert(sizeof(CompositeLanes) == kCompositeLanes * sizeof(Lane), "kCompositeLanes (batch_plan.hpp)");

/// The lane scratch, laid out as scratchLanes (batch_plan.hpp) counts it.
struct Scratch {
  JointLanes* j;
  CompositeLanes* comp;  // njoints
  Lane* tau;             // nv
  Frame* tool;           // 1 (12 lanes)
  V3* jac;               // 2·nv: the linear columns, then the angular ones
  Lane* M;               // nv², column-major
};
inline Scratch scratchOf(const Plan& p) {
  Lane* at = static_cast<Lane*>(p.scratch);
  Scratch s;
  s.j = reinterpret_cast<JointLanes*>(at);
  at += static_cast<long>(p.njoints) * kLanesPerJoint;
  s.comp = reinterpret_cast<CompositeLanes*>(at);
  at += static_cast<long>(p.njoints) * kCompositeLanes;
  s.tau = at;
  at += p.nv;
  s.tool = reinterpret_cast<Frame*>(at);
  at += 12;
  s.jac = reinterpret_cast<V3*>(at);
  at += 6L * p.nv;
  s.M = at;
  return s;
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
    J.jm->placeLink(parent, c, sn, js.dz, L.oMj, L.oMi);
  }
  composeFixed(s.j[p.tool_link].oMi, p.tool, *s.tool);
}

/// The joint's motion subspace in the world frame about the origin: angular S_w, linear S_v (FK done).
inline void motionSubspace(const JointLanes& L, V3& sw, V3& sv) {
  const V3 z = L.oMj.c[2];
  sw = L.rot_rate * z;
  sv = cross(L.oMj.p, sw) + L.axial_rate * z;
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
    motionSubspace(L, L.S_w, L.S_v);
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
      V3 sw, sv;
      motionSubspace(s.j[i], sw, sv);
      if (p.joints[i].coord >= 0) s.tau[p.joints[i].coord] += dot(sw, n_o) + dot(sv, f);
    }
  }
}

/// Point Jacobian (pointJacobian: link `link`, point pt in its frame) of one block (FK done) in s.jac; in
/// the tool frame when tool_frame (rotateJacobian by the tool's orientation).
inline void jacobianBlock(const Plan& p, const Scratch& s, int link, const V3& pt, bool tool_frame) {
  V3* Jv = s.jac;
  V3* Jw = s.jac + p.nv;
  const V3 zero = {Lane(0.0), Lane(0.0), Lane(0.0)};
  for (int c = 0; c < p.nv; ++c) Jv[c] = Jw[c] = zero;
  const V3 x = act(s.j[link].oMi, pt);
  for (int i = link; i >= 0; i = p.joints[i].parent) {
    const int c = p.joints[i].coord;
    if (c < 0) continue;  // fixed joint; mimics add into their coordinate
    const JointLanes& L = s.j[i];
    const V3 z = L.oMj.c[2];
    const V3 w = L.rot_rate * z;
    Jv[c] += cross(w, x - L.oMj.p) + L.axial_rate * z;
    Jw[c] += w;
  }
  if (!tool_frame) return;
  for (int c = 0; c < p.nv; ++c) {
    Jv[c] = rotT(*s.tool, Jv[c]);
    Jw[c] = rotT(*s.tool, Jw[c]);
  }
}

/// Column-major nv×nv lane matrix entry (r, c).
inline Lane& at(const Plan& p, Lane* M, int r, int c) { return M[static_cast<long>(c) * p.nv + r]; }

/// CRBA of one block (FK done): M lanes in s.M, term for term as crba.cpp (composite inertias about the
/// world origin as (I_o, h, m); the Full leg model's midpoint particles; the rotor inertias).
inline void crbaBlock(const Plan& p, const Scratch& s) {
  for (int i = 0; i < p.njoints; ++i) {
    const JointPlan& J = p.joints[i];
    JointLanes& L = s.j[i];
    motionSubspace(L, L.S_w, L.S_v);
    // rotationalInertiaAtOrigin: I_o = R·I_c·Rᵀ − h·cᵀ + (h·c)·1, h = m·c
    CompositeLanes& C = s.comp[i];
    const Frame& T = L.oMi;
    const V3 c = act(T, splat3(J.com));
    C.h = Lane(J.mass) * c;
    C.m = Lane(J.mass);
    V3 RI[3];  // R·I_c, by columns
    for (int k = 0; k < 3; ++k) RI[k] = rot(T, splat3(J.inertia + 3 * k));
    const Lane hc = dot(C.h, c);
    for (int k = 0; k < 3; ++k)  // column k: Σ_j (R·I_c)_j·R(k, j) − c_k·h
      C.Io[k] = entry(T.c[0], k) * RI[0] + entry(T.c[1], k) * RI[1] + entry(T.c[2], k) * RI[2] - entry(c, k) * C.h;
    C.Io[0].x += hc;
    C.Io[1].y += hc;
    C.Io[2].z += hc;
  }
  const long nn = static_cast<long>(p.nv) * p.nv;
  for (long e = 0; e < nn; ++e) s.M[e] = Lane(0.0);
  // the legs' midpoint particles join their parent body's composite; each leg's own column c = ½(S_v + S_w×P)
  // goes into M against its parent's path (crba.cpp says why), one P and midpoint per leg for both
  if (p.legs_full)
    for (int e = 0; e < p.nlegs; ++e) {
      const LegPlan& G = p.legs[e];
      const V3 B = G.parent < 0 ? splat3(G.B) : act(s.j[G.parent].oMi, splat3(G.B));
      const V3 P = act(s.j[G.joint].oMi, splat3(G.P));
      const V3 mid = Lane(0.5) * (B + P);
      const Lane mass = Lane(2.0 * G.mass / 3.0);
      if (G.parent >= 0) {
        CompositeLanes& C = s.comp[G.parent];
        const V3 h = mass * mid;
        const Lane hm = dot(h, mid);
        for (int k = 0; k < 3; ++k) C.Io[k] -= entry(mid, k) * h;  // m·(|x|²·1 − x·xᵀ)
        C.Io[0].x += hm;
        C.Io[1].y += hm;
        C.Io[2].z += hm;
        C.h += h;
        C.m += mass;
      }
      const int kj = p.joints[G.joint].coord;
      if (kj < 0) continue;
      const V3 c = Lane(0.5) * (s.j[G.joint].S_v + cross(s.j[G.joint].S_w, P));
      at(p, s.M, kj, kj) += mass * dot(c, c);
      for (int a = G.parent; a >= 0; a = p.joints[a].parent) {
        const int ka = p.joints[a].coord;
        if (ka < 0) continue;
        const Lane x = mass * dot(c, s.j[a].S_v + cross(s.j[a].S_w, mid));
        at(p, s.M, kj, ka) += x;
        at(p, s.M, ka, kj) += x;
      }
    }
  for (int i = p.njoints - 1; i >= 0; --i) {
    const int pa = p.joints[i].parent;
    if (pa < 0) continue;
    CompositeLanes& P = s.comp[pa];
    const CompositeLanes& C = s.comp[i];
    for (int k = 0; k < 3; ++k) P.Io[k] += C.Io[k];
    P.h += C.h;
    P.m += C.m;
  }
  for (int i = 0; i < p.njoints; ++i) {
    const int ki = p.joints[i].coord;
    if (ki < 0) continue;  // a fixed joint has no row or column; mimics add into their coordinate
    const CompositeLanes& C = s.comp[i];
    const JointLanes& L = s.j[i];
    const V3 Fn = L.S_w.x * C.Io[0] + L.S_w.y * C.Io[1] + L.S_w.z * C.Io[2] + cross(C.h, L.S_v);
    const V3 Ff = cross(L.S_w, C.h) + C.m * L.S_v;
    at(p, s.M, ki, ki) += dot(L.S_w, Fn) + dot(L.S_v, Ff);
    for (int j = p.joints[i].parent; j >= 0; j = p.joints[j].parent) {
      const int kj = p.joints[j].coord;
      if (kj < 0) continue;
      const Lane x = dot(s.j[j].S_w, Fn) + dot(s.j[j].S_v, Ff);
      at(p, s.M, kj, ki) += x;
      at(p, s.M, ki, kj) += x;
    }
  }
  if (p.motors)
    for (int i = 0; i < p.njoints; ++i)
      if (p.joints[i].drive) at(p, s.M, p.joints[i].coord, p.joints[i].coord) += Lane(p.joints[i].rotor);
}

/// M·x = f on lanes by Cholesky, M = L·Lᵀ with L over M's lower triangle in place, x over f in place (as
/// Eigen's LLT: a pivot ≤ 0 fails). Returns the failed lanes (bit l), whose x is unspecified.
inline int choleskySolve(const Plan& p, Lane* M, Lane* x) {
  const int n = p.nv;
  int bad = 0;
  for (int j = 0; j < n; ++j) {
    Lane d = at(p, M, j, j);
    for (int k = 0; k < j; ++k) d -= at(p, M, j, k) * at(p, M, j, k);
    for (int l = 0; l < kLanes; ++l) {
      if (d.v[l] <= 0) {
        bad |= 1 << l;
        d.v[l] = 1;
      }
      d.v[l] = std::sqrt(d.v[l]);
    }
    at(p, M, j, j) = d;
    for (int i = j + 1; i < n; ++i) {
      Lane e = at(p, M, i, j);
      for (int k = 0; k < j; ++k) e -= at(p, M, i, k) * at(p, M, j, k);
      at(p, M, i, j) = e / d;
    }
  }
  for (int i = 0; i < n; ++i) {  // L·y = f
    for (int k = 0; k < i; ++k) x[i] -= at(p, M, i, k) * x[k];
    x[i] = x[i] / at(p, M, i, i);
  }
  for (int i = n - 1; i >= 0; --i) {  // Lᵀ·x = y
    for (int k = i + 1; k < n; ++k) x[i] -= at(p, M, k, i) * x[k];
    x[i] = x[i] / at(p, M, i, i);
  }
  return bad;
}

inline void scatter(const Lane& x, double* out, int stride, int i, int k0, int m) {
  for (int l = 0; l < m; ++l) out[static_cast<long>(stride) * (k0 + l) + i] = x.v[l];
}

/// Lanes of an nv² column-major matrix → m states' matrices, state-major from out (state k0 + l at
/// out + (k0 + l)·nv²).
inline void scatterMatrix(const Plan& p, const Lane* M, double* out, int k0, int m) {
  const int nn = p.nv * p.nv;
  for (int e = 0; e < nn; ++e) scatter(M[e], out, nn, e, k0, m);
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

void ACHAIN_BATCH_FN(jacobianBlocks)(const Plan& p, int count, const double* q, int link, const double* point,
                                     bool tool_frame, double* J) {
  const Scratch s = scratchOf(p);
  const V3 pt = splat3(point);
  const int stride = 6 * p.nv;
  for (int k0 = 0; k0 < count; k0 += kLanes) {
    const int m = count - k0 < kLanes ? count - k0 : kLanes;
    fkBlock(p, s, q, k0, m);
    jacobianBlock(p, s, link, pt, tool_frame);
    for (int c = 0; c < p.nv; ++c) {
      const V3& v = s.jac[c];
      const V3& w = s.jac[p.nv + c];
      scatter(v.x, J, stride, 6 * c, k0, m);
      scatter(v.y, J, stride, 6 * c + 1, k0, m);
      scatter(v.z, J, stride, 6 * c + 2, k0, m);
      scatter(w.x, J, stride, 6 * c + 3, k0, m);
      scatter(w.y, J, stride, 6 * c + 4, k0, m);
      scatter(w.z, J, stride, 6 * c + 5, k0, m);
    }
  }
}

void ACHAIN_BATCH_FN(massMatrixBlocks)(const Plan& p, int count, const double* q, double* M) {
  const Scratch s = scratchOf(p);
  for (int k0 = 0; k0 < count; k0 += kLanes) {
    const int m = count - k0 < kLanes ? count - k0 : kLanes;
    fkBlock(p, s, q, k0, m);
    crbaBlock(p, s);
    scatterMatrix(p, s.M, M, k0, m);
  }
}

void ACHAIN_BATCH_FN(massBiasBlock)(const Plan& p, int k0, int m, const double* q, const double* qd, double* M,
                                    double* bias) {
  const Scratch s = scratchOf(p);
  fkBlock(p, s, q, k0, m);
  crbaBlock(p, s);
  rneaBlock(p, s, qd, nullptr, k0, m);
  scatterMatrix(p, s.M, M, 0, m);  // the block's states from M and bias
  for (int k = 0; k < p.nv; ++k) scatter(s.tau[k], bias, p.nv, k, 0, m);
}

int ACHAIN_BATCH_FN(solveBlock)(const Plan& p, int m, const double* f, double* x) {
  const Scratch s = scratchOf(p);  // s.M: the block's M from massBiasBlock
  for (int k = 0; k < p.nv; ++k) s.tau[k] = gather(f, p.nv, k, 0, m);
  const int bad = choleskySolve(p, s.M, s.tau);
  for (int k = 0; k < p.nv; ++k) scatter(s.tau[k], x, p.nv, k, 0, m);
  return bad & ((1 << m) - 1);
}

}  // namespace achain::batch_detail

#pragma GCC diagnostic pop
