// The bad-input corpus (tests/fixtures/bad_input/cli.json): every case is run and must end with its exit status and
// its one-line error, never a crash, a hang or a silent default. Plus the findings that need a file: a trajectory
// without accelerations, a flexible chain stepped beyond its stability limit.
#include <algorithm>
#include <filesystem>
#include <fstream>

#include "cli_runner.hpp"

using achain::test::CliResult;
using achain::test::runCli;
using achain::test::tempPath;

TEST_CASE("the bad-input corpus: each case fails with its status and names what is wrong", "[cli][errors][corpus]") {
  std::ifstream f(achain::test::sourceDir() + "/tests/fixtures/bad_input/cli.json");
  REQUIRE(f.good());
  const nlohmann::json corpus = nlohmann::json::parse(f);
  REQUIRE(corpus["cases"].size() >= 16);
  for (const auto& c : corpus["cases"]) {
    const CliResult r = runCli(c["args"].get<std::string>());
    INFO("achain " << c["args"].get<std::string>() << "\n  -> exit " << r.status << ": " << r.err);
    CHECK(r.status == c["status"].get<int>());
    CHECK(r.err.find(c["says"].get<std::string>()) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);  // one line
    CHECK(r.out.empty());
  }
}

TEST_CASE("a decimal integer with a leading zero is read as decimal, not octal", "[cli][errors]") {
  // CLI11 reads integers with strtoll(…, 0): "010" was eight. 010 samples every 10th step of 100: 11 samples.
  const CliResult r = runCli("sim --robot planar-2r --q 0.1,0.2 --duration 0.1 --dt 0.001 --every 010");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.json()["t"].size() == 11);
}

TEST_CASE("a trajectory file without qd or qdd: the rates are differentiated from q, with a warning", "[cli][trajectory][errors]") {
  // Before: missing qdd was read as zero accelerations; analyze gave peak torques 23.5/4.29 N·m and
  // "within effort" where the full file gives 64.9/14.3 and not.
  const std::string full = tempPath(".json"), bare = tempPath(".json");
  REQUIRE(runCli("traj --robot planar-2r --from 0,0 --to 0.5,0.5 --out " + full).status == 0);  // the audit's file
  nlohmann::json j;
  {
    std::ifstream in(full);
    j = nlohmann::json::parse(in);
  }
  j.erase("qdd");
  j.erase("qd");
  std::ofstream(bare) << j.dump();
  const CliResult a = runCli("analyze --traj " + full), b = runCli("analyze --traj " + bare);
  INFO(b.err);
  REQUIRE(a.status == 0);
  REQUIRE(b.status == 0);
  CHECK(a.err.empty());
  CHECK(b.err.find("warning: qdd: not in the file; differentiated from qd") != std::string::npos);
  CHECK(b.err.find("warning: qd: not in the file; differentiated from q") != std::string::npos);
  const auto pa = a.json()["peak_tau"], pb = b.json()["peak_tau"];
  REQUIRE(pa.size() == 2);
  CHECK(pa[0].get<double>() == Approx(64.93).margin(0.01));  // the full file's peaks
  CHECK(pa[1].get<double>() == Approx(14.31).margin(0.01));
  for (size_t i = 0; i < 2; ++i) {
    INFO("joint " << i << ": " << pa[i] << " vs " << pb[i]);
    // the peaks fall inside the trapezoid's acceleration phases, where q is quadratic: the differences are exact there
    CHECK(pb[i].get<double>() == Approx(pa[i].get<double>()).epsilon(1e-6));
  }
  CHECK(a.json()["within_effort"] == false);
  CHECK(b.json()["within_effort"] == false);  // was true: zero accelerations gave 23.5 and 4.29 N·m
  std::remove(full.c_str());
  std::remove(bare.c_str());
}

TEST_CASE("output files: --out writes through a symbolic link and leaves a read-only file alone", "[cli][errors]") {
  namespace fs = std::filesystem;
  const std::string target = tempPath(".json"), link = target + ".link";
  fs::remove(link);
  fs::create_symlink(target, link);
  // Before: the link was replaced by a regular file and its target kept the old text.
  REQUIRE(runCli("traj --robot planar-2r --from 0,0 --to 0.5,0.5 --out " + link).status == 0);
  CHECK(fs::is_symlink(link));
  CHECK(fs::file_size(target) > 100);
  // a dangling link names itself
  fs::remove(target);
  CliResult r = runCli("traj --robot planar-2r --from 0,0 --to 0.5,0.5 --out " + link);
  CHECK(r.status == 1);
  CHECK(r.err.find("is a symbolic link to a missing file") != std::string::npos);
  fs::remove(link);
  // read-only: refused (before: replaced, since the rename only needs the directory), the file unchanged
  std::ofstream(target) << "keep";
  fs::permissions(target, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  r = runCli("traj --robot planar-2r --from 0,0 --to 0.5,0.5 --out " + target);
  CHECK(r.status == 1);
  CHECK(r.err.find("the file is read-only") != std::string::npos);
  std::ifstream in(target);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text == "keep");
  fs::remove(target);
}

TEST_CASE("a robot file with two joints of one name is refused, naming both", "[cli][errors]") {
  // Before: loaded, and a loop's coordinates named by joint bound to the first of the two.
  const std::string path = tempPath(".json");
  std::ofstream(path) << R"({"schema_version":1,"name":"twins","convention":"standard","joints":[)"
                         R"({"name":"j","kind":"R","a":0.3,"alpha":0,"d":0,"theta_f":0},)"
                         R"({"name":"j","kind":"R","a":0.3,"alpha":0,"d":0,"theta_f":0}]})";
  const CliResult r = runCli("fk --robot " + path + " --q 0,0");
  INFO(r.err);
  CHECK(r.status == 1);
  CHECK(r.err.find("joints[1].name: duplicate joint name 'j' (also joints[0])") != std::string::npos);
  std::remove(path.c_str());
}

TEST_CASE("a trajectory's samples × joints are capped before memory is taken", "[cli][errors][caps]") {
  // Before: traj with 1,000 joints × 1e6 samples ended in bad_alloc. 30 joints × 999,001 samples: 3e7 values.
  nlohmann::json j = {{"schema_version", 1}, {"name", "thirty"}, {"convention", "standard"}, {"joints", nlohmann::json::array()}};
  std::string from, to;
  for (int i = 0; i < 30; ++i) {
    j["joints"].push_back({{"name", "j" + std::to_string(i)}, {"kind", "R"}, {"a", 0.01}, {"alpha", 0}, {"d", 0}, {"theta_f", 0},
                           {"limits", {{"velocity", 1}, {"acceleration", 1}}}});
    from += std::string(i ? "," : "") + "0";
    to += std::string(i ? "," : "") + "0.1";
  }
  const std::string path = tempPath(".json");
  std::ofstream(path) << j.dump();
  const CliResult r = runCli("traj --robot " + path + " --from " + from + " --to " + to + " --duration 999 --rate 1000");
  INFO(r.err);
  CHECK(r.status == 1);
  CHECK(r.err.find("rate: 999001 samples × 30 joints is too many values (at most 2e7 per trajectory; lower the rate)") != std::string::npos);
  std::remove(path.c_str());
}

TEST_CASE("an empty robot file is said to be empty, not malformed JSON", "[cli][errors]") {
  for (const char* ext : {".urdf", ".json"}) {
    const std::string path = tempPath(ext);
    std::ofstream(path) << " \n";
    const CliResult r = runCli("fk --robot " + path + " --q 0");
    INFO(r.err);
    CHECK(r.status == 1);
    // before: "(document): malformed JSON at byte 1: … unexpected end of input", for a .urdf too
    CHECK(r.err == "achain fk: error: " + path + ": the file is empty (expected a URDF or a JSON robot description)\n");
    std::remove(path.c_str());
  }
}
