// Geometry of an algebraic screw pair (A-pair): a Griffis–Duffy platform with six equal legs
// (Robinson 2012 §3.2.1, Eqs. 3.17–3.20 with the corrected B6 and P4).
#pragma once
#include <array>

#include <achain/model/data.hpp>

namespace achain {

struct ApairAnchors {
  std::array<Vec3, 6> base;      ///< B1..B6 in the base-plate frame (z = 0)
  std::array<Vec3, 6> platform;  ///< P1..P6 in the platform frame (z = 0)
};

/// Anchor points for triangle side a (vertices and edge midpoints; leg i joins B_i and P_i).
ApairAnchors apairAnchors(double side);

/// Leg endpoints of A-pair `joint` in world coordinates, for configuration q after
/// forwardKinematics(model, data, q). The base plate is the joint's axis frame turned by θ_f;
/// the platform follows it by Rz(s·q) and rises ρ·sin(q/2). Mirrored in y when sign = −1.
void apairLegEndpoints(const Model& model, const Data& data, int joint, double q,
                       std::array<Vec3, 6>& base_world, std::array<Vec3, 6>& platform_world);

}  // namespace achain
