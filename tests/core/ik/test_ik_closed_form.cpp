// The one closed-form IK (ikClosed, Data::ik scratch) and its IkAllResult view (ikAll, method closed):
// the same numbers through both; completeness against a numeric multi-start peer; every solution
// verified by FK; no duplicates; seed ordering; the degenerate cases (wrist singular, shoulder on
// axis 1, approach ∥ axis 1 scanned, one-parameter family); modified-DH input; a declared axial law
// with a 720° period recognised as prototype class; models without a closed form refused by name.
#include <catch2/catch.hpp>
#include <random>

#include <achain/ik/closed_form.hpp>
#include <achain/ik/ik.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/io/robot.hpp>
#include "helpers.hpp"

using namespace achain;

namespace {

using test::fkPose;

VecX qOf(const Model& m, const IkSolutionSet::Solution& s) { return Eigen::Map<const VecX>(s.q.data(), m.nq); }

/// Joint-wise distance modulo each joint's period (the period its joint model declares).
double periodicDistance(const Model& m, const VecX& a, const VecX& b) {
  double worst = 0;
  for (int j = 0; j < m.nq; ++j) {
    const double P = m.jmodels[m.coord_joint[j]].period;
    double d = a[j] - b[j];
    if (std::isfinite(P) && P > 0) d = std::remainder(d, P);
    worst = std::max(worst, std::abs(d));
  }
  return worst;
}

/// FK of every solution reaches the target; no two solutions are the same configuration; inside-limits
/// solutions come first and are really inside; with a seed each block is sorted by distance to it.
void checkSet(const Model& m, const IkSolutionSet& s, const SE3& T, const VecX* seed) {
  Data d(m);
  for (int k = 0; k < s.count; ++k) {
    const VecX q = qOf(m, s.sol(k));
    double pe, oe;
    poseErrorAt(m, d, q, T, pe, oe);
    INFO("solution " << k << " q = " << q.transpose());
    CHECK(pe <= 1e-9);
    CHECK(oe <= 1e-9);
    CHECK(s.sol(k).within_limits == (k < s.n_inside));
    CHECK(withinLimits(m, q) == s.sol(k).within_limits);
    for (int l = 0; l < k; ++l) CHECK((q - qOf(m, s.sol(l))).cwiseAbs().maxCoeff() > 1e-7);
    if (seed && k > 0 && k != s.n_inside)
      CHECK((q - *seed).squaredNorm() >= (qOf(m, s.sol(k - 1)) - *seed).squaredNorm() - 1e-12);
  }
}

/// ikAll(closed) is ikClosed's set, converted: same q, order, limits, flags, errors, status.
void checkSameAsIkAll(const Model& m, const IkSolutionSet& b, const SE3& T, const VecX* seed) {
  const IkAllResult a = ikAll(m, T, IkMethod::Closed, {}, seed);
  CHECK(a.status == b.status);
  if (b.status == IkStatus::Unreachable)
    CHECK_FALSE(a.note.empty());  // the nearest least-squares pose is described
  else
    CHECK(a.note == closedIkNote(b.closed.kase));
  REQUIRE(static_cast<int>(a.solutions.size()) == b.n_inside);
  REQUIRE(static_cast<int>(a.solutions.size() + a.outside_limits.size()) == b.count);
  for (int k = 0; k < b.count; ++k) {
    const IkSolution& s = k < b.n_inside ? a.solutions[k] : a.outside_limits[k - b.n_inside];
    CHECK((s.q - qOf(m, b.sol(k))).cwiseAbs().maxCoeff() == 0.0);
    CHECK(s.within_limits == b.sol(k).within_limits);
    CHECK(s.flags == closedIkFlagStrings(b.sol(k).flags));
    CHECK(s.position_error == b.sol(k).position_error);
  }
  CHECK(a.has_nearest == (b.status == IkStatus::Unreachable));
}

/// Random targets (some reachable only outside the limits): ikClosed's set checked, ikAll's view equal,
/// and every solution a 40-start numeric peer finds is in the closed set (modulo the joint periods).
void randomTargets(const char* robot, int expect_min_per_target, int n) {
  const Model m = builtinModel(robot);
  Data data(m);
  std::mt19937 rng(77);
  int total = 0, outside = 0, numeric_found = 0;
  IkOptions peer;
  peer.restarts = 40;
  for (int k = 0; k < n; ++k) {
    VecX q = test::randomConfiguration(m, rng);
    if (k % 3 == 2)  // widen: targets reachable only outside the limits, too
      for (int j = 0; j < m.nq; ++j) q[j] *= 1.6;
    const VecX seed = test::randomConfiguration(m, rng);
    const VecX* sp = k % 2 ? &seed : nullptr;
    const SE3 T = fkPose(m, q);
    IkSolutionSet s;
    ikClosed(m, data, T, sp ? sp->data() : nullptr, s);
    INFO(robot << " target " << k << " q = " << q.transpose());
    checkSet(m, s, T, sp);
    checkSameAsIkAll(m, s, T, sp);
    CHECK(s.count >= expect_min_per_target);
    // the configuration that made the target is among the solutions
    double best = kInf;
    for (int i = 0; i < s.count; ++i) best = std::min(best, periodicDistance(m, q, qOf(m, s.sol(i))));
    CHECK(best < 1e-6);
    if (k % 10 == 0) {
      const IkAllResult num = ikAll(m, T, IkMethod::Numeric, peer);
      for (const auto& ns : num.solutions) {
        double dmin = kInf;
        for (int i = 0; i < s.count; ++i) dmin = std::min(dmin, periodicDistance(m, ns.q, qOf(m, s.sol(i))));
        INFO("numeric solution " << ns.q.transpose());
        CHECK(dmin < 1e-5);
        ++numeric_found;
      }
    }
    total += s.count;
    outside += s.count - s.n_inside;
  }
  CHECK(total >= n * expect_min_per_target);
  CHECK(outside > 0);         // the outside-limits block was exercised
  CHECK(numeric_found > 0);   // the peer found something to compare
}

}  // namespace

TEST_CASE("ik closed form: random prototype-4a targets, complete against a numeric peer", "[ik]") {
  randomTargets("prototype-4a", 1, 150);
}

TEST_CASE("ik closed form: random puma560 targets, all 8 solutions, complete against a numeric peer", "[ik]") {
  randomTargets("puma560", 8, 150);
}

TEST_CASE("ik closed form: one Data serves repeated solves without changing its answers", "[ik]") {
  const Model m = builtinModel("puma560");
  Data d1(m), d2(m);
  VecX q(6);
  q << 0.2, 0.4, -0.3, 0.5, 0.6, -0.7;
  const SE3 T = fkPose(m, q);
  IkSolutionSet a, b;
  ikClosed(m, d1, T, q.data(), a);
  for (int k = 0; k < 5; ++k) ikClosed(m, d1, fkPose(m, q * (k + 1) * 0.3), nullptr, b);
  ikClosed(m, d2, T, q.data(), b);
  ikClosed(m, d1, T, q.data(), b);
  REQUIRE(a.count == b.count);
  for (int k = 0; k < a.count; ++k) CHECK(a.sol(k).q == b.sol(k).q);
  CHECK((qOf(m, a.sol(0)) - q).cwiseAbs().maxCoeff() < 1e-9);  // nearest the seed = the seed's branch
}

TEST_CASE("ik closed form: puma560 unreachable targets and the shoulder offset", "[ik]") {
  const Model m = builtinModel("puma560");
  Data d(m);
  SE3 far = fkPose(m, VecX::Zero(6));
  far.p *= 10;
  IkSolutionSet s;
  ikClosed(m, d, far, nullptr, s);
  CHECK(s.status == IkStatus::Unreachable);
  CHECK(s.count == 0);
  checkSameAsIkAll(m, s, far, nullptr);
  // the wrist centre on axis 1: inside the circle of the 0.15 m shoulder offset, out of reach
  SE3 axis;
  axis.p = Vec3(0, 0, 0.5);
  ikClosed(m, d, axis, nullptr, s);
  CHECK(s.status == IkStatus::Unreachable);
  CHECK(s.closed.kase == ClosedIkCase::ShoulderOutOfReach);
  checkSameAsIkAll(m, s, axis, nullptr);
}

TEST_CASE("ik closed form: puma560 wrist singular (theta5 = 0) takes theta4 from the seed", "[ik]") {
  const Model m = builtinModel("puma560");
  Data d(m);
  VecX q(6);
  q << 0.3, -0.5, 0.4, 0.2, 0.0, -0.1;
  const SE3 T = fkPose(m, q);
  IkSolutionSet s;
  ikClosed(m, d, T, q.data(), s);
  CHECK(s.status == IkStatus::Singular);
  CHECK(s.closed.kase == ClosedIkCase::FreeAngle);
  checkSet(m, s, T, &q);
  checkSameAsIkAll(m, s, T, &q);
  REQUIRE(s.count >= 1);
  CHECK((qOf(m, s.sol(0)) - q).cwiseAbs().maxCoeff() < 1e-9);  // the seed itself is the nearest member
  // another seed θ4: another member of the family, still exact
  VecX seed = q;
  seed[3] = -0.9;
  ikClosed(m, d, T, seed.data(), s);
  checkSet(m, s, T, &seed);
  bool has = false;
  for (int k = 0; k < s.count; ++k) has = has || std::abs(s.sol(k).q[3] - seed[3]) < 1e-9;
  CHECK(has);
}

TEST_CASE("ik closed form: 6R without shoulder offset, wrist centre on axis 1 takes theta1 from the seed", "[ik]") {
  Model m = builtinModel("puma560");
  m.joints[2].d = 0;  // no shoulder offset: the wrist centre can reach axis 1
  m.finalize();
  REQUIRE(isWristPartitioned6R(m));
  Data d(m);
  SE3 T;
  T.p = Vec3(0, 0, 0.5);  // d6 = 0 and no tool: the wrist centre is the tool point
  VecX seed = VecX::Zero(6);
  seed[0] = 0.7;
  IkSolutionSet s;
  ikClosed(m, d, T, seed.data(), s);
  CHECK(s.status == IkStatus::Singular);
  CHECK(s.closed.kase == ClosedIkCase::FreeAngle);
  REQUIRE(s.count >= 2);  // elbow up and down (times the wrist pair)
  checkSet(m, s, T, &seed);
  for (int k = 0; k < s.count; ++k) CHECK(std::remainder(s.sol(k).q[0] - 0.7, 2 * kPi) == Approx(0).margin(1e-12));
}

TEST_CASE("ik closed form: prototype approach parallel to axis 1, isolated solutions by the scan", "[ik]") {
  const Model m = builtinModel("prototype-4a");
  Data d(m);
  VecX qa(4);
  qa << 100, 150, 150, 250;
  qa *= kDeg;
  const SE3 T = fkPose(m, qa);
  IkSolutionSet s;
  ikClosed(m, d, T, nullptr, s);
  CHECK(s.closed.kase == ClosedIkCase::ScannedApproach);
  REQUIRE(s.count >= 1);
  checkSet(m, s, T, nullptr);
  checkSameAsIkAll(m, s, T, nullptr);
  double best = kInf;
  for (int k = 0; k < s.count; ++k) best = std::min(best, periodicDistance(m, qa, qOf(m, s.sol(k))));
  CHECK(best < 1e-6);
}

TEST_CASE("ik closed form: prototype-4r folded on axis 1 is a one-parameter family", "[ik]") {
  const Model m = builtinModel("prototype-4r");
  Data d(m);
  // θ2 = θ3 points the approach along axis 1; a family needs every θ1 to work, which the scan decides
  int families = 0;
  for (double t : {0.0, 90.0, 180.0}) {
    VecX q(4);
    q << 30, t, t, -40;
    q *= kDeg;
    const SE3 T = fkPose(m, q);
    IkSolutionSet s;
    ikClosed(m, d, T, q.data(), s);
    INFO("theta2 = theta3 = " << t << " deg, case " << closedIkNote(s.closed.kase));
    checkSet(m, s, T, &q);
    if (s.closed.kase != ClosedIkCase::Family) continue;
    ++families;
    CHECK(s.status == IkStatus::Singular);
    const VecX q0 = Eigen::Map<const VecX>(s.closed.family_q0.data(), 4), dir = Eigen::Map<const VecX>(s.closed.family_dir.data(), 4);
    CHECK(dir.norm() > 0.5);
    Data e(m);
    for (double u : {-1.0, -0.3, 0.4, 2.0}) {  // every member reaches the target
      double pe, oe;
      poseErrorAt(m, e, q0 + u * dir, T, pe, oe);
      CHECK(pe < 1e-9);
      CHECK(oe < 1e-9);
    }
  }
  CHECK(families >= 1);
}

TEST_CASE("ik closed form: modified-DH PUMA gives the same solutions as the standard one", "[ik]") {
  const Model s = builtinModel("puma560");
  const Model m = convertConvention(s, DHConvention::Modified);
  REQUIRE(isWristPartitioned6R(m));
  Data ds(s), dm(m);
  std::mt19937 rng(9);
  for (int k = 0; k < 30; ++k) {
    const VecX q = test::randomConfiguration(s, rng);
    const SE3 T = fkPose(s, q);
    CHECK(fkPose(m, q).p.isApprox(T.p, 1e-12));
    IkSolutionSet a, b;
    ikClosed(s, ds, T, q.data(), a);
    ikClosed(m, dm, T, q.data(), b);
    REQUIRE(a.count == b.count);
    CHECK(a.n_inside == b.n_inside);
    for (int i = 0; i < a.count; ++i) CHECK((qOf(s, a.sol(i)) - qOf(m, b.sol(i))).cwiseAbs().maxCoeff() < 1e-9);
  }
}

TEST_CASE("ik closed form: a declared axial law with a 720 deg period is solved like an A-pair", "[ik]") {
  Model m = builtinModel("prototype-4a");
  // joint 2: an algebraic screw other than the A-pair, f(u) = 0.02·sin(u/2 + 0.3)
  m.joints[1].kind = JointKind::Law;
  m.joints[1].rho = m.joints[1].leg_mass = m.joints[1].leg_radius = 0;  // no legs: not an A-pair
  m.joints[1].law = AxialLaw{};
  m.joints[1].law.nsine = 1;
  m.joints[1].law.sine[0] = SineTerm{0.02, 0.5, 0.3};
  m.finalize();
  REQUIRE(m.jmodels[1].period == Approx(4 * kPi));
  std::string why;
  REQUIRE(isPrototypeClass(m, &why));
  Data d(m);
  std::mt19937 rng(4);
  for (int k = 0; k < 50; ++k) {
    const VecX q = test::randomConfiguration(m, rng);
    const SE3 T = fkPose(m, q);
    IkSolutionSet s;
    ikClosed(m, d, T, q.data(), s);
    INFO("q = " << q.transpose());
    checkSet(m, s, T, &q);
    REQUIRE(s.count >= 1);
    CHECK(periodicDistance(m, q, qOf(m, s.sol(0))) < 1e-7);  // IK∘FK: the seed's own branch first
  }
  // a law whose translation does not repeat within two turns has no closed form
  m.joints[1].law.sine[0] = SineTerm{0.02, 0.3, 0.0};
  m.finalize();
  CHECK_FALSE(isPrototypeClass(m, &why));
  CHECK_THAT(why, Catch::Contains("joints[1].kind"));
}

TEST_CASE("ik closed form: a chain without a closed form is refused by name", "[ik]") {
  const Model m = builtinModel("stanford");
  Data d(m);
  IkSolutionSet s;
  CHECK_THROWS_WITH(ikClosed(m, d, fkPose(m, VecX::Zero(m.nq)), nullptr, s), Catch::Contains("no closed form for 'stanford'"));
  CHECK_THROWS_WITH(ikAll(m, fkPose(m, VecX::Zero(m.nq)), IkMethod::Closed, {}), Catch::Contains("no closed form for 'stanford'"));
}
