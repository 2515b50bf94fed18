// The optional per-joint "drive" blocks of a robot file (docs/robot-format.md#drives): lumped joint flexibility,
// Spong's spring k and damper c between the motor and the link, and the motor inertia reflected to the joint.
// Read beside the model (as loopFromJson reads the loop section); the Model itself stays rigid.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include <achain/flexibility/joint_flexibility.hpp>

namespace achain {

/// True when some joint of the document has a "drive" block.
bool hasDrives(const nlohmann::json& j);

/// The drives of a robot file whose model is `model` (modelFromJson of the same document), in SI: stiffness
/// (N·m/rad, N/m), damping (N·m·s/rad, N·s/m; 0 when absent), motor_inertia (kg·m² at the joint; from
/// "motor_inertia", else J_m·G² of the joint's motor block, else NaN = not given). Every coordinate needs a drive
/// once one joint has one. Throws achain::Error naming the field ("joints[1].drive.stiffness: must be positive
/// and finite (got 0.000000)"), or "joints: the robot file has no drive section (joints[i].drive)".
JointFlexibility jointFlexibilityFromJson(const nlohmann::json& j, const Model& model);
JointFlexibility jointFlexibilityFromJsonString(const std::string& text, const Model& model);

}  // namespace achain
