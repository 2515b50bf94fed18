// The three formulations agree: RNEA = Lee's generalized d'Alembert = Freeman's I*/P* form, on every
// built-in and random R/P/H/A chains and trees, for every leg model; the translational/rotational
// split of Lee equals RNEA's breakdown; the simplified-model switch drops exactly those terms.
#include <Eigen/SVD>
#include <catch2/catch.hpp>
#include <random>

#include <achain/dynamics/crba.hpp>
#include <achain/dynamics/lee.hpp>
#include <achain/dynamics/rnea.hpp>
#include "dynamics_helpers.hpp"
#include "helpers.hpp"
#include <achain/io/robot.hpp>

using namespace achain;
using test::relErr;

namespace {
const LegModel kLegs[] = {LegModel::Massless, LegModel::Lumped, LegModel::Full, LegModel::PotentialOnly};
std::vector<Model> models(std::mt19937& rng) {
  std::vector<Model> out;
  for (const auto& r : builtinRobots()) out.push_back(builtinModel(r.name));
  for (int k = 0; k < 5; ++k) out.push_back(test::randomDynamicModel(rng, 3 + k, false));
  for (int k = 0; k < 3; ++k) out.push_back(test::randomDynamicModel(rng, 4 + k, true));
  out.push_back(test::randomDynamicModel(rng, 5, false, DHConvention::Modified));
  return out;
}
}  // namespace

TEST_CASE("Lee's G-D form = RNEA, and its translational/rotational split = the RNEA breakdown", "[dynamics][lee]") {
  std::mt19937 rng(41);
  for (const Model& m : models(rng)) {
    Data data(m);
    const int n = m.nv;
    VecX tau(n), tl(n);
    MatX M(n, n);
    LeeTerms t;
    TorqueBreakdown b;
    for (LegModel legs : kLegs) {
      for (int k = 0; k < 4; ++k) {
        DynamicsOptions o;
        o.legs = legs;
        o.motors = k % 2;
        o.friction = k >= 2;
        o.use_wrench = k == 3;
        o.wrench = test::randomVector(rng, 6, 4);
        const VecX q = test::randomConfiguration(m, rng), qd = test::randomVector(rng, n, 2),
                   qdd = test::randomVector(rng, n, 3);
        inverseDynamics(m, data, q, qd, qdd, o, tau);
        leeInverseDynamics(m, data, q, qd, qdd, o, LeeOptions{}, t, tl);
        INFO(m.name << " legs=" << toString(legs) << " k=" << k);
        CHECK(relErr(tl, tau) < 1e-10);
        massMatrix(m, data, q, o, M);
        CHECK(relErr(t.D, M) < 1e-10);
        torqueBreakdown(m, data, q, qd, qdd, o, b);
        CHECK(relErr(VecX(t.D_tran * qdd + t.h_tran + t.c), b.translational) < 1e-10);
        CHECK(relErr(VecX(t.D_rot * qdd + t.h_rot), b.rotational) < 1e-10);
        CHECK(relErr(t.c, b.gravity) < 1e-10);
        CHECK(relErr(VecX(t.h_tran + t.h_rot), b.velocity) < 1e-10);
        CHECK(relErr(b.total, tau) < 1e-10);
        CHECK(relErr(VecX(b.translational + b.rotational + b.rotor + b.friction + b.wrench), tau) < 1e-10);
      }
    }
  }
}

TEST_CASE("Lee's simplified model keeps translational terms on the first joints, rotational on the rest", "[dynamics][lee]") {
  const Model m = builtinModel("puma560");
  Data data(m);
  std::mt19937 rng(43);
  const VecX q = test::randomConfiguration(m, rng), qd = test::randomVector(rng, 6, 1), qdd = test::randomVector(rng, 6, 2);
  LeeTerms t;
  VecX full(6), simple(6);
  DynamicsOptions o;
  LeeOptions lo;
  leeInverseDynamics(m, data, q, qd, qdd, o, lo, t, full);
  lo.simplified = true;
  leeInverseDynamics(m, data, q, qd, qdd, o, lo, t, simple);
  for (int i = 0; i < 6; ++i) {
    const double expect = i < 3 ? t.D_tran.row(i).dot(qdd) + t.h_tran[i] + t.c[i] : t.D_rot.row(i).dot(qdd) + t.h_rot[i] + t.c[i];
    CHECK(simple[i] == Approx(expect).margin(1e-12));
  }
  // Lee's claim for PUMA-like arms: joints 1–3 are dominated by translational effects (with
  // gravity, which the switch keeps). Loose sanity bound only: the paper gives no error figures.
  const double scale = full.head<3>().cwiseAbs().maxCoeff();
  CHECK((simple.head<3>() - full.head<3>()).cwiseAbs().maxCoeff() < 0.5 * scale);
}

#include <achain/dynamics/freeman.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/kinematics/influence.hpp>

TEST_CASE("Freeman's I*/P* form = RNEA and I* = M", "[dynamics][freeman]") {
  std::mt19937 rng(47);
  for (const Model& m : models(rng)) {
    Data data(m);
    FreemanModel fm;
    const int n = m.nv;
    VecX tau(n), tf(n);
    MatX M(n, n);
    for (LegModel legs : kLegs) {
      for (int k = 0; k < 3; ++k) {
        DynamicsOptions o;
        o.legs = legs;
        o.motors = k >= 1;
        o.friction = k == 2;
        o.use_wrench = k == 2;
        o.wrench = test::randomVector(rng, 6, 4);
        const VecX q = test::randomConfiguration(m, rng), qd = test::randomVector(rng, n, 2),
                   qdd = test::randomVector(rng, n, 3);
        inverseDynamics(m, data, q, qd, qdd, o, tau);
        freemanModel(m, data, q, qd, o, fm);
        freemanTorque(fm, qd, qdd, tf);
        INFO(m.name << " legs=" << toString(legs) << " k=" << k);
        CHECK(relErr(tf, tau) < 1e-10);
        massMatrix(m, data, q, o, M);
        CHECK(relErr(fm.Istar, M) < 1e-10);
      }
    }
  }
}

TEST_CASE("Freeman model transfer to tool coordinates: T_u = I*_uu ü + u̇ᵀP*_uuu u̇ − T^L_u = J⁻ᵀ T_q", "[dynamics][freeman]") {
  std::mt19937 rng(53);
  for (const char* name : {"puma560"}) {
    const Model m = builtinModel(name);
    Data data(m);
    FreemanModel fm, fu;
    Influence inf;
    const int n = m.nv;
    VecX tq(n), tu(n);
    DynamicsOptions o;
    o.motors = true;
    for (int k = 0; k < 20; ++k) {
      const VecX q = test::randomConfiguration(m, rng), qd = test::randomVector(rng, n, 1), qdd = test::randomVector(rng, n, 2);
      forwardKinematics(m, data, q);
      toolInfluence(m, data, inf, 2);
      Eigen::JacobiSVD<MatX> svd(inf.G);
      if (svd.singularValues()(n - 1) < 1e-3) continue;  // stay away from singular poses
      freemanModel(m, data, q, qd, o, fm);
      transferModel(fm, inf.G, inf.H, fu);
      const VecX ud = inf.G * qd;
      VecX udd(n);
      influenceAcceleration(inf.G, inf.H, qd, qdd, udd);
      freemanTorque(fm, qd, qdd, tq);
      freemanTorque(fu, ud, udd, tu);
      const VecX expect = inf.G.transpose().fullPivLu().solve(tq);
      CHECK(relErr(tu, expect) < 1e-8);
    }
  }
}
