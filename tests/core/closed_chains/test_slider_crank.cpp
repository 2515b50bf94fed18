// Freeman's spatial slider-crank (1985 App. D, Fig. D-1; digest §4.2) from the built-in robot file
// spatial-slider-crank: an RSSP loop (crank R, coupler with spherical ends, slider on the world z-axis) written as
// the open chain crank, S1 (z, y, x = the coupler spin δ), coupler, S2 (z, y, x), slider, P to the ground, welded.
// Checked: the slider height against the closed form Zp(θ1), the spin δ idle in Zp, [G^φ_y] and [H^φ_yy] against
// the closed form and finite differences of the closure, the single-loop transfer (closedChainModel, pose closure)
// against the null-space model (nullSpaceLoopModel) and against Freeman's own pipeline (7-joint open chain
// constrained along x, y, ωx, ωy, ωz; w = (δ, Zp) re-actuated at q = (θ1, δ)), KE over the bodies, I* SPD,
// T^L = −∂V/∂y and the energy of a free motion.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include <Eigen/Eigenvalues>
#include <nlohmann/json.hpp>

#include <achain/closed_chains/loop_closure.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/closed_chains/special_loop.hpp>
#include <achain/io/loop_json.hpp>
#include <achain/io/model_json.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/io/robot.hpp>

#include "helpers.hpp"

using namespace achain;

namespace {

std::string sliderCrankText() { return test::builtinRobotText("spatial-slider-crank"); }

// The file's geometry (its notes): pivot O, crank axis (0, cos 20°, sin 20°), radius r, coupler L.
struct ClosedForm {
  const double s = std::sin(20 * kDeg), c = std::cos(20 * kDeg), r = 0.06, L = 0.2;
  const Vec3 O = Vec3(0.04, 0.03, 0);
  Vec3 C(double t) const { return O + r * Vec3(std::cos(t), s * std::sin(t), -c * std::sin(t)); }
  Vec3 dC(double t) const { return r * Vec3(-std::sin(t), s * std::cos(t), -c * std::cos(t)); }
  double Zp(double t) const {
    const Vec3 p = C(t);
    return p.z() + std::sqrt(L * L - p.x() * p.x() - p.y() * p.y());
  }
  double dZp(double t) const {
    const Vec3 p = C(t), d = dC(t);
    return d.z() - (p.x() * d.x() + p.y() * d.y()) / std::sqrt(L * L - p.x() * p.x() - p.y() * p.y());
  }
  double ddZp(double t) const {  // C'' = −(C − O)
    const Vec3 p = C(t), d = dC(t), dd = O - p;
    const double S = std::sqrt(L * L - p.x() * p.x() - p.y() * p.y()), u = p.x() * d.x() + p.y() * d.y();
    return dd.z() - (d.x() * d.x() + p.x() * dd.x() + d.y() * d.y() + p.y() * dd.y()) / S - u * u / (S * S * S);
  }
};

constexpr int kCrank = 0, kSpin = 3, kSlider = 7;

struct SliderCrank {
  Model m = builtinModel("spatial-slider-crank");
  LoopClosure loop = loopFromJsonString(sliderCrankText(), m);
  Data d{m};
  VecX q = loop.assembly;
  ClosedChainModel cm;
  SliderCrank() {
    closeLoop(m, d, loop, q);
    closedChainModel(m, d, loop, q, VecX::Zero(m.nv), DynamicsOptions{}, cm);
  }
  VecX closedAt(double crank, double spin) {
    VecX qs = q;
    qs[kCrank] = crank, qs[kSpin] = spin;
    closeLoop(m, d, loop, qs);
    return qs;
  }
  // [G^φ_y] = the y columns of [G^φ_w] (y = α for a weld)
  MatX Gphi_y() const {
    MatX G(m.nv, 2);
    for (int a = 0; a < 2; ++a) G.col(a) = cm.Gphi_w.col(cm.y_in_w[a]);
    return G;
  }
};

}  // namespace

TEST_CASE("spatial slider-crank: Zp(θ1) in closed form, the coupler spin δ idle in Zp", "[dynamics][closed][special]") {
  SliderCrank sc;
  const ClosedForm cf;
  REQUIRE(sc.m.nv == 8);
  CHECK(sc.q[kSlider] == Approx(cf.Zp(30 * kDeg)).epsilon(1e-12));
  double spread = 0;
  for (double t : {0.0, 75.0, 140.0, 200.0, 290.0, 355.0})
    for (double delta : {0.0, 1.1, -2.5}) {
      // crank and spin moved together from the last closed state, so the closure stays on its branch
      sc.q = sc.closedAt(t * kDeg, delta);
      forwardKinematics(sc.m, sc.d, sc.q);
      const Vec3 slider = sc.d.oMi[6].p;  // the slider body's frame (link 7)
      CHECK(sc.q[kSlider] == Approx(cf.Zp(t * kDeg)).epsilon(1e-12));
      CHECK(std::abs(slider.x()) + std::abs(slider.y()) < 1e-12);
      CHECK((sc.d.oMi[6].R - Mat3::Identity()).cwiseAbs().maxCoeff() < 1e-12);  // the slider does not turn
      spread = std::max(spread, std::abs(sc.q[kSlider] - cf.Zp(t * kDeg)));
    }
  INFO("largest |Zp − closed form| " << spread);
  CHECK(spread < 1e-13);
}

TEST_CASE("spatial slider-crank: [G^φ_y], [H^φ_yy] against the closed form and the closure's finite differences",
          "[dynamics][closed][special]") {
  SliderCrank sc;
  const ClosedForm cf;
  const double t0 = sc.q[kCrank];
  const MatX G = sc.Gphi_y();
  CHECK(G(kSlider, 0) == Approx(cf.dZp(t0)).epsilon(1e-12));
  CHECK(std::abs(G(kSlider, 1)) < 1e-14);  // δ does not move the slider (first order)
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b) {
      const int wa = sc.cm.y_in_w[a], wb = sc.cm.y_in_w[b];
      if (a == 0 && b == 0)
        CHECK(sc.cm.Hphi_ww(kSlider, wa, wb) == Approx(cf.ddZp(t0)).epsilon(1e-10));
      else
        CHECK(std::abs(sc.cm.Hphi_ww(kSlider, wa, wb)) < 1e-13);  // nor at second order
    }
  // every joint against central differences of the closure (h and h/2, Richardson), in both coordinates
  const VecX y0 = Eigen::Vector2d(t0, sc.q[kSpin]);
  for (int a = 0; a < 2; ++a) {
    auto diffs = [&](double h, VecX& g, VecX& hh) {
      VecX yp = y0, ym = y0;
      yp[a] += h, ym[a] -= h;
      const VecX qp = sc.closedAt(yp[0], yp[1]), qm = sc.closedAt(ym[0], ym[1]);
      g = (qp - qm) / (2 * h);
      hh = (qp - 2 * sc.q + qm) / (h * h);
    };
    VecX g1, h1, g2, h2;
    diffs(2e-4, g1, h1);
    diffs(1e-4, g2, h2);
    const VecX g_fd = (4 * g2 - g1) / 3, h_fd = (4 * h2 - h1) / 3;
    const int wa = sc.cm.y_in_w[a];
    INFO("coordinate " << a << ": max |G − fd| " << (G.col(a) - g_fd).cwiseAbs().maxCoeff());
    CHECK((G.col(a) - g_fd).cwiseAbs().maxCoeff() < 1e-8);
    for (int k = 0; k < sc.m.nv; ++k) CHECK(sc.cm.Hphi_ww(k, wa, wa) == Approx(h_fd[k]).epsilon(1e-5).margin(1e-6));
  }
}

TEST_CASE("spatial slider-crank: single-loop transfer = null-space model = Freeman's Fig. D-1 pipeline",
          "[dynamics][closed][special]") {
  SliderCrank sc;
  const DynamicsOptions o;
  const MatX G = sc.Gphi_y();
  const VecX yd = Eigen::Vector2d(1.3, -0.8);

  // The null-space model of the same welded chain (all six rows), coordinates (θ1, δ).
  LoopClosure nl;
  nl.rows = {0, 1, 2, 3, 4, 5};
  nl.ground = sc.loop.ground;
  nl.alpha = {kCrank, kSpin};
  NullSpaceLoopModel nm;
  nullSpaceLoopModel(sc.m, sc.d, nl, sc.q, VecX::Zero(8), o, nm);
  CHECK(nm.rank == 6);  // Grübler 8 − 6 = 2 = the rank count: the weld is regular once δ is a coordinate
  CHECK(nm.compatibility < 1e-12);
  CHECK((nm.Gphi_y - G).cwiseAbs().maxCoeff() < 1e-12);
  CHECK((nm.y.Istar - sc.cm.y.Istar).cwiseAbs().maxCoeff() < 1e-15);
  CHECK((quadratic(nm.y.Pstar, yd, yd) - quadratic(sc.cm.y.Pstar, yd, yd)).cwiseAbs().maxCoeff() < 1e-14);
  CHECK((nm.y.TL - sc.cm.y.TL).cwiseAbs().maxCoeff() < 1e-13);

  // Without δ among the coordinates the loop cannot be parametrized: (θ1, Zp) leaves the spin undetermined.
  LoopClosure bad = nl;
  bad.alpha = {kCrank, kSlider};
  CHECK_THROWS_WITH(nullSpaceLoopModel(sc.m, sc.d, bad, sc.q, VecX::Zero(8), o, nm),
                    Catch::Contains("cannot parametrize the loop's motion"));

  // Freeman's pipeline: the 7-joint open chain (no P joint) constrained along (x, y, ωx, ωy, ωz), y = (θ1, δ).
  nlohmann::json j = nlohmann::json::parse(sliderCrankText());
  j["joints"].erase(kSlider);
  j.erase("loop");
  const Model m7 = modelFromJson(j);
  Data d7(m7);
  LoopClosure n7;
  n7.rows = {0, 1, 3, 4, 5};
  n7.alpha = {kCrank, kSpin};
  NullSpaceLoopModel nm7;
  nullSpaceLoopModel(m7, d7, n7, sc.q.head(7), VecX::Zero(7), o, nm7);
  CHECK(nm7.rank == 5);
  CHECK((nm7.Gphi_y - G.topRows(7)).cwiseAbs().maxCoeff() < 1e-12);
  CHECK((nm7.y.Istar - sc.cm.y.Istar).cwiseAbs().maxCoeff() < 1e-15);
  CHECK((quadratic(nm7.y.Pstar, yd, yd) - quadratic(sc.cm.y.Pstar, yd, yd)).cwiseAbs().maxCoeff() < 1e-14);

  // w = (δ, Zp) kept, then re-actuated at q = (θ1, δ) (4-32…4-41): the same I*, P*, T^L.
  LoopClosure wl = sc.loop;
  wl.alpha = {kSpin, kSlider};
  ClosedChainModel cw;
  closedChainModel(sc.m, sc.d, wl, sc.q, VecX::Zero(8), o, cw);
  MatX Gq_y;
  Tensor3 Hq_yy;
  FreemanModel mq;
  reactuate(cw, {kCrank, kSpin}, Gq_y, Hq_yy, mq);
  // rows q = (θ1, δ), columns y = (δ, Zp): δ̇ = 1·δ̇ + 0·Żp, θ̇1 = 0·δ̇ + Żp / (dZp/dθ1)
  CHECK(Gq_y(1, 0) == 1);
  CHECK(Gq_y(1, 1) == 0);
  CHECK(std::abs(Gq_y(0, 0)) < 1e-14);
  CHECK(Gq_y(0, 1) == Approx(1 / ClosedForm().dZp(sc.q[kCrank])).epsilon(1e-12));  // θ̇1 = Żp / (dZp/dθ1)
  CHECK((mq.Istar - sc.cm.y.Istar).cwiseAbs().maxCoeff() < 1e-15);
  CHECK((quadratic(mq.Pstar, yd, yd) - quadratic(sc.cm.y.Pstar, yd, yd)).cwiseAbs().maxCoeff() < 1e-13);
  CHECK((mq.TL - sc.cm.y.TL).cwiseAbs().maxCoeff() < 1e-12);
}

TEST_CASE("spatial slider-crank: I*_yy SPD, KE over the bodies, T^L = −∂V/∂y, energy of a free motion",
          "[dynamics][closed][special]") {
  SliderCrank sc;
  const DynamicsOptions o;
  const MatX G = sc.Gphi_y();
  const Eigen::SelfAdjointEigenSolver<MatX> es(sc.cm.y.Istar);
  CHECK((sc.cm.y.Istar - sc.cm.y.Istar.transpose()).cwiseAbs().maxCoeff() < 1e-18);
  CHECK(es.eigenvalues().minCoeff() > 9e-5);  // ≈ the coupler's spin inertia 1e-4 kg·m²
  const VecX yd = Eigen::Vector2d(1.3, -0.8);
  const double ke = 0.5 * yd.dot(sc.cm.y.Istar * yd);
  CHECK(ke == Approx(kineticEnergy(sc.m, sc.d, sc.q, G * yd, o)).epsilon(1e-12));
  for (int a = 0; a < 2; ++a) {
    auto dV = [&](double h) {
      VecX yp = Eigen::Vector2d(sc.q[kCrank], sc.q[kSpin]), ym = yp;
      yp[a] += h, ym[a] -= h;
      return (potentialEnergy(sc.m, sc.d, sc.closedAt(yp[0], yp[1]), o) -
              potentialEnergy(sc.m, sc.d, sc.closedAt(ym[0], ym[1]), o)) / (2 * h);
    };
    CHECK(sc.cm.y.TL[a] == Approx(-(4 * dV(1e-4) - dV(2e-4)) / 3).epsilon(1e-7).margin(1e-10));
  }
  // Free motion under gravity (RK4, the loop re-closed at every stage): KE + PE kept; the spin rate is carried.
  VecX q = sc.q, y = closedChainCoordinates(sc.m, sc.d, sc.loop, q), v = Eigen::Vector2d(4.0, 2.0);
  ClosedChainModel cm = sc.cm;
  auto energy = [&] {
    VecX phid(8), phidd(8);
    closedChainRates(cm, v, VecX::Zero(2), phid, phidd);
    return kineticEnergy(sc.m, sc.d, q, phid, o) + potentialEnergy(sc.m, sc.d, q, o);
  };
  const VecX y0 = y;
  const double e0 = energy();
  double drift = 0, swing = 0, spin = 0;
  for (int k = 0; k < 300; ++k) {
    closedChainStep(sc.m, sc.d, sc.loop, q, y, v, VecX::Zero(2), 1e-3, o, cm);
    drift = std::max(drift, std::abs(energy() - e0));
    swing = std::max(swing, std::abs(y[0] - y0[0]));
    spin = std::max(spin, std::abs(y[1] - y0[1]));
  }
  INFO("energy " << e0 << " J, drift " << drift << " J, crank swing " << swing << " rad, spin swing " << spin << " rad");
  CHECK(swing > 0.05);                   // the crank swings about its rest under the slider's weight
  CHECK(spin > 0.05);    // and the coupler spins
  CHECK(drift < 1e-8 * (1 + std::abs(e0)));
  CHECK(q[kSlider] == Approx(ClosedForm().Zp(y[0])).epsilon(1e-12));  // still on the closed form
}
