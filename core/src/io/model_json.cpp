#include <achain/io/model_json.hpp>
#include <achain/io/loop_json.hpp>
#include <achain/io/drive_json.hpp>
#include <achain/io/flexible_json.hpp>
#include <achain/math/text.hpp>

#include <achain/model/apair_collision.hpp>
#include <achain/io/json_text.hpp>
#include "json_fields.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <set>

namespace achain {

using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& msg) { throw Error(path + ": " + msg); }

std::string join(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }
std::string idx(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

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

/// Factors that take file units to SI.
struct Units {
  double length = 1, angle = 1, mass = 1, torque = 1, force = 1;
};

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

SE3 transform(const json& v, const std::string& path, const Units& u, std::set<std::string> extra = {}) {
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

JointKind parseKind(const json& v, const std::string& path) {
  if (!v.is_string())
    fail(path, std::string("must be one of \"R\", \"P\", \"H\", \"A\", \"law\", \"fixed\", got ") + typeName(v));
  const std::string s = v.get<std::string>();
  if (s == "R") return JointKind::R;
  if (s == "P") return JointKind::P;
  if (s == "H") return JointKind::H;
  if (s == "A") return JointKind::A;
  if (s == "law") return JointKind::Law;
  if (s == "fixed") return JointKind::Fixed;
  fail(path, "unknown joint kind " + quoteInput(s) + " (expected R, P, H, A, law or fixed)");
}

/// A joint's axial law (kind "law"): {"c": [c1, c2, c3], "sine": [{"amplitude", "frequency", "phase"}, …]},
/// f(u) = c1·u + c2·u² + c3·u³ + Σ amplitude·sin(frequency·u + phase), in the file's length and angle units.
AxialLaw parseLaw(const json& v, const std::string& path, const Units& u) {
  requireObject(v, path);
  checkKeys(v, path, {"c", "sine"});
  AxialLaw law;
  if (v.contains("c")) {
    const json& c = v.at("c");
    const std::string pc = join(path, "c");
    if (!c.is_array() || c.empty() || c.size() > 3) fail(pc, "must be an array of 1 to 3 numbers [c1, c2, c3]");
    double* out[3] = {&law.c1, &law.c2, &law.c3};
    for (size_t k = 0; k < c.size(); ++k) *out[k] = asNumber(c[k], idx(pc, k)) * u.length / std::pow(u.angle, double(k + 1));
  }
  if (v.contains("sine")) {
    const json& S = v.at("sine");
    const std::string ps = join(path, "sine");
    if (!S.is_array()) fail(ps, std::string("must be an array of sine terms, got ") + typeName(S));
    if (S.size() > size_t(AxialLaw::kMaxSine)) fail(ps, "at most " + std::to_string(AxialLaw::kMaxSine) + " sine terms");
    law.nsine = int(S.size());
    for (size_t k = 0; k < S.size(); ++k) {
      const std::string pk = idx(ps, k);
      requireObject(S[k], pk);
      checkKeys(S[k], pk, {"amplitude", "frequency", "phase"});
      law.sine[k].amplitude = requiredNumber(S[k], pk, "amplitude") * u.length;
      law.sine[k].frequency = requiredNumber(S[k], pk, "frequency") / u.angle;
      law.sine[k].phase = number(S[k], pk, "phase", 0) * u.angle;
    }
  }
  return law;
}

json lawToJson(const AxialLaw& law) {
  json o = json::object();
  if (law.c1 != 0 || law.c2 != 0 || law.c3 != 0) o["c"] = {law.c1, law.c2, law.c3};
  json S = json::array();
  for (int k = 0; k < law.nsine; ++k)
    S.push_back({{"amplitude", law.sine[k].amplitude}, {"frequency", law.sine[k].frequency}, {"phase", law.sine[k].phase}});
  if (!S.empty()) o["sine"] = S;
  return o;
}

Joint parseJoint(const json& jj, size_t i, const Units& u, std::string& mimic_name) {
  const std::string p = idx("joints", i);
  requireObject(jj, p);
  checkKeys(jj, p, {"name", "kind", "parent", "a", "alpha", "d", "theta_f", "sign", "pitch", "rho", "leg_length",
                    "side", "legs", "limits", "motor", "link", "law", "mimic", "origin", "axis", "drive", "flexible"});
  Joint j;
  if (jj.contains("name")) {
    if (!jj.at("name").is_string()) fail(join(p, "name"), std::string("must be a string, got ") + typeName(jj.at("name")));
    j.name = jj.at("name").get<std::string>();
  } else {
    j.name = "joint" + std::to_string(i + 1);
  }
  if (!jj.contains("kind")) fail(join(p, "kind"), "missing required field");
  j.kind = parseKind(jj.at("kind"), join(p, "kind"));
  if (jj.contains("parent")) {
    const json& v = jj.at("parent");
    j.parent = exactInt(v, join(p, "parent"), "an integer");
  } else {
    j.parent = static_cast<int>(i) - 1;
  }
  if (jj.contains("origin") || jj.contains("axis")) {  // placed by origin/axis (as URDF) instead of DH a/alpha
    if (jj.contains("a") || jj.contains("alpha"))
      fail(join(p, jj.contains("a") ? "a" : "alpha"), "give either origin/axis or the DH a/alpha, not both");
    j.has_origin = true;
    if (jj.contains("origin")) j.origin = transform(jj.at("origin"), join(p, "origin"), u);
    if (jj.contains("axis")) {
      const Vec3 ax = vec3(jj.at("axis"), join(p, "axis"));
      if (!(ax.norm() > 0)) fail(join(p, "axis"), "must not be the zero vector");
      j.axis = std::abs(ax.norm() - 1) > 1e-12 ? Vec3(ax / ax.norm()) : ax;  // kept bit for bit when already unit
    }
  }
  j.a = number(jj, p, "a", 0) * u.length;
  j.alpha = number(jj, p, "alpha", 0) * u.angle;
  j.d = number(jj, p, "d", 0) * u.length;
  j.theta_f = number(jj, p, "theta_f", 0) * u.angle;
  if (jj.contains("sign")) {
    const json& v = jj.at("sign");
    j.sign = exactInt(v, join(p, "sign"), "1 or -1");
  }
  if (j.kind == JointKind::Law) {
    if (!jj.contains("law")) fail(join(p, "law"), "missing: a joint of kind 'law' needs its axial law");
    j.law = parseLaw(jj.at("law"), join(p, "law"), u);
  } else if (jj.contains("law")) {
    fail(join(p, "law"), std::string("only a joint of kind 'law' has an axial law (kind is ") + toString(j.kind) + ")");
  }
  if (jj.contains("mimic")) {  // this joint follows another: u = multiplier·u_other + offset (URDF's mimic)
    const std::string pm = join(p, "mimic");
    const json& M = requireObject(jj.at("mimic"), pm);
    checkKeys(M, pm, {"joint", "multiplier", "offset"});
    if (!M.contains("joint")) fail(join(pm, "joint"), "missing: the name or index of the joint to follow");
    const json& t = M.at("joint");
    if (t.is_string()) mimic_name = t.get<std::string>();
    else if (t.is_number_integer()) j.mimic = exactInt(t, join(pm, "joint"), "a joint index");
    else fail(join(pm, "joint"), std::string("must be a joint name or index, got ") + typeName(t));
    if (t.is_number_integer() && j.mimic < 0) fail(join(pm, "joint"), "must be a joint index ≥ 0");
    j.mimic_multiplier = number(M, pm, "multiplier", 1);
    j.mimic_offset = number(M, pm, "offset", 0) * (isAngular(j.kind) ? u.angle : u.length);
  }
  if (j.kind == JointKind::H) {
    j.pitch = requiredNumber(jj, p, "pitch") * u.length / u.angle;
  } else if (jj.contains("pitch")) {
    fail(join(p, "pitch"), "only a helical (H) joint has a pitch");
  }
  const int nsize = int(jj.contains("rho")) + int(jj.contains("leg_length")) + int(jj.contains("side"));
  if (j.kind == JointKind::A) {
    if (nsize == 0) fail(join(p, "rho"), "missing: an A-pair needs one of rho, leg_length or side");
    if (nsize > 1) fail(p, "give only one of rho, leg_length, side");
    if (jj.contains("rho")) {
      j.rho = asNumber(jj.at("rho"), join(p, "rho")) * u.length;
    } else if (jj.contains("leg_length")) {
      const double l = asNumber(jj.at("leg_length"), join(p, "leg_length"));
      if (!(l >= 0)) fail(join(p, "leg_length"), "must be ≥ 0");
      j.rho = apairRhoFromLeg(l * u.length);
    } else {
      const double s = asNumber(jj.at("side"), join(p, "side"));
      if (!(s >= 0)) fail(join(p, "side"), "must be ≥ 0");
      j.rho = apairRhoFromSide(s * u.length);
    }
    if (jj.contains("legs")) {
      const std::string pl = join(p, "legs");
      const json& L = requireObject(jj.at("legs"), pl);
      checkKeys(L, pl, {"mass", "radius"});
      j.leg_mass = number(L, pl, "mass", 0) * u.mass;
      j.leg_radius = number(L, pl, "radius", 0) * u.length;
    }
  } else {
    if (nsize > 0) fail(join(p, jj.contains("rho") ? "rho" : (jj.contains("side") ? "side" : "leg_length")),
                        std::string("only an A-pair has this (kind is ") + toString(j.kind) + ")");
    if (jj.contains("legs")) fail(join(p, "legs"), std::string("only an A-pair has legs (kind is ") + toString(j.kind) + ")");
  }
  const bool ang = isAngular(j.kind);
  const double pos = ang ? u.angle : u.length;
  if (jj.contains("limits")) {
    const std::string pl = join(p, "limits");
    const json& L = requireObject(jj.at("limits"), pl);
    checkKeys(L, pl, {"lower", "upper", "velocity", "acceleration", "effort", "from_legs"});
    j.limits.lower = number(L, pl, "lower", -kInf) * pos;
    j.limits.upper = number(L, pl, "upper", kInf) * pos;
    if (L.contains("from_legs")) {  // A-pair: position limits from the leg-collision range (legs.radius)
      const std::string pf = join(pl, "from_legs");
      if (!L.at("from_legs").is_boolean()) fail(pf, std::string("must be true or false, got ") + typeName(L.at("from_legs")));
      if (L.at("from_legs").get<bool>()) {
        if (j.kind != JointKind::A) fail(pf, std::string("only an A-pair derives its limits from its legs (kind is ") + toString(j.kind) + ")");
        if (L.contains("lower") || L.contains("upper")) fail(pf, "give either from_legs or lower/upper, not both");
        try {
          const ApairRange r = apairUsableRange(j);
          j.limits.lower = r.lower;
          j.limits.upper = r.upper;
        } catch (const Error& e) {
          fail(pf, e.what());
        }
      }
    }
    j.limits.velocity = number(L, pl, "velocity", kInf) * pos;
    j.limits.acceleration = number(L, pl, "acceleration", kInf) * pos;
    j.limits.effort = number(L, pl, "effort", kInf) * (ang ? u.torque : u.force);
  }
  if (jj.contains("motor")) {
    const std::string pm = join(p, "motor");
    const json& M = requireObject(jj.at("motor"), pm);
    checkKeys(M, pm, {"rotor_inertia", "gear_ratio", "viscous", "coulomb", "encoder_counts"});
    j.motor.present = true;
    j.motor.rotor_inertia = number(M, pm, "rotor_inertia", 0) * u.mass * u.length * u.length;
    j.motor.gear_ratio = number(M, pm, "gear_ratio", 1);
    // Motor-side rates are per radian of the motor shaft: torque·s/angle.
    j.motor.viscous = number(M, pm, "viscous", 0) * u.torque / u.angle;
    if (M.contains("encoder_counts")) {
      const std::string pe = join(pm, "encoder_counts");
      j.motor.encoder_counts = exactInt(M.at("encoder_counts"), pe, "a positive integer (counts per motor revolution)");
      if (j.motor.encoder_counts < 1) fail(pe, "must be a positive integer (counts per motor revolution)");
    }
    if (M.contains("coulomb")) {
      const json& c = M.at("coulomb");
      const std::string pc = join(pm, "coulomb");
      if (c.is_array()) {
        if (c.size() != 2) fail(pc, "must be a number or [positive, negative] magnitudes");
        j.motor.coulomb_pos = asNumber(c[0], idx(pc, 0)) * u.torque;
        j.motor.coulomb_neg = asNumber(c[1], idx(pc, 1)) * u.torque;
      } else {
        j.motor.coulomb_pos = j.motor.coulomb_neg = asNumber(c, pc) * u.torque;
      }
    }
  }
  if (jj.contains("link")) {
    const std::string pk = join(p, "link");
    const json& K = requireObject(jj.at("link"), pk);
    checkKeys(K, pk, {"mass", "com", "inertia", "inertia_about"});
    j.link.mass = number(K, pk, "mass", 0) * u.mass;
    if (K.contains("com")) j.link.com = vec3(K.at("com"), join(pk, "com")) * u.length;
    if (K.contains("inertia")) j.link.inertia = inertia(K.at("inertia"), join(pk, "inertia")) * (u.mass * u.length * u.length);
    if (K.contains("inertia_about")) {  // "com" (default) or "origin": the inertia is about the link frame's origin
      const std::string pa = join(pk, "inertia_about");
      const json& a = K.at("inertia_about");
      if (!a.is_string() || (a.get<std::string>() != "com" && a.get<std::string>() != "origin"))
        fail(pa, "must be \"com\" or \"origin\"");
      if (a.get<std::string>() == "origin") {  // parallel axis: I_cm = I_o − m(c·c·1 − c·cᵀ)
        const Vec3& c = j.link.com;
        j.link.inertia -= j.link.mass * (c.dot(c) * Mat3::Identity() - c * c.transpose());
      }
    }
  }
  return j;
}

/// One visual/collision shape: {"link", "collision", "name", "origin", one of "box" [x,y,z] | "cylinder"
/// {"radius","length"} | "sphere" {"radius"} | "mesh" {"file","scale"}, "rgba"}.
Geometry parseGeometry(const json& g, size_t i, const Units& u) {
  const std::string p = idx("geometry", i);
  requireObject(g, p);
  checkKeys(g, p, {"link", "collision", "name", "origin", "box", "cylinder", "sphere", "mesh", "rgba"});
  Geometry G;
  if (!g.contains("link")) fail(join(p, "link"), "missing: the joint index whose link carries the shape (−1 = base)");
  G.link = exactInt(g.at("link"), join(p, "link"), "a joint index (−1 = base)");
  if (g.contains("collision")) {
    if (!g.at("collision").is_boolean()) fail(join(p, "collision"), std::string("must be true or false, got ") + typeName(g.at("collision")));
    G.collision = g.at("collision").get<bool>();
  }
  if (g.contains("name")) {
    if (!g.at("name").is_string()) fail(join(p, "name"), std::string("must be a string, got ") + typeName(g.at("name")));
    G.name = g.at("name").get<std::string>();
  }
  if (g.contains("origin")) G.origin = transform(g.at("origin"), join(p, "origin"), u);
  const int nshape = int(g.contains("box")) + int(g.contains("cylinder")) + int(g.contains("sphere")) + int(g.contains("mesh"));
  if (nshape != 1) fail(p, "give exactly one of box, cylinder, sphere, mesh");
  if (g.contains("box")) {
    G.shape = Geometry::Shape::Box;
    G.size = vec3(g.at("box"), join(p, "box")) * u.length;
  } else if (g.contains("cylinder")) {
    const std::string pc = join(p, "cylinder");
    const json& c = requireObject(g.at("cylinder"), pc);
    checkKeys(c, pc, {"radius", "length"});
    G.shape = Geometry::Shape::Cylinder;
    G.size = Vec3(requiredNumber(c, pc, "radius"), requiredNumber(c, pc, "length"), 0) * u.length;
  } else if (g.contains("sphere")) {
    const std::string ps = join(p, "sphere");
    const json& c = requireObject(g.at("sphere"), ps);
    checkKeys(c, ps, {"radius"});
    G.shape = Geometry::Shape::Sphere;
    G.size = Vec3(requiredNumber(c, ps, "radius") * u.length, 0, 0);
  } else {
    const std::string pm = join(p, "mesh");
    const json& c = requireObject(g.at("mesh"), pm);
    checkKeys(c, pm, {"file", "scale"});
    G.shape = Geometry::Shape::Mesh;
    if (!c.contains("file") || !c.at("file").is_string()) fail(join(pm, "file"), "missing: the mesh file name (a string)");
    G.mesh = c.at("file").get<std::string>();
    if (c.contains("scale")) G.scale = vec3(c.at("scale"), join(pm, "scale"));
  }
  if (g.contains("rgba")) {
    const json& c = g.at("rgba");
    const std::string pr = join(p, "rgba");
    if (!c.is_array() || c.size() != 4) fail(pr, "must be an array of 4 numbers in [0, 1]");
    G.has_color = true;
    for (int k = 0; k < 4; ++k) {
      G.rgba[k] = asNumber(c[k], idx(pr, k));
      if (!(G.rgba[k] >= 0 && G.rgba[k] <= 1)) fail(idx(pr, k), "must be in [0, 1]");
    }
  }
  return G;
}

json geometryToJson(const Geometry& G) {
  json o = {{"link", G.link}};
  if (G.collision) o["collision"] = true;
  if (!G.name.empty()) o["name"] = G.name;
  if (G.origin != SE3::Identity()) o["origin"] = transformToJson(G.origin);
  switch (G.shape) {
    case Geometry::Shape::Box: o["box"] = {G.size.x(), G.size.y(), G.size.z()}; break;
    case Geometry::Shape::Cylinder: o["cylinder"] = {{"radius", G.size.x()}, {"length", G.size.y()}}; break;
    case Geometry::Shape::Sphere: o["sphere"] = {{"radius", G.size.x()}}; break;
    case Geometry::Shape::Mesh: o["mesh"] = {{"file", G.mesh}, {"scale", {G.scale.x(), G.scale.y(), G.scale.z()}}}; break;
  }
  if (G.has_color) o["rgba"] = {G.rgba[0], G.rgba[1], G.rgba[2], G.rgba[3]};
  return o;
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

Units parseUnits(const json& j) {
  Units u;
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

// The optional "loop" section (docs/robot-format.md#loops): one loop-closure constraint of the chain's tool.
LoopClosure parseLoop(const json& L, const Model& m, const Units& u) {
  requireObject(L, "loop");
  checkKeys(L, "loop", {"closure", "ground", "coordinates", "assembly"});
  LoopClosure lc;
  if (!L.contains("closure")) fail("loop.closure", "missing required field (planar_pin, point or pose)");
  if (!L.at("closure").is_string()) fail("loop.closure", std::string("must be a string, got ") + typeName(L.at("closure")));
  const std::string kind = L.at("closure").get<std::string>();
  try {
    lc.kind = closureKindFromString(kind);
  } catch (const Error&) {
    fail("loop.closure", "unknown closure " + quoteInput(kind) + " (expected planar_pin, point or pose)");
  }
  if (!L.contains("ground")) fail("loop.ground", "missing required field (the world pose the tool is tied to)");
  lc.ground = transform(L.at("ground"), "loop.ground", u);
  if (!L.contains("coordinates")) fail("loop.coordinates", "missing required field (the joints kept as coordinates)");
  const json& C = L.at("coordinates");
  if (!C.is_array()) fail("loop.coordinates", std::string("must be an array of joint indices or names, got ") + typeName(C));
  for (size_t k = 0; k < C.size(); ++k) {
    const std::string p = idx("loop.coordinates", k);
    int joint = -1;
    if (C[k].is_string()) {
      for (int i = 0; i < m.njoints(); ++i)
        if (m.joints[i].name == C[k].get<std::string>()) joint = i;
      if (joint < 0) fail(p, "no joint is named " + quoteInput(C[k].get<std::string>()));
    } else {
      joint = exactInt(C[k], p, "a joint index or name");
      if (joint < 0 || joint >= m.njoints()) fail(p, "joint index " + std::to_string(joint) + " out of range (0…" + std::to_string(m.njoints() - 1) + ")");
    }
    const int coord = m.idx_q[joint];
    if (coord < 0 || m.coord_joint[coord] != joint) fail(p, "joint " + std::to_string(joint) + " has no coordinate of its own (fixed or mimic)");
    for (int a : lc.alpha)
      if (a == coord) fail(p, "joint " + std::to_string(joint) + " is listed twice");
    lc.alpha.push_back(coord);
  }
  if (L.contains("assembly")) {
    const json& Q = L.at("assembly");
    if (!Q.is_array() || static_cast<int>(Q.size()) != m.nq)
      fail("loop.assembly", "must be an array of " + std::to_string(m.nq) + " joint values (one per coordinate)");
    lc.assembly.resize(m.nq);
    for (int c = 0; c < m.nq; ++c) {
      const double f = isAngular(m.joints[m.coord_joint[c]].kind) ? u.angle : u.length;
      lc.assembly[c] = asNumber(Q[c], idx("loop.assembly", c)) * f;
    }
  }
  return lc;
}

// The optional per-joint "drive" blocks (docs/robot-format.md#drives): lumped joint flexibility (Spong's spring and
// damper between motor and link), in the file's units. Every coordinate needs one when any joint has one.
JointFlexibility parseDrives(const json& j, const Model& m, const Units& u) {
  const json& J = j.at("joints");
  JointFlexibility f;
  f.stiffness = VecX::Constant(m.nv, std::numeric_limits<double>::quiet_NaN());
  f.damping = VecX::Zero(m.nv);
  f.motor_inertia = VecX::Constant(m.nv, std::numeric_limits<double>::quiet_NaN());
  bool any = false;
  for (size_t i = 0; i < J.size(); ++i) {
    if (!J[i].contains("drive")) continue;
    any = true;
    const std::string p = join(idx("joints", i), "drive");
    const json& D = requireObject(J[i].at("drive"), p);
    checkKeys(D, p, {"stiffness", "damping", "motor_inertia"});
    const int c = m.idx_q[i];
    const Joint& jt = m.joints[i];
    if (c < 0 || jt.mimic >= 0) fail(p, "a fixed or mimic joint has no coordinate of its own to be flexible");
    const bool ang = isAngular(jt.kind);
    const double k = requiredNumber(D, p, "stiffness");
    if (!std::isfinite(k) || k <= 0) fail(join(p, "stiffness"), "must be positive and finite (got " + std::to_string(k) + ")");
    f.stiffness[c] = k * (ang ? u.torque / u.angle : u.force / u.length);
    const double d = number(D, p, "damping", 0);
    if (!std::isfinite(d) || d < 0) fail(join(p, "damping"), "must be zero or positive and finite (got " + std::to_string(d) + ")");
    f.damping[c] = d * (ang ? u.torque / u.angle : u.force / u.length);
    if (D.contains("motor_inertia")) {
      const double ji = asNumber(D.at("motor_inertia"), join(p, "motor_inertia"));
      if (!std::isfinite(ji) || ji <= 0)
        fail(join(p, "motor_inertia"), "must be positive and finite (got " + std::to_string(ji) + ")");
      f.motor_inertia[c] = ji * u.mass * (ang ? u.length * u.length : 1.0);
    } else if (jt.motor.present && jt.motor.rotor_inertia > 0) {
      f.motor_inertia[c] = jt.motor.rotor_inertia * jt.motor.gear_ratio * jt.motor.gear_ratio;
    }
  }
  if (!any) fail("joints", "the robot file has no drive section (joints[i].drive)");
  for (int c = 0; c < m.nv; ++c)
    if (std::isnan(f.stiffness[c]))
      fail(join(idx("joints", static_cast<size_t>(m.coord_joint[c])), "drive"),
           "missing: when one joint declares a drive, every joint with a coordinate needs one (joint '" +
               m.joints[m.coord_joint[c]].name + "')");
  return f;
}

}  // namespace

LoopClosure loopFromJson(const json& j, const Model& model) {
  requireObject(j, "(document)");
  if (!j.contains("loop")) fail("loop", "the robot file has no loop section");
  return parseLoop(j.at("loop"), model, parseUnits(j));
}

LoopClosure loopFromJsonString(const std::string& text, const Model& model) { return loopFromJson(parseJsonText(text), model); }

bool hasDrives(const json& j) {
  if (!j.is_object() || !j.contains("joints") || !j.at("joints").is_array()) return false;
  for (const json& jj : j.at("joints"))
    if (jj.is_object() && jj.contains("drive")) return true;
  return false;
}

JointFlexibility jointFlexibilityFromJson(const json& j, const Model& model) {
  requireObject(j, "(document)");
  if (!j.contains("joints") || !j.at("joints").is_array() || j.at("joints").size() != model.joints.size())
    fail("joints", "does not match the model (" + std::to_string(model.joints.size()) + " joints)");
  return parseDrives(j, model, parseUnits(j));
}

JointFlexibility jointFlexibilityFromJsonString(const std::string& text, const Model& model) {
  return jointFlexibilityFromJson(parseJsonText(text), model);
}

json loopToJson(const LoopClosure& loop, const Model& model) {
  json L;
  L["closure"] = toString(loop.kind);
  L["ground"] = transformToJson(loop.ground);
  json names = json::array();
  for (int c : loop.alpha) {
    if (c < 0 || c >= model.nq) throw Error("loop: coordinate index " + std::to_string(c) + " out of range for the model");
    const int joint = model.coord_joint[c];
    const std::string& name = model.joints[joint].name;
    int same = 0;  // a name the reader could not resolve to this joint is written as its index
    for (const Joint& j : model.joints) same += j.name == name;
    if (!name.empty() && same == 1) names.push_back(name);
    else names.push_back(joint);
  }
  L["coordinates"] = names;
  if (loop.assembly.size() == model.nq)
    L["assembly"] = std::vector<double>(loop.assembly.data(), loop.assembly.data() + loop.assembly.size());
  return L;
}

Model modelFromJson(const json& j) {
  requireObject(j, "(document)");
  checkKeys(j, "", {"schema_version", "name", "description", "notes", "units", "convention", "gravity", "base", "tool",
                    "joints", "geometry", "loop", "defaults"});
  if (!j.contains("schema_version")) fail("schema_version", "missing required field (this library reads version " + std::to_string(kSchemaVersion) + ")");
  const json& sv = j.at("schema_version");
  const int version = exactInt(sv, "schema_version", "an integer");
  if (version != kSchemaVersion)
    fail("schema_version", "unsupported version " + std::to_string(version) + " (this library reads version " + std::to_string(kSchemaVersion) + ")");

  const Units u = parseUnits(j);

  Model m;
  descriptionFields(j, m.name, m.description, m.notes);
  if (j.contains("convention")) {
    const json& c = j.at("convention");
    if (!c.is_string()) fail("convention", std::string("must be \"standard\" or \"modified\", got ") + typeName(c));
    const std::string s = c.get<std::string>();
    if (s == "standard") m.convention = DHConvention::Standard;
    else if (s == "modified") m.convention = DHConvention::Modified;
    else fail("convention", "unknown convention " + quoteInput(s) + " (expected standard or modified)");
  }
  if (j.contains("gravity")) m.gravity = vec3(j.at("gravity"), "gravity") * u.length;
  if (j.contains("base")) m.base = transform(j.at("base"), "base", u);
  if (j.contains("tool")) {
    m.tool = transform(j.at("tool"), "tool", u, {"link"});
    if (j.at("tool").contains("link")) {
      const json& l = j.at("tool").at("link");
      m.tool_link = exactInt(l, "tool.link", "an integer joint index");
    }
  }
  if (!j.contains("joints")) fail("joints", "missing required field");
  const json& J = j.at("joints");
  if (!J.is_array()) fail("joints", std::string("must be an array, got ") + typeName(J));
  std::vector<std::string> mimic_names(J.size());
  for (size_t i = 0; i < J.size(); ++i) m.joints.push_back(parseJoint(J[i], i, u, mimic_names[i]));
  for (size_t i = 0; i < J.size(); ++i) {
    if (mimic_names[i].empty()) continue;
    int found = -1;
    for (size_t k = 0; k < J.size(); ++k)
      if (m.joints[k].name == mimic_names[i]) found = int(k);
    if (found < 0) fail(join(idx("joints", i), "mimic.joint"), "no joint is named " + quoteInput(mimic_names[i]));
    m.joints[i].mimic = found;
  }
  if (j.contains("geometry")) {
    const json& G = j.at("geometry");
    if (!G.is_array()) fail("geometry", std::string("must be an array, got ") + typeName(G));
    for (size_t i = 0; i < G.size(); ++i) m.geometry.push_back(parseGeometry(G[i], i, u));
  }
  m.finalize();
  if (j.contains("loop")) parseLoop(j.at("loop"), m, u);  // validated with the model; read by loopFromJson
  if (hasDrives(j)) parseDrives(j, m, u);                  // validated with the model; read by jointFlexibilityFromJson
  if (hasFlexibleLinks(j)) flexibleLinksFromJson(j, m);    // validated with the model; read by flexibleLinksFromJson
  return m;
}

Model modelFromJsonString(const std::string& text) { return modelFromJson(parseJsonText(text)); }

json modelToJson(const Model& m) {
  json out;
  out["schema_version"] = kSchemaVersion;
  out["name"] = m.name;
  if (!m.description.empty()) out["description"] = m.description;
  if (!m.notes.empty()) out["notes"] = m.notes;
  out["units"] = {{"length", "m"}, {"angle", "rad"}, {"mass", "kg"}, {"torque", "N*m"}, {"force", "N"}};
  out["convention"] = toString(m.convention);
  out["gravity"] = {m.gravity.x(), m.gravity.y(), m.gravity.z()};
  out["base"] = transformToJson(m.base);
  json tool = transformToJson(m.tool);
  if (m.tool_link >= 0) tool["link"] = m.tool_link;
  out["tool"] = tool;
  json joints = json::array();
  for (int i = 0; i < m.njoints(); ++i) {
    const Joint& j = m.joints[i];
    json o;
    o["name"] = j.name;
    o["kind"] = toString(j.kind);
    if (j.parent != i - 1) o["parent"] = j.parent;
    if (j.has_origin) {
      o["origin"] = transformToJson(j.origin);
      o["axis"] = {j.axis.x(), j.axis.y(), j.axis.z()};
    } else {
      o["a"] = j.a;
      o["alpha"] = j.alpha;
    }
    o["d"] = j.d;
    o["theta_f"] = j.theta_f;
    o["sign"] = j.sign;
    if (j.kind == JointKind::H) o["pitch"] = j.pitch;
    if (j.kind == JointKind::Law) o["law"] = lawToJson(j.law);
    if (j.mimic >= 0)
      o["mimic"] = {{"joint", j.mimic}, {"multiplier", j.mimic_multiplier}, {"offset", j.mimic_offset}};
    if (j.kind == JointKind::A) {
      o["rho"] = j.rho;
      o["legs"] = {{"mass", j.leg_mass}, {"radius", j.leg_radius}};
    }
    json L = json::object();
    auto put = [&](const char* k, double v) { if (std::isfinite(v)) L[k] = v; };
    put("lower", j.limits.lower);
    put("upper", j.limits.upper);
    put("velocity", j.limits.velocity);
    put("acceleration", j.limits.acceleration);
    put("effort", j.limits.effort);
    if (!L.empty()) o["limits"] = L;
    if (j.motor.present)
      o["motor"] = {{"rotor_inertia", j.motor.rotor_inertia}, {"gear_ratio", j.motor.gear_ratio},
                    {"viscous", j.motor.viscous}, {"coulomb", {j.motor.coulomb_pos, j.motor.coulomb_neg}}};
    if (j.motor.present && j.motor.encoder_counts > 0) o["motor"]["encoder_counts"] = j.motor.encoder_counts;
    json I = json::array();
    for (int r = 0; r < 3; ++r) I.push_back({j.link.inertia(r, 0), j.link.inertia(r, 1), j.link.inertia(r, 2)});
    o["link"] = {{"mass", j.link.mass}, {"com", {j.link.com.x(), j.link.com.y(), j.link.com.z()}}, {"inertia", I}};
    joints.push_back(o);
  }
  out["joints"] = joints;
  if (!m.geometry.empty()) {
    json G = json::array();
    for (const Geometry& g : m.geometry) G.push_back(geometryToJson(g));
    out["geometry"] = G;
  }
  return out;
}

}  // namespace achain

// The field readers for the other readers of robot files (json_fields.hpp).
namespace achain::io_detail {

UnitFactors unitFactors(const json& document) {
  const Units u = parseUnits(document);
  return {u.length, u.angle, u.mass, u.torque, u.force};
}
void fail(const std::string& path, const std::string& msg) { achain::fail(path, msg); }
void checkKeys(const json& obj, const std::string& path, const std::set<std::string>& allowed) {
  achain::checkKeys(obj, path, allowed);
}
const json& requireObject(const json& v, const std::string& path) { return achain::requireObject(v, path); }
double asNumber(const json& v, const std::string& path) { return achain::asNumber(v, path); }
int exactInt(const json& v, const std::string& path, const char* what) { return achain::exactInt(v, path, what); }
SE3 transform(const json& v, const std::string& path, const UnitFactors& f) {
  Units u;
  u.length = f.length, u.angle = f.angle, u.mass = f.mass, u.torque = f.torque, u.force = f.force;
  return achain::transform(v, path, u);
}
Mat3 inertia(const json& v, const std::string& path) { return achain::inertia(v, path); }
void descriptionFields(const json& doc, std::string& name, std::string& description, std::vector<std::string>& notes) {
  achain::descriptionFields(doc, name, description, notes);
}
const char* typeName(const json& v) { return achain::typeName(v); }

}  // namespace achain::io_detail
