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
#include <achain/model/robots.hpp>
#include "helpers.hpp"

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

double angleDistance(const std::array<double, 6>& a, const VecX& b) {
  double d = 0;
  for (int i = 0; i < 6; ++i) d = std::max(d, std::abs(std::remainder(a[i] - b[i], 2 * kPi)));
  return d;
}

struct ArmCheck {
  int count = 0;
  bool found_truth = false;
  double worst_residual = 0;
  double min_separation = kInf;
  bool degenerate = false;
};

ArmCheck checkArm(const Model& m, const VecX& truth) {
  Data data(m);
  const SE3 T = fkPose(m, truth);
  General6RSolutions g;
  ikGeneral6R(m, data, T, g);
  ArmCheck c;
  c.degenerate = g.degenerate;
  c.count = g.count;
  for (int s = 0; s < g.count; ++s) {
    const VecX q = Eigen::Map<const VecX>(g.q[s].data(), 6);
    double pe, oe;
    poseErrorAt(m, data, q, T, pe, oe);
    c.worst_residual = std::max(c.worst_residual, pe + oe);
    if (angleDistance(g.q[s], truth) <= 1e-9) c.found_truth = true;
    for (int t = 0; t < s; ++t) c.min_separation = std::min(c.min_separation, angleDistance(g.q[s], Eigen::Map<const VecX>(g.q[t].data(), 6)));
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
