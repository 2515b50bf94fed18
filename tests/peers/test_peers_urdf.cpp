// achain → URDF (modelToUrdf) → urdfdom, ROS's URDF parser (Debian's liburdfdom-dev): a second reader of every
// URDF export. For every built-in robot, every URDF fixture that loads and the six third-party trees (with their
// tool links), urdfdom must parse the exported text, and what it read must be achain's model:
//  * one URDF joint per achain joint, with its name, type (revolute/continuous/prismatic/fixed), parent and child
//    link names, limits (lower, upper, velocity, effort) and mimic (master, multiplier, offset);
//  * the tool pose at random configurations, composed from urdfdom's joint origins and axes alone (parent → child
//    origin, then the joint's motion about or along its axis), equal to achain's FK to 1e-9;
//  * every link's mass, centre of mass and rotational inertia in the world at those configurations (urdfdom's
//    <inertial> origin and tensor carried by its link's pose) equal to achain's to 1e-9.
// URDF has no A-pair: urdfdom reads one as the revolute it is in URDF (achain:apair is our extension element,
// docs/robot-format.md), so the composed pose adds its axial slide d = ρ·sin(θ_v/2) with ρ from the model.
#include <catch2/catch.hpp>

#ifdef ACHAIN_HAVE_URDFDOM
#include <urdf_parser/urdf_parser.h>

#include <cmath>
#include <iostream>
#include <random>
#include <string>

#include <achain/io/urdf.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/model/data.hpp>
#include <achain/model/labels.hpp>
#include "helpers.hpp"
#include "urdf_test_support.hpp"

using namespace achain;

namespace {

/// The index of the achain joint called `name`, or -1.
int jointIndex(const Model& m, const std::string& name) {
  for (int i = 0; i < m.njoints(); ++i)
    if (m.joints[i].name == name) return i;
  return -1;
}

SE3 pose(const urdf::Pose& p) {
  const Eigen::Quaterniond r(p.rotation.w, p.rotation.x, p.rotation.y, p.rotation.z);
  return SE3{r.normalized().toRotationMatrix(), Vec3(p.position.x, p.position.y, p.position.z)};
}

const char* typeName(int t) {
  switch (t) {
    case urdf::Joint::REVOLUTE: return "revolute";
    case urdf::Joint::CONTINUOUS: return "continuous";
    case urdf::Joint::PRISMATIC: return "prismatic";
    case urdf::Joint::FIXED: return "fixed";
    default: return "other";
  }
}

/// What an achain joint must be in URDF.
std::string expectedType(const Joint& j) {
  if (j.kind == JointKind::Fixed) return "fixed";
  if (j.kind == JointKind::P) return "prismatic";
  return std::isfinite(j.limits.lower) ? "revolute" : "continuous";
}

/// The world pose of urdfdom's link `name`, composed from the root with each joint's value (`value` by joint name).
SE3 linkPose(const urdf::ModelInterface& u, const std::string& name, const Model& m, const VecX& u_of_joint) {
  SE3 T = SE3::Identity();
  urdf::LinkConstSharedPtr link = u.getLink(name);
  REQUIRE(link);
  while (link->parent_joint) {
    const urdf::Joint& j = *link->parent_joint;
    SE3 motion = SE3::Identity();
    if (j.type != urdf::Joint::FIXED) {
      const int i = jointIndex(m, j.name);
      REQUIRE(i >= 0);
      const Vec3 axis(j.axis.x, j.axis.y, j.axis.z);
      const double v = u_of_joint[i];
      if (j.type == urdf::Joint::PRISMATIC) {
        motion.p = v * axis;
      } else {
        motion.R = Eigen::AngleAxisd(v, axis.normalized()).toRotationMatrix();
        if (m.joints[i].kind == JointKind::A) motion.p = m.joints[i].rho * std::sin(v / 2) * axis.normalized();
      }
    }
    T = pose(j.parent_to_joint_origin_transform) * motion * T;
    link = u.getLink(j.parent_link_name);
    REQUIRE(link);
  }
  return T;
}

}  // namespace

TEST_CASE("urdfdom reads every URDF export: joints, limits, mimic, tool pose and inertias agree to 1e-9", "[peers][urdfdom][urdf]") {
  const std::vector<Model> models = test::everyExportableModel();
  REQUIRE(models.size() >= 25);
  std::mt19937 rng(11);
  std::string names;
  double worst_pose = 0, worst_inertia = 0;
  int joints_checked = 0;
  for (const Model& m : models) {
    INFO(m.name);
    const std::string text = modelToUrdf(m);
    const urdf::ModelInterfaceSharedPtr u = urdf::parseURDF(text);
    INFO(text);
    REQUIRE(u);
    CHECK(u->getName() == m.name);
    CHECK(u->getRoot()->name == "base_link");
    // the joints: one per achain joint (the export may add the fixed "tool_joint")
    for (int i = 0; i < m.njoints(); ++i) {
      const Joint& jn = m.joints[i];
      INFO("joint " << jn.name);
      const urdf::JointConstSharedPtr j = u->getJoint(jn.name);
      REQUIRE(j);
      CHECK(typeName(j->type) == expectedType(jn));
      CHECK(j->parent_link_name == linkName(m, jn.parent));
      CHECK(j->child_link_name == linkName(m, i));
      if (jn.kind != JointKind::Fixed) {
        if (std::isfinite(jn.limits.lower)) {
          REQUIRE(j->limits);
          CHECK(j->limits->lower == jn.limits.lower);
          CHECK(j->limits->upper == jn.limits.upper);
        }
        if (std::isfinite(jn.limits.velocity)) CHECK(j->limits->velocity == jn.limits.velocity);
        if (std::isfinite(jn.limits.effort)) CHECK(j->limits->effort == jn.limits.effort);
        if (jn.mimic >= 0) {
          REQUIRE(j->mimic);
          CHECK(j->mimic->joint_name == m.joints[jn.mimic].name);
          CHECK(j->mimic->multiplier == jn.mimic_multiplier);
          CHECK(j->mimic->offset == jn.mimic_offset);
        } else {
          CHECK(!j->mimic);
        }
      }
      ++joints_checked;
    }
    CHECK(static_cast<int>(u->joints_.size()) - m.njoints() <= 1);
    // the tool link: "tool0" when the export adds a tool joint, else the tool link's own name
    const std::string tool = u->getLink("tool0") ? std::string("tool0") : linkName(m, m.toolLink());
    Data data(m);
    VecX value(m.njoints());
    for (int k = 0; k < 5; ++k) {
      const VecX q = test::randomConfiguration(m, rng);
      forwardKinematics(m, data, q);
      // each joint's value: its coordinate, or (a mimic) urdfdom's multiplier × its master's coordinate + offset
      for (int i = 0; i < m.njoints(); ++i) {
        const urdf::JointConstSharedPtr j = u->getJoint(m.joints[i].name);
        const int c = m.jmodels[i].coord;
        value[i] = c < 0 ? 0.0 : q[c];
        if (j->mimic) {
          const int master = jointIndex(m, j->mimic->joint_name);
          REQUIRE(master >= 0);
          value[i] = j->mimic->multiplier * q[m.jmodels[master].coord] + j->mimic->offset;
        }
      }
      const SE3 Tu = linkPose(*u, tool, m, value);
      worst_pose = std::max({worst_pose, (Tu.R - data.oMtool.R).cwiseAbs().maxCoeff(), (Tu.p - data.oMtool.p).cwiseAbs().maxCoeff()});
      // every link's inertial in the world: mass, centre of mass, rotational inertia about it
      for (int i = 0; i < m.njoints(); ++i) {
        const urdf::LinkConstSharedPtr l = u->getLink(linkName(m, i));
        REQUIRE(l);
        const Inertial& in = m.joints[i].link;
        if (!l->inertial) {
          CHECK(in.mass == 0);
          continue;
        }
        const urdf::Inertial& ui = *l->inertial;
        CHECK(ui.mass == in.mass);
        const SE3 Tl = linkPose(*u, l->name, m, value) * pose(ui.origin);
        Mat3 I;
        I << ui.ixx, ui.ixy, ui.ixz, ui.ixy, ui.iyy, ui.iyz, ui.ixz, ui.iyz, ui.izz;
        const SE3& F = data.oMi[i];
        const double scale = std::max(1.0, in.inertia.cwiseAbs().maxCoeff());
        worst_inertia = std::max({worst_inertia, (Tl.p - F.act(in.com)).cwiseAbs().maxCoeff(),
                                  (Tl.R * I * Tl.R.transpose() - F.R * in.inertia * F.R.transpose()).cwiseAbs().maxCoeff() / scale});
      }
    }
    names += (names.empty() ? "" : ", ") + m.name;
  }
  std::cout << "urdfdom read the URDF exports of " << models.size() << " models (" << names << "), " << joints_checked
            << " joints; worst tool pose difference " << worst_pose << ", worst inertial difference " << worst_inertia << std::endl;
  CHECK(worst_pose < 1e-9);
  CHECK(worst_inertia < 1e-9);
}

#endif
