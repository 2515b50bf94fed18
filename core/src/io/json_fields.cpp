// The robot file's field readers (json_fields.hpp): every reader of a robot file (model, loop, drives, flexible
// links, parallel robots) names a bad field by its path and takes values to SI by the file's units through these.
#include "json_fields.hpp"

#include <achain/math/text.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>

namespace achain::io_detail {

using nlohmann::json;

const char* typeName(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::string: return "a string";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    case json::value_t::binary: return "binary";
    case json::value_t::discarded: return "discarded";
    default: return "a number";
  }
}

namespace {

double lookupUnit(const json& units, const std::string& key, const std::map<std::string, double>& table) {
  if (!units.contains(key)) return 1.0;
  const json& v = units.at(key);
  const std::string path = "units." + key;
  if (!v.is_string()) fail(path, std::string("must be a string, got ") + typeName(v));
  const std::string s = v.get<std::string>();
  auto it = table.find(s);
  if (it == table.end()) {
    std::string names;
    for (const auto& kv : table) names += (names.empty() ? "" : ", ") + kv.first;
    fail(path, "unknown unit " + quoteInput(s) + " (expected one of: " + names + ")");
  }
  return it->second;
}
}  // namespace

UnitFactors unitFactors(const json& j) {
  UnitFactors u;
  if (j.contains("units")) {
    const json& U = requireObject(j.at("units"), "units");
    checkKeys(U, "units", {"length", "angle", "mass", "torque", "force"});
    u.length = lookupUnit(U, "length", {{"m", 1.0}, {"mm", 1e-3}, {"cm", 1e-2}, {"in", 0.0254}, {"ft", 0.3048}});
    u.angle = lookupUnit(U, "angle", {{"rad", 1.0}, {"deg", kDeg}});
    u.mass = lookupUnit(U, "mass", {{"kg", 1.0}, {"g", 1e-3}, {"lb", 0.45359237}, {"slug", 14.593902937206}});
    u.torque = lookupUnit(U, "torque", {{"N*m", 1.0}, {"N*mm", 1e-3}, {"lbf*in", 0.1129848290276167}, {"lbf*ft", 1.3558179483314004}});
    u.force = lookupUnit(U, "force", {{"N", 1.0}, {"lbf", 4.4482216152605}});
  }
  return u;
}

[[noreturn]] void fail(const std::string& path, const std::string& msg) { throw Error(path + ": " + msg); }

std::string join(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }
std::string idx(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

void checkKeys(const json& obj, const std::string& path, const std::set<std::string>& allowed) {
  for (auto it = obj.begin(); it != obj.end(); ++it)
    if (!allowed.count(it.key())) {
      std::string names;
      for (const auto& a : allowed) names += (names.empty() ? "" : ", ") + a;
      // a plain key is named as it is; a long one or one with control characters is escaped and cut
      fail(join(path, nameInput(it.key(), 64)), "unknown field (allowed here: " + names + ")");
    }
}

const json& requireObject(const json& v, const std::string& path) {
  if (!v.is_object()) fail(path, std::string("must be an object, got ") + typeName(v));
  return v;
}

double asNumber(const json& v, const std::string& path) {
  if (!v.is_number()) fail(path, std::string("must be a number, got ") + typeName(v));
  const double x = v.get<double>();
  if (std::isnan(x)) fail(path, "must be a number (got NaN)");
  return x;
}

double number(const json& obj, const std::string& path, const std::string& key, double def) {
  if (!obj.contains(key)) return def;
  return asNumber(obj.at(key), join(path, key));
}

double requiredNumber(const json& obj, const std::string& path, const std::string& key) {
  if (!obj.contains(key)) fail(join(path, key), "missing required field");
  return asNumber(obj.at(key), join(path, key));
}

Vec3 vec3(const json& v, const std::string& path) {
  if (!v.is_array() || v.size() != 3) fail(path, std::string("must be an array of 3 numbers, got ") + (v.is_array() ? "an array of " + std::to_string(v.size()) : typeName(v)));
  return Vec3(asNumber(v[0], idx(path, 0)), asNumber(v[1], idx(path, 1)), asNumber(v[2], idx(path, 2)));
}

Mat3 inertia(const json& v, const std::string& path) {
  Mat3 I;
  if (v.is_array() && v.size() == 3 && v[0].is_array()) {
    for (int r = 0; r < 3; ++r) {
      const std::string pr = idx(path, r);
      if (!v[r].is_array() || v[r].size() != 3) fail(pr, "must be a row of 3 numbers");
      for (int c = 0; c < 3; ++c) I(r, c) = asNumber(v[r][c], idx(pr, c));
    }
    return I;
  }
  if (v.is_array() && v.size() == 6) {  // [Ixx, Iyy, Izz, Ixy, Iyz, Ixz]
    double e[6];
    for (int k = 0; k < 6; ++k) e[k] = asNumber(v[k], idx(path, k));
    I << e[0], e[3], e[5], e[3], e[1], e[4], e[5], e[4], e[2];
    return I;
  }
  fail(path, "must be a 3×3 array or [Ixx, Iyy, Izz, Ixy, Iyz, Ixz]");
}

SE3 transform(const json& v, const std::string& path, const UnitFactors& u, std::set<std::string> extra) {
  requireObject(v, path);
  std::set<std::string> allowed = {"xyz", "rpy", "matrix"};
  allowed.insert(extra.begin(), extra.end());
  checkKeys(v, path, allowed);
  SE3 T;
  if (v.contains("matrix")) {
    if (v.contains("xyz") || v.contains("rpy")) fail(path, "give either matrix or xyz/rpy, not both");
    const json& m = v.at("matrix");
    const std::string pm = join(path, "matrix");
    if (!m.is_array() || m.size() != 4) fail(pm, "must be a 4×4 array");
    Mat4 M;
    for (int r = 0; r < 4; ++r) {
      if (!m[r].is_array() || m[r].size() != 4) fail(idx(pm, r), "must be a row of 4 numbers");
      for (int c = 0; c < 4; ++c) M(r, c) = asNumber(m[r][c], idx(idx(pm, r), c));
    }
    if (M(3, 0) != 0 || M(3, 1) != 0 || M(3, 2) != 0 || M(3, 3) != 1) fail(pm, "last row must be [0, 0, 0, 1]");
    T = SE3::fromMatrix(M);
    T.p *= u.length;
  } else {
    if (v.contains("xyz")) T.p = vec3(v.at("xyz"), join(path, "xyz")) * u.length;
    if (v.contains("rpy")) {
      const Vec3 r = vec3(v.at("rpy"), join(path, "rpy")) * u.angle;
      T.R = rpyToMatrix(r.x(), r.y(), r.z());
    }
  }
  return T;
}

json transformToJson(const SE3& T) {
  json rows = json::array();
  const Mat4 M = T.matrix();
  for (int r = 0; r < 4; ++r) rows.push_back({M(r, 0), M(r, 1), M(r, 2), M(r, 3)});
  return json{{"matrix", rows}};
}

/// An integer that fits an int exactly (no truncation of 4294967295 to −1).
int exactInt(const json& v, const std::string& path, const char* what) {
  if (!v.is_number_integer()) fail(path, std::string("must be ") + what + ", got " + typeName(v));
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > std::uint64_t(std::numeric_limits<int>::max())) fail(path, std::string("must be ") + what + " (got " + std::to_string(u) + ", out of range)");
    return int(u);
  }
  const auto i = v.get<std::int64_t>();
  if (i < std::numeric_limits<int>::min() || i > std::numeric_limits<int>::max())
    fail(path, std::string("must be ") + what + " (got " + std::to_string(i) + ", out of range)");
  return int(i);
}

bool anyJointHas(const json& doc, const char* key) {
  if (!doc.is_object() || !doc.contains("joints") || !doc.at("joints").is_array()) return false;
  for (const json& jj : doc.at("joints"))
    if (jj.is_object() && jj.contains(key)) return true;
  return false;
}

// "name", "description" (strings) and "notes" (an array of strings) of a document.
void descriptionFields(const json& j, std::string& name, std::string& description, std::vector<std::string>& notes) {
  auto str = [&](const char* key, std::string& out) {
    if (!j.contains(key)) return;
    if (!j.at(key).is_string()) fail(key, std::string("must be a string, got ") + typeName(j.at(key)));
    out = j.at(key).get<std::string>();
  };
  str("name", name);
  str("description", description);
  if (j.contains("notes")) {
    const json& n = j.at("notes");
    if (!n.is_array()) fail("notes", std::string("must be an array of strings, got ") + typeName(n));
    for (size_t i = 0; i < n.size(); ++i) {
      if (!n[i].is_string()) fail(idx("notes", i), std::string("must be a string, got ") + typeName(n[i]));
      notes.push_back(n[i].get<std::string>());
    }
  }
}

}  // namespace achain::io_detail
