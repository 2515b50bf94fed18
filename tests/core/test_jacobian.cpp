// Geometric Jacobian against central finite differences of FK (the full check of issue 3
// extends this; here: the columns every later algorithm relies on).
#include <catch2/catch.hpp>
#include <random>

#include "fk.hpp"
#include "helpers.hpp"
#include "jacobian.hpp"
#include "robots.hpp"

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
