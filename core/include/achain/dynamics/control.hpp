// Computed-torque control simulation (Craig; Robinson Sec. 2.10, Eqs. 2.99–2.102, Fig. 2.18):
//   τ = M̂(q)(q̈_d + K_v ė + K_p e) + Ĉ(q,q̇)q̇ + ĝ(q),  e = q_d − q,
// evaluated as one RNEA call of the controller's model, applied to the simulated chain (the plant,
// integrated with RK4 or semi-implicit Euler; τ held over a control period). With a perfect model
// the error obeys ë + K_v ė + K_p e = 0. Controller and plant may use different options (e.g. the
// controller ignores the A-pair legs, the plant has them) to study model mismatch.
#pragma once
#include <functional>

#include <achain/dynamics/integrate.hpp>

namespace achain {

/// Desired motion at time t: fills q_d, q̇_d, q̈_d (size nv).
using DesiredMotion = std::function<void(double t, Eigen::Ref<VecX> q, Eigen::Ref<VecX> qd, Eigen::Ref<VecX> qdd)>;

/// A desired motion from samples (times increasing): cubic Hermite in q (from q and q̇), linear in q̇
/// and q̈; before the first sample the first, after the last the last q at rest. The vectors are
/// copied into the returned function. Throws achain::Error on inconsistent sizes or times.
DesiredMotion sampledMotion(std::vector<double> t, std::vector<VecX> q, std::vector<VecX> qd, std::vector<VecX> qdd);

struct ComputedTorqueOptions {
  VecX kp, kv;                  ///< per-joint gains (1/s², 1/s); empty → ω = 2π·5 Hz critically damped
  DynamicsOptions plant;        ///< the simulated chain
  DynamicsOptions controller;   ///< the controller's model of it
  double dt = 1e-3;             ///< control period = integration step, s
  Integrator integrator = Integrator::RK4;
  int every = 1;                ///< keep every k-th step
  /// Optional armature-controlled DC motors (Freeman 2-228): L di/dt + R i + K_e G q̇ = v, joint
  /// torque K_t G i, G = the joint's gear ratio (1 without motor data). The controller then drives
  /// voltages with Freeman's nominal feed-forward (2-238…2-240): i_c = τ_c/(K_t G),
  /// v = R i_c + L di_c/dt + K_e G q̇, di_c/dt by a backward difference over the control period.
  /// The plant integrates the current exactly over each period (q̇ held) and applies its mean.
  bool dc_motor = false;
  VecX R, L, Kt, Ke;            ///< per joint (Ω, H, N·m/A, V·s/rad), motor side
};

struct ControlRun {
  std::vector<double> t;
  std::vector<VecX> q, qd, q_des, tau, error;
  std::vector<VecX> current, voltage;  ///< DC motors only
  VecX max_abs_error;           ///< per joint, over the run
  VecX rms_error;               ///< per joint
};

/// Simulates from (q0, qd0) for `duration` s tracking `desired`. Throws achain::Error on bad
/// sizes, a duration and dt that simulationSteps refuses, or a state that turns non-finite; asks `progress` as
/// simulate() does and throws Cancelled ("control: cancelled at step …") when it says stop.
ControlRun simulateComputedTorque(const Model& model, const DesiredMotion& desired, const VecX& q0, const VecX& qd0,
                                  double duration, const ComputedTorqueOptions& options,
                                  const Progress& progress = {});

}  // namespace achain
