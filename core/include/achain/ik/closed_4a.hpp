// Closed-form IK of prototype-class 4-joint chains (Robinson's prototype 4A-chain and any chain with
// its structure, detected from the model): joints R or A, standard DH (modified models are converted),
// axes 2 ∥ 3 (α₂ ∈ {0, π}), sin α₁ ≠ 0, sin(α₂+α₃) ≠ 0, a₂ ≠ 0. Orientation gives (θ₁, θ₂±θ₃, θ₄) by a
// three-axis Euler decomposition (two sign choices σ); the position then gives θ₂ and checks the
// remaining two equations (the 4-DOF consistency conditions). A-pairs are 720°-periodic, so both
// 360° branches of every A joint are enumerated; every candidate is verified by FK.
// Generalises the closed form derived in the reference digest (robinson-apairs.md §2.7).
#pragma once
#include <string>

#include <achain/ik/ik.hpp>

namespace achain {

/// True if the chain is of the prototype class; otherwise `why` (if given) names the failed condition.
bool isPrototypeClass(const Model& model, std::string* why = nullptr);

/// All solutions (status ok / limits / unreachable / singular). Throws Error if not prototype class.
/// When the approach axis is parallel to axis 1 (sin(θ₂−θ₃) = 0 on the prototype) only a combination of
/// θ₁ and θ₄ follows from the orientation; the solver scans θ₁ and reports isolated solutions, or
/// status singular with the one-parameter family (family_q0 + t·family_dir) if every θ₁ works.
IkAllResult solvePrototypeClass(const Model& model, const SE3& target, const VecX* seed = nullptr,
                                double tolerance = 1e-9);

}  // namespace achain
