// Differential kinematics: achain native vs KDL (ChainJntToJacSolver), same configurations.
// Each call includes the forward kinematics it needs (KDL's JntToJac does its own).
#include <benchmark/benchmark.h>

#include "bench_common.hpp"
#include <achain/kinematics/fk.hpp>
#include <achain/kinematics/influence.hpp>
#include <achain/kinematics/jacobian.hpp>
#include "kdl_chain.hpp"
#include <achain/io/robot.hpp>
#ifdef ACHAIN_HAVE_KDL
#include <kdl/chainjnttojacsolver.hpp>
#endif

using namespace achain;

namespace {
void achainJacobian(benchmark::State& st, const char* robot) {
  const Model m = builtinModel(robot);
  Data d(m);
  MatX J(6, m.nv);
  const auto qs = bench::configurations(m, 2);
  size_t k = 0;
  for (auto _ : st) {
    forwardKinematics(m, d, qs[k++ % bench::kStates]);
    toolJacobian(m, d, J);
    benchmark::DoNotOptimize(J.data());
  }
}
BENCHMARK_CAPTURE(achainJacobian, puma560, "puma560")->Name("Jacobian/puma560/achain");
BENCHMARK_CAPTURE(achainJacobian, prototype4a, "prototype-4a")->Name("Jacobian/prototype-4a/achain");
/// Batch tool Jacobian (pointJacobianSeries at the tool point, base frame: toolJacobian's) over the kStates
/// configurations in one call, timed per state (bench::batchPerState).
void achainJacobianBatch(benchmark::State& st, const char* robot, BatchPath path) {
  const Model m = builtinModel(robot);
  Data d(m);
  std::vector<double> q, J(6 * static_cast<size_t>(m.nv) * bench::kStates);
  for (const VecX& x : bench::configurations(m, 2)) q.insert(q.end(), x.data(), x.data() + x.size());
  bench::batchPerState(st, path, [&] {
    pointJacobianSeries(m, d, bench::kStates, q.data(), m.toolLink(), m.tool.p, false, J.data(), path);
    benchmark::DoNotOptimize(J.data());
  });
}
BENCHMARK_CAPTURE(achainJacobianBatch, b1, "puma560", BatchPath::Auto)->Name("Jacobian/puma560/achain batch (per state)");
BENCHMARK_CAPTURE(achainJacobianBatch, b2, "prototype-4a", BatchPath::Auto)->Name("Jacobian/prototype-4a/achain batch (per state)");
BENCHMARK_CAPTURE(achainJacobianBatch, b3, "puma560", BatchPath::Baseline)->Name("Jacobian/puma560/achain batch baseline x86-64 (per state)");
BENCHMARK_CAPTURE(achainJacobianBatch, b4, "prototype-4a", BatchPath::Baseline)->Name("Jacobian/prototype-4a/achain batch baseline x86-64 (per state)");

void achainJdot(benchmark::State& st, const char* robot) {
  const Model m = builtinModel(robot);
  Data d(m);
  MatX Jd(6, m.nv);
  const auto qs = bench::configurations(m, 2);
  const VecX qd = VecX::Constant(m.nv, 0.3);
  size_t k = 0;
  for (auto _ : st) {
    forwardKinematics(m, d, qs[k++ % bench::kStates]);
    toolJacobianDerivative(m, d, qd, Jd);
    benchmark::DoNotOptimize(Jd.data());
  }
}
BENCHMARK_CAPTURE(achainJdot, puma560, "puma560")->Name("JacobianDot/puma560/achain");
BENCHMARK_CAPTURE(achainJdot, prototype4a, "prototype-4a")->Name("JacobianDot/prototype-4a/achain");

void achainInfluence(benchmark::State& st, const char* robot, int order) {
  const Model m = builtinModel(robot);
  Data d(m);
  Influence inf;
  const auto qs = bench::configurations(m, 2);
  size_t k = 0;
  for (auto _ : st) {
    forwardKinematics(m, d, qs[k++ % bench::kStates]);
    toolInfluence(m, d, inf, order);
    benchmark::DoNotOptimize(inf.G.data());
  }
}
BENCHMARK_CAPTURE(achainInfluence, puma560_H, "puma560", 2)->Name("InfluenceGH/puma560/achain");
BENCHMARK_CAPTURE(achainInfluence, prototype4a_H, "prototype-4a", 2)->Name("InfluenceGH/prototype-4a/achain");
BENCHMARK_CAPTURE(achainInfluence, puma560_D, "puma560", 3)->Name("InfluenceGHD/puma560/achain");

#ifdef ACHAIN_HAVE_KDL
void kdlJacobian(benchmark::State& st, const char* robot) {
  const Model m = builtinModel(robot);
  const KDL::Chain chain = peers::toKdlChain(m);
  KDL::ChainJntToJacSolver solver(chain);
  const auto kq = bench::kdlArrays(bench::configurations(m, 2));
  KDL::Jacobian J(m.nq);
  size_t k = 0;
  for (auto _ : st) {
    solver.JntToJac(kq[k++ % bench::kStates], J);
    benchmark::DoNotOptimize(J.data.data());
  }
}
BENCHMARK_CAPTURE(kdlJacobian, puma560, "puma560")->Name("Jacobian/puma560/KDL");
// KDL has no A-pairs: its row for the prototype runs the R twin (prototype-4r).
BENCHMARK_CAPTURE(kdlJacobian, prototype4r, "prototype-4r")->Name("Jacobian/prototype-4a/KDL (4R twin)");
#endif
}  // namespace
