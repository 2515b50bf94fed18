// Options shared by every dynamics algorithm (RNEA, CRBA, Coriolis, forward dynamics, Lee, Freeman).
//
// A-pair legs (Robinson 2012 §3.7.3, corrected; see docs/dynamics.md):
//   Massless      legs ignored.
//   Lumped        the six legs' mass 6·m_leg is added to the moving link; the link's inertia about
//                 its CoM is scaled by the same factor (m + 6·m_leg)/m (the thesis's "lumped mass"
//                 model: a proportionally heavier link). A massless link gets a point mass at its CoM.
//   Full          every leg is a uniform slender rod between its base anchor B (fixed on the parent)
//                 and platform anchor P (fixed on the moving link): exact kinetic energy
//                 (m_leg/6)(v_B² + v_B·v_P + v_P²), potential energy of the leg's midpoint.
//                 Equivalently (Simpson, exact): m_leg/6 at B, m_leg/6 at P, 2·m_leg/3 at (B+P)/2.
//                 For a single A-pair on a fixed base this is B_legs = (m_leg·ρ²/8)(7 + 2cos θ)
//                 (six legs: three end at platform midpoints, three at vertices twice as far out;
//                 the thesis's six-times-leg-1 value (m_leg·ρ²/4)(2 + cos θ) misses (3/8)·m_leg·ρ²)
//                 and the six legs' weight acting halfway between the plates.
//   PotentialOnly the legs' weight only (half of each leg's weight at B, half at P: a point mass
//                 6·m_leg on the axis halfway between the plates); no leg kinetic energy.
#pragma once
#include <string>

#include <achain/model/data.hpp>

namespace achain {


/// "massless" | "lumped" | "full" | "potential" (one spelling each; toString writes the same words).
LegModel legModelFromString(const std::string& s);
const char* toString(LegModel m);

/// Frame in which a tool wrench is given (the moment is always about the tool origin).
enum class WrenchFrame { Base, Tool };

using Vec6 = Eigen::Matrix<double, 6, 1>;

struct DynamicsOptions {
  LegModel legs = LegModel::Full;
  /// Rotor inertia through the gear ratio: J_m·G² added to M_ii (joints whose motor is present).
  bool motors = false;
  /// Joint friction from the motor data: τ_f = G²·B·q̇ + |G|·Tc±·sign(q̇) (Corke's model; sign(0) = 0).
  bool friction = false;
  /// Gravity: by default the model's (base frame). Set override_gravity to use `gravity` instead
  /// (e.g. zero, or a horizontal mounting).
  bool override_gravity = false;
  Vec3 gravity = Vec3::Zero();
  /// Tool wrench h_e = (f, m): the force and moment the TOOL EXERTS ON THE ENVIRONMENT (Siciliano's
  /// convention, Robinson Eq. 2.71), moment about the tool origin. Adds Jᵀ·h_e to τ.
  bool use_wrench = false;
  Vec6 wrench = Vec6::Zero();
  WrenchFrame wrench_frame = WrenchFrame::Base;
  /// Joint-limit stops, the simulation's only contact (no floor, no self-collision). Applied by
  /// forwardDynamics (so by integrateStep and simulate); the other algorithms ignore them. A
  /// coordinate past its limit by δ > 0 meets a one-sided spring–damper scaled by its own inertia M_ii:
  ///   τ_stop = −s·max(0, k·δ + c·s·q̇),  k = M_ii·ω²,  c = 2ζ·M_ii·ω,  ω = 2π·stop_frequency,
  /// s = +1 past the upper limit, −1 past the lower. The max(0, ·) keeps the stop from pulling the
  /// joint back in as it leaves (no sticking). With ζ = 1 (critical) an impact at speed v penetrates
  /// at most about v/(e·ω) and a static load τ rests at δ = τ/k; the damper dissipates the impact's energy.
  bool limit_stops = false;
  double stop_frequency = 20;      ///< Hz (keep ω·dt well below 2.8 for RK4: dt ≤ 1 ms at 20 Hz)
  double stop_damping_ratio = 1;   ///< ζ

  Vec3 gravityOf(const Vec3& model_gravity) const { return override_gravity ? gravity : model_gravity; }
};

}  // namespace achain
