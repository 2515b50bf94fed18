// URDF import: the PUMA 560 written as URDF agrees with the built-in DH description (FK, Jacobian, RNEA, M to
// 1e-12); mimic couplings, trees with several leaves, the A-pair extension, geometry, and one fixture per
// unsupported element or malformed input with the message it must give (element and line).
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>

#include <achain/dynamics/crba.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/ik/closed_form.hpp>
#include <achain/io/model_json.hpp>
#include <achain/io/urdf.hpp>
#include <achain/kinematics/jacobian.hpp>
#include <achain/io/robot.hpp>

#include "helpers.hpp"
#include "test_paths.hpp"
#include "urdf_test_support.hpp"

using namespace achain;

namespace {

using test::exportedModels;
using test::twoToolTree;
std::string fixture(const std::string& name) { return test::urdfFixtureText(name); }
Model loadFixture(const std::string& name, const UrdfOptions& o = {}) { return test::loadUrdfFixture(name, o); }

std::string urdfErrorOf(const std::string& name, const UrdfOptions& o = {}) {
  try {
    loadFixture(name, o);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

std::string warningsOf(const Model& m) {
  std::string all;
  for (const auto& n : m.notes)
    if (n.rfind("URDF warning: ", 0) == 0) all += n + "\n";
  return all;
}

/// origin(xyz, rpy) · Rot(axis, q) — URDF's child frame, written independently of the importer.
SE3 urdfJoint(const Vec3& xyz, const Vec3& rpy, const Vec3& axis, double q, bool prismatic = false) {
  SE3 o;
  o.p = xyz;
  o.R = (Eigen::AngleAxisd(rpy.z(), Vec3::UnitZ()) * Eigen::AngleAxisd(rpy.y(), Vec3::UnitY()) *
         Eigen::AngleAxisd(rpy.x(), Vec3::UnitX())).toRotationMatrix();
  SE3 m;
  if (prismatic) m.p = q * axis.normalized();
  else m.R = Eigen::AngleAxisd(q, axis.normalized()).toRotationMatrix();
  return o * m;
}

double poseErr(const SE3& a, const SE3& b) {
  return std::max((a.R - b.R).cwiseAbs().maxCoeff(), (a.p - b.p).cwiseAbs().maxCoeff());
}

}  // namespace

TEST_CASE("PUMA 560 as URDF agrees with its DH description: FK, Jacobian, RNEA, M to 1e-12", "[io][urdf]") {
  const Model dh = builtinModel("puma560");
  const Model u = loadFixture("puma560.urdf");
  REQUIRE(u.nq == 6);
  REQUIRE(u.njoints() == 6);  // the fixed tool joint is merged into link6 (the tool transform)
  CHECK(u.name == "puma560_urdf");
  CHECK(u.gravity == dh.gravity);  // <achain:gravity xyz="0 0 -9.81"/>
  CHECK(u.toolLink() == 5);
  UrdfOptions keep;
  keep.keep_fixed = true;
  const Model uk = loadFixture("puma560.urdf", keep);
  REQUIRE(uk.njoints() == 7);
  CHECK(uk.joints[6].kind == JointKind::Fixed);
  CHECK(uk.toolLink() == 6);
  CHECK_FALSE(u.has_dh);
  CHECK(dh.has_dh);
  CHECK(u.joints[1].limits.lower == Approx(-45 * kDeg));
  CHECK(u.joints[1].limits.velocity == 3);
  CHECK(u.joints[1].limits.effort == 100);
  std::mt19937 rng(560);
  Data dd(dh), du(u);
  MatX Jd(6, 6), Ju(6, 6), Md(6, 6), Mu(6, 6);
  VecX td(6), tu(6);
  double fk = 0, jac = 0, tau = 0, mass = 0;
  for (int k = 0; k < 50; ++k) {
    const VecX q = test::randomConfiguration(dh, rng);
    const VecX qd = VecX::Random(6) * 2, qdd = VecX::Random(6) * 5;
    forwardKinematics(dh, dd, q);
    forwardKinematics(u, du, q);
    fk = std::max(fk, poseErr(dd.oMtool, du.oMtool));
    fk = std::max(fk, poseErr(dd.oMtool, test::fkPose(uk, q)));
    toolJacobian(dh, dd, Jd);
    toolJacobian(u, du, Ju);
    jac = std::max(jac, (Jd - Ju).cwiseAbs().maxCoeff());
    inverseDynamics(dh, dd, q, qd, qdd, DynamicsOptions{}, td);
    inverseDynamics(u, du, q, qd, qdd, DynamicsOptions{}, tu);
    tau = std::max(tau, (td - tu).cwiseAbs().maxCoeff());
    massMatrix(dh, dd, q, DynamicsOptions{}, Md);
    massMatrix(u, du, q, DynamicsOptions{}, Mu);
    mass = std::max(mass, (Md - Mu).cwiseAbs().maxCoeff());
  }
  INFO("fk " << fk << " J " << jac << " tau " << tau << " M " << mass);
  CHECK(fk < 1e-12);
  CHECK(jac < 1e-12);
  CHECK(tau < 1e-12);
  CHECK(mass < 1e-12);
  CHECK(tau > 0);  // the comparison is not vacuous
}

TEST_CASE("URDF geometry, materials and warnings of the PUMA fixture are kept", "[io][urdf]") {
  const Model u = loadFixture("puma560.urdf");
  REQUIRE(u.geometry.size() == 8);  // 7 mesh visuals + 1 collision cylinder
  const Geometry& base = u.geometry[0];
  CHECK(base.link == -1);
  CHECK(base.shape == Geometry::Shape::Mesh);
  CHECK(base.mesh == "package://puma560/meshes/base.stl");
  CHECK(base.scale.isApprox(Vec3::Constant(0.001)));
  CHECK(base.has_color);
  CHECK(base.rgba[2] == Approx(0.65));
  const Geometry& col = u.geometry[1];
  CHECK(col.collision);
  CHECK(col.shape == Geometry::Shape::Cylinder);
  CHECK(col.size.x() == 0.1);
  CHECK(col.size.y() == 0.6);
  CHECK(col.origin.p.z() == -0.3);
  CHECK(u.geometry[2].link == 0);  // link1's visual rides on joint 0
  const std::string w = warningsOf(u);
  CHECK_THAT(w, Catch::Matchers::Contains("<transmission name='trans1'> (line 80)"));
  // Armstrong's link 1 (only Iyy) breaks the triangle inequality: named, kept as given
  CHECK_THAT(w, Catch::Matchers::Contains("link 'link1': principal moments"));
  CHECK_THAT(w, Catch::Matchers::Contains("triangle inequality"));
}

TEST_CASE("a URDF model round-trips through the JSON description (origin/axis joints, geometry)", "[io][urdf]") {
  for (const char* f : {"puma560.urdf", "gripper_mimic.urdf", "apair.urdf"}) {
    INFO(f);
    UrdfOptions o;
    if (std::string(f) == "gripper_mimic.urdf") o.tool_link = "tip_link";
    CHECK(test::jsonRoundTrips(loadFixture(f, o)));
  }
}

TEST_CASE("a chain placed by origin/axis reaches the closed forms through its extracted DH description", "[io][urdf]") {
  const Model u = loadFixture("puma560.urdf");
  std::string why;
  CHECK(isWristPartitioned6R(u, &why));  // tests/core/model/test_dh_extract.cpp checks the solutions
  CHECK(why.empty());
  CHECK_FALSE(isPrototypeClass(u, &why));
  CHECK(why == "needs exactly 4 joints");  // read from the extracted chain, not refused for its placement
  CHECK_THROWS_WITH(convertConvention(u, DHConvention::Modified), Catch::Matchers::Contains("origin/axis"));
}

TEST_CASE("mimic joints: one coordinate per independent joint, chains of mimics composed", "[io][urdf]") {
  CHECK_THAT(urdfErrorOf("gripper_mimic.urdf"),
             Catch::Matchers::Contains("tool link: the tree has 2 leaf links ('pad', 'tip_link')"));
  UrdfOptions o;
  o.tool_link = "tip_link";
  const Model m = loadFixture("gripper_mimic.urdf", o);
  REQUIRE(m.nq == 2);
  // model order: wrist, finger_left, (tip: fixed, merged), finger_right, follower (depth first, document order)
  REQUIRE(m.njoints() == 4);
  CHECK(m.joints[1].name == "finger_left");
  CHECK(m.joints[2].name == "finger_right");
  CHECK(m.joints[2].mimic == 1);
  CHECK(m.joints[2].mimic_multiplier == 1);
  CHECK(m.joints[3].mimic == 1);
  CHECK(m.joints[3].mimic_multiplier == 2);
  CHECK(m.joints[3].mimic_offset == 0.01);
  CHECK(m.toolLink() == 1);  // tip_link was merged into the left finger: the tool transform carries its offset
  CHECK(m.tool.p == Vec3(0, 0, 0.04));
  CHECK(m.joints[0].motor.present);  // <dynamics damping friction> as joint-side friction
  CHECK(m.joints[0].motor.viscous == 0.1);
  CHECK(m.joints[0].motor.coulomb_pos == 0.02);
  Data d(m);
  VecX q(2);
  q << 0.7, 0.03;
  forwardKinematics(m, d, q);
  const SE3 palm = urdfJoint(Vec3(0, 0, 0.1), Vec3::Zero(), Vec3::UnitZ(), 0.7);
  const SE3 right = palm * urdfJoint(Vec3(0, -0.01, 0.05), Vec3::Zero(), Vec3(0, -1, 0), 0.03, true);
  const SE3 pad = right * urdfJoint(Vec3(0, 0, 0.04), Vec3::Zero(), Vec3::UnitZ(), 2 * 0.03 + 0.01, true);
  const SE3 tip = palm * urdfJoint(Vec3(0, 0.01, 0.05), Vec3::Zero(), Vec3::UnitY(), 0.03, true) *
                  urdfJoint(Vec3(0, 0, 0.04), Vec3::Zero(), Vec3::UnitZ(), 0);
  CHECK(poseErr(d.oMi[2], right) < 1e-15);
  CHECK(poseErr(d.oMi[3], pad) < 1e-15);
  CHECK(poseErr(d.oMtool, tip) < 1e-15);
  // The pad's Jacobian column for the finger coordinate: d(pad)/d(q_finger) = (−y)·1 + z·2 in the palm frame
  MatX J(6, 2);
  pointJacobian(m, d, 3, Vec3::Zero(), J);
  const Vec3 expect = palm.R * Vec3(0, -1, 0) + pad.R * Vec3(0, 0, 2);
  CHECK((J.col(1).head<3>() - expect).norm() < 1e-14);
}

TEST_CASE("a tree with two tools: the tool is chosen by link name, FK follows origin·Rot(axis, q)", "[io][urdf]") {
  CHECK_THAT(urdfErrorOf("tree_two_tools.urdf"),
             Catch::Matchers::Contains("2 leaf links ('left_tool', 'right_tool'); choose the tool's link by name"));
  UrdfOptions o;
  o.tool_link = "nothing";
  CHECK_THAT(urdfErrorOf("tree_two_tools.urdf", o), Catch::Matchers::Contains("no link is named 'nothing'"));
  o.tool_link = "torso";
  CHECK_THAT(urdfErrorOf("tree_two_tools.urdf", o), Catch::Matchers::Contains("is the root link"));
  VecX q(5);
  q << 0.4, -0.8, 1.1, 0.6, 0.15;  // waist, left_shoulder, left_elbow, right_shoulder, right_slide
  const SE3 chest = urdfJoint(Vec3(0, 0, 0.5), Vec3(0, 0, 0.3), Vec3::UnitZ(), 0.4);
  const SE3 left = chest * urdfJoint(Vec3(0, 0.2, 0.3), Vec3(-kPi / 2, 0, 0), Vec3(1, 1, 0), -0.8) *
                   urdfJoint(Vec3(0, 0, 0.3), Vec3(0, 0.5, 0), Vec3::UnitY(), 1.1);
  const SE3 right = chest * urdfJoint(Vec3(0, -0.2, 0.3), Vec3(kPi / 2, 0, 0), Vec3(0, 0, -1), 0.6) *
                    urdfJoint(Vec3(0.05, 0, 0.3), Vec3::Zero(), Vec3::UnitZ(), 0.15, true);
  o.tool_link = "left_tool";
  const Model ml = loadFixture("tree_two_tools.urdf", o);
  o.tool_link = "right_tool";
  const Model mr = loadFixture("tree_two_tools.urdf", o);
  REQUIRE(ml.nq == 5);
  CHECK(ml.joints[3].parent == 0);  // right_shoulder hangs on the chest (a tree)
  CHECK(poseErr(test::fkPose(ml, q), left) < 1e-14);
  CHECK(poseErr(test::fkPose(mr, q), right) < 1e-14);
  // The chest inertial: rpy-rotated tensor and its CoM, in the chest link frame
  const Mat3 R = (Eigen::AngleAxisd(0.3, Vec3::UnitZ()) * Eigen::AngleAxisd(0.2, Vec3::UnitY()) *
                  Eigen::AngleAxisd(0.1, Vec3::UnitX())).toRotationMatrix();
  Mat3 I;
  I << 0.1, 0.01, -0.005, 0.01, 0.12, 0.002, -0.005, 0.002, 0.08;
  CHECK((ml.joints[0].link.inertia - R * I * R.transpose()).cwiseAbs().maxCoeff() < 1e-16);
  CHECK(ml.joints[0].link.com == Vec3(0, 0, 0.1));
  // Energy bookkeeping on the tree: τ·q̇ = dE/dt with gravity off, checked by a central difference along q(t)
  Data d(ml);
  const VecX qd = (VecX(5) << 0.3, -0.2, 0.5, 0.1, 0.05).finished();
  const VecX qdd = (VecX(5) << 0.1, 0.4, -0.3, 0.2, -0.1).finished();
  DynamicsOptions off;
  off.override_gravity = true;  // gravity zero
  VecX tau(5);
  inverseDynamics(ml, d, q, qd, qdd, off, tau);
  const double h = 1e-6;
  auto energy = [&](double t) {
    return kineticEnergy(ml, d, q + qd * t + 0.5 * qdd * t * t, qd + qdd * t, off);
  };
  CHECK(tau.dot(qd) == Approx((energy(h) - energy(-h)) / (2 * h)).epsilon(1e-7));
}

TEST_CASE("urdfTree describes the links and joints of a URDF without building a model", "[io][urdf][tree]") {
  const UrdfTree t = urdfTreeString(fixture("tree_two_tools.urdf"));
  CHECK(t.name == "two_arms");
  CHECK(t.root == "torso");
  CHECK(t.leaves == std::vector<std::string>{"left_tool", "right_tool"});
  CHECK(t.tool_link.empty());
  REQUIRE(t.links.size() == 6);
  const std::vector<std::string> names{"torso", "chest", "left_upper", "left_tool", "right_upper", "right_tool"};
  const std::vector<int> parents{-1, 0, 1, 2, 1, 4}, depths{0, 1, 2, 3, 2, 3};
  for (size_t i = 0; i < names.size(); ++i) {
    CAPTURE(i);
    CHECK(t.links[i].name == names[i]);
    CHECK(t.links[i].parent == parents[i]);
    CHECK(t.links[i].depth == depths[i]);
  }
  CHECK(t.links[0].joint.name.empty());
  CHECK(t.links[1].joint.name == "waist");
  CHECK(t.links[1].joint.type == "revolute");
  CHECK(t.links[1].joint.limits.lower == -3);
  CHECK(t.links[1].joint.limits.upper == 3);
  CHECK(t.links[1].joint.limits.velocity == 1);
  CHECK(t.links[1].joint.limits.effort == 50);
  const UrdfTreeJoint& slide = t.links[5].joint;
  CHECK(slide.name == "right_slide");
  CHECK(slide.type == "prismatic");
  CHECK(slide.limits.lower == 0);
  CHECK(slide.limits.upper == 0.2);
  CHECK(slide.limits.velocity == 0.5);
  CHECK(slide.limits.effort == 100);
  CHECK(slide.mimic.empty());

  const UrdfTree g = urdfTreeString(fixture("gripper_mimic.urdf"));
  CHECK(g.root == "base");
  CHECK(g.leaves == std::vector<std::string>{"pad", "tip_link"});
  std::vector<std::string> order;
  for (const UrdfTreeLink& l : g.links) order.push_back(l.name + "/" + l.joint.name + "/" + l.joint.type);
  CHECK(order == std::vector<std::string>{"base//", "palm/wrist/continuous", "left/finger_left/prismatic",
                                          "tip_link/tip/fixed", "right/finger_right/prismatic", "pad/follower/prismatic"});
  const UrdfTreeJoint& wrist = g.links[1].joint;  // continuous: no position limits, velocity and effort kept
  CHECK(std::isinf(wrist.limits.lower));
  CHECK(std::isinf(wrist.limits.upper));
  CHECK(wrist.limits.velocity == 2);
  CHECK(wrist.limits.effort == 5);
  CHECK(g.links[3].parent == 2);  // tip_link hangs on the left finger
  CHECK(std::isinf(g.links[3].joint.limits.upper));
  CHECK(g.links[4].joint.mimic == "finger_left");
  CHECK(g.links[4].joint.mimic_multiplier == 1);
  CHECK(g.links[5].joint.mimic == "finger_right");  // as written, not composed to finger_left
  CHECK(g.links[5].joint.mimic_multiplier == 2);
  CHECK(g.links[5].joint.mimic_offset == 0.01);
  CHECK(g.links[5].joint.limits.lower == -1);

  // The file's own tool (achain:tool), the reader's errors, and the warnings met on the way
  std::string text = fixture("tree_two_tools.urdf");
  text.replace(text.find("<robot name=\"two_arms\">"), 22,
               "<robot name=\"two_arms\" xmlns:achain=\"urn:achain:urdf\"><achain:tool link=\"right_tool\"/>");
  CHECK(urdfTreeString(text).tool_link == "right_tool");
  CHECK_THROWS_WITH(urdfTreeString(fixture("cycle.urdf")), Catch::Matchers::Contains("cycle"));
  CHECK_THROWS_WITH(urdfTreeString(fixture("missing_parent.urdf")), Catch::Matchers::Contains("is not defined"));
  const UrdfTree p = urdfTreeString(fixture("puma560.urdf"));
  CHECK(p.leaves.size() == 1);
}

TEST_CASE("the A-pair extension: a revolute joint with <achain:apair> is an A-pair, the R-twin elsewhere", "[io][urdf]") {
  const Model m = loadFixture("apair.urdf");
  REQUIRE(m.njoints() == 1);
  CHECK(m.joints[0].kind == JointKind::A);
  CHECK(m.joints[0].rho == 0.14368409793710646);
  CHECK(m.joints[0].leg_mass == 0.05);
  CHECK(m.joints[0].leg_radius == 0.005);
  CHECK(warningsOf(m).empty());
  VecX q(1);
  q << 2.0;
  const SE3 T = test::fkPose(m, q);
  CHECK(std::abs(T.p.z() - (0.1 + m.joints[0].rho * std::sin(1.0))) < 1e-15);
  CHECK((T.R - rotZ(2.0).R).cwiseAbs().maxCoeff() < 1e-15);
  // Without the namespace declaration the element is not ours: the R-twin, with a warning naming it
  std::string text = fixture("apair.urdf");
  const std::string decl = " xmlns:achain=\"urn:achain:urdf\"";
  text.replace(text.find(decl), decl.size(), "");
  const Model r = modelFromUrdfString(text);
  CHECK(r.joints[0].kind == JointKind::R);
  CHECK_THAT(warningsOf(r), Catch::Matchers::Contains("<achain:apair> (line 11): unknown element in <joint>, ignored"));
  // on a prismatic joint it is refused
  std::string p = fixture("apair.urdf");
  p.replace(p.find("type=\"revolute\""), 15, "type=\"prismatic\"");
  CHECK_THROWS_WITH(modelFromUrdfString(p), Catch::Matchers::Contains("an A-pair extends a revolute or continuous joint"));
}

TEST_CASE("unsupported elements are reported by element and line, with what was done", "[io][urdf][errors]") {
  struct Case { const char* file; const char* warning; };
  for (const Case& c : {Case{"floating.urdf", "<joint name='root'> (line 7): joint type 'floating' cannot be represented"},
                        Case{"planar.urdf", "<joint name='slider'> (line 7): joint type 'planar' cannot be represented"},
                        Case{"transmission.urdf", "<transmission name='t1'> (line 12): not used by achain"},
                        Case{"gazebo.urdf", "<gazebo> (line 12): not used by achain"}}) {
    INFO(c.file);
    const Model m = loadFixture(c.file);
    CHECK_THAT(warningsOf(m), Catch::Matchers::Contains(c.warning));
  }
  const Model f = loadFixture("floating.urdf");
  CHECK(f.njoints() == 1);  // "treated as fixed at its origin", then merged into the base
  CHECK(f.nq == 1);
  UrdfOptions keep;
  keep.keep_fixed = true;
  CHECK(loadFixture("floating.urdf", keep).joints[0].kind == JointKind::Fixed);
}

TEST_CASE("malformed or impossible URDF gets an error naming the element and line", "[io][urdf][errors]") {
  struct Case { const char* file; const char* error; };
  for (const Case& c : {
           Case{"unknown_type.urdf", "URDF <joint name='j1'> (line 7): unknown joint type 'ball'"},
           Case{"missing_parent.urdf", "URDF <parent> (line 7): parent link 'shoulder' is not defined"},
           Case{"cycle.urdf", "URDF <joint name='ab'> (line 13): not reachable from the root link: the joints form a cycle"},
           Case{"duplicate_link.urdf", "URDF <link name='arm'> (line 12): duplicate link name 'arm' (first at <link name='arm'> (line 4))"},
           Case{"duplicate_joint.urdf", "URDF <joint name='j1'> (line 13): duplicate joint name 'j1'"},
           Case{"bad_number.urdf", "URDF <origin> (line 9): attribute xyz='0 0 0.1O': '0.1O' is not a number"},
           Case{"negative_mass.urdf", "URDF <mass> (line 5): link 'arm': mass must be ≥ 0 (got -2)"},
           Case{"non_psd_inertia.urdf", "URDF <inertia> (line 5): link 'arm': inertia must be positive semi-definite"},
           Case{"malformed.urdf", "(document): malformed XML at line 6"}}) {
    INFO(c.file);
    CHECK_THAT(urdfErrorOf(c.file), Catch::Matchers::Contains(c.error));
  }
}

TEST_CASE("an inertia breaking the triangle inequality: a warning, or balanced on request", "[io][urdf]") {
  const Model m = loadFixture("triangle_inertia.urdf");
  CHECK_THAT(warningsOf(m), Catch::Matchers::Contains("<inertia> (line 5): link 'arm': principal moments (0.01, 0.01, 0.05)"));
  CHECK(m.joints[0].link.inertia(2, 2) == 0.05);
  UrdfOptions o;
  o.balance_inertia = true;
  const Model b = loadFixture("triangle_inertia.urdf", o);
  CHECK((b.joints[0].link.inertia - Mat3::Identity() * (0.07 / 3)).cwiseAbs().maxCoeff() < 1e-15);
  CHECK_THAT(warningsOf(b), Catch::Matchers::Contains("replaced by their mean"));
}

TEST_CASE("the element tree's JSON form (the wasm path) gives the same model", "[io][urdf]") {
  const std::string text = fixture("puma560.urdf");
  const XmlElement tree = parseXml(text);
  const XmlElement back = xmlTreeFromJson(xmlTreeToJson(tree));
  CHECK(modelFromUrdf(back).sameDescription(modelFromUrdfString(text)));
  CHECK_THROWS_WITH(xmlTreeFromJson(nlohmann::json::parse(R"({"name": "robot", "children": [{"line": 3}]})")),
                    Catch::Matchers::Contains("(tree).children[0].name: missing"));
  CHECK_THROWS_WITH(modelFromUrdf(xmlTreeFromJson(nlohmann::json::parse(R"({"name": "sdf"})"))),
                    Catch::Matchers::Contains("the root element must be <robot>"));
}

TEST_CASE("loadRobot reads a URDF file by its content, the tool link option is for URDF only", "[io][urdf]") {
  const std::string dir = achain::test::sourceDir() + "/tests/fixtures/urdf/";
  const Model m = loadRobot(dir + "puma560.urdf");
  CHECK(m.nq == 6);
  UrdfOptions o;
  o.tool_link = "link6";
  const Model m6 = loadRobot(dir + "puma560.urdf", o);
  CHECK(m6.toolLink() == 5);
  CHECK_THROWS_WITH(loadRobot(dir + "missing_parent.urdf"), Catch::Matchers::StartsWith(dir + "missing_parent.urdf: URDF <parent> (line 7)"));
}

namespace {
/// FK (tool), tool Jacobian, RNEA (A-pair legs in full) and M of two models with the same coordinates, worst difference.
double worstDifference(const Model& a, const Model& b, int samples, std::mt19937& rng) {
  Data da(a), db(b);
  const int n = a.nq;
  MatX Ja(6, n), Jb(6, n), Ma(n, n), Mb(n, n);
  VecX ta(n), tb(n);
  double worst = 0;
  for (int k = 0; k < samples; ++k) {
    const VecX q = test::randomConfiguration(a, rng);
    const VecX qd = VecX::Random(n), qdd = VecX::Random(n) * 3;
    forwardKinematics(a, da, q);
    forwardKinematics(b, db, q);
    worst = std::max(worst, poseErr(da.oMtool, db.oMtool));
    toolJacobian(a, da, Ja);
    toolJacobian(b, db, Jb);
    worst = std::max(worst, (Ja - Jb).cwiseAbs().maxCoeff());
    inverseDynamics(a, da, q, qd, qdd, DynamicsOptions{}, ta);
    inverseDynamics(b, db, q, qd, qdd, DynamicsOptions{}, tb);
    worst = std::max(worst, (ta - tb).cwiseAbs().maxCoeff() / std::max(1.0, ta.cwiseAbs().maxCoeff()));
    massMatrix(a, da, q, DynamicsOptions{}, Ma);
    massMatrix(b, db, q, DynamicsOptions{}, Mb);
    worst = std::max(worst, (Ma - Mb).cwiseAbs().maxCoeff() / std::max(1.0, Ma.cwiseAbs().maxCoeff()));
  }
  return worst;
}
}  // namespace

TEST_CASE("URDF export: an origin near pitch ±90° comes back exactly (roll read from order-1 entries)", "[io][urdf][export]") {
  // The SO-101's shoulder_lift origin is rpy = (-1.5708, -1.5708, 0), 3.7e-6 from the gimbal: its export came back
  // 4.4e-11 off, because roll was read from two entries scaled by cos(pitch).
  std::mt19937 rng(5);
  for (const double eps : {1e-2, 3.7e-6, 1e-9, 0.0}) {
    for (const double sign : {-1.0, 1.0}) {
      char rpy[96];
      std::snprintf(rpy, sizeof rpy, "-1.2 %.17g 0.4", sign * (kPi / 2 - eps));
      const std::string urdf = std::string(R"(<robot name="gimbal"><link name="base"/><link name="a"><inertial><mass value="1"/>
        <origin xyz="0.05 0 0.1"/><inertia ixx="0.1" iyy="0.2" izz="0.3" ixy="0" ixz="0" iyz="0"/></inertial></link>
        <joint name="j" type="revolute"><parent link="base"/><child link="a"/><origin xyz="0.1 0.2 0.3" rpy=")") + rpy +
                               R"("/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>)";
      const Model m = modelFromUrdfString(urdf);
      const Model back = modelFromUrdfString(modelToUrdf(m));
      INFO("pitch = " << sign << "·(π/2 − " << eps << ")");
      CHECK(worstDifference(m, back, 5, rng) < 1e-14);
    }
  }
}

TEST_CASE("URDF export round-trips: import(export(m)) has m's joints, kinematics and dynamics", "[io][urdf][export]") {
  // every built-in, every loadable fixture and the third-party trees (tests/peers/test_peers_urdf.cpp has urdfdom
  // read the same exports)
  const std::vector<Model> models = test::everyExportableModel();
  std::mt19937 rng(3);
  for (const Model& m : models) {
    INFO(m.name);
    std::vector<std::string> warnings;
    const std::string text = modelToUrdf(m, &warnings);
    const Model back = modelFromUrdfString(text);
    REQUIRE(back.nq == m.nq);
    CHECK(back.name == m.name);
    CHECK(back.gravity == m.gravity);
    int k = 0;  // the joints of m in order (the export may add one fixed tool joint at the end)
    for (const Joint& j : m.joints) {
      const Joint& r = back.joints[k++];
      CHECK(r.name == j.name);
      CHECK(r.kind == j.kind);
      CHECK(r.parent == j.parent);
      CHECK(r.mimic == j.mimic);
      CHECK(r.mimic_multiplier == j.mimic_multiplier);
      CHECK(r.rho == j.rho);
      CHECK(r.leg_mass == j.leg_mass);
      CHECK(r.leg_radius == j.leg_radius);
      CHECK(r.limits.lower == j.limits.lower);
      CHECK(r.limits.upper == j.limits.upper);
      CHECK(r.limits.velocity == j.limits.velocity);
      CHECK(r.limits.effort == j.limits.effort);
      CHECK(r.link.mass == j.link.mass);
    }
    CHECK(back.njoints() - m.njoints() <= 1);
    CHECK(worstDifference(m, back, 10, rng) < 1e-12);
    const std::string bw = warningsOf(back);  // only PUMA link 1's inertia (as in the original) may warn
    CHECK(bw.find("ignored") == std::string::npos);
    CHECK(bw.find("unknown") == std::string::npos);
    CHECK(bw.find("=\"0\" read as no") == std::string::npos);  // the export's velocity/effort "0" (none) is read silently
  }
  // what URDF cannot carry is listed
  std::vector<std::string> w;
  modelToUrdf(builtinModel("prototype-4a"), &w);
  REQUIRE_FALSE(w.empty());
  CHECK_THAT(w[0], Catch::Matchers::Contains("acceleration limit is not written"));
  // simple visuals when the model has none: link and axis cylinders, the A-pair plates
  const Model proto = modelFromUrdfString(modelToUrdf(builtinModel("prototype-4a")));
  CHECK(proto.geometry.size() >= 4 * 3);
  for (const Geometry& g : proto.geometry) CHECK(g.shape == Geometry::Shape::Cylinder);
}

TEST_CASE("URDF export refuses what URDF cannot express, naming the joint", "[io][urdf][export]") {
  Model m = builtinModel("planar-2r");
  m.joints[1].kind = JointKind::H;
  m.joints[1].pitch = 0.01;
  m.finalize();
  CHECK_THROWS_WITH(modelToUrdf(m), Catch::Matchers::Contains("joint 2 (" + m.joints[1].name + "): a H joint has no URDF form"));
  Model a = builtinModel("prototype-4a");
  a.joints[2].sign = -1;
  a.finalize();
  CHECK_THROWS_WITH(modelToUrdf(a), Catch::Matchers::Contains("joint 3 (elbow): a mirror-image A-pair (sign -1) has no URDF form"));
}

TEST_CASE("geometry stays put in the world when a DH model changes convention", "[io][urdf]") {
  Model m = builtinModel("puma560");
  for (int link = -1; link < m.njoints(); ++link) {
    Geometry g;
    g.link = link;
    g.shape = Geometry::Shape::Box;
    g.size = Vec3(0.1, 0.2, 0.3);
    g.origin = urdfJoint(Vec3(0.01 * link, 0.02, -0.03), Vec3(0.1, -0.2, 0.3 * link), Vec3::UnitZ(), 0);
    m.geometry.push_back(g);
  }
  m.finalize();
  std::mt19937 rng(7);
  const VecX q = test::randomConfiguration(m, rng);
  auto worldPoses = [&](const Model& x) {
    Data d(x);
    forwardKinematics(x, d, q);
    std::vector<SE3> out;
    for (const Geometry& g : x.geometry) out.push_back((g.link < 0 ? x.base : d.oMi[g.link]) * g.origin);
    return out;
  };
  const Model mod = convertConvention(m, DHConvention::Modified);
  const Model back = convertConvention(mod, DHConvention::Standard);
  const auto a = worldPoses(m), b = worldPoses(mod), c = worldPoses(back);
  for (size_t k = 0; k < a.size(); ++k) {
    CHECK(poseErr(a[k], b[k]) < 1e-14);
    CHECK(poseErr(a[k], c[k]) < 1e-14);
  }
}

TEST_CASE("merging fixed joints keeps the mass, the centre of mass and the inertia about any point", "[io][urdf]") {
  // The gripper's tip link is massless; give it mass to see the merge: link 'left' + tip (at z = 0.04)
  std::string text = fixture("gripper_mimic.urdf");
  const std::string tip = "<link name=\"tip_link\"/>";
  text.replace(text.find(tip), tip.size(),
               "<link name=\"tip_link\"><inertial><origin xyz=\"0.01 0 0\" rpy=\"0.3 0 0\"/><mass value=\"0.2\"/>"
               "<inertia ixx=\"2e-5\" iyy=\"3e-5\" izz=\"4e-5\" ixy=\"1e-6\"/></inertial></link>");
  UrdfOptions o;
  o.tool_link = "tip_link";
  const Model fused = modelFromUrdfString(text, o);
  o.keep_fixed = true;
  const Model kept = modelFromUrdfString(text, o);
  REQUIRE(kept.njoints() == fused.njoints() + 1);
  CHECK(fused.joints[1].link.mass == Approx(0.25).epsilon(1e-15));
  std::mt19937 rng(11);
  CHECK(worstDifference(kept, fused, 10, rng) < 1e-12);
}

TEST_CASE("a URDF limit without lower and upper is no position limit (with a warning), not the range [0, 0]", "[io][urdf]") {
  // urdf-loaders' TriATHLETE: <limit effort="0" velocity="0"/> on revolute joints was read as [0, 0] silently,
  // and the MJCF export wrote limited="true" range="0 0", which MuJoCo refuses.
  const Model m = loadFixture("degenerate_limits.urdf");
  CHECK(m.joints[0].limits.lower == -kInf);
  CHECK(m.joints[0].limits.upper == kInf);
  bool warned = false;
  for (const std::string& n : m.notes) warned = warned || n.find("no lower or upper: read as no position limit") != std::string::npos;
  CHECK(warned);
  // lower = upper given on purpose is kept (a locked joint) ...
  CHECK(m.joints[1].limits.lower == 0);
  CHECK(m.joints[1].limits.upper == 0);
}

TEST_CASE("URDF numbers are decimal, attributes single and the root element one, as a browser's XML parser has them", "[io][urdf][errors]") {
  // Before: 0x10 was read as 16 (strtod), and two roots or a repeated attribute loaded natively (pugixml keeps
  // both; the reader took the first) while the studio's parser refused them.
  auto errorOf = [](const std::string& text) {
    try {
      modelFromUrdfString(text);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(loaded)");
  };
  const std::string link = R"(<link name="a"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>)";
  const std::string head = R"(<robot name="r"><link name="base"/>)" + link;
  const std::string joint = R"(<joint name="j" type="revolute"><parent link="base"/><child link="a"/>)";
  CHECK_THAT(errorOf(head + joint + R"(<origin xyz="0x10 0 0"/><limit lower="-1" upper="1"/></joint></robot>)"),
             Catch::Matchers::Contains("attribute xyz='0x10 0 0': '0x10' is not a number (decimal notation only)"));
  CHECK_THAT(errorOf(head + joint + R"(<limit lower="-1" upper="1" lower="-2"/></joint></robot>)"),
             Catch::Matchers::Contains("<limit> at line 1 repeats attribute 'lower'"));
  CHECK_THAT(errorOf(head + joint + R"(<limit lower="-1" upper="1"/></joint></robot>)" + "\n<robot name=\"other\"/>"),
             Catch::Matchers::Contains("a second root element <robot> at line 2"));
  CHECK(errorOf(head + joint + R"(<limit lower="-1" upper="1"/></joint></robot>)") == "(loaded)");
}

TEST_CASE("modelTree names a model's links as its URDF export does: the exported file's own tree agrees", "[io][urdf][tree]") {
  // Before, the studio's tree panel named a model's links in JavaScript, beside modelToUrdf's own naming.
  std::vector<Model> models = exportedModels();
  Model puma_link3 = builtinModel("puma560");
  puma_link3.tool_link = 2;
  models.push_back(puma_link3);
  for (const Model& m : models) {
    INFO(m.name);
    const UrdfTree t = modelTree(m);
    const UrdfTree x = urdfTreeString(modelToUrdf(m));
    REQUIRE(t.links.size() == m.joints.size() + 1);
    CHECK(t.root == x.root);
    // the export's tool is the model's tool link, or "tool0", a fixed frame hung under it (a tool transform)
    if (x.tool_link == "tool0") {
      auto tool0 = std::find_if(x.links.begin(), x.links.end(), [](const UrdfTreeLink& e) { return e.name == "tool0"; });
      REQUIRE(tool0 != x.links.end());
      CHECK(x.links[static_cast<size_t>(tool0->parent)].name == t.tool_link);
    } else {
      CHECK(x.tool_link == t.tool_link);
    }
    CHECK(t.tool_link == t.links[static_cast<size_t>(m.toolLink()) + 1].name);
    for (size_t k = 1; k < t.links.size(); ++k) {
      const UrdfTreeLink& l = t.links[k];
      INFO(l.name);
      const Joint& j = m.joints[k - 1];
      CHECK(l.name == j.name + "_link");
      CHECK(l.depth == t.links[static_cast<size_t>(l.parent)].depth + 1);
      auto same = std::find_if(x.links.begin(), x.links.end(), [&](const UrdfTreeLink& e) { return e.name == l.name; });
      REQUIRE(same != x.links.end());
      CHECK(same->joint.name == l.joint.name);
      CHECK(x.links[static_cast<size_t>(same->parent)].name == t.links[static_cast<size_t>(l.parent)].name);
      CHECK(same->joint.mimic == l.joint.mimic);
      if (j.kind == JointKind::R || j.kind == JointKind::P) {
        CHECK(same->joint.type == l.joint.type);
        CHECK(same->joint.angular == l.joint.angular);
        CHECK(same->joint.limits.lower == l.joint.limits.lower);
        CHECK(same->joint.limits.upper == l.joint.limits.upper);
      }
      if (j.kind == JointKind::A) {
        CHECK(l.joint.type == "A-pair");
        CHECK(l.joint.angular);
      }
    }
    // every link without a child joint is a tool candidate (the export hangs tool0 under the tool link)
    for (const std::string& leaf : t.leaves) {
      const bool exported_leaf = std::find(x.leaves.begin(), x.leaves.end(), leaf) != x.leaves.end();
      CHECK((exported_leaf || leaf == t.tool_link));
    }
  }
  const UrdfTree two = modelTree(twoToolTree());
  CHECK(two.leaves == std::vector<std::string>{"left_elbow_link", "right_slide_link"});
  CHECK(two.tool_link == "left_elbow_link");
}
