// Freeman Ch. III coordinate transfer: round trip, Appendix B closed form, resolved rate /
// acceleration / jerk consistency on the PUMA's hand coordinates and on A-chains.
#include <catch2/catch.hpp>

#include <achain/kinematics/influence.hpp>
#include <achain/kinematics/jacobian.hpp>
#include "kinematics_test_support.hpp"
#include <achain/io/robot.hpp>
#include <achain/kinematics/transfer.hpp>

using namespace achain;

namespace {
double relT(const Tensor3& a, const Tensor3& b) {
  double e = 0, s = 1;
  for (int p = 0; p < a.planes(); ++p) {
    e = std::max(e, (a.plane(p) - b.plane(p)).cwiseAbs().maxCoeff());
    s = std::max(s, b.plane(p).cwiseAbs().maxCoeff());
  }
  return e / s;
}
Model elbowArm(double s11, double a23, double a34) {
  Model m;
  m.joints = {test::makeJoint(JointKind::R, 0, kPi / 2, s11, 0), test::makeJoint(JointKind::R, a23, 0, 0, 0),
              test::makeJoint(JointKind::R, a34, 0, 0, 0)};
  for (int i = 0; i < 3; ++i) m.joints[i].parent = i - 1;
  m.finalize();
  return m;
}
}  // namespace

TEST_CASE("generalized dot product and congruence obey Freeman's identities", "[transfer][tensor]") {
  Tensor3 C(4, 3, 3);
  for (int p = 0; p < 4; ++p) C.plane(p) = MatX::Random(3, 3);
  const MatX A = MatX::Random(2, 4), D = MatX::Random(3, 5);
  const VecX b = VecX::Random(3), c = VecX::Random(5);
  // A (bᵀ[C]b) = bᵀ(A∘C)b
  CHECK((A * quadratic(C, b, b) - quadratic(dot(A, C), b, b)).cwiseAbs().maxCoeff() < 1e-14);
  // cᵀ(Dᵀ[C]D)c = (Dc)ᵀ[C](Dc)
  CHECK((quadratic(congruence(D, C), c, c) - quadratic(C, D * c, D * c)).cwiseAbs().maxCoeff() < 1e-13);
  // transposePlanes swaps the quadratic form's arguments
  const VecX e = VecX::Random(3);
  CHECK((quadratic(transposePlanes(C), b, e) - quadratic(C, e, b)).cwiseAbs().maxCoeff() < 1e-14);
  CHECK_THROWS_WITH(dot(MatX::Zero(2, 3), C), Catch::Contains("dot"));
}

TEST_CASE("transfer round trip: to hand coordinates and back is the identity to 1e-12", "[transfer]") {
  std::mt19937 rng(31);
  for (const char* name : {"puma560", "stanford"}) {
    const Model m = builtinModel(name);
    Data d(m);
    Influence inf;
    for (int k = 0; k < 10; ++k) {
      forwardKinematics(m, d, test::randomState(m, rng));
      toolInfluence(m, d, inf, 2);
      if (invertSquare(inf.G).cwiseAbs().maxCoeff() > 1e3) continue;  // too near a singularity for 1e-12
      MatX G1, G2;
      Tensor3 H1, H2;
      reverseInfluence(inf.G, inf.H, G1, H1);
      reverseInfluence(G1, H1, G2, H2);
      INFO(name);
      CHECK(test::relErr(G2, inf.G) < 1e-12);
      CHECK(relT(H2, inf.H) < 1e-12);
      CHECK((G1 * inf.G - MatX::Identity(6, 6)).cwiseAbs().maxCoeff() < 1e-12);
    }
  }
}

TEST_CASE("Freeman Appendix B: reverse coefficients of the elbow arm in closed form (B-5, B-6, B-8, B-9)", "[transfer][freeman]") {
  const double s11 = 0.6, a23 = 0.45, a34 = 0.38;
  const Model m = elbowArm(s11, a23, a34);
  Data d(m);
  std::mt19937 rng(32);
  MatX G(3, 3), Gphi;
  Tensor3 H, Hphi;
  for (int k = 0; k < 20; ++k) {
    const VecX th = test::randomState(m, rng);
    if (std::abs(std::sin(th[2])) < 0.1) continue;
    forwardKinematics(m, d, th);
    pointInfluence(m, d, 2, Vec3::Zero(), G, &H);
    const double t1 = th[0], s1 = std::sin(t1), c1 = std::cos(t1);
    const double s23 = std::sin(th[1] + th[2]), c23 = std::cos(th[1] + th[2]), s3 = std::sin(th[2]);
    const double r = a23 * std::cos(th[1]) + a34 * c23, Pz = a23 * std::sin(th[1]) + a34 * s23;
    if (std::abs(r) < 0.05) continue;
    reverseInfluence(G, H, Gphi, Hphi);
    Mat3 Ginv;
    Ginv << -s1 / r, c1 / r, 0,
            c1 * c23 / (a23 * s3), s1 * c23 / (a23 * s3), s23 / (a23 * s3),
            -r * c1 / (a23 * a34 * s3), -r * s1 / (a23 * a34 * s3), -Pz / (a23 * a34 * s3);
    Mat3 H1;
    H1 << std::sin(2 * t1), -std::cos(2 * t1), 0,
          -std::cos(2 * t1), -std::sin(2 * t1), 0,
          0, 0, 0;
    H1 /= r * r;
    INFO("theta = " << th.transpose());
    CHECK(test::relErr(Gphi, Ginv) < 1e-12);
    CHECK(test::relErr(Hphi.plane(0), H1) < 1e-12);
    // Freeman's direct derivation (B-11)–(B-15) with random hand rates
    const Vec3 Pd = Vec3::Random(), Pdd = Vec3::Random();
    const double direct = (Pdd.y() * c1 - Pdd.x() * s1) / r -
                          2 / (r * r) * (Pd.x() * c1 + Pd.y() * s1) * (Pd.y() * c1 - Pd.x() * s1);
    const VecX phid = Gphi * Pd;
    CHECK(resolvedAcceleration(G, H, phid, Pdd)[0] == Approx(direct).epsilon(1e-12));
    // the joint coordinates are true functions of P: every reverse plane is symmetric
    for (int p = 0; p < 3; ++p)
      CHECK((Hphi.plane(p) - Hphi.plane(p).transpose()).cwiseAbs().maxCoeff() < 1e-9 * Hphi.maxAbs());
  }
}

TEST_CASE("reverse H is the derivative of the inverse kinematics (elbow arm, finite differences in P)", "[transfer]") {
  // φ(P) by closed-form IK of the elbow arm (elbow-up branch), differentiated numerically.
  const double s11 = 0.6, a23 = 0.45, a34 = 0.38;
  const Model m = elbowArm(s11, a23, a34);
  Data d(m);
  const VecX th = (VecX(3) << 0.4, 0.3, 1.2).finished();
  forwardKinematics(m, d, th);
  const Vec3 P0 = d.oMi[2].p;
  auto ik = [&](const Vec3& P) {
    const double t1 = std::atan2(P.y(), P.x());
    const double r = std::hypot(P.x(), P.y()), z = P.z() - s11;
    const double c3 = (r * r + z * z - a23 * a23 - a34 * a34) / (2 * a23 * a34);
    const double t3 = std::acos(c3);
    const double t2 = std::atan2(z, r) - std::atan2(a34 * std::sin(t3), a23 + a34 * c3);
    return Vec3(t1, t2, t3);
  };
  REQUIRE((ik(P0) - th).norm() < 1e-12);
  MatX G(3, 3), Gphi;
  Tensor3 H, Hphi;
  pointInfluence(m, d, 2, Vec3::Zero(), G, &H);
  reverseInfluence(G, H, Gphi, Hphi);
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) {
      const Vec3 h2 = test::richardson<Vec3>([&](double s) {
        return test::richardson<Vec3>([&](double t) {
          Vec3 P = P0;
          P[a] += s;
          P[b] += t;
          return ik(P);
        }, 1e-3);
      }, 1e-3);
      for (int p = 0; p < 3; ++p) CHECK(Hphi(p, a, b) == Approx(h2[p]).margin(1e-6));
    }
}

TEST_CASE("transfer of a dependent set and resolved rate/acceleration/jerk are consistent (PUMA hand, 4A-chain)", "[transfer]") {
  std::mt19937 rng(33);
  for (const char* name : {"puma560", "prototype-4a"}) {
    const Model m = builtinModel(name);
    const int n = m.nv;
    Data d(m);
    Influence hand, u;
    for (int k = 0; k < 10; ++k) {
      forwardKinematics(m, d, test::randomState(m, rng));
      toolInfluence(m, d, hand, 3);
      // q: n hand coordinates (the 6-D pose rate for the PUMA; for the 4-DOF chain the position and ω_z)
      std::vector<int> rows = n == 6 ? std::vector<int>{0, 1, 2, 3, 4, 5} : std::vector<int>{0, 1, 2, 5};
      MatX J(n, n);
      Tensor3 Hq(n, n, n);
      Tensor4 Dq(n, n, n, n);
      for (int r = 0; r < n; ++r) {
        J.row(r) = hand.G.row(rows[r]);
        Hq.plane(r) = hand.H.plane(rows[r]);
        for (int l = 0; l < n; ++l) Dq.slice(r, l) = hand.D.slice(rows[r], l);
      }
      if (invertSquare(J).cwiseAbs().maxCoeff() > 1e3) continue;
      const VecX phid = VecX::Random(n), phidd = VecX::Random(n), phiddd = VecX::Random(n);
      const VecX qd = J * phid;
      VecX qdd(n), qddd(n);
      influenceAcceleration(J, Hq, phid, phidd, qdd);
      influenceJerk(J, Hq, Dq, phid, phidd, phiddd, qddd);
      INFO(name);
      CHECK(test::relErr(resolvedRate(J, qd), phid) < 1e-10);
      CHECK(test::relErr(resolvedAcceleration(J, Hq, phid, qdd), phidd) < 1e-10);
      CHECK(test::relErr(resolvedJerk(J, Hq, Dq, phid, phidd, qddd), phiddd) < 1e-10);
      MatX Gphi;
      Tensor3 Hphi;
      reverseInfluence(J, Hq, Gphi, Hphi);
      CHECK(test::relErr(Gphi * qdd + quadratic(Hphi, qd, qd), phidd) < 1e-10);
      // u: the centre of link 1 (any dependent set) seen in the hand coordinates (3-22), (3-26)
      influence(m, d, 1, Vec3(0.01, 0.02, 0.03), u, 2);
      MatX Guq;
      Tensor3 Huq;
      transferInfluence(u.G, u.H, J, Hq, Guq, Huq);
      VecX udd(6);
      influenceAcceleration(u.G, u.H, phid, phidd, udd);
      CHECK(test::relErr(Guq * qdd + quadratic(Huq, qd, qd), udd) < 1e-10);
      // with u = the hand coordinates themselves: G = I, H = 0 (3-27), (3-28)
      transferInfluence(J, Hq, J, Hq, Guq, Huq);
      CHECK((Guq - MatX::Identity(n, n)).cwiseAbs().maxCoeff() < 1e-12);
      CHECK(Huq.maxAbs() < 1e-12 * std::max(1.0, Hq.maxAbs()) * invertSquare(J).norm() * invertSquare(J).norm());
    }
  }
}

TEST_CASE("transfer refuses singular or non-square Jacobians with a named error", "[transfer]") {
  const Model m = builtinModel("prototype-4a");
  Data d(m);
  forwardKinematics(m, d, VecX::Constant(4, kPi));
  Influence inf;
  toolInfluence(m, d, inf, 2);
  MatX G;
  Tensor3 H;
  CHECK_THROWS_WITH(reverseInfluence(inf.G, inf.H, G, H), Catch::Contains("J: must be square"));
  MatX J = inf.G.topRows(4);
  J.row(1) = inf.G.row(4);
  J.row(2) = inf.G.row(5);
  CHECK_THROWS_WITH(invertSquare(J), Catch::Contains("J: singular"));
}
