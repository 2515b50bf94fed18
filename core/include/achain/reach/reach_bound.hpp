// An upper bound of how far a robot reaches: the size the studio frames its camera and grid on, and the scale its
// drawings take. Computed from the joint model (placement, axial law, limits), so it holds for DH, origin/axis
// (URDF) placement, trees, mimic and fixed joints alike.
#pragma once
#include <achain/model/model.hpp>

namespace achain {

/// Reach bound of a model.
struct ReachBound {
  /// Upper bound of the distance from the base origin (world ← frame 0) to every link frame origin and to the tool
  /// frame origin, over every configuration within the joint limits. Infinite when a joint translates without
  /// bound (a prismatic or helical joint, or an axial law, whose coordinate has no finite limits).
  double radius = 0;
  /// The same bound for each link frame origin (joint order) and for the tool.
  std::vector<double> links;
  double tool = 0;
};

/// The bound by the triangle inequality along each link's path from the base: per joint, the constant offset
/// before its motion plus the largest length of (motion · constant offset after it) over the joint's range of
/// axial travel (the rotation about the axis keeps that length). Joint rotation limits are not used, so the bound
/// holds for every rotation; offsets that lie across one another add. Measured against the farthest tool of
/// 20 000 random configurations (tests/core/reach/test_reach_bound.cpp): PUMA 560 1.16x, prototype-4a 1.09x,
/// prototype-4r 1.25x, Stanford arm 1.08x.
ReachBound reachBound(const Model& model);

}  // namespace achain
