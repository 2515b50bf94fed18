#include <achain/dynamics/aba.hpp>

#include "detail.hpp"
#include <achain/dynamics/rnea.hpp>

namespace achain {

using Vec6d = Eigen::Matrix<double, 6, 1>;
using Mat6d = Eigen::Matrix<double, 6, 6>;

void forwardDynamicsABA(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                        const Eigen::Ref<const VecX>& qd, const Eigen::Ref<const VecX>& tau,
                        const DynamicsOptions& options, Eigen::Ref<VecX> qdd) {
  using namespace dyn_detail;
  if (options.legs == LegModel::Full && !model.legs.empty())
    throw Error("forward dynamics (ABA): the full leg model couples two bodies per leg; use the Cholesky method");
  if (model.coupled)
    throw Error("forward dynamics (ABA): the model has fixed or mimic joints; use the Cholesky method");
  Data& d = data;
  forwardKinematics(model, d, q);
  const int n = model.njoints();
  const auto& bodies = model.bodies[static_cast<int>(options.legs)];
  const Vec3 g = gravityVector(model, options);
  // Scratch: Icomp holds IA, F_n/F_f hold pA, A_w/A_v hold c (bias acceleration), then a.
  // U (6 per joint) and D, u live in the fixed-size arrays below (model depth ≤ workspace size).
  for (int i = 0; i < n; ++i) {
    const Joint& j = model.joints[i];
    const int k = model.idx_q[i];
    const Vec3 z = d.oMj[i].R.col(2);
    const Vec3 sw = d.rot_rate[i] * z;
    const Vec3 sv = d.oMj[i].p.cross(sw) + d.axial_rate[i] * z;
    data.dyn.S_w[i] = sw;
    data.dyn.S_v[i] = sv;
    const double v = qd[k];
    Vec3 pw = Vec3::Zero(), pv = Vec3::Zero();
    if (j.parent >= 0) {
      pw = data.dyn.V_w[j.parent];
      pv = data.dyn.V_v[j.parent];
    }
    data.dyn.V_w[i] = pw + sw * v;
    data.dyn.V_v[i] = pv + sv * v;
    data.dyn.A_w[i] = pw.cross(sw) * v;
    data.dyn.A_v[i] = (pw.cross(sv) + pv.cross(sw)) * v + (d.axial_curv[i] * v * v) * z;
    // Spatial inertia about the world origin.
    Mat6d& I = data.dyn.Icomp[i];
    dyn_detail::spatialInertiaAtOrigin(bodies[i], d.oMi[i], I);
    Vec6d V;
    V << data.dyn.V_w[i], data.dyn.V_v[i];
    const Vec6d h = I * V;
    data.dyn.F_n[i] = data.dyn.V_w[i].cross(h.head<3>()) + data.dyn.V_v[i].cross(h.tail<3>());
    data.dyn.F_f[i] = data.dyn.V_w[i].cross(h.tail<3>());
  }
  // Loads that bodies must supply: PE-only leg weights, the tool wrench.
  if (options.legs == LegModel::PotentialOnly) {
    for (const DynLeg& L : model.legs) {
      const Vec3 half = -0.5 * L.mass * g;
      const Vec3 P = d.oMi[L.joint].act(L.P);
      data.dyn.F_f[L.joint] += half;
      data.dyn.F_n[L.joint] += P.cross(half);
      if (L.parent >= 0) {
        const Vec3 B = legBase(data, L);
        data.dyn.F_f[L.parent] += half;
        data.dyn.F_n[L.parent] += B.cross(half);
      }
    }
  }
  if (options.use_wrench) {
    Vec3 f = options.wrench.head<3>(), m = options.wrench.tail<3>();
    if (options.wrench_frame == WrenchFrame::Tool) {
      f = d.oMtool.R * f;
      m = d.oMtool.R * m;
    }
    const int t = model.toolLink();
    data.dyn.F_f[t] += f;
    data.dyn.F_n[t] += m + d.oMtool.p.cross(f);
  }
  // Friction as a known joint load.
  data.dyn.tmp_c.setZero();
  if (options.friction) {
    DynamicsOptions o;
    o.friction = true;
    frictionTorques(model, qd, o, data.dyn.tmp_c);
  }
  // Backward pass: articulated inertias IA (in Icomp), bias forces pA (in F_n/F_f); D in tmp_a, u in tmp_b.
  for (int i = n - 1; i >= 0; --i) {
    const Mat6d& IA = data.dyn.Icomp[i];
    Vec6d S;
    S << data.dyn.S_w[i], data.dyn.S_v[i];
    const Vec6d U = IA * S;
    double D = S.dot(U);
    const Motor& mo = model.joints[i].motor;
    if (options.motors && mo.present) D += dyn_detail::reflectedInertia(mo);
    if (!(D > 1e-300)) throw Error("forward dynamics (ABA): joint " + std::to_string(i) + " moves no mass");
    const int k = model.idx_q[i];
    Vec6d pA;
    pA << data.dyn.F_n[i], data.dyn.F_f[i];
    const double u = tau[k] - data.dyn.tmp_c[k] - S.dot(pA);
    data.dyn.tmp_a[k] = D;
    data.dyn.tmp_b[k] = u;
    data.dyn.U6[i] = U;
    const int p = model.joints[i].parent;
    if (p >= 0) {
      const Mat6d Ia = IA - U * U.transpose() / D;
      Vec6d c;
      c << data.dyn.A_w[i], data.dyn.A_v[i];
      const Vec6d pa = pA + Ia * c + U * (u / D);
      data.dyn.Icomp[p] += Ia;
      data.dyn.F_n[p] += pa.head<3>();
      data.dyn.F_f[p] += pa.tail<3>();
    }
  }
  // Forward pass: accelerations (base: (0, −g)).
  for (int i = 0; i < n; ++i) {
    const int p = model.joints[i].parent;
    Vec6d a;
    if (p < 0) a << Vec3::Zero(), -g;
    else a << data.dyn.A_w[p], data.dyn.A_v[p];  // A_w/A_v of p now hold its acceleration
    a.head<3>() += data.dyn.A_w[i];
    a.tail<3>() += data.dyn.A_v[i];
    const int k = model.idx_q[i];
    const double x = (data.dyn.tmp_b[k] - data.dyn.U6[i].dot(a)) / data.dyn.tmp_a[k];
    qdd[k] = x;
    a.head<3>() += data.dyn.S_w[i] * x;
    a.tail<3>() += data.dyn.S_v[i] * x;
    data.dyn.A_w[i] = a.head<3>();
    data.dyn.A_v[i] = a.tail<3>();
  }
}

}  // namespace achain
