// Single closed loops by model transfer (Freeman 1985 §IV.A) against Freeman's five-bar (App. C,
// Tables C-1…C-3, as reconstructed with errata in freeman-influence.md §6.2), finite differences of the
// Newton loop closure, energy and virtual-work identities, and the validation errors.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <string>

#include <achain/closed_chains/loop_closure.hpp>
#include <achain/dynamics/crba.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/io/loop_json.hpp>
#include <achain/io/model_json.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/kinematics/influence.hpp>
#include <achain/io/robot.hpp>

#include <Eigen/SVD>

#include "helpers.hpp"

using namespace achain;

namespace {

constexpr double kInLbf = 0.1129848290276167;      // N·m per in·lbf
constexpr double kLbf = 4.4482216152605;           // N per lbf
const double kDegR = kPi / 180;

// Printed value `v` (thesis units) against `got`: within 0.5 % or the absolute allowance of the printed digits.
bool near(double got, double v, double abs_tol, double rel = 0.005) {
  return std::abs(got - v) <= std::max(rel * std::abs(v), abs_tol);
}

std::string fiveBarText() { return test::builtinRobotText("five-bar"); }

struct FiveBar {
  Model model = builtinModel("five-bar");
  LoopClosure loop = loopFromJsonString(fiveBarText(), model);
  Data data{model};
  VecX q = loop.assembly;
  ClosedChainModel cm;
  // Freeman's motion: q̇1 = 2, q̈1 = 1, q̇2 = 3, q̈2 = 0.5 (rad/s, rad/s²)
  VecX yd = Eigen::Vector2d(2.0, 3.0), ydd = Eigen::Vector2d(1.0, 0.5);
  FiveBar() {
    closeLoop(model, data, loop, q, Eigen::Matrix<double, 1, 1>(90 * kDegR));
    VecX qd0 = VecX::Zero(4);
    closedChainModel(model, data, loop, q, qd0, DynamicsOptions{}, cm);
  }
};

// w = (φ1 [rad], X_h [m], Y_h [m], θ_h [rad]): the SI→(in, lbf) factor of each coordinate.
const double kWs[4] = {1, test::kInch, test::kInch, 1};

}  // namespace

TEST_CASE("five-bar: the loop closes at Freeman's configuration (Table C-1 positions)", "[dynamics][closed]") {
  FiveBar fb;
  const double expect[4] = {70, -35, -100, -25};
  for (int i = 0; i < 4; ++i) CHECK(fb.q[i] / kDegR == Approx(expect[i]).margin(1e-5));
  forwardKinematics(fb.model, fb.data, fb.q);
  const Vec3 A = fb.data.oMi[0].p / test::kInch, B = fb.data.oMi[2].p / test::kInch;
  CHECK(near(A.x(), 4.10, 0.005));
  CHECK(near(A.y(), 11.28, 0.005));
  CHECK(near(B.x(), 33.9, 0.05));
  CHECK(near(B.y(), 3.29, 0.005));  // [fix] printed −3.29
  const Vec3 c2 = fb.data.oMi[1].act(Vec3(-12 * test::kInch, 0, 0)) / test::kInch;
  CHECK(near(c2.x(), 13.93, 0.005));
  CHECK(near(c2.y(), 18.16, 0.005));
  // A perturbed start closes back onto the same branch.
  VecX q = fb.loop.assembly;
  q[1] += 0.1, q[2] -= 0.15, q[3] += 0.05;
  const int iters = closeLoop(fb.model, fb.data, fb.loop, q, Eigen::Matrix<double, 1, 1>(90 * kDegR));
  CHECK(iters > 0);
  CHECK((q - fb.q).norm() < 1e-9);
}

TEST_CASE("five-bar: Table C-1 velocities and accelerations (ψ̇ = −0.0743, ψ̈ = −3.405)", "[dynamics][closed]") {
  FiveBar fb;
  VecX qd(4), qdd(4);
  closedChainRates(fb.cm, fb.yd, fb.ydd, qd, qdd);
  // open-chain rates [derived]: φ̇ = (2, −2.0743, −0.5910, 3.6653), φ̈ = (1, −4.4054, 2.4589, 1.4465)
  const double qd_ref[4] = {2, -2.0743, -0.5910, 3.6653}, qdd_ref[4] = {1, -4.4054, 2.4589, 1.4465};
  for (int i = 0; i < 4; ++i) {
    CHECK(qd[i] == Approx(qd_ref[i]).margin(1e-4));
    CHECK(qdd[i] == Approx(qdd_ref[i]).margin(1e-4));
  }
  CHECK(near(qd[0] + qd[1], -0.0743, 0.00005, 0));   // ψ̇
  CHECK(near(qdd[0] + qdd[1], -3.405, 0.0005, 0));   // ψ̈
  forwardKinematics(fb.model, fb.data, fb.q);
  auto pointRates = [&](int link, const Vec3& p, double* v, double* a) {
    MatX G(3, 4);
    Tensor3 H;
    pointInfluence(fb.model, fb.data, link, p, G, &H);
    const Vec3 vel = G * qd / test::kInch, acc = (G * qdd + quadratic(H, qd, qd)) / test::kInch;
    for (int k = 0; k < 2; ++k) v[k] = vel[k], a[k] = acc[k];
  };
  double v[2], a[2];
  pointRates(0, Vec3::Zero(), v, a);  // A
  CHECK(near(v[0], -22.55, 0.005, 0));
  CHECK(near(v[1], 8.21, 0.005, 0));
  CHECK(near(a[0], -27.69, 0.005, 0));
  CHECK(near(a[1], -41.0, 0.05, 0));
  pointRates(2, Vec3::Zero(), v, a);  // B
  CHECK(near(v[0], -36.0, 0.05, 0));
  CHECK(near(v[1], 0.0, 0.05, 0));
  CHECK(near(a[0], -6.0, 0.05, 0));
  CHECK(near(a[1], -108.0, 0.05, 0));
  pointRates(1, Vec3(-12 * test::kInch, 0, 0), v, a);  // coupler centroid
  CHECK(near(a[0], -4.31, 0.005, 0));
  CHECK(near(a[1], -74.51, 0.005, 0));
}

TEST_CASE("five-bar: Table C-2 open-chain model [G^w_φ], [H^e], I*_φφ, P*_φφφ", "[dynamics][closed]") {
  FiveBar fb;
  const auto& cm = fb.cm;
  const double Gw[4][4] = {{1, 0, 0, 0}, {8.71, 19.98, 33.75, 12}, {33.91, 29.80, 10.14, 0}, {1, 1, 1, 1}};
  for (int i = 0; i < 4; ++i)
    for (int p = 0; p < 4; ++p) CHECK(near(cm.Gw_phi(i, p) / kWs[i], Gw[i][p], 0.01, 0));  // 19.9856 is printed 19.98
  const double HX[4][4] = {{33.91, 29.80, 10.14, 0}, {29.80, 29.80, 10.14, 0}, {10.14, 10.14, 10.14, 0}, {0, 0, 0, 0}};
  const double HY[4][4] = {{8.71, 19.98, 33.75, 12}, {19.98, 19.98, 33.75, 12}, {33.75, 33.75, 33.75, 12}, {12, 12, 12, 12}};
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 4; ++n) {
      CHECK(cm.Hw_phiphi(0, m, n) == 0);
      CHECK(near(cm.Hw_phiphi(1, m, n) / test::kInch, -HX[m][n], 0.01, 0));
      CHECK(near(cm.Hw_phiphi(2, m, n) / test::kInch, HY[m][n], 0.01, 0));
      CHECK(std::abs(cm.Hw_phiphi(3, m, n)) < 1e-12);
    }
  const double I[4][4] = {{2.774, 1.418, 0, 0}, {1.418, 0.808, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}};
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 4; ++n) CHECK(near(cm.open.Istar(m, n) / kInLbf, I[m][n], 0.0005));
  // P*: plane 1 = [[0, .428], [.428, .428]], plane 2 = [[−.428, 0], [0, 0]], planes 3, 4 = 0; the
  // quadratic form only sees the symmetric part of each plane, so compare that.
  const double P1[2][2] = {{0, 0.428}, {0.428, 0.428}}, P2[2][2] = {{-0.428, 0}, {0, 0}};
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 4; ++n) {
      auto sym = [&](int k) { return 0.5 * (cm.open.Pstar(k, m, n) + cm.open.Pstar(k, n, m)) / kInLbf; };
      CHECK(near(sym(0), m < 2 && n < 2 ? P1[m][n] : 0, 0.0005));
      CHECK(near(sym(1), m < 2 && n < 2 ? P2[m][n] : 0, 0.0005));
      CHECK(std::abs(sym(2)) < 0.0005);  // the built-in's cranks and CB carry 1e-5 of the coupler's mass
      CHECK(std::abs(sym(3)) < 0.0005);
    }
}

TEST_CASE("five-bar: [G^φ_w] and [H^φ_ww] intermediates (digest §6.2)", "[dynamics][closed]") {
  FiveBar fb;
  const auto& cm = fb.cm;
  const double G[4][4] = {{1, 0, 0, 0},
                          {-1.35901, -0.01788, 0.03835, 0.21457},
                          {0.65022, 0.05254, -0.01408, -0.63046},
                          {-0.29121, -0.03466, -0.02427, 1.41589}};
  for (int p = 0; p < 4; ++p)
    for (int j = 0; j < 4; ++j) CHECK(near(cm.Gphi_w(p, j) * kWs[j], G[p][j], 2e-5, 0));
  const double H[3][4][4] = {
      {{0.29562, -0.00912, -0.00960, 0.10940}, {-0.00912, -0.00116, -0.00097, 0.01396},
       {-0.00960, -0.00097, -0.00034, 0.01170}, {0.10940, 0.01396, 0.01170, -0.62766}},
      {{0.23619, 0.01386, -0.00562, -0.16626}, {0.01386, 0.00128, 0.00013, -0.01531},
       {-0.00562, 0.00013, 0.00173, -0.00156}, {-0.16626, -0.01531, -0.00156, 0.35270}},
      {{-0.53182, -0.00474, 0.01522, 0.05686}, {-0.00474, -0.00011, 0.00084, 0.00135},
       {0.01522, 0.00084, -0.00139, -0.01013}, {0.05686, 0.00135, -0.01013, 0.27496}}};
  for (int j = 0; j < 4; ++j)
    for (int k = 0; k < 4; ++k) {
      CHECK(cm.Hphi_ww(0, j, k) == 0);
      for (int p = 1; p < 4; ++p) CHECK(near(cm.Hphi_ww(p, j, k) * kWs[j] * kWs[k], H[p - 1][j][k], 2e-5, 0));
    }
}

TEST_CASE("five-bar: Table C-3 I*_ww, P*_www and T_w = (0.0504 in·lbf, 0.0688 lbf, −0.1476 lbf, −0.826 in·lbf)",
          "[dynamics][closed]") {
  FiveBar fb;
  const auto& cm = fb.cm;
  // ×10⁻³, printed (Table C-3) with the digest's errata: P*_2(3,4) = P*_2(4,3) = −0.17.
  const double I[4][4] = {{411.24, -5.73, 12.29, 68.79}, {-5.73, 0.26, -0.55, -3.10},
                          {12.29, -0.55, 1.19, 6.64}, {68.79, -3.10, 6.64, 37.17}};
  const double P[4][4][4] = {
      {{303.35, -0.18, -8.96, 2.15}, {-0.18, -0.24, -0.61, 2.84}, {-8.96, -0.61, 0.52, 7.27}, {2.15, 2.84, 7.27, -181.56}},
      {{3.38, 0.13, 0.14, -1.58}, {0.13, 0.02, 0.01, -0.20}, {0.14, 0.01, 0.005, -0.17}, {-1.58, -0.20, -0.17, 9.06}},
      {{-7.24, -0.28, -0.29, 3.38}, {-0.28, -0.04, -0.03, 0.43}, {-0.29, -0.03, -0.01, 0.36}, {3.38, 0.43, 0.36, -19.43}},
      {{-40.50, -1.58, -1.66, 18.95}, {-1.58, -0.20, -0.17, 2.42}, {-1.66, -0.17, -0.06, 2.03}, {18.95, 2.42, 2.03, -108.7}}};
  int checked = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const double Ius = cm.w.Istar(i, j) * kWs[i] * kWs[j] / kInLbf * 1e3;
      CHECK(near(Ius, I[i][j], 0.01));
      CHECK(cm.w.Istar(i, j) == Approx(cm.w.Istar(j, i)).epsilon(1e-12));  // symmetric
      for (int k = 0; k < 4; ++k) {
        const double sym = 0.5 * (cm.w.Pstar(i, j, k) + cm.w.Pstar(i, k, j)) * kWs[i] * kWs[j] * kWs[k] / kInLbf * 1e3;
        CHECK(near(sym, P[i][j][k], 0.01));
        ++checked;
      }
    }
  CHECK(checked == 64);
  // T_w at ẇ = (q̇1, 0, 0, q̇2): actuator loads T_y = (T1, T_h) and the pin's forces T_c = (F_Hx, F_Hy).
  VecX Ty(2), Tc(2);
  closedChainLoads(cm, fb.yd, fb.ydd, Ty, Tc);
  const double T1 = Ty[0] / kInLbf, Th = Ty[1] / kInLbf, Fx = Tc[0] / kLbf, Fy = Tc[1] / kLbf;
  std::printf("five-bar T_w = (%.5f in·lbf, %.5f lbf, %.5f lbf, %.5f in·lbf)\n", T1, Fx, Fy, Th);
  CHECK(near(T1, 0.0504, 0));
  CHECK(near(Fx, 0.0688, 0));
  CHECK(near(Fy, -0.1476, 0));
  CHECK(near(Th, -0.826, 0));
  // The same loads from the full w model, T_w = I*_ww ẅ + ẇᵀP*_www ẇ − T^L_w.
  VecX wd(4), wdd(4);
  wd << fb.yd[0], 0, 0, fb.yd[1];
  wdd << fb.ydd[0], 0, 0, fb.ydd[1];
  const VecX Tw = cm.w.Istar * wdd + quadratic(cm.w.Pstar, wd, wd) - cm.w.TL;
  CHECK(Tw[0] == Approx(Ty[0]).epsilon(1e-12));
  CHECK(Tw[1] == Approx(Tc[0]).epsilon(1e-12));
  CHECK(Tw[2] == Approx(Tc[1]).epsilon(1e-12));
  CHECK(Tw[3] == Approx(Ty[1]).epsilon(1e-12));
}

TEST_CASE("five-bar: Table C-1's pin force at A, (F_Ax, F_Ay) = (−0.091, −0.238) lbf", "[dynamics][closed]") {
  // The dyad analysis's pin force at A: what crank 1 exerts on the coupler. Newton for the links past A (coupler,
  // CB, crank 2) gives F_A = Σ m_k a_k − F_H, with F_H the pin's force on the free end (T_c) and the links' CoM
  // accelerations from FK along φ(t) = φ + φ̇t + ½φ̈t² (central second differences). Printed: (−0.009, −0.24);
  // the digest's erratum reads the OCR's "−0.009" as −0.09 (derived −0.091), consistent with F_A + F_B = m₂a₂.
  FiveBar fb;
  VecX qd(4), qdd(4), Ty(2), Tc(2);
  closedChainRates(fb.cm, fb.yd, fb.ydd, qd, qdd);
  closedChainLoads(fb.cm, fb.yd, fb.ydd, Ty, Tc);
  auto massMoment = [&](const VecX& q) {  // Σ m_k c_k over links 2…4 (joints A, C, B)
    forwardKinematics(fb.model, fb.data, q);
    Vec3 s = Vec3::Zero();
    for (int k = 1; k < 4; ++k) s += fb.model.joints[k].link.mass * fb.data.oMi[k].act(fb.model.joints[k].link.com);
    return s;
  };
  const double t = 1e-4;
  const Vec3 ma = (massMoment(fb.q + qd * t + 0.5 * qdd * t * t) - 2 * massMoment(fb.q) +
                   massMoment(fb.q - qd * t + 0.5 * qdd * t * t)) / (t * t);
  const double FAx = (ma[0] - Tc[0]) / kLbf, FAy = (ma[1] - Tc[1]) / kLbf;
  std::printf("five-bar F_A = (%.4f, %.4f) lbf\n", FAx, FAy);
  CHECK(near(FAx, -0.091, 0.005, 0));
  CHECK(near(FAy, -0.24, 0.005, 0));
}

TEST_CASE("closedChainInverseDynamics: one RNEA pass gives Freeman's transfer (rates, T_y, T_c) on the five-bar, with gravity normal to and in its plane",
          "[dynamics][closed]") {
  FiveBar fb;
  DynamicsOptions in_plane;
  in_plane.gravity = Vec3(0, -9.81, 0);
  in_plane.override_gravity = true;
  double worst = 0;
  for (const DynamicsOptions& o : {DynamicsOptions{}, in_plane}) {
    for (int k = 0; k < 8; ++k) {
      VecX q = fb.loop.assembly;
      closeLoop(fb.model, fb.data, fb.loop, q, Eigen::Matrix<double, 1, 1>((60 + 7 * k) * kDegR));
      const VecX yd = Eigen::Vector2d(2.0 - 0.5 * k, 3.0 + 0.3 * k), ydd = Eigen::Vector2d(1.0 + k, 0.5 - 0.2 * k);
      ClosedChainModel ref;
      VecX rqd(4), rqdd(4), Ty(2), Tc(2), qd(4), qdd(4), Ty1(2), Tc1(2);
      closedChainModel(fb.model, fb.data, fb.loop, q, VecX::Zero(4), o, ref);
      closedChainRates(ref, yd, ydd, rqd, rqdd);
      closedChainLoads(ref, yd, ydd, Ty, Tc);
      closedChainInverseDynamics(fb.model, fb.data, fb.loop, q, yd, ydd, o, qd, qdd, Ty1, Tc1);
      CHECK((qd - rqd).cwiseAbs().maxCoeff() < 1e-12 * (1 + rqd.cwiseAbs().maxCoeff()));
      CHECK((qdd - rqdd).cwiseAbs().maxCoeff() < 1e-10 * (1 + rqdd.cwiseAbs().maxCoeff()));
      const double e = std::max((Ty1 - Ty).cwiseAbs().maxCoeff() / (1 + Ty.cwiseAbs().maxCoeff()),
                                (Tc1 - Tc).cwiseAbs().maxCoeff() / (1 + Tc.cwiseAbs().maxCoeff()));
      worst = std::max(worst, e);
      CHECK(e < 1e-10);
    }
  }
  INFO("worst relative difference " << worst);
  CHECK(worst < 1e-10);
  // the same refusals as closedChainModel
  LoopClosure wrong = fb.loop;
  wrong.alpha = {0, 1};
  VecX qd(4), qdd(4), Ty(2), Tc(2);
  CHECK_THROWS_WITH(closedChainInverseDynamics(fb.model, fb.data, wrong, fb.q, Eigen::Vector2d(1, 1), Eigen::Vector2d(0, 0),
                                               DynamicsOptions{}, qd, qdd, Ty, Tc),
                    Catch::Contains("mobility mismatch"));
}

TEST_CASE("closed chain: [G], [H] of the closure equal finite differences of the Newton loop closure",
          "[dynamics][closed]") {
  FiveBar fb;
  const double h = 1e-5;
  auto closeAt = [&](const VecX& y) {
    VecX q = fb.q;
    q[0] = y[0];
    closeLoop(fb.model, fb.data, fb.loop, q, Eigen::Matrix<double, 1, 1>(y[1]), 1e-15);
    return q;
  };
  const VecX y0 = Eigen::Vector2d(fb.q[0], 90 * kDegR);
  MatX Gfd(4, 2);
  for (int k = 0; k < 2; ++k) {
    VecX yp = y0, ym = y0;
    yp[k] += h, ym[k] -= h;
    Gfd.col(k) = (closeAt(yp) - closeAt(ym)) / (2 * h);
  }
  MatX Gy(4, 2);
  for (int k = 0; k < 2; ++k) Gy.col(k) = fb.cm.Gphi_w.col(fb.cm.y_in_w[k]);
  CHECK((Gfd - Gy).cwiseAbs().maxCoeff() < 1e-8);
  // Second order along a path y(t) = y0 + ẏt + ½ÿt²: φ̈(0) by central differences = G ÿ + ẏᵀHẏ.
  const double t = 1e-4;
  const VecX fp = closeAt(y0 + fb.yd * t + 0.5 * fb.ydd * t * t), fm = closeAt(y0 - fb.yd * t + 0.5 * fb.ydd * t * t);
  const VecX qdd_fd = (fp - 2 * fb.q + fm) / (t * t);
  VecX qd(4), qdd(4);
  closedChainRates(fb.cm, fb.yd, fb.ydd, qd, qdd);
  CHECK((qdd_fd - qdd).cwiseAbs().maxCoeff() < 1e-4 * qdd.cwiseAbs().maxCoeff());
  CHECK(((fp - fm) / (2 * t) - qd).cwiseAbs().maxCoeff() < 1e-6);
}

TEST_CASE("closed chain: I*_yy is symmetric positive definite and KE = ½ẏᵀI*_yy ẏ is the open chain's at the loop's rates",
          "[dynamics][closed]") {
  FiveBar fb;
  Eigen::LLT<MatX> llt(fb.cm.y.Istar);
  CHECK(llt.info() == Eigen::Success);
  CHECK((fb.cm.y.Istar - fb.cm.y.Istar.transpose()).cwiseAbs().maxCoeff() < 1e-15);
  for (const VecX& yd : {VecX(Eigen::Vector2d(2, 3)), VecX(Eigen::Vector2d(-1.5, 0.25)), VecX(Eigen::Vector2d(0, 1))}) {
    VecX qd(4), qdd(4);
    closedChainRates(fb.cm, yd, VecX::Zero(2), qd, qdd);
    MatX M(4, 4);
    massMatrix(fb.model, fb.data, fb.q, DynamicsOptions{}, M);  // CRBA, independent of the influence coefficients
    const double ke_bodies = 0.5 * qd.dot(M * qd);
    const double ke_closed = 0.5 * yd.dot(fb.cm.y.Istar * yd);
    CHECK(ke_closed == Approx(ke_bodies).epsilon(1e-12));
    CHECK(ke_closed > 0);
  }
}

TEST_CASE("closed chain: re-actuation at other joints keeps the virtual work (4-32…4-41)", "[dynamics][closed]") {
  FiveBar fb;
  VecX Ty(2), Tc(2), qd(4), qdd(4);
  closedChainLoads(fb.cm, fb.yd, fb.ydd, Ty, Tc);
  closedChainRates(fb.cm, fb.yd, fb.ydd, qd, qdd);
  for (const std::vector<int>& act : {std::vector<int>{0, 1}, std::vector<int>{1, 3}, std::vector<int>{2, 3}}) {
    MatX Gq;
    Tensor3 Hq;
    FreemanModel mq;
    reactuate(fb.cm, act, Gq, Hq, mq);
    VecX qa(2), qad(2);
    for (int n = 0; n < 2; ++n) qa[n] = qd[act[n]], qad[n] = qdd[act[n]];
    CHECK((Gq * fb.yd - qa).cwiseAbs().maxCoeff() < 1e-12);                               // q̇ = G^q_y ẏ
    CHECK((Gq * fb.ydd + quadratic(Hq, fb.yd, fb.yd) - qad).cwiseAbs().maxCoeff() < 1e-10);  // q̈
    const VecX Tq = mq.Istar * qad + quadratic(mq.Pstar, qa, qa) - mq.TL;
    // T_y = [G^q_y]ᵀ T_q (3-10) and equal power T_q·q̇ = T_y·ẏ.
    CHECK((Gq.transpose() * Tq - Ty).cwiseAbs().maxCoeff() < 1e-12 * (1 + Ty.cwiseAbs().maxCoeff()) + 1e-14);
    CHECK(Tq.dot(qa) == Approx(Ty.dot(fb.yd)).epsilon(1e-10));
    Eigen::LLT<MatX> llt(mq.Istar);
    CHECK(llt.info() == Eigen::Success);
  }
  // Choosing α itself and the joint nearest the free end gives back T_1 at joint 0.
  MatX Gq;
  Tensor3 Hq;
  FreemanModel mq;
  CHECK_THROWS_WITH(reactuate(fb.cm, {0}, Gq, Hq, mq), Catch::Contains("2 degrees of freedom"));
}

TEST_CASE("closed chain: clear errors for a mobility mismatch, a singular coordinate choice, a loop that cannot close",
          "[dynamics][closed]") {
  FiveBar fb;
  ClosedChainModel cm;
  LoopClosure two = fb.loop;
  two.alpha = {0, 1};
  CHECK_THROWS_WITH(closedChainModel(fb.model, fb.data, two, fb.q, VecX::Zero(4), {}, cm),
                    Catch::Contains("mobility mismatch") && Catch::Contains("Grübler/Kutzbach count M − R = 4 − 2 = 2") &&
                        Catch::Contains("rank count M − rank[G^c_φ] = 4 − 2 = 2"));

  // A planar 4R (unit links) at q = (90°, −90°, 0, 90°): joints 1, 2, 3 lie on one line, so keeping
  // joint 0 leaves [G^e_β] singular (rank 2), while the pin's [G^c_φ] has full rank.
  const Model m4 = modelFromJsonString(R"({"schema_version": 1, "joints": [
      {"kind": "R", "a": 1, "alpha": 0}, {"kind": "R", "a": 1, "alpha": 0},
      {"kind": "R", "a": 1, "alpha": 0}, {"kind": "R", "a": 1, "alpha": 0}]})");
  Data d4(m4);
  LoopClosure pin;
  pin.kind = ClosureKind::PlanarPin;
  pin.ground.p = Vec3(2, 2, 0);
  pin.alpha = {0};
  const VecX q4 = test::degrees({90, -90, 0, 90});
  CHECK_THROWS_WITH(closedChainModel(m4, d4, pin, q4, VecX::Zero(4), {}, cm),
                    Catch::Contains("[G^e_β] is singular") && Catch::Contains("rank 2 of 3"));
  // All links straight out: the pin's two constraints have rank 1 (a Bricard-like loss): mobility mismatch.
  pin.ground.p = Vec3(4, 0, 0);
  CHECK_THROWS_WITH(closedChainModel(m4, d4, pin, VecX::Zero(4), VecX::Zero(4), {}, cm),
                    Catch::Contains("rank count M − rank[G^c_φ] = 4 − 1 = 3"));
  // A ground out of reach.
  pin.ground.p = Vec3(10, 10, 0);
  VecX q = test::degrees({10, 20, 30, 40});
  CHECK_THROWS_WITH(closeLoop(m4, d4, pin, q), Catch::Contains("loop cannot close"));
}

TEST_CASE("robot file loop section: validation names the field", "[dynamics][closed][io]") {
  std::string text = fiveBarText();
  auto with = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    const size_t at = t.find(from);
    REQUIRE(at != std::string::npos);
    return t.replace(at, from.size(), to);
  };
  CHECK_THROWS_WITH(modelFromJsonString(with("\"planar_pin\"", "\"hinge\"")),
                    Catch::StartsWith("loop.closure: unknown closure"));
  CHECK_THROWS_WITH(modelFromJsonString(with("\"coordinates\": [\"O1\"]", "\"coordinates\": [\"Q\"]")),
                    Catch::StartsWith("loop.coordinates[0]: no joint is named"));
  CHECK_THROWS_WITH(modelFromJsonString(with("\"coordinates\": [\"O1\"]", "\"coordinates\": [7]")),
                    Catch::StartsWith("loop.coordinates[0]: joint index 7 out of range"));
  CHECK_THROWS_WITH(modelFromJsonString(with("\"assembly\": [70, -35, -100, -25]", "\"assembly\": [70]")),
                    Catch::StartsWith("loop.assembly: must be an array of 4"));
  CHECK_THROWS_WITH(modelFromJsonString(with("\"closure\"", "\"closur\"")), Catch::StartsWith("loop.clos"));
  for (const auto& b : builtinRobots())
    if (b.name == "planar-2r") CHECK_THROWS_WITH(loopFromJsonString(b.json, builtinModel(b.name)), Catch::Contains("no loop section"));
}

TEST_CASE("robot file loop section: loopToJson writes it back in SI beside modelToJson, and it loads to the same closure",
          "[dynamics][closed][io]") {
  const Model m = modelFromJsonString(fiveBarText());
  const LoopClosure loop = loopFromJsonString(fiveBarText(), m);
  nlohmann::json doc = modelToJson(m);
  doc["loop"] = loopToJson(loop, m);
  CHECK(doc["loop"]["coordinates"] == nlohmann::json::array({"O1"}));
  const Model back = modelFromJson(doc);
  const LoopClosure again = loopFromJson(doc, back);
  CHECK(again.kind == loop.kind);
  CHECK(again.alpha == loop.alpha);
  CHECK((again.ground.matrix() - loop.ground.matrix()).cwiseAbs().maxCoeff() < 1e-15);
  REQUIRE(again.assembly.size() == loop.assembly.size());
  CHECK((again.assembly - loop.assembly).cwiseAbs().maxCoeff() < 1e-15);
  // a pose closure with a turned ground, and a joint whose name is not unique: written by index
  LoopClosure weld = loop;
  weld.kind = ClosureKind::Pose;
  weld.ground.R = Eigen::AngleAxisd(0.3, Vec3(0.2, -0.5, 1).normalized()).toRotationMatrix();
  weld.alpha = {2};
  Model twins = m;
  twins.joints[0].name = twins.joints[2].name;
  nlohmann::json w = loopToJson(weld, twins);
  CHECK(w["coordinates"] == nlohmann::json::array({2}));
  CHECK(w["closure"] == "pose");
  nlohmann::json doc2 = modelToJson(m);
  doc2["loop"] = w;
  const LoopClosure weld2 = loopFromJson(doc2, modelFromJson(doc2));
  CHECK(weld2.kind == ClosureKind::Pose);
  CHECK(weld2.alpha == std::vector<int>{2});
  CHECK((weld2.ground.matrix() - weld.ground.matrix()).cwiseAbs().maxCoeff() < 1e-15);
}

TEST_CASE("closed chain in space: a 7R loop welded to the ground (pose) and a 6R loop on a ball joint (point)",
          "[dynamics][closed]") {
  const std::string joints[7] = {
      R"({"kind": "R", "a": 0.1, "alpha": 1.2, "d": 0.3, "link": {"mass": 1.5, "com": [0.05, 0.02, -0.1], "inertia": [0.02, 0.03, 0.025, 0.001, 0, 0.002]}})",
      R"({"kind": "R", "a": 0.4, "alpha": -0.7, "d": 0.05, "link": {"mass": 2.0, "com": [-0.2, 0.01, 0.03], "inertia": [0.01, 0.05, 0.05, 0, 0.001, 0]}})",
      R"({"kind": "R", "a": 0.35, "alpha": 1.9, "d": -0.1, "link": {"mass": 1.2, "com": [-0.15, 0, 0.02], "inertia": [0.01, 0.03, 0.03, 0, 0, 0]}})",
      R"({"kind": "R", "a": 0.05, "alpha": 1.1, "d": 0.25, "link": {"mass": 0.8, "com": [0, 0.05, 0], "inertia": [0.01, 0.01, 0.01, 0, 0, 0]}})",
      R"({"kind": "R", "a": 0.2, "alpha": -1.3, "d": 0.1, "link": {"mass": 0.6, "com": [-0.1, 0, 0], "inertia": [0.005, 0.008, 0.008, 0, 0, 0]}})",
      R"({"kind": "R", "a": 0.15, "alpha": 0.8, "d": 0.05, "link": {"mass": 0.4, "com": [-0.05, 0, 0.01], "inertia": [0.003, 0.004, 0.004, 0, 0, 0]}})",
      R"({"kind": "R", "a": 0.1, "alpha": 0, "d": 0.08, "link": {"mass": 0.3, "com": [0, 0, 0.02], "inertia": [0.002, 0.002, 0.003, 0, 0, 0]}})"};
  auto chain = [&](int n) {
    std::string text = R"({"schema_version": 1, "joints": [)";
    for (int i = 0; i < n; ++i) text += (i ? ", " : "") + joints[i];
    return modelFromJsonString(text + "]}");
  };
  const Model m7 = chain(7);
  Data d7(m7);
  const VecX q0 = (VecX(7) << 0.3, -0.6, 0.9, 1.2, -0.4, 0.7, 0.2).finished();
  forwardKinematics(m7, d7, q0);
  LoopClosure weld;
  weld.kind = ClosureKind::Pose;
  weld.ground = d7.oMtool;
  weld.alpha = {2};
  ClosedChainModel cm;
  closedChainModel(m7, d7, weld, q0, VecX::Zero(7), DynamicsOptions{}, cm);
  REQUIRE(cm.y_in_w.size() == 1);
  // d φ/d α by central differences of the Newton closure (rotation residual by the matrix logarithm).
  const double h = 1e-6;
  auto closeAt = [&](double a) {
    VecX q = q0;
    q[2] = a;
    closeLoop(m7, d7, weld, q, VecX(), 1e-14);
    return q;
  };
  const VecX fd = (closeAt(q0[2] + h) - closeAt(q0[2] - h)) / (2 * h);
  CHECK((fd - cm.Gphi_w.col(cm.y_in_w[0])).cwiseAbs().maxCoeff() < 1e-7);
  const double t = 1e-4, yd = 0.8, ydd = -0.3;
  const VecX qdd_fd = (closeAt(q0[2] + yd * t + 0.5 * ydd * t * t) - 2 * q0 + closeAt(q0[2] - yd * t + 0.5 * ydd * t * t)) / (t * t);
  VecX qd(7), qdd(7);
  closedChainRates(cm, VecX::Constant(1, yd), VecX::Constant(1, ydd), qd, qdd);
  CHECK((qdd_fd - qdd).cwiseAbs().maxCoeff() < 1e-4 * (1 + qdd.cwiseAbs().maxCoeff()));
  // KE = ½ẏᵀI*_yy ẏ is the open chain's (CRBA) at the closed rates.
  MatX M(7, 7);
  massMatrix(m7, d7, q0, DynamicsOptions{}, M);
  CHECK(0.5 * yd * cm.y.Istar(0, 0) * yd == Approx(0.5 * qd.dot(M * qd)).epsilon(1e-12));

  // 6R on a ball joint: N = 6, R = 3, y = the three rotations; the tool point stays put at the closed rates.
  const Model m6 = chain(6);
  REQUIRE(m6.nv == 6);
  Data d6(m6);
  const VecX q6 = q0.head(6);
  forwardKinematics(m6, d6, q6);
  LoopClosure ball;
  ball.kind = ClosureKind::Point;
  ball.ground = d6.oMtool;
  closedChainModel(m6, d6, ball, q6, VecX::Zero(6), DynamicsOptions{}, cm);
  REQUIRE(cm.y_in_w.size() == 3);
  const VecX w3 = (VecX(3) << 0.4, -1.1, 0.6).finished(), a3 = (VecX(3) << 0.2, 0.3, -0.5).finished();
  VecX qd6(6), qdd6(6);
  closedChainRates(cm, w3, a3, qd6, qdd6);
  Influence inf;
  toolInfluence(m6, d6, inf, 2);
  const VecX tw = inf.G * qd6, ta = inf.G * qdd6 + quadratic(inf.H, qd6, qd6);
  CHECK(tw.head<3>().cwiseAbs().maxCoeff() < 1e-12);   // ċ = 0
  CHECK(ta.head<3>().cwiseAbs().maxCoeff() < 1e-10);   // c̈ = 0
  CHECK((tw.tail<3>() - w3).cwiseAbs().maxCoeff() < 1e-12);  // ḟ = ω of the tool
  CHECK((ta.tail<3>() - a3).cwiseAbs().maxCoeff() < 1e-10);  // f̈ = ω̇
  MatX M6(6, 6);
  massMatrix(m6, d6, q6, DynamicsOptions{}, M6);
  CHECK(0.5 * w3.dot(cm.y.Istar * w3) == Approx(0.5 * qd6.dot(M6 * qd6)).epsilon(1e-12));
  Eigen::LLT<MatX> llt(cm.y.Istar);
  CHECK(llt.info() == Eigen::Success);

  // The one-pass closed-chain inverse dynamics gives the transfer's rates and loads on both space closures.
  for (const bool pose : {false, true}) {
    const Model& m = pose ? m7 : m6;
    Data& d = pose ? d7 : d6;
    const LoopClosure& loop = pose ? weld : ball;
    const VecX qc = pose ? q0 : q6;
    const VecX y1 = pose ? VecX::Constant(1, 0.8) : w3, y2 = pose ? VecX::Constant(1, -0.3) : a3;
    ClosedChainModel ref;
    VecX rqd(m.nv), rqdd(m.nv), Ty(y1.size()), Tc(pose ? 6 : 3), Ty1(y1.size()), Tc1(Tc.size()), qd1(m.nv), qdd1(m.nv);
    closedChainModel(m, d, loop, qc, VecX::Zero(m.nv), DynamicsOptions{}, ref);
    closedChainRates(ref, y1, y2, rqd, rqdd);
    closedChainLoads(ref, y1, y2, Ty, Tc);
    closedChainInverseDynamics(m, d, loop, qc, y1, y2, DynamicsOptions{}, qd1, qdd1, Ty1, Tc1);
    INFO((pose ? "7R weld" : "6R ball"));
    CHECK((qd1 - rqd).cwiseAbs().maxCoeff() < 1e-12 * (1 + rqd.cwiseAbs().maxCoeff()));
    CHECK((qdd1 - rqdd).cwiseAbs().maxCoeff() < 1e-10 * (1 + rqdd.cwiseAbs().maxCoeff()));
    CHECK((Ty1 - Ty).cwiseAbs().maxCoeff() < 1e-10 * (1 + Ty.cwiseAbs().maxCoeff()));
    CHECK((Tc1 - Tc).cwiseAbs().maxCoeff() < 1e-10 * (1 + Tc.cwiseAbs().maxCoeff()));
  }
}

TEST_CASE("closed chain: forward dynamics inverts the loads, and the free five-bar conserves energy", "[dynamics][closed]") {
  FiveBar fb;
  VecX Ty(2), Tc(2), ydd(2);
  closedChainLoads(fb.cm, fb.yd, fb.ydd, Ty, Tc);
  closedChainForwardDynamics(fb.cm, fb.yd, Ty, ydd);
  CHECK((ydd - fb.ydd).cwiseAbs().maxCoeff() < 1e-10);

  // Vertical plane: gravity along −y loads the coupler. Free motion (T_y = 0) for 0.2 s, RK4 with the loop re-closed
  // at every stage; KE + PE of the open chain's bodies at the closed rates stays constant. (The fall's later course,
  // through A–C–B in line, is the next test's.)
  DynamicsOptions o;
  o.override_gravity = true;
  o.gravity = Vec3(0, -9.80665, 0);
  const VecX y_start = closedChainCoordinates(fb.model, fb.data, fb.loop, fb.q);
  CHECK(y_start[0] == Approx(70 * kDegR));
  CHECK(y_start[1] == Approx(90 * kDegR));
  ClosedChainModel cm;
  VecX q, y, yd;
  // Simulates 0.2 s with step dt; returns the largest |E − E0| and sets the largest KE and the travel of y.
  auto simulate = [&](double dt, double& ke_max, double& travel) {
    q = fb.q, y = y_start, yd = Eigen::Vector2d(0.5, -0.3);
    closedChainModel(fb.model, fb.data, fb.loop, q, VecX::Zero(4), o, cm);
    auto energy = [&](double& ke) {
      VecX qd(4), qdd(4);
      closedChainRates(cm, yd, VecX::Zero(2), qd, qdd);
      ke = 0.5 * yd.dot(cm.y.Istar * yd);
      return kineticEnergy(fb.model, fb.data, q, qd, o) + potentialEnergy(fb.model, fb.data, q, o);
    };
    double ke = 0, drift = 0;
    const double e0 = energy(ke);
    ke_max = ke, travel = 0;
    for (int k = 0; k < static_cast<int>(std::lround(0.2 / dt)); ++k) {
      closedChainStep(fb.model, fb.data, fb.loop, q, y, yd, VecX::Zero(2), dt, o, cm);
      drift = std::max(drift, std::abs(energy(ke) - e0));
      ke_max = std::max(ke_max, ke);
      travel = std::max(travel, (y - y_start).cwiseAbs().maxCoeff());
    }
    return drift;
  };
  double ke_max = 0, travel = 0, ke2 = 0, travel2 = 0;
  const double drift = simulate(2e-3, ke_max, travel), drift_half = simulate(1e-3, ke2, travel2);
  std::printf("five-bar free motion, 0.2 s: max |ΔE| = %.3g J at dt = 2 ms, %.3g J at 1 ms; KE up to %.3g J; y moved %.3f rad\n",
              drift, drift_half, ke_max, travel);
  CHECK(travel > 0.2);                  // it really moved (gravity and the initial rates)
  CHECK(drift < 1e-7 * ke_max);         // conserved to the integrator's accuracy …
  CHECK(drift_half < drift / 8);        // … which is fourth order: the model itself conserves energy
  // the loop stays closed
  forwardKinematics(fb.model, fb.data, q);
  CHECK((fb.data.oMtool.p - fb.loop.ground.p).head<2>().norm() < 1e-12);
  // a point closure cannot be integrated in y
  LoopClosure ball = fb.loop;
  ball.kind = ClosureKind::Point;
  CHECK_THROWS_WITH(closedChainStep(fb.model, fb.data, ball, q, y, yd, VecX::Zero(2), 1e-3, o, cm),
                    Catch::Contains("quasi-coordinates"));
  // a motion too fast to follow: the step shrinks to its floor, and the message says why the last trial failed
  VecX fast = VecX::Constant(2, 1e12);
  try {
    closedChainStep(fb.model, fb.data, fb.loop, q, y, fast, VecX::Zero(2), 1e-3, o, cm);
    FAIL("no error at 1e12 rad/s");
  } catch (const Error& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(what.find("too fast to integrate") != std::string::npos);
    CHECK(what.find("(the last trial step failed: loop") != std::string::npos);
  }
}

// Issue 32, item 9: the free five-bar's simulation stopped ("loop cannot close … kept coordinates α = [0]"). Two causes,
// both mended in closedChainStep: (1) at Freeman's rates the nearly massless crank 2 whips round at ~1e4 rad/s when
// C, B, O2 line up, which a fixed 1-ms RK4 step cannot follow (it threw within 0.06 s): the step is now controlled;
// (2) falling in the plane of motion the chain passes configurations where crank 1 and θz cannot describe the loop
// (A–C–B in line, [G^e_β] singular; the old test stopped at 0.2 s for that): the step then integrates in the joints
// that describe the loop best and reads y back.
namespace {
struct FreeRun {
  double e0 = 0, drift = 0, gap = 0, worst = 1, y1_min = 1e9, y1_max = -1e9;
  int inline_c = 0;  // joint C passing through 0 or 180° (A–C–B in line)
};
FreeRun runFree(FiveBar& fb, const DynamicsOptions& o, const VecX& yd0, double duration) {
  VecX q = fb.q, y = closedChainCoordinates(fb.model, fb.data, fb.loop, fb.q), yd = yd0;
  ClosedChainModel cm;
  auto energy = [&]() {
    closedChainModel(fb.model, fb.data, fb.loop, q, VecX::Zero(4), o, cm);
    VecX qd(4), qdd(4);
    closedChainRates(cm, yd, VecX::Zero(2), qd, qdd);
    return kineticEnergy(fb.model, fb.data, q, qd, o) + potentialEnergy(fb.model, fb.data, q, o);
  };
  FreeRun r;
  r.e0 = energy();
  for (int k = 0; k < static_cast<int>(std::lround(duration / 1e-3)); ++k) {
    const double c0 = std::sin(q[2]);
    closedChainStep(fb.model, fb.data, fb.loop, q, y, yd, VecX::Zero(2), 1e-3, o, cm);
    if ((std::sin(q[2]) > 0) != (c0 > 0)) ++r.inline_c;
    r.drift = std::max(r.drift, std::abs(energy() - r.e0));
    r.y1_min = std::min(r.y1_min, y[0]), r.y1_max = std::max(r.y1_max, y[0]);
    CHECK(y[0] == q[0]);  // y1 is crank 1's angle, unwrapped
    forwardKinematics(fb.model, fb.data, q);
    r.gap = std::max(r.gap, (fb.data.oMtool.p - fb.loop.ground.p).head<2>().norm());
    Influence inf;  // how well α = crank 1 (with θz) describes the loop here: σ_min/σ_max of [G^e_β]
    toolInfluence(fb.model, fb.data, inf, 1);
    Eigen::Matrix3d Gb;
    for (int b = 0; b < 3; ++b) Gb.col(b) = Eigen::Vector3d(inf.G(0, b + 1), inf.G(1, b + 1), inf.G(5, b + 1));
    const Eigen::Vector3d sv = Eigen::JacobiSVD<Eigen::Matrix3d>(Gb).singularValues();
    r.worst = std::min(r.worst, sv[2] / sv[0]);
  }
  std::printf("five-bar free motion, %.1f s: |ΔE| ≤ %.3g of %.3g J, loop gap ≤ %.3g m, y1 in [%.1f°, %.1f°], A–C–B in line %d "
              "times, crank 1's conditioning down to %.3g\n", duration, r.drift, r.e0, r.gap, r.y1_min / kDegR,
              r.y1_max / kDegR, r.inline_c, r.worst);
  return r;
}
}  // namespace

TEST_CASE("closedChainStep: the free five-bar runs on through whips of its light crank and its coordinates' singularities",
          "[dynamics][closed]") {
  FiveBar fb;
  // Freeman's rates, gravity normal to the plane: 1.2 s (a fixed step threw at 0.053 s); crank 1 passes 180°
  const FreeRun whip = runFree(fb, DynamicsOptions{}, fb.yd, 1.2);
  CHECK(whip.y1_max > 200 * kDegR);
  CHECK(whip.drift < 1e-6 * whip.e0);
  CHECK(whip.gap < 1e-9);
  // falling in the plane of motion from ẏ = (0.5, −0.3) rad/s: 1.2 s, A–C–B in line more than once
  DynamicsOptions g;
  g.override_gravity = true;
  g.gravity = Vec3(0, -9.80665, 0);
  const FreeRun fall = runFree(fb, g, Eigen::Vector2d(0.5, -0.3), 1.2);
  CHECK(fall.inline_c >= 2);
  CHECK(fall.worst < 1e-3);  // crank 1 and θz nearly could not describe the loop there …
  CHECK(fall.drift < 1e-6 * fall.e0);  // … and the motion went on, conserving energy
  CHECK(fall.gap < 1e-9);
  CHECK(fall.y1_max - fall.y1_min > 260 * kDegR);  // crank 1 swung through more than a half turn, unwrapped
}

TEST_CASE("closeLoop: dragging crank 2 through 60° and back stays on the assembly branch", "[dynamics][closed]") {
  FiveBar fb;
  VecX q = fb.q;
  const double sign_C = std::copysign(1.0, std::sin(q[2]));  // which side of AB the joint C lies on
  double max_jump = 0;
  auto dragTo = [&](double crank2_deg) {
    const VecX before = q;
    closeLoop(fb.model, fb.data, fb.loop, q, Eigen::Matrix<double, 1, 1>(crank2_deg * kDegR));
    max_jump = std::max(max_jump, (q - before).cwiseAbs().maxCoeff());
    CHECK(std::copysign(1.0, std::sin(q[2])) == sign_C);
  };
  for (int k = 1; k <= 60; ++k) dragTo(90 + k);   // 1° a frame
  for (int k = 59; k >= 0; --k) dragTo(90 + k);
  CHECK(max_jump < 3 * kDegR);
  CHECK((q - fb.q).cwiseAbs().maxCoeff() < 1e-10);  // back where it started: no branch flip on the way
  // The other assembly (C mirrored across AB) is a different closed configuration of the same y.
  forwardKinematics(fb.model, fb.data, fb.q);
  const Vec3 A = fb.data.oMi[0].p, B = fb.data.oMi[2].p, C = fb.data.oMi[1].p;
  const Vec3 u = (B - A).normalized();
  const Vec3 Cm = A + 2 * (C - A).dot(u) * u - (C - A);
  VecX other = fb.q;
  other[1] = std::atan2((Cm - A).y(), (Cm - A).x()) - fb.q[0];
  other[2] = std::atan2((B - Cm).y(), (B - Cm).x()) - std::atan2((Cm - A).y(), (Cm - A).x());
  other[3] = -kPi / 2 - std::atan2((B - Cm).y(), (B - Cm).x());  // link BO2 points along −y
  closeLoop(fb.model, fb.data, fb.loop, other, Eigen::Matrix<double, 1, 1>(90 * kDegR));
  CHECK(std::copysign(1.0, std::sin(other[2])) == -sign_C);
  forwardKinematics(fb.model, fb.data, other);
  CHECK((fb.data.oMi[1].p - Cm).norm() < 1e-9);
}
