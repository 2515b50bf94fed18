// Built-in robots, by name, everywhere a robot is accepted. Their JSON files live in
// core/robots/ and are compiled into the library.
#pragma once
#include <string>
#include <vector>

#include <achain/model/model.hpp>

namespace achain {

struct BuiltinRobot {
  std::string name;
  std::string json;  ///< the robot file's text
};

const std::vector<BuiltinRobot>& builtinRobots();
/// Loads a built-in by name; throws achain::Error listing the known names otherwise.
Model builtinModel(const std::string& name);
/// A built-in name, or else a path to a JSON robot file (native builds only).
Model loadRobot(const std::string& name_or_path);

}  // namespace achain
