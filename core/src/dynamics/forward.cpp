#include <achain/dynamics/forward.hpp>

#include <algorithm>
#include <string>

#include "detail.hpp"

namespace achain {
namespace dyn_detail {
void crba(const Model& model, Data& data, const DynamicsOptions& options, Eigen::Ref<MatX> M);

// The joint-limit stops of DynamicsOptions (options.hpp), added to τ − b; M is the CRBA mass matrix.
void addLimitStops(const Model& model, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& qd,
                   const Eigen::Ref<const MatX>& M, const DynamicsOptions& o, VecX& f) {
  if (!(o.stop_frequency > 0) || !std::isfinite(o.stop_frequency))
    throw Error("stop_frequency: must be a positive number of Hz (got " + std::to_string(o.stop_frequency) + ")");
  if (!(o.stop_damping_ratio >= 0) || !std::isfinite(o.stop_damping_ratio))
    throw Error("stop_damping_ratio: must be ≥ 0 (got " + std::to_string(o.stop_damping_ratio) + ")");
  const double w = 2 * kPi * o.stop_frequency;
  for (int c = 0; c < model.nv; ++c) {
    const JointLimits& L = model.joints[model.coord_joint[c]].limits;
    const double s = q[c] > L.upper ? 1.0 : q[c] < L.lower ? -1.0 : 0.0;
    if (s == 0) continue;
    const double depth = s > 0 ? q[c] - L.upper : L.lower - q[c];
    const double push = M(c, c) * (w * w * depth + 2 * o.stop_damping_ratio * w * s * qd[c]);
    f[c] -= s * std::max(0.0, push);
  }
}

}  // namespace dyn_detail

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
  if (options.limit_stops) addLimitStops(model, q, qd, data.dyn.M, options, data.dyn.tmp_b);
  data.dyn.llt.compute(data.dyn.M);
  if (data.dyn.llt.info() != Eigen::Success)
    throw Error("forward dynamics: the mass matrix is not positive definite (a joint moves no mass)");
  qdd = data.dyn.tmp_b;
  data.dyn.llt.solveInPlace(qdd);
}

}  // namespace achain
