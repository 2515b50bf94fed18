// The R-pair twin (model/r_twin.hpp): every A-pair made an R-pair, nothing else changed. Its FK equals the A-chain's
// with ρ = 0 for every q, and differs from the A-chain's where the A-pairs translate.
#include <catch2/catch.hpp>

#include <random>

#include <achain/model/r_twin.hpp>

#include "../helpers.hpp"

using namespace achain;
using achain::test::fkPose;
using achain::test::randomConfiguration;

TEST_CASE("rPairTwin: kinds A → R only, same FK as the A-chain at rho = 0", "[model][twin]") {
  const Model a = builtinModel("prototype-4a");
  const Model t = rPairTwin(a);
  REQUIRE(t.name == "prototype-4a-r-twin");
  REQUIRE(t.njoints() == a.njoints());
  REQUIRE(t.nq == a.nq);
  for (int i = 0; i < a.njoints(); ++i) {
    CHECK(a.joints[i].kind == JointKind::A);
    CHECK(t.joints[i].kind == JointKind::R);
    CHECK(t.joints[i].rho == 0);
    CHECK(t.joints[i].leg_mass == 0);
    CHECK(t.joints[i].a == a.joints[i].a);
    CHECK(t.joints[i].d == a.joints[i].d);
    CHECK(t.joints[i].alpha == a.joints[i].alpha);
    CHECK(t.joints[i].theta_f == a.joints[i].theta_f);
    CHECK(t.joints[i].limits == a.joints[i].limits);
    CHECK(t.joints[i].link == a.joints[i].link);
  }
  CHECK(t.legs.empty());
  CHECK_FALSE(a.legs.empty());
  CHECK(hasApair(a));
  CHECK_FALSE(hasApair(t));

  Model a0 = a;  // the A-chain with rho = 0
  for (Joint& j : a0.joints) j.rho = 0;
  a0.finalize();
  std::mt19937 rng(31);
  double farthest = 0;
  for (int k = 0; k < 200; ++k) {
    const VecX q = randomConfiguration(a, rng);
    const SE3 Tt = fkPose(t, q), T0 = fkPose(a0, q), Ta = fkPose(a, q);
    CHECK((Tt.p - T0.p).norm() < 1e-12);
    CHECK((Tt.R - T0.R).norm() < 1e-12);
    CHECK((Tt.R - Ta.R).norm() < 1e-12);  // an A-pair's rotation is the R-pair's; only its translation differs
    farthest = std::max(farthest, (Tt.p - Ta.p).norm());
  }
  CHECK(farthest > 0.05);  // the A-pairs' translations (ρ = 4√2 in) move the tool by centimetres
}

TEST_CASE("rPairTwin: the built-in prototype-4r is the prototype's twin, numbers and all", "[model][twin]") {
  const Model t = rPairTwin(builtinModel("prototype-4a"));
  const Model r = builtinModel("prototype-4r");
  const VecX q = (VecX(4) << 1.2, 2.9, 4.1, 5.0).finished();
  const SE3 Tt = fkPose(t, q), Tr = fkPose(r, q);
  CHECK((Tt.p - Tr.p).norm() < 1e-12);
  CHECK((Tt.R - Tr.R).norm() < 1e-12);
}

TEST_CASE("rPairTwin of a chain without A-pairs is a renamed copy", "[model][twin]") {
  const Model p = builtinModel("puma560");
  const Model t = rPairTwin(p);
  CHECK(t.name == "puma560-r-twin");
  CHECK_FALSE(hasApair(p));
  for (int i = 0; i < p.njoints(); ++i) CHECK(t.joints[i] == p.joints[i]);
  const VecX q = (VecX(6) << 0.1, 0.7, -0.4, 0.3, 0.9, -1.1).finished();
  CHECK((fkPose(t, q).p - fkPose(p, q).p).norm() == 0);
}
