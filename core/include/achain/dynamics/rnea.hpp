// Inverse dynamics by the recursive Newton–Euler algorithm for R/P/H/A chains and trees.
//
//   τ = M(q)q̈ + C(q,q̇)q̇ + g(q) + τ_friction + Jᵀh_e
//
// A- and H-pairs enter through the joint's axial rate b(q) = ∂dz/∂q: the joint twist per unit q̇ is
// (ω, v) = (s·z, b·z) about the joint axis, and the joint's own acceleration adds b'(q)·q̇²·z with
// b' = −(ρ/4)sin(q/2) for an A-pair (so d̈ = (ρ/2)cos(q/2)q̈ − (ρ/4)sin(q/2)q̇², Robinson Eq. 3.66),
// while the Coriolis term 2ḋ ω×z arises from the parent's rotation of the moving axis.
// Leg models, motors, friction, gravity and the tool wrench are chosen per call (options.hpp).
// Everything here is allocation-free once the workspace exists.
#pragma once
#include <achain/dynamics/options.hpp>

namespace achain {

/// τ for (q, q̇, q̈). tau must have model.nv entries. Runs forward kinematics into data.
void inverseDynamics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                     const Eigen::Ref<const VecX>& qd, const Eigen::Ref<const VecX>& qdd,
                     const DynamicsOptions& options, Eigen::Ref<VecX> tau);

/// Generalized gravity vector g(q) (the torque that holds the chain still against gravity).
void gravityTorques(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                    const DynamicsOptions& options, Eigen::Ref<VecX> g);

/// Bias torques b(q, q̇) = C q̇ + g + τ_friction + Jᵀh_e, i.e. inverseDynamics with q̈ = 0.
void biasTorques(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                 const Eigen::Ref<const VecX>& qd, const DynamicsOptions& options, Eigen::Ref<VecX> b);

/// Joint friction alone (zero unless options.friction and the joint has motor data).
void frictionTorques(const Model& model, const Eigen::Ref<const VecX>& qd, const DynamicsOptions& options,
                     Eigen::Ref<VecX> tau);

/// Every part of τ, for plots. Sums: total = inertial + velocity + gravity + friction + wrench, and
/// total = translational + rotational + rotor + friction + wrench, where the translational part is due
/// to the bodies' masses (links and legs; all of the gravity part), the rotational part to the links'
/// rotational inertia about their CoMs (Lee's split), and rotor = J_m·G²·q̈ (part of inertial).
struct TorqueBreakdown {
  VecX total, inertial, velocity, gravity, friction, wrench;
  VecX translational, rotational, rotor;
  void resize(int n);
};
void torqueBreakdown(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                     const Eigen::Ref<const VecX>& qd, const Eigen::Ref<const VecX>& qdd,
                     const DynamicsOptions& options, TorqueBreakdown& out);

/// Kinetic energy ½q̇ᵀM q̇ (rotors included when options.motors) and potential energy −Σ m g·c
/// (legs per the leg model; zero at the base origin).
double kineticEnergy(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                     const Eigen::Ref<const VecX>& qd, const DynamicsOptions& options);
double potentialEnergy(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                       const DynamicsOptions& options);

/// Checks sizes and finiteness of the inputs ("qd[2]: must be a finite number"). The algorithms
/// themselves do not validate (hot path); the CLI and wasm layers call this.
void checkDynamicsInput(const Model& model, const Eigen::Ref<const VecX>& v, const char* what);

}  // namespace achain
