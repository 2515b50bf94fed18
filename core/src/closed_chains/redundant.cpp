// Redundant and over-constrained actuation (Freeman 1985 §IV.C, §IV.D); see redundant.hpp.
#include <achain/closed_chains/redundant.hpp>
#include <achain/closed_chains/loop_closure.hpp>

#include <achain/ik/ik.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/kinematics/influence.hpp>
#include <achain/kinematics/transfer.hpp>

#include "dynamics/influence_rows.hpp"

#include <algorithm>
#include <cmath>

namespace achain {

void redundantTransfer(const MatX& Gu_q, const Tensor3& Hu_qq, const FreemanModel& model_q, RedundantTransfer& out) {
  const int N = static_cast<int>(Gu_q.rows()), M = static_cast<int>(Gu_q.cols());
  if (N >= M || model_q.Istar.rows() != M || Hu_qq.planes() != N || Hu_qq.rows() != M)
    throw Error("redundant: [G^u_q] must be N×M with N < M, [H^u_qq] N×M×M and I*_qq M×M (got " + std::to_string(N) +
                "×" + std::to_string(M) + ")");
  Eigen::LLT<MatX> llt(model_q.Istar);
  if (llt.info() != Eigen::Success) throw Error("redundant: I*_qq is not positive definite");
  const MatX IinvGt = llt.solve(Gu_q.transpose());  // I*⁻¹Gᵀ
  const MatX Lambda_inv = Gu_q * IinvGt;            // G I*⁻¹ Gᵀ
  Eigen::FullPivLU<MatX> lu(Lambda_inv);
  lu.setThreshold(1e-12);
  if (lu.rank() < N)
    throw Error("redundant: [G^u_q] has rank " + std::to_string(lu.rank()) + " < " + std::to_string(N) +
                " at this configuration (the task cannot be driven)");
  out.Gq_u = IinvGt * lu.inverse();                                     // (4-70)
  Tensor3 tmp;
  dot(out.Gq_u, Hu_qq, tmp);                                            // [G^q_u] ∘ [H^u_qq]
  congruence(out.Gq_u, tmp, out.Gq_u, out.Hq_uu);                       // (4-72)
  for (int p = 0; p < out.Hq_uu.planes(); ++p) out.Hq_uu.plane(p) *= -1;
  out.Iqu = model_q.Istar * out.Gq_u;                                   // (4-74)
  dot(out.Iqu, Hu_qq, tmp);                                             // I*_qu ∘ [H^u_qq]  (M×M×M)
  for (int p = 0; p < M; ++p) tmp.plane(p) = model_q.Pstar.plane(p) - tmp.plane(p);
  congruence(out.Gq_u, tmp, out.Gq_u, out.Pquu);                        // (4-75)
}

void overconstrainedTransfer(const MatX& Gq_u, const FreemanModel& model_u, FreemanModel& out) {
  const int Q = static_cast<int>(Gq_u.rows()), N = static_cast<int>(Gq_u.cols());
  if (Q < N || model_u.Istar.rows() != N)
    throw Error("overconstrained: [G^q_u] must be Q×N with Q ≥ N and I*_uu N×N (got " + std::to_string(Q) + "×" +
                std::to_string(N) + ")");
  Eigen::FullPivLU<MatX> lu(Gq_u.transpose() * Gq_u);
  lu.setThreshold(1e-12);
  if (lu.rank() < N)
    throw Error("overconstrained: [G^q_u] has rank " + std::to_string(lu.rank()) + " < " + std::to_string(N) +
                ": the actuators cannot hold the body at this configuration");
  const MatX L = Gq_u * lu.inverse();  // [G^u_q]^{-LT} (4-86)
  out.Istar = L * model_u.Istar;       // (4-88)
  dot(L, model_u.Pstar, out.Pstar);    // (4-89)
  out.TL = L * model_u.TL;             // (4-90)
}

}  // namespace achain
