#include <achain/dynamics/crba.hpp>

#include "detail.hpp"

namespace achain {
namespace dyn_detail {

using Mat6 = Eigen::Matrix<double, 6, 6>;


/// CRBA with FK already in data (S_w/S_v are recomputed here).
///
/// The composite inertia of subtree i about the world origin is [I_o, [h]×; −[h]×, m·1]: it is fully
/// described by I_o (3×3), the first moment h = Σ m·c and the mass m, and sums of subtrees sum these
/// 13 numbers. So the composite pass and the forces F = I·S work on (I_o, h, m) — kept in the
/// top-left block, rows 3–5 of column 0 and entry (4, 3) of Icomp[i] — instead of the 6×6: 13 adds per body
/// instead of 36, and F_n = I_o·S_w + h × S_v, F_f = S_w × h + m·S_v instead of four 3×3 products.
void crba(const Model& model, Data& data, const DynamicsOptions& options, Eigen::Ref<MatX> M) {
  checkData(model, data);
  const Data& d = data;
  const int n = model.njoints();
  const auto& bodies = model.bodies[static_cast<int>(options.legs)];
  for (int i = 0; i < n; ++i) {
    const Vec3 z = d.oMj[i].R.col(2);
    data.dyn.S_w[i] = d.rot_rate[i] * z;
    data.dyn.S_v[i] = d.oMj[i].p.cross(data.dyn.S_w[i]) + d.axial_rate[i] * z;
    Mat6& Ic = data.dyn.Icomp[i];
    Mat3 Io;
    Vec3 h;
    rotationalInertiaAtOrigin(bodies[i], d.oMi[i], Io, h);
    Ic.topLeftCorner<3, 3>() = Io;
    Ic.block<3, 1>(3, 0) = h;
    Ic(4, 3) = bodies[i].mass;
  }
  for (int i = n - 1; i >= 0; --i) {
    const int p = model.joints[i].parent;
    if (p < 0) continue;
    data.dyn.Icomp[p].topLeftCorner<3, 3>() += data.dyn.Icomp[i].topLeftCorner<3, 3>();
    data.dyn.Icomp[p].block<3, 1>(3, 0) += data.dyn.Icomp[i].block<3, 1>(3, 0);
    data.dyn.Icomp[p](4, 3) += data.dyn.Icomp[i](4, 3);
  }
  M.setZero();
  for (int i = 0; i < n; ++i) {
    const Mat6& I = data.dyn.Icomp[i];
    const Vec3 h = I.block<3, 1>(3, 0);
    const Vec3 Fn = I.topLeftCorner<3, 3>() * data.dyn.S_w[i] + h.cross(data.dyn.S_v[i]);
    const Vec3 Ff = data.dyn.S_w[i].cross(h) + I(4, 3) * data.dyn.S_v[i];
    // Joints that follow one coordinate (mimics) add into it; a fixed joint has no row or column.
    const int ki = model.idx_q[i];
    if (ki < 0) continue;
    M(ki, ki) += data.dyn.S_w[i].dot(Fn) + data.dyn.S_v[i].dot(Ff);
    for (int j = model.joints[i].parent; j >= 0; j = model.joints[j].parent) {
      const int kj = model.idx_q[j];
      if (kj < 0) continue;
      const double x = data.dyn.S_w[j].dot(Fn) + data.dyn.S_v[j].dot(Ff);
      M(kj, ki) += x;
      M(ki, kj) += x;
    }
  }
  // Leg midpoints (Full): 2m/3 at (B+P)/2 with Jacobian ½(J_B + J_P).
  if (options.legs == LegModel::Full) {
    for (const DynLeg& L : model.legs) {
      const Vec3 B = legBase(data, L);
      const Vec3 P = d.oMi[L.joint].act(L.P);
      const Vec3 mid = 0.5 * (B + P);
      data.dyn.J3.setZero();
      const int ki = model.idx_q[L.joint];
      if (ki >= 0) data.dyn.J3.col(ki) += 0.5 * (data.dyn.S_v[L.joint] + data.dyn.S_w[L.joint].cross(P));
      for (int j = L.parent; j >= 0; j = model.joints[j].parent)
        if (model.idx_q[j] >= 0) data.dyn.J3.col(model.idx_q[j]) += data.dyn.S_v[j] + data.dyn.S_w[j].cross(mid);
      const double m = 2.0 * L.mass / 3.0;
      // One pass per column: a joint whose coordinate an ancestor on the path already has is skipped.
      auto firstOfColumn = [&](int a) {
        const int k = model.idx_q[a];
        if (!model.coupled) return true;  // one column per joint
        if (k < 0) return false;
        for (int x = model.joints[a].parent; x >= 0; x = model.joints[x].parent)
          if (model.idx_q[x] == k) return false;
        return true;
      };
      for (int a = L.joint; a >= 0; a = model.joints[a].parent) {
        if (!firstOfColumn(a)) continue;
        for (int b = L.joint; b >= 0; b = model.joints[b].parent) {
          if (!firstOfColumn(b)) continue;
          const int ka = model.idx_q[a], kb = model.idx_q[b];
          M(ka, kb) += m * data.dyn.J3.col(ka).dot(data.dyn.J3.col(kb));
        }
      }
    }
  }
  if (options.motors) addRotorInertias(model, M);
}

}  // namespace dyn_detail

void massMatrix(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                const DynamicsOptions& options, Eigen::Ref<MatX> M) {
  forwardKinematics(model, data, q);
  dyn_detail::crba(model, data, options, M);
}

}  // namespace achain
