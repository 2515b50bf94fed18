// The per-joint "drive" blocks of a robot file (io/drive_json.hpp; docs/robot-format.md#drives).
#include <achain/io/drive_json.hpp>

#include <cmath>
#include <limits>

#include <achain/io/json_text.hpp>

#include "json_fields.hpp"

namespace achain {

using nlohmann::json;
using namespace io_detail;

namespace {

// The optional per-joint "drive" blocks (docs/robot-format.md#drives): lumped joint flexibility (Spong's spring and
// damper between motor and link), in the file's units. Every coordinate needs one when any joint has one.
JointFlexibility parseDrives(const json& j, const Model& m, const UnitFactors& u) {
  const json& J = j.at("joints");
  JointFlexibility f;
  f.stiffness = VecX::Constant(m.nv, std::numeric_limits<double>::quiet_NaN());
  f.damping = VecX::Zero(m.nv);
  f.motor_inertia = VecX::Constant(m.nv, std::numeric_limits<double>::quiet_NaN());
  bool any = false;
  for (size_t i = 0; i < J.size(); ++i) {
    if (!J[i].contains("drive")) continue;
    any = true;
    const std::string p = join(idx("joints", i), "drive");
    const json& D = requireObject(J[i].at("drive"), p);
    checkKeys(D, p, {"stiffness", "damping", "motor_inertia"});
    const int c = m.idx_q[i];
    const Joint& jt = m.joints[i];
    if (c < 0 || jt.mimic >= 0) fail(p, "a fixed or mimic joint has no coordinate of its own to be flexible");
    const bool ang = isAngular(jt.kind);
    const double k = requiredNumber(D, p, "stiffness");
    if (!std::isfinite(k) || k <= 0) fail(join(p, "stiffness"), "must be positive and finite (got " + std::to_string(k) + ")");
    f.stiffness[c] = k * (ang ? u.torque / u.angle : u.force / u.length);
    const double d = number(D, p, "damping", 0);
    if (!std::isfinite(d) || d < 0) fail(join(p, "damping"), "must be zero or positive and finite (got " + std::to_string(d) + ")");
    f.damping[c] = d * (ang ? u.torque / u.angle : u.force / u.length);
    if (D.contains("motor_inertia")) {
      const double ji = asNumber(D.at("motor_inertia"), join(p, "motor_inertia"));
      if (!std::isfinite(ji) || ji <= 0)
        fail(join(p, "motor_inertia"), "must be positive and finite (got " + std::to_string(ji) + ")");
      f.motor_inertia[c] = ji * u.mass * (ang ? u.length * u.length : 1.0);
    } else if (jt.motor.present && jt.motor.rotor_inertia > 0) {
      f.motor_inertia[c] = jt.motor.rotor_inertia * jt.motor.gear_ratio * jt.motor.gear_ratio;
    }
  }
  if (!any) fail("joints", "the robot file has no drive section (joints[i].drive)");
  for (int c = 0; c < m.nv; ++c)
    if (std::isnan(f.stiffness[c]))
      fail(join(idx("joints", static_cast<size_t>(m.coord_joint[c])), "drive"),
           "missing: when one joint declares a drive, every joint with a coordinate needs one (joint '" +
               m.joints[m.coord_joint[c]].name + "')");
  return f;
}

}  // namespace

bool hasDrives(const json& j) { return anyJointHas(j, "drive"); }

JointFlexibility jointFlexibilityFromJson(const json& j, const Model& model) {
  requireObject(j, "(document)");
  if (!j.contains("joints") || !j.at("joints").is_array() || j.at("joints").size() != model.joints.size())
    fail("joints", "does not match the model (" + std::to_string(model.joints.size()) + " joints)");
  return parseDrives(j, model, unitFactors(j));
}

JointFlexibility jointFlexibilityFromJsonString(const std::string& text, const Model& model) {
  return jointFlexibilityFromJson(parseJsonText(text), model);
}

}  // namespace achain
