// Closed-form IK: the one implementation, allocation-free, behind ikAll(…, IkMethod::Closed).
//
// Two chain classes, recognised from the model (standard DH; modified models are converted once, and a chain
// placed by origin/axis (URDF) is read through its extracted DH description, model/dh_extract.hpp):
//  * prototype class: four rotating joints (R, or an A-pair or another law whose translation repeats
//    within two turns), axes 2 ∥ 3 (α₂ ∈ {0, π}), sin α₁ ≠ 0, sin(α₂+α₃) ≠ 0, a₂ ≠ 0 — Robinson's
//    prototype 4A-chain and any chain with its structure. Orientation gives (θ₁, θ₂±θ₃, θ₄) by a three-
//    axis Euler decomposition (two sign choices); the position gives θ₂ and checks the remaining two
//    equations. A two-turn joint (720°) contributes both of its 360° branches. Generalises the closed
//    form of the reference digest (robinson-apairs.md §2.7).
//  * wrist-partitioned 6R (PUMA class): six R joints, sin α₁ ≠ 0, axes 2 ∥ 3, a₂ ≠ 0, a spherical
//    wrist (a₄ = a₅ = d₅ = a₆ = 0, sin α₄, sin α₅ ≠ 0). Up to 8 solutions with configuration flags:
//    arm left/right (θ₁ from the wrist centre), elbow up/down (θ₃, law of cosines), wrist flip/noflip.
//
// Every candidate is verified by the chain product the solver already has (|Δp| and the rotation
// angle 2·asin(‖R − R*‖_F / 2√2)) and offered to the IK collector (solution_set.hpp: the representative
// inside the limits nearest the seed, duplicates removed; inside the limits first, then outside).
// Degenerate targets are solved too, without allocating:
//  * prototype class, approach axis parallel to axis 1 (sin(θ₂ − θ₃) = 0 on the prototype): only a
//    combination of θ₁ and θ₄ follows from the orientation; θ₁ is scanned and the minima refined
//    (isolated solutions), or, if every θ₁ works, status singular with the family q₀ + t·dir;
//  * 6R: wrist centre on axis 1 (θ₁ free) or sin θ₅ = 0 (θ₄ free): the free angle is taken from the
//    seed (or 0), status singular.
// The chain's constants are the Model's (Model::closed_form, derived by finalize from the description,
// model/closed_form_chain.hpp); Data holds only scratch. An unreachable target reports count 0; ikAll adds the nearest
// least-squares pose, started from the nearest misses the set keeps (IkSolutionSet::rejected).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <achain/ik/ik.hpp>
#include <achain/ik/solution_set.hpp>

namespace achain {

/// True if the chain is of the prototype class; otherwise `why` (if given) names the failed condition.
bool isPrototypeClass(const Model& model, std::string* why = nullptr);

/// True if the chain is a wrist-partitioned 6R; otherwise `why` (if given) names the failed condition.
bool isWristPartitioned6R(const Model& model, std::string* why = nullptr);

/// All closed-form solutions of target (seed: nq values or nullptr), with `data`'s scratch. Allocation-free:
/// `out` holds these chains' solutions without allocating. The case and the family are in out.closed.
/// Throws Error (naming the failed condition of each class) if the chain has no closed form.
void ikClosed(const Model& model, Data& data, const SE3& target, const double* seed, IkSolutionSet& out,
              double tolerance = 1e-9);

/// Flags as ikAll reports them ({"arm","right"}, …; empty for the prototype class).
std::vector<std::pair<std::string, std::string>> closedIkFlagStrings(std::uint8_t flags);

/// The human-readable note ikAll reports for a case ("" for the regular one).
const char* closedIkNote(ClosedIkCase kase);

}  // namespace achain
