// The per-joint "flexible" blocks of a robot file (docs/robot-format.md#flexible-links), in the file's units.
#include <achain/io/flexible_json.hpp>
#include <achain/io/json_text.hpp>

#include "json_fields.hpp"

#include <cmath>

namespace achain {

using nlohmann::json;

namespace {

using namespace io_detail;

/// A positive, finite number of the block (0 when absent and not required).
double positive(const json& F, const std::string& p, const char* key, bool required) {
  if (!F.contains(key)) {
    if (required) fail(join(p, key), "missing required field");
    return 0;
  }
  const double v = asNumber(F.at(key), join(p, key));
  if (!std::isfinite(v) || v <= 0) fail(join(p, key), "must be positive and finite (got " + std::to_string(v) + ")");
  return v;
}

std::vector<double> numbers(const json& v, const std::string& p) {
  if (!v.is_array()) fail(p, std::string("must be an array of numbers, got ") + typeName(v));
  std::vector<double> out;
  for (size_t k = 0; k < v.size(); ++k) out.push_back(asNumber(v[k], idx(p, k)));
  return out;
}

std::vector<AssumedMode> parseModes(const json& M, const std::string& p) {
  if (M.is_string()) {
    if (M.get<std::string>() != "cubic") fail(p, "unknown mode family \"" + M.get<std::string>() + "\" (expected \"cubic\", an object with \"family\", or an array of shapes)");
    return clampedCubicModes();
  }
  if (M.is_object()) {
    checkKeys(M, p, {"family", "c1", "c2", "r1", "n", "torsion"});
    if (!M.contains("family") || !M.at("family").is_string()) fail(join(p, "family"), "missing: \"cubic\" or \"monomial\"");
    const std::string family = M.at("family").get<std::string>();
    if (family == "cubic") {
      for (const char* k : {"n", "torsion"})
        if (M.contains(k)) fail(join(p, k), "only the monomial family has this");
      const double c1 = M.contains("c1") ? asNumber(M.at("c1"), join(p, "c1")) : 1.0;
      const double c2 = M.contains("c2") ? asNumber(M.at("c2"), join(p, "c2")) : 1.0;
      const double r1 = M.contains("r1") ? asNumber(M.at("r1"), join(p, "r1")) : 0.0;
      try {
        return clampedCubicModes(c1, c2, r1);
      } catch (const Error& e) {
        fail(p, e.what());
      }
    }
    if (family == "monomial") {
      for (const char* k : {"c1", "c2", "r1"})
        if (M.contains(k)) fail(join(p, k), "only the cubic family has this");
      if (!M.contains("n")) fail(join(p, "n"), "missing: the number of modes per bending direction (1 to 8)");
      const int n = exactInt(M.at("n"), join(p, "n"), "a whole number from 1 to 8");
      if (n < 1 || n > 8) fail(join(p, "n"), "must be a whole number from 1 to 8 (got " + std::to_string(n) + ")");
      bool torsion = true;
      if (M.contains("torsion")) {
        if (!M.at("torsion").is_boolean()) fail(join(p, "torsion"), "must be true or false");
        torsion = M.at("torsion").get<bool>();
      }
      return monomialModes(n, torsion);
    }
    fail(join(p, "family"), "unknown family \"" + family + "\" (expected cubic or monomial)");
  }
  if (!M.is_array() || M.empty()) fail(p, std::string("must be \"cubic\", a family object or a non-empty array of shapes, got ") + typeName(M));
  // Bounded like the monomial family: a shape with 1,000 coefficients passed validate and then simulated 0.1 s in
  // 58 s (and a polynomial of that degree on [0, 1] is no meaningful shape).
  constexpr size_t kMaxShapes = 24, kMaxCoefficients = 16, kMaxTable = 1000;
  if (M.size() > kMaxShapes) fail(p, std::to_string(M.size()) + " shapes; at most " + std::to_string(kMaxShapes) + " per link");
  std::vector<AssumedMode> modes;
  for (size_t k = 0; k < M.size(); ++k) {
    const std::string pk = idx(p, k);
    const json& S = requireObject(M[k], pk);
    checkKeys(S, pk, {"direction", "coefficients", "u", "values"});
    AssumedMode md;
    if (!S.contains("direction") || !S.at("direction").is_string()) fail(join(pk, "direction"), "missing: \"y\", \"z\" or \"torsion\"");
    const std::string d = S.at("direction").get<std::string>();
    if (d == "y") md.direction = ModeDirection::Y;
    else if (d == "z") md.direction = ModeDirection::Z;
    else if (d == "torsion") md.direction = ModeDirection::Torsion;
    else fail(join(pk, "direction"), "unknown direction \"" + d + "\" (expected y, z or torsion)");
    if (S.contains("coefficients")) md.coefficients = numbers(S.at("coefficients"), join(pk, "coefficients"));
    if (S.contains("u")) md.u_samples = numbers(S.at("u"), join(pk, "u"));
    if (S.contains("values")) md.values = numbers(S.at("values"), join(pk, "values"));
    if (md.coefficients.empty() && md.u_samples.empty() && md.values.empty())
      fail(pk, "missing: the shape's coefficients, or a table u and values");
    if (md.coefficients.size() > kMaxCoefficients)
      fail(join(pk, "coefficients"), std::to_string(md.coefficients.size()) + " coefficients; at most " +
                                         std::to_string(kMaxCoefficients) + " (a polynomial of degree 15 in u)");
    if (md.u_samples.size() > kMaxTable || md.values.size() > kMaxTable)
      fail(join(pk, md.u_samples.size() > kMaxTable ? "u" : "values"), "at most " + std::to_string(kMaxTable) + " samples");
    modes.push_back(md);
  }
  return modes;
}

}  // namespace

bool hasFlexibleLinks(const json& j) { return anyJointHas(j, "flexible"); }

FlexibleLinks flexibleLinksFromJson(const json& j, const Model& model) {
  requireObject(j, "(document)");
  const UnitFactors u = unitFactors(j);
  FlexibleLinks out;
  out.length_unit = u.length, out.angle_unit = u.angle, out.mass_unit = u.mass, out.force_unit = u.force, out.torque_unit = u.torque;
  if (!hasFlexibleLinks(j)) return out;
  const json& J = j.at("joints");
  if (J.size() != model.joints.size()) fail("joints", "does not match the model (" + std::to_string(model.joints.size()) + " joints)");
  for (size_t i = 0; i < J.size(); ++i) {
    if (!J[i].contains("flexible")) continue;
    const std::string p = join(idx("joints", i), "flexible");
    const json& F = requireObject(J[i].at("flexible"), p);
    checkKeys(F, p, {"length", "ei", "ei_y", "ei_z", "gj", "torsional_inertia", "modes"});
    FlexibleLinkEntry e;
    e.joint = static_cast<int>(i);
    FlexibleLink& f = e.link;
    f.body = model.joints[i].link;
    if (!(f.body.mass > 0))
      fail(join(idx("joints", i), "link.mass"), "a flexible link needs a positive mass (the beam's, spread uniformly over its length)");
    f.length = positive(F, p, "length", true) * u.length;
    if (F.contains("ei") && (F.contains("ei_y") || F.contains("ei_z")))
      fail(join(p, "ei"), "give ei (both directions) or ei_y / ei_z, not both");
    const double ei_unit = u.force * u.length * u.length, gj_unit = u.torque * u.length / u.angle;
    const double ei = positive(F, p, "ei", false);
    f.ei_y = (F.contains("ei") ? ei : positive(F, p, "ei_y", false)) * ei_unit;
    f.ei_z = (F.contains("ei") ? ei : positive(F, p, "ei_z", false)) * ei_unit;
    f.gj = positive(F, p, "gj", false) * gj_unit;
    f.torsional_inertia = positive(F, p, "torsional_inertia", false) * u.mass * u.length * u.length;
    if (!F.contains("modes")) fail(join(p, "modes"), "missing: \"cubic\", a family object or an array of shapes");
    f.modes = parseModes(F.at("modes"), join(p, "modes"));
    for (const AssumedMode& md : f.modes) {  // the stiffness and inertia a mode needs, named as the file names them
      const bool torsion = md.direction == ModeDirection::Torsion;
      const char* need = torsion ? (f.gj > 0 ? (f.torsional_inertia > 0 ? nullptr : "torsional_inertia") : "gj")
                                 : ((md.direction == ModeDirection::Y ? f.ei_y : f.ei_z) > 0 ? nullptr
                                    : (F.contains("ei_y") || F.contains("ei_z") ? (md.direction == ModeDirection::Y ? "ei_y" : "ei_z") : "ei"));
      if (need) fail(join(p, need), std::string("missing: a ") + toString(md.direction) + " mode needs it");
      e.coordinate_unit.push_back(torsion ? u.angle : u.length);
    }
    FlexibleLinkMatrices mats;
    try {
      mats = flexibleLinkMatrices(f);  // shapes: admissible, independent
    } catch (const Error& err) {
      std::string msg = err.what();
      const std::string prefix = "flexible link: ";
      if (msg.rfind(prefix, 0) == 0) msg = msg.substr(prefix.size());
      fail(join(p, "modes"), msg);
    }
    try {
      mats.checkLocalInertia();
    } catch (const Error& err) {
      fail(join(idx("joints", i), "link"), err.what());
    }
    out.links.push_back(e);
  }
  return out;
}

FlexibleLinks flexibleLinksFromJsonString(const std::string& text, const Model& model) {
  return flexibleLinksFromJson(parseJsonText(text), model);
}

}  // namespace achain
