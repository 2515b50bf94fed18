// Forward kinematics against the thesis, the PUMA 560 toolbox poses, and identities.
#include <catch2/catch.hpp>
#include <random>

#include <achain/model/apair.hpp>
#include <achain/kinematics/fk.hpp>
#include "helpers.hpp"
#include <achain/io/robot.hpp>

using namespace achain;
using test::kInch;

static SE3 toolPose(const Model& m, const VecX& q) {
  Data d(m);
  forwardKinematics(m, d, q);
  return d.oMtool;
}

static VecX deg(std::initializer_list<double> v) {
  VecX q(v.size());
  int i = 0;
  for (double x : v) q[i++] = x * kDeg;
  return q;
}

TEST_CASE("prototype-4a fully extended: all theta_v = 180 deg puts the tool at 38.657 in on z0", "[fk][thesis]") {
  const Model m = builtinModel("prototype-4a");
  const SE3 T = toolPose(m, deg({180, 180, 180, 180}));
  // 13 + 12 + 8 + rho = 33 + 4*sqrt(2) in (Robinson §6.1)
  const double z = (33.0 + 4.0 * std::sqrt(2.0)) * kInch;
  CHECK(T.p.x() == Approx(0).margin(1e-12));
  CHECK(T.p.y() == Approx(0).margin(1e-12));
  CHECK(T.p.z() == Approx(z).epsilon(1e-14));
  CHECK(T.p.z() == Approx(0.98189).margin(1e-5));
  Mat3 expected = Vec3(-1, -1, 1).asDiagonal();
  CHECK((T.R - expected).cwiseAbs().maxCoeff() < 1e-12);
}

TEST_CASE("prototype-4a at all theta_v = 60 deg (reference digest §6.1)", "[fk][thesis]") {
  const Model m = builtinModel("prototype-4a");
  const SE3 T = toolPose(m, deg({60, 60, 60, 60}));
  CHECK(T.p.x() / kInch == Approx(5.196).margin(1e-3));
  CHECK(T.p.y() / kInch == Approx(9.000).margin(1e-3));
  CHECK(T.p.z() / kInch == Approx(15.000).margin(1e-3));
  Mat3 R;
  R << 0.5, 0.866, 0, -0.866, 0.5, 0, 0, 0, 1;
  CHECK((T.R - R).cwiseAbs().maxCoeff() < 1e-3);
}

TEST_CASE("prototype-4a at the IK example's angles reproduces the thesis target pose (Eq. 3.150)", "[fk][thesis]") {
  const Model m = builtinModel("prototype-4a");
  const SE3 T = toolPose(m, deg({84.107, 224.203, 106.791, 236.997}));
  // Eq. 3.150, converted from the thesis layout [[1,0],[p,R]] to [R p; 0 1], inches.
  const Vec3 p(-1.345, -19.850, 13.760);
  Mat3 R;
  R << -0.860, -0.502, -0.0911, -0.163, 0.440, -0.883, 0.484, -0.744, -0.4604;
  CHECK((T.p / kInch - p).cwiseAbs().maxCoeff() < 3e-3);
  CHECK((T.R - R).cwiseAbs().maxCoeff() < 1.5e-3);
  // The closed form of Eq. 3.36 (all angles θ_v, h_i = sin(θ_vi/2)).
  const double rho = 4 * std::sqrt(2.0), a2 = 12, d1 = 13 - rho, d4 = 8;
  const VecX q = deg({84.107, 224.203, 106.791, 236.997});
  const double s1 = std::sin(q[0]), c1 = std::cos(q[0]), s2 = std::sin(q[1]), c2 = std::cos(q[1]);
  const double s23 = std::sin(q[1] - q[2]), c23 = std::cos(q[1] - q[2]);
  const double h1 = std::sin(q[0] / 2), h2 = std::sin(q[1] / 2), h3 = std::sin(q[2] / 2), h4 = std::sin(q[3] / 2);
  const Vec3 closed(rho * s1 * h2 + a2 * c1 * s2 - rho * s1 * h3 - rho * c1 * s23 * h4 - d4 * c1 * s23,
                    -rho * c1 * h2 + a2 * s1 * s2 + rho * c1 * h3 - rho * s1 * s23 * h4 - d4 * s1 * s23,
                    rho * h1 + d1 - a2 * c2 + rho * c23 * h4 + d4 * c23);
  CHECK((T.p / kInch - closed).cwiseAbs().maxCoeff() < 1e-10);
}

TEST_CASE("A-pairs change only position: prototype-4a and prototype-4r share orientation", "[fk][apair]") {
  const Model a = builtinModel("prototype-4a");
  const Model r = builtinModel("prototype-4r");
  std::mt19937 rng(7);
  for (int k = 0; k < 100; ++k) {
    const VecX q = test::randomConfiguration(a, rng);
    CHECK((toolPose(a, q).R - toolPose(r, q).R).cwiseAbs().maxCoeff() < 1e-12);
  }
}

TEST_CASE("rho = 0 reproduces the R-pair exactly", "[fk][apair]") {
  Model a = builtinModel("prototype-4a");
  const Model r = builtinModel("prototype-4r");
  for (auto& j : a.joints) { j.rho = 0; j.leg_mass = 0; }
  a.finalize();
  std::mt19937 rng(11);
  for (int k = 0; k < 100; ++k) {
    VecX q = test::randomConfiguration(a, rng) * 3.0;  // beyond the limits too: the identity is global
    const SE3 Ta = toolPose(a, q), Tr = toolPose(r, q);
    CHECK(Ta.R == Tr.R);
    CHECK(Ta.p == Tr.p);
  }
}

TEST_CASE("A-pair translation is 720-degree periodic and flips sign after 360 degrees", "[fk][apair]") {
  const Model m = builtinModel("prototype-4a");
  std::mt19937 rng(3);
  for (int k = 0; k < 20; ++k) {
    VecX q = test::randomConfiguration(m, rng);
    VecX q720 = q, q360 = q;
    q720[3] += 4 * kPi;
    q360[3] += 2 * kPi;
    const SE3 T = toolPose(m, q), T720 = toolPose(m, q720), T360 = toolPose(m, q360);
    CHECK((T.p - T720.p).norm() < 1e-12);
    CHECK((T.R - T360.R).cwiseAbs().maxCoeff() < 1e-12);
    // Joint 4's axis is the tool z axis: after +360° its axial offset ρ·sin(θ/2) changes sign.
    const double rho = m.joints[3].rho;
    const Vec3 z = T.R.col(2);
    CHECK((T360.p - T.p).dot(z) == Approx(-2 * rho * std::sin(q[3] / 2)).margin(1e-12));
  }
}

TEST_CASE("PUMA 560 named poses (Corke mdl_puma560)", "[fk][puma]") {
  const Model m = builtinModel("puma560");
  struct Pose { VecX q; Vec3 p; Mat3 R; };
  Mat3 Ry;
  Ry << 0, 0, 1, 0, 1, 0, -1, 0, 0;
  const Pose poses[] = {
      {deg({0, 0, 0, 0, 0, 0}), Vec3(0.4521, -0.1500, 0.4318), Mat3::Identity()},
      {deg({0, 90, -90, 0, 0, 0}), Vec3(0.0203, -0.1500, 0.8636), Mat3::Identity()},
      {deg({0, 0, -90, 0, 0, 0}), Vec3(0.8636, -0.1501, -0.0203), Ry},
      {deg({0, 45, 180, 0, 45, 0}), Vec3(0.5963, -0.1501, -0.0144), Ry},
  };
  for (const auto& ps : poses) {
    const SE3 T = toolPose(m, ps.q);
    CHECK((T.p - ps.p).cwiseAbs().maxCoeff() < 1e-4);
    CHECK((T.R - ps.R).cwiseAbs().maxCoeff() < 1e-4);
  }
  // Exact values at qz: x = a2 + d4·0 ... = 0.4318 + 0.0203, y = −0.15005, z = d4 = 0.4318
  const SE3 T = toolPose(m, deg({0, 0, 0, 0, 0, 0}));
  CHECK(T.p.x() == Approx(0.4521).epsilon(1e-14));
  CHECK(T.p.y() == Approx(-0.15005).epsilon(1e-14));
  CHECK(T.p.z() == Approx(0.4318).epsilon(1e-14));
}

TEST_CASE("standard and modified DH descriptions of the same arm give the same tool pose", "[fk][dh]") {
  for (const char* name : {"prototype-4a", "puma560", "stanford", "planar-2r"}) {
    const Model s = builtinModel(name);
    const Model mdh = convertConvention(s, DHConvention::Modified);
    const Model back = convertConvention(mdh, DHConvention::Standard);
    REQUIRE(mdh.convention == DHConvention::Modified);
    std::mt19937 rng(5);
    for (int k = 0; k < 50; ++k) {
      const VecX q = test::randomConfiguration(s, rng);
      const SE3 Ts = toolPose(s, q), Tm = toolPose(mdh, q), Tb = toolPose(back, q);
      INFO(name);
      CHECK((Ts.R - Tm.R).cwiseAbs().maxCoeff() < 1e-12);
      CHECK((Ts.p - Tm.p).cwiseAbs().maxCoeff() < 1e-12);
      CHECK((Ts.R - Tb.R).cwiseAbs().maxCoeff() < 1e-12);
      CHECK((Ts.p - Tb.p).cwiseAbs().maxCoeff() < 1e-12);
    }
  }
}

TEST_CASE("modified DH: each link's centre of mass lands at the same world point", "[fk][dh]") {
  const Model s = builtinModel("puma560");
  const Model mdh = convertConvention(s, DHConvention::Modified);
  Data ds(s), dm(mdh);
  std::mt19937 rng(9);
  const VecX q = test::randomConfiguration(s, rng);
  forwardKinematics(s, ds, q);
  forwardKinematics(mdh, dm, q);
  for (int i = 0; i < s.njoints(); ++i) {
    const Vec3 cs = ds.oMi[i].act(s.joints[i].link.com), cm = dm.oMi[i].act(mdh.joints[i].link.com);
    CHECK((cs - cm).norm() < 1e-12);
    const Mat3 Is = ds.oMi[i].R * s.joints[i].link.inertia * ds.oMi[i].R.transpose();
    const Mat3 Im = dm.oMi[i].R * mdh.joints[i].link.inertia * dm.oMi[i].R.transpose();
    CHECK((Is - Im).cwiseAbs().maxCoeff() < 1e-12);
  }
}

TEST_CASE("prismatic and helical joints move along their axis", "[fk]") {
  const Model st = builtinModel("stanford");
  Data d(st);
  VecX q = VecX::Zero(6);
  q[2] = 0.5;
  forwardKinematics(st, d, q);
  const Vec3 p1 = d.oMtool.p;
  q[2] = 0.7;
  forwardKinematics(st, d, q);
  CHECK((d.oMtool.p - p1 - 0.2 * d.oMj[2].R.col(2)).norm() < 1e-14);

  Model h = builtinModel("planar-2r");
  h.joints[0].kind = JointKind::H;
  h.joints[0].pitch = 0.01;  // 1 cm per radian
  h.finalize();
  Data dh(h);
  VecX qh(2);
  qh << 2.0, 0.3;
  forwardKinematics(h, dh, qh);
  CHECK(dh.oMtool.p.z() == Approx(0.02).epsilon(1e-14));
}

TEST_CASE("the six legs of every A-pair keep their length over the whole 720-degree cycle", "[apair]") {
  const Model m = builtinModel("prototype-4a");
  Data d(m);
  const double leg = 6.0 * kInch;
  for (int step = 0; step <= 144; ++step) {
    const double th = step * 5.0 * kDeg;  // 0..720°
    VecX q = VecX::Constant(4, th);
    forwardKinematics(m, d, q);
    for (int i = 0; i < 4; ++i) {
      std::array<Vec3, 6> b, p;
      apairLegEndpoints(m, d, i, q[i], b, p);
      for (int k = 0; k < 6; ++k) CHECK((p[k] - b[k]).norm() == Approx(leg).epsilon(1e-12));
    }
  }
}

TEST_CASE("the printed anchors B6 and P4 (before the errata) would not keep leg length", "[apair][errata]") {
  const double a = 1.0, r3 = std::sqrt(3.0), rho = apairRhoFromSide(a);
  auto legLen = [&](Vec3 b, Vec3 p, double th) {
    const Vec3 P(p.x() * std::cos(th) - p.y() * std::sin(th), p.x() * std::sin(th) + p.y() * std::cos(th), rho * std::sin(th / 2));
    return (P - b).norm();
  };
  const ApairAnchors A = apairAnchors(a);
  // corrected anchors: constant length a√3/2
  CHECK(legLen(A.base[5], A.platform[5], 1.0) == Approx(a * r3 / 2).epsilon(1e-14));
  CHECK(legLen(A.base[3], A.platform[3], 1.0) == Approx(a * r3 / 2).epsilon(1e-14));
  // printed B6 = (−a/4, −a√3/12): length changes with θ
  const Vec3 B6printed(-a / 4, -a * r3 / 12, 0);
  CHECK(std::abs(legLen(B6printed, A.platform[5], 1.0) - legLen(B6printed, A.platform[5], 2.0)) > 0.05);
}

TEST_CASE("A-pair constants: rho from side and from leg length (Robinson Eq. 3.3-3.4)", "[apair]") {
  CHECK(apairRhoFromSide(1.0) == Approx(0.816496580927726));
  CHECK(apairLegFromRho(apairRhoFromSide(1.0)) == Approx(std::sqrt(3.0) / 2));
  CHECK(apairRhoFromLeg(6.0) == Approx(4 * std::sqrt(2.0)).epsilon(1e-15));
}

TEST_CASE("configuration checks name the bad entry", "[fk][errors]") {
  const Model m = builtinModel("prototype-4a");
  VecX q(3);
  CHECK_THROWS_WITH(checkConfiguration(m, q), "q: expected 4 values, got 3");
  VecX q4 = VecX::Constant(4, 1.0);
  q4[2] = std::nan("");
  CHECK_THROWS_WITH(checkConfiguration(m, q4), "q[2]: must be a finite number");
}
