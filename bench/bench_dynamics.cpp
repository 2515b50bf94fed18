// Dynamics benchmarks: RNEA, CRBA (mass matrix), forward dynamics and FK for puma560 and
// prototype-4a — achain native vs KDL (ChainIdSolver_RNE, ChainDynParam::JntToMass,
// ChainFdSolver_RNE) and MuJoCo (mj_rne, mj_crb + mj_fullM, mj_forward, mj_kinematics).
// KDL and MuJoCo have no A-pairs: their prototype-4a rows run the R twin (prototype-4r).
// achain rows include forward kinematics (every call starts from q); the MuJoCo rows include the
// position/velocity stages each function needs, and "(mj_rne only)" times mj_rne alone.
#include <benchmark/benchmark.h>

#include <random>

#include "dynamics/aba.hpp"
#include "dynamics/coriolis.hpp"
#include "dynamics/crba.hpp"
#include "dynamics/detail.hpp"
#include "dynamics/forward.hpp"
#include "dynamics/lee.hpp"
#include "dynamics/rnea.hpp"
#include "kdl_chain.hpp"
#include "mujoco_model.hpp"
#include "robots.hpp"
#ifdef ACHAIN_HAVE_KDL
#include <kdl/chaindynparam.hpp>
#include <kdl/chainfdsolver_recursive_newton_euler.hpp>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>
#endif

using namespace achain;

namespace {

struct States {
  std::vector<VecX> q, qd, qdd;
};
States states(const Model& m, int n = 256) {
  std::mt19937 rng(2);
  std::uniform_real_distribution<double> u(-1, 1);
  States s;
  for (int k = 0; k < n; ++k) {
    VecX q(m.nq), v(m.nq), a(m.nq);
    for (int i = 0; i < m.nq; ++i) {
      const auto& L = m.joints[i].limits;
      const double lo = std::isfinite(L.lower) ? L.lower : -3, hi = std::isfinite(L.upper) ? L.upper : 3;
      q[i] = lo + 0.5 * (u(rng) + 1) * (hi - lo);
      v[i] = u(rng);
      a[i] = u(rng);
    }
    s.q.push_back(q);
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

void achainRnea(benchmark::State& st, const char* robot) {
  const Model m = builtinModel(robot);
  DynamicsWorkspace ws(m);
  const States s = states(m);
  VecX tau(m.nv);
  DynamicsOptions o;
  size_t k = 0;
  for (auto _ : st) {
    const size_t i = k++ & 255;
    inverseDynamics(m, ws, s.q[i], s.qd[i], s.qdd[i], o, tau);
    benchmark::DoNotOptimize(tau.data());
  }
}
/// The recursion alone, forward kinematics already done (compare with "mj_rne only").
void achainRneaNoFk(benchmark::State& st, const char* robot) {
  const Model m = builtinModel(robot);
  DynamicsWorkspace ws(m);
  const States s = states(m);
  VecX tau(m.nv);
  forwardKinematics(m, ws.data, s.q[0]);
  const Vec3 g = m.gravity;
  size_t k = 0;
  for (auto _ : st) {
    const size_t i = k++ & 255;
    dyn_detail::rnea(m, ws, s.q[0], s.qd[i], s.qdd[i], g, LegModel::Full, dyn_detail::Parts{}, tau, false);
    benchmark::DoNotOptimize(tau.data());
  }
}
/// prototype-4a with massless legs: the same work as the peers' R twin plus the A-pair terms.
void achainRneaMassless(benchmark::State& st, const char* robot) {
  const Model m = builtinModel(robot);
  DynamicsWorkspace ws(m);
  const States s = states(m);
  VecX tau(m.nv);
  DynamicsOptions o;
  o.legs = LegModel::Massless;
  size_t k = 0;
  for (auto _ : st) {
    const size_t i = k++ & 255;
    inverseDynamics(m, ws, s.q[i], s.qd[i], s.qdd[i], o, tau);
    benchmark::DoNotOptimize(tau.data());
  }
}
void achainCrba(benchmark::State& st, const char* robot) {
  const Model m = builtinModel(robot);
  DynamicsWorkspace ws(m);
  const States s = states(m);
  MatX M(m.nv, m.nv);
  DynamicsOptions o;
  size_t k = 0;
  for (auto _ : st) {
    massMatrix(m, ws, s.q[k++ & 255], o, M);
    benchmark::DoNotOptimize(M.data());
  }
}
void achainFd(benchmark::State& st, const char* robot) {
  const Model m = builtinModel(robot);
  DynamicsWorkspace ws(m);
  const States s = states(m);
  VecX qdd(m.nv);
  DynamicsOptions o;
  o.motors = std::string(robot) == "puma560";  // puma560 link 1 moves no mass without its rotor
  size_t k = 0;
  for (auto _ : st) {
    const size_t i = k++ & 255;
    forwardDynamics(m, ws, s.q[i], s.qd[i], s.qdd[i], o, qdd);
    benchmark::DoNotOptimize(qdd.data());
  }
}
void achainAba(benchmark::State& st, const char* robot) {
  const Model m = builtinModel(robot);
  DynamicsWorkspace ws(m);
  const States s = states(m);
  VecX qdd(m.nv);
  DynamicsOptions o;
  o.motors = std::string(robot) == "puma560";
  o.legs = LegModel::Massless;  // ABA cannot take the full leg model
  size_t k = 0;
  for (auto _ : st) {
    const size_t i = k++ & 255;
    forwardDynamicsABA(m, ws, s.q[i], s.qd[i], s.qdd[i], o, qdd);
    benchmark::DoNotOptimize(qdd.data());
  }
}
void achainFdMassless(benchmark::State& st, const char* robot) {
  const Model m = builtinModel(robot);
  DynamicsWorkspace ws(m);
  const States s = states(m);
  VecX qdd(m.nv);
  DynamicsOptions o;
  o.legs = LegModel::Massless;
  size_t k = 0;
  for (auto _ : st) {
    const size_t i = k++ & 255;
    forwardDynamics(m, ws, s.q[i], s.qd[i], s.qdd[i], o, qdd);
    benchmark::DoNotOptimize(qdd.data());
  }
}
void achainCoriolis(benchmark::State& st, const char* robot) {
  const Model m = builtinModel(robot);
  DynamicsWorkspace ws(m);
  const States s = states(m);
  MatX C(m.nv, m.nv);
  DynamicsOptions o;
  size_t k = 0;
  for (auto _ : st) {
    const size_t i = k++ & 255;
    coriolisMatrix(m, ws, s.q[i], s.qd[i], o, C);
    benchmark::DoNotOptimize(C.data());
  }
}
void achainLee(benchmark::State& st, const char* robot) {
  const Model m = builtinModel(robot);
  DynamicsWorkspace ws(m);
  const States s = states(m);
  VecX tau(m.nv);
  LeeTerms terms;
  DynamicsOptions o;
  size_t k = 0;
  for (auto _ : st) {
    const size_t i = k++ & 255;
    leeInverseDynamics(m, ws, s.q[i], s.qd[i], s.qdd[i], o, LeeOptions{}, terms, tau);
    benchmark::DoNotOptimize(tau.data());
  }
}
#define ACHAIN_BENCH(fn, op, robot, tag) \
  BENCHMARK_CAPTURE(fn, tag, robot)->Name(std::string(op) + "/" + robot + "/achain")
ACHAIN_BENCH(achainRnea, "RNEA", "puma560", p1);
ACHAIN_BENCH(achainRnea, "RNEA", "prototype-4a", p2);
BENCHMARK_CAPTURE(achainRneaNoFk, n1, "puma560")->Name("RNEA/puma560/achain (FK done)");
BENCHMARK_CAPTURE(achainRneaNoFk, n2, "prototype-4a")->Name("RNEA/prototype-4a/achain (FK done)");
BENCHMARK_CAPTURE(achainRneaMassless, n3, "prototype-4a")->Name("RNEA/prototype-4a/achain (legs massless)");
ACHAIN_BENCH(achainCrba, "CRBA", "puma560", p3);
ACHAIN_BENCH(achainCrba, "CRBA", "prototype-4a", p4);
ACHAIN_BENCH(achainFd, "ForwardDynamics", "puma560", p5);
ACHAIN_BENCH(achainFd, "ForwardDynamics", "prototype-4a", p6);
BENCHMARK_CAPTURE(achainAba, a1, "puma560")->Name("ForwardDynamics/puma560/achain (ABA)");
BENCHMARK_CAPTURE(achainAba, a2, "prototype-4a")->Name("ForwardDynamics/prototype-4a/achain (ABA, legs massless)");
BENCHMARK_CAPTURE(achainFdMassless, a3, "prototype-4a")->Name("ForwardDynamics/prototype-4a/achain (legs massless)");
ACHAIN_BENCH(achainCoriolis, "CoriolisMatrix", "puma560", p7);
ACHAIN_BENCH(achainCoriolis, "CoriolisMatrix", "prototype-4a", p8);
ACHAIN_BENCH(achainLee, "LeeGD", "puma560", p9);
ACHAIN_BENCH(achainLee, "LeeGD", "prototype-4a", p10);

#ifdef ACHAIN_HAVE_KDL
KDL::JntArray kdl(const VecX& v) {
  KDL::JntArray a(v.size());
  a.data = v;
  return a;
}
struct KdlStates {
  std::vector<KDL::JntArray> q, qd, qdd;
  explicit KdlStates(const States& s) {
    for (size_t i = 0; i < s.q.size(); ++i) {
      q.push_back(kdl(s.q[i]));
      qd.push_back(kdl(s.qd[i]));
      qdd.push_back(kdl(s.qdd[i]));
    }
  }
};
void kdlRnea(benchmark::State& st, const char* robot) {
  const Model m = builtinModel(peerRobot(robot));
  const KDL::Chain chain = peers::toKdlChain(m);
  KDL::ChainIdSolver_RNE id(chain, KDL::Vector(m.gravity.x(), m.gravity.y(), m.gravity.z()));
  const KdlStates s(states(m));
  KDL::Wrenches f(chain.getNrOfSegments(), KDL::Wrench::Zero());
  KDL::JntArray tau(m.nv);
  size_t k = 0;
  for (auto _ : st) {
    const size_t i = k++ & 255;
    id.CartToJnt(s.q[i], s.qd[i], s.qdd[i], f, tau);
    benchmark::DoNotOptimize(tau.data.data());
  }
}
void kdlMass(benchmark::State& st, const char* robot) {
  const Model m = builtinModel(peerRobot(robot));
  const KDL::Chain chain = peers::toKdlChain(m);
  KDL::ChainDynParam dp(chain, KDL::Vector(m.gravity.x(), m.gravity.y(), m.gravity.z()));
  const KdlStates s(states(m));
  KDL::JntSpaceInertiaMatrix H(m.nv);
  size_t k = 0;
  for (auto _ : st) {
    dp.JntToMass(s.q[k++ & 255], H);
    benchmark::DoNotOptimize(H.data.data());
  }
}
void kdlFd(benchmark::State& st, const char* robot) {
  const Model m = builtinModel(peerRobot(robot));
  const KDL::Chain chain = peers::toKdlChain(m);
  KDL::ChainFdSolver_RNE fd(chain, KDL::Vector(m.gravity.x(), m.gravity.y(), m.gravity.z()));
  const KdlStates s(states(m));
  KDL::Wrenches f(chain.getNrOfSegments(), KDL::Wrench::Zero());
  KDL::JntArray qdd(m.nv);
  size_t k = 0;
  for (auto _ : st) {
    const size_t i = k++ & 255;
    fd.CartToJnt(s.q[i], s.qd[i], s.qdd[i], f, qdd);
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
    w.load(k++ & 255, true);
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
    w.load(k++ & 255);
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
    const size_t i = k++ & 255;
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
    w.load(k++ & 255);
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
