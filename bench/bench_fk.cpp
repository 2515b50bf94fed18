// Forward kinematics: achain native vs KDL (ChainFkSolverPos_recursive), same configurations.
#include <benchmark/benchmark.h>

#include <random>

#include "fk.hpp"
#include "kdl_chain.hpp"
#include "robots.hpp"
#ifdef ACHAIN_HAVE_KDL
#include <kdl/chainfksolverpos_recursive.hpp>
#endif

using namespace achain;

namespace {
std::vector<VecX> configurations(const Model& m, int n = 256) {
  std::mt19937 rng(1);
  std::vector<VecX> out;
  for (int k = 0; k < n; ++k) {
    VecX q(m.nq);
    for (int i = 0; i < m.nq; ++i) {
      const auto& L = m.joints[i].limits;
      q[i] = std::uniform_real_distribution<double>(std::isfinite(L.lower) ? L.lower : -3, std::isfinite(L.upper) ? L.upper : 3)(rng);
    }
    out.push_back(q);
  }
  return out;
}

void achainFk(benchmark::State& st, const char* robot) {
  const Model m = builtinModel(robot);
  Data d(m);
  const auto qs = configurations(m);
  size_t k = 0;
  for (auto _ : st) {
    forwardKinematics(m, d, qs[k++ & 255]);
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
  const auto qs = configurations(m);
  std::vector<KDL::JntArray> kq;
  for (const auto& q : qs) {
    KDL::JntArray a(m.nq);
    a.data = q;
    kq.push_back(a);
  }
  KDL::Frame F;
  size_t k = 0;
  for (auto _ : st) {
    solver.JntToCart(kq[k++ & 255], F);
    benchmark::DoNotOptimize(F.p.data);
  }
}
BENCHMARK_CAPTURE(kdlFk, puma560, "puma560")->Name("FK/puma560/KDL");
// KDL has no A-pairs: its row for the prototype runs the R twin (prototype-4r).
BENCHMARK_CAPTURE(kdlFk, prototype4r, "prototype-4r")->Name("FK/prototype-4a/KDL (4R twin)");
#endif
}  // namespace
