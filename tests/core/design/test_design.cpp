// Design spaces and sweeps (design/, io/design_json.hpp): the index → parameters mapping of each sample kind, the
// robot of design k, metrics against direct calls of the algorithms, the Pareto front against brute force, error
// records instead of aborts, and the named errors of bad design files.
#include <catch2/catch.hpp>

#include <cmath>
#include <algorithm>
#include <atomic>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include <achain/design/sweep.hpp>
#include <achain/io/design_json.hpp>
#include <achain/model/apair_collision.hpp>
#include <achain/reach/workspace.hpp>
#include <achain/trajectory/plan.hpp>
#include <achain/trajectory/torque_analysis.hpp>
#include <achain/trajectory/trajectory.hpp>

#include "test_paths.hpp"

using namespace achain;
using nlohmann::json;

namespace design_tests {

const char* kLegs = R"(["/joints/0/leg_length", "/joints/1/leg_length", "/joints/2/leg_length", "/joints/3/leg_length"])";

/// A design space over the prototype with the given parameters, sample and metrics (JSON text pieces).
json space(const std::string& parameters, const std::string& metrics, const std::string& sample = R"({"kind": "grid"})",
           const std::string& extra = "") {
  return json::parse(R"({"format": "achain-design-space", "version": 1, "robot": "prototype-4a", "parameters": )" + parameters +
                     R"(, "sample": )" + sample + R"(, "metrics": )" + metrics + extra + "}");
}

/// The message designSpaceFromJson throws for a document ("" when it reads).
std::string errorOf(const json& doc) {
  try {
    designSpaceFromJson(doc);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace design_tests

using namespace design_tests;

TEST_CASE("design space: a grid is the Cartesian product, the last parameter fastest", "[design]") {
  const DesignSpace s = designSpaceFromJson(space(
      R"([{"name": "leg", "pointers": )" + std::string(kLegs) + R"(, "range": [5, 7], "count": 3},
          {"name": "a2", "pointers": ["/joints/1/a"], "values": [10, 12]}])",
      R"({"collision": {}})"));
  REQUIRE(s.count == 6);
  REQUIRE(s.nq == 4);
  const double leg[3] = {5, 6, 7}, a2[2] = {10, 12};
  for (uint64_t k = 0; k < 6; ++k) {
    const std::vector<double> v = designParameters(s, k);
    REQUIRE(v.size() == 2);
    CHECK(v[0] == leg[k / 2]);
    CHECK(v[1] == a2[k % 2]);
  }
  CHECK_THROWS_WITH(designParameters(s, 6), Catch::Contains("design 6: out of range (the design space has 6 designs"));
  CHECK(designParametersJson(s, 3) == json({{"leg", 6.0}, {"a2", 12.0}}));
}

TEST_CASE("design space: random and Sobol samples are functions of (space, k), inside the ranges", "[design]") {
  const std::string params = R"([{"name": "leg", "pointers": )" + std::string(kLegs) + R"(, "range": [5, 7]},
                                 {"name": "a2", "pointers": ["/joints/1/a"], "values": [10, 12, 14]}])";
  const DesignSpace r = designSpaceFromJson(space(params, R"({"collision": {}})", R"({"kind": "random", "count": 500, "seed": 7})"));
  REQUIRE(r.count == 500);
  double lo = 1e9, hi = -1e9;
  int picks[3] = {0, 0, 0};
  for (uint64_t k = 0; k < 500; ++k) {
    const std::vector<double> v = designParameters(r, k);
    CHECK(v == designParameters(r, k));
    lo = std::min(lo, v[0]);
    hi = std::max(hi, v[0]);
    REQUIRE((v[1] == 10 || v[1] == 12 || v[1] == 14));
    ++picks[int(v[1] - 10) / 2];
  }
  CHECK(lo >= 5);
  CHECK(lo < 5.05);
  CHECK(hi < 7);
  CHECK(hi > 6.95);
  for (int p : picks) CHECK(p > 120);  // 500/3 each, roughly
  // another seed draws other designs; the same seed and count the same ones
  const DesignSpace r2 = designSpaceFromJson(space(params, R"({"collision": {}})", R"({"kind": "random", "count": 500, "seed": 8})"));
  CHECK(designParameters(r2, 0) != designParameters(r, 0));
  const DesignSpace r3 = designSpaceFromJson(space(params, R"({"collision": {}})", R"({"kind": "random", "count": 20, "seed": 7})"));
  CHECK(designParameters(r3, 19) == designParameters(r, 19));  // design k does not depend on the count

  // Sobol, unshifted: dimension 1 is van der Corput (0, 1/2, 1/4, 3/4, …), dimension 2 (s = 1, m = 1) 0, 1/2, 3/4, 1/4
  const DesignSpace so = designSpaceFromJson(space(R"([{"name": "x", "pointers": ["/joints/1/a"], "range": [0, 1]},
                                                       {"name": "y", "pointers": ["/joints/2/a"], "range": [0, 1]}])",
                                                   R"({"collision": {}})", R"({"kind": "sobol", "count": 1024})"));
  const double x[4] = {0, 0.5, 0.25, 0.75}, y[4] = {0, 0.5, 0.75, 0.25};
  for (int k = 0; k < 4; ++k) {
    CHECK(designParameters(so, k)[0] == x[k]);
    CHECK(designParameters(so, k)[1] == y[k]);
  }
  // every dyadic interval of length 1/1024 holds exactly one of the first 1024 points, in each dimension
  for (int d = 0; d < 2; ++d) {
    std::vector<int> hit(1024, 0);
    for (int k = 0; k < 1024; ++k) ++hit[int(designParameters(so, k)[d] * 1024)];
    CHECK(std::count(hit.begin(), hit.end(), 1) == 1024);
  }
}

TEST_CASE("designRobotJson writes the values at the pointers, the robot reader converts their units", "[design]") {
  const DesignSpace s = designSpaceFromJson(space(
      R"([{"name": "leg", "pointers": ["/joints/0/leg_length", {"pointer": "/joints/0/d", "scale": -0.9428090415820634, "offset": 13}],
           "values": [5, 7]},
          {"name": "radius", "pointers": ["/joints/0/legs/radius"], "values": [0.25]}])",
      R"({"collision": {}})"));
  const json j = designRobotJson(s, 1);
  CHECK(j["joints"][0]["leg_length"] == 7.0);
  CHECK(j["joints"][0]["d"].get<double>() == Approx(13 - 0.9428090415820634 * 7));
  CHECK(j["joints"][0]["legs"]["radius"] == 0.25);  // a missing key of an existing object is added
  CHECK(j["joints"][1]["leg_length"] == 6.0);       // untouched
  CHECK(j["name"] == "prototype-4a (design 1)");     // named after its design
  const Robot r0 = designRobot(s, 0), r1 = designRobot(s, 1);
  const double in = 0.0254;
  CHECK(r0.model.joints[0].rho == Approx(2 * std::sqrt(2.0) / 3 * 5 * in).epsilon(1e-12));
  CHECK(r1.model.joints[0].rho == Approx(2 * std::sqrt(2.0) / 3 * 7 * in).epsilon(1e-12));
  CHECK(r1.model.joints[1].rho == Approx(4 * std::sqrt(2.0) * in).epsilon(1e-12));
  CHECK(r1.model.joints[0].leg_radius == Approx(0.25 * in));
  CHECK(r1.model.joints[0].d + r1.model.joints[0].rho == Approx(13 * in).epsilon(1e-12));  // d1 + ρ = 13 in kept
}

TEST_CASE("design metrics equal the algorithms called directly, ρ moves the torques", "[design]") {
  const DesignSpace s = designSpaceFromJson(space(
      R"([{"name": "leg", "pointers": )" + std::string(kLegs) + R"(, "values": [5, 7]}])",
      R"({"workspace": {"voxel": 0.0254, "target": {"min": [0.2, -0.2, 0.1], "max": [0.5, 0.2, 0.5]}},
          "move": {}, "collision": {"leg_radius": 0.004}, "manipulability": {"samples": 20}, "ik": {"targets": 5}})",
      R"({"kind": "grid"})",
      R"(, "constraints": [{"metric": "peak_torque", "max": 53}, {"metric": "peak_torque_joints[1]", "min": 1}])"));
  const DesignRecord r0 = evaluateDesign(s, 0), r1 = evaluateDesign(s, 1);
  REQUIRE(r0.error == "");
  REQUIRE(r1.error == "");
  CHECK(r0.seconds > 0);
  for (const DesignRecord* r : {&r0, &r1}) {
    const Robot robot = designRobot(s, r->design);
    WorkspaceOptions o;
    o.voxel = 0.0254;
    o.threads = 1;
    const WorkspaceResult w = computeWorkspace(robot.model, o);
    CHECK(designMetricValue(*r, {"workspace_volume"}) == w.volume());
    CHECK(designMetricValue(*r, {"workspace_voxels"}) == double(w.count()));
    const double cov = designMetricValue(*r, {"target_coverage"});
    CHECK(cov > 0.5);
    CHECK(cov <= 1);
    // the thesis trapezoid planned and analysed directly
    PlanSpec spec;
    spec.from = robot.defaults->move->from;
    spec.to = robot.defaults->move->to;
    const Plan plan = planJointPath(robot.model, spec);
    const TrajectoryAnalysis an = analyzeTrajectory(robot.model, samplePath(robot.model, *plan.path, 1000), DynamicsOptions{});
    CHECK(designMetricValue(*r, {"peak_torque"}) == an.peak_tau.maxCoeff());
    CHECK(designMetricValue(*r, {"peak_torque_joints", 1}) == an.peak_tau[1]);
    CHECK(designMetricValue(*r, {"energy"}) == an.total_work);
    CHECK(designMetricValue(*r, {"rms_torque"}) <= designMetricValue(*r, {"peak_torque"}));
    CHECK(designMetricValue(*r, {"collision_free_range"}) ==
          apairUsableRange(robot.model.joints[0].rho * 3 / std::sqrt(6.0), 0.004).range());
    CHECK(designMetricValue(*r, {"manipulability_min"}) > 0);
    CHECK(designMetricValue(*r, {"manipulability_min"}) <= designMetricValue(*r, {"manipulability_mean"}));
    CHECK(designMetricValue(*r, {"ik_success"}) == 1.0);  // every target comes from FK
  }
  // a longer leg (larger ρ) moves the torques and the workspace
  CHECK(designMetricValue(r1, {"peak_torque_joints", 0}) != designMetricValue(r0, {"peak_torque_joints", 0}));
  CHECK(designMetricValue(r1, {"workspace_volume"}) > designMetricValue(r0, {"workspace_volume"}));
  // thicker legs relative to the plates: a smaller collision-free range for the shorter leg
  CHECK(designMetricValue(r0, {"collision_free_range"}) < designMetricValue(r1, {"collision_free_range"}));
  // constraints: peak torque ≤ 53 N·m holds for leg 5 in (51.7 N·m) but not for leg 7 in (55.1 N·m)
  CHECK(designMetricValue(r0, {"peak_torque"}) == Approx(51.727).margin(0.01));
  CHECK(designMetricValue(r1, {"peak_torque"}) == Approx(55.111).margin(0.01));
  CHECK(r0.feasible);
  CHECK(r0.violations.empty());
  CHECK_FALSE(r1.feasible);
  REQUIRE(r1.violations.size() == 1);
  CHECK(r1.violations[0].rfind("peak_torque = ", 0) == 0);
  CHECK(r1.violations[0].find("> max 53") != std::string::npos);
  // a record survives its JSON line
  const DesignRecord back = designRecordFromJson(s, json::parse(designRecordToJson(s, r1, true).dump()));
  CHECK(designRecordToJson(s, back, true) == designRecordToJson(s, r1, true));
  CHECK(back.metrics.size() == r1.metrics.size());
}

TEST_CASE("a design whose robot does not build gets an error record, not an abort", "[design]") {
  const DesignSpace s = designSpaceFromJson(space(
      R"([{"name": "mass", "pointers": ["/joints/2/link/mass"], "values": [7.997, -3]}])", R"({"move": {}})"));
  const DesignRecord ok = evaluateDesign(s, 0), bad = evaluateDesign(s, 1);
  CHECK(ok.error == "");
  CHECK(ok.metrics.size() == 6);
  CHECK(bad.error.find("joints[2].link.mass") != std::string::npos);
  CHECK(bad.metrics.empty());
  CHECK_FALSE(bad.feasible);
  const json j = designRecordToJson(s, bad, false);
  CHECK(j["error"].is_string());
  CHECK(j["metrics"] == json::object());
  CHECK_FALSE(j.contains("seconds"));
}

TEST_CASE("the Pareto front equals a brute-force dominance check", "[design]") {
  DesignSpace s;
  s.count = 60;
  s.objectives = {{{"a", -1}, false}, {{"b", -1}, true}, {{"c", -1}, false}};
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> U(0, 5);  // few values: ties and equal points
  std::vector<DesignRecord> recs(60);
  for (uint64_t k = 0; k < 60; ++k) {
    DesignRecord& r = recs[k];
    r.design = k;
    r.metrics = {{"a", {double(U(rng))}, false}, {"b", {double(U(rng))}, false}, {"c", {double(U(rng))}, false}};
    r.feasible = k % 7 != 3;
    if (k % 11 == 5) {
      r.error = "failed";
      r.metrics.clear();
      r.feasible = false;
    }
  }
  const std::vector<uint64_t> front = paretoFront(s, recs);
  std::vector<uint64_t> brute;
  auto f = [&](const DesignRecord& r, int i) {
    const double v = r.metrics[i].values[0];
    return i == 1 ? -v : v;
  };
  for (const DesignRecord& p : recs) {
    if (!p.feasible || !p.error.empty()) continue;
    bool dominated = false;
    for (const DesignRecord& q : recs) {
      if (!q.feasible || !q.error.empty() || &q == &p) continue;
      bool no_worse = true, better = false;
      for (int i = 0; i < 3; ++i) {
        no_worse = no_worse && f(q, i) <= f(p, i);
        better = better || f(q, i) < f(p, i);
      }
      dominated = dominated || (no_worse && better);
    }
    if (!dominated) brute.push_back(p.design);
  }
  CHECK(front == brute);
  CHECK(front.size() >= 2);
  CHECK(front.size() < 40);
  s.objectives.clear();
  CHECK(paretoFront(s, recs).empty());
}

TEST_CASE("bad design files name the field", "[design]") {
  const std::string leg = R"([{"name": "leg", "pointers": )" + std::string(kLegs) + R"(, "values": [6]}])";
  CHECK(errorOf(space(leg, R"({"workspace": {"voxl": 0.01}})")).find("metrics.workspace.voxl: unknown field") == 0);
  CHECK(errorOf(space(R"([{"name": "x", "pointers": ["/joints/9/leg_length"], "values": [6]}])", R"({"collision": {}})"))
            .find("parameters[0].pointers[0]: '/joints/9/leg_length' does not exist in the robot") == 0);
  CHECK(errorOf(space(R"([{"name": "x", "pointers": ["/joints/0/nothing/x"], "values": [6]}])", R"({"collision": {}})"))
            .find("parameters[0].pointers[0]: '/joints/0/nothing/x' does not exist") == 0);
  CHECK(errorOf(space(R"([{"name": "x", "pointers": ["/joints/0/name"], "values": [6]}])", R"({"collision": {}})"))
            .find("holds a string in the robot, not a number") != std::string::npos);
  CHECK(errorOf(space(R"([{"name": "x", "pointers": ["joints"], "values": [6]}])", R"({"collision": {}})"))
            .find("parameters[0].pointers[0]: 'joints' is not a JSON pointer") == 0);
  CHECK(errorOf(space(R"([{"name": "x", "pointers": ["/joints/0/a"], "range": [5, 5], "count": 3}])", R"({"collision": {}})"))
            .find("parameters[0].range: empty range") == 0);
  CHECK(errorOf(space(R"([{"name": "x", "pointers": ["/joints/0/a"], "range": [5, 6]}])", R"({"collision": {}})"))
            .find("parameters[0].count: missing: a grid needs") == 0);
  json nan = space(leg, R"({"collision": {}})");
  nan["parameters"][0]["values"][0] = std::numeric_limits<double>::quiet_NaN();
  CHECK(errorOf(nan).find("parameters[0].values[0]: must be a number (got NaN)") == 0);
  json inline_nan = space(leg, R"({"workspace": {"voxel": 0.01}})");
  inline_nan["metrics"]["workspace"]["voxel"] = std::numeric_limits<double>::quiet_NaN();
  CHECK(errorOf(inline_nan).find("metrics.workspace.voxel: must be a number (got NaN)") == 0);
  CHECK(errorOf(space(leg, R"({"collision": {}})", R"({"kind": "random"})")).find("sample.count: missing") == 0);
  CHECK(errorOf(space(leg, R"({"collision": {}})", R"({"kind": "grid", "seed": 3})")).find("sample.seed: a grid has no seed") == 0);
  CHECK(errorOf(space(leg, R"({})")).find("metrics: names no metric") == 0);
  CHECK(errorOf(space(leg, R"({"move": {"from": [60, 60, 60]}})")).find("metrics.move: give both from and to") == 0);
  CHECK(errorOf(space(leg, R"({"move": {"from": [60, 60, 60, 60], "to": [300, 300, 300, 400]}})"))
            .find("metrics.move: against the base robot: defaults.move.to[3]") == 0);
  CHECK(errorOf(space(leg, R"({"collision": {}})", R"({"kind": "grid"})", R"(, "objectives": [{"metric": "peak_torque", "goal": "min"}])"))
            .find("objectives[0].metric: 'peak_torque' is not a metric of this design space (its metrics: collision_free_range") == 0);
  CHECK(errorOf(space(leg, R"({"move": {}})", R"({"kind": "grid"})", R"(, "objectives": [{"metric": "peak_torque_joints", "goal": "min"}])"))
            .find("objectives[0].metric: 'peak_torque_joints' is an array: name one element") == 0);
  CHECK(errorOf(space(leg, R"({"move": {}})", R"({"kind": "grid"})", R"(, "constraints": [{"metric": "peak_torque_joints[4]", "max": 1}])"))
            .find("constraints[0].metric: 'peak_torque_joints[4]': the base robot has 4 values") == 0);
  CHECK(errorOf(space(leg, R"({"move": {}})", R"({"kind": "grid"})", R"(, "objectives": [{"metric": "energy", "goal": "best"}])"))
            .find("objectives[0].goal: expected min or max") == 0);
  json fmt = space(leg, R"({"collision": {}})");
  fmt["format"] = "achain-sweep";
  CHECK(errorOf(fmt).find("format: expected \"achain-design-space\"") == 0);
  json urdf = space(leg, R"({"collision": {}})");
  urdf["robot"] = test::sourceDir() + "/tests/fixtures/urdf/apair.urdf";
  CHECK(errorOf(urdf).find("is a URDF file: the parameters are JSON pointers") != std::string::npos);
  json parallel = space(leg, R"({"collision": {}})");
  parallel["robot"] = "stewart-6ups";
  CHECK(errorOf(parallel).find("robot: stewart-6ups: ") == 0);
  json dup = space(R"([{"name": "a", "pointers": ["/joints/0/a"], "values": [1]}, {"name": "b", "pointers": ["/joints/0/a"], "values": [2]}])",
                   R"({"collision": {}})");
  CHECK(errorOf(dup).find("parameters[1].pointers[0]: '/joints/0/a' is written by parameters[0].pointers[0] too") == 0);
  // a record of another design space is refused naming the field
  const DesignSpace s = designSpaceFromJson(space(leg, R"({"collision": {}})"));
  json line = designRecordToJson(s, evaluateDesign(s, 0), true);
  line["parameters"]["leg"] = 6.5;
  CHECK_THROWS_WITH(designRecordFromJson(s, line), Catch::StartsWith("parameters.leg: 6.5 is not design 0's value 6.0"));
  line = designRecordToJson(s, evaluateDesign(s, 0), true);
  line["design"] = 1;
  CHECK_THROWS_WITH(designRecordFromJson(s, line), Catch::StartsWith("design: 1 is not a design of this space (it has 1)"));
}

TEST_CASE("every metric a design space can name has its unit, the merged summary carries it", "[design]") {
  const DesignSpace s = designSpaceFromJson(space(
      R"([{"name": "leg", "pointers": )" + std::string(kLegs) + R"(, "values": [5, 7]}])",
      R"({"workspace": {"voxel": 0.0508, "target": {"min": [0.2, -0.2, 0.1], "max": [0.5, 0.2, 0.5]}},
          "move": {}, "collision": {}, "manipulability": {"samples": 5}, "ik": {"targets": 2}})"));
  for (const std::string& n : designMetricNames(s)) CHECK_NOTHROW(designMetricUnit(n));
  CHECK(designMetricUnit("workspace_volume") == "m^3");
  CHECK(designMetricUnit("peak_torque_joints[3]") == "N*m");
  CHECK(designMetricUnit("energy") == "J");
  CHECK(designMetricUnit("collision_free_range") == "rad");
  CHECK(designMetricUnit("ik_success") == "");
  CHECK_THROWS_WITH(designMetricUnit("peak_power"), Catch::Contains("'peak_power': no such metric"));
  std::vector<DesignRecord> records{evaluateDesign(s, 0), evaluateDesign(s, 1)};
  const json merged = sweepMergedJson(s, records);
  CHECK(merged["summary"]["metrics"]["workspace_volume"]["unit"] == "m^3");
  CHECK(merged["summary"]["metrics"]["move_duration"]["unit"] == "s");
  CHECK(merged["summary"]["metrics"]["rms_torque_joints[0]"]["unit"] == "N*m");
}

TEST_CASE("runDesigns: every design recorded once whatever the thread count, a stop keeps what finished, errors name the design", "[design][progress]") {
  const DesignSpace s = designSpaceFromJson(space(R"([{"name": "mass", "pointers": ["/joints/2/link/mass"], "range": [5, 9]}])",
                                                  R"({"move": {}})", R"({"kind": "random", "count": 24, "seed": 3})"));
  std::vector<std::uint64_t> all(24);
  for (std::uint64_t k = 0; k < all.size(); ++k) all[size_t(k)] = k;
  std::map<std::uint64_t, std::string> one, three;
  const DesignRunSummary s1 = runDesigns(s, all, 1, [&](const DesignRecord& r) { one[r.design] = designRecordToJson(s, r, false).dump(); });
  CHECK(s1.evaluated == 24);
  CHECK(s1.errors == 0);
  CHECK_FALSE(s1.cancelled);
  CHECK(s1.threads == 1);
  REQUIRE(one.size() == 24);

  // three threads and a report: the same records (each once), the fractions non-decreasing, the last one 1
  std::vector<double> fractions;
  int twice = 0;
  const DesignRunSummary s3 = runDesigns(s, all, 3, [&](const DesignRecord& r) {
    twice += three.count(r.design) != 0;
    three[r.design] = designRecordToJson(s, r, false).dump();
  }, Progress([&](double f) {
    fractions.push_back(f);
    return true;
  }));
  CHECK(s3.threads == 3);
  CHECK(twice == 0);
  CHECK(three == one);
  REQUIRE(fractions.size() >= 2);
  CHECK(fractions.front() == 0.0);
  CHECK(fractions.back() == 1.0);
  CHECK(std::is_sorted(fractions.begin(), fractions.end()));

  // a stop flag set after the 5th record: no design starts after it; the other thread's design in flight finishes
  std::atomic<bool> stop{false};
  int recorded = 0;
  const DesignRunSummary sc = runDesigns(s, all, 2, [&](const DesignRecord&) {
    if (++recorded == 5) stop = true;
  }, Progress(&stop));
  CHECK(sc.cancelled);
  CHECK(sc.evaluated == std::uint64_t(recorded));
  CHECK(recorded >= 5);
  CHECK(recorded <= 6);

  // a report that says stop when first asked (before any design starts): nothing runs
  const DesignRunSummary sr = runDesigns(s, all, 2, [](const DesignRecord&) {}, Progress([](double) { return false; }));
  CHECK(sr.cancelled);
  CHECK(sr.evaluated == 0);

  // a record hook that throws (a full disk): the run stops and the error comes back after the threads joined
  int after = 0;
  CHECK_THROWS_WITH(runDesigns(s, all, 2, [&](const DesignRecord&) {
    ++after;
    throw Error("--out: writing failed (disk full?)");
  }), "--out: writing failed (disk full?)");
  CHECK(after <= 2);
  // an index outside the space is not a design's error: it stops the run, naming the design
  CHECK_THROWS_WITH(runDesigns(s, {3, 99}, 1, [](const DesignRecord&) {}), Catch::StartsWith("design 99: "));
  CHECK_THROWS_WITH(runDesigns(s, all, -1, [](const DesignRecord&) {}), "threads: must be ≥ 0 (0 = every hardware thread)");
  const DesignRunSummary none = runDesigns(s, {}, 0, [](const DesignRecord&) {});
  CHECK(none.evaluated == 0);
  CHECK_FALSE(none.cancelled);
}
