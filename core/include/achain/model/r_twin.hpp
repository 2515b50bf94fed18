// The R-pair twin of a chain: the same arm with every A-pair replaced by an R-pair on the same axis (the A-chain at
// ρ = 0). The studio's ghost overlay and the workspace's A-vs-R overlap are computed on it.
#pragma once
#include <achain/model/model.hpp>

namespace achain {

/// The chain with every A-pair made an R-pair: kind A → R, ρ, leg mass and leg radius set to 0 (no legs), name
/// "<name>-r-twin"; every other field kept (placement, θ_f, sign, d, limits, motor, link inertial, mimic, tool,
/// geometry). Its forward kinematics equals the A-chain's with ρ = 0 for every q. A model without an A-pair gives
/// a copy under the new name. The result is finalized.
Model rPairTwin(const Model& model);

/// True when some joint of the model is an A-pair.
bool hasApair(const Model& model);

}  // namespace achain
