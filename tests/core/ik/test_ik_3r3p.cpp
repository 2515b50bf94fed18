// 3R3P IK (three revolute, three prismatic joints, any order): the exact solver reaches the handbook's bound of
// 2 solutions (Sec. 2.2.1, "3R3P: degree 2") on random arms in all 20 placements of the prismatic joints, a
// numeric multi-start finds nothing else, degenerate arms fall back to the numeric multi-start with a note,
// and ikAll's dispatch (method 3r3p, limits, unreachable orientations, errors).
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include <achain/ik/general6r.hpp>
#include <achain/ik/ik.hpp>
#include <achain/ik/three_r_three_p.hpp>
#include <achain/io/robot.hpp>
#include <achain/kinematics/fk.hpp>
#include "helpers.hpp"
#include "test_scale.hpp"

using namespace achain;

namespace ik_3r3p_test {

/// The 20 placements of three prismatic joints among six.
std::vector<std::vector<int>> placements() {
  std::vector<std::vector<int>> out;
  for (int a = 0; a < 6; ++a)
    for (int b = a + 1; b < 6; ++b)
      for (int c = b + 1; c < 6; ++c) out.push_back({a, b, c});
  return out;
}

Eigen::Quaterniond randomQuat(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(-1, 1);
  return Eigen::Quaterniond(U(rng), U(rng), U(rng), U(rng)).normalized();
}

/// A random 3R3P arm: the joints at `where` prismatic (travel ±2 m), the others revolute (no limits); random
/// base and tool. DH (standard, random a ∈ ±[0.05, 1], α, d, θ_f, direction signs), or with `origin_axis`
/// every joint placed by a random origin and axis (URDF style).
Model arm3r3p(std::mt19937_64& rng, const std::vector<int>& where, bool origin_axis = false) {
  std::uniform_real_distribution<double> U(-1, 1), Ua(0.05, 1);
  Model m = builtinModel("puma560");
  m.name = "arm-3r3p";
  for (int i = 0; i < 6; ++i) {
    Joint& j = m.joints[i];
    const bool p = std::find(where.begin(), where.end(), i) != where.end();
    j.kind = p ? JointKind::P : JointKind::R;
    j.sign = U(rng) > 0 ? 1 : -1;
    if (origin_axis) {
      j.has_origin = true;
      j.origin = SE3{randomQuat(rng).toRotationMatrix(), 0.5 * Vec3(U(rng), U(rng), U(rng))};
      j.axis = Vec3(U(rng), U(rng), U(rng)).normalized();
      j.a = j.alpha = 0;
      j.d = j.theta_f = 0;
    } else {
      j.a = Ua(rng) * (U(rng) > 0 ? 1 : -1);
      j.alpha = kPi * U(rng);
      j.d = 0.5 * U(rng);
      j.theta_f = kPi * U(rng);
    }
    j.limits.lower = p ? -2 : -kInf;
    j.limits.upper = p ? 2 : kInf;
  }
  m.base = SE3{randomQuat(rng).toRotationMatrix(), Vec3(U(rng), U(rng), U(rng))};
  m.tool = SE3{randomQuat(rng).toRotationMatrix(), 0.2 * Vec3(U(rng), U(rng), U(rng))};
  m.finalize();
  return m;
}

/// Angles ±π, lengths ±1 m.
VecX randomQ(std::mt19937_64& rng, const Model& m) {
  std::uniform_real_distribution<double> U(-1, 1);
  VecX q(6);
  for (int i = 0; i < 6; ++i) q[i] = m.jmodels[i].angular() ? kPi * U(rng) : U(rng);
  return q;
}

/// Largest coordinate difference: angles modulo 2π, lengths as they are.
double jointDistance(const Model& m, const Eigen::Ref<const VecX>& a, const Eigen::Ref<const VecX>& b) {
  double d = 0;
  for (int i = 0; i < 6; ++i)
    d = std::max(d, std::abs(m.jmodels[i].angular() ? std::remainder(a[i] - b[i], 2 * kPi) : a[i] - b[i]));
  return d;
}

struct Check {
  int count = 0;
  bool degenerate = false;
  bool truth = false;        ///< the generating configuration among the solutions (1e-8)
  double worst = 0;          ///< largest FK residual |Δp| + ‖ΔR‖_F
  double separation = kInf;  ///< smallest distance between two solutions
};

/// Solves FK(q) by the 3R3P solver and checks every solution by FK.
Check solve(const Model& m, const VecX& q, IkSolutionSet& g) {
  Data data(m);
  const SE3 T = test::fkPose(m, q);
  ikThreeRThreeP(m, data, T, g);
  Check c;
  c.degenerate = g.three_r_three_p.degenerate;
  c.count = g.count;
  for (int s = 0; s < g.count; ++s) {
    const SE3 P = test::fkPose(m, g.sol(s).q);
    c.worst = std::max(c.worst, (P.p - T.p).norm() + (P.R - T.R).norm());
    c.truth = c.truth || jointDistance(m, g.sol(s).q, q) < 1e-8;
    for (int t = 0; t < s; ++t) c.separation = std::min(c.separation, jointDistance(m, g.sol(s).q, g.sol(t).q));
  }
  return c;
}

}  // namespace ik_3r3p_test

using namespace ik_3r3p_test;

TEST_CASE("3R3P: random arms in all 20 placements of the prismatic joints have exactly 2 solutions (the handbook's bound, reached)", "[ik][3r3p]") {
  std::mt19937_64 rng(35);
  const int per = test::scaled(5, 3);  // arms per placement: 100 (60 reduced), DH and origin/axis alternating
  int arms = 0, two = 0;
  double worst = 0, closest = kInf;
  for (const auto& where : placements())
    for (int k = 0; k < per; ++k) {
      const Model m = arm3r3p(rng, where, k % 2 == 1);
      const VecX q = randomQ(rng, m);
      IkSolutionSet g;
      INFO("prismatic joints " << where[0] << ", " << where[1] << ", " << where[2] << "; arm " << k);
      const Check c = solve(m, q, g);
      REQUIRE_FALSE(c.degenerate);
      CHECK(g.three_r_three_p.orientation_roots == 2);
      CHECK(c.count == 2);
      CHECK(c.worst < 1e-9);
      CHECK(c.truth);
      CHECK(c.separation > 1e-6);
      ++arms;
      two += c.count == 2;
      worst = std::max(worst, c.worst);
      closest = std::min(closest, c.separation);
    }
  CHECK(arms >= 60);
  CHECK(two == arms);
  std::printf("3R3P: %d arms, %d with exactly 2 solutions, worst FK residual %.2g, closest pair %.2g\n", arms, two, worst, closest);
}

TEST_CASE("3R3P: a numeric multi-start from random seeds finds no solution outside the two", "[ik][3r3p]") {
  std::mt19937_64 rng(36);
  const int starts = test::scaled(300, 60);
  int arms = 0, both = 0, converged = 0;
  double farthest = 0;  // the largest distance of a numeric solution from its exact one
  for (const auto& where : placements()) {
    const Model m = arm3r3p(rng, where, arms % 2 == 1);
    const VecX q = randomQ(rng, m);
    IkSolutionSet g;
    INFO("prismatic joints " << where[0] << ", " << where[1] << ", " << where[2]);
    const Check c = solve(m, q, g);
    REQUIRE(c.count == 2);
    IkOptions o;
    o.restarts = starts;
    o.respect_limits = false;  // the exact solutions may leave the ±2 m travel
    const IkAllResult nu = ikAll(m, test::fkPose(m, q), IkMethod::Numeric, o);
    bool hit[2] = {false, false};
    int n = 0;
    for (const auto* list : {&nu.solutions, &nu.outside_limits})
      for (const auto& x : *list) {
        ++n;
        double best = kInf;
        for (int s = 0; s < g.count; ++s) {
          const double d = jointDistance(m, g.sol(s).q, x.q);
          best = std::min(best, d);
          if (d < 1e-5) hit[s] = true;
        }
        // mod 2π, every numeric solution is one of the two (the peer stops at a 1e-9 pose error, which leaves
        // it up to ~1e-6 from the exact one where the Jacobian is poorly conditioned; the two lie > 1e-2 apart)
        CHECK(best < 1e-5);
        farthest = std::max(farthest, best);
      }
    CHECK(n >= 1);
    ++arms;
    converged += n;
    both += hit[0] && hit[1];
  }
  std::printf("3R3P numeric peer: %d arms, %d starts each: %d converged solutions, each within %.1g of an exact one; both "
              "exact ones found on %d arms; nothing else\n", arms, starts, converged, farthest, both);
}

TEST_CASE("3R3P: ikAll picks method 3r3p, seed order, limits, unreachable orientation, errors", "[ik][3r3p]") {
  std::mt19937_64 rng(37);
  const Model m = arm3r3p(rng, {1, 3, 4});
  CHECK(isThreeRThreeP(m));
  CHECK(isGeneral6R(m));  // the general method accepts the chain too, but has no regular elimination for it
  const VecX q = randomQ(rng, m);
  const SE3 T = test::fkPose(m, q);

  const IkAllResult a = ikAll(m, T, IkMethod::Auto, {}, &q);
  CHECK(a.method == IkMethod::ThreeRThreeP);
  CHECK(std::string(toString(a.method)) == "3r3p");
  CHECK(ikMethodFromString("3r3p") == IkMethod::ThreeRThreeP);
  CHECK_THAT(a.note, Catch::Contains("3R3P") && Catch::Contains("2 real root(s)"));
  REQUIRE(a.solutions.size() + a.outside_limits.size() == 2);
  REQUIRE(a.status == IkStatus::Ok);
  CHECK(jointDistance(m, a.solutions[0].q, q) < 1e-8);  // nearest the seed: the generating one
  const IkAllResult b = ikAll(m, T, IkMethod::ThreeRThreeP, {});
  CHECK(b.method == IkMethod::ThreeRThreeP);

  // the position moved 10 m: both solutions need more than the ±2 m travel — flagged, status limits
  SE3 far = T;
  far.p += Vec3(10, 0, 0);
  const IkAllResult l = ikAll(m, far, IkMethod::Auto, {});
  CHECK(l.status == IkStatus::Limits);
  CHECK(l.solutions.empty());
  REQUIRE(l.outside_limits.size() == 2);
  for (const auto& s : l.outside_limits) {
    CHECK_FALSE(s.within_limits);
    CHECK(s.position_error + s.orientation_error < 1e-9);
  }

  // an orientation the three axes cannot give: Q e₃ = e₁ needs e₁ᵀQe₃ = 1, beyond (e₁·e₂)(e₂·e₃) + √(A² + B²)
  {
    Data d(m);
    forwardKinematics(m, d, VecX::Zero(6));
    Vec3 e[3];
    int k = 0;
    for (int i = 0; i < 6; ++i)
      if (m.jmodels[i].angular()) e[k++] = d.oMj[i].R.col(2);
    const double reach = e[0].dot(e[1]) * e[1].dot(e[2]) + e[0].cross(e[1]).norm() * e[1].cross(e[2]).norm();
    REQUIRE(reach < 1 - 1e-3);
    SE3 U = T;
    U.R = Eigen::Quaterniond::FromTwoVectors(e[2], e[0]).toRotationMatrix() * d.oMtool.R;
    IkSolutionSet g;
    ikThreeRThreeP(m, d, U, g);
    CHECK(g.count == 0);
    CHECK(g.three_r_three_p.orientation_roots == 0);
    CHECK_FALSE(g.three_r_three_p.degenerate);
    const IkAllResult u = ikAll(m, U, IkMethod::Auto, {});
    CHECK(u.method == IkMethod::ThreeRThreeP);
    CHECK(u.status == IkStatus::Unreachable);
    CHECK(u.has_nearest);
    CHECK(u.residual > 1e-3);
  }

  // errors: not a 3R3P chain, position only
  std::string why;
  const Model puma = builtinModel("puma560");
  CHECK_FALSE(isThreeRThreeP(puma, &why));
  CHECK_THAT(why, Catch::Contains("three revolute and three prismatic"));
  Data dp(puma);
  IkSolutionSet g;
  CHECK_THROWS_WITH(ikThreeRThreeP(puma, dp, test::fkPose(puma, VecX::Zero(6)), g), Catch::Contains("method 3r3p"));
  CHECK_THROWS_WITH(ikAll(puma, test::fkPose(puma, VecX::Zero(6)), IkMethod::ThreeRThreeP, {}), Catch::Contains("method 3r3p"));
  Model h = m;
  h.joints[0].kind = JointKind::H;
  h.joints[0].pitch = 0.01;
  h.finalize();
  CHECK_FALSE(isThreeRThreeP(h, &why));
  CHECK_THAT(why, Catch::Contains("joints[0].kind"));
  IkOptions po;
  po.position_only = true;
  CHECK_THROWS_WITH(ikAll(m, T, IkMethod::ThreeRThreeP, po), Catch::Contains("position-only"));
}

TEST_CASE("3R3P: degenerate arms (revolute axes parallel, prismatic axes coplanar) fall back to the numeric multi-start with a note", "[ik][3r3p]") {
  std::mt19937_64 rng(38);
  IkOptions o;
  o.restarts = 20;
  SECTION("revolute axes 1 and 2 parallel: a continuum") {
    Model m = arm3r3p(rng, {3, 4, 5});
    m.joints[0].alpha = 0;  // standard DH: z₀ ∥ z₁, the axes of joints 1 and 2
    m.finalize();
    const VecX q = randomQ(rng, m);
    IkSolutionSet g;
    const Check c = solve(m, q, g);
    CHECK(c.degenerate);
    CHECK(c.count == 0);
    CHECK_THAT(std::string(g.three_r_three_p.why), Catch::Contains("revolute axes 1 and 2 parallel"));
    const IkAllResult r = ikAll(m, test::fkPose(m, q), IkMethod::Auto, o, &q);
    CHECK(r.method == IkMethod::Numeric);
    CHECK_THAT(r.note, Catch::Contains("3r3p: revolute axes 1 and 2 parallel") && Catch::Contains("numeric multi-start"));
    CHECK(r.status == IkStatus::Ok);
  }
  SECTION("revolute axes 2 and 3 parallel") {
    Model m = arm3r3p(rng, {0, 1, 2});
    m.joints[4].alpha = kPi;  // standard DH: z₄ antiparallel to z₅, the axes of joints 5 and 6
    m.finalize();
    IkSolutionSet g;
    CHECK(solve(m, randomQ(rng, m), g).degenerate);
    CHECK_THAT(std::string(g.three_r_three_p.why), Catch::Contains("revolute axes 2 and 3 parallel"));
  }
  SECTION("the three prismatic axes parallel: the 3x3 system is singular") {
    Model m = arm3r3p(rng, {3, 4, 5});
    m.joints[3].alpha = 0;  // z₃ ∥ z₄ ∥ z₅, the axes of joints 4, 5, 6
    m.joints[4].alpha = 0;
    m.finalize();
    const VecX q = randomQ(rng, m);
    IkSolutionSet g;
    const Check c = solve(m, q, g);
    CHECK(c.degenerate);
    CHECK(c.count == 0);
    const IkAllResult r = ikAll(m, test::fkPose(m, q), IkMethod::Auto, o, &q);
    CHECK(r.method == IkMethod::Numeric);
    CHECK_THAT(r.note, Catch::Contains("3r3p: the three prismatic axes are coplanar"));
  }
}
