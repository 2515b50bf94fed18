// Subcommands of the firmware bridge: send (stream a trajectory to a controller) and
// controller-sim (the reference firmware on the simulated prototype, behind a pseudo-terminal).
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "bus.hpp"
#include "common.hpp"
#include "progress.hpp"
#include "host/joint_config.hpp"
#include "host/posix_io.hpp"
#include "host/sender.hpp"
#include "host/segments.hpp"
#include <achain/io/robot.hpp>
#include <achain/io/trajectory_json.hpp>

namespace achain::cli {
namespace {

namespace br = achain::bridge;

volatile std::sig_atomic_t g_stop = 0;
void onSignal(int) { g_stop = 1; }
volatile std::sig_atomic_t g_stall = 0, g_glitch = 0;
void onStall(int) { g_stall = 1; }
void onGlitch(int) { g_glitch = 1; }

json readJsonFile(const std::string& path, const char* what) {
  std::ifstream f(path);
  if (!f) throw Error(std::string(what) + " " + path + ": cannot open file");
  std::stringstream ss;
  ss << f.rdbuf();
  try {
    return json::parse(ss.str());
  } catch (const std::exception& e) {
    throw Error(std::string(what) + " " + path + ": not valid JSON (" + e.what() + ")");
  }
}

/// Joint configuration: the model's (jointConfigsFromModel: limits, gear ratio, encoder counts; the
/// prototype profile for the rest), then per-joint overrides from --config.
std::vector<br::JointConfig> jointConfigs(const Model& m, const json& overrides) {
  std::vector<br::JointConfig> out = br::jointConfigsFromModel(m);
  for (int j = 0; j < m.nq; ++j) {
    br::JointConfig& c = out[static_cast<size_t>(j)];
    if (overrides.contains("joints")) {
      const json& a = overrides["joints"];
      if (!a.is_array() || a.size() != static_cast<size_t>(m.nq))
        throw Error("--config joints: must list " + std::to_string(m.nq) + " joints");
      const json& o = a[j];
      const std::string p = "--config joints[" + std::to_string(j) + "].";
      auto num = [&](const char* k, auto& field) {
        if (!o.contains(k)) return;
        if (!o[k].is_number()) throw Error(p + k + ": must be a number");
        field = static_cast<std::decay_t<decltype(field)>>(o[k].get<double>());
      };
      num("gear_ratio", c.gear_ratio);
      num("counts_per_rev", c.counts_per_rev);
      num("zero_offset", c.zero_offset);
      num("torque_max", c.torque_max);
      num("kp", c.kp);
      num("ki", c.ki);
      num("kd", c.kd);
      num("inertia_ff", c.inertia_ff);
      num("viscous_ff", c.viscous_ff);
    }
  }
  return out;
}

RegisterCommand send_cmd("send", [](CLI::App& app) {
  auto* sub = app.add_subcommand(
      "send", "Stream a sampled trajectory (achain-trajectory JSON) to a motor controller over a serial port or PTY");
  static RobotArgs send_robot;
  send_robot.robot = "prototype-4a";
  static std::string file, port, demo, config;
  static int baud = 115200, watchdog_ms = 200, silence_periods = 5;
  static double segment_ms = 10, timeout = 60, settle = 0.5, drop = 0, corrupt = 0, abandon = -1;
  static unsigned seed = 1;
  static bool virt = false, clear = false, approach = false, quiet = false;
  static BusSendArgs bus;
  sub->add_option("TRAJECTORY", file, "Trajectory JSON {schema: achain-trajectory, version: 1, t, q, qd[, qdd]}");
  sub->add_option("--port", port, "Serial device or PTY of the controller (see `achain controller-sim`)");
  sub->add_option("--baud", baud, "Baud rate (ignored by PTYs)")->capture_default_str();
  sub->add_flag("--virtual", virt, "Use an in-process simulated controller (virtual time) instead of a port");
  sub->add_option("--demo", demo, "Instead of a file: 'thesis-trapezoid' (Robinson 2012 Sec. 3.8.7, all four joints)");
  send_robot.add(sub, JointInputs::None, "Robot whose joint limits configure the controller", false);
  sub->add_option("--config", config, "Controller configuration JSON: {watchdog_ms, joints:[{gear_ratio, counts_per_rev, zero_offset, kp, ki, kd, inertia_ff, viscous_ff, torque_max}]}");
  sub->add_option("--segment-ms", segment_ms, "Minimum segment duration, ms (samples in between are skipped)")->capture_default_str();
  sub->add_option("--watchdog-ms", watchdog_ms, "Controller watchdog: no traffic for this long while moving → controlled stop (" +
                  std::to_string(br::kWatchdogMsMin) + " to " + std::to_string(br::kWatchdogMsMax) + " ms)")->capture_default_str();
  sub->add_option("--silence-periods", silence_periods, "No status from the controller for this many status periods → it is declared silent and the send fails")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  sub->add_flag("--clear-faults", clear, "Clear latched faults (and a released e-stop) before sending");
  sub->add_flag("--approach", approach, "First move from wherever the arm stands to the trajectory's start (a trapezoid planned within the limits, ending at rest), then run the trajectory");
  sub->add_option("--timeout", timeout, "Give up after this many seconds")->capture_default_str();
  sub->add_option("--settle", settle, "Wait this long after the last segment before measuring the final error, s")->capture_default_str();
  sub->add_flag("--quiet", quiet, "No progress bar on stderr");
  sub->add_option("--bus", bus.bus, "Stream to a servo-bus arm instead of our controller: dynamixel or feetech (docs/servo-buses.md)");
  sub->add_option("--calibration", bus.calibration, "With --bus: the calibration file (`achain bus calibrate`)");
  sub->add_option("--estop-action", bus.estop_action, "With --bus: on Ctrl-C or a bus error, torque-off (the arm goes limp) or hold (each servo holds where it is)")
      ->capture_default_str();
  sub->add_option("--reply-timeout-ms", bus.port_args.reply_timeout_ms, "With --bus: wait this long past a reply's expected end before a servo is called silent")
      ->check(CLI::Range(1.0, 1000.0))
      ->capture_default_str();
  sub->add_flag("--echo", bus.port_args.echo, "With --bus: the adapter echoes every byte sent (TX and RX tied): read our own bytes back and discard them");
  sub->add_flag("--torque-off-at-end", bus.torque_off_at_end, "With --bus: turn torque off after the trajectory (default: hold the last pose)");
  sub->add_option("--inject-drop", drop, "Testing: drop this fraction of outgoing frames");
  sub->add_option("--inject-corrupt", corrupt, "Testing: corrupt one byte in this fraction of outgoing frames");
  sub->add_option("--seed", seed, "Testing: seed of the injected faults");
  sub->add_option("--abandon-after", abandon, "Testing: go silent this many seconds into the stream (host death)");
  sub->callback([sub] {
    int exit_code = 0;
    run("send", [&] {
      if (virt == !port.empty()) throw Error("give exactly one of --port PATH or --virtual");
      br::SampledTrajectory tr;
      if (!demo.empty()) {
        if (demo != "thesis-trapezoid") throw Error("--demo: unknown '" + demo + "' (known: thesis-trapezoid)");
        tr = br::thesisTrapezoid(0.001);
      } else {
        if (file.empty()) throw Error("TRAJECTORY: give a trajectory JSON file (or --demo thesis-trapezoid)");
        try {
          tr = br::trajectoryFromJson(readJsonFile(file, "TRAJECTORY"));
        } catch (const Error& e) {
          throw Error(file + ": " + e.what());
        }
      }
      const Model m = send_robot.model();
      if (tr.dof() != m.nq)
        throw Error("TRAJECTORY has " + std::to_string(tr.dof()) + " joints, robot " + m.name + " has " + std::to_string(m.nq));
      if (!bus.bus.empty()) {  // a servo-bus arm: the controller's options do not apply
        for (const char* o : {"--config", "--clear-faults", "--approach", "--abandon-after", "--inject-drop", "--inject-corrupt"})
          if (sub->count(o)) throw Error(std::string(o) + ": not with --bus (it configures our controller)");
        bus.port = port;
        bus.virt = virt;
        bus.settle = settle;
        bus.timeout = timeout;
        bus.quiet = quiet;
        sendToBus(bus, tr, m);
        return;
      }
      if (!bus.calibration.empty()) throw Error("--calibration: only with --bus dynamixel|feetech");
      if (!(segment_ms >= 1)) throw Error("--segment-ms: must be at least 1");
      const json overrides = config.empty() ? json::object() : readJsonFile(config, "--config");
      br::SendOptions opt;
      opt.joints = jointConfigs(m, overrides);
      if (overrides.contains("watchdog_ms") && !overrides["watchdog_ms"].is_number())
        throw Error("--config: watchdog_ms: must be a number of ms");
      opt.global.watchdog_ms = overrides.contains("watchdog_ms") ? br::watchdogMs(overrides["watchdog_ms"].get<double>(), "--config: watchdog_ms")
                                                                 : br::watchdogMs(watchdog_ms, "--watchdog-ms");
      opt.host.silence_periods = silence_periods;
      std::vector<br::JointLimitsF> lim;
      for (const auto& c : opt.joints) lim.push_back({c.q_min, c.q_max, c.v_max, c.a_max});
      std::vector<bool> angular;  // refusals in degrees for the model's angular joints, metres for linear ones
      for (int c = 0; c < m.nq; ++c) angular.push_back(m.jmodels[m.coord_joint[c]].angular());
      br::checkSamples(tr, lim, opt.global.accel_margin, &angular);  // the whole file, before anything is streamed
      opt.segments = br::buildSegments(tr, segment_ms * 1e-3, 1, false, &lim, opt.global.accel_margin);
      opt.approach = approach;
      opt.segment_dt = segment_ms * 1e-3;
      opt.angular = angular;
      br::checkSegments(opt.segments, lim, opt.global.accel_margin, &angular);  // the host never sends what the controller refuses
      opt.clear_faults = clear;
      opt.timeout = timeout;
      opt.settle = settle;
      opt.inject_drop = drop;
      opt.inject_corrupt = corrupt;
      opt.inject_seed = seed;
      opt.abandon_after = abandon;
      ProgressLine line("achain send", !quiet);
      if (!quiet)
        opt.progress = [&line](const br::SendProgress& p) {
          char b[200];
          std::snprintf(b, sizeof b, "segment %u/%zu  sent %zu  buffer %d/%d  %s  t=%.2fs", p.segments_done, p.segments_total,
                        p.segments_acked, p.queue_fill, p.queue_capacity, br::stateName(p.state), p.traj_time);
          line.report(p.segments_total ? double(p.segments_done) / p.segments_total : 0, b);
        };
      br::SendReport rep;
      std::unique_ptr<br::VirtualController> vc;
      if (virt) {
        br::SimProfile prof = br::simProfileFromModel(m);
        for (int j = 0; j < prof.joints; ++j) {
          prof.plant[j].gear_ratio = opt.joints[static_cast<size_t>(j)].gear_ratio;  // --config may change the drive
          prof.plant[j].counts_per_rev = opt.joints[static_cast<size_t>(j)].counts_per_rev;
          prof.q_start[j] = tr.q[0][j];
        }
        vc = std::make_unique<br::VirtualController>(prof);
        br::VirtualLink link(*vc);
        rep = br::sendTrajectory(link, opt);
      } else {
        std::signal(SIGPIPE, SIG_IGN);
        const int fd = br::openSerial(port, baud);
        br::FdLink link(fd);
        rep = br::sendTrajectory(link, opt);
        ::close(fd);
      }
      line.finish();
      if (!rep.ok && !rep.controller_fault) throw Error(rep.error);
      const double deg = 180.0 / kPi;
      json err = json::array(), fq = json::array(), errdeg = json::array();
      for (size_t j = 0; j < rep.final_error.size(); ++j) {
        err.push_back(rep.final_error[j]);
        errdeg.push_back(rep.final_error[j] * deg);
        fq.push_back(rep.final_q[j]);
      }
      json faults = json::array();
      for (int b = 0; b < br::kFaultCount; ++b)
        if (rep.final_status.faults & (1u << b)) faults.push_back(br::faultName(static_cast<uint16_t>(1u << b)));
      json events = json::array();
      for (const auto& e : rep.events)
        events.push_back({{"fault", br::faultName(e.fault)}, {"joint", e.joint == 0xFF ? json(nullptr) : json(e.joint + 1)},
                          {"segment", e.segment_id}});
      const auto& k = rep.counters;
      json out = {{"ok", rep.ok},
                  {"controller", rep.controller_name},
                  {"servo_hz", rep.servo_hz},
                  {"queue_capacity", rep.queue_capacity},
                  {"segments", opt.segments.size()},
                  {"duration", tr.t.back() - tr.t.front()},
                  {"elapsed", rep.elapsed},
                  {"state", br::stateName(rep.final_status.state)},
                  {"estop", rep.final_status.estop != 0},
                  {"faults", faults},
                  {"events", events},
                  {"final_q", fq},
                  {"final_error", err},
                  {"final_error_deg", errdeg},
                  {"max_final_error_deg", rep.max_abs_error * deg},
                  {"max_host_pause_ms", rep.max_host_pause_ms},
                  {"link", {{"frames_sent", k.frames_sent}, {"frames_resent", k.frames_resent}, {"acks", k.acks},
                            {"naks", k.naks}, {"rx_crc_errors", k.rx_crc_errors}, {"statuses", k.statuses},
                            {"segments_acked", k.segments_acked}}}};
      if (!rep.ok) out["error"] = rep.error;
      print(out);
      if (rep.controller_fault) {
        std::fprintf(stderr, "achain send: %s\n", rep.error.c_str());
        exit_code = 2;
      }
    });
    if (exit_code) std::exit(exit_code);
  });
});

RegisterCommand controller_sim_cmd("controller-sim", [](CLI::App& app) {
  auto* sub = app.add_subcommand(
      "controller-sim",
      "Run the reference firmware on a simulated robot (default: the prototype, 4 joints, 1 kHz) behind a pseudo-terminal; prints its path");
  static RobotArgs sim_robot;
  sim_robot.robot = "prototype-4a";
  static std::string port, link, log, start, drive_k, drive_c;
  static double duration = 0, log_period = 0.005;
  static bool deg = false;
  sub->add_option("--port", port, "Use this existing tty (e.g. one end of a socat pty pair) instead of creating a PTY");
  sub->add_option("--link", link, "Also make a symlink with this name to the PTY");
  sim_robot.add(sub, JointInputs::None, "Robot whose limits and drives (gear ratio, encoder counts) the simulated controller has", false);
  sub->add_option("--start", start, "Initial joint positions (comma list; default: 60 deg on every joint, or mid-range where 60 deg is outside the limits)");
  sub->add_flag("--deg", deg, "--start is in degrees");
  sub->add_option("--duration", duration, "Stop after this many seconds (default: run until SIGINT/SIGTERM)");
  sub->add_option("--log", log, "Stream the executed motion, events (e-stop, faults, plant faults, this simulator running 20 ms or more late) and, on exit, the counters to this JSON Lines file (flushed every 50 ms). Signals: SIGUSR1 stalls a joint for 0.4 s, SIGUSR2 glitches an encoder (testing)");
  sub->add_option("--log-period", log_period, "Seconds between logged samples")->capture_default_str();
  sub->add_option("--drive-stiffness", drive_k,
                  "Flexible drives (docs/flexible.md): spring between motor and link, N*m/rad at the joint, one value or one per "
                  "joint (the prototype's derived drive: 5354); the encoder reads the motor, the log the link");
  sub->add_option("--drive-damping", drive_c, "With --drive-stiffness: the damper beside it, N*m*s/rad (default 0)");
  sub->callback([] {
    run("controller-sim", [] {
      const Model m = sim_robot.model();
      br::SimProfile prof = br::simProfileFromModel(m);
      if (!drive_c.empty() && drive_k.empty()) throw Error("--drive-damping: only with --drive-stiffness");
      if (!drive_k.empty()) {
        const VecX k = perCoordinate(m, drive_k, "--drive-stiffness");
        const VecX c = drive_c.empty() ? VecX::Zero(m.nv) : perCoordinate(m, drive_c, "--drive-damping");
        for (int j = 0; j < prof.joints && j < m.nv; ++j) {
          if (!(k[j] > 0)) throw Error("--drive-stiffness: must be positive (got " + std::to_string(k[j]) + " for joint " + std::to_string(j) + ")");
          if (!(c[j] >= 0)) throw Error("--drive-damping: must be zero or positive (got " + std::to_string(c[j]) + " for joint " + std::to_string(j) + ")");
          prof.plant[j].drive_stiffness = k[j];
          prof.plant[j].drive_damping = c[j];
        }
      }
      if (!start.empty()) {
        const auto v = parseList(start, "--start");
        if (static_cast<int>(v.size()) != prof.joints) throw Error("--start: give " + std::to_string(prof.joints) + " values");
        for (int j = 0; j < prof.joints; ++j) prof.q_start[j] = deg ? v[j] * kDeg : v[j];
      }
      br::VirtualController vc(prof);
      std::signal(SIGINT, onSignal);
      std::signal(SIGTERM, onSignal);
      std::signal(SIGUSR1, onStall);
      std::signal(SIGUSR2, onGlitch);
      std::signal(SIGPIPE, SIG_IGN);
      int fd;
      br::Pty pty;
      std::string path;
      if (!port.empty()) {
        fd = br::openSerial(port, 115200);
        path = port;
      } else {
        pty = br::openPty();
        fd = pty.master;
        path = pty.path;
      }
      if (!link.empty()) {
        ::unlink(link.c_str());
        if (::symlink(path.c_str(), link.c_str()) != 0) throw Error("--link " + link + ": cannot create the symlink");
      }
      print({{"port", path}, {"joints", prof.joints}, {"servo_hz", 1000}, {"pid", static_cast<int>(::getpid())},
             {"link", link.empty() ? json(nullptr) : json(link)}});
      std::fflush(stdout);
      br::SimRunOptions o;
      o.duration = duration;
      o.stop = &g_stop;
      o.stall_request = &g_stall;
      o.glitch_request = &g_glitch;
      o.log_path = log;
      if (!(log_period > 0)) throw Error("--log-period: must be positive");
      o.log_period = log_period;
      br::runSimulator(fd, vc, o);
      if (!link.empty()) ::unlink(link.c_str());
    });
  });
});

}  // namespace
}  // namespace achain::cli
