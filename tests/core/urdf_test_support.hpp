// Test support for URDF: the fixtures (tests/fixtures/urdf) read as text or as models, and the lists of models the
// export tests write (io's round trip, the peers' second parsers: urdfdom for URDF, MuJoCo for MJCF).
#pragma once
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <achain/io/robot.hpp>
#include <achain/io/urdf.hpp>
#include <achain/model/model.hpp>
#include <achain/model/robots.hpp>

#include "test_paths.hpp"

namespace achain::test {

/// The text of tests/fixtures/urdf/<name> (name may hold a folder: "third-party/panda.urdf").
inline std::string urdfFixtureText(const std::string& name) {
  const std::string path = sourceDir() + "/tests/fixtures/urdf/" + name;
  std::ifstream f(path);
  REQUIRE(f.good());
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline Model loadUrdfFixture(const std::string& name, const UrdfOptions& o = {}) {
  return modelFromUrdfString(urdfFixtureText(name), o);
}

/// A fixture with its tool on `tool_link`.
inline Model loadUrdfFixture(const std::string& name, const std::string& tool_link) {
  UrdfOptions o;
  o.tool_link = tool_link;
  return loadUrdfFixture(name, o);
}

/// tree_two_tools.urdf with its left tool.
inline Model twoToolTree() { return loadUrdfFixture("tree_two_tools.urdf", "left_tool"); }

/// The models the export tests write: builtins (one in the modified convention), URDF fixtures (a mimic gripper and
/// a two-tool tree with their tool links, an A-pair).
inline std::vector<Model> exportedModels() {
  std::vector<Model> models;
  for (const char* name : {"puma560", "prototype-4a", "prototype-4r", "stanford", "planar-2r"}) models.push_back(builtinModel(name));
  models.push_back(convertConvention(builtinModel("prototype-4a"), DHConvention::Modified));
  models.push_back(loadUrdfFixture("puma560.urdf"));
  models.push_back(loadUrdfFixture("gripper_mimic.urdf", "tip_link"));
  models.push_back(twoToolTree());
  models.push_back(loadUrdfFixture("apair.urdf"));
  return models;
}

/// The six third-party trees of tests/fixtures/urdf/third-party (README there) with the tool links the studio's
/// test picks.
inline std::vector<Model> thirdPartyModels() {
  std::vector<Model> models;
  for (const auto& [file, tool] : std::vector<std::pair<const char*, const char*>>{
           {"panda.urdf", "panda_hand"},
           {"pr2.urdf", "r_gripper_tool_frame"},
           {"T12.URDF", "Foot1"},
           {"TriATHLETE.URDF", "Wheel1"},
           {"ability_hand_right_large.urdf", "index_anchor"},
           {"dclaw_gripper.urdf", "link_f1_head"}})
    models.push_back(loadUrdfFixture(std::string("third-party/") + file, tool));
  return models;
}

/// Every model a fixture or a built-in gives that URDF and MJCF can carry: every built-in serial robot, every
/// fixture that loads (the others are bad-input fixtures), the third-party trees, and the PUMA in the modified
/// convention.
inline std::vector<Model> everyExportableModel() {
  std::vector<Model> models;
  for (const auto& r : builtinRobots()) models.push_back(builtinModel(r.name));
  models.push_back(convertConvention(builtinModel("puma560"), DHConvention::Modified));
  for (const char* name : {"apair.urdf", "degenerate_limits.urdf", "floating.urdf", "gazebo.urdf", "planar.urdf", "puma560.urdf",
                           "transmission.urdf", "triangle_inertia.urdf"})
    models.push_back(loadUrdfFixture(name));
  models.push_back(loadUrdfFixture("gripper_mimic.urdf", "tip_link"));
  models.push_back(twoToolTree());
  for (Model& m : thirdPartyModels()) models.push_back(std::move(m));
  return models;
}

}  // namespace achain::test
