// Parallel mechanisms by model transfer (Freeman 1985 §IV.B; reference digest freeman-influence.md §4.3, App. E).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include <achain/dynamics/freeman.hpp>

namespace achain {

// ---- Parallel mechanisms: legs summed into a platform (Freeman §IV.B, 4-42…4-64; digest §4.3, App. E) ----
// Every leg r is an open chain (its own Model) with as many coordinates as the platform has freedoms
// (N = 3 in the plane: w = (x, y, θz) of the leg's tool; N = 6 in space: (x, y, z, ωx, ωy, ωz)), all
// legs' tools being the same platform point and frame. Each leg's model is transferred to w and summed:
//   [_rG^φ_w] = [_rG^w_φ]⁻¹, [_rH^φ_ww] (4-43…4-45);  I*_ww = I_ww + Σ_r _rI*_ww,  P*_www = P_www + Σ_r _rP*_www,
//   T^L_w = T^L_platform + Σ_r _rT^L_w  (4-46…4-49)
// with the platform's own terms (4-50…4-54) for a platform whose centroid is the w point: I_ww = diag(m, m, Izz)
// in the plane (P_www = 0), diag(m I₃, II) in space with planes 4–6 of P_www giving ω × IIω; its weight
// T^L_platform = (m g; 0), g the first leg's gravity (or the options' override).
// Actuated at one joint per row, q_n = _rφ_m: [G^q_w] row n = [_rG^φ_w] row m, [H^q_ww] plane n = [_rH^φ_ww]
// plane m (4-55…4-60); then I*_qq, P*_qqq, T^L_q by the transfer (4-61…4-64).

/// The platform's mass and centroidal inertia (world frame), centroid at the legs' common tool point.
struct PlatformInertia {
  double mass = 0;
  Mat3 inertia = Mat3::Zero();
};

struct ParallelModel {
  int N = 0;                          ///< platform freedoms (3 planar, 6 spatial)
  std::vector<MatX> Gphi_w;           ///< per leg [_rG^φ_w]  N×N
  std::vector<Tensor3> Hphi_ww;       ///< per leg [_rH^φ_ww] N×N×N
  std::vector<FreemanModel> legs_w;   ///< per leg _rI*_ww, _rP*_www, _rT^L_w
  std::vector<MatX> Gw_phi;           ///< per leg [_rG^w_φ]  N×N (the leg's own influence of w, 4-42)
  std::vector<Tensor3> Hw_phiphi;     ///< per leg [_rH^w_φφ] N×N×N
  std::vector<FreemanModel> legs_phi; ///< per leg _rI*_φφ, _rP*_φφφ, _rT^L_φ in its own joints
  FreemanModel w;                     ///< the summed model in w, platform included
};

/// Builds the parallel model. legs[r] with its Data datas[r] at coordinates q[r]; `planar` selects w = (x, y, θz).
/// Throws achain::Error naming the leg: a leg whose coordinate count is not N, a singular [_rG^w_φ].
void parallelModel(const std::vector<const Model*>& legs, std::vector<Data>& datas, const std::vector<VecX>& q,
                   bool planar, const PlatformInertia& platform, const DynamicsOptions& options, ParallelModel& out);

/// The rows of [G^q_w] and planes of [H^q_ww] for actuators at (leg r, coordinate m of that leg), any number Q of
/// them (4-56…4-60): Q = N for parallelActuate, Q > N for an over-constrained split (overconstrainedTransfer).
/// Throws achain::Error naming the entry ("actuated[2]: no joint 7 on leg 1").
void parallelActuationRows(const ParallelModel& pm, const std::vector<std::pair<int, int>>& actuated, MatX& Gq_w,
                           Tensor3& Hq_ww);

/// Actuation at one joint per entry (leg r, coordinate m of that leg), N entries (4-55…4-64).
void parallelActuate(const ParallelModel& pm, const std::vector<std::pair<int, int>>& actuated, MatX& Gq_w,
                     Tensor3& Hq_ww, FreemanModel& out);

}  // namespace achain
