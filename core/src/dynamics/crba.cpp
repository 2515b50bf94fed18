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
  // Leg midpoints (Full): a particle 2m/3 at mid = (B+P)/2 moves with Jacobian J = ½(J_B + J_P). Its columns on
  // the parent's path are those of a point rigid with the parent body at mid, so the particle joins the parent's
  // composite inertia; only the joint's own column c = ½(S_v + S_w×P) is added to M directly, against that path:
  // O(depth) per leg. (The outer product over the path, J3ᵀ·J3 per leg, was O(depth²): 15 s for fd on 1,000
  // A-pairs.) One pass per leg does both with one P and mid: M is zeroed first, and the composite pass below adds
  // into it.
  M.setZero();
  if (options.legs == LegModel::Full)
    for (const DynLeg& L : model.legs) {
      const Vec3 P = d.oMi[L.joint].act(L.P);
      const Vec3 mid = 0.5 * (legBase(data, L) + P);
      const double m = 2.0 * L.mass / 3.0;
      if (L.parent >= 0) {  // on the base, only the joint's column moves it
        Mat6& Ic = data.dyn.Icomp[L.parent];
        Ic.topLeftCorner<3, 3>() += m * (mid.squaredNorm() * Mat3::Identity() - mid * mid.transpose());
        Ic.block<3, 1>(3, 0) += m * mid;
        Ic(4, 3) += m;
      }
      const int kj = model.idx_q[L.joint];
      if (kj < 0) continue;
      const Vec3 c = 0.5 * (data.dyn.S_v[L.joint] + data.dyn.S_w[L.joint].cross(P));
      M(kj, kj) += m * c.squaredNorm();
      // Joints that follow one coordinate add into it (an entry met twice gets both halves of the cross term).
      for (int a = L.parent; a >= 0; a = model.joints[a].parent) {
        const int ka = model.idx_q[a];
        if (ka < 0) continue;
        const double x = m * c.dot(data.dyn.S_v[a] + data.dyn.S_w[a].cross(mid));
        M(kj, ka) += x;
        M(ka, kj) += x;
      }
    }
  for (int i = n - 1; i >= 0; --i) {
    const int p = model.joints[i].parent;
    if (p < 0) continue;
    data.dyn.Icomp[p].topLeftCorner<3, 3>() += data.dyn.Icomp[i].topLeftCorner<3, 3>();
    data.dyn.Icomp[p].block<3, 1>(3, 0) += data.dyn.Icomp[i].block<3, 1>(3, 0);
    data.dyn.Icomp[p](4, 3) += data.dyn.Icomp[i](4, 3);
  }
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
  if (options.motors) addRotorInertias(model, M);
}

}  // namespace dyn_detail

void massMatrix(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                const DynamicsOptions& options, Eigen::Ref<MatX> M) {
  forwardKinematics(model, data, q);
  dyn_detail::crba(model, data, options, M);
}

}  // namespace achain
