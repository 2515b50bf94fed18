#include <achain/dynamics/aba.hpp>

#include "detail.hpp"
#include <achain/dynamics/rnea.hpp>

namespace achain {

using Vec6d = Eigen::Matrix<double, 6, 1>;
using Mat6d = Eigen::Matrix<double, 6, 6>;

void forwardDynamicsABA(const Model& model, DynamicsWorkspace& ws, const Eigen::Ref<const VecX>& q,
                        const Eigen::Ref<const VecX>& qd, const Eigen::Ref<const VecX>& tau,
                        const DynamicsOptions& options, Eigen::Ref<VecX> qdd) {
  using namespace dyn_detail;
  if (options.legs == LegModel::Full && !ws.legs.empty())
    throw Error("forward dynamics (ABA): the full leg model couples two bodies per leg; use the Cholesky method");
  Data& d = ws.data;
  forwardKinematics(model, d, q);
  const int n = model.njoints();
  const auto& bodies = ws.bodies[static_cast<int>(options.legs)];
  const Vec3 g = gravityVector(model, options);
  // Scratch: Icomp holds IA, F_n/F_f hold pA, A_w/A_v hold c (bias acceleration), then a.
  // U (6 per joint) and D, u live in the fixed-size arrays below (model depth ≤ workspace size).
  for (int i = 0; i < n; ++i) {
    const Joint& j = model.joints[i];
    const int k = model.idx_q[i];
    const Vec3 z = d.oMj[i].R.col(2);
    const Vec3 sw = d.rot_rate[i] * z;
    const Vec3 sv = d.oMj[i].p.cross(sw) + d.axial_rate[i] * z;
    ws.S_w[i] = sw;
    ws.S_v[i] = sv;
    const double v = qd[k];
    Vec3 pw = Vec3::Zero(), pv = Vec3::Zero();
    if (j.parent >= 0) {
      pw = ws.V_w[j.parent];
      pv = ws.V_v[j.parent];
    }
    ws.V_w[i] = pw + sw * v;
    ws.V_v[i] = pv + sv * v;
    ws.A_w[i] = pw.cross(sw) * v;
    ws.A_v[i] = (pw.cross(sv) + pv.cross(sw)) * v + (axialCurvature(j, q[k]) * v * v) * z;
    // Spatial inertia about the world origin.
    Mat6d& I = ws.Icomp[i];
    dyn_detail::spatialInertiaAtOrigin(bodies[i], d.oMi[i], I);
    Vec6d V;
    V << ws.V_w[i], ws.V_v[i];
    const Vec6d h = I * V;
    ws.F_n[i] = ws.V_w[i].cross(h.head<3>()) + ws.V_v[i].cross(h.tail<3>());
    ws.F_f[i] = ws.V_w[i].cross(h.tail<3>());
  }
  // Loads that bodies must supply: PE-only leg weights, the tool wrench.
  if (options.legs == LegModel::PotentialOnly) {
    for (const DynLeg& L : ws.legs) {
      const Vec3 half = -0.5 * L.mass * g;
      const Vec3 P = d.oMi[L.joint].act(L.P);
      ws.F_f[L.joint] += half;
      ws.F_n[L.joint] += P.cross(half);
      if (L.parent >= 0) {
        const Vec3 B = legBase(ws, L);
        ws.F_f[L.parent] += half;
        ws.F_n[L.parent] += B.cross(half);
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
    ws.F_f[t] += f;
    ws.F_n[t] += m + d.oMtool.p.cross(f);
  }
  // Friction as a known joint load.
  ws.tmp_c.setZero();
  if (options.friction) {
    DynamicsOptions o;
    o.friction = true;
    frictionTorques(model, qd, o, ws.tmp_c);
  }
  // Backward pass: articulated inertias IA (in Icomp), bias forces pA (in F_n/F_f); D in tmp_a, u in tmp_b.
  for (int i = n - 1; i >= 0; --i) {
    const Mat6d& IA = ws.Icomp[i];
    Vec6d S;
    S << ws.S_w[i], ws.S_v[i];
    const Vec6d U = IA * S;
    double D = S.dot(U);
    const Motor& mo = model.joints[i].motor;
    if (options.motors && mo.present) D += dyn_detail::reflectedInertia(mo);
    if (!(D > 1e-300)) throw Error("forward dynamics (ABA): joint " + std::to_string(i) + " moves no mass");
    const int k = model.idx_q[i];
    Vec6d pA;
    pA << ws.F_n[i], ws.F_f[i];
    const double u = tau[k] - ws.tmp_c[k] - S.dot(pA);
    ws.tmp_a[k] = D;
    ws.tmp_b[k] = u;
    ws.U6[i] = U;
    const int p = model.joints[i].parent;
    if (p >= 0) {
      const Mat6d Ia = IA - U * U.transpose() / D;
      Vec6d c;
      c << ws.A_w[i], ws.A_v[i];
      const Vec6d pa = pA + Ia * c + U * (u / D);
      ws.Icomp[p] += Ia;
      ws.F_n[p] += pa.head<3>();
      ws.F_f[p] += pa.tail<3>();
    }
  }
  // Forward pass: accelerations (base: (0, −g)).
  for (int i = 0; i < n; ++i) {
    const int p = model.joints[i].parent;
    Vec6d a;
    if (p < 0) a << Vec3::Zero(), -g;
    else a << ws.A_w[p], ws.A_v[p];  // A_w/A_v of p now hold its acceleration
    a.head<3>() += ws.A_w[i];
    a.tail<3>() += ws.A_v[i];
    const int k = model.idx_q[i];
    const double x = (ws.tmp_b[k] - ws.U6[i].dot(a)) / ws.tmp_a[k];
    qdd[k] = x;
    a.head<3>() += ws.S_w[i] * x;
    a.tail<3>() += ws.S_v[i] * x;
    ws.A_w[i] = a.head<3>();
    ws.A_v[i] = a.tail<3>();
  }
}

}  // namespace achain
