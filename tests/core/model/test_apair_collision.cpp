// A-pair legs as Plücker lines and cylinders; leg-collision limits (Robinson §3.1–3.2).
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include <achain/model/apair.hpp>
#include <achain/model/apair_collision.hpp>
#include <achain/kinematics/fk.hpp>
#include "helpers.hpp"
#include <achain/io/model_json.hpp>
#include <achain/io/robot.hpp>

using namespace achain;

namespace {
std::string builtinRobotJson(const std::string& name) {
  for (const auto& r : builtinRobots())
    if (r.name == name) return r.json;
  FAIL("no built-in " << name);
  return {};
}

// Root of f in [a, b] by bisection (f(a), f(b) of opposite signs).
template <class F>
double bisect(F f, double a, double b) {
  double fa = f(a);
  REQUIRE(fa * f(b) < 0);
  for (int i = 0; i < 200; ++i) {
    const double m = 0.5 * (a + b), fm = f(m);
    if ((fm < 0) == (fa < 0)) {
      a = m;
      fa = fm;
    } else {
      b = m;
    }
  }
  return 0.5 * (a + b);
}
}  // namespace

TEST_CASE("A-pair legs keep the length a·√3/2 over the whole 720° cycle", "[apair_collision]") {
  for (double a : {1.0, 6.0 * 2 / std::sqrt(3.0)})
    for (int k = 0; k <= 72; ++k) {
      const ApairLegs L = apairLegs(a, 4 * kPi * k / 72);
      for (int i = 0; i < 6; ++i) CHECK((L.platform[i] - L.base[i]).norm() == Approx(a * std::sqrt(3.0) / 2).epsilon(1e-13));
    }
}

TEST_CASE("Plücker lines: Ω(p,p) = 0, the Plücker identity, and distance against brute force", "[apair_collision]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(-2, 2);
  for (int t = 0; t < 200; ++t) {
    const Vec3 x(U(rng), U(rng), U(rng)), y(U(rng), U(rng), U(rng)), u(U(rng), U(rng), U(rng)), v(U(rng), U(rng), U(rng));
    const PluckerLine p = PluckerLine::through(x, y), q = PluckerLine::through(u, v);
    CHECK(std::abs(p.dir.dot(p.moment)) < 1e-12);          // Ω(p) = p01p23 + p02p31 + p03p12 = 0 (Eq. 2.89)
    CHECK(std::abs(reciprocalProduct(p, p)) < 1e-12);
    // Brute force: minimise |x + s(y−x) − u − t(v−u)| over a fine grid refined twice.
    const Vec3 s = y - x, w = v - u;
    const Vec3 n = s.cross(w);
    const double exact = std::abs((u - x).dot(n)) / n.norm();
    CHECK(lineDistance(p, q) == Approx(exact).epsilon(1e-10));
    const CylinderTest ct = cylinderInterference(Cylinder{x, s, 0.1}, Cylinder{u, w, 0.2});
    const Vec3 f1 = x + ct.t1 * s, f2 = u + ct.t2 * w;  // common-normal feet (corrected t1)
    CHECK(std::abs((f2 - f1).dot(s)) < 1e-10);
    CHECK(std::abs((f2 - f1).dot(w)) < 1e-10);
    CHECK((f2 - f1).norm() == Approx(exact).epsilon(1e-9));
  }
  // Parallel lines: distance from the moments.
  const PluckerLine a = PluckerLine::through(Vec3(0, 0, 0), Vec3(1, 0, 0));
  const PluckerLine b = PluckerLine::through(Vec3(5, 3, 4), Vec3(2, 3, 4));
  CHECK(lineDistance(a, b) == Approx(5.0).epsilon(1e-14));
}

TEST_CASE("Ketchel–Larochelle: on-on distance decides, other cases use the segment distance", "[apair_collision]") {
  // Two crossing segments 1 apart: on-on, collide iff r1 + r2 ≥ 1.
  const Cylinder c1{Vec3(-1, 0, 0), Vec3(2, 0, 0), 0.5}, c2{Vec3(0, -1, 1), Vec3(0, 2, 0), 0.49};
  CylinderTest t = cylinderInterference(c1, c2);
  CHECK(t.feet == FootCase::OnOn);
  CHECK(t.t1 == Approx(0.5));
  CHECK(t.t2 == Approx(0.5));
  CHECK(t.distance == Approx(1.0));
  CHECK_FALSE(t.collide);
  CHECK(cylinderInterference(c1, Cylinder{c2.start, c2.axis, 0.5}).collide);
  // Move the second one beyond the end of the first: off-on; distance between the segments is √(1+1).
  const Cylinder c3{Vec3(2, -1, 1), Vec3(0, 2, 0), 0.6};
  t = cylinderInterference(c1, c3);
  CHECK(t.feet == FootCase::OnOff);
  CHECK(t.clearance == Approx(std::sqrt(2.0) - 1.1));
  CHECK_FALSE(t.collide);
}

TEST_CASE("Leg centreline distances reproduce the reference table (a = 1)", "[apair_collision]") {
  const double table[][2] = {{30, 0.0945},  {60, 0.2132},  {90, 0.3256},  {150, 0.4448}, {180, 0.4264},
                             {210, 0.3527}, {240, 0.2357}, {270, 0.1039}, {300, 0.0},    {330, 0.0380}};
  for (const auto& row : table) CHECK(legPairSample(1.0, row[0] * kDeg).d12 == Approx(row[1]).margin(6e-5));
  for (int k = 1; k < 36; ++k) {  // d16(θ) = d12(360° − θ), and the curves are scale-free
    const double th = k * 10 * kDeg;
    CHECK(legPairSample(1.0, th).d16 == Approx(legPairSample(1.0, 2 * kPi - th).d12).margin(1e-12));
    CHECK(legPairSample(6.9, th).d12 == Approx(6.9 * legPairSample(1.0, th).d12).margin(1e-12));
  }
}

TEST_CASE("Ω(1,2) and Ω(1,6) vanish at the thesis angles: intersecting at 300°/60°, parallel at 120°/240°", "[apair_collision]") {
  auto o12 = [](double d) { return legPairSample(1.0, d * kDeg).omega12; };
  auto o16 = [](double d) { return legPairSample(1.0, d * kDeg).omega16; };
  CHECK(bisect(o12, 100, 140) == Approx(120).margin(1e-9));
  CHECK(bisect(o12, 280, 320) == Approx(300).margin(1e-9));
  CHECK(bisect(o16, 40, 80) == Approx(60).margin(1e-9));
  CHECK(bisect(o16, 220, 260) == Approx(240).margin(1e-9));
  // Which kind of zero: at 120° the directions of legs 1, 2 are parallel; at 300° they meet (distance 0).
  const ApairLegs L120 = apairLegs(1.0, 120 * kDeg), L300 = apairLegs(1.0, 300 * kDeg);
  CHECK(L120.line(0).dir.cross(L120.line(1).dir).norm() < 1e-12);
  CHECK(L300.line(0).dir.cross(L300.line(1).dir).norm() > 0.1);
  CHECK(legPairSample(1.0, 300 * kDeg).d12 < 1e-12);
  CHECK(legPairSample(1.0, 60 * kDeg).d16 < 1e-12);
  CHECK(legPairSample(1.0, 240 * kDeg).d16 == Approx(legPairSample(1.0, 120 * kDeg).d12).margin(1e-12));
  // Only adjacent pairs matter: over the usable range both common-normal feet lie inside the legs (on-on).
  for (double d = 61; d < 300; d += 1) {
    if (std::abs(d - 120) < 2 || std::abs(d - 240) < 2) continue;
    const LegPairSample s = legPairSample(1.0, d * kDeg);
    if (std::abs(d - 120) >= 2) CHECK((s.t1_12 > 0 && s.t1_12 < 1 && s.t2_12 > 0 && s.t2_12 < 1));
    if (std::abs(d - 240) >= 2) CHECK((s.t1_16 > 0 && s.t1_16 < 1 && s.t2_16 > 0 && s.t2_16 < 1));
  }
}

TEST_CASE("Usable range against leg radius: 240° for centrelines, 225.6°, 181.9°, 136.2°", "[apair_collision]") {
  const ApairRange r0 = apairUsableRange(1.0, 0.0);
  CHECK(r0.lower / kDeg == Approx(60).margin(1e-8));
  CHECK(r0.upper / kDeg == Approx(300).margin(1e-8));
  CHECK(r0.lower_legs[0] == 0);
  CHECK(r0.lower_legs[1] == 5);  // legs 1 & 6
  CHECK(r0.upper_legs[0] == 0);
  CHECK(r0.upper_legs[1] == 1);  // legs 1 & 2
  const double table[][4] = {{0.005, 63.76, 296.24, 232.5}, {0.01, 67.18, 292.82, 225.6}, {0.02, 73.36, 286.64, 213.3},
                             {0.05, 89.05, 270.95, 181.9},  {0.08, 102.93, 257.07, 154.1}, {0.1, 111.90, 248.10, 136.2},
                             {0.15, 135.44, 224.56, 89.1}};
  for (const auto& row : table) {
    for (double a : {1.0, 6.0 * 2 / std::sqrt(3.0) * test::kInch}) {  // scale-free: only r/a matters
      const ApairRange R = apairUsableRange(a, row[0] * a);
      CHECK(R.lower / kDeg == Approx(row[1]).margin(0.015));
      CHECK(R.upper / kDeg == Approx(row[2]).margin(0.015));
      CHECK(R.range() / kDeg == Approx(row[3]).margin(0.05));
      CHECK(R.lower + R.upper == Approx(2 * kPi).margin(1e-9));  // centred on full extension
      // At the limit the closest legs just touch: clearance ≈ 0 there, > 0 inside.
      CHECK(std::abs(legClearance(a, row[0] * a, R.lower)) < 1e-9 * a);
      CHECK(legClearance(a, row[0] * a, R.lower + 0.01) > 0);
    }
  }
  CHECK_THROWS_WITH(apairUsableRange(1.0, 0.3), Catch::Contains("collide even at full extension"));
  CHECK_THROWS_WITH(apairUsableRange(0.0, 0.1), Catch::StartsWith("side:"));
  CHECK_THROWS_WITH(apairUsableRange(1.0, -0.1), Catch::StartsWith("leg radius:"));
}

TEST_CASE("A model derives an A-pair's limits from its leg radius (limits.from_legs)", "[apair_collision][model_json]") {
  nlohmann::json j = nlohmann::json::parse(builtinRobotJson("prototype-4a"));
  const double a_in = 6.0 * 2 / std::sqrt(3.0);
  for (auto& jj : j["joints"]) {
    jj["legs"]["radius"] = 0.05 * a_in;  // file units: inches
    jj["limits"].erase("lower");
    jj["limits"].erase("upper");
    jj["limits"]["from_legs"] = true;
  }
  const Model m = modelFromJson(j), ref = builtinModel("prototype-4a");
  for (int i = 0; i < m.njoints(); ++i) {
    const Joint& J = m.joints[i];
    CHECK(J.leg_radius == Approx(0.05 * a_in * test::kInch).epsilon(1e-14));
    CHECK(J.limits.lower / kDeg == Approx(89.05).margin(0.015));
    CHECK(J.limits.upper / kDeg == Approx(270.95).margin(0.015));
    CHECK(J.limits.velocity == ref.joints[i].limits.velocity);  // the other limits are untouched
  }
  // Saving writes the derived numbers; loading them back gives the same model.
  CHECK(modelFromJson(modelToJson(m)).sameDescription(m));
  // Centrelines (radius 0 or no legs block): the thesis's 60°–300°.
  nlohmann::json k = nlohmann::json::parse(builtinRobotJson("prototype-4a"));
  k["joints"][1]["limits"] = {{"from_legs", true}};
  const Model m0 = modelFromJson(k);
  CHECK(m0.joints[1].limits.lower / kDeg == Approx(60).margin(1e-8));
  CHECK(m0.joints[1].limits.upper / kDeg == Approx(300).margin(1e-8));
  CHECK(std::isinf(m0.joints[1].limits.velocity));

  auto bad = [&](auto edit) {
    nlohmann::json b = nlohmann::json::parse(builtinRobotJson("prototype-4a"));
    edit(b);
    return [b] { modelFromJson(b); };
  };
  CHECK_THROWS_WITH(bad([](auto& b) { b["joints"][0]["limits"]["from_legs"] = true; })(),
                    Catch::StartsWith("joints[0].limits.from_legs: give either from_legs or lower/upper"));
  CHECK_THROWS_WITH(bad([](auto& b) { b["joints"][0]["limits"] = {{"from_legs", "yes"}}; })(),
                    Catch::StartsWith("joints[0].limits.from_legs: must be true or false"));
  CHECK_THROWS_WITH(bad([](auto& b) {
                      b["joints"][2]["limits"] = {{"from_legs", true}};
                      b["joints"][2]["legs"]["radius"] = 2.0;  // r/a = 0.29
                    })(),
                    Catch::StartsWith("joints[2].limits.from_legs: leg radius:"));
  nlohmann::json r = nlohmann::json::parse(builtinRobotJson("planar-2r"));
  r["joints"][0]["limits"] = {{"from_legs", true}};
  CHECK_THROWS_WITH(modelFromJson(r), Catch::StartsWith("joints[0].limits.from_legs: only an A-pair"));
}

TEST_CASE("Leg geometry agrees with the model's leg endpoints, clearance per joint", "[apair_collision]") {
  const Model m = builtinModel("prototype-4a");
  Data d(m);
  std::mt19937 rng(11);
  for (int t = 0; t < 20; ++t) {
    const VecX q = test::randomConfiguration(m, rng);
    forwardKinematics(m, d, q);
    for (int i = 0; i < m.njoints(); ++i) {
      std::array<Vec3, 6> b, p;
      apairLegEndpoints(m, d, i, q[i], b, p);
      const SE3 plate = d.oMj[i] * rotZ(m.joints[i].theta_f);
      const ApairLegs L = apairLegs(apairSideFromRho(m.joints[i].rho), q[i]);
      for (int k = 0; k < 6; ++k) {
        CHECK((plate.inverse().act(b[k]) - L.base[k]).norm() < 1e-12);
        CHECK((plate.inverse().act(p[k]) - L.platform[k]).norm() < 1e-12);
      }
      // Centrelines (radius 0): positive clearance strictly inside 60°–300°.
      CHECK(apairClearance(m.joints[i], q[i]) > 0);
    }
  }
  Joint j = m.joints[0];
  j.leg_radius = 0.05 * apairSideFromRho(j.rho);
  CHECK(apairClearance(j, 180 * kDeg) > 0);
  CHECK(apairClearance(j, 85 * kDeg) < 0);   // below the 89.05° limit for r/a = 0.05
  CHECK(apairClearance(j, 275 * kDeg) < 0);  // above 270.95°
  CHECK(std::abs(apairClearance(j, apairUsableRange(j).upper)) < 1e-9);
  j.sign = -1;  // the mirror image has the same clearance
  CHECK(apairClearance(j, 100 * kDeg) == Approx(legClearance(apairSideFromRho(j.rho), j.leg_radius, 100 * kDeg)));
  CHECK_THROWS_WITH(apairClearance(builtinModel("planar-2r").joints[0], 0.0), Catch::StartsWith("kind: only an A-pair"));
}
