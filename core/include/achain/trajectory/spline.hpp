// Multi-point (via-point) cubic spline in joint space: C² (continuous acceleration) through every
// via point, with clamped end velocities (rest to rest unless given).
#pragma once
#include <achain/trajectory/path.hpp>

namespace achain {

class CubicSplinePath final : public JointPath {
 public:
  /// points: (N+1) × dof knots (rows), times: N+1 strictly increasing knot times starting at 0.
  /// v0 / v1: end velocities (empty = zero).
  CubicSplinePath(const MatX& points, const std::vector<double>& times, const VecX& v0 = VecX(), const VecX& v1 = VecX());

  /// Knot times chosen from the limits: each segment gets the synchronised-trapezoid minimum time
  /// between its two knots, then the whole spline is uniformly time-scaled so that the binding speed
  /// or acceleration limit is met exactly (rest to rest).
  static CubicSplinePath throughPoints(const MatX& points, const RateLimits& limits);

  int dof() const override { return static_cast<int>(y_.cols()); }
  double duration() const override { return t_.back(); }
  void evaluate(double t, VecX& q, VecX& qd, VecX& qdd) const override;
  std::vector<std::vector<double>> breakpoints() const override;
  std::string profile() const override { return "spline"; }
  int continuity() const override { return 2; }

  const std::vector<double>& times() const { return t_; }
  const MatX& points() const { return y_; }
  /// Exact peak |q̇| and |q̈| per joint (velocity is quadratic and acceleration linear on each piece).
  void peakRates(VecX& velocity, VecX& acceleration) const;

 private:
  std::vector<double> t_;
  MatX y_;   ///< knots × dof
  MatX M_;   ///< second derivatives at the knots, knots × dof
};

}  // namespace achain
