// modelToMjcf without MuJoCo: the written elements (bodies, joints, ranges, equality, site, visual geoms without
// contacts), the quartic fit of the A-pair law and its reported error, and the refusals naming the joint.
// The MuJoCo round trip (load, FK, RNEA, M) is tests/peers/test_peers_mjcf.cpp.
#include <catch2/catch.hpp>

#include <achain/io/mjcf.hpp>
#include <achain/io/urdf.hpp>
#include <fstream>
#include <sstream>
#include <achain/io/xml_tree.hpp>
#include <achain/io/robot.hpp>
#include "test_paths.hpp"

using namespace achain;

namespace {
void collect(const XmlElement& e, const std::string& name, std::vector<const XmlElement*>& out) {
  if (e.name == name) out.push_back(&e);
  for (const XmlElement& c : e.children) collect(c, name, out);
}
std::vector<const XmlElement*> all(const XmlElement& root, const std::string& name) {
  std::vector<const XmlElement*> v;
  collect(root, name, v);
  return v;
}
std::string attr(const XmlElement& e, const std::string& k) {
  const std::string* v = e.attribute(k);
  return v ? *v : std::string();
}
}  // namespace

TEST_CASE("MJCF export of the prototype 4A: nested bodies, hinge + slide per A-pair, a fitted joint equality, the tool site", "[io][mjcf]") {
  const Model m = builtinModel("prototype-4a");
  std::vector<std::string> warnings;
  const XmlElement root = parseXml(modelToMjcf(m, &warnings));
  CHECK(root.name == "mujoco");
  const auto bodies = all(root, "body");
  REQUIRE(bodies.size() == 4);
  CHECK(all(*bodies[0], "body").size() == 4);  // nested as the chain: the first body holds all four
  const auto joints = all(root, "joint");
  REQUIRE(joints.size() == 12);  // 4 hinges, 4 slides, 4 equalities
  CHECK(attr(*joints[0], "type") == "hinge");
  CHECK(attr(*joints[0], "limited") == "true");
  CHECK(attr(*joints[1], "type") == "slide");
  const auto eq = all(root, "equality");
  REQUIRE(eq.size() == 1);
  REQUIRE(eq[0]->children.size() == 4);
  CHECK(attr(eq[0]->children[0], "joint1") == m.joints[0].name + "_slide");
  CHECK(attr(eq[0]->children[0], "joint2") == m.joints[0].name);
  CHECK(all(root, "site").size() == 1);
  for (const XmlElement* g : all(root, "geom")) {
    CHECK(attr(*g, "contype") == "0");
    CHECK(attr(*g, "conaffinity") == "0");
  }
  // the fit warning carries the error: below 10 µm for ρ = 0.1437 m over [60°, 300°]
  int fits = 0;
  for (const std::string& w : warnings) {
    const auto at = w.find("max error ");
    if (at == std::string::npos) continue;
    ++fits;
    const double err = std::stod(w.substr(at + 10));
    CHECK(err > 1e-6);
    CHECK(err < 1e-5);
  }
  CHECK(fits == 4);
}

TEST_CASE("MJCF export of an H joint: a linear polycoef, exact", "[io][mjcf]") {
  Model m = builtinModel("planar-2r");
  m.joints[1].kind = JointKind::H;
  m.joints[1].pitch = 0.01;
  m.joints[1].sign = -1;
  m.finalize();
  std::vector<std::string> warnings;
  const XmlElement root = parseXml(modelToMjcf(m, &warnings));
  const auto eq = all(root, "equality");
  REQUIRE(eq.size() == 1);
  CHECK(attr(eq[0]->children[0], "polycoef") == "0 -0.01 0 0 0");
  for (const std::string& w : warnings) CHECK(w.find("fitted") == std::string::npos);
}

TEST_CASE("MJCF export refuses what MJCF cannot hold, naming the joint", "[peers][mjcf]") {
  Model m = builtinModel("prototype-4a");
  m.joints[2].limits.lower = -kInf;
  m.joints[2].limits.upper = kInf;
  m.finalize();
  try {
    modelToMjcf(m);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("joint 3 (" + m.joints[2].name + ")") != std::string::npos);
    CHECK(std::string(e.what()).find("finite position range") != std::string::npos);
  }
  Model p = builtinModel("planar-2r");
  p.joints[1].limits.upper = kInf;
  p.finalize();
  CHECK_THROWS_WITH(modelToMjcf(p), Catch::Contains("joint 2 (") && Catch::Contains("one-sided"));
}

TEST_CASE("MJCF export of a URDF arm with meshes: shapes kept, meshes and lost limits warned, MuJoCo's inertia rules flagged", "[io][mjcf]") {
  std::ifstream f(achain::test::sourceDir() + "/tests/fixtures/urdf/puma560.urdf");
  std::stringstream text;
  text << f.rdbuf();
  const Model m = modelFromUrdfString(text.str());
  std::vector<std::string> w;
  const XmlElement root = parseXml(modelToMjcf(m, &w));
  auto count = [&](const std::string& s) {
    int c = 0;
    for (const std::string& x : w) c += x.find(s) != std::string::npos;
    return c;
  };
  CHECK(count("mesh shapes are not written") == 1);
  CHECK(count("the velocity, effort limits are not written") == 6);
  CHECK(count("joint 1 (j1): the moving link has zero mass") == 1);
  CHECK(count("triangle inequality") == 2);
  REQUIRE(all(root, "compiler").size() == 1);
  CHECK(attr(*all(root, "compiler")[0], "balanceinertia") == "true");
  const auto geoms = all(root, "geom");
  REQUIRE(geoms.size() == 1);  // the collision cylinder; the visuals are meshes
  CHECK(attr(*geoms[0], "type") == "cylinder");
  CHECK(attr(*geoms[0], "group") == "3");
}
