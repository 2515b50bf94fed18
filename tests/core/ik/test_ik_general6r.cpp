// General 6R IK (Raghavan–Roth / Manocha–Canny eigenvalue method): random arms, known arms, degenerate
// geometry and joint values at 0 and π, the ikAll dispatch.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>

#include <achain/ik/closed_form.hpp>
#include <achain/ik/general6r.hpp>
#include <achain/ik/ik.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/io/robot.hpp>
#include "helpers.hpp"
#include "test_scale.hpp"
#include "test_paths.hpp"

using namespace achain;
using test::fkPose;

namespace {

/// A 6R arm in standard DH: a, α, d, θ_f per joint (no limits).
Model arm6(const std::array<double, 6>& a, const std::array<double, 6>& alpha, const std::array<double, 6>& d,
           const std::array<double, 6>& theta_f = {}) {
  Model m = builtinModel("puma560");
  m.name = "arm6";
  for (int i = 0; i < 6; ++i) {
    Joint& j = m.joints[i];
    j.a = a[i];
    j.alpha = alpha[i];
    j.d = d[i];
    j.theta_f = theta_f[i];
    j.limits.lower = -kInf;
    j.limits.upper = kInf;
  }
  m.finalize();
  return m;
}

/// Random DH: a ∈ ±[0.05, 1], α ∈ [−π, π], d ∈ [−0.5, 0.5], θ_f ∈ [−π, π]; random base and tool.
Model randomArm(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(-1, 1), Ua(0.05, 1);
  std::array<double, 6> a, al, d, th;
  for (int i = 0; i < 6; ++i) {
    a[i] = Ua(rng) * (U(rng) > 0 ? 1 : -1);
    al[i] = kPi * U(rng);
    d[i] = 0.5 * U(rng);
    th[i] = kPi * U(rng);
  }
  Model m = arm6(a, al, d, th);
  m.base = SE3{Eigen::Quaterniond(U(rng), U(rng), U(rng), U(rng)).normalized().toRotationMatrix(), Vec3(U(rng), U(rng), U(rng))};
  m.tool = SE3{Eigen::Quaterniond(U(rng), U(rng), U(rng), U(rng)).normalized().toRotationMatrix(), 0.2 * Vec3(U(rng), U(rng), U(rng))};
  m.finalize();
  return m;
}

double angleDistance(const Eigen::Ref<const VecX>& a, const VecX& b) {
  double d = 0;
  for (int i = 0; i < 6; ++i) d = std::max(d, std::abs(std::remainder(a[i] - b[i], 2 * kPi)));
  return d;
}

struct ArmCheck {
  int count = 0;
  bool found_truth = false;
  double truth_distance = kInf;  ///< nearest solution to the generating configuration (max angle difference)
  double worst_residual = 0;
  double min_separation = kInf;
  bool degenerate = false;
};

ArmCheck checkArm(const Model& m, const VecX& truth) {
  Data data(m);
  const SE3 T = fkPose(m, truth);
  IkSolutionSet g;
  ikGeneral6R(m, data, T, g);
  ArmCheck c;
  c.degenerate = g.general6r.degenerate;
  c.count = g.count;
  for (int s = 0; s < g.count; ++s) {
    const VecX q = Eigen::Map<const VecX>(g.sol(s).q.data(), 6);
    double pe, oe;
    poseErrorAt(m, data, q, T, pe, oe);
    c.worst_residual = std::max(c.worst_residual, pe + oe);
    c.truth_distance = std::min(c.truth_distance, angleDistance(g.sol(s).q, truth));
    if (angleDistance(g.sol(s).q, truth) <= 1e-9) c.found_truth = true;
    for (int t = 0; t < s; ++t) c.min_separation = std::min(c.min_separation, angleDistance(g.sol(s).q, Eigen::Map<const VecX>(g.sol(t).q.data(), 6)));
  }
  return c;
}

VecX randomQ(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(-kPi, kPi);
  VecX q(6);
  for (int i = 0; i < 6; ++i) q[i] = U(rng);
  return q;
}

}  // namespace

TEST_CASE("general 6R: 1000 random arms, the generating configuration among verified, distinct solutions", "[ik][general6r]") {
  std::mt19937_64 rng(6061);
  int found = 0, degenerate = 0, even = 0;
  double worst = 0, closest = kInf;
  std::map<int, int> histogram;
  const int n = 1000;
  for (int k = 0; k < n; ++k) {
    const Model m = randomArm(rng);
    const VecX q = randomQ(rng);
    const ArmCheck c = checkArm(m, q);
    found += c.found_truth;
    degenerate += c.degenerate;
    even += c.count % 2 == 0;
    worst = std::max(worst, c.worst_residual);
    closest = std::min(closest, c.min_separation);
    histogram[c.count]++;
    if (!c.found_truth) {
      INFO("arm " << k);
      CHECK(c.found_truth);
    }
  }
  std::string h;
  for (const auto& [cnt, num] : histogram) h += std::to_string(cnt) + ":" + std::to_string(num) + " ";
  INFO("solution counts " << h);
  CHECK(found == n);
  CHECK(degenerate == 0);
  CHECK(worst <= 1e-10);
  CHECK(closest > 1e-7);
  // real solutions of a generic 6R come in even numbers (complex roots pair up; 16 at most)
  CHECK(even >= n - 5);
  CHECK(histogram.rbegin()->first <= 16);
}

// Run by hand: achain_tests_ik "[.general6r-10k]" -s  (the distribution reported in docs/ik.md)
TEST_CASE("general 6R: 10,000 random arms, distribution of the real-solution counts", "[.general6r-10k]") {
  std::mt19937_64 rng(10000);
  std::map<int, int> histogram;
  int found = 0, degenerate = 0;
  double worst = 0;
  const int n = 10000;
  for (int k = 0; k < n; ++k) {
    const Model m = randomArm(rng);
    const ArmCheck c = checkArm(m, randomQ(rng));
    found += c.found_truth;
    degenerate += c.degenerate;
    worst = std::max(worst, c.worst_residual);
    histogram[c.count]++;
  }
  std::printf("10k arms: generating configuration found %d/%d, degenerate %d, worst residual %.3g\ncounts:", found, n,
              degenerate, worst);
  for (const auto& [cnt, num] : histogram) std::printf(" %d:%d", cnt, num);
  std::printf("\n");
  CHECK(found == n);
}

namespace {

/// Every solution of `ref` (modulo 2π) is in `g`, and vice versa when `both`.
bool contains(const IkSolutionSet& g, const VecX& q) {
  for (int s = 0; s < g.count; ++s)
    if (angleDistance(g.sol(s).q, q) < 1e-7) return true;
  return false;
}

/// The target FK(q) (into T) and its general 6R solution set.
IkSolutionSet solveAt(const Model& m, Data& data, const VecX& q, SE3& T) {
  T = fkPose(m, q);
  IkSolutionSet g;
  ikGeneral6R(m, data, T, g);
  return g;
}

Model ur5() {
  return arm6({0, -0.425, -0.39225, 0, 0, 0}, {kPi / 2, 0, 0, kPi / 2, -kPi / 2, 0},
              {0.089159, 0, 0, 0.10915, 0.09465, 0.0823});
}

}  // namespace

TEST_CASE("general 6R: complete against a 300-start numeric peer on random arms", "[ik][general6r]") {
  std::mt19937_64 rng(77);
  IkOptions opt;
  opt.restarts = 300;
  opt.respect_limits = false;
  int numeric_total = 0;
  for (int k = 0; k < 12; ++k) {
    const Model m = randomArm(rng);
    const VecX q = randomQ(rng);
    const SE3 T = fkPose(m, q);
    Data data(m);
    IkSolutionSet g;
    ikGeneral6R(m, data, T, g);
    const IkAllResult num = ikAll(m, data, T, IkMethod::Numeric, opt);
    for (const auto& s : num.solutions) {
      INFO("arm " << k << ": numeric solution missing from the eigenvalue set of " << g.count);
      CHECK(contains(g, s.q));
      ++numeric_total;
    }
  }
  CHECK(numeric_total >= 24);  // the peer found something to compare
}

TEST_CASE("general 6R: PUMA 560, the 8 solutions agree with the closed form", "[ik][general6r]") {
  const Model m = builtinModel("puma560");
  std::mt19937_64 rng(560);
  Data data(m);
  for (int k = 0; k < 50; ++k) {
    const VecX q = randomQ(rng);
    const SE3 T = fkPose(m, q);
    IkSolutionSet c;
    ikClosed(m, data, T, nullptr, c);
    IkSolutionSet g;
    ikGeneral6R(m, data, T, g);
    INFO("target " << k << ", formulation " << g.general6r.formulation);
    REQUIRE_FALSE(g.general6r.degenerate);
    CHECK(g.count == c.count);
    for (int s = 0; s < c.count; ++s) CHECK(contains(g, Eigen::Map<const VecX>(c.sol(s).q.data(), 6)));
    CHECK(contains(g, q));
  }
}

TEST_CASE("general 6R: UR-type arm (axes 2, 3, 4 parallel, no spherical wrist): up to 8, as the numeric peer finds", "[ik][general6r]") {
  const Model m = ur5();
  CHECK_FALSE(hasClosedForm(m));
  IkOptions opt;
  opt.restarts = 300;
  opt.respect_limits = false;
  Data data(m);
  std::map<int, int> counts;
  std::mt19937_64 rng(5);
  for (int k = 0; k < 20; ++k) {
    const VecX q = randomQ(rng);
    const SE3 T = fkPose(m, q);
    IkSolutionSet g;
    ikGeneral6R(m, data, T, g);
    REQUIRE_FALSE(g.general6r.degenerate);
    CHECK(contains(g, q));
    counts[g.count]++;
    // a UR arm has 8 solutions only where the planar 3R sub-problem reaches for every (θ₁, θ₅) branch:
    // the peer (300 starts) finds exactly the same set
    const IkAllResult num = ikAll(m, data, T, IkMethod::Numeric, opt);
    INFO("target " << k << ": eigen " << g.count << ", numeric " << num.solutions.size());
    CHECK(static_cast<int>(num.solutions.size()) == g.count);
    for (const auto& s : num.solutions) CHECK(contains(g, s.q));
  }
  CHECK(counts.rbegin()->first == 8);
  CHECK(counts[8] >= 10);
  // a target with all 8: q = (40, −60, 80, −30, 70, 20)°
  VecX q8(6);
  q8 << 40, -60, 80, -30, 70, 20;
  q8 *= kDeg;
  IkSolutionSet g;
  ikGeneral6R(m, data, fkPose(m, q8), g);
  CHECK(g.count == 8);
  CHECK(contains(g, q8));
}

TEST_CASE("general 6R: an arm with 16 real solutions, all found", "[ik][general6r]") {
  // Found by a hill-climbing search over DH parameters and joint values with this solver (a published
  // 16-solution arm, Manseur & Doty 1989, could not be located in the references available here); the
  // count is confirmed by a 2000-start numeric peer, which finds the same 16 and no other.
  const Model m = arm6({0.921, 0.050, -0.601, 0.373, 1.031, 0.694}, {1.291, -1.876, 1.032, -1.704, 1.174, -0.159},
                       {0.465, -0.210, -0.634, 0.587, 0.226, -0.617});
  VecX q(6);
  q << 2.297, -0.767, 0.021, -2.465, 1.906, 0.897;
  Data data(m);
  SE3 T;
  const IkSolutionSet g = solveAt(m, data, q, T);
  REQUIRE(g.count == 16);
  CHECK(contains(g, q));
  for (int s = 0; s < 16; ++s) CHECK(g.sol(s).position_error + g.sol(s).orientation_error <= 1e-10);
  IkOptions opt;
  opt.restarts = 2000;
  opt.respect_limits = false;
  const IkAllResult num = ikAll(m, data, T, IkMethod::Numeric, opt);
  CHECK(num.solutions.size() == 16);
  for (const auto& s : num.solutions) CHECK(contains(g, s.q));
  // through ikAll (auto): the same 16
  const IkAllResult all = ikAll(m, T, IkMethod::Auto, {});
  CHECK(all.method == IkMethod::General6R);
  CHECK(all.solutions.size() == 16);
}

TEST_CASE("general 6R: joint values exactly 0 and π", "[ik][general6r]") {
  std::mt19937_64 rng(180);
  std::uniform_int_distribution<int> pick(0, 2);
  for (int k = 0; k < 60; ++k) {
    const Model m = k % 3 == 0 ? ur5() : randomArm(rng);
    VecX q = randomQ(rng);
    for (int i = 0; i < 6; ++i) {
      const int p = k < 2 ? k : pick(rng);  // all 0, all π, then mixed
      if (p == 0) q[i] = 0;
      if (p == 1) q[i] = kPi;
    }
    // the UR arm with θ₅ ∈ {0, π} has axis 6 parallel to axes 2–4: a one-parameter family of solutions,
    // not isolated ones (checked below), so θ₅ stays generic there
    if (k % 3 == 0 && (q[4] == 0 || q[4] == kPi)) q[4] = 0.7;
    const ArmCheck c = checkArm(m, q);
    INFO("case " << k << ": q = " << q.transpose());
    CHECK_FALSE(c.degenerate);
    CHECK(c.worst_residual <= 1e-10);
    if (k % 3 == 0 && (q[2] == 0 || q[2] == kPi)) {
      // UR elbow stretched or folded: the two elbow solutions meet (a double root, the workspace boundary);
      // there the pose error grows with the square of the joint error, so the joint values are only
      // determined to about √ε even with the pose matched to 1e-15
      CHECK(c.truth_distance <= 1e-6);
    } else {
      CHECK(c.found_truth);
    }
  }
}

TEST_CASE("general 6R: a family of solutions (UR with θ₅ = 0) is detected and solved by the numeric fallback", "[ik][general6r]") {
  const Model m = ur5();
  VecX q(6);
  q << 0.3, -1.0, 1.2, -0.5, 0.0, 0.8;
  Data data(m);
  SE3 T;
  const IkSolutionSet g = solveAt(m, data, q, T);
  CHECK(g.general6r.degenerate);
  CHECK(g.count == 0);
  IkOptions opt;
  opt.restarts = 20;
  const IkAllResult r = ikAll(m, data, T, IkMethod::Auto, opt);
  CHECK(r.method == IkMethod::Numeric);
  CHECK_THAT(r.note, Catch::Contains("general6r: no regular elimination"));
  REQUIRE_FALSE(r.solutions.empty());
  for (const auto& s : r.solutions) {
    double pe, oe;
    poseErrorAt(m, data, s.q, T, pe, oe);
    CHECK(pe + oe <= 1e-9);
  }
}

TEST_CASE("general 6R: intersecting wrist axes on a skew arm are never returned as garbage", "[ik][general6r]") {
  std::mt19937_64 rng(44);
  for (int k = 0; k < 20; ++k) {
    Model m = randomArm(rng);
    // spherical wrist (a₄ = a₅ = d₅ = 0) on a skew shoulder: no closed form, a degenerate elimination for
    // some formulations
    m.joints[3].a = 0;
    m.joints[4].a = 0;
    m.joints[4].d = 0;
    m.finalize();
    const VecX q = randomQ(rng);
    const SE3 T = fkPose(m, q);
    const IkAllResult r = ikAll(m, T, IkMethod::Auto, {});
    INFO("arm " << k << ": " << r.note);
    CHECK(r.method == IkMethod::General6R);
    bool found = false;
    for (const auto& s : r.solutions) {
      double pe, oe;
      Data d(m);
      poseErrorAt(m, d, s.q, T, pe, oe);
      CHECK(pe + oe <= 1e-10);
      double dist = 0;
      for (int i = 0; i < 6; ++i) dist = std::max(dist, std::abs(std::remainder(s.q[i] - q[i], 2 * kPi)));
      found = found || dist < 1e-9;
    }
    CHECK(found);
  }
}

TEST_CASE("general 6R: ikAll dispatch, method name, limits and errors", "[ik][general6r]") {
  CHECK(ikMethodFromString("general6r") == IkMethod::General6R);
  CHECK(std::string(toString(IkMethod::General6R)) == "general6r");
  CHECK_THROWS_WITH(ikMethodFromString("eigen"), Catch::Contains("general6r"));
  std::mt19937_64 rng(9);
  Model m = randomArm(rng);
  const VecX q = randomQ(rng);
  const SE3 T = fkPose(m, q);
  const IkAllResult a = ikAll(m, T, IkMethod::Auto, {}, &q);
  CHECK(a.method == IkMethod::General6R);
  CHECK(a.status == IkStatus::Ok);
  REQUIRE_FALSE(a.solutions.empty());
  CHECK((a.solutions[0].q - q).cwiseAbs().maxCoeff() < 1e-9);  // nearest the seed first
  CHECK_THAT(a.note, Catch::Contains("eigenvalue"));
  // limits: joint 1 limited to a band around the generating value; every other solution is outside
  const int total = static_cast<int>(a.solutions.size() + a.outside_limits.size());
  m.joints[0].limits.lower = q[0] - 1e-6;
  m.joints[0].limits.upper = q[0] + 1e-6;
  m.finalize();
  const IkAllResult l = ikAll(m, T, IkMethod::General6R, {});
  CHECK(static_cast<int>(l.solutions.size() + l.outside_limits.size()) == total);
  for (const auto& s : l.solutions) CHECK(std::abs(s.q[0] - q[0]) <= 1e-6 + 1e-12);
  // position-only is the numeric solver's
  IkOptions po;
  po.position_only = true;
  CHECK(ikAll(m, T, IkMethod::Auto, po).method == IkMethod::Numeric);
  CHECK_THROWS_WITH(ikAll(m, T, IkMethod::General6R, po), Catch::Contains("position-only"));
  // the closed form keeps its chains; other chains are refused by name
  CHECK(ikAll(builtinModel("puma560"), T, IkMethod::Auto, {}).method == IkMethod::Closed);
  Model h = m;
  h.joints[2].kind = JointKind::H;
  h.joints[2].pitch = 0.01;
  h.finalize();
  CHECK_THROWS_WITH(ikAll(h, T, IkMethod::General6R, {}), Catch::Contains("joints[2].kind: only revolute joints"));
  CHECK_THROWS_WITH(ikAll(builtinModel("prototype-4a"), T, IkMethod::General6R, {}), Catch::Contains("6 joints"));
  // unreachable: far target, no solution, the nearest least-squares pose
  SE3 far = T;
  far.p = Vec3(50, 0, 0);
  const IkAllResult u = ikAll(m, far, IkMethod::General6R, {});
  CHECK(u.status == IkStatus::Unreachable);
  CHECK(u.has_nearest);
}

TEST_CASE("general 6R: a URDF arm (joints placed by origin/axis) is solved the same way", "[ik][general6r]") {
  const Model m = loadRobot(achain::test::sourceDir() + "/tests/fixtures/urdf/puma560.urdf");
  REQUIRE(m.joints[0].has_origin);
  CHECK(hasClosedForm(m));  // through its extracted DH description (model/dh_extract.hpp)
  CHECK(isGeneral6R(m));    // and the eigenvalue method reads the joints' placement directly
  std::mt19937_64 rng(2);
  Data data(m);
  for (int k = 0; k < 20; ++k) {
    const VecX q = randomQ(rng);
    SE3 T;
    const IkSolutionSet g = solveAt(m, data, q, T);
    REQUIRE_FALSE(g.general6r.degenerate);
    CHECK(g.count == 8);  // the PUMA geometry: 8 solutions for a generic target, as its closed form
    CHECK(contains(g, q));
  }
}

namespace {

/// A random arm of randomArm's family with `np` of its joints (at `where`) made prismatic (travel ±2 m).
Model prismaticArm(std::mt19937_64& rng, const std::vector<int>& where) {
  Model m = randomArm(rng);
  for (int i : where) {
    m.joints[i].kind = JointKind::P;
    m.joints[i].limits.lower = -2;
    m.joints[i].limits.upper = 2;
  }
  m.finalize();
  return m;
}

/// Distance between a solution and a configuration: angles modulo 2π, lengths as they are.
double jointDistance(const Model& m, const Eigen::Ref<const VecX>& a, const VecX& b) {
  double d = 0;
  for (int i = 0; i < 6; ++i)
    d = std::max(d, std::abs(m.jmodels[i].angular() ? std::remainder(a[i] - b[i], 2 * kPi) : a[i] - b[i]));
  return d;
}

/// Solves FK(q) by the eigenvalue method; checks every solution against FK and q among them. Returns the count
/// (-1 when no formulation was regular).
int checkPrismaticArm(const Model& m, const VecX& q, IkSolutionSet& g) {
  Data data(m);
  const SE3 T = fkPose(m, q);
  ikGeneral6R(m, data, T, g);
  if (g.general6r.degenerate) return -1;
  bool truth = false;
  for (int s = 0; s < g.count; ++s) {
    const SE3 P = fkPose(m, Eigen::Map<const VecX>(g.sol(s).q.data(), 6));
    CHECK((P.p - T.p).norm() + (P.R - T.R).norm() < 1e-9);
    truth = truth || jointDistance(m, g.sol(s).q, q) < 1e-8;
    for (int t = 0; t < s; ++t) CHECK(jointDistance(m, g.sol(s).q, Eigen::Map<const VecX>(g.sol(t).q.data(), 6)) > 1e-7);
  }
  CHECK(truth);
  return g.count;
}

VecX randomQP(std::mt19937_64& rng, const Model& m) {
  std::uniform_real_distribution<double> U(-1, 1);
  VecX q(6);
  for (int i = 0; i < 6; ++i) q[i] = m.jmodels[i].angular() ? kPi * U(rng) : U(rng);
  return q;
}

}  // namespace

TEST_CASE("general 6R: 5R1P arms (the prismatic joint anywhere), every solution", "[ik][general6r]") {
  std::mt19937_64 rng(51);
  std::uniform_int_distribution<int> where(0, 5);
  int most = 0;
  for (int trial = 0; trial < test::scaled(200, 20); ++trial) {
    const Model m = prismaticArm(rng, {where(rng)});
    const VecX q = randomQP(rng, m);
    IkSolutionSet g;
    INFO("trial " << trial);
    const int n = checkPrismaticArm(m, q, g);
    CHECK(n >= 1);
    CHECK(n <= 16);
    most = std::max(most, n);
  }
  CHECK(most >= 6);
  // complete against a numeric multi-start (no limits: the peer may leave the travel)
  for (int trial = 0; trial < test::scaled(6, 2); ++trial) {
    const Model m = prismaticArm(rng, {where(rng)});
    const VecX q = randomQP(rng, m);
    IkSolutionSet g;
    checkPrismaticArm(m, q, g);
    IkOptions o;
    o.restarts = 200;
    o.respect_limits = false;
    const IkAllResult nu = ikAll(m, fkPose(m, q), IkMethod::Numeric, o);
    for (const auto* list : {&nu.solutions, &nu.outside_limits})
      for (const auto& x : *list) {
        double best = kInf;
        for (int s = 0; s < g.count; ++s) best = std::min(best, jointDistance(m, g.sol(s).q, x.q));
        CHECK(best < 1e-6);
      }
  }
}

TEST_CASE("general 6R: the Stanford arm (RRPRRR) by the eigenvalue method agrees with the numeric peer", "[ik][general6r]") {
  const Model m = builtinModel("stanford");
  std::mt19937 rng(8);
  for (int trial = 0; trial < test::scaled(10, 3); ++trial) {
    const VecX q = test::randomConfiguration(m, rng);
    const SE3 T = fkPose(m, q);
    const IkAllResult a = ikAll(m, T, IkMethod::Auto, {}, &q);
    CHECK(a.method == IkMethod::General6R);
    REQUIRE(a.status == IkStatus::Ok);
    CHECK((a.solutions[0].q - q).cwiseAbs().maxCoeff() < 1e-8);  // nearest the seed: the generating one
    IkOptions o;
    o.restarts = 100;
    const IkAllResult nu = ikAll(m, T, IkMethod::Numeric, o);
    for (const auto& x : nu.solutions) {
      double best = kInf;
      for (const auto& s : a.solutions) best = std::min(best, (s.q - x.q).cwiseAbs().maxCoeff());
      CHECK(best < 1e-6);
    }
  }
}

TEST_CASE("general 6R: 4R2P and 3R3P — solved where a formulation is regular, the numeric fallback elsewhere", "[ik][general6r]") {
  std::mt19937_64 rng(52);
  // two prismatic joints next to each other in the closed loop: a regular formulation exists
  for (int trial = 0; trial < test::scaled(40, 6); ++trial) {
    const int i = trial % 6;
    const Model m = prismaticArm(rng, {i, (i + 1) % 6});
    const VecX q = randomQP(rng, m);
    IkSolutionSet g;
    INFO("prismatic joints " << i << ", " << (i + 1) % 6);
    const int n = checkPrismaticArm(m, q, g);
    CHECK(n >= 1);
    CHECK(n <= 8);
  }
  // three apart (joints 1 and 4) and 3R3P: every formulation singular — ikAll says so and solves numerically
  for (const std::vector<int>& where : {std::vector<int>{0, 3}, std::vector<int>{0, 2, 4}}) {
    const Model m = prismaticArm(rng, where);
    const VecX q = randomQP(rng, m);
    IkSolutionSet g;
    CHECK(checkPrismaticArm(m, q, g) == -1);
    IkOptions o;
    o.restarts = 40;
    const IkAllResult r = ikAll(m, fkPose(m, q), IkMethod::General6R, o, &q);
    CHECK(r.method == IkMethod::Numeric);
    CHECK_THAT(r.note, Catch::Contains("no regular elimination"));
    CHECK((r.status == IkStatus::Ok || r.status == IkStatus::Limits));
  }
}
