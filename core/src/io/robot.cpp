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

#include "json_fields.hpp"

namespace achain {

const char* toString(RobotFormat f) { return f == RobotFormat::Urdf ? "urdf" : f == RobotFormat::Parallel ? "parallel" : "json"; }

namespace {
/// True when the text has nothing but white space (an empty file, an empty string from the page).
bool isBlank(const std::string& t) { return t.find_first_not_of(" \t\r\n") == std::string::npos; }

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

namespace {

namespace fields = io_detail;  // the field readers every robot-file reader shares (json_fields.hpp)

std::string optionalString(const nlohmann::json& obj, const char* key, const std::string& path) {
  if (!obj.contains(key)) return {};
  const nlohmann::json& v = obj.at(key);
  if (!v.is_string()) fields::fail(path + "." + key, std::string("must be a string, got ") + fields::typeName(v));
  return v.get<std::string>();
}

/// One value per coordinate, each in the file's angle or length unit by the coordinate's joint, within its limits.
VecX movePoint(const nlohmann::json& v, const std::string& path, const Model& m, const fields::UnitFactors& u) {
  if (!v.is_array()) fields::fail(path, std::string("must be an array of ") + std::to_string(m.nq) + " numbers, got " + fields::typeName(v));
  if (v.size() != static_cast<size_t>(m.nq))
    fields::fail(path, "must have one value per coordinate (" + std::to_string(m.nq) + "), got " + std::to_string(v.size()));
  VecX q(m.nq);
  for (int c = 0; c < m.nq; ++c) {
    const std::string p = path + "[" + std::to_string(c) + "]";
    const int joint = m.coord_joint[c];
    const bool angular = m.jmodels[joint].angular();
    q[c] = fields::asNumber(v[c], p) * (angular ? u.angle : u.length);
    const JointLimits& L = m.joints[joint].limits;
    if (q[c] < L.lower - 1e-12 || q[c] > L.upper + 1e-12)
      fields::fail(p, "outside joints[" + std::to_string(joint) + "].limits (" + shortNumber(v[c].get<double>()) + " in the file's " +
                  (angular ? "angle" : "length") + " unit)");
  }
  return q;
}

}  // namespace

RobotDefaults robotDefaultsFromJson(const nlohmann::json& j, const Model& m) {
  RobotDefaults d;
  if (!j.contains("defaults")) return d;
  const nlohmann::json& D = fields::requireObject(j.at("defaults"), "defaults");
  fields::checkKeys(D, "defaults", {"move", "workspace", "drive_variant"});
  const fields::UnitFactors u = fields::unitFactors(j);
  if (D.contains("move")) {
    const nlohmann::json& M = fields::requireObject(D.at("move"), "defaults.move");
    fields::checkKeys(M, "defaults.move", {"name", "from", "to"});
    for (const char* k : {"from", "to"})
      if (!M.contains(k)) fields::fail(std::string("defaults.move.") + k, "missing required field");
    RobotDefaults::Move mv;
    mv.name = optionalString(M, "name", "defaults.move");
    mv.from = movePoint(M.at("from"), "defaults.move.from", m, u);
    mv.to = movePoint(M.at("to"), "defaults.move.to", m, u);
    d.move = std::move(mv);
  }
  if (D.contains("workspace")) {
    const nlohmann::json& W = fields::requireObject(D.at("workspace"), "defaults.workspace");
    fields::checkKeys(W, "defaults.workspace", {"voxel", "reference"});
    if (W.contains("voxel")) {
      const double v = fields::asNumber(W.at("voxel"), "defaults.workspace.voxel") * u.length;
      if (!(v > 0)) fields::fail("defaults.workspace.voxel", "must be > 0 (a voxel edge in the file's length unit)");
      d.workspace_voxel = v;
    }
    if (W.contains("reference")) {
      if (!d.workspace_voxel) fields::fail("defaults.workspace.reference", "needs defaults.workspace.voxel (the voxel it was counted at)");
      const nlohmann::json& R = fields::requireObject(W.at("reference"), "defaults.workspace.reference");
      fields::checkKeys(R, "defaults.workspace.reference", {"voxels", "source", "note"});
      if (!R.contains("voxels")) fields::fail("defaults.workspace.reference.voxels", "missing required field");
      RobotDefaults::WorkspaceReference ref;
      ref.voxels = fields::asNumber(R.at("voxels"), "defaults.workspace.reference.voxels");
      if (!(ref.voxels > 0)) fields::fail("defaults.workspace.reference.voxels", "must be > 0 (a voxel count)");
      ref.source = optionalString(R, "source", "defaults.workspace.reference");
      ref.note = optionalString(R, "note", "defaults.workspace.reference");
      d.workspace_reference = std::move(ref);
    }
  }
  d.drive_variant = optionalString(D, "drive_variant", "defaults");
  return d;
}

nlohmann::json robotDefaultsToJson(const RobotDefaults& d, const Model& m) {
  nlohmann::json D = nlohmann::json::object();
  if (d.move) {
    if (d.move->from.size() != m.nq || d.move->to.size() != m.nq)
      throw Error("defaults.move: does not match the model (" + std::to_string(m.nq) + " coordinates)");
    nlohmann::json mv = {{"from", std::vector<double>(d.move->from.data(), d.move->from.data() + m.nq)},
                         {"to", std::vector<double>(d.move->to.data(), d.move->to.data() + m.nq)}};
    if (!d.move->name.empty()) mv["name"] = d.move->name;
    D["move"] = mv;
  }
  if (d.workspace_voxel) {
    nlohmann::json W = {{"voxel", *d.workspace_voxel}};
    if (d.workspace_reference) {
      nlohmann::json R = {{"voxels", d.workspace_reference->voxels}};
      if (!d.workspace_reference->source.empty()) R["source"] = d.workspace_reference->source;
      if (!d.workspace_reference->note.empty()) R["note"] = d.workspace_reference->note;
      W["reference"] = R;
    }
    D["workspace"] = W;
  }
  if (!d.drive_variant.empty()) D["drive_variant"] = d.drive_variant;
  return D;
}

Robot robotFromJson(const nlohmann::json& j) {
  Robot r;
  if (isParallelRobot(j)) {  // a parallel robot file: its legs are the models (parallel_json.cpp)
    r.parallel = parallelFromJson(j);
    r.format = RobotFormat::Parallel;
    r.model.name = r.parallel->name;
    return r;
  }
  r.model = io_detail::modelDescriptionFromJson(j);  // each section below is read once, with the model
  if (j.contains("loop")) r.loop = loopFromJson(j, r.model);
  if (hasDrives(j)) r.drives = jointFlexibilityFromJson(j, r.model);
  if (hasFlexibleLinks(j)) r.flexible_links = flexibleLinksFromJson(j, r.model);
  if (j.contains("defaults")) r.defaults = robotDefaultsFromJson(j, r.model);
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
  if (isBlank(text)) throw Error(s + ": the file is empty (expected a URDF or a JSON robot description)");
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
  if (isBlank(name)) throw Error("robot: the description is empty (expected a URDF, a JSON robot description or a built-in name)");
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
