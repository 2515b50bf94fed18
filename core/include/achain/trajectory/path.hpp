// Time-parameterised joint-space paths q(t): the common interface of every profile
// (trapezoid, polynomial, spline, Cartesian) and uniform time scaling.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <achain/model/model.hpp>
#include <achain/math/types.hpp>

namespace achain {

/// A joint-space path q(t), t ∈ [0, duration()], in SI (rad, m; θ_v for A-pairs).
/// evaluate() clamps t to [0, T]; a rest-to-rest path therefore rests outside it.
/// evaluate() never allocates when q, qd, qdd already have dof() entries.
class JointPath {
 public:
  virtual ~JointPath() = default;
  virtual int dof() const = 0;
  virtual double duration() const = 0;
  /// Position, velocity, acceleration at t.
  virtual void evaluate(double t, VecX& q, VecX& qd, VecX& qdd) const = 0;
  /// Times (s) where a joint's profile changes piece, per joint, sorted, including 0 and its end.
  virtual std::vector<std::vector<double>> breakpoints() const = 0;
  /// Profile name: "trapezoid", "cubic", "quintic", "septic", "spline", "line", "arc", ….
  virtual std::string profile() const = 0;
  /// Highest derivative that is continuous everywhere: 1 = velocity (trapezoid),
  /// 2 = acceleration (quintic, cubic spline), 3 = jerk (septic).
  virtual int continuity() const = 0;
};

using JointPathPtr = std::shared_ptr<const JointPath>;

/// q(t) = p(t/k): the same geometric path run k times slower (k > 1) or faster (k < 1).
/// Velocities scale by 1/k, accelerations by 1/k², breakpoints by k.
class TimeScaledPath final : public JointPath {
 public:
  TimeScaledPath(JointPathPtr path, double k);
  int dof() const override { return path_->dof(); }
  double duration() const override { return k_ * path_->duration(); }
  void evaluate(double t, VecX& q, VecX& qd, VecX& qdd) const override;
  std::vector<std::vector<double>> breakpoints() const override;
  std::string profile() const override { return path_->profile(); }
  int continuity() const override { return path_->continuity(); }
  double factor() const { return k_; }
  const JointPathPtr& inner() const { return path_; }

 private:
  JointPathPtr path_;
  double k_;
};

/// Per-joint speed and acceleration limits used by the planners (SI, magnitudes).
struct RateLimits {
  VecX velocity;       ///< rad/s or m/s
  VecX acceleration;   ///< rad/s² or m/s²
};

/// The model's limits.velocity / limits.acceleration, each multiplied by `scale` (0 < scale ≤ 1 typical).
/// Infinite entries stay infinite; planners that need a finite limit say which joint lacks it.
RateLimits rateLimitsFromModel(const Model& m, double velocity_scale = 1.0, double acceleration_scale = 1.0);

/// Checks a joint vector against the model: size nq and finite entries ("--from[2]: …").
void checkJointVector(const Model& m, const VecX& q, const std::string& what);

}  // namespace achain
