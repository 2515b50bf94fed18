// Cartesian tool paths: straight lines and circular arcs (orientation by SLERP), timed by a trapezoid
// in the path parameter, turned into joints by the numeric IK (ik/numeric.hpp) at knots — each
// seeded with the previous knot's solution — and a C² cubic spline through the joint knots.
// Also the same line + SLERP interpolation between two poses without IK (interpolateCartesian).
#pragma once
#include <achain/ik/ik.hpp>
#include <achain/trajectory/spline.hpp>
#include <achain/trajectory/analysis.hpp>

namespace achain {

enum class CartesianKind { Line, Arc };

struct CartesianPathSpec {
  CartesianKind kind = CartesianKind::Line;
  SE3 goal;                        ///< end pose of the tool (base frame); its position is the path's end
  Vec3 arc_via = Vec3::Zero();     ///< arc: a point the circle passes through between start and goal
  double speed = 0.25;             ///< m/s along the path
  double acceleration = 1.0;       ///< m/s²
  double angular_speed = 1.0;      ///< rad/s of the tool orientation (SLERP angle)
  double angular_acceleration = 4.0;
  int knots = 41;                  ///< IK solutions along the path (≥ 2)
  int position_only = -1;          ///< 1 position only, 0 full pose, −1 auto (position only when nq < 6)
  bool joint_limits = true;        ///< then slow the path uniformly until joint speed/acceleration limits hold
  double max_joint_step = 30 * kDeg;  ///< a larger change between neighbouring knots is a branch switch: error
  IkOptions ik;                    ///< tolerance, weights, iterations (restarts are not used: continuity first)
};

struct CartesianPlan {
  JointPathPtr path;               ///< the joint trajectory (spline, possibly time-scaled)
  std::shared_ptr<const CubicSplinePath> spline;  ///< before joint-limit scaling
  double length = 0;               ///< m
  double rotation = 0;             ///< rad (total SLERP angle)
  double max_ik_error = 0;         ///< m, largest IK position error at the knots
  double max_deviation = 0;        ///< m, largest tool position deviation between knots (spline vs path)
  TimeScaling scaling;             ///< joint-limit scaling (factor 1 when not needed)
  bool position_only = false;
};

/// The tool pose at path parameter s ∈ [0, 1] for a line/arc from `start`.
SE3 cartesianPose(const SE3& start, const CartesianPathSpec& spec, double s);

/// Cartesian interpolation between two poses without IK (Robotics Toolbox `ctraj`): the position moves on
/// the straight line p(s) = p₀ + s (p₁ − p₀), the rotation by SLERP R(s) = R₀ Rot(k, s θ) with (k, θ) the
/// axis-angle of R₀ᵀR₁ (θ ∈ [0, π]: the shorter way), and s(t) rises from 0 to 1 by the chosen time scaling.
struct CartesianInterpolationSpec {
  /// "trapezoid" (s: constant acceleration, cruise, deceleration) or a polynomial "cubic" | "quintic" | "septic".
  std::string profile = "quintic";
  /// s; > 0 fixes the duration (a trapezoid then accelerates for a third of it, as the Toolbox's lspb);
  /// 0: the shortest duration that keeps the speed and acceleration limits below.
  double duration = 0;
  double speed = 0.25, acceleration = 1.0;             ///< m/s, m/s² of the tool origin
  double angular_speed = 1.0, angular_acceleration = 4.0;  ///< rad/s, rad/s² of the SLERP angle
  double rate = 100;                                   ///< samples per second; the end is always sampled
};

struct CartesianInterpolation {
  std::string profile;
  double duration = 0, length = 0, rotation = 0;  ///< s, m, rad (θ)
  Vec3 axis = Vec3::Zero();       ///< unit rotation axis in the base frame, R₀k (constant; zero when θ = 0)
  std::vector<double> t, s, sd, sdd;  ///< sample times and the path parameter with its derivatives
  std::vector<SE3> poses;             ///< tool poses (base frame); poses.front() = start, poses.back() = goal exactly
  std::vector<Vec6> twists;           ///< (v, ω) base frame: v = ṡ (p₁ − p₀), ω = ṡ θ axis
  std::vector<Vec6> accelerations;    ///< (a, α) = s̈ (p₁ − p₀, θ axis)
};

/// Samples the interpolation from `start` to `goal`. Throws naming the bad field (profile, duration,
/// rate, speeds), or when the poses coincide and no duration is given.
CartesianInterpolation interpolateCartesian(const SE3& start, const SE3& goal, const CartesianInterpolationSpec& spec);

/// Plans from configuration q0 (the tool's start pose is FK(q0)). Throws naming the knot when the IK
/// fails there ("line: IK unreachable at s = 0.425 (position error 0.012 m)") or jumps branches.
CartesianPlan planCartesianPath(const Model& m, const VecX& q0, const CartesianPathSpec& spec);

}  // namespace achain
