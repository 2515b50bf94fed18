// The Stewart–Gough platform (6-UPS) of the built-in parallel robot file stewart-6ups, by Freeman's §IV.B: six
// U-P-S legs summed into the platform (parallelModel, spatial, w rates (v, ω)) and actuated at the prismatic
// joints (parallelActuate). Checked against the platform's own geometry: the leg lengths and their finite
// differences, the classical Jacobian rows (u_i, (R p_i) × u_i), the statics of a payload by the Jacobian
// transpose, the potential energy, and the kinetic energy summed over the bodies.
#include <catch2/catch.hpp>
#include <cmath>

#include <Eigen/Eigenvalues>

#include <achain/closed_chains/parallel_robot.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/io/parallel_json.hpp>
#include <achain/io/robot.hpp>
#include <achain/kinematics/fk.hpp>

using namespace achain;
using nlohmann::json;

namespace {

json stewartDocument() {
  for (const auto& b : builtinParallelRobots())
    if (b.name == "stewart-6ups") return json::parse(b.json);
  FAIL("no built-in stewart-6ups");
  return {};
}

// A tilted, shifted platform pose away from the reference.
SE3 testPose() {
  SE3 X;
  X.p = Vec3(0.03, -0.02, 0.62);
  X.R = rpyToMatrix(5 * kDeg, -4 * kDeg, 8 * kDeg);
  return X;
}

// Base joint b_i (the leg's base) and platform joint p_i (platform frame; the leg's tool is −p_i in its last link).
Vec3 baseJoint(const ParallelRobot& r, int i) { return r.legs[i].base.p; }
Vec3 platformJoint(const ParallelRobot& r, int i) { return -r.legs[i].tool.p; }
double legLength(const ParallelRobot& r, int i, const SE3& X) {
  return (X.p + X.R * platformJoint(r, i) - baseJoint(r, i)).norm();
}

// The pose moved by a world translation dv and a world rotation vector dω (w's rates are (v, ω)).
SE3 moved(const SE3& X, const Vec6& d) {
  SE3 Y = X;
  Y.p += d.head<3>();
  const double a = d.tail<3>().norm();
  if (a > 0) Y.R = Eigen::AngleAxisd(a, d.tail<3>() / a).toRotationMatrix() * X.R;
  return Y;
}

// The classical Stewart Jacobian, l̇ = J ẇ: row i = (u_iᵀ, ((R p_i) × u_i)ᵀ).
MatX stewartJacobian(const ParallelRobot& r, const SE3& X) {
  MatX J(6, 6);
  for (int i = 0; i < 6; ++i) {
    const Vec3 rp = X.R * platformJoint(r, i);
    const Vec3 u = (X.p + rp - baseJoint(r, i)).normalized();
    J.row(i) << u.transpose(), rp.cross(u).transpose();
  }
  return J;
}

struct StewartBuilt {
  ParallelRobot robot;
  std::vector<Data> datas;
  ParallelState st;
  StewartBuilt(ParallelRobot r, const SE3& X) : robot(std::move(r)) {
    for (const Model& m : robot.legs) datas.emplace_back(m);
    parallelAt(robot, datas, X, DynamicsOptions{}, st);
  }
};

}  // namespace

TEST_CASE("stewart-6ups: every leg closes on the platform pose to 1e-12, [G^q_w] is the leg lengths' derivative",
          "[dynamics][closed][parallel]") {
  const SE3 X = testPose();
  StewartBuilt b(loadParallel("stewart-6ups"), X);
  const ParallelRobot& r = b.robot;
  REQUIRE(!r.planar);
  REQUIRE(r.legs.size() == 6);
  for (int i = 0; i < 6; ++i) {
    forwardKinematics(r.legs[i], b.datas[i], b.st.q[i]);
    const SE3& T = b.datas[i].oMtool;
    CHECK((T.p - X.p).norm() < 1e-12);
    CHECK((T.R - X.R).cwiseAbs().maxCoeff() < 1e-12);
    CHECK(b.st.q[i][2] == Approx(legLength(r, i, X)).margin(1e-12));  // the P coordinate is the leg length
  }
  // [G^q_w] against central differences of the leg lengths and the classical Jacobian.
  const double h = 1e-6;
  MatX fd(6, 6);
  for (int k = 0; k < 6; ++k) {
    Vec6 d = Vec6::Zero();
    d[k] = h;
    for (int i = 0; i < 6; ++i) fd(i, k) = (legLength(r, i, moved(X, d)) - legLength(r, i, moved(X, -d))) / (2 * h);
  }
  CHECK((b.st.Gq_w - fd).cwiseAbs().maxCoeff() < 1e-8);
  CHECK((b.st.Gq_w - stewartJacobian(r, X)).cwiseAbs().maxCoeff() < 1e-12);
  // [H^q_ww]: the second derivative of the leg lengths along a path with constant (v, ω).
  Vec6 wd;
  wd << 0.05, -0.03, 0.04, 0.3, -0.2, 0.25;
  const double t = 1e-4;
  for (int i = 0; i < 6; ++i) {
    const double l0 = legLength(r, i, X), lp = legLength(r, i, moved(X, t * wd)), lm = legLength(r, i, moved(X, -t * wd));
    // moved() turns by exp(tω): the rotation about a fixed axis has constant ω, so l̈ = ẇᵀ[H^q_ww]_i ẇ.
    CHECK(wd.dot(b.st.Hq_ww.plane(i) * wd) == Approx((lp - 2 * l0 + lm) / (t * t)).margin(1e-6));
  }
}

TEST_CASE("stewart-6ups: I*_qq is SPD, the kinetic energy is the bodies' sum, the gravity loads are −∂V/∂w",
          "[dynamics][closed][parallel]") {
  const SE3 X = testPose();
  StewartBuilt b(loadParallel("stewart-6ups"), X);
  const ParallelRobot& r = b.robot;
  const Eigen::SelfAdjointEigenSolver<MatX> es(0.5 * (b.st.q_model.Istar + b.st.q_model.Istar.transpose()));
  CHECK(es.eigenvalues().minCoeff() > 0.1);  // kg: at least the platform's share
  CHECK((b.st.q_model.Istar - b.st.q_model.Istar.transpose()).cwiseAbs().maxCoeff() < 1e-12);
  Vec6 wd;
  wd << 0.12, -0.05, 0.08, 0.4, -0.3, 0.2;
  ParallelMotion mo;
  parallelMotion(b.st, wd, Vec6::Zero(), mo);
  const DynamicsOptions o;
  double ke = 0;
  for (int i = 0; i < 6; ++i) ke += kineticEnergy(r.legs[i], b.datas[i], b.st.q[i], mo.qd[i], o);
  const Vec3 v = wd.head<3>(), w = wd.tail<3>();
  const Mat3 Iw = X.R * r.platform_inertia * X.R.transpose();
  ke += 0.5 * r.platform_mass * v.squaredNorm() + 0.5 * w.dot(Iw * w);
  CHECK(0.5 * wd.dot(b.st.pm.w.Istar * wd) == Approx(ke).epsilon(1e-12));
  CHECK(0.5 * mo.q_d.dot(b.st.q_model.Istar * mo.q_d) == Approx(ke).epsilon(1e-12));
  CHECK(mo.Tq.dot(mo.q_d) == Approx(mo.Tw.dot(wd)).epsilon(1e-12));  // the same power at q and at w

  // T^L_w (legs and platform under gravity) = −∂V/∂w, V the potential energy with every leg re-closed.
  auto V = [&](const SE3& Y) {
    std::vector<VecX> q = b.st.q;
    legInverseKinematics(r, b.datas, Y, q);
    double e = -r.platform_mass * r.legs[0].gravity.dot(Y.p);
    for (int i = 0; i < 6; ++i) e += potentialEnergy(r.legs[i], b.datas[i], q[i], o);
    return e;
  };
  const double h = 1e-6;
  for (int k = 0; k < 6; ++k) {
    Vec6 d = Vec6::Zero();
    d[k] = h;
    CHECK(b.st.pm.w.TL[k] == Approx(-(V(moved(X, d)) - V(moved(X, -d))) / (2 * h)).margin(1e-6));
  }
}

TEST_CASE("stewart-6ups: the actuator forces holding a payload are the statics by the Jacobian transpose",
          "[dynamics][closed][parallel]") {
  json doc = stewartDocument();
  for (auto& j : doc["parallel"]["leg"]["joints"]) j.erase("link");  // massless legs: the payload alone
  doc["parallel"]["platform"]["mass"] = 25;
  const SE3 X = testPose();
  StewartBuilt b(parallelFromJson(doc), X);
  ParallelMotion mo;
  parallelMotion(b.st, Vec6::Zero(), Vec6::Zero(), mo);
  // Equilibrium of the platform: Σ f_i u_i + m g = 0 and Σ (R p_i) × f_i u_i = 0, i.e. Jᵀ f = −(m g; 0).
  Vec6 W;
  W << 25 * b.robot.legs[0].gravity, Vec3::Zero();
  const MatX J = stewartJacobian(b.robot, X);
  const VecX f = -J.transpose().fullPivLu().solve(W);
  CHECK((mo.Tq - f).cwiseAbs().maxCoeff() < 1e-10 * f.cwiseAbs().maxCoeff());
  CHECK(f.minCoeff() > 0);  // every leg pushes
  CHECK((J.transpose() * mo.Tq + W).cwiseAbs().maxCoeff() < 1e-10);
}

TEST_CASE("stewart-6ups: a leg of five joints is named", "[dynamics][closed][parallel]") {
  json doc = stewartDocument();
  doc["parallel"]["legs"][3]["joints"] = doc["parallel"]["leg"]["joints"];
  doc["parallel"]["legs"][3]["joints"].erase(5);
  CHECK_THROWS_WITH(parallelFromJson(doc), Catch::StartsWith("parallel.legs[3].joints: a spatial platform has 6 freedoms"));
}
