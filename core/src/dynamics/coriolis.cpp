#include <achain/dynamics/coriolis.hpp>

#include "detail.hpp"

namespace achain {

void coriolisMatrix(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                    const Eigen::Ref<const VecX>& qd, const DynamicsOptions& options, Eigen::Ref<MatX> C) {
  using namespace dyn_detail;
  forwardKinematics(model, data, q);
  const Vec3 g0 = Vec3::Zero();
  data.dyn.zero.setZero();
  const int n = model.nv;
  for (int j = 0; j < n; ++j) {
    data.dyn.tmp_a = qd;
    data.dyn.tmp_a[j] += 1.0;
    rnea(model, data, q, data.dyn.tmp_a, data.dyn.zero, g0, options.legs, Parts{}, data.dyn.tmp_b, false);
    data.dyn.tmp_a = -qd;
    data.dyn.tmp_a[j] += 1.0;
    rnea(model, data, q, data.dyn.tmp_a, data.dyn.zero, g0, options.legs, Parts{}, data.dyn.tmp_c, false);
    C.col(j) = 0.25 * (data.dyn.tmp_b - data.dyn.tmp_c);
  }
}

}  // namespace achain
