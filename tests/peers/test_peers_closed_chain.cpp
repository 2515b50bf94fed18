// Freeman's five-bar (core/robots/five-bar.json, every link given mass): achain's closed-chain dynamics by
// model transfer against MuJoCo 2.2 simulating the same open chain with an equality (connect) constraint at
// the pin O2, at stiff constraint settings. The MJCF is written here with its bodies placed in the closed
// configuration, so that qpos = 0 is closed and MuJoCo's connect anchors coincide there. Compared: ÿ =
// (φ̈1, Σφ̈) (crank 1 and the tool angle) at rest on random configurations under gravity and a crank torque,
// and y after 0.2 s of free motion (achain closedChainStep against mj_step, RK4 both).
#include <mujoco/mujoco.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>

#include <achain/closed_chains/loop_closure.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/io/loop_json.hpp>
#include <achain/io/robot.hpp>
#include "mjcf_load.hpp"

using namespace achain;

namespace {

std::string builtinText(const std::string& name) {
  for (const auto& r : builtinRobots())
    if (r.name == name) return r.json;
  FAIL("no built-in " << name);
  return {};
}

/// The planar chain (α = d = 0, standard DH) as MJCF, bodies at the closed configuration q, the tool point
/// pinned to the world by a connect constraint with impedance `imp` (→ 1: a hard constraint).
std::string fiveBarMjcf(const Model& m, const VecX& q, double imp) {
  std::ostringstream x;
  x.precision(17);
  x << "<mujoco model='five-bar'><compiler angle='radian'/><option gravity='" << m.gravity.x() << ' ' << m.gravity.y()
    << ' ' << m.gravity.z() << "' timestep='0.0005' solver='Newton' tolerance='1e-15' iterations='500' jacobian='dense'/>"
    << "<worldbody>";
  for (int i = 0; i < m.njoints(); ++i) {
    const Joint& j = m.joints[i];
    const double px = i == 0 ? 0.0 : m.joints[i - 1].a;
    // body i: the frame of joint i's axis turned by θ_i; the DH frame i is this one shifted by a_i along x
    x << "<body name='b" << i << "' pos='" << px << " 0 0' euler='0 0 " << (j.theta_f + q[i]) << "'>"
      << "<joint name='j" << i << "' type='hinge' axis='0 0 1'/>"
      << "<inertial pos='" << j.a + j.link.com.x() << ' ' << j.link.com.y() << ' ' << j.link.com.z() << "' mass='"
      << j.link.mass << "' fullinertia='" << j.link.inertia(0, 0) << ' ' << j.link.inertia(1, 1) << ' '
      << j.link.inertia(2, 2) << ' ' << j.link.inertia(0, 1) << ' ' << j.link.inertia(0, 2) << ' '
      << j.link.inertia(1, 2) << "'/>";
  }
  for (int i = 0; i < m.njoints(); ++i) x << "</body>";
  x << "</worldbody><equality><connect body1='b" << m.njoints() - 1 << "' anchor='" << m.joints.back().a
    << " 0 0' solref='0.001 1' solimp='" << imp << ' ' << imp << " 0.001'/></equality></mujoco>";
  return x.str();
}

/// The five-bar for the comparison: Freeman's cranks and link CB are all but massless (1e-5 of the coupler),
/// which leaves a soft constraint's accelerations loose, so here each is a uniform rod of a tenth of the
/// coupler's mass; gravity −y, in the plane of motion, so that it loads the joints.
Model comparisonFiveBar() {
  Model model = builtinModel("five-bar");
  for (int i : {0, 2, 3}) {
    Inertial& L = model.joints[i].link;
    const double a = model.joints[i].a, mass = 0.1 * model.joints[1].link.mass;
    L.mass = mass;
    L.com = Vec3(-a / 2, 0, 0);
    L.inertia = Vec3(1e-6, mass * a * a / 12, mass * a * a / 12).asDiagonal();
  }
  model.gravity = Vec3(0, -9.80665, 0);
  model.finalize();
  return model;
}

struct Rig {
  Model model = comparisonFiveBar();
  LoopClosure loop = loopFromJsonString(builtinText("five-bar"), model);
  Data data{model};
  ClosedChainModel cm;
  /// A closed configuration: crank 1 and the tool angle moved from Freeman's by (d1, d2), β closed by Newton.
  VecX closed(double d1, double d2) {
    VecX q = loop.assembly;
    const VecX y0 = closedChainCoordinates(model, data, loop, loop.assembly);
    q[0] += d1;
    closeLoop(model, data, loop, q, Eigen::Matrix<double, 1, 1>(y0[1] + d2), 1e-15);
    return q;
  }
};

/// Worst relative |ÿ_MuJoCo − ÿ_achain| (over max|ÿ|) at rest on `states` random closed configurations with a
/// random torque at crank 1, at constraint impedance `imp`. At rest the exact constrained dynamics and MuJoCo's
/// (whose constraint rows carry no J̇q̇ term) describe the same accelerations.
double worstAtRest(double imp, int states) {
  Rig r;
  std::mt19937_64 rng(1985);
  std::uniform_real_distribution<double> U(-1, 1);
  double worst = 0;
  for (int s = 0; s < states; ++s) {
    const VecX q = r.closed(0.3 * U(rng), 0.3 * U(rng));
    const double torque = 0.2 * U(rng);  // N·m at crank 1 (y1 = φ1, so T_y = (torque, 0))
    closedChainModel(r.model, r.data, r.loop, q, VecX::Zero(4), DynamicsOptions{}, r.cm);
    VecX ydd(2);
    closedChainForwardDynamics(r.cm, Eigen::Vector2d::Zero(), Eigen::Vector2d(torque, 0), ydd);
    mjModel* mm = loadMjcf(fiveBarMjcf(r.model, q, imp));
    mjData* md = mj_makeData(mm);
    md->qfrc_applied[0] = torque;
    mj_forward(mm, md);
    // y = (crank 1, tool angle): ÿ = (φ̈1, Σφ̈)
    const double y1 = md->qacc[0], y2 = md->qacc[0] + md->qacc[1] + md->qacc[2] + md->qacc[3];
    worst = std::max(worst, std::max(std::abs(y1 - ydd[0]), std::abs(y2 - ydd[1])) / ydd.cwiseAbs().maxCoeff());
    mj_deleteData(md);
    mj_deleteModel(mm);
  }
  return worst;
}

}  // namespace

TEST_CASE("peers: the five-bar's closed-chain forward dynamics agrees with MuJoCo's connect constraint", "[peers][closed]") {
  // at rest, 20 random closed configurations under gravity and a crank torque: MuJoCo's constraints are
  // soft, keeping a compliance ∝ (1 − d)/d of impedance d, so the agreement grows as d → 1
  const double soft = worstAtRest(0.99, 20), stiff = worstAtRest(0.9999, 20);
  WARN("five-bar vs MuJoCo at rest, worst relative |Δÿ| over 20 states: " << soft << " at d = 0.99, " << stiff
                                                                            << " at d = 0.9999");
  CHECK(stiff < 1e-3);
  CHECK(soft > 30 * stiff);  // the compliance scales as (1 − d)/d: 100× from d = 0.99 to 0.9999
}

TEST_CASE("peers: a free five-bar moving for 0.2 s under gravity stays with MuJoCo's simulation", "[peers][closed]") {
  // in motion MuJoCo's accelerations leave out the constraint's J̇q̇ term and its Baumgarte stabilisation
  // pulls the chain back onto the loop; over a run at a stiff time constant its trajectory follows the exact
  // one (achain: RK4 in y, the loop re-closed at every stage)
  Rig r;
  VecX q = r.closed(0.2, -0.1);
  VecX y = closedChainCoordinates(r.model, r.data, r.loop, q), yd = Eigen::Vector2d(1.5, -1.0);
  const double dt = 1e-4, T = 0.2;
  // MuJoCo starts from the same closed state: φ̇ from the closed chain's rates
  closedChainModel(r.model, r.data, r.loop, q, VecX::Zero(4), DynamicsOptions{}, r.cm);
  VecX qd(4), qdd(4);
  closedChainRates(r.cm, yd, Eigen::Vector2d::Zero(), qd, qdd);
  mjModel* mm = loadMjcf(fiveBarMjcf(r.model, q, 0.9999));
  mm->opt.timestep = dt;
  mm->opt.integrator = mjINT_RK4;
  mjData* md = mj_makeData(mm);
  for (int i = 0; i < 4; ++i) md->qvel[i] = qd[i];
  const VecX y0 = y;
  for (int k = 0; k < static_cast<int>(T / dt + 0.5); ++k) {
    closedChainStep(r.model, r.data, r.loop, q, y, yd, Eigen::Vector2d::Zero(), dt, DynamicsOptions{}, r.cm);
    mj_step(mm, md);
  }
  // MuJoCo's joint angles are measured from the closed start (qpos = 0 there)
  const VecX phi = r.closed(0.2, -0.1) + Eigen::Map<const VecX>(md->qpos, 4);
  const double dy1 = std::abs(phi[0] - q[0]), dy2 = std::abs(phi.sum() - q.sum());
  const double travel = (y - y0).cwiseAbs().maxCoeff();
  WARN("five-bar vs MuJoCo after " << T << " s: |Δy| = " << dy1 << ", " << dy2 << " rad (y moved " << travel << " rad)");
  CHECK(travel > 0.1);
  CHECK(std::max(dy1, dy2) < 1e-3 * std::max(1.0, travel));
  mj_deleteData(md);
  mj_deleteModel(mm);
}
