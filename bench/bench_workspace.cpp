// Reachable workspace (Robinson's sweep, Castelli's grid) and the A-pair leg-collision range.
// Thesis timings (MATLAB, Core2 T5300 1.73 GHz; Robinson 2012 Table 3.1) are quoted in docs/workspace.md:
// 4-joint chain 12.8 s (new algorithm, 0.5° steps, 0.5-unit voxels); 3R chain 2.3 s new, 1,450 s Castelli.
#include <benchmark/benchmark.h>

#include <limits>

#include <achain/model/apair_collision.hpp>
#include <achain/io/robot.hpp>
#include <achain/reach/workspace.hpp>
#include "../tests/core/workspace_test_support.hpp"

using namespace achain;
using test::thesis3R;

namespace {

void run(benchmark::State& st, const Model& m, const WorkspaceOptions& o) {
  size_t voxels = 0, evals = 0, pruned = 0;
  for (auto _ : st) {
    const WorkspaceResult r = computeWorkspace(m, o);
    voxels = r.count();
    evals = r.evaluations;
    pruned = r.pruned;
    benchmark::DoNotOptimize(voxels);
  }
  st.counters["voxels"] = double(voxels);
  st.counters["evaluations"] = double(evals);
  st.counters["pruned"] = double(pruned);  // of the evaluations, points the pruned last sweep skipped
}

WorkspaceOptions opts(double voxel, int threads, double step_deg = 0, Representative rep = Representative::Witness,
                      WorkspaceMethod method = WorkspaceMethod::Robinson) {
  WorkspaceOptions o;
  o.voxel = voxel;
  o.threads = threads;
  o.step = step_deg * kDeg;
  o.representative = rep;
  o.method = method;
  return o;
}

void prototype(benchmark::State& st, int threads, double voxel = 0.0127) { run(st, builtinModel("prototype-4a"), opts(voxel, threads)); }
// How the time grows with resolution (issue 16 item 3: 1/8 in in ≤ 1 s), one thread as in the browser's worker;
// and the plain sweep (no pruning) for comparison.
void prototypeAt(benchmark::State& st, double voxel) { run(st, builtinModel("prototype-4a"), opts(voxel, 1)); }
void prototypePlain(benchmark::State& st, double voxel) {
  WorkspaceOptions o = opts(voxel, 1);
  o.prune_above = std::numeric_limits<double>::infinity();
  run(st, builtinModel("prototype-4a"), o);
}
void prototypeThesisSettings(benchmark::State& st) {
  run(st, builtinModel("prototype-4a"), opts(0.0127, 0, 0.5, Representative::Centre));
}
void puma(benchmark::State& st, int threads) { run(st, builtinModel("puma560"), opts(0.0127, threads)); }
// Thesis settings: centre representative, 0.5° steps (Table 3.1: MATLAB 2.3 s; Castelli 1,450 s).
void robinson3R(benchmark::State& st) { run(st, thesis3R(), opts(0.5, 0, 0.5, Representative::Centre)); }
void castelli3R(benchmark::State& st) {
  run(st, thesis3R(), opts(0.5, 0, 0.5, Representative::Witness, WorkspaceMethod::Castelli));
}
void apairRange(benchmark::State& st) {
  for (auto _ : st) benchmark::DoNotOptimize(apairUsableRange(1.0, 0.05).lower);
}

}  // namespace

BENCHMARK_CAPTURE(prototype, all, 0)->Name("Workspace/prototype-4a@12.7mm/achain")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(prototype, one, 1)->Name("Workspace/prototype-4a@12.7mm/achain-1thread")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(prototypeAt, in1, 0.0254)->Name("Workspace/prototype-4a@25.4mm/achain-1thread")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(prototypePlain, in05, 0.0127)->Name("Workspace/prototype-4a@12.7mm/achain-1thread-unpruned")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(prototypeAt, in025, 0.00635)->Name("Workspace/prototype-4a@6.35mm/achain-1thread")->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(prototypeAt, in0125, 0.003175)->Name("Workspace/prototype-4a@3.175mm/achain-1thread")->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(prototype, in0125all, 0, 0.003175)->Name("Workspace/prototype-4a@3.175mm/achain")->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(prototypeThesisSettings)->Name("Workspace/prototype-4a@12.7mm/achain-centre-0.5deg")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(puma, all, 0)->Name("Workspace/puma560-wrist@12.7mm/achain")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(puma, one, 1)->Name("Workspace/puma560-wrist@12.7mm/achain-1thread")->Unit(benchmark::kMillisecond);
BENCHMARK(robinson3R)->Name("Workspace/thesis-3r@0.5/achain")->Unit(benchmark::kMillisecond);
BENCHMARK(castelli3R)->Name("Workspace/thesis-3r@0.5/achain-castelli-0.5deg")->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(apairRange)->Name("ApairRange/r=0.05a/achain")->Unit(benchmark::kMicrosecond);
