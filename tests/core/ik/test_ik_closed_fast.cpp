// Allocation-free closed-form API (ikClosed) against ikAll(…, IkMethod::Closed): the same solution sets
// (q, order, inside/outside the limits, flags, status) on random targets of prototype-4a and puma560,
// with and without a seed, reachable inside and outside the limits, unreachable and degenerate targets.
#include <catch2/catch.hpp>
#include <random>

#include <achain/kinematics/fk.hpp>
#include "helpers.hpp"
#include <achain/ik/closed_fast.hpp>
#include <achain/ik/ik.hpp>
#include <achain/model/robots.hpp>

using namespace achain;

namespace {

SE3 pose(const Model& m, const VecX& q) {
  Data d(m);
  forwardKinematics(m, d, q);
  return d.oMtool;
}

/// Compares the two results; returns the number of solutions compared.
int compareSets(const Model& m, ClosedIkWorkspace& ws, const SE3& T, const VecX* seed) {
  const IkAllResult a = ikAll(m, T, IkMethod::Closed, {}, seed);
  ClosedIkSolutions b;
  ikClosed(ws, T, seed ? seed->data() : nullptr, b);
  INFO("status " << toString(a.status) << " vs " << toString(b.status) << ", fallback " << b.fallback);
  CHECK(b.status == a.status);
  REQUIRE(b.n_inside == static_cast<int>(a.solutions.size()));
  REQUIRE(b.count == static_cast<int>(a.solutions.size() + a.outside_limits.size()));
  Data d(m);
  for (int k = 0; k < b.count; ++k) {
    const IkSolution& s = k < b.n_inside ? a.solutions[k] : a.outside_limits[k - b.n_inside];
    const ClosedIkSolution& f = b.sol[k];
    for (int j = 0; j < m.nq; ++j) CHECK(f.q[j] == Approx(s.q[j]).margin(1e-12));
    CHECK(f.within_limits == s.within_limits);
    CHECK(closedIkFlagStrings(f.flags) == s.flags);
    // the cheap verification measures the same error as FK does
    CHECK(f.position_error == Approx(s.position_error).margin(1e-12));
    CHECK(f.orientation_error == Approx(s.orientation_error).margin(1e-12));
    VecX q(m.nq);
    for (int j = 0; j < m.nq; ++j) q[j] = f.q[j];
    double pe, oe;
    poseErrorAt(m, d, q, T, pe, oe);
    CHECK(pe + oe <= 1e-9);
  }
  return b.count;
}

void randomTargets(const char* robot, int expect_min_per_target) {
  const Model m = builtinModel(robot);
  ClosedIkWorkspace ws(m);
  std::mt19937 rng(77);
  int total = 0, outside = 0;
  for (int k = 0; k < 300; ++k) {
    VecX q = test::randomConfiguration(m, rng);
    if (k % 3 == 2)  // widen: targets reachable only outside the limits, too
      for (int j = 0; j < m.nq; ++j) q[j] *= 1.6;
    const VecX seed = test::randomConfiguration(m, rng);
    const SE3 T = pose(m, q);
    const int n = compareSets(m, ws, T, k % 2 ? &seed : nullptr);
    CHECK(n >= expect_min_per_target);
    total += n;
    ClosedIkSolutions b;
    ikClosed(ws, T, nullptr, b);
    outside += b.count - b.n_inside;
  }
  CHECK(total >= 300 * expect_min_per_target);
  CHECK(outside > 0);  // the outside-limits branch was exercised
}

}  // namespace

TEST_CASE("ik closed fast: same solution sets as ikAll on random prototype-4a targets", "[ik]") {
  randomTargets("prototype-4a", 1);
}

TEST_CASE("ik closed fast: same solution sets as ikAll on random puma560 targets", "[ik]") {
  randomTargets("puma560", 8);  // all 8 PUMA solutions (inside or outside the limits)
}

TEST_CASE("ik closed fast: unreachable and degenerate targets", "[ik]") {
  {
    const Model m = builtinModel("puma560");
    ClosedIkWorkspace ws(m);
    SE3 far = pose(m, VecX::Zero(6));
    far.p *= 10;
    ClosedIkSolutions b;
    ikClosed(ws, far, nullptr, b);
    CHECK(b.status == IkStatus::Unreachable);
    CHECK(b.count == 0);
    // wrist singular (θ5 = 0): the general solver, same set
    VecX q(6);
    q << 0.3, -0.5, 0.4, 0.2, 0.0, -0.1;
    compareSets(m, ws, pose(m, q), &q);
    ikClosed(ws, pose(m, q), q.data(), b);
    CHECK(b.fallback);
    CHECK(b.status == IkStatus::Singular);
  }
  {
    const Model m = builtinModel("prototype-4a");
    ClosedIkWorkspace ws(m);
    std::mt19937 rng(5);
    const VecX q = test::randomConfiguration(m, rng);
    ClosedIkSolutions b;
    ikClosed(ws, pose(m, q), nullptr, b);
    CHECK_FALSE(b.fallback);
    // θ2 = θ3 (approach ∥ axis 1): the scan of the general solver, same set
    VecX qa(4);
    qa << 100, 150, 150, 250;
    qa *= kDeg;
    CHECK(compareSets(m, ws, pose(m, qa), nullptr) >= 1);
    ikClosed(ws, pose(m, qa), nullptr, b);
    CHECK(b.fallback);
  }
  CHECK_THROWS_WITH(ClosedIkWorkspace(builtinModel("stanford")), Catch::Contains("no closed form for 'stanford'"));
}
