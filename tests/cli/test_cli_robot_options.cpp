// Every subcommand that takes --robot gets it through the one shared option set (RobotArgs): a branched URDF with
// --tool-link works everywhere, and a subcommand that needs a section a URDF cannot hold (a loop, flexible links)
// says so, never a usage error.
#include <catch2/catch.hpp>

#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "cli_runner.hpp"
#include "test_paths.hpp"

using achain::test::CliResult;
using achain::test::runCli;

namespace {

/// The subcommands `achain --help` lists (aliases after a comma dropped).
std::vector<std::string> subcommands() {
  const CliResult h = runCli("--help");
  REQUIRE(h.status == 0);
  std::vector<std::string> out;
  std::istringstream in(h.out);
  std::string line;
  bool listing = false;
  while (std::getline(in, line)) {
    if (line.rfind("Subcommands:", 0) == 0) {
      listing = true;
      continue;
    }
    if (!listing || line.size() < 3 || line[0] != ' ' || line[2] == ' ') continue;
    std::string name = line.substr(2, line.find_first_of(" ,", 2) - 2);
    out.push_back(name);
  }
  return out;
}

}  // namespace

TEST_CASE("every subcommand taking --robot takes a branched URDF with --tool-link", "[cli][urdf][robot]") {
  const std::string urdf = achain::test::sourceDir() + "/tests/fixtures/urdf/tree_two_tools.urdf";
  const std::string robot = " --robot " + urdf + " --tool-link right_tool";
  const std::string q = "0.1,0.2,0.3,0.4,0.05", q2 = "0.3,-0.2,0.5,-0.4,0.1";
  const std::string traj = achain::test::tempPath(".json");
  // The tree's trajectory, planned by traj on the same robot (the URDF gives no acceleration limits: --amax).
  const CliResult t = runCli("traj" + robot + " --from " + q + " --to " + q2 + " --amax 2,2,2,2,2 --out " + traj);
  REQUIRE(t.status == 0);

  // What each subcommand is given, and the error it must name when the URDF cannot hold what it needs ("" = runs).
  struct Case {
    std::string args, error;
  };
  const std::map<std::string, Case> cases = {
      {"fk", {"--q " + q, ""}},
      {"jacobian", {"--q " + q, ""}},
      {"ik", {"--q-target " + q, ""}},
      {"influence", {"--q " + q, ""}},
      {"manipulability", {"--q " + q, ""}},
      {"mass", {"--q " + q, ""}},
      {"fd", {"--q " + q, ""}},
      {"id", {"--q " + q, ""}},
      {"statics", {"--q " + q + " --wrench 1,0,0,0,0,0", ""}},
      {"cartesian-inertia", {"--q " + q, ""}},
      {"dynamic-manipulability", {"--q " + q, ""}},
      {"linearize", {"--q " + q, ""}},
      {"sim", {"--q " + q + " --duration 0.01", ""}},
      {"traj", {"--from " + q + " --to " + q2 + " --amax 2,2,2,2,2", ""}},
      {"analyze", {"--traj " + traj, ""}},
      {"work", {"--traj " + traj, ""}},
      {"interpolate-cartesian", {"--from " + q + " --to " + q2, ""}},
      {"export", {"--format urdf", ""}},
      {"workspace", {"--voxel 0.1", ""}},
      {"redundant", {"--rows x,y,z --q " + q, ""}},
      {"drive-modes", {"--q " + q + " --drive-stiffness 100", ""}},
      {"drive-check", {"--from " + q + " --to " + q2 + " --drive-stiffness 1000 --profile quintic --duration 1", ""}},
      {"send", {"--virtual " + traj + " --quiet", ""}},
      {"controller-sim", {"--duration 0.2", ""}},
      {"apair-exact", {"", "--joint 0 (waist): not an A-pair"}},
      {"closure", {"", "the robot file has no loop section"}},
      {"special-loop", {"", "the robot file has no loop section"}},
      {"flex-link", {"--link 4", "has no flexible block (flexible: none)"}},
      {"flex-modes", {"--q " + q, "flexible links are declared in a robot JSON file"}},
      {"flex-deflection", {"--q " + q + " --force 1,0,0", "flexible links are declared in a robot JSON file"}},
      {"flex-simulate", {"--q " + q, "flexible links are declared in a robot JSON file"}},
      // a parallel mechanism (legs and a platform) is a file format of its own: a URDF cannot describe one
      {"parallel", {"", "not a parallel robot file (no parallel section)"}},
  };

  std::set<std::string> taking_robot;
  for (const std::string& sub : subcommands()) {
    const CliResult h = runCli(sub + " --help");
    REQUIRE(h.status == 0);
    if (h.out.find("--robot") == std::string::npos) continue;
    taking_robot.insert(sub);
    INFO("achain " << sub);
    CHECK(h.out.find("--tool-link") != std::string::npos);
    const auto it = cases.find(sub);
    REQUIRE(it != cases.end());  // a new subcommand taking --robot gets a row above
    const CliResult r = runCli(sub + robot + " " + it->second.args);
    INFO(r.err);
    if (it->second.error.empty()) {
      CHECK(r.status == 0);
      if (sub != "export") CHECK_NOTHROW(r.json());
    } else {
      CHECK(r.status == 1);  // a domain error, not a usage error (2)
      CHECK(r.err.find(it->second.error) != std::string::npos);
    }
  }
  CHECK(taking_robot.size() == cases.size());  // no row for a subcommand that no longer takes --robot
  std::remove(traj.c_str());
}

TEST_CASE("the tool link of a tree: fk and id follow the link --tool-link names", "[cli][urdf][robot]") {
  const std::string urdf = " --robot " + achain::test::sourceDir() + "/tests/fixtures/urdf/tree_two_tools.urdf";
  const std::string q = " --q 0.1,0.2,0.3,0.4,0.05";
  const CliResult right = runCli("fk" + urdf + " --tool-link right_tool --frames" + q);
  const CliResult left = runCli("fk" + urdf + " --tool-link left_tool --frames" + q);
  REQUIRE(right.status == 0);
  REQUIRE(left.status == 0);
  const auto jr = right.json(), jl = left.json();
  // the tool sits on its link's frame (no tool offset): right_slide moves right_tool, left_elbow moves left_tool
  REQUIRE(jr["frames"].size() == 5);
  for (int r = 0; r < 3; ++r) {
    CHECK(jr["p"][r].get<double>() == Approx(jr["frames"][4][r][3].get<double>()).margin(1e-12));
    CHECK(jl["p"][r].get<double>() == Approx(jl["frames"][2][r][3].get<double>()).margin(1e-12));
  }
  CHECK(std::abs(jr["p"][1].get<double>() - jl["p"][1].get<double>()) > 0.1);
  // id with --tool-link (a usage error before the shared option set): gravity torques of the whole tree, the same
  // whichever link carries the tool
  const CliResult ir = runCli("id" + urdf + " --tool-link right_tool" + q), il = runCli("id" + urdf + " --tool-link left_tool" + q);
  REQUIRE(ir.status == 0);
  REQUIRE(il.status == 0);
  for (int i = 0; i < 5; ++i) CHECK(ir.json()["tau"][i].get<double>() == Approx(il.json()["tau"][i].get<double>()).margin(1e-9));
  CHECK(std::abs(ir.json()["tau"][3].get<double>()) > 1e-3);  // the right arm carries load
}

TEST_CASE("one lookup for every built-in: a parallel robot goes to parallel, a chain's subcommand refuses it", "[cli][robot]") {
  const CliResult p = runCli("parallel --robot parallel-3rrr");
  REQUIRE(p.status == 0);
  CHECK(p.json()["robot"] == "parallel-3rrr");
  for (const std::string sub : {"fk --q 0,0,0", "mass --q 0,0,0", "workspace --voxel 0.1"}) {
    const CliResult r = runCli(sub + " --robot stewart-6ups");
    INFO(sub << ": " << r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find("stewart-6ups: a parallel robot file (6 legs and a platform, not one chain; `achain parallel` reads it)") !=
          std::string::npos);
  }
  // validate and robots know them too
  const CliResult v = runCli("validate stewart-6ups");
  REQUIRE(v.status == 0);
  CHECK(v.json()["format"] == "parallel");
  CHECK(v.json()["legs"].size() == 6);
  CHECK(v.json()["freedoms"] == 6);
  const CliResult l = runCli("robots");
  REQUIRE(l.status == 0);
  int planar = 0;
  const auto listing = l.json();
  for (const auto& r : listing["parallel"]) planar += r["name"] == "parallel-3rrr" && r["freedoms"] == 3 && r["legs"] == 3;
  CHECK(planar == 1);
  const CliResult s = runCli("parallel --robot puma560");
  CHECK(s.status == 1);
  CHECK(s.err.find("puma560: not a parallel robot file (no parallel section)") != std::string::npos);
}
