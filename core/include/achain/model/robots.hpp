// Built-in robots, by name, everywhere a robot is accepted. Their JSON files live in core/robots/ and are
// compiled into the library. Reading one (or a robot file) is io/robot.hpp's readRobot.
#pragma once
#include <string>
#include <vector>

namespace achain {

struct BuiltinRobot {
  std::string name;
  std::string json;  ///< the robot file's text
};

const std::vector<BuiltinRobot>& builtinRobots();
/// The built-in called `name`, or nullptr: the one lookup by name.
const BuiltinRobot* findBuiltinRobot(const std::string& name);
/// The built-ins' names, comma-separated, for messages.
std::string builtinRobotNames();

}  // namespace achain
