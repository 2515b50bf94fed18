#include <achain/dynamics/coriolis.hpp>

#include "detail.hpp"

namespace achain {

void coriolisMatrix(const Model& model, DynamicsWorkspace& ws, const Eigen::Ref<const VecX>& q,
                    const Eigen::Ref<const VecX>& qd, const DynamicsOptions& options, Eigen::Ref<MatX> C) {
  using namespace dyn_detail;
  forwardKinematics(model, ws.data, q);
  const Vec3 g0 = Vec3::Zero();
  ws.zero.setZero();
  const int n = model.nv;
  for (int j = 0; j < n; ++j) {
    ws.tmp_a = qd;
    ws.tmp_a[j] += 1.0;
    rnea(model, ws, q, ws.tmp_a, ws.zero, g0, options.legs, Parts{}, ws.tmp_b, false);
    ws.tmp_a = -qd;
    ws.tmp_a[j] += 1.0;
    rnea(model, ws, q, ws.tmp_a, ws.zero, g0, options.legs, Parts{}, ws.tmp_c, false);
    C.col(j) = 0.25 * (ws.tmp_b - ws.tmp_c);
  }
}

}  // namespace achain
