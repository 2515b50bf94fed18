// Issue 33: the built-in servo-bus arms so101 (core/robots/so101.json) and openmanipulator-x
// (core/robots/openmanipulator-x.json) against the vendors' own descriptions, read by our URDF reader from the
// stripped copies in tests/fixtures/urdf/third-party (so101.urdf: TheRobotStudio/SO-ARM100 so101_new_calib.urdf;
// openmanipulator_x.urdf: ROBOTIS-GIT/open_manipulator's xacro expanded; sources and commits in their headers and in
// that folder's README). The built-ins leave the gripper out of the coordinates and lump its jaw(s) into the last
// link at gripper position 0, so at 20 random configurations within the limits (the URDF's gripper at 0) the tool
// pose agrees to 1e-12 and the mass matrix to 1e-9 relative; the joints' names and limits are the vendors', and the
// moving mass is the sum of the vendor file's link masses below the fixed base.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <achain/dynamics/crba.hpp>
#include <achain/io/robot.hpp>
#include <achain/io/urdf.hpp>
#include <achain/kinematics/fk.hpp>

#include "helpers.hpp"
#include "urdf_test_support.hpp"

namespace servo_arms_io {

using namespace achain;

/// One built-in arm and the vendor file it was transcribed from.
struct ServoArm {
  std::string builtin;
  std::string fixture;    ///< under tests/fixtures/urdf/
  std::string tool_link;  ///< the URDF link the built-in's tool is
  std::vector<std::string> joints;  ///< the built-in's coordinates, in order: the vendor's joint names
  std::vector<std::string> jaw;     ///< the URDF's coordinates the built-in lumps (held at 0)
  double moving_mass;     ///< kg: the vendor file's <mass> values summed over the links that move
  Vec3 tool_at_zero;      ///< m: the tool position at q = 0, composed by hand from the vendor file's origins
};

const std::vector<ServoArm>& servoArms() {
  static const std::vector<ServoArm> arms = {
      // shoulder_link 0.100006 + upper_arm_link 0.103 + lower_arm_link 0.104 + wrist_link 0.079 + gripper_link 0.087
      // + gripper_frame_link 1e-9 + moving_jaw_so101_v1_link 0.012 (base_link 0.147 is the fixed base). The tool at
      // q = 0: the product of the six <origin>s from base_link to gripper_frame_link, in double precision (Python).
      {"so101", "third-party/so101.urdf", "gripper_frame_link",
       {"shoulder_pan", "shoulder_lift", "elbow_flex", "wrist_flex", "wrist_roll"}, {"gripper"}, 0.485006001,
       Vec3(0.39136147022015794, -9.212063114602824e-06, 0.22646971024033283)},
      // link2 0.098406837 + link3 0.13850917 + link4 0.13274562 + link5 0.14327573 + the two fingers 1e-3 each (link1
      // is fixed to the world). The tool at q = 0: x 0.012 + 0.024 + 0.124 + 0.126, z 0.0595 + 0.128.
      {"openmanipulator-x", "third-party/openmanipulator_x.urdf", "end_effector_link", {"joint1", "joint2", "joint3", "joint4"},
       {"gripper_left_joint"}, 0.514937357, Vec3(0.286, 0, 0.1875)},
  };
  return arms;
}

double servoArmPoseDiff(const SE3& a, const SE3& b) {
  return std::max((a.R - b.R).cwiseAbs().maxCoeff(), (a.p - b.p).cwiseAbs().maxCoeff());
}

/// The index of the joint called `name` in m, or -1.
int servoArmJoint(const Model& m, const std::string& name) {
  for (int i = 0; i < m.njoints(); ++i)
    if (m.joints[i].name == name) return i;
  return -1;
}

double servoArmTotalMass(const Model& m) {
  double s = 0;
  for (const Joint& j : m.joints) s += j.link.mass;
  return s;
}

}  // namespace servo_arms_io

using namespace achain;
using servo_arms_io::ServoArm;

TEST_CASE("servo arms: the built-ins' joints and limits are the vendors' URDF joints", "[io][urdf][servo_arms]") {
  for (const ServoArm& arm : servo_arms_io::servoArms()) {
    INFO(arm.builtin);
    const Model b = builtinModel(arm.builtin);
    const Model u = test::loadUrdfFixture(arm.fixture, arm.tool_link);
    REQUIRE(b.nq == static_cast<int>(arm.joints.size()));
    REQUIRE(b.njoints() == b.nq);  // no fixed or mimic joint: ABA and the voxel workspace take the model
    REQUIRE(u.nq == b.nq + static_cast<int>(arm.jaw.size()));
    CHECK(b.gravity == u.gravity);
    for (int i = 0; i < b.nq; ++i) {
      const Joint& jb = b.joints[i];
      INFO(arm.joints[i]);
      CHECK(jb.name == arm.joints[i]);
      CHECK(b.coord_joint[i] == i);
      const int k = servo_arms_io::servoArmJoint(u, jb.name);
      REQUIRE(k >= 0);
      const Joint& ju = u.joints[k];
      CHECK(ju.kind == JointKind::R);
      CHECK(jb.kind == JointKind::R);
      CHECK(jb.limits.lower == ju.limits.lower);
      CHECK(jb.limits.upper == ju.limits.upper);
      CHECK(jb.limits.velocity == ju.limits.velocity);
      CHECK(jb.limits.effort == ju.limits.effort);
      CHECK(jb.motor == ju.motor);  // the OpenManipulator-X's <dynamics damping="0.1"/>, none on the SO-101
      if (i + 1 < b.nq) {  // every link but the last is the URDF's <inertial> as printed (the last carries the jaw)
        CHECK(jb.link.mass == ju.link.mass);
        CHECK((jb.link.com - ju.link.com).cwiseAbs().maxCoeff() <= 1e-15 * ju.link.com.cwiseAbs().maxCoeff());
        CHECK((jb.link.inertia - ju.link.inertia).cwiseAbs().maxCoeff() <= 1e-15 * ju.link.inertia.cwiseAbs().maxCoeff());
      }
    }
    // The tool link's own link (the last) carries the jaw: what the URDF model has there plus the jaw links.
    double jaw_mass = 0;
    for (const std::string& name : arm.jaw) {
      const int k = servo_arms_io::servoArmJoint(u, name);
      REQUIRE(k >= 0);
      CHECK(u.jmodels[k].independent);
      jaw_mass += u.joints[k].link.mass;
      for (int m = 0; m < u.njoints(); ++m)  // and the jaw's mimics
        if (u.joints[m].mimic == k) jaw_mass += u.joints[m].link.mass;
    }
    const int last_u = servo_arms_io::servoArmJoint(u, b.joints[b.nq - 1].name);
    CHECK(b.joints[b.nq - 1].link.mass == Approx(u.joints[last_u].link.mass + jaw_mass).epsilon(1e-15));
  }
}

TEST_CASE("servo arms: the moving mass is the vendor file's, and the tool at zero is where its origins put it",
          "[io][urdf][servo_arms]") {
  for (const ServoArm& arm : servo_arms_io::servoArms()) {
    INFO(arm.builtin);
    const Model b = builtinModel(arm.builtin);
    const Model u = test::loadUrdfFixture(arm.fixture, arm.tool_link);
    CHECK(servo_arms_io::servoArmTotalMass(b) == Approx(arm.moving_mass).epsilon(1e-14));
    CHECK(servo_arms_io::servoArmTotalMass(u) == Approx(arm.moving_mass).epsilon(1e-14));
    const SE3 T = test::fkPose(b, VecX::Zero(b.nq));
    CHECK((T.p - arm.tool_at_zero).cwiseAbs().maxCoeff() < 1e-14);
  }
}

TEST_CASE("servo arms: tool pose and mass matrix equal the vendor URDF's at 20 random configurations",
          "[io][urdf][servo_arms]") {
  for (const ServoArm& arm : servo_arms_io::servoArms()) {
    INFO(arm.builtin);
    const Model b = builtinModel(arm.builtin);
    const Model u = test::loadUrdfFixture(arm.fixture, arm.tool_link);
    REQUIRE(u.nq == b.nq + static_cast<int>(arm.jaw.size()));
    std::vector<int> to_u(b.nq);  // the URDF model's coordinate of each built-in coordinate
    for (int i = 0; i < b.nq; ++i) {
      const int k = servo_arms_io::servoArmJoint(u, b.joints[i].name);
      REQUIRE(k >= 0);
      to_u[i] = u.idx_q[k];
    }
    Data db(b), du(u);
    MatX Mb(b.nv, b.nv), Mu(u.nv, u.nv);
    std::mt19937 rng(33);
    double worst_pose = 0, worst_m = 0;
    for (int s = 0; s < 20; ++s) {
      const VecX q = test::randomConfiguration(b, rng);
      VecX qu = VecX::Zero(u.nq);  // the jaw at 0
      for (int i = 0; i < b.nq; ++i) {
        CHECK(q[i] >= b.joints[i].limits.lower);
        CHECK(q[i] <= b.joints[i].limits.upper);
        qu[to_u[i]] = q[i];
      }
      forwardKinematics(b, db, q);
      forwardKinematics(u, du, qu);
      const double dp = servo_arms_io::servoArmPoseDiff(db.oMtool, du.oMtool);
      CHECK(dp < 1e-12);
      massMatrix(b, db, q, DynamicsOptions{}, Mb);
      massMatrix(u, du, qu, DynamicsOptions{}, Mu);
      double diff = 0;
      for (int r = 0; r < b.nq; ++r)
        for (int c = 0; c < b.nq; ++c) diff = std::max(diff, std::abs(Mb(r, c) - Mu(to_u[r], to_u[c])));
      const double rel = diff / Mb.cwiseAbs().maxCoeff();
      CHECK(rel < 1e-9);
      worst_pose = std::max(worst_pose, dp);
      worst_m = std::max(worst_m, rel);
    }
    WARN(arm.builtin << ": worst tool pose difference " << worst_pose << ", worst relative mass-matrix difference " << worst_m);
    // The jaw matters: with it open the URDF's arm block differs (the lumping is at the jaw's 0, not a dropped mass).
    const VecX q = test::randomConfiguration(b, rng);
    VecX qu = VecX::Zero(u.nq);
    for (int i = 0; i < b.nq; ++i) qu[to_u[i]] = q[i];
    for (const std::string& name : arm.jaw) {
      const int k = servo_arms_io::servoArmJoint(u, name);
      qu[u.idx_q[k]] = u.joints[k].limits.upper;
    }
    massMatrix(b, db, q, DynamicsOptions{}, Mb);
    massMatrix(u, du, qu, DynamicsOptions{}, Mu);
    double diff = 0;
    for (int r = 0; r < b.nq; ++r)
      for (int c = 0; c < b.nq; ++c) diff = std::max(diff, std::abs(Mb(r, c) - Mu(to_u[r], to_u[c])));
    CHECK(diff / Mb.cwiseAbs().maxCoeff() > 1e-6);
  }
}
