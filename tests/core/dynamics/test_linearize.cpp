// Linearised dynamics and state space (Freeman 2-200…2-252): the analytic partials ∂T/∂q, ∂T/∂q̇ and I* against
// Richardson central differences of the nonlinear inverse dynamics (RNEA) on the built-ins, trees, mimic joints,
// every leg model, motors and friction, and random R/P/H/A chains; A and B against differences of the forward
// dynamics; a pendulum's poles ±i√(g/l) hanging and ±√(g/l) upright; the DC motor in series against the
// motor-and-inertia transfer function K/(s[(Js + b)(Ls + R) + K²]); the tool output C = [J 0]; the Robotics
// Toolbox's jointdynamics convention; the refusals.
#include <catch2/catch.hpp>

#include <complex>
#include <cstdio>
#include <random>

#include <achain/dynamics/crba.hpp>
#include <achain/dynamics/forward.hpp>
#include <achain/dynamics/linearize.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/io/model_json.hpp>
#include <achain/ik/ik.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/kinematics/jacobian.hpp>

#include "dynamics_helpers.hpp"
#include "helpers.hpp"
#include "urdf_test_support.hpp"

using namespace achain;

namespace linearize_test {  // named: the unity build puts this file beside others

/// d f/dx_k by Richardson-extrapolated central differences (error O(h⁴)).
template <class F>
MatX jacobianFd(const F& f, const VecX& x, double h) {
  const VecX f0 = f(x);
  MatX J(f0.size(), x.size());
  for (int k = 0; k < x.size(); ++k) {
    auto d = [&](double s) {
      VecX xp = x, xm = x;
      xp[k] += s, xm[k] -= s;
      return VecX((f(xp) - f(xm)) / (2 * s));
    };
    J.col(k) = (4 * d(h / 2) - d(h)) / 3;
  }
  return J;
}

/// A pendulum: one R joint about y at the origin, a point mass m at distance l along x (DH a = l), gravity −z.
Model pendulum(double m, double l) {
  char buf[512];
  std::snprintf(buf, sizeof buf, R"({"schema_version": 1, "name": "pendulum", "gravity": [0, 0, -9.81],
    "base": {"rpy": [1.5707963267948966, 0, 0]},
    "joints": [{"kind": "R", "a": %.17g, "alpha": 0, "link": {"mass": %.17g, "com": [0, 0, 0], "inertia": [0, 0, 0, 0, 0, 0]}}]})",
                l, m);
  return modelFromJsonString(buf);
}

}  // namespace linearize_test

using namespace linearize_test;

TEST_CASE("linearize: ∂T/∂q, ∂T/∂q̇ and I* equal central differences of RNEA (every leg model, motors, trees, mimic)",
          "[dynamics][linearize]") {
  std::mt19937 rng(2200);
  std::vector<Model> models;
  for (const char* name : {"puma560", "prototype-4a", "planar-2r", "general-4a"}) models.push_back(builtinModel(name));
  models.push_back(test::twoToolTree());
  models.push_back(test::loadUrdfFixture("gripper_mimic.urdf", "tip_link"));
  for (int k = 0; k < 3; ++k) models.push_back(test::randomDynamicModel(rng, 3 + k, k == 2));
  double worst_q = 0, worst_qd = 0, worst_M = 0;
  int cases = 0;
  for (const Model& m : models) {
    INFO(m.name);
    Data data(m), fd(m);
    for (LegModel legs : {LegModel::Massless, LegModel::Lumped, LegModel::Full, LegModel::PotentialOnly}) {
      DynamicsOptions o;
      o.legs = legs;
      o.motors = o.friction = m.name == "puma560";
      for (int trial = 0; trial < 2; ++trial) {
        const VecX q = test::randomConfiguration(m, rng);
        VecX qd(m.nv), qdd(m.nv);
        for (int i = 0; i < m.nv; ++i) qd[i] = std::uniform_real_distribution<double>(-2, 2)(rng), qdd[i] = std::uniform_real_distribution<double>(-3, 3)(rng);
        Linearization lin;
        linearizeDynamics(m, data, q, qd, qdd, o, {}, lin);
        auto tau = [&](const VecX& qq, const VecX& vv, const VecX& aa) {
          VecX t(m.nv);
          inverseDynamics(m, fd, qq, vv, aa, o, t);
          return t;
        };
        const MatX Jq = jacobianFd([&](const VecX& x) { return tau(x, qd, qdd); }, q, 1e-4);
        const MatX Jv = jacobianFd([&](const VecX& x) { return tau(q, x, qdd); }, qd, 1e-4);
        const MatX Ja = jacobianFd([&](const VecX& x) { return tau(q, qd, x); }, qdd, 1e-2);
        worst_q = std::max(worst_q, test::relErr(lin.dT_dq, Jq));
        worst_qd = std::max(worst_qd, test::relErr(lin.dT_dqd, Jv));
        worst_M = std::max(worst_M, test::relErr(lin.Istar, Ja));
        CHECK(test::relErr(lin.dT_dq, Jq) < 1e-6);
        CHECK(test::relErr(lin.dT_dqd, Jv) < 1e-6);
        CHECK(test::relErr(lin.Istar, Ja) < 1e-8);
        ++cases;
      }
    }
  }
  std::printf("linearize vs central differences of RNEA (%d states): dT/dq %.2e, dT/dqd %.2e, I* %.2e (relative)\n", cases, worst_q,
              worst_qd, worst_M);
}

TEST_CASE("linearize: A and B equal differences of the forward dynamics, C = [J 0] for the tool", "[dynamics][linearize]") {
  for (const char* name : {"puma560", "prototype-4a"}) {
    const Model m = builtinModel(name);
    INFO(name);
    Data data(m), fd(m);
    std::mt19937 rng(2241);
    const VecX q = test::randomConfiguration(m, rng);
    VecX qd(m.nv), qdd(m.nv), tau(m.nv);
    for (int i = 0; i < m.nv; ++i) qd[i] = 0.3 * (i + 1), qdd[i] = -0.2 * i;
    DynamicsOptions o;
    inverseDynamics(m, data, q, qd, qdd, o, tau);
    LinearizeOptions lo;
    lo.output = "tool";
    Linearization lin;
    linearizeDynamics(m, data, q, qd, qdd, o, lo, lin);
    const int n = m.nv;
    auto f = [&](const VecX& x) {  // ẋ = (q̇, FD(q, q̇, τ)) over x = (q, q̇, τ)
      VecX a(n);
      forwardDynamics(m, fd, x.head(n), x.segment(n, n), x.tail(n), o, a);
      VecX out(2 * n);
      out << x.segment(n, n), a;
      return out;
    };
    VecX x(3 * n);
    x << q, qd, tau;
    const MatX J = jacobianFd(f, x, 1e-4);
    CHECK(test::relErr(lin.A, J.leftCols(2 * n)) < 1e-6);
    CHECK(test::relErr(lin.B, J.rightCols(n)) < 1e-6);
    MatX Jt(6, n);
    toolJacobian(m, data, Jt);
    CHECK((lin.C.leftCols(n) - Jt).cwiseAbs().maxCoeff() < 1e-14);
    CHECK(lin.C.rightCols(n).isZero(0));
    CHECK(lin.D.isZero(0));
  }
}

TEST_CASE("linearize: a pendulum's poles are ±i√(g/l) hanging and ±√(g/l) upright", "[dynamics][linearize]") {
  const double l = 0.7, g = 9.81;
  const Model m = pendulum(2.0, l);
  Data data(m);
  const VecX z = VecX::Zero(1);
  Linearization lin;
  // the link points along x at q = 0 (horizontal); hanging at q = −π/2 or +π/2 depending on the axis sense: find it
  for (double q0 : {-kPi / 2, kPi / 2}) {
    linearizeDynamics(m, data, VecX::Constant(1, q0), z, z, {}, {}, lin);
    const std::complex<double> p0 = lin.poles[0], p1 = lin.poles[1];
    const double w = std::sqrt(g / l);
    // one of the two is hanging (imaginary pair), the other upright (real pair)
    if (std::abs(p0.real()) < 1e-9) {
      CHECK(std::abs(std::abs(p0.imag()) - w) < 1e-9);
      CHECK(std::abs(p0.imag() + p1.imag()) < 1e-9);
    } else {
      CHECK(std::abs(std::abs(p0.real()) - w) < 1e-9);
      CHECK(std::abs(p0.real() + p1.real()) < 1e-9);
      CHECK(std::abs(p0.imag()) < 1e-12);
    }
  }
  // and they differ: one hanging, one upright
  linearizeDynamics(m, data, VecX::Constant(1, -kPi / 2), z, z, {}, {}, lin);
  const bool first_hangs = std::abs(lin.poles[0].real()) < 1e-9;
  linearizeDynamics(m, data, VecX::Constant(1, kPi / 2), z, z, {}, {}, lin);
  CHECK(first_hangs != (std::abs(lin.poles[0].real()) < 1e-9));
}

TEST_CASE("linearize: a DC motor in series gives the poles of K/(s[(Js + b)(Ls + R) + K²])", "[dynamics][linearize]") {
  // One horizontal joint (no gravity torque) with a motor: J = I_zz + J_m G², b = G² B_m, K = G K_t (= G K_e).
  const Model m = modelFromJsonString(R"({"schema_version": 1, "name": "motor-arm", "gravity": [0, 0, -9.81],
    "joints": [{"kind": "R", "a": 0.5, "alpha": 0, "link": {"mass": 1.5, "com": [-0.2, 0, 0], "inertia": [0.01, 0.02, 0.03, 0, 0, 0]},
                "motor": {"rotor_inertia": 2e-5, "gear_ratio": 50, "viscous": 1e-5}}]})");
  Data data(m);
  DcMotor mo;
  mo.torque_constant = mo.back_emf_constant = 0.05;
  mo.resistance = 1.2;
  mo.inductance = 2e-3;
  LinearizeOptions lo;
  lo.dc_motors = {mo};
  Linearization lin;
  const VecX z = VecX::Zero(1);
  linearizeDynamics(m, data, VecX::Constant(1, 0.4), z, z, {}, lo, lin);
  REQUIRE(lin.A.rows() == 3);
  const double G = 50, J = 0.03 + 1.5 * 0.3 * 0.3 + 2e-5 * G * G, b = G * G * 1e-5, K = G * 0.05;
  // (Js + b)(Ls + R) + K² = JL s² + (JR + bL) s + (bR + K²); poles 0 and its two roots
  const double a2 = J * mo.inductance, a1 = J * mo.resistance + b * mo.inductance, a0 = b * mo.resistance + K * K;
  const std::complex<double> disc = std::sqrt(std::complex<double>(a1 * a1 - 4 * a2 * a0));
  std::vector<std::complex<double>> expect = {0.0, (-a1 + disc) / (2 * a2), (-a1 - disc) / (2 * a2)};
  for (const auto& e : expect) {
    double best = 1e300;
    for (int k = 0; k < 3; ++k) best = std::min(best, std::abs(lin.poles[k] - e));
    CHECK(best < 1e-9 * std::max(1.0, std::abs(e)));
  }
  // the printed relations (2-248…2-252): F23 = I*⁻¹C_M, F32 = −L⁻¹C_E, F33 = −L⁻¹R, G31 = L⁻¹
  CHECK(lin.A(1, 2) == Approx(K / J).epsilon(1e-12));
  CHECK(lin.A(2, 1) == Approx(-K / mo.inductance).epsilon(1e-12));
  CHECK(lin.A(2, 2) == Approx(-mo.resistance / mo.inductance).epsilon(1e-12));
  CHECK(lin.B(2, 0) == Approx(1 / mo.inductance).epsilon(1e-12));
  CHECK(lin.A(1, 1) == Approx(-b / J).epsilon(1e-12));
}

TEST_CASE("jointdynamics: J = J_m + M_jj/G², B = B_m (+ T_c/q̇ linearised), as the Robotics Toolbox", "[dynamics][linearize]") {
  const Model m = builtinModel("puma560");
  Data data(m);
  VecX q(6), qd = VecX::Zero(6);
  q << 0, kPi / 4, kPi, 0, kPi / 4, 0;
  DynamicsOptions o;
  const auto tf = jointTransferFunctions(m, data, q, qd, o);
  MatX M(6, 6), Mm(6, 6);
  massMatrix(m, data, q, o, M);
  o.motors = true;
  massMatrix(m, data, q, o, Mm);
  for (int j = 0; j < 6; ++j) {
    const Motor& mo = m.joints[j].motor;
    const double G = mo.gear_ratio;
    CHECK(tf[j].J == Approx(mo.rotor_inertia + M(j, j) / (G * G)).epsilon(1e-12));
    CHECK(tf[j].B == Approx(mo.viscous).epsilon(1e-12));
    REQUIRE(tf[j].denominator.size() == 3);
    CHECK(tf[j].denominator[0] == tf[j].J);
    CHECK(tf[j].denominator[2] == 0);
    // the toolbox's rne includes J_m G² in M_jj, so its J counts the rotor twice: J_m + Mm_jj/G² − tf.J = J_m
    CHECK(mo.rotor_inertia + Mm(j, j) / (G * G) - tf[j].J == Approx(mo.rotor_inertia).epsilon(1e-9));
  }
  // Coulomb friction linearised about a moving joint: B + T_c/(G q̇)
  qd[1] = 0.5;
  const auto moving = jointTransferFunctions(m, data, q, qd, o);
  const Motor& m2 = m.joints[1].motor;
  CHECK(moving[1].B == Approx(m2.viscous + (m2.gear_ratio * 0.5 > 0 ? m2.coulomb_pos : m2.coulomb_neg) / std::abs(m2.gear_ratio * 0.5))
                           .epsilon(1e-12));
}

TEST_CASE("linearize: the refusals name what is wrong", "[dynamics][linearize]") {
  const Model m = builtinModel("puma560");
  Data data(m);
  const VecX z = VecX::Zero(6);
  Linearization lin;
  DynamicsOptions w;
  w.use_wrench = true;
  CHECK_THROWS_WITH(linearizeDynamics(m, data, z, z, z, w, {}, lin), Catch::Contains("tool wrench"));
  LinearizeOptions bad;
  bad.dc_motors = {DcMotor{0.05, 0.05, 0, 1e-3}};
  CHECK_THROWS_WITH(linearizeDynamics(m, data, z, z, z, {}, bad, lin), Catch::Contains("resistance must be > 0"));
  bad.dc_motors = {DcMotor{}, DcMotor{}};
  CHECK_THROWS_WITH(linearizeDynamics(m, data, z, z, z, {}, bad, lin), Catch::Contains("one motor for every coordinate"));
  LinearizeOptions out;
  out.output = "hand";
  CHECK_THROWS_WITH(linearizeDynamics(m, data, z, z, z, {}, out, lin), Catch::Contains("\"joints\" or \"tool\""));
  VecX nan = z;
  nan[2] = std::nan("");
  CHECK_THROWS_WITH(linearizeDynamics(m, data, z, nan, z, {}, {}, lin), Catch::Contains("qd[2]"));
  // a link without mass and a joint without rotor: I* singular (PUMA link 1 has only I_yy; here nothing at all)
  const Model bare = modelFromJsonString(R"({"schema_version": 1, "name": "bare", "joints": [{"kind": "R", "a": 1, "alpha": 0}]})");
  Data bd(bare);
  const VecX z1 = VecX::Zero(1);
  CHECK_THROWS_WITH(linearizeDynamics(bare, bd, z1, z1, z1, {}, {}, lin), Catch::Contains("inertia matrix is singular"));
  // and names the coordinate that moves no mass
  CHECK_THROWS_WITH(linearizeDynamics(bare, bd, z1, z1, z1, {}, {}, lin), Catch::Contains("q1 (joint") && Catch::Contains("moves no mass"));
  // tool coordinates: rows that are not coordinates
  LinearizeOptions lo;
  lo.coordinates = "hand";
  CHECK_THROWS_WITH(linearizeDynamics(m, data, z, z, z, {}, lo, lin), Catch::Contains("coordinates must be \"joints\" or \"tool\""));
  lo.coordinates = "tool";
  lo.tool_rows = {0, 1, 2};
  CHECK_THROWS_WITH(linearizeDynamics(m, data, z, z, z, {}, lo, lin), Catch::Contains("one tool row per joint coordinate (6), got 3"));
  lo.tool_rows = {0, 1, 2, 3, 4, 4};
  CHECK_THROWS_WITH(linearizeDynamics(m, data, z, z, z, {}, lo, lin), Catch::Contains("wy is listed twice"));
  lo.tool_rows = {0, 1, 2, 3, 4, 7};
  CHECK_THROWS_WITH(linearizeDynamics(m, data, z, z, z, {}, lo, lin), Catch::Contains("tool_rows[5] = 7"));
  // the PUMA at q = 0 is at its wrist singularity (joints 4 and 6 aligned)
  lo.tool_rows.clear();
  CHECK_THROWS_WITH(linearizeDynamics(m, data, z, z, z, {}, lo, lin), Catch::Contains("rank 5 of 6"));
  const Model p2 = builtinModel("planar-2r");
  Data d2(p2);
  const VecX z2 = VecX::Zero(2);
  LinearizeOptions all;
  all.coordinates = "tool";
  CHECK_THROWS_WITH(linearizeDynamics(p2, d2, z2, z2, z2, {}, all, lin), Catch::Contains("choose 2 of x, y, z"));
  LinearizeOptions joints;
  joints.tool_rows = {0, 1};
  CHECK_THROWS_WITH(linearizeDynamics(p2, d2, z2, z2, z2, {}, joints, lin), Catch::Contains("coordinates are \"joints\""));
}

namespace linearize_test {

/// A one-joint arm turning about a vertical axis (no gravity torque) with a motor: J = I_zz + m d² + J_m G²,
/// b = G² B_m with motors and friction on.
Model motorArm() {
  return modelFromJsonString(R"({"schema_version": 1, "name": "motor-arm", "gravity": [0, 0, -9.81],
    "joints": [{"kind": "R", "a": 0.5, "alpha": 0, "link": {"mass": 1.5, "com": [-0.2, 0, 0], "inertia": [0.01, 0.02, 0.03, 0, 0, 0]},
                "motor": {"rotor_inertia": 2e-5, "gear_ratio": 50, "viscous": 1e-5}}]})");
}

/// The largest step of an unwrapped phase between neighbouring points (degrees).
double largestPhaseStep(const VecX& phase) {
  double w = 0;
  for (int k = 1; k < phase.size(); ++k) w = std::max(w, std::abs(phase[k] - phase[k - 1]));
  return w;
}

}  // namespace linearize_test

TEST_CASE("frequencyResponse: one joint with a motor is 1/(J(jω)² + B jω) (magnitude, dB, unwrapped phase)",
          "[dynamics][linearize]") {
  const Model m = motorArm();
  Data data(m);
  DynamicsOptions o;
  o.motors = o.friction = true;
  const VecX z = VecX::Zero(1);
  Linearization lin;
  linearizeDynamics(m, data, VecX::Constant(1, 0.4), z, z, o, {}, lin);
  const double G = 50, J = 0.03 + 1.5 * 0.3 * 0.3 + 2e-5 * G * G, B = G * G * 1e-5;
  const VecX omega = frequencyGrid(lin.poles, 400);
  // poles 0 and −B/J: the grid runs from 0.1·B/J to 10·B/J
  REQUIRE(poleFrequencies(lin.poles).size() == 1);
  CHECK(poleFrequencies(lin.poles)[0] == Approx(B / J).epsilon(1e-12));
  CHECK(omega[0] == Approx(0.1 * B / J).epsilon(1e-12));
  CHECK(omega[399] == Approx(10 * B / J).epsilon(1e-12));
  FrequencyResponse fr;
  frequencyResponse(lin, omega, 0, 0, fr);
  double worst = 0, worst_phase = 0;
  for (int k = 0; k < omega.size(); ++k) {
    const std::complex<double> s(0, omega[k]), g = 1.0 / (J * s * s + B * s);
    worst = std::max(worst, std::abs(fr.response[k] - g) / std::abs(g));
    CHECK(fr.magnitude[k] == Approx(std::abs(g)).epsilon(1e-12));
    CHECK(fr.magnitude_db[k] == Approx(20 * std::log10(std::abs(g))).epsilon(1e-12));
    // arg 1/(jω(B + jJω)) = −90° − atan(Jω/B), in (−180°, −90°): no unwrapping needed
    const double phase = -90 - std::atan2(J * omega[k], B) / kDeg;
    worst_phase = std::max(worst_phase, std::abs(fr.phase_deg[k] - phase));
  }
  std::printf("frequencyResponse vs 1/(J s^2 + B s) at %d frequencies: %.2e relative, phase %.2e deg\n", static_cast<int>(omega.size()),
              worst, worst_phase);
  CHECK(worst < 1e-12);
  CHECK(worst_phase < 1e-10);
  CHECK(fr.phase_deg[0] > -96);  // near the −90° of the integrator at 0.1 B/J
  CHECK(fr.phase_deg[399] < -174);  // near −180° at 10 B/J
}

TEST_CASE("frequencyResponse: PUMA 560 equals a dense complex solve, (jωI − A)X = B by residual, (K − ω²M)⁻¹ at rest",
          "[dynamics][linearize]") {
  const Model m = builtinModel("puma560");
  Data data(m);
  VecX q(6), qd(6), qdd(6);
  q << 0.1, 0.7, -1.2, 0.3, 0.5, -0.4;
  qd << 0.2, -0.3, 0.4, 0.1, -0.2, 0.3;
  qdd << 0.5, 0.1, -0.2, 0.3, 0.2, -0.1;
  DynamicsOptions o;
  o.motors = o.friction = true;
  Linearization lin;
  linearizeDynamics(m, data, q, qd, qdd, o, {}, lin);
  const VecX omega = frequencyGrid(lin.poles, 300);
  const int S = 12;
  double worst_dense = 0, worst_residual = 0, worst_phase_step = 0;
  for (int in = 0; in < 6; ++in) {
    FrequencyResponse fr;
    frequencyResponse(lin, omega, in, in, fr);
    worst_phase_step = std::max(worst_phase_step, largestPhaseStep(fr.phase_deg));
    for (int k = 0; k < omega.size(); k += 7) {
      const Eigen::MatrixXcd Ms = std::complex<double>(0, omega[k]) * Eigen::MatrixXcd::Identity(S, S) - lin.A.cast<std::complex<double>>();
      const Eigen::MatrixXcd X = Ms.fullPivLu().solve(lin.B.cast<std::complex<double>>());
      const Eigen::MatrixXcd Gm = lin.C.cast<std::complex<double>>() * X + lin.D.cast<std::complex<double>>();
      worst_dense = std::max(worst_dense, std::abs(fr.response[k] - Gm(in, in)) / std::abs(Gm(in, in)));
      worst_residual = std::max(worst_residual, (Ms * X - lin.B.cast<std::complex<double>>()).norm() / lin.B.norm());
      // the pair (in, in) of the dense matrix and every other output of the same input
      const int other = (in + 1) % 6;
      FrequencyResponse cross;
      frequencyResponse(lin, omega.segment(k, 1), in, other, cross);
      CHECK(std::abs(cross.response[0] - Gm(other, in)) <= 1e-10 * std::max(std::abs(Gm(other, in)), Gm.col(in).norm()));
    }
  }
  std::printf("frequencyResponse PUMA 560 (moving, motors, friction): vs dense solve %.2e, residual %.2e, largest phase step %.1f deg\n",
              worst_dense, worst_residual, worst_phase_step);
  CHECK(worst_dense < 1e-10);
  CHECK(worst_residual < 1e-12);
  CHECK(worst_phase_step < 180);  // no 360° jumps

  // at rest without friction: A = [0 I; −M⁻¹K 0], B = [0; M⁻¹] → G(jω) = (K − ω²M)⁻¹ with K = ∂T/∂q
  const VecX z = VecX::Zero(6);
  Linearization rest;
  linearizeDynamics(m, data, q, z, z, {}, {}, rest);
  const VecX w = frequencyGrid(rest.poles, 50);
  double worst_km = 0;
  for (int in = 0; in < 6; ++in) {
    FrequencyResponse fr;
    frequencyResponse(rest, w, in, in, fr);
    for (int k = 0; k < w.size(); ++k) {
      const MatX Gk = (rest.dT_dq - w[k] * w[k] * rest.Istar).inverse();
      worst_km = std::max(worst_km, std::abs(fr.response[k] - Gk(in, in)) / std::abs(Gk(in, in)));
    }
  }
  CHECK(worst_km < 1e-9);
  // without gravity K = 0: G = −M⁻¹/ω², the double integrator: |G_ii| ω² = (M⁻¹)_ii at every ω, phase −180°
  DynamicsOptions zero_g;
  zero_g.override_gravity = true;
  zero_g.gravity = Vec3::Zero();
  Linearization nograv;
  linearizeDynamics(m, data, q, z, z, zero_g, {}, nograv);
  CHECK(poleFrequencies(nograv.poles).empty());
  const VecX wf = frequencyGrid(nograv.poles, 20);
  CHECK(wf[0] == Approx(0.1).epsilon(1e-14));
  CHECK(wf[19] == Approx(100).epsilon(1e-14));
  const MatX Mi = nograv.Istar.inverse();
  for (int in = 0; in < 6; ++in) {
    FrequencyResponse fr;
    frequencyResponse(nograv, wf, in, in, fr);
    for (int k = 0; k < wf.size(); ++k) {
      CHECK(fr.magnitude[k] * wf[k] * wf[k] == Approx(Mi(in, in)).epsilon(1e-9));
      CHECK(std::abs(std::abs(fr.phase_deg[k]) - 180) < 1e-6);
    }
    CHECK(largestPhaseStep(fr.phase_deg) < 1e-6);
  }
}

TEST_CASE("frequencyResponse and frequencyGrid: the refusals name what is wrong", "[dynamics][linearize]") {
  const Model m = builtinModel("puma560");
  Data data(m);
  const VecX z = VecX::Zero(6);
  Linearization lin;
  linearizeDynamics(m, data, z, z, z, {}, {}, lin);
  FrequencyResponse fr;
  VecX w(3);
  w << 1, 2, 3;
  CHECK_THROWS_WITH(frequencyResponse(lin, w, 6, 0, fr), Catch::Contains("input 6 is out of range (6 inputs"));
  CHECK_THROWS_WITH(frequencyResponse(lin, w, 0, -1, fr), Catch::Contains("output -1 is out of range (6 outputs"));
  w[1] = 0;
  CHECK_THROWS_WITH(frequencyResponse(lin, w, 0, 0, fr), Catch::Contains("omega[1]") && Catch::Contains("> 0"));
  w[1] = std::nan("");
  CHECK_THROWS_WITH(frequencyResponse(lin, w, 0, 0, fr), Catch::Contains("omega[1]") && Catch::Contains("finite"));
  CHECK_THROWS_WITH(frequencyResponse(lin, VecX(), 0, 0, fr), Catch::Contains("no frequencies"));
  CHECK_THROWS_WITH(frequencyGrid(lin.poles, 1), Catch::Contains("points must be from 2 to 1000000"));
  CHECK_THROWS_WITH(frequencyGrid(lin.poles, 1000001), Catch::Contains("points must be from 2 to 1000000"));
  CHECK_THROWS_WITH(frequencyGrid(lin.poles, 10, 5, 1), Catch::Contains("0 < lo < hi"));
  CHECK_THROWS_WITH(frequencyGrid(lin.poles, 10, -1, 1), Catch::Contains("0 < lo < hi"));
  const VecX g = frequencyGrid(lin.poles, 5, 1, 1e4);
  CHECK(g[2] == Approx(100).epsilon(1e-14));
}

namespace linearize_test {

/// The tool displacement of a perturbed motion from the nominal one in the rows `rows` of (v, ω): the point's
/// position difference, and the world rotation vector log(R_p R_nᵀ) for ω rows.
VecX toolDisplacement(const Model& m, Data& dp, Data& dn, const VecX& qp, const VecX& qn, const std::vector<int>& rows) {
  forwardKinematics(m, dp, qp);
  forwardKinematics(m, dn, qn);
  Vec6 d;
  d << dp.oMtool.p - dn.oMtool.p, rotationLog(dp.oMtool.R * dn.oMtool.R.transpose());
  VecX out(rows.size());
  for (size_t k = 0; k < rows.size(); ++k) out[k] = d[rows[k]];
  return out;
}

}  // namespace linearize_test

// Freeman 3-47…3-53: the state model transferred to hand coordinates. Checked without the code's J̇, J̈ or T: the
// nominal and perturbed motions are integrated (RK4 of the forward dynamics, with the DC motors' electrical state
// when present, inputs held), the tool's actual displacement δy(t) between them (position difference, rotation
// vector of R_p R_nᵀ) is differentiated in time (5-point stencils), and (δẏ, δÿ) at t = 0 must equal Â (δy, δẏ)
// (+ the currents' rows), central in the perturbation size so the second-order terms cancel.
TEST_CASE("linearize: the state model in tool coordinates predicts the tool's displacement between simulated motions (Freeman 3-47…3-53)",
          "[dynamics][linearize]") {
  struct Case {
    const char* robot;
    std::vector<int> rows;
    bool dc;
  };
  const std::vector<Case> cases = {{"planar-2r", {0, 1}, false},
                                   {"puma560", {}, false},
                                   {"puma560", {}, true},
                                   {"prototype-4a", {0, 1, 2, 5}, false}};
  double worst = 0, worst_eq = 0;
  for (const Case& c : cases) {
    const Model m = builtinModel(c.robot);
    INFO(c.robot << (c.dc ? " with DC motors" : ""));
    const int n = m.nv;
    Data data(m), dp(m), dn(m);
    std::mt19937 rng(3470 + n);
    const VecX q = test::randomConfiguration(m, rng);
    VecX qd(n), qdd(n);
    for (int i = 0; i < n; ++i) qd[i] = 0.4 * std::cos(1.3 * i + 0.2), qdd[i] = 0.3 * std::sin(0.9 * i + 0.5);
    DynamicsOptions o;
    LinearizeOptions lo;
    lo.coordinates = "tool";
    lo.tool_rows = c.rows;
    // an inductance that makes the currents settle in L/R = 91 ms, slow enough for the time stencils below at 1 ms
    // (a real motor's 2 ms asks for steps where the positions' rounding dominates the differences)
    DcMotor mo{0.08, 0.08, 1.1, 0.1};
    if (c.dc) lo.dc_motors = {mo};
    Linearization lin, joint;
    linearizeDynamics(m, data, q, qd, qdd, o, lo, lin);
    LinearizeOptions lj = lo;
    lj.coordinates = "joints", lj.tool_rows.clear();
    linearizeDynamics(m, data, q, qd, qdd, o, lj, joint);
    const std::vector<int> rows = c.rows.empty() ? std::vector<int>{0, 1, 2, 3, 4, 5} : c.rows;
    const int S = static_cast<int>(lin.A.rows());
    REQUIRE(S == (c.dc ? 3 : 2) * n);

    // the nominal inputs that hold (q, q̇, q̈): torques, or armature voltages and the currents they drive
    DynamicsOptions od = o;
    VecX gear = VecX::Ones(n), visc = VecX::Zero(n);
    if (c.dc) {
      od.motors = true, od.friction = false;
      for (int j = 0; j < m.njoints(); ++j)
        if (m.joints[j].motor.present && m.jmodels[j].independent) {
          gear[m.idx_q[j]] = m.joints[j].motor.gear_ratio;
          visc[m.idx_q[j]] = m.joints[j].motor.gear_ratio * m.joints[j].motor.gear_ratio * m.joints[j].motor.viscous;
        }
    }
    VecX tau(n);
    inverseDynamics(m, data, q, qd, qdd, od, tau);
    VecX x0(S), u(n);
    x0.head(n) = q, x0.segment(n, n) = qd;
    if (c.dc) {
      const VecX i0 = (tau.array() + visc.array() * qd.array()) / (gear.array() * mo.torque_constant);
      x0.tail(n) = i0;
      // v = L di/dt + R i + C_E q̇, with di/dt held at 0 at t = 0 (the state's own derivative is what is checked)
      u = mo.resistance * i0.array() + gear.array() * mo.back_emf_constant * qd.array();
    } else {
      u = tau;
    }
    Data fd(m);
    auto f = [&](const VecX& x) {
      VecX dx(S), a(n);
      VecX t = c.dc ? VecX(gear.array() * mo.torque_constant * x.tail(n).array() - visc.array() * x.segment(n, n).array()) : u;
      forwardDynamics(m, fd, x.head(n), x.segment(n, n), t, od, a);
      dx.head(n) = x.segment(n, n), dx.segment(n, n) = a;
      if (c.dc)
        dx.tail(n) = (u.array() - mo.resistance * x.tail(n).array() - gear.array() * mo.back_emf_constant * x.segment(n, n).array()) /
                     mo.inductance;
      return dx;
    };
    auto integrate = [&](VecX x, double t) {  // RK4 from 0 to t (either sign) in 16 steps
      const double h = t / 16;
      for (int k = 0; k < 16; ++k) {
        const VecX k1 = f(x), k2 = f(x + 0.5 * h * k1), k3 = f(x + 0.5 * h * k2), k4 = f(x + h * k3);
        x += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
      }
      return x;
    };
    // the hand state x̂ = (δy, δẏ[, δi]) of a perturbation δx (joint state), and its derivative, from simulation with
    // time step ht in the stencils
    std::vector<VecX> nominal;
    double nominal_ht = 0;
    auto handState = [&](const VecX& dx, double ht, VecX& xh, VecX& xhd) {
      if (ht != nominal_ht) {
        nominal.clear();
        for (int s = -2; s <= 2; ++s) nominal.push_back(s == 0 ? x0 : integrate(x0, s * ht));
        nominal_ht = ht;
      }
      std::vector<VecX> dy, perturbed;
      for (int s = -2; s <= 2; ++s) {
        const VecX xp = s == 0 ? VecX(x0 + dx) : integrate(x0 + dx, s * ht);
        perturbed.push_back(xp);
        dy.push_back(toolDisplacement(m, dp, dn, xp.head(n), nominal[s + 2].head(n), rows));
      }
      const VecX d1 = (-dy[4] + 8 * dy[3] - 8 * dy[1] + dy[0]) / (12 * ht);
      const VecX d2 = (-dy[4] + 16 * dy[3] - 30 * dy[2] + 16 * dy[1] - dy[0]) / (12 * ht * ht);
      xh.resize(S), xhd.resize(S);
      xh.head(n) = dy[2], xh.segment(n, n) = d1;
      xhd.head(n) = d1, xhd.segment(n, n) = d2;
      if (c.dc) {
        const VecX i = perturbed[2].tail(n) - nominal[2].tail(n);
        const VecX id = (-(perturbed[4] - nominal[4]).tail(n) + 8 * (perturbed[3] - nominal[3]).tail(n) -
                         8 * (perturbed[1] - nominal[1]).tail(n) + (perturbed[0] - nominal[0]).tail(n)) / (12 * ht);
        xh.tail(n) = i, xhd.tail(n) = id;
      }
    };
    // a perturbation of every state component, central in its size
    for (int k = 0; k < S; ++k) {
      VecX dx = VecX::Zero(S);
      dx[k] = k < n ? 1e-4 : k < 2 * n ? 1e-3 : 1e-2;
      const double ht = 2e-3;
      VecX xh_p, xhd_p, xh_m, xhd_m;
      handState(dx, ht, xh_p, xhd_p);
      handState(-dx, ht, xh_m, xhd_m);
      const VecX xh = (xh_p - xh_m) / 2, xhd = (xhd_p - xhd_m) / 2;
      const VecX predicted = lin.A * xh;
      const double err = (predicted - xhd).norm() / std::max(xhd.norm(), 1e-300);
      worst = std::max(worst, err);
      CHECK(err < 2e-5);
      // and the state transform itself: x̂ = T δx
      CHECK((lin.T * dx - xh).norm() <= 2e-5 * xh.norm());
    }
    // the inputs: B̂ = T B (the actuators stay at the joints)
    CHECK((lin.B - lin.T * joint.B).norm() <= 1e-12 * joint.B.norm());
    // Freeman's block form (digest §3.7) written out: F̂₂₂ = (J F₂₂ + 2J̇) J⁻¹, F̂₁₂ = I, F̂₁₁ = F̂₁₃ = 0
    const MatX J = lin.T.block(0, 0, n, n), Jd = lin.T.block(n, 0, n, n), Ji = J.inverse();
    CHECK((lin.A.block(0, 0, n, n)).norm() < 1e-9 * lin.A.norm());
    CHECK((lin.A.block(0, n, n, n) - MatX::Identity(n, n)).norm() < 1e-9);
    CHECK((lin.A.block(n, n, n, n) - (J * joint.A.block(n, n, n, n) + 2 * Jd) * Ji).norm() < 1e-9 * lin.A.block(n, n, n, n).norm());
    if (c.dc) {
      CHECK((lin.A.block(n, 2 * n, n, n) - J * joint.A.block(n, 2 * n, n, n)).norm() < 1e-9 * lin.A.norm());
      CHECK((lin.A.block(2 * n, 0, n, n) + joint.A.block(2 * n, n, n, n) * Ji * Jd * Ji).norm() < 1e-9 * lin.A.norm());
      CHECK((lin.A.block(2 * n, n, n, n) - joint.A.block(2 * n, n, n, n) * Ji).norm() < 1e-9 * lin.A.norm());
    }
    // at rest the transform is constant: the same poles as in joint coordinates
    Linearization rest, rest_joint;
    const VecX z = VecX::Zero(n);
    linearizeDynamics(m, data, q, z, z, o, lo, rest);
    linearizeDynamics(m, data, q, z, z, o, lj, rest_joint);
    for (int k = 0; k < S; ++k) {
      double best = 1e300;
      for (int i = 0; i < S; ++i) best = std::min(best, std::abs(rest.poles[k] - rest_joint.poles[i]));
      const double e = best / std::max(1.0, std::abs(rest.poles[k]));
      worst_eq = std::max(worst_eq, e);
      CHECK(e < 1e-6);
    }
  }
  std::printf("linearize in tool coordinates: Â against simulated tool displacements, worst %.2g relative; poles at rest "
              "equal to %.2g\n", worst, worst_eq);
}
