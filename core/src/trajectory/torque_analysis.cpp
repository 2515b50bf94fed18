#include <achain/trajectory/torque_analysis.hpp>

#include <memory>

#include <achain/dynamics/batch.hpp>
#include <achain/dynamics/rnea.hpp>

namespace achain {

InverseDynamicsFn makeInverseDynamics(const Model& m, const DynamicsOptions& options) {
  auto model = std::make_shared<const Model>(m);
  auto data = std::make_shared<Data>(*model);
  return [model, data, options](const VecX& q, const VecX& qd, const VecX& qdd, VecX& tau) {
    if (tau.size() != model->nv) tau.resize(model->nv);
    inverseDynamics(*model, *data, q, qd, qdd, options, tau);
  };
}

InverseDynamicsSeriesFn makeInverseDynamicsSeries(const Model& m, const DynamicsOptions& options) {
  auto model = std::make_shared<const Model>(m);
  auto data = std::make_shared<Data>(*model);
  return [model, data, options](int count, const double* q, const double* qd, const double* qdd, double* tau) {
    inverseDynamicsSeries(*model, *data, count, q, qd, qdd, options, tau);
  };
}

TrajectoryAnalysis analyzeTrajectory(const Model& m, const Trajectory& tr, const DynamicsOptions& options) {
  if (tr.dof() != m.nq) throw Error("trajectory: has " + std::to_string(tr.dof()) + " joints, robot '" + m.name + "' has " + std::to_string(m.nq));
  // Every sample in one batch call (dynamics/batch.hpp): the samples × joints matrices transposed are
  // state-major (sample k's joints contiguous), as the batch layout wants.
  const int n = m.nv, count = tr.samples();
  const MatX q = tr.q.transpose(), qd = tr.qd.transpose(), qdd = tr.qdd.transpose();
  MatX tau(n, count);
  Data data(m);
  inverseDynamicsSeries(m, data, count, q.data(), qd.data(), qdd.data(), options, tau.data());
  for (int k = 0; k < count; ++k)
    if (!tau.col(k).allFinite()) throw Error("inverse dynamics: non-finite torque at t = " + std::to_string(tr.t[k]) + " s");
  return analyzeTorques(m, tr, tau.transpose());
}

}  // namespace achain
