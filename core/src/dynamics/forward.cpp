#include <achain/dynamics/forward.hpp>

#include "detail.hpp"

namespace achain {
namespace dyn_detail {
void crba(const Model& model, Data& data, const DynamicsOptions& options, Eigen::Ref<MatX> M);
}

void forwardDynamics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                     const Eigen::Ref<const VecX>& qd, const Eigen::Ref<const VecX>& tau,
                     const DynamicsOptions& options, Eigen::Ref<VecX> qdd) {
  using namespace dyn_detail;
  forwardKinematics(model, data, q);
  crba(model, data, options, data.dyn.M);
  data.dyn.zero.setZero();
  rnea(model, data, q, qd, data.dyn.zero, gravityVector(model, options), options.legs, Parts{}, data.dyn.tmp_a, false);
  addActuationTerms(model, data, qd, data.dyn.zero, options, data.dyn.tmp_a);
  data.dyn.tmp_b = tau - data.dyn.tmp_a;
  data.dyn.llt.compute(data.dyn.M);
  if (data.dyn.llt.info() != Eigen::Success)
    throw Error("forward dynamics: the mass matrix is not positive definite (a joint moves no mass)");
  qdd = data.dyn.tmp_b;
  data.dyn.llt.solveInPlace(qdd);
}

}  // namespace achain
