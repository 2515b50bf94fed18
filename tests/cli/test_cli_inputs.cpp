// Inputs at the edges (issue 17, "no silent wrong answers"): every printed number is finite or the call
// fails naming why; lists refuse what strtod would coerce; failed writes are errors; usage errors share
// the one-line error form; the IK of an astronomically distant target fails cleanly instead of crashing.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "cli_runner.hpp"

using achain::test::CliResult;
using achain::test::runCli;
using achain::test::tempPath;

namespace {
int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }
}  // namespace

TEST_CASE("achain lists refuse empty items and non-decimal or out-of-range numbers", "[cli][errors]") {
  struct Case { const char* q; const char* says; };
  for (const Case c : {Case{"1,2,3,4,", "--q[4]: missing number"}, Case{",1,2,3", "--q[0]: missing number"},
                       Case{"1,,2,3", "--q[1]: missing number"}, Case{"0x10,0,0,0", "--q[0]: '0x10' is not a number"},
                       Case{"inf,0,0,0", "--q[0]: 'inf' is not a number"}, Case{"0,1e-400,0,0", "--q[1]: '1e-400' is outside the range"},
                       Case{"0,0,1e10,0", "--q[2]: magnitude 1e10 exceeds the input range"}}) {
    const CliResult r = runCli(std::string("fk --robot prototype-4a --q '") + c.q + "'");
    INFO(c.q << " -> " << r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find(c.says) != std::string::npos);
    CHECK(lines(r.err) == 1);
    CHECK(r.out.empty());
  }
  // the bound itself is accepted: 1e9 rad is a (silly but) finite angle
  CHECK(runCli("fk --robot prototype-4a --q 1e9,0,0,0").status == 0);
}

TEST_CASE("achain prints no null: a non-finite result fails naming where", "[cli][errors]") {
  // Before: exit 0 with "tau":[null,…] (qd = 1e155 squared overflows); now the input is refused at the bound.
  CliResult r = runCli("id --robot puma560 --q 0,0,0,0,0,0 --qd 1e155,0,0,0,0,0 --qdd 0,0,0,0,0,0");
  CHECK(r.status == 1);
  CHECK(r.err.find("--qd[0]: magnitude 1e155") != std::string::npos);
  // Overflowing in the planner: 1e-300 s for a 240° move. Was refused after the fact as "the result is not
  // finite at 'limits…'"; the duration is now refused itself, named, below the documented 1e-6 s.
  r = runCli("traj --robot prototype-4a --deg --from 60,60,60,60 --to 300,300,300,300 --duration 1e-300");
  INFO(r.err);
  CHECK(r.status == 1);
  CHECK(r.err.find("duration: 1e-300 s is outside the range [1e-6, 1e7] s") != std::string::npos);
  CHECK(r.out.find("null") == std::string::npos);
  // an ordinary call is untouched
  r = runCli("id --robot puma560 --q 0,0,0,0,0,0 --qd 1,0,0,0,0,0 --qdd 0,0,0,0,0,0");
  REQUIRE(r.status == 0);
  const nlohmann::json rj = r.json();  // alive for the loop (ASan: a range-for over r.json()[...] is a use-after-free)
  for (const auto& t : rj["tau"]) CHECK(std::isfinite(t.get<double>()));
}

TEST_CASE("achain ik: an astronomically distant target is refused and does not crash", "[cli][errors][ik]") {
  // Before: segfault (exit 139): every residual overflowed to inf and the nearest pose read an empty q.
  struct Case { const char* pose; const char* says; };
  for (const Case c : {Case{"1e155,0,0,1,0,0,0", "--pose[0]: magnitude 1e155 exceeds the input range"},
                       Case{"1e7,0,0,1,0,0,0", "targets are bounded to 1e+06 m"}}) {
    const CliResult r = runCli(std::string("ik --robot puma560 --pose ") + c.pose);
    INFO(c.pose << " -> " << r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find(c.says) != std::string::npos);
  }
  // far but inside the bound: unreachable, with a finite nearest pose
  const CliResult r = runCli("ik --robot puma560 --pose 1e5,0,0,1,0,0,0");
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto j = r.json();
  CHECK(j["status"] == "unreachable");
  CHECK(j["nearest"]["q"].size() == 6);
  CHECK(j["nearest"]["position_error"].get<double>() > 9.9e4);
  // NaN never reaches the solver
  CHECK(runCli("ik --robot puma560 --pose nan,0,0,1,0,0,0").status == 1);
}

TEST_CASE("achain ik caps restarts and sim refuses a negative duration and --every 0", "[cli][errors]") {
  CliResult r = runCli("ik --robot puma560 --pose 0.5,0.1,0.2,1,0,0,0 --method numeric --restarts 100000000");
  CHECK(r.status == 2);
  CHECK(r.err.find("achain ik: usage error: --restarts") != std::string::npos);
  CHECK(lines(r.err) == 1);
  r = runCli("sim --robot puma560 --q 0,0,0,0,0,0 --duration -1");
  CHECK(r.status == 2);
  CHECK(r.err.find("--duration") != std::string::npos);
  r = runCli("sim --robot puma560 --q 0,0,0,0,0,0 --every 0");
  CHECK(r.status == 2);
  CHECK(r.err.find("--every") != std::string::npos);
}

TEST_CASE("achain usage errors are one line in the common form with exit 2", "[cli][errors]") {
  CliResult r = runCli("fk --robot puma560 --q 0,0,0,0,0,0 --bogus");
  CHECK(r.status == 2);
  CHECK(r.err.rfind("achain fk: usage error: ", 0) == 0);
  CHECK(r.err.find("--bogus") != std::string::npos);
  CHECK(lines(r.err) == 1);
  r = runCli("fk --q 0");
  CHECK(r.status == 2);
  CHECK(r.err.find("--robot") != std::string::npos);
  r = runCli("no-such-subcommand");
  CHECK(r.status == 2);
  CHECK(r.err.rfind("achain: usage error: ", 0) == 0);
  // control characters in an unknown option are escaped, not sent to the terminal
  r = runCli("fk --robot puma560 --q 0,0,0,0,0,0 \"$(printf 'x\\033]0;pwned\\007')\"");
  CHECK(r.status == 2);
  CHECK(r.err.find('\033') == std::string::npos);
  CHECK(runCli("fk --help").status == 0);
}

TEST_CASE("achain output: a failed write is an error and --out files are written whole", "[cli][errors]") {
  // Before: exit 0 with the output lost.
  CliResult r = runCli("fk --robot puma560 --q 0,0,0,0,0,0 > /dev/full");
  CHECK(r.status == 1);
  CHECK(r.err.find("writing to standard output failed") != std::string::npos);
  r = runCli("traj --robot prototype-4a --deg --from 60,60,60,60 --to 300,300,300,300 --out /dev/full");
  CHECK(r.status == 1);
  CHECK(r.err.find("--out: writing '/dev/full' failed") != std::string::npos);
  // a good write replaces the file whole and leaves no temporary beside it
  const std::string path = tempPath(".json");
  r = runCli("traj --robot prototype-4a --deg --from 60,60,60,60 --to 300,300,300,300 --out " + path);
  REQUIRE(r.status == 0);
  std::ifstream f(path);
  const auto j = nlohmann::json::parse(f);
  CHECK(j["q"].size() > 10);
  const std::string stem = std::filesystem::path(path).filename().string() + ".tmp-";
  for (const auto& e : std::filesystem::directory_iterator("/tmp"))
    CHECK(e.path().filename().string().rfind(stem, 0) != 0);
  // an unwritable place fails naming the option, and the old file is kept
  r = runCli("traj --robot prototype-4a --deg --from 60,60,60,60 --to 300,300,300,300 --out /nonexistent-dir/t.json");
  CHECK(r.status == 1);
  CHECK(r.err.find("--out: cannot open '/nonexistent-dir/t.json'") != std::string::npos);
  std::remove(path.c_str());
}

TEST_CASE("achain export and robots --show report a failed write", "[cli][errors]") {
  for (const char* args : {"export --robot puma560 > /dev/full", "export --robot puma560 --format mjcf --out /dev/full",
                           "robots --show puma560 > /dev/full"}) {
    const CliResult r = runCli(args);
    INFO(args << " -> " << r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find("failed") != std::string::npos);
  }
}

TEST_CASE("achain refuses inputs past the documented caps, naming the option (issue 17)", "[cli][errors][caps]") {
  struct Case { std::string args; const char* says; };
  const std::string p6 = "--robot puma560 --from 0,0,0,0,0,0 --to 0.5,0.5,0.5,0.5,0.5,0.5 --vmax 1,1,1,1,1,1 --amax 1,1,1,1,1,1";
  for (const Case& c : {
           // before: exit 0 with "rho_in": -1 and a work table computed for a negative A-pair size
           Case{"apair-study --rho-in -1", "--rho-in: must be > 0"},
           // before: "the result is not finite at 'limits.joints[0].peak_acceleration'" (the input unnamed)
           Case{"traj " + p6 + " --duration 1e-300", "duration: 1e-300 s is outside the range [1e-6, 1e7] s"},
           Case{"traj " + p6 + " --duration 1e300", "duration: 1e+300 s is outside the range [1e-6, 1e7] s"},
           // before: "the result is not finite at 'volume'"
           Case{"workspace --robot planar-2r --voxel 1e300", "voxel: 1e+300 m is past the physical range"},
           Case{"traj --robot planar-2r --from 0,0 --to 1,1 --cartesian line --knots 100000000", "knots must be between 2 and 10000"},
           Case{"sim --robot planar-2r --q 0,0 --duration 1e6 --dt 1e-3", "--duration: 1e+06 s is 1000000000 steps of --dt (0.001 s); at most 1e8"},
       }) {
    const CliResult r = runCli(c.args);
    INFO(c.args << " -> " << r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find(c.says) != std::string::npos);
    CHECK(lines(r.err) == 1);
    CHECK(r.out.empty());
  }
  // the bounds themselves are accepted
  CHECK(runCli("traj " + p6 + " --duration 1e-6 --rate 100").status == 0);
  CHECK(runCli("apair-study --rho-in 6.875 --samples 101").status == 0);
}

TEST_CASE("achain workspace estimates a job before it starts and refuses past a cap unless raised", "[cli][caps]") {
  const CliResult e = runCli("workspace --robot prototype-4a --voxel 0.0127 --estimate");
  REQUIRE(e.status == 0);
  const auto j = e.json();
  CHECK(j["within_caps"] == true);
  CHECK(j["caps"]["max_seconds"].get<double>() == 1000);  // 2e10 Robinson point moves at 2e7 per second
  CHECK(j["estimate"]["cells"].get<double>() > 1e5);
  CHECK(j["estimate"]["bytes"].get<double>() > 0);
  CHECK(j["estimate"]["seconds"].get<double>() > 0);
  // the estimate's evaluations bound the real run's within a factor of a few
  const CliResult run = runCli("workspace --robot prototype-4a --voxel 0.0127 --threads 1");
  REQUIRE(run.status == 0);
  const double real = run.json()["evaluations"].get<double>(), est = j["estimate"]["evaluations"].get<double>();
  INFO("estimated " << est << ", ran " << real);
  CHECK(est > 0.5 * real);  // measured: 6.1e6 estimated, 9.3e6 run
  CHECK(est < 2 * real);
  // a cap below the estimate refuses the job at once, naming the cap and how to raise it
  const CliResult small = runCli("workspace --robot prototype-4a --voxel 0.0127 --max-evaluations 1e5");
  CHECK(small.status == 1);
  CHECK(small.err.find("voxel: about") != std::string::npos);
  CHECK(small.err.find("cap max_evaluations = 100000") != std::string::npos);
  CHECK(small.err.find("--max-evaluations") != std::string::npos);
  const CliResult mem = runCli("workspace --robot prototype-4a --voxel 0.0127 --max-bytes 1000");
  CHECK(mem.status == 1);
  CHECK(mem.err.find("of memory (estimate; cap max_bytes") != std::string::npos);
  // a voxel 10x finer is past the grid's cap (1000x the cells); Castelli at 5 mm past the evaluations' (3e13)
  const CliResult fine = runCli("workspace --robot prototype-4a --voxel 0.00127");
  CHECK(fine.status == 1);
  CHECK(fine.err.find("cells over the reach box (cap max_cells = 1.07374e+09)") != std::string::npos);
  CHECK(runCli("workspace --robot prototype-4a --voxel 0.00127 --estimate").json()["within_caps"] == false);
  const CliResult castelli = runCli("workspace --robot prototype-4a --voxel 0.005 --method castelli");
  CHECK(castelli.status == 1);
  CHECK(castelli.err.find("step: about 3.2") != std::string::npos);
  CHECK(castelli.err.find("(estimate; cap max_evaluations = 2e+10 Robinson point moves, 1000 s); Castelli's cost") != std::string::npos);
}

TEST_CASE("achain error messages escape control characters and cut long input, whatever the source", "[cli][errors]") {
  // a duplicate key holding an escape sequence (decoded from \u001b by the JSON reader)
  const std::string path = tempPath(".json");
  {
    std::ofstream f(path);
    f << R"({"schema_version": 1, "\u001b]0;title\u0007": 1, "\u001b]0;title\u0007": 2, "joints": []})";
  }
  CliResult r = runCli("validate " + path);
  CHECK(r.status == 1);
  CHECK(r.err.find("duplicate key") != std::string::npos);
  CHECK(r.err.find('\x1b') == std::string::npos);
  CHECK(r.err.find('\x07') == std::string::npos);
  CHECK(r.err.find("\\x1b") != std::string::npos);
  std::remove(path.c_str());
  // an option value echoed by a subcommand's own message (--section), with an escape and 100 kB of text
  r = runCli("workspace --robot planar-2r --voxel 0.1 --section \"$(printf '\\033[2J')" + std::string(100000, 'x') + "\"");
  CHECK(r.status == 1);
  CHECK(r.err.find('\x1b') == std::string::npos);
  CHECK(r.err.size() < 2200);
  CHECK(lines(r.err) == 1);
}

TEST_CASE("achain robot files: joint count, nesting depth and string size are bounded", "[cli][errors][caps]") {
  auto write = [](const std::string& text) {
    const std::string p = tempPath(".json");
    std::ofstream(p) << text;
    return p;
  };
  std::string joints;
  for (int i = 0; i < 1001; ++i) joints += std::string(i ? "," : "") + R"({"kind": "R", "a": 0.01})";
  const std::string many = write(R"({"schema_version": 1, "units": {"angle": "rad"}, "joints": [)" + joints + "]}");
  CliResult r = runCli("validate " + many);
  CHECK(r.status == 1);
  CHECK(r.err.find("joints: 1001 joints; at most 1000") != std::string::npos);
  const std::string deep = write(R"({"schema_version": 1, "notes": )" + std::string(100000, '[') + std::string(100000, ']') + "}");
  r = runCli("validate " + deep);
  CHECK(r.status == 1);
  CHECK(r.err.find("nested deeper than 64 arrays or objects") != std::string::npos);
  const std::string big = write(R"({"schema_version": 1, "description": ")" + std::string(70000, 'x') + R"(", "joints": []})");
  r = runCli("validate " + big);
  CHECK(r.status == 1);
  CHECK(r.err.find("a string of 70000 bytes (at most 64 KiB)") != std::string::npos);
  CHECK(r.err.size() < 300);
  for (const auto& p : {many, deep, big}) std::remove(p.c_str());
}
