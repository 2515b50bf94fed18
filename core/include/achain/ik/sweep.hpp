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
#include <array>
#include <string>

#include <achain/ik/ik.hpp>

namespace achain {

struct SweepSolutions {
  static constexpr int kCapacity = 32;
  static constexpr int kNearest = 4;
  int count = 0;  ///< verified, distinct solutions in q[0 .. count)
  std::array<std::array<double, 4>, kCapacity> q{};  ///< joint coordinates (one representative per pose-distinct solution)
  std::array<double, kCapacity> position_error{}, orientation_error{};  ///< FK check of each (m, rad)
  /// When nothing reaches the target: the polished candidates nearest to it (least-squares starts).
  int nearest_count = 0;
  std::array<std::array<double, 4>, kNearest> nearest{};
  int sweep_joint = -1;  ///< the joint held and sampled
  int samples = 0;       ///< values of it visited
  int branches = 0;      ///< orientation branches followed (2 × the period branches of the other joints)
  int candidates = 0;    ///< local minima polished
};

/// True if the chain is four joints in series, each owning its coordinate and rotating once per turn of
/// it (any axial law: R, A, H, law), the tool on the last link, and some joint can be held so that the
/// middle one of the other three is not parallel to its neighbours; otherwise `why` names the condition.
/// A joint without a period (an H-pair) needs finite limits, at most 8 turns.
bool isSweepChain(const Model& model, std::string* why = nullptr);

/// Every real solution for `target` (from checkTarget) by the orientation sweep, each verified by FK
/// (position error + orientation error ≤ tolerance), duplicates merged. Limits are not applied here
/// (ikAll applies them). Uses `data` for the FK checks; no heap allocation. Throws Error naming the
/// condition if isSweepChain fails.
void ikSweep(const Model& model, Data& data, const SE3& target, SweepSolutions& out, double tolerance = 1e-10);

}  // namespace achain
