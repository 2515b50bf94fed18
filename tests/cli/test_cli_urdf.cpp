// URDF files wherever a robot loads: --robot FILE.urdf, validate, the tool link option, warnings on stderr.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_runner.hpp"
#include "test_paths.hpp"

using achain::test::CliResult;
using achain::test::runCli;

namespace {
std::string fixture(const std::string& name) { return achain::test::sourceDir() + "/tests/fixtures/urdf/" + name; }
}  // namespace

TEST_CASE("achain fk --robot x.urdf: the PUMA URDF gives the built-in's tool pose", "[cli][urdf]") {
  const std::string q = " --q 10,30,-60,45,-30,200 --deg";
  const CliResult u = runCli("fk --robot " + fixture("puma560.urdf") + q);
  const CliResult d = runCli("fk --robot puma560" + q);
  REQUIRE(u.status == 0);
  REQUIRE(d.status == 0);
  const auto ju = nlohmann::json::parse(u.out), jd = nlohmann::json::parse(d.out);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) CHECK(ju["T"][r][c].get<double>() == Approx(jd["T"][r][c].get<double>()).margin(1e-12));
  CHECK(ju["within_limits"] == true);
  // the file's warnings (link 1's inertia, the transmission) go to stderr, one line each
  CHECK(u.err.find("achain: warning: <transmission name='trans1'> (line 80)") != std::string::npos);
}

TEST_CASE("achain validate x.urdf: summary with warnings, a tree needs --tool-link", "[cli][urdf]") {
  const CliResult f = runCli("validate " + fixture("floating.urdf"));
  REQUIRE(f.status == 0);
  const auto j = nlohmann::json::parse(f.out);
  CHECK(j["valid"] == true);
  CHECK(j["dof"] == 1);
  REQUIRE(j["warnings"].size() == 2);  // the floating joint, and its link's mass merged into the fixed base
  CHECK(j["warnings"][0].get<std::string>().find("joint type 'floating' cannot be represented") != std::string::npos);
  const CliResult t = runCli("validate " + fixture("tree_two_tools.urdf"));
  CHECK(t.status == 1);
  CHECK(t.err.find("2 leaf links ('left_tool', 'right_tool')") != std::string::npos);
  const CliResult ok = runCli("jacobian --robot " + fixture("tree_two_tools.urdf") + " --tool-link right_tool --q 0,0,0,0,0.1");
  CHECK(ok.status == 0);
  const CliResult bad = runCli("validate " + fixture("cycle.urdf"));
  CHECK(bad.status == 1);
  CHECK(bad.err.find("cycle.urdf: URDF <joint name='ab'> (line 13): not reachable from the root link") != std::string::npos);
  const CliResult js = runCli("validate --tool-link x " + achain::test::sourceDir() + "/core/robots/planar-2r.json");
  CHECK(js.status == 1);
  CHECK(js.err.find("tool link: for URDF files only") != std::string::npos);
}

TEST_CASE("achain ik on a URDF arm: the closed form through the extracted DH chain, the built-in's 8 solutions", "[cli][urdf]") {
  const std::string robot = " --robot " + fixture("puma560.urdf");
  const std::string target = " --q-target 10,30,-60,45,-30,100 --deg";
  const CliResult a = runCli("ik --all" + robot + target);
  const CliResult d = runCli("ik --all --robot puma560" + target);
  REQUIRE(a.status == 0);
  REQUIRE(d.status == 0);
  const auto ja = nlohmann::json::parse(a.out), jd = nlohmann::json::parse(d.out);
  CHECK(ja["method"] == "closed");
  CHECK(ja["status"] == "ok");
  REQUIRE(ja["solutions"].size() + ja["outside_limits"].size() == 8);
  // the same set (the order of candidates without a seed follows the DH frames' x directions)
  REQUIRE(ja["solutions_deg"].size() == jd["solutions_deg"].size());
  REQUIRE(ja["solutions_deg"].size() == 3);
  for (const auto& s : ja["solutions_deg"]) {
    double best = 1e9;
    for (const auto& t : jd["solutions_deg"]) {
      double d = 0;
      for (int i = 0; i < 6; ++i) d = std::max(d, std::abs(s[i].get<double>() - t[i].get<double>()));
      best = std::min(best, d);
    }
    CHECK(best < 1e-7);
  }
  // --keep-fixed: the tool's fixed joint stays a joint (7 joints, 6 coordinates); the answer has 6 values each
  const CliResult kf = runCli("ik --all --keep-fixed" + robot + target);
  REQUIRE(kf.status == 0);
  const auto jk = nlohmann::json::parse(kf.out);
  CHECK(jk["method"] == "closed");
  REQUIRE(jk["solutions_deg"].size() == 3);
  for (const auto& s : jk["solutions_deg"]) CHECK(s.size() == 6);
  const CliResult one = runCli("ik" + robot + target + " --seed 12,28,-58,40,-25,95");
  REQUIRE(one.status == 0);
  const auto j = nlohmann::json::parse(one.out);
  CHECK(j["status"] == "ok");
  CHECK(j["method"] == "closed");
  const double expect[6] = {10, 30, -60, 45, -30, 100};
  REQUIRE(j["solutions_deg"].size() == 1);  // the solution nearest the seed
  for (int i = 0; i < 6; ++i) CHECK(j["solutions_deg"][0][i].get<double>() == Approx(expect[i]).margin(1e-6));
  // a URDF chain without a DH description: --method closed names why, auto solves numerically
  const std::string tree = " --robot " + fixture("tree_two_tools.urdf") + " --tool-link right_tool";
  const CliResult c = runCli("ik" + tree + " --q-target 0.1,0.2,0.3,0.4,0.05 --method closed");
  CHECK(c.status == 1);
  CHECK(c.err.find("no DH description: joints[1] 'left_shoulder' moves a link off the path") != std::string::npos);
  const CliResult v = runCli("validate " + fixture("tree_two_tools.urdf") + " --tool-link right_tool");
  REQUIRE(v.status == 0);
  CHECK(nlohmann::json::parse(v.out)["dh"].get<std::string>().rfind("none (joints[1] 'left_shoulder' moves a link off the path", 0) == 0);
  const CliResult vp = runCli("validate " + fixture("puma560.urdf"));
  REQUIRE(vp.status == 0);
  const auto jv = nlohmann::json::parse(vp.out);
  CHECK(jv["dh"] == "extracted");
  REQUIRE(jv["dh_parameters"].size() == 6);
  CHECK(jv["dh_parameters"][1]["a"].get<double>() == Approx(0.4318).margin(1e-12));
  CHECK(jv["dh_parameters"][3]["d"].get<double>() == Approx(0.4318).margin(1e-12));
  const CliResult r = runCli("robots");
  REQUIRE(r.status == 0);
  const auto listing = nlohmann::json::parse(r.out);  // held: a range-for over a temporary's member walks freed memory
  // every built-in gives its DH constants, except spatial-slider-crank (its spherical joints are three intersecting
  // axes), space-arm (Tesar's 3-vector link offsets) and the servo arms so101 and openmanipulator-x (transcribed from
  // their vendors' URDFs), written with origin/axis joints; their DH chain is extracted
  for (const auto& rb : listing["robots"])
    CHECK(rb["dh"] == (rb["name"] == "spatial-slider-crank" || rb["name"] == "space-arm" || rb["name"] == "so101" ||
                              rb["name"] == "openmanipulator-x"
                          ? "extracted"
                          : "given"));
}

TEST_CASE("achain export --format urdf: the written file loads back to the same tool pose, fd takes a URDF arm", "[cli][urdf]") {
  const std::string path = achain::test::tempPath(".urdf");
  const CliResult e = runCli("export --robot prototype-4a --format urdf --out " + path);
  REQUIRE(e.status == 0);
  const auto j = nlohmann::json::parse(e.out);
  CHECK(j["written"] == path);
  CHECK(j["warnings"].size() == 4);  // the four acceleration limits
  const std::string q = " --q 84.107,224.203,106.791,236.997 --deg";
  const CliResult a = runCli("fk --robot " + path + q), b = runCli("fk --robot prototype-4a" + q);
  std::remove(path.c_str());
  REQUIRE(a.status == 0);
  const auto ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
  for (int k = 0; k < 3; ++k) CHECK(ja["p"][k].get<double>() == Approx(jb["p"][k].get<double>()).margin(1e-12));
  const CliResult f = runCli("fd --robot " + fixture("puma560.urdf") + " --q 0,0.5,-1,0,0.3,0");
  CHECK(f.status == 0);
  const CliResult bad = runCli("export --robot planar-2r --format sdf");
  CHECK(bad.status == 1);
  CHECK(bad.err.find("--format: expected urdf") != std::string::npos);
}

TEST_CASE("achain export --format mjcf: MuJoCo XML with the A-pair couplings, fit errors as warnings", "[cli][mjcf]") {
  const std::string path = achain::test::tempPath(".xml");
  const CliResult e = runCli("export --robot prototype-4a --format mjcf --out " + path);
  REQUIRE(e.status == 0);
  const auto j = nlohmann::json::parse(e.out);
  CHECK(j["written"] == path);
  CHECK(j["format"] == "mjcf");
  int fits = 0;
  for (const auto& w : j["warnings"]) fits += w.get<std::string>().find("quartic polycoef fitted") != std::string::npos;
  CHECK(fits == 4);
  std::ifstream f(path);
  std::stringstream text;
  text << f.rdbuf();
  std::remove(path.c_str());
  CHECK(text.str().find("<mujoco model=\"prototype-4a\">") != std::string::npos);
  CHECK(text.str().find("_coupling\" joint1=") != std::string::npos);
  const CliResult s = runCli("export --robot planar-2r --format mjcf");
  CHECK(s.status == 0);
  CHECK(s.out.find("type=\"hinge\"") != std::string::npos);
  const CliResult h = runCli("export --help");
  CHECK(h.out.find("urdf or mjcf") != std::string::npos);
}
