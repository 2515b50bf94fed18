// A chain with flexible links (flexibility/flexible_chain.hpp; Tesar & Graves §2.1–2.3): deflected kinematics and its
// Jacobian against finite differences, I* against the composite-rigid-body mass matrix in the rigid limit and
// against the kinetic energy of every link's local inertia, the locked-joint modes of a cantilever against the
// link alone and Euler–Bernoulli, the static tip deflection against F·L³/(3EI), and the space arm of §3.1.
#include <catch2/catch.hpp>
#include <Eigen/Geometry>
#include <atomic>
#include <cmath>
#include <random>

#include <achain/dynamics/crba.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/flexibility/flexible_chain.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/io/flexible_json.hpp>
#include <achain/io/json_text.hpp>
#include <achain/io/model_json.hpp>
#include <achain/io/robot.hpp>
#include "test_scale.hpp"

using namespace achain;
using nlohmann::json;

namespace {

/// A robot JSON's model and its flexible chain (which refers to the model: neither copied nor moved).
struct ChainOf {
  explicit ChainOf(const json& j) : model(modelFromJson(j)), chain(makeFlexibleChain(model, flexibleLinksFromJson(j, model).links)) {}
  ChainOf(const ChainOf&) = delete;
  Model model;
  FlexibleChain chain;
};

json builtinJson(const std::string& name) {
  for (const auto& r : builtinRobots())
    if (r.name == name) return json::parse(r.json);
  throw Error(name + " missing");
}

/// One revolute joint (axis z at the base) carrying a uniform beam of length L along x; the tool at the tip.
json cantilever(double L, double mass, double ei_y, double ei_z, double gj, double J, const json& modes) {
  return {{"schema_version", 1},
          {"name", "beam"},
          {"gravity", {0, 0, 0}},
          {"joints", {{{"kind", "R"}, {"origin", {{"xyz", {0, 0, 0}}}},
                       {"link", {{"mass", mass}, {"com", {L / 2, 0, 0}}, {"inertia", {J, mass * L * L / 12, mass * L * L / 12, 0, 0, 0}}}},
                       {"flexible", {{"length", L}, {"ei_y", ei_y}, {"ei_z", ei_z}, {"gj", gj}, {"torsional_inertia", J}, {"modes", modes}}}}}},
          {"tool", {{"xyz", {L, 0, 0}}}}};
}

Vec3 rotationVector(const Mat3& R) {
  const Eigen::AngleAxisd aa(R);
  return aa.angle() * aa.axis();
}

VecX randomState(const FlexibleChain& c, std::mt19937& rng, double modal) {
  std::uniform_real_distribution<double> u(-1, 1);
  VecX phi(c.dof);
  for (int i = 0; i < c.dof; ++i) phi[i] = (i < c.nv ? M_PI : modal) * u(rng);
  return phi;
}

}  // namespace

TEST_CASE("flexible chain: rigid limit, I* equals the CRBA mass matrix", "[dynamics][flex]") {
  std::mt19937 rng(7);
  for (const char* name : {"prototype-4a", "puma560", "stanford", "space-arm"}) {
    const Model m = builtinModel(name);
    const FlexibleChain c = makeFlexibleChain(m, {});  // no flexible link
    REQUIRE(c.dof == m.nv);
    FlexibleChainData fd(c);
    Data data(m);
    DynamicsOptions opt;
    opt.legs = LegModel::Massless;
    MatX M(m.nv, m.nv);
    double worst = 0;
    for (int trial = 0; trial < 5; ++trial) {
      const VecX q = randomState(c, rng, 0);
      flexibleMassMatrix(c, fd, q);
      massMatrix(m, data, q, opt, M);
      worst = std::max(worst, (fd.I - M).cwiseAbs().maxCoeff() / std::max(1.0, M.cwiseAbs().maxCoeff()));
      // the rigid frames are the rigid forward kinematics
      forwardKinematics(m, data, q);
      CHECK((fd.oMtool.p - data.oMtool.p).norm() < 1e-12 * std::max(1.0, data.oMtool.p.norm()));
    }
    INFO(name << ": max |I* - M| / max|M| = " << worst);
    CHECK(worst < 1e-10);
  }
}

TEST_CASE("flexible chain: the Jacobian is the derivative of the deflected forward kinematics", "[dynamics][flex]") {
  const ChainOf arm(builtinJson("space-arm"));
  const FlexibleChain& c = arm.chain;
  REQUIRE(c.nv == 6);
  REQUIRE(c.nf == 10);
  FlexibleChainData d(c), e(c);
  std::mt19937 rng(3);
  const double h = 1e-6;
  double worst = 0;
  for (int trial = 0; trial < 3; ++trial) {
    const VecX phi = randomState(c, rng, 0.3);  // bending up to 0.3 m, torsion up to 0.3 rad
    flexibleJacobians(c, d, phi);
    for (int col = 0; col < c.dof; ++col) {
      VecX a = phi, b = phi;
      a[col] += h;
      b[col] -= h;
      flexibleKinematics(c, e, a);
      const std::vector<SE3> fa = e.oMi;
      const SE3 ta = e.oMtool;
      flexibleKinematics(c, e, b);
      for (int i = 0; i <= c.model().njoints(); ++i) {
        const bool tool = i == c.model().njoints();
        const SE3& A = tool ? ta : fa[i];
        const SE3& B = tool ? e.oMtool : e.oMi[i];
        const MatX& J = tool ? d.J_tool : d.J[i];
        const Vec3 v = (A.p - B.p) / (2 * h);
        const Vec3 w = rotationVector(A.R * B.R.transpose()) / (2 * h);
        worst = std::max(worst, (v - J.block<3, 1>(0, col)).norm());
        worst = std::max(worst, (w - J.block<3, 1>(3, col)).norm());
      }
    }
  }
  INFO("max |J - finite difference| = " << worst);
  CHECK(worst < 1e-6);
}

TEST_CASE("flexible chain: I* is symmetric positive definite and gives each link's local kinetic energy", "[dynamics][flex]") {
  const ChainOf arm(builtinJson("space-arm"));
  const FlexibleChain& c = arm.chain;
  FlexibleChainData d(c), e(c);
  std::mt19937 rng(11);
  for (int trial = 0; trial < 4; ++trial) {
    const VecX phi = randomState(c, rng, 0.2), rate = randomState(c, rng, 1.0);
    flexibleMassMatrix(c, d, phi);
    CHECK((d.I - d.I.transpose()).cwiseAbs().maxCoeff() < 1e-12 * d.I.cwiseAbs().maxCoeff());
    const Eigen::LLT<MatX> llt(d.I);
    CHECK(llt.info() == Eigen::Success);
    const double ke = 0.5 * rate.dot(d.I * rate);
    // Σ_i ½·xᵢᵀ·ᶦIᵢ·xᵢ, xᵢ = (link-frame velocity of the origin, angular velocity, own modal rates), the velocities
    // by central differences of the deflected forward kinematics along the rate
    const double h = 1e-6;
    flexibleKinematics(c, e, phi + h * rate);
    const std::vector<SE3> fa = e.oMi;
    flexibleKinematics(c, e, phi - h * rate);
    double sum = 0;
    for (int i = 0; i < c.model().njoints(); ++i) {
      const Mat3& R = d.oMi[i].R;
      const Vec3 v = R.transpose() * (fa[i].p - e.oMi[i].p) / (2 * h);
      const Vec3 w = R.transpose() * rotationVector(fa[i].R * e.oMi[i].R.transpose()) / (2 * h);
      const int k = c.flex_of_joint[i];
      const Inertial& b = c.model().joints[i].link;
      if (k < 0) {
        const Vec3 vc = v + w.cross(b.com);
        sum += 0.5 * b.mass * vc.squaredNorm() + 0.5 * w.dot(b.inertia * w);
      } else {
        const MatX A = c.matrices[k].localInertia();
        VecX x(A.rows());
        x << v, w, rate.segment(c.offset[k], A.rows() - 6);
        sum += 0.5 * x.dot(A * x);
      }
    }
    CHECK(ke == Approx(sum).epsilon(1e-7));
  }
}

TEST_CASE("flexible chain: locked-joint modes of a cantilever = the link alone, Euler-Bernoulli", "[dynamics][flex]") {
  const double L = 2.0, mass = 3.0, ei = 400.0, gj = 150.0, J = 0.02;
  for (const json& modes : {json("cubic"), json{{"family", "monomial"}, {"n", 4}, {"torsion", true}}}) {
    const ChainOf arm(cantilever(L, mass, ei, ei, gj, J, modes));
  const FlexibleChain& c = arm.chain;
    FlexibleChainData d(c);
    const NaturalModes chain = flexibleChainModes(c, d, VecX::Constant(1, 0.7));
    const NaturalModes alone = clampedLinkModes(c.matrices[0]);
    REQUIRE(chain.omega.size() == alone.omega.size());
    for (Eigen::Index k = 0; k < chain.omega.size(); ++k) CHECK(chain.omega[k] == Approx(alone.omega[k]).epsilon(1e-12));
    const double eb = 1.8751040687119611 * 1.8751040687119611 * std::sqrt(ei / (mass * L * L * L));
    const double err = chain.omega[0] / eb - 1;
    INFO("first bending vs Euler-Bernoulli: " << err);
    if (modes.is_string()) CHECK(err == Approx(0.00475).margin(1e-4));  // two-mode Ritz (docs/flexible.md)
    else CHECK(std::abs(err) < 2e-6);                                    // four modes: +1.5e-6
    CHECK(err > 0);                                                      // Ritz: an upper bound
  }
}

TEST_CASE("flexible chain: static tip deflection of a cantilever is F L^3/(3EI) and M L/GJ", "[dynamics][flex]") {
  const double L = 1.5, mass = 2.0, ei_y = 500.0, ei_z = 800.0, gj = 300.0, J = 0.01;
  const ChainOf arm(cantilever(L, mass, ei_y, ei_z, gj, J, "cubic"));
  const FlexibleChain& c = arm.chain;
  FlexibleChainData d(c);
  const VecX q = VecX::Zero(1);
  const FlexibleStaticResult fy = flexibleStaticDeflection(c, d, q, Vec3(0, 10, 0), Vec3::Zero());
  // u² and u³ span the exact cubic deflection of a tip-loaded cantilever: exact to round-off
  CHECK(fy.deflection.tool_displacement.y() == Approx(10 * L * L * L / (3 * ei_y)).epsilon(1e-12));
  CHECK(std::abs(fy.deflection.tool_displacement.x()) < 1e-15);
  CHECK(fy.deflection.tool_rotation_error == 0);  // bending modes carry no rotation
  const FlexibleStaticResult fz = flexibleStaticDeflection(c, d, q, Vec3(0, 0, -7), Vec3::Zero());
  CHECK(fz.deflection.tool_displacement.z() == Approx(-7 * L * L * L / (3 * ei_z)).epsilon(1e-12));
  // torsion: θ = M·L/GJ; 4° raises the 3° flag, not the 5° one
  const double M = 4 * M_PI / 180 * gj / L;
  const FlexibleStaticResult mx = flexibleStaticDeflection(c, d, q, Vec3::Zero(), Vec3(M, 0, 0));
  CHECK(mx.deflection.max_link_rotation == Approx(M * L / gj).epsilon(1e-12));
  CHECK(mx.deflection.tool_rotation_error == Approx(M * L / gj).epsilon(1e-12));
  CHECK(mx.deflection.above_3deg);
  CHECK_FALSE(mx.deflection.above_5deg);
  CHECK(mx.deflection.max_rotation_joint == 0);
  // the joint's own coordinate is locked: a force along the joint's lever changes nothing about it
  CHECK(fy.phi[0] == 0);
}

TEST_CASE("flexible chain: the space arm's geometry and coupled modes at configurations #1 and #2", "[dynamics][flex]") {
  const ChainOf arm(builtinJson("space-arm"));
  const FlexibleChain& c = arm.chain;
  FlexibleChainData d(c);
  VecX q1 = VecX::Zero(6), q2 = VecX::Zero(6);
  q2[2] = M_PI / 2;  // joint 3 (the elbow)
  flexibleKinematics(c, d, (VecX(16) << q1, VecX::Zero(10)).finished());
  CHECK(d.oMi[1].R.col(0).dot(d.oMi[2].R.col(0)) == Approx(1).epsilon(1e-14));  // #1: booms in line
  flexibleKinematics(c, d, (VecX(16) << q2, VecX::Zero(10)).finished());
  CHECK(std::abs(d.oMi[1].R.col(0).dot(d.oMi[2].R.col(0))) < 1e-14);  // #2: the elbow at 90°
  const NaturalModes m1 = flexibleChainModes(c, d, q1), m2 = flexibleChainModes(c, d, q2);
  const double link2_alone = clampedLinkModes(c.matrices[0]).omega[0];
  for (const NaturalModes* m : {&m1, &m2}) {
    REQUIRE(m->omega.size() == 10);
    // The locked arm's lowest mode is below link 2's clamped first bending: a trial shape of link 2's modes alone has
    // the same strain energy and more kinetic energy (links 3–6 ride on its tip), so Rayleigh's quotient falls.
    CHECK(m->omega[0] > 0);
    CHECK(m->omega[0] < link2_alone);
  }
  std::string f1, f2;
  for (Eigen::Index k = 0; k < 10; ++k) {
    f1 += std::to_string(m1.omega[k] / (2 * M_PI)) + " ";
    f2 += std::to_string(m2.omega[k] / (2 * M_PI)) + " ";
  }
  WARN("space arm, joints locked, base fixed: #1 " << f1 << "Hz; #2 " << f2 << "Hz; link 2 alone " << link2_alone / (2 * M_PI) << " Hz");
  CHECK(std::abs(m1.omega[0] - m2.omega[0]) > 1e-3 * m1.omega[0]);  // configuration dependence
}

TEST_CASE("flexible chain: errors", "[dynamics][flex]") {
  const json j = builtinJson("space-arm");
  const Model m = modelFromJson(j);
  std::vector<FlexibleLinkEntry> links = flexibleLinksFromJson(j, m).links;
  std::vector<FlexibleLinkEntry> twice = {links[0], links[0]};
  CHECK_THROWS_WITH(makeFlexibleChain(m, twice), "flexible link 1: joint 1 already has a flexible link");
  links[0].joint = 9;
  CHECK_THROWS_WITH(makeFlexibleChain(m, links), "flexible link 0: joint index 9 out of range (0…5)");
  const FlexibleChain c = makeFlexibleChain(m, flexibleLinksFromJson(j, m).links);
  FlexibleChainData d(c);
  CHECK_THROWS_WITH(flexibleKinematics(c, d, VecX::Zero(6)), "flexible chain: phi must have 16 entries (6 joint + 10 modal + 0 base), got 6");
  CHECK_THROWS_WITH(flexibleChainModes(c, d, VecX::Zero(5)), "flexible chain: q must have 6 joint values, got 5");
  const FlexibleChain rigid = makeFlexibleChain(m, {});
  FlexibleChainData dr(rigid);
  CHECK_THROWS_WITH(flexibleChainModes(rigid, dr, VecX::Zero(6)), "flexible chain: the chain has no flexible link (no modal coordinates)");
}

TEST_CASE("flexible chain dynamics: rigid limit, c and tau equal the RNEA's", "[dynamics][flex]") {
  std::mt19937 rng(5);
  for (const char* name : {"prototype-4a", "puma560", "space-arm"}) {
    const Model m = builtinModel(name);
    const FlexibleChain c = makeFlexibleChain(m, {});
    FlexibleChainData fd(c);
    Data data(m);
    DynamicsOptions opt;
    opt.legs = LegModel::Massless;
    opt.override_gravity = true;  // the flexible chain has no gravity
    VecX b(m.nv), fb(m.nv), tau(m.nv), ftau(m.nv);
    double worst = 0;
    for (int trial = 0; trial < 4; ++trial) {
      const VecX q = randomState(c, rng, 0), qd = randomState(c, rng, 0), qdd = randomState(c, rng, 0);
      biasTorques(m, data, q, qd, opt, b);
      flexibleBiasForces(c, fd, q, qd, fb);
      inverseDynamics(m, data, q, qd, qdd, opt, tau);
      flexibleInverseDynamics(c, fd, q, qd, qdd, ftau);
      const double scale = std::max(1.0, tau.cwiseAbs().maxCoeff());
      worst = std::max({worst, (fb - b).cwiseAbs().maxCoeff() / scale, (ftau - tau).cwiseAbs().maxCoeff() / scale});
    }
    INFO(name << ": max |c - C qd| and |tau - RNEA| / max|tau| = " << worst);
    CHECK(worst < 1e-7);
  }
}

TEST_CASE("flexible chain dynamics: forward of inverse is the identity, energy is conserved", "[dynamics][flex]") {
  const ChainOf arm(builtinJson("space-arm"));
  const FlexibleChain& c = arm.chain;
  FlexibleChainData d(c);
  std::mt19937 rng(21);
  for (int trial = 0; trial < 3; ++trial) {
    const VecX phi = randomState(c, rng, 0.05), rate = randomState(c, rng, 0.5), acc = randomState(c, rng, 2.0);
    VecX tau(c.dof), back(c.dof);
    flexibleInverseDynamics(c, d, phi, rate, acc, tau);
    flexibleForwardDynamics(c, d, phi, rate, tau, back);
    CHECK((back - acc).cwiseAbs().maxCoeff() < 1e-9 * acc.cwiseAbs().maxCoeff());
  }
  // Free motion (τ = 0, no damping, no gravity): ½φ̇ᵀI*φ̇ + ½φᵀK*φ stays; RK4 is fourth order, so halving the step
  // cuts the drift about 16 times.
  VecX phi0 = VecX::Zero(c.dof), rate0 = VecX::Zero(c.dof);
  for (int i = 0; i < c.nv; ++i) rate0[i] = 0.05 * (i + 1);   // joints swinging (rad/s)
  for (int i = c.nv; i < c.dof; ++i) phi0[i] = 0.01;          // links bent 1 cm, twisted 0.01 rad
  const double dt = flexibleStableStep(c, d, phi0);
  const VecX zero = VecX::Zero(c.dof);
  auto drift = [&](double h, double T) {
    VecX phi = phi0, rate = rate0;
    const double e0 = flexibleEnergy(c, d, phi, rate);
    double worst = 0;
    const int n = static_cast<int>(std::round(T / h));
    for (int k = 0; k < n; ++k) {
      flexibleStep(c, d, phi, rate, zero, h);
      worst = std::max(worst, std::abs(flexibleEnergy(c, d, phi, rate) - e0) / e0);
    }
    return worst;
  };
  const double full = drift(dt, 0.1), half = drift(dt / 2, 0.1);
  WARN("space arm free motion 0.1 s: dt = " << dt << " s, relative energy drift " << full << " (dt), " << half << " (dt/2)");
  CHECK(full < 1e-4);
  CHECK(half < full / 8);
}

TEST_CASE("flexible chain dynamics: free vibration at the linearised frequency", "[dynamics][flex]") {
  // A free revolute joint carrying a flexible beam and, on a fixed joint at its tip, a rigid body 0.4 m on: a small
  // start along the first flexible mode of det(K* − ω²·I*) = 0 over all coordinates (the joint free) rings at that
  // frequency (I* varies with the deflection only at second order).
  json j = cantilever(1.2, 2.0, 300.0, 500.0, 200.0, 0.01, "cubic");
  j["joints"].push_back({{"kind", "fixed"}, {"origin", {{"xyz", {1.2, 0, 0}}}},
                         {"link", {{"mass", 0.8}, {"com", {0.4, 0.1, 0}}, {"inertia", {0.01, 0.02, 0.02, 0, 0, 0}}}}});
  j["tool"] = {{"xyz", {0.4, 0, 0}}, {"link", 1}};
  const ChainOf arm(j);
  const FlexibleChain& c = arm.chain;
  REQUIRE(c.nv == 1);
  FlexibleChainData d(c);
  const VecX zero = VecX::Zero(c.dof);
  flexibleMassMatrix(c, d, zero);
  const NaturalModes modes = naturalModes(c.K, d.I);
  CHECK(modes.omega[0] < 1e-5 * modes.omega[1]);  // the joint's rigid-body mode
  const double w1 = modes.omega[1];
  const VecX shape = modes.shapes.col(1);
  VecX phi = 1e-5 * shape / shape.cwiseAbs().maxCoeff(), rate = VecX::Zero(c.dof);
  const double h = flexibleStableStep(c, d, zero);
  Eigen::Index big;
  shape.tail(c.nf).cwiseAbs().maxCoeff(&big);
  big += c.nv;
  double t = 0, prev = phi[big];
  std::vector<double> crossings;  // upward zero crossings of the mode's largest modal coordinate
  while (crossings.size() < 4 && t < 50 * 2 * M_PI / w1) {
    flexibleStep(c, d, phi, rate, zero, h);
    t += h;
    if (prev < 0 && phi[big] >= 0) crossings.push_back(t - h * phi[big] / (phi[big] - prev));
    prev = phi[big];
  }
  REQUIRE(crossings.size() == 4);
  const double period = (crossings[3] - crossings[0]) / 3;
  INFO("simulated " << 2 * M_PI / period << " rad/s, linearised " << w1);
  CHECK(2 * M_PI / period == Approx(w1).epsilon(1e-3));
}

TEST_CASE("flexible chain dynamics: joints locked, the space arm rings at its coupled frequency", "[dynamics][flex]") {
  // Configuration #1, joints held; a small start along the first coupled mode of flexibleChainModes rings at it.
  const ChainOf arm(builtinJson("space-arm"));
  const FlexibleChain& c = arm.chain;
  FlexibleChainData d(c);
  const NaturalModes modes = flexibleChainModes(c, d, VecX::Zero(6));
  const VecX shape = modes.shapes.col(0);
  VecX phi = VecX::Zero(c.dof), rate = VecX::Zero(c.dof);
  phi.tail(c.nf) = 1e-5 * shape / shape.cwiseAbs().maxCoeff();
  const double h = flexibleStableStep(c, d, phi, true);
  const VecX zero = VecX::Zero(c.dof);
  Eigen::Index big;
  shape.cwiseAbs().maxCoeff(&big);
  big += c.nv;
  // Zero crossings both ways, interpolated: the first and the third are one period apart (1.25 periods simulated).
  double t = 0, prev = phi[big];
  std::vector<double> crossings;
  while (crossings.size() < 3 && t < 5) {
    flexibleStep(c, d, phi, rate, zero, h, true);
    t += h;
    if ((prev < 0) != (phi[big] < 0)) crossings.push_back(t - h * phi[big] / (phi[big] - prev));
    prev = phi[big];
  }
  REQUIRE(crossings.size() == 3);
  CHECK(phi.head(c.nv).cwiseAbs().maxCoeff() == 0);  // held
  CHECK(2 * M_PI / (crossings[2] - crossings[0]) == Approx(modes.omega[0]).epsilon(1e-3));
  rate[0] = 0.1;
  VecX acc(c.dof);
  CHECK_THROWS_WITH(flexibleForwardDynamics(c, d, phi, rate, zero, acc, true), "flexible chain: with the joints locked their rates must be zero");
}

TEST_CASE("flexible chain: translating base, centre of mass, momentum, free-free modes", "[dynamics][flex]") {
  const json j = builtinJson("space-arm");
  const Model m = modelFromJson(j);
  const std::vector<FlexibleLinkEntry> links = flexibleLinksFromJson(j, m).links;
  const double slug = 14.593902937206;
  FlexibleChainOptions opt;
  opt.translating_base = true;
  opt.base_mass = 20 * slug;  // light, so that the base moves visibly (the spacecraft is 6.39e3 slug)
  const FlexibleChain c = makeFlexibleChain(m, links, opt);
  REQUIRE(c.dof == 19);  // 6 joints + 10 modal + 3 base: the paper's count with a translating base
  FlexibleChainData d(c), e(c);
  std::mt19937 rng(4);
  // the CoM Jacobian is the derivative of the CoM
  const VecX phi = randomState(c, rng, 0.2);
  MatX Jc;
  flexibleCenterOfMass(c, d, phi, &Jc);
  const double h = 1e-6;
  double worst = 0;
  for (int col = 0; col < c.dof; ++col) {
    VecX a = phi, b = phi;
    a[col] += h;
    b[col] -= h;
    worst = std::max(worst, ((flexibleCenterOfMass(c, e, a) - flexibleCenterOfMass(c, e, b)) / (2 * h) - Jc.col(col)).norm());
  }
  INFO("CoM Jacobian vs differences: " << worst);
  CHECK(worst < 1e-8);
  // undeflected: the base rows of I* are the total mass times the CoM Jacobian (the base moves everything rigidly)
  VecX phi0 = phi;
  phi0.segment(c.nv, c.nf).setZero();
  flexibleCenterOfMass(c, d, phi0, &Jc);
  double total = c.base_mass;
  for (const Joint& jt : m.joints) total += jt.link.mass;
  flexibleMassMatrix(c, d, phi0);
  CHECK((d.I.bottomRows(3) - total * Jc).cwiseAbs().maxCoeff() < 1e-10 * d.I.cwiseAbs().maxCoeff());
  // free motion, no load: the base's generalized momentum (the model's linear momentum) and the energy stay
  VecX p = VecX::Zero(c.dof), v = VecX::Zero(c.dof);
  for (int i = 0; i < c.nv; ++i) v[i] = 0.05 * (i + 1);
  for (int i = c.nv; i < c.nv + c.nf; ++i) p[i] = 0.01;
  const VecX zero = VecX::Zero(c.dof);
  flexibleMassMatrix(c, d, p);
  const Vec3 mom0 = (d.I * v).tail(3);
  const double e0 = flexibleEnergy(c, d, p, v), dt = flexibleStableStep(c, d, p);
  double drift = 0;
  for (int k = 0; k < 200; ++k) {
    flexibleStep(c, d, p, v, zero, dt);
    flexibleMassMatrix(c, d, p);
    drift = std::max(drift, ((d.I * v).tail(3) - mom0).norm() / (total * v.cwiseAbs().maxCoeff()));
  }
  INFO("momentum drift " << drift << ", base moved " << p.tail(3).norm() << " m");
  CHECK(drift < 1e-8);
  CHECK(p.tail(3).norm() > 1e-4);
  CHECK(flexibleEnergy(c, d, p, v) == Approx(e0).epsilon(1e-4));
  // joints locked, base free: three rigid translations at 0, then frequencies no lower than the fixed base's
  const FlexibleChain fixed = makeFlexibleChain(m, links);
  FlexibleChainData df(fixed);
  const NaturalModes free = flexibleChainModes(c, d, VecX::Zero(6)), held = flexibleChainModes(fixed, df, VecX::Zero(6));
  REQUIRE(free.omega.size() == 13);
  for (int k = 0; k < 3; ++k) CHECK(free.omega[k] < 1e-5 * free.omega[12]);
  for (int k = 0; k < 10; ++k) CHECK(free.omega[k + 3] >= held.omega[k] * (1 - 1e-12));  // removing a constraint
  // the spacecraft's mass: the base hardly moves, the frequencies are the fixed base's within 1 %
  opt.base_mass = 6.39e3 * slug;
  const FlexibleChain heavy = makeFlexibleChain(m, links, opt);
  FlexibleChainData dh(heavy);
  const NaturalModes hm = flexibleChainModes(heavy, dh, VecX::Zero(6));
  for (int k = 0; k < 10; ++k) CHECK(hm.omega[k + 3] == Approx(held.omega[k]).epsilon(1e-2));
  WARN("space arm #1, base translating (6.39e3 slug): first " << hm.omega[3] / (2 * M_PI) << " Hz (fixed base " << held.omega[0] / (2 * M_PI) << ")");
  CHECK_THROWS_WITH(flexibleStaticDeflection(c, d, VecX::Zero(6), Vec3(1, 0, 0), Vec3::Zero()),
                    "flexible static deflection: a translating base has no static equilibrium under a load");
  opt.base_mass = 0;
  CHECK_THROWS_WITH(makeFlexibleChain(m, links, opt), "flexible chain: a translating base needs a positive, finite base_mass (got 0.000000)");
}

TEST_CASE("flexible chain: a link's drawn centreline ends at the next frame, straight without deflection", "[dynamics][flex]") {
  const ChainOf arm(builtinJson("space-arm"));
  const FlexibleChain& c = arm.chain;
  FlexibleChainData d(c);
  std::mt19937 rng(7);
  const VecX phi = randomState(c, rng, 0.3);
  for (int joint : c.joint) {
    const FlexibleLinkCurve k = flexibleLinkCurve(c, d, phi, joint, 21);
    REQUIRE(k.deflected.cols() == 21);
    REQUIRE(k.u.front() == 0);
    REQUIRE(k.u.back() == 1);
    flexibleKinematics(c, d, phi);
    // the root is the link's frame; the tip is data.tip and the origin of the joint it carries (x = L in the file)
    CHECK((k.deflected.col(0) - d.oMi[joint].p).norm() < 1e-12);
    CHECK((k.deflected.col(20) - d.tip[joint]).norm() < 1e-12 * d.tip[joint].norm());
    CHECK((k.deflected.col(20) - d.oMi[joint + 1].p).norm() < 1e-12 * d.tip[joint].norm());
    // the rigid reference: a straight beam of length L along the rigid chain's link x axis
    const double L = c.links[c.flex_of_joint[joint]].length;
    CHECK((k.rigid.col(20) - k.rigid.col(0)).norm() == Approx(L).epsilon(1e-12));
    for (int s = 0; s < 21; ++s)
      CHECK((k.rigid.col(s) - k.rigid.col(0) - k.u[s] * (k.rigid.col(20) - k.rigid.col(0))).norm() < 1e-12 * L);
  }
  // modes zero: the deflected curve is the rigid one, a straight line
  VecX rigid = phi;
  rigid.tail(c.nf).setZero();
  const FlexibleLinkCurve s = flexibleLinkCurve(c, d, rigid, c.joint[0], 5);
  CHECK((s.deflected - s.rigid).norm() == 0);
  // the shape along the beam: the clamped cubic u² at the stations
  const std::vector<double> f = modeShapeValues(c.links[0].modes[0], {0, 0.5, 1});
  CHECK(f[0] == 0);
  CHECK(f[1] == Approx(0.25).epsilon(1e-15));
  CHECK(f[2] == Approx(c.tip_translation[0](1, 0)).epsilon(1e-15));
  AssumedMode table;
  table.u_samples = {0, 0.25, 0.5, 0.75, 1};
  table.values = {0, 0.0625, 0.25, 0.5625, 1};  // u², reproduced exactly by the clamped spline
  CHECK(modeShapeValues(table, {0.3})[0] == Approx(0.09).epsilon(1e-12));
  CHECK_THROWS_WITH(modeShapeValues(table, {1.5}), "modeShapeValues: u must lie in [0, 1] (got 1.500000)");
  CHECK_THROWS_WITH(flexibleLinkCurve(c, d, phi, 0, 5), "flexibleLinkCurve: joint 0 carries no flexible link");
  CHECK_THROWS_WITH(flexibleLinkCurve(c, d, phi, c.joint[0], 1), "flexibleLinkCurve: samples must be 2 … 100000 (got 1)");
  const std::vector<std::string> names = flexibleCoordinateNames(c);
  REQUIRE(names.size() == 10);
  CHECK(names[0] == "shoulder_pitch q1 (y bending)");
}

TEST_CASE("flexible chain: flexibleSimulate reports its progress and stops through it (Cancelled, naming the step)", "[dynamics][flex][progress]") {
  const ChainOf arm(builtinJson("space-arm"));
  const FlexibleChain& c = arm.chain;
  FlexibleChainData d(c);
  FlexibleSimulationOptions o;
  o.duration = test::scaled(0.2, 0.05);
  o.samples = 5;
  const VecX q = VecX::Zero(6);
  const Vec3 F(0, 2, 1), M(0.5, 0, 0);
  const FlexibleSimulation plain = flexibleSimulate(c, d, q, F, M, o);
  REQUIRE(plain.steps >= 100);
  // told every 1 % (or 1000 steps), non-decreasing to 1; the result unchanged by being watched
  std::vector<double> told;
  const FlexibleSimulation watched = flexibleSimulate(c, d, q, F, M, o, Progress([&](double f) {
    told.push_back(f);
    return true;
  }));
  const long tick = std::max(1L, std::min(plain.steps / 100, 1000L));
  CHECK(static_cast<long>(told.size()) == plain.steps / tick);
  for (size_t k = 1; k < told.size(); ++k) CHECK(told[k] >= told[k - 1]);
  CHECK(told.back() == Approx(static_cast<double>(plain.steps / tick * tick) / plain.steps));
  CHECK(watched.tool_displacement == plain.tool_displacement);
  CHECK(watched.modal == plain.modal);
  // a report returning false stops it: Cancelled, at the step it was asked
  int calls = 0;
  const Progress stop_at_30([&](double) { return ++calls < 30; });
  const std::string where = "flexibleSimulate: cancelled at step " + std::to_string(30 * tick) + " of " + std::to_string(plain.steps) + " (t = ";
  CHECK_THROWS_AS(flexibleSimulate(c, d, q, F, M, o, stop_at_30), Cancelled);
  calls = 0;
  CHECK_THROWS_WITH(flexibleSimulate(c, d, q, F, M, o, stop_at_30), Catch::StartsWith(where));
  // a stop flag set before the run: stopped at the first question
  std::atomic<bool> flag{true};
  CHECK_THROWS_WITH(flexibleSimulate(c, d, q, F, M, o, Progress(&flag)),
                    Catch::StartsWith("flexibleSimulate: cancelled at step " + std::to_string(tick) + " of "));
  // Data stays usable after a stop
  const FlexibleSimulation again = flexibleSimulate(c, d, q, F, M, o);
  CHECK(again.tool_displacement == plain.tool_displacement);
}

TEST_CASE("flexible chain: flexibleSimulate samples the RK4 response of flexibleStep", "[dynamics][flex]") {
  const ChainOf arm(builtinJson("space-arm"));
  const FlexibleChain& c = arm.chain;
  FlexibleChainData d(c);
  FlexibleSimulationOptions o;
  o.duration = test::scaled(0.2, 0.05);  // reduced sizes (sanitizer build): a quarter of the steps
  o.samples = 3;
  const VecX q = VecX::Zero(6);
  const Vec3 F(0, 2, 1), M(0.5, 0, 0);
  const FlexibleSimulation r = flexibleSimulate(c, d, q, F, M, o);
  REQUIRE(r.t.size() == 3);
  CHECK(r.t[2] == Approx(o.duration));
  // the same steps by hand
  VecX phi = VecX::Zero(c.dof), rate = VecX::Zero(c.dof), tau(c.dof);
  Eigen::Matrix<double, 6, 1> w;
  w << F, M;
  for (long k = 0; k < r.steps; ++k) {
    flexibleJacobians(c, d, phi);
    tau = d.J_tool.transpose() * w;
    flexibleStep(c, d, phi, rate, tau, r.dt, true);
  }
  CHECK((VecX(r.modal.row(2).transpose()) - phi.tail(c.nf)).norm() == 0);
  CHECK(r.peak_tool_deflection >= r.tool_displacement.row(2).norm());
  CHECK(r.base_translation.rows() == 0);
  o.load = flexibleLoadKindFromString("sine");
  CHECK_THROWS_WITH(flexibleSimulate(c, d, q, F, M, o), "flexibleSimulate: frequency: a sine load needs a positive frequency (Hz)");
  CHECK_THROWS_WITH(flexibleLoadKindFromString("ramp"), "load: expected step, pulse or sine (got 'ramp')");
}

TEST_CASE("flexible chain: a step beyond RK4's stability limit is refused, the limit itself runs bounded", "[dynamics][flex]") {
  // Before: flex-simulate --dt 0.0025 on the space arm ran to a deflection of 7e51 m, exit 0.
  const ChainOf arm(builtinJson("space-arm"));
  const FlexibleChain& c = arm.chain;
  FlexibleChainData d(c);
  const VecX q = VecX::Zero(6);
  const Vec3 F(0, 2, 1), M(0.5, 0, 0);
  const double h_auto = flexibleStableStep(c, d, VecX::Zero(c.dof), true);  // q = 0, links undeflected
  const double w_max = 2 * kPi / (20 * h_auto), limit = 2.5 / w_max;
  FlexibleSimulationOptions o;
  o.samples = 3;
  o.duration = 50 * limit;
  o.dt = 0.0025;
  REQUIRE(o.dt > limit);  // the audit's step is beyond the limit
  CHECK_THROWS_WITH(flexibleSimulate(c, d, q, F, M, o), Catch::Contains("dt: 0.0025 s is beyond RK4's stability limit"));
  o.dt = 1.5 * limit;
  CHECK_THROWS_WITH(flexibleSimulate(c, d, q, F, M, o), Catch::Contains("beyond RK4's stability limit"));
  // at the limit the stiffest mode stays bounded: the peak deflection is of the order of the automatic step's
  o.dt = limit;
  const double at_limit = flexibleSimulate(c, d, q, F, M, o).peak_tool_deflection;
  o.dt = 0;
  const double automatic = flexibleSimulate(c, d, q, F, M, o).peak_tool_deflection;
  INFO("peak deflection at the limit " << at_limit << " m, automatic " << automatic << " m");
  CHECK(std::isfinite(at_limit));
  CHECK(at_limit < 10 * automatic);
}
