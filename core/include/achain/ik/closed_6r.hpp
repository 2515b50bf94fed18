// Closed-form IK of wrist-partitioned 6R chains (PUMA class): six R joints, standard DH (modified
// models are converted), sin α₁ ≠ 0, axes 2 ∥ 3 (α₂ ∈ {0, π}), a₂ ≠ 0, and a spherical wrist
// (a₄ = a₅ = d₅ = a₆ = 0, sin α₄, sin α₅ ≠ 0). Up to 8 solutions: arm left/right (θ₁ from the wrist
// centre), elbow up/down (θ₃ from the planar 2-link law of cosines), wrist flip/noflip (θ₅ sign).
#pragma once
#include <string>

#include <achain/ik/ik.hpp>

namespace achain {

bool isWristPartitioned6R(const Model& model, std::string* why = nullptr);

/// All solutions with configuration flags {"arm": left|right, "elbow": up|down, "wrist": flip|noflip}.
/// At a wrist singularity (sin θ₅ = 0) θ₄ is taken from the seed (or 0), status singular; at a shoulder
/// singularity (wrist centre on axis 1) θ₁ likewise.
IkAllResult solveWristPartitioned6R(const Model& model, const SE3& target, const VecX* seed = nullptr,
                                    double tolerance = 1e-9);

}  // namespace achain
