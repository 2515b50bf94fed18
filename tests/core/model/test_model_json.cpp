// The robot description: validation messages name the field; save/load round-trips; units.
#include <catch2/catch.hpp>

#include <functional>
#include <limits>

#include <achain/io/model_json.hpp>
#include <achain/io/robot.hpp>
#include <achain/io/json_text.hpp>
#include <achain/dynamics/freeman.hpp>
#include <achain/kinematics/influence.hpp>
#include <achain/kinematics/fk.hpp>

#include "helpers.hpp"

using namespace achain;
using nlohmann::json;

static json minimal() {
  return json::parse(R"({
    "schema_version": 1, "name": "t",
    "joints": [
      {"kind": "R", "a": 1, "link": {"mass": 1, "com": [0,0,0], "inertia": [[1,0,0],[0,1,0],[0,0,1]]}},
      {"kind": "P", "limits": {"lower": 0, "upper": 1}},
      {"kind": "A", "rho": 0.1, "legs": {"mass": 0.05}}
    ]})");
}

static std::string errorOf(const json& j) {
  try {
    modelFromJson(j);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST_CASE("a number beyond a double is an achain::Error naming the document (fuzz finding)", "[io][errors]") {
  // Found by tests/fuzz/fuzz_model_json: nlohmann reports 1e999 as out_of_range 406, not as a parse_error,
  // and it escaped the loader as a foreign exception with nlohmann's own message.
  for (const char* text : {R"({"schema_version": 1, "joints": [{"kind": "R", "a": 1e999}]})",
                           R"({"schema_version": 1, "joints": [{"kind": "R", "a": -12.5e3082}]})"}) {
    CHECK_THROWS_AS(modelFromJsonString(text), Error);
    CHECK_THROWS_WITH(modelFromJsonString(text), Catch::StartsWith("(document): malformed JSON: the number") &&
                                                     Catch::Contains("is outside the range of a double"));
  }
}

TEST_CASE("a minimal description loads", "[io]") {
  const Model m = modelFromJson(minimal());
  CHECK(m.nq == 3);
  CHECK(m.joints[2].kind == JointKind::A);
  CHECK(m.joints[0].name == "joint1");
}

TEST_CASE("every malformed or impossible input names its field", "[io][errors]") {
  using Catch::Matchers::StartsWith;
  struct Case { std::function<void(json&)> edit; std::string starts; };
  const std::vector<Case> cases = {
      {[](json& j) { j["joints"][0]["link"]["mass"] = -1; }, "joints[0].link.mass: must be ≥ 0"},
      {[](json& j) { j["joints"][2]["rho"] = -0.1; }, "joints[2].rho: must be ≥ 0"},
      {[](json& j) { j["joints"][1].erase("kind"); }, "joints[1].kind: missing required field"},
      {[](json& j) { j["joints"][1]["kind"] = "Q"; }, "joints[1].kind: unknown joint kind 'Q'"},
      {[](json& j) { j["joints"][0]["a"] = "one"; }, "joints[0].a: must be a number, got a string"},
      {[](json& j) { j["joints"][0]["link"]["inertia"] = {{1, 0.5, 0}, {0, 1, 0}, {0, 0, 1}}; }, "joints[0].link.inertia: must be symmetric"},
      {[](json& j) { j["joints"][0]["link"]["inertia"] = {{1, 0, 0}, {0, -2, 0}, {0, 0, 1}}; }, "joints[0].link.inertia: must be positive semi-definite"},
      {[](json& j) { j["joints"][1]["limits"] = {{"lower", 2}, {"upper", 1}}; }, "joints[1].limits: lower (2) must not exceed upper (1)"},
      {[](json& j) { j["joints"][1]["limits"]["velocity"] = -3; }, "joints[1].limits.velocity: must be > 0"},
      {[](json& j) { j["units"] = {{"length", "furlong"}}; }, "units.length: unknown unit 'furlong'"},
      {[](json& j) { j["units"] = {{"mass", 3}}; }, "units.mass: must be a string"},
      {[](json& j) { j.erase("schema_version"); }, "schema_version: missing required field"},
      {[](json& j) { j["schema_version"] = 99; }, "schema_version: unsupported version 99"},
      {[](json& j) { j["joints"][0]["rh0"] = 1; }, "joints[0].rh0: unknown field"},
      {[](json& j) { j["joints"][0]["rho"] = 1; }, "joints[0].rho: only an A-pair has this"},
      {[](json& j) { j["joints"][2].erase("rho"); }, "joints[2].rho: missing"},
      {[](json& j) { j["joints"][0]["sign"] = 2; }, "joints[0].sign: must be 1 or -1"},
      {[](json& j) { j["joints"][0]["link"]["com"] = {1, 2}; }, "joints[0].link.com: must be an array of 3 numbers"},
      {[](json& j) { j["joints"][0]["parent"] = 5; }, "joints[0].parent: must be −1 (base) or an earlier joint index"},
      {[](json& j) { j["joints"] = json::array(); }, "joints: must list at least one joint"},
      {[](json& j) { j["joints"][0]["a"] = std::numeric_limits<double>::infinity(); }, "joints[0].a: must be a finite number"},
      {[](json& j) { j["gravity"] = {0, 0}; }, "gravity: must be an array of 3 numbers"},
      {[](json& j) { j["base"] = {{"matrix", {{1, 0, 0, 0}, {0, 2, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}}}; }, "base: rotation part is not orthonormal"},
      {[](json& j) { j["joints"][2]["legs"]["mass"] = -1; }, "joints[2].legs.mass: must be ≥ 0"},
      {[](json& j) { j["joints"][0]["pitch"] = 0.1; }, "joints[0].pitch: only a helical (H) joint has a pitch"},
      {[](json& j) { j["joints"][0]["kind"] = "H"; }, "joints[0].pitch: missing required field"},
      {[](json& j) { j["convention"] = "sideways"; }, "convention: unknown convention 'sideways'"},
  };
  for (const auto& c : cases) {
    json j = minimal();
    c.edit(j);
    INFO(j.dump());
    CHECK_THAT(errorOf(j), StartsWith(c.starts));
  }
}

TEST_CASE("malformed JSON text is reported as such", "[io][errors]") {
  CHECK_THROWS_WITH(modelFromJsonString("{\"schema_version\": 1,"), Catch::Matchers::StartsWith("(document): malformed JSON"));
  CHECK_THROWS_WITH(modelFromJsonString("[1,2]"), Catch::Matchers::StartsWith("(document): must be an object"));
}

TEST_CASE("units are converted once at load", "[io][units]") {
  json j = minimal();
  j["units"] = {{"length", "in"}, {"angle", "deg"}, {"mass", "lb"}, {"torque", "lbf*in"}};
  j["joints"][0]["alpha"] = 90;
  j["joints"][0]["limits"] = {{"lower", -90}, {"upper", 90}, {"velocity", 180}, {"effort", 350}};
  j["joints"][1]["limits"] = {{"lower", 0}, {"upper", 10}};
  const Model m = modelFromJson(j);
  CHECK(m.joints[0].a == Approx(0.0254));
  CHECK(m.joints[0].alpha == Approx(kPi / 2));
  CHECK(m.joints[0].limits.velocity == Approx(kPi));
  CHECK(m.joints[0].limits.effort == Approx(350 * 0.1129848290276167));
  CHECK(m.joints[1].limits.upper == Approx(0.254));
  CHECK(m.joints[0].link.mass == Approx(0.45359237));
  CHECK(m.joints[0].link.inertia(0, 0) == Approx(0.45359237 * 0.0254 * 0.0254));
  CHECK(m.joints[2].rho == Approx(0.1 * 0.0254));
}

TEST_CASE("A-pair size from rho, leg length or triangle side", "[io][apair]") {
  json j = minimal();
  j["joints"][2].erase("rho");
  j["joints"][2]["leg_length"] = 6.0;
  CHECK(modelFromJson(j).joints[2].rho == Approx(4 * std::sqrt(2.0)));
  j["joints"][2].erase("leg_length");
  j["joints"][2]["side"] = 1.0;
  CHECK(modelFromJson(j).joints[2].rho == Approx(std::sqrt(6.0) / 3));
  j["joints"][2]["rho"] = 1.0;
  CHECK_THROWS_WITH(modelFromJson(j), Catch::Matchers::StartsWith("joints[2]: give only one of rho, leg_length, side"));
}

TEST_CASE("saving a model and loading it back gives the same model", "[io]") {
  for (const auto& r : builtinRobots()) {
    INFO(r.name);
    CHECK(test::jsonRoundTrips(builtinModel(r.name)));
  }
}

TEST_CASE("built-ins: the prototype's parameters as the thesis prints them", "[io][thesis]") {
  const Model m = builtinModel("prototype-4a");
  REQUIRE(m.nq == 4);
  const double in = 0.0254;
  for (const auto& j : m.joints) {
    CHECK(j.kind == JointKind::A);
    CHECK(j.rho == Approx(4 * std::sqrt(2.0) * in).epsilon(1e-14));
    CHECK(j.limits.lower == Approx(60 * kDeg));
    CHECK(j.limits.upper == Approx(300 * kDeg));
    CHECK(j.leg_mass == Approx(0.115 * 0.45359237));
  }
  CHECK(m.joints[0].d + m.joints[0].rho == Approx(13 * in).epsilon(1e-14));
  CHECK(m.joints[1].d == Approx(-m.joints[1].rho).epsilon(1e-14));
  CHECK(m.joints[3].limits.velocity == Approx(171 * kDeg));
  CHECK(m.joints[3].limits.effort == Approx(61 * 0.1129848290276167));
  CHECK(m.joints[1].link.inertia(0, 2) == m.joints[1].link.inertia(2, 0));
  CHECK(m.gravity.z() == Approx(-386.088 * in));
  const Model r = builtinModel("prototype-4r");
  for (const auto& j : r.joints) CHECK(j.kind == JointKind::R);
  CHECK_THROWS_WITH(builtinModel("nope"), Catch::Matchers::StartsWith("robot: unknown built-in 'nope'"));
  // an empty description (the studio's empty .urdf) is said to be empty, not an unknown built-in named ''
  CHECK_THROWS_WITH(builtinModel(""), "robot: the description is empty (expected a URDF, a JSON robot description or a built-in name)");
  CHECK_THROWS_WITH(builtinModel(" \n"), Catch::Matchers::StartsWith("robot: the description is empty"));
}

TEST_CASE("out-of-range integers, duplicate keys and unphysical magnitudes are refused at load", "[io][errors]") {
  using Catch::Matchers::Contains;
  using Catch::Matchers::StartsWith;
  auto with = [](const std::function<void(json&)>& edit) {
    json j = minimal();
    edit(j);
    return errorOf(j);
  };
  // integers that do not fit are refused, not truncated (4294967295 would become −1)
  CHECK_THAT(with([](json& j) { j["joints"][1]["parent"] = 4294967295u; }),
             StartsWith("joints[1].parent: must be an integer (got 4294967295, out of range)"));
  CHECK_THAT(with([](json& j) { j["joints"][0]["sign"] = 4294967297u; }), StartsWith("joints[0].sign: must be 1 or -1"));
  CHECK_THAT(with([](json& j) { j["schema_version"] = 4294967297u; }), StartsWith("schema_version: must be an integer"));
  // magnitudes beyond the documented physical range
  CHECK_THAT(with([](json& j) { j["joints"][0]["d"] = 1e200; }), StartsWith("joints[0].d: magnitude"));
  CHECK_THAT(with([](json& j) { j["joints"][0]["link"]["com"] = {1e154, 0, 0}; }), StartsWith("joints[0].link.com[0]: magnitude"));
  CHECK_THAT(with([](json& j) { j["joints"][0]["link"]["inertia"] = {1e308, 1e308, 1e308, 0, 0, 0}; }),
             StartsWith("joints[0].link.inertia: magnitude"));
  CHECK_THAT(with([](json& j) { j["gravity"] = {0, 0, -1e308}; }), StartsWith("gravity[2]: magnitude"));
  CHECK_THAT(with([](json& j) { j["joints"][0]["link"]["mass"] = 1e12; }), StartsWith("joints[0].link.mass: magnitude"));
  // duplicate keys: the text form is the only place they survive
  try {
    modelFromJsonString(R"({"schema_version": 1, "joints": [{"kind": "R", "kind": "A", "rho": 0.1}]})");
    FAIL("a duplicate key loaded");
  } catch (const Error& e) {
    CHECK_THAT(std::string(e.what()), Contains("duplicate key 'kind'"));
  }
  // a file that is not a robot description at all is refused before it fills the memory
  CHECK_THROWS_WITH(loadRobot("/dev/zero"), Contains("larger than 16 MiB"));
}

TEST_CASE("messages escape control characters and cut long input", "[io][errors]") {
  json j = minimal();
  j["joints"][0][std::string("\x1b]0;pwned\x07") + std::string(200, 'k')] = 1;
  const std::string e = errorOf(j);
  CHECK(e.find('\x1b') == std::string::npos);
  CHECK(e.find('\x07') == std::string::npos);
  CHECK(e.find("\\x1b") != std::string::npos);
  CHECK(e.size() < 400);
  try {
    builtinModel("<?xml version=\"1.0\"?><robot name=\"r\">" + std::string(100000, ' ') + "</robot>");
    FAIL("XML loaded");
  } catch (const Error& x) {
    const std::string m = x.what();
    CHECK_THAT(m, Catch::Matchers::Contains("this is XML text, not a built-in name"));
    CHECK(m.size() < 200);
  }
  try {
    builtinModel(std::string(100000, 'x'));
  } catch (const Error& x) {
    CHECK(std::string(x.what()).size() < 400);
  }
}

TEST_CASE("resource caps of the readers: joints, nesting, string size, escaped duplicate keys (issue 17)", "[io][errors][caps]") {
  using Catch::Matchers::Contains;
  using Catch::Matchers::StartsWith;
  auto chain = [](int n) {
    json j = {{"schema_version", 1}, {"joints", json::array()}};
    for (int i = 0; i < n; ++i) j["joints"].push_back({{"kind", "R"}, {"a", 0.01}, {"link", {{"mass", 1}}}});
    return j;
  };
  CHECK_NOTHROW(modelFromJson(chain(kMaxJoints)));
  CHECK_THAT(errorOf(chain(kMaxJoints + 1)), StartsWith("joints: 1001 joints; at most 1000"));
  // nesting: 64 levels load (and fail for what they are), 65 are refused by the reader itself
  auto nested = [](int depth) {  // the document object is level 1; "notes" holds depth - 1 arrays
    return R"({"schema_version": 1, "notes": )" + std::string(depth - 1, '[') + std::string(depth - 1, ']') + "}";
  };
  CHECK_THROWS_WITH(modelFromJsonString(nested(kMaxJsonDepth)), StartsWith("notes[0]: must be a string"));
  CHECK_THROWS_WITH(modelFromJsonString(nested(kMaxJsonDepth + 1)), StartsWith("(document): nested deeper than 64"));
  CHECK_THROWS_WITH(modelFromJsonString(nested(1000000)), StartsWith("(document): nested deeper than 64"));
  // strings and keys
  const std::string big(kMaxJsonStringBytes + 1, 'k');
  CHECK_THROWS_WITH(parseJsonText(R"({"description": ")" + big + "\"}"), StartsWith("(document): a string of 65537 bytes (at most 64 KiB)"));
  CHECK_THROWS_WITH(parseJsonText("{\"" + big + "\": 1}"), StartsWith("(document): a key of 65537 bytes"));
  CHECK_NOTHROW(parseJsonText(R"({"description": ")" + std::string(kMaxJsonStringBytes, 'k') + "\"}"));
  // a duplicate key is quoted escaped (before: the raw escape sequence reached the terminal)
  try {
    parseJsonText(R"({"\u001b[2J": 1, "\u001b[2J": 2})");
    FAIL("a duplicate key parsed");
  } catch (const Error& e) {
    const std::string m = e.what();
    CHECK(m == "(document): duplicate key '\\x1b[2J' in one object (give each field once)");
  }
  // gravity is bounded per component, so 1e308 is named as the number it is (the norm would be inf)
  json g = minimal();
  g["gravity"] = {1e308, 0, 0};
  CHECK_THAT(errorOf(g), StartsWith("gravity[0]: magnitude 1e+308 exceeds the physical range"));
}

TEST_CASE("outputs of dof³ size are refused past kMaxJointsCubic before they are allocated", "[dynamics][caps]") {
  json j = {{"schema_version", 1}, {"joints", json::array()}};
  for (int i = 0; i <= kMaxJointsCubic; ++i) j["joints"].push_back({{"kind", "R"}, {"a", 0.01}, {"link", {{"mass", 1}}}});
  const Model m = modelFromJson(j);
  Data d(m);
  const VecX q = VecX::Zero(m.nq);
  forwardKinematics(m, d, q);
  FreemanModel fm;
  CHECK_THROWS_WITH(freemanModel(m, d, q, q, DynamicsOptions{}, fm), Catch::Matchers::StartsWith("freemanModel: P* has dof³ entries; at most 100 joints"));
  Influence in;
  CHECK_NOTHROW(toolInfluence(m, d, in, 2));
  CHECK_THROWS_WITH(toolInfluence(m, d, in, 3), Catch::Matchers::StartsWith("order: third-order coefficients need 6·dof³ numbers"));
}
