// Dynamics benchmarks: RNEA, CRBA (mass matrix), forward dynamics and FK for puma560 and
// prototype-4a — achain native vs KDL (ChainIdSolver_RNE, ChainDynParam::JntToMass,
// ChainFdSolver_RNE) and MuJoCo (mj_rne, mj_crb + mj_fullM, mj_forward, mj_kinematics).
// KDL and MuJoCo have no A-pairs: their prototype-4a rows run the R twin (prototype-4r).
// achain rows include forward kinematics (every call starts from q); the MuJoCo rows include the
// position/velocity stages each function needs, and "(mj_rne only)" times mj_rne alone.
#include <benchmark/benchmark.h>

#include <random>

#include "bench_common.hpp"
#include <achain/dynamics/aba.hpp>
#include <achain/dynamics/coriolis.hpp>
#include <achain/dynamics/crba.hpp>
#include "../core/src/dynamics/detail.hpp"
#include <achain/dynamics/forward.hpp>
#include <achain/dynamics/lee.hpp>
#include <achain/dynamics/rnea.hpp>
#include "kdl_chain.hpp"
#include "mujoco_model.hpp"
#include <achain/io/robot.hpp>
#include <achain/dynamics/batch.hpp>
#ifdef ACHAIN_HAVE_KDL
#include <kdl/chaindynparam.hpp>
#include <kdl/chainfdsolver_recursive_newton_euler.hpp>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>
#endif

using namespace achain;

namespace {

struct States {
  std::vector<VecX> q, qd, qdd;  ///< q inside the limits; qd, qdd uniform in [-1, 1]
};
States states(const Model& m) {
  States s;
  s.q = bench::configurations(m, 2);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int k = 0; k < bench::kStates; ++k) {
    VecX v(m.nv), a(m.nv);
    for (int i = 0; i < m.nv; ++i) {
      v[i] = u(rng);
      a[i] = u(rng);
    }
    s.qd.push_back(v);
    s.qdd.push_back(a);
  }
  return s;
}

/// The peers' stand-in for a robot: the R twin for the A-chain prototype.
const char* peerRobot(const char* robot) { return std::string(robot) == "prototype-4a" ? "prototype-4r" : robot; }
std::string peerName(const char* op, const char* robot, const char* impl) {
  std::string s = std::string(op) + "/" + robot + "/" + impl;
  if (std::string(robot) == "prototype-4a") s += " (4R twin)";
  return s;
}

/// What an achain row starts from: the model, its workspace, the states and the options.
struct Setup {
  Model m;
  Data data;
  States s;
  DynamicsOptions o;
  explicit Setup(const char* robot, LegModel legs = LegModel::Full) : m(builtinModel(robot)), data(m), s(states(m)) {
    o.legs = legs;
  }
};

/// With massless legs, prototype-4a does the same work as the peers' R twin plus the A-pair terms.
void achainRnea(benchmark::State& st, const char* robot, LegModel legs = LegModel::Full) {
  Setup w(robot, legs);
  VecX tau(w.m.nv);
  size_t k = 0;
  for (auto _ : st) {
    const size_t i = k++ % bench::kStates;
    inverseDynamics(w.m, w.data, w.s.q[i], w.s.qd[i], w.s.qdd[i], w.o, tau);
    benchmark::DoNotOptimize(tau.data());
  }
}
/// The recursion alone, forward kinematics already done (compare with "mj_rne only").
void achainRneaNoFk(benchmark::State& st, const char* robot) {
  Setup w(robot);
  VecX tau(w.m.nv);
  forwardKinematics(w.m, w.data, w.s.q[0]);
  const Vec3 g = w.m.gravity;
  size_t k = 0;
  for (auto _ : st) {
    const size_t i = k++ % bench::kStates;
    dyn_detail::rnea(w.m, w.data, w.s.q[0], w.s.qd[i], w.s.qdd[i], g, LegModel::Full, dyn_detail::Parts{}, tau, false);
    benchmark::DoNotOptimize(tau.data());
  }
}
void achainCrba(benchmark::State& st, const char* robot) {
  Setup w(robot);
  MatX M(w.m.nv, w.m.nv);
  size_t k = 0;
  for (auto _ : st) {
    massMatrix(w.m, w.data, w.s.q[k++ % bench::kStates], w.o, M);
    benchmark::DoNotOptimize(M.data());
  }
}
/// Cholesky of the mass matrix, or ABA (which cannot take the full leg model).
void achainFd(benchmark::State& st, const char* robot, LegModel legs = LegModel::Full, bool aba = false) {
  Setup w(robot, legs);
  w.o.motors = std::string(robot) == "puma560";  // puma560 link 1 moves no mass without its rotor
  VecX qdd(w.m.nv);
  size_t k = 0;
  for (auto _ : st) {
    const size_t i = k++ % bench::kStates;
    if (aba)
      forwardDynamicsABA(w.m, w.data, w.s.q[i], w.s.qd[i], w.s.qdd[i], w.o, qdd);
    else
      forwardDynamics(w.m, w.data, w.s.q[i], w.s.qd[i], w.s.qdd[i], w.o, qdd);
    benchmark::DoNotOptimize(qdd.data());
  }
}
void achainCoriolis(benchmark::State& st, const char* robot) {
  Setup w(robot);
  MatX C(w.m.nv, w.m.nv);
  size_t k = 0;
  for (auto _ : st) {
    const size_t i = k++ % bench::kStates;
    coriolisMatrix(w.m, w.data, w.s.q[i], w.s.qd[i], w.o, C);
    benchmark::DoNotOptimize(C.data());
  }
}
void achainLee(benchmark::State& st, const char* robot) {
  Setup w(robot);
  VecX tau(w.m.nv);
  LeeTerms terms;
  size_t k = 0;
  for (auto _ : st) {
    const size_t i = k++ % bench::kStates;
    leeInverseDynamics(w.m, w.data, w.s.q[i], w.s.qd[i], w.s.qdd[i], w.o, LeeOptions{}, terms, tau);
    benchmark::DoNotOptimize(tau.data());
  }
}
enum class BatchOp { Rnea, Crba, Fd };
/// Batch RNEA, CRBA or forward dynamics (dynamics/batch.hpp) over the kStates states in one call, timed per
/// state (bench::batchPerState).
/// The same work as the single rows achainRnea, achainCrba, achainFd (full legs; FD with puma560's motors).
void achainBatch(benchmark::State& st, const char* robot, BatchPath path, BatchOp op = BatchOp::Rnea) {
  Setup w(robot);
  if (op == BatchOp::Fd) w.o.motors = std::string(robot) == "puma560";  // as achainFd
  const int n = w.m.nv;
  std::vector<double> q, qd, qdd, out(static_cast<size_t>(n) * n * bench::kStates);
  for (int k = 0; k < bench::kStates; ++k)
    for (int i = 0; i < n; ++i) {
      q.push_back(w.s.q[k][i]);
      qd.push_back(w.s.qd[k][i]);
      qdd.push_back(w.s.qdd[k][i]);
    }
  bench::batchPerState(st, path, [&] {
    if (op == BatchOp::Rnea)
      inverseDynamicsSeries(w.m, w.data, bench::kStates, q.data(), qd.data(), qdd.data(), w.o, out.data(), path);
    else if (op == BatchOp::Crba)
      massMatrixSeries(w.m, w.data, bench::kStates, q.data(), w.o, out.data(), path);
    else  // q̈ numbers as τ, as achainFd
      forwardDynamicsSeries(w.m, w.data, bench::kStates, q.data(), qd.data(), qdd.data(), w.o, out.data(), path);
    benchmark::DoNotOptimize(out.data());
  });
}
BENCHMARK_CAPTURE(achainBatch, b1, "puma560", BatchPath::Auto)->Name("RNEA/puma560/achain batch (per state)");
BENCHMARK_CAPTURE(achainBatch, b2, "prototype-4a", BatchPath::Auto)->Name("RNEA/prototype-4a/achain batch (per state)");
BENCHMARK_CAPTURE(achainBatch, b3, "puma560", BatchPath::Baseline)->Name("RNEA/puma560/achain batch baseline x86-64 (per state)");
BENCHMARK_CAPTURE(achainBatch, b4, "prototype-4a", BatchPath::Baseline)->Name("RNEA/prototype-4a/achain batch baseline x86-64 (per state)");
BENCHMARK_CAPTURE(achainBatch, c1, "puma560", BatchPath::Auto, BatchOp::Crba)->Name("CRBA/puma560/achain batch (per state)");
BENCHMARK_CAPTURE(achainBatch, c2, "prototype-4a", BatchPath::Auto, BatchOp::Crba)->Name("CRBA/prototype-4a/achain batch (per state)");
BENCHMARK_CAPTURE(achainBatch, c3, "puma560", BatchPath::Baseline, BatchOp::Crba)->Name("CRBA/puma560/achain batch baseline x86-64 (per state)");
BENCHMARK_CAPTURE(achainBatch, c4, "prototype-4a", BatchPath::Baseline, BatchOp::Crba)->Name("CRBA/prototype-4a/achain batch baseline x86-64 (per state)");
BENCHMARK_CAPTURE(achainBatch, f1, "puma560", BatchPath::Auto, BatchOp::Fd)->Name("ForwardDynamics/puma560/achain batch (per state)");
BENCHMARK_CAPTURE(achainBatch, f2, "prototype-4a", BatchPath::Auto, BatchOp::Fd)->Name("ForwardDynamics/prototype-4a/achain batch (per state)");
BENCHMARK_CAPTURE(achainBatch, f3, "puma560", BatchPath::Baseline, BatchOp::Fd)->Name("ForwardDynamics/puma560/achain batch baseline x86-64 (per state)");
BENCHMARK_CAPTURE(achainBatch, f4, "prototype-4a", BatchPath::Baseline, BatchOp::Fd)->Name("ForwardDynamics/prototype-4a/achain batch baseline x86-64 (per state)");

#define ACHAIN_BENCH(fn, op, robot, tag) \
  BENCHMARK_CAPTURE(fn, tag, robot)->Name(std::string(op) + "/" + robot + "/achain")
ACHAIN_BENCH(achainRnea, "RNEA", "puma560", p1);
ACHAIN_BENCH(achainRnea, "RNEA", "prototype-4a", p2);
BENCHMARK_CAPTURE(achainRneaNoFk, n1, "puma560")->Name("RNEA/puma560/achain (FK done)");
BENCHMARK_CAPTURE(achainRneaNoFk, n2, "prototype-4a")->Name("RNEA/prototype-4a/achain (FK done)");
BENCHMARK_CAPTURE(achainRnea, n3, "prototype-4a", LegModel::Massless)->Name("RNEA/prototype-4a/achain (legs massless)");
ACHAIN_BENCH(achainCrba, "CRBA", "puma560", p3);
ACHAIN_BENCH(achainCrba, "CRBA", "prototype-4a", p4);
ACHAIN_BENCH(achainFd, "ForwardDynamics", "puma560", p5);
ACHAIN_BENCH(achainFd, "ForwardDynamics", "prototype-4a", p6);
BENCHMARK_CAPTURE(achainFd, a1, "puma560", LegModel::Massless, true)->Name("ForwardDynamics/puma560/achain (ABA)");
BENCHMARK_CAPTURE(achainFd, a2, "prototype-4a", LegModel::Massless, true)->Name("ForwardDynamics/prototype-4a/achain (ABA, legs massless)");
BENCHMARK_CAPTURE(achainFd, a3, "prototype-4a", LegModel::Massless)->Name("ForwardDynamics/prototype-4a/achain (legs massless)");
ACHAIN_BENCH(achainCoriolis, "CoriolisMatrix", "puma560", p7);
ACHAIN_BENCH(achainCoriolis, "CoriolisMatrix", "prototype-4a", p8);
ACHAIN_BENCH(achainLee, "LeeGD", "puma560", p9);
ACHAIN_BENCH(achainLee, "LeeGD", "prototype-4a", p10);

#ifdef ACHAIN_HAVE_KDL
/// What a KDL row starts from: the peer model, its chain, gravity and the states as KDL arrays.
struct KdlSetup {
  Model m;
  KDL::Chain chain;
  KDL::Vector gravity;
  std::vector<KDL::JntArray> q, qd, qdd;
  explicit KdlSetup(const char* robot)
      : m(builtinModel(peerRobot(robot))), chain(peers::toKdlChain(m)), gravity(m.gravity.x(), m.gravity.y(), m.gravity.z()) {
    const States s = states(m);
    q = bench::kdlArrays(s.q);
    qd = bench::kdlArrays(s.qd);
    qdd = bench::kdlArrays(s.qdd);
  }
};
void kdlRnea(benchmark::State& st, const char* robot) {
  const KdlSetup w(robot);
  KDL::ChainIdSolver_RNE id(w.chain, w.gravity);
  KDL::Wrenches f(w.chain.getNrOfSegments(), KDL::Wrench::Zero());
  KDL::JntArray tau(w.m.nv);
  size_t k = 0;
  for (auto _ : st) {
    const size_t i = k++ % bench::kStates;
    id.CartToJnt(w.q[i], w.qd[i], w.qdd[i], f, tau);
    benchmark::DoNotOptimize(tau.data.data());
  }
}
void kdlMass(benchmark::State& st, const char* robot) {
  const KdlSetup w(robot);
  KDL::ChainDynParam dp(w.chain, w.gravity);
  KDL::JntSpaceInertiaMatrix H(w.m.nv);
  size_t k = 0;
  for (auto _ : st) {
    dp.JntToMass(w.q[k++ % bench::kStates], H);
    benchmark::DoNotOptimize(H.data.data());
  }
}
void kdlFd(benchmark::State& st, const char* robot) {
  const KdlSetup w(robot);
  KDL::ChainFdSolver_RNE fd(w.chain, w.gravity);
  KDL::Wrenches f(w.chain.getNrOfSegments(), KDL::Wrench::Zero());
  KDL::JntArray qdd(w.m.nv);
  size_t k = 0;
  for (auto _ : st) {
    const size_t i = k++ % bench::kStates;
    fd.CartToJnt(w.q[i], w.qd[i], w.qdd[i], f, qdd);
    benchmark::DoNotOptimize(qdd.data.data());
  }
}
#define PEER_BENCH(fn, op, robot, impl, tag) BENCHMARK_CAPTURE(fn, tag, robot)->Name(peerName(op, robot, impl))
PEER_BENCH(kdlRnea, "RNEA", "puma560", "KDL", k1);
PEER_BENCH(kdlRnea, "RNEA", "prototype-4a", "KDL", k2);
PEER_BENCH(kdlMass, "CRBA", "puma560", "KDL", k3);
PEER_BENCH(kdlMass, "CRBA", "prototype-4a", "KDL", k4);
PEER_BENCH(kdlFd, "ForwardDynamics", "puma560", "KDL", k5);
PEER_BENCH(kdlFd, "ForwardDynamics", "prototype-4a", "KDL", k6);
#endif

#ifdef ACHAIN_HAVE_MUJOCO
struct Mj {
  Model m;
  mjModel* mm;
  mjData* md;
  States s;
  explicit Mj(const char* robot, bool armature = false) : m(builtinModel(peerRobot(robot))), s(states(m)) {
    Model mj = m;
    if (mj.name == "puma560") {  // see tests/peers: MuJoCo needs physical inertias
      mj.joints[0].link.inertia = 0.35 * Mat3::Identity();
      mj.joints[0].link.mass = 1.0;
      mj.joints[2].link.inertia(1, 1) = 0.066 + 0.0125;
      mj.finalize();
    }
    mm = peers::toMujoco(mj, armature);
    md = mj_makeData(mm);
  }
  ~Mj() {
    mj_deleteData(md);
    mj_deleteModel(mm);
  }
  void load(size_t i, bool acc = false) {
    for (int j = 0; j < m.nv; ++j) {
      md->qpos[j] = s.q[i][j];
      md->qvel[j] = s.qd[i][j];
      if (acc) md->qacc[j] = s.qdd[i][j];
    }
  }
};
void mjRne(benchmark::State& st, const char* robot) {
  Mj w(robot);
  std::vector<double> res(w.m.nv);
  size_t k = 0;
  for (auto _ : st) {
    w.load(k++ % bench::kStates, true);
    mj_kinematics(w.mm, w.md);
    mj_comPos(w.mm, w.md);
    mj_comVel(w.mm, w.md);
    mj_rne(w.mm, w.md, 1, res.data());
    benchmark::DoNotOptimize(res.data());
  }
}
void mjRneOnly(benchmark::State& st, const char* robot) {
  Mj w(robot);
  std::vector<double> res(w.m.nv);
  w.load(0, true);
  mj_forward(w.mm, w.md);
  for (auto _ : st) {
    mj_rne(w.mm, w.md, 1, res.data());
    benchmark::DoNotOptimize(res.data());
  }
}
void mjCrb(benchmark::State& st, const char* robot) {
  Mj w(robot);
  std::vector<double> M(w.m.nv * w.m.nv);
  size_t k = 0;
  for (auto _ : st) {
    w.load(k++ % bench::kStates);
    mj_kinematics(w.mm, w.md);
    mj_comPos(w.mm, w.md);
    mj_crb(w.mm, w.md);
    mj_fullM(w.mm, M.data(), w.md->qM);
    benchmark::DoNotOptimize(M.data());
  }
}
void mjFd(benchmark::State& st, const char* robot) {
  Mj w(robot, std::string(robot) == "puma560");
  size_t k = 0;
  for (auto _ : st) {
    const size_t i = k++ % bench::kStates;
    w.load(i);
    for (int j = 0; j < w.m.nv; ++j) w.md->qfrc_applied[j] = w.s.qdd[i][j];
    mj_forward(w.mm, w.md);
    benchmark::DoNotOptimize(w.md->qacc);
  }
}
void mjFk(benchmark::State& st, const char* robot) {
  Mj w(robot);
  size_t k = 0;
  for (auto _ : st) {
    w.load(k++ % bench::kStates);
    mj_kinematics(w.mm, w.md);
    benchmark::DoNotOptimize(w.md->xpos);
  }
}
PEER_BENCH(mjRne, "RNEA", "puma560", "MuJoCo", m1);
PEER_BENCH(mjRne, "RNEA", "prototype-4a", "MuJoCo", m2);
PEER_BENCH(mjRneOnly, "RNEA", "puma560", "MuJoCo (mj_rne only)", m3);
PEER_BENCH(mjRneOnly, "RNEA", "prototype-4a", "MuJoCo (mj_rne only)", m4);
PEER_BENCH(mjCrb, "CRBA", "puma560", "MuJoCo", m5);
PEER_BENCH(mjCrb, "CRBA", "prototype-4a", "MuJoCo", m6);
PEER_BENCH(mjFd, "ForwardDynamics", "puma560", "MuJoCo", m7);
PEER_BENCH(mjFd, "ForwardDynamics", "prototype-4a", "MuJoCo", m8);
PEER_BENCH(mjFk, "FK", "puma560", "MuJoCo", m9);
PEER_BENCH(mjFk, "FK", "prototype-4a", "MuJoCo", m10);
#endif

}  // namespace
