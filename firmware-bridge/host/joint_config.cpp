#include "joint_config.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <achain/math/text.hpp>
#include <achain/math/types.hpp>

namespace achain {
namespace bridge {

uint16_t watchdogMs(double ms, const std::string& what) {
  if (!(ms >= kWatchdogMsMin && ms <= kWatchdogMsMax) || ms != std::floor(ms))
    throw Error(what + ": " + (std::isfinite(ms) ? shortNumber(ms) : std::string("not a finite number")) +
                " is not a watchdog the controller accepts (a whole number of ms from " + std::to_string(kWatchdogMsMin) +
                " to " + std::to_string(kWatchdogMsMax) + ")");
  return static_cast<uint16_t>(ms);
}

std::vector<JointConfig> jointConfigsFromModel(const Model& model, const SimProfile& defaults) {
  if (model.nq > kMaxJoints)
    throw Error("controller: robot '" + model.name + "' has " + std::to_string(model.nq) +
                " coordinates; the controller protocol carries at most " + std::to_string(kMaxJoints));
  if (defaults.joints < 1) throw Error("controller: the default profile has no joints");
  std::vector<JointConfig> out;
  out.reserve(static_cast<size_t>(model.nq));
  for (int c = 0; c < model.nq; ++c) {
    JointConfig k = defaults.config[std::min(c, defaults.joints - 1)];
    k.joint = static_cast<uint8_t>(c);
    const Joint& j = model.joints[static_cast<size_t>(model.coord_joint[static_cast<size_t>(c)])];
    const JointLimits& L = j.limits;
    auto given = [](double v) { return std::isfinite(v); };
    k.q_min = static_cast<float>(given(L.lower) ? L.lower : -kUnboundedJointLimit);
    k.q_max = static_cast<float>(given(L.upper) ? L.upper : kUnboundedJointLimit);
    if (given(L.velocity)) k.v_max = static_cast<float>(L.velocity);
    if (given(L.acceleration)) k.a_max = static_cast<float>(L.acceleration);
    if (given(L.effort)) k.torque_max = static_cast<float>(L.effort);
    if (j.motor.present) {
      k.gear_ratio = static_cast<float>(j.motor.gear_ratio);
      if (j.motor.encoder_counts > 0) k.counts_per_rev = static_cast<uint32_t>(j.motor.encoder_counts);
    }
    out.push_back(k);
  }
  return out;
}

SimProfile simProfileFromModel(const Model& model) {
  SimProfile p = prototypeProfile();
  const std::vector<JointConfig> cfg = jointConfigsFromModel(model, p);
  const PlantParams last_plant = p.plant[p.joints - 1];
  const double start = p.q_start[0];
  p.joints = model.nq;
  for (int j = 0; j < model.nq; ++j) {
    if (j >= 4) p.plant[j] = last_plant;
    p.config[j] = cfg[static_cast<size_t>(j)];
    p.plant[j].gear_ratio = cfg[static_cast<size_t>(j)].gear_ratio;
    p.plant[j].counts_per_rev = cfg[static_cast<size_t>(j)].counts_per_rev;
    const double lo = cfg[static_cast<size_t>(j)].q_min, hi = cfg[static_cast<size_t>(j)].q_max;
    // the limits are floats on the wire: 60° rounded to float lies a few 1e-8 rad above 60° in double
    p.q_start[j] = (start >= lo - 1e-6 && start <= hi + 1e-6) ? start : 0.5 * (lo + hi);
  }
  return p;
}

}  // namespace bridge
}  // namespace achain
