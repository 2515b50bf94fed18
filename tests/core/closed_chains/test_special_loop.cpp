// Special loops by the null space (Freeman App. D, closed_chains/special_loop.hpp): an orthogonal Bricard 6R, whose constraint Jacobian has rank 5 (Grübler: 0 freedoms; it has 1). [G^φ_y] and [H^φ_yy] against finite
// differences of the closure, the kinetic energy against the sum over the bodies, P*_yyy against ½ dI*_yy/dy, and a
// free motion (re-closed at every stage) that keeps its energy.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <string>

#include <achain/dynamics/rnea.hpp>
#include <achain/closed_chains/loop_closure.hpp>
#include <achain/closed_chains/special_loop.hpp>
#include <achain/io/model_json.hpp>

using namespace achain;

namespace {

// Orthogonal Bricard (α = 90°, d = 0, a12² + a34² + a56² = a23² + a45² + a61²): a = 0.2, 0.3, 0.25, 0.35, 0.4 and
// √0.05 m. The sixth link is the ground (the loop is cut there: T1…T6 = I), so it has no mass; links 1–5 are
// uniform rods of 1 kg.
Model bricard() {
  const double a[6] = {0.2, 0.3, 0.25, 0.35, 0.4, std::sqrt(0.05)};
  std::string joints;
  char buf[256];
  for (int i = 0; i < 6; ++i) {
    std::snprintf(buf, sizeof buf, R"(%s{"kind": "R", "a": %.17g, "alpha": 90)", i ? ", " : "", a[i]);
    joints += buf;
    if (i < 5) {
      std::snprintf(buf, sizeof buf, R"(, "link": {"mass": 1, "com": [%.17g, 0, 0], "inertia": [0.0001, %.17g, %.17g, 0, 0, 0]})",
                    -a[i] / 2, a[i] * a[i] / 12, a[i] * a[i] / 12);
      joints += buf;
    }
    joints += "}";
  }
  return modelFromJsonString(R"({"schema_version": 1, "units": {"angle": "deg"}, "gravity": [0, 0, -9.81], "joints": [)" +
                             joints + "]}");
}

struct Bricard {
  Model m = bricard();
  Data d{m};
  LoopClosure loop;
  VecX q = VecX(6);
  Bricard() {
    loop.rows = {0, 1, 2, 3, 4, 5};
    q << 117.862, 16.587, 164.564, -20.028, -132.532, -174.082;  // near a closed configuration (a search, 3 decimals)
    q *= kDeg;  // the closure with every joint free finishes it
    closeNullSpaceLoop(m, d, loop, q);
    loop.alpha = {0};
  }
  VecX closedAt(double y) {
    VecX qs = q;
    qs[0] = y;
    closeNullSpaceLoop(m, d, loop, qs);
    return qs;
  }
};

}  // namespace

TEST_CASE("Bricard 6R: rank 5, [G^φ_y] and [H^φ_yy] from the null space match the closure's finite differences",
          "[dynamics][closed][special]") {
  Bricard b;
  NullSpaceLoopModel nm;
  nullSpaceLoopModel(b.m, b.d, b.loop, b.q, VecX::Zero(6), DynamicsOptions{}, nm);
  CHECK(nm.rank == 5);
  CHECK(nm.nullspace.cols() == 1);
  CHECK((nm.Gc * nm.Gphi_y).cwiseAbs().maxCoeff() < 1e-12);  // (D-1)
  CHECK(nm.Gphi_y(0, 0) == Approx(1).margin(1e-15));
  CHECK(nm.compatibility < 1e-10);  // the Bricard really moves: its second-order constraint is consistent
  // The loop moves: the other joints turn with joint 1 (none of [G^φ_y] is trivially zero).
  CHECK(nm.Gphi_y.col(0).tail(5).cwiseAbs().maxCoeff() > 0.1);
  // Central differences at h and h/2, Richardson-extrapolated (error O(h⁴): the joints turn fast here, |[G^φ_y]| ≈ 4).
  auto diffs = [&](double h, VecX& G, VecX& H) {
    const VecX qp = b.closedAt(b.q[0] + h), qm = b.closedAt(b.q[0] - h);
    G = (qp - qm) / (2 * h);
    H = (qp - 2 * b.q + qm) / (h * h);
  };
  VecX G1, H1, G2, H2;
  diffs(2e-4, G1, H1);
  diffs(1e-4, G2, H2);
  const VecX G_fd = (4 * G2 - G1) / 3, H_fd = (4 * H2 - H1) / 3;
  INFO("max |G| " << nm.Gphi_y.cwiseAbs().maxCoeff() << ", max |H| " << nm.Hphi_yy.maxAbs());
  CHECK((nm.Gphi_y.col(0) - G_fd).cwiseAbs().maxCoeff() < 1e-7);
  for (int k = 0; k < 6; ++k) CHECK(nm.Hphi_yy(k, 0, 0) == Approx(H_fd[k]).epsilon(1e-5).margin(1e-6));
  // Choosing a number of coordinates other than the nullity is refused with the rank.
  LoopClosure two = b.loop;
  two.alpha = {0, 1};
  CHECK_THROWS_WITH(nullSpaceLoopModel(b.m, b.d, two, b.q, VecX::Zero(6), DynamicsOptions{}, nm),
                    Catch::Contains("the loop has 1 freedoms here (M − rank[G^c_φ] = 6 − 5") &&
                        Catch::Contains("Grübler count M − R = 0"));
}

TEST_CASE("Bricard 6R: S_y = {I*_yy, P*_yyy}: KE over the bodies, P* = ½ dI*/dy, energy kept in free motion",
          "[dynamics][closed][special]") {
  Bricard b;
  const DynamicsOptions o;
  NullSpaceLoopModel nm;
  nullSpaceLoopModel(b.m, b.d, b.loop, b.q, VecX::Zero(6), o, nm);
  const double I = nm.y.Istar(0, 0);
  CHECK(I > 0);
  const double yd = 1.7;
  CHECK(0.5 * I * yd * yd == Approx(kineticEnergy(b.m, b.d, b.q, nm.Gphi_y * yd, o)).epsilon(1e-12));
  // One coordinate: the Christoffel symbol is ½ dI*/dy, along the closed curve.
  // (Central differences at h and h/2, Richardson-extrapolated.)
  auto dIdy = [&](double h) {
    NullSpaceLoopModel np, nmn;
    nullSpaceLoopModel(b.m, b.d, b.loop, b.closedAt(b.q[0] + h), VecX::Zero(6), o, np);
    nullSpaceLoopModel(b.m, b.d, b.loop, b.closedAt(b.q[0] - h), VecX::Zero(6), o, nmn);
    return (np.y.Istar(0, 0) - nmn.y.Istar(0, 0)) / (2 * h);
  };
  CHECK(nm.y.Pstar(0, 0, 0) == Approx(0.5 * (4 * dIdy(1e-4) - dIdy(2e-4)) / 3).epsilon(1e-7));
  // T^L_y = −dV/dy.
  auto dVdy = [&](double h) {
    return (potentialEnergy(b.m, b.d, b.closedAt(b.q[0] + h), o) - potentialEnergy(b.m, b.d, b.closedAt(b.q[0] - h), o)) / (2 * h);
  };
  CHECK(nm.y.TL[0] == Approx(-(4 * dVdy(1e-4) - dVdy(2e-4)) / 3).epsilon(1e-7));

  // Free motion under gravity, RK4 in y, the loop re-closed at every stage: KE + PE is kept.
  VecX q = b.q;
  double y = q[0], v = 0.8;
  auto accel = [&](double ys, double vs) {
    q[0] = ys;
    closeNullSpaceLoop(b.m, b.d, b.loop, q);
    nullSpaceLoopModel(b.m, b.d, b.loop, q, VecX::Zero(6), o, nm);
    return (nm.y.TL[0] - nm.y.Pstar(0, 0, 0) * vs * vs) / nm.y.Istar(0, 0);
  };
  auto energy = [&](double ys, double vs) {
    q[0] = ys;
    closeNullSpaceLoop(b.m, b.d, b.loop, q);
    nullSpaceLoopModel(b.m, b.d, b.loop, q, VecX::Zero(6), o, nm);
    return 0.5 * nm.y.Istar(0, 0) * vs * vs + potentialEnergy(b.m, b.d, q, o);
  };
  const double e0 = energy(y, v), dt = 1e-3;
  double drift = 0;
  for (int k = 0; k < 200; ++k) {
    const double a1 = accel(y, v), a2 = accel(y + 0.5 * dt * v, v + 0.5 * dt * a1);
    const double a3 = accel(y + 0.5 * dt * (v + 0.5 * dt * a1), v + 0.5 * dt * a2);
    const double a4 = accel(y + dt * (v + 0.5 * dt * a2), v + dt * a3);
    y += dt / 6 * (v + 2 * (v + 0.5 * dt * a1) + 2 * (v + 0.5 * dt * a2) + (v + dt * a3));
    v += dt / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
    drift = std::max(drift, std::abs(energy(y, v) - e0));
  }
  CHECK(std::abs(y - b.q[0]) > 0.01);  // it moved
  CHECK(drift < 1e-8 * (1 + std::abs(e0)));
}

TEST_CASE("Special loops: one loop description — the kind's rows by default, other rows for the null-space method only",
          "[closed_chains][special]") {
  LoopClosure loop;
  loop.kind = ClosureKind::PlanarPin;
  CHECK(constrainedRows(loop) == std::vector<int>{0, 1});
  loop.kind = ClosureKind::Point;
  CHECK(constrainedRows(loop) == std::vector<int>{0, 1, 2});
  loop.kind = ClosureKind::Pose;
  CHECK(constrainedRows(loop) == std::vector<int>{0, 1, 2, 3, 4, 5});
  loop.rows = {0, 1, 3, 4, 5};  // a slider on the z-axis
  CHECK(constrainedRows(loop) == loop.rows);
  // the model transfer (Freeman §4.1) constrains the kind's rows only, and says which method takes others
  Bricard b;
  LoopClosure other = b.loop;
  other.kind = ClosureKind::Pose;
  other.rows = {0, 1, 3, 4, 5};
  VecX q = b.q;
  ClosedChainModel cm;
  CHECK_THROWS_WITH(closeLoop(b.m, b.d, other, q), Catch::StartsWith("loop.rows: a pose closure") &&
                                                       Catch::Contains("null-space method"));
  CHECK_THROWS_WITH(closedChainModel(b.m, b.d, other, q, VecX::Zero(6), DynamicsOptions{}, cm),
                    Catch::StartsWith("loop.rows:"));
}
