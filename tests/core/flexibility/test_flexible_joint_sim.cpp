// Simulation of the chain with lumped joint flexibility (flexibility/flexible_joint_sim.hpp): energy conservation
// without damping, the stiff limit against the rigid simulation, the held-motor oscillation at the locked-motor
// natural frequency, the static equilibrium, and the errors.
#include <catch2/catch.hpp>
#include <cmath>

#include <achain/flexibility/flexible_joint_sim.hpp>
#include <achain/dynamics/integrate.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/io/robot.hpp>

using namespace achain;
using Vec2 = Eigen::Vector2d;

namespace {
JointFlexibility flex2(double k1, double k2, double J1, double J2) {
  JointFlexibility f;
  f.stiffness = Vec2(k1, k2);
  f.motor_inertia = Vec2(J1, J2);
  return f;
}
}  // namespace

TEST_CASE("flexible joints: KE + PE + spring energy is conserved without damping (u = 0)", "[dynamics][flex]") {
  const Model m = builtinModel("planar-2r");  // gravity along −y, the arm swings in its plane
  Data d(m);
  const JointFlexibility f = flex2(400, 150, 0.05, 0.02);
  FlexibleJointChain chain(m, f, DynamicsOptions());
  FlexibleJointState s{Vec2(0.3, -0.6), Vec2(0.5, 1.0), Vec2(0.25, -0.5), Vec2(0, 0)};
  const double dt = chain.stableStep(d, s.q, true);
  const double e0 = chain.energy(d, s);
  const VecX u = VecX::Zero(2);
  double worst = 0, spring_max = 0;
  const int steps = static_cast<int>(2.0 / dt);
  for (int k = 0; k < steps; ++k) {
    chain.step(d, s, u, dt);
    worst = std::max(worst, std::fabs(chain.energy(d, s) - e0));
    spring_max = std::max(spring_max, 0.5 * (s.q - s.theta).dot(f.stiffness.cwiseProduct(s.q - s.theta)));
  }
  const double scale = std::fabs(e0) + kineticEnergy(m, d, s.q, s.qd, DynamicsOptions());
  INFO("dt " << dt << " steps " << steps << " drift " << worst << " of " << scale);
  CHECK(spring_max > 1e-3 * scale);  // the springs do work (the test is not trivially rigid)
  CHECK(worst < 1e-3 * scale);       // RK4 at 20 steps per shortest period: ~1e-5 of the energy per period
  // Halving the step cuts the drift by about 2⁴ (fourth order): an integrator property, not luck.
  FlexibleJointState s2{Vec2(0.3, -0.6), Vec2(0.5, 1.0), Vec2(0.25, -0.5), Vec2(0, 0)};
  double worst2 = 0;
  for (int k = 0; k < 2 * steps; ++k) {
    chain.step(d, s2, u, dt / 2);
    worst2 = std::max(worst2, std::fabs(chain.energy(d, s2) - e0));
  }
  CHECK(worst2 < worst / 10);
  // With damping: E(t) + ∫(q̇ − θ̇)ᵀD(q̇ − θ̇)dt = E(0) (the damper's dissipation, trapezoid rule in time).
  JointFlexibility fd = f;
  fd.damping = Vec2(0.5, 0.2);
  FlexibleJointChain damped(m, fd, DynamicsOptions());
  FlexibleJointState s3{Vec2(0.3, -0.6), Vec2(0.5, 1.0), Vec2(0.25, -0.5), Vec2(0, 0)};
  auto power = [&](const FlexibleJointState& x) {
    const VecX r = x.qd - x.thetad;
    return r.dot(fd.damping.cwiseProduct(r));
  };
  double dissipated = 0, p_prev = power(s3), worst3 = 0;
  for (int k = 0; k < 4 * steps; ++k) {
    damped.step(d, s3, u, dt / 4);
    const double p = power(s3);
    dissipated += 0.5 * (p + p_prev) * dt / 4;
    p_prev = p;
    worst3 = std::max(worst3, std::fabs(damped.energy(d, s3) + dissipated - e0));
  }
  INFO("dissipated " << dissipated << " balance error " << worst3);
  CHECK(dissipated > 0.02 * scale);
  CHECK(worst3 < 1e-3 * dissipated);
}

TEST_CASE("flexible joints: in the stiff limit the links follow the rigid model with the rotors added", "[dynamics][flex]") {
  const Model m = builtinModel("planar-2r");
  Model rigid = m;  // the same motors as rotors on the joints: (M + J)·q̈ = −b
  const double J1 = 0.05, J2 = 0.02;
  rigid.joints[0].motor.present = rigid.joints[1].motor.present = true;
  rigid.joints[0].motor.rotor_inertia = J1;
  rigid.joints[1].motor.rotor_inertia = J2;
  rigid.finalize();
  DynamicsOptions ro;
  ro.motors = true;
  const double T = 0.5;
  // Rigid reference (RK4, 1e-5 s).
  Data dr(rigid);
  VecX qr = Vec2(0.4, 0.8), vr = VecX::Zero(2);
  simulate(rigid, dr, qr, vr, 1e-5, static_cast<int>(T / 1e-5 + 0.5), nullptr, ro, Integrator::RK4);
  double err_prev = 0;
  for (double k : {1e3, 1e4, 1e5, 1e7}) {
    Data d(m);
    FlexibleJointChain chain(m, flex2(k, k, J1, J2), DynamicsOptions());
    // Start at rest in static equilibrium about the motors' angles, so only the rigid motion remains.
    FlexibleJointState s;
    s.theta = Vec2(0.4, 0.8);
    s.q = chain.staticEquilibrium(d, s.theta);
    s.theta = Vec2(0.4, 0.8) + (Vec2(0.4, 0.8) - s.q);  // so that q starts at (0.4, 0.8)
    s.q = chain.staticEquilibrium(d, s.theta);
    s.qd = s.thetad = VecX::Zero(2);
    // A quarter of stableStep(): at ω·dt ≈ 0.3 RK4's error in tracking the slow motion through the stiff spring is
    // 2.7e-5 rad at k = 1e7 (it falls as about dt³); a quarter step brings it below the 1/k model difference.
    const double dt = std::min(1e-4, chain.stableStep(d, s.q, true)) / 4;
    const int steps = static_cast<int>(T / dt + 0.5);
    const VecX u = VecX::Zero(2);
    for (int i = 0; i < steps; ++i) chain.step(d, s, u, dt);
    const double err = (s.q - qr).cwiseAbs().maxCoeff();
    INFO("k " << k << " |q − q_rigid| " << err << " previous " << err_prev);
    if (k == 1e3) CHECK(err > 1e-4);              // a soft drive visibly departs from the rigid motion
    if (k > 1e3 && k < 1e6) CHECK(err < err_prev / 5);  // the departure falls about as 1/k (≥ 5× per decade)
    if (k == 1e7) CHECK(err < 1e-6);                   // here the integrator's error dominates
    err_prev = err;
  }
}

TEST_CASE("flexible joints: held motors, small motion: the link oscillates at the locked-motor frequency", "[dynamics][flex]") {
  const Model m = builtinModel("planar-2r");
  Data d(m);
  DynamicsOptions o;
  o.override_gravity = true;  // the modal analysis neglects the gravity stiffness
  JointFlexibility f = flex2(100, 50, 1, 1);
  const VecX theta = Vec2(0.2, 1.1);
  const NaturalModes modes = jointFlexibilityModes(m, d, theta, f, MotorSide::Locked, o);
  FlexibleJointChain chain(m, f, o, false);
  for (int mode = 0; mode < 2; ++mode) {
    VecX q = theta + 1e-6 * modes.shapes.col(mode) / modes.shapes.col(mode).norm();
    VecX qd = VecX::Zero(2);
    const double w = modes.omega[mode];
    const double dt = 2 * M_PI / modes.omega.maxCoeff() / 200;
    const MotorMotion held = [&](double, VecX& th, VecX& thd) { th = theta; thd.setZero(); };
    // Zero crossings of φᵀ(q − θ) (the deflection stays on the mode's shape), interpolated linearly.
    const VecX proj = modes.shapes.col(mode);
    double t = 0, prev = proj.dot(q - theta);
    std::vector<double> crossings;
    while (crossings.size() < 11 && t < 200 / w) {
      chain.stepPrescribed(d, q, qd, held, t, dt);
      t += dt;
      const double cur = proj.dot(q - theta);
      if ((prev < 0) != (cur < 0)) crossings.push_back(t - dt * cur / (cur - prev));
      prev = cur;
    }
    REQUIRE(crossings.size() == 11);
    const double period = (crossings.back() - crossings.front()) / 5;
    INFO("mode " << mode << " omega " << w << " measured " << 2 * M_PI / period);
    CHECK(2 * M_PI / period == Approx(w).epsilon(1e-3));
  }
}

TEST_CASE("flexible joints: static equilibrium, stable step and bad input", "[dynamics][flex]") {
  const Model m = builtinModel("planar-2r");
  Data d(m);
  FlexibleJointChain chain(m, flex2(300, 100, 0.05, 0.02), DynamicsOptions());
  const VecX theta = Vec2(0.3, 0.4);
  const VecX q = chain.staticEquilibrium(d, theta);
  VecX g(2);
  gravityTorques(m, d, q, DynamicsOptions(), g);
  CHECK((Vec2(300, 100).cwiseProduct(q - theta) + g).cwiseAbs().maxCoeff() < 1e-9);
  // Rest there stays rest.
  FlexibleJointState s{q, VecX::Zero(2), theta, VecX::Zero(2)};
  const VecX u = g;  // the motors hold the springs' reaction: J·θ̈ = u + K(q − θ) = u − g = 0
  for (int i = 0; i < 1000; ++i) chain.step(d, s, u, 1e-4);
  CHECK((s.q - q).cwiseAbs().maxCoeff() < 1e-10);
  // One joint: locked ω² = k/I, so the step is 2π/√(k/I)/20.
  CHECK(chain.stableStep(d, q, true) > 0);
  // Errors name the field and joint.
  CHECK_THROWS_WITH(FlexibleJointChain(m, flex2(0, 100, 1, 1), DynamicsOptions()),
                    Catch::Contains("stiffness[0] (joint 'shoulder') must be positive and finite"));
  CHECK_THROWS_WITH(FlexibleJointChain(m, flex2(100, -1, 1, 1), DynamicsOptions()),
                    Catch::Contains("stiffness[1] (joint 'elbow') must be positive"));
  CHECK_THROWS_WITH(FlexibleJointChain(m, flex2(100, NAN, 1, 1), DynamicsOptions()),
                    Catch::Contains("stiffness[1] (joint 'elbow') must be positive and finite (got nan)"));
  JointFlexibility bad = flex2(100, 100, 1, 1);
  bad.damping = Vec2(0.1, -0.2);
  CHECK_THROWS_WITH(FlexibleJointChain(m, bad, DynamicsOptions()),
                    Catch::Contains("damping[1] (joint 'elbow') must be zero or positive and finite"));
  JointFlexibility nomotor;
  nomotor.stiffness = Vec2(100, 100);
  CHECK_THROWS_WITH(FlexibleJointChain(m, nomotor, DynamicsOptions()), Catch::Contains("motor_inertia needs 2 values"));
  CHECK_NOTHROW(FlexibleJointChain(m, nomotor, DynamicsOptions(), false));
  FlexibleJointChain soft(m, flex2(1e-3, 1e-3, 1, 1), DynamicsOptions());
  CHECK_THROWS_WITH(soft.staticEquilibrium(d, theta), Catch::Contains("no static equilibrium"));
}
