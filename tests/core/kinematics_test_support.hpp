// Test support for the differential-kinematics area: mixed R/P/H/A chains built in code, and
// Richardson-extrapolated central differences of forward kinematics.
//
// Tolerances: a central difference with step h has truncation error ≈ f'''h²/6; Richardson's
// (4·D(h/2) − D(h))/3 cancels it, leaving O(h⁴) ≈ 1e-12 at h = 1e-3 for these smooth trigonometric
// maps (derivatives of order 5 are O(link length) ≤ O(1 m)). Round-off is ≈ ε·|f|/h ≈ 1e-13·|f|.
// So first derivatives agree to ~1e-12 and a check at 1e-8 relative (1e-7 in the issue's
// acceptance) has four orders of margin while still catching any wrong term (≥ 1e-3 in size).
#pragma once
#include <functional>
#include <random>

#include <achain/kinematics/fk.hpp>
#include <achain/model/model.hpp>

namespace achain::test {

/// d/dt f(t) at 0 by Richardson-extrapolated central differences.
template <class V>
V richardson(const std::function<V(double)>& f, double h = 1e-3) {
  const V d1 = (f(h) - f(-h)) / (2 * h);
  const V d2 = (f(h / 2) - f(-h / 2)) / h;
  return (4.0 * d2 - d1) / 3.0;
}

inline Joint makeJoint(JointKind k, double a, double alpha, double d, double theta_f, int sign = 1) {
  Joint j;
  j.kind = k;
  j.a = a;
  j.alpha = alpha;
  j.d = d;
  j.theta_f = theta_f;
  j.sign = sign;
  return j;
}

/// A 7-joint standard- or modified-DH chain with every joint kind, negative signs and offsets,
/// and a tool transform: A R H P A(−) R H(−).
inline Model mixedChain(DHConvention conv) {
  Model m;
  m.name = conv == DHConvention::Standard ? "mixed-standard" : "mixed-modified";
  m.convention = conv;
  Joint j0 = makeJoint(JointKind::A, 0.05, 1.2, 0.3, 0.4);
  j0.rho = 0.06;
  Joint j1 = makeJoint(JointKind::R, 0.4, -0.7, 0.1, -0.3);
  Joint j2 = makeJoint(JointKind::H, 0.2, 0.9, -0.05, 0.2);
  j2.pitch = 0.03;
  Joint j3 = makeJoint(JointKind::P, 0.1, -1.3, 0.15, 0.6, -1);
  Joint j4 = makeJoint(JointKind::A, 0.25, 0.5, 0.05, -0.8, -1);
  j4.rho = 0.09;
  Joint j5 = makeJoint(JointKind::R, 0.0, 1.5708, 0.12, 0.1);
  Joint j6 = makeJoint(JointKind::H, 0.07, -0.4, 0.02, 0.0, -1);
  j6.pitch = -0.015;
  m.joints = {j0, j1, j2, j3, j4, j5, j6};
  for (int i = 0; i < 7; ++i) m.joints[i].parent = i - 1;
  m.base = SE3{rpyToMatrix(0.1, -0.2, 0.3), Vec3(0.1, -0.05, 0.2)};
  m.tool = SE3{rpyToMatrix(-0.3, 0.25, 0.7), Vec3(0.03, 0.02, 0.11)};
  m.finalize();
  return m;
}

/// A branching (tree) model: 0 R → 1 A → 2 H, and 1 → 3 P → 4 A; the tool on link 4.
inline Model mixedTree() {
  Model m;
  m.name = "mixed-tree";
  Joint j0 = makeJoint(JointKind::R, 0.1, 1.0, 0.2, 0.0);
  Joint j1 = makeJoint(JointKind::A, 0.3, -0.6, 0.05, 0.5);
  j1.rho = 0.07;
  Joint j2 = makeJoint(JointKind::H, 0.2, 0.4, 0.1, 0.0);
  j2.pitch = 0.02;
  Joint j3 = makeJoint(JointKind::P, 0.15, 0.8, 0.0, 0.3);
  Joint j4 = makeJoint(JointKind::A, 0.2, -1.1, 0.04, 0.0, -1);
  j4.rho = 0.05;
  j0.parent = -1;
  j1.parent = 0;
  j2.parent = 1;
  j3.parent = 1;
  j4.parent = 3;
  m.joints = {j0, j1, j2, j3, j4};
  m.tool_link = 4;
  m.tool = translation(Vec3(0.05, 0.0, 0.1));
  m.finalize();
  return m;
}

/// Random q: angles in ±π (A-pairs over their whole 720° period, ±2π), prismatic in ±0.3 m,
/// or uniform inside finite limits.
inline VecX randomState(const Model& m, std::mt19937& rng) {
  VecX q(m.nq);
  for (int i = 0; i < m.njoints(); ++i) {
    const auto& j = m.joints[i];
    double lo = j.kind == JointKind::P ? -0.3 : (j.kind == JointKind::A ? -2 * kPi : -kPi);
    double hi = -lo;
    if (std::isfinite(j.limits.lower)) lo = j.limits.lower;
    if (std::isfinite(j.limits.upper)) hi = j.limits.upper;
    q[m.idx_q[i]] = std::uniform_real_distribution<double>(lo, hi)(rng);
  }
  return q;
}

inline Vec3 fkPoint(const Model& m, Data& d, const VecX& q, int link, const Vec3& p) {
  forwardKinematics(m, d, q);
  return d.oMi[link].act(p);
}

inline Vec3 vee(const Mat3& S) { return Vec3(S(2, 1) - S(1, 2), S(0, 2) - S(2, 0), S(1, 0) - S(0, 1)) / 2; }

inline double relErr(const MatX& a, const MatX& ref) {
  return (a - ref).cwiseAbs().maxCoeff() / std::max(1.0, ref.cwiseAbs().maxCoeff());
}

/// Robinson Eqs. 3.44–3.53 with the Eq. 3.48 row-1 erratum fixed (reference digest §4, §10),
/// in inches; θ_i = θ_{v_i}, h_i = sin(θ_{v_i}/2), k_i = cos(θ_{v_i}/2), s₂₋₃ = sin(θ₂ − θ₃).
inline MatX thesisJacobian(const VecX& th) {
  const double a2 = 12, d4 = 8, rho = 4 * std::sqrt(2.0);
  const double s1 = std::sin(th[0]), c1 = std::cos(th[0]), s2 = std::sin(th[1]), c2 = std::cos(th[1]);
  const double s23 = std::sin(th[1] - th[2]), c23 = std::cos(th[1] - th[2]);
  double h[4], k[4];
  for (int i = 0; i < 4; ++i) {
    h[i] = std::sin(th[i] / 2);
    k[i] = std::cos(th[i] / 2);
  }
  const double h2 = h[1], h3 = h[2], h4 = h[3], k1 = k[0], k2 = k[1], k3 = k[2], k4 = k[3];
  MatX J(6, 4);
  J.col(0) << rho * c1 * h2 - a2 * s1 * s2 - rho * c1 * h3 + rho * s1 * s23 * h4 + d4 * s1 * s23,
      rho * s1 * h2 + a2 * c1 * s2 - rho * s1 * h3 - rho * c1 * s23 * h4 - d4 * c1 * s23, rho / 2 * k1, 0, 0, 1;
  J.col(1) << a2 * c1 * c2 - rho * c1 * c23 * h4 - d4 * c1 * c23 + rho / 2 * s1 * k2,
      a2 * s1 * c2 - rho * s1 * c23 * h4 - d4 * s1 * c23 - rho / 2 * c1 * k2, a2 * s2 - rho * s23 * h4 - d4 * s23, s1,
      -c1, 0;
  J.col(2) << rho * c1 * c23 * h4 + d4 * c1 * c23 - rho / 2 * k3 * s1,
      rho * s1 * c23 * h4 + d4 * s1 * c23 + rho / 2 * k3 * c1, rho * s23 * h4 + d4 * s23, -s1, c1, 0;
  J.col(3) << rho / 2 * k4 * -c1 * s23, rho / 2 * k4 * -s1 * s23, rho / 2 * k4 * c23, -c1 * s23, -s1 * s23, c23;
  return J;
}
}  // namespace achain::test
