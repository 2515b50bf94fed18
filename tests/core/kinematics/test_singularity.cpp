// Manipulability measures, named singularity detectors, statics and force ellipsoids.
#include <catch2/catch.hpp>

#include <algorithm>

#include "kinematics_test_support.hpp"
#include <achain/io/robot.hpp>
#include <achain/kinematics/singularity.hpp>
#include <achain/kinematics/statics.hpp>

using namespace achain;

namespace {
bool has(const std::vector<Singularity>& s, const std::string& kind) {
  return std::any_of(s.begin(), s.end(), [&](const Singularity& x) { return x.kind == kind; });
}
double det6(const Model& m, Data& d, const VecX& q) {
  forwardKinematics(m, d, q);
  MatX J(6, 6);
  toolJacobian(m, d, J);
  return J.determinant();
}
/// Bisection on the sign of det J along coordinate i in [lo, hi].
VecX rootOfDet(const Model& m, Data& d, VecX q, int i, double lo, double hi) {
  q[i] = lo;
  const double flo = det6(m, d, q);
  q[i] = hi;
  REQUIRE(flo * det6(m, d, q) < 0);
  for (int k = 0; k < 200 && hi - lo > 1e-15; ++k) {
    q[i] = 0.5 * (lo + hi);
    if (det6(m, d, q) * flo > 0) lo = q[i];
    else hi = q[i];
  }
  q[i] = 0.5 * (lo + hi);
  return q;
}
}  // namespace

TEST_CASE("manipulability: planar 2R has Yoshikawa measure |a1 a2 sin q2|, PUMA's equals |det J|", "[singularity]") {
  const Model m = builtinModel("planar-2r");
  Data d(m);
  MatX J(6, 2);
  for (double q2 : {0.3, 1.0, 2.5, -1.2}) {
    forwardKinematics(m, d, (VecX(2) << 0.7, q2).finished());
    toolJacobian(m, d, J);
    // the planar rows: the two in-plane velocity components (plane ⟂ the joint axis)
    const Vec3 z = d.oMj[0].R.col(2);
    Eigen::Matrix<double, 3, 3> B;
    B.col(2) = z;
    B.col(0) = z.unitOrthogonal();
    B.col(1) = z.cross(B.col(0));
    const MatX Jp = (B.transpose() * J.topRows<3>()).topRows(2);
    const Manipulability mm = manipulability(Jp);
    CHECK(mm.yoshikawa == Approx(1.0 * 0.8 * std::abs(std::sin(q2))).epsilon(1e-12));
    CHECK(mm.rank == 2);
  }
  const Model p = builtinModel("puma560");
  Data dp(p);
  std::mt19937 rng(41);
  MatX Jp(6, 6);
  for (int k = 0; k < 5; ++k) {
    forwardKinematics(p, dp, test::randomState(p, rng));
    toolJacobian(p, dp, Jp);
    const Manipulability mm = manipulability(Jp);
    CHECK(mm.yoshikawa == Approx(std::abs(Jp.determinant())).epsilon(1e-10));
    CHECK(mm.condition == Approx(mm.sigma_max / mm.sigma_min));
    CHECK((mm.U * mm.singular_values.asDiagonal() * mm.V.transpose() - Jp).cwiseAbs().maxCoeff() < 1e-13);
  }
}

TEST_CASE("prototype-4a at all 180 deg: rank 3, A-pair axial singularities, axes 1 and 4 collinear", "[singularity][thesis]") {
  const Model m = builtinModel("prototype-4a");
  Data d(m);
  forwardKinematics(m, d, VecX::Constant(4, kPi));
  MatX J(6, 4);
  toolJacobian(m, d, J);
  const Manipulability mm = manipulability(J);
  CHECK(mm.rank == 3);
  CHECK(mm.yoshikawa < 1e-14);
  const auto s = detectSingularities(m, d);
  int axial = 0;
  for (const auto& x : s) axial += x.kind == "apair-axial";
  CHECK(axial == 4);
  CHECK(has(s, "collinear-axes"));
  CHECK(has(s, "rank-deficient"));
  for (const auto& x : s)
    if (x.kind == "collinear-axes") CHECK(x.joints == std::vector<int>{0, 3});
  // away from 180°: the axial measure is |cos(θ_v/2)| = sin(δ/2)
  for (double delta : {1e-3, 0.1, 1.0}) {
    VecX q = VecX::Constant(4, 2.0);
    q[1] = kPi - delta;
    forwardKinematics(m, d, q);
    const auto s2 = detectSingularities(m, d, 1.0);
    bool found = false;
    for (const auto& x : s2)
      if (x.kind == "apair-axial" && x.joints[0] == 1) {
        found = true;
        CHECK(x.measure == Approx(std::sin(delta / 2)).epsilon(1e-12));
      }
    CHECK(found);
    CHECK_FALSE(has(detectSingularities(m, d), "apair-axial"));
  }
}

TEST_CASE("single A-pair: the axial velocity map vanishes at 180 deg, and ρ = 0 is an R-pair", "[singularity][apair]") {
  Model m;
  Joint j = test::makeJoint(JointKind::A, 0.1, 0, 0.05, 0);
  j.rho = 0.08;
  m.joints = {j};
  m.finalize();
  Data d(m);
  forwardKinematics(m, d, VecX::Constant(1, kPi));
  MatX J(6, 1);
  toolJacobian(m, d, J);
  CHECK(std::abs(J(2, 0)) < 1e-17);
  CHECK(has(detectSingularities(m, d), "apair-axial"));
  m.joints[0].rho = 0;
  m.finalize();
  Data r(m);  // another description: the first Data is refused by it (checkData)
  forwardKinematics(m, r, VecX::Constant(1, kPi));
  CHECK_FALSE(has(detectSingularities(m, r), "apair-axial"));
}

TEST_CASE("PUMA 560: named wrist, elbow and shoulder detectors sit exactly where det J changes sign", "[singularity][puma]") {
  const Model m = builtinModel("puma560");
  Data d(m);
  forwardKinematics(m, d, VecX::Zero(6));
  REQUIRE(isWristPartitioned(m, d));
  const VecX qn = (VecX(6) << 0, kPi / 4, kPi, 0, kPi / 4, 0).finished();  // Corke's nominal pose
  forwardKinematics(m, d, qn);
  CHECK(detectSingularities(m, d).empty());
  // wrist: q5 = 0
  VecX q = qn;
  q[4] = 0;
  forwardKinematics(m, d, q);
  auto s = detectSingularities(m, d);
  CHECK(has(s, "wrist"));
  CHECK(has(s, "collinear-axes"));
  CHECK_FALSE(has(s, "elbow"));
  // elbow: det J changes sign along q3 (the elbow factor depends on q3 only)
  const VecX qe = rootOfDet(m, d, qn, 2, -kPi / 2 - 0.5, -kPi / 2 + 0.5);
  forwardKinematics(m, d, qe);
  s = detectSingularities(m, d);
  INFO("elbow q3 = " << qe[2] / kDeg << " deg");
  CHECK(has(s, "elbow"));
  CHECK_FALSE(has(s, "wrist"));
  CHECK_FALSE(has(s, "shoulder"));
  // Corke's PUMA: stretched when the wrist centre lies on the line of axes 2–3: tan(q3 + 90°) = a3/d4
  CHECK(std::remainder(qe[2] - (std::atan2(0.0203, 0.4318) - kPi / 2), kPi) == Approx(0).margin(1e-9));
  // shoulder: along q2 the elbow factor stays fixed, so a sign change of det J is the shoulder
  const VecX qs = rootOfDet(m, d, qn, 1, 0.3, 2.8);
  forwardKinematics(m, d, qs);
  s = detectSingularities(m, d);
  INFO("shoulder q2 = " << qs[1] / kDeg << " deg");
  CHECK(has(s, "shoulder"));
  CHECK_FALSE(has(s, "elbow"));
}

TEST_CASE("statics: τ = Jᵀ F equals the virtual work of the wrench (finite differences), all joint kinds", "[statics]") {
  std::mt19937 rng(42);
  for (const Model& m : {builtinModel("prototype-4a"), builtinModel("stanford"), test::mixedChain(DHConvention::Standard)}) {
    Data d(m), dd(m);
    for (int k = 0; k < 5; ++k) {
      const VecX q = test::randomState(m, rng);
      forwardKinematics(m, d, q);
      const Vec3 f = Vec3::Random() * 10, mom = Vec3::Random();
      Vec6 F;
      F << f, mom;
      const VecX tau = staticTorques(m, d, F);
      for (int i = 0; i < m.nv; ++i) {
        // δW = f·δp + m·δφ with δφ the small rotation: (dR Rᵀ)^∨
        const double w = test::richardson<double>([&](double t) {
          VecX x = q;
          x[i] += t;
          forwardKinematics(m, dd, x);
          return f.dot(dd.oMtool.p);
        });
        const Mat3 dR = test::richardson<Mat3>([&](double t) {
          VecX x = q;
          x[i] += t;
          forwardKinematics(m, dd, x);
          return Mat3(dd.oMtool.R);
        });
        CHECK(tau[i] == Approx(w + mom.dot(test::vee(dR * d.oMtool.R.transpose()))).margin(1e-8));
      }
      // the same wrench given in the tool frame gives the same torques
      Vec6 Ft;
      Ft << d.oMtool.R.transpose() * f, d.oMtool.R.transpose() * mom;
      CHECK((staticTorques(m, d, Ft, Frame::Tool) - tau).cwiseAbs().maxCoeff() < 1e-12);
    }
  }
}

TEST_CASE("statics at the 4A singularity: y/z forces and an x moment need no joint torque", "[statics][thesis]") {
  const Model m = builtinModel("prototype-4a");
  Data d(m);
  forwardKinematics(m, d, VecX::Constant(4, kPi));
  Vec6 F;
  F << 0, 3.0, -7.0, 2.0, 0, 0;
  CHECK(staticTorques(m, d, F).cwiseAbs().maxCoeff() < 1e-12);
  MatX J(6, 4);
  toolJacobian(m, d, J);
  const Ellipsoid fe = forceEllipsoid(J.topRows<3>());
  const Ellipsoid ve = velocityEllipsoid(J.topRows<3>());
  // rows v_y, v_z are zero: one finite force axis along x0 (radius 1/|J_x|), two unbounded
  CHECK(std::isinf(fe.radii[1]));
  CHECK(std::isinf(fe.radii[2]));
  CHECK(fe.radii[0] == Approx(1.0 / J.row(0).norm()).epsilon(1e-12));
  CHECK(std::abs(std::abs(fe.axes(0, 0)) - 1) < 1e-12);
  CHECK(ve.radii[0] == Approx(J.row(0).norm()).epsilon(1e-12));
  CHECK(ve.radii[1] == 0.0);
  // a single A-pair holding an axial load f_z: τ = (ρ/2)cos(θ_v/2)·f_z
  Model a;
  Joint j = test::makeJoint(JointKind::A, 0, 0, 0.05, 0);
  j.rho = 0.08;
  a.joints = {j};
  a.finalize();
  Data da(a);
  for (double th : {0.5, 2.0, kPi, 4.0}) {
    forwardKinematics(a, da, VecX::Constant(1, th));
    Vec6 Fz;
    Fz << 0, 0, 50.0, 0, 0, 0;
    CHECK(staticTorques(a, da, Fz)[0] == Approx(0.04 * std::cos(th / 2) * 50).margin(1e-14));
  }
}

TEST_CASE("force and velocity ellipsoids are dual (radii reciprocal, same axes)", "[statics]") {
  const Model m = builtinModel("puma560");
  Data d(m);
  std::mt19937 rng(43);
  MatX J(6, 6);
  forwardKinematics(m, d, test::randomState(m, rng));
  toolJacobian(m, d, J);
  const MatX Jv = J.topRows<3>();
  const Ellipsoid fe = forceEllipsoid(Jv), ve = velocityEllipsoid(Jv);
  for (int i = 0; i < 3; ++i) {
    CHECK(fe.radii[i] * ve.radii[i] == Approx(1.0).epsilon(1e-12));
    // a force of length r along axis i needs ‖τ‖ = 1
    const VecX tau = Jv.transpose() * (fe.axes.col(i) * fe.radii[i]);
    CHECK(tau.norm() == Approx(1.0).epsilon(1e-10));
  }
}

TEST_CASE("manipulability of a 6×4 Jacobian: Yoshikawa measure is √det(JᵀJ)", "[singularity]") {
  const Model m = builtinModel("prototype-4a");
  Data d(m);
  std::mt19937 rng(44);
  MatX J(6, 4);
  for (int k = 0; k < 5; ++k) {
    forwardKinematics(m, d, test::randomState(m, rng));
    toolJacobian(m, d, J);
    const Manipulability mm = manipulability(J);
    CHECK(mm.yoshikawa == Approx(std::sqrt((J.transpose() * J).determinant())).epsilon(1e-10));
    CHECK(mm.rank == 4);
  }
}

TEST_CASE("the rank warning never contradicts itself (rank n < n)", "[singularity]") {
  for (const char* name : {"puma560", "prototype-4a"}) {
    const Model m = builtinModel(name);
    Data d(m);
    int near = 0;
    for (double t = 0; t <= 2 * kPi; t += kPi / 32) {
      VecX q = VecX::Constant(m.nq, kPi);  // the prototype's stretched home, the PUMA folded/stretched
      q[1] += 0.02 * std::sin(t);
      forwardKinematics(m, d, q);
      for (const Singularity& s : detectSingularities(m, d, 0.05)) {
        if (s.kind != "rank-deficient") continue;
        ++near;
        const std::string full = "rank " + std::to_string(m.nv) + " < " + std::to_string(m.nv);
        CHECK(s.description.find(full) == std::string::npos);
      }
    }
    CHECK(near > 0);  // the sweep does pass near the singularity
  }
}
