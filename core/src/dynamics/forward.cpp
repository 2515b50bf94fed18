#include <achain/dynamics/forward.hpp>

#include "detail.hpp"

namespace achain {
namespace dyn_detail {
void crba(const Model& model, DynamicsWorkspace& ws, const DynamicsOptions& options, Eigen::Ref<MatX> M);
}

void forwardDynamics(const Model& model, DynamicsWorkspace& ws, const Eigen::Ref<const VecX>& q,
                     const Eigen::Ref<const VecX>& qd, const Eigen::Ref<const VecX>& tau,
                     const DynamicsOptions& options, Eigen::Ref<VecX> qdd) {
  using namespace dyn_detail;
  forwardKinematics(model, ws.data, q);
  crba(model, ws, options, ws.M);
  ws.zero.setZero();
  rnea(model, ws, q, qd, ws.zero, gravityVector(model, options), options.legs, Parts{}, ws.tmp_a, false);
  addActuationTerms(model, ws, qd, ws.zero, options, ws.tmp_a);
  ws.tmp_b = tau - ws.tmp_a;
  ws.llt.compute(ws.M);
  if (ws.llt.info() != Eigen::Success)
    throw Error("forward dynamics: the mass matrix is not positive definite (a joint moves no mass)");
  qdd = ws.tmp_b;
  ws.llt.solveInPlace(qdd);
}

}  // namespace achain
