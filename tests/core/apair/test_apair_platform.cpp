// The exact A-pair (Griffis–Duffy platform, apair/apair_platform.hpp): closure against Robinson's
// self-motion (Eq. 2.28) over 60°–300°, the implicit derivatives against finite differences, and the
// exact closed-chain dynamics against the Lagrangian identities and the serial RNEA.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "helpers.hpp"
#include <achain/apair/apair_platform.hpp>
#include <achain/dynamics/crba.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/io/robot.hpp>
#include <achain/trajectory/apair_study.hpp>

using namespace achain;

namespace {

const double kRho = 4 * std::sqrt(2.0) * test::kInch;  // the prototype's A-pair

/// Rotation vector of R (small angles suffice here).
Vec3 rotvec(const Mat3& R) {
  const Eigen::AngleAxisd aa(R);
  return aa.angle() * aa.axis();
}

double relMaxErr(const VecX& a, const VecX& b) { return (a - b).cwiseAbs().maxCoeff() / std::max(1e-300, b.cwiseAbs().maxCoeff()); }

}  // namespace

TEST_CASE("exact A-pair: closure reproduces d = ρ sin(θ_v/2), no drift, Robinson's leg directions over 60°–300°",
          "[dynamics][apair-exact]") {
  for (double rho : {kRho, 1.0, 0.816}) {
    // Continuation from the default start (plates parallel at 0.7 l) in 0.5° steps, both directions.
    for (int dir : {1, -1}) {
      const ApairClosureCheck c = dir > 0 ? checkApairClosure(rho, 60 * kDeg, 300 * kDeg, 481)
                                          : checkApairClosure(rho, 300 * kDeg, 60 * kDeg, 481);
      CHECK(c.max_d_error < 1e-9 * rho);
      CHECK(c.max_drift < 1e-9 * rho);
      CHECK(c.max_tilt < 1e-9);
      CHECK(c.max_direction_error < 1e-9);
      CHECK(c.max_residual < 1e-12 * rho);
      CHECK(c.max_derivative_error < 1e-9);
      CHECK(c.max_iterations <= 8);
      CHECK(c.max_sigma6 < 1e-12);  // architecture singular: rank ≤ 5 everywhere on the self-motion
      CHECK(c.min_sigma5 > 1e-3);   // … and exactly 5, so the 6×5 Gauss–Newton system is regular
    }
  }
  // Started away from the branch (drift, tilt, wrong height) at isolated θ: it still lands on Eq. 2.28.
  ApairPlatform P(kRho);
  const double a = P.side(), l = P.legLength();
  CHECK(l == Approx(6 * test::kInch).epsilon(1e-12));         // l = a√3/2 = 6 in
  CHECK(a == Approx(kRho * 3 / std::sqrt(6.0)).epsilon(1e-14));  // ρ = a√6/3
  for (double deg : {60.0, 75.0, 120.0, 180.0, 240.0, 299.0, 300.0}) {
    Eigen::Matrix<double, 5, 1> x0;
    x0 << 0.05 * a, -0.03 * a, 0.5 * l, 0.05, -0.04;
    P.setStart(x0);
    const ApairPlatformState& s = P.solve(deg * kDeg);
    CHECK(std::abs(s.p.z() - kRho * std::sin(deg * kDeg / 2)) < 1e-12);
    CHECK(s.p.head<2>().norm() < 1e-12);
    CHECK(s.x.tail<2>().norm() < 1e-12);
    // Leg directions against Robinson's model as achain's serial kinematics draws them (apairLegEndpoints).
    Model M;
    Joint j;
    j.kind = JointKind::A;
    j.rho = kRho;
    M.joints.push_back(j);
    M.finalize();
    Data d(M);
    const VecX q = VecX::Constant(1, deg * kDeg);
    forwardKinematics(M, d, q);
    std::array<Vec3, 6> B, Pw;
    apairLegEndpoints(M, d, 0, q[0], B, Pw);
    for (int k = 0; k < 6; ++k) {
      CHECK((B[k] - P.anchors().base[k]).norm() < 1e-15);
      CHECK(((s.P[k] - B[k]).normalized() - (Pw[k] - B[k]).normalized()).norm() < 1e-12);
      CHECK((s.P[k] - B[k]).norm() == Approx(l).epsilon(1e-13));
    }
  }
}

TEST_CASE("exact A-pair: implicit derivatives = finite differences of the closure, bad inputs", "[dynamics][apair-exact]") {
  ApairPlatform P(kRho), Q(kRho);
  const double h = 1e-5;
  for (double deg : {62.0, 100.0, 150.0, 180.0, 215.0, 280.0}) {
    const double th = deg * kDeg;
    Q.solve(th - 2 * h);
    const ApairPlatformState a = Q.solve(th - h);
    const ApairPlatformState b = Q.solve(th + h);
    const ApairPlatformState s = P.solve(th);
    CHECK(s.derivative_residual < 1e-14);
    CHECK((s.dp - (b.p - a.p) / (2 * h)).norm() < 1e-9);
    CHECK((s.ddp - (b.p - 2 * s.p + a.p) / (h * h)).norm() < 1e-5);
    CHECK((s.w - rotvec(b.R * a.R.transpose()) / (2 * h)).norm() < 1e-9);
    CHECK((s.x1 - (b.x - a.x) / (2 * h)).norm() < 1e-9);
    CHECK((s.dw - (b.w - a.w) / (2 * h)).norm() < 1e-9);
  }
  CHECK_THROWS_WITH(P.solve(std::nan("")), Catch::Contains("θ_v must be finite"));
  CHECK_THROWS_WITH(ApairPlatform(0.0), Catch::Contains("R-pair"));
  CHECK_THROWS_WITH(ApairPlatform(-1.0), Catch::Contains("≥ 0"));
  Eigen::Matrix<double, 5, 1> wild;
  wild << 1e200, 1e200, 1e200, 0, 0;
  P.setStart(wild);
  CHECK_THROWS_WITH(P.solve(kPi), Catch::Contains("cannot close at θ_v = 180°"));
  CHECK(P.solve(kPi).residual < 1e-12);  // the failed solve left no stale start
  // The chain model names joints that have no platform.
  Model M = builtinModel("prototype-4a");
  M.joints[2].rho = 0;  // an R-pair
  M.joints[3].kind = JointKind::R;
  M.joints[3].rho = 0;
  M.joints[3].leg_mass = 0;
  M.finalize();
  ExactApairChain E(M);
  E.update(VecX::Constant(4, kPi));
  CHECK_THROWS_WITH(E.platform(2), Catch::Contains("R-pair: no platform, no legs"));
  CHECK_THROWS_WITH(E.platform(3), Catch::Contains("not an A-pair"));
  CHECK_THROWS_WITH(E.platform(7), Catch::Contains("no such joint"));
  CHECK(E.legCount() == 12);
  CHECK_THROWS_WITH(E.update(VecX::Constant(4, std::nan(""))), Catch::Contains("finite"));
}

TEST_CASE("exact single A-pair dynamics: I* > 0, P* = ½ dI*/dθ, T^L = −dV/dθ, KE = ½ I* θ̇², legs = the serial full rod",
          "[dynamics][apair-exact]") {
  ApairStudyParameters par;
  for (Mounting mnt : {Mounting::Vertical, Mounting::Horizontal}) {
    const Model M = apairStudyModel(par, mnt);
    ExactApairChain E(M);
    Data d(M);
    FreemanModel f, fp, fm, f0;
    const double h = 1e-6, ml = par.leg_mass, rho = par.rho;
    for (double deg = 60; deg <= 300; deg += 20) {
      const double th = deg * kDeg;
      const VecX q = VecX::Constant(1, th);
      E.update(VecX::Constant(1, th + h));
      E.freeman(true, fp);
      const double Vp = E.potentialEnergy(true);
      E.update(VecX::Constant(1, th - h));
      E.freeman(true, fm);
      const double Vm = E.potentialEnergy(true);
      E.update(q);
      E.freeman(true, f);
      E.freeman(false, f0);
      CHECK(f.Istar(0, 0) > 0);
      CHECK(f.Pstar(0, 0, 0) == Approx(0.5 * (fp.Istar(0, 0) - fm.Istar(0, 0)) / (2 * h)).margin(1e-9 * f.Istar(0, 0)));
      CHECK(f.TL[0] == Approx(-(Vp - Vm) / (2 * h)).margin(1e-8 + 1e-7 * std::abs(f.TL[0])));  // FD noise ~ ε·V/h
      const VecX qd = VecX::Constant(1, 1.7);
      CHECK(E.kineticEnergy(qd, true) == Approx(0.5 * f.Istar(0, 0) * 1.7 * 1.7).epsilon(1e-13));
      // B_legs of the exact rods = (m_leg ρ²/8)(7 + 2 cos θ): the serial full model's, (3/8) m_leg ρ² above
      // the thesis's corrected (m_leg ρ²/4)(2 + cos θ).
      const double Blegs = f.Istar(0, 0) - f0.Istar(0, 0);
      CHECK(Blegs == Approx(ml * rho * rho / 8 * (7 + 2 * std::cos(th))).epsilon(1e-12));
      CHECK(Blegs - ml * rho * rho / 4 * (2 + std::cos(th)) == Approx(0.375 * ml * rho * rho).epsilon(1e-10));
      // Against the serial RNEA: exact with legs = full; exact without legs = massless.
      MatX B(1, 1);
      DynamicsOptions o;
      o.legs = LegModel::Full;
      massMatrix(M, d, q, o, B);
      CHECK(f.Istar(0, 0) == Approx(B(0, 0)).epsilon(1e-12));
      VecX te(1), ts(1);
      const VecX qdd = VecX::Constant(1, -2.3);
      E.inverseDynamics(q, qd, qdd, true, te);
      inverseDynamics(M, d, q, qd, qdd, o, ts);
      CHECK(te[0] == Approx(ts[0]).epsilon(1e-11));
      o.legs = LegModel::Massless;
      E.inverseDynamics(q, qd, qdd, false, te);
      inverseDynamics(M, d, q, qd, qdd, o, ts);
      CHECK(te[0] == Approx(ts[0]).epsilon(1e-11));
    }
  }
}

TEST_CASE("exact prototype-4a (24 legs): FK, massless = serial RNEA, energy identity, Christoffel P*, legs = full",
          "[dynamics][apair-exact]") {
  const Model M = builtinModel("prototype-4a");
  ExactApairChain E(M);
  CHECK(E.legCount() == 24);
  Data d(M);
  std::mt19937 rng(12);
  std::uniform_real_distribution<double> th(65 * kDeg, 295 * kDeg), u(-2, 2);
  FreemanModel f, fp, fm;
  for (int trial = 0; trial < 20; ++trial) {
    VecX q(4), qd(4), qdd(4), te(4), ts(4);
    for (int i = 0; i < 4; ++i) {
      q[i] = th(rng);
      qd[i] = u(rng);
      qdd[i] = u(rng);
    }
    forwardKinematics(M, d, q);
    E.update(q);
    for (int i = 0; i < 4; ++i) {
      CHECK((E.link(i).p - d.oMi[i].p).norm() < 1e-12);
      CHECK((E.link(i).R - d.oMi[i].R).norm() < 1e-12);
      std::array<Vec3, 6> B, P, Bs, Ps;
      E.legEndpoints(i, B, P);
      apairLegEndpoints(M, d, i, q[i], Bs, Ps);
      for (int k = 0; k < 6; ++k) CHECK((B[k] - Bs[k]).norm() + (P[k] - Ps[k]).norm() < 1e-12);
    }
    DynamicsOptions o;
    o.legs = LegModel::Massless;
    E.inverseDynamics(q, qd, qdd, false, te);
    inverseDynamics(M, d, q, qd, qdd, o, ts);
    CHECK(relMaxErr(te, ts) < 1e-9);
    o.legs = LegModel::Full;
    E.inverseDynamics(q, qd, qdd, true, te);
    inverseDynamics(M, d, q, qd, qdd, o, ts);
    CHECK(relMaxErr(te, ts) < 1e-9);
    // Lagrangian identities by finite differences of I* and V along each coordinate:
    // q̇ᵀP*_k q̇ = Σ (∂I*_km/∂q_n − ½ ∂I*_mn/∂q_k) q̇_m q̇_n,  T^L_k = −∂V/∂q_k.
    E.update(q);
    E.freeman(true, f);
    const double h = 1e-6;
    MatX dI[4];
    VecX dV(4);
    for (int k = 0; k < 4; ++k) {
      VecX qp = q, qm = q;
      qp[k] += h;
      qm[k] -= h;
      E.update(qp);
      E.freeman(true, fp);
      const double Vp = E.potentialEnergy(true);
      E.update(qm);
      E.freeman(true, fm);
      dV[k] = (Vp - E.potentialEnergy(true)) / (2 * h);
      dI[k] = (fp.Istar - fm.Istar) / (2 * h);
    }
    for (int k = 0; k < 4; ++k) {
      double lag = 0;
      for (int m = 0; m < 4; ++m)
        for (int n = 0; n < 4; ++n) lag += (dI[n](k, m) - 0.5 * dI[k](m, n)) * qd[m] * qd[n];
      CHECK(qd.dot(f.Pstar.plane(k) * qd) == Approx(lag).margin(1e-7 * f.Istar.norm()));
      CHECK(f.TL[k] == Approx(-dV[k]).margin(1e-7 * f.TL.norm()));
    }
    CHECK(f.Istar.llt().info() == Eigen::Success);
    // Energy: d(KE)/dt = q̇ᵀ(I* q̈ + q̇ᵀP* q̇) along q(t) = q + q̇ t + ½ q̈ t².
    auto ke = [&](double t) {
      E.update(q + qd * t + 0.5 * qdd * t * t);
      return E.kineticEnergy(qd + qdd * t, true);
    };
    const double dKE = (ke(h) - ke(-h)) / (2 * h);
    E.update(q);
    VecX inert(4);
    for (int k = 0; k < 4; ++k) inert[k] = f.Istar.row(k).dot(qdd) + qd.dot(f.Pstar.plane(k) * qd);
    CHECK(qd.dot(inert) == Approx(dKE).margin(1e-7 * (std::abs(dKE) + 1)));
  }
}
