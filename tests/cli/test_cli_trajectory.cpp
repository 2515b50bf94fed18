// `achain traj`, `analyze`, `work`, `apair-study`: JSON on stdout, files, CSV, one-line errors.
#include <cmath>
#include <cstdio>
#include <string>

#include "cli_runner.hpp"

using achain::test::CliResult;
using achain::test::runCli;
using achain::test::tempPath;

namespace {
const double kD = 3.14159265358979323846 / 180;
}  // namespace

TEST_CASE("achain traj: the thesis trapezoid's breakpoints", "[cli][trajectory]") {
  const CliResult r = runCli("traj --robot prototype-4a --from 60,60,60,60 --to 300,300,300,300 --deg --rate 100");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["schema"] == "achain-trajectory");
  CHECK(j["version"] == 1);
  CHECK(j["joints"].size() == 4);
  const auto& b = j["breakpoints"];
  CHECK(b[1][1].get<double>() == Approx(0.25).epsilon(1e-12));
  CHECK(b[1][2].get<double>() == Approx(1.33333).margin(5e-6));
  CHECK(b[1][3].get<double>() == Approx(1.58333).margin(5e-6));
  CHECK(b[3][1].get<double>() == Approx(0.11958).margin(5e-6));
  CHECK(b[3][2].get<double>() == Approx(1.40351).margin(5e-6));
  CHECK(b[3][3].get<double>() == Approx(1.52309).margin(5e-6));
  CHECK(j["limits"]["ok"] == true);
  const auto& q = j["q"];
  CHECK(q.back()[0].get<double>() == 300 * kD);
  CHECK(q.front()[3].get<double>() == 60 * kD);
  CHECK(j["t"].back().get<double>() == Approx(19.0 / 12.0).epsilon(1e-15));
}

TEST_CASE("achain traj --out, analyze, work, --csv", "[cli][trajectory]") {
  const std::string file = tempPath(".json");
  const CliResult r = runCli("traj --robot prototype-4a --from 60,60,60,60 --to 300,300,300,300 --deg --rate 500 --out " + file);
  REQUIRE(r.status == 0);
  const auto s = nlohmann::json::parse(r.out);  // summary only
  CHECK(s["out"] == file);
  CHECK_FALSE(s.contains("q"));
  const CliResult a = runCli("analyze --traj " + file);
  REQUIRE(a.status == 0);
  const auto ja = nlohmann::json::parse(a.out);
  CHECK(ja["robot"] == "prototype-4a");
  CHECK(ja["peaks"].size() == 4);
  CHECK(ja["total_work"].get<double>() > 0);
  const CliResult w = runCli("work --traj " + file + " --legs massless");
  REQUIRE(w.status == 0);
  const auto jw = nlohmann::json::parse(w.out);
  CHECK(jw["legs"] == "massless");
  CHECK(jw["total_work"].get<double>() < ja["total_work"].get<double>());  // legs add weight to lift
  std::remove(file.c_str());
  const CliResult c = runCli("traj --robot planar-2r --from 0,0 --to 90,45 --deg --profile quintic --rate 10 --csv");
  REQUIRE(c.status == 0);
  CHECK(c.out.rfind("t,q_", 0) == 0);
}

TEST_CASE("achain traj: errors are one line naming the problem", "[cli][trajectory][errors]") {
  CliResult r = runCli("traj --robot prototype-4a --from 60,60,60 --to 300,300,300,300 --deg");
  CHECK(r.status == 1);
  CHECK(r.err.rfind("achain traj: error: --from: robot 'prototype-4a' has 4 joints", 0) == 0);
  r = runCli("traj --robot prototype-4a --from 60,60,60,60 --to 300,300,300,300 --deg --profile zigzag");
  CHECK(r.status == 1);
  CHECK(r.err.find("profile: 'zigzag'") != std::string::npos);
  r = runCli("analyze --traj /nonexistent/traj.json");
  CHECK(r.status == 1);
  CHECK(r.err.find("/nonexistent/traj.json: cannot open file") != std::string::npos);
}

TEST_CASE("achain apair-study: rows, thesis values beside them", "[cli][trajectory][apair]") {
  const CliResult r = runCli("apair-study --duration 10 --rho-in 6.875 --leg1x6");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["rows"].size() == 4);
  CHECK(j["rows"][0]["legs"] == "massless");
  CHECK(j["rows"][0]["vertical_inlb"].get<double>() == Approx(28.520).epsilon(5e-4));
  CHECK(j["rows"][0]["thesis_vertical_inlb"].get<double>() == Approx(28.520).epsilon(1e-12));
  CHECK(j["rows"][3]["thesis_horizontal_inlb"].is_null());
}

TEST_CASE("achain traj --cartesian line/arc", "[cli][trajectory][cartesian]") {
  CliResult r = runCli("traj --robot prototype-4a --from 100,200,120,150 --to 140,230,100,170 --deg --cartesian line --rate 20");
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["profile"] == "line");
  CHECK(j["cartesian"]["position_only"] == true);
  CHECK(j["cartesian"]["max_deviation"].get<double>() < 2e-4);
  CHECK(j["limits"]["ok"] == true);
  r = runCli("traj --robot prototype-4a --from 100,200,120,150 --to 140,230,100,170 --deg --cartesian arc");
  CHECK(r.status == 1);
  CHECK(r.err.find("--arc-via: required") != std::string::npos);
  r = runCli("traj --robot prototype-4a --from 100,200,120,150 --to-xyz 3,0,0 --deg --cartesian line");
  CHECK(r.status == 1);
  CHECK(r.err.find("line: IK unreachable at s =") != std::string::npos);
}

TEST_CASE("achain traj --robot puma560 --duration: honoured although the PUMA has no speed limits", "[cli][trajectory]") {
  const CliResult r = runCli("traj --robot puma560 --duration 2 --from 0,0,0,0,0,0 --to 0.5,0.2,-0.3,0,0.4,0 --rate 50");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["t"].back().get<double>() == Approx(2).epsilon(1e-12));
  CHECK(j["q"].back()[0].get<double>() == 0.5);
  CHECK(j["samples"] == 101);
}

TEST_CASE("achain traj --v0/--v1/--a1 (jtraj): boundary rates met, in deg/s with --deg", "[cli][trajectory]") {
  const CliResult r = runCli("traj --robot planar-2r --profile quintic --duration 1.5 --from 0,0 --to 60,-30 --deg "
                             "--v0 10,0 --v1 -20,5 --a1 0,40 --rate 100");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["qd"].front()[0].get<double>() == Approx(10 * kD).epsilon(1e-15));
  CHECK(j["qd"].back()[0].get<double>() == Approx(-20 * kD).epsilon(1e-15));
  CHECK(j["qd"].back()[1].get<double>() == Approx(5 * kD).epsilon(1e-15));
  CHECK(j["qdd"].back()[1].get<double>() == Approx(40 * kD).epsilon(1e-15));
  CHECK(j["q"].back()[0].get<double>() == Approx(60 * kD).epsilon(1e-15));
  CHECK(j["t"].back().get<double>() == 1.5);
  const CliResult bad = runCli("traj --robot planar-2r --profile quintic --from 0,0 --to 1,1 --v0 1,0");
  CHECK(bad.status != 0);
  CHECK(bad.err.find("duration: required") != std::string::npos);
  const CliResult trap = runCli("traj --robot planar-2r --duration 1 --from 0,0 --to 1,1 --v1 1,0");
  CHECK(trap.err.find("cubic, quintic or septic") != std::string::npos);
}

TEST_CASE("achain interpolate-cartesian (ctraj): exact end poses, straight line, twists", "[cli][trajectory]") {
  const CliResult r = runCli("interpolate-cartesian --from-pose 0.4,0,0.5,0,0,0 --to-pose 0.4,0.3,0.1,0,90,0 --deg "
                             "--profile trapezoid --duration 2 --rate 10");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["samples"] == 21);
  CHECK(j["duration"].get<double>() == 2);
  CHECK(j["length"].get<double>() == Approx(0.5).epsilon(1e-15));
  CHECK(j["rotation"].get<double>() == Approx(90 * kD).epsilon(1e-12));
  CHECK(j["axis"][1].get<double>() == Approx(1).epsilon(1e-12));
  const auto& last = j["poses"].back();
  CHECK(last[0][3].get<double>() == 0.4);
  CHECK(last[1][3].get<double>() == 0.3);
  CHECK(last[2][3].get<double>() == 0.1);
  CHECK(last[0][2].get<double>() == Approx(1).epsilon(1e-15));  // Ry(90°): x' = z
  // mid-way (t = 1, s = 1/2 by symmetry): position halfway, 45° about y, cruising twist (ṡ = 1.5/T)
  const auto& mid = j["poses"][10];
  CHECK(mid[1][3].get<double>() == Approx(0.15).epsilon(1e-12));
  CHECK(mid[0][0].get<double>() == Approx(std::cos(45 * kD)).epsilon(1e-12));
  CHECK(j["twists"][10][1].get<double>() == Approx(0.3 * 0.75).epsilon(1e-12));
  CHECK(j["twists"][10][4].get<double>() == Approx(90 * kD * 0.75).epsilon(1e-12));
  // The same through a robot: poses from FK, alias ctraj.
  const CliResult k = runCli("ctraj --robot puma560 --from 0,0,0,0,0,0 --to 20,10,-10,0,30,0 --deg");
  REQUIRE(k.status == 0);
  CHECK(nlohmann::json::parse(k.out)["profile"] == "quintic");
  const CliResult bad = runCli("interpolate-cartesian --from-pose 0,0,0,0,0,0");
  CHECK(bad.status != 0);
  CHECK(bad.err.find("--to-pose") != std::string::npos);
}
