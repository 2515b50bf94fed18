#include <achain/io/model_json.hpp>
#include <achain/io/drive_json.hpp>
#include <achain/io/loop_json.hpp>
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
using namespace io_detail;

namespace {


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
AxialLaw parseLaw(const json& v, const std::string& path, const UnitFactors& u) {
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

Joint parseJoint(const json& jj, size_t i, const UnitFactors& u, std::string& mimic_name) {
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
Geometry parseGeometry(const json& g, size_t i, const UnitFactors& u) {
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





}  // namespace

Model io_detail::modelDescriptionFromJson(const json& j) {
  requireObject(j, "(document)");
  checkKeys(j, "", {"schema_version", "name", "description", "notes", "units", "convention", "gravity", "base", "tool",
                    "joints", "geometry", "loop", "defaults"});
  if (!j.contains("schema_version")) fail("schema_version", "missing required field (this library reads version " + std::to_string(kSchemaVersion) + ")");
  const json& sv = j.at("schema_version");
  const int version = exactInt(sv, "schema_version", "an integer");
  if (version != kSchemaVersion)
    fail("schema_version", "unsupported version " + std::to_string(version) + " (this library reads version " + std::to_string(kSchemaVersion) + ")");

  const UnitFactors u = unitFactors(j);

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
  return m;
}

Model modelFromJson(const json& j) {
  Model m = io_detail::modelDescriptionFromJson(j);
  // the file's other sections are validated with the model (robotFromJson reads them into the Robot instead)
  if (j.contains("loop")) loopFromJson(j, m);
  if (hasDrives(j)) jointFlexibilityFromJson(j, m);
  if (hasFlexibleLinks(j)) flexibleLinksFromJson(j, m);
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
