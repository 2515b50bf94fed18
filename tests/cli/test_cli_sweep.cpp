// CLI contract of `achain sweep` and `achain sweep-merge` (docs/sweeps.md): shards merge to the bytes of one
// process, the thread count changes nothing, a killed shard restarts without recomputing, bad shard lines are named
// FILE:LINE, a missing design is named, and --shard auto reads Slurm's and Kubernetes' environment.
#include <catch2/catch.hpp>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"

using achain::test::CliResult;
using achain::test::runCli;
using achain::test::tempPath;

namespace sweep_cli_tests {

/// A small design space (12 designs, cheap metrics) in a private file.
std::string designFile() {
  const std::string path = tempPath(".json");
  std::ofstream(path) << R"({"format": "achain-design-space", "version": 1, "robot": "prototype-4a",
    "parameters": [
      {"name": "leg_length", "pointers": ["/joints/0/leg_length", "/joints/1/leg_length", "/joints/2/leg_length", "/joints/3/leg_length"],
       "range": [5, 7], "count": 3},
      {"name": "upper_arm", "pointers": ["/joints/1/a"], "values": [10, 12, 13, 14]}],
    "sample": {"kind": "grid"},
    "metrics": {"workspace": {"voxel": 0.0762}, "move": {"rate": 100}, "collision": {"leg_radius": 0.004}},
    "constraints": [{"metric": "peak_torque", "max": 56}],
    "objectives": [{"metric": "workspace_volume", "goal": "max"}, {"metric": "peak_torque", "goal": "min"}]})";
  return path;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

/// `achain sweep-merge DESIGN FILES --out OUT` must succeed; the merged bytes.
std::string merge(const std::string& design, const std::string& files) {
  const std::string out = tempPath(".json");
  const CliResult r = runCli("sweep-merge " + design + " " + files + " --out " + out);
  INFO(r.err);
  REQUIRE(r.status == 0);
  const std::string text = slurp(out);
  std::remove(out.c_str());
  return text;
}

}  // namespace sweep_cli_tests

using namespace sweep_cli_tests;

TEST_CASE("achain sweep: three shards merge to the bytes of one shard, threads change nothing", "[cli][sweep]") {
  const std::string design = designFile();
  const std::string one = tempPath(".jsonl"), s0 = tempPath(".jsonl"), s1 = tempPath(".jsonl"), s2 = tempPath(".jsonl"),
                    two = tempPath(".jsonl");
  for (const std::string& f : {one, s0, s1, s2, two}) std::remove(f.c_str());
  CliResult r = runCli("sweep " + design + " --shard 0/1 --threads 1 --out " + one);
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto sum = r.json();
  CHECK(sum["shard"] == 0);
  CHECK(sum["shards"] == 1);
  CHECK(sum["designs"] == 12);
  CHECK(sum["computed"] == 12);
  CHECK(sum["skipped"] == 0);
  CHECK(sum["errors"] == 0);
  CHECK(sum["out"] == one);
  CHECK(lines(slurp(one)).size() == 12);
  const std::string shards[3] = {s0, s1, s2};
  for (int i = 0; i < 3; ++i) {
    r = runCli("sweep " + design + " --shard " + std::to_string(i) + "/3 --threads 2 --out " + shards[i]);
    REQUIRE(r.status == 0);
    CHECK(r.json()["designs"] == 4);
    for (const std::string& l : lines(slurp(shards[i]))) CHECK(nlohmann::json::parse(l)["design"].get<int>() % 3 == i);
  }
  r = runCli("sweep " + design + " --threads 2 --out " + two);
  REQUIRE(r.status == 0);
  const std::string merged = merge(design, one);
  CHECK(merge(design, s2 + " " + s0 + " " + s1) == merged);
  CHECK(merge(design, two) == merged);
  const auto m = nlohmann::json::parse(merged);
  CHECK(m["format"] == "achain-sweep");
  CHECK(m["version"] == 1);
  CHECK(m["count"] == 12);
  CHECK(m["design_space"]["robot"]["name"] == "prototype-4a");  // the robot inline: the file stands alone
  REQUIRE(m["designs"].size() == 12);
  for (int k = 0; k < 12; ++k) {
    CHECK(m["designs"][k]["design"] == k);
    CHECK_FALSE(m["designs"][k].contains("seconds"));
  }
  CHECK(m["designs"][5]["parameters"]["leg_length"] == 6.0);
  CHECK(m["designs"][5]["parameters"]["upper_arm"] == 12.0);
  CHECK(m["summary"]["designs"] == 12);
  CHECK(m["summary"]["errors"] == 0);
  CHECK(m["summary"]["feasible"].get<int>() > 0);
  CHECK(m["summary"]["feasible"].get<int>() < 12);
  CHECK(m["summary"]["pareto"] == m["pareto"].size());
  CHECK(m["pareto"].size() >= 2);
  CHECK(m["summary"]["metrics"]["peak_torque"]["min"].get<double>() > 40);
  CHECK(m["summary"]["metrics"]["peak_torque"]["max"].get<double>() < 70);
  for (const std::string& f : {design, one, s0, s1, s2, two}) std::remove(f.c_str());
}

TEST_CASE("achain sweep: a killed shard restarts without recomputing, bad lines are named FILE:LINE", "[cli][sweep]") {
  const std::string design = designFile();
  const std::string full = tempPath(".jsonl"), part = tempPath(".jsonl");
  std::remove(full.c_str());
  REQUIRE(runCli("sweep " + design + " --threads 1 --out " + full).status == 0);
  const std::string reference = merge(design, full);
  const std::vector<std::string> ls = lines(slurp(full));
  REQUIRE(ls.size() == 12);
  // five complete lines and half of the sixth (the write a kill interrupted)
  {
    std::ofstream f(part, std::ios::binary);
    for (int i = 0; i < 5; ++i) f << ls[i] << "\n";
    f << ls[5].substr(0, ls[5].size() / 2);
  }
  CliResult r = runCli("sweep " + design + " --threads 2 --out " + part);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.json()["skipped"] == 5);
  CHECK(r.json()["computed"] == 7);
  CHECK(r.err.find("warning: " + part + ":6: dropped an incomplete last line") != std::string::npos);
  CHECK(lines(slurp(part)).size() == 12);
  CHECK(merge(design, part) == reference);
  // run again: nothing left to do
  r = runCli("sweep " + design + " --out " + part);
  REQUIRE(r.status == 0);
  CHECK(r.json()["skipped"] == 12);
  CHECK(r.json()["computed"] == 0);
  // one process per shard file: a second sweep on a file another one holds stops
  {
    const int fd = ::open(part.c_str(), O_RDONLY);
    REQUIRE(fd >= 0);
    REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);
    r = runCli("sweep " + design + " --out " + part);
    CHECK(r.status == 1);
    CHECK(r.err.find("is being written by another achain sweep") != std::string::npos);
    ::close(fd);
  }

  // a corrupt middle line: sweep and merge both stop naming it
  {
    std::ofstream f(part, std::ios::binary);
    for (int i = 0; i < 12; ++i) f << (i == 2 ? std::string("{\"design\": 2, \"parameters\": {") : ls[i]) << "\n";
  }
  r = runCli("sweep " + design + " --out " + part);
  CHECK(r.status == 1);
  CHECK(r.err.find(part + ":3: ") != std::string::npos);
  r = runCli("sweep-merge " + design + " " + part);
  CHECK(r.status == 1);
  CHECK(r.err.find(part + ":3: ") != std::string::npos);
  // a line of another shard, and a design twice
  {
    std::ofstream f(part, std::ios::binary);
    f << ls[0] << "\n" << ls[1] << "\n";
  }
  r = runCli("sweep " + design + " --shard 1/2 --out " + part);
  CHECK(r.status == 1);
  CHECK(r.err.find(part + ":1: design 0 is not in shard 1/2") != std::string::npos);
  {
    std::ofstream f(part, std::ios::binary);
    f << ls[0] << "\n" << ls[3] << "\n" << ls[0] << "\n";
  }
  r = runCli("sweep " + design + " --out " + part);
  CHECK(r.status == 1);
  CHECK(r.err.find(part + ":3: design 0 again (first on line 1)") != std::string::npos);
  r = runCli("sweep-merge " + design + " " + full + " " + part);
  CHECK(r.status == 1);
  CHECK(r.err.find(part + ":1: design 0 again (first in " + full + ":1)") != std::string::npos);
  // a half line in a merge: the shard is not finished
  {
    std::ofstream f(part, std::ios::binary);
    for (int i = 0; i < 11; ++i) f << ls[i] << "\n";
    f << ls[11].substr(0, 10);
  }
  r = runCli("sweep-merge " + design + " " + part);
  CHECK(r.status == 1);
  CHECK(r.err.find(part + ":12: the last line is incomplete") != std::string::npos);
  for (const std::string& f : {design, full, part}) std::remove(f.c_str());
}

TEST_CASE("achain sweep-merge names missing designs", "[cli][sweep]") {
  const std::string design = designFile();
  const std::string s0 = tempPath(".jsonl"), s1 = tempPath(".jsonl");
  std::remove(s0.c_str());
  std::remove(s1.c_str());
  REQUIRE(runCli("sweep " + design + " --shard 0/3 --out " + s0).status == 0);
  REQUIRE(runCli("sweep " + design + " --shard 1/3 --out " + s1).status == 0);
  const CliResult r = runCli("sweep-merge " + design + " " + s0 + " " + s1);
  CHECK(r.status == 1);
  CHECK(r.err.find("missing 4 of 12 designs: 2, 5, 8, 11 (a shard file not given, or a shard not finished)") != std::string::npos);
  // a space too large for one shard process or one merge is refused before anything is allocated
  const std::string huge = tempPath(".json");
  std::ofstream(huge) << R"({"format": "achain-design-space", "version": 1, "robot": "prototype-4a",
    "parameters": [{"name": "leg", "pointers": ["/joints/0/leg_length"], "range": [5, 7]}],
    "sample": {"kind": "random", "count": 1e12}, "metrics": {"collision": {}}})";
  CliResult h = runCli("sweep " + huge + " --out " + s1);
  CHECK(h.status == 1);
  CHECK(h.err.find("--shard: shard 0/1 holds 1000000000000 designs, more than one process takes (4294967296): use more shards") != std::string::npos);
  h = runCli("sweep-merge " + huge + " " + s1);
  CHECK(h.status == 1);
  CHECK(h.err.find("1000000000000 designs: a merge holds every record in memory, at most 10000000 designs") != std::string::npos);
  std::remove(huge.c_str());
  for (const std::string& f : {design, s0, s1}) std::remove(f.c_str());
}

TEST_CASE("achain sweep --shard auto: Slurm job arrays and Kubernetes Indexed Jobs", "[cli][sweep]") {
  const std::string design = designFile();
  const std::string out = tempPath(".jsonl");
  std::remove(out.c_str());
  unsetenv("JOB_COMPLETION_INDEX");
  setenv("SLURM_ARRAY_TASK_ID", "5", 1);
  setenv("SLURM_ARRAY_TASK_MIN", "4", 1);
  setenv("SLURM_ARRAY_TASK_COUNT", "3", 1);
  CliResult r = runCli("sweep " + design + " --shard auto --out " + out);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.json()["shard"] == 1);
  CHECK(r.json()["shards"] == 3);
  CHECK(r.json()["designs"] == 4);
  for (const std::string& l : lines(slurp(out))) CHECK(nlohmann::json::parse(l)["design"].get<int>() % 3 == 1);
  setenv("SLURM_ARRAY_TASK_ID", "7", 1);
  r = runCli("sweep " + design + " --shard auto --out " + out);
  CHECK(r.status == 1);
  CHECK(r.err.find("is not below SLURM_ARRAY_TASK_COUNT 3") != std::string::npos);
  unsetenv("SLURM_ARRAY_TASK_ID");
  unsetenv("SLURM_ARRAY_TASK_MIN");
  unsetenv("SLURM_ARRAY_TASK_COUNT");
  r = runCli("sweep " + design + " --shard auto --out " + out);
  CHECK(r.status == 1);
  CHECK(r.err.find("--shard auto: the environment names no shard") != std::string::npos);
  setenv("JOB_COMPLETION_INDEX", "2", 1);
  r = runCli("sweep " + design + " --shard auto --out " + out);
  CHECK(r.status == 1);
  CHECK(r.err.find("give --shards N") != std::string::npos);
  std::remove(out.c_str());
  r = runCli("sweep " + design + " --shard auto --shards 3 --out " + out);
  REQUIRE(r.status == 0);
  CHECK(r.json()["shard"] == 2);
  CHECK(r.json()["shards"] == 3);
  unsetenv("JOB_COMPLETION_INDEX");
  r = runCli("sweep " + design + " --shard 3/3 --out " + out);
  CHECK(r.status == 1);
  CHECK(r.err.find("--shard: i must be below N") != std::string::npos);
  for (const std::string& f : {design, out}) std::remove(f.c_str());
}

TEST_CASE("achain sweep: SIGTERM (Slurm's scancel or time limit) stops the shard between designs, keeping every record, exit 143", "[cli][sweep][progress]") {
  const std::string design = tempPath(".json");
  std::ofstream(design) << R"({"format": "achain-design-space", "version": 1, "robot": "prototype-4a",
    "parameters": [{"name": "mass", "pointers": ["/joints/2/link/mass"], "range": [5, 9]}],
    "sample": {"kind": "random", "count": 2000000, "seed": 1}, "metrics": {"move": {}}})";
  const std::string out = tempPath(".jsonl");
  // 2e6 designs run far longer than the test; SIGTERM once the first records are written (polled, so a busy
  // machine only makes the test wait longer)
  const std::string err = tempPath(".err");
  CliResult r = runCli("sweep " + design + " --out " + out + " --threads 2 2>" + err + " & p=$!; for i in $(seq 1200); do [ -s " + out +
                       " ] && break; sleep 0.05; done; sleep 0.2; kill -TERM $p; wait $p; exit $?");
  r.err = slurp(err);
  std::remove(err.c_str());
  INFO(r.err);
  CHECK(r.status == 143);
  CHECK(r.out.empty());
  const std::string head = "achain sweep: stopped by SIGTERM: shard 0/1 stopped after ";
  REQUIRE(r.err.rfind(head, 0) == 0);
  const unsigned long kept = std::stoul(r.err.substr(head.size()));
  CHECK(r.err.find(" of 2000000 designs; the " + std::to_string(kept) + " records in ") != std::string::npos);
  CHECK(r.err.find("are kept: run the same command again to continue") != std::string::npos);
  const std::vector<std::string> written = lines(slurp(out));
  REQUIRE(kept > 0);
  CHECK(written.size() == kept);  // every finished design's line is complete: none cut, none lost
  CHECK(slurp(out).back() == '\n');
  for (const std::string& l : written) CHECK(nlohmann::json::parse(l).contains("design"));
  std::remove(design.c_str());
  std::remove(out.c_str());
}
