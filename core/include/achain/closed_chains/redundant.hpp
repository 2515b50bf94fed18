// Redundant and over-constrained actuation by model transfer (Freeman 1985 §IV.C, §IV.D; digest §4.4, §4.5).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include <achain/dynamics/freeman.hpp>

namespace achain {

// ---- Redundant and over-constrained actuation (Freeman §IV.C, §IV.D; digest §4.4, §4.5) ----

/// Redundant system (M inputs q drive N < M task coordinates u, u̇ = [G^u_q] q̇): the kinetic-energy-weighted
/// right pseudo-inverse [G^q_u] = I*⁻¹Gᵀ(G I*⁻¹ Gᵀ)⁻¹ (4-70), [H^q_uu] = −[G^q_u]ᵀ([G^q_u] ∘ [H^u_qq])[G^q_u] (4-72),
/// and the partial transfer of the loads, T_q = I*_qu ü + u̇ᵀP*_quu u̇ − T^L_q (4-73…4-75):
/// I*_qu = I*_qq [G^q_u] (M×N), P*_quu = [G^q_u]ᵀ{P*_qqq − (I*_qu ∘ [H^u_qq])}[G^q_u] (M×N×N, plane-wise).
struct RedundantTransfer {
  MatX Gq_u;      ///< M×N
  Tensor3 Hq_uu;  ///< M×N×N
  MatX Iqu;       ///< M×N
  Tensor3 Pquu;   ///< M×N×N
};
void redundantTransfer(const MatX& Gu_q, const Tensor3& Hu_qq, const FreemanModel& model_q, RedundantTransfer& out);

/// Over-constrained system (Q > N actuators q hold a body whose model is in u, q̇ = [G^q_u] u̇): the minimum-norm
/// load split T_q = [G^u_q]^{-LT} T_u with [G^u_q]^{-LT} = [G^q_u]([G^q_u]ᵀ[G^q_u])⁻¹ (4-85, 4-86) and the partial
/// transfer I*_qu = [G^u_q]^{-LT} I*_uu, P*_quu = [G^u_q]^{-LT} ∘ P*_uuu, T^L_q = [G^u_q]^{-LT} T^L_u (4-87…4-90).
/// `out` holds I*_qu (Q×N), P*_quu (Q×N×N), T^L_q (Q).
void overconstrainedTransfer(const MatX& Gq_u, const FreemanModel& model_u, FreemanModel& out);

}  // namespace achain
