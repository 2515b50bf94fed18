// Linearised dynamics and state space about an operating point (Freeman 1985 §II.E–G, 2-200…2-252; reference
// digest freeman-influence.md §3.5–3.7):
//
//   δT = [I*] δq̈ + (∂T/∂q̇) δq̇ + (∂T/∂q) δq                                     (2-201…2-204, 2-225)
//
// ∂T/∂q̈ = I* (= M), ∂T/∂q̇ = q̇ᵀ(P* + P*ᵀ) (+ viscous friction), and ∂T/∂q analytically from the bodies'
// Newton–Euler loads and their influence coefficients G, H, D (the product-rule form of 2-205…2-225): for a
// body's centre of mass ∂ṗ/∂q = M(q̈ᵀH + q̇ᵀDq̇), for its rotation ∂II/∂q_n = [g_n×]II − II[g_n×] and the
// derivatives of ω and α along its path. Every leg model is covered (the leg-midpoint particles of `full` and
// `potential_only` as points on two bodies, as freemanModel has them). The tool wrench is not: a model
// linearised with use_wrench is refused.
//
// State space with torque inputs: x = (δq, δq̇), u = δτ,
//   A = [0 I; −M⁻¹∂T/∂q  −M⁻¹∂T/∂q̇],  B = [0; M⁻¹].
// With DC motors in series (2-228…2-252): x = (δq, δq̇, δi), u = δv (armature voltages),
//   A = [0 I 0; −I*⁻¹∂T/∂q  −I*⁻¹(∂T/∂q̇ + B_φ)  I*⁻¹C_M; 0 −L⁻¹C_E −L⁻¹R],  B = [0; 0; L⁻¹],
// with I* including the rotor inertias J_m G², B_φ = G²B_m (the model's motor viscous friction), C_M = G·K_t and
// C_E = G·K_e (joint-referenced torque and back-EMF constants). Outputs: the joint positions (C = [I 0 (0)]) or the
// tool's motion (C = [J 0 (0)], Jacobian rows v, ω); D = 0. The frequency response of one input → output pair,
// G(jω) = C (jωI − A)⁻¹ B + D (magnitude, dB, unwrapped phase), on a log grid around the poles: frequencyResponse.
//
// Hand coordinates (Freeman 3-47…3-53, re-derived in the digest §3.7): with coordinates = "tool" the state becomes
// x̂ = (δy, δẏ[, δi]), δy = J δq the tool's first-order displacement in the chosen rows of (v, ω) (world frame; a
// small rotation vector for ω rows) and δẏ its time derivative along the operating motion. The actuators stay at
// the joints. x̂ = T x with T = [J 0 0; J̇ J 0; 0 0 I], J̇ = Σ_m H(:,m,·) q̇_m, so
//   Â = (Ṫ + T A) T⁻¹,  B̂ = T B,  Ĉ = C T⁻¹,  D̂ = D,   Ṫ = [J̇ 0 0; J̈ J̇ 0; 0 0 0],
//   J̈ = Σ_m H(:,m,·) q̈_m + Σ_{l,m} D(:,l,m,·) q̇_l q̇_m   (the tool's influence coefficients G, H, D).
// Written out this is Freeman's F̂₂₁ = [(J F₂₁ + ∂q̈/∂φ) − (J F₂₂ + ∂q̈/∂φ̇) J⁻¹ ∂q̇/∂φ] J⁻¹, F̂₂₂ = (J F₂₂ + ∂q̈/∂φ̇) J⁻¹,
// F̂₂₃ = J F₂₃, F̂₃₁ = −F₃₂ J⁻¹ J̇ J⁻¹, F̂₃₂ = F₃₂ J⁻¹, Ĝ = G. At rest (q̇ = q̈ = 0) Ṫ = 0 and Â is similar to A (the
// same poles); on a motion Â's eigenvalues are the frozen-time ones of the transferred model.
#pragma once
#include <string>
#include <vector>

#include <achain/dynamics/options.hpp>
#include <achain/math/types.hpp>
#include <achain/model/data.hpp>
#include <achain/model/model.hpp>

namespace achain {

/// A separately excited DC motor's electrical data (motor side; the gear ratio and rotor inertia come from the
/// joint's motor in the model, 1 and 0 when it has none).
struct DcMotor {
  double torque_constant = 0;   ///< K_t, N·m/A
  double back_emf_constant = 0; ///< K_e, V·s/rad
  double resistance = 0;        ///< R, Ω (> 0)
  double inductance = 0;        ///< L, H (> 0)
};

struct LinearizeOptions {
  /// Empty: torque inputs. Else one DcMotor per coordinate (or one for all): voltage inputs, currents in the state.
  std::vector<DcMotor> dc_motors;
  /// "joints" (default: y = δq) or "tool" (y = δ(tool motion) = J δq, rows v, ω in the world frame).
  std::string output = "joints";
  /// The state's coordinates: "joints" (default: x = (δq, δq̇[, δi])) or "tool": x = (δy, δẏ[, δi]) in the tool rows
  /// `tool_rows` (see above).
  std::string coordinates = "joints";
  /// With coordinates "tool": rows of (v, ω), 0…5 (0–2 the tool point's translation, 3–5 the rotation), one per
  /// coordinate, no repeats; empty: all six (a six-coordinate chain). Their Jacobian must be invertible at q.
  std::vector<int> tool_rows;
};

struct Linearization {
  MatX dT_dq, dT_dqd, Istar;  ///< the partials of the inverse dynamics at the operating point
  MatX A, B, C, D;            ///< state space (in `coordinates`)
  MatX T;                     ///< the state transform x = T x_joints at the operating point (identity for joints)
  Eigen::VectorXcd poles;     ///< eigenvalues of A
};

/// Linearises the dynamics about (q, q̇, q̈) (q̈ the operating acceleration; zero for an equilibrium). Throws
/// achain::Error naming the bad input (sizes, non-finite values, motor data, a tool wrench, a singular I*, tool rows
/// that are not one per coordinate or whose Jacobian is singular at q).
void linearizeDynamics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& qd,
                       const Eigen::Ref<const VecX>& qdd, const DynamicsOptions& options, const LinearizeOptions& lin,
                       Linearization& out);

/// The frequency response of one input → output pair of a linearisation, G(jω) = C (jωI − A)⁻¹ B + D, at each ω
/// (rad/s): one complex LU solve (jωI − A) x = B(:, input) per ω in preallocated workspaces.
struct FrequencyResponse {
  int input = 0, output = 0;
  VecX omega;                    ///< rad/s, as given
  Eigen::VectorXcd response;     ///< G(jω)
  VecX magnitude, magnitude_db;  ///< |G|, 20 log₁₀ |G|
  VecX phase_deg;                ///< arg G in degrees, unwrapped along ω (no step of more than 180° between points)
};

/// G(jω) of input `input` (a column of B: the coordinate's torque or voltage) to output `output` (a row of C: the
/// coordinate's angle, or a tool motion row) at each omega (> 0, finite; any order, though the phase is unwrapped in
/// the order given). A pole at 0 (a free joint at rest) gives |G| → ∞ as ω → 0, finite for ω > 0; an ω exactly on an
/// undamped pole ±iω gives a non-finite value. Throws achain::Error naming a bad ω or index.
void frequencyResponse(const Linearization& lin, const Eigen::Ref<const VecX>& omega, int input, int output,
                       FrequencyResponse& out);

/// The distinct natural frequencies |p| (rad/s) of the nonzero poles, ascending: |p| > 1e-6·max(1, max|p|) (the
/// eigen-solver gives a double pole at 0, a free joint at rest, as about ±√ε·|A|); a conjugate pair or repeated poles
/// give one value (equal to 1e-9 relative).
std::vector<double> poleFrequencies(const Eigen::VectorXcd& poles);

/// `points` (2…10⁶) log-spaced frequencies (rad/s) from lo to hi; lo = hi = 0 (the default): from 0.1× the smallest
/// to 10× the largest of poleFrequencies(poles) (0.1…100 rad/s when every pole is 0). Throws achain::Error for
/// points outside 2…10⁶ or a range that is not 0 < lo < hi (finite).
VecX frequencyGrid(const Eigen::VectorXcd& poles, int points, double lo = 0, double hi = 0);

/// One joint's actuator dynamics as the Robotics Toolbox's `jointdynamics` gives it: motor torque → motor angle,
/// 1/(J s² + B s), with J = J_m + M_jj/G² (M without rotor inertias; the toolbox's rne adds J_m G² to M_jj, so its
/// J counts J_m twice) and B = B_m, plus T_c/q̇ of the motor's Coulomb friction (linearised) when q̇ ≠ 0.
struct JointTransferFunction {
  double J = 0, B = 0;
  std::vector<double> numerator{1.0}, denominator;  ///< highest power first: [J, B, 0]
};
std::vector<JointTransferFunction> jointTransferFunctions(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                                          const Eigen::Ref<const VecX>& qd, const DynamicsOptions& options);

}  // namespace achain
