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

TEST_CASE("achain traj --out, analyze, work; --csv", "[cli][trajectory]") {
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
