// Helpers of the trajectory tests: finite-difference and continuity checks on any JointPath.
#pragma once
#include <catch2/catch.hpp>
#include <cmath>

#include <achain/trajectory/path.hpp>

namespace achain::test {

/// Central differences of q against q̇ and of q̇ against q̈ at t (away from breakpoints).
inline void checkDerivatives(const JointPath& p, double t, double h, double tol) {
  VecX q1, qd1, qdd1, q2, qd2, qdd2, q, qd, qdd;
  p.evaluate(t - h, q1, qd1, qdd1);
  p.evaluate(t + h, q2, qd2, qdd2);
  p.evaluate(t, q, qd, qdd);
  const VecX fd_v = (q2 - q1) / (2 * h), fd_a = (qd2 - qd1) / (2 * h);
  const double vs = std::max(1.0, qd.cwiseAbs().maxCoeff()), as = std::max(1.0, qdd.cwiseAbs().maxCoeff());
  INFO("t = " << t << "  qd = " << qd.transpose() << "  fd = " << fd_v.transpose());
  CHECK((fd_v - qd).cwiseAbs().maxCoeff() <= tol * vs);
  INFO("qdd = " << qdd.transpose() << "  fd = " << fd_a.transpose());
  CHECK((fd_a - qdd).cwiseAbs().maxCoeff() <= tol * as);
}

/// Left and right limits at a breakpoint agree for q, q̇ (and q̈ when order ≥ 2).
inline void checkContinuityAt(const JointPath& p, double t, int order, double eps, double tol) {
  VecX ql, vl, al, qr, vr, ar;
  p.evaluate(t - eps, ql, vl, al);
  p.evaluate(t + eps, qr, vr, ar);
  const double vs = std::max(1.0, vl.cwiseAbs().maxCoeff()), as = std::max(1.0, al.cwiseAbs().maxCoeff());
  INFO("breakpoint t = " << t);
  CHECK((ql - qr).cwiseAbs().maxCoeff() <= tol * std::max(1.0, ql.cwiseAbs().maxCoeff()));
  CHECK((vl - vr).cwiseAbs().maxCoeff() <= tol * vs);
  if (order >= 2) CHECK((al - ar).cwiseAbs().maxCoeff() <= tol * as);
}

/// Runs derivative checks on a grid avoiding breakpoints, and continuity at every breakpoint.
inline void checkPath(const JointPath& p, double fd_tol = 1e-6) {
  const double T = p.duration();
  const auto bps = p.breakpoints();
  auto nearBreak = [&](double t, double h) {
    for (const auto& j : bps)
      for (double b : j)
        if (std::abs(t - b) < 3 * h) return true;
    return false;
  };
  const double h = 1e-5 * std::max(T, 1.0);
  for (int k = 1; k < 40; ++k) {
    const double t = T * (k + 0.37) / 41.0;
    if (t <= 2 * h || t >= T - 2 * h || nearBreak(t, h)) continue;
    checkDerivatives(p, t, h, fd_tol);
  }
  for (const auto& j : bps)
    for (double b : j)
      if (b > 0 && b < T) checkContinuityAt(p, b, p.continuity(), 1e-9 * std::max(T, 1.0), 1e-6);
}

}  // namespace achain::test
