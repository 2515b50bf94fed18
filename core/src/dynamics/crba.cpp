#include <achain/dynamics/crba.hpp>

#include "detail.hpp"

namespace achain {
namespace dyn_detail {

using Mat6 = Eigen::Matrix<double, 6, 6>;


/// CRBA with FK already in ws.data (S_w/S_v are recomputed here).
void crba(const Model& model, DynamicsWorkspace& ws, const DynamicsOptions& options, Eigen::Ref<MatX> M) {
  const Data& d = ws.data;
  const int n = model.njoints();
  const auto& bodies = ws.bodies[static_cast<int>(options.legs)];
  for (int i = 0; i < n; ++i) {
    const Vec3 z = d.oMj[i].R.col(2);
    ws.S_w[i] = d.rot_rate[i] * z;
    ws.S_v[i] = d.oMj[i].p.cross(ws.S_w[i]) + d.axial_rate[i] * z;
    spatialInertiaAtOrigin(bodies[i], d.oMi[i], ws.Icomp[i]);
  }
  for (int i = n - 1; i >= 0; --i) {
    const int p = model.joints[i].parent;
    if (p >= 0) ws.Icomp[p] += ws.Icomp[i];
  }
  M.setZero();
  for (int i = 0; i < n; ++i) {
    const Mat6& I = ws.Icomp[i];
    const Vec3 Fn = I.topLeftCorner<3, 3>() * ws.S_w[i] + I.topRightCorner<3, 3>() * ws.S_v[i];
    const Vec3 Ff = I.bottomLeftCorner<3, 3>() * ws.S_w[i] + I.bottomRightCorner<3, 3>() * ws.S_v[i];
    const int ki = model.idx_q[i];
    M(ki, ki) = ws.S_w[i].dot(Fn) + ws.S_v[i].dot(Ff);
    for (int j = model.joints[i].parent; j >= 0; j = model.joints[j].parent) {
      const int kj = model.idx_q[j];
      M(kj, ki) = M(ki, kj) = ws.S_w[j].dot(Fn) + ws.S_v[j].dot(Ff);
    }
  }
  // Leg midpoints (Full): 2m/3 at (B+P)/2 with Jacobian ½(J_B + J_P).
  if (options.legs == LegModel::Full) {
    for (const DynLeg& L : ws.legs) {
      const Vec3 B = legBase(ws, L);
      const Vec3 P = d.oMi[L.joint].act(L.P);
      const Vec3 mid = 0.5 * (B + P);
      ws.J3.setZero();
      const int ki = model.idx_q[L.joint];
      ws.J3.col(ki) = 0.5 * (ws.S_v[L.joint] + ws.S_w[L.joint].cross(P));
      for (int j = L.parent; j >= 0; j = model.joints[j].parent)
        ws.J3.col(model.idx_q[j]) = ws.S_v[j] + ws.S_w[j].cross(mid);
      const double m = 2.0 * L.mass / 3.0;
      for (int a = L.joint; a >= 0; a = model.joints[a].parent)
        for (int b = L.joint; b >= 0; b = model.joints[b].parent) {
          const int ka = model.idx_q[a], kb = model.idx_q[b];
          M(ka, kb) += m * ws.J3.col(ka).dot(ws.J3.col(kb));
        }
    }
  }
  if (options.motors) addRotorInertias(model, M);
}

}  // namespace dyn_detail

void massMatrix(const Model& model, DynamicsWorkspace& ws, const Eigen::Ref<const VecX>& q,
                const DynamicsOptions& options, Eigen::Ref<MatX> M) {
  forwardKinematics(model, ws.data, q);
  dyn_detail::crba(model, ws, options, M);
}

}  // namespace achain
