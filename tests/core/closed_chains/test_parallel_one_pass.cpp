// Parallel inverse dynamics in one pass (parallelInverseDynamics, issue 34): the legs' rates and the loads on w and
// at the actuators equal those of the transfer (parallelAt + parallelMotion: I*, P* of every leg moved to w through
// [H^φ_ww], summed, moved to q) on parallel-3rrr and stewart-6ups, at poses away from the reference, for random
// platform rates, with gravity normal to and in the 3-RRR's plane; nothing allocated after the first call; errors
// named.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "alloc_counter.hpp"
#include "helpers.hpp"
#include <achain/closed_chains/parallel_robot.hpp>
#include <achain/io/robot.hpp>

using namespace achain;
using test::allocationsOf;

namespace {

double gap(const VecX& a, const VecX& b) {
  REQUIRE(a.size() == b.size());
  return (a - b).cwiseAbs().maxCoeff() / (1 + b.cwiseAbs().maxCoeff());
}

// Platform poses about the file's reference: `scale` is the length unit of the offsets (the 3-RRR is in inches).
std::vector<SE3> poses(const ParallelRobot& pr, double scale) {
  const VecX c0 = poseCoordinates(pr.pose, pr.planar);
  std::vector<SE3> out{pr.pose};
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int k = 0; k < 5; ++k) {
    VecX c = c0;
    for (int i = 0; i < c.size(); ++i) {
      const bool angular = pr.planar ? i == 2 : i >= 3;
      c[i] += angular ? 6 * kDeg * u(rng) : 0.1 * scale * u(rng);
    }
    out.push_back(poseFromCoordinates(c, pr.planar, pr.pose));
  }
  return out;
}

void agreesWithTransfer(const std::string& name, double scale, const DynamicsOptions& options) {
  const ParallelRobot pr = loadParallel(name);
  const int N = pr.freedoms();
  std::vector<Data> datas;
  for (const Model& m : pr.legs) datas.emplace_back(m);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  int checked = 0;
  for (const SE3& X : poses(pr, scale)) {
    ParallelState st;
    parallelAt(pr, datas, X, options, st);
    VecX wd(N), wdd(N);
    for (int i = 0; i < N; ++i) {
      const bool angular = pr.planar ? i == 2 : i >= 3;
      wd[i] = (angular ? 1.0 : 0.3 * scale) * u(rng);
      wdd[i] = (angular ? 5.0 : 2.0 * scale) * u(rng);
    }
    ParallelMotion transfer, one;
    parallelMotion(st, wd, wdd, transfer);
    parallelInverseDynamics(pr, datas, X, st.q, wd, wdd, options, one);
    INFO(name << " at pose " << poseCoordinates(X, pr.planar).transpose() << ", wd " << wd.transpose());
    for (size_t r = 0; r < pr.legs.size(); ++r) {
      CHECK(gap(one.qd[r], transfer.qd[r]) < 1e-10);
      CHECK(gap(one.qdd[r], transfer.qdd[r]) < 1e-10);
    }
    CHECK(gap(one.q_d, transfer.q_d) < 1e-10);
    CHECK(gap(one.q_dd, transfer.q_dd) < 1e-10);
    CHECK(gap(one.Tw, transfer.Tw) < 1e-10);
    CHECK(gap(one.Tq, transfer.Tq) < 1e-10);
    CHECK(transfer.Tq.cwiseAbs().maxCoeff() > 0);  // loads that could differ
    ++checked;
  }
  CHECK(checked == 6);
}

}  // namespace

TEST_CASE("parallelInverseDynamics: one pass over the legs gives the transfer's rates and loads (3-RRR, Stewart)",
          "[dynamics][closed][parallel]") {
  SECTION("parallel-3rrr, gravity normal to the plane") { agreesWithTransfer("parallel-3rrr", test::kInch, {}); }
  SECTION("parallel-3rrr, gravity in the plane") {
    DynamicsOptions o;
    o.override_gravity = true;
    o.gravity = Vec3(3.0, -9.81, 0);
    agreesWithTransfer("parallel-3rrr", test::kInch, o);
  }
  SECTION("stewart-6ups, the file's gravity") { agreesWithTransfer("stewart-6ups", 0.1, {}); }
}

TEST_CASE("parallelInverseDynamics allocates nothing after its first call", "[dynamics][closed][parallel][alloc]") {
  CHECK(allocationsOf([] { VecX v(100); v.setZero(); }) >= 1);  // the counter sees allocations
  const ParallelRobot pr = loadParallel("stewart-6ups");
  std::vector<Data> datas;
  for (const Model& m : pr.legs) datas.emplace_back(m);
  std::vector<VecX> q;
  legInverseKinematics(pr, datas, pr.pose, q);
  VecX wd(6), wdd(6);
  wd << 0.1, -0.05, 0.02, 0.3, -0.2, 0.4;
  wdd << 0.5, 0.2, -0.3, 1.0, 2.0, -1.5;
  ParallelMotion out;
  const DynamicsOptions o;
  parallelInverseDynamics(pr, datas, pr.pose, q, wd, wdd, o, out);
  const long n = allocationsOf([&] {
    for (int k = 0; k < 10; ++k) parallelInverseDynamics(pr, datas, pr.pose, q, wd, wdd, o, out);
  });
  CHECK(n == 0);
}

TEST_CASE("parallelInverseDynamics: clear errors", "[dynamics][closed][parallel]") {
  ParallelRobot pr = loadParallel("parallel-3rrr");
  std::vector<Data> datas;
  for (const Model& m : pr.legs) datas.emplace_back(m);
  std::vector<VecX> q;
  legInverseKinematics(pr, datas, pr.pose, q);
  ParallelMotion out;
  const VecX z3 = VecX::Zero(3);
  CHECK_THROWS_WITH(parallelInverseDynamics(pr, datas, pr.pose, q, VecX::Zero(6), z3, {}, out),
                    Catch::Contains("the platform has 3 freedoms; the rates ẇ, ẅ must have as many (got 6, 3)"));
  std::vector<VecX> short_q = q;
  short_q[1] = VecX::Zero(2);
  CHECK_THROWS_WITH(parallelInverseDynamics(pr, datas, pr.pose, short_q, z3, z3, {}, out),
                    Catch::Contains("parallel.legs[1]") && Catch::Contains("q has 2 entries; the leg has 3"));
  short_q.pop_back();
  CHECK_THROWS_WITH(parallelInverseDynamics(pr, datas, pr.pose, short_q, z3, z3, {}, out),
                    Catch::Contains("3 legs need as many Data and q (got 3, 2)"));
  // two actuators on the same leg joint: [G^q_w] has two equal rows
  pr.actuated[1] = pr.actuated[0];
  CHECK_THROWS_WITH(parallelInverseDynamics(pr, datas, pr.pose, q, z3, z3, {}, out),
                    Catch::Contains("actuated: [G^q_w] is singular at this configuration (rank 2 of 3)"));
  pr.actuated[1] = {5, 0};
  CHECK_THROWS_WITH(parallelInverseDynamics(pr, datas, pr.pose, q, z3, z3, {}, out), Catch::Contains("actuated[1]: no leg 5"));
  pr.actuated.pop_back();
  CHECK_THROWS_WITH(parallelInverseDynamics(pr, datas, pr.pose, q, z3, z3, {}, out),
                    Catch::Contains("actuated: the platform has 3 freedoms; 2 actuated joints given"));
}
