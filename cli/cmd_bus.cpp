// Servo-bus arms (Dynamixel Protocol 2.0, Feetech SCS/STS; docs/servo-buses.md): `bus scan`, `bus calibrate`,
// `bus monitor`, and `bus-sim` (a simulated bus behind a pseudo-terminal). `achain send --bus` streams a
// trajectory to such an arm (sendToBus below, called by cmd_bridge.cpp). The loops are the bridge's
// (firmware-bridge/host/servo_jobs.hpp); this file reads options and prints JSON.
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <termios.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "bus.hpp"
#include "common.hpp"
#include "progress.hpp"
#include "host/posix_io.hpp"
#include "host/servo_jobs.hpp"
#include "servo/feetech.hpp"
#include <achain/io/json_text.hpp>

namespace achain::cli {

namespace br = achain::bridge;

namespace {

volatile std::sig_atomic_t g_bus_stop = 0;
void onBusSignal(int) { g_bus_stop = 1; }

br::ServoProtocol protocolOf(const std::string& name, const std::string& what) {
  if (name == "dynamixel") return br::ServoProtocol::Dynamixel;
  if (name == "feetech") return br::ServoProtocol::Feetech;
  throw Error(what + ": 'dynamixel' or 'feetech' (got '" + name + "')");
}
const char* protocolName(br::ServoProtocol p) { return p == br::ServoProtocol::Dynamixel ? "dynamixel" : "feetech"; }

/// "1-6", "1,3,5" or a mix ("1-3,7"): servo IDs 0…252, each once.
std::vector<int> parseIds(const std::string& text, const std::string& what) {
  std::vector<int> ids;
  for (const std::string& item : splitList(text)) {
    const size_t dash = item.find('-', 1);
    const std::string a = dash == std::string::npos ? item : item.substr(0, dash);
    const std::string b = dash == std::string::npos ? item : item.substr(dash + 1);
    const std::vector<double> lo = parseList(a, what), hi = parseList(b, what);
    if (lo[0] != std::floor(lo[0]) || hi[0] != std::floor(hi[0]) || lo[0] < 0 || hi[0] > 252 || lo[0] > hi[0])
      throw Error(what + ": '" + item + "' is not an ID or a range of IDs within 0 .. 252");
    for (int id = static_cast<int>(lo[0]); id <= static_cast<int>(hi[0]); ++id) {
      for (int seen : ids)
        if (seen == id) throw Error(what + ": servo ID " + std::to_string(id) + " is given twice");
      ids.push_back(id);
    }
  }
  return ids;
}

std::vector<uint32_t> parseBauds(const std::string& text, const std::string& what) {
  std::vector<uint32_t> out;
  for (double b : parseList(text, what)) {
    const std::string why = br::serialBaudProblem(b, what);
    if (!why.empty()) throw Error(why);
    out.push_back(static_cast<uint32_t>(b));
  }
  return out;
}

/// A calibration file's text (the library's bounded reader).
std::string calibrationText(const std::string& path) { return readTextFile(path, kMaxRobotFileBytes, "--calibration " + path); }

/// One simulated servo of a protocol's usual model (XM430-W350 at 12 V, STS3215 at 7.4 V).
br::SimServoParams simServo(br::ServoProtocol p, int id, uint32_t baud, int32_t start) {
  br::SimServoParams s = br::usualSimServo(p, id);
  s.baud = baud;
  s.start_position = start;
  return s;
}

/// A port for a bus job: the serial device or PTY, opened raw at the bus's rate.
struct BusPort {
  int fd = -1;
  std::unique_ptr<br::FdServoLink> link;
  BusPort(const std::string& port, uint32_t baud) {
    if (port.empty()) throw Error("--port: required (a serial device, or the PTY `achain bus-sim` prints)");
    std::signal(SIGPIPE, SIG_IGN);
    fd = br::openSerial(port, static_cast<int>(baud));
    ::tcflush(fd, TCIFLUSH);  // bytes left from an earlier session are not replies to this one
    link = std::make_unique<br::FdServoLink>(fd);
  }
  ~BusPort() {
    if (fd >= 0) ::close(fd);
  }
};

/// PortArgs (bus.hpp) on a subcommand. A USB adapter's latency timer (FTDI: 16 ms by default) and a busy computer
/// delay replies by milliseconds; the in-process simulated bus keeps the host's 1 ms.
void addPortOptions(CLI::App* sub, PortArgs& a) {
  sub->add_option("--reply-timeout-ms", a.reply_timeout_ms, "Wait this long past a reply's expected end before a servo is called silent (USB adapters add latency)")
      ->check(CLI::Range(1.0, 1000.0))
      ->capture_default_str();
  sub->add_flag("--echo", a.echo, "The adapter echoes every byte sent (TX and RX tied, no direction control): read our own bytes back and discard them");
}
br::ServoHostOptions portOptions(const PortArgs& a) {
  br::ServoHostOptions o;
  o.timeout_margin_us = static_cast<uint32_t>(a.reply_timeout_ms * 1000);
  o.echo = a.echo;
  return o;
}

json feedbackLine(const br::ServoHost& host, double t) {
  json q = json::array(), v = json::array(), c = json::array(), load = json::array(), volt = json::array(), temp = json::array();
  for (const br::ServoFeedback& f : host.feedback()) {
    q.push_back(f.position);
    v.push_back(f.velocity);
    c.push_back(f.counts);
    load.push_back(f.load);
    volt.push_back(f.voltage);
    temp.push_back(f.temperature);
  }
  return {{"t", t}, {"q", q}, {"qd", v}, {"counts", c}, {"load", load}, {"voltage", volt}, {"temperature", temp}};
}

RegisterCommand bus_cmd("bus", [](CLI::App& app) {
  auto* bus = app.add_subcommand("bus", "Servo-bus arms (Dynamixel Protocol 2.0, Feetech SCS/STS): scan, calibrate, monitor");
  bus->require_subcommand(1);

  // ---- bus scan ----
  auto* scan = bus->add_subcommand("scan", "Find the servos on a bus: ping every ID at every baud rate, read their model numbers");
  static std::string scan_port, scan_protocol = "dynamixel", scan_ids = "1-20", scan_bauds;
  static PortArgs scan_port_args;
  addPortOptions(scan, scan_port_args);
  scan->add_option("--port", scan_port, "Serial device (USB adapter) or the PTY of `achain bus-sim`")->required();
  scan->add_option("--protocol", scan_protocol, "dynamixel (Protocol 2.0) or feetech (SCS/STS)")->capture_default_str();
  scan->add_option("--ids", scan_ids, "IDs to ping: a list and/or ranges, e.g. 1-6 or 1,2,10-12")->capture_default_str();
  scan->add_option("--bauds", scan_bauds, "Baud rates to try, in order (default: dynamixel 57600,1000000; feetech 1000000)");
  scan->callback([] {
    run("bus scan", [] {
      const br::ServoProtocol p = protocolOf(scan_protocol, "--protocol");
      const std::vector<int> ids = parseIds(scan_ids, "--ids");
      const std::vector<uint32_t> bauds =
          parseBauds(!scan_bauds.empty() ? scan_bauds : (p == br::ServoProtocol::Dynamixel ? "57600,1000000" : "1000000"), "--bauds");
      BusPort port(scan_port, bauds.front());
      br::ServoHost host(p, portOptions(scan_port_args));
      const auto found = br::scanServos(host, *port.link, ids, bauds);
      json list = json::array();
      for (const br::FoundServo& f : found)
        list.push_back({{"id", f.id}, {"baud", f.baud}, {"model", f.model}, {"model_name", br::servoModelName(p, f.model)}});
      print({{"protocol", protocolName(p)}, {"ids_tried", ids.size()}, {"bauds_tried", bauds}, {"found", list}});
    });
  });

  // ---- bus calibrate ----
  auto* cal = bus->add_subcommand(
      "calibrate",
      "Calibrate a bus arm at the robot's zero pose: hold the arm there (torque is not turned on), and each servo's present "
      "position becomes its joint's zero; writes the calibration file (`send --bus`, `bus monitor`)");
  static RobotArgs cal_robot;
  static std::string cal_port, cal_protocol = "dynamixel", cal_ids, cal_dirs, cal_out;
  static uint32_t cal_baud = 1000000;
  static PortArgs cal_port_args;
  addPortOptions(cal, cal_port_args);
  cal->add_option("--port", cal_port, "Serial device or PTY of the bus")->required();
  cal->add_option("--protocol", cal_protocol, "dynamixel or feetech")->capture_default_str();
  cal->add_option("--baud", cal_baud, "The servos' baud rate (see `bus scan`)")->capture_default_str();
  cal_robot.add(cal, JointInputs::None, "Robot whose joints the servos drive (limits and speeds come from it)");
  cal->add_option("--ids", cal_ids, "Servo ID of each joint, in the robot's joint order (e.g. 1-6)")->required();
  cal->add_option("--directions", cal_dirs, "Per joint: 1 if the joint angle grows with the servo's counts, -1 if not (default all 1)");
  cal->add_option("--out", cal_out, "Write the calibration file here (default: print it)");
  cal->callback([] {
    run("bus calibrate", [] {
      const br::ServoProtocol p = protocolOf(cal_protocol, "--protocol");
      const Model m = cal_robot.model();
      const std::vector<int> ids = parseIds(cal_ids, "--ids");
      std::vector<int> dirs;
      if (!cal_dirs.empty())
        for (double d : parseList(cal_dirs, "--directions")) dirs.push_back(static_cast<int>(d) == d ? static_cast<int>(d) : 0);
      parseBauds(std::to_string(cal_baud), "--baud");
      BusPort port(cal_port, cal_baud);
      br::ServoHost host(p, portOptions(cal_port_args));
      const br::ServoCalibration c = br::calibrateAtZero(host, *port.link, p, cal_baud, m, ids, dirs);
      reportNotes("bus calibrate", br::rangeNotes(c, m));
      const std::string text = br::servoCalibrationToJson(c);
      if (cal_out.empty())
        writeStdout(text);
      else
        writeFile(cal_out, [&](std::ostream& os) { os << text << "\n"; });
    });
  });

  // ---- bus monitor ----
  auto* mon = bus->add_subcommand(
      "monitor", "Print a bus arm's present state (joint angles, speeds, load, voltage, temperature) as JSON lines; writes nothing to the servos");
  static std::string mon_port, mon_cal;
  static double mon_duration = 1, mon_rate = 20;
  static PortArgs mon_port_args;
  addPortOptions(mon, mon_port_args);
  mon->add_option("--port", mon_port, "Serial device or PTY of the bus")->required();
  mon->add_option("--calibration", mon_cal, "Calibration file (`bus calibrate`)")->required();
  mon->add_option("--duration", mon_duration, "Seconds to monitor (0: until Ctrl-C)")->capture_default_str();
  mon->add_option("--rate", mon_rate, "Lines per second (at most 100)")->capture_default_str();
  mon->callback([] {
    run("bus monitor", [] {
      if (!(mon_duration >= 0) || mon_duration > 86400) throw Error("--duration: 0 .. 86400 s");
      if (!(mon_rate > 0) || mon_rate > 100) throw Error("--rate: more than 0 and at most 100 lines per second");
      const br::ServoCalibration c = br::servoCalibrationFromJson(calibrationText(mon_cal));
      BusPort port(mon_port, c.baud);
      br::ServoHost host(c.protocol, portOptions(mon_port_args));
      br::connectServos(host, *port.link, c);
      g_bus_stop = 0;
      std::signal(SIGINT, onBusSignal);
      std::signal(SIGTERM, onBusSignal);
      const uint64_t t0 = port.link->nowUs();
      const std::string why = host.startMonitoring(t0);
      if (!why.empty()) throw Error(why);
      double next = 0;
      const uint64_t before = host.periods();
      br::pumpServo(host, *port.link, [&] {
        if (!host.error().empty()) return true;
        const double t = static_cast<double>(port.link->nowUs() - t0) * 1e-6;
        if (mon_duration > 0 && t > mon_duration) return true;
        if (t >= next && host.periods() > before) {
          next += 1.0 / mon_rate;
          writeStdout(feedbackLine(host, t).dump());
          std::fflush(stdout);
        }
        return false;
      }, mon_duration > 0 ? mon_duration + 1 : 1e9, &g_bus_stop);
      if (!host.error().empty()) throw Error(host.error());
    });
  });
});

RegisterCommand bus_sim_cmd("bus-sim", [](CLI::App& app) {
  auto* sub = app.add_subcommand(
      "bus-sim",
      "Simulate a Dynamixel or Feetech servo bus behind a pseudo-terminal (position servos, control tables, wire timing); prints its path");
  static std::string protocol = "dynamixel", ids = "1-6", start, link, fault = "none";
  static uint32_t baud = 1000000;
  static int fault_id = 1;
  static double duration = 0;
  static int fault_after = 0;
  static bool echo = false;
  sub->add_option("--protocol", protocol, "dynamixel (XM430-W350 servos) or feetech (STS3215)")->capture_default_str();
  sub->add_option("--ids", ids, "The servos' IDs (a list and/or ranges)")->capture_default_str();
  sub->add_option("--baud", baud, "The servos' baud rate")->capture_default_str();
  sub->add_option("--start", start, "Each servo's start position in counts (default 2048, mid-turn)");
  sub->add_option("--link", link, "Also make a symlink with this name to the PTY");
  sub->add_option("--duration", duration, "Stop after this many seconds (default: run until SIGINT/SIGTERM)");
  sub->add_flag("--echo", echo, "Act as an adapter that echoes: every byte the host sends comes back to it (test `--echo` of the host)");
  sub->add_option("--fault", fault, "Testing: after --fault-after-writes sync writes, servo --fault-id gets: crc (its next 3 replies corrupt), "
                                    "silence (stops answering), overload (the overload error bit), or none")->capture_default_str();
  sub->add_option("--fault-id", fault_id, "Testing: the servo the fault hits")->capture_default_str();
  sub->add_option("--fault-after-writes", fault_after, "Testing: the fault comes once the bus has received this many sync writes (a stream sends one goal write per period)")
      ->capture_default_str();
  sub->callback([] {
    run("bus-sim", [] {
      const br::ServoProtocol p = protocolOf(protocol, "--protocol");
      const std::vector<int> id_list = parseIds(ids, "--ids");
      parseBauds(std::to_string(baud), "--baud");
      if (id_list.size() > static_cast<size_t>(br::VirtualServoBus::kMaxServos))
        throw Error("--ids: at most " + std::to_string(br::VirtualServoBus::kMaxServos) + " servos");
      std::vector<double> st(id_list.size(), 2048);
      if (!start.empty()) {
        st = parseList(start, "--start");
        if (st.size() != id_list.size()) throw Error("--start: give one position per servo (" + std::to_string(id_list.size()) + ")");
        for (double s : st)
          if (s < 0 || s > 4095 || s != std::floor(s)) throw Error("--start: whole counts within 0 .. 4095");
      }
      if (fault != "none" && fault != "crc" && fault != "silence" && fault != "overload")
        throw Error("--fault: crc, silence, overload or none (got '" + fault + "')");
      if (!(duration >= 0)) throw Error("--duration: must be 0 or more");
      if (fault_after < 0) throw Error("--fault-after-writes: must be 0 or more");
      auto bus = std::make_unique<br::VirtualServoBus>(p);
      bus->setEcho(echo);
      json servos = json::array();
      for (size_t i = 0; i < id_list.size(); ++i) {
        const br::SimServoParams s = simServo(p, id_list[i], baud, static_cast<int32_t>(st[i]));
        if (!bus->addServo(s)) throw Error("--ids: servo ID " + std::to_string(id_list[i]) + " cannot be added");
        servos.push_back({{"id", id_list[i]}, {"model", s.model}, {"model_name", br::servoModelName(p, s.model)}});
      }
      if (fault != "none" && bus->find(static_cast<uint8_t>(fault_id)) < 0)
        throw Error("--fault-id: no servo with ID " + std::to_string(fault_id) + " on this bus");
      g_bus_stop = 0;
      std::signal(SIGINT, onBusSignal);
      std::signal(SIGTERM, onBusSignal);
      std::signal(SIGPIPE, SIG_IGN);
      br::Pty pty = br::openPty();
      if (!link.empty()) {
        ::unlink(link.c_str());
        if (::symlink(pty.path.c_str(), link.c_str()) != 0) throw Error("--link " + link + ": cannot create the symlink");
      }
      print({{"port", pty.path}, {"protocol", protocolName(p)}, {"baud", baud}, {"servos", servos},
             {"pid", static_cast<int>(::getpid())}, {"link", link.empty() ? json(nullptr) : json(link)}});
      std::fflush(stdout);
      br::BusSimRunOptions o;
      o.duration = duration;
      o.stop = &g_bus_stop;
      bool fault_done = fault == "none";
      o.each = [&](br::VirtualServoBus& b, double) {
        if (fault_done || b.syncWrites() < static_cast<uint32_t>(fault_after)) return;
        fault_done = true;
        const auto id = static_cast<uint8_t>(fault_id);
        if (fault == "crc") b.injectCorruptReplies(id, 3);
        if (fault == "silence") b.injectSilence(id, -1);
        if (fault == "overload") b.injectHardwareError(id, p == br::ServoProtocol::Dynamixel ? uint8_t(br::kDxlOverload) : uint8_t(br::servo::feetech::kOverload));
      };
      br::runServoBusSim(pty.master, *bus, o);
      if (!link.empty()) ::unlink(link.c_str());
    });
  });
});

}  // namespace

void sendToBus(const BusSendArgs& a, const br::SampledTrajectory& tr, const Model& m) {
  const br::ServoProtocol p = protocolOf(a.bus, "--bus");
  if (a.calibration.empty()) throw Error("--bus: needs --calibration FILE (`achain bus calibrate` writes one)");
  br::ServoCalibration c = br::servoCalibrationFromJson(calibrationText(a.calibration));
  if (c.protocol != p)
    throw Error("--bus " + a.bus + ": the calibration file " + a.calibration + " is for a " + protocolName(c.protocol) + " bus");
  br::narrowToModel(c, m);
  if (tr.dof() != static_cast<int>(c.joints.size()))
    throw Error("TRAJECTORY has " + std::to_string(tr.dof()) + " joints, the calibration " + std::to_string(c.joints.size()));
  br::ServoHostOptions ho = portOptions(a.port_args);
  if (a.virt) ho.timeout_margin_us = br::ServoHostOptions().timeout_margin_us;  // the in-process bus: the host's own
  if (a.estop_action == "torque-off")
    ho.estop_action = br::EstopAction::TorqueOff;
  else if (a.estop_action == "hold")
    ho.estop_action = br::EstopAction::Hold;
  else
    throw Error("--estop-action: torque-off or hold (got '" + a.estop_action + "')");
  br::ServoHost host(p, ho);
  std::unique_ptr<BusPort> port;
  std::unique_ptr<br::VirtualServoBus> vbus;
  std::unique_ptr<br::VirtualServoLink> vlink;
  br::ServoLink* link = nullptr;
  if (a.virt) {  // the calibration's servos on an in-process bus, each standing at its joint's zero
    vbus = std::make_unique<br::VirtualServoBus>(p);
    vbus->setEcho(a.port_args.echo);
    for (const br::ServoJoint& j : c.joints) {
      if (!vbus->addServo(simServo(p, j.id, c.baud, j.zero_offset))) throw Error("--calibration: servo ID " + std::to_string(j.id) + " cannot be simulated");
    }
    vlink = std::make_unique<br::VirtualServoLink>(*vbus);
    link = vlink.get();
  } else {
    port = std::make_unique<BusPort>(a.port, c.baud);
    link = port->link.get();
  }
  br::connectServos(host, *link, c);
  g_bus_stop = 0;
  std::signal(SIGINT, onBusSignal);
  std::signal(SIGTERM, onBusSignal);
  br::ServoSendOptions o;
  o.settle = a.settle;
  o.timeout = a.timeout;
  o.torque_off_at_end = a.torque_off_at_end;
  o.stop = &g_bus_stop;
  ProgressLine line("achain send", !a.quiet);
  if (!a.quiet)
    o.progress = [&line](double t, double dur) {
      char b[80];
      std::snprintf(b, sizeof b, "t=%.2f/%.2fs", t, dur);
      line.report(dur > 0 ? t / dur : 1, b);
    };
  const br::ServoSendReport rep = br::sendToServos(host, *link, tr, o);
  line.finish();
  if (!rep.ok && rep.final_q.empty()) throw Error(rep.error);  // refused before anything moved
  const double deg = 180.0 / kPi;
  json fq = json::array(), err = json::array(), errdeg = json::array(), errc = json::array();
  int32_t worst = 0;
  for (size_t j = 0; j < rep.final_q.size(); ++j) fq.push_back(rep.final_q[j]);
  for (size_t j = 0; j < rep.final_error.size(); ++j) {
    err.push_back(rep.final_error[j]);
    errdeg.push_back(rep.final_error[j] * deg);
    errc.push_back(rep.final_error_counts[j]);
    worst = std::max(worst, std::abs(rep.final_error_counts[j]));
  }
  json out = {{"ok", rep.ok},
              {"bus", protocolName(p)},
              {"baud", c.baud},
              {"servos", c.joints.size()},
              {"period_us", ho.period_us},
              {"duration", tr.t.back() - tr.t.front()},
              {"approach", rep.approach},
              {"elapsed", rep.elapsed},
              {"periods", rep.periods},
              {"overruns", rep.overruns},
              {"final_q", fq},
              {"final_error", err},
              {"final_error_deg", errdeg},
              {"final_error_counts", errc},
              {"max_final_error_counts", worst},
              {"last_period", {{"bytes_out", rep.last_period.bytes_out}, {"bytes_in", rep.last_period.bytes_in},
                               {"wire_us", rep.last_period.ended_us - rep.last_period.started_us}}}};
  if (!rep.ok) out["error"] = rep.error;
  print(out);
  if (!rep.ok) {
    std::fprintf(stderr, "achain send: %s\n", rep.error.c_str());
    std::exit(2);
  }
}

}  // namespace achain::cli
