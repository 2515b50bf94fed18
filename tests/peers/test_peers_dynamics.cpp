// Cross-checks against Orocos KDL and MuJoCo on ≥ 50 random states (relative 1e-9):
// puma560 FK, RNEA, M, C q̇, g and forward dynamics; MuJoCo also with armature (= achain motors)
// and on a random R/P tree. A/H joints have no peer equivalent; the A-pair dynamics is checked
// against Robinson's equations in tests/core/dynamics/test_dynamics_thesis.cpp.
#include <catch2/catch.hpp>
#include <Eigen/SVD>
#include <random>

#include <achain/dynamics/crba.hpp>
#include <achain/dynamics/forward.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/kinematics/fk.hpp>
#include "helpers.hpp"
#include <achain/io/robot.hpp>
#ifdef ACHAIN_HAVE_KDL
#include <kdl/chaindynparam.hpp>
#include <kdl/chainfdsolver_recursive_newton_euler.hpp>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>

#include "kdl_chain.hpp"
#endif
#ifdef ACHAIN_HAVE_MUJOCO
#include "mujoco_model.hpp"
#endif

using namespace achain;

namespace {

constexpr int kStates = 60;

double rel(const VecX& a, const VecX& b) { return (a - b).cwiseAbs().maxCoeff() / std::max(1e-300, b.cwiseAbs().maxCoeff()); }
double relM(const MatX& a, const MatX& b) { return (a - b).cwiseAbs().maxCoeff() / std::max(1e-300, b.cwiseAbs().maxCoeff()); }

VecX randomVec(std::mt19937& rng, int n, double s) {
  std::uniform_real_distribution<double> u(-s, s);
  VecX v(n);
  for (int i = 0; i < n; ++i) v[i] = u(rng);
  return v;
}

/// A random R/P chain (tree when tree = true) with random mass properties, for the peers.
Model randomRPModel(std::mt19937& rng, int n, bool tree) {
  std::uniform_real_distribution<double> u(-1, 1), pos(0.2, 1.0);
  Model m;
  m.name = "random-rp";
  m.gravity = Vec3(0.5 * u(rng), 0.5 * u(rng), -9.81);
  for (int i = 0; i < n; ++i) {
    Joint j;
    j.name = "j" + std::to_string(i);
    j.kind = u(rng) > -0.5 ? JointKind::R : JointKind::P;
    j.parent = tree ? std::uniform_int_distribution<int>(-1, i - 1)(rng) : i - 1;
    j.a = 0.3 * u(rng);
    j.alpha = 1.5 * u(rng);
    j.d = 0.3 * u(rng);
    j.theta_f = u(rng);
    j.sign = u(rng) > 0 ? 1 : -1;
    j.link.mass = 0.5 + pos(rng);
    j.link.com = Vec3(0.2 * u(rng), 0.2 * u(rng), 0.2 * u(rng));
    // Physical inertia (triangle inequality holds): principal (b+c, a+c, a+b), random axes.
    const double a = 0.01 * pos(rng), b = 0.01 * pos(rng), c = 0.01 * pos(rng);
    const Mat3 R = rpyToMatrix(3 * u(rng), 3 * u(rng), 3 * u(rng));
    j.link.inertia = R * Vec3(b + c, a + c, a + b).asDiagonal() * R.transpose();
    j.motor.present = true;
    j.motor.rotor_inertia = 1e-4 * pos(rng);
    j.motor.gear_ratio = 80 * u(rng);
    m.joints.push_back(j);
  }
  m.finalize();
  return m;
}

}  // namespace

#ifdef ACHAIN_HAVE_KDL
namespace {
KDL::JntArray kdl(const VecX& v) {
  KDL::JntArray a(v.size());
  a.data = v;
  return a;
}
}  // namespace

TEST_CASE("KDL: puma560 FK, RNEA (with a tool wrench), M, C q̇, g and forward dynamics agree to 1e-9", "[peers][kdl]") {
  const Model m = builtinModel("puma560");
  const KDL::Chain chain = peers::toKdlChain(m);
  const KDL::Vector grav(m.gravity.x(), m.gravity.y(), m.gravity.z());
  KDL::ChainFkSolverPos_recursive fk(chain);
  KDL::ChainIdSolver_RNE id(chain, grav);
  KDL::ChainDynParam dp(chain, grav);
  KDL::ChainFdSolver_RNE fd(chain, grav);
  Data data(m);
  const int n = m.nv;
  std::mt19937 rng(101);
  VecX tau(n), g(n), qdd2(n);
  MatX M(n, n);
  for (int k = 0; k < kStates; ++k) {
    const VecX q = test::randomConfiguration(m, rng), qd = randomVec(rng, n, 2), qdd = randomVec(rng, n, 3);
    // FK
    KDL::Frame F;
    fk.JntToCart(kdl(q), F);
    forwardKinematics(m, data, q);
    for (int r = 0; r < 3; ++r) {
      CHECK(std::abs(F.p(r) - data.oMtool.p[r]) < 1e-12);
      for (int c = 0; c < 3; ++c) CHECK(std::abs(F.M(r, c) - data.oMtool.R(r, c)) < 1e-12);
    }
    // RNEA with a wrench the tool exerts on the environment (KDL: f_ext = −that, tool frame).
    DynamicsOptions o;
    o.use_wrench = true;
    o.wrench_frame = WrenchFrame::Tool;
    o.wrench = randomVec(rng, 6, 10);
    KDL::Wrenches fext(chain.getNrOfSegments(), KDL::Wrench::Zero());
    fext.back() = KDL::Wrench(KDL::Vector(-o.wrench[0], -o.wrench[1], -o.wrench[2]),
                              KDL::Vector(-o.wrench[3], -o.wrench[4], -o.wrench[5]));
    KDL::JntArray kt(n);
    REQUIRE(id.CartToJnt(kdl(q), kdl(qd), kdl(qdd), fext, kt) >= 0);
    inverseDynamics(m, data, q, qd, qdd, o, tau);
    CHECK(rel(tau, kt.data) < 1e-9);
    // M, C q̇, g
    KDL::JntSpaceInertiaMatrix H(n);
    dp.JntToMass(kdl(q), H);
    DynamicsOptions plain;
    massMatrix(m, data, q, plain, M);
    CHECK(relM(M, H.data) < 1e-9);
    KDL::JntArray cor(n), grv(n);
    dp.JntToCoriolis(kdl(q), kdl(qd), cor);
    plain.override_gravity = true;  // zero gravity: C q̇ alone
    inverseDynamics(m, data, q, qd, VecX::Zero(n), plain, tau);
    CHECK(rel(tau, cor.data) < 1e-9);
    dp.JntToGravity(kdl(q), grv);
    plain.override_gravity = false;
    gravityTorques(m, data, q, plain, g);
    CHECK(rel(g, grv.data) < 1e-9);
    // Forward dynamics: puma560 link 1 has no mass but Iyy about its axis, so M is regular.
    const VecX t = randomVec(rng, n, 20);
    KDL::JntArray kq(n);
    KDL::Wrenches zero(chain.getNrOfSegments(), KDL::Wrench::Zero());
    REQUIRE(fd.CartToJnt(kdl(q), kdl(qd), kdl(t), zero, kq) >= 0);
    forwardDynamics(m, data, q, qd, t, plain, qdd2);
    CHECK(rel(qdd2, kq.data) < 1e-9);
  }
}
#endif

#ifdef ACHAIN_HAVE_MUJOCO
namespace {
/// `mj` is the model given to MuJoCo (equal to m up to dynamically inert changes).
void mujocoCompare(const Model& m, bool armature, int seed, const Model* mj = nullptr) {
  mjModel* mm = peers::toMujoco(mj ? *mj : m, armature);
  mjData* md = mj_makeData(mm);
  Data data(m);
  const int n = m.nv;
  REQUIRE(mm->nv == n);
  std::mt19937 rng(seed);
  VecX tau(n), qdd2(n), res(n);
  MatX M(n, n), Mmj(n, n);
  DynamicsOptions o;
  o.motors = armature;
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> full(n, n);
  // MuJoCo numbers bodies and dofs depth-first; map achain joint i to MuJoCo dof / site by name.
  std::vector<int> dof(n), site(n);
  for (int i = 0; i < n; ++i) {
    const int jid = mj_name2id(mm, mjOBJ_JOINT, m.joints[i].name.c_str());
    REQUIRE(jid >= 0);
    dof[i] = mm->jnt_dofadr[jid];
    site[i] = mj_name2id(mm, mjOBJ_SITE, ("link" + std::to_string(i)).c_str());
    REQUIRE(site[i] >= 0);
  }
  for (int k = 0; k < kStates; ++k) {
    const VecX q = test::randomConfiguration(m, rng), qd = randomVec(rng, n, 2), qdd = randomVec(rng, n, 3);
    for (int i = 0; i < n; ++i) {
      md->qpos[dof[i]] = q[i];
      md->qvel[dof[i]] = qd[i];
      md->qfrc_applied[dof[i]] = 0;
    }
    mj_forward(mm, md);
    // FK: the site of link i is the achain link frame.
    forwardKinematics(m, data, q);
    for (int i = 0; i < m.njoints(); ++i)
      for (int r = 0; r < 3; ++r) {
        INFO("link " << i);
        CHECK(std::abs(md->site_xpos[3 * site[i] + r] - data.oMi[i].p[r]) < 1e-12);
        for (int c = 0; c < 3; ++c) CHECK(std::abs(md->site_xmat[9 * site[i] + 3 * r + c] - data.oMi[i].R(r, c)) < 1e-12);
      }
    // Mass matrix.
    mj_fullM(mm, full.data(), md->qM);
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) Mmj(a, b) = full(dof[a], dof[b]);
    massMatrix(m, data, q, o, M);
    CHECK(relM(M, Mmj) < 1e-9);
    // RNEA: mj_rne(flg_acc = 1) = M q̈ + bias (armature excluded from mj_rne; add it).
    for (int i = 0; i < n; ++i) md->qacc[dof[i]] = qdd[i];
    VecX raw(n);
    mj_rne(mm, md, 1, raw.data());
    for (int i = 0; i < n; ++i) res[i] = raw[dof[i]] + mm->dof_armature[dof[i]] * qdd[i];
    inverseDynamics(m, data, q, qd, qdd, o, tau);
    CHECK(rel(tau, res) < 1e-9);
    // Forward dynamics.
    const VecX t = randomVec(rng, n, 20);
    for (int i = 0; i < n; ++i) md->qfrc_applied[dof[i]] = t[i];
    mj_forward(mm, md);
    forwardDynamics(m, data, q, qd, t, o, qdd2);
    VecX qacc(n);
    for (int i = 0; i < n; ++i) qacc[i] = md->qacc[dof[i]];
    CHECK(rel(qdd2, qacc) < 1e-9);
  }
  mj_deleteData(md);
  mj_deleteModel(mm);
}
}  // namespace

TEST_CASE("MuJoCo: puma560 FK, RNEA, M and forward dynamics agree to 1e-9 (with and without armature)", "[peers][mujoco]") {
  const Model m = builtinModel("puma560");
  // MuJoCo refuses link 1's mass 0 and inertia (0, 0.35, 0) (not positive definite). Link 1 only
  // ever rotates about its y axis (= joint 1's axis) and its origin lies on that fixed axis, so its
  // Ixx, Izz and a point mass at its origin cannot affect any torque or M: MuJoCo gets mass 1 and
  // (0.35, 0.35, 0.35), achain keeps Corke's values.
  // Corke's link-3 tensor (0.066, 0.086, 0.0125) violates the triangle inequality A + B ≥ C, which
  // MuJoCo enforces; so both sides here use Iyy₃ = 0.0785 (the boundary). The KDL test keeps Corke's.
  Model mj = m;
  mj.joints[0].link.inertia = 0.35 * Mat3::Identity();
  mj.joints[0].link.mass = 1.0;  // at link 1's origin, on the fixed joint-1 axis: never accelerates
  mj.joints[2].link.inertia(1, 1) = 0.066 + 0.0125;
  mj.finalize();
  Model ours = m;
  ours.joints[2].link.inertia(1, 1) = 0.066 + 0.0125;
  ours.finalize();
  mujocoCompare(ours, true, 202, &mj);
  mujocoCompare(ours, false, 203, &mj);
}

TEST_CASE("MuJoCo: random R/P chains and trees agree to 1e-9", "[peers][mujoco]") {
  std::mt19937 rng(303);
  for (int k = 0; k < 3; ++k) {
    INFO("chain " << k);
    mujocoCompare(randomRPModel(rng, 5 + k, false), k % 2 == 0, 400 + k);
    INFO("tree " << k);
    mujocoCompare(randomRPModel(rng, 5 + k, true), k % 2 == 1, 500 + k);
  }
}
#endif
