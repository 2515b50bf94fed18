// Helpers of the dynamics tests: random mixed R/P/H/A chains and trees with mass properties.
#pragma once
#include <random>

#include <achain/model/model.hpp>

namespace achain::test {

/// One revolute joint carrying a uniform 1 m rod of mass 2 kg along its x axis (I about the joint axis = mL²/3 = 2/3).
inline Model uniformRod() {
  Model m;
  m.name = "rod";
  Joint j;
  j.name = "j1";
  j.kind = JointKind::R;
  j.a = 1.0;
  j.link.mass = 2.0;
  j.link.com = Vec3(-0.5, 0, 0);
  j.link.inertia = Vec3(1e-4, 2.0 / 12, 2.0 / 12).asDiagonal();
  m.joints.push_back(j);
  m.finalize();
  return m;
}

inline Mat3 randomInertia(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-1, 1);
  Eigen::Matrix3d A;
  for (int i = 0; i < 9; ++i) A(i) = u(rng);
  Mat3 I = A * A.transpose() * scale;
  I.diagonal().array() += 0.1 * scale;
  return I;
}

/// A random chain (or tree when tree = true) of n joints mixing R, P, H and A, with random DH
/// constants, masses, CoMs, inertias, A-pair legs and motors. Every joint moves some mass.
inline Model randomDynamicModel(std::mt19937& rng, int n, bool tree = false,
                                DHConvention conv = DHConvention::Standard) {
  std::uniform_real_distribution<double> u(-1, 1), pos(0.2, 1.0);
  Model m;
  m.name = "random";
  m.convention = conv;
  m.gravity = Vec3(u(rng), u(rng), -9.81);
  m.base = SE3{rpyToMatrix(0.3 * u(rng), 0.3 * u(rng), u(rng)), Vec3(0.1 * u(rng), 0.1 * u(rng), 0.1 * u(rng))};
  m.tool = SE3{rpyToMatrix(u(rng), u(rng), u(rng)), Vec3(0.1 * u(rng), 0.1 * u(rng), 0.2 * u(rng))};
  for (int i = 0; i < n; ++i) {
    Joint j;
    j.name = "j" + std::to_string(i);
    const int k = std::uniform_int_distribution<int>(0, 3)(rng);
    j.kind = k == 0 ? JointKind::R : k == 1 ? JointKind::P : k == 2 ? JointKind::H : JointKind::A;
    j.parent = tree ? std::uniform_int_distribution<int>(-1, i - 1)(rng) : i - 1;
    j.a = 0.3 * u(rng);
    j.alpha = 1.5 * u(rng);
    j.d = 0.3 * u(rng);
    j.theta_f = u(rng);
    j.sign = u(rng) > 0 ? 1 : -1;
    if (j.kind == JointKind::H) j.pitch = 0.05 * u(rng);
    if (j.kind == JointKind::A) {
      j.rho = 0.05 + 0.1 * pos(rng);
      j.leg_mass = 0.05 * pos(rng);
      j.limits.lower = kPi / 3;
      j.limits.upper = 5 * kPi / 3;
    }
    if (j.kind == JointKind::P) {
      j.limits.lower = -0.2;
      j.limits.upper = 0.2;
    }
    j.link.mass = 0.5 + 2 * pos(rng);
    j.link.com = Vec3(0.2 * u(rng), 0.2 * u(rng), 0.2 * u(rng));
    j.link.inertia = randomInertia(rng, 0.02);
    if (u(rng) > 0) {
      j.motor.present = true;
      j.motor.rotor_inertia = 1e-4 * pos(rng);
      j.motor.gear_ratio = 50 * u(rng) + (u(rng) > 0 ? 60 : -60);
      j.motor.viscous = 1e-4 * pos(rng);
      j.motor.coulomb_pos = 0.01 * pos(rng);
      j.motor.coulomb_neg = 0.01 * pos(rng);
    }
    m.joints.push_back(j);
  }
  m.finalize();
  return m;
}

inline VecX randomVector(std::mt19937& rng, int n, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  VecX v(n);
  for (int i = 0; i < n; ++i) v[i] = u(rng);
  return v;
}

inline double relErr(const VecX& a, const VecX& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
}
inline double relErr(const MatX& a, const MatX& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
}

}  // namespace achain::test
