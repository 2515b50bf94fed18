// Threads that each own a Data (and their solvers' scratch) share one Model safely. Run by ctest in the
// normal build (results equal the single-thread reference) and, in npm test, under ThreadSanitizer,
// which fails the test on any data race.
#include <catch2/catch.hpp>

#include <atomic>
#include <limits>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

#include <achain/design/sweep.hpp>
#include <achain/dynamics/aba.hpp>
#include <achain/dynamics/crba.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/ik/algebraic_4a.hpp>
#include <achain/ik/closed_form.hpp>
#include <achain/ik/numeric.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/kinematics/influence.hpp>
#include <achain/kinematics/jacobian.hpp>
#include <achain/kinematics/statics.hpp>
#include <achain/io/design_json.hpp>
#include <achain/io/robot.hpp>
#include <nlohmann/json.hpp>
#include <achain/reach/workspace.hpp>

using namespace achain;

namespace {

/// Everything one thread computes, as numbers to compare with the single-thread run.
std::vector<double> work(const Model& m, const Model& proto, int seed, int rounds) {
  std::vector<double> out;
  Data d(m);
  Data dik(m);  // the IK scratch lives in a Data, too: one per thread
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> U(-1, 1);
  DynamicsOptions o;
  MatX J(6, m.nv), M(m.nv, m.nv);
  VecX tau(m.nv), qdd(m.nv);
  Influence I;
  for (int r = 0; r < rounds; ++r) {
    VecX q(m.nq), qd(m.nv), a(m.nv);
    for (int k = 0; k < m.nq; ++k) {
      q[k] = U(rng);
      qd[k] = U(rng);
      a[k] = U(rng);
    }
    forwardKinematics(m, d, q);
    out.push_back(d.oMtool.p.x());
    toolJacobian(m, d, J);
    out.push_back(J.sum());
    out.push_back(toolJacobianDotTimesQdot(m, d, qd).sum());
    toolInfluence(m, d, I, 2);
    out.push_back(I.H.maxAbs());
    out.push_back(staticTorques(m, d, Vec6::Ones()).sum());
    inverseDynamics(m, d, q, qd, a, o, tau);
    out.push_back(tau.sum());
    massMatrix(m, d, q, o, M);
    out.push_back(M.sum());
    forwardDynamicsABA(m, d, q, qd, tau, o, qdd);
    out.push_back(qdd.sum());
    // IK: numeric from a nearby seed, and the closed form, for the pose just computed.
    forwardKinematics(m, d, q);
    const SE3 target = d.oMtool;
    IkResult res;
    VecX seed = q;
    for (int k = 0; k < m.nq; ++k) seed[k] += 0.05 * U(rng);
    ikNumeric(m, dik, target, seed, IkOptions{}, res);
    out.push_back(res.residual);
    IkSolutionSet sols;
    ikClosed(m, dik, target, q.data(), sols);
    out.push_back(sols.count);
  }
  // The algebraic 4A solver and a small reachable-set job on the prototype.
  Data dp(proto);
  VecX qp = VecX::Constant(proto.nq, 2.0);
  qp[1] = 3.9;
  forwardKinematics(proto, dp, qp);
  const IkAllResult alg = ikAlgebraic4A(proto, dp.oMtool);
  out.push_back(double(alg.solutions.size()));
  WorkspaceOptions wo;
  wo.voxel = 0.05;
  wo.threads = 1;
  out.push_back(double(computeWorkspace(proto, wo).count()));
  return out;
}

}  // namespace

TEST_CASE("concurrency: threads with their own Data share one Model", "[concurrency]") {
  const Model puma = builtinModel("puma560");
  const Model proto = builtinModel("prototype-4a");
  const int kThreads = 4, kRounds = 6;
  std::vector<std::vector<double>> reference(kThreads), threaded(kThreads);
  for (int t = 0; t < kThreads; ++t) reference[t] = work(puma, proto, t, kRounds);
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; ++t)
    pool.emplace_back([&, t] { threaded[t] = work(puma, proto, t, kRounds); });
  for (auto& th : pool) th.join();
  for (int t = 0; t < kThreads; ++t) {
    REQUIRE(threaded[t].size() == reference[t].size());
    for (size_t k = 0; k < reference[t].size(); ++k) CHECK(threaded[t][k] == reference[t][k]);
  }
}

TEST_CASE("concurrency: a workspace job's own threads (plain and pruned last sweep, Castelli)", "[concurrency]") {
  // runAll's threads share the voxel set (atomic ORs) and, pruned, one pruner's bins: under ThreadSanitizer
  // this is where a race would show. The voxels and their count are those of one thread.
  const Model proto = builtinModel("prototype-4a");
  WorkspaceOptions wo;
  wo.voxel = 0.04;
  wo.threads = 1;
  wo.prune_above = std::numeric_limits<double>::infinity();
  const WorkspaceResult one = computeWorkspace(proto, wo);
  for (double prune_above : {std::numeric_limits<double>::infinity(), 0.0}) {
    wo.prune_above = prune_above;
    wo.threads = 3;
    const WorkspaceResult three = computeWorkspace(proto, wo);
    CHECK(three.count() == one.count());
    CHECK(three.voxels.words() == one.voxels.words());
    CHECK(three.evaluations == one.evaluations);
    CHECK((prune_above == 0) == (three.pruned > 0));
  }
  wo.method = WorkspaceMethod::Castelli;
  wo.step = 10 * kDeg;
  wo.threads = 1;
  const WorkspaceResult c1 = computeWorkspace(proto, wo);
  wo.threads = 3;
  const WorkspaceResult c3 = computeWorkspace(proto, wo);
  CHECK(c3.count() == c1.count());
  CHECK(c3.voxels.words() == c1.voxels.words());
}

TEST_CASE("concurrency: runDesigns records from 3 threads, reports from the caller, and stops on a flag another thread sets",
          "[concurrency]") {
  const DesignSpace s = designSpaceFromJson(nlohmann::json::parse(R"({"format": "achain-design-space", "version": 1,
    "robot": "prototype-4a", "parameters": [{"name": "mass", "pointers": ["/joints/2/link/mass"], "range": [5, 9]}],
    "sample": {"kind": "random", "count": 60, "seed": 2}, "metrics": {"move": {}}})"));
  std::vector<std::uint64_t> all(60);
  std::iota(all.begin(), all.end(), std::uint64_t(0));
  std::vector<std::uint64_t> seen;
  double last = -1;
  bool monotone = true;
  const DesignRunSummary full = runDesigns(s, all, 3, [&](const DesignRecord& r) { seen.push_back(r.design); },
                                           Progress([&](double f) {
                                             monotone = monotone && f >= last;
                                             last = f;
                                             return true;
                                           }));
  CHECK(full.evaluated == 60);
  CHECK(seen.size() == 60);
  CHECK(monotone);
  CHECK(last == 1.0);
  std::atomic<bool> stop{false};
  std::atomic<int> recorded{0};
  std::thread setter([&] {
    while (recorded.load() < 10) std::this_thread::yield();
    stop = true;
  });
  const DesignRunSummary cut = runDesigns(s, all, 3, [&](const DesignRecord&) { ++recorded; }, Progress(&stop));
  if (recorded.load() < 10) stop = true;  // (every design finished before the setter saw 10: let it end)
  setter.join();
  CHECK(cut.evaluated == std::uint64_t(recorded.load()));
  CHECK(cut.cancelled == (cut.evaluated < 60));
}
