// `achain ik`: the acceptance cases through the CLI (JSON on stdout, one-line errors).
#include <cstdio>
#include <string>

#include "cli_runner.hpp"

namespace {
struct IkCliResult { int status; nlohmann::json out; std::string err; };

IkCliResult runIkCli(const std::string& args) {
  const auto r = achain::test::runCli("ik " + args);
  nlohmann::json j;
  if (r.status == 0) j = nlohmann::json::parse(r.out);
  return {r.status, j, r.err};
}

std::string fkTarget(const std::string& robot, const std::string& q) {
  const auto T = achain::test::runCli("fk --robot " + robot + " --deg --q " + q).json()["T"];
  std::string s;
  char num[64];
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) {
      std::snprintf(num, sizeof num, "%.17g", T[r][c].get<double>());
      s += (s.empty() ? "" : ",") + std::string(num);
    }
  return s;
}
}  // namespace

TEST_CASE("achain ik: prototype-4a thesis target, --all gives the one thesis solution", "[cli][ik]") {
  const auto r = runIkCli("--robot prototype-4a --T " + fkTarget("prototype-4a", "84.107,224.203,106.791,236.997") + " --all --deg");
  REQUIRE(r.status == 0);
  CHECK(r.out["status"] == "ok");
  CHECK(r.out["method"] == "closed");
  REQUIRE(r.out["solutions"].size() == 1);
  const double expect[4] = {84.107, 224.203, 106.791, 236.997};
  for (int i = 0; i < 4; ++i) {
    CHECK(r.out["solutions_deg"][0][i].get<double>() == Approx(expect[i]).margin(0.01));
    // the contract: the main fields are SI (radians) even with --deg
    CHECK(r.out["solutions"][0][i].get<double>() == Approx(expect[i] * 3.14159265358979323846 / 180).margin(2e-4));
  }
}

TEST_CASE("achain ik: puma560 --all returns 8 solutions, each verified by FK", "[cli][ik]") {
  const auto r = runIkCli("--robot puma560 --q-target 20,30,-60,40,50,60 --deg --all");
  REQUIRE(r.status == 0);
  CHECK(r.out["status"] == "ok");
  const auto& in = r.out["details"];
  const auto& out = r.out["outside_limits"];
  CHECK(in.size() + out.size() == 8);
  for (const auto* list : {&in, &out})
    for (const auto& s : *list) {
      CHECK(s["position_error"].get<double>() < 1e-9);
      CHECK(s["orientation_error"].get<double>() < 1e-9);
      CHECK(s["flags"].size() == 3);
    }
}

TEST_CASE("achain ik: numeric, statuses and errors", "[cli][ik]") {
  auto r = runIkCli("--robot stanford --q-target 10,20,0.5,40,50,60 --deg --seed 0,0,0.4,0,0,0");
  REQUIRE(r.status == 0);
  CHECK(r.out["method"] == "numeric");
  CHECK(r.out["status"] == "ok");
  CHECK(r.out["residual"].get<double>() < 1e-9);
  // 4-DOF chain, arbitrary 6-DOF pose: unreachable with the nearest pose and its residual
  r = runIkCli("--robot prototype-4a --pose 0.1,-0.3,0.4,1,0,0,0 --method numeric");
  REQUIRE(r.status == 0);
  CHECK(r.out["status"] == "unreachable");
  CHECK(r.out["residual"].get<double>() > 1e-3);
  CHECK(r.out["q"].size() == 4);
  r = runIkCli("--robot prototype-4a --pose 0.1,-0.3,0.4,1,0,0,0 --all");
  REQUIRE(r.status == 0);
  CHECK(r.out["status"] == "unreachable");
  CHECK(r.out.contains("nearest"));
  // malformed targets
  auto e = runIkCli("--robot puma560 --T 1,0,0,0,0,1,0,0,0,0,2,0,0,0,0,1");
  CHECK(e.status == 1);
  CHECK(e.err.find("not orthonormal") != std::string::npos);
  e = runIkCli("--robot puma560 --T 1,0,0");
  CHECK(e.status == 1);
  CHECK(e.err.find("--T") != std::string::npos);
  e = runIkCli("--robot puma560 --q-target 0,0,0,0,0,0 --method magic");
  CHECK(e.status == 1);
  CHECK(e.err.find("method") != std::string::npos);
}

TEST_CASE("achain ik --max-step: the continuity box keeps every joint near the seed (issue 18)", "[cli][ik]") {
  // Issue 18's drag: from (300, 244.8, 300, 60)° toward the tool point of (180, 60, 300, 60)°, a branch
  // away. Without the box the numeric solve lands on the other branch; with --max-step 2 every joint
  // stays within 2° of the seed and the status says the target is not reached within this step.
  const std::string base = "--robot prototype-4a --deg --position-only --method numeric --seed 300,244.8,300,60 "
                           "--q-target 180,60,300,60";
  const double seed[4] = {300, 244.8, 300, 60};
  const auto free = runIkCli(base);
  REQUIRE(free.status == 0);
  double jump = 0;
  for (int i = 0; i < 4; ++i) jump = std::max(jump, std::abs(free.out["q_deg"][i].get<double>() - seed[i]));
  CHECK(jump > 20);
  const auto boxed = runIkCli(base + " --max-step 2");
  REQUIRE(boxed.status == 0);
  CHECK(boxed.out["status"] == "unreachable");
  for (int i = 0; i < 4; ++i) CHECK(std::abs(boxed.out["q_deg"][i].get<double>() - seed[i]) <= 2 + 1e-9);
  auto r = runIkCli("--robot prototype-4a --deg --position-only --q-target 180,60,300,60 --max-step 2");
  CHECK(r.status == 1);
  CHECK(r.err.find("--max-step") != std::string::npos);
  CHECK(r.err.find("--seed") != std::string::npos);
  r = runIkCli(base + " --max-step -1");
  CHECK(r.status == 1);
  CHECK(r.err.find("--max-step: must be") != std::string::npos);
}
