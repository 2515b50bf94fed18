// Closed-chain benchmarks (issue 12): Freeman's five-bar (the built-in `five-bar`, a planar pin).
//   LoopClosure/five-bar/achain     one drag frame: closeLoop from the previous frame's solution, the
//                                    coordinates y moving 0.5° per frame back and forth over 40°
//   ClosedChainID/five-bar/achain   closed-chain inverse dynamics: closedChainModel (transfer, I*/P* in y)
//                                    + closedChainRates + closedChainLoads (T_y and T_c), at closed states
//   ClosedChainID/five-bar/achain one pass   the same T_y and T_c (and rates) by closedChainInverseDynamics: one
//                                    RNEA at the closure's rates and [G^e_φ], no I*/P* transfer (issue 34)
//   ClosedChainID/five-bar/serial RNEA, same 4 bodies   the open chain's RNEA, for the ratio target
//                                    (closed-chain inverse dynamics within 10× the serial RNEA)
#include <benchmark/benchmark.h>

#include <vector>

#include <achain/closed_chains/loop_closure.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/io/loop_json.hpp>
#include <achain/io/robot.hpp>

using namespace achain;

namespace {


struct FiveBar {
  Robot robot = readRobot("five-bar");
  Model& m = robot.model;
  LoopClosure loop = robot.requireLoop();
  Data data{m};
  /// Closed configurations along y = (70° + s, 90° − s/2), s = 0 … 40° in 0.5° frames.
  std::vector<VecX> closedStates() {
    std::vector<VecX> out;
    VecX q = loop.assembly;
    VecX f(1);
    for (int k = 0; k <= 80; ++k) {
      q[loop.alpha[0]] = (70 + 0.5 * k) * kDeg;
      f[0] = (90 - 0.25 * k) * kDeg;
      closeLoop(m, data, loop, q, f);
      out.push_back(q);
    }
    return out;
  }
};

void loopClosureFrame(benchmark::State& st) {
  FiveBar fb;
  const std::vector<VecX> path = fb.closedStates();
  VecX q = path[0], f(1);
  int k = 0, dir = 1;
  for (auto _ : st) {
    k += dir;
    if (k == 80 || k == 0) dir = -dir;
    q[fb.loop.alpha[0]] = (70 + 0.5 * k) * kDeg;
    f[0] = (90 - 0.25 * k) * kDeg;
    benchmark::DoNotOptimize(closeLoop(fb.m, fb.data, fb.loop, q, f));
  }
}
BENCHMARK(loopClosureFrame)->Name("LoopClosure/five-bar/achain");

void closedChainId(benchmark::State& st) {
  FiveBar fb;
  const std::vector<VecX> path = fb.closedStates();
  ClosedChainModel cm;
  const DynamicsOptions o;
  VecX yd(2), ydd(2), qd = VecX::Zero(fb.m.nv), qdd(fb.m.nv), Ty(2), Tc(2);
  yd << 114.59 * kDeg, 171.887 * kDeg;
  ydd << 57.2958 * kDeg, 28.6479 * kDeg;
  size_t k = 0;
  for (auto _ : st) {
    const VecX& q = path[k++ % path.size()];
    closedChainModel(fb.m, fb.data, fb.loop, q, qd, o, cm);
    closedChainRates(cm, yd, ydd, qd, qdd);
    closedChainLoads(cm, yd, ydd, Ty, Tc);
    benchmark::DoNotOptimize(Ty.data());
    benchmark::DoNotOptimize(Tc.data());
  }
}
BENCHMARK(closedChainId)->Name("ClosedChainID/five-bar/achain");

void closedChainIdOnePass(benchmark::State& st) {
  FiveBar fb;
  const std::vector<VecX> path = fb.closedStates();
  const DynamicsOptions o;
  VecX yd(2), ydd(2), qd(fb.m.nv), qdd(fb.m.nv), Ty(2), Tc(2);
  yd << 114.59 * kDeg, 171.887 * kDeg;
  ydd << 57.2958 * kDeg, 28.6479 * kDeg;
  size_t k = 0;
  for (auto _ : st) {
    closedChainInverseDynamics(fb.m, fb.data, fb.loop, path[k++ % path.size()], yd, ydd, o, qd, qdd, Ty, Tc);
    benchmark::DoNotOptimize(Ty.data());
    benchmark::DoNotOptimize(Tc.data());
  }
}
BENCHMARK(closedChainIdOnePass)->Name("ClosedChainID/five-bar/achain one pass");

void serialRnea(benchmark::State& st) {
  FiveBar fb;
  const std::vector<VecX> path = fb.closedStates();
  const DynamicsOptions o;
  VecX qd = VecX::Constant(fb.m.nv, 2.0), qdd = VecX::Constant(fb.m.nv, 1.0), tau(fb.m.nv);
  size_t k = 0;
  for (auto _ : st) {
    inverseDynamics(fb.m, fb.data, path[k++ % path.size()], qd, qdd, o, tau);
    benchmark::DoNotOptimize(tau.data());
  }
}
BENCHMARK(serialRnea)->Name("ClosedChainID/five-bar/serial RNEA, same 4 bodies (achain)");

}  // namespace
