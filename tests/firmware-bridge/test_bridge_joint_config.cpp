// The one Model → controller joint configuration (jointConfigsFromModel) and the simulated robot built
// from it (simProfileFromModel): the prototype's model reproduces the simulator's hand-tuned profile,
// motor data reaches the controller, coordinates (not joints) are what gets configured.
#include <catch2/catch.hpp>

#include <cmath>

#include <achain/io/model_json.hpp>
#include <achain/io/robot.hpp>

#include "host/joint_config.hpp"

using namespace achain;
using namespace achain::bridge;
using Catch::Matchers::Contains;

namespace {
const double kDegree = 3.14159265358979323846 / 180.0;
}

TEST_CASE("jointConfigsFromModel: the prototype's model gives the simulator's profile", "[bridge]") {
  const Model m = builtinModel("prototype-4a");
  const std::vector<JointConfig> c = jointConfigsFromModel(m);
  const SimProfile p = prototypeProfile();
  REQUIRE(c.size() == 4);
  for (int j = 0; j < 4; ++j) {
    INFO("joint " << j);
    const JointConfig& a = c[static_cast<size_t>(j)];
    const JointConfig& b = p.config[j];
    CHECK(a.joint == j);
    // limits come from the model file (Table 3.11 and the 60°..300° leg-collision range), in float
    CHECK(a.q_min == Approx(60 * kDegree).epsilon(1e-6));
    CHECK(a.q_max == Approx(300 * kDegree).epsilon(1e-6));
    CHECK(a.v_max == Approx(b.v_max).epsilon(1e-6));
    CHECK(a.a_max == Approx(b.a_max).epsilon(1e-6));
    CHECK(a.torque_max == Approx(b.torque_max).epsilon(1e-6));
    // no motor block in the prototype's file: the simulated drive and gains
    CHECK(a.gear_ratio == -50.0f);
    CHECK(a.counts_per_rev == 4096u);
    CHECK(a.kp == b.kp);
    CHECK(a.kd == b.kd);
    CHECK(a.ki == b.ki);
  }
  CHECK(c[3].v_max == Approx(171 * kDegree).epsilon(1e-6));
  CHECK(c[3].a_max == Approx(1430 * kDegree).epsilon(1e-6));
}

TEST_CASE("jointConfigsFromModel: motor data, open limits, coupled joints and too many coordinates", "[bridge]") {
  SECTION("the PUMA 560's signed gear ratios reach the controller") {
    const std::vector<JointConfig> c = jointConfigsFromModel(builtinModel("puma560"));
    REQUIRE(c.size() == 6);
    CHECK(c[0].gear_ratio == Approx(-62.6111));
    CHECK(c[1].gear_ratio == Approx(107.815));
    CHECK(c[2].gear_ratio == Approx(-53.7063));
  }
  SECTION("encoder counts from the file; an unbounded joint gets the wide wire range") {
    const Model m = modelFromJsonString(R"({"schema_version": 1, "name": "one", "joints": [
      {"kind": "R", "a": 0, "d": 0, "alpha": 0, "motor": {"gear_ratio": -9, "encoder_counts": 2000}}]})");
    const std::vector<JointConfig> c = jointConfigsFromModel(m);
    REQUIRE(c.size() == 1);
    CHECK(c[0].q_min == -static_cast<float>(kUnboundedJointLimit));
    CHECK(c[0].q_max == static_cast<float>(kUnboundedJointLimit));
    CHECK(c[0].gear_ratio == -9.0f);
    CHECK(c[0].counts_per_rev == 2000u);
    CHECK_THROWS_WITH(modelFromJsonString(R"({"schema_version": 1, "name": "one", "joints": [
      {"kind": "R", "a": 0, "d": 0, "alpha": 0, "motor": {"encoder_counts": 0}}]})"),
                      Contains("motor.encoder_counts") && Contains("positive integer"));
  }
  SECTION("a fixed and a mimic joint add no coordinate; limits come from the coordinate's own joint") {
    const Model m = modelFromJsonString(R"({"schema_version": 1, "name": "coupled", "units": {"angle": "deg"}, "joints": [
      {"kind": "R", "a": 0.1, "d": 0, "alpha": 0, "limits": {"lower": -10, "upper": 10}},
      {"kind": "fixed", "a": 0.1, "d": 0, "alpha": 0},
      {"kind": "R", "a": 0.1, "d": 0, "alpha": 0, "mimic": {"joint": 0, "multiplier": 2, "offset": 0}},
      {"kind": "R", "a": 0.1, "d": 0, "alpha": 0, "limits": {"lower": -20, "upper": 30}}]})");
    REQUIRE(m.nq == 2);
    const std::vector<JointConfig> c = jointConfigsFromModel(m);
    REQUIRE(c.size() == 2);
    CHECK(c[0].q_max == Approx(10 * kDegree).epsilon(1e-6));
    CHECK(c[1].q_min == Approx(-20 * kDegree).epsilon(1e-6));
    CHECK(c[1].q_max == Approx(30 * kDegree).epsilon(1e-6));
  }
  SECTION("more coordinates than the protocol carries is refused, naming both counts") {
    std::string joints;
    for (int j = 0; j < 7; ++j) joints += std::string(j ? "," : "") + R"({"kind": "R", "a": 0.1, "d": 0, "alpha": 0})";
    const Model m = modelFromJsonString(R"({"schema_version": 1, "name": "seven", "joints": [)" + joints + "]}");
    CHECK_THROWS_WITH(jointConfigsFromModel(m), Contains("7 coordinates") && Contains("at most 6"));
  }
}

TEST_CASE("simProfileFromModel: the simulated plant has the configured drive", "[bridge]") {
  const SimProfile p = simProfileFromModel(builtinModel("puma560"));
  REQUIRE(p.joints == 6);
  for (int j = 0; j < 6; ++j) {
    INFO("joint " << j);
    CHECK(p.plant[j].gear_ratio == Approx(p.config[j].gear_ratio));
    CHECK(p.plant[j].counts_per_rev == p.config[j].counts_per_rev);
    // the start lies inside the configured limits
    CHECK(p.q_start[j] >= p.config[j].q_min);
    CHECK(p.q_start[j] <= p.config[j].q_max);
  }
  CHECK(p.plant[0].gear_ratio == Approx(-62.6111));
  // the prototype keeps its hand-tuned profile
  const SimProfile a = simProfileFromModel(builtinModel("prototype-4a"));
  const SimProfile b = prototypeProfile();
  REQUIRE(a.joints == 4);
  for (int j = 0; j < 4; ++j) {
    CHECK(a.plant[j].gear_ratio == b.plant[j].gear_ratio);
    CHECK(a.q_start[j] == b.q_start[j]);
  }
}

TEST_CASE("watchdogMs: range-checked before it is narrowed to the wire's 16 bits", "[bridge]") {
  CHECK(watchdogMs(200) == 200);
  CHECK(watchdogMs(kWatchdogMsMin) == kWatchdogMsMin);
  CHECK(watchdogMs(kWatchdogMsMax) == kWatchdogMsMax);
  // 100000 wrapped to 34,464 ms and -1 to 65,535 ms: a killed host went uncaught for half a minute or more
  CHECK_THROWS_WITH(watchdogMs(100000, "--watchdog-ms"),
                    Contains("--watchdog-ms: 100000 is not a watchdog the controller accepts (a whole number of ms from 10 to 10000)"));
  CHECK_THROWS_WITH(watchdogMs(-1), Contains("watchdog_ms: -1 is not a watchdog"));
  CHECK_THROWS_WITH(watchdogMs(12.5), Contains("12.5 is not a watchdog"));
  CHECK_THROWS_WITH(watchdogMs(std::nan("")), Contains("not a finite number"));
  CHECK_THROWS(watchdogMs(9));
  CHECK_THROWS(watchdogMs(10001));
}
