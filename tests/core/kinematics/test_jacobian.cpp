// Geometric Jacobian against central finite differences of FK (the full check of issue 3
// extends this; here: the columns every later algorithm relies on).
#include <catch2/catch.hpp>
#include <random>

#include <achain/kinematics/fk.hpp>
#include "helpers.hpp"
#include <achain/kinematics/jacobian.hpp>
#include <achain/io/robot.hpp>

using namespace achain;

static MatX fdToolJacobian(const Model& m, const VecX& q, double h = 1e-6) {
  Data d(m);
  forwardKinematics(m, d, q);
  const SE3 T0 = d.oMtool;
  MatX J(6, m.nv);
  for (int i = 0; i < m.nv; ++i) {
    VecX qp = q, qm = q;
    qp[i] += h;
    qm[i] -= h;
    forwardKinematics(m, d, qp);
    const SE3 Tp = d.oMtool;
    forwardKinematics(m, d, qm);
    const SE3 Tm = d.oMtool;
    J.block<3, 1>(0, i) = (Tp.p - Tm.p) / (2 * h);
    const Mat3 dR = (Tp.R - Tm.R) / (2 * h) * T0.R.transpose();  // skew(ω)
    J.block<3, 1>(3, i) = Vec3(dR(2, 1) - dR(1, 2), dR(0, 2) - dR(2, 0), dR(1, 0) - dR(0, 1)) / 2;
  }
  return J;
}

TEST_CASE("tool Jacobian matches finite differences for every built-in (R, P, A joints)", "[jacobian]") {
  for (const auto& r : builtinRobots()) {
    const Model m = builtinModel(r.name);
    Data d(m);
    std::mt19937 rng(42);
    MatX J(6, m.nv);
    for (int k = 0; k < 25; ++k) {
      const VecX q = test::randomConfiguration(m, rng);
      forwardKinematics(m, d, q);
      toolJacobian(m, d, J);
      const MatX Jfd = fdToolJacobian(m, q);
      INFO(r.name);
      CHECK((J - Jfd).cwiseAbs().maxCoeff() < 1e-7 * std::max(1.0, Jfd.cwiseAbs().maxCoeff()));
    }
  }
}

TEST_CASE("prototype-4a at all 180 deg: rank 3, columns 1 and 4 equal (reconstructed Eq. 3.55)", "[jacobian][thesis]") {
  const Model m = builtinModel("prototype-4a");
  Data d(m);
  forwardKinematics(m, d, VecX::Constant(4, kPi));
  MatX J(6, 4);
  toolJacobian(m, d, J);
  const double in = 0.0254, rho = 4 * std::sqrt(2.0);
  MatX E = MatX::Zero(6, 4);
  E(0, 1) = (12 + 8 + rho) * in;
  E(0, 2) = -(8 + rho) * in;
  E(4, 1) = 1;
  E(4, 2) = -1;
  E(5, 0) = 1;
  E(5, 3) = 1;
  CHECK((J - E).cwiseAbs().maxCoeff() < 1e-12);
  Eigen::JacobiSVD<MatX> svd(J);
  CHECK(svd.singularValues()[3] < 1e-12);
  CHECK(svd.singularValues()[2] > 0.1);
}

// ---------------------------------------------------------------------------------------------
// Issue 3: the thesis's closed-form A-chain Jacobian, time derivative, analytical Jacobian.
#include "kinematics_test_support.hpp"

namespace {
Vec3 richardsonVec(const std::function<SE3(double)>& T) {
  return test::richardson<Vec3>([&](double t) { return Vec3(T(t).p); });
}
MatX toSI(MatX J) {
  J.topRows<3>() *= test::kInch;
  return J;
}
}  // namespace

TEST_CASE("Robinson Eq. 3.48 (erratum fixed) at the IK example angles equals the tool Jacobian", "[jacobian][thesis]") {
  const Model m = builtinModel("prototype-4a");
  Data d(m);
  MatX J(6, 4);
  for (const VecX& deg : {VecX((VecX(4) << 84.107, 224.203, 106.791, 236.997).finished()),
                          VecX((VecX(4) << 84.100, 224.200, 106.800, 237.000).finished()),
                          VecX((VecX(4) << 100, 150, 200, 250).finished())}) {
    const VecX q = deg * kDeg;
    forwardKinematics(m, d, q);
    toolJacobian(m, d, J);
    const MatX E = toSI(test::thesisJacobian(q));
    INFO(deg.transpose());
    CHECK((J - E).cwiseAbs().maxCoeff() < 1e-14);
  }
  // The OCR's row 1 of Eq. 3.48 (a copy of row 2) is wrong: it differs from FK.
  const VecX q = (VecX(4) << 84.107, 224.203, 106.791, 236.997).finished() * kDeg;
  forwardKinematics(m, d, q);
  toolJacobian(m, d, J);
  MatX E = toSI(test::thesisJacobian(q));
  E(0, 1) = E(1, 1);
  CHECK(std::abs(J(0, 1) - E(0, 1)) > 1e-3);
}

TEST_CASE("Jacobian of points on every link, base and tool frame, mixed R/P/H/A chains: Richardson FD", "[jacobian]") {
  std::mt19937 rng(21);
  std::vector<Model> ms = {builtinModel("prototype-4a"), builtinModel("puma560"), builtinModel("stanford"),
                           test::mixedChain(DHConvention::Standard), test::mixedChain(DHConvention::Modified),
                           test::mixedTree()};
  for (const Model& m : ms) {
    Data d(m), dd(m);
    MatX J(6, m.nv), Jt(6, m.nv), Jfd(6, m.nv);
    for (int k = 0; k < 20; ++k) {
      const VecX q = test::randomState(m, rng);
      forwardKinematics(m, d, q);
      toolJacobian(m, d, J);
      toolJacobian(m, d, Jt, Frame::Tool);
      for (int i = 0; i < m.nv; ++i) {
        auto T = [&](double t) { VecX x = q; x[i] += t; forwardKinematics(m, dd, x); return dd.oMtool; };
        Jfd.block<3, 1>(0, i) = richardsonVec(T);
        const Mat3 dR = test::richardson<Mat3>([&](double t) { return Mat3(T(t).R); });
        Jfd.block<3, 1>(3, i) = test::vee(dR * d.oMtool.R.transpose());
      }
      INFO(m.name);
      CHECK(test::relErr(J, Jfd) < 1e-7);
      MatX Jb = J;
      rotateJacobian(d.oMtool.R, Jb);
      CHECK((Jt - Jb).cwiseAbs().maxCoeff() < 1e-15);
      // tool-frame columns are the base ones seen from the tool: |column| unchanged
      CHECK((Jt.colwise().norm() - J.colwise().norm()).cwiseAbs().maxCoeff() < 1e-12);
    }
  }
}

TEST_CASE("J-dot equals dJ/dt along q + t·q̇ (all joint kinds, points on links)", "[jacobian]") {
  std::mt19937 rng(22);
  std::vector<Model> ms = {builtinModel("prototype-4a"), builtinModel("puma560"), builtinModel("stanford"),
                           test::mixedChain(DHConvention::Standard), test::mixedChain(DHConvention::Modified),
                           test::mixedTree()};
  for (const Model& m : ms) {
    Data d(m), dd(m);
    MatX Jd(6, m.nv), Jt(6, m.nv);
    for (int k = 0; k < 10; ++k) {
      const VecX q = test::randomState(m, rng), qd = VecX::Random(m.nv);
      forwardKinematics(m, d, q);
      const int link = static_cast<int>(rng() % m.njoints());
      const Vec3 pt = Vec3::Random() * 0.1;
      pointJacobianDerivative(m, d, link, pt, qd, Jd);
      const MatX fd = test::richardson<MatX>([&](double t) {
        forwardKinematics(m, dd, VecX(q + t * qd));
        pointJacobian(m, dd, link, pt, Jt);
        return MatX(Jt);
      });
      INFO(m.name << " link " << link);
      CHECK(test::relErr(Jd, fd) < 1e-8);
      toolJacobianDerivative(m, d, qd, Jd);
      const Vec6 a = toolJacobianDotTimesQdot(m, d, qd);
      CHECK((Jd * qd - a).cwiseAbs().maxCoeff() < 1e-15);
    }
  }
}

TEST_CASE("analytical (roll-pitch-yaw) Jacobian equals d(p, rpy)/dq", "[jacobian]") {
  std::mt19937 rng(23);
  for (const Model& m : {builtinModel("puma560"), builtinModel("prototype-4a"), test::mixedChain(DHConvention::Standard)}) {
    Data d(m), dd(m);
    MatX Ja(6, m.nv), fd(6, m.nv);
    for (int k = 0; k < 10; ++k) {
      const VecX q = test::randomState(m, rng);
      forwardKinematics(m, d, q);
      const Vec3 rpy0 = matrixToRpy(d.oMtool.R);
      CHECK((rpyToMatrix(rpy0[0], rpy0[1], rpy0[2]) - d.oMtool.R).cwiseAbs().maxCoeff() < 1e-14);
      if (std::abs(std::cos(rpy0[1])) < 0.05) continue;
      analyticalJacobian(m, d, Ja);
      for (int i = 0; i < m.nv; ++i) {
        fd.col(i) = test::richardson<Vec6>([&](double t) {
          VecX x = q;
          x[i] += t;
          forwardKinematics(m, dd, x);
          Vec3 r = matrixToRpy(dd.oMtool.R);
          for (int c = 0; c < 3; ++c) r[c] = rpy0[c] + std::remainder(r[c] - rpy0[c], 2 * kPi);  // no wrap
          Vec6 u;
          u << dd.oMtool.p, r;
          return u;
        });
      }
      INFO(m.name);
      CHECK(test::relErr(Ja, fd) < 1e-7);
    }
  }
  // the representation singularity is reported, not returned as inf/NaN
  Model m = builtinModel("planar-2r");
  m.tool = SE3{rpyToMatrix(0, kPi / 2, 0), Vec3::Zero()};
  m.base = SE3::Identity();
  m.finalize();
  Data d(m);
  forwardKinematics(m, d, VecX::Zero(2));
  MatX Ja(6, 2);
  CHECK_THROWS_WITH(analyticalJacobian(m, d, Ja), Catch::Contains("pitch"));
}
