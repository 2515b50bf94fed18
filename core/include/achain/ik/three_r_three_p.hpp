// Every solution of a 3R3P chain (three revolute and three prismatic joints in any order), exactly: at most
// two, the handbook's bound for 3R3P (Sec. 2.2.1, "3R3P: degree 2"). Behind ikAll(…, IkMethod::ThreeRThreeP)
// (method name "3r3p"); auto picks it for such a chain.
//
// Orientation. A prismatic joint translates along its axis and never turns a frame, so the tool's rotation
// depends on the three revolute angles only. Read from the model's FK at q = 0 (the joint model places every
// frame; nothing assumes DH), it is the product of exponentials
//   R(q) = Rot(e₁, φ₁) Rot(e₂, φ₂) Rot(e₃, φ₃) R(0),     φ_k = (∂θ/∂q)·q_k of revolute joint k,
// with e_k its world axis at q = 0. With Q = R* R(0)ᵀ the target's share, this is a generalised Euler
// (Davenport) problem with non-orthogonal axes. Since Rot(e₁, φ₁)ᵀe₁ = e₁ and Rot(e₃, φ₃)e₃ = e₃,
//   e₁ᵀ Q e₃ = e₁ᵀ Rot(e₂, φ₂) e₃   ⇔   A cos φ₂ + B sin φ₂ = C,
//   A = e₁·e₃ − (e₁·e₂)(e₂·e₃),  B = e₁·(e₂ × e₃),  C = e₁ᵀQe₃ − (e₁·e₂)(e₂·e₃),
// a quadratic in tan(φ₂/2): at most two φ₂ (none when |C| > √(A² + B²): the orientation is out of reach).
// For each, φ₁ rotates Rot(e₂, φ₂)e₃ about e₁ onto Qe₃ (Paden–Kahan subproblem 1, one answer) and φ₃ is the
// angle of the rotation Rot(e₂, −φ₂)Rot(e₁, −φ₁)Q about e₃.
//
// Position. With the angles fixed the tool position is affine in the three prismatic coordinates:
//   p(q) = p(angles, prismatic 0) + Σ_j z_j·(∂dz/∂q)_j·q_j      (z_j the world axis of prismatic joint j),
// a 3×3 linear system, solved once per φ₂ root. So a generic arm has exactly two solutions at a reachable
// target (one at the tangency |C| = √(A² + B²)). Each is polished by Newton steps on the model, verified by
// FK and offered to the IK collector (solution_set.hpp: limits flagged, representatives nearest the seed).
//
// Degenerate cases (out.three_r_three_p.degenerate, with `why`; ikAll then runs the numeric multi-start and
// says so in its note): revolute axes 1 ∥ 2 or 2 ∥ 3 (A = B = 0: only a sum of two angles is fixed, a
// continuum); at this target Rot(e₂, φ₂)e₃ ∥ e₁ (only φ₁ + φ₃ fixed); the three prismatic axes coplanar at a
// root's orientation (the 3×3 system singular: no isolated solution). Nothing is returned in those cases.
#pragma once
#include <string>

#include <achain/ik/ik.hpp>
#include <achain/ik/solution_set.hpp>

namespace achain {

/// True if the chain is six joints in series, each owning its coordinate, three revolute (one turn per turn of
/// the coordinate) and three prismatic (a linear law), in any order, with the tool on the last link; otherwise
/// `why` (if given) names the failed condition. (H, A and law joints are refused.)
bool isThreeRThreeP(const Model& model, std::string* why = nullptr);

/// Every solution of a 3R3P chain for `target` (from checkTarget), at most 2, each polished, verified by FK
/// (position error + orientation error ≤ tolerance) and offered to the IK collector (seed: 6 values or
/// nullptr). Diagnostics in out.three_r_three_p; degenerate: no solution, route elsewhere. Uses `data` for
/// FK. No heap allocation. Throws Error (naming the condition) if isThreeRThreeP fails.
void ikThreeRThreeP(const Model& model, Data& data, const SE3& target, IkSolutionSet& out,
                    const double* seed = nullptr, double tolerance = 1e-10);

}  // namespace achain
