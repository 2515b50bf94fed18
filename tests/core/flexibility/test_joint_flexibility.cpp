// Lumped joint flexibility (flexibility/joint_flexibility.hpp): Spong's model linearised about q, against the 1-DOF
// closed forms, a hand-computed 2-DOF arm, and the prototype's frequencies versus configuration.
#include <catch2/catch.hpp>
#include <cmath>

#include <achain/dynamics/crba.hpp>
#include <achain/flexibility/joint_flexibility.hpp>
#include <achain/io/robot.hpp>

#include "dynamics_helpers.hpp"

using namespace achain;

namespace {

Model pendulum() { return test::uniformRod(); }

JointFlexibility flexOf(std::initializer_list<double> k, std::initializer_list<double> J) {
  JointFlexibility f;
  f.stiffness = Eigen::Map<const VecX>(k.begin(), static_cast<Eigen::Index>(k.size()));
  f.motor_inertia = Eigen::Map<const VecX>(J.begin(), static_cast<Eigen::Index>(J.size()));
  return f;
}

}  // namespace

TEST_CASE("joint flexibility: one joint, locked and free motor closed forms", "[dynamics][flex]") {
  const Model m = pendulum();
  Data d(m);
  const double I = 2.0 / 3, k = 120.0, J = 0.05;
  const auto flex = flexOf({k}, {J});
  VecX q(1);
  q << 0.7;
  const auto locked = jointFlexibilityModes(m, d, q, flex, MotorSide::Locked, DynamicsOptions{});
  REQUIRE(locked.omega.size() == 1);
  CHECK(locked.omega[0] == Approx(std::sqrt(k / I)).epsilon(1e-12));
  const auto free = jointFlexibilityModes(m, d, q, flex, MotorSide::Free, DynamicsOptions{});
  REQUIRE(free.omega.size() == 2);
  CHECK(free.omega[0] < 1e-6);  // the rigid-body rotation of rotor and link together
  CHECK(free.omega[1] == Approx(std::sqrt(k * (1 / J + 1 / I))).epsilon(1e-12));
  // The rigid mode moves link and rotor together; the flexible one moves them against each other with
  // amplitudes in the ratio of the inertias (I·q = −J·θ).
  CHECK(free.shapes(0, 0) == Approx(free.shapes(1, 0)).epsilon(1e-9));
  CHECK(I * free.shapes(0, 1) == Approx(-J * free.shapes(1, 1)).epsilon(1e-9));
  // A very heavy rotor approaches the locked motor.
  const auto heavy = jointFlexibilityModes(m, d, q, flexOf({k}, {1e9}), MotorSide::Free, DynamicsOptions{});
  CHECK(heavy.omega[1] == Approx(locked.omega[0]).epsilon(1e-9));
}

TEST_CASE("joint flexibility: planar 2R, hand-computed frequencies with the motors locked", "[dynamics][flex]") {
  // Uniform rods m1 = 2, l1 = 1, m2 = 1, l2 = 0.8 (planar-2r): by hand
  //   M11 = m1 l1²/3 + m2(l1² + l2²/3 + l1 l2 cos q2), M12 = m2(l2²/3 + l1 l2 cos q2 / 2), M22 = m2 l2²/3,
  // and det(K − ω²M) = 0 is det(M)·λ² − (k1 M22 + k2 M11)·λ + k1 k2 = 0, λ = ω².
  const Model m = builtinModel("planar-2r");
  Data d(m);
  const double k1 = 100, k2 = 50;
  const auto flex = flexOf({k1, k2}, {0.01, 0.01});
  for (double q2 : {0.0, kPi / 2, 2.0}) {
    const double c = std::cos(q2);
    // planar-2r gives its rods a 1e-4 polar inertia and I_zz = m l²/12 about the CoM: m l²/3 about the joint.
    const double M11 = 2.0 / 3 + (1 + 0.64 / 3 + 0.8 * c), M12 = 0.64 / 3 + 0.4 * c, M22 = 0.64 / 3;
    const double det = M11 * M22 - M12 * M12, b = k1 * M22 + k2 * M11;
    const double disc = std::sqrt(b * b - 4 * det * k1 * k2);
    const double w1 = std::sqrt((b - disc) / (2 * det)), w2 = std::sqrt((b + disc) / (2 * det));
    VecX q(2);
    q << 0.3, q2;
    const auto r = jointFlexibilityModes(m, d, q, flex, MotorSide::Locked, DynamicsOptions{});
    INFO("q2 = " << q2);
    CHECK(r.omega[0] == Approx(w1).epsilon(1e-10));
    CHECK(r.omega[1] == Approx(w2).epsilon(1e-10));
    // The first mode shape satisfies (K − ω1² M) v = 0 with the hand M.
    MatX Mh(2, 2), K = MatX::Zero(2, 2);
    Mh << M11, M12, M12, M22;
    K.diagonal() << k1, k2;
    CHECK((K * r.shapes.col(0) - w1 * w1 * Mh * r.shapes.col(0)).norm() < 1e-9);
    // Free motors: two rigid modes at 0, and the flexible frequencies above the locked ones (lighter system).
    const auto f = jointFlexibilityModes(m, d, q, flex, MotorSide::Free, DynamicsOptions{});
    REQUIRE(f.omega.size() == 4);
    CHECK(f.omega[0] < 1e-5 * f.omega[3]);  // zero to round-off (ω is the square root of a ~1e-12 relative eigenvalue)
    CHECK(f.omega[1] < 1e-5 * f.omega[3]);
    CHECK(f.omega[2] > r.omega[0]);
    CHECK(f.omega[3] > r.omega[1]);
  }
}

TEST_CASE("joint flexibility: prototype-4a frequencies change with configuration", "[dynamics][flex]") {
  const Model m = builtinModel("prototype-4a");
  Data d(m);
  JointFlexibility flex;
  flex.stiffness = VecX::Constant(m.nv, 500.0);
  flex.motor_inertia = VecX::Constant(m.nv, 1e-3);
  VecX qa(m.nv), qb(m.nv);
  qa.setZero();
  qb.setConstant(1.2);
  const auto a = jointFlexibilityModes(m, d, qa, flex, MotorSide::Locked, DynamicsOptions{});
  const auto b = jointFlexibilityModes(m, d, qb, flex, MotorSide::Locked, DynamicsOptions{});
  REQUIRE(a.omega.size() == m.nv);
  for (int i = 0; i < m.nv; ++i) {
    CHECK(a.omega[i] > 0);
    CHECK(std::isfinite(a.omega[i]));
  }
  CHECK((a.omega - b.omega).norm() > 1e-3 * a.omega.norm());  // configuration dependence
  // Mass-normalised against the rigid mass matrix M(q), and Rayleigh: the stiffest joint spring bounds ω from above.
  MatX M(m.nv, m.nv);
  massMatrix(m, d, qa, DynamicsOptions{}, M);
  CHECK((a.shapes.transpose() * M * a.shapes - MatX::Identity(m.nv, m.nv)).cwiseAbs().maxCoeff() < 1e-9);
  // Stiffness scales ω by √k.
  JointFlexibility stiff = flex;
  stiff.stiffness *= 4;
  const auto s = jointFlexibilityModes(m, d, qa, stiff, MotorSide::Locked, DynamicsOptions{});
  CHECK((s.omega - 2 * a.omega).norm() < 1e-9 * a.omega.norm());
}

TEST_CASE("joint flexibility: bad input is named", "[dynamics][flex]") {
  const Model m = pendulum();
  Data d(m);
  VecX q = VecX::Zero(1);
  CHECK_THROWS_WITH(jointFlexibilityModes(m, d, q, flexOf({0}, {1}), MotorSide::Locked, DynamicsOptions{}),
                    Catch::Contains("stiffness[0] (joint 'j1') must be positive"));
  CHECK_THROWS_WITH(jointFlexibilityModes(m, d, q, flexOf({-3}, {1}), MotorSide::Locked, DynamicsOptions{}),
                    Catch::Contains("stiffness[0]"));
  CHECK_THROWS_WITH(jointFlexibilityModes(m, d, q, flexOf({1, 2}, {1}), MotorSide::Locked, DynamicsOptions{}),
                    Catch::Contains("stiffness needs 1 values"));
  CHECK_THROWS_WITH(jointFlexibilityModes(m, d, q, flexOf({1}, {0}), MotorSide::Free, DynamicsOptions{}),
                    Catch::Contains("motor_inertia[0] (joint 'j1') must be positive"));
  // Locked needs no motor inertia.
  JointFlexibility only_k;
  only_k.stiffness = VecX::Constant(1, 5.0);
  CHECK_NOTHROW(jointFlexibilityModes(m, d, q, only_k, MotorSide::Locked, DynamicsOptions{}));
  CHECK_THROWS_WITH(jointFlexibilityModes(m, d, VecX::Zero(2), only_k, MotorSide::Locked, DynamicsOptions{}),
                    Catch::Contains("q needs 1 finite values"));
  CHECK_THROWS_WITH(jointFlexibilityModes(m, d, VecX::Constant(1, NAN), only_k, MotorSide::Locked, DynamicsOptions{}),
                    Catch::Contains("q needs 1 finite values"));
  CHECK_THROWS_WITH(motorSideFromString("loose"), Catch::Contains("expected locked or free"));
  CHECK(motorSideFromString("free") == MotorSide::Free);
}
