// The joint model: the one place where a joint kind's motion is defined.
//
// Every joint moves its link by Rz(θ) Tz(dz) about/along its axis (z of the axis frame), with
//   θ  = θ_f + r·u                      (r = ∂θ/∂u: the direction sign s for rotating joints, 0 otherwise)
//   dz = d   + f(u)                     (the axial law: polynomial + sine terms, below)
//   u  = k·q_c + c₀                     (the joint variable: q_c is the generalized coordinate it follows;
//                                        k = 1, c₀ = 0 for an independent joint; URDF's mimic otherwise)
// The kinds are laws of that one form, built by makeJointModel (joint.cpp, the only switch on JointKind):
//   R  r = s, f = 0            P  r = 0, f = s·u            H  r = s, f = pitch·s·u
//   A  r = s, f = ρ·sin(u/2)   (Robinson's algebraic screw pair; ρ = 0 is the R-pair, bit for bit)
//   law  r = s, f = the declared law (other algebraic screw laws, from JSON)
//   fixed  no coordinate: θ = θ_f, dz = d
// Algorithms read a joint's motion only through JointModel::evaluate (FK stores the result in Data):
// the transform (θ, dz), the motion subspace per unit q̇_c (rot_rate·z, axial_rate·z) and the
// derivatives of the axial rate that RNEA, the influence coefficients and J̇ need. Adding a kind is one
// new case in makeJointModel; no algorithm changes.
//
// Where the joint sits is part of the joint model too: its axis frame is parent·pre and its link frame
// axis·Rz(θ)·Tz(dz)·post, with the constant parts pre and post derived from the DH constants or the
// origin/axis by makeJointModel. JointModel::placeLink is the one place a link frame is placed; FK, the
// batch kernels (on lanes of several states), the flexible chain, the exact A-pair, the workspace sweeps
// and the IK solvers' chain constants all go through it (or read pre/post from it).
#pragma once
#include <array>
#include <cmath>

#include <achain/math/types.hpp>

#if defined(__EMSCRIPTEN__)
extern "C" void sincos(double, double*, double*);  // musl's libm (declared by math.h only under _GNU_SOURCE)
#endif

namespace achain {

/// sin and cos of one angle in one libm call (glibc's and musl's sincos share the argument reduction).
/// GCC already fuses std::sin + std::cos of one argument into sincos; clang (Emscripten's wasm build)
/// does not, so there the pair cost two reductions: written out here, both builds make the same call.
inline void sinCos(double x, double& s, double& c) {
#if defined(__EMSCRIPTEN__)
  ::sincos(x, &s, &c);
#elif defined(__GNUC__) && !defined(__clang__)
  __builtin_sincos(x, &s, &c);
#else
  s = std::sin(x);
  c = std::cos(x);
#endif
}

/// A constant rigid transform of a joint's placement (before or after its motion), kept in the form that
/// is cheapest to apply: the identity; the DH x-form Rx(α) with (a, 0, 0); a pure rotation; a general one.
/// Plain numbers (no Eigen types), so the batch kernels, compiled once per instruction set, read it as is.
struct FixedTransform {
  enum Form : int { Identity = 0, XForm = 1, Rotation = 2, General = 3 };
  Form form = Identity;
  double ca = 1, sa = 0, a = 0;               ///< XForm: cos α, sin α, a
  double R[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};  ///< the rotation, column-major (filled for every form)
  double p[3] = {0, 0, 0};                    ///< the translation (filled for every form)

  /// Rx(α) with the translation (a, 0, 0) (= Tx(a)·Rx(α) = Rx(α)·Tx(a)).
  static FixedTransform xform(double alpha, double a);
  /// Any transform; the form is the cheapest one that reproduces it exactly.
  static FixedTransform of(const SE3& T);
  SE3 toSE3() const;
};

// A frame type F for the placement below provides frameCol(F, k) (column k of its rotation, assignable on a
// non-const F) and a member p, with scalar·column, column + column and −scalar arithmetic. SE3 here; the batch
// kernels' lane frames (dynamics/batch_kernel.hpp) the same way.
inline auto frameCol(SE3& T, int k) { return T.R.col(k); }
inline auto frameCol(const SE3& T, int k) { return T.R.col(k); }

/// out = T·X (out must not be T).
template <class F>
void composeFixed(const F& T, const FixedTransform& X, F& out) {
  switch (X.form) {
    case FixedTransform::Identity:
      out = T;
      return;
    case FixedTransform::XForm:
      frameCol(out, 0) = frameCol(T, 0);
      frameCol(out, 1) = X.ca * frameCol(T, 1) + X.sa * frameCol(T, 2);
      frameCol(out, 2) = -X.sa * frameCol(T, 1) + X.ca * frameCol(T, 2);
      out.p = T.p + X.a * frameCol(T, 0);
      return;
    case FixedTransform::Rotation:
    case FixedTransform::General:
      for (int k = 0; k < 3; ++k)
        frameCol(out, k) = X.R[3 * k] * frameCol(T, 0) + X.R[3 * k + 1] * frameCol(T, 1) + X.R[3 * k + 2] * frameCol(T, 2);
      if (X.form == FixedTransform::Rotation) out.p = T.p;
      else out.p = T.p + X.p[0] * frameCol(T, 0) + X.p[1] * frameCol(T, 1) + X.p[2] * frameCol(T, 2);
      return;
  }
}

/// out = A·Rz(θ)·Tz(dz), the joint motion in its axis frame A, from c = cos θ, s = sin θ (out must not be A).
template <class F, class S>
void moveAlongZ(const F& A, const S& c, const S& s, const S& dz, F& out) {
  frameCol(out, 0) = c * frameCol(A, 0) + s * frameCol(A, 1);
  frameCol(out, 1) = -s * frameCol(A, 0) + c * frameCol(A, 1);
  frameCol(out, 2) = frameCol(A, 2);
  out.p = A.p + dz * frameCol(A, 2);
}

/// One sine term a·sin(ω·u + φ) of an axial law.
struct SineTerm {
  double amplitude = 0;  ///< m
  double frequency = 0;  ///< ω, 1/rad (per unit of the joint variable)
  double phase = 0;      ///< φ, rad
  bool operator==(const SineTerm& o) const {
    return amplitude == o.amplitude && frequency == o.frequency && phase == o.phase;
  }
};

/// The translation along the axis as a function of the joint variable u (constant part excluded):
///   f(u) = c₁u + c₂u² + c₃u³ + Σ_k a_k·sin(ω_k u + φ_k)     (at most kMaxSine sine terms)
struct AxialLaw {
  static constexpr int kMaxSine = 2;
  double c1 = 0, c2 = 0, c3 = 0;
  int nsine = 0;
  std::array<SineTerm, kMaxSine> sine{};

  /// f and its first three derivatives at u. S is double, or a lane of several states' values (the batch
  /// kernels, dynamics/batch.hpp) with per-lane sin/cos found by argument-dependent lookup: one formula.
  template <class S>
  void evaluateT(const S& u, S& f, S& f1, S& f2, S& f3) const {
    using std::cos;
    using std::sin;
    if (nsine == 0 && c2 == 0 && c3 == 0) {  // R, P, H: linear (the common case, kept cheap for FK)
      f = c1 * u;
      f1 = S(c1);
      f2 = f3 = S(0.0);
      return;
    }
    f = ((c3 * u + c2) * u + c1) * u;
    f1 = (3 * c3 * u + 2 * c2) * u + c1;
    f2 = 6 * c3 * u + 2 * c2;
    f3 = S(6 * c3);
    for (int k = 0; k < nsine; ++k) {
      const SineTerm& t = sine[k];
      const S x = t.frequency * u + t.phase;
      const S s = sin(x), c = cos(x);
      const double w = t.frequency;
      const double a = t.amplitude;
      f += a * s;
      f1 += a * w * c;
      f2 -= a * w * w * s;
      f3 -= a * w * w * w * c;
    }
  }
  void evaluate(double u, double& f, double& f1, double& f2, double& f3) const { evaluateT(u, f, f1, f2, f3); }
  bool isZero() const { return c1 == 0 && c2 == 0 && c3 == 0 && nsine == 0; }
  bool operator==(const AxialLaw& o) const {
    if (c1 != o.c1 || c2 != o.c2 || c3 != o.c3 || nsine != o.nsine) return false;
    for (int k = 0; k < nsine; ++k)
      if (!(sine[k] == o.sine[k])) return false;
    return true;
  }
};

/// The A-pair's law (Robinson): translation ρ·sin(θ_v/2) along the axis for the rotation θ_v. The one
/// place this law is written; the A-pair joint kind, its leg geometry and collision limits use it.
inline AxialLaw apairLaw(double rho) {
  AxialLaw law;
  law.nsine = 1;
  law.sine[0] = SineTerm{rho, 0.5, 0.0};
  return law;
}

/// A joint's motion and its derivatives with respect to its generalized coordinate q_c, at one q
/// (S = double), or at several states at once (S = a lane type of the batch kernels).
template <class S>
struct JointStateOf {
  S u{};           ///< the joint variable
  S theta{};       ///< total rotation about the axis (θ_f included)
  S dz{};          ///< total translation along the axis (d included)
  S rot_rate{};    ///< ∂θ/∂q_c
  S axial_rate{};  ///< ∂dz/∂q_c
  S axial_curv{};  ///< ∂²dz/∂q_c²
  S axial_jerk{};  ///< ∂³dz/∂q_c³
};
using JointState = JointStateOf<double>;

/// How one joint moves (derived from the Joint description by makeJointModel).
struct JointModel {
  int coord = -1;          ///< generalized coordinate the joint follows (−1: fixed, no coordinate)
  double scale = 1;        ///< k in u = k·q_c + c₀
  double offset = 0;       ///< c₀
  bool independent = false;  ///< owns its coordinate (not fixed, not a mimic)
  double theta0 = 0;       ///< θ_f
  double d0 = 0;           ///< d
  double rot = 0;          ///< r = ∂θ/∂u
  AxialLaw law;            ///< dz − d = f(u)
  double period = 0;       ///< period of the motion in u (2π, 4π for A-pairs, …), 0 if not periodic
  double axial_rate_bound = 0;  ///< max |∂dz/∂u| over all u (kInf when unbounded)
  FixedTransform pre;      ///< parent link frame ← axis frame (the motion is about/along its z)
  FixedTransform post;     ///< frame after the motion ← link frame

  /// Places the joint's frames from its parent link's frame: axis = parent·pre, link = axis·Rz(θ)·Tz(dz)·post,
  /// with c = cos θ, s = sin θ. F, S: SE3 and double, or the batch kernels' lane frame and lane. The one place a
  /// link frame is placed. axis and link must be distinct from parent and from each other.
  template <class F, class S>
  void placeLink(const F& parent, const S& c, const S& s, const S& dz, F& axis, F& link) const {
    composeFixed(parent, pre, axis);
    if (post.form == FixedTransform::Identity) {
      moveAlongZ(axis, c, s, dz, link);
      return;
    }
    F moved;
    moveAlongZ(axis, c, s, dz, moved);
    composeFixed(moved, post, link);
  }
  /// placeLink at the joint's state js (from evaluate).
  void placeLink(const SE3& parent, const JointStateOf<double>& js, SE3& axis, SE3& link) const {
    double s, c;
    sinCos(js.theta, s, c);
    placeLink(parent, c, s, js.dz, axis, link);
  }

  /// The joint's state for coordinate value qc (ignored when coord < 0). S as in AxialLaw::evaluateT.
  template <class S>
  void evaluateT(const S& qc, JointStateOf<S>& s) const {
    const S u = coord < 0 ? S(0.0) : scale * qc + offset;
    S f{}, f1{}, f2{}, f3{};
    law.evaluateT(u, f, f1, f2, f3);
    s.u = u;
    s.theta = theta0 + rot * u;
    s.dz = d0 + f;
    if (coord < 0) {
      s.rot_rate = s.axial_rate = s.axial_curv = s.axial_jerk = S(0.0);
      return;
    }
    s.rot_rate = S(rot * scale);
    s.axial_rate = f1 * scale;
    s.axial_curv = f2 * scale * scale;
    s.axial_jerk = f3 * scale * scale * scale;
  }
  void evaluate(double qc, JointState& s) const { evaluateT(qc, s); }
  /// The joint variable is an angle (the joint rotates); a prismatic joint's is a length.
  bool angular() const { return rot != 0; }
  /// A pure rotation (R-like: no translation law).
  bool revolute() const { return rot != 0 && law.isZero(); }
};

}  // namespace achain
