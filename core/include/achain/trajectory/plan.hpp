// One entry point for joint-space planning, shared by the CLI (`achain traj`) and the wasm binding:
// profile + endpoints (+ via points) + limits → a JointPath, optionally time-scaled to torque limits.
#pragma once
#include <string>
#include <vector>

#include <achain/dynamics/options.hpp>
#include <achain/trajectory/analysis.hpp>
#include <achain/trajectory/path.hpp>
#include <achain/trajectory/polynomial.hpp>

namespace achain {

struct PlanSpec {
  /// "trapezoid" | "cubic" | "quintic" | "septic" | "spline". With via points, the point-to-point
  /// profiles run rest-to-rest segments through each via point; "spline" is one C² cubic spline.
  std::string profile = "trapezoid";
  VecX from, to;
  std::vector<VecX> via;
  std::vector<double> times;     ///< spline knot times (via.size()+2, from 0); empty = from the limits
  double duration = 0;           ///< > 0: the whole path is uniformly time-scaled to exactly this
  /// Start / end velocities and accelerations of a cubic, quintic or septic from → to without via points
  /// (Robotics Toolbox `jtraj`): the polynomial is solved on [0, duration] (duration required, no
  /// rescaling, so the rates hold exactly); empty vectors mean zero, a cubic takes no accelerations.
  PolynomialBoundary boundary;
  bool synchronize = false;      ///< trapezoid: common ta / T for all joints
  VecX velocity, acceleration;   ///< per-joint limit overrides (empty = the model's limits)
  double velocity_scale = 1, acceleration_scale = 1;
  bool torque_limits = false;    ///< then slow down uniformly until speed, acceleration AND |τ| ≤ limits.effort
                                 ///< hold (RNEA with `dynamics`); the model's limits are used for this check
  DynamicsOptions dynamics;
};

struct Plan {
  JointPathPtr path;
  RateLimits limits;           ///< the speed / acceleration limits used
  TimeScaling torque_scaling;  ///< factor 1 unless torque limits stretched the path
};

Plan planJointPath(const Model& m, const PlanSpec& spec);

}  // namespace achain
