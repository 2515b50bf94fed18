// The one IK solution set and its collector (ik/solution_set.hpp): the rules every method shares
// (representatives, duplicates modulo the period, inside first, seed order, the nearest misses), and a set
// that grows past its inline room (a 7-coordinate chain's numeric multi-start, more than 64 solutions).
#include <catch2/catch.hpp>
#include <random>

#include <achain/ik/ik.hpp>
#include <achain/ik/solution_set.hpp>
#include <achain/io/robot.hpp>
#include <achain/kinematics/fk.hpp>
#include "helpers.hpp"

using namespace achain;

TEST_CASE("ik solution set: the collector's rules", "[ik]") {
  Model m = builtinModel("puma560");
  for (auto& j : m.joints) j.limits.lower = -kPi, j.limits.upper = kPi;
  m.joints[1].limits.upper = 1.0;  // joint 2 inside [−π, 1]
  m.finalize();
  IkSolutionSet set;
  const double seed[6] = {0.5, 0, 0, 0, 0, 0};
  ik_detail::IkCollector c(set, m, seed, 1e-9);
  const double a[6] = {0.4 + 2 * kPi, 0, 0, 0, 0, 0};  // representative 0.4 (inside)
  const double b[6] = {0.4 + 5e-8, 0, 0, 0, 0, 0};     // a duplicate of a
  const double far[6] = {-2.0, 0, 0, 0, 0, 0};          // inside, farther from the seed
  const double out[6] = {0, 2.0, 0, 0, 0, 0};           // outside joint 2's limits
  const double pi_lo[6] = {-kPi + 1e-8, 0.3, 0, 0, 0, 0}, pi_hi[6] = {kPi - 1e-8, 0.3, 0, 0, 0, 0};  // one value at ±π
  c.offer(far, 1e-10, 0);
  c.offer(a, 0, 1e-10, kIkHasFlags);
  c.offer(b, 0, 0);
  c.offer(out, 0, 0);
  c.offer(pi_lo, 0, 0);
  c.offer(pi_hi, 0, 0);
  for (int k = 0; k < 8; ++k) {  // misses: the 6 nearest kept, nearest first
    const double miss[6] = {0.1 * k, 0, 0, 0, 0, 0};
    c.offer(miss, 1e-3 * (8 - k), 0);
  }
  c.finish();
  CHECK(set.status == IkStatus::Ok);
  REQUIRE(set.count == 4);
  CHECK(set.n_inside == 3);
  CHECK(set.sol(0).q[0] == Approx(0.4).margin(1e-12));  // nearest the seed first
  CHECK(set.sol(0).flags == kIkHasFlags);
  CHECK(set.sol(0).orientation_error == 1e-10);
  CHECK(set.sol(1).q[0] == -2.0);
  CHECK(set.sol(2).q[0] == Approx(-kPi).margin(1e-7));  // the first of the two at ±π
  CHECK_FALSE(set.sol(3).within_limits);
  CHECK(set.sol(3).q[1] == 2.0);
  REQUIRE(set.n_rejected == IkSolutionSet::kRejected);
  for (int k = 0; k < set.n_rejected; ++k) {
    CHECK(set.rejectedError(k) == Approx(1e-3 * (k + 1)));
    CHECK(set.rejected(k)[0] == Approx(0.1 * (7 - k)));
  }
  // filled again: emptied first, no seed (the order offered in each block)
  ik_detail::IkCollector d(set, m, nullptr, 1e-9);
  d.offer(out, 0, 0);
  d.offer(far, 0, 0);
  d.offer(a, 0, 0);
  d.finish();
  REQUIRE(set.count == 3);
  CHECK(set.n_rejected == 0);
  CHECK(set.sol(0).q[0] == -2.0);
  CHECK(set.sol(1).q[0] == Approx(0.4));
  CHECK_FALSE(set.sol(2).within_limits);
}

TEST_CASE("ik solution set: numeric multi-start on a 7-coordinate chain keeps more than 64 solutions", "[ik]") {
  Model m = builtinModel("puma560");
  Joint j = m.joints[5];  // a seventh joint after the wrist: a one-parameter family per pose
  j.parent = 5;
  j.a = 0.05;
  j.alpha = kPi / 2;
  j.d = 0.04;
  j.name = "j7";
  m.joints.push_back(j);
  m.finalize();
  REQUIRE(m.nq == 7);
  std::mt19937 rng(7);
  const VecX q = test::randomConfiguration(m, rng), seed = test::randomConfiguration(m, rng);
  const SE3 T = test::fkPose(m, q);
  IkOptions opt;
  opt.restarts = 300;
  const IkAllResult r = ikAll(m, T, IkMethod::Numeric, opt, &seed);
  INFO(r.note);
  CHECK(r.status == IkStatus::Ok);
  CHECK(r.solutions.size() + r.outside_limits.size() > 64);
  Data data(m);
  double last = -1;
  for (const auto& s : r.solutions) {
    double pe, oe;
    poseErrorAt(m, data, s.q, T, pe, oe);
    CHECK(pe + oe <= 1e-9);
    CHECK(s.within_limits);
    const double d = (s.q - seed).squaredNorm();
    CHECK(d >= last);  // nearest the seed first
    last = d;
  }
}
