// The robot file's "defaults" section (io/robot.hpp RobotDefaults): read in SI by robotFromJson, written back by
// robotDefaultsToJson, and a malformed one refused naming the field.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <achain/io/model_json.hpp>
#include <achain/io/robot.hpp>
#include <achain/math/types.hpp>

#include "../helpers.hpp"

using namespace achain;

namespace {

std::string withDefaults(const std::string& defaults) {
  nlohmann::json j = nlohmann::json::parse(test::builtinRobotText("planar-2r"));
  j["defaults"] = nlohmann::json::parse(defaults);
  return j.dump();
}

std::string errorOf(const std::string& text) {
  try {
    robotFromJsonString(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("defaults: the prototype's section in SI", "[io][defaults]") {
  const Robot r = readRobot("prototype-4a");
  REQUIRE(r.defaults);
  REQUIRE(r.defaults->move);
  CHECK(r.defaults->move->name == "the thesis trapezoid");
  for (int i = 0; i < 4; ++i) {
    CHECK(r.defaults->move->from[i] == Approx(60 * kPi / 180).epsilon(1e-15));
    CHECK(r.defaults->move->to[i] == Approx(300 * kPi / 180).epsilon(1e-15));
  }
  REQUIRE(r.defaults->workspace_voxel);
  CHECK(*r.defaults->workspace_voxel == Approx(0.0127).epsilon(1e-15));
  REQUIRE(r.defaults->workspace_reference);
  CHECK(r.defaults->workspace_reference->voxels == 487640);
  CHECK(r.defaults->drive_variant == "prototype-4a-drive");
  const Robot t = readRobot("prototype-4r");
  REQUIRE(t.defaults);
  CHECK_FALSE(t.defaults->workspace_reference);
  CHECK(t.defaults->drive_variant.empty());
  CHECK_FALSE(readRobot("puma560").defaults);  // no section: the generic behaviour
}

TEST_CASE("defaults: written in SI and read back equal", "[io][defaults]") {
  const Robot r = readRobot("prototype-4a");
  nlohmann::json doc = modelToJson(r.model);
  doc["defaults"] = robotDefaultsToJson(*r.defaults, r.model);
  const Robot back = robotFromJson(doc);
  REQUIRE(back.defaults);
  CHECK((back.defaults->move->to - r.defaults->move->to).norm() < 1e-15);
  CHECK(*back.defaults->workspace_voxel == *r.defaults->workspace_voxel);
  CHECK(back.defaults->workspace_reference->note == r.defaults->workspace_reference->note);
  CHECK(back.defaults->drive_variant == "prototype-4a-drive");
}

TEST_CASE("defaults: a malformed section is refused naming the field", "[io][defaults]") {
  CHECK(errorOf(withDefaults(R"({"move": {"from": [0, 0]}})")) == "defaults.move.to: missing required field");
  CHECK_THAT(errorOf(withDefaults(R"({"move": {"from": [0], "to": [0, 0]}})")),
             Catch::StartsWith("defaults.move.from: must have one value per coordinate (2), got 1"));
  CHECK_THAT(errorOf(withDefaults(R"({"move": {"from": [0, "x"], "to": [0, 0]}})")), Catch::StartsWith("defaults.move.from[1]: "));
  CHECK_THAT(errorOf(withDefaults(R"({"move": {"from": [0, 0], "to": [0, 400]}})")),
             Catch::StartsWith("defaults.move.to[1]: outside joints[1].limits"));
  CHECK_THAT(errorOf(withDefaults(R"({"workspace": {"voxel": -1}})")), Catch::StartsWith("defaults.workspace.voxel: must be > 0"));
  CHECK_THAT(errorOf(withDefaults(R"({"workspace": {"reference": {"voxels": 5}}})")),
             Catch::StartsWith("defaults.workspace.reference: needs defaults.workspace.voxel"));
  CHECK_THAT(errorOf(withDefaults(R"({"workspace": {"voxel": 0.01, "reference": {"voxels": 0}}})")),
             Catch::StartsWith("defaults.workspace.reference.voxels: must be > 0"));
  CHECK_THAT(errorOf(withDefaults(R"({"drive_variant": 3})")), Catch::StartsWith("defaults.drive_variant: must be a string"));
  CHECK_THAT(errorOf(withDefaults(R"({"colour": "red"})")), Catch::Contains("defaults.colour"));
  CHECK_THAT(errorOf(withDefaults(R"([1])")), Catch::StartsWith("defaults"));
}
