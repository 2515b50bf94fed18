// Freeman (1985) dynamics from kinematic influence coefficients (reference digest
// freeman-influence.md §3.3–3.4):
//
//   T = [I*] q̈ + q̇ᵀ[P*] q̇ − T^L
//   I* = Σ_j M_j G_cᵀG_c + G_ωᵀ II_j G_ω                                   (2-196)
//   P*_{k;m;n} = Σ_j [ M_j g^c_k·h^c_mn + (II_j g^ω_k)·h^ω_mn + (II_j g^ω_n)·(g^ω_k × g^ω_m) ]   (2-197)
//   T^L = Σ_j G_cᵀ(M_j g) − Jᵀh_e − τ_friction                              (applied loads, 2-147)
//
// G, H come from kinematics/influence.hpp (R/P/H/A joints). Leg masses enter as point masses (the
// leg-midpoint particles of LegModel::Full use the mean of the B and P coefficients); rotor
// inertia J_m G² is added to the diagonal of I* when options.motors.
//
// Model transfer (3-33…3-36) to coordinates u with u̇ = J q̇, ü = J q̈ + q̇ᵀ H^u q̇ (J square, regular):
//   I*_uu = J⁻ᵀ I* J⁻¹,  P*_uuu = J⁻ᵀ{(J⁻ᵀ ∘ P*) − (I*_uu ∘ H^u)} J⁻¹,  T^L_u = J⁻ᵀ T^L.
#pragma once
#include <achain/kinematics/influence.hpp>
#include <achain/math/tensor3.hpp>
#include <achain/dynamics/options.hpp>

namespace achain {

struct FreemanModel {
  MatX Istar;     ///< nv×nv effective inertia
  Tensor3 Pstar;  ///< nv×nv×nv inertia power modeling matrix, plane k = input k
  VecX TL;        ///< applied loads T^L (gravity, wrench, friction), so T = I*q̈ + q̇ᵀP*q̇ − T^L
};

/// Scratch for freemanModel (influence coefficients of the bodies and leg points).

/// I*, P* and T^L at (q, q̇) (q̇ only matters for friction in T^L).
void freemanModel(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                  const Eigen::Ref<const VecX>& qd, const DynamicsOptions& options, FreemanModel& out);

/// T = I* q̈ + q̇ᵀP* q̇ − T^L.
void freemanTorque(const FreemanModel& fm, const Eigen::Ref<const VecX>& qd, const Eigen::Ref<const VecX>& qdd,
                   Eigen::Ref<VecX> tau);

/// Transfer of the model to coordinates u (Freeman 3-33…3-36). J = [G^u_q] (square, regular),
/// Hu = [H^u_qq]. Throws achain::Error if J is singular.
void transferModel(const FreemanModel& in, const MatX& J, const Tensor3& Hu, FreemanModel& out);

}  // namespace achain
