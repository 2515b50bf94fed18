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
/// The text of a robot file; throws achain::Error if it cannot be opened or is larger than 16 MiB.
std::string readRobotFile(const std::string& path);
/// Throws the one-line "URDF is not supported yet" error when `text` is XML (a name or text that starts with '<').
void refuseXml(const std::string& text);

}  // namespace achain
