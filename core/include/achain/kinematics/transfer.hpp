// Transfer of generalized coordinates (Freeman 1985, Ch. III): a kinematic model known in initial
// coordinates φ (e.g. joint variables) re-expressed in new coordinates q = q(φ) (e.g. hand
// coordinates), given J = [G^q_φ] (square, non-singular) and [H^q_φφ]:
//   [G^φ_q] = J⁻¹                                                     (3-15)  resolved rate
//   [H^φ_qq] = −J⁻ᵀ (J⁻¹ ∘ [H^q_φφ]) J⁻¹                              (3-19)  resolved acceleration
//   [G^u_q] = [G^u_φ] J⁻¹                                             (3-22)
//   [H^u_qq] = J⁻ᵀ { [H^u_φφ] − ([G^u_φ] J⁻¹) ∘ [H^q_φφ] } J⁻¹        (3-26)
//   φ̈ = J⁻¹ (q̈ − φ̇ᵀ[H^q]φ̇)                                           (3-16)
//   φ⃛ = J⁻¹ (q⃛ − φ̈ᵀ([H^q] + 2[H^q]ᵀ)φ̇ − (φ̇ᵀ[D^q]φ̇)φ̇)                 (3-44)–(3-46)
// ∘ is Freeman's generalized dot product and J⁻ᵀ(·)J⁻¹ plane-wise congruence (tensor3.hpp).
// When q contains angular-velocity components (a 6-D hand "pose rate"), q are quasi-coordinates:
// the formulas hold for the rates (what resolved rate/acceleration use); [H^φ_qq] then is not symmetric.
#pragma once
#include <achain/math/tensor3.hpp>

namespace achain {

/// J⁻¹ by a rank-revealing LU; throws achain::Error("J: …") if J is not square or is singular
/// (reciprocal condition estimate below `rcond_min`).
MatX invertSquare(const MatX& J, double rcond_min = 1e-12);

/// First- and second-order reverse influence coefficients (3-15), (3-19): Gphi = J⁻¹, Hphi = −J⁻ᵀ(J⁻¹∘Hq)J⁻¹.
void reverseInfluence(const MatX& J, const Tensor3& Hq, MatX& Gphi, Tensor3& Hphi);

/// Any dependent set u carried to the new coordinates (3-22), (3-26).
/// Gu: U×M, Hu: U×M×M in φ; J, Hq: the coordinate change; results Guq: U×M, Huq: U×M×M in q.
void transferInfluence(const MatX& Gu, const Tensor3& Hu, const MatX& J, const Tensor3& Hq, MatX& Guq, Tensor3& Huq);

/// φ̇ = J⁻¹ q̇ (resolved rate).
VecX resolvedRate(const MatX& J, const VecX& qd);

/// φ̈ = J⁻¹ (q̈ − φ̇ᵀ[H^q]φ̇) (resolved acceleration, Freeman 3-16).
VecX resolvedAcceleration(const MatX& J, const Tensor3& Hq, const VecX& phid, const VecX& qdd);

/// φ⃛ = J⁻¹ (q⃛ − φ̈ᵀ([H^q] + 2[H^q]ᵀ)φ̇ − (φ̇ᵀ[D^q]φ̇)φ̇) (resolved jerk, Freeman 3-44).
VecX resolvedJerk(const MatX& J, const Tensor3& Hq, const Tensor4& Dq, const VecX& phid, const VecX& phidd,
                  const VecX& qddd);

}  // namespace achain
