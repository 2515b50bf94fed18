// The closed chain's linearised dynamics in its own coordinates y = (α; f) (linearizeClosedChain; Freeman's state
// model after the model transfer): ∂T_y/∂y and ∂T_y/∂ẏ against Richardson central differences of the closed chain's
// loads, each perturbed state re-closed by the Newton loop closure (closeLoop → closedChainModel →
// closedChainLoads: an independent path, with no third-order terms); A against differences of the closed chain's
// forward dynamics; the poles of a pendulum-like rest state; the refusals.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>

#include <achain/closed_chains/loop_closure.hpp>
#include <achain/io/loop_json.hpp>
#include <achain/model/robots.hpp>

#include "helpers.hpp"

using namespace achain;

namespace closed_linearize_test {  // named: the unity build puts this file beside others

struct ClosedFiveBar {
  Model model = builtinModel("five-bar");
  LoopClosure loop = loopFromJsonString(test::builtinRobotText("five-bar"), model);
  Data data{model};
  VecX q = loop.assembly;
  ClosedChainModel cm;

  /// q closed at y = (α; θz), from the current q (so the branch is kept).
  VecX closeAt(const VecX& y) {
    VecX qq = q;
    for (size_t k = 0; k < loop.alpha.size(); ++k) qq[loop.alpha[k]] = y[k];
    closeLoop(model, data, loop, qq, y.tail(y.size() - static_cast<Eigen::Index>(loop.alpha.size())), 1e-15);
    return qq;
  }
  /// T_y at (y, ẏ, ÿ) by the transfer at the re-closed configuration.
  VecX loads(const VecX& y, const VecX& yd, const VecX& ydd, const DynamicsOptions& o) {
    const VecX qq = closeAt(y);
    closedChainModel(model, data, loop, qq, VecX::Zero(model.nv), o, cm);
    VecX Ty(y.size()), Tc(cm.R);
    closedChainLoads(cm, yd, ydd, Ty, Tc);
    return Ty;
  }
};

/// Richardson central difference of f along unit direction k of x (error O(h⁴)).
template <class F>
VecX derivative(const F& f, const VecX& x, int k, double h) {
  auto d = [&](double s) {
    VecX xp = x, xm = x;
    xp[k] += s, xm[k] -= s;
    return VecX((f(xp) - f(xm)) / (2 * s));
  };
  return (4 * d(h / 2) - d(h)) / 3;
}

}  // namespace closed_linearize_test

using namespace closed_linearize_test;

TEST_CASE("closed chain linearised in its coordinates: ∂T_y/∂y, ∂T_y/∂ẏ and A equal differences of the re-closed loop's loads (five-bar)",
          "[dynamics][closed][linearize]") {
  ClosedFiveBar fb;
  const double deg = kPi / 180;
  double worst_q = 0, worst_qd = 0, worst_A = 0;
  int states = 0;
  // Freeman's configuration (q1 = 70°, θz = 90°) and two others, at rest and moving; the file's gravity is normal to
  // the plane, so a second pass puts it in the plane (−y) to load the joints
  for (const double theta : {90.0, 75.0, 105.0})
    for (const double speed : {0.0, 1.0})
      for (const bool in_plane : {false, true}) {
        DynamicsOptions o;
        if (in_plane) o.override_gravity = true, o.gravity = Vec3(0, -9.81, 0);
        const VecX y0 = Eigen::Vector2d(70 * deg + (theta - 90) * 0.3 * deg, theta * deg);
        fb.q = fb.closeAt(y0);
        const VecX yd = speed * Eigen::Vector2d(2.0, 3.0), ydd = speed * Eigen::Vector2d(1.0, 0.5);
        Linearization lin;
        linearizeClosedChain(fb.model, fb.data, fb.loop, fb.q, yd, ydd, o, {}, lin);
        INFO("theta " << theta << ", speed " << speed << (in_plane ? ", gravity in the plane" : ""));
        REQUIRE(lin.A.rows() == 4);
        const VecX q0 = fb.q;
        MatX Kfd(2, 2), Cfd(2, 2);
        for (int k = 0; k < 2; ++k) {
          Kfd.col(k) = derivative([&](const VecX& y) { fb.q = q0; return fb.loads(y, yd, ydd, o); }, y0, k, 1e-4);
          Cfd.col(k) = derivative([&](const VecX& v) { fb.q = q0; return fb.loads(y0, v, ydd, o); }, yd, k, 1e-3);
        }
        fb.q = q0;
        const double eq = (lin.dT_dq - Kfd).cwiseAbs().maxCoeff() / std::max(1e-3, Kfd.cwiseAbs().maxCoeff());
        const double ev = (lin.dT_dqd - Cfd).cwiseAbs().maxCoeff() / std::max(1e-3, Cfd.cwiseAbs().maxCoeff());
        CHECK(eq < 1e-7);
        CHECK(ev < 1e-7);
        worst_q = std::max(worst_q, eq), worst_qd = std::max(worst_qd, ev);
        // I*_yy is the transferred inertia
        closedChainModel(fb.model, fb.data, fb.loop, q0, VecX::Zero(4), o, fb.cm);
        CHECK((lin.Istar - fb.cm.y.Istar).cwiseAbs().maxCoeff() < 1e-12 * fb.cm.y.Istar.norm());
        // A against differences of the closed chain's forward dynamics ÿ(y, ẏ, T_y), T_y held
        const VecX Ty = fb.loads(y0, yd, ydd, o);
        auto fdyn = [&](const VecX& x) {
          fb.q = q0;
          const VecX qq = fb.closeAt(x.head(2));
          closedChainModel(fb.model, fb.data, fb.loop, qq, VecX::Zero(4), o, fb.cm);
          VecX a(2);
          closedChainForwardDynamics(fb.cm, x.tail(2), Ty, a);
          return a;
        };
        VecX x0(4);
        x0 << y0, yd;
        MatX Afd(2, 4);
        for (int k = 0; k < 4; ++k) Afd.col(k) = derivative(fdyn, x0, k, k < 2 ? 1e-4 : 1e-3);
        fb.q = q0;
        const double ea = (lin.A.bottomRows(2) - Afd).cwiseAbs().maxCoeff() / std::max(1e-3, Afd.cwiseAbs().maxCoeff());
        CHECK(ea < 1e-7);
        worst_A = std::max(worst_A, ea);
        CHECK(lin.A.topLeftCorner(2, 2).isZero(0));
        CHECK(lin.A.topRightCorner(2, 2).isIdentity(0));
        CHECK((lin.B.bottomRows(2) - lin.Istar.inverse()).norm() < 1e-12 * lin.B.norm());
        ++states;
      }
  std::printf("closed chain linearised in y (five-bar, %d states): dT/dy %.2g, dT/dyd %.2g, A %.2g relative to differences\n",
              states, worst_q, worst_qd, worst_A);
}

TEST_CASE("closed chain linearised in its coordinates: the refusals name what is wrong", "[dynamics][closed][linearize]") {
  ClosedFiveBar fb;
  const double deg = kPi / 180;
  fb.q = fb.closeAt(Eigen::Vector2d(70 * deg, 90 * deg));
  const VecX z2 = VecX::Zero(2);
  Linearization lin;
  LinearizeOptions dc;
  dc.dc_motors = {DcMotor{0.1, 0.1, 1, 1e-3}};
  CHECK_THROWS_WITH(linearizeClosedChain(fb.model, fb.data, fb.loop, fb.q, z2, z2, {}, dc, lin), Catch::Contains("DC motors"));
  LinearizeOptions tool;
  tool.coordinates = "tool";
  CHECK_THROWS_WITH(linearizeClosedChain(fb.model, fb.data, fb.loop, fb.q, z2, z2, {}, tool, lin), Catch::Contains("own coordinates y = (α; f)"));
  CHECK_THROWS_WITH(linearizeClosedChain(fb.model, fb.data, fb.loop, fb.q, VecX::Zero(3), z2, {}, {}, lin),
                    Catch::Contains("2 coordinates y = (α; f)"));
  VecX open = fb.q;
  open[1] += 0.1;  // β moved off the closure
  CHECK_THROWS_WITH(linearizeClosedChain(fb.model, fb.data, fb.loop, open, z2, z2, {}, {}, lin), Catch::Contains("the loop is not closed at q"));
  // a pose closure of a spatial chain (Freeman's slider-crank): its free end's rotation rows are quasi-coordinates
  const Model sc = builtinModel("spatial-slider-crank");
  const LoopClosure sl = loopFromJsonString(test::builtinRobotText("spatial-slider-crank"), sc);
  Data sd(sc);
  VecX sq = sl.assembly;
  closeLoop(sc, sd, sl, sq);
  const VecX z = VecX::Zero(static_cast<Eigen::Index>(sl.alpha.size()));
  CHECK_THROWS_WITH(linearizeClosedChain(sc, sd, sl, sq, z, z, {}, {}, lin), Catch::Contains("rotation row") && Catch::Contains("quasi-coordinate"));
}
