// Data: one thread's scratch for every algorithm, sized once from a Model.
#include <achain/model/data.hpp>

#include <achain/model/apair.hpp>

namespace achain {

namespace {

Mat3 shift(const Vec3& r) { return r.squaredNorm() * Mat3::Identity() - r * r.transpose(); }

/// Adds a point mass m at x (link frame) to body b.
void addPointMass(DynBody& b, double m, const Vec3& x) {
  if (m <= 0) return;
  const double M = b.mass + m;
  const Vec3 c = (b.mass * b.com + m * x) / M;
  b.inertia = b.inertia + b.mass * shift(b.com - c) + m * shift(x - c);
  b.com = c;
  b.mass = M;
}

}  // namespace

Data::Data(const Model& m)
    : nv(m.nv), njoints(m.njoints()), oMi(m.njoints()), oMj(m.njoints()), theta(m.njoints()), dz(m.njoints()),
      rot_rate(m.njoints()), axial_rate(m.njoints()), axial_curv(m.njoints()),
      axial_jerk(m.njoints()) {
  const int n = njoints;
  kin.path.resize(n);
  kin.J.resize(6, m.nv);
  for (auto* v : {&dyn.S_w, &dyn.S_v, &dyn.V_w, &dyn.V_v, &dyn.A_w, &dyn.A_v, &dyn.F_n, &dyn.F_f, &dyn.com_w}) v->assign(n, Vec3::Zero());
  dyn.Ic_w.assign(n, Mat3::Zero());
  dyn.mass.assign(n, 0.0);
  dyn.Icomp.assign(n, Eigen::Matrix<double, 6, 6>::Zero());
  dyn.U6.assign(n, Eigen::Matrix<double, 6, 1>::Zero());
  for (VecX* v : {&dyn.tmp_a, &dyn.tmp_b, &dyn.tmp_c, &dyn.tmp_d, &dyn.zero, &dyn.q_stage, &dyn.v_stage}) *v = VecX::Zero(nv);
  for (int k = 0; k < 4; ++k) {
    dyn.k_q[k] = VecX::Zero(nv);
    dyn.k_v[k] = VecX::Zero(nv);
  }
  dyn.M = MatX::Zero(nv, nv);
  dyn.J3 = MatX::Zero(3, nv);
  dyn.MinvJt = MatX::Zero(nv, 6);
  // Size the Cholesky scratch by factoring the identity: that also sets its status. Assigning
  // Eigen::LLT<MatX>(nv) instead copied an uninitialised ComputationInfo (UBSan: invalid enum load).
  dyn.llt.compute(MatX::Identity(nv, nv));
  ik.J = MatX::Zero(6, nv);
  ik.Jw = MatX::Zero(6, nv);
  ik.A = MatX::Zero(nv, nv);
  ik.Ar = MatX::Zero(nv, nv);
  ik.e = VecX::Zero(6);
  for (VecX* v : {&ik.g, &ik.dq, &ik.gr, &ik.dqr}) *v = VecX::Zero(nv);
  for (VecX* v : {&ik.q, &ik.qtry, &ik.qbest, &ik.best_start, &ik.qkeep, &ik.lo, &ik.hi}) *v = VecX::Zero(m.nq);
  ik.free_idx = Eigen::VectorXi::Zero(nv);
  ik.llt.compute(MatX::Identity(nv, nv));  // sized and initialised, as dyn.llt above

  // Legs: anchors in the parent's frame (B) and the link's frame (P).
  for (int i = 0; i < n; ++i) {
    const Joint& j = m.joints[i];
    if (!(j.leg_mass > 0)) continue;  // only A-pairs have legs (validated)
    const ApairAnchors A = apairAnchors(apairSideFromRho(j.rho));
    const double my = j.sign > 0 ? 1.0 : -1.0;
    const SE3 postInv = m.post[i].inverse();
    for (int k = 0; k < 6; ++k) {
      DynLeg L;
      L.joint = i;
      L.parent = j.parent;
      const Vec3 b(A.base[k].x(), my * A.base[k].y(), 0);
      const Vec3 p(A.platform[k].x(), my * A.platform[k].y(), -j.d);
      // Axis frame of joint i in its parent's frame: pre[i] (identity for standard DH).
      const Vec3 b_axis = rotZ(j.theta_f).act(b);
      L.B = j.parent < 0 ? (m.base * m.pre[i]).act(b_axis) : m.pre[i].act(b_axis);
      L.P = postInv.act(p);
      L.mass = j.leg_mass;
      dyn.legs.push_back(L);
    }
  }

  for (int v = 0; v < 4; ++v) {
    dyn.bodies[v].resize(n);
    for (int i = 0; i < n; ++i) {
      DynBody& b = dyn.bodies[v][i];
      b.mass = m.joints[i].link.mass;
      b.com = m.joints[i].link.com;
      b.inertia = m.joints[i].link.inertia;
    }
  }
  auto& lumped = dyn.bodies[static_cast<int>(LegModel::Lumped)];
  for (int i = 0; i < n; ++i) {
    const Joint& j = m.joints[i];
    if (!(j.leg_mass > 0)) continue;  // only A-pairs have legs (validated)
    DynBody& b = lumped[i];
    const double add = 6 * j.leg_mass;
    if (b.mass > 0) {
      const double f = (b.mass + add) / b.mass;
      b.mass *= f;
      b.inertia *= f;
    } else {
      b.mass = add;
    }
  }
  auto& full = dyn.bodies[static_cast<int>(LegModel::Full)];
  for (const DynLeg& L : dyn.legs) {
    addPointMass(full[L.joint], L.mass / 6, L.P);
    if (L.parent >= 0) addPointMass(full[L.parent], L.mass / 6, L.B);
  }
}

void checkData(const Model& model, const Data& data) {
  if (data.nv != model.nv || data.njoints != model.njoints())
    throw Error("data: made for a model with " + std::to_string(data.njoints) + " joints and " +
                std::to_string(data.nv) + " coordinates, used with " + std::to_string(model.njoints()) + " and " +
                std::to_string(model.nv));
}

}  // namespace achain
