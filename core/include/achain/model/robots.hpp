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
struct UrdfOptions;  // io/urdf.hpp

/// A built-in name, or else a path to a robot file: JSON, or URDF when the file's text is XML (native builds only).
Model loadRobot(const std::string& name_or_path);
/// The same, with the URDF options (the tool's link by name); a non-empty tool link is refused for JSON files.
Model loadRobot(const std::string& name_or_path, const UrdfOptions& urdf);
/// The text of a robot file; throws achain::Error if it cannot be opened or is larger than 16 MiB.
std::string readRobotFile(const std::string& path);

}  // namespace achain
