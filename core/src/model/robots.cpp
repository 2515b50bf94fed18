#include <achain/model/robots.hpp>

namespace achain {

namespace generated {
extern const std::vector<BuiltinRobot>& embeddedRobots();
}

const std::vector<BuiltinRobot>& builtinRobots() { return generated::embeddedRobots(); }

const BuiltinRobot* findBuiltinRobot(const std::string& name) {
  for (const BuiltinRobot& r : builtinRobots())
    if (r.name == name) return &r;
  return nullptr;
}

std::string builtinRobotNames() {
  std::string names;
  for (const BuiltinRobot& r : builtinRobots()) names += (names.empty() ? "" : ", ") + r.name;
  return names;
}

}  // namespace achain
