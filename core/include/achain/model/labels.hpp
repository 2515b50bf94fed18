// How messages name a joint and a coordinate: 1-based, as the studio's sliders, the Design table and the CLI's
// --deg lists number them, with the joint's name. And the name a joint's link gets where links need names.
#pragma once
#include <string>

#include <achain/model/model.hpp>

namespace achain {

/// Joint i (0-based index into model.joints): "joint 2 (shoulder)".
std::string jointLabel(const Model& model, int i);

/// Coordinate i (0-based index into q): "q2 (joint 'shoulder')", naming the joint that owns it.
std::string coordinateLabel(const Model& model, int i);

/// The name of joint i's link wherever links are named (URDF and MJCF export, the tree panel's modelTree):
/// "<joint name>_link". The base (i = −1, a root joint's parent) is "base_link".
std::string linkName(const Model& model, int i);

}  // namespace achain
