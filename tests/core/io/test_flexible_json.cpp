// Flexible links in the robot file (docs/robot-format.md#flexible-links): the per-joint "flexible" blocks read by
// flexibleLinksFromJson, the built-in space arm (Tesar & Graves Tables 3.1-1/3.1-2), units, and the errors.
#include <catch2/catch.hpp>
#include <cmath>

#include <achain/io/flexible_json.hpp>
#include <achain/io/json_text.hpp>
#include <achain/io/model_json.hpp>
#include <achain/model/robots.hpp>

using namespace achain;
using nlohmann::json;

namespace {
json builtinJson(const std::string& name) {
  for (const auto& r : builtinRobots())
    if (r.name == name) return json::parse(r.json);
  throw Error(name + " missing");
}
std::string flexibleErrorOf(const json& j) {
  try {
    const Model m = modelFromJson(j);
    flexibleLinksFromJson(j, m);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
constexpr double kSlug = 14.593902937206, kFt = 0.3048, kLbf = 4.4482216152605;
}  // namespace

TEST_CASE("flexible json: the space arm's links 2 and 3 in SI from the file's imperial units", "[io][flex]") {
  const json j = builtinJson("space-arm");
  REQUIRE(hasFlexibleLinks(j));
  const Model m = modelFromJson(j);
  REQUIRE(m.nv == 6);
  const FlexibleLinks f = flexibleLinksFromJson(j, m);
  REQUIRE(f.links.size() == 2);
  CHECK(f.links[0].joint == 1);  // joints[k-1] moves the paper's link k
  CHECK(f.links[1].joint == 2);
  CHECK(f.find(1) == &f.links[0]);
  CHECK(f.find(3) == nullptr);
  const FlexibleLink& l2 = f.links[0].link;
  CHECK(l2.length == Approx(20.92 * kFt).epsilon(1e-14));
  CHECK(l2.body.mass == Approx(9.536 * kSlug).epsilon(1e-14));
  // EI = (K11/4)·L³ = 1125 lbf/ft · L³, GJ = K55·L (lbf·ft/rad · ft)
  CHECK(l2.ei_y == Approx(1125 * std::pow(20.92, 3) * kLbf * kFt * kFt).epsilon(1e-9));
  CHECK(l2.ei_z == l2.ei_y);
  CHECK(l2.gj == Approx(1.1e6 * 20.92 * kLbf * kFt * kFt).epsilon(1e-12));
  CHECK(l2.torsional_inertia == Approx(2.38 * kSlug * kFt * kFt).epsilon(1e-14));
  REQUIRE(l2.modes.size() == 5);
  CHECK(l2.modes[1].coefficients[3] == Approx(-1.2).epsilon(1e-15));  // r2 from orthogonality
  CHECK(f.links[0].coordinate_unit == std::vector<double>{kFt, kFt, kFt, kFt, 1.0});
  CHECK(f.length_unit == kFt);
  CHECK(f.mass_unit == kSlug);
  // inertia_about "origin": the CoM inertia is the printed one minus the parallel-axis term
  const Inertial& b2 = m.joints[1].link;
  const double ft2slug = kSlug * kFt * kFt;
  CHECK(b2.inertia(1, 1) / ft2slug == Approx(1.8e3 - 9.536 * 10.46 * 10.46).epsilon(1e-12));
  CHECK(b2.inertia(0, 0) / ft2slug == Approx(2.38).epsilon(1e-12));
  CHECK(b2.inertia(0, 1) / ft2slug == Approx(-6.77).epsilon(1e-12));
  // link 6 is read about its CoM (the about-origin reading is impossible: Iyy 0.301 < m·cz²)
  CHECK(m.joints[5].link.inertia(1, 1) / ft2slug == Approx(0.301).epsilon(1e-12));
  CHECK(0.301 < 3.094 * 1.08 * 1.08);
}

TEST_CASE("flexible json: families, explicit shapes and units", "[io][flex]") {
  json j = builtinJson("planar-2r");  // m, deg, kg
  j["joints"][0]["link"] = {{"mass", 2.0}, {"com", {0.5, 0, 0}}, {"inertia", {0.01, 2.0 / 12, 2.0 / 12, 0, 0, 0}}};
  j["joints"][0]["flexible"] = {{"length", 1.0}, {"ei_y", 100.0}, {"modes", {{"family", "monomial"}, {"n", 2}, {"torsion", false}}}};
  CHECK(flexibleErrorOf(j).find("joints[0].flexible.ei_z: missing: a z bending mode needs it") != std::string::npos);
  j["joints"][0]["flexible"]["ei_z"] = 50.0;
  const Model m = modelFromJson(j);
  FlexibleLinks f = flexibleLinksFromJson(j, m);
  REQUIRE(f.links[0].link.modes.size() == 4);
  CHECK(f.links[0].coordinate_unit[0] == 1.0);
  // explicit shapes: the same as the cubic family, tabulated and polynomial; the torsion coordinate in degrees
  j["joints"][0]["flexible"] = {{"length", 1.0}, {"ei", 100.0}, {"gj", 10.0}, {"torsional_inertia", 0.01},
                                {"modes", {{{"direction", "y"}, {"coefficients", {0, 0, 1}}},
                                           {{"direction", "z"}, {"u", {0, 0.25, 0.5, 0.75, 1}}, {"values", {0, 0.0625, 0.25, 0.5625, 1}}},
                                           {{"direction", "torsion"}, {"coefficients", {0, 1}}}}}};
  f = flexibleLinksFromJson(j, modelFromJson(j));
  REQUIRE(f.links[0].link.modes.size() == 3);
  CHECK(f.links[0].coordinate_unit[2] == Approx(M_PI / 180).epsilon(1e-15));
  // gj in torque·length per angle: N·m·m per degree
  CHECK(f.links[0].link.gj == Approx(10.0 * 180 / M_PI).epsilon(1e-14));
  const FlexibleLinkMatrices a = flexibleLinkMatrices(f.links[0].link);
  CHECK(a.I_qq(0, 0) == Approx(2.0 / 5).epsilon(1e-12));
  CHECK(a.I_qq(1, 1) == Approx(2.0 / 5).epsilon(1e-12));  // the spline reproduces u² exactly
  CHECK(a.K(1, 1) == Approx(4 * 100.0).epsilon(1e-12));
}

TEST_CASE("flexible json: errors name the field", "[io][flex]") {
  const json base = builtinJson("space-arm");
  auto with = [&](const std::string& key, const json& v) {
    json j = base;
    j["joints"][1]["flexible"][key] = v;
    return flexibleErrorOf(j);
  };
  CHECK(with("ei", 0.0) == "joints[1].flexible.ei: must be positive and finite (got 0.000000)");
  CHECK(with("length", -1.0) == "joints[1].flexible.length: must be positive and finite (got -1.000000)");
  CHECK(with("ei_y", 1.0) == "joints[1].flexible.ei: give ei (both directions) or ei_y / ei_z, not both");
  CHECK(with("modes", "quintic").find("joints[1].flexible.modes: unknown mode family") == 0);
  CHECK(with("modes", json{{"family", "cubic"}, {"r1", -7.0 / 6}}).find("joints[1].flexible.modes: orthogonalCubicRatio") == 0);
  CHECK(with("modes", json::array({{{"direction", "y"}, {"coefficients", {0, 1, 1}}}})) ==
        "joints[1].flexible.modes: mode 1 (y bending): not admissible, a bending shape must have zero slope at the clamped root (f'(0) = 1.000000/L)");
  CHECK(with("modes", json::array({{{"direction", "y"}, {"coefficients", {0, 0, 1}}}, {{"direction", "y"}, {"coefficients", {0, 0, 2}}}})) ==
        "joints[1].flexible.modes: the mode shapes are linearly dependent (the generalised mass I_qq is singular); drop or change a shape");
  CHECK(with("modes", json::array({{{"direction", "x"}, {"coefficients", {0, 0, 1}}}})) ==
        "joints[1].flexible.modes[0].direction: unknown direction \"x\" (expected y, z or torsion)");
  CHECK(with("stiffness", 1.0).find("joints[1].flexible.stiffness: unknown field") == 0);
  json j = base;
  j["joints"][1]["flexible"].erase("gj");
  CHECK(flexibleErrorOf(j) == "joints[1].flexible.gj: missing: a torsion mode needs it");
  j = base;
  j["joints"][1]["link"]["mass"] = 0.0;
  CHECK(flexibleErrorOf(j) == "joints[1].link.mass: a flexible link needs a positive mass (the beam's, spread uniformly over its length)");
  j = base;  // link 3 read about its origin: Iyy 850 < m·L²/3 = 1071 of its own uniform beam
  j["joints"][2]["link"]["inertia_about"] = "origin";
  j["joints"][2]["link"]["com"] = {11.58, 0, 0};
  CHECK(flexibleErrorOf(j).find("joints[2].link: the local inertia matrix is not positive definite") == 0);
  j = base;
  j["joints"][1]["link"]["inertia_about"] = "tip";
  CHECK(flexibleErrorOf(j) == "joints[1].link.inertia_about: must be \"com\" or \"origin\"");
  j = base;
  j["units"]["mass"] = "stone";
  CHECK(flexibleErrorOf(j).find("units.mass: unknown unit") == 0);
}

TEST_CASE("flexible json: shapes, coefficients and tables are bounded", "[io][flex]") {
  // Before: a shape with 1,000 coefficients passed validate and then simulated 0.1 s in 58 s.
  const json base = builtinJson("space-arm");
  auto withModes = [&](const json& modes) {
    json j = base;
    j["joints"][1]["flexible"]["modes"] = modes;
    return flexibleErrorOf(j);
  };
  std::vector<double> c(1000, 0.0);
  c[2] = 1;
  CHECK(withModes(json::array({{{"direction", "y"}, {"coefficients", c}}})) ==
        "joints[1].flexible.modes[0].coefficients: 1000 coefficients; at most 16 (a polynomial of degree 15 in u)");
  c.resize(16);
  CHECK(withModes(json::array({{{"direction", "y"}, {"coefficients", c}}})).find("coefficients") == std::string::npos);
  json many = json::array();
  for (int k = 0; k < 25; ++k) many.push_back({{"direction", "y"}, {"coefficients", {0, 0, 1}}});
  CHECK(withModes(many) == "joints[1].flexible.modes: 25 shapes; at most 24 per link");
}
