// Trajectory profiles: thesis breakpoints, endpoint exactness, limits, continuity, finite differences.
#include <catch2/catch.hpp>
#include <functional>
#include <random>

#include <achain/io/robot.hpp>
#include <achain/io/trajectory_json.hpp>
#include <achain/model/limits.hpp>
#include <achain/trajectory/plan.hpp>
#include <achain/trajectory/polynomial.hpp>
#include <achain/trajectory/sequence.hpp>
#include <achain/trajectory/spline.hpp>
#include <achain/trajectory/trajectory.hpp>
#include <achain/trajectory/trapezoid.hpp>
#include "trajectory_test_support.hpp"

using namespace achain;
using achain::test::checkPath;

namespace {
VecX deg(std::initializer_list<double> v) {
  VecX q(v.size());
  int i = 0;
  for (double x : v) q[i++] = x * kDeg;
  return q;
}
}  // namespace

TEST_CASE("trapezoid: thesis 60 -> 300 deg moves with Table 3.11 limits (Robinson Sec. 3.8.7)", "[trajectory]") {
  const Model m = builtinModel("prototype-4a");
  const TrapezoidPath p(deg({60, 60, 60, 60}), deg({300, 300, 300, 300}), rateLimitsFromModel(m));
  const auto b = p.breakpoints();
  for (int j = 0; j < 3; ++j) {  // 720 deg/s², 180 deg/s: 0.25 / 1.3333 / 1.5833 s
    REQUIRE(b[j].size() == 4);
    CHECK(b[j][1] == Approx(0.25).epsilon(1e-12));
    CHECK(b[j][2] == Approx(4.0 / 3.0).epsilon(1e-12));
    CHECK(b[j][3] == Approx(19.0 / 12.0).epsilon(1e-12));
  }
  // 1430 deg/s², 171 deg/s: 0.11958 / 1.4035 / 1.5231 s
  CHECK(b[3][1] == Approx(0.11958).margin(5e-6));
  CHECK(b[3][2] == Approx(1.40351).margin(5e-6));
  CHECK(b[3][3] == Approx(1.52309).margin(5e-6));
  CHECK(p.duration() == Approx(19.0 / 12.0).epsilon(1e-12));
  VecX q, qd, qdd;
  p.evaluate(0.1, q, qd, qdd);
  CHECK(qdd[0] == Approx(720 * kDeg));
  CHECK(qd[0] == Approx(72 * kDeg));
  p.evaluate(1.0, q, qd, qdd);
  CHECK(qd[0] == Approx(180 * kDeg));
  CHECK(qd[3] == Approx(171 * kDeg));
  CHECK(qdd[0] == 0.0);
  p.evaluate(1.55, q, qd, qdd);
  CHECK(qd[3] == 0.0);  // joint 4 has arrived and rests
  CHECK(q[3] == 300 * kDeg);
  checkPath(p);
}

TEST_CASE("trapezoid: triangle when the speed limit is not reached", "[trajectory]") {
  const auto p = Trapezoid1D::minimumTime(0, 1, 10, 4);  // D·a = 4 < v² = 100
  CHECK(p.triangular());
  CHECK(p.T == Approx(1.0));
  CHECK(p.v == Approx(2.0));
  double q, qd, qdd;
  p.evaluate(0.5, q, qd, qdd);
  CHECK(q == Approx(0.5));
  CHECK(qd == Approx(2.0));
  const auto n = Trapezoid1D::minimumTime(1, -2, 1, 1);  // negative direction
  n.evaluate(n.T, q, qd, qdd);
  CHECK(q == -2.0);
  n.evaluate(0.5 * n.T, q, qd, qdd);
  CHECK(qd == Approx(-1.0));
}

TEST_CASE("trapezoid: synchronised joints move on a straight line and one limit binds", "[trajectory]") {
  const Model m = builtinModel("prototype-4a");
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(60 * kDeg, 300 * kDeg);
  const RateLimits L = rateLimitsFromModel(m);
  for (int trial = 0; trial < 20; ++trial) {
    VecX a(4), b(4);
    for (int i = 0; i < 4; ++i) { a[i] = U(rng); b[i] = U(rng); }
    const TrapezoidPath p(a, b, L, {true});
    const auto& J = p.joints();
    for (int i = 1; i < 4; ++i) {
      CHECK(J[i].ta == Approx(J[0].ta).epsilon(1e-12));
      CHECK(J[i].T == Approx(J[0].T).epsilon(1e-12));
    }
    VecX q, qd, qdd;
    double worst = 0;  // the binding joint meets its speed or acceleration limit exactly
    for (double t : {0.3 * p.duration(), 0.5 * p.duration(), 0.8 * p.duration()}) {
      p.evaluate(t, q, qd, qdd);
      const double s = (q[0] - a[0]) / (b[0] - a[0]);
      for (int i = 1; i < 4; ++i) CHECK((q[i] - a[i]) / (b[i] - a[i]) == Approx(s).epsilon(1e-9));
    }
    for (int i = 0; i < 4; ++i) {
      CHECK(J[i].v <= L.velocity[i] * (1 + 1e-12));
      CHECK(J[i].a <= L.acceleration[i] * (1 + 1e-12));
      worst = std::max({worst, J[i].v / L.velocity[i], J[i].a / L.acceleration[i]});
    }
    CHECK(worst == Approx(1.0).epsilon(1e-12));
    p.evaluate(p.duration(), q, qd, qdd);
    CHECK(q == b);
    checkPath(p);
  }
}

TEST_CASE("polynomials: rest to rest, exact ends, peak factors, derivatives", "[trajectory]") {
  const Model m = builtinModel("prototype-4a");
  const RateLimits L = rateLimitsFromModel(m);
  const VecX a = deg({60, 100, 250, 300}), b = deg({300, 80, 90, 61});
  for (int degree : {3, 5, 7}) {
    INFO("degree " << degree);
    const double T = PolynomialPath::minimumDuration(degree, a, b, L);
    const PolynomialPath p(degree, a, b, T);
    VecX q, qd, qdd;
    p.evaluate(0, q, qd, qdd);
    CHECK(q == a);
    CHECK(qd.cwiseAbs().maxCoeff() < 1e-12);
    if (degree > 3) CHECK(qdd.cwiseAbs().maxCoeff() < 1e-9);
    p.evaluate(T, q, qd, qdd);
    CHECK(q == b);
    CHECK(qd.cwiseAbs().maxCoeff() < 1e-12);
    if (degree > 3) CHECK(qdd.cwiseAbs().maxCoeff() < 1e-9);
    // Sampled peaks: below the limits, and the binding one reached (peak factors are exact).
    double cv, ca, worst = 0;
    PolynomialPath::peakFactors(degree, cv, ca);
    VecX vp = VecX::Zero(4), ap = VecX::Zero(4);
    for (int k = 0; k <= 20000; ++k) {
      p.evaluate(T * k / 20000.0, q, qd, qdd);
      vp = vp.cwiseMax(qd.cwiseAbs());
      ap = ap.cwiseMax(qdd.cwiseAbs());
    }
    for (int i = 0; i < 4; ++i) {
      CHECK(vp[i] <= L.velocity[i] * (1 + 1e-9));
      CHECK(ap[i] <= L.acceleration[i] * (1 + 1e-9));
      worst = std::max({worst, vp[i] / L.velocity[i], ap[i] / L.acceleration[i]});
      const double D = std::abs(b[i] - a[i]);
      CHECK(vp[i] == Approx(cv * D / T).epsilon(1e-6));
      CHECK(ap[i] == Approx(ca * D / (T * T)).epsilon(1e-6));
    }
    CHECK(worst == Approx(1.0).epsilon(1e-6));
    checkPath(p);
  }
}

TEST_CASE("polynomials: boundary velocities and accelerations are met", "[trajectory]") {
  VecX a(2), b(2), v0(2), v1(2), a0(2), a1(2);
  a << 0.1, -0.4;
  b << 1.2, 0.3;
  v0 << 0.5, -0.2;
  v1 << -0.3, 0.1;
  a0 << 1.0, 0.2;
  a1 << -0.7, 0.4;
  const double T = 1.7;
  const PolynomialPath p(7, a, b, T, {v0, v1, a0, a1});
  VecX q, qd, qdd;
  p.evaluate(0, q, qd, qdd);
  CHECK((qd - v0).norm() < 1e-12);
  CHECK((qdd - a0).norm() < 1e-12);
  p.evaluate(T, q, qd, qdd);
  CHECK(q == b);
  CHECK((qd - v1).norm() < 1e-12);
  CHECK((qdd - a1).norm() < 1e-11);
  checkPath(p);
  CHECK_THROWS_WITH(PolynomialPath(3, a, b, T, {v0, v1, a0, a1}), Catch::Contains("cubic cannot meet boundary accelerations"));
  CHECK_THROWS_WITH(polynomialDegree("nonic"), Catch::Contains("cubic, quintic, septic"));
}

TEST_CASE("spline: C2 through the via points, limits met exactly by the time scaling", "[trajectory]") {
  const Model m = builtinModel("prototype-4a");
  const RateLimits L = rateLimitsFromModel(m);
  MatX pts(5, 4);
  pts << 60, 60, 60, 60, 120, 200, 90, 150, 200, 240, 180, 100, 250, 120, 250, 290, 300, 300, 300, 300;
  pts *= kDeg;
  const CubicSplinePath p = CubicSplinePath::throughPoints(pts, L);
  VecX q, qd, qdd;
  for (int k = 0; k < 5; ++k) {  // passes through every knot at its time
    p.evaluate(p.times()[k], q, qd, qdd);
    CHECK((q.transpose() - pts.row(k)).cwiseAbs().maxCoeff() < 1e-12);
  }
  p.evaluate(0, q, qd, qdd);
  CHECK(qd.cwiseAbs().maxCoeff() < 1e-12);
  p.evaluate(p.duration(), q, qd, qdd);
  CHECK(qd.cwiseAbs().maxCoeff() < 1e-12);
  CHECK(q == pts.row(4).transpose());
  VecX vp, ap;
  p.peakRates(vp, ap);
  double worst = 0;
  for (int i = 0; i < 4; ++i) worst = std::max({worst, vp[i] / L.velocity[i], ap[i] / L.acceleration[i]});
  CHECK(worst == Approx(1.0).epsilon(1e-9));
  // exact peaks agree with dense sampling (knots included: the acceleration peaks there)
  VecX sv = VecX::Zero(4), sa = VecX::Zero(4);
  std::vector<double> ts = p.times();
  for (int k = 0; k <= 50000; ++k) ts.push_back(p.duration() * k / 50000.0);
  for (double t : ts) {
    p.evaluate(t, q, qd, qdd);
    sv = sv.cwiseMax(qd.cwiseAbs());
    sa = sa.cwiseMax(qdd.cwiseAbs());
  }
  CHECK((sv - vp).cwiseAbs().maxCoeff() < 1e-6);
  CHECK((sa - ap).cwiseAbs().maxCoeff() < 1e-6 * ap.maxCoeff());
  CHECK(p.continuity() == 2);
  checkPath(p);
  CHECK_THROWS_WITH(CubicSplinePath(pts, {0, 1, 1, 2, 3}), Catch::Contains("times[2]"));
}

TEST_CASE("via points with point-to-point profiles rest at each via point", "[trajectory]") {
  const Model m = builtinModel("prototype-4a");
  PlanSpec s;
  s.from = deg({60, 60, 60, 60});
  s.to = deg({300, 300, 300, 300});
  s.via = {deg({180, 120, 200, 100})};
  for (const char* prof : {"trapezoid", "quintic", "septic"}) {
    s.profile = prof;
    const Plan plan = planJointPath(m, s);
    const auto* seq = dynamic_cast<const SequencePath*>(plan.path.get());
    REQUIRE(seq != nullptr);
    const double t1 = seq->segments()[0]->duration();
    VecX q, qd, qdd;
    plan.path->evaluate(t1, q, qd, qdd);
    CHECK((q - s.via[0]).cwiseAbs().maxCoeff() < 1e-12);
    CHECK(qd.cwiseAbs().maxCoeff() < 1e-9);
    checkPath(*plan.path);
  }
}

TEST_CASE("time scaling: derivatives scale by 1/k and 1/k^2", "[trajectory]") {
  VecX a(2), b(2);
  a << 0, 1;
  b << 2, -1;
  auto base = std::make_shared<PolynomialPath>(5, a, b, 2.0);
  const TimeScaledPath p(base, 1.5);
  CHECK(p.duration() == Approx(3.0));
  VecX q1, v1, a1, q2, v2, a2;
  base->evaluate(0.7, q1, v1, a1);
  p.evaluate(1.05, q2, v2, a2);
  CHECK((q1 - q2).norm() < 1e-15);
  CHECK((v1 / 1.5 - v2).norm() < 1e-14);
  CHECK((a1 / 2.25 - a2).norm() < 1e-14);
  checkPath(p);
}

TEST_CASE("trajectory JSON: a field of the wrong type is an achain::Error naming it (fuzz findings)", "[trajectory][errors]") {
  // Found by tests/fuzz/fuzz_trajectory_json: these threw nlohmann's type_error (no field name), and a
  // version of 4294967297 was read as 1.
  const auto base = nlohmann::json::parse(R"({"schema":"achain-trajectory","version":1,"t":[0,1],"q":[[0],[1]]})");
  CHECK(trajectoryFromJson(base).samples() == 2);
  const std::vector<std::pair<std::function<void(nlohmann::json&)>, std::string>> cases = {
      {[](nlohmann::json& j) { j["schema"] = 1; }, "schema: must be \"achain-trajectory\""},
      {[](nlohmann::json& j) { j.erase("schema"); }, "schema: must be \"achain-trajectory\""},
      {[](nlohmann::json& j) { j["version"] = 4294967297ull; }, "version: must be 1"},
      {[](nlohmann::json& j) { j["version"] = 1.0; }, "version: must be 1"},
      {[](nlohmann::json& j) { j["robot"] = 5; }, "robot: must be a string"},
      {[](nlohmann::json& j) { j["profile"] = nlohmann::json::array(); }, "profile: must be a string"},
      {[](nlohmann::json& j) { j["breakpoints"] = nlohmann::json::object(); }, "breakpoints: must be an array"},
  };
  for (const auto& c : cases) {
    nlohmann::json j = base;
    c.first(j);
    INFO(j.dump());
    CHECK_THROWS_AS(trajectoryFromJson(j), Error);
    CHECK_THROWS_WITH(trajectoryFromJson(j), Catch::StartsWith(c.second));
  }
}

TEST_CASE("sampling: rate, exact end sample, JSON round trip and CSV", "[trajectory]") {
  const Model m = builtinModel("prototype-4a");
  const TrapezoidPath p(deg({60, 60, 60, 60}), deg({300, 300, 300, 300}), rateLimitsFromModel(m));
  const Trajectory tr = samplePath(m, p, 100);
  CHECK(tr.samples() == 160);  // 0 … 1.58 s every 10 ms, then 1.58333 s
  CHECK(tr.t[1] == Approx(0.01));
  CHECK(tr.t.back() == p.duration());
  CHECK(tr.q.row(tr.samples() - 1) == deg({300, 300, 300, 300}).transpose());
  CHECK(tr.joints[1] == "shoulder");
  const auto j = trajectoryToJson(tr);
  CHECK(j["schema"] == "achain-trajectory");
  CHECK(j["version"] == 1);
  CHECK(j["q"].size() == 160);
  CHECK(j["q"][0].size() == 4);
  const Trajectory back = trajectoryFromJson(nlohmann::json::parse(j.dump()));
  CHECK(back.t == tr.t);
  CHECK(back.q == tr.q);
  CHECK(back.qd == tr.qd);
  CHECK(back.qdd == tr.qdd);
  CHECK(back.breakpoints == tr.breakpoints);
  auto bad = j;
  bad["q"][3] = {1, 2, 3};
  CHECK_THROWS_WITH(trajectoryFromJson(bad), Catch::Contains("q[3]: must be an array of 4 numbers"));
  bad = j;
  bad["schema"] = "other";
  CHECK_THROWS_WITH(trajectoryFromJson(bad), Catch::Contains("schema"));
  bad = j;
  bad["t"][5] = bad["t"][4];
  CHECK_THROWS_WITH(trajectoryFromJson(bad), Catch::Contains("t[5]: times must increase"));
  // issue 17: the version is compared as the integer it is (4294967297 was truncated to 1 and accepted)
  bad = j;
  bad["version"] = 4294967297u;
  CHECK_THROWS_WITH(trajectoryFromJson(bad), Catch::Contains("version: must be 1"));
  const std::string csv = trajectoryToCsv(tr);
  CHECK(csv.rfind("t,q_waist,q_shoulder,q_elbow,q_wrist,qd_waist", 0) == 0);
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 161);
  CHECK_THROWS_WITH(samplePath(m, p, 0), Catch::Contains("rate"));
  CHECK_THROWS_WITH(samplePath(m, p, 1e7), Catch::Contains("too many"));
  CHECK(checkRateLimits(m, tr)["ok"] == true);
}

TEST_CASE("planning errors name the joint or argument", "[trajectory][errors]") {
  const Model puma = builtinModel("puma560");  // no speed limits in the model
  PlanSpec s;
  s.from = VecX::Zero(6);
  s.to = VecX::Constant(6, 0.5);
  CHECK_THROWS_WITH(planJointPath(puma, s), "q1 (joint 'j1') has no speed limit, and the plan has no duration: give the joint a speed limit (vmax) or the plan a duration");
  s.to[0] = 0;  // only the coordinates that move need limits: q2 is the first of them
  CHECK_THROWS_WITH(planJointPath(puma, s), Catch::StartsWith("q2 (joint 'j2') has no speed limit"));
  s.to[0] = 0.5;
  s.velocity = VecX::Constant(6, 1.0);
  CHECK_THROWS_WITH(planJointPath(puma, s), Catch::Contains("give the joint an acceleration limit (amax) or the plan a duration"));
  s.profile = "quintic";  // a polynomial's timing needs one of the two
  CHECK_NOTHROW(planJointPath(puma, s));
  s.velocity = VecX();
  CHECK_THROWS_WITH(planJointPath(puma, s), Catch::Contains("has no speed or acceleration limit, and the plan has no duration"));
  s.duration = 2;  // a duration times the plan without limits
  CHECK_NOTHROW(planJointPath(puma, s));
  s.duration = 0;
  s.profile = "trapezoid";
  s.velocity = VecX::Constant(6, 1.0);
  s.velocity[2] = 0;
  CHECK_THROWS_WITH(planJointPath(puma, s), Catch::StartsWith("speed limit (vmax) of q3 (joint 'j3'): must be > 0"));
  s.velocity[2] = 1.0;
  s.acceleration = VecX::Constant(6, 2.0);
  CHECK_NOTHROW(planJointPath(puma, s));
  s.profile = "bang-bang";
  CHECK_THROWS_WITH(planJointPath(puma, s), Catch::Contains("profile: 'bang-bang'"));
  s.profile = "trapezoid";
  s.to = VecX::Constant(5, 0.5);
  CHECK_THROWS_WITH(planJointPath(puma, s), Catch::Contains("to: robot 'puma560' has 6 joints"));
}

TEST_CASE("plan: a goal or via point outside the position limits is refused, naming q1…qn in degrees or metres", "[trajectory][errors]") {
  const Model proto = builtinModel("prototype-4a");  // every A-pair within [60°, 300°]
  const double deg = M_PI / 180;
  PlanSpec s;
  s.from = VecX::Constant(4, 60 * deg);
  s.to = VecX::Constant(4, 300 * deg);  // the thesis move: exactly on the limits
  const Plan ok = planJointPath(proto, s);
  VecX q(4), qd(4), qdd(4);
  ok.path->evaluate(ok.path->duration(), q, qd, qdd);
  CHECK((q - s.to).cwiseAbs().maxCoeff() < 1e-12);
  s.to[0] = 320 * deg;  // the studio bug: this goal was planned without a word
  CHECK_THROWS_WITH(planJointPath(proto, s), "goal: q1 (joint 'waist') = 320° is outside its limits [60°, 300°]; choose a pose within the limits");
  s.to[0] = 300 * deg;
  s.via = {VecX::Constant(4, 100 * deg)};
  s.via[0][1] = 40 * deg;
  CHECK_THROWS_WITH(planJointPath(proto, s), Catch::Contains("via point 1: q2 (joint 'shoulder') = 40° is outside its limits [60°, 300°]"));
  s.via.clear();
  s.from[2] = 50 * deg;  // a start outside the limits may be planned back inside them
  const Plan back = planJointPath(proto, s);
  back.path->evaluate(back.path->duration(), q, qd, qdd);
  CHECK((q - s.to).cwiseAbs().maxCoeff() < 1e-12);
  // a sliding joint is said in metres
  const Model stanford = builtinModel("stanford");
  PlanSpec p;
  p.from = VecX::Zero(6);
  p.from[2] = 0.5;
  p.to = p.from;
  p.to[2] = 1.5;
  p.velocity = VecX::Constant(6, 1.0);
  p.acceleration = VecX::Constant(6, 2.0);
  CHECK_THROWS_WITH(planJointPath(stanford, p), Catch::Contains("goal: q3 (joint 'j3') = 1.5 m is outside its limits [0.3048 m, 1.27 m]"));
  CHECK(firstOutsideLimits(stanford, p.to) == 2);
  CHECK(firstOutsideLimits(stanford, p.from) == -1);
  CHECK(limitsProblem(stanford, p.from).empty());
}

TEST_CASE("plan: a given duration is honoured on a chain without speed limits", "[trajectory]") {
  const Model m = builtinModel("puma560");  // no speed or acceleration limits in the file
  for (const char* profile : {"trapezoid", "quintic", "cubic"}) {
    PlanSpec s;
    s.profile = profile;
    s.from = VecX::Zero(6);
    s.to = VecX::Constant(6, 0.5);
    s.duration = 3;
    const Plan p = planJointPath(m, s);
    CHECK(p.path->duration() == Approx(3).epsilon(1e-12));
    VecX q(6), qd(6), qdd(6);
    p.path->evaluate(3, q, qd, qdd);
    CHECK((q - s.to).cwiseAbs().maxCoeff() < 1e-12);
    CHECK(qd.cwiseAbs().maxCoeff() < 1e-12);
  }
  PlanSpec none;  // without a duration the missing limits are named
  none.from = VecX::Zero(6);
  none.to = VecX::Constant(6, 0.5);
  none.profile = "quintic";
  CHECK_THROWS_WITH(planJointPath(m, none), Catch::Matchers::Contains("or the plan a duration"));
}

TEST_CASE("sampleDerivative: exact for quadratics on an uneven grid, a file's missing rates are derived, with a note", "[trajectory]") {
  const std::vector<double> t{0, 0.1, 0.25, 0.3, 0.55, 0.6, 1.0};
  MatX x(7, 2), dx(7, 2);
  for (int k = 0; k < 7; ++k) {
    x(k, 0) = 1 - 2 * t[k] + 3 * t[k] * t[k];
    dx(k, 0) = -2 + 6 * t[k];
    x(k, 1) = 0.5 * t[k];
    dx(k, 1) = 0.5;
  }
  CHECK((sampleDerivative(t, x) - dx).cwiseAbs().maxCoeff() < 1e-12);
  CHECK(sampleDerivative({0.0}, MatX::Ones(1, 2)).isZero());
  CHECK(sampleDerivative({0.0, 0.5}, (MatX(2, 1) << 1.0, 2.0).finished())(0, 0) == Approx(2.0));
  CHECK_THROWS_WITH(sampleDerivative(t, MatX::Zero(3, 2)), "sampleDerivative: 3 rows for 7 times");

  // the reader: q only, a quadratic in t → qd and qdd as the polynomial's, and a note for each
  nlohmann::json j = {{"schema", "achain-trajectory"}, {"version", 1}, {"robot", "planar-2r"}, {"joints", {"a", "b"}}, {"t", t}};
  for (int k = 0; k < 7; ++k) j["q"].push_back({x(k, 0), x(k, 1)});
  const Trajectory tr = trajectoryFromJson(j);
  CHECK((tr.qd - dx).cwiseAbs().maxCoeff() < 1e-12);
  CHECK((tr.qdd.col(0).array() - 6.0).abs().maxCoeff() < 1e-9);
  CHECK(tr.qdd.col(1).cwiseAbs().maxCoeff() < 1e-9);
  REQUIRE(tr.notes.size() == 2);
  CHECK(tr.notes[0].rfind("qd: not in the file", 0) == 0);
  CHECK(tr.notes[1].rfind("qdd: not in the file", 0) == 0);
  // qd given, qdd not: qdd is differentiated from the file's qd (here 0.5 + t on both joints, so qdd = 1), one note
  j["qd"] = nlohmann::json::array();
  for (int k = 0; k < 7; ++k) j["qd"].push_back({0.5 + t[k], 0.5 + t[k]});
  const Trajectory half = trajectoryFromJson(j);
  CHECK(half.qd(3, 1) == 0.5 + t[3]);
  CHECK((half.qdd.array() - 1.0).abs().maxCoeff() < 1e-12);
  REQUIRE(half.notes.size() == 1);
  CHECK(half.notes[0].rfind("qdd: not in the file; differentiated from qd", 0) == 0);
  // a file with its rates keeps them and has no notes
  j["qd"] = nlohmann::json::array();
  j["qdd"] = nlohmann::json::array();
  for (int k = 0; k < 7; ++k) j["qd"].push_back({0, 0}), j["qdd"].push_back({0, 0});
  const Trajectory given = trajectoryFromJson(j);
  CHECK(given.qd.isZero());
  CHECK(given.notes.empty());
}
