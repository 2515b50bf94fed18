// General 6R inverse kinematics, every solution (up to 16): Raghavan–Roth elimination in Manocha–Canny's
// eigenvalue form, behind ikAll(…, IkMethod::General6R) (method name "general6r").
//
// The chain is any serial chain of six revolute joints (each turning once per turn of its own coordinate,
// read from the joint models), or of revolute and up to three prismatic joints (5R1P, 4R2P, 3R3P: a prismatic
// length d enters the 14 quantities with degree ≤ 2, so (1, d, d²) take the part of (1, cos, sin)), placed by DH constants in either convention or by origin/axis; the base and
// tool transforms are included. Closure: I = Z(ψ₀)D₀ Z(ψ₁)D₁ … Z(ψ₅)D₅ (Z = rotation about z, D constant,
// the target inside one D). Split  Z(ψ₂)D₂Z(ψ₃)D₃Z(ψ₄)D₄ · Z(ψ₅) = D₁⁻¹Z(−ψ₁)D₀⁻¹Z(−ψ₀)D₅⁻¹ and apply it to the
// line of the last axis (direction P, point Q): P, Q, P·Q, Q·Q, P×Q and P(Q·Q) − 2Q(P·Q) give 14 equations,
// each of degree ≤ 1 in the sine/cosine of every angle (Raghavan & Roth 1993). Their coefficients are taken
// numerically, not symbolically: each side is sampled at three angles per variable (an exact 3-point Fourier
// transform), so the same code serves every geometry and both DH conventions. Eliminating the 8 products of
// ψ₀, ψ₁ (left null space of the 14×8 matrix, Householder QR) leaves 6 equations; the half-angle substitution
// x = tan(·/2) and the extra 6 equations multiplied by x₄ give the 12×12 quadratic matrix polynomial
// M₂x₃² + M₁x₃ + M₀ acting on the 12 monomials of x₄, x₅, linearised to a 24×24 eigenproblem (companion
// matrix with M₂⁻¹, eigenvalues only; the null vector of the 12×12 at each real root gives x₄, x₅). The eliminated angles are shifted by fixed angles so that
// no joint value at 0 or π makes a half-angle tangent infinite. ψ₀, ψ₁ follow by least squares, ψ₅ from the
// closure; every candidate is polished by Newton steps on the chain and verified by FK.
//
// Prismatic joints: the last position of a formulation must be revolute (its rotation keeps the line). With two
// or three, every formulation has roots at infinity (fewer solutions than the pencil's degree): then the
// generalized eigenproblem (QZ) of the pencil is solved instead of the companion matrix. 5R1P is solved
// wherever 6R is; 4R2P when the two prismatic joints are at most two apart around the closed loop (a
// formulation then keeps ψ₀, ψ₁ revolute); 3R3P and the other 4R2P placements are reported degenerate.
// Degenerate geometry: a formulation whose 14×8 matrix is rank-deficient, whose leading matrix M₂ is
// singular, or whose pencil is singular (det ≡ 0: intersecting or parallel axes such as a spherical wrist)
// is detected, and the next of the 12 formulations (the loop rotated to start at another joint, forwards
// or backwards) is tried. If none is regular the result is marked degenerate and holds no solution;
// ikAll then falls back to the closed forms or the numeric multi-start. Garbage is never returned: each
// solution reproduces the target to the tolerance.
#pragma once
#include <string>

#include <achain/ik/ik.hpp>
#include <achain/ik/solution_set.hpp>

namespace achain {

/// True if the chain is six joints in series, revolute or prismatic (at most three prismatic), with the tool on
/// the last link (the general 6R method applies); otherwise `why` (if given) names the failed condition.
bool isGeneral6R(const Model& model, std::string* why = nullptr);

/// Every real solution of a 6R chain for `target` (from checkTarget), each polished by Newton steps,
/// verified by FK (position error + orientation error ≤ tolerance) and offered to the IK collector
/// (solution_set.hpp: representatives inside the limits nearest the seed, duplicates removed, inside the
/// limits first; seed: 6 values or nullptr). Diagnostics in out.general6r; degenerate: no solution, route
/// elsewhere. Uses `data` for the FK checks. No heap allocation (fixed-size Eigen; `out` holds 64 solutions).
/// Throws Error (naming the condition) if the chain is not such a chain.
void ikGeneral6R(const Model& model, Data& data, const SE3& target, IkSolutionSet& out, const double* seed = nullptr,
                 double tolerance = 1e-10);

}  // namespace achain
