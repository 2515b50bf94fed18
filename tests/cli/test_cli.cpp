// The CLI contract: JSON on stdout, one-line errors on stderr with a non-zero exit.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_runner.hpp"
#include "test_paths.hpp"

using achain::test::CliResult;
using achain::test::runCli;
using achain::test::tempPath;

TEST_CASE("achain fk: prototype fully extended", "[cli]") {
  const CliResult r = runCli("fk --robot prototype-4a --q 180,180,180,180 --deg");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  const auto& T = j.at("T");
  CHECK(T[2][3].get<double>() == Approx(0.98189).margin(1e-5));
  CHECK(T[0][0].get<double>() == Approx(-1).margin(1e-12));
  CHECK(T[1][1].get<double>() == Approx(-1).margin(1e-12));
  CHECK(T[2][2].get<double>() == Approx(1).margin(1e-12));
  CHECK(T[3][3].get<double>() == 1.0);
}

TEST_CASE("achain validate: negative link mass exits non-zero naming the field", "[cli][errors]") {
  const std::string path = tempPath(".json");
  {
    std::ofstream f(path);
    f << R"({"schema_version":1,"name":"bad","joints":[{"kind":"R","link":{"mass":-2}}]})";
  }
  const CliResult r = runCli("validate " + path);
  std::remove(path.c_str());
  CHECK(r.status != 0);
  CHECK(r.out.empty());
  CHECK(r.err.find("joints[0].link.mass: must be ≥ 0") != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

TEST_CASE("achain validate: a good file prints its summary", "[cli]") {
  const CliResult r = runCli(std::string("validate ") + achain::test::sourceDir() + "/core/robots/prototype-4a.json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("valid").get<bool>());
  CHECK(j.at("dof").get<int>() == 4);
}

TEST_CASE("achain robots lists every built-in", "[cli]") {
  const CliResult r = runCli("robots");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  std::vector<std::string> names;
  for (const auto& x : j.at("robots")) names.push_back(x.at("name"));
  for (const char* n : {"prototype-4a", "prototype-4r", "puma560", "stanford", "planar-2r"})
    CHECK(std::find(names.begin(), names.end(), n) != names.end());
}

TEST_CASE("achain fk: bad input gives a one-line error and non-zero exit", "[cli][errors]") {
  CliResult r = runCli("fk --robot prototype-4a --q 1,2,x,4");
  CHECK(r.status != 0);
  CHECK(r.err.find("--q[2]: 'x' is not a number") != std::string::npos);
  r = runCli("fk --robot prototype-4a --q 1,2,3");
  CHECK(r.status != 0);
  CHECK(r.err.find("has 4 joints, got 3 values") != std::string::npos);
  r = runCli("fk --robot no-such-robot --q 1");
  CHECK(r.status != 0);
  CHECK(r.err.find("neither a built-in") != std::string::npos);
}

TEST_CASE("achain --help works for every subcommand", "[cli]") {
  // every subcommand `achain --help` lists (first name of each entry under "Subcommands:")
  const CliResult top = runCli("--help");
  REQUIRE(top.status == 0);
  std::vector<std::string> subs;
  std::istringstream lines(top.out.substr(top.out.find("Subcommands:")));
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("  ", 0) == 0 && line.size() > 2 && line[2] != ' ') subs.push_back(line.substr(2, line.find_first_of(" ,", 2) - 2));
  CHECK(subs.size() >= 24);
  for (const std::string& sub : subs) {
    const CliResult r = runCli(sub + " --help");
    INFO(sub);
    CHECK(r.status == 0);
    CHECK(r.out.find("Usage") != std::string::npos);
  }
}

TEST_CASE("achain --help lists only options a subcommand reads: no --deg on export/workspace, no --friction on mass", "[cli]") {
  // export and workspace read no joint values; M, C and g contain no friction or tool load
  for (const char* sub : {"export", "workspace"}) {
    INFO(sub);
    const CliResult h = runCli(std::string(sub) + " --help");
    REQUIRE(h.status == 0);
    CHECK(h.out.find("--deg") == std::string::npos);
    CHECK(h.out.find("--robot") != std::string::npos);
  }
  const CliResult e = runCli("export --robot planar-2r --deg");
  CHECK(e.status != 0);
  CHECK(e.err.find("--deg") != std::string::npos);
  const CliResult m = runCli("mass --help");
  CHECK(m.out.find("--friction") == std::string::npos);
  CHECK(m.out.find("--wrench") == std::string::npos);
  CHECK(m.out.find("--gravity") != std::string::npos);
  CHECK(runCli("mass --robot planar-2r --q 0,0 --friction").status != 0);
  // the subcommands that read joint values keep --deg, and it converts: ik's --q-target, traj's --from
  for (const char* sub : {"ik", "traj", "fk", "id", "statics"}) {
    INFO(sub);
    CHECK(runCli(std::string(sub) + " --help").out.find("--deg") != std::string::npos);
  }
  const auto a = nlohmann::json::parse(runCli("ik --robot planar-2r --q-target 30,-40 --deg --seed 25,-35").out);
  CHECK(a["q_deg"][0].get<double>() == Approx(30).margin(1e-6));
}

TEST_CASE("achain validate and --robot refuse unbounded files and XML in one line", "[cli][errors]") {
  // Before: validate read /dev/zero until the memory ran out (killed, exit 137).
  const CliResult z = runCli("validate /dev/zero");
  CHECK(z.status == 1);
  CHECK(z.err.find("/dev/zero: larger than 16 MiB") != std::string::npos);
  // Before: an XML text given as --robot said only "neither a built-in nor a readable file".
  const CliResult x = runCli("fk --robot '<?xml version=\"1.0\"?><robot name=\"r\"/>' --q 0");
  CHECK(x.status == 1);
  CHECK(x.err.find("this is XML text, not a built-in name or a file name") != std::string::npos);
  CHECK(std::count(x.err.begin(), x.err.end(), '\n') == 1);
}

TEST_CASE("achain robots --show prints a built-in's description, validate takes a built-in name", "[cli]") {
  const CliResult r = runCli("robots --show puma560");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);  // the robot file's own JSON, units and notes included
  std::ifstream f(achain::test::sourceDir() + "/core/robots/puma560.json");
  CHECK(j == nlohmann::json::parse(f));
  // What --show prints is a robot file: saved and validated, it is the same robot.
  const std::string path = tempPath(".json");
  REQUIRE(runCli("robots --show planar-2r > " + path).status == 0);
  const CliResult v = runCli("validate " + path);
  std::remove(path.c_str());
  REQUIRE(v.status == 0);
  CHECK(v.json()["name"] == "planar-2r");
  CHECK(v.json()["builtin"] == false);
  // Before: `validate puma560` failed with "cannot open file".
  const CliResult b = runCli("validate puma560");
  REQUIRE(b.status == 0);
  CHECK(b.json()["valid"] == true);
  CHECK(b.json()["builtin"] == true);
  CHECK(b.json()["dof"] == 6);
  const CliResult bad = runCli("robots --show nosuchrobot");
  CHECK(bad.status != 0);
  CHECK(bad.err.find("nosuchrobot") != std::string::npos);
  CHECK(bad.err.find("puma560") != std::string::npos);  // lists the known names
  // (the message of the one robot reader; this case did not run under ctest while its name held a ';', and still
  // expected the older "cannot open")
  const CliResult none = runCli("validate nosuchrobot");
  CHECK(none.status == 1);
  CHECK(none.err.find("'nosuchrobot' is neither a built-in (") != std::string::npos);
  CHECK(none.err.find("puma560") != std::string::npos);
  CHECK(none.err.find(") nor a readable file") != std::string::npos);
}
