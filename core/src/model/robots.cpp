#include <achain/model/robots.hpp>
#include <achain/model/caps.hpp>
#include <achain/math/text.hpp>

#include <fstream>
#include <sstream>

#include <achain/io/model_json.hpp>
#include <achain/io/urdf.hpp>

namespace achain {

namespace generated {
extern const std::vector<BuiltinRobot>& embeddedRobots();
}

const std::vector<BuiltinRobot>& builtinRobots() { return generated::embeddedRobots(); }


Model builtinModel(const std::string& name) {
  for (const auto& r : builtinRobots())
    if (r.name == name) {
      try {
        return modelFromJsonString(r.json);
      } catch (const Error& e) {
        throw Error("built-in robot '" + name + "': " + e.what());
      }
    }
  if (looksLikeXml(name)) throw Error("robot: this is XML text, not a built-in name; read URDF with modelFromUrdf (loadModel in JS)");
  std::string names;
  for (const auto& r : builtinRobots()) names += (names.empty() ? "" : ", ") + r.name;
  throw Error("robot: unknown built-in " + quoteInput(name) + " (built-ins: " + names + ")");
}

namespace {
/// The text of an open robot file, refused past 16 MiB (a robot description is small; /dev/zero is not).
std::string readBounded(std::ifstream& f, const std::string& path) {
  constexpr size_t kMaxBytes = kMaxRobotFileBytes;
  std::string text;
  char buf[1 << 16];
  while (f.read(buf, sizeof buf) || f.gcount() > 0) {
    text.append(buf, static_cast<size_t>(f.gcount()));
    if (text.size() > kMaxBytes)
      throw Error(nameInput(path) + ": larger than 16 MiB; a robot description is not that large");
  }
  return text;
}
}  // namespace

std::string readRobotFile(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw Error(nameInput(path) + ": cannot open file");
  return readBounded(f, path);
}

Model loadRobot(const std::string& s) { return loadRobot(s, UrdfOptions{}); }

namespace {
/// The URDF options are refused for a JSON description or a built-in, naming the first one given.
void refuseUrdfOptions(const UrdfOptions& urdf) {
  if (!urdf.tool_link.empty()) throw Error("tool link: chosen by link name for URDF files only (a JSON description gives tool.link)");
  if (urdf.balance_inertia) throw Error("balance inertia: for URDF files only");
  if (urdf.keep_fixed) throw Error("keep fixed: for URDF files only");
}
}  // namespace

Model loadRobot(const std::string& s, const UrdfOptions& urdf) {
  for (const auto& r : builtinRobots())
    if (r.name == s) {
      refuseUrdfOptions(urdf);
      return builtinModel(s);
    }
  if (looksLikeXml(s)) throw Error("robot: this is XML text, not a built-in name or a file name");
  std::ifstream f(s);
  if (!f) {
    std::string names;
    for (const auto& r : builtinRobots()) names += (names.empty() ? "" : ", ") + r.name;
    throw Error("robot: " + quoteInput(s) + " is neither a built-in (" + names + ") nor a readable file");
  }
  const std::string text = readBounded(f, s);
  try {
    if (looksLikeXml(text)) return modelFromUrdfString(text, urdf);  // URDF (docs/robot-format.md)
    refuseUrdfOptions(urdf);
    return modelFromJsonString(text);
  } catch (const Error& e) {
    throw Error(s + ": " + e.what());
  }
}

}  // namespace achain
