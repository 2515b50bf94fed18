// Every solution of a four-joint chain of rotating joints (R, A, H or a declared screw law) in
// microseconds: the orientation sweep, behind ikAll(…, IkMethod::Sweep) (method name "sweep").
//
// A joint's translation along its axis never changes the tool's orientation, so the orientation of a
// four-joint chain is that of a spherical 4R chain, whatever the joints' laws (an A-pair's ρ·sin(θ_v/2)
// included). With one joint s held at a value, the other three joints a < b < c must solve
//   W = Rz(θ_a) P₁ Rz(θ_b) P₂ Rz(θ_c)           (W from the target; P₁, P₂ constant or holding Rz(θ_s))
// exactly: z·W·z = (P₁ᵀz)·Rz(θ_b)·(P₂z) is A cos θ_b + B sin θ_b + C, which gives θ_b twice (or not at all),
// and θ_a, θ_c follow by atan2. So the orientation solutions form a curve over θ_s with two branches,
// and along it only the tool position is left: three equations for one unknown. The method samples θ_s
// over its period (2° steps; 720° for an A-pair), follows every branch (both signs of θ_b; each A-pair's
// two turns, where its translation takes the other sign; an H-pair's turns inside its limits) with the
// angles unwrapped, takes every local minimum of the position error as a candidate, and polishes it by
// Gauss–Newton steps on the whole chain (six equations, four unknowns). Each solution is checked by the
// model's FK. The joint to hold is chosen for the conditioning of the middle joint's equation (its axis
// must not be parallel to the other two), so prototype-class chains (axes 2 ∥ 3) are solved too.
//
// Completeness is measured, not proven: the homotopy (method "algebraic") stays the reference, and the
// tests compare the two sets on random 4A-chains. A root can be missed only where two solutions of one
// branch lie closer than about a sample step.
#pragma once
#include <string>

#include <achain/ik/ik.hpp>
#include <achain/ik/solution_set.hpp>

namespace achain {

/// True if the chain is four joints in series, each owning its coordinate and rotating once per turn of
/// it (any axial law: R, A, H, law), the tool on the last link, and some joint can be held so that the
/// middle one of the other three is not parallel to its neighbours; otherwise `why` names the condition.
/// A joint without a period (an H-pair) needs finite limits, at most 8 turns.
bool isSweepChain(const Model& model, std::string* why = nullptr);

/// Every real solution for `target` (from checkTarget) by the orientation sweep, each verified by FK
/// (position error + orientation error ≤ tolerance) and offered to the IK collector (solution_set.hpp:
/// representatives inside the limits nearest the seed, duplicates removed, inside the limits first; seed:
/// 4 values or nullptr); the polished candidates that miss are its rejected ones (least-squares starts when
/// nothing is reached). Diagnostics in out.sweep. Uses `data` for the FK checks; no heap allocation (`out`
/// holds 64 solutions). Throws Error naming the condition if isSweepChain fails.
void ikSweep(const Model& model, Data& data, const SE3& target, IkSolutionSet& out, const double* seed = nullptr,
             double tolerance = 1e-10);

}  // namespace achain
