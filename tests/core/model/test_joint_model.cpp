// The joint model: every algorithm reads joint motion only through it, so a joint kind that no
// algorithm knows — an axial law declared in the robot file — works everywhere (checked by finite
// differences and identities), and fixed and mimic joints reduce to a linear map of the coordinates.
#include <catch2/catch.hpp>

#include <random>

#include <achain/dynamics/crba.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/io/model_json.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/kinematics/influence.hpp>
#include <achain/kinematics/jacobian.hpp>
#include <achain/model/robots.hpp>

using namespace achain;

namespace {

// A chain with an R joint, a joint of kind "law" (a screw law no algorithm has heard of: a cubic plus
// two sines) and a P joint, with masses everywhere.
const char* kLawChain = R"({
  "schema_version": 1, "name": "law-chain",
  "joints": [
    {"kind": "R", "a": 0.3, "alpha": 0.4, "d": 0.1,
     "link": {"mass": 2.0, "com": [0.1, 0.02, 0.0], "inertia": [0.02, 0.03, 0.025, 0.001, 0.0, 0.002]}},
    {"kind": "law", "a": 0.25, "alpha": -0.7, "d": 0.05, "theta_f": 0.2,
     "law": {"c": [0.01, -0.004, 0.002],
             "sine": [{"amplitude": 0.05, "frequency": 1.5, "phase": 0.3},
                      {"amplitude": 0.02, "frequency": 0.5}]},
     "link": {"mass": 1.5, "com": [0.05, 0.0, 0.03], "inertia": [0.01, 0.02, 0.015, 0.0, 0.001, 0.0]}},
    {"kind": "P", "a": 0.1, "alpha": 1.1, "theta_f": 0.5,
     "link": {"mass": 0.8, "com": [0.0, 0.01, 0.04], "inertia": [0.004, 0.005, 0.003, 0.0, 0.0, 0.0]}}
  ]})";

/// Jacobian by central differences of FK: linear rows from p, angular rows from Ṙ Rᵀ.
MatX fdJacobian(const Model& m, const VecX& q) {
  Data d(m);
  MatX J(6, m.nv);
  const double h = 1e-6;
  forwardKinematics(m, d, q);
  const Mat3 R0 = d.oMtool.R;
  for (int k = 0; k < m.nv; ++k) {
    VecX qp = q, qm = q;
    qp[k] += h;
    qm[k] -= h;
    forwardKinematics(m, d, qp);
    const Vec3 pp = d.oMtool.p;
    const Mat3 Rp = d.oMtool.R;
    forwardKinematics(m, d, qm);
    const Vec3 pm = d.oMtool.p;
    const Mat3 Rm = d.oMtool.R;
    J.block<3, 1>(0, k) = (pp - pm) / (2 * h);
    const Mat3 W = ((Rp - Rm) / (2 * h)) * R0.transpose();
    J.block<3, 1>(3, k) = Vec3(W(2, 1), W(0, 2), W(1, 0));
  }
  return J;
}

}  // namespace

TEST_CASE("joint model: a declared axial law works in every algorithm without code of its own", "[joint]") {
  const Model m = modelFromJsonString(kLawChain);
  REQUIRE(m.joints[1].kind == JointKind::Law);
  REQUIRE(m.nq == 3);
  Data d(m);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(-2, 2);
  for (int trial = 0; trial < 20; ++trial) {
    VecX q(3), qd(3), qdd(3);
    for (int k = 0; k < 3; ++k) {
      q[k] = U(rng);
      qd[k] = U(rng);
      qdd[k] = U(rng);
    }
    // Jacobian against finite differences of FK.
    forwardKinematics(m, d, q);
    MatX J(6, 3);
    toolJacobian(m, d, J);
    CHECK((J - fdJacobian(m, q)).cwiseAbs().maxCoeff() < 1e-8);
    // J̇q̇ against the difference of J along q̇.
    const Vec6 jdqd = toolJacobianDotTimesQdot(m, d, qd);
    const double h = 1e-6;
    MatX Jp(6, 3), Jm(6, 3);
    forwardKinematics(m, d, q + h * qd);
    toolJacobian(m, d, Jp);
    forwardKinematics(m, d, q - h * qd);
    toolJacobian(m, d, Jm);
    CHECK((jdqd - (Jp - Jm) * qd / (2 * h)).cwiseAbs().maxCoeff() < 1e-7);
    // Influence coefficients: H against the difference of G, D against the difference of H.
    Influence I, Ip, Im;
    forwardKinematics(m, d, q);
    toolInfluence(m, d, I, 3);
    for (int k = 0; k < 3; ++k) {
      VecX e = VecX::Zero(3);
      e[k] = h;
      forwardKinematics(m, d, q + e);
      toolInfluence(m, d, Ip, 3);
      forwardKinematics(m, d, q - e);
      toolInfluence(m, d, Im, 3);
      for (int p = 0; p < 6; ++p)
        for (int n = 0; n < 3; ++n) {
          CHECK(I.H(p, k, n) == Approx((Ip.G(p, n) - Im.G(p, n)) / (2 * h)).margin(1e-7));
          for (int mm = 0; mm < 3; ++mm)
            CHECK(I.D(p, k, mm, n) == Approx((Ip.H(p, mm, n) - Im.H(p, mm, n)) / (2 * h)).margin(1e-6));
        }
    }
    // RNEA = M q̈ + b, M symmetric positive definite.
    DynamicsOptions o;
    VecX tau(3), b(3);
    MatX M(3, 3);
    inverseDynamics(m, d, q, qd, qdd, o, tau);
    massMatrix(m, d, q, o, M);
    biasTorques(m, d, q, qd, o, b);
    CHECK((tau - (M * qdd + b)).cwiseAbs().maxCoeff() < 1e-10);
    CHECK((M - M.transpose()).cwiseAbs().maxCoeff() < 1e-12);
    CHECK(Eigen::LLT<MatX>(M).info() == Eigen::Success);
    // Kinetic energy: ½ q̇ᵀ M q̇ from the RNEA's own energy routine.
    CHECK(kineticEnergy(m, d, q, qd, o) == Approx(0.5 * qd.dot(M * qd)).epsilon(1e-12));
  }
}

TEST_CASE("joint model: the A-pair is the law rho*sin(u/2), rho = 0 is the R-pair bit for bit", "[joint]") {
  Joint a;
  a.kind = JointKind::A;
  a.rho = 0.1;
  a.theta_f = 0.3;
  a.d = 0.2;
  const JointModel jm = makeJointModel(a, DHConvention::Standard, 0);
  CHECK(jm.period == Approx(4 * kPi));
  CHECK(jm.axial_rate_bound == Approx(0.05));
  for (double u : {0.0, 0.7, kPi, 3.9, 6.5}) {
    JointState s;
    jm.evaluate(u, s);
    CHECK(s.dz == Approx(0.2 + 0.1 * std::sin(u / 2)).epsilon(1e-15));
    CHECK(s.axial_rate == Approx(0.05 * std::cos(u / 2)).margin(1e-15));
    CHECK(s.axial_curv == Approx(-0.025 * std::sin(u / 2)).margin(1e-15));
    CHECK(s.axial_jerk == Approx(-0.0125 * std::cos(u / 2)).margin(1e-15));
  }
  Joint r = a;
  r.kind = JointKind::R;
  r.rho = 0;
  a.rho = 0;
  JointState sa, sr;
  for (double u : {-2.0, 0.0, 1.3, 5.0}) {
    makeJointModel(a, DHConvention::Standard, 0).evaluate(u, sa);
    makeJointModel(r, DHConvention::Standard, 0).evaluate(u, sr);
    CHECK(sa.theta == sr.theta);
    CHECK(sa.dz == sr.dz);
    CHECK(sa.axial_rate == sr.axial_rate);
  }
}

TEST_CASE("joint model: fixed and mimic joints are a linear map of the coordinates", "[joint]") {
  // The same arm twice: with a mimic (u1 = -0.5 u0 + 0.2) and a fixed joint (θ = θ_f), and with every
  // joint free. Then q_full = E q + c, and J = J_full E, τ = Eᵀ τ_full, M = Eᵀ M_full E, H = E-contracted.
  auto text = [](bool coupled) {
    std::string s = R"({"schema_version": 1, "joints": [
      {"name": "j0", "kind": "R", "a": 0.3, "alpha": 0.5,
       "link": {"mass": 2.0, "com": [0.1, 0.0, 0.02], "inertia": [0.02, 0.03, 0.025, 0.0, 0.0, 0.001]}},
      {"name": "j1", "kind": "A", "rho": 0.08, "a": 0.2, "alpha": -0.6, "d": 0.05, )";
    s += coupled ? R"("mimic": {"joint": "j0", "multiplier": -0.5, "offset": 0.2},)" : "";
    s += R"("link": {"mass": 1.0, "com": [0.05, 0.02, 0.0], "inertia": [0.01, 0.01, 0.012, 0.0, 0.0, 0.0]}},
      {"name": "j2", "kind": ")";
    s += coupled ? "fixed" : "R";
    s += R"(", "theta_f": 0.3, "d": 0.1, "a": 0.15, "alpha": 0.9,
       "link": {"mass": 0.7, "com": [0.0, 0.03, 0.01], "inertia": [0.003, 0.004, 0.002, 0.0, 0.0, 0.0]}},
      {"name": "j3", "kind": "P", "a": 0.1, "alpha": 0.2,
       "link": {"mass": 0.5, "com": [0.02, 0.0, 0.05], "inertia": [0.002, 0.002, 0.001, 0.0, 0.0, 0.0]}}]})";
    return s;
  };
  const Model mc = modelFromJsonString(text(true));
  const Model mf = modelFromJsonString(text(false));
  REQUIRE(mc.nq == 2);
  REQUIRE(mf.nq == 4);
  CHECK(mc.coupled);
  MatX E = MatX::Zero(4, 2);
  E(0, 0) = 1;
  E(1, 0) = -0.5;
  E(3, 1) = 1;
  VecX c = VecX::Zero(4);
  c[1] = 0.2;
  Data dc(mc), df(mf);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> U(-1.5, 1.5);
  for (int trial = 0; trial < 20; ++trial) {
    VecX q(2), qd(2), qdd(2);
    for (int k = 0; k < 2; ++k) {
      q[k] = U(rng);
      qd[k] = U(rng);
      qdd[k] = U(rng);
    }
    const VecX qf = E * q + c, qdf = E * qd, qddf = E * qdd;
    forwardKinematics(mc, dc, q);
    forwardKinematics(mf, df, qf);
    CHECK((dc.oMtool.matrix() - df.oMtool.matrix()).cwiseAbs().maxCoeff() < 1e-14);
    MatX Jc(6, 2), Jf(6, 4);
    toolJacobian(mc, dc, Jc);
    toolJacobian(mf, df, Jf);
    CHECK((Jc - Jf * E).cwiseAbs().maxCoeff() < 1e-14);
    CHECK((toolJacobianDotTimesQdot(mc, dc, qd) - toolJacobianDotTimesQdot(mf, df, qdf)).cwiseAbs().maxCoeff() < 1e-13);
    Influence Ic, If;
    toolInfluence(mc, dc, Ic, 3);
    toolInfluence(mf, df, If, 3);
    for (int p = 0; p < 6; ++p)
      for (int a = 0; a < 2; ++a)
        for (int b = 0; b < 2; ++b) {
          double h = 0;
          for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) h += E(i, a) * E(j, b) * If.H(p, i, j);
          CHECK(Ic.H(p, a, b) == Approx(h).margin(1e-13));
          for (int e = 0; e < 2; ++e) {
            double dd = 0;
            for (int l = 0; l < 4; ++l)
              for (int i = 0; i < 4; ++i)
                for (int j = 0; j < 4; ++j) dd += E(l, e) * E(i, a) * E(j, b) * If.D(p, l, i, j);
            CHECK(Ic.D(p, e, a, b) == Approx(dd).margin(1e-12));
          }
        }
    DynamicsOptions o;
    VecX tc(2), tf(4);
    inverseDynamics(mc, dc, q, qd, qdd, o, tc);
    inverseDynamics(mf, df, qf, qdf, qddf, o, tf);
    CHECK((tc - E.transpose() * tf).cwiseAbs().maxCoeff() < 1e-12);
    MatX Mc(2, 2), Mf(4, 4);
    massMatrix(mc, dc, q, o, Mc);
    massMatrix(mf, df, qf, o, Mf);
    CHECK((Mc - E.transpose() * Mf * E).cwiseAbs().maxCoeff() < 1e-12);
  }
}

TEST_CASE("joint model: bad mimic and law declarations are named", "[joint]") {
  auto err = [](const std::string& joints) {
    try {
      modelFromJsonString(R"({"schema_version": 1, "joints": [)" + joints + "]}");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(err(R"({"name": "a", "kind": "R"}, {"kind": "R", "mimic": {"joint": "b"}})"),
             Catch::Contains("joints[1].mimic.joint") && Catch::Contains("no joint is named 'b'"));
  CHECK_THAT(err(R"({"name": "a", "kind": "R", "mimic": {"joint": 0}})"), Catch::Contains("joints[0].mimic.joint"));
  CHECK_THAT(err(R"({"kind": "law"})"), Catch::Contains("joints[0].law") && Catch::Contains("missing"));
  CHECK_THAT(err(R"({"kind": "R", "law": {"c": [1]}})"), Catch::Contains("only a joint of kind 'law'"));
  CHECK_THAT(err(R"({"kind": "law", "law": {"sine": [{"frequency": 1}]}})"), Catch::Contains("amplitude"));
  CHECK_THAT(err(R"({"kind": "fixed"})"), Catch::Contains("at least one joint with a coordinate"));
}

TEST_CASE("joint model: placeLink is pre·Rz(θ)·Tz(dz)·post in each placement form, against the textbook formulas",
          "[joint][placement]") {
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> U(-2.0, 2.0);
  auto near = [](const SE3& A, const SE3& B) { return (A.R - B.R).norm() + (A.p - B.p).norm(); };
  SE3 parent;
  parent.R = Eigen::AngleAxisd(U(rng), Vec3(U(rng), U(rng), U(rng)).normalized()).toRotationMatrix();
  parent.p = Vec3(U(rng), U(rng), U(rng));
  Joint j;
  j.kind = JointKind::H;
  j.pitch = 0.013;
  j.a = 0.31;
  j.alpha = -0.83;
  j.d = 0.12;
  j.theta_f = 0.4;
  const double q = 1.1, th = j.theta_f + q, dz = j.d + j.pitch * q;
  const SE3 motion = rotZ(th) * translation(Vec3(0, 0, dz));
  for (DHConvention conv : {DHConvention::Standard, DHConvention::Modified}) {
    const JointModel jm = makeJointModel(j, conv, 0);
    const bool standard = conv == DHConvention::Standard;
    CHECK(jm.pre.form == (standard ? FixedTransform::Identity : FixedTransform::XForm));
    CHECK(jm.post.form == (standard ? FixedTransform::XForm : FixedTransform::Identity));
    JointState js;
    jm.evaluate(q, js);
    SE3 axis, link;
    jm.placeLink(parent, js, axis, link);
    // Standard (distal): Rz(θ) Tz(d) Tx(a) Rx(α); modified (proximal): Rx(α) Tx(a) Rz(θ) Tz(d).
    const SE3 dh = rotX(j.alpha) * translation(Vec3(j.a, 0, 0));
    const SE3 textbook = standard ? parent * motion * translation(Vec3(j.a, 0, 0)) * rotX(j.alpha) : parent * dh * motion;
    CHECK(near(link, textbook) < 1e-14);
    CHECK(near(axis, standard ? parent : parent * dh) < 1e-14);
    // from the identity: the link frame in its parent's, pre·Rz(θ)·Tz(dz)·post
    jm.placeLink(SE3::Identity(), js, axis, link);
    CHECK(near(link, standard ? motion * dh : dh * motion) < 1e-14);
  }
  // origin/axis (URDF): the link frame is origin·Rot(axis, θ)·Trans(axis·dz).
  j.has_origin = true;
  j.a = j.alpha = 0;
  j.origin.R = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  j.origin.p = Vec3(0.1, -0.2, 0.3);
  j.axis = Vec3(0.3, -0.4, 0.5).normalized();
  const JointModel jm = makeJointModel(j, DHConvention::Standard, 0);
  CHECK(jm.pre.form == FixedTransform::General);
  CHECK(jm.post.form == FixedTransform::Rotation);
  JointState js;
  jm.evaluate(q, js);
  SE3 axis, link;
  jm.placeLink(parent, js, axis, link);
  SE3 urdf;
  urdf.R = Eigen::AngleAxisd(th, j.axis).toRotationMatrix();
  urdf.p = dz * j.axis;
  CHECK(near(link, parent * j.origin * urdf) < 1e-14);
  CHECK(std::abs(axis.R.col(2).dot(parent.R * j.origin.R * j.axis) - 1) < 1e-14);
  // The forms: the cheapest that reproduces the transform exactly, and toSE3 gives it back bit for bit.
  CHECK(FixedTransform::of(SE3::Identity()).form == FixedTransform::Identity);
  CHECK(FixedTransform::of(SE3{parent.R, Vec3::Zero()}).form == FixedTransform::Rotation);
  CHECK(FixedTransform::of(parent).form == FixedTransform::General);
  CHECK(FixedTransform::of(parent).toSE3() == parent);
  const FixedTransform X = FixedTransform::xform(-0.83, 0.31);
  CHECK(X.toSE3() == rotX(-0.83) * translation(Vec3(0.31, 0, 0)));
}

TEST_CASE("joint model: isAngular(kind) and JointModel::angular() give one answer for every kind", "[joint]") {
  for (JointKind k : {JointKind::R, JointKind::P, JointKind::H, JointKind::A, JointKind::Law, JointKind::Fixed}) {
    Joint j;
    j.kind = k;
    j.rho = 0.1;
    j.pitch = 0.01;
    j.law.c1 = 0.02;
    INFO(toString(k));
    CHECK(isAngular(k) == makeJointModel(j, DHConvention::Standard, k == JointKind::Fixed ? -1 : 0).angular());
  }
  CHECK_FALSE(isAngular(JointKind::Fixed));  // was true before issue 31
  CHECK_FALSE(isAngular(JointKind::P));
}
