// Dynamics identities: RNEA = M q̈ + C q̇ + g (+ friction, wrench), M SPD, Ṁ − 2C skew, forward∘inverse,
// g = ∂U/∂q, KE = ½q̇ᵀMq̇, energy conservation; on every built-in and on random R/P/H/A chains and trees.
#include <Eigen/Eigenvalues>
#include <catch2/catch.hpp>
#include <algorithm>
#include <atomic>
#include <random>

#include <achain/dynamics/coriolis.hpp>
#include <achain/dynamics/crba.hpp>
#include <achain/dynamics/forward.hpp>
#include <achain/dynamics/integrate.hpp>
#include <achain/dynamics/rnea.hpp>
#include "dynamics_helpers.hpp"
#include <achain/kinematics/fk.hpp>
#include "helpers.hpp"
#include <achain/kinematics/jacobian.hpp>
#include <achain/io/robot.hpp>

using namespace achain;
using test::relErr;

namespace {

const LegModel kLegModels[] = {LegModel::Massless, LegModel::Lumped, LegModel::Full, LegModel::PotentialOnly};

std::vector<Model> testModels(std::mt19937& rng) {
  std::vector<Model> out;
  for (const auto& r : builtinRobots()) out.push_back(builtinModel(r.name));
  for (int k = 0; k < 6; ++k) out.push_back(test::randomDynamicModel(rng, 2 + k, false));
  for (int k = 0; k < 4; ++k) out.push_back(test::randomDynamicModel(rng, 3 + k, true));
  out.push_back(test::randomDynamicModel(rng, 5, false, DHConvention::Modified));
  return out;
}

/// Options with every term on: the leg model, motors, friction and a random base-frame wrench.
DynamicsOptions everyTerm(LegModel legs, std::mt19937& rng) {
  DynamicsOptions o;
  o.legs = legs;
  o.motors = true;
  o.friction = true;
  o.use_wrench = true;
  o.wrench = test::randomVector(rng, 6, 3.0);
  return o;
}

bool hasMass(const Model& m) {
  for (const auto& j : m.joints)
    if (j.link.mass > 0) return true;
  return false;
}

}  // namespace

TEST_CASE("leg model names: one spelling each, the same words toString writes", "[dynamics]") {
  for (LegModel m : {LegModel::Massless, LegModel::Lumped, LegModel::Full, LegModel::PotentialOnly})
    CHECK(legModelFromString(toString(m)) == m);
  CHECK(std::string(toString(LegModel::PotentialOnly)) == "potential");
  for (const char* old : {"pe", "potential-only", "potentialonly"})  // the spellings accepted before issue 31
    CHECK_THROWS_WITH(legModelFromString(old), Catch::Contains("legs: expected massless, lumped, full or potential"));
  CHECK_THROWS_WITH(legModelFromString("heavy"), Catch::Contains("legs: expected massless"));
}

TEST_CASE("RNEA = M q̈ + C q̇ + g + friction + Jᵀh on built-ins and random R/P/H/A chains and trees", "[dynamics]") {
  std::mt19937 rng(7);
  for (const Model& m : testModels(rng)) {
    Data data(m);
    const int n = m.nv;
    VecX tau(n), g(n), fr(n);
    MatX M(n, n), C(n, n), J(6, n);
    for (LegModel legs : kLegModels) {
      for (int k = 0; k < 8; ++k) {
        DynamicsOptions o;
        o.legs = legs;
        o.motors = k % 2 == 1;
        o.friction = k % 4 >= 2;
        o.use_wrench = k >= 4;
        o.wrench = test::randomVector(rng, 6, 5.0);
        o.wrench_frame = k % 2 ? WrenchFrame::Tool : WrenchFrame::Base;
        const VecX q = test::randomConfiguration(m, rng);
        const VecX qd = test::randomVector(rng, n, 2.0), qdd = test::randomVector(rng, n, 3.0);
        inverseDynamics(m, data, q, qd, qdd, o, tau);
        massMatrix(m, data, q, o, M);
        coriolisMatrix(m, data, q, qd, o, C);
        gravityTorques(m, data, q, o, g);
        frictionTorques(m, qd, o, fr);
        forwardKinematics(m, data, q);
        toolJacobian(m, data, J);
        VecX h = VecX::Zero(n);
        if (o.use_wrench) {
          Vec6 w = o.wrench;
          if (o.wrench_frame == WrenchFrame::Tool) {
            w.head<3>() = data.oMtool.R * w.head<3>();
            w.tail<3>() = data.oMtool.R * w.tail<3>();
          }
          h = J.transpose() * w;
        }
        const VecX rhs = M * qdd + C * qd + g + fr + h;
        INFO(m.name << " legs=" << toString(legs) << " k=" << k);
        CHECK(relErr(tau, rhs) < 1e-10);
      }
    }
  }
}

TEST_CASE("M is symmetric positive definite, Ṁ − 2C is skew and Ṁ = C + Cᵀ (central differences)", "[dynamics]") {
  std::mt19937 rng(11);
  for (const Model& m : testModels(rng)) {
    if (!hasMass(m) || m.name == "puma560") continue;  // puma560 link 1 has no mass: see the motors case
    Data data(m);
    const int n = m.nv;
    MatX M(n, n), Mp(n, n), Mm(n, n), C(n, n);
    for (LegModel legs : kLegModels) {
      DynamicsOptions o;
      o.legs = legs;
      for (int k = 0; k < 5; ++k) {
        const VecX q = test::randomConfiguration(m, rng);
        const VecX qd = test::randomVector(rng, n, 2.0);
        massMatrix(m, data, q, o, M);
        INFO(m.name << " legs=" << toString(legs));
        CHECK(relErr(M, MatX(M.transpose())) < 1e-14);
        Eigen::SelfAdjointEigenSolver<MatX> es(M);
        CHECK(es.eigenvalues().minCoeff() > 0);
        coriolisMatrix(m, data, q, qd, o, C);
        const double h = 1e-6;
        massMatrix(m, data, q + h * qd, o, Mp);
        massMatrix(m, data, q - h * qd, o, Mm);
        const MatX Mdot = (Mp - Mm) / (2 * h);
        const MatX N = Mdot - 2 * C;
        CHECK((N + N.transpose()).cwiseAbs().maxCoeff() < 1e-6 * std::max(1.0, Mdot.cwiseAbs().maxCoeff()));
        CHECK(relErr(MatX(C + C.transpose()), Mdot) < 1e-6);
      }
    }
  }
}

TEST_CASE("puma560 with motors: M positive definite", "[dynamics]") {
  const Model m = builtinModel("puma560");
  Data data(m);
  DynamicsOptions o;
  o.motors = true;
  std::mt19937 rng(3);
  MatX M(6, 6);
  for (int k = 0; k < 20; ++k) {
    massMatrix(m, data, test::randomConfiguration(m, rng), o, M);
    CHECK(Eigen::SelfAdjointEigenSolver<MatX>(M).eigenvalues().minCoeff() > 0);
  }
}

TEST_CASE("forward dynamics inverts inverse dynamics", "[dynamics]") {
  std::mt19937 rng(13);
  for (const Model& m : testModels(rng)) {
    if (!hasMass(m)) continue;
    Data data(m);
    const int n = m.nv;
    VecX tau(n), qdd2(n);
    for (LegModel legs : kLegModels) {
      DynamicsOptions o = everyTerm(legs, rng);
      if (m.name == "puma560") o.motors = true;  // link 1 needs its rotor
      for (int k = 0; k < 5; ++k) {
        const VecX q = test::randomConfiguration(m, rng);
        const VecX qd = test::randomVector(rng, n, 2.0), qdd = test::randomVector(rng, n, 3.0);
        inverseDynamics(m, data, q, qd, qdd, o, tau);
        forwardDynamics(m, data, q, qd, tau, o, qdd2);
        INFO(m.name << " legs=" << toString(legs));
        CHECK(relErr(qdd2, qdd) < 1e-9);
      }
    }
  }
}

TEST_CASE("g = ∂U/∂q and ½q̇ᵀMq̇ = kinetic energy for every leg model", "[dynamics]") {
  std::mt19937 rng(17);
  for (const Model& m : testModels(rng)) {
    Data data(m);
    const int n = m.nv;
    VecX g(n), gfd(n);
    MatX M(n, n);
    for (LegModel legs : kLegModels) {
      DynamicsOptions o;
      o.legs = legs;
      const VecX q = test::randomConfiguration(m, rng);
      gravityTorques(m, data, q, o, g);
      const double h = 1e-6;
      for (int i = 0; i < n; ++i) {
        VecX qp = q, qm = q;
        qp[i] += h;
        qm[i] -= h;
        gfd[i] = (potentialEnergy(m, data, qp, o) - potentialEnergy(m, data, qm, o)) / (2 * h);
      }
      INFO(m.name << " legs=" << toString(legs));
      CHECK(relErr(g, gfd) < 1e-7);
      const VecX qd = test::randomVector(rng, n, 2.0);
      massMatrix(m, data, q, o, M);
      const double T = kineticEnergy(m, data, q, qd, o);
      CHECK(T == Approx(0.5 * qd.dot(M * qd)).epsilon(1e-12).margin(1e-14));
    }
  }
}

TEST_CASE("Coriolis matrix is zero at rest and C q̇ equals the RNEA velocity term", "[dynamics]") {
  std::mt19937 rng(19);
  const Model m = builtinModel("prototype-4a");
  Data data(m);
  MatX C(4, 4);
  VecX tau(4);
  DynamicsOptions o;
  o.override_gravity = true;  // zero gravity
  const VecX q = test::randomConfiguration(m, rng);
  coriolisMatrix(m, data, q, VecX::Zero(4), o, C);
  CHECK(C.cwiseAbs().maxCoeff() < 1e-12);
  const VecX qd = test::randomVector(rng, 4, 2.0);
  coriolisMatrix(m, data, q, qd, o, C);
  inverseDynamics(m, data, q, qd, VecX::Zero(4), o, tau);
  CHECK(relErr(VecX(C * qd), tau) < 1e-12);
}

TEST_CASE("energy is conserved in frictionless simulation (RK4 and semi-implicit Euler)", "[dynamics][sim]") {
  std::mt19937 rng(23);
  std::vector<Model> models = {builtinModel("prototype-4a"), builtinModel("planar-2r"),
                               test::randomDynamicModel(rng, 5)};
  for (const Model& m : models) {
    Data data(m);
    DynamicsOptions o;
    o.legs = LegModel::Full;
    VecX q = test::randomConfiguration(m, rng);
    VecX qd = test::randomVector(rng, m.nv, 1.0);
    const VecX q0 = q, qd0 = qd;
    auto energy = [&](const VecX& a, const VecX& b) {
      return kineticEnergy(m, data, a, b, o) + potentialEnergy(m, data, a, o);
    };
    const double E0 = energy(q, qd);
    // Energy scale for the relative bound: kinetic + the potential's range over a swing.
    const double scale = std::abs(kineticEnergy(m, data, q, qd, o)) + std::abs(potentialEnergy(m, data, q, o)) + 1e-9;
    double drift = 0;
    simulate(m, data, q, qd, 1e-3, 2000, nullptr, o, Integrator::RK4,
             {[&](int, double, const VecX& a, const VecX& b, const VecX&) {
                drift = std::max(drift, std::abs(energy(a, b) - E0));
              }, {}, 10});
    INFO(m.name << " RK4 drift " << drift / scale);
    CHECK(drift / scale < 1e-6);  // RK4, dt = 1 ms, 2 s
    q = q0;
    qd = qd0;
    drift = 0;
    simulate(m, data, q, qd, 1e-4, 20000, nullptr, o, Integrator::SemiImplicitEuler,
             {[&](int, double, const VecX& a, const VecX& b, const VecX&) {
                drift = std::max(drift, std::abs(energy(a, b) - E0));
              }, {}, 100});
    INFO(m.name << " Euler drift " << drift / scale);
    CHECK(drift / scale < 1e-2);  // symplectic: bounded O(dt) oscillation, no secular drift
  }
}

TEST_CASE("simulation reports non-finite states and bad arguments", "[dynamics][sim]") {
  const Model m = builtinModel("planar-2r");
  Data data(m);
  VecX q = VecX::Zero(2), qd = VecX::Zero(2);
  CHECK_THROWS_WITH(simulate(m, data, q, qd, -1, 10, nullptr, {}, Integrator::RK4), Catch::Contains("dt"));
  CHECK_THROWS_WITH(integratorFromString("verlet"), Catch::Contains("integrator"));
}

#include <achain/dynamics/aba.hpp>

TEST_CASE("ABA = Cholesky forward dynamics (every leg model but Full-with-legs) and Full with legs refused", "[dynamics][aba]") {
  std::mt19937 rng(29);
  for (const Model& m : testModels(rng)) {
    if (!hasMass(m)) continue;
    Data data(m);
    const int n = m.nv;
    VecX a1(n), a2(n);
    for (LegModel legs : kLegModels) {
      DynamicsOptions o = everyTerm(legs, rng);
      o.wrench_frame = WrenchFrame::Tool;
      const VecX q = test::randomConfiguration(m, rng), qd = test::randomVector(rng, n, 2.0), tau = test::randomVector(rng, n, 5.0);
      if (legs == LegModel::Full && !m.legs.empty()) {
        CHECK_THROWS_WITH(forwardDynamicsABA(m, data, q, qd, tau, o, a1), Catch::Contains("use the Cholesky method"));
        continue;
      }
      forwardDynamics(m, data, q, qd, tau, o, a1);
      forwardDynamicsABA(m, data, q, qd, tau, o, a2);
      INFO(m.name << " legs=" << toString(legs));
      CHECK(relErr(a2, a1) < 1e-9);
    }
  }
}

#include <achain/dynamics/control.hpp>

TEST_CASE("computed-torque control: with a perfect model the error follows ë + Kv ė + Kp e = 0", "[dynamics][control]") {
  const Model m = builtinModel("prototype-4a");
  const int n = 4;
  const VecX qset = (VecX(n) << 2.0, 3.5, 2.5, 4.0).finished();
  const VecX e0 = (VecX(n) << 0.05, -0.03, 0.02, 0.04).finished();
  ComputedTorqueOptions o;
  const double w = 20;  // rad/s, critically damped
  o.kp = VecX::Constant(n, w * w);
  o.kv = VecX::Constant(n, 2 * w);
  o.dt = 1e-4;
  // Desired: a smooth motion q_d(t) = qset + 0.2 sin(t) (all joints).
  auto desired = [&](double t, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v, Eigen::Ref<VecX> a) {
    q = qset.array() + 0.2 * std::sin(t);
    v.setConstant(0.2 * std::cos(t));
    a.setConstant(-0.2 * std::sin(t));
  };
  const VecX q0 = qset - e0;                      // start off the path by e0
  const VecX qd0 = VecX::Constant(n, 0.2);        // on the path's speed
  const ControlRun run = simulateComputedTorque(m, desired, q0, qd0, 0.5, o);
  for (size_t k = 0; k < run.t.size(); k += 500) {
    const double t = run.t[k];
    for (int i = 0; i < n; ++i) {
      const double expect = (e0[i] + w * e0[i] * t) * std::exp(-w * t);  // ė(0) = 0
      // τ is held over each control period (zero-order hold): deviation O(ω·dt) = 2e-3 of e0.
      CHECK(run.error[k][i] == Approx(expect).margin(3e-3 * std::abs(e0[i]) + 1e-7));
    }
  }
  // Model mismatch: the controller ignores the legs the plant has → a residual error remains.
  o.controller.legs = LegModel::Massless;
  const ControlRun mis = simulateComputedTorque(m, desired, qset, VecX::Constant(n, 0.2), 1.0, o);
  CHECK(mis.max_abs_error.maxCoeff() > 1e-5);
  CHECK(mis.max_abs_error.maxCoeff() < 1e-2);
}

TEST_CASE("computed torque through DC motors with Freeman's voltage feed-forward tracks like a torque source", "[dynamics][control]") {
  const Model m = builtinModel("prototype-4a");
  const int n = 4;
  auto desired = [&](double t, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v, Eigen::Ref<VecX> a) {
    q.setConstant(2.0 + 0.3 * std::sin(2 * t));
    v.setConstant(0.6 * std::cos(2 * t));
    a.setConstant(-1.2 * std::sin(2 * t));
  };
  ComputedTorqueOptions o;
  o.dt = 1e-4;
  const VecX q0 = VecX::Constant(n, 2.0), qd0 = VecX::Constant(n, 0.6);
  const ControlRun ideal = simulateComputedTorque(m, desired, q0, qd0, 1.0, o);
  o.dc_motor = true;
  o.R = VecX::Constant(n, 1.0);
  o.L = VecX::Constant(n, 1e-4);  // electrical time constant 0.1 ms = the control period
  o.Kt = VecX::Constant(n, 0.5);
  o.Ke = VecX::Constant(n, 0.5);
  const ControlRun dc = simulateComputedTorque(m, desired, q0, qd0, 1.0, o);
  REQUIRE(dc.current.size() == dc.t.size());
  // Tracking stays at the torque-source level (the current lags the command by ~L/R only).
  CHECK(dc.max_abs_error.maxCoeff() < 10 * ideal.max_abs_error.maxCoeff() + 1e-5);
  // The motors deliver the commanded torque: K_t·G·i ≈ τ_c after the transient (G = 1, no motor data).
  const size_t k = dc.t.size() / 2;
  for (int i = 0; i < n; ++i) CHECK(o.Kt[i] * dc.current[k][i] == Approx(dc.tau[k][i]).margin(0.02 * std::abs(dc.tau[k][i]) + 1e-3));
  // Bad motor data is named.
  o.R[2] = 0;
  CHECK_THROWS_WITH(simulateComputedTorque(m, desired, q0, qd0, 0.1, o), Catch::Contains("motor[2]"));
}

TEST_CASE("simulationSteps: ceil(duration/dt) steps, a bad dt or duration refused naming it (in simulateComputedTorque too)", "[dynamics][control]") {
  CHECK(simulationSteps(1.0, 1e-3) == 1000);
  CHECK(simulationSteps(1.0, 0.3) == 4);   // a shorter last period is still a step
  CHECK(simulationSteps(0.9, 0.3) == 3);   // 0.9/0.3 = 3.0000000000000004: no extra step for the rounding
  CHECK(simulationSteps(20, 20) == 1);
  CHECK(simulationSteps(0, 1e-3) == 0);
  CHECK(simulationSteps(5e7, 0.5) == 100000000);  // the cap itself
  CHECK_THROWS_WITH(simulationSteps(5e7 + 0.5, 0.5), "duration: 5e+07 s is 100000001 steps of dt (0.5 s); at most 1e8");
  CHECK_THROWS_WITH(simulationSteps(1e6, 1e-3), "duration: 1e+06 s is 1000000000 steps of dt (0.001 s); at most 1e8");
  CHECK_THROWS_WITH(simulationSteps(1, 0), "dt: must be a finite number > 0 (got 0)");
  CHECK_THROWS_WITH(simulationSteps(1, -1e-3), "dt: must be a finite number > 0 (got -0.001)");
  CHECK_THROWS_WITH(simulationSteps(1, std::nan("")), "dt: must be a finite number > 0 (got nan)");
  CHECK_THROWS_WITH(simulationSteps(1, kInf), "dt: must be a finite number > 0 (got inf)");
  CHECK_THROWS_WITH(simulationSteps(-1, 1e-3), "duration: must be a finite number ≥ 0 (got -1)");
  CHECK_THROWS_WITH(simulationSteps(kInf, 1e-3), "duration: must be a finite number ≥ 0 (got inf)");
  CHECK_THROWS_WITH(simulationSteps(20, 1e9, "--duration", "--dt"),
                    "--dt: 1e+09 s is longer than the simulated time (20 s); give a smaller --dt");
  // simulateComputedTorque takes its step count from it: 0.9 s at 0.3 s is the samples 0, 0.3, 0.6, 0.9
  const Model m = builtinModel("planar-2r");
  auto still = [](double, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v, Eigen::Ref<VecX> a) {
    q.setConstant(0.1);
    v.setZero();
    a.setZero();
  };
  ComputedTorqueOptions o;
  o.dt = 0.3;
  const VecX q0 = VecX::Constant(2, 0.1), qd0 = VecX::Zero(2);
  const ControlRun run = simulateComputedTorque(m, still, q0, qd0, 0.9, o);
  REQUIRE(run.t.size() == 4);
  CHECK(run.t[3] == Approx(0.9).margin(1e-15));
  o.dt = 1e9;
  CHECK_THROWS_WITH(simulateComputedTorque(m, still, q0, qd0, 20, o),
                    "dt: 1e+09 s is longer than the simulated time (20 s); give a smaller dt");
  o.dt = 0;
  CHECK_THROWS_WITH(simulateComputedTorque(m, still, q0, qd0, 1, o), "dt: must be a finite number > 0 (got 0)");
}

TEST_CASE("joint-limit stops: a critically damped stop absorbs an impact within a small penetration, an undamped one bounces elastically", "[dynamics][sim]") {
  const Model m = builtinModel("prototype-4a");
  Data data(m);
  const int n = m.nv;
  DynamicsOptions o;
  o.override_gravity = true;  // zero gravity: the energy is the kinetic energy alone
  const double w = 2 * kPi * o.stop_frequency, v0 = 2.0;
  for (int j = 0; j < n; ++j) {
    const JointLimits& L = m.joints[m.coord_joint[j]].limits;
    REQUIRE(std::isfinite(L.upper));
    VecX q0(n), qd0 = VecX::Zero(n);
    for (int c = 0; c < n; ++c) {
      const JointLimits& Lc = m.joints[m.coord_joint[c]].limits;
      q0[c] = 0.5 * (Lc.lower + Lc.upper);
    }
    q0[j] = L.upper - 0.02;
    qd0[j] = v0;  // toward the upper stop
    const double KE0 = kineticEnergy(m, data, q0, qd0, o);
    auto run = [&](bool stops, double zeta, double& depth, double& keMax) {
      DynamicsOptions s = o;
      s.limit_stops = stops;
      s.stop_damping_ratio = zeta;
      VecX q = q0, qd = qd0;
      depth = 0;
      keMax = 0;
      simulate(m, data, q, qd, 1e-4, 2000, nullptr, s, Integrator::RK4,
               {[&](int, double, const VecX& a, const VecX& b, const VecX&) {
                  depth = std::max(depth, a[j] - L.upper);
                  keMax = std::max(keMax, kineticEnergy(m, data, a, b, s));
                }, {}, 1});
      return kineticEnergy(m, data, q, qd, s);
    };
    double depth, keMax;
    run(false, 1, depth, keMax);
    INFO("joint " << j + 1);
    CHECK(depth > 0.1);  // without stops the joint runs through its limit
    // Critical damping: the impact's energy is dissipated; the penetration stays near v/(e·ω).
    const double KEc = run(true, 1, depth, keMax);
    INFO("penetration " << depth << " rad, bound " << 1.5 * v0 / (std::exp(1.0) * w));
    CHECK(depth > 0);
    CHECK(depth < 1.5 * v0 / (std::exp(1.0) * w));  // ≈ 0.35° at 2 rad/s and 20 Hz
    CHECK(keMax <= KE0 * (1 + 1e-9));
    // the damper takes the impact's energy out (the coupled joints keep part of the motion: measured
    // 59 % (joint 2) to over 95 % lost), while ζ = 0 below keeps all of it
    CHECK(KEc < 0.5 * KE0);
    // ζ = 0: a lossless spring, the bounce returns the energy (RK4 at ω·dt = 0.013).
    const double KE0b = run(true, 0, depth, keMax);
    CHECK(std::abs(KE0b - KE0) < 1e-4 * KE0);
  }
  DynamicsOptions bad;
  bad.limit_stops = true;
  bad.stop_frequency = 0;
  VecX q = VecX::Zero(n), qd = VecX::Zero(n), qdd(n);
  CHECK_THROWS_WITH(forwardDynamics(m, data, q, qd, VecX::Zero(n), bad, qdd), Catch::Contains("stop_frequency"));
}

TEST_CASE("joint-limit stops: under gravity the arm stays within its limits up to a small sink-in, never gains energy, and a resting stop balances g", "[dynamics][sim]") {
  const Model m = builtinModel("prototype-4a");
  Data data(m);
  const int n = m.nv;
  DynamicsOptions o;
  o.limit_stops = true;
  const double w = 2 * kPi * o.stop_frequency;
  // Let go (τ = 0) from inside the range for 3 s: every joint stays within its limits up to a small
  // sink-in, and the energy (kinetic + potential, the stops' spring not counted) never rises above the start.
  VecX q(n), qd = VecX::Zero(n);
  for (int c = 0; c < n; ++c) {
    const JointLimits& L = m.joints[m.coord_joint[c]].limits;
    q[c] = 0.5 * (L.lower + L.upper) + 0.3 * (L.upper - L.lower) * (c % 2 ? 1 : -1);
  }
  auto energy = [&](const VecX& a, const VecX& b) { return kineticEnergy(m, data, a, b, o) + potentialEnergy(m, data, a, o); };
  const double E0 = energy(q, qd);
  double worst = 0, rise = -kInf;
  simulate(m, data, q, qd, 5e-4, 6000, nullptr, o, Integrator::RK4,
           {[&](int, double, const VecX& a, const VecX& b, const VecX&) {
              for (int c = 0; c < n; ++c) {
                const JointLimits& L = m.joints[m.coord_joint[c]].limits;
                worst = std::max({worst, a[c] - L.upper, L.lower - a[c]});
              }
              rise = std::max(rise, energy(a, b) - E0);
            }, {}, 1});
  const double E1 = energy(q, qd);
  INFO("worst penetration " << worst << " rad, largest rise " << rise << " J, E0 " << E0 << " J, end " << E1 << " J");
  CHECK(worst > 0);            // it did reach a stop
  CHECK(worst < 1 * kDeg);     // measured 0.43°
  CHECK(rise < 1e-6 * std::abs(E0) + 1e-9);
  CHECK(E1 < E0);              // and the stops took energy out
  // Statics, exactly: joint c held δ = |g_c|/(M_cc·ω²) past the limit it is pushed into, the others held
  // by τ = g, is in equilibrium: forward dynamics gives q̈ = 0.
  VecX g(n), qdd(n);
  MatX M(n, n);
  int checked = 0;
  for (int c = 0; c < n; ++c) {
    VecX qs(n);
    for (int i = 0; i < n; ++i) qs[i] = 0.5 * (m.joints[m.coord_joint[i]].limits.lower + m.joints[m.coord_joint[i]].limits.upper) + 0.2;
    const JointLimits& L = m.joints[m.coord_joint[c]].limits;
    for (int side = 0; side < 2; ++side) {
      qs[c] = side ? L.upper : L.lower;
      gravityTorques(m, data, qs, o, g);
      if (std::abs(g[c]) < 1e-6) continue;
      // gravity pushes joint c toward −g_c: into the upper limit if g_c < 0, the lower if g_c > 0
      if ((g[c] < 0) != (side == 1)) continue;
      const double lim = side ? L.upper : L.lower, sgn = side ? 1.0 : -1.0;
      for (int it = 0; it < 8; ++it) {  // δ = |g_c(q)|/(M_cc(q)·ω²) at q with q_c = limit ± δ (a fixed point; δ is tiny)
        gravityTorques(m, data, qs, o, g);
        massMatrix(m, data, qs, o, M);
        qs[c] = lim + sgn * std::abs(g[c]) / (M(c, c) * w * w);
      }
      gravityTorques(m, data, qs, o, g);
      VecX tau = g;
      tau[c] = 0;
      forwardDynamics(m, data, qs, VecX::Zero(n), tau, o, qdd);
      INFO("joint " << c + 1 << (side ? " upper" : " lower") << ", sag " << std::abs(qs[c] - lim) << " rad, q̈ " << qdd.transpose());
      CHECK(std::abs(qs[c] - lim) > 0);
      CHECK(qdd.cwiseAbs().maxCoeff() < 1e-8 * std::abs(g[c]) / M(c, c));
      ++checked;
    }
  }
  CHECK(checked >= 3);
}

TEST_CASE("a Progress stops simulate and simulateComputedTorque with Cancelled naming the step, the flag polled at least every 1000 steps", "[dynamics][sim][progress]") {
  const Model m = builtinModel("puma560");
  Data data(m);
  const int n = m.nv;
  std::vector<double> seen, times;
  SimulationSample io;
  io.sample = [&](int, double t, const VecX&, const VecX&, const VecX&) { times.push_back(t); };
  io.progress = Progress([&](double f) {
    seen.push_back(f);
    return f < 0.25;
  });
  VecX q = VecX::Constant(n, 0.3), qd = VecX::Zero(n);
  // 1000 steps: asked every 10 steps (1 %); the report says stop at 0.25, after step 250
  CHECK_THROWS_MATCHES(simulate(m, data, q, qd, 1e-3, 1000, nullptr, {}, Integrator::RK4, io), Cancelled,
                       Catch::Message("simulate: cancelled at step 250 of 1000 (t = 0.25 s)"));
  REQUIRE(seen.size() == 25);
  CHECK(seen.front() == Approx(0.01));
  CHECK(seen.back() == Approx(0.25));
  CHECK(std::is_sorted(seen.begin(), seen.end()));
  REQUIRE(times.size() == 250);  // the samples before the stop were delivered: steps 0…249
  CHECK(times.back() == Approx(0.249));
  CHECK(q.allFinite());

  // a stop flag (as a signal handler or another thread sets it) in a 1e6-step run: set at step 3000 by the sample
  // hook, seen at the next poll (every 1000 steps: 1 % would be 10,000), with no report at all
  std::atomic<bool> stop{false};
  SimulationSample io2;
  io2.sample = [&](int k, double, const VecX&, const VecX&, const VecX&) {
    if (k == 3000) stop = true;
  };
  io2.progress = Progress(&stop);
  io2.every = 1000;
  q.setConstant(0.3);
  qd.setZero();
  CHECK_THROWS_MATCHES(simulate(m, data, q, qd, 1e-5, 1000000, nullptr, {}, Integrator::SemiImplicitEuler, io2), Cancelled,
                       Catch::Message("simulate: cancelled at step 4000 of 1000000 (t = 0.04 s)"));

  // computed-torque tracking: the same contract ("control: …")
  ComputedTorqueOptions o;
  o.dt = 1e-3;
  const VecX q0 = VecX::Constant(n, 0.2);
  auto still = [&](double, Eigen::Ref<VecX> qq, Eigen::Ref<VecX> v, Eigen::Ref<VecX> a) {
    qq = q0;
    v.setZero();
    a.setZero();
  };
  int calls = 0;
  CHECK_THROWS_MATCHES(simulateComputedTorque(m, still, q0, VecX::Zero(n), 2.0, o, Progress([&](double) { return ++calls < 3; })),
                       Cancelled, Catch::Message("control: cancelled at step 60 of 2000 (t = 0.06 s)"));
  CHECK(calls == 3);
  // a report that always goes on changes nothing: the same run as without one
  const ControlRun plain = simulateComputedTorque(m, still, q0, VecX::Zero(n), 0.2, o);
  std::vector<double> fr;
  const ControlRun told = simulateComputedTorque(m, still, q0, VecX::Zero(n), 0.2, o, Progress([&](double f) {
    fr.push_back(f);
    return true;
  }));
  CHECK(fr.size() == 100);
  CHECK(fr.back() == 1.0);
  CHECK(told.q.back() == plain.q.back());
}
