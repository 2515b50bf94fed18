// Simulation of the chain with lumped joint flexibility (Spong 1987; the `jflag` joint-deflection state of
// Tesar & Graves 1988), one spring k_i and damper c_i per coordinate between the motor (angle θ_i on the joint
// side, inertia J_i = J_m·G²) and the link (angle q_i):
//   M(q)·q̈ + C(q, q̇)·q̇ + g(q) + K·(q − θ) + D·(q̇ − θ̇) = 0
//   J·θ̈ + K·(θ − q) + D·(θ̇ − q̇) = u
// M, C, g are the rigid chain's (forwardDynamics with options.motors and options.friction forced off: the rotor is
// the motor side's own body; the legs, gravity override and limit stops of `options` apply).
// Two ways to drive the motors:
//   step()            torque u on the motor side (state q, q̇, θ, θ̇);
//   stepPrescribed()  the motor motion θ(t), θ̇(t) is given (an ideal, servo-stiff drive following a plan): only
//                     the link equation is integrated, with the spring and damper forced by θ(t).
// Integrator: classical RK4 with the input held over the step (step) or θ(t) evaluated at the stage times
// (stepPrescribed). The coupling is stiff (k/J ≫ the rigid dynamics), so the step is set from the highest
// natural frequency: stableStep() = 2π/ω_max / 20 (RK4 needs ω·dt < 2.8 for stability; at ω·dt = 0.31 its
// energy error is about 1e-5 of the oscillation energy per period). See docs/flexible.md, "Simulation".
#pragma once
#include <functional>

#include <achain/flexibility/joint_flexibility.hpp>

namespace achain {

struct FlexibleJointState {
  VecX q, qd;          ///< link angles and rates (size nv)
  VecX theta, thetad;  ///< motor angles and rates reflected to the joint side (size nv)
};

/// θ(t), θ̇(t) of an ideal drive; writes into theta, thetad (sized nv by the caller).
using MotorMotion = std::function<void(double t, VecX& theta, VecX& thetad)>;

class FlexibleJointChain {
 public:
  /// Validates flex (checkJointFlexibility; the motor inertia only when `need_motor_inertia`, i.e. for step()).
  FlexibleJointChain(const Model& model, const JointFlexibility& flex, const DynamicsOptions& options,
                     bool need_motor_inertia = true);

  const Model& model() const { return model_; }
  const JointFlexibility& flexibility() const { return flex_; }
  const DynamicsOptions& options() const { return opt_; }

  /// Spring and damper torque on the links, τ_s = −K·(q − θ) − D·(q̇ − θ̇). Allocation-free.
  void springTorque(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& qd, const Eigen::Ref<const VecX>& theta,
                    const Eigen::Ref<const VecX>& thetad, Eigen::Ref<VecX> tau) const;
  /// Link accelerations q̈ = M⁻¹(τ_s − C q̇ − g). Allocation-free.
  void linkAcceleration(Data& data, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& qd,
                        const Eigen::Ref<const VecX>& theta, const Eigen::Ref<const VecX>& thetad, Eigen::Ref<VecX> qdd);

  /// One RK4 step of the full state with the motor torque u held over the step. Allocation-free.
  void step(Data& data, FlexibleJointState& s, const Eigen::Ref<const VecX>& u, double dt);
  /// One RK4 step of the links with the motors moving as `motor` prescribes over [t, t + dt].
  void stepPrescribed(Data& data, VecX& q, VecX& qd, const MotorMotion& motor, double t, double dt);

  /// Total energy ½q̇ᵀM q̇ + ½θ̇ᵀJ θ̇ + V_g(q) + ½(q − θ)ᵀK(q − θ) (J omitted when the motor inertia is not given).
  double energy(Data& data, const FlexibleJointState& s) const;
  /// The link configuration at rest with the motors at θ: K·(q − θ) + g(q) = 0 (fixed-point iteration
  /// q = θ − K⁻¹g(q), to 1e-13 rad); throws achain::Error if it does not converge (gravity stiffer than the springs).
  VecX staticEquilibrium(Data& data, const Eigen::Ref<const VecX>& theta) const;
  /// 2π/ω_max/20 at q: ω_max of the locked-motor modes (prescribed motion) or of the free-motor modes (step()).
  double stableStep(Data& data, const Eigen::Ref<const VecX>& q, bool motors_free) const;

 private:
  const Model& model_;
  JointFlexibility flex_;
  DynamicsOptions opt_;
  VecX tau_, kq_[4], kv_[4], kt_[4], kw_[4], qs_, vs_, ts_, ws_, th_, thd_, d_;
};

}  // namespace achain
