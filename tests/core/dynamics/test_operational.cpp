// Operational-space (Cartesian) inertia and the dynamic manipulability measures: against independent
// computations (the kinetic energy by RNEA as a function of the tool twist, J⁻ᵀMJ⁻¹ by explicit inverses,
// the planar 2R in closed form), the pseudo-inverse case of a 4-DOF chain, and singular configurations.
#include <catch2/catch.hpp>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <random>

#include <achain/dynamics/crba.hpp>
#include <achain/dynamics/operational.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/io/model_json.hpp>
#include <achain/kinematics/jacobian.hpp>
#include <achain/io/robot.hpp>
#include "helpers.hpp"

using namespace achain;

namespace {

struct JM {
  MatX J, M;
};
/// The tool Jacobian and the mass matrix at q, each from a Data of its own.
JM jacobianAndMass(const Model& m, const VecX& q, const DynamicsOptions& o = {}) {
  JM r{MatX(6, m.nv), MatX(m.nv, m.nv)};
  Data d(m);
  massMatrix(m, d, q, o, r.M);
  toolJacobian(m, d, r.J);
  return r;
}

double relNormErr(const MatX& a, const MatX& b) { return (a - b).norm() / std::max(1e-300, b.norm()); }

}  // namespace

TEST_CASE("cartesianInertia (PUMA 560): Λ⁻¹ = J M⁻¹ Jᵀ, Λ = J⁻ᵀ M J⁻¹, and ½ẋᵀΛẋ is the kinetic energy by RNEA",
          "[dynamics][operational]") {
  const Model m = builtinModel("puma560");
  std::mt19937 rng(7);
  Data d(m);
  CartesianInertia c;
  int checked = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const VecX q = test::randomConfiguration(m, rng);
    const JM jm = jacobianAndMass(m, q);
    const Eigen::FullPivLU<MatX> luJ(jm.J);
    if (std::abs(luJ.determinant()) < 1e-3) continue;  // keep away from the singularities here
    cartesianInertia(m, d, q, {}, c);
    REQUIRE(c.rank == 6);
    const MatX Jinv = luJ.inverse();
    const MatX mobility = jm.J * jm.M.inverse() * jm.J.transpose();
    CHECK(relNormErr(c.Lambda_inv, mobility) < 1e-12);
    // Inverting Λ⁻¹ costs its condition number κ = μ₁/μ₆ in relative accuracy (κ reaches 1e8 on the PUMA,
    // whose wrist links are light), whichever way it is inverted: the tolerances scale with κ.
    const double kappa = c.eigenvalues[0] / c.eigenvalues[5];
    INFO("condition of J M^-1 J^T: " << kappa);
    CHECK(relNormErr(c.Lambda, Jinv.transpose() * jm.M * Jinv) < 1e-14 * kappa);
    CHECK((c.Lambda * c.Lambda_inv - MatX::Identity(6, 6)).norm() < 1e-14 * kappa);
    // Λ is the Hessian of the kinetic energy T(ẋ) = ½ q̇ᵀ M q̇ at q̇ = J⁻¹ẋ, where T comes from the RNEA
    // (not the CRBA). T is quadratic, so the central second difference with step 1 is exact up to rounding.
    auto T = [&](const VecX& xd) { return kineticEnergy(m, d, q, Jinv * xd, {}); };
    MatX H(6, 6);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) {
        const VecX ei = VecX::Unit(6, i), ej = VecX::Unit(6, j);
        H(i, j) = (T(ei + ej) - T(ei - ej) - T(-ei + ej) + T(-ei - ej)) / 4;
      }
    CHECK(relNormErr(c.Lambda, H) < 1e-14 * kappa);
    // Eigen pairs: Λ⁻¹ v = μ v, descending.
    for (int i = 0; i < 6; ++i) CHECK((c.Lambda_inv * c.axes.col(i) - c.eigenvalues[i] * c.axes.col(i)).norm() < 1e-12 * c.eigenvalues[0]);
    for (int i = 0; i + 1 < 6; ++i) CHECK(c.eigenvalues[i] >= c.eigenvalues[i + 1]);
    ++checked;
  }
  CHECK(checked >= 10);
}

TEST_CASE("cartesianInertia (prototype 4A-chain, 4 DOF): pseudo-inverse of rank 4 with JᵀΛJ = M", "[dynamics][operational]") {
  const Model m = builtinModel("prototype-4a");
  const VecX q = test::degrees({100, 200, 120, 150});
  Data d(m);
  for (LegModel legs : {LegModel::Massless, LegModel::Full}) {
    DynamicsOptions o;
    o.legs = legs;
    const JM jm = jacobianAndMass(m, q, o);
    CartesianInertia c;
    cartesianInertia(m, d, q, o, c);
    CHECK(c.rank == 4);
    CHECK(c.Lambda.allFinite());
    // For J of full column rank, Λ = (J M⁻¹ Jᵀ)⁺ gives JᵀΛJ = M: the kinetic energy of every reachable twist.
    CHECK(relNormErr(jm.J.transpose() * c.Lambda * jm.J, jm.M) < 1e-10);
    CHECK(relNormErr(c.Lambda * c.Lambda_inv * c.Lambda, c.Lambda) < 1e-10);  // Moore–Penrose identities
    CHECK(relNormErr(c.Lambda_inv * c.Lambda * c.Lambda_inv, c.Lambda_inv) < 1e-10);
    CHECK(relNormErr(c.Lambda, c.Lambda.transpose()) < 1e-15);
    std::mt19937 rng(3);
    std::normal_distribution<double> g;
    for (int k = 0; k < 5; ++k) {
      VecX qd(4);
      for (int i = 0; i < 4; ++i) qd[i] = g(rng);
      const VecX xd = jm.J * qd;
      CHECK(0.5 * xd.dot(c.Lambda * xd) == Approx(kineticEnergy(m, d, q, qd, o)).epsilon(1e-10));
    }
    // Linear rows: J_v is 3×4 of rank 3, so Λ_v = (J_v M⁻¹ J_vᵀ)⁻¹ is an ordinary inverse.
    CartesianInertia cv;
    cartesianInertia(m, d, q, o, cv, TaskRows::Linear);
    CHECK(cv.rank == 3);
    const MatX Jv = jm.J.topRows(3);
    CHECK(relNormErr(cv.Lambda, (Jv * jm.M.inverse() * Jv.transpose()).inverse()) < 1e-10);
  }
}

TEST_CASE("cartesianInertia: singular and near-singular PUMA stay finite (truncated pseudo-inverse), rank reported",
          "[dynamics][operational]") {
  const Model m = builtinModel("puma560");
  Data d(m);
  CartesianInertia c;
  // θ5 = 0: axes 4 and 6 aligned (wrist singularity): rank 5.
  const VecX q = test::degrees({10, 40, -60, 20, 0, 30});
  cartesianInertia(m, d, q, {}, c);
  CHECK(c.rank == 5);
  CHECK(c.Lambda.allFinite());
  CHECK(relNormErr(c.Lambda * c.Lambda_inv * c.Lambda, c.Lambda) < 1e-9);
  // 1e-7 rad away: μ_min/μ_max ≈ 1e-15, below the default tolerance 1e-10 → still rank 5, Λ bounded.
  VecX qn = q;
  qn[4] = 1e-7;
  CartesianInertia cn;
  cartesianInertia(m, d, qn, {}, cn);
  CHECK(cn.rank == 5);
  CHECK(cn.Lambda.allFinite());
  CHECK(relNormErr(cn.Lambda, c.Lambda) < 1e-5);
  // A tolerance of 0 keeps the sixth direction: full rank, finite but huge.
  cartesianInertia(m, d, qn, {}, cn, TaskRows::All, 0.0);
  CHECK(cn.rank == 6);
  CHECK(cn.Lambda.allFinite());
  CHECK(cn.Lambda.norm() > 1e6 * c.Lambda.norm());
  // The dynamic measures: Asada's ratio is 0 below full rank (as the Toolbox), Yoshikawa's w_d ~ 0.
  DynamicManipulability dm;
  dynamicManipulability(m, d, q, {}, dm);
  CHECK(dm.rank == 5);
  CHECK(dm.asada == 0);
  CHECK(dm.radii[5] < 1e-12 * dm.radii[0]);
  CHECK(dm.yoshikawa == Approx(dm.radii[0] * dm.radii[1] * dm.radii[2] * dm.radii[3] * dm.radii[4] * dm.radii[5]).epsilon(1e-14));
}

TEST_CASE("dynamicManipulability (planar 2R): closed forms of w_d, the ellipsoid and Λ", "[dynamics][operational]") {
  const Model m = builtinModel("planar-2r");
  // core/robots/planar-2r.json: uniform rods, l1 = 1 m (2 kg), l2 = 0.8 m (1 kg), I_zz = m l²/12 about the CoM.
  const double l1 = 1.0, l2 = 0.8, m1 = 2.0, m2 = 1.0, c1 = l1 / 2, c2 = l2 / 2;
  const double I1 = m1 * l1 * l1 / 12, I2 = m2 * l2 * l2 / 12;
  Data d(m);
  for (const auto& qq : {std::pair<double, double>{0.3, 1.1}, {-1.2, 2.4}, {0.7, -0.5}}) {
    const double q1 = qq.first, q2 = qq.second;
    VecX q(2);
    q << q1, q2;
    // Hand-derived: M of the two-link arm (e.g. Spong, Hutchinson & Vidyasagar §7.4) and the planar Jacobian.
    Eigen::Matrix2d M;
    M(0, 0) = I1 + m1 * c1 * c1 + I2 + m2 * (l1 * l1 + c2 * c2 + 2 * l1 * c2 * std::cos(q2));
    M(0, 1) = M(1, 0) = I2 + m2 * (c2 * c2 + l1 * c2 * std::cos(q2));
    M(1, 1) = I2 + m2 * c2 * c2;
    Eigen::Matrix2d J;
    J << -l1 * std::sin(q1) - l2 * std::sin(q1 + q2), -l2 * std::sin(q1 + q2),
         l1 * std::cos(q1) + l2 * std::cos(q1 + q2), l2 * std::cos(q1 + q2);
    const double detJ = l1 * l2 * std::sin(q2), detM = M.determinant();

    DynamicManipulability r;
    dynamicManipulability(m, d, q, {}, r, TaskRows::Linear);
    // w_d = √det(J (MᵀM)⁻¹ Jᵀ) = |det J| / det M for the square planar J.
    CHECK(r.yoshikawa == Approx(std::abs(detJ) / detM).epsilon(1e-12));
    // Semi-axes: σ₁σ₂ = |det(J M⁻¹)| and σ₁² + σ₂² = ‖J M⁻¹‖_F²; the z direction gets nothing.
    const Eigen::Matrix2d JMi = J * M.inverse();
    CHECK(r.radii[0] * r.radii[1] == Approx(std::abs(JMi.determinant())).epsilon(1e-12));
    CHECK(r.radii[0] * r.radii[0] + r.radii[1] * r.radii[1] == Approx(JMi.squaredNorm()).epsilon(1e-12));
    CHECK(std::abs(r.radii[2]) < 1e-7 * r.radii[0]);
    CHECK(std::abs(r.axes(2, 0)) < 1e-12);
    // Λ on the plane is J⁻ᵀ M J⁻¹; the z row is the pseudo-inverse's zero; rank 2 of 3 → Asada 0.
    const Eigen::Matrix2d L = J.inverse().transpose() * M * J.inverse();
    CHECK(r.inertia.rank == 2);
    CHECK((r.inertia.Lambda.topLeftCorner(2, 2) - L).norm() < 1e-12 * L.norm());
    CHECK(r.inertia.Lambda.row(2).norm() < 1e-12 * L.norm());
    CHECK(r.asada == 0);

    // All six rows: J is 6×2 (rows vx, vy and ωz = [1 1]), m > n: w_d = √det(JᵀJ)/det M.
    DynamicManipulability a;
    dynamicManipulability(m, d, q, {}, a);
    const Eigen::Matrix2d JtJ = J.transpose() * J + Eigen::Matrix2d::Ones();
    CHECK(a.yoshikawa == Approx(std::sqrt(JtJ.determinant()) / detM).epsilon(1e-11));
    CHECK(a.rank == 2);
  }
}

TEST_CASE("dynamicManipulability (PUMA 560): Asada's ratio is that of eig(J⁻ᵀMJ⁻¹), w_d = |det J|/det M", "[dynamics][operational]") {
  const Model m = builtinModel("puma560");
  const VecX q = test::degrees({20, -30, 40, 10, 50, -20});
  const JM jm = jacobianAndMass(m, q);
  const MatX Ji = jm.J.inverse();
  const Eigen::SelfAdjointEigenSolver<MatX> es(Ji.transpose() * jm.M * Ji);
  Data d(m);
  DynamicManipulability r;
  dynamicManipulability(m, d, q, {}, r);
  CHECK(r.rank == 6);
  CHECK(r.asada == Approx(es.eigenvalues().minCoeff() / es.eigenvalues().maxCoeff()).epsilon(1e-9));
  CHECK(r.yoshikawa == Approx(std::abs(jm.J.determinant()) / jm.M.determinant()).epsilon(1e-9));
  // Rotor inertia enlarges M, so the same torque buys less acceleration.
  DynamicsOptions mo;
  mo.motors = true;
  DynamicManipulability rm;
  dynamicManipulability(m, d, q, mo, rm);
  CHECK(rm.yoshikawa < r.yoshikawa);
}

TEST_CASE("cartesianInertia: errors name what is wrong", "[dynamics][operational]") {
  CHECK_THROWS_WITH(taskRowsFromString("xyz"), Catch::Contains("rows: 'xyz' is not one of all, linear, angular"));
  const Model m = builtinModel("puma560");
  Data d(m);
  CartesianInertia c;
  CHECK_THROWS_WITH(cartesianInertia(m, d, VecX::Zero(6), {}, c, TaskRows::All, std::nan("")), Catch::Contains("rank_tol"));
  CHECK_THROWS(cartesianInertia(m, d, VecX::Zero(5), {}, c));
  // A chain whose links carry no mass has M = 0: refused, not NaN.
  std::string text = builtinRobots()[0].json;
  for (const auto& r : builtinRobots())
    if (r.name == "planar-2r") text = r.json;
  for (const char* from : {"\"mass\": 2.0", "\"mass\": 1.0"}) text.replace(text.find(from), std::string(from).size(), "\"mass\": 0");
  for (const char* from : {"[1e-4, 0.16666666666666666, 0.16666666666666666, 0, 0, 0]", "[1e-4, 0.05333333333333334, 0.05333333333333334, 0, 0, 0]"})
    text.replace(text.find(from), std::string(from).size(), "[0, 0, 0, 0, 0, 0]");
  const Model massless = modelFromJsonString(text);
  Data dm(massless);
  CHECK_THROWS_WITH(cartesianInertia(massless, dm, VecX::Zero(2), {}, c), Catch::Contains("mass matrix: not positive definite"));
}
