#include <achain/flexibility/flexible_chain.hpp>

#include <Eigen/Cholesky>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

#include <achain/math/text.hpp>

#include "../dynamics/detail.hpp"

namespace achain {

namespace {

Mat3 skew(const Vec3& v) {
  Mat3 S;
  S << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return S;
}

/// exp(θ̃) and the left Jacobian J_l(θ) (d/dt exp(θ̃) = (J_l·θ̇)˜·exp(θ̃)).
void so3(const Vec3& th, Mat3& R, Mat3& Jl) {
  const double t = th.norm();
  const Mat3 S = skew(th);
  if (t < 1e-8) {
    R = Mat3::Identity() + S + 0.5 * S * S;
    Jl = Mat3::Identity() + 0.5 * S + S * S / 6.0;
    return;
  }
  const double s = std::sin(t), c = std::cos(t);
  R = Mat3::Identity() + (s / t) * S + ((1 - c) / (t * t)) * S * S;
  Jl = Mat3::Identity() + ((1 - c) / (t * t)) * S + ((t - s) / (t * t * t)) * S * S;
}

/// J (6×dof, rows v, ω at point a) moved to point b: v_b = v_a + ω × (b − a).
void shiftInto(const MatX& Ja, const Vec3& r, MatX& Jb) {
  Jb = Ja;
  for (Eigen::Index c = 0; c < Ja.cols(); ++c) {
    const Vec3 w = Ja.block<3, 1>(3, c);
    Jb.block<3, 1>(0, c) += w.cross(r);
  }
}

/// Adds the modal columns of flexible link k (joint p's link) for a point r distal to its tip.
void addModalColumns(const FlexibleChain& chain, const FlexibleChainData& data, int p, const Vec3& r, MatX& J) {
  const int k = chain.flex_of_joint[p];
  const Mat3& R = data.oMi[p].R;
  const Mat3& Rw = data.tip_rot[p];
  const Vec3 arm = r - data.tip[p];
  for (Eigen::Index j = 0; j < chain.tip_translation[k].cols(); ++j) {
    const Vec3 w = Rw * chain.tip_rotation[k].col(j);
    const int c = chain.offset[k] + static_cast<int>(j);
    J.block<3, 1>(0, c) += R * chain.tip_translation[k].col(j) + w.cross(arm);
    J.block<3, 1>(3, c) += w;
  }
}

/// The frame a child of joint p (or the tool on p's link) hangs from: p's link frame, moved by p's tip deflection.
SE3 attachment(const FlexibleChain& chain, const FlexibleChainData& data, int p, const Eigen::Ref<const VecX>& phi) {
  if (p < 0) return data.base;
  const int k = chain.flex_of_joint[p];
  if (k < 0) return data.oMi[p];
  const double L = chain.links[k].length;
  // X_link · Tip · D · Tip⁻¹: x ↦ L + d + R_D (x − L)
  Mat3 RD, Jl;
  so3(data.theta[p], RD, Jl);
  const Vec3 tipL(L, 0, 0);
  const Vec3 d = chain.tip_translation[k] * phi.segment(chain.offset[k], chain.tip_translation[k].cols());
  SE3 D{RD, tipL + d - RD * tipL};
  return data.oMi[p] * D;
}

}  // namespace

FlexibleChain makeFlexibleChain(const Model& model, const std::vector<FlexibleLinkEntry>& links,
                                const FlexibleChainOptions& options) {
  FlexibleChain c;
  if (options.translating_base) {
    if (!(options.base_mass > 0) || !std::isfinite(options.base_mass))
      throw Error("flexible chain: a translating base needs a positive, finite base_mass (got " + std::to_string(options.base_mass) + ")");
    c.nb = 3;
    c.base_mass = options.base_mass;
  }
  c.rigid = &model;
  c.nv = model.nv;
  c.flex_of_joint.assign(model.njoints(), -1);
  int off = model.nv;
  for (size_t k = 0; k < links.size(); ++k) {
    const FlexibleLinkEntry& e = links[k];
    const std::string name = "flexible link " + std::to_string(k);
    if (e.joint < 0 || e.joint >= model.njoints())
      throw Error(name + ": joint index " + std::to_string(e.joint) + " out of range (0…" + std::to_string(model.njoints() - 1) + ")");
    if (c.flex_of_joint[e.joint] >= 0) throw Error(name + ": joint " + std::to_string(e.joint) + " already has a flexible link");
    if (k > 0 && e.joint < links[k - 1].joint) throw Error(name + ": entries must be in joint order");
    c.flex_of_joint[e.joint] = static_cast<int>(k);
    c.links.push_back(e.link);
    c.joint.push_back(e.joint);
    try {
      c.matrices.push_back(flexibleLinkMatrices(e.link));
      c.matrices.back().checkLocalInertia();
    } catch (const Error& err) {
      throw Error(name + " (joint '" + model.joints[e.joint].name + "'): " + err.what());
    }
    const int m = static_cast<int>(e.link.modes.size());
    c.offset.push_back(off);
    off += m;
    MatX T = MatX::Zero(3, m), Rt = MatX::Zero(3, m);
    for (int j = 0; j < m; ++j) {
      const AssumedMode& md = e.link.modes[j];
      double f1 = 0;  // f(1): the tip value (polynomial sum, or the table's last value)
      if (md.u_samples.empty())
        for (double a : md.coefficients) f1 += a;
      else
        f1 = md.values.back();
      switch (md.direction) {
        case ModeDirection::Y: T(1, j) = f1; break;
        case ModeDirection::Z: T(2, j) = f1; break;
        case ModeDirection::Torsion: Rt(0, j) = f1; break;
      }
    }
    c.tip_translation.push_back(T);
    c.tip_rotation.push_back(Rt);
  }
  c.nf = off - c.nv;
  c.dof = off + c.nb;
  c.K = MatX::Zero(c.dof, c.dof);
  for (size_t k = 0; k < c.links.size(); ++k) {
    const Eigen::Index nm = c.matrices[k].K.rows();
    c.K.block(c.offset[k], c.offset[k], nm, nm) = c.matrices[k].K;
  }
  return c;
}

FlexibleChainData::FlexibleChainData(const FlexibleChain& chain) {
  const int n = chain.model().njoints();
  oMi.resize(n);
  oMj.resize(n);
  tip.assign(n, Vec3::Zero());
  tip_rot.assign(n, Mat3::Identity());
  theta.assign(n, Vec3::Zero());
  J.assign(n, MatX::Zero(6, chain.dof));
  J_tool = MatX::Zero(6, chain.dof);
  I = MatX::Zero(chain.dof, chain.dof);
  work = MatX::Zero(6, chain.dof);
  Ia = Ib = I;
  p = v = c = VecX::Zero(chain.dof);
  for (int k = 0; k < 4; ++k) a[k] = w[k] = p;
  llt = Eigen::LLT<MatX>(chain.dof);
  llt_f = Eigen::LLT<MatX>(chain.dof - chain.nv);
}

void flexibleKinematics(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& phi) {
  const Model& m = chain.model();
  if (phi.size() != chain.dof)
    throw Error("flexible chain: phi must have " + std::to_string(chain.dof) + " entries (" + std::to_string(chain.nv) +
                " joint + " + std::to_string(chain.nf) + " modal + " + std::to_string(chain.nb) + " base), got " +
                std::to_string(phi.size()));
  const Eigen::Ref<const VecX>& ph = phi;
  data.base = m.base;
  if (chain.nb) data.base.p += ph.tail(3);
  for (int i = 0; i < m.njoints(); ++i) {
    const Joint& jt = m.joints[i];
    const JointModel& jm = m.jmodels[i];
    JointState js;
    jm.evaluate(jm.coord < 0 ? 0.0 : ph[jm.coord], js);
    jm.placeLink(attachment(chain, data, jt.parent, ph), js, data.oMj[i], data.oMi[i]);
    const int k = chain.flex_of_joint[i];
    if (k >= 0) {
      const auto q = ph.segment(chain.offset[k], chain.tip_translation[k].cols());
      data.theta[i] = chain.tip_rotation[k] * q;
      Mat3 RD, Jl;
      so3(data.theta[i], RD, Jl);
      data.tip_rot[i] = data.oMi[i].R * Jl;
      data.tip[i] = data.oMi[i].act(Vec3(chain.links[k].length, 0, 0) + chain.tip_translation[k] * q);
    }
  }
  data.oMtool = attachment(chain, data, m.toolLink(), ph) * m.tool;
}

void flexibleJacobians(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& phi) {
  flexibleKinematics(chain, data, phi);
  const Model& m = chain.model();
  for (int i = 0; i < m.njoints(); ++i) {
    const int p = m.joints[i].parent;
    MatX& J = data.J[i];
    const Vec3& o = data.oMi[i].p;
    if (p < 0) {
      J.setZero();
      if (chain.nb) J.block(0, chain.dof - 3, 3, 3).setIdentity();
    } else shiftInto(data.J[p], o - data.oMi[p].p, J);
    if (p >= 0 && chain.flex_of_joint[p] >= 0) addModalColumns(chain, data, p, o, J);
    const JointModel& jm = m.jmodels[i];
    if (jm.coord >= 0) {
      JointState js;
      jm.evaluate(phi[jm.coord], js);
      const Vec3 z = data.oMj[i].R.col(2);
      J.block<3, 1>(0, jm.coord) += js.axial_rate * z + js.rot_rate * z.cross(o - data.oMj[i].p);
      J.block<3, 1>(3, jm.coord) += js.rot_rate * z;
    }
  }
  const int t = m.toolLink();
  shiftInto(data.J[t], data.oMtool.p - data.oMi[t].p, data.J_tool);
  if (chain.flex_of_joint[t] >= 0) addModalColumns(chain, data, t, data.oMtool.p, data.J_tool);
}

void flexibleMassMatrix(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& phi) {
  flexibleJacobians(chain, data, phi);
  const Model& m = chain.model();
  MatX& I = data.I;
  I.setZero();
  Eigen::Matrix<double, 6, 6> W;
  for (int i = 0; i < m.njoints(); ++i) {
    const Inertial& b = m.joints[i].link;
    const Mat3& R = data.oMi[i].R;
    const Vec3 c = R * b.com;
    const Mat3 C = skew(c);
    W.topLeftCorner<3, 3>() = b.mass * Mat3::Identity();
    W.topRightCorner<3, 3>() = b.mass * C.transpose();
    W.bottomLeftCorner<3, 3>() = b.mass * C;
    W.bottomRightCorner<3, 3>() = R * b.inertia * R.transpose() + b.mass * (c.dot(c) * Mat3::Identity() - c * c.transpose());
    const MatX& J = data.J[i];
    data.work.noalias() = W * J;
    I.noalias() += J.transpose() * data.work;
    const int k = chain.flex_of_joint[i];
    if (k < 0) continue;
    const FlexibleLinkMatrices& fm = chain.matrices[k];
    const Eigen::Index nm = fm.I_qq.rows();
    const int off = chain.offset[k];
    // coupling: [v; ω]ᵀ·[R·I_mq; R·I_Lq]·q̇ (twice, symmetric), and q̇ᵀ·I_qq·q̇
    MatX& Wc = data.Wc;
    MatX& C2 = data.C2;
    Wc.resize(6, nm);  // no reallocation when the size repeats
    C2.resize(chain.dof, nm);
    Wc.topRows(3).noalias() = R * fm.I_mq;
    Wc.bottomRows(3).noalias() = R * fm.I_Lq;
    C2.noalias() = J.transpose() * Wc;  // dof×m
    I.middleCols(off, nm) += C2;
    I.middleRows(off, nm) += C2.transpose();
    I.block(off, off, nm, nm) += fm.I_qq;
  }
  if (chain.nb) I.bottomRightCorner(3, 3).diagonal().array() += chain.base_mass;
}

Vec3 flexibleCenterOfMass(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& phi,
                          MatX* jacobian) {
  flexibleJacobians(chain, data, phi);
  const Model& m = chain.model();
  double mass = chain.base_mass;
  Vec3 moment = chain.base_mass * data.base.p;  // first moment of mass
  if (jacobian) {
    jacobian->setZero(3, chain.dof);
    if (chain.nb) jacobian->rightCols(3) = chain.base_mass * Mat3::Identity();
  }
  for (int i = 0; i < m.njoints(); ++i) {
    const Inertial& b = m.joints[i].link;
    const SE3& X = data.oMi[i];
    Vec3 s = b.mass * (X.R * b.com);  // first moment about the link origin
    const int k = chain.flex_of_joint[i];
    if (k >= 0) s += X.R * (chain.matrices[k].I_mq * phi.segment(chain.offset[k], chain.matrices[k].I_mq.cols()));
    mass += b.mass;
    moment += b.mass * X.p + s;
    if (!jacobian) continue;
    const MatX& J = data.J[i];
    // d/dt (m·p + s) = m·v + ω × s (+ R·I_mq·q̇ for a flexible link)
    jacobian->noalias() += b.mass * J.topRows<3>() - skew(s) * J.bottomRows<3>();
    if (k >= 0) jacobian->middleCols(chain.offset[k], chain.matrices[k].I_mq.cols()) += X.R * chain.matrices[k].I_mq;
  }
  if (!(mass > 0)) throw Error("flexibleCenterOfMass: the chain has no mass");
  if (jacobian) *jacobian /= mass;
  return moment / mass;
}

MatX flexibleStiffness(const FlexibleChain& chain) { return chain.K; }

FlexibleDeflection flexibleDeflection(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& phi) {
  if (phi.size() != chain.dof) flexibleKinematics(chain, data, phi);  // throws naming the size
  VecX rigid = phi;
  rigid.segment(chain.nv, chain.nf).setZero();
  flexibleKinematics(chain, data, rigid);
  const SE3 T0 = data.oMtool;
  flexibleKinematics(chain, data, phi);
  FlexibleDeflection d;
  d.tool_displacement = data.oMtool.p - T0.p;
  d.tool_position_error = d.tool_displacement.norm();
  d.tool_rotation_error = Eigen::AngleAxisd(T0.R.transpose() * data.oMtool.R).angle();
  for (int j : chain.joint) {
    const double a = data.theta[j].norm();
    if (a > d.max_link_rotation || d.max_rotation_joint < 0) {
      d.max_link_rotation = a;
      d.max_rotation_joint = j;
    }
  }
  d.above_3deg = d.max_link_rotation > 3 * kDeg;
  d.above_5deg = d.max_link_rotation > 5 * kDeg;
  return d;
}

namespace {
VecX undeflected(const FlexibleChain& chain, const Eigen::Ref<const VecX>& q) {
  if (q.size() != chain.nv)
    throw Error("flexible chain: q must have " + std::to_string(chain.nv) + " joint values, got " + std::to_string(q.size()));
  if (chain.nf == 0) throw Error("flexible chain: the chain has no flexible link (no modal coordinates)");
  VecX phi = VecX::Zero(chain.dof);
  phi.head(chain.nv) = q;
  return phi;
}
}  // namespace

NaturalModes flexibleChainModes(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& q) {
  const VecX phi = undeflected(chain, q);
  flexibleMassMatrix(chain, data, phi);
  const MatX& K = chain.K;
  const int n = chain.dof - chain.nv;
  return naturalModes(K.bottomRightCorner(n, n), data.I.bottomRightCorner(n, n),
                      "flexible chain modes (joints locked)");
}

FlexibleStaticResult flexibleStaticDeflection(const FlexibleChain& chain, FlexibleChainData& data,
                                              const Eigen::Ref<const VecX>& q, const Vec3& force, const Vec3& moment) {
  if (!force.allFinite() || !moment.allFinite()) throw Error("flexible static deflection: the force and moment must be finite");
  if (chain.nb) throw Error("flexible static deflection: a translating base has no static equilibrium under a load");
  FlexibleStaticResult r;
  r.phi = undeflected(chain, q);
  flexibleJacobians(chain, data, r.phi);
  Eigen::Matrix<double, 6, 1> w;
  w << force, moment;
  const VecX tau = data.J_tool.middleCols(chain.nv, chain.nf).transpose() * w;
  const MatX K = chain.K.bottomRightCorner(chain.nf, chain.nf);
  Eigen::LDLT<MatX> ldlt(K);
  if (ldlt.info() != Eigen::Success || ldlt.vectorD().minCoeff() <= 0)
    throw Error("flexible static deflection: the modal stiffness is singular (a mode without stiffness)");
  r.modal = ldlt.solve(tau);
  r.phi.segment(chain.nv, chain.nf) = r.modal;
  r.deflection = flexibleDeflection(chain, data, r.phi);
  return r;
}

namespace {
constexpr double kStep = 1e-6;  // central-difference step for ∂I*/∂φ (rad, m)

void checkSizes(const FlexibleChain& chain, const Eigen::Ref<const VecX>& a, const char* what) {
  if (a.size() != chain.dof)
    throw Error(std::string("flexible chain: ") + what + " must have " + std::to_string(chain.dof) + " entries, got " +
                std::to_string(a.size()));
  if (!a.allFinite()) throw Error(std::string("flexible chain: ") + what + " is not finite");
}
}  // namespace

void flexibleBiasForces(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& phi,
                        const Eigen::Ref<const VecX>& phidot, Eigen::Ref<VecX> c) {
  checkSizes(chain, phi, "phi");
  checkSizes(chain, phidot, "phidot");
  VecX& p = data.p;
  // −½·∂(φ̇ᵀI*φ̇)/∂φ_a
  for (int a = 0; a < chain.dof; ++a) {
    p = phi;
    p[a] += kStep;
    flexibleMassMatrix(chain, data, p);
    const double plus = phidot.dot(data.I * phidot);
    p[a] = phi[a] - kStep;
    flexibleMassMatrix(chain, data, p);
    const double minus = phidot.dot(data.I * phidot);
    c[a] = -0.25 * (plus - minus) / kStep;
  }
  // + İ*·φ̇, İ* the derivative along φ̇
  const double speed = phidot.norm();
  if (speed == 0) return;
  p = phi + (kStep / speed) * phidot;
  flexibleMassMatrix(chain, data, p);
  data.Ia = data.I;
  p = phi - (kStep / speed) * phidot;
  flexibleMassMatrix(chain, data, p);
  data.Ia -= data.I;
  c.noalias() += (speed / (2 * kStep)) * (data.Ia * phidot);
}

void flexibleInverseDynamics(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& phi,
                             const Eigen::Ref<const VecX>& phidot, const Eigen::Ref<const VecX>& phiddot,
                             Eigen::Ref<VecX> tau) {
  checkSizes(chain, phiddot, "phiddot");
  flexibleBiasForces(chain, data, phi, phidot, data.c);
  flexibleMassMatrix(chain, data, phi);
  tau.noalias() = data.I * phiddot;
  tau += data.c;
  tau.noalias() += chain.K * phi;
}

void flexibleForwardDynamics(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& phi,
                             const Eigen::Ref<const VecX>& phidot, const Eigen::Ref<const VecX>& tau,
                             Eigen::Ref<VecX> phiddot, bool lock_joints) {
  checkSizes(chain, tau, "tau");
  if (lock_joints && chain.nv > 0 && phidot.head(chain.nv).cwiseAbs().maxCoeff() > 0)
    throw Error("flexible chain: with the joints locked their rates must be zero");
  flexibleBiasForces(chain, data, phi, phidot, data.c);
  flexibleMassMatrix(chain, data, phi);
  phiddot = tau - data.c;
  phiddot.noalias() -= chain.K * phi;
  if (lock_joints) {
    phiddot.head(chain.nv).setZero();
    const int n = chain.dof - chain.nv;
    data.llt_f.compute(data.I.bottomRightCorner(n, n));
    if (data.llt_f.info() != Eigen::Success) throw Error("flexible chain: I*_ff is not positive definite at this state");
    auto f = phiddot.tail(n);
    data.llt_f.solveInPlace(f);
    return;
  }
  data.llt.compute(data.I);
  if (data.llt.info() != Eigen::Success) throw Error("flexible chain: I* is not positive definite at this state");
  data.llt.solveInPlace(phiddot);
}

double flexibleEnergy(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& phi,
                      const Eigen::Ref<const VecX>& phidot) {
  checkSizes(chain, phidot, "phidot");
  flexibleMassMatrix(chain, data, phi);
  return 0.5 * phidot.dot(data.I * phidot) + 0.5 * phi.dot(chain.K * phi);
}

void flexibleStep(const FlexibleChain& chain, FlexibleChainData& data, Eigen::Ref<VecX> phi, Eigen::Ref<VecX> phidot,
                  const Eigen::Ref<const VecX>& tau, double dt, bool lock_joints) {
  if (!(dt > 0) || !std::isfinite(dt)) throw Error("flexible chain: the step dt must be positive and finite");
  // stages: position p_k, velocity w_k, acceleration a_k
  VecX &p = data.v;  // data.p is used by the bias forces
  data.w[0] = phidot;
  flexibleForwardDynamics(chain, data, phi, data.w[0], tau, data.a[0], lock_joints);
  p = phi + 0.5 * dt * data.w[0];
  data.w[1] = phidot + 0.5 * dt * data.a[0];
  flexibleForwardDynamics(chain, data, p, data.w[1], tau, data.a[1], lock_joints);
  p = phi + 0.5 * dt * data.w[1];
  data.w[2] = phidot + 0.5 * dt * data.a[1];
  flexibleForwardDynamics(chain, data, p, data.w[2], tau, data.a[2], lock_joints);
  p = phi + dt * data.w[2];
  data.w[3] = phidot + dt * data.a[2];
  flexibleForwardDynamics(chain, data, p, data.w[3], tau, data.a[3], lock_joints);
  phi += dt / 6 * (data.w[0] + 2 * data.w[1] + 2 * data.w[2] + data.w[3]);
  phidot += dt / 6 * (data.a[0] + 2 * data.a[1] + 2 * data.a[2] + data.a[3]);
}

double flexibleStableStep(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& phi,
                          bool lock_joints) {
  flexibleMassMatrix(chain, data, phi);
  const int n0 = lock_joints ? chain.nv : 0, n = chain.dof - n0;
  const NaturalModes m = naturalModes(chain.K.bottomRightCorner(n, n), data.I.bottomRightCorner(n, n), "flexibleStableStep");
  const double w = m.omega.size() ? m.omega.maxCoeff() : 0;
  if (!(w > 0)) throw Error("flexibleStableStep: no stiffness (the chain has no flexible link)");
  return 2 * kPi / w / 20;
}

std::vector<std::string> flexibleCoordinateNames(const FlexibleChain& chain, bool base) {
  std::vector<std::string> names;
  for (size_t k = 0; k < chain.links.size(); ++k)
    for (size_t j = 0; j < chain.links[k].modes.size(); ++j)
      names.push_back(chain.model().joints[chain.joint[k]].name + " q" + std::to_string(j + 1) + " (" +
                      toString(chain.links[k].modes[j].direction) + ")");
  if (chain.nb && base)
    for (const char* a : {"base x", "base y", "base z"}) names.emplace_back(a);
  return names;
}

FlexibleLinkCurve flexibleLinkCurve(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& phi,
                                    int joint, int samples) {
  if (joint < 0 || joint >= static_cast<int>(chain.flex_of_joint.size()) || chain.flex_of_joint[joint] < 0)
    throw Error("flexibleLinkCurve: joint " + std::to_string(joint) + " carries no flexible link");
  if (samples < 2 || samples > 100000) throw Error("flexibleLinkCurve: samples must be 2 … 100000 (got " + std::to_string(samples) + ")");
  const int k = chain.flex_of_joint[joint];
  const FlexibleLink& link = chain.links[k];
  FlexibleLinkCurve c;
  for (int s = 0; s < samples; ++s) c.u.push_back(s == samples - 1 ? 1.0 : static_cast<double>(s) / (samples - 1));
  // local points: rigid (u·L, 0, 0); deflected adds Σ_j δ_j(u)·q_j (y and z modes; torsion leaves the axis)
  MatX local = MatX::Zero(3, samples);
  for (int s = 0; s < samples; ++s) local(0, s) = c.u[s] * link.length;
  if (phi.size() != chain.dof) flexibleKinematics(chain, data, phi);  // throws naming the size
  VecX rigid = phi;
  rigid.segment(chain.nv, chain.nf).setZero();
  flexibleKinematics(chain, data, rigid);
  c.rigid.resize(3, samples);
  for (int s = 0; s < samples; ++s) c.rigid.col(s) = data.oMi[joint].act(Vec3(local.col(s)));
  for (size_t j = 0; j < link.modes.size(); ++j) {
    const AssumedMode& md = link.modes[j];
    if (md.direction == ModeDirection::Torsion) continue;
    const std::vector<double> f = modeShapeValues(md, c.u);
    const int row = md.direction == ModeDirection::Y ? 1 : 2;
    for (int s = 0; s < samples; ++s) local(row, s) += f[s] * phi[chain.offset[k] + static_cast<int>(j)];
  }
  flexibleKinematics(chain, data, phi);
  c.deflected.resize(3, samples);
  for (int s = 0; s < samples; ++s) c.deflected.col(s) = data.oMi[joint].act(Vec3(local.col(s)));
  return c;
}

const char* toString(FlexibleLoadKind k) {
  switch (k) {
    case FlexibleLoadKind::Step: return "step";
    case FlexibleLoadKind::Pulse: return "pulse";
    case FlexibleLoadKind::Sine: return "sine";
  }
  return "?";
}

FlexibleLoadKind flexibleLoadKindFromString(const std::string& s) {
  for (FlexibleLoadKind k : {FlexibleLoadKind::Step, FlexibleLoadKind::Pulse, FlexibleLoadKind::Sine})
    if (s == toString(k)) return k;
  throw Error("load: expected step, pulse or sine (got '" + s + "')");
}

FlexibleSimulation flexibleSimulate(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& q,
                                    const Vec3& force, const Vec3& moment, const FlexibleSimulationOptions& o,
                                    const Progress& progress) {
  const std::string who = "flexibleSimulate: ";
  if (o.load == FlexibleLoadKind::Sine && !(o.frequency > 0 && std::isfinite(o.frequency)))
    throw Error(who + "frequency: a sine load needs a positive frequency (Hz)");
  if (!std::isfinite(o.start)) throw Error(who + "start: must be finite");
  if (o.load == FlexibleLoadKind::Pulse && !(o.stop > o.start && std::isfinite(o.stop))) throw Error(who + "stop: a pulse needs stop after start");
  if (!(o.duration > 0) || !(o.duration <= 1e4)) throw Error(who + "duration: must be positive (and at most 1e4 s)");
  if (!(o.dt >= 0) || !std::isfinite(o.dt)) throw Error(who + "dt: must be positive (0: automatic)");
  if (o.samples < 2 || o.samples > 100000) throw Error(who + "samples: must be 2 … 100000 (got " + std::to_string(o.samples) + ")");
  if (!force.allFinite() || !moment.allFinite()) throw Error(who + "force, moment: must be finite");
  VecX phi = undeflected(chain, q), rate = VecX::Zero(chain.dof), tau(chain.dof);
  const double h_auto = flexibleStableStep(chain, data, phi, o.lock_joints);  // 2π/ω_max/20
  // RK4 is stable for ω·dt ≤ 2√2 on an undamped mode; a longer step grows the stiffest mode without bound
  // (the space arm at dt = 2.5 ms reached a deflection of 7e51 m). Refused with a margin (ω·dt ≤ 2.5).
  const double w_max = 2 * kPi / (20 * h_auto), dt_limit = 2.5 / w_max;
  if (o.dt > dt_limit)
    throw Error(who + "dt: " + shortNumber(o.dt) + " s is beyond RK4's stability limit for the stiffest mode (" +
                shortNumber(w_max / (2 * kPi)) + " Hz): at most " + shortNumber(dt_limit) + " s; 0 picks " + shortNumber(h_auto) + " s");
  const double h0 = o.dt > 0 ? o.dt : h_auto;
  const double n = std::ceil(o.duration / h0);
  if (n > 2e7) throw Error(who + "dt: " + std::to_string(static_cast<long>(n)) + " steps are too many (at most 2e7)");
  FlexibleSimulation r;
  r.steps = std::max(1L, static_cast<long>(n));
  r.dt = o.duration / static_cast<double>(r.steps);
  Eigen::Matrix<double, 6, 1> w;
  w << force, moment;
  flexibleKinematics(chain, data, phi);
  const Vec3 rigid0 = data.oMtool.p;
  r.modal.resize(o.samples, chain.nf);
  r.tool_displacement.resize(o.samples, 3);
  r.base_translation.resize(chain.nb ? o.samples : 0, 3);
  auto loadAt = [&](double t) {
    if (t < o.start || (o.load == FlexibleLoadKind::Pulse && t >= o.stop)) return 0.0;
    return o.load == FlexibleLoadKind::Sine ? std::sin(2 * kPi * o.frequency * (t - o.start)) : 1.0;
  };
  int next = 0;  // next sample index
  const int steps = static_cast<int>(r.steps), tick = dyn_detail::progressTick(steps);  // at most 2e7 steps
  for (long k = 0; k <= r.steps; ++k) {
    const double t = static_cast<double>(k) * r.dt;
    flexibleKinematics(chain, data, phi);
    const Vec3 x = data.oMtool.p - rigid0;
    while (next < o.samples && static_cast<double>(next) * o.duration / (o.samples - 1) <= t + 1e-12 * o.duration) {
      r.t.push_back(t);
      r.modal.row(next) = phi.segment(chain.nv, chain.nf).transpose();
      r.tool_displacement.row(next) = x.transpose();
      if (chain.nb) r.base_translation.row(next) = phi.tail(3).transpose();
      ++next;
    }
    r.peak_tool_deflection = std::max(r.peak_tool_deflection, x.norm());
    for (int j : chain.joint) r.peak_link_rotation = std::max(r.peak_link_rotation, data.theta[j].norm());
    if (k == r.steps) break;
    flexibleJacobians(chain, data, phi);
    tau.noalias() = data.J_tool.transpose() * (loadAt(t) * w);
    flexibleStep(chain, data, phi, rate, tau, r.dt, o.lock_joints);
    if (!phi.allFinite() || !rate.allFinite())
      throw Error(who + "the state became non-finite at t = " + shortNumber(t + r.dt) + " s; give a smaller dt");
    if (!progress.empty() && (k + 1) % tick == 0 && !progress(static_cast<double>(k + 1) / static_cast<double>(steps)))
      throw dyn_detail::cancelledAt("flexibleSimulate", static_cast<int>(k + 1), steps, t + r.dt);
  }
  r.modal.conservativeResize(next, Eigen::NoChange);  // every sample is taken; kept exact if rounding ever skips one
  r.tool_displacement.conservativeResize(next, Eigen::NoChange);
  if (chain.nb) r.base_translation.conservativeResize(next, Eigen::NoChange);
  return r;
}

}  // namespace achain
