#include <achain/model/robots.hpp>

namespace achain {

namespace generated {
extern const std::vector<BuiltinRobot>& embeddedRobots();
extern const std::vector<BuiltinRobot>& embeddedParallelRobots();
}

const std::vector<BuiltinRobot>& builtinRobots() { return generated::embeddedRobots(); }
const std::vector<BuiltinRobot>& builtinParallelRobots() { return generated::embeddedParallelRobots(); }

const BuiltinRobot* findBuiltinRobot(const std::string& name) {
  for (const auto* table : {&builtinRobots(), &builtinParallelRobots()})
    for (const BuiltinRobot& r : *table)
      if (r.name == name) return &r;
  return nullptr;
}

std::string builtinRobotNames() {
  std::string names;
  for (const auto* table : {&builtinRobots(), &builtinParallelRobots()})
    for (const BuiltinRobot& r : *table) names += (names.empty() ? "" : ", ") + r.name;
  return names;
}

}  // namespace achain
