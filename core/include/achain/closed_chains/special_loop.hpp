// Special single loops by the null space of the constraint (Freeman 1985 App. D, pp. 165–169; digest §4.2):
// loops whose constraint Jacobian [G^c_φ] is rank deficient at every configuration (the Bricard 6R: Grübler
// counts 0 freedoms, it has 1) or whose chosen coordinates carry an idle freedom (the spatial slider-crank's
// coupler spin δ, kept in every coordinate set). The closed chain's rates are the null space of the constraint:
//   0 = [G^c_φ] φ̇                                                            (D-1)
//   φ̇ = [G^φ_y] ẏ,  [G^φ_y] = N (E N)⁻¹, N a basis of null[G^c_φ], E the rows of the kept coordinates y   (D-2)
// and the second order from 0 = [G^c_φ] φ̈ + φ̇ᵀ[H^c_φφ]φ̇ with φ̈ = [G^φ_y] ÿ + ẏᵀ[H^φ_yy] ẏ and E [H^φ_yy] = 0:
//   [G^c_φ; E] [H^φ_yy]_{;a;b} = (−([G^φ_y]ᵀ[H^c_φφ][G^φ_y])_{a;b}; 0)      (solved in least squares; the residual
//                                                                            is the loop's second-order compatibility)
// The model in y (S_y) follows by virtual work, T_y = [G^φ_y]ᵀ T_φ:
//   I*_yy = Gᵀ I*_φφ G,  P*_yyy = (Gᵀ I*_φφ) ∘ [H^φ_yy] + Gᵀ (Gᵀ ∘ P*_φφφ) G,  T^L_y = Gᵀ T^L_φ   (G = [G^φ_y]).
// The constraint rows are chosen among the tool's six influence rows (0–2: translation x, y, z; 3–5: rotation
// about x, y, z; world frame): all six for a welded loop, (x, y, ωx, ωy, ωz) for a slider on the z-axis.
#pragma once
#include <vector>

#include <achain/closed_chains/loop_closure.hpp>
#include <achain/dynamics/freeman.hpp>

namespace achain {

// The loop is the one loop description, LoopClosure (loop_closure.hpp): the tool tied to `ground` along
// constrainedRows(loop) (its `rows`, or the kind's), `alpha` the joint coordinates kept as the loop's coordinates
// y (M − rank of them).

struct NullSpaceLoopModel {
  int M = 0;
  int rank = 0;                  ///< rank of [G^c_φ] at this configuration
  MatX Gc;                       ///< [G^c_φ]  R×M
  Tensor3 Hc;                    ///< [H^c_φφ] R×M×M
  MatX nullspace;                ///< M × (M − rank), orthonormal basis of null[G^c_φ] (D-1)
  MatX Gphi_y;                   ///< [G^φ_y]  M×Y (D-2)
  Tensor3 Hphi_yy;               ///< [H^φ_yy] M×Y×Y (symmetric planes)
  double compatibility = 0;      ///< largest second-order constraint residual left (≈ 0 where the loop moves)
  FreemanModel open;             ///< I*_φφ, P*_φφφ, T^L_φ of the open chain
  FreemanModel y;                ///< S_y = {I*_yy, P*_yyy, T^L_y}
};

/// The loop's model at a closed configuration q (closeNullSpaceLoop). Throws achain::Error with the rank when the
/// number of coordinates is not M − rank[G^c_φ], and when the coordinates cannot parametrize the null space here.
void nullSpaceLoopModel(const Model& model, Data& data, const LoopClosure& loop, const Eigen::Ref<const VecX>& q,
                        const Eigen::Ref<const VecX>& qd, const DynamicsOptions& options, NullSpaceLoopModel& out);

/// Closes the loop by Gauss–Newton (minimum-norm least-squares steps) on the joints that are not coordinates, the
/// coordinates held at their values in q. Works where [G^c_β] is rank deficient (the Bricard's 6 equations in 5
/// unknowns). Returns the iterations; throws "loop cannot close: …" when the residual does not vanish.
int closeNullSpaceLoop(const Model& model, Data& data, const LoopClosure& loop, Eigen::Ref<VecX> q, double tol = 1e-13,
                       int max_iter = 100);

}  // namespace achain
