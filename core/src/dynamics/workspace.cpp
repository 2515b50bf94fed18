#include <achain/dynamics/workspace.hpp>

#include <achain/model/apair.hpp>
#include <achain/dynamics/options.hpp>

namespace achain {

LegModel legModelFromString(const std::string& s) {
  if (s == "massless") return LegModel::Massless;
  if (s == "lumped") return LegModel::Lumped;
  if (s == "full") return LegModel::Full;
  if (s == "potential" || s == "pe" || s == "potential-only" || s == "potentialonly") return LegModel::PotentialOnly;
  throw Error("legs: expected massless, lumped, full or potential (got '" + s + "')");
}

const char* toString(LegModel m) {
  switch (m) {
    case LegModel::Massless: return "massless";
    case LegModel::Lumped: return "lumped";
    case LegModel::Full: return "full";
    case LegModel::PotentialOnly: return "potential";
  }
  return "?";
}

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

DynamicsWorkspace::DynamicsWorkspace(const Model& m) : nv(m.nv), njoints(m.njoints()), data(m) {
  const int n = njoints;
  for (auto& v : {&S_w, &S_v, &V_w, &V_v, &A_w, &A_v, &F_n, &F_f, &com_w}) v->assign(n, Vec3::Zero());
  Ic_w.assign(n, Mat3::Zero());
  mass.assign(n, 0.0);
  Icomp.assign(n, Eigen::Matrix<double, 6, 6>::Zero());
  U6.assign(n, Eigen::Matrix<double, 6, 1>::Zero());
  for (VecX* v : {&tmp_a, &tmp_b, &tmp_c, &tmp_d, &zero, &q_stage, &v_stage}) *v = VecX::Zero(nv);
  for (int k = 0; k < 4; ++k) {
    k_q[k] = VecX::Zero(nv);
    k_v[k] = VecX::Zero(nv);
  }
  M = MatX::Zero(nv, nv);
  J3 = MatX::Zero(3, nv);
  llt = Eigen::LLT<MatX>(nv);

  // Legs: anchors in the parent's frame (B) and the link's frame (P).
  for (int i = 0; i < n; ++i) {
    const Joint& j = m.joints[i];
    if (j.kind != JointKind::A || j.leg_mass <= 0) continue;
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
      legs.push_back(L);
    }
  }

  for (int v = 0; v < 4; ++v) {
    bodies[v].resize(n);
    for (int i = 0; i < n; ++i) {
      DynBody& b = bodies[v][i];
      b.mass = m.joints[i].link.mass;
      b.com = m.joints[i].link.com;
      b.inertia = m.joints[i].link.inertia;
    }
  }
  auto& lumped = bodies[static_cast<int>(LegModel::Lumped)];
  for (int i = 0; i < n; ++i) {
    const Joint& j = m.joints[i];
    if (j.kind != JointKind::A || j.leg_mass <= 0) continue;
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
  auto& full = bodies[static_cast<int>(LegModel::Full)];
  for (const DynLeg& L : legs) {
    addPointMass(full[L.joint], L.mass / 6, L.P);
    if (L.parent >= 0) addPointMass(full[L.parent], L.mass / 6, L.B);
  }
}

void checkWorkspace(const Model& model, const DynamicsWorkspace& ws) {
  if (ws.nv != model.nv || ws.njoints != model.njoints())
    throw Error("workspace: made for a model with " + std::to_string(ws.nv) + " joints, used with " +
                std::to_string(model.nv));
}

}  // namespace achain
