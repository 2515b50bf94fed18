// Batch (series) calls against the single calls: the vectorised FK, RNEA, point-Jacobian, CRBA and
// forward-dynamics kernels (every compiled path: baseline, auto, and AVX2+FMA where the CPU has it) on
// the built-ins, prototype-4a under every leg model, a mimic URDF tree, random R/P/H/A chains and trees
// (standard and modified DH), with every dynamics term, for counts that are not a multiple of the lane
// width.
#include <catch2/catch.hpp>
#include <Eigen/Eigenvalues>
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
#include <achain/io/robot.hpp>
#include <achain/trajectory/plan.hpp>
#include <achain/trajectory/torque_analysis.hpp>
#include "dynamics_helpers.hpp"
#include "helpers.hpp"
#include "test_paths.hpp"

using namespace achain;

namespace {

std::string urdfFixture(const std::string& name) {
  std::ifstream f(achain::test::sourceDir() + "/tests/fixtures/urdf/" + name);
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

/// Batch point Jacobians (every path) equal forwardKinematics + pointJacobian (+ rotateJacobian) to 1e-14
/// relative to the state's largest |J| (absolute below 1). Values past count stay untouched.
void checkJacobian(const Model& m, int count, int link, const Vec3& pt, bool tool_frame, std::mt19937& rng) {
  const int n = m.nv;
  const States s = randomStates(m, count, rng);
  Data single(m), batch(m);
  MatX Jk(6, n);
  for (BatchPath p : paths()) {
    INFO(m.name << " path " << name(p) << " link " << link << " tool frame " << tool_frame << " count " << count);
    std::vector<double> got(6 * static_cast<size_t>(n) * count + 3, 7.25);
    pointJacobianSeries(m, batch, count, s.q.data(), link, pt, tool_frame, got.data(), p);
    double worst = 0;
    for (int k = 0; k < count; ++k) {
      forwardKinematics(m, single, Eigen::Map<const VecX>(&s.q[m.nq * k], m.nq));
      pointJacobian(m, single, link, pt, Jk);
      if (tool_frame) rotateJacobian(single.oMtool.R, Jk);
      const double scale = std::max(1.0, Jk.cwiseAbs().maxCoeff());
      worst = std::max(worst, (Eigen::Map<const MatX>(&got[6 * n * k], 6, n) - Jk).cwiseAbs().maxCoeff() / scale);
    }
    CHECK(worst <= 1e-14);
    for (int e = 0; e < 3; ++e) CHECK(got[6 * static_cast<size_t>(n) * count + e] == 7.25);
  }
}

/// Batch q̈ (every path) for the states' (q, q̇) with their q̈ numbers as τ equals forwardDynamics to
/// 1e-14·κ(M) relative to the state's largest |q̈| (absolute below 1), κ(M) M's 2-norm condition number.
/// Not 1e-14 flat: q̈ = M⁻¹(τ − b) carries the ≈1e-16-relative differences of the batch M, b and Cholesky
/// (sums associated differently, FMAs; M and b held to 1e-14 in checkMassAndForward) amplified by up to κ(M),
/// and puma560's light wrist makes κ ≈ 1e5: measured 5e-13 relative there (5e-18·κ), ≤ 8e-16·κ on every
/// model here.
void checkForward(const Model& m, const DynamicsOptions& o, const States& s) {
  const int n = m.nv, count = static_cast<int>(s.q.size()) / m.nq;
  Data single(m), batch(m);
  VecX a(n);
  MatX Mk(n, n);
  std::vector<double> expect(static_cast<size_t>(n) * count), cond(count);
  for (int k = 0; k < count; ++k) {
    try {
      forwardDynamics(m, single, Eigen::Map<const VecX>(&s.q[n * k], n), Eigen::Map<const VecX>(&s.qd[n * k], n),
                      Eigen::Map<const VecX>(&s.qdd[n * k], n), o, a);
    } catch (const Error& e) {  // stanford without rotor inertias: the last joint moves no mass; so must the batch
      INFO(m.name << " state " << k << ": " << e.what());
      std::vector<double> got(static_cast<size_t>(n) * count);
      for (BatchPath p : paths())
        CHECK_THROWS_WITH(forwardDynamicsSeries(m, batch, count, s.q.data(), s.qd.data(), s.qdd.data(), o, got.data(), p),
                          Catch::Contains("not positive definite"));
      return;
    }
    for (int i = 0; i < n; ++i) expect[n * k + i] = a[i];
    massMatrix(m, single, Eigen::Map<const VecX>(&s.q[n * k], n), o, Mk);
    const VecX ev = Eigen::SelfAdjointEigenSolver<MatX>(Mk, Eigen::EigenvaluesOnly).eigenvalues();
    cond[k] = ev[n - 1] / ev[0];
  }
  for (BatchPath p : paths()) {
    INFO(m.name << " path " << name(p) << " legs " << toString(o.legs) << " count " << count);
    std::vector<double> got(static_cast<size_t>(n) * count + 3, 7.25);
    forwardDynamicsSeries(m, batch, count, s.q.data(), s.qd.data(), s.qdd.data(), o, got.data(), p);
    double worst = 0;  // in units of κ(M)
    for (int k = 0; k < count; ++k) {
      const double scale = std::max(1.0, maxAbs(&expect[n * k], n)) * cond[k];
      for (int i = 0; i < n; ++i) worst = std::max(worst, std::abs(got[n * k + i] - expect[n * k + i]) / scale);
    }
    CHECK(worst <= 1e-14);
    for (int e = 0; e < 3; ++e) CHECK(got[static_cast<size_t>(n) * count + e] == 7.25);
  }
}

/// Batch M (every path) equals massMatrix to 1e-14 relative to the state's largest |M| (absolute below 1),
/// then checkForward on the same states.
void checkMassAndForward(const Model& m, const DynamicsOptions& o, int count, std::mt19937& rng) {
  const int n = m.nv;
  const long nn = static_cast<long>(n) * n;
  const States s = randomStates(m, count, rng);
  Data single(m), batch(m);
  MatX Mk(n, n);
  for (BatchPath p : paths()) {
    INFO(m.name << " path " << name(p) << " legs " << toString(o.legs) << " count " << count);
    std::vector<double> got(nn * count + 3, 7.25);
    massMatrixSeries(m, batch, count, s.q.data(), o, got.data(), p);
    double worst = 0;
    for (int k = 0; k < count; ++k) {
      massMatrix(m, single, Eigen::Map<const VecX>(&s.q[n * k], n), o, Mk);
      const double scale = std::max(1.0, Mk.cwiseAbs().maxCoeff());
      worst = std::max(worst, (Eigen::Map<const MatX>(&got[nn * k], n, n) - Mk).cwiseAbs().maxCoeff() / scale);
    }
    CHECK(worst <= 1e-14);
    for (int e = 0; e < 3; ++e) CHECK(got[nn * count + e] == 7.25);
  }
  checkForward(m, o, s);
}

Model gripper() {
  UrdfOptions u;
  u.tool_link = "tip_link";
  return modelFromUrdfString(urdfFixture("gripper_mimic.urdf"), u);
}

}  // namespace

TEST_CASE("batch FK, RNEA, mass matrix and forward dynamics equal the single calls on puma560, stanford, prototype-4a and a mimic URDF", "[dynamics][batch]") {
  std::mt19937 rng(16);
  const LegModel legs[] = {LegModel::Massless, LegModel::Lumped, LegModel::Full, LegModel::PotentialOnly};
  for (const char* r : {"puma560", "stanford", "prototype-4a"}) {
    const Model m = builtinModel(r);
    for (int count : {1, 4, 23, 37}) {
      checkFk(m, count, rng);
      checkRnea(m, DynamicsOptions{}, count, rng);
      for (LegModel L : legs) {
        DynamicsOptions o;
        o.legs = L;
        const DynamicsOptions all = everyTerm(L, rng, count == 37 ? WrenchFrame::Tool : WrenchFrame::Base);
        checkRnea(m, o, count, rng);
        checkRnea(m, all, count, rng);
        checkMassAndForward(m, o, count, rng);
        checkMassAndForward(m, all, count, rng);
      }
    }
  }
  const Model g = gripper();
  REQUIRE(g.coupled);  // mimic joints: several joints follow one coordinate
  checkFk(g, 23, rng);
  checkRnea(g, DynamicsOptions{}, 23, rng);
  checkRnea(g, everyTerm(LegModel::Full, rng, WrenchFrame::Tool), 23, rng);
  checkMassAndForward(g, DynamicsOptions{}, 23, rng);
  checkMassAndForward(g, everyTerm(LegModel::Full, rng, WrenchFrame::Tool), 23, rng);
}

TEST_CASE("every batch series equals the single calls on random R/P/H/A chains and trees", "[dynamics][batch]") {
  std::mt19937 rng(1616);
  for (int t = 0; t < 12; ++t) {
    const bool tree = t % 3 == 1;
    const Model m = test::randomDynamicModel(rng, 2 + t % 6, tree, t % 4 == 3 ? DHConvention::Modified : DHConvention::Standard);
    const int count = std::uniform_int_distribution<int>(1, 61)(rng) | 1;  // odd: never a multiple of 4
    checkFk(m, count, rng);
    const DynamicsOptions a = everyTerm(t % 2 ? LegModel::Full : LegModel::PotentialOnly, rng, WrenchFrame::Base);
    const DynamicsOptions b = everyTerm(LegModel::Lumped, rng, WrenchFrame::Tool);
    checkRnea(m, a, count, rng);
    checkRnea(m, b, count, rng);
    const int link = std::uniform_int_distribution<int>(0, m.njoints() - 1)(rng);
    checkJacobian(m, count, link, test::randomVector(rng, 3, 0.2), t % 2 == 0, rng);
    checkMassAndForward(m, a, count, rng);
    checkMassAndForward(m, b, count, rng);
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

TEST_CASE("batch RNEA: null q̇ and q̈ are zero, count 0 writes nothing (every series)", "[dynamics][batch]") {
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
  massMatrixSeries(m, d, 0, s.q.data(), o, none.data());
  forwardDynamicsSeries(m, d, 0, s.q.data(), s.qd.data(), s.qdd.data(), o, none.data());
  pointJacobianSeries(m, d, 0, s.q.data(), m.toolLink(), Vec3::Zero(), true, none.data());
  CHECK(none[0] == 3.5);
}

TEST_CASE("batch scratch: sized by the first batch call with a Data, the same buffer for every series after it", "[dynamics][batch]") {
  std::mt19937 rng(4);
  const Model m = builtinModel("prototype-4a");
  const int n = m.nv, count = 9;
  const States s = randomStates(m, count, rng);
  Data d(m);
  DynamicsOptions o;
  o.legs = LegModel::Full;
  std::vector<SE3> tool(count);
  std::vector<double> out(static_cast<size_t>(6 + n) * n * count);
  fkToolSeries(m, d, count, s.q.data(), tool.data());
  const double* buffer = d.batch.buffer.data();
  const size_t size = d.batch.buffer.size();
  inverseDynamicsSeries(m, d, count, s.q.data(), s.qd.data(), s.qdd.data(), o, out.data());
  massMatrixSeries(m, d, count, s.q.data(), o, out.data());
  forwardDynamicsSeries(m, d, count, s.q.data(), s.qd.data(), s.qdd.data(), o, out.data());
  pointJacobianSeries(m, d, count, s.q.data(), 1, Vec3(0.1, 0, 0), true, out.data());
  CHECK(d.batch.buffer.data() == buffer);
  CHECK(d.batch.buffer.size() == size);
}

TEST_CASE("batch point Jacobians equal the single calls on puma560, stanford, prototype-4a and a mimic URDF", "[dynamics][batch]") {
  std::mt19937 rng(6);
  for (const char* r : {"puma560", "stanford", "prototype-4a"}) {
    const Model m = builtinModel(r);
    for (int count : {1, 4, 23, 37})
      for (int link : {m.toolLink(), m.njoints() / 2}) {
        checkJacobian(m, count, link, Vec3(0.01, -0.02, 0.03), count % 2 == 1, rng);
        checkJacobian(m, count, link, Vec3::Zero(), count % 2 == 0, rng);
      }
  }
  const Model g = gripper();
  REQUIRE(g.coupled);
  for (int link = 0; link < g.njoints(); ++link) checkJacobian(g, 23, link, Vec3(0.02, 0.01, -0.05), link % 2 == 0, rng);
  Data d(g);
  std::vector<double> q(static_cast<size_t>(g.nq), 0.0), J(6 * g.nv);
  CHECK_THROWS_WITH(pointJacobianSeries(g, d, 1, q.data(), g.njoints(), Vec3::Zero(), false, J.data()),
                    Catch::Contains("link"));
}

TEST_CASE("batch forward dynamics with the joint-limit stops engaged", "[dynamics][batch]") {
  std::mt19937 rng(9);
  const Model m = builtinModel("puma560");
  DynamicsOptions o = everyTerm(LegModel::Massless, rng, WrenchFrame::Base);
  o.limit_stops = true;
  States s = randomStates(m, 23, rng);
  for (int k = 0; k < 23; k += 2)  // every other state past a limit, moving on into it or back out
    for (int c = 0; c < m.nv; ++c) {
      const JointLimits& L = m.joints[m.coord_joint[c]].limits;
      if (std::isfinite(L.upper) && (k + c) % 3 == 0) s.q[m.nv * k + c] = L.upper + 0.05;
      if (std::isfinite(L.lower) && (k + c) % 3 == 1) s.q[m.nv * k + c] = L.lower - 0.02;
    }
  checkForward(m, o, s);
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
