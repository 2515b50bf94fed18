// Inverse kinematics: thesis example, IK∘FK on random states, closed vs numeric, statuses, malformed targets.
#include <catch2/catch.hpp>
#include <random>
#include <set>

#include <achain/kinematics/fk.hpp>
#include "helpers.hpp"
#include <achain/ik/algebraic_4a.hpp>
#include <achain/ik/closed_form.hpp>
#include <achain/ik/ik.hpp>
#include <achain/ik/numeric.hpp>
#include <achain/io/robot.hpp>

using namespace achain;

namespace {

using test::fkPose;

double angleDiff(double a, double b, double period) {
  double d = std::fmod(a - b, period);
  if (d > period / 2) d -= period;
  if (d < -period / 2) d += period;
  return std::abs(d);
}

bool containsConfig(const Model& m, const std::vector<IkSolution>& sols, const VecX& q, double tol) {
  for (const auto& s : sols) {
    bool same = true;
    for (int j = 0; j < m.njoints(); ++j) {
      const double period = m.jmodels[j].period;
      same = same && (period > 0 ? angleDiff(s.q[j], q[j], period) : std::abs(s.q[j] - q[j])) < tol;
    }
    if (same) return true;
  }
  return false;
}

VecX thesisAngles() {
  VecX q(4);
  q << 84.107, 224.203, 106.791, 236.997;
  return q * kDeg;
}

}  // namespace

TEST_CASE("ik: thesis 4A example, closed form returns exactly the thesis solution", "[ik]") {
  const Model m = builtinModel("prototype-4a");
  REQUIRE(isPrototypeClass(m));
  const SE3 T = fkPose(m, thesisAngles());
  // the target is the thesis's Eq. 3.150 (inches) to its printed digits
  CHECK(T.p.x() / test::kInch == Approx(-1.345).margin(5e-3));
  CHECK(T.p.y() / test::kInch == Approx(-19.850).margin(5e-3));
  CHECK(T.p.z() / test::kInch == Approx(13.760).margin(5e-3));
  CHECK(T.R(0, 2) == Approx(-0.0911).margin(1e-4));
  CHECK(T.R(2, 2) == Approx(-0.4604).margin(1e-4));
  const IkAllResult r = ikAll(m, T, IkMethod::Auto, {});
  REQUIRE(r.status == IkStatus::Ok);
  CHECK(r.method == IkMethod::Closed);
  REQUIRE(r.solutions.size() == 1);
  for (int i = 0; i < 4; ++i) CHECK(r.solutions[0].q[i] / kDeg == Approx(thesisAngles()[i] / kDeg).margin(0.01));
  CHECK(r.solutions[0].position_error < 1e-12);
}

TEST_CASE("ik: thesis target from the printed (rounded) angles of Eq. 3.149 is not exactly reachable", "[ik]") {
  // Eq. 3.150 printed to 3-4 digits is not on the 4-DOF pose set: least squares gives the nearest pose.
  const Model m = builtinModel("prototype-4a");
  Mat4 T = Mat4::Identity();
  T.topLeftCorner<3, 3>() << -0.860, -0.502, -0.0911, -0.163, 0.440, -0.883, 0.484, -0.744, -0.4604;
  // re-orthonormalise the printed rotation (it is only good to ~1e-3)
  Eigen::JacobiSVD<Mat3> svd(T.topLeftCorner<3, 3>(), Eigen::ComputeFullU | Eigen::ComputeFullV);
  T.topLeftCorner<3, 3>() = svd.matrixU() * svd.matrixV().transpose();
  T.topRightCorner<3, 1>() = Vec3(-1.345, -19.850, 13.760) * test::kInch;
  const SE3 target = checkTarget(T);
  const IkAllResult r = ikAll(m, target, IkMethod::Closed, {});
  CHECK(r.status == IkStatus::Unreachable);
  REQUIRE(r.has_nearest);
  CHECK(r.residual > 1e-6);
  CHECK(r.residual < 5e-3);
  // the nearest configuration is close to the thesis solution
  for (int i = 0; i < 4; ++i) CHECK(r.nearest.q[i] / kDeg == Approx(thesisAngles()[i] / kDeg).margin(0.5));
}

TEST_CASE("ik: closed form 4A, IK∘FK on 1000 random states", "[ik]") {
  for (const char* name : {"prototype-4a", "prototype-4r"}) {
    const Model m = builtinModel(name);
    std::mt19937 rng(7);
    int ok = 0;
    for (int k = 0; k < 1000; ++k) {
      const VecX q = test::randomConfiguration(m, rng);
      const SE3 T = fkPose(m, q);
      const IkAllResult r = ikAll(m, T, IkMethod::Closed, {}, &q);
      REQUIRE(r.status != IkStatus::Unreachable);
      for (const auto& s : r.solutions) {
        CHECK(s.position_error < 1e-9);
        CHECK(s.orientation_error < 1e-9);
        CHECK(withinLimits(m, s.q, 1e-12));
      }
      if (containsConfig(m, r.solutions, q, 1e-7)) ++ok;
    }
    INFO(name);
    CHECK(ok == 1000);
  }
}

TEST_CASE("ik: prototype-4a gives exactly one solution in its limits (thesis observation)", "[ik]") {
  const Model m = builtinModel("prototype-4a");
  std::mt19937 rng(11);
  int one = 0;
  for (int k = 0; k < 300; ++k) {
    const VecX q = test::randomConfiguration(m, rng);
    const IkAllResult r = ikAll(m, fkPose(m, q), IkMethod::Closed, {});
    one += r.solutions.size() == 1;
  }
  CHECK(one == 300);
}

TEST_CASE("ik: wrist-partitioned 6R (puma560), 8 solutions, IK∘FK on 1000 random states", "[ik]") {
  const Model m = builtinModel("puma560");
  REQUIRE(isWristPartitioned6R(m));
  std::mt19937 rng(3);
  int found = 0, eight = 0;
  for (int k = 0; k < 1000; ++k) {
    const VecX q = test::randomConfiguration(m, rng);
    const SE3 T = fkPose(m, q);
    const IkAllResult r = ikAll(m, T, IkMethod::Closed, {}, &q);
    REQUIRE(r.status == IkStatus::Ok);
    std::vector<IkSolution> every = r.solutions;
    every.insert(every.end(), r.outside_limits.begin(), r.outside_limits.end());
    for (const auto& s : every) {
      CHECK(s.position_error < 1e-9);
      CHECK(s.orientation_error < 1e-9);
      REQUIRE(s.flags.size() == 3);
    }
    eight += every.size() == 8;
    if (containsConfig(m, r.solutions, q, 1e-7)) ++found;
  }
  CHECK(found == 1000);
  CHECK(eight >= 990);  // all 8 distinct except near-degenerate draws
}

TEST_CASE("ik: puma560 8 distinct configuration-flag combinations", "[ik]") {
  const Model m = builtinModel("puma560");
  VecX q(6);
  q << 20, 30, -60, 40, 50, 60;
  q *= kDeg;
  const IkAllResult r = ikAll(m, fkPose(m, q), IkMethod::Closed, {});
  std::vector<IkSolution> every = r.solutions;
  every.insert(every.end(), r.outside_limits.begin(), r.outside_limits.end());
  REQUIRE(every.size() == 8);
  std::set<std::string> combos;
  for (const auto& s : every) combos.insert(s.flags[0].second + s.flags[1].second + s.flags[2].second);
  CHECK(combos.size() == 8);
}

TEST_CASE("ik: numeric solver ≥ 99.9 % inside the limits on reachable targets, both robots", "[ik]") {
  // with the analytic warm start (the default) and purely numeric (LM from the seed, then restarts)
  for (const bool analytic : {true, false})
    for (const char* name : {"puma560", "prototype-4a", "stanford"}) {
      const Model m = builtinModel(name);
      Data data(m);
      IkOptions opt;
      opt.restarts = 50;
      std::mt19937 rng(5);
      int ok = 0;
      const int N = 1000;
      IkResult r;
      for (int k = 0; k < N; ++k) {
        const VecX q = test::randomConfiguration(m, rng);
        const VecX seed = test::randomConfiguration(m, rng);
        ikNumeric(m, data, fkPose(m, q), seed, opt, r, analytic);
        if (r.status == IkStatus::Ok && r.position_error <= 1e-6 && r.orientation_error <= 1e-6 && withinLimits(m, r.q))
          ++ok;
      }
      INFO(name << (analytic ? " (analytic start)" : " (numeric only)") << ": " << ok << "/" << N);
      CHECK(ok >= 999);
    }
}

TEST_CASE("numeric IK: the analytic warm start returns the closed-form solution nearest the seed, no restart needed",
          "[ik]") {
  for (const char* name : {"puma560", "prototype-4a"}) {
    const Model m = builtinModel(name);
    Data data(m);
    IkSolutionSet cs;
    IkResult r;
    std::mt19937 rng(17);
    int ok = 0, nearest = 0, reached = 0;
    const int N = 1000;
    for (int k = 0; k < N; ++k) {
      const VecX q = test::randomConfiguration(m, rng);
      const VecX seed = test::randomConfiguration(m, rng);
      const SE3 T = fkPose(m, q);
      ikNumeric(m, data, T, seed, {}, r);  // restarts = 0: one start
      if (r.status == IkStatus::Ok && r.position_error <= 1e-9 && r.orientation_error <= 1e-9 && withinLimits(m, r.q))
        ++ok;
      ikClosed(m, data, T, seed.data(), cs);
      REQUIRE(cs.n_inside >= 1);  // q itself is inside the limits
      // the closed-form solution inside the limits nearest the seed (sol[0]), polished
      double d = 0;
      for (int i = 0; i < m.nq; ++i) d = std::max(d, std::abs(r.q[i] - cs.sol(0).q[i]));
      if (d < 1e-7) ++nearest;
      // the generating configuration is one of the closed-form solutions: no solution is nearer the seed than ours
      const double dr = (r.q - seed).squaredNorm();
      for (int s = 0; s < cs.n_inside; ++s) {
        double ds = 0;
        for (int i = 0; i < m.nq; ++i) ds += (cs.sol(s).q[i] - seed[i]) * (cs.sol(s).q[i] - seed[i]);
        CHECK(dr <= ds + 1e-9);
      }
      if ((r.q - q).cwiseAbs().maxCoeff() < 1e-7) ++reached;
    }
    INFO(name << ": ok " << ok << ", nearest " << nearest << ", the generating q " << reached << " of " << N);
    CHECK(ok == N);
    CHECK(nearest == N);
    // the prototype has one solution inside its limits (thesis observation): always the generating one
    if (std::string(name) == "prototype-4a") CHECK(reached == N);
  }
  // without limits: the nearest of all closed-form solutions
  const Model m = builtinModel("puma560");
  Data data(m);
  IkOptions free;
  free.respect_limits = false;
  IkSolutionSet cs;
  IkResult r;
  std::mt19937 rng(18);
  for (int k = 0; k < 200; ++k) {
    const VecX q = test::randomConfiguration(m, rng), seed = test::randomConfiguration(m, rng);
    const SE3 T = fkPose(m, q);
    ikNumeric(m, data, T, seed, free, r);
    REQUIRE(r.status == IkStatus::Ok);
    ikClosed(m, data, T, seed.data(), cs);
    double dmin = kInf;
    for (int s = 0; s < cs.count; ++s) {
      double ds = 0;
      for (int i = 0; i < m.nq; ++i) ds += (cs.sol(s).q[i] - seed[i]) * (cs.sol(s).q[i] - seed[i]);
      dmin = std::min(dmin, ds);
    }
    CHECK((r.q - seed).squaredNorm() == Approx(dmin).margin(1e-9));
  }
}

TEST_CASE("ik: closed form, numeric and the seed agree on the prototype", "[ik]") {
  const Model m = builtinModel("prototype-4a");
  std::mt19937 rng(21);
  IkOptions opt;
  opt.restarts = 20;
  for (int k = 0; k < 100; ++k) {
    const VecX q = test::randomConfiguration(m, rng);
    const SE3 T = fkPose(m, q);
    Data d(m);
    IkResult n;
    ikNumeric(m, d, T, test::randomConfiguration(m, rng), opt, n, /*analytic_start=*/false);  // a numeric peer
    REQUIRE(n.status == IkStatus::Ok);
    const IkAllResult c = ikAll(m, T, IkMethod::Closed, {});
    REQUIRE(c.solutions.size() == 1);
    CHECK((n.q - c.solutions[0].q).cwiseAbs().maxCoeff() < 1e-7);
  }
}

TEST_CASE("ik: numeric continuity, a dragged target never flips branch", "[ik]") {
  const Model m = builtinModel("puma560");
  Data data(m);
  VecX q(6);
  q << 0.1, 0.6, -1.2, 0.3, 0.9, 0.2;
  VecX qdrag = q;
  IkResult r;
  for (int k = 0; k < 200; ++k) {
    VecX qt = q;
    qt[0] += 0.004 * k;
    qt[1] += 0.002 * k;
    qt[4] -= 0.003 * k;
    ikNumeric(m, data, fkPose(m, qt), qdrag, {}, r);
    REQUIRE(r.status == IkStatus::Ok);
    CHECK((r.q - qdrag).cwiseAbs().maxCoeff() < 0.05);  // small step, same branch
    CHECK((r.q - qt).cwiseAbs().maxCoeff() < 1e-7);
    qdrag = r.q;
  }
}

TEST_CASE("ik: reduced mobility — least squares, position-only, weights", "[ik]") {
  const Model m = builtinModel("prototype-4a");
  // a 6-DOF pose the 4-DOF chain cannot reach: rotate a reachable pose about its x axis
  VecX q(4);
  q << 120, 200, 150, 100;
  q *= kDeg;
  SE3 T = fkPose(m, q);
  T.R = T.R * Eigen::AngleAxisd(0.3, Vec3::UnitX()).toRotationMatrix();
  IkOptions opt;
  opt.restarts = 10;
  const IkResult ls = ikNumeric(m, T, q, opt);
  CHECK(ls.status == IkStatus::Unreachable);
  CHECK(ls.residual > 1e-3);
  CHECK(withinLimits(m, ls.q));
  // the least-squares residual is a local minimum: small perturbations do not improve it
  Data d(m);
  std::mt19937 rng(1);
  std::normal_distribution<double> N(0, 1e-4);
  for (int k = 0; k < 50; ++k) {
    VecX qp = ls.q;
    for (int i = 0; i < 4; ++i) qp[i] += N(rng);
    forwardKinematics(m, d, qp);
    const double e = std::sqrt((d.oMtool.p - T.p).squaredNorm() + rotationLog(T.R * d.oMtool.R.transpose()).squaredNorm());
    CHECK(e >= ls.residual - 1e-12);
  }
  // position only reaches the position exactly
  opt.position_only = true;
  const IkResult po = ikNumeric(m, T, q, opt);
  CHECK(po.status == IkStatus::Ok);
  CHECK(po.position_error < 1e-9);
  // a heavy orientation weight trades position for orientation
  IkOptions ow;
  ow.orientation_weight = 100;
  const IkResult wo = ikNumeric(m, T, q, ow);
  CHECK(wo.orientation_error < ls.orientation_error);
  CHECK(wo.position_error > ls.position_error);
  // closed form agrees on the status
  CHECK(ikAll(m, T, IkMethod::Closed, {}).status == IkStatus::Unreachable);
}

TEST_CASE("ik: targets reachable only outside the limits report 'limits'", "[ik]") {
  const Model m = builtinModel("prototype-4a");
  VecX q(4);
  q << 30, 200, 150, 100;  // joint 1 below its 60° limit
  q *= kDeg;
  const SE3 T = fkPose(m, q);
  const IkAllResult c = ikAll(m, T, IkMethod::Closed, {});
  CHECK(c.status == IkStatus::Limits);
  REQUIRE(c.outside_limits.size() == 1);
  CHECK(c.outside_limits[0].q[0] / kDeg == Approx(30).margin(1e-6));
  IkOptions opt;
  opt.restarts = 5;
  VecX near = q;
  near[0] = 70 * kDeg;  // the user is inside the limits, the target moves beyond joint 1's limit
  const IkResult n = ikNumeric(m, T, near, opt);
  CHECK(n.status == IkStatus::Limits);
  CHECK(withinLimits(m, n.q));  // the returned q stays inside the limits
  // a target at the joint limits is solved exactly
  VecX qb(4);
  qb << 60, 300, 60, 300;
  qb *= kDeg;
  const IkAllResult b = ikAll(m, fkPose(m, qb), IkMethod::Closed, {});
  REQUIRE(b.status == IkStatus::Ok);
  CHECK((b.solutions[0].q - qb).cwiseAbs().maxCoeff() < 1e-7);
}

TEST_CASE("ik: an unreachable target's nearest configuration stays inside the limits", "[ik]") {
  // Regression: a restart stuck against a bound retried without limits and, when that retry did not reach
  // the target either, restored the constrained result from a buffer the retry had overwritten, so the
  // unconstrained trial point came back (general-4a: the sweep's nearest answer had joint 4 at 57.7°, below 60°).
  const Model g = builtinModel("general-4a");
  SE3 T;
  T.R.setIdentity();
  T.p = Vec3(0.1, -0.3, 0.4);
  const IkAllResult r = ikAll(g, T, IkMethod::Auto, {});
  CHECK(r.status == IkStatus::Unreachable);
  REQUIRE(r.has_nearest);
  CHECK(r.nearest.within_limits);
  CHECK(withinLimits(g, r.nearest.q));
  // the numeric solver itself, from random starts on random unreachable targets of both A-chains
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  for (const char* name : {"general-4a", "prototype-4a"}) {
    const Model m = builtinModel(name);
    Data d(m);
    IkOptions opt;
    opt.restarts = 6;
    IkResult out;
    int unreachable = 0;
    for (int k = 0; k < 60; ++k) {
      SE3 X;
      X.R = Eigen::AngleAxisd(M_PI * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized()).toRotationMatrix();
      X.p = Vec3(u(rng), u(rng), u(rng)) * 0.6;
      VecX seed(4);
      for (int i = 0; i < 4; ++i) seed[i] = (180 + 110 * u(rng)) * kDeg;
      ikNumeric(m, d, X, seed, opt, out);
      if (out.status != IkStatus::Unreachable) continue;
      ++unreachable;
      INFO(name << " target " << k);
      CHECK(withinLimits(m, out.q));
    }
    CHECK(unreachable > 30);
  }
}

TEST_CASE("ik: degenerate sin(θ2−θ3) = 0 and wrist singularity", "[ik]") {
  // prototype-4r at θ2 = θ3 (approach ∥ axis 1) with the wrist on axis 1: a one-parameter family
  const Model r4 = builtinModel("prototype-4r");
  VecX q(4);
  q << 180, 180, 180, 180;
  q *= kDeg;
  const IkAllResult f = ikAll(r4, fkPose(r4, q), IkMethod::Closed, {});
  CHECK(f.status == IkStatus::Singular);
  REQUIRE(f.family_q0.size() == 4);
  for (double t : {-0.5, 0.0, 0.7}) {
    const VecX qt = f.family_q0 + t * f.family_dir;
    double pe, oe;
    Data d(r4);
    poseErrorAt(r4, d, qt, fkPose(r4, q), pe, oe);
    CHECK(pe < 1e-7);
    CHECK(oe < 1e-7);
  }
  // prototype-4a, θ2 = θ3 but generic θ1, θ4: isolated solutions found by the scan, never garbage
  const Model a4 = builtinModel("prototype-4a");
  VecX qa(4);
  qa << 100, 150, 150, 250;
  qa *= kDeg;
  const IkAllResult s = ikAll(a4, fkPose(a4, qa), IkMethod::Closed, {});
  REQUIRE(s.status != IkStatus::Unreachable);
  for (const auto& sol : s.solutions) CHECK(sol.position_error + sol.orientation_error < 1e-8);
  CHECK(containsConfig(a4, s.solutions, qa, 1e-5));
  // PUMA with θ5 = 0: singular, θ4 from the seed, still exact
  const Model p = builtinModel("puma560");
  VecX qp(6);
  qp << 0.2, 0.4, -0.8, 0.5, 0.0, 0.3;
  const IkAllResult w = ikAll(p, fkPose(p, qp), IkMethod::Closed, {}, &qp);
  CHECK(w.status == IkStatus::Singular);
  REQUIRE(!w.solutions.empty());
  for (const auto& sol : w.solutions) CHECK(sol.position_error + sol.orientation_error < 1e-9);
  CHECK(containsConfig(p, w.solutions, qp, 1e-7));
}

TEST_CASE("ik: malformed targets and options are rejected with a named error", "[ik]") {
  Mat4 T = Mat4::Identity();
  T(0, 3) = std::nan("");
  CHECK_THROWS_WITH(checkTarget(T), Catch::Contains("target[0][3]"));
  T = Mat4::Identity();
  T(0, 0) = 2;
  CHECK_THROWS_WITH(checkTarget(T), Catch::Contains("not orthonormal"));
  T = Mat4::Identity();
  T(3, 0) = 1;
  CHECK_THROWS_WITH(checkTarget(T), Catch::Contains("last row"));
  T = Mat4::Identity();
  T(2, 2) = -1;
  CHECK_THROWS_WITH(checkTarget(T), Catch::Contains("reflection"));
  const Model m = builtinModel("puma560");
  VecX seed = VecX::Zero(6);
  seed[2] = std::nan("");
  CHECK_THROWS_WITH(ikNumeric(m, SE3::Identity(), seed, {}), Catch::Contains("q[2]"));
  IkOptions bad;
  bad.position_weight = -1;
  CHECK_THROWS_WITH(ikNumeric(m, SE3::Identity(), VecX::Zero(6), bad), Catch::Contains("positionWeight"));
  CHECK_THROWS_WITH(ikAll(builtinModel("stanford"), SE3::Identity(), IkMethod::Closed, {}), Catch::Contains("no closed form"));
  CHECK_THROWS_WITH(ikMethodFromString("magic"), Catch::Contains("method"));
}

TEST_CASE("ik: Study parameters, T_b and T_m (corrected row 2)", "[ik]") {
  std::mt19937 rng(2);
  std::uniform_real_distribution<double> U(-1, 1);
  auto randomPose = [&] {
    SE3 T;
    T.R = Eigen::Quaterniond(U(rng), U(rng), U(rng), U(rng)).normalized().toRotationMatrix();
    T.p = Vec3(U(rng), U(rng), U(rng));
    return T;
  };
  for (int k = 0; k < 50; ++k) {
    const SE3 A = randomPose(), B = randomPose();
    const Study a = studyFromPose(A), b = studyFromPose(B);
    // Study quadric
    CHECK(std::abs(a.head<4>().dot(a.tail<4>())) < 1e-12);
    const SE3 A2 = poseFromStudy(a);
    CHECK((A2.R - A.R).norm() < 1e-12);
    CHECK((A2.p - A.p).norm() < 1e-12);
    // base change: Study(B·A) ∝ T_b(b)·a ; moving change: Study(A·B) ∝ T_m(b)·a
    const Study ba = studyFromPose(B * A), tb = studyBaseMatrix(b) * a;
    const Study ab = studyFromPose(A * B), tm = studyMovingMatrix(b) * a;
    CHECK(std::abs(std::abs(ba.normalized().dot(tb.normalized())) - 1) < 1e-12);
    CHECK(std::abs(std::abs(ab.normalized().dot(tm.normalized())) - 1) < 1e-12);
  }
  // the thesis target in inches: normalised Study parameters (reference digest §7.3)
  const Model m = builtinModel("prototype-4a");
  SE3 T = fkPose(m, thesisAngles());
  T.p /= test::kInch;
  Study s = studyFromPose(T);
  s /= s[0];
  const double expect[8] = {1, 1.15806, -4.80333, 2.83208, 66.3786, -4.27520, 0.05064, -21.60408};
  for (int i = 0; i < 8; ++i) CHECK(s[i] == Approx(expect[i]).margin(2e-3 * std::max(1.0, std::abs(expect[i]))));
}

TEST_CASE("numeric IK: the singularity escape bends the prototype out of its stretched home", "[ik]") {
  const Model m = builtinModel("prototype-4a");
  Data d(m);
  const VecX home = VecX::Constant(m.nq, kPi);  // fully stretched: the A-pairs' axial singularity
  forwardKinematics(m, d, home);
  SE3 target = d.oMtool;
  target.p.z() -= 0.03;  // drag the tool 30 mm down
  IkOptions opt;
  opt.position_only = true;
  opt.restarts = 0;
  const IkResult plain = ikNumeric(m, target, home, opt);
  opt.escape_singularity = true;
  const IkResult escaped = ikNumeric(m, target, home, opt);
  INFO("plain: " << toString(plain.status) << " residual " << plain.residual);
  CHECK(escaped.status == IkStatus::Ok);
  CHECK(escaped.position_error < 1e-9);
  CHECK(withinLimits(m, escaped.q));
  // and it is needed: from the singular pose alone the gradient vanishes
  CHECK(plain.status != IkStatus::Ok);
}

TEST_CASE("numeric IK: the continuity box (max_step) bounds every joint's step and slides toward a far target", "[ik]") {
  const Model m = builtinModel("prototype-4a");
  Data d(m);
  VecX seed(4);
  seed << 300 * kDeg, 244.8 * kDeg, 300 * kDeg, 60 * kDeg;  // the pose of issue 18 before its jump
  forwardKinematics(m, d, seed);
  const Vec3 p0 = d.oMtool.p;
  SE3 target = d.oMtool;
  target.p.z() = 0.04;  // far below: reached only by folding the arm through its base
  IkOptions opt;
  opt.position_only = true;
  opt.escape_singularity = true;
  const IkResult free = ikNumeric(m, target, seed, opt);
  const double freeStep = (free.q - seed).cwiseAbs().maxCoeff();
  opt.max_step = 2 * kDeg;
  const IkResult boxed = ikNumeric(m, target, seed, opt);
  const double step = (boxed.q - seed).cwiseAbs().maxCoeff();
  INFO("free: " << toString(free.status) << " step " << freeStep / kDeg << " deg; boxed step " << step / kDeg << " deg");
  CHECK(step <= 2 * kDeg + 1e-12);
  CHECK(withinLimits(m, boxed.q));
  CHECK(boxed.status == IkStatus::Unreachable);  // not reached within one step
  CHECK(boxed.position_error < (p0 - target.p).norm());  // but it moved toward the target
  // a near target from an interior pose is reached exactly as without the box
  VecX inner(4);
  inner << 150 * kDeg, 120 * kDeg, 200 * kDeg, 100 * kDeg;
  forwardKinematics(m, d, inner);
  SE3 near = d.oMtool;
  near.p.z() -= 0.002;
  const IkResult a = ikNumeric(m, near, inner, opt);
  opt.max_step = 0;
  const IkResult b = ikNumeric(m, near, inner, opt);
  CHECK(a.status == IkStatus::Ok);
  CHECK(b.status == IkStatus::Ok);
  CHECK((a.q - inner).cwiseAbs().maxCoeff() < 2 * kDeg);
  CHECK((a.q - b.q).cwiseAbs().maxCoeff() < 1e-9);
  // repeated boxed solves from the last answer: every step bounded, the error never grows
  opt.max_step = 2 * kDeg;
  VecX q = seed;
  double err = (p0 - target.p).norm();
  for (int k = 0; k < 200; ++k) {
    const IkResult r = ikNumeric(m, target, q, opt);
    CHECK((r.q - q).cwiseAbs().maxCoeff() <= 2 * kDeg + 1e-12);
    CHECK(r.position_error <= err + 1e-12);
    err = r.position_error;
    q = r.q;
  }
  opt.max_step = -1;
  CHECK_THROWS_WITH(ikNumeric(m, target, seed, opt), Catch::Contains("options.maxStep"));
}

TEST_CASE("ikAll position-only: min_separation keeps distinct postures of the prototype's one-parameter family", "[ik]") {
  const Model m = builtinModel("prototype-4a");
  Data d(m);
  VecX seed(4);
  seed << 150 * kDeg, 120 * kDeg, 200 * kDeg, 100 * kDeg;
  forwardKinematics(m, d, seed);
  const SE3 target = d.oMtool;
  IkOptions opt;
  opt.position_only = true;
  opt.restarts = 20;
  const IkAllResult all = ikAll(m, target, IkMethod::Numeric, opt, &seed);
  opt.min_separation = 30 * kDeg;
  const IkAllResult distinct = ikAll(m, target, IkMethod::Numeric, opt, &seed);
  INFO(all.solutions.size() << " solutions, " << distinct.solutions.size() << " distinct; " << distinct.note);
  // four joints, three position equations: a continuum, so nearly every converged start is "new" at 1e-6
  CHECK(all.solutions.size() >= 10);
  REQUIRE(distinct.solutions.size() >= 2);
  CHECK(distinct.solutions.size() < all.solutions.size());
  CHECK(distinct.status == IkStatus::Ok);
  CHECK(distinct.note.find("distinct") != std::string::npos);
  // the seed's own start comes first and is the seed (already at the target)
  CHECK((distinct.solutions[0].q - seed).cwiseAbs().maxCoeff() < 1e-6);
  for (size_t a = 0; a < distinct.solutions.size(); ++a) {
    forwardKinematics(m, d, distinct.solutions[a].q);
    CHECK((d.oMtool.p - target.p).norm() < 1e-6);
    for (size_t b = 0; b < a; ++b)
      CHECK((distinct.solutions[a].q - distinct.solutions[b].q).cwiseAbs().maxCoeff() >= 30 * kDeg);
  }
  // every dropped solution lies within 30° of a kept one (a cluster), none is lost without a representative
  for (const auto& s : all.solutions) {
    double nearest = kInf;
    for (const auto& k : distinct.solutions) nearest = std::min(nearest, (s.q - k.q).cwiseAbs().maxCoeff());
    CHECK(nearest < 30 * kDeg);
  }
  opt.min_separation = -1;
  CHECK_THROWS_WITH(ikAll(m, target, IkMethod::Numeric, opt, &seed), Catch::Contains("minSeparation"));
}
