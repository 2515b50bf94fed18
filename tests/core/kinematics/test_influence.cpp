// Freeman's influence coefficients G, H, D against Richardson finite differences (tolerance
// argument in kinematics_test_support.hpp), on every built-in and on mixed R/P/H/A chains and a
// tree; symmetry properties; acceleration and jerk formulas; Freeman Appendix B in closed form.
#include <catch2/catch.hpp>

#include <achain/kinematics/influence.hpp>
#include <achain/kinematics/jacobian.hpp>
#include "kinematics_test_support.hpp"
#include <achain/io/robot.hpp>

using namespace achain;
using test::richardson;

namespace {

std::vector<Model> allModels() {
  std::vector<Model> ms;
  for (const auto& r : builtinRobots()) ms.push_back(builtinModel(r.name));
  ms.push_back(test::mixedChain(DHConvention::Standard));
  ms.push_back(test::mixedChain(DHConvention::Modified));
  ms.push_back(test::mixedTree());
  return ms;
}

VecX flatten(const Tensor3& H) { return Eigen::Map<const VecX>(H.data(), static_cast<Eigen::Index>(H.size())); }

}  // namespace

TEST_CASE("G equals finite differences of FK for every link, point and model", "[influence]") {
  std::mt19937 rng(7);
  for (const Model& m : allModels()) {
    Data d(m), dd(m);
    Influence inf;
    for (int k = 0; k < 6; ++k) {
      const VecX q = test::randomState(m, rng);
      forwardKinematics(m, d, q);
      for (int link = 0; link < m.njoints(); ++link) {
        const Vec3 pt = Vec3::Random() * 0.2;
        influence(m, d, link, pt, inf, 1);
        MatX Gfd(6, m.nv);
        const Mat3 R0 = d.oMi[link].R;
        for (int i = 0; i < m.nv; ++i) {
          auto qs = [&](double t) { VecX x = q; x[i] += t; return x; };
          Gfd.block<3, 1>(0, i) = richardson<Vec3>([&](double t) { return test::fkPoint(m, dd, qs(t), link, pt); });
          const Mat3 dR = richardson<Mat3>([&](double t) { forwardKinematics(m, dd, qs(t)); return Mat3(dd.oMi[link].R); });
          Gfd.block<3, 1>(3, i) = test::vee(dR * R0.transpose());
        }
        INFO(m.name << " link " << link);
        CHECK(test::relErr(inf.G, Gfd) < 1e-8);
      }
    }
  }
}

TEST_CASE("pointJacobian / toolJacobian equal G of the same point", "[influence][jacobian]") {
  std::mt19937 rng(8);
  for (const Model& m : allModels()) {
    Data d(m);
    Influence inf;
    MatX J(6, m.nv);
    const VecX q = test::randomState(m, rng);
    forwardKinematics(m, d, q);
    toolInfluence(m, d, inf, 1);
    toolJacobian(m, d, J);
    CHECK((J - inf.G).cwiseAbs().maxCoeff() < 1e-14);
    const Vec3 pt(0.01, -0.02, 0.03);
    pointJacobian(m, d, 0, pt, J);
    influence(m, d, 0, pt, inf, 1);
    CHECK((J - inf.G).cwiseAbs().maxCoeff() < 1e-14);
  }
}

TEST_CASE("H is the derivative of G and D the derivative of H (all models, all links)", "[influence]") {
  std::mt19937 rng(9);
  for (const Model& m : allModels()) {
    Data d(m), dd(m);
    Influence inf, tmp;
    for (int k = 0; k < 4; ++k) {
      const VecX q = test::randomState(m, rng);
      forwardKinematics(m, d, q);
      for (int link = 0; link < m.njoints(); ++link) {
        const Vec3 pt = Vec3::Random() * 0.2;
        influence(m, d, link, pt, inf, 3);
        double errH = 0, errD = 0, scaleH = 1, scaleD = 1;
        for (int a = 0; a < m.nv; ++a) {
          auto at = [&](double t, int order) {
            VecX x = q;
            x[a] += t;
            forwardKinematics(m, dd, x);
            influence(m, dd, link, pt, tmp, order);
          };
          // h_{a n} = ∂g_n/∂q_a
          const MatX dG = richardson<MatX>([&](double t) { at(t, 1); return tmp.G; });
          for (int p = 0; p < 6; ++p)
            for (int n = 0; n < m.nv; ++n) {
              errH = std::max(errH, std::abs(inf.H(p, a, n) - dG(p, n)));
              scaleH = std::max(scaleH, std::abs(dG(p, n)));
            }
          // d_{a m n} = ∂h_{mn}/∂q_a
          const VecX dH = richardson<VecX>([&](double t) { at(t, 2); return flatten(tmp.H); });
          Tensor3 dHt(6, m.nv, m.nv);
          Eigen::Map<VecX>(dHt.data(), dH.size()) = dH;
          for (int p = 0; p < 6; ++p)
            for (int mm = 0; mm < m.nv; ++mm)
              for (int n = 0; n < m.nv; ++n) {
                errD = std::max(errD, std::abs(inf.D(p, a, mm, n) - dHt(p, mm, n)));
                scaleD = std::max(scaleD, std::abs(dHt(p, mm, n)));
              }
        }
        INFO(m.name << " link " << link);
        CHECK(errH / scaleH < 1e-8);
        CHECK(errD / scaleD < 1e-8);
      }
    }
  }
}

TEST_CASE("translational H equals the second derivative of the point's position (independent of G)", "[influence]") {
  std::mt19937 rng(10);
  for (const Model& m : allModels()) {
    Data d(m), dd(m);
    Influence inf;
    const VecX q = test::randomState(m, rng);
    forwardKinematics(m, d, q);
    const int link = m.toolLink();
    const Vec3 pt(0.02, 0.05, -0.03);
    influence(m, d, link, pt, inf, 2);
    double err = 0;
    for (int a = 0; a < m.nv; ++a)
      for (int b = 0; b < m.nv; ++b) {
        // ∂²p/∂q_a∂q_b: nested Richardson differences of positions only.
        const Vec3 h2 = richardson<Vec3>([&](double s) {
          return richardson<Vec3>([&](double t) {
            VecX x = q;
            x[a] += s;
            x[b] += t;
            return test::fkPoint(m, dd, x, link, pt);
          }, 2e-3);
        }, 2e-3);
        for (int p = 0; p < 3; ++p) err = std::max(err, std::abs(inf.H(p, a, b) - h2[p]));
      }
    INFO(m.name);
    // nested differences: round-off ≈ ε·|p|/h² ≈ 1e-10; truncation O(h⁴) ≈ 1e-11.
    CHECK(err < 1e-7);
  }
}

TEST_CASE("translational H and D are symmetric, rotational H is not (h_mn = w_m × w_n, h_nm = 0)", "[influence]") {
  const Model m = builtinModel("puma560");
  Data d(m);
  std::mt19937 rng(11);
  const VecX q = test::randomState(m, rng);
  forwardKinematics(m, d, q);
  Influence inf;
  influence(m, d, 5, Vec3(0.01, 0.02, 0.05), inf, 3);
  double asymT = 0, asymR = 0, lower = 0, asymD = 0;
  for (int p = 0; p < 3; ++p) {
    asymT = std::max(asymT, (inf.H.plane(p) - inf.H.plane(p).transpose()).cwiseAbs().maxCoeff());
    asymR = std::max(asymR, (inf.H.plane(3 + p) - inf.H.plane(3 + p).transpose()).cwiseAbs().maxCoeff());
    for (int a = 0; a < 6; ++a)
      for (int b = 0; b < a; ++b) lower = std::max(lower, std::abs(inf.H(3 + p, a, b)));
    for (int l = 0; l < 6; ++l)
      for (int a = 0; a < 6; ++a)
        for (int b = 0; b < 6; ++b)
          asymD = std::max({asymD, std::abs(inf.D(p, l, a, b) - inf.D(p, a, l, b)),
                            std::abs(inf.D(p, l, a, b) - inf.D(p, l, b, a))});
  }
  CHECK(asymT < 1e-15);
  CHECK(asymD < 1e-14);   // full symmetry of D is not built in: it comes out of the algebra
  CHECK(asymR > 0.1);     // PUMA axes 1,2 are perpendicular: |z1 × z2| = 1
  CHECK(lower == 0.0);    // rotation: ∂w_n/∂q_m = 0 for m at or after n
  // The rotational diagonal vanishes (an axis does not turn about itself) ...
  for (int p = 3; p < 6; ++p) CHECK(inf.H.plane(p).diagonal().cwiseAbs().maxCoeff() == 0.0);
}

TEST_CASE("A-pair: the axial curvature enters H and D on the diagonal", "[influence][apair]") {
  // One A-pair alone, point on its axis: p_z = d + ρ sin(q/2), so h_zz = −(ρ/4) sin(q/2), d_zzz = −(ρ/8) cos(q/2).
  Model m;
  Joint j = test::makeJoint(JointKind::A, 0, 0, 0.1, 0);
  j.rho = 0.08;
  m.joints = {j};
  m.finalize();
  Data d(m);
  Influence inf;
  for (double q : {-5.0, -1.0, 0.3, 2.0, kPi, 4.0, 6.0}) {
    forwardKinematics(m, d, VecX::Constant(1, q));
    influence(m, d, 0, Vec3::Zero(), inf, 3);
    CHECK(inf.G(2, 0) == Approx(0.04 * std::cos(q / 2)).margin(1e-16));
    CHECK(inf.H(2, 0, 0) == Approx(-0.02 * std::sin(q / 2)).margin(1e-16));
    CHECK(inf.D(2, 0, 0, 0) == Approx(-0.01 * std::cos(q / 2)).margin(1e-16));
    // the joint model's derivatives, as FK stores them in Data
    CHECK(d.axial_curv[0] == Approx(inf.H(2, 0, 0)).margin(1e-16));
    CHECK(d.axial_jerk[0] == Approx(inf.D(2, 0, 0, 0)).margin(1e-16));
  }
}

TEST_CASE("acceleration and jerk formulas match differentiation along a trajectory", "[influence]") {
  std::mt19937 rng(12);
  for (const Model& m : allModels()) {
    Data d(m), dd(m);
    Influence inf, tmp;
    const int n = m.nv;
    const VecX q0 = test::randomState(m, rng);
    const VecX v = VecX::Random(n), a = VecX::Random(n), j = VecX::Random(n);
    auto qAt = [&](double t) { return VecX(q0 + v * t + a * (t * t / 2) + j * (t * t * t / 6)); };
    auto vAt = [&](double t) { return VecX(v + a * t + j * (t * t / 2)); };
    auto aAt = [&](double t) { return VecX(a + j * t); };
    const int link = m.toolLink();
    const Vec3 pt(0.03, -0.01, 0.04);
    forwardKinematics(m, d, q0);
    influence(m, d, link, pt, inf, 3);
    VecX acc(6), jerk(6);
    influenceAcceleration(inf.G, inf.H, v, a, acc);
    influenceJerk(inf.G, inf.H, inf.D, v, a, j, jerk);
    // velocity u̇(t) = G(q(t)) q̇(t) (G verified above); its derivative must be the acceleration.
    auto uDot = [&](double t) {
      forwardKinematics(m, dd, qAt(t));
      influence(m, dd, link, pt, tmp, 1);
      return VecX(tmp.G * vAt(t));
    };
    auto uDdot = [&](double t) {
      forwardKinematics(m, dd, qAt(t));
      influence(m, dd, link, pt, tmp, 2);
      VecX out(6);
      influenceAcceleration(tmp.G, tmp.H, vAt(t), aAt(t), out);
      return out;
    };
    INFO(m.name);
    CHECK(test::relErr(acc, richardson<VecX>(uDot)) < 1e-8);
    CHECK(test::relErr(jerk, richardson<VecX>(uDdot)) < 1e-8);
    // and the translational acceleration is the second derivative of the position itself
    const Vec3 p2 = richardson<Vec3>([&](double s) {
      return richardson<Vec3>([&](double t) { return test::fkPoint(m, dd, qAt(s + t), link, pt); }, 2e-3);
    }, 2e-3);
    CHECK((acc.head<3>() - p2).cwiseAbs().maxCoeff() < 1e-7);
  }
}

TEST_CASE("Freeman Appendix B: G and H of the wrist-partitioned elbow arm in closed form", "[influence][freeman]") {
  // Joints 1, 2 intersect (a12 = 0, α12 = 90°), s3 ∥ s2; wrist point P = origin of frame 3.
  const double s11 = 0.6, a23 = 0.45, a34 = 0.38;
  Model m;
  m.joints = {test::makeJoint(JointKind::R, 0, kPi / 2, s11, 0), test::makeJoint(JointKind::R, a23, 0, 0, 0),
              test::makeJoint(JointKind::R, a34, 0, 0, 0)};
  for (int i = 0; i < 3; ++i) m.joints[i].parent = i - 1;
  m.finalize();
  Data d(m);
  Influence inf;
  std::mt19937 rng(13);
  for (int k = 0; k < 10; ++k) {
    const VecX th = test::randomState(m, rng);
    forwardKinematics(m, d, th);
    influence(m, d, 2, Vec3::Zero(), inf, 2);
    const double s1 = std::sin(th[0]), c1 = std::cos(th[0]);
    const double s23 = std::sin(th[1] + th[2]), c23 = std::cos(th[1] + th[2]);
    const double r = a23 * std::cos(th[1]) + a34 * c23, Pz = a23 * std::sin(th[1]) + a34 * s23;
    Mat3 G, HX, HY, HZ;
    G << -r * s1, -Pz * c1, -a34 * s23 * c1,
          r * c1, -Pz * s1, -a34 * s23 * s1,
          0, r, a34 * c23;
    HX << -r * c1, Pz * s1, a34 * s23 * s1,
          Pz * s1, -r * c1, -a34 * c23 * c1,
          a34 * s23 * s1, -a34 * c23 * c1, -a34 * c23 * c1;
    HY << -r * s1, -Pz * c1, -a34 * s23 * c1,
          -Pz * c1, -r * s1, -a34 * c23 * s1,
          -a34 * s23 * c1, -a34 * c23 * s1, -a34 * c23 * s1;
    HZ << 0, 0, 0,
          0, -Pz, -a34 * s23,
          0, -a34 * s23, -a34 * s23;
    CHECK((inf.G.topRows<3>() - G).cwiseAbs().maxCoeff() < 1e-14);
    CHECK((MatX(inf.H.plane(0)) - HX).cwiseAbs().maxCoeff() < 1e-14);
    CHECK((MatX(inf.H.plane(1)) - HY).cwiseAbs().maxCoeff() < 1e-14);
    CHECK((MatX(inf.H.plane(2)) - HZ).cwiseAbs().maxCoeff() < 1e-14);
    // Freeman's rotational coefficients of link 3: g = (s1, s2, s3), h_12 = h_13 = s1 × s2, h_23 = 0.
    const Vec3 z1(0, 0, 1), z2(s1, -c1, 0);
    CHECK((inf.G.block<3, 1>(3, 0) - z1).norm() < 1e-15);
    CHECK((inf.G.block<3, 1>(3, 2) - z2).norm() < 1e-15);
    for (int p = 0; p < 3; ++p) {
      CHECK(inf.H(3 + p, 0, 1) == Approx(z1.cross(z2)[p]).margin(1e-15));
      CHECK(inf.H(3 + p, 0, 2) == Approx(z1.cross(z2)[p]).margin(1e-15));
      CHECK(inf.H(3 + p, 1, 2) == Approx(0).margin(1e-15));
    }
  }
}

TEST_CASE("influence rejects bad arguments with named errors", "[influence]") {
  const Model m = builtinModel("planar-2r");
  Data d(m);
  forwardKinematics(m, d, VecX::Zero(2));
  Influence inf;
  CHECK_THROWS_WITH(influence(m, d, 2, Vec3::Zero(), inf), Catch::Contains("link"));
  CHECK_THROWS_WITH(influence(m, d, 0, Vec3::Zero(), inf, 4), Catch::Contains("order"));
  MatX G(2, 2);
  CHECK_THROWS_WITH(rotationInfluence(m, d, 0, G), Catch::Contains("G"));
}

TEST_CASE("rotationInfluence / pointInfluence equal the rotation / translation rows of influence", "[influence]") {
  std::mt19937 rng(14);
  for (const Model& m : allModels()) {
    Data d(m);
    Influence inf;
    MatX Gr(3, m.nv), Gp(3, m.nv);
    Tensor3 Hr, Hp;
    Tensor4 Dr, Dp;
    forwardKinematics(m, d, test::randomState(m, rng));
    for (int link = 0; link < m.njoints(); ++link) {
      const Vec3 pt = Vec3::Random() * 0.1;
      influence(m, d, link, pt, inf, 3);
      rotationInfluence(m, d, link, Gr, &Hr, &Dr);
      pointInfluence(m, d, link, pt, Gp, &Hp, &Dp);
      double e = (Gr - inf.G.bottomRows<3>()).cwiseAbs().maxCoeff() + (Gp - inf.G.topRows<3>()).cwiseAbs().maxCoeff();
      for (int p = 0; p < 3; ++p) {
        e += (Hp.plane(p) - inf.H.plane(p)).cwiseAbs().maxCoeff() + (Hr.plane(p) - inf.H.plane(3 + p)).cwiseAbs().maxCoeff();
        for (int l = 0; l < m.nv; ++l)
          e += (Dp.slice(p, l) - inf.D.slice(p, l)).cwiseAbs().maxCoeff() +
               (Dr.slice(p, l) - inf.D.slice(3 + p, l)).cwiseAbs().maxCoeff();
      }
      INFO(m.name << " link " << link);
      CHECK(e == 0.0);
    }
  }
}

TEST_CASE("an A-pair with ρ = 0 has exactly the R-pair's G, H and D", "[influence][apair]") {
  Model a = builtinModel("prototype-4a");
  for (auto& j : a.joints) {
    j.rho = 0;
    j.leg_mass = 0;
    j.leg_radius = 0;
  }
  a.finalize();
  Model r = a;
  for (auto& j : r.joints) j.kind = JointKind::R;
  r.finalize();
  Data da(a), dr(r);
  Influence ia, ir;
  std::mt19937 rng(15);
  for (int k = 0; k < 5; ++k) {
    const VecX q = test::randomState(a, rng);
    forwardKinematics(a, da, q);
    forwardKinematics(r, dr, q);
    toolInfluence(a, da, ia, 3);
    toolInfluence(r, dr, ir, 3);
    CHECK((ia.G - ir.G).cwiseAbs().maxCoeff() == 0.0);
    double e = 0;
    for (int p = 0; p < 6; ++p) {
      e += (ia.H.plane(p) - ir.H.plane(p)).cwiseAbs().maxCoeff();
      for (int l = 0; l < 4; ++l) e += (ia.D.slice(p, l) - ir.D.slice(p, l)).cwiseAbs().maxCoeff();
    }
    CHECK(e == 0.0);
  }
}
