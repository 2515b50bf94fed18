// Cartesian tool paths: straight lines and circular arcs (orientation by SLERP), timed by a trapezoid
// in the path parameter, turned into joints by the numeric IK (core/ik/numeric.hpp) at knots — each
// seeded with the previous knot's solution — and a C² cubic spline through the joint knots.
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

/// Plans from configuration q0 (the tool's start pose is FK(q0)). Throws naming the knot when the IK
/// fails there ("line: IK unreachable at s = 0.425 (position error 0.012 m)") or jumps branches.
CartesianPlan planCartesianPath(const Model& m, const VecX& q0, const CartesianPathSpec& spec);

}  // namespace achain
