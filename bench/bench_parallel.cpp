// Parallel mechanisms and the exact A-pair (Freeman Ch. IV; docs/dynamics.md "Benchmarks of the closed chains"):
// per call, the loop closure (every leg's inverse kinematics at a moving platform pose, from the previous
// solution), the transfer (legs to w, summed with the platform, actuated: I*_qq, P*_qqq, T^L_q, then the loads for
// platform rates), the whole inverse dynamics (closure + transfer + loads) and the same by parallelInverseDynamics's
// one pass (with the closure, and at legs already closed), for parallel-3rrr and stewart-6ups;
// the exact A-pair's closure solve and the exact-model inverse dynamics of one A-pair and of prototype-4a. Each
// has a reference row: the serial RNEA (inverseDynamics, FK included) of a chain with the same number of bodies
// (legs' links + platform; the A-pair's links + its six leg rods).
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <string>

#include "bench_common.hpp"
#include <achain/apair/apair_platform.hpp>
#include <achain/closed_chains/parallel_robot.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/io/model_json.hpp>
#include <achain/io/parallel_json.hpp>
#include <achain/io/robot.hpp>

using namespace achain;

namespace {

constexpr int kPath = 64;  // platform poses along a closed path; consecutive poses are close (continuation)

// Poses around the file's reference: a circle in x, y with a turn (planar), or with a lift and tilts (spatial).
std::vector<SE3> posePath(const ParallelRobot& pr) {
  const VecX c0 = poseCoordinates(pr.pose, pr.planar);
  std::vector<SE3> out;
  for (int k = 0; k < kPath; ++k) {
    const double t = 2 * M_PI * k / kPath;
    VecX c = c0;
    if (pr.planar) {
      c[0] += 0.005 * std::cos(t), c[1] += 0.005 * std::sin(t), c[2] += 0.05 * std::sin(2 * t);
    } else {
      c[0] += 0.02 * std::cos(t), c[1] += 0.02 * std::sin(t), c[2] += 0.01 * std::sin(2 * t);
      c[3] += 0.05 * std::sin(t), c[4] += 0.05 * std::cos(t), c[5] += 0.08 * std::sin(t);
    }
    out.push_back(poseFromCoordinates(c, pr.planar, pr.pose));
  }
  return out;
}

VecX rates(int n, unsigned seed) {
  std::mt19937 rng(seed);
  VecX v(n);
  for (int i = 0; i < n; ++i) v[i] = std::uniform_real_distribution<double>(-0.2, 0.2)(rng);
  return v;
}

int bodies(const ParallelRobot& pr) {
  int n = 1;  // the platform
  for (const Model& m : pr.legs) n += m.njoints();
  return n;
}

// A parallel robot file with one Data per leg, its pose path and platform rates.
struct Mechanism {
  const ParallelRobot pr;
  std::vector<Data> datas;
  const std::vector<SE3> path;
  const VecX wd, wdd;
  explicit Mechanism(const std::string& name)
      : pr(loadParallel(name)), path(posePath(pr)), wd(rates(pr.freedoms(), 1)), wdd(rates(pr.freedoms(), 2)) {
    for (const Model& m : pr.legs) datas.emplace_back(m);
  }
};

void parallelClosure(benchmark::State& state, const std::string& name) {
  Mechanism mc(name);
  const ParallelRobot& pr = mc.pr;
  std::vector<Data>& datas = mc.datas;
  const std::vector<SE3>& path = mc.path;
  std::vector<VecX> q;
  legInverseKinematics(pr, datas, path[0], q);
  int k = 0, iters = 0;
  for (auto _ : state) {
    const std::vector<int> it = legInverseKinematics(pr, datas, path[k++ % kPath], q);
    iters += it[0];
    benchmark::DoNotOptimize(q[0].data());
  }
  state.counters["newton_iterations_leg0"] = benchmark::Counter(iters, benchmark::Counter::kAvgIterations);
}

// Transfer only: legs already closed along the path (their q stored), parallelModel + parallelActuate + loads.
void parallelTransfer(benchmark::State& state, const std::string& name) {
  Mechanism mc(name);
  const ParallelRobot& pr = mc.pr;
  std::vector<Data>& datas = mc.datas;
  const std::vector<SE3>& path = mc.path;
  std::vector<std::vector<VecX>> qs(kPath);
  std::vector<VecX> q;
  for (int k = 0; k < kPath; ++k) legInverseKinematics(pr, datas, path[k], q), qs[k] = q;
  std::vector<const Model*> legs;
  for (const Model& m : pr.legs) legs.push_back(&m);
  PlatformInertia plat;
  plat.mass = pr.platform_mass;
  ParallelState st;
  ParallelMotion mo;
  int k = 0;
  for (auto _ : state) {
    const int i = k++ % kPath;
    plat.inertia = path[i].R * pr.platform_inertia * path[i].R.transpose();
    parallelModel(legs, datas, qs[i], pr.planar, plat, DynamicsOptions{}, st.pm);
    parallelActuate(st.pm, pr.actuated, st.Gq_w, st.Hq_ww, st.q_model);
    parallelMotion(st, mc.wd, mc.wdd, mo);
    benchmark::DoNotOptimize(mo.Tq.data());
  }
}

// The whole closed-chain inverse dynamics: closure + transfer + I*/P* + loads (parallelAt + parallelMotion).
void parallelId(benchmark::State& state, const std::string& name) {
  Mechanism mc(name);
  ParallelState st;
  ParallelMotion mo;
  int k = 0;
  for (auto _ : state) {
    parallelAt(mc.pr, mc.datas, mc.path[k++ % kPath], DynamicsOptions{}, st);  // st.q: the previous solution
    parallelMotion(st, mc.wd, mc.wdd, mo);
    benchmark::DoNotOptimize(mo.Tq.data());
  }
}

// The whole inverse dynamics in one pass (parallelInverseDynamics): the closure, then one RNEA per leg at the
// rates [_rG^w_φ]⁻¹ gives, summed by virtual work (no I*, P* or their transfer).
void parallelIdOnePass(benchmark::State& state, const std::string& name) {
  Mechanism mc(name);
  std::vector<VecX> q;
  ParallelMotion mo;
  int k = 0;
  for (auto _ : state) {
    const SE3& X = mc.path[k++ % kPath];
    legInverseKinematics(mc.pr, mc.datas, X, q);  // q: the previous solution
    parallelInverseDynamics(mc.pr, mc.datas, X, q, mc.wd, mc.wdd, DynamicsOptions{}, mo);
    benchmark::DoNotOptimize(mo.Tq.data());
  }
}

// The one pass alone, the legs already closed along the path (as the five-bar's ClosedChainID rows).
void parallelIdOnePassClosed(benchmark::State& state, const std::string& name) {
  Mechanism mc(name);
  std::vector<std::vector<VecX>> qs(kPath);
  std::vector<VecX> q;
  for (int k = 0; k < kPath; ++k) legInverseKinematics(mc.pr, mc.datas, mc.path[k], q), qs[k] = q;
  ParallelMotion mo;
  int k = 0;
  for (auto _ : state) {
    const int i = k++ % kPath;
    parallelInverseDynamics(mc.pr, mc.datas, mc.path[i], qs[i], mc.wd, mc.wdd, DynamicsOptions{}, mo);
    benchmark::DoNotOptimize(mo.Tq.data());
  }
}

// A serial chain of n revolute bodies (alternating twists, 1 kg rods): the reference RNEA, FK included.
Model serialChain(int n) {
  std::string joints;
  for (int i = 0; i < n; ++i)
    joints += std::string(i ? ", " : "") + R"({"kind": "R", "a": 0.1, "alpha": )" + (i % 2 ? "90" : "-90") +
              R"(, "d": 0.05, "link": {"mass": 1, "com": [-0.05, 0, 0], "inertia": [0.001, 0.002, 0.002, 0, 0, 0]}})";
  return modelFromJsonString(R"({"schema_version": 1, "units": {"angle": "deg"}, "joints": [)" + joints + "]}");
}

void serialRnea(benchmark::State& state, int n) {
  const Model m = serialChain(n);
  Data d(m);
  const auto qs = bench::configurations(m, 7);
  const VecX qd = rates(m.nv, 3), qdd = rates(m.nv, 4);
  VecX tau(m.nv);
  int k = 0;
  for (auto _ : state) {
    inverseDynamics(m, d, qs[k++ & (bench::kStates - 1)], qd, qdd, DynamicsOptions{}, tau);
    benchmark::DoNotOptimize(tau.data());
  }
}

// One A-pair: the first joint of prototype-4a alone (its leg length, legs and link).
Model singleApair() {
  auto j = nlohmann::json::parse(findBuiltinRobot("prototype-4a")->json);
  auto& js = j["joints"];
  js.erase(js.begin() + 1, js.end());
  j.erase("tool");
  return modelFromJson(j);
}

void apairClosure(benchmark::State& state) {
  const Model m = singleApair();
  ApairPlatform plat(m.joints[0].rho);
  double theta = M_PI;
  int k = 0;
  for (auto _ : state) {
    theta = M_PI + 0.8 * std::sin(2 * M_PI * (k++ % kPath) / kPath);  // continuation along a swing
    benchmark::DoNotOptimize(plat.solve(theta).x.data());
  }
}

void exactApairId(benchmark::State& state, bool prototype) {
  const Model m = prototype ? builtinModel("prototype-4a") : singleApair();
  ExactApairChain ex(m);
  std::vector<VecX> qs;
  for (int k = 0; k < kPath; ++k) {  // a swing inside the A-pairs' range (60°…300°)
    VecX q(m.nv);
    for (int i = 0; i < m.nv; ++i) q[i] = M_PI + 0.8 * std::sin(2 * M_PI * k / kPath + i);
    qs.push_back(q);
  }
  const VecX qd = rates(m.nv, 5), qdd = rates(m.nv, 6);
  VecX tau(m.nv);
  int k = 0;
  for (auto _ : state) {
    ex.inverseDynamics(qs[k++ % kPath], qd, qdd, true, tau);
    benchmark::DoNotOptimize(tau.data());
  }
}

struct Register {
  Register() {
    for (const char* name : {"parallel-3rrr", "stewart-6ups"}) {
      const std::string n = name;
      const int b = bodies(loadParallel(n));
      benchmark::RegisterBenchmark(("LoopClosure/" + n + "/achain").c_str(), parallelClosure, n);
      benchmark::RegisterBenchmark(("ParallelTransfer/" + n + "/achain").c_str(), parallelTransfer, n);
      benchmark::RegisterBenchmark(("ParallelID/" + n + "/achain").c_str(), parallelId, n);
      benchmark::RegisterBenchmark(("ParallelID/" + n + "/achain one pass").c_str(), parallelIdOnePass, n);
      benchmark::RegisterBenchmark(("ParallelID/" + n + "/achain one pass, legs closed").c_str(), parallelIdOnePassClosed, n);
      benchmark::RegisterBenchmark(("ParallelID/" + n + "/serial RNEA, same " + std::to_string(b) + " bodies (achain)").c_str(),
                                   serialRnea, b);
    }
    const Model single = singleApair(), proto = builtinModel("prototype-4a");
    const int b1 = single.njoints() + ExactApairChain(single).legCount();
    const int b4 = proto.njoints() + ExactApairChain(proto).legCount();
    benchmark::RegisterBenchmark("ApairClosure/apair-single/achain", apairClosure);
    benchmark::RegisterBenchmark("ExactApairID/apair-single/achain", exactApairId, false);
    benchmark::RegisterBenchmark(("ExactApairID/apair-single/serial RNEA, same " + std::to_string(b1) + " bodies (achain)").c_str(),
                                 serialRnea, b1);
    benchmark::RegisterBenchmark("ExactApairID/prototype-4a/achain", exactApairId, true);
    benchmark::RegisterBenchmark(("ExactApairID/prototype-4a/serial RNEA, same " + std::to_string(b4) + " bodies (achain)").c_str(),
                                 serialRnea, b4);
  }
} const kRegister;

}  // namespace
