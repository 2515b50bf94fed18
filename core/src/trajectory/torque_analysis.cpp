#include <achain/trajectory/torque_analysis.hpp>

#include <memory>

#include <achain/dynamics/rnea.hpp>

namespace achain {

InverseDynamicsFn makeInverseDynamics(const Model& m, const DynamicsOptions& options) {
  auto model = std::make_shared<const Model>(m);
  auto ws = std::make_shared<Data>(*model);
  return [model, ws, options](const VecX& q, const VecX& qd, const VecX& qdd, VecX& tau) {
    if (tau.size() != model->nv) tau.resize(model->nv);
    inverseDynamics(*model, *ws, q, qd, qdd, options, tau);
  };
}

TrajectoryAnalysis analyzeTrajectory(const Model& m, const Trajectory& tr, const DynamicsOptions& options) {
  return analyzeTrajectory(m, tr, makeInverseDynamics(m, options));
}

}  // namespace achain
