// The one mapping from a robot Model to the motor controller's configuration. The CLI (`achain send`,
// `achain controller-sim`), the studio's Controller panel (through wasm) and the simulated prototype
// all configure the controller through it, so they cannot drift apart.
#pragma once
#include <string>
#include <vector>

#include <achain/model/model.hpp>

#include "../protocol/protocol.hpp"
#include "../sim/virtual_controller.hpp"

namespace achain {
namespace bridge {

/// Controller position limits used for a joint the model leaves unbounded (rad or m). The wire carries
/// positions as int32 µrad, so ±2147 rad is the most it can hold; ±1000 leaves room for the blend.
constexpr double kUnboundedJointLimit = 1000.0;

/// One JointConfig per coordinate of `model` (model.nq entries; a fixed or mimic joint has none):
/// - limits (position, velocity, acceleration, effort) from the joint that owns the coordinate; a
///   limit the model leaves open falls back to ±kUnboundedJointLimit (position) or to `defaults`;
/// - the drive from the model's motor data when it has some: the gear ratio with its sign and the
///   encoder counts per motor revolution;
/// - everything the model does not describe (gains, feed-forward, zero offset, and the drive of a
///   joint without motor data) from `defaults.config` (its last entry for coordinates beyond it).
/// Throws achain::Error when the model has more coordinates than the controller protocol carries.
std::vector<JointConfig> jointConfigsFromModel(const Model& model, const SimProfile& defaults = prototypeProfile());

/// A watchdog value in ms, checked before it is narrowed to the wire's 16 bits: a whole number from
/// kWatchdogMsMin to kWatchdogMsMax, else achain::Error naming `what` (the CLI option, the JSON key or the JS field).
uint16_t watchdogMs(double ms, const std::string& what = "watchdog_ms");

/// The simulated controller for `model`: the prototype's plant, with each joint's drive (gear ratio,
/// encoder counts) and its controller configuration taken from jointConfigsFromModel, so the
/// simulator's plant matches what a host configures; every joint starts at the middle of its limits
/// when the prototype's start (60°) lies outside them.
SimProfile simProfileFromModel(const Model& model);

}  // namespace bridge
}  // namespace achain
