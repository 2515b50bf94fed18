// Inverse kinematics: 1000 reachable targets per robot (FK of random configurations inside the limits),
// each method solved from one random seed per target (the same seeds for everyone). Counters:
// success_pct (pose error ≤ 1e-6 m / rad and inside the limits), median_us, p99_us and mean_us per solve
// (from one timed pass over all targets); the benchmark time itself is the mean over the loop.
// KDL has no A-pairs: its prototype rows run the 4R twin (prototype-4r) on that twin's targets.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <random>

#include <achain/kinematics/fk.hpp>
#include <achain/ik/algebraic_4a.hpp>
#include <achain/ik/closed_form.hpp>
#include <achain/ik/general6r.hpp>
#include <achain/ik/sweep.hpp>
#include <achain/ik/ik.hpp>
#include <achain/ik/numeric.hpp>
#include <achain/ik/track.hpp>
#include "kdl_chain.hpp"
#include <achain/io/robot.hpp>
#ifdef ACHAIN_HAVE_KDL
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/chainiksolverpos_lma.hpp>
#include <kdl/chainiksolverpos_nr_jl.hpp>
#include <kdl/chainiksolvervel_pinv.hpp>
#endif

using namespace achain;

namespace {

constexpr int kTargets = 1000;

struct Problem {
  Model model;
  std::vector<VecX> truth, seeds;
  std::vector<SE3> targets;
};

VecX randomQ(const Model& m, std::mt19937& rng) {
  VecX q(m.nq);
  for (int i = 0; i < m.njoints(); ++i) {
    const auto& L = m.joints[i].limits;
    const double f = isAngular(m.joints[i].kind) ? kPi : 1.0;
    q[i] = std::uniform_real_distribution<double>(std::isfinite(L.lower) ? L.lower : -f, std::isfinite(L.upper) ? L.upper : f)(rng);
  }
  return q;
}

/// kTargets reachable targets (FK of random configurations inside the limits) and random seeds for a model.
Problem makeProblem(Model model) {
  Problem p{std::move(model), {}, {}, {}};
  std::mt19937 rng(2024);
  Data d(p.model);
  for (int k = 0; k < kTargets; ++k) {
    p.truth.push_back(randomQ(p.model, rng));
    p.seeds.push_back(randomQ(p.model, rng));
    forwardKinematics(p.model, d, p.truth.back());
    p.targets.push_back(d.oMtool);
  }
  return p;
}

const Problem& problem(const std::string& robot) {
  static std::map<std::string, Problem> cache;
  auto it = cache.find(robot);
  if (it != cache.end()) return it->second;
  return cache.emplace(robot, makeProblem(builtinModel(robot))).first->second;
}

bool success(const Model& m, Data& d, const VecX& q, const SE3& target) {
  if (!withinLimits(m, q, 1e-12)) return false;
  double pe, oe;
  poseErrorAt(m, d, q, target, pe, oe);
  return pe <= 1e-6 && oe <= 1e-6;
}

/// One timed pass (median/mean, success) then the benchmark loop. solve(k) returns the configuration
/// to judge (empty = failure).
void runIk(benchmark::State& st, const Problem& p, const std::function<bool(int, VecX&)>& solve, int count = kTargets) {
  Data d(p.model);
  std::vector<double> us;
  us.reserve(kTargets);
  int ok = 0;
  VecX q(p.model.nq);
  for (int k = 0; k < count; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    const bool got = solve(k, q);
    const auto t1 = std::chrono::steady_clock::now();
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    if (got && success(p.model, d, q, p.targets[k])) ++ok;
  }
  std::vector<double> s = us;
  std::nth_element(s.begin(), s.begin() + s.size() / 2, s.end());
  double mean = 0;
  for (double v : us) mean += v;
  mean /= us.size();
  int k = 0;
  for (auto _ : st) {
    solve(k, q);
    benchmark::DoNotOptimize(q.data());
    k = (k + 1) % count;
  }
  st.counters["success_pct"] = 100.0 * ok / count;
  st.counters["targets"] = count;
  st.counters["median_us"] = s[s.size() / 2];
  std::nth_element(s.begin(), s.begin() + (s.size() * 99) / 100, s.end());
  st.counters["p99_us"] = s[(s.size() * 99) / 100];
  st.counters["mean_us"] = mean;
}

/// The numeric solver (50 restarts) from each target's random seed.
void numericRow(benchmark::State& st, const Problem& p) {
  Data data(p.model);
  IkOptions opt;
  opt.restarts = 50;
  IkResult r;
  runIk(st, p, [&](int k, VecX& q) {
    ikNumeric(p.model, data, p.targets[k], p.seeds[k], opt, r);
    q = r.q;
    return r.status == IkStatus::Ok;
  });
}

void achainNumeric(benchmark::State& st, const char* robot) { numericRow(st, problem(robot)); }

/// Teleoperation: the seed is the target's configuration perturbed by up to ±0.02 rad (one frame of a
/// drag), no restarts — the per-frame cost of ikSolve.
void achainTrack(benchmark::State& st, const char* robot) {
  const Problem& p = problem(robot);
  Data data(p.model);
  IkOptions opt;
  IkResult r;
  std::vector<VecX> near;
  std::mt19937 rng(99);
  std::uniform_real_distribution<double> U(-0.02, 0.02);
  for (const auto& q : p.truth) {
    VecX s = q;
    for (int i = 0; i < s.size(); ++i) s[i] += U(rng);
    near.push_back(s);
  }
  runIk(st, p, [&](int k, VecX& q) {
    ikNumeric(p.model, data, p.targets[k], near[k], opt, r);
    q = r.q;
    return r.status == IkStatus::Ok;
  });
}

/// The closed form (ikClosed: all solutions, flags, each candidate verified; allocation-free), the
/// implementation behind ikAll(…, Closed).
void achainClosed(benchmark::State& st, const char* robot) {
  const Problem& p = problem(robot);
  Data data(p.model);
  IkSolutionSet out;
  runIk(st, p, [&](int k, VecX& q) {
    ikClosed(p.model, data, p.targets[k], nullptr, out);
    if (out.n_inside == 0) return false;
    for (int i = 0; i < p.model.nq; ++i) q[i] = out.sol(0).q[i];
    return true;
  });
}

/// The same closed form through ikAll (vectors of solutions with flag strings: the allocating API),
/// with one Data kept across solves.
void achainIkAllClosed(benchmark::State& st, const char* robot) {
  const Problem& p = problem(robot);
  Data data(p.model);  // as the wasm layer does: the model handle's Data
  runIk(st, p, [&](int k, VecX& q) {
    const IkAllResult r = ikAll(p.model, data, p.targets[k], IkMethod::Closed, {});
    if (r.solutions.empty()) return false;
    q = r.solutions[0].q;
    return true;
  });
}

void achainAlgebraic(benchmark::State& st, const char* robot) {
  const Problem& p = problem(robot);
  runIk(
      st, p,
      [&](int k, VecX& q) {
        const IkAllResult r = ikAlgebraic4A(p.model, p.targets[k]);
        if (r.solutions.empty()) return false;
        q = r.solutions[0].q;
        return true;
      },
      40);  // 0.1–0.3 s per solve (128 paths): the first 40 targets
}

/// A 6R arm without a closed form: "general" = fixed random DH (seed 6061: a ∈ ±[0.05, 1] m, α, θ_f ∈ [−π, π],
/// d ∈ ±0.5 m), "ur5" = the UR5's DH (axes 2, 3, 4 parallel, no spherical wrist). 1000 targets = FK of random
/// joint values; no limits.
const Problem& arm6Problem(const std::string& which) {
  static std::map<std::string, Problem> cache;
  auto it = cache.find(which);
  if (it != cache.end()) return it->second;
  Model m = builtinModel("puma560");
  std::mt19937_64 g(6061);
  std::uniform_real_distribution<double> U(-1, 1), Ua(0.05, 1);
  const double ur_a[6] = {0, -0.425, -0.39225, 0, 0, 0}, ur_al[6] = {kPi / 2, 0, 0, kPi / 2, -kPi / 2, 0},
               ur_d[6] = {0.089159, 0, 0, 0.10915, 0.09465, 0.0823};
  for (int i = 0; i < 6; ++i) {
    Joint& j = m.joints[i];
    const bool ur = which == "ur5";
    j.a = ur ? ur_a[i] : Ua(g) * (U(g) > 0 ? 1 : -1);
    j.alpha = ur ? ur_al[i] : kPi * U(g);
    j.d = ur ? ur_d[i] : 0.5 * U(g);
    j.theta_f = ur ? 0 : kPi * U(g);
    j.limits.lower = -kPi;
    j.limits.upper = kPi;
  }
  m.finalize();
  return cache.emplace(which, makeProblem(std::move(m))).first->second;
}

/// An all-solutions solver's row: solve(target, out) fills the IkSolutionSet out (ikGeneral6R, ikSweep);
/// success = the generating configuration is among the solutions, modulo each joint's period (the solution is
/// handed over shifted onto it). Counter solutions_mean.
template <class Solve>
void allSolutionsRow(benchmark::State& st, const Problem& p, Solve solve) {
  IkSolutionSet out;
  double total = 0;
  int calls = 0;
  const int n = p.model.nq;
  runIk(st, p, [&](int k, VecX& q) {
    solve(p.targets[k], out);
    if (calls < kTargets) total += out.count;
    ++calls;
    auto shift = [&](int s, int i) { return std::remainder(out.sol(s).q[i] - p.truth[k][i], p.model.jmodels[i].period); };
    for (int s = 0; s < out.count; ++s) {
      double dist = 0;
      for (int i = 0; i < n; ++i) dist = std::max(dist, std::abs(shift(s, i)));
      if (dist < 1e-9) {
        for (int i = 0; i < n; ++i) q[i] = p.truth[k][i] + shift(s, i);
        return true;
      }
    }
    return false;
  });
  st.counters["solutions_mean"] = total / kTargets;
}

/// General 6R, every solution (ikGeneral6R: elimination, 24×24 eigenproblem, Newton polish, FK check of each).
void achainGeneral6R(benchmark::State& st, const char* which) {
  const Problem& p = arm6Problem(which);
  Data data(p.model);
  allSolutionsRow(st, p, [&](const SE3& T, IkSolutionSet& out) { ikGeneral6R(p.model, data, T, out); });
}

/// Four-joint chain, every solution by the orientation sweep (ikSweep: samples, Gauss–Newton polish, FK check of
/// each): the built-in general-4a (a 4A-chain with skew axes 2, 3: no closed form) and prototype-4a (closed form
/// exists; the sweep holds joint 2 there).
void achainSweep(benchmark::State& st, const char* robot) {
  const Problem& p = problem(robot);
  Data data(p.model);
  allSolutionsRow(st, p, [&](const SE3& T, IkSolutionSet& out) { ikSweep(p.model, data, T, out); });
}

/// Numeric solver (50 restarts) on the general-6R / UR5-type arm: no closed form, so no analytic warm start —
/// the Levenberg–Marquardt solver itself from a random seed.
void achainNumericArm6(benchmark::State& st, const char* which) { numericRow(st, arm6Problem(which)); }

/// Branch tracking per frame (trackBranches): every solution of frame 0 (closed form for PUMA, ikGeneral6R for the
/// general arm) followed along a 1000-frame drag, target = FK of a smooth random joint path (steps of a few mrad).
/// Counters: median_us, p99_us per frame, branches_mean (alive branches), newton_per_frame.
void achainTrackBranches(benchmark::State& st, const char* which) {
  const bool puma = std::string(which) == "puma560";
  const Problem& p = puma ? problem("puma560") : arm6Problem(which);
  const Model& m = p.model;
  Data data(m);
  std::vector<SE3> path;
  std::mt19937_64 rng(77);
  std::uniform_real_distribution<double> U(-1, 1);
  double q0[6], amp[6], fr[6], ph[6];
  for (int i = 0; i < 6; ++i) q0[i] = 0.5 * U(rng), amp[i] = 0.6 * U(rng), fr[i] = 0.5 + std::abs(U(rng)), ph[i] = kPi * U(rng);
  VecX q(6);
  for (int f = 0; f <= kTargets; ++f) {
    for (int i = 0; i < 6; ++i) q[i] = q0[i] + amp[i] * std::sin(2 * kPi * fr[i] * f / kTargets + ph[i]);
    forwardKinematics(m, data, q);
    path.push_back(data.oMtool);
  }
  IkBranches br;
  auto restart = [&] {
    startBranches(m, path[0], br);
    if (puma) {
      IkSolutionSet cs;
      ikClosed(m, data, path[0], nullptr, cs);
      for (int s = 0; s < cs.count; ++s) addBranch(m, br, cs.sol(s).q.data());
    } else {
      IkSolutionSet g;
      ikGeneral6R(m, data, path[0], g);
      for (int s = 0; s < g.count; ++s) addBranch(m, br, g.sol(s).q.data());
    }
  };
  restart();
  std::vector<double> us;
  double alive = 0, newton = 0;
  for (int f = 1; f <= kTargets; ++f) {
    const auto t0 = std::chrono::steady_clock::now();
    trackBranches(m, data, path[f], br);
    const auto t1 = std::chrono::steady_clock::now();
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    for (int k = 0; k < br.count; ++k) alive += br.alive[k];
    newton += br.newton_steps;
  }
  std::vector<double> s = us;
  std::sort(s.begin(), s.end());
  int f = 1;
  for (auto _ : st) {
    trackBranches(m, data, path[f], br);
    if (++f > kTargets) {
      st.PauseTiming();
      restart();
      f = 1;
      st.ResumeTiming();
    }
  }
  st.counters["frames"] = kTargets;
  st.counters["median_us"] = s[s.size() / 2];
  st.counters["p99_us"] = s[(s.size() * 99) / 100];
  st.counters["branches_mean"] = alive / kTargets;
  st.counters["newton_per_frame"] = newton / kTargets;
}

BENCHMARK_CAPTURE(achainNumericArm6, general, "general")->Name("IK/general-6r/achain (numeric, no closed form)")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(achainTrackBranches, puma560, "puma560")->Name("IK-branches/puma560/achain-track (per frame)")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(achainTrackBranches, general, "general")->Name("IK-branches/general-6r/achain-track (per frame)")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(achainGeneral6R, general, "general")->Name("IK/general-6r/achain-general6r (all)")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(achainGeneral6R, ur5, "ur5")->Name("IK/ur5-type/achain-general6r (all)")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(achainClosed, puma560, "puma560")->Name("IK/puma560/achain-closed (all 8)")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(achainIkAllClosed, puma560, "puma560")->Name("IK/puma560/achain-ikAll-closed")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(achainNumeric, puma560, "puma560")->Name("IK/puma560/achain")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(achainTrack, puma560, "puma560")->Name("IK-track/puma560/achain")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(achainTrack, prototype4a, "prototype-4a")->Name("IK-track/prototype-4a/achain")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(achainClosed, prototype4a, "prototype-4a")->Name("IK/prototype-4a/achain-closed (all)")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(achainIkAllClosed, prototype4a, "prototype-4a")->Name("IK/prototype-4a/achain-ikAll-closed")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(achainNumeric, prototype4a, "prototype-4a")->Name("IK/prototype-4a/achain")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(achainAlgebraic, prototype4a, "prototype-4a")
    ->Name("IK/prototype-4a/achain-algebraic (40 targets)")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(achainSweep, prototype4a, "prototype-4a")->Name("IK/prototype-4a/achain-sweep (all)")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(achainSweep, general4a, "general-4a")->Name("IK/general-4a/achain-sweep (all)")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(achainAlgebraic, general4a, "general-4a")
    ->Name("IK/general-4a/achain-algebraic (40 targets)")
    ->Unit(benchmark::kMillisecond);

#ifdef ACHAIN_HAVE_KDL
struct KdlSetup {
  explicit KdlSetup(const Model& m)
      : chain(peers::toKdlChain(m)), fk(chain), vel(chain), qmin(m.nq), qmax(m.nq), qin(m.nq), qout(m.nq) {
    for (int i = 0; i < m.nq; ++i) {
      qmin(i) = m.joints[i].limits.lower;
      qmax(i) = m.joints[i].limits.upper;
    }
  }
  KDL::Chain chain;
  KDL::ChainFkSolverPos_recursive fk;
  KDL::ChainIkSolverVel_pinv vel;
  KDL::JntArray qmin, qmax, qin, qout;
};

KDL::Frame toFrame(const SE3& T) { return peers::toKdl(T); }

/// KDL returns unwrapped angles: shift each R joint by whole turns into its limits where possible
/// (the same pose), so the success count judges the solution, not its 2π representative.
void wrapIntoLimits(const Model& m, VecX& q) {
  for (int i = 0; i < m.nq; ++i) {
    const auto& L = m.joints[i].limits;
    for (int k = -3; k <= 3; ++k) {
      const double v = q[i] + 2 * kPi * k;
      if (v >= L.lower && v <= L.upper) {
        q[i] = v;
        break;
      }
    }
  }
}

void kdlNrJl(benchmark::State& st, const char* robot) {
  const Problem& p = problem(robot);
  KdlSetup s(p.model);
  KDL::ChainIkSolverPos_NR_JL solver(s.chain, s.qmin, s.qmax, s.fk, s.vel, 100, 1e-9);
  runIk(st, p, [&](int k, VecX& q) {
    s.qin.data = p.seeds[k];
    const int rc = solver.CartToJnt(s.qin, toFrame(p.targets[k]), s.qout);
    benchmark::DoNotOptimize(rc);
    q = s.qout.data;
    wrapIntoLimits(p.model, q);
    return true;  // judged by the pose error and the limits of the returned q, whatever the return code
  });
}

void kdlLma(benchmark::State& st, const char* robot) {
  const Problem& p = problem(robot);
  KdlSetup s(p.model);
  KDL::ChainIkSolverPos_LMA solver(s.chain, 1e-10, 500, 1e-15);
  runIk(st, p, [&](int k, VecX& q) {
    s.qin.data = p.seeds[k];
    const int rc = solver.CartToJnt(s.qin, toFrame(p.targets[k]), s.qout);
    benchmark::DoNotOptimize(rc);
    q = s.qout.data;
    wrapIntoLimits(p.model, q);
    return true;  // judged by the pose error and the limits of the returned q, whatever the return code
  });
}

BENCHMARK_CAPTURE(kdlNrJl, puma560, "puma560")->Name("IK/puma560/KDL NR_JL")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(kdlLma, puma560, "puma560")->Name("IK/puma560/KDL LMA")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(kdlNrJl, prototype4r, "prototype-4r")->Name("IK/prototype-4a/KDL NR_JL (4R twin)")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(kdlLma, prototype4r, "prototype-4r")->Name("IK/prototype-4a/KDL LMA (4R twin)")->Unit(benchmark::kMicrosecond);
#endif

}  // namespace
