// Joint flexibility in the robot file (docs/robot-format.md#drives): the per-joint "drive" blocks read by
// jointFlexibilityFromJson, units, the prototype's drive variant, and the errors naming the field.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include <achain/io/drive_json.hpp>
#include <achain/io/json_text.hpp>
#include <achain/io/model_json.hpp>
#include <achain/io/robot.hpp>
#include "test_paths.hpp"

using namespace achain;
using nlohmann::json;

namespace {
json planar2r() {
  for (const auto& r : builtinRobots())
    if (r.name == "planar-2r") return json::parse(r.json);
  throw Error("planar-2r missing");
}
std::string driveErrorOf(const json& j) {
  try {
    const Model m = modelFromJson(j);
    jointFlexibilityFromJson(j, m);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("drive json: stiffness, damping and motor inertia in the file's units", "[io][flex]") {
  json j = planar2r();  // units: m, deg, kg (torque N*m): stiffness is N*m per degree
  j["joints"][0]["drive"] = {{"stiffness", 100.0}, {"damping", 0.5}, {"motor_inertia", 0.02}};
  j["joints"][1]["drive"] = {{"stiffness", 50.0}};
  REQUIRE(hasDrives(j));
  const Model m = modelFromJson(j);
  const JointFlexibility f = jointFlexibilityFromJson(j, m);
  const double per_deg = 180 / M_PI;
  CHECK(f.stiffness[0] == Approx(100 * per_deg).epsilon(1e-15));
  CHECK(f.stiffness[1] == Approx(50 * per_deg).epsilon(1e-15));
  CHECK(f.damping[0] == Approx(0.5 * per_deg).epsilon(1e-15));
  CHECK(f.damping[1] == 0);
  CHECK(f.motor_inertia[0] == Approx(0.02).epsilon(1e-15));
  CHECK(std::isnan(f.motor_inertia[1]));  // not given and no motor block
  // From the motor block: J_m·G².
  j["joints"][1]["motor"] = {{"rotor_inertia", 1e-5}, {"gear_ratio", -40.0}};
  const Model m2 = modelFromJson(j);
  CHECK(jointFlexibilityFromJson(j, m2).motor_inertia[1] == Approx(1e-5 * 1600).epsilon(1e-15));
  // A file without drives loads as before; the reader says the section is missing.
  const json plain = planar2r();
  CHECK_FALSE(hasDrives(plain));
  CHECK_THROWS_WITH(jointFlexibilityFromJson(plain, modelFromJson(plain)), Catch::Contains("no drive section"));
}

TEST_CASE("drive json: the prototype's drive variant is the built-in prototype plus the derived drive", "[io][flex]") {
  const std::string path = achain::test::sourceDir() + "/core/robots/variants/prototype-4a-drive.json";
  const json j = parseJsonText(readRobotFile(path));
  const Model m = modelFromJson(j);
  CHECK(m.sameDescription(builtinModel("prototype-4a")) == false);  // the name differs …
  Model same = m;
  same.name = "prototype-4a";
  same.description = builtinModel("prototype-4a").description;
  same.notes = builtinModel("prototype-4a").notes;
  CHECK(same.sameDescription(builtinModel("prototype-4a")));  // … the chain does not
  const JointFlexibility f = jointFlexibilityFromJson(j, m);
  // 827 lbf·in/deg: 1 lbf·in = 0.1129848290276167 N·m.
  const double k = 827 * 0.1129848290276167 * 180 / M_PI;
  for (int i = 0; i < 4; ++i) {
    CHECK(f.stiffness[i] == Approx(k).epsilon(1e-14));
    CHECK(f.damping[i] == Approx(2 * 0.1129848290276167 * 180 / M_PI).epsilon(1e-14));
  }
  // The series derivation of docs/flexible.md: gearbox 3 N·m/arcmin, mesh c'·b·r², spline G·πd⁴/32/L.
  const double k_gear = 3 * 60 * 180 / M_PI;
  const double k_mesh = 14e9 * 0.0127 * std::pow(0.75 * 0.0254, 2);
  const double k_spline = 79.3e9 * M_PI * std::pow(0.75 * 0.0254, 4) / 32 / (3 * 0.0254);
  const double k_series = 1 / (1 / k_gear + 1 / k_mesh + 1 / k_spline);
  CHECK(k_series == Approx(k).epsilon(2e-4));  // the file rounds to 827 lbf·in/deg
  CHECK(f.motor_inertia[0] == Approx(0.125).epsilon(2e-4));
  CHECK(f.motor_inertia[3] == Approx(0.025).epsilon(2e-4));
}

TEST_CASE("drive json: bad drives are refused at load, naming the field", "[io][flex]") {
  auto with = [](const json& d0, const json& d1) {
    json j = planar2r();
    j["joints"][0]["drive"] = d0;
    if (!d1.is_null()) j["joints"][1]["drive"] = d1;
    return j;
  };
  const json ok = {{"stiffness", 10.0}};
  CHECK_THROWS_WITH(modelFromJson(with({{"stiffness", 0.0}}, ok)),
                    Catch::Contains("joints[0].drive.stiffness: must be positive and finite"));
  CHECK_THROWS_WITH(modelFromJson(with(ok, {{"stiffness", -5.0}})),
                    Catch::Contains("joints[1].drive.stiffness: must be positive and finite"));
  CHECK_THROWS_WITH(modelFromJson(with({{"stiffness", 10.0}, {"damping", -1.0}}, ok)),
                    Catch::Contains("joints[0].drive.damping: must be zero or positive"));
  CHECK_THROWS_WITH(modelFromJson(with({{"stiffness", std::numeric_limits<double>::quiet_NaN()}}, ok)),
                    Catch::Contains("joints[0].drive.stiffness: must be a number (got NaN)"));
  CHECK_THROWS_WITH(modelFromJson(with({{"stiffness", "stiff"}}, ok)),
                    Catch::Contains("joints[0].drive.stiffness: must be a number, got a string"));
  CHECK_THROWS_WITH(modelFromJson(with({{"damping", 1.0}}, ok)), Catch::Contains("joints[0].drive.stiffness: missing required field"));
  CHECK_THROWS_WITH(modelFromJson(with({{"stiffness", 10.0}, {"stifness", 1.0}}, ok)),
                    Catch::Contains("joints[0].drive.stifness: unknown field"));
  CHECK_THROWS_WITH(modelFromJson(with({{"stiffness", 10.0}, {"motor_inertia", 0.0}}, ok)),
                    Catch::Contains("joints[0].drive.motor_inertia: must be positive and finite"));
  CHECK_THROWS_WITH(modelFromJson(with(ok, nullptr)), Catch::Contains("joints[1].drive: missing"));
  CHECK_THROWS_WITH(modelFromJson(with(3.0, ok)), Catch::Contains("joints[0].drive: must be an object"));
  CHECK(driveErrorOf(with(ok, ok)).empty());
}
