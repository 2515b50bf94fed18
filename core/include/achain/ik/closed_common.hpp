// Helpers shared by the closed-form and algebraic solvers (closed_form.cpp, algebraic_4a.cpp, general6r.cpp,
// three_r_three_p.cpp): the three-axis Euler decomposition M = Rz(t1)·Rx(α)·Rz(t2)·Rx(β)·Rz(t3), standard-DH link
// transforms, the choice of a joint value among its periodic representatives, and the six-joint R/P chain check.
#pragma once
#include <array>
#include <cmath>
#include <string>

#include <achain/ik/ik.hpp>
#include <achain/model/closed_form_chain.hpp>

namespace achain::ik_detail {

inline double wrapPi(double a) {
  a += kPi;
  if (!(a >= 0 && a < 2 * kPi)) a = std::fmod(a, 2 * kPi);  // fmod(a, 2π) = a there: skip the call
  if (a < 0) a += 2 * kPi;
  return a - kPi;
}

/// Standard-DH link transform Rz(θ) Tz(dz) Tx(a) Rx(α).
inline SE3 dhLink(double theta, double dz, double a, double alpha) {
  SE3 T;
  const double c = std::cos(theta), s = std::sin(theta), ca = std::cos(alpha), sa = std::sin(alpha);
  T.R << c, -s * ca, s * sa, s, c * ca, -c * sa, 0, sa, ca;
  T.p << a * c, a * s, dz;
  return T;
}

// standardDH and serialChainProblem: model/closed_form_chain.hpp (the Model derives its closed-form constants)
using achain::serialChainProblem;
using achain::standardDH;

inline Mat3 Rx(double a) { return rotX(a).R; }

/// The joint values that give the rotation of qb within the joint's period: qb alone for a one-turn
/// period; qb and qb + 2π for a two-turn period (an A-pair, 720°: the same rotation at two axial
/// positions, the axial law taking its other sign). The period is the joint model's.
inline int rotationBranches(double period, double qb, double out[2]) {
  out[0] = qb;
  if (period > 2 * kPi + 1e-9) {
    out[1] = qb + 2 * kPi;
    return 2;
  }
  return 1;
}
inline Mat3 Rz(double a) { return rotZ(a).R; }

struct Euler3 {
  int count = 0;          ///< 0 (orientation not reachable by this axis triple), 1 or 2
  bool degenerate = false;  ///< t2 ∈ {0, π}-like: axes 1 and 3 aligned, only a combination of t1, t3 fixed
  std::array<double, 2> t1{}, t2{}, t3{};
};

/// Solves M = Rz(t1) Rx(α) Rz(t2) Rx(β) Rz(t3) (sin α, sin β ≠ 0). In the degenerate case t1 is
/// set to `t1_hint` and t3 follows (count = 1 per admissible t2).
inline Euler3 euler3(const Mat3& M, double alpha, double beta, double t1_hint = 0.0, double eps = 1e-9) {
  Euler3 out;
  const double sa = std::sin(alpha), ca = std::cos(alpha), sb = std::sin(beta), cb = std::cos(beta);
  double c2 = (ca * cb - M(2, 2)) / (sa * sb);
  if (std::abs(c2) > 1 + 1e-9) return out;
  c2 = std::max(-1.0, std::min(1.0, c2));
  const double base = std::acos(c2);
  const Vec3 mz = M.col(2), mr = M.row(2).transpose();
  if (std::sin(base) < eps) {
    out.degenerate = true;
    const double t2 = base;
    const Mat3 N = Rx(alpha) * Rz(t2) * Rx(beta);
    const Mat3 X = N.transpose() * Rz(-t1_hint) * M;
    out.count = 1;
    out.t1[0] = t1_hint;
    out.t2[0] = t2;
    out.t3[0] = std::atan2(X(1, 0), X(0, 0));
    return out;
  }
  for (int k = 0; k < 2; ++k) {
    const double t2 = k == 0 ? base : -base;
    const Mat3 N = Rx(alpha) * Rz(t2) * Rx(beta);
    const Vec3 w = N.col(2);
    const Vec3 r = N.row(2).transpose();
    out.t1[k] = std::atan2(mz.y(), mz.x()) - std::atan2(w.y(), w.x());
    out.t2[k] = t2;
    out.t3[k] = std::atan2(r.y(), r.x()) - std::atan2(mr.y(), mr.x());
  }
  out.count = 2;
  return out;
}

/// Joint variable from the total rotation angle θ = θ_f + s·q (modulo the rotation period).
inline double qFromTheta(const Joint& j, double theta) { return wrapPi(j.sign * (theta - j.theta_f)); }

/// Picks the representative q + k·period inside the limits nearest to `prefer` (or to q's canonical
/// value); inside = false if none lies inside (then the canonical value is returned).
inline double pickRepresentative(const JointLimits& L, double q, double period, const double* prefer, bool& inside) {
  const double tol = 1e-9;
  // canonical: (−π, π] for R, [0, 4π) for A
  double canon = q;
  if (period > 0) {
    // fmod(x, period) = x for 0 ≤ x < period: the call is skipped there (same result)
    if (period > 2 * kPi + 1e-9) {  // a two-turn joint (A-pair): [0, period)
      canon = q >= 0 && q < period ? q : std::fmod(q, period);
      if (canon < 0) canon += period;
    } else {
      const double x = q + 0.5 * period;
      canon = x >= 0 && x < period ? x : std::fmod(x, period);
      if (canon < 0) canon += period;
      canon -= 0.5 * period;
    }
  }
  inside = false;
  if (period <= 0) {
    inside = q >= L.lower - tol && q <= L.upper + tol;
    return q;
  }
  double best = canon, bestd = kInf;
  const double ref = prefer ? *prefer : canon;
  // common case: no preference and the canonical value itself admissible — k = 0 is the unique nearest
  if (!prefer && canon >= L.lower - tol && canon <= L.upper + tol) {
    inside = true;
    return std::min(std::max(canon, L.lower), L.upper);
  }
  for (int k = -4; k <= 4; ++k) {
    const double v = canon + k * period;
    if (v < L.lower - tol || v > L.upper + tol) continue;
    const double d = std::abs(v - ref);
    if (d < bestd) {
      bestd = d;
      best = v;
    }
  }
  if (bestd < kInf) {
    inside = true;
    return std::min(std::max(best, L.lower), L.upper);
  }
  return canon;
}

/// For the six-joint solvers (general 6R and its prismatic variants, 3R3P): the number of revolute joints of a serial
/// chain of six revolute or prismatic joints, each owning its coordinate, with the tool on the last link; −1 (and
/// why) otherwise.
inline int sixJointRevoluteCount(const Model& m, std::string* why) {
  auto fail = [&](const std::string& s) {
    if (why) *why = s;
    return -1;
  };
  if (m.njoints() != 6 || m.nq != 6) return fail("needs exactly 6 joints with a coordinate each");
  int n_revolute = 0;
  for (int i = 0; i < 6; ++i) {
    if (m.joints[i].parent != i - 1) return fail("joints[" + std::to_string(i) + "].parent: not a serial chain");
    const JointModel& jm = m.jmodels[i];
    if (!jm.independent || jm.coord != i) return fail("joints[" + std::to_string(i) + "]: must own its coordinate (no mimic)");
    const bool revolute = jm.revolute() && std::abs(std::abs(jm.rot * jm.scale) - 1) < 1e-12;
    const bool prismatic = !jm.angular() && jm.law.c2 == 0 && jm.law.c3 == 0 && jm.law.nsine == 0 && jm.law.c1 != 0;
    if (!revolute && !prismatic)
      return fail("joints[" + std::to_string(i) + "].kind: only revolute joints (one turn per turn of the coordinate) and prismatic joints");
    n_revolute += revolute;
  }
  if (m.toolLink() != 5) return fail("tool_link: the tool must sit on the last link");
  return n_revolute;
}

}  // namespace achain::ik_detail
