// Parallel mechanisms by model transfer (Freeman 1985 §IV.B); see parallel.hpp for the equations.
#include <achain/closed_chains/parallel.hpp>
#include <achain/closed_chains/loop_closure.hpp>

#include <achain/ik/ik.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/kinematics/influence.hpp>
#include <achain/kinematics/transfer.hpp>

#include "closure_rows.hpp"
#include "dynamics/influence_rows.hpp"

#include <algorithm>
#include <cmath>

namespace achain {

void parallelModel(const std::vector<const Model*>& legs, std::vector<Data>& datas, const std::vector<VecX>& q,
                   bool planar, const PlatformInertia& platform, const DynamicsOptions& options, ParallelModel& out) {
  const ClosureKind space = planar ? ClosureKind::PlanarPin : ClosureKind::Pose;
  const int N = closureSpaceSize(space);
  if (legs.empty()) throw Error("parallel: no legs");
  if (datas.size() != legs.size() || q.size() != legs.size())
    throw Error("parallel: " + std::to_string(legs.size()) + " legs need as many Data and q (got " +
                std::to_string(datas.size()) + ", " + std::to_string(q.size()) + ")");
  out.N = N;
  out.Gphi_w.resize(legs.size());
  out.Hphi_ww.resize(legs.size());
  out.legs_w.resize(legs.size());
  out.Gw_phi.resize(legs.size());
  out.Hw_phiphi.resize(legs.size());
  out.legs_phi.resize(legs.size());
  // Platform terms (4-50…4-54).
  out.w.Istar.setZero(N, N);
  out.w.Pstar.resize(N, N, N);
  out.w.Pstar.setZero();
  out.w.TL.setZero(N);
  const Vec3 weight = platform.mass * options.gravityOf(legs[0]->gravity);  // at the centroid: no moment
  if (planar) {
    out.w.Istar.diagonal() << platform.mass, platform.mass, platform.inertia(2, 2);
    out.w.TL.head<2>() = weight.head<2>();
  } else {
    out.w.TL.head<3>() = weight;
    out.w.Istar.diagonal().head<3>().setConstant(platform.mass);
    out.w.Istar.bottomRightCorner<3, 3>() = platform.inertia;
    // plane 3+l: ẇᵀP ẇ = (ω × IIω)_l, [P_4] = [0 | i_z | −i_y], [P_5] = [−i_z | 0 | i_x], [P_6] = [i_y | −i_x | 0]
    const Mat3& I = platform.inertia;
    for (int l = 0; l < 3; ++l) {
      auto P = out.w.Pstar.plane(3 + l).bottomRightCorner<3, 3>();
      const int a = (l + 1) % 3, b = (l + 2) % 3;
      P.col(a) = I.col(b);
      P.col(b) = -I.col(a);
    }
  }
  Influence inf;
  for (size_t r = 0; r < legs.size(); ++r) {
    FreemanModel& open = out.legs_phi[r];
    MatX& Gw = out.Gw_phi[r];
    Tensor3& Hw = out.Hw_phiphi[r];
    const Model& m = *legs[r];
    const std::string leg = "parallel: leg " + std::to_string(r) + ": ";
    if (m.nv != N)
      throw Error(leg + "has " + std::to_string(m.nv) + " coordinates; a " + (planar ? "planar" : "spatial") +
                  " platform needs " + std::to_string(N) + " per leg");
    freemanModel(m, datas[r], q[r], VecX::Zero(N), options, open);
    toolInfluence(m, datas[r], inf, 2);
    detail::influenceRows(inf, N, [&](int i) { return detail::closureEndRow(space, i); }, Gw, Hw);
    const int rank = numericRank(Gw);
    if (rank < N)
      throw Error(leg + "[G^w_φ] is singular at this configuration (rank " + std::to_string(rank) + " of " +
                  std::to_string(N) + ")");
    reverseInfluence(Gw, Hw, out.Gphi_w[r], out.Hphi_ww[r]);  // (4-43…4-45)
    transferModel(open, Gw, Hw, out.legs_w[r]);              // (4-46), (4-47)
    out.w.Istar += out.legs_w[r].Istar;                      // (4-48)
    for (int k = 0; k < N; ++k) out.w.Pstar.plane(k) += out.legs_w[r].Pstar.plane(k);
    out.w.TL += out.legs_w[r].TL;
  }
}

void parallelActuationRows(const ParallelModel& pm, const std::vector<std::pair<int, int>>& actuated, MatX& Gq_w,
                           Tensor3& Hq_ww) {
  const int N = pm.N, Q = static_cast<int>(actuated.size());
  if (Q == 0) throw Error("actuated: no actuated joints given");
  Gq_w.resize(Q, N);
  Hq_ww.resize(Q, N, N);
  for (int n = 0; n < Q; ++n) {
    const int r = actuated[n].first, m = actuated[n].second;
    if (r < 0 || r >= static_cast<int>(pm.Gphi_w.size()) || m < 0 || m >= N)
      throw Error("actuated[" + std::to_string(n) + "]: no joint " + std::to_string(m) + " on leg " + std::to_string(r));
    Gq_w.row(n) = pm.Gphi_w[r].row(m);                       // (4-56…4-58)
    Hq_ww.plane(n) = pm.Hphi_ww[r].plane(m);                 // (4-59), (4-60)
  }
}

void parallelActuate(const ParallelModel& pm, const std::vector<std::pair<int, int>>& actuated, MatX& Gq_w,
                     Tensor3& Hq_ww, FreemanModel& out) {
  const int N = pm.N;
  if (static_cast<int>(actuated.size()) != N)
    throw Error("actuated: the platform has " + std::to_string(N) + " freedoms; " + std::to_string(actuated.size()) +
                " actuated joints given");
  parallelActuationRows(pm, actuated, Gq_w, Hq_ww);
  const int rank = numericRank(Gq_w);
  if (rank < N)
    throw Error("actuated: [G^q_w] is singular at this configuration (rank " + std::to_string(rank) + " of " +
                std::to_string(N) + ")");
  transferModel(pm.w, Gq_w, Hq_ww, out);  // (4-61…4-64)
}

}  // namespace achain
