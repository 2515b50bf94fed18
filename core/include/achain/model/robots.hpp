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

/// The built-in serial robots (core/robots/*.json): every one is a Model.
const std::vector<BuiltinRobot>& builtinRobots();
/// The built-in parallel robots (core/robots/parallel/*.json): parallel robot files, read into Robot::parallel.
const std::vector<BuiltinRobot>& builtinParallelRobots();
/// The built-in called `name` (serial or parallel), or nullptr: the one lookup by name.
const BuiltinRobot* findBuiltinRobot(const std::string& name);
/// Every built-in's name (serial, then parallel), comma-separated, for messages.
std::string builtinRobotNames();

}  // namespace achain
