// Lumped joint flexibility (Spong 1987; the `jflag` joint-deflection state of Tesar & Graves 1988): one torsional
// spring k_i per joint between the motor (reflected inertia J_i = J_m·G², motor angle θ_i on the joint side) and the
// link (angle q_i):
//   M(q)·q̈ + K·(q − θ) = 0,   J·θ̈ + K·(θ − q) = 0     (no gravity, no damping, no control)
// Linearised about a configuration q at rest, with M = massMatrix(q) of the rigid links (rotor inertia NOT added
// to M: in Spong's model the rotor is the motor side's own body). The gravity stiffness ∂g/∂q is neglected.
//   MotorSide::Locked  the motors are held (servo-stiff): det(K − ω²·M) = 0, nv modes (shapes: link angles).
//   MotorSide::Free    the motors are free: det(K* − ω²·I*) = 0 with I* = diag(M, J), K* = [[K, −K], [−K, K]];
//                      2·nv modes, state (q, θ); the first nv are the rigid-body modes at ω = 0.
// One joint: locked ω² = k/I_link, free ω² = k·(1/J + 1/I_link).
#pragma once
#include <achain/dynamics/options.hpp>
#include <achain/math/modal.hpp>

namespace achain {

enum class MotorSide { Locked, Free };
const char* toString(MotorSide s);
/// "locked" | "free"; throws achain::Error otherwise.
MotorSide motorSideFromString(const std::string& s);

struct JointFlexibility {
  VecX stiffness;       ///< k per coordinate (size nv), N·m/rad (N/m for a prismatic joint), > 0
  VecX motor_inertia;   ///< J per coordinate (size nv), kg·m² reflected to the joint (J_m·G²), > 0; MotorSide::Free only
  VecX damping;         ///< c per coordinate (size nv, or empty = none), N·m·s/rad, ≥ 0: the damper beside the spring
                        ///< (the simulation in flexible_joint_sim.hpp; the modal analysis ignores it)
};

/// Validates `flex` for `model`: stiffness of size nv, positive and finite; damping empty or of size nv, zero or
/// positive and finite; motor_inertia of size nv, positive and finite when `need_motor_inertia`. Throws
/// achain::Error naming the field, the coordinate and its joint.
void checkJointFlexibility(const Model& model, const JointFlexibility& flex, bool need_motor_inertia);

/// Natural modes of the rigid chain with joint springs about q (see the file comment). options: as for massMatrix
/// (legs); options.motors is ignored (the rotor belongs to the motor side). Throws achain::Error naming the field
/// and joint for a wrong size, a zero/negative/non-finite stiffness or motor inertia, or a wrong-size or non-finite q.
NaturalModes jointFlexibilityModes(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                   const JointFlexibility& flex, MotorSide side, const DynamicsOptions& options);

}  // namespace achain
