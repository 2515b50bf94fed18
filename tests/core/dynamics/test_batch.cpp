// Batch (series) calls against the single calls: the vectorised FK and RNEA kernels (both compiled
// paths: baseline and AVX2+FMA where the CPU has it) on the built-ins, prototype-4a under every leg
// model, a mimic URDF tree, random R/P/H/A chains and trees (standard and modified DH), with every
// dynamics term, for counts that are not a multiple of the lane width.
#include <catch2/catch.hpp>
#include <fstream>
#include <random>
#include <sstream>

#include <achain/dynamics/batch.hpp>
#include <achain/dynamics/crba.hpp>
#include <achain/dynamics/forward.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/io/urdf.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/kinematics/jacobian.hpp>
#include <achain/model/robots.hpp>
#include <achain/trajectory/plan.hpp>
#include <achain/trajectory/torque_analysis.hpp>
#include "dynamics_helpers.hpp"
#include "helpers.hpp"

using namespace achain;

namespace {

std::string urdfFixture(const std::string& name) {
  std::ifstream f(std::string(ACHAIN_SOURCE_DIR) + "/tests/fixtures/urdf/" + name);
  REQUIRE(f.good());
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::vector<BatchPath> paths() {
  std::vector<BatchPath> p = {BatchPath::Baseline, BatchPath::Auto};
  if (batchAvx2Available()) p.push_back(BatchPath::Avx2);
  return p;
}

const char* name(BatchPath p) { return p == BatchPath::Baseline ? "baseline" : p == BatchPath::Avx2 ? "avx2" : "auto"; }

/// count random states, state-major (q, q̇, q̈ each nv per state).
struct States {
  std::vector<double> q, qd, qdd;
};
States randomStates(const Model& m, int count, std::mt19937& rng) {
  States s;
  std::uniform_real_distribution<double> u(-2, 2);
  for (int k = 0; k < count; ++k) {
    const VecX q = test::randomConfiguration(m, rng);
    for (int i = 0; i < m.nq; ++i) {
      s.q.push_back(q[i]);
      s.qd.push_back(k % 5 == 3 ? 0.0 : u(rng));  // some joints at rest: Coulomb friction's sign(0) = 0
      s.qdd.push_back(u(rng));
    }
  }
  return s;
}

double maxAbs(const double* x, int n) {
  double m = 0;
  for (int i = 0; i < n; ++i) m = std::max(m, std::abs(x[i]));
  return m;
}

/// Batch τ (every path) equals the single call to 1e-14 relative to the state's largest |τ| (absolute
/// when that is below 1). Values past count stay untouched.
void checkRnea(const Model& m, const DynamicsOptions& o, int count, std::mt19937& rng) {
  const int n = m.nv;
  const States s = randomStates(m, count, rng);
  Data single(m), batch(m);
  VecX tau(n);
  std::vector<double> expect(static_cast<size_t>(n) * count);
  for (int k = 0; k < count; ++k) {
    inverseDynamics(m, single, Eigen::Map<const VecX>(&s.q[n * k], n), Eigen::Map<const VecX>(&s.qd[n * k], n),
                    Eigen::Map<const VecX>(&s.qdd[n * k], n), o, tau);
    for (int i = 0; i < n; ++i) expect[n * k + i] = tau[i];
  }
  for (BatchPath p : paths()) {
    INFO(m.name << " path " << name(p) << " legs " << toString(o.legs) << " count " << count);
    std::vector<double> got(static_cast<size_t>(n) * count + 3, 7.25);  // sentinel after the end
    inverseDynamicsSeries(m, batch, count, s.q.data(), s.qd.data(), s.qdd.data(), o, got.data(), p);
    double worst = 0;
    for (int k = 0; k < count; ++k) {
      const double scale = std::max(1.0, maxAbs(&expect[n * k], n));
      for (int i = 0; i < n; ++i) worst = std::max(worst, std::abs(got[n * k + i] - expect[n * k + i]) / scale);
    }
    CHECK(worst <= 1e-14);
    for (int e = 0; e < 3; ++e) CHECK(got[static_cast<size_t>(n) * count + e] == 7.25);
  }
}

void checkFk(const Model& m, int count, std::mt19937& rng) {
  const States s = randomStates(m, count, rng);
  Data single(m), batch(m);
  for (BatchPath p : paths()) {
    INFO(m.name << " path " << name(p) << " count " << count);
    std::vector<SE3> got(count + 1);
    got[count].p = Vec3(7.25, 7.25, 7.25);
    fkToolSeries(m, batch, count, s.q.data(), got.data(), p);
    double worst = 0;
    for (int k = 0; k < count; ++k) {
      forwardKinematics(m, single, Eigen::Map<const VecX>(&s.q[m.nq * k], m.nq));
      const SE3& T = single.oMtool;
      const double scale = std::max(1.0, T.p.cwiseAbs().maxCoeff());
      worst = std::max({worst, (got[k].R - T.R).cwiseAbs().maxCoeff(), (got[k].p - T.p).cwiseAbs().maxCoeff() / scale});
    }
    CHECK(worst <= 1e-14);
    CHECK(got[count].p == Vec3(7.25, 7.25, 7.25));
  }
}

/// Every term on: motors, friction, a tool wrench in the given frame, gravity overridden.
DynamicsOptions everyTerm(LegModel legs, std::mt19937& rng, WrenchFrame frame) {
  DynamicsOptions o;
  o.legs = legs;
  o.motors = o.friction = o.use_wrench = true;
  o.wrench = test::randomVector(rng, 6, 3.0);
  o.wrench_frame = frame;
  o.override_gravity = true;
  o.gravity = Vec3(0.5, -1.0, -9.7);
  return o;
}

Model gripper() {
  UrdfOptions u;
  u.tool_link = "tip_link";
  return modelFromUrdfString(urdfFixture("gripper_mimic.urdf"), u);
}

}  // namespace

TEST_CASE("batch FK and RNEA equal the single calls on puma560, stanford, prototype-4a and a mimic URDF", "[dynamics][batch]") {
  std::mt19937 rng(16);
  const LegModel legs[] = {LegModel::Massless, LegModel::Lumped, LegModel::Full, LegModel::PotentialOnly};
  for (const char* r : {"puma560", "stanford", "prototype-4a"}) {
    const Model m = builtinModel(r);
    for (int count : {1, 4, 37}) {
      checkFk(m, count, rng);
      checkRnea(m, DynamicsOptions{}, count, rng);
      for (LegModel L : legs) {
        DynamicsOptions o;
        o.legs = L;
        checkRnea(m, o, count, rng);
        checkRnea(m, everyTerm(L, rng, count == 37 ? WrenchFrame::Tool : WrenchFrame::Base), count, rng);
      }
    }
  }
  const Model g = gripper();
  REQUIRE(g.coupled);  // mimic joints: several joints follow one coordinate
  checkFk(g, 23, rng);
  checkRnea(g, DynamicsOptions{}, 23, rng);
  checkRnea(g, everyTerm(LegModel::Full, rng, WrenchFrame::Tool), 23, rng);
}

TEST_CASE("batch FK and RNEA equal the single calls on random R/P/H/A chains and trees", "[dynamics][batch]") {
  std::mt19937 rng(1616);
  for (int t = 0; t < 12; ++t) {
    const bool tree = t % 3 == 1;
    const Model m = test::randomDynamicModel(rng, 2 + t % 6, tree, t % 4 == 3 ? DHConvention::Modified : DHConvention::Standard);
    const int count = std::uniform_int_distribution<int>(1, 61)(rng) | 1;  // odd: never a multiple of 4
    checkFk(m, count, rng);
    checkRnea(m, everyTerm(t % 2 ? LegModel::Full : LegModel::PotentialOnly, rng, WrenchFrame::Base), count, rng);
    checkRnea(m, everyTerm(LegModel::Lumped, rng, WrenchFrame::Tool), count, rng);
  }
}

TEST_CASE("batch FK and RNEA at large joint angles: the lanes' sin/cos reduction and its libm fallback", "[dynamics][batch]") {
  std::mt19937 rng(77);
  const Model m = builtinModel("puma560");
  for (double offset : {5e4, -9.9e4, 2e5, 1e9}) {  // below 1e5: the kernel's own reduction; above: libm per lane
    INFO("offset " << offset);
    std::vector<double> q;
    std::uniform_real_distribution<double> u(-3, 3);
    for (int k = 0; k < 9 * m.nq; ++k) q.push_back(offset + u(rng));
    std::vector<SE3> got(9);
    Data d(m), d1(m);
    for (BatchPath p : paths()) {
      fkToolSeries(m, d, 9, q.data(), got.data(), p);
      for (int k = 0; k < 9; ++k) {
        forwardKinematics(m, d1, Eigen::Map<const VecX>(&q[m.nq * k], m.nq));
        CHECK((got[k].R - d1.oMtool.R).cwiseAbs().maxCoeff() <= 1e-14);
        CHECK((got[k].p - d1.oMtool.p).cwiseAbs().maxCoeff() <= 1e-14);
      }
    }
  }
}

TEST_CASE("batch RNEA: null q̇ and q̈ are zero; count 0 writes nothing", "[dynamics][batch]") {
  std::mt19937 rng(3);
  const Model m = builtinModel("prototype-4a");
  const int n = m.nv, count = 6;
  const States s = randomStates(m, count, rng);
  Data d(m), d1(m);
  DynamicsOptions o;
  o.motors = o.friction = true;
  std::vector<double> got(n * count);
  inverseDynamicsSeries(m, d, count, s.q.data(), nullptr, nullptr, o, got.data());
  VecX g(n);
  for (int k = 0; k < count; ++k) {
    gravityTorques(m, d1, Eigen::Map<const VecX>(&s.q[n * k], n), o, g);
    for (int i = 0; i < n; ++i) CHECK(std::abs(got[n * k + i] - g[i]) <= 1e-14 * std::max(1.0, g.cwiseAbs().maxCoeff()));
  }
  std::vector<double> none(2, 3.5);
  inverseDynamicsSeries(m, d, 0, s.q.data(), s.qd.data(), s.qdd.data(), o, none.data());
  CHECK(none[0] == 3.5);
}

TEST_CASE("batch mass matrix, forward dynamics and Jacobians equal the single calls", "[dynamics][batch]") {
  std::mt19937 rng(5);
  for (const char* r : {"puma560", "prototype-4a"}) {
    const Model m = builtinModel(r);
    const int n = m.nv, count = 9;
    const States s = randomStates(m, count, rng);
    Data d(m), d1(m);
    DynamicsOptions o;
    o.motors = true;
    std::vector<double> M(n * n * count), qdd(n * count), J(6 * n * count);
    massMatrixSeries(m, d, count, s.q.data(), o, M.data());
    forwardDynamicsSeries(m, d, count, s.q.data(), s.qd.data(), s.qdd.data(), o, qdd.data());  // q̈ as τ
    const Vec3 pt(0.01, -0.02, 0.03);
    pointJacobianSeries(m, d, count, s.q.data(), m.toolLink(), pt, true, J.data());
    MatX Mk(n, n), Jk(6, n);
    VecX a(n);
    for (int k = 0; k < count; ++k) {
      const Eigen::Map<const VecX> q(&s.q[n * k], n), qd(&s.qd[n * k], n), tau(&s.qdd[n * k], n);
      massMatrix(m, d1, q, o, Mk);
      CHECK(Eigen::Map<const MatX>(&M[n * n * k], n, n) == Mk);
      forwardDynamics(m, d1, q, qd, tau, o, a);
      CHECK(Eigen::Map<const VecX>(&qdd[n * k], n) == a);
      forwardKinematics(m, d1, q);
      pointJacobian(m, d1, m.toolLink(), pt, Jk);
      rotateJacobian(d1.oMtool.R, Jk);
      CHECK(Eigen::Map<const MatX>(&J[6 * n * k], 6, n) == Jk);
    }
  }
}

TEST_CASE("batch path: AVX2 asked for where it cannot run is an error, else it runs", "[dynamics][batch]") {
  const Model m = builtinModel("puma560");
  Data d(m);
  const std::vector<double> q(6, 0.3);
  SE3 T;
  if (batchAvx2Available()) {
    fkToolSeries(m, d, 1, q.data(), &T, BatchPath::Avx2);
    CHECK(T.p.allFinite());
  } else {
    CHECK_THROWS_WITH(fkToolSeries(m, d, 1, q.data(), &T, BatchPath::Avx2), Catch::Contains("AVX2"));
  }
}

TEST_CASE("time scaling's torque check: the batch form gives the single-call form's factor", "[dynamics][batch]") {
  const Model m = builtinModel("prototype-4a");
  PlanSpec spec;
  spec.from = test::degrees({60, 60, 60, 60});
  spec.to = test::degrees({300, 300, 300, 300});
  const Plan fast = planJointPath(m, spec);
  DynamicsOptions o;
  o.friction = o.motors = true;  // friction: the verification loop raises the factor
  const InverseDynamicsFn single = makeInverseDynamics(m, o);
  const InverseDynamicsSeriesFn batch = makeInverseDynamicsSeries(m, o);
  TimeScalingOptions a, b;
  a.torque = &single;
  b.torque_series = &batch;
  const TimeScaling ka = timeScaleToLimits(m, *fast.path, a), kb = timeScaleToLimits(m, *fast.path, b);
  REQUIRE(ka.binding == "torque");
  CHECK(ka.factor > 1);
  CHECK(kb.factor == Approx(ka.factor).epsilon(1e-12));
  CHECK(kb.binding == ka.binding);
  CHECK(kb.joint == ka.joint);
  CHECK(kb.time == ka.time);
}
