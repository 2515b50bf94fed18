// `achain send --virtual` and its error contract (the PTY/real-time variants run in pty-e2e.test.mjs).
#include <sys/stat.h>

#include <signal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../cli/cli_runner.hpp"

using achain::test::CliResult;
using achain::test::runCli;
using achain::test::tempPath;

TEST_CASE("achain send --virtual: the thesis trapezoid below 0.1° final error", "[bridge][cli]") {
  const CliResult r = runCli("send --virtual --demo thesis-trapezoid --quiet");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["ok"] == true);
  CHECK(j["state"] == "idle");
  CHECK(j["segments"].get<int>() > 150);
  CHECK(j["max_final_error_deg"].get<double>() < 0.1);
  CHECK(j["faults"].empty());
  CHECK(j["servo_hz"] == 1000);
}

TEST_CASE("achain send: a silent host ends in a watchdog fault and exit status 2", "[bridge][cli]") {
  const CliResult r = runCli("send --virtual --demo thesis-trapezoid --quiet --abandon-after 0.5");
  CHECK(r.status == 2);  // exit status 2: the controller reported a fault
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["ok"] == false);
  CHECK(j["state"] == "fault");
  CHECK(j["faults"] == nlohmann::json::array({"watchdog"}));
  CHECK(r.err.find("watchdog") != std::string::npos);
}

TEST_CASE("achain send: refuses an out-of-limit trajectory and bad arguments", "[bridge][cli]") {
  const std::string path = tempPath(".json");
  std::ofstream(path) << R"({"schema":"achain-trajectory","version":1,"robot":"prototype-4a","joints":["a","b","c","d"],)"
                         R"("t":[0,0.1],"q":[[1.0472,1.0472,1.0472,1.0472],[1.3,1.0472,1.0472,1.0472]],"qd":[[0,0,0,0],[0,0,0,0]]})";
  CliResult r = runCli("send --virtual " + path);
  CHECK(r.status == 1);
  CHECK(r.err.find("joint 1: velocity") != std::string::npos);
  // in the model's units: the prototype's joints are angular, so degrees (its 180°/s speed limit)
  CHECK(r.err.find("°/s outside ±180.0000°/s") != std::string::npos);
  CHECK(r.err.find("rad") == std::string::npos);
  r = runCli("send --demo thesis-trapezoid");
  CHECK(r.status == 1);
  CHECK(r.err.find("exactly one of --port PATH or --virtual") != std::string::npos);
  r = runCli("send --port /nonexistent/tty --demo thesis-trapezoid");
  CHECK(r.status == 1);
  CHECK(r.err.find("cannot open") != std::string::npos);
  std::ofstream(path) << R"({"schema":"achain-trajectory","version":1,"t":[0,1],"q":[[0],[1]],"qd":[[0],["x"]]})";
  r = runCli("send --virtual " + path);
  CHECK(r.status == 1);
  CHECK(r.err.find("qd[1][0]") != std::string::npos);
  std::remove(path.c_str());
}

TEST_CASE("achain traj | achain send: the planned thesis trapezoid streams below 0.1°", "[bridge][cli]") {
  const std::string path = tempPath(".json");
  const CliResult t = runCli("traj --robot prototype-4a --deg --from 60,60,60,60 --to 300,300,300,300 --rate 1000 > " + path);
  if (t.status != 0) {
    WARN("achain traj unavailable (" << t.err << "): skipped");
    return;
  }
  const CliResult r = runCli("send --virtual --quiet " + path);
  std::remove(path.c_str());
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["ok"] == true);
  CHECK(j["max_final_error_deg"].get<double>() < 0.1);
  CHECK(std::abs(j["duration"].get<double>() - 1.5833) < 1e-3);  // thesis: 0.25 / 1.333 / 1.583 s
}

TEST_CASE("achain controller-sim --log: a FIFO nobody reads is refused at once, not waited on", "[bridge][cli]") {
  // Before: open() blocked until a reader came, and SIGTERM could not stop it (the handler was not reached).
  const std::string fifo = tempPath(".fifo");
  std::remove(fifo.c_str());
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const CliResult r = runCli("controller-sim --duration 0.5 --log " + fifo);
  std::remove(fifo.c_str());
  INFO(r.err);
  CHECK(r.status == 1);
  CHECK(r.err.find("--log " + fifo + ": cannot open for writing (a FIFO that no process reads)") != std::string::npos);
}

TEST_CASE("achain send: an underrun on a damaged link says what the host's counters saw, not 'host too slow'", "[bridge][cli]") {
  // Before: "the segment queue ran dry … (host too slow)" while the host had resent over a thousand frames.
  const CliResult r = runCli("send --virtual --demo thesis-trapezoid --quiet --inject-drop 0.3 --inject-corrupt 0.3");
  INFO(r.err);
  CHECK(r.status == 2);
  CHECK(r.err.find("too slow") == std::string::npos);
  CHECK(r.err.find("a slow host or a lossy link") != std::string::npos);
  CHECK(r.err.find("during this stream the host resent") != std::string::npos);
  CHECK(r.err.find("the serial link is losing or corrupting frames") != std::string::npos);
}

namespace bus_cli_test {

/// `achain bus-sim` in the background behind a PTY reached through a symlink; stopped (SIGTERM) at the end.
struct BusSim {
  std::string link, out;
  int pid = -1;
  explicit BusSim(const std::string& args) {
    link = tempPath(".pty");
    std::remove(link.c_str());
    out = tempPath(".json");
    const std::string cmd = achain::test::cliPath() + " bus-sim --duration 60 --link " + link + " " + args + " > " + out + " 2>&1 &";
    REQUIRE(std::system(cmd.c_str()) == 0);
    for (int i = 0; i < 500 && pid < 0; ++i) {  // its first line names its pid, once the PTY and link exist
      std::ifstream f(out);
      std::string line;
      if (std::getline(f, line) && !line.empty() && line.back() == '}') pid = nlohmann::json::parse(line)["pid"].get<int>();
      if (pid < 0) ::usleep(10000);
    }
    REQUIRE(pid > 0);
  }
  ~BusSim() {
    if (pid > 0) ::kill(pid, SIGTERM);
    std::remove(out.c_str());
  }
};

/// The reply timeout of every command that talks to a bus-sim. The simulated servos are another process: on a
/// loaded machine it can be descheduled past the host's default 50 ms (a cold npm test on 6f25e9e, both cores busy:
/// "servo ID 1 did not reply to the sync read of its present state (waited up to 55.6 ms)" in the middle of a
/// stream), a stall no real servo has. What these tests check does not depend on the timeout: a silent servo is
/// still reported (the fault test below), only later. 250 ms was not enough either: under ASan, with both cores
/// kept busy and browser tests beside it, "waited up to 254.2 ms" (a fresh clone's npm test of c42d130).
const std::string kReplyTimeout = " --reply-timeout-ms 1000";

}  // namespace bus_cli_test

TEST_CASE("achain bus scan / calibrate / monitor and send --bus on a simulated bus behind a PTY", "[bridge][cli][servo]") {
  for (const std::string protocol : {"dynamixel", "feetech"}) {
    INFO(protocol);
    bus_cli_test::BusSim sim("--protocol " + protocol + " --ids 1-6 --start 1500,1700,1900,2100,2300,2500");
    const std::string port = " --port " + sim.link + " --protocol " + protocol + bus_cli_test::kReplyTimeout;
    CliResult r = runCli("bus scan" + port + " --ids 1-8 --bauds 57600,1000000");
    INFO(r.err);
    REQUIRE(r.status == 0);
    auto j = r.json();
    REQUIRE(j["found"].size() == 6);
    CHECK(j["found"][5]["id"] == 6);
    CHECK(j["found"][5]["baud"] == 1000000);
    CHECK(j["found"][0]["model_name"] == (protocol == "dynamixel" ? "XM430-W350" : "STS3215"));
    // the arm stands at the PUMA's zero pose: each servo's position becomes its joint's zero
    const std::string cal = tempPath(".json");
    r = runCli("bus calibrate" + port + " --robot puma560 --ids 1-6 --directions 1,-1,1,1,-1,1 --out " + cal);
    REQUIRE(r.status == 0);
    CHECK(r.err.find("achain bus calibrate: warning: joint 'j2' (servo ID 2): streams are limited to") != std::string::npos);
    std::ifstream cf(cal);
    const auto c = nlohmann::json::parse(cf);
    CHECK(c["protocol"] == protocol);
    CHECK(c["joints"][1]["zero_offset"] == 1700);
    CHECK(c["joints"][1]["direction"] == -1);
    // a planned move (a synchronised trapezoid) streamed at 100 Hz over the PTY, in real time
    const std::string traj = tempPath(".json");
    REQUIRE(runCli("traj --robot puma560 --deg --from 0,0,0,0,0,0 --to 20,-15,10,30,-20,25 --profile trapezoid --sync --duration 1.5 --rate 100 > " + traj).status == 0);
    r = runCli("send --quiet --robot puma560 --bus " + protocol + " --calibration " + cal + " --port " + sim.link + bus_cli_test::kReplyTimeout + " " + traj);
    INFO(r.out);
    REQUIRE(r.status == 0);
    j = r.json();
    CHECK(j["ok"] == true);
    CHECK(j["max_final_error_counts"].get<int>() <= 1);
    CHECK(j["bus"] == protocol);
    // the monitor reads the pose the send left: joint 4 at 30°
    r = runCli("bus monitor --port " + sim.link + bus_cli_test::kReplyTimeout + " --calibration " + cal + " --duration 0.3 --rate 20");
    REQUIRE(r.status == 0);
    std::istringstream lines(r.out);
    std::string line, last;
    int n = 0;
    while (std::getline(lines, line)) {
      last = line;
      ++n;
    }
    CHECK(n >= 3);
    CHECK(nlohmann::json::parse(last)["q"][3].get<double>() == Approx(30 * 3.14159265358979 / 180).margin(3.1e-3));  // 2 counts
    // a teleoperation drag, as the studio streams IK results: a smooth wandering path sampled at 60 Hz for 2 s
    {
      nlohmann::json d = {{"schema", "achain-trajectory"}, {"version", 1}, {"robot", "puma560"}};
      for (int k = 0; k <= 120; ++k) {
        const double t = k / 60.0;
        std::vector<double> q(6), qd(6);  // (qd: the file format's velocities, the path's derivative)
        for (int jn = 0; jn < 6; ++jn) {
          q[jn] = 0.3 * std::sin(1.3 * t + jn) * std::min(1.0, t);
          qd[jn] = 0.3 * (1.3 * std::cos(1.3 * t + jn) * std::min(1.0, t) + (t < 1 ? std::sin(1.3 * t + jn) : 0.0));
        }
        d["t"].push_back(t);
        d["q"].push_back(q);
        d["qd"].push_back(qd);
      }
      std::ofstream(traj) << d.dump();
    }
    r = runCli("send --quiet --robot puma560 --bus " + protocol + " --calibration " + cal + " --port " + sim.link + bus_cli_test::kReplyTimeout + " " + traj);
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.json()["max_final_error_counts"].get<int>() <= 1);
    // refused before anything moves: a goal outside the model's limits (joint 2 of the PUMA: -45° … 225°)
    std::ofstream(traj) << R"({"schema":"achain-trajectory","version":1,"robot":"puma560","t":[0,1],)"
                           R"("q":[[0,0,0,0,0,0],[0,-1.2,0,0,0,0]],"qd":[[0,0,0,0,0,0],[0,0,0,0,0,0]]})";
    r = runCli("send --quiet --robot puma560 --bus " + protocol + " --calibration " + cal + " --port " + sim.link + bus_cli_test::kReplyTimeout + " " + traj);
    CHECK(r.status == 1);
    CHECK(r.err.find("sample 1 (t = 1.000 s): joint 'j2' (servo ID 2): goal -1.2000 rad is below its minimum") != std::string::npos);
    std::remove(cal.c_str());
    std::remove(traj.c_str());
  }
}

TEST_CASE("achain bus scan --echo through an adapter that echoes (bus-sim --echo), and without --echo a named error", "[bridge][cli][servo]") {
  for (const std::string protocol : {"dynamixel", "feetech"}) {
    INFO(protocol);
    bus_cli_test::BusSim sim("--protocol " + protocol + " --ids 1-3 --echo");
    const std::string port = " --port " + sim.link + " --protocol " + protocol + " --bauds 1000000" + bus_cli_test::kReplyTimeout;
    CliResult r = runCli("bus scan" + port + " --ids 1-5 --echo");
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.json()["found"].size() == 3);
    r = runCli("bus scan" + port + " --ids 1-5");
    CHECK(r.status == 1);
    CHECK(r.err.find("the adapter echoes what") != std::string::npos);
    CHECK(r.err.find("turn on the adapter echo option") != std::string::npos);
  }
}

TEST_CASE("achain send --bus: a silent servo, a corrupt reply and an overload each stop the stream with a message and a safe state", "[bridge][cli][servo]") {
  for (const std::string fault : {"silence", "crc", "overload"}) {
    INFO(fault);
    bus_cli_test::BusSim sim("--ids 1-6 --fault " + fault + " --fault-id 4 --fault-after-writes 60");
    const std::string cal = tempPath(".json");
    REQUIRE(runCli("bus calibrate --port " + sim.link + bus_cli_test::kReplyTimeout + " --robot puma560 --ids 1-6 --out " + cal).status == 0);
    const std::string traj = tempPath(".json");
    REQUIRE(runCli("traj --robot puma560 --deg --from 0,0,0,0,0,0 --to 40,-30,20,60,-40,50 --profile quintic --duration 3 --rate 100 > " + traj).status == 0);
    const CliResult r = runCli("send --quiet --robot puma560 --bus dynamixel --estop-action hold --calibration " + cal +
                               " --port " + sim.link + bus_cli_test::kReplyTimeout + " " + traj);
    INFO(r.err);
    CHECK(r.status == 2);
    CHECK(r.err.find("servo ID 4") != std::string::npos);
    CHECK(r.err.find("holds its last present position") != std::string::npos);
    const auto j = r.json();
    CHECK(j["ok"] == false);
    std::remove(cal.c_str());
    std::remove(traj.c_str());
  }
}
