#include <achain/flexibility/flexible_joint_sim.hpp>

#include <cmath>

#include <achain/dynamics/forward.hpp>
#include <achain/dynamics/rnea.hpp>

namespace achain {

FlexibleJointChain::FlexibleJointChain(const Model& model, const JointFlexibility& flex, const DynamicsOptions& options,
                                       bool need_motor_inertia)
    : model_(model), flex_(flex), opt_(options) {
  checkJointFlexibility(model, flex, need_motor_inertia);
  const int n = model.nv;
  if (flex_.damping.size() == 0) flex_.damping = VecX::Zero(n);
  opt_.motors = false;
  opt_.friction = false;
  tau_.resize(n);
  for (int s = 0; s < 4; ++s) {
    kq_[s].resize(n);
    kv_[s].resize(n);
    kt_[s].resize(n);
    kw_[s].resize(n);
  }
  qs_.resize(n);
  vs_.resize(n);
  ts_.resize(n);
  ws_.resize(n);
  th_.resize(n);
  thd_.resize(n);
  d_.resize(n);
}

void FlexibleJointChain::springTorque(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& qd,
                                      const Eigen::Ref<const VecX>& theta, const Eigen::Ref<const VecX>& thetad,
                                      Eigen::Ref<VecX> tau) const {
  tau = -flex_.stiffness.cwiseProduct(q - theta) - flex_.damping.cwiseProduct(qd - thetad);
}

void FlexibleJointChain::linkAcceleration(Data& data, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& qd,
                                          const Eigen::Ref<const VecX>& theta, const Eigen::Ref<const VecX>& thetad,
                                          Eigen::Ref<VecX> qdd) {
  springTorque(q, qd, theta, thetad, tau_);
  forwardDynamics(model_, data, q, qd, tau_, opt_, qdd);
}

void FlexibleJointChain::step(Data& data, FlexibleJointState& s, const Eigen::Ref<const VecX>& u, double dt) {
  // RK4 on y = (q, q̇, θ, θ̇); stage s evaluates at y + h·k_{s−1}.
  for (int st = 0; st < 4; ++st) {
    const double h = st == 0 ? 0.0 : (st == 3 ? dt : 0.5 * dt);
    if (st == 0) {
      qs_ = s.q; vs_ = s.qd; ts_ = s.theta; ws_ = s.thetad;
    } else {
      qs_ = s.q + h * kq_[st - 1];
      vs_ = s.qd + h * kv_[st - 1];
      ts_ = s.theta + h * kt_[st - 1];
      ws_ = s.thetad + h * kw_[st - 1];
    }
    kq_[st] = vs_;
    kt_[st] = ws_;
    linkAcceleration(data, qs_, vs_, ts_, ws_, kv_[st]);
    // J·θ̈ = u + K·(q − θ) + D·(q̇ − θ̇) = u − τ_s
    kw_[st] = (u - tau_).cwiseQuotient(flex_.motor_inertia);
  }
  s.q += (dt / 6.0) * (kq_[0] + 2.0 * kq_[1] + 2.0 * kq_[2] + kq_[3]);
  s.qd += (dt / 6.0) * (kv_[0] + 2.0 * kv_[1] + 2.0 * kv_[2] + kv_[3]);
  s.theta += (dt / 6.0) * (kt_[0] + 2.0 * kt_[1] + 2.0 * kt_[2] + kt_[3]);
  s.thetad += (dt / 6.0) * (kw_[0] + 2.0 * kw_[1] + 2.0 * kw_[2] + kw_[3]);
}

void FlexibleJointChain::stepPrescribed(Data& data, VecX& q, VecX& qd, const MotorMotion& motor, double t, double dt) {
  for (int st = 0; st < 4; ++st) {
    const double h = st == 0 ? 0.0 : (st == 3 ? dt : 0.5 * dt);
    if (st == 0) {
      qs_ = q; vs_ = qd;
    } else {
      qs_ = q + h * kq_[st - 1];
      vs_ = qd + h * kv_[st - 1];
    }
    if (st != 2) motor(t + h, th_, thd_);  // stages 1 and 2 share t + dt/2
    kq_[st] = vs_;
    linkAcceleration(data, qs_, vs_, th_, thd_, kv_[st]);
  }
  q += (dt / 6.0) * (kq_[0] + 2.0 * kq_[1] + 2.0 * kq_[2] + kq_[3]);
  qd += (dt / 6.0) * (kv_[0] + 2.0 * kv_[1] + 2.0 * kv_[2] + kv_[3]);
}

double FlexibleJointChain::energy(Data& data, const FlexibleJointState& s) const {
  double e = kineticEnergy(model_, data, s.q, s.qd, opt_) + potentialEnergy(model_, data, s.q, opt_);
  const VecX d = s.q - s.theta;
  e += 0.5 * d.dot(flex_.stiffness.cwiseProduct(d));
  if (flex_.motor_inertia.size() == model_.nv && flex_.motor_inertia.allFinite())
    e += 0.5 * s.thetad.dot(flex_.motor_inertia.cwiseProduct(s.thetad));
  return e;
}

VecX FlexibleJointChain::staticEquilibrium(Data& data, const Eigen::Ref<const VecX>& theta) const {
  VecX q = theta, g(model_.nv);
  for (int it = 0; it < 200; ++it) {
    gravityTorques(model_, data, q, opt_, g);
    const VecX next = theta - g.cwiseQuotient(flex_.stiffness);
    const double change = (next - q).cwiseAbs().maxCoeff();
    q = next;
    if (!q.allFinite()) break;
    if (change < 1e-13) return q;
  }
  throw Error("joint flexibility: no static equilibrium found at the motor angles (the gravity stiffness exceeds the "
              "joint springs' or the deflection is large); raise the stiffness");
}

double FlexibleJointChain::stableStep(Data& data, const Eigen::Ref<const VecX>& q, bool motors_free) const {
  const NaturalModes m = jointFlexibilityModes(model_, data, q, flex_, motors_free ? MotorSide::Free : MotorSide::Locked, opt_);
  const double w = m.omega.maxCoeff();
  return 2 * M_PI / w / 20.0;
}

}  // namespace achain
