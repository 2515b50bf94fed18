// Trapezoidal velocity profiles (rest to rest): constant acceleration, cruise, constant deceleration,
// from speed and acceleration limits, per joint (each joint as fast as it may) or synchronised
// (every joint on the same ta / T, so the path is a straight line in joint space).
#pragma once
#include <achain/trajectory/path.hpp>

namespace achain {

/// One scalar trapezoid from q0 to q1 (rest to rest). Times from the start: accelerate on [0, ta),
/// cruise on [ta, td), decelerate on [td, T]. A triangle (limit speed never reached) has ta = td.
struct Trapezoid1D {
  double q0 = 0, q1 = 0;
  double v = 0;    ///< cruise speed (magnitude reached)
  double a = 0;    ///< acceleration magnitude
  double ta = 0, td = 0, T = 0;

  /// Minimum-time profile for speed limit vmax and acceleration limit amax (both > 0, finite).
  static Trapezoid1D minimumTime(double q0, double q1, double vmax, double amax);
  /// The profile with the given switch times 0 ≤ ta ≤ T/2 (and T > 0 unless q0 = q1).
  static Trapezoid1D withTimes(double q0, double q1, double ta, double T);
  /// Position, velocity, acceleration at t (clamped to [0, T]); q(T) = q1 exactly.
  void evaluate(double t, double& q, double& qd, double& qdd) const;
  bool triangular() const { return ta >= td; }
};

struct TrapezoidOptions {
  bool synchronize = false;   ///< same ta / T for every joint (straight line in joint space)
};

/// Rest-to-rest trapezoidal move q0 → q1. Per joint: each joint takes its own minimum time and then
/// rests; the path lasts as long as the slowest joint. Synchronised: the common minimum-time
/// (ta, T) that keeps every joint within its limits (closed form, see docs/trajectories.md).
class TrapezoidPath final : public JointPath {
 public:
  TrapezoidPath(const VecX& q0, const VecX& q1, const RateLimits& limits, TrapezoidOptions opt = {});
  int dof() const override { return static_cast<int>(joints_.size()); }
  double duration() const override { return T_; }
  void evaluate(double t, VecX& q, VecX& qd, VecX& qdd) const override;
  std::vector<std::vector<double>> breakpoints() const override;
  std::string profile() const override { return "trapezoid"; }
  int continuity() const override { return 1; }
  const std::vector<Trapezoid1D>& joints() const { return joints_; }
  bool synchronized() const { return sync_; }

 private:
  std::vector<Trapezoid1D> joints_;
  double T_ = 0;
  bool sync_ = false;
};

}  // namespace achain
