#include <achain/io/robot.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include <achain/io/drive_json.hpp>
#include <achain/io/flexible_json.hpp>
#include <achain/io/json_text.hpp>
#include <achain/io/loop_json.hpp>
#include <achain/io/model_json.hpp>
#include <achain/io/parallel_json.hpp>
#include <achain/io/xml_tree.hpp>
#include <achain/math/text.hpp>
#include <achain/model/caps.hpp>

namespace achain {

const char* toString(RobotFormat f) { return f == RobotFormat::Urdf ? "urdf" : f == RobotFormat::Parallel ? "parallel" : "json"; }

namespace {

std::string prefix(const std::string& source) { return source.empty() ? std::string() : source + ": "; }

/// The text of an open robot file, refused past 16 MiB (a robot description is small; /dev/zero is not).
std::string readBounded(std::ifstream& f, const std::string& path) {
  std::string text;
  char buf[1 << 16];
  while (f.read(buf, sizeof buf) || f.gcount() > 0) {
    text.append(buf, static_cast<size_t>(f.gcount()));
    if (text.size() > kMaxRobotFileBytes)
      throw Error(nameInput(path) + ": larger than 16 MiB; a robot description is not that large");
  }
  return text;
}

/// The URDF options are refused for a JSON description or a built-in, naming the first one given.
void refuseUrdfOptions(const UrdfOptions& urdf) {
  if (!urdf.tool_link.empty()) throw Error("tool link: for URDF files only (a JSON description gives tool.link)");
  if (urdf.balance_inertia) throw Error("balance inertia: for URDF files only");
  if (urdf.keep_fixed) throw Error("keep fixed: for URDF files only");
}

}  // namespace

const LoopClosure& Robot::requireLoop() const {
  if (!loop) throw Error(prefix(source) + "the robot file has no loop section");
  return *loop;
}
const JointFlexibility& Robot::requireDrives() const {
  if (!drives) throw Error(prefix(source) + "the robot file has no drive section (joints[i].drive)");
  return *drives;
}
const FlexibleLinks& Robot::requireFlexibleLinks() const {
  if (!flexible_links) throw Error(prefix(source) + "the robot file has no flexible link (joints[i].flexible)");
  return *flexible_links;
}
const ParallelRobot& Robot::requireParallel() const {
  if (!parallel) throw Error(prefix(source) + "not a parallel robot file (no parallel section)");
  return *parallel;
}
void Robot::requireChain() const {
  if (parallel)
    throw Error(prefix(source) + "a parallel robot file (" + std::to_string(parallel->legs.size()) +
                " legs and a platform, not one chain; `achain parallel` reads it)");
}

Robot robotFromJson(const nlohmann::json& j) {
  Robot r;
  if (isParallelRobot(j)) {  // a parallel robot file: its legs are the models (parallel_json.cpp)
    r.parallel = parallelFromJson(j);
    r.format = RobotFormat::Parallel;
    r.model.name = r.parallel->name;
    return r;
  }
  r.model = modelFromJson(j);
  if (j.contains("loop")) r.loop = loopFromJson(j, r.model);
  if (hasDrives(j)) r.drives = jointFlexibilityFromJson(j, r.model);
  if (hasFlexibleLinks(j)) r.flexible_links = flexibleLinksFromJson(j, r.model);
  return r;
}

Robot robotFromJsonString(const std::string& text) { return robotFromJson(parseJsonText(text)); }

Robot readRobot(const std::string& s, const UrdfOptions& urdf) {
  if (const BuiltinRobot* b = findBuiltinRobot(s)) {
    refuseUrdfOptions(urdf);
    try {
      Robot r = robotFromJsonString(b->json);
      r.source = s;
      return r;
    } catch (const Error& e) {
      throw Error("built-in robot '" + s + "': " + e.what());
    }
  }
  if (looksLikeXml(s)) throw Error("robot: this is XML text, not a built-in name or a file name");
  std::ifstream f(s);
  if (!f) throw Error("robot: " + quoteInput(s) + " is neither a built-in (" + builtinRobotNames() + ") nor a readable file");
  const std::string text = readBounded(f, s);
  try {
    Robot r;
    if (looksLikeXml(text)) {  // URDF (docs/robot-format.md)
      r.model = modelFromUrdfString(text, urdf);
      r.format = RobotFormat::Urdf;
    } else {
      refuseUrdfOptions(urdf);
      r = robotFromJsonString(text);
    }
    r.source = s;
    return r;
  } catch (const Error& e) {
    throw Error(s + ": " + e.what());
  }
}

Model loadRobot(const std::string& s, const UrdfOptions& urdf) {
  Robot r = readRobot(s, urdf);
  r.requireChain();
  return std::move(r.model);
}

ParallelRobot loadParallel(const std::string& s) {
  Robot r = readRobot(s);
  r.requireParallel();
  return std::move(*r.parallel);
}

Model builtinModel(const std::string& name) {
  if (findBuiltinRobot(name)) return loadRobot(name);
  if (looksLikeXml(name)) throw Error("robot: this is XML text, not a built-in name; read URDF with modelFromUrdf (loadModel in JS)");
  throw Error("robot: unknown built-in " + quoteInput(name) + " (built-ins: " + builtinRobotNames() + ")");
}

std::string readRobotFile(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw Error(nameInput(path) + ": cannot open file");
  return readBounded(f, path);
}

std::string robotText(const std::string& s) {
  if (const BuiltinRobot* b = findBuiltinRobot(s)) return b->json;
  return readRobotFile(s);
}

}  // namespace achain
