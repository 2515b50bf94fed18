// Which closed-form IK a chain has, and its constants (Model::closed_form): derived from the description
// once, by Model::finalize. The solvers are in ik/closed_form.hpp; this file holds only the class checks
// and the derivation, which read the chain's standard-DH view (a modified-DH chain converted, a chain
// placed by origin/axis through its extracted DH description, model/dh_extract.hpp).
#pragma once
#include <string>

#include <achain/model/model.hpp>

namespace achain {

/// The model in standard DH: the model itself, or its conversion kept in `storage`.
const Model& standardDH(const Model& m, Model& storage);

/// The structure every closed form starts from: a serial chain of n joints, each owning its coordinate
/// and turning once per turn of it (θ = θ0 ± q), the tool on the last link. turns = 1: revolute joints
/// only (no axial law); turns = 2: the axial law may also repeat within two turns (an A-pair: 720°).
/// Read from the joint models. Returns "" when it holds, else the reason naming the field.
std::string serialChainProblem(const Model& m, int n, int turns);

/// "" when the chain is of the prototype class (four rotating joints, axes 2 ∥ 3, …), else the reason.
std::string prototypeClassProblem(const Model& m);

/// "" when the chain is a wrist-partitioned 6R (PUMA class), else the reason.
std::string wrist6RClassProblem(const Model& m);

/// The chain's closed-form constants (cls = kNone when it has no closed form).
ClosedFormChain deriveClosedFormChain(const Model& m);

}  // namespace achain
