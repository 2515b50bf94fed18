// The design-space file and the sweep's JSON (io/design_json.hpp; docs/sweeps.md). Every bad field is named by
// its path; the base robot is read once here, so pointers, the move and the metrics are checked before any design
// runs.
#include <achain/io/design_json.hpp>

#include <cmath>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include <achain/io/json_text.hpp>
#include <achain/io/xml_tree.hpp>
#include <achain/math/text.hpp>
#include <achain/model/caps.hpp>
#include <achain/model/robots.hpp>

#include "json_fields.hpp"

namespace achain {

namespace design_json_detail {

using nlohmann::json;
using io_detail::checkKeys;
using io_detail::fail;
using io_detail::idx;
using io_detail::join;
using io_detail::requireObject;
using io_detail::typeName;

double finite(const json& v, const std::string& path) {
  if (!v.is_number()) fail(path, std::string("must be a number, got ") + typeName(v));
  const double x = v.get<double>();
  if (std::isnan(x)) fail(path, "must be a number (got NaN)");
  if (!std::isfinite(x)) fail(path, "must be finite (got " + std::string(x > 0 ? "inf" : "-inf") + ")");
  return x;
}

/// A non-negative integer ≤ max (an integral floating-point value such as 1e4 is accepted).
uint64_t unsignedInt(const json& v, const std::string& path, uint64_t max) {
  if (v.is_number_unsigned()) {
    const uint64_t x = v.get<uint64_t>();
    if (x > max) fail(path, "must be at most " + std::to_string(max) + " (got " + std::to_string(x) + ")");
    return x;
  }
  if (v.is_number_integer()) {
    const int64_t x = v.get<int64_t>();
    if (x < 0) fail(path, "must be ≥ 0 (got " + std::to_string(x) + ")");
    if (uint64_t(x) > max) fail(path, "must be at most " + std::to_string(max) + " (got " + std::to_string(x) + ")");
    return uint64_t(x);
  }
  const double x = finite(v, path);
  if (!(x >= 0) || x != std::floor(x) || x > double(max))
    fail(path, "must be an integer in [0, " + std::to_string(max) + "] (got " + v.dump() + ")");
  return uint64_t(x);
}

std::string str(const json& v, const std::string& path) {
  if (!v.is_string()) fail(path, std::string("must be a string, got ") + typeName(v));
  return v.get<std::string>();
}

bool boolean(const json& v, const std::string& path) {
  if (!v.is_boolean()) fail(path, std::string("must be true or false, got ") + typeName(v));
  return v.get<bool>();
}

std::vector<double> numbers(const json& v, const std::string& path, size_t n) {
  if (!v.is_array()) fail(path, std::string("must be an array of numbers, got ") + typeName(v));
  if (n && v.size() != n)
    fail(path, "must hold " + std::to_string(n) + " numbers (one per coordinate), got " + std::to_string(v.size()));
  std::vector<double> out;
  for (size_t i = 0; i < v.size(); ++i) out.push_back(finite(v[i], idx(path, i)));
  return out;
}

Vec3 vec3(const json& v, const std::string& path) {
  const std::vector<double> x = numbers(v, path, 0);
  if (x.size() != 3) fail(path, "must be [x, y, z] (3 numbers), got " + std::to_string(x.size()));
  return Vec3(x[0], x[1], x[2]);
}

bool isAbsolute(const std::string& p) { return !p.empty() && p[0] == '/'; }

/// The base robot's JSON from the "robot" field; `source` says where it came from.
json baseRobot(const json& v, const std::string& base_dir, std::string& source) {
  if (v.is_object()) {
    source = "(inline)";
    return v;
  }
  if (!v.is_string())
    fail("robot", std::string("must be a built-in name, a robot JSON file's path or a robot description (an object), got ") +
                      typeName(v));
  const std::string s = v.get<std::string>();
  if (s.empty()) fail("robot", "must not be empty");
  std::string text;
  if (const BuiltinRobot* b = findBuiltinRobot(s)) {
    text = b->json;
    source = s;
  } else {
    const std::string path = isAbsolute(s) || base_dir.empty() ? s : base_dir + "/" + s;
    try {
      text = readRobotFile(path);
    } catch (const Error& e) {
      fail("robot", quoteInput(s) + " is neither a built-in (" + builtinRobotNames() + ") nor a readable file (" + e.what() + ")");
    }
    source = path;
  }
  if (looksLikeXml(text))
    fail("robot", nameInput(s) + " is a URDF file: the parameters are JSON pointers into a robot JSON description, which a URDF "
                                 "is not; describe the robot in JSON (docs/robot-format.md)");
  try {
    return parseJsonText(text);
  } catch (const Error& e) {
    fail("robot", nameInput(source) + ": " + e.what());
  }
}

/// Checks a pointer against the base robot: its parent exists; an existing value is a number; a missing key of an
/// object is added (an array index must exist).
void checkPointer(const json& robot, const std::string& text, const std::string& path) {
  json::json_pointer p;
  try {
    p = json::json_pointer(text);
  } catch (const std::exception& e) {
    fail(path, quoteInput(text) + " is not a JSON pointer (RFC 6901: \"/joints/0/leg_length\")");
  }
  if (p.empty()) fail(path, "must name a field of the robot, not the whole description");
  const json::json_pointer parent = p.parent_pointer();
  if (!robot.contains(parent) || !(robot.at(parent).is_object() || robot.at(parent).is_array()))
    fail(path, quoteInput(text) + " does not exist in the robot (no object or array at " + quoteInput(parent.to_string()) + ")");
  if (robot.at(parent).is_array() && !robot.contains(p))
    fail(path, quoteInput(text) + " does not exist in the robot (the array at " + quoteInput(parent.to_string()) + " has " +
                   std::to_string(robot.at(parent).size()) + " entries)");
  if (robot.contains(p) && !robot.at(p).is_number())
    fail(path, quoteInput(text) + " holds " + typeName(robot.at(p)) + " in the robot, not a number");
  const std::string top = text.substr(1, text.find('/', 1) == std::string::npos ? std::string::npos : text.find('/', 1) - 1);
  if (top == "units" || top == "schema_version")
    fail(path, quoteInput(text) + ": a parameter cannot change the robot's " + top);
}

DesignMetricRef metricRef(const DesignSpace& s, const json& v, const std::string& path, bool need_scalar,
                          const std::map<std::string, size_t>& array_sizes) {
  const std::string text = str(v, path);
  DesignMetricRef r;
  const size_t b = text.find('[');
  if (b == std::string::npos) {
    r.name = text;
  } else {
    r.name = text.substr(0, b);
    const std::string digits = text.substr(b + 1, text.size() >= b + 2 ? text.size() - b - 2 : 0);
    if (text.back() != ']' || digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string::npos)
      fail(path, quoteInput(text) + ": expected a metric name or name[index] (e.g. peak_torque_joints[1])");
    r.index = std::stoi(digits);
  }
  const std::vector<std::string> names = designMetricNames(s);
  bool known = false;
  std::string list;
  for (const std::string& n : names) {
    known = known || n == r.name;
    list += (list.empty() ? "" : ", ") + n;
  }
  if (!known)
    fail(path, quoteInput(r.name) + " is not a metric of this design space (its metrics: " + (list.empty() ? "none" : list) + ")");
  const auto a = array_sizes.find(r.name);
  if (a != array_sizes.end()) {
    if (r.index < 0 && need_scalar) fail(path, quoteInput(r.name) + " is an array: name one element, e.g. " + r.name + "[0]");
    if (r.index >= 0 && size_t(r.index) >= a->second)
      fail(path, quoteInput(text) + ": the base robot has " + std::to_string(a->second) + " values of " + r.name);
  } else if (r.index >= 0) {
    fail(path, quoteInput(r.name) + " is a number, not an array");
  }
  return r;
}

}  // namespace design_json_detail

using nlohmann::json;

DesignSpace designSpaceFromJson(const json& doc, const std::string& base_dir) {
  using namespace design_json_detail;
  if (!doc.is_object()) fail("(document)", std::string("a design space is a JSON object, got ") + typeName(doc));
  checkKeys(doc, "", {"format", "version", "name", "description", "notes", "robot", "parameters", "sample", "metrics",
                      "constraints", "objectives"});
  if (!doc.contains("format")) fail("format", "missing: a design-space file starts with \"format\": \"achain-design-space\"");
  if (str(doc.at("format"), "format") != "achain-design-space")
    fail("format", "expected \"achain-design-space\", got " + quoteInput(doc.at("format").get<std::string>()));
  if (!doc.contains("version")) fail("version", "missing (this library reads version 1)");
  if (unsignedInt(doc.at("version"), "version", 1000000) != 1)
    fail("version", "this library reads version 1 (got " + doc.at("version").dump() + ")");
  for (const char* k : {"name", "description"})
    if (doc.contains(k)) str(doc.at(k), k);
  if (doc.contains("notes")) {
    if (!doc.at("notes").is_array()) fail("notes", "must be an array of strings");
    for (size_t i = 0; i < doc.at("notes").size(); ++i) str(doc.at("notes")[i], idx("notes", i));
  }

  DesignSpace s;
  if (!doc.contains("robot")) fail("robot", "missing: a built-in name, a robot JSON file's path or a robot description");
  const json robot = baseRobot(doc.at("robot"), base_dir, s.robot_source);
  Robot base;
  try {
    base = robotFromJson(robot);
    base.requireChain();
  } catch (const Error& e) {
    fail("robot", nameInput(s.robot_source) + ": " + e.what());
  }
  s.robot_json = robot.dump();
  s.nq = base.model.nq;

  // parameters
  if (!doc.contains("parameters")) fail("parameters", "missing: the parameters that vary (at least one)");
  const json& P = doc.at("parameters");
  if (!P.is_array() || P.empty()) fail("parameters", "must be a non-empty array of parameters");
  if (P.size() > 64) fail("parameters", "at most 64 parameters (got " + std::to_string(P.size()) + ")");
  std::map<std::string, std::string> written;  // pointer → the parameter path writing it
  std::set<std::string> names;
  for (size_t i = 0; i < P.size(); ++i) {
    const std::string pp = idx("parameters", i);
    const json& pj = requireObject(P[i], pp);
    checkKeys(pj, pp, {"name", "pointers", "range", "count", "values"});
    DesignParameter p;
    if (!pj.contains("name")) fail(join(pp, "name"), "missing");
    p.name = str(pj.at("name"), join(pp, "name"));
    if (p.name.empty()) fail(join(pp, "name"), "must not be empty");
    if (!names.insert(p.name).second) fail(join(pp, "name"), quoteInput(p.name) + " is the name of an earlier parameter too");
    if (!pj.contains("pointers")) fail(join(pp, "pointers"), "missing: where the value is written, e.g. [\"/joints/0/leg_length\"]");
    const json& ptrs = pj.at("pointers");
    if (!ptrs.is_array() || ptrs.empty()) fail(join(pp, "pointers"), "must be a non-empty array of JSON pointers");
    for (size_t k = 0; k < ptrs.size(); ++k) {
      const std::string kp = idx(join(pp, "pointers"), k);
      DesignPointer d;
      if (ptrs[k].is_string()) {
        d.pointer = ptrs[k].get<std::string>();
      } else if (ptrs[k].is_object()) {
        checkKeys(ptrs[k], kp, {"pointer", "scale", "offset"});
        if (!ptrs[k].contains("pointer")) fail(join(kp, "pointer"), "missing");
        d.pointer = str(ptrs[k].at("pointer"), join(kp, "pointer"));
        if (ptrs[k].contains("scale")) d.scale = finite(ptrs[k].at("scale"), join(kp, "scale"));
        if (ptrs[k].contains("offset")) d.offset = finite(ptrs[k].at("offset"), join(kp, "offset"));
      } else {
        fail(kp, std::string("must be a JSON pointer (a string) or {\"pointer\", \"scale\", \"offset\"}, got ") + typeName(ptrs[k]));
      }
      checkPointer(robot, d.pointer, kp);
      const auto w = written.find(d.pointer);
      if (w != written.end()) fail(kp, quoteInput(d.pointer) + " is written by " + w->second + " too");
      written[d.pointer] = kp;
      p.pointers.push_back(d);
    }
    const bool has_range = pj.contains("range"), has_values = pj.contains("values");
    if (has_range == has_values) fail(pp, "give either \"range\": [lower, upper] or \"values\": [...]");
    if (has_range) {
      const std::vector<double> r = numbers(pj.at("range"), join(pp, "range"), 0);
      if (r.size() != 2) fail(join(pp, "range"), "must be [lower, upper] (2 numbers), got " + std::to_string(r.size()));
      if (!(r[0] < r[1]))
        fail(join(pp, "range"), "empty range: lower must be below upper (got [" + pj.at("range")[0].dump() + ", " +
                                    pj.at("range")[1].dump() + "]; a fixed value is \"values\": [x])");
      p.lower = r[0];
      p.upper = r[1];
      if (pj.contains("count")) p.count = int(unsignedInt(pj.at("count"), join(pp, "count"), 1000000));
      if (pj.contains("count") && p.count < 2) fail(join(pp, "count"), "must be ≥ 2 (the grid runs lower … upper)");
    } else {
      if (pj.contains("count")) fail(join(pp, "count"), "a list parameter has no count (its values are its grid)");
      p.values = numbers(pj.at("values"), join(pp, "values"), 0);
      if (p.values.empty()) fail(join(pp, "values"), "must hold at least one value");
      if (p.values.size() > 1000000) fail(join(pp, "values"), "at most 1000000 values");
    }
    s.parameters.push_back(std::move(p));
  }

  // sample
  if (doc.contains("sample")) {
    const json& S = requireObject(doc.at("sample"), "sample");
    checkKeys(S, "sample", {"kind", "count", "seed"});
    if (!S.contains("kind")) fail("sample.kind", "missing: grid, random or sobol");
    const std::string kind = str(S.at("kind"), "sample.kind");
    if (kind == "grid") s.sample.kind = DesignSampleKind::Grid;
    else if (kind == "random") s.sample.kind = DesignSampleKind::Random;
    else if (kind == "sobol") s.sample.kind = DesignSampleKind::Sobol;
    else fail("sample.kind", "expected grid, random or sobol, got " + quoteInput(kind));
    if (s.sample.kind == DesignSampleKind::Grid) {
      for (const char* k : {"count", "seed"})
        if (S.contains(k)) fail(join("sample", k), "a grid has no " + std::string(k) + " (its designs are every combination)");
    } else {
      if (!S.contains("count")) fail("sample.count", "missing: how many designs to draw");
      const uint64_t cap = s.sample.kind == DesignSampleKind::Sobol ? (uint64_t(1) << 32) : kMaxDesigns;
      s.sample.count = unsignedInt(S.at("count"), "sample.count", cap);
      if (s.sample.count == 0) fail("sample.count", "must be ≥ 1");
      if (S.contains("seed")) s.sample.seed = unsignedInt(S.at("seed"), "sample.seed", uint64_t(1) << 53);
      if (s.sample.kind == DesignSampleKind::Sobol && s.parameters.size() > 32)
        fail("sample.kind", "sobol draws at most 32 parameters (the space has " + std::to_string(s.parameters.size()) + ")");
    }
  }
  if (s.sample.kind == DesignSampleKind::Grid) {
    uint64_t n = 1;
    for (size_t i = 0; i < s.parameters.size(); ++i) {
      const DesignParameter& p = s.parameters[i];
      if (!p.isList() && p.count == 0)
        fail(join(idx("parameters", i), "count"), "missing: a grid needs the number of values of a range (≥ 2)");
      const uint64_t c = p.isList() ? p.values.size() : uint64_t(p.count);
      if (n > kMaxDesigns / c) fail("sample", "the grid has more than 2^40 designs");
      n *= c;
    }
    s.count = n;
  } else {
    s.count = s.sample.count;
  }

  // metrics
  if (!doc.contains("metrics")) fail("metrics", "missing: at least one of workspace, move, collision, manipulability, ik");
  const json& M = requireObject(doc.at("metrics"), "metrics");
  checkKeys(M, "metrics", {"workspace", "move", "collision", "manipulability", "ik"});
  if (M.empty()) fail("metrics", "names no metric (workspace, move, collision, manipulability, ik)");
  std::map<std::string, size_t> array_sizes;
  if (M.contains("workspace")) {
    const json& W = requireObject(M.at("workspace"), "metrics.workspace");
    checkKeys(W, "metrics.workspace", {"voxel", "point", "target"});
    WorkspaceMetricSpec& w = s.metrics.workspace;
    w.enabled = true;
    if (!W.contains("voxel")) fail("metrics.workspace.voxel", "missing: the voxel edge in m");
    w.voxel = finite(W.at("voxel"), "metrics.workspace.voxel");
    if (!(w.voxel > 0)) fail("metrics.workspace.voxel", "must be > 0 m (got " + W.at("voxel").dump() + ")");
    if (W.contains("point")) w.point = vec3(W.at("point"), "metrics.workspace.point");
    if (W.contains("target")) {
      const json& T = requireObject(W.at("target"), "metrics.workspace.target");
      checkKeys(T, "metrics.workspace.target", {"min", "max"});
      for (const char* k : {"min", "max"})
        if (!T.contains(k)) fail(join("metrics.workspace.target", k), "missing: the box corner [x, y, z] in m");
      w.target_min = vec3(T.at("min"), "metrics.workspace.target.min");
      w.target_max = vec3(T.at("max"), "metrics.workspace.target.max");
      for (int i = 0; i < 3; ++i)
        if (!(w.target_min[i] < w.target_max[i]))
          fail("metrics.workspace.target", "empty box: min[" + std::to_string(i) + "] must be below max[" + std::to_string(i) + "]");
      w.has_target = true;
    }
  }
  if (M.contains("move")) {
    const json& V = requireObject(M.at("move"), "metrics.move");
    checkKeys(V, "metrics.move", {"from", "to", "profile", "rate", "legs"});
    MoveMetricSpec& m = s.metrics.move;
    m.enabled = true;
    if (V.contains("from") != V.contains("to")) fail("metrics.move", "give both from and to, or neither (the robot's defaults.move)");
    if (V.contains("from")) {
      m.has_move = true;
      m.from = numbers(V.at("from"), "metrics.move.from", size_t(s.nq));
      m.to = numbers(V.at("to"), "metrics.move.to", size_t(s.nq));
      json check = robot;  // the move read as the robot reads its own defaults.move: units and limits
      check["defaults"]["move"] = {{"from", m.from}, {"to", m.to}};
      try {
        robotFromJson(check);
      } catch (const Error& e) {
        fail("metrics.move", std::string("against the base robot: ") + e.what());
      }
    } else if (!base.defaults || !base.defaults->move) {
      fail("metrics.move", "the robot has no defaults.move: give from and to (in the robot file's units)");
    }
    if (V.contains("profile")) {
      m.profile = str(V.at("profile"), "metrics.move.profile");
      if (m.profile != "trapezoid" && m.profile != "cubic" && m.profile != "quintic" && m.profile != "septic")
        fail("metrics.move.profile", "expected trapezoid, cubic, quintic or septic, got " + quoteInput(m.profile));
    }
    if (V.contains("rate")) {
      m.rate = finite(V.at("rate"), "metrics.move.rate");
      if (!(m.rate > 0 && m.rate <= 100000)) fail("metrics.move.rate", "must be in (0, 100000] samples/s (got " + V.at("rate").dump() + ")");
    }
    if (V.contains("legs")) {
      try {
        m.legs = legModelFromString(str(V.at("legs"), "metrics.move.legs"));
      } catch (const Error& e) {
        fail("metrics.move.legs", e.what());
      }
    }
    for (int c = 0; c < s.nq; ++c) {
      const Joint& j = base.model.joints[base.model.coord_joint[c]];
      if (!std::isfinite(j.limits.velocity) || !std::isfinite(j.limits.acceleration))
        fail("metrics.move", "joint '" + j.name + "' has no velocity or acceleration limit (the move is planned at the limits)");
    }
    array_sizes["peak_torque_joints"] = size_t(s.nq);
    array_sizes["rms_torque_joints"] = size_t(s.nq);
  }
  if (M.contains("collision")) {
    const json& C = requireObject(M.at("collision"), "metrics.collision");
    checkKeys(C, "metrics.collision", {"leg_radius"});
    s.metrics.collision.enabled = true;
    if (C.contains("leg_radius")) {
      s.metrics.collision.leg_radius = finite(C.at("leg_radius"), "metrics.collision.leg_radius");
      if (s.metrics.collision.leg_radius < 0) fail("metrics.collision.leg_radius", "must be ≥ 0 m");
    }
    size_t apairs = 0;
    for (const Joint& j : base.model.joints) apairs += j.kind == JointKind::A && j.rho > 0;
    if (!apairs) fail("metrics.collision", "the base robot has no A-pair with ρ > 0 (no legs to collide)");
    array_sizes["collision_free_range_joints"] = apairs;
  }
  if (M.contains("manipulability")) {
    const json& Q = requireObject(M.at("manipulability"), "metrics.manipulability");
    checkKeys(Q, "metrics.manipulability", {"samples", "seed", "rows"});
    ManipulabilityMetricSpec& q = s.metrics.manipulability;
    q.enabled = true;
    if (Q.contains("samples")) q.samples = int(unsignedInt(Q.at("samples"), "metrics.manipulability.samples", 1000000));
    if (q.samples < 1) fail("metrics.manipulability.samples", "must be ≥ 1");
    if (Q.contains("seed")) q.seed = unsignedInt(Q.at("seed"), "metrics.manipulability.seed", uint64_t(1) << 53);
    if (Q.contains("rows")) {
      q.rows = str(Q.at("rows"), "metrics.manipulability.rows");
      if (q.rows != "all" && q.rows != "linear" && q.rows != "angular")
        fail("metrics.manipulability.rows", "expected all, linear or angular, got " + quoteInput(q.rows));
    }
  }
  if (M.contains("ik")) {
    const json& K = requireObject(M.at("ik"), "metrics.ik");
    checkKeys(K, "metrics.ik", {"targets", "seed", "restarts", "position_only"});
    IkMetricSpec& k = s.metrics.ik;
    k.enabled = true;
    if (K.contains("targets")) k.targets = int(unsignedInt(K.at("targets"), "metrics.ik.targets", 100000));
    if (k.targets < 1) fail("metrics.ik.targets", "must be ≥ 1");
    if (K.contains("seed")) k.seed = unsignedInt(K.at("seed"), "metrics.ik.seed", uint64_t(1) << 53);
    if (K.contains("restarts")) k.restarts = int(unsignedInt(K.at("restarts"), "metrics.ik.restarts", 100));
    if (K.contains("position_only")) k.position_only = boolean(K.at("position_only"), "metrics.ik.position_only");
  }

  // constraints and objectives
  if (doc.contains("constraints")) {
    const json& C = doc.at("constraints");
    if (!C.is_array()) fail("constraints", std::string("must be an array, got ") + typeName(C));
    for (size_t i = 0; i < C.size(); ++i) {
      const std::string cp = idx("constraints", i);
      requireObject(C[i], cp);
      checkKeys(C[i], cp, {"metric", "min", "max"});
      if (!C[i].contains("metric")) fail(join(cp, "metric"), "missing");
      DesignConstraint c;
      c.metric = metricRef(s, C[i].at("metric"), join(cp, "metric"), true, array_sizes);
      if (!C[i].contains("min") && !C[i].contains("max")) fail(cp, "give min, max or both");
      if (C[i].contains("min")) c.min = finite(C[i].at("min"), join(cp, "min"));
      if (C[i].contains("max")) c.max = finite(C[i].at("max"), join(cp, "max"));
      if (!(c.min <= c.max)) fail(cp, "min must not exceed max");
      s.constraints.push_back(c);
    }
  }
  if (doc.contains("objectives")) {
    const json& O = doc.at("objectives");
    if (!O.is_array()) fail("objectives", std::string("must be an array, got ") + typeName(O));
    for (size_t i = 0; i < O.size(); ++i) {
      const std::string op = idx("objectives", i);
      requireObject(O[i], op);
      checkKeys(O[i], op, {"metric", "goal"});
      if (!O[i].contains("metric")) fail(join(op, "metric"), "missing");
      if (!O[i].contains("goal")) fail(join(op, "goal"), "missing: min or max");
      DesignObjective o;
      o.metric = metricRef(s, O[i].at("metric"), join(op, "metric"), true, array_sizes);
      const std::string g = str(O[i].at("goal"), join(op, "goal"));
      if (g != "min" && g != "max") fail(join(op, "goal"), "expected min or max, got " + quoteInput(g));
      o.maximize = g == "max";
      s.objectives.push_back(o);
    }
  }
  json standalone = doc;
  standalone["robot"] = robot;
  s.document = standalone.dump();
  return s;
}

DesignSpace designSpaceFromJsonString(const std::string& text, const std::string& base_dir) {
  return designSpaceFromJson(parseJsonText(text), base_dir);
}

DesignSpace readDesignSpace(const std::string& path) {
  const std::string text = readTextFile(path, kMaxRobotFileBytes, nameInput(path));
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : slash == 0 ? "/" : path.substr(0, slash);
  try {
    return designSpaceFromJsonString(text, dir);
  } catch (const Error& e) {
    throw Error(nameInput(path) + ": " + e.what());
  }
}

json designRobotJson(const DesignSpace& space, uint64_t k) {
  const std::vector<double> v = designParameters(space, k);
  json robot = json::parse(space.robot_json);
  // named after its design, so a front end (the studio's Sweep view) and an export say which design it is
  robot["name"] = robot.value("name", std::string("robot")) + " (design " + std::to_string(k) + ")";
  for (size_t i = 0; i < space.parameters.size(); ++i)
    for (const DesignPointer& p : space.parameters[i].pointers)
      robot[json::json_pointer(p.pointer)] = p.scale * v[i] + p.offset;
  if (space.metrics.move.enabled && space.metrics.move.has_move) {
    if (!robot.contains("defaults") || !robot["defaults"].is_object()) robot["defaults"] = json::object();
    robot["defaults"]["move"] = {{"name", "the design space's move"}, {"from", space.metrics.move.from}, {"to", space.metrics.move.to}};
  }
  return robot;
}

Robot designRobot(const DesignSpace& space, uint64_t k) {
  Robot r = robotFromJson(designRobotJson(space, k));
  r.source = "design " + std::to_string(k);
  return r;
}

json designParametersJson(const DesignSpace& space, uint64_t k) {
  const std::vector<double> v = designParameters(space, k);
  json out = json::object();
  for (size_t i = 0; i < v.size(); ++i) out[space.parameters[i].name] = v[i];
  return out;
}

json designRecordToJson(const DesignSpace& space, const DesignRecord& r, bool seconds) {
  json params = json::object();
  for (size_t i = 0; i < r.parameters.size() && i < space.parameters.size(); ++i) params[space.parameters[i].name] = r.parameters[i];
  json metrics = json::object();
  for (const DesignMetricValue& m : r.metrics) metrics[m.name] = m.array ? json(m.values) : json(m.values.at(0));
  json out = {{"design", r.design},         {"parameters", params},       {"metrics", metrics},
              {"feasible", r.feasible},     {"violations", r.violations}, {"error", r.error.empty() ? json(nullptr) : json(r.error)}};
  if (seconds) out["seconds"] = r.seconds;
  return out;
}

DesignRecord designRecordFromJson(const DesignSpace& space, const json& j) {
  using namespace design_json_detail;
  if (!j.is_object()) fail("(record)", std::string("must be a JSON object, got ") + typeName(j));
  checkKeys(j, "", {"design", "parameters", "metrics", "feasible", "violations", "error", "seconds"});
  for (const char* k : {"design", "parameters", "metrics", "feasible", "violations", "error"})
    if (!j.contains(k)) fail(k, "missing");
  DesignRecord r;
  r.design = unsignedInt(j.at("design"), "design", kMaxDesigns);
  if (r.design >= space.count)
    fail("design", std::to_string(r.design) + " is not a design of this space (it has " + std::to_string(space.count) + ")");
  const std::string dk = "design " + std::to_string(r.design);
  r.parameters = designParameters(space, r.design);
  const json& P = requireObject(j.at("parameters"), "parameters");
  if (P.size() != space.parameters.size())
    fail("parameters", "has " + std::to_string(P.size()) + " values, the design space " + std::to_string(space.parameters.size()));
  for (size_t i = 0; i < space.parameters.size(); ++i) {
    const std::string& n = space.parameters[i].name;
    const std::string pp = join("parameters", n);
    if (!P.contains(n)) fail(pp, "missing (a shard of another design space?)");
    if (finite(P.at(n), pp) != r.parameters[i])
      fail(pp, P.at(n).dump() + " is not " + dk + "'s value " + json(r.parameters[i]).dump() + " (a shard of another design space?)");
  }
  if (j.at("error").is_string()) {
    r.error = j.at("error").get<std::string>();
    if (r.error.empty()) fail("error", "an empty string (null when there is no error)");
  } else if (!j.at("error").is_null()) {
    fail("error", std::string("must be null or a string, got ") + typeName(j.at("error")));
  }
  const json& M = requireObject(j.at("metrics"), "metrics");
  if (!r.error.empty()) {
    if (!M.empty()) fail("metrics", "must be empty in a record with an error");
  } else {
    const std::vector<std::string> names = designMetricNames(space);
    if (M.size() != names.size())
      fail("metrics", "has " + std::to_string(M.size()) + " metrics, the design space " + std::to_string(names.size()));
    for (const std::string& n : names) {
      const std::string mp = join("metrics", n);
      if (!M.contains(n)) fail(mp, "missing (a shard of another design space?)");
      const json& v = M.at(n);
      const bool array = n.size() > 7 && n.compare(n.size() - 7, 7, "_joints") == 0;
      DesignMetricValue mv{n, {}, array};
      if (array) {
        mv.values = numbers(v, mp, 0);
        if (mv.values.empty()) fail(mp, "must hold at least one value");
      } else {
        mv.values = {finite(v, mp)};
      }
      r.metrics.push_back(std::move(mv));
    }
  }
  r.feasible = boolean(j.at("feasible"), "feasible");
  const json& V = j.at("violations");
  if (!V.is_array()) fail("violations", std::string("must be an array of strings, got ") + typeName(V));
  for (size_t i = 0; i < V.size(); ++i) r.violations.push_back(str(V[i], idx("violations", i)));
  if (r.feasible != (r.error.empty() && r.violations.empty()))
    fail("feasible", std::string(r.feasible ? "true" : "false") + " contradicts the record's " +
                         (r.error.empty() ? "violations" : "error"));
  if (j.contains("seconds")) {
    r.seconds = finite(j.at("seconds"), "seconds");
    if (r.seconds < 0) fail("seconds", "must be ≥ 0");
  }
  return r;
}

json sweepMergedJson(const DesignSpace& space, const std::vector<DesignRecord>& records) {
  if (records.size() != space.count)
    throw Error("merge: " + std::to_string(records.size()) + " records for " + std::to_string(space.count) + " designs");
  json designs = json::array();
  size_t errors = 0, feasible = 0;
  struct Stat {
    double min = 0, max = 0, sum = 0;
    size_t n = 0;
  };
  std::map<std::string, Stat> stats;
  for (size_t k = 0; k < records.size(); ++k) {
    const DesignRecord& r = records[k];
    if (r.design != k) throw Error("merge: record " + std::to_string(k) + " is design " + std::to_string(r.design));
    designs.push_back(designRecordToJson(space, r, false));
    errors += !r.error.empty();
    feasible += r.feasible;
    if (!r.error.empty()) continue;
    for (const DesignMetricValue& m : r.metrics)
      for (size_t i = 0; i < m.values.size(); ++i) {
        Stat& s = stats[m.array ? m.name + "[" + std::to_string(i) + "]" : m.name];
        const double v = m.values[i];
        if (s.n == 0 || v < s.min) s.min = v;
        if (s.n == 0 || v > s.max) s.max = v;
        s.sum += v;
        ++s.n;
      }
  }
  json objectives = json::array();
  for (const DesignObjective& o : space.objectives) objectives.push_back({{"metric", o.metric.text()}, {"goal", o.maximize ? "max" : "min"}});
  const std::vector<uint64_t> front = paretoFront(space, records);
  json metrics = json::object();
  for (const auto& [name, s] : stats)
    metrics[name] = {{"min", s.min}, {"max", s.max}, {"mean", s.sum / double(s.n)}, {"unit", designMetricUnit(name)}};
  return {{"format", "achain-sweep"},
          {"version", 1},
          {"design_space", json::parse(space.document)},
          {"count", space.count},
          {"objectives", objectives},
          {"designs", designs},
          {"pareto", front},
          {"summary", {{"designs", space.count}, {"errors", errors}, {"feasible", feasible}, {"pareto", front.size()}, {"metrics", metrics}}}};
}

}  // namespace achain
