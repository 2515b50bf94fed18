// CLI contract of the workspace area: `achain workspace` and `achain apair-range`.
#include <cstdio>
#include <fstream>
#include <string>

#include "cli_runner.hpp"

using achain::test::CliResult;
using achain::test::runCli;
using achain::test::tempPath;

TEST_CASE("achain workspace: prototype at 0.5 in within 10 % of the thesis", "[cli][workspace]") {
  const CliResult r = runCli("workspace --robot prototype-4a --voxel 0.0127");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  const double n = j.at("voxels").get<double>();
  CHECK(n == Approx(487640).epsilon(0.10));
  CHECK(j.at("volume").get<double>() == Approx(n * 0.0127 * 0.0127 * 0.0127).epsilon(1e-12));
  CHECK(j.at("voxel").get<double>() == 0.0127);
  CHECK(j.at("method") == "robinson");
  CHECK(j.at("bounds").at("max")[2].get<double>() == Approx(38.657 * 0.0254).margin(0.0127));
  CHECK(j.at("seconds").get<double>() > 0);
  CHECK(j.at("sweeps").size() == 4);
  CHECK(j.at("sweeps")[0].at("joint") == 3);  // from the tool back to the base
}

TEST_CASE("achain workspace: outputs, overlap and errors", "[cli][workspace]") {
  const std::string ply = tempPath(".ply"), js = tempPath(".json");
  CliResult r = runCli("workspace --robot prototype-4a --voxel 0.0254 --out " + ply + " --section z=0.3 --compare prototype-4r");
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  const size_t n = j.at("voxels").get<size_t>();
  CHECK(j.at("section").at("voxels").get<size_t>() > 0);
  CHECK(j.at("section").at("coordinate").get<double>() == Approx(0.3).margin(0.0127));
  CHECK(j.at("overlap").at("shared").get<size_t>() + j.at("overlap").at("only_this").get<size_t>() == n);
  std::ifstream f(ply);
  std::string line;
  std::getline(f, line);
  CHECK(line == "ply");
  bool has_faces = false;
  while (std::getline(f, line) && line != "end_header") has_faces |= line.rfind("element face", 0) == 0;
  CHECK(has_faces);
  std::remove(ply.c_str());
  r = runCli("workspace --robot planar-2r --voxel 0.05 --method castelli --step 2 --out " + js);
  REQUIRE(r.status == 0);
  j = nlohmann::json::parse(r.out);
  std::ifstream g(js);
  const auto file = nlohmann::json::parse(g);
  CHECK(file.at("cells").size() == j.at("voxels").get<size_t>());
  CHECK(file.at("cells")[0].size() == 3);
  std::remove(js.c_str());

  r = runCli("workspace --robot prototype-4a --voxel 0");
  CHECK(r.status != 0);
  CHECK(r.err.find("achain workspace: error: voxel: must be a positive") == 0);
  r = runCli("workspace --robot prototype-4a --voxel 0.01 --method quick");
  CHECK(r.status != 0);
  CHECK(r.err.find("method: unknown 'quick'") != std::string::npos);
  r = runCli("workspace --robot prototype-4a --voxel 0.01 --out x.obj");
  CHECK(r.status != 0);
  CHECK(r.err.find("--out: expected a .ply or .json") != std::string::npos);
}

TEST_CASE("achain apair-range: r/a = 0.05 gives 181.9 deg", "[cli][apair_collision]") {
  CliResult r = runCli("apair-range --side 1 --leg-radius 0.05");
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("range_deg").get<double>() == Approx(181.9).margin(0.05));
  CHECK(j.at("lower_deg").get<double>() == Approx(89.05).margin(0.015));
  CHECK(j.at("upper_legs")[0] == 1);
  CHECK(j.at("upper_legs")[1] == 2);
  r = runCli("apair-range --side 0.17598 --leg-radius 0 --curves 12");
  REQUIRE(r.status == 0);
  j = nlohmann::json::parse(r.out);
  CHECK(j.at("range_deg").get<double>() == Approx(240).margin(1e-6));
  CHECK(j.at("curves").at("d16")[2].get<double>() == Approx(0).margin(1e-12));   // 60°
  CHECK(j.at("curves").at("d12")[10].get<double>() == Approx(0).margin(1e-12));  // 300°
  r = runCli("apair-range --side 1 --leg-radius 0.5");
  CHECK(r.status != 0);
  CHECK(r.err.find("achain apair-range: error: leg radius:") == 0);
}

TEST_CASE("achain workspace --progress: the CLI's one progress line (bar, percentage, the final 100 % once)", "[cli][workspace]") {
  // stderr is a pipe here: one line per report at most once a second, and the final one
  const CliResult r = runCli("workspace --robot prototype-4a --voxel 0.0254 --progress");
  REQUIRE(r.status == 0);
  size_t lines = 0, finals = 0, from = 0;
  while (from < r.err.size()) {
    const size_t end = r.err.find('\n', from);
    const std::string line = r.err.substr(from, end - from);
    from = end == std::string::npos ? r.err.size() : end + 1;
    if (line.empty()) continue;
    ++lines;
    CHECK(line.rfind("achain workspace: [", 0) == 0);
    if (line.find("100 %") != std::string::npos) ++finals;
  }
  CHECK(lines >= 1);
  CHECK(finals == 1);
  CHECK(r.err.find("\r") == std::string::npos);  // not a terminal: no carriage returns
}
