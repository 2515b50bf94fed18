// Forward kinematics: achain native vs KDL (ChainFkSolverPos_recursive), same configurations.
#include <benchmark/benchmark.h>

#include "bench_common.hpp"
#include <achain/kinematics/fk.hpp>
#include "kdl_chain.hpp"
#include <achain/io/robot.hpp>
#ifdef ACHAIN_HAVE_KDL
#include <kdl/chainfksolverpos_recursive.hpp>
#endif

using namespace achain;

namespace {
void achainFk(benchmark::State& st, const char* robot) {
  const Model m = builtinModel(robot);
  Data d(m);
  const auto qs = bench::configurations(m, 1);
  size_t k = 0;
  for (auto _ : st) {
    forwardKinematics(m, d, qs[k++ % bench::kStates]);
    benchmark::DoNotOptimize(d.oMtool.p.data());
  }
}
BENCHMARK_CAPTURE(achainFk, puma560, "puma560")->Name("FK/puma560/achain");
BENCHMARK_CAPTURE(achainFk, prototype4a, "prototype-4a")->Name("FK/prototype-4a/achain");

#ifdef ACHAIN_HAVE_KDL
void kdlFk(benchmark::State& st, const char* robot) {
  const Model m = builtinModel(robot);
  const KDL::Chain chain = peers::toKdlChain(m);
  KDL::ChainFkSolverPos_recursive solver(chain);
  const auto kq = bench::kdlArrays(bench::configurations(m, 1));
  KDL::Frame F;
  size_t k = 0;
  for (auto _ : st) {
    solver.JntToCart(kq[k++ % bench::kStates], F);
    benchmark::DoNotOptimize(F.p.data);
  }
}
BENCHMARK_CAPTURE(kdlFk, puma560, "puma560")->Name("FK/puma560/KDL");
// KDL has no A-pairs: its row for the prototype runs the R twin (prototype-4r).
BENCHMARK_CAPTURE(kdlFk, prototype4r, "prototype-4r")->Name("FK/prototype-4a/KDL (4R twin)");
#endif
}  // namespace
