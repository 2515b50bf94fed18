// DH extraction (model/dh_extract.hpp): a URDF arm whose link frames are not DH frames gets a standard-DH chain
// with the same FK to 1e-12, the closed-form IK then solves it (the PUMA's 8 solutions, equal to the built-in
// puma560's), the built-ins exported to URDF and read back keep their closed forms, and chains that admit no DH
// description (a tree, a mimic coupling) say why.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

#include <achain/ik/closed_form.hpp>
#include <achain/io/urdf.hpp>
#include <achain/model/dh_extract.hpp>
#include <achain/io/robot.hpp>

#include "helpers.hpp"
#include "test_paths.hpp"

using namespace achain;

namespace {

std::string fixture(const std::string& name) {
  std::ifstream f(achain::test::sourceDir() + "/tests/fixtures/urdf/" + name);
  REQUIRE(f.good());
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

double poseErr(const SE3& a, const SE3& b) {
  return std::max((a.R - b.R).cwiseAbs().maxCoeff(), (a.p - b.p).cwiseAbs().maxCoeff());
}

Mat3 randomRotation(std::mt19937& rng) {
  std::normal_distribution<double> N(0, 1);
  Eigen::Quaterniond q(N(rng), N(rng), N(rng), N(rng));
  return q.normalized().toRotationMatrix();
}

std::string num(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

std::string originXml(const SE3& T) {
  // URDF rpy: R = Rz(yaw) Ry(pitch) Rx(roll)
  const Mat3& R = T.R;
  const double pitch = std::asin(std::max(-1.0, std::min(1.0, -R(2, 0))));
  const double roll = std::atan2(R(2, 1), R(2, 2)), yaw = std::atan2(R(1, 0), R(0, 0));
  return "<origin xyz=\"" + num(T.p.x()) + " " + num(T.p.y()) + " " + num(T.p.z()) + "\" rpy=\"" + num(roll) + " " +
         num(pitch) + " " + num(yaw) + "\"/>";
}

/// The built-in PUMA 560 written as URDF with scrambled link frames: joint i's frame is DH frame i−1 moved along
/// its axis by a random length and turned by a random rotation (so the axis is a random unit vector of the joint
/// frame), the world → DH frame 0 transform is a random pose, and a fixed joint carries the DH tool frame.
std::string scrambledPuma(const Model& dh, std::mt19937& rng, SE3& base_out) {
  std::uniform_real_distribution<double> U(-0.3, 0.3);
  SE3 B;
  B.R = randomRotation(rng);
  B.p = Vec3(U(rng), U(rng), U(rng));
  base_out = B;
  Data d(dh);
  forwardKinematics(dh, d, VecX::Zero(dh.nq));
  std::ostringstream x;
  x << "<robot name=\"scrambled_puma\">\n<link name=\"world\"/>\n";
  SE3 parent = SE3::Identity();  // world ← link i−1 at q = 0
  for (int i = 0; i < 6; ++i) {
    const SE3 Dprev = B * (i == 0 ? dh.base : d.oMi[i - 1]);
    SE3 J;  // world ← joint frame: along the axis by t, then a random turn
    J.R = Dprev.R * randomRotation(rng);
    J.p = Dprev.p + U(rng) * Dprev.R.col(2);
    const Vec3 axis = J.R.transpose() * Dprev.R.col(2);
    const JointLimits& L = dh.joints[i].limits;
    x << "<joint name=\"" << dh.joints[i].name << "\" type=\"revolute\"><parent link=\"" << (i == 0 ? std::string("world") : "l" + std::to_string(i - 1))
      << "\"/><child link=\"l" << i << "\"/>" << originXml(parent.inverse() * J) << "<axis xyz=\"" << num(axis.x()) << " "
      << num(axis.y()) << " " << num(axis.z()) << "\"/><limit lower=\"" << num(L.lower) << "\" upper=\"" << num(L.upper)
      << "\" velocity=\"3\" effort=\"100\"/></joint>\n<link name=\"l" << i << "\"/>\n";
    parent = J;
  }
  x << "<joint name=\"flange\" type=\"fixed\"><parent link=\"l5\"/><child link=\"tool0\"/>"
    << originXml(parent.inverse() * B * d.oMtool) << "</joint>\n<link name=\"tool0\"/>\n</robot>\n";
  return x.str();
}

/// The solution sets of two ikAll results agree: every q of one is within tol of one of the other.
void checkSameSolutions(const IkAllResult& a, const IkAllResult& b, double tol) {
  REQUIRE(a.solutions.size() == b.solutions.size());
  REQUIRE(a.outside_limits.size() == b.outside_limits.size());
  for (const auto* list : {&a.solutions, &a.outside_limits}) {
    const auto& other = list == &a.solutions ? b.solutions : b.outside_limits;
    for (const IkSolution& s : *list) {
      double best = kInf;
      for (const IkSolution& o : other) best = std::min(best, (s.q - o.q).cwiseAbs().maxCoeff());
      CHECK(best < tol);
    }
  }
}

}  // namespace

TEST_CASE("DH extraction: a PUMA written as URDF with scrambled link frames gets a DH chain with the same FK", "[model][dh]") {
  const Model dh = builtinModel("puma560");
  std::mt19937 rng(1125);
  for (int trial = 0; trial < 5; ++trial) {
    SE3 B;
    const Model u = modelFromUrdfString(scrambledPuma(dh, rng, B));
    REQUIRE_FALSE(u.has_dh);
    REQUIRE(u.nq == 6);
    const DHExtraction x = extractDH(u);
    INFO("trial " << trial << ": " << x.reason);
    REQUIRE(x.ok);
    CHECK(dhStatus(u) == "extracted");
    CHECK(x.model.has_dh);
    CHECK(x.model.convention == DHConvention::Standard);
    CHECK(x.joints == std::vector<int>{0, 1, 2, 3, 4, 5});
    CHECK(x.fk_error < 1e-12);
    // The geometry of the arm is recovered: |a|, d and |cos α| of joints 1–5 equal Corke's (x directions, and
    // so the signs of α and θ offsets, are a choice of the construction; d₁ depends on where frame 0 sits on
    // axis 1, which the URDF's world frame, moved by B, decides).
    for (int i = 0; i < 5; ++i) {
      INFO("joint " << i + 1);
      CHECK(std::abs(x.model.joints[i].a) == Approx(std::abs(dh.joints[i].a)).margin(1e-12));
      if (i > 0) CHECK(x.model.joints[i].d == Approx(dh.joints[i].d).margin(1e-12));
      CHECK(std::abs(std::cos(x.model.joints[i].alpha)) == Approx(std::abs(std::cos(dh.joints[i].alpha))).margin(1e-12));
    }
    CHECK(std::abs(x.model.joints[5].a) < 1e-15);  // the last frame: a_n = α_n = 0 by construction
    CHECK(std::abs(x.model.joints[5].alpha) < 1e-15);
    // FK of the extracted chain, the URDF model and the built-in (moved by B) agree at random configurations.
    double fk = 0;
    for (int k = 0; k < 50; ++k) {
      const VecX q = test::randomConfiguration(dh, rng);
      const SE3 Tu = test::fkPose(u, q);
      fk = std::max(fk, poseErr(Tu, test::fkPose(x.model, q)));
      fk = std::max(fk, poseErr(Tu, B * test::fkPose(dh, q)));
    }
    CHECK(fk < 1e-12);
    std::string why;
    CHECK(isWristPartitioned6R(u, &why));
    CHECK(why.empty());
  }
}

TEST_CASE("Closed-form IK on the URDF PUMA returns the built-in puma560's 8 solutions", "[model][dh][ik]") {
  const Model dh = builtinModel("puma560");
  std::mt19937 rng(560);
  SE3 B;
  const Model u = modelFromUrdfString(scrambledPuma(dh, rng, B));
  const Model fixture_model = modelFromUrdfString(fixture("puma560.urdf"));
  UrdfOptions keep;
  keep.keep_fixed = true;
  const Model fixture_kept = modelFromUrdfString(fixture("puma560.urdf"), keep);
  REQUIRE(fixture_kept.njoints() == 7);  // the fixed tool joint kept: 7 joints, 6 coordinates
  int eight = 0;
  for (int k = 0; k < 20; ++k) {
    const VecX q = test::randomConfiguration(dh, rng);
    const SE3 T = test::fkPose(dh, q);
    const IkAllResult ref = ikAll(dh, T, IkMethod::Closed, IkOptions{});
    const IkAllResult a = ikAll(u, B * T, IkMethod::Auto, IkOptions{});
    CHECK(a.method == IkMethod::Closed);
    REQUIRE(ref.status == IkStatus::Ok);
    CHECK(a.status == IkStatus::Ok);
    checkSameSolutions(a, ref, 1e-9);
    for (const IkSolution& s : a.solutions) CHECK(poseErr(test::fkPose(u, s.q), B * T) < 1e-9);
    eight += ref.solutions.size() + ref.outside_limits.size() == 8;
    const IkAllResult f = ikAll(fixture_model, T, IkMethod::Closed, IkOptions{});
    checkSameSolutions(f, ref, 1e-9);
    const IkAllResult fk = ikAll(fixture_kept, T, IkMethod::Closed, IkOptions{});
    checkSameSolutions(fk, ref, 1e-9);
  }
  CHECK(eight >= 15);  // the regular case: 8 solutions (inside and outside the limits together)
}

TEST_CASE("Built-ins exported to URDF and read back keep their DH chains and closed forms", "[model][dh][ik]") {
  std::mt19937 rng(4);
  for (const char* name : {"puma560", "prototype-4r", "prototype-4a", "stanford", "planar-2r"}) {
    INFO(name);
    const Model dh = builtinModel(name);
    const Model u = modelFromUrdfString(modelToUrdf(dh));
    REQUIRE_FALSE(u.has_dh);
    const DHExtraction x = extractDH(u);
    INFO(x.reason);
    REQUIRE(x.ok);
    CHECK(isPrototypeClass(u) == isPrototypeClass(dh));
    CHECK(isWristPartitioned6R(u) == isWristPartitioned6R(dh));
    if (!hasClosedForm(dh)) continue;
    for (int k = 0; k < 5; ++k) {
      const VecX q = test::randomConfiguration(dh, rng);
      const SE3 T = test::fkPose(dh, q);
      const IkAllResult ref = ikAll(dh, T, IkMethod::Closed, IkOptions{});
      const IkAllResult a = ikAll(u, test::fkPose(u, q), IkMethod::Closed, IkOptions{});
      CHECK(a.status == ref.status);
      checkSameSolutions(a, ref, 1e-9);
    }
  }
  CHECK(hasClosedForm(builtinModel("prototype-4a")));  // the A-pair chain is covered by the loop above
}

TEST_CASE("Chains without a DH description report why", "[model][dh]") {
  UrdfOptions right;
  right.tool_link = "right_tool";
  const Model tree = modelFromUrdfString(fixture("tree_two_tools.urdf"), right);
  const DHExtraction t = extractDH(tree);
  CHECK_FALSE(t.ok);
  CHECK_THAT(t.reason, Catch::Contains("off the path from the base to the tool"));
  CHECK_THAT(dhStatus(tree), Catch::StartsWith("none (") && Catch::Contains("a tree"));

  UrdfOptions tip;
  tip.tool_link = "tip_link";
  const Model grip = modelFromUrdfString(fixture("gripper_mimic.urdf"), tip);  // two fingers: a tree
  CHECK_THAT(extractDH(grip).reason, Catch::Contains("off the path"));

  // A serial chain whose elbow follows the shoulder (a mimic coupling on the tool's path).
  const Model coupled = modelFromUrdfString(R"(<robot name="coupled">
    <link name="base"/><link name="upper"/><link name="fore"/>
    <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/><axis xyz="0 1 0"/>
      <limit lower="-2" upper="2" velocity="1" effort="1"/></joint>
    <joint name="elbow" type="revolute"><parent link="upper"/><child link="fore"/><origin xyz="0 0 0.3"/><axis xyz="0 1 0"/>
      <limit lower="-2" upper="2" velocity="1" effort="1"/><mimic joint="shoulder" multiplier="-2"/></joint>
  </robot>)");
  const DHExtraction g = extractDH(coupled);
  CHECK_FALSE(g.ok);
  CHECK(g.reason == "joints[1] 'elbow' mimics joints[0] 'shoulder': a coupling, and DH gives each joint its own coordinate");
  std::string why;
  CHECK_FALSE(isPrototypeClass(coupled, &why));
  CHECK_THAT(why, Catch::Contains("no DH description") && Catch::Contains("mimics"));
  CHECK_THROWS_WITH(ikAll(coupled, SE3::Identity(), IkMethod::Closed, IkOptions{}), Catch::Contains("mimics"));

  CHECK(dhStatus(builtinModel("puma560")) == "given");
}

TEST_CASE("DH extraction: coincident axes, a prismatic joint, a near-coincident parallel pair and kept fixed joints", "[model][dh]") {
  const std::string urdf = R"(<robot name="odd">
    <link name="base"/><link name="l1"/><link name="l2"/><link name="flange"/><link name="l3"/><link name="l4"/>
    <joint name="turn" type="revolute"><parent link="base"/><child link="l1"/><origin xyz="0.1 0 0.05" rpy="0 0 0.3"/>
      <axis xyz="0 0 1"/><limit lower="-3" upper="3" velocity="1" effort="1"/></joint>
    <joint name="spin" type="continuous"><parent link="l1"/><child link="l2"/><origin xyz="0 0 0.2" rpy="0 0 1.1"/><axis xyz="0 0 -1"/></joint>
    <joint name="bolt" type="fixed"><parent link="l2"/><child link="flange"/><origin xyz="0.05 0.02 0" rpy="0.4 0 0"/></joint>
    <joint name="slide" type="prismatic"><parent link="flange"/><child link="l3"/><origin xyz="0.3 0 0" rpy="0 1.5707963267948966 0"/>
      <axis xyz="1 0 0"/><limit lower="0" upper="0.4" velocity="1" effort="1"/></joint>
    <joint name="twin" type="revolute"><parent link="l3"/><child link="l4"/><origin xyz="0 3e-11 0.1"/><axis xyz="1 0 0"/>
      <limit lower="-3" upper="3" velocity="1" effort="1"/></joint>
  </robot>)";
  UrdfOptions keep;
  keep.keep_fixed = true;
  for (const bool kept : {false, true}) {
    INFO("keep fixed " << kept);
    const Model m = modelFromUrdfString(urdf, kept ? keep : UrdfOptions{});
    REQUIRE(m.njoints() == (kept ? 5 : 4));
    const DHExtraction x = extractDH(m);
    INFO(x.reason);
    REQUIRE(x.ok);
    REQUIRE(x.model.njoints() == 4);
    CHECK(x.fk_error < 1e-12);
    // turn and spin share their axis (opposite directions): a = 0, α = π, d = 0.2
    CHECK(std::abs(x.model.joints[0].a) < 1e-15);
    CHECK(std::abs(std::abs(x.model.joints[0].alpha) - kPi) < 1e-12);
    CHECK(x.model.joints[1].sign == 1);
    CHECK(x.model.joints[2].kind == JointKind::P);
    std::mt19937 rng(7);
    double fk = 0;
    for (int k = 0; k < 30; ++k) {
      const VecX q = test::randomConfiguration(m, rng);
      fk = std::max(fk, poseErr(test::fkPose(m, q), test::fkPose(x.model, q)));
    }
    CHECK(fk < 1e-12);
  }
}
