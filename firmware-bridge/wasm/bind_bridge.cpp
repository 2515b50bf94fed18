// Embind bindings of the firmware bridge, linked into the one achain wasm module (wasm/dist/) and
// wrapped by the host library firmware-bridge/js/bridge.mjs:
//   HostEngine          the host streaming engine (HostSession) plus the C++ segment builder and limit check
//   VirtualController   the unchanged firmware on a simulated robot (simProfileFromModel)
//   codec functions     CRC, COBS, frames, the firmware's limit check, fault and state names
//   servo-bus codecs    Dynamixel Protocol 2.0 and Feetech SCS/STS packet builders (dynamixelPing …,
//                       feetechSyncWrite …) and the streaming status decoders DynamixelStatusDecoder and
//                       FeetechStatusDecoder (servo/dynamixel.hpp, servo/feetech.hpp)
//   jointConfigsFromModel, defaultGlobalConfig, thesisTrapezoid, validateTrajectory
// Structs cross the boundary by name: JointConfig and GlobalConfig are value_objects with camelCase
// fields, and the engine's status, caps, counters and events are named JS objects. Positions are SI
// (rad, m) on the JS side and fixed point on the wire.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <achain/io/robot.hpp>
#include <achain/io/model_json.hpp>

#include "../../wasm/wasm_common.hpp"
#include "host/host_session.hpp"
#include "host/joint_config.hpp"
#include "host/segments.hpp"
#include "host/send_job.hpp"
#include "servo/dynamixel.hpp"
#include "servo/feetech.hpp"
#include "sim/virtual_controller.hpp"

using emscripten::val;
using namespace achain::bridge;
using achain::Error;
using achain::wasm::guard;
using achain::wasm::WasmModel;

namespace {

constexpr const char* kViolationNames[] = {"none", "position", "velocity", "acceleration", "duration"};

uint64_t micros(double ms) {
  if (!std::isfinite(ms)) throw Error("time: must be a finite number of milliseconds");
  return ms <= 0 ? 0 : static_cast<uint64_t>(std::llround(ms * 1000.0));
}

/// A JS Uint8Array / array of bytes as a vector (one bulk copy).
std::vector<uint8_t> bytesOf(const val& a, const char* what) {
  if (a.isNull() || a.isUndefined()) throw Error(std::string(what) + ": missing bytes");
  return emscripten::convertJSArrayToNumberVector<uint8_t>(a);
}

/// A copy of n bytes as a new Uint8Array.
val uint8Array(const uint8_t* p, size_t n) {
  return val::global("Uint8Array").new_(val(emscripten::typed_memory_view(n, p)));
}

val numbers(const double* p, int n) {
  val a = val::array();
  for (int i = 0; i < n; ++i) a.call<void>("push", p[i]);
  return a;
}

double option(const val& o, const char* key, double dflt) {
  if (o.isNull() || o.isUndefined()) return dflt;
  const val v = o[key];
  if (v.isUndefined() || v.isNull()) return dflt;
  if (v.typeOf().as<std::string>() == "boolean") return v.as<bool>() ? 1 : 0;
  if (!v.isNumber()) throw Error(std::string("options.") + key + ": must be a number");
  const double x = v.as<double>();
  if (!std::isfinite(x)) throw Error(std::string("options.") + key + ": must be a finite number");
  return x;
}

val faultNames(uint16_t bits) {
  val a = val::array();
  for (int b = 0; b < kFaultCount; ++b)
    if (bits & (1u << b)) a.call<void>("push", std::string(faultName(static_cast<uint16_t>(1u << b))));
  return a;
}

SampledTrajectory parseTrajectory(const std::string& text) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const std::exception& e) {
    throw Error(std::string("trajectory: not valid JSON (") + e.what() + ")");
  }
  return trajectoryFromJson(j);
}

/// The host streaming engine for JS: HostSession with the joint limits it was configured with, so the
/// segments it builds are checked against the same limits the controller enforces.
class HostEngine {
 public:
  HostEngine() = default;
  /// Options: {silencePeriods}: no STATUS for this many status periods → the controller is declared silent
  /// (HostOptions::silence_periods, default 5).
  explicit HostEngine(const val& options) : s_(guard([&] { return hostOptions(options); })) {}
  void receive(const val& b, double now_ms) {
    guard([&] {
      const std::vector<uint8_t> v = bytesOf(b, "receive");
      s_.receive(v.data(), v.size(), micros(now_ms));
    });
  }
  void update(double now_ms) { guard([&] { s_.update(micros(now_ms)); }); }
  val takeOutput() {
    buf_.resize(s_.pendingOutput());
    const size_t n = s_.takeOutput(buf_.data(), buf_.size());
    return uint8Array(buf_.data(), n);
  }
  void connect(double now_ms) { guard([&] { s_.connect(micros(now_ms)); }); }
  bool connected() const { return s_.connected(); }
  bool linkLost(double now_ms) const { return guard([&] { return s_.linkLost(micros(now_ms)); }); }
  /// Takes the plain object (not the value_object) so that each number is range-checked before it is narrowed:
  /// Embind would wrap watchdogMs 100000 to 16 bits (34,464 ms) without a word.
  void configureGlobal(const val& v) {
    guard([&] {
      GlobalConfig g;
      // each field named as the caller wrote it (global.x), its default when left out
      auto number = [&](const char* key, double dflt) {
        const val x = v[key];
        if (x.isUndefined() || x.isNull()) return dflt;
        if (!x.isNumber()) throw Error(std::string("global.") + key + ": must be a number");
        return x.as<double>();
      };
      auto finite = [&](const char* key, double dflt) {
        const double x = number(key, dflt);
        if (!std::isfinite(x)) throw Error(std::string("global.") + key + ": must be a finite number");
        return static_cast<float>(x);
      };
      g.watchdog_ms = watchdogMs(number("watchdogMs", g.watchdog_ms), "global.watchdogMs");
      const double period = number("statusPeriodMs", g.status_period_ms);
      if (!(period >= 1 && period <= 1000) || period != std::floor(period))
        throw Error("global.statusPeriodMs: must be a whole number of ms from 1 to 1000");
      g.status_period_ms = static_cast<uint16_t>(period);
      g.accel_margin = finite("accelMargin", g.accel_margin);
      g.following_error_max = finite("followingErrorMax", g.following_error_max);
      g.start_tolerance = finite("startTolerance", g.start_tolerance);
      global_ = g;
      s_.configureGlobal(g);
    });
  }
  void configureJoint(const JointConfig& c) {
    guard([&] {
      if (c.joint >= kMaxJoints) throw Error("configureJoint: joint " + std::to_string(c.joint) + " is beyond the protocol's " + std::to_string(kMaxJoints));
      if (limits_.size() <= c.joint) limits_.resize(c.joint + 1u, JointLimitsF{-1e9, 1e9, 1e9, 1e9});
      limits_[c.joint] = {c.q_min, c.q_max, c.v_max, c.a_max};
      s_.configureJoint(c);
    });
  }
  /// Builds the segments of an achain-trajectory (JSON text) in C++ and queues them. Options:
  /// segmentDt (s, 0.01), blendFirst (false), firstId (1), checkLimits (true: the configured joint
  /// limits, refusing a plan the controller would refuse). Returns {segments, firstId, lastId,
  /// duration, planned (final position per joint, as sent)}.
  val queueTrajectory(const std::string& text, const val& options) {
    return guard([&] {
      double duration = 0;
      const std::vector<Segment> segs = buildChecked(text, options, duration);
      s_.queueSegments(segs);
      return planOf(segs, duration);
    });
  }
  /// Begins one send as the CLI runs it (SendJob, send_job.hpp): the same segments as queueTrajectory,
  /// checked against the controller's status (emergency stop, latched faults, the start against the
  /// commanded position unless blendFirst) before anything is queued; START after a prefill. Extra
  /// option: settleMs (500). Throws naming the refusal. Drive it with sendStep(now) after each pump.
  /// A send begun while another runs replaces it (blendFirst blends into the running plan); the plan's
  /// sendId tells a caller whether sendStep still reports its own send.
  val beginSend(const std::string& text, const val& options, double now_ms) {
    return guard([&] {
      double duration = 0;
      std::vector<Segment> segs = buildChecked(text, options, duration);
      const double settle = option(options, "settleMs", 500) / 1000.0;
      if (option(options, "approach", 0) != 0) {
        // the move to the start from where the controller holds the arm (withApproach, as `achain send --approach`)
        if (option(options, "blendFirst", 0) != 0) throw Error("options: give approach or blendFirst, not both");
        if (!s_.haveStatus()) throw Error("approach: no status from the controller yet: connect and configure first");
        if (std::string why = controllerRefusal(s_.status()); !why.empty()) throw Error(why);
        if (limits_.size() < static_cast<size_t>(segs.front().joints)) throw Error("approach: configure every joint first");
        double from[kMaxJoints];
        for (int j = 0; j < segs.front().joints; ++j) from[j] = s_.status().q_cmd[j] / kPosScale;
        segs = withApproach(segs, from, limits_, option(options, "segmentDt", 0.01), global_.accel_margin,
                            0.5 * global_.start_tolerance);
        checkSegments(segs, limits_, global_.accel_margin, angularOf(options).empty() ? nullptr : &angular_);
      }
      val plan = planOf(segs, duration);
      plan.set("sendId", ++send_id_);
      job_ = std::make_unique<SendJob>(s_, std::move(segs), global_.start_tolerance, settle, micros(now_ms));
      if (job_->phase() == SendPhase::Failed) {
        const std::string why = job_->report().error;
        job_.reset();
        throw Error(why);
      }
      return plan;
    });
  }
  /// Advances the send begun by beginSend: {phase ('streaming'|'stopping'|'settling'|'done'|'failed'),
  /// progress {segmentsTotal, segmentsAcked, segmentsDone, queueFill, queueCapacity, state, trajTime},
  /// sendId (of the latest beginSend), and when finished: ok, controllerFault, error, finalError,
  /// maxAbsError, planned (rad), maxHostPauseMs (this host's longest pause between two steps)}. A finished send keeps reporting its outcome until the next beginSend.
  val sendStep(double now_ms) {
    return guard([&] {
      if (!job_) throw Error("sendStep: no send in progress (call beginSend first)");
      const uint64_t now = micros(now_ms);
      const SendPhase ph = job_->step(now);
      const SendProgress p = job_->progress(now);
      val o = val::object();
      o.set("phase", std::string(sendPhaseName(ph)));
      o.set("sendId", send_id_);
      val pr = val::object();
      pr.set("segmentsTotal", static_cast<double>(p.segments_total));
      pr.set("segmentsAcked", static_cast<double>(p.segments_acked));
      pr.set("segmentsDone", static_cast<double>(p.segments_done));
      pr.set("queueFill", p.queue_fill);
      pr.set("queueCapacity", p.queue_capacity);
      pr.set("state", std::string(stateName(p.state)));
      pr.set("trajTime", p.traj_time);
      o.set("progress", pr);
      if (job_->finished()) {
        const SendReport& r = job_->report();
        o.set("ok", r.ok);
        o.set("controllerFault", r.controller_fault);
        o.set("error", r.error);
        o.set("finalError", numbers(r.final_error.data(), static_cast<int>(r.final_error.size())));
        o.set("planned", numbers(r.planned_end.data(), static_cast<int>(r.planned_end.size())));
        o.set("maxAbsError", r.max_abs_error);
        o.set("maxHostPauseMs", r.max_host_pause_ms);
      }
      return o;
    });
  }
  void start() { s_.start(); }
  void pause() { s_.pause(); }
  void resume() { s_.resume(); }
  void clearFaults() { s_.clearFaults(); }
  bool clearFaultsPending() const { return s_.clearFaultsPending(); }
  std::string clearFaultsWhy() const { return s_.clearFaultsWhy(); }
  void stop(double now_ms) { guard([&] { s_.stop(micros(now_ms)); }); }
  void estop(double now_ms) { guard([&] { s_.estop(micros(now_ms)); }); }
  void streamTarget(const val& q, double duration) {
    guard([&] {
      const int n = q["length"].isNumber() ? q["length"].as<int>() : -1;
      if (n < 1 || n > kMaxJoints) throw Error("streamTarget: q must hold 1 to " + std::to_string(kMaxJoints) + " numbers");
      double v[kMaxJoints];
      achain::wasm::readVector(q, v, n, "streamTarget q");
      if (!(duration > 0)) throw Error("streamTarget: the look-ahead must be positive");
      s_.streamTarget(v, n, duration);
    });
  }
  void inject(double drop, double corrupt, int seed) { s_.injectFaults(drop, corrupt, static_cast<uint32_t>(seed)); }
  double backlog() const { return static_cast<double>(s_.backlog()); }
  double segmentsPending() const { return static_cast<double>(s_.segmentsPending()); }
  int credits() const { return s_.credits(); }
  std::string error() const { return s_.error(); }
  /// '' while the session holds; 'reset' or 'silent' once the controller's side ended it (error says how).
  std::string sessionLost() const {
    return s_.lost() == SessionLoss::Reset ? "reset" : s_.lost() == SessionLoss::Silent ? "silent" : "";
  }
  val caps() const {
    const Caps& c = s_.caps();
    val o = val::object();
    o.set("version", c.version);
    o.set("schema", c.schema);
    o.set("joints", c.joints);
    o.set("servoHz", c.servo_hz);
    o.set("queueCapacity", c.queue_capacity);
    o.set("maxBody", c.max_body);
    o.set("statusHz", c.status_hz);
    o.set("name", std::string(c.name, strnlen(c.name, sizeof c.name)));
    return o;
  }
  /// The latest controller status in SI, or null before the first one.
  val status() const {
    if (!s_.haveStatus()) return val::null();
    const Status& s = s_.status();
    val o = val::object();
    o.set("time", s.time_us * 1e-6);
    o.set("state", std::string(stateName(s.state)));
    o.set("estop", s.estop != 0);
    o.set("faults", s.faults);
    o.set("faultNames", faultNames(s.faults));
    o.set("faultJoint", s.fault_joint == 0xFF ? val::null() : val(s.fault_joint));
    o.set("queueFill", s.queue_fill);
    o.set("credits", s.credits);
    o.set("segmentId", static_cast<double>(s.segment_id));
    o.set("segmentsDone", static_cast<double>(s.segments_done));
    o.set("trajTime", s.traj_time_us * 1e-6);
    double q[kMaxJoints], v[kMaxJoints], qc[kMaxJoints];
    const int nj = s.joints > kMaxJoints ? kMaxJoints : s.joints;
    for (int j = 0; j < nj; ++j) {
      q[j] = s.q[j] / kPosScale;
      v[j] = s.v[j] / kVelScale;
      qc[j] = s.q_cmd[j] / kPosScale;
    }
    o.set("q", numbers(q, nj));
    o.set("v", numbers(v, nj));
    o.set("qCmd", numbers(qc, nj));
    return o;
  }
  val counters() const {
    const HostCounters& c = s_.counters();
    val o = val::object();
    o.set("framesSent", static_cast<double>(c.frames_sent));
    o.set("framesResent", static_cast<double>(c.frames_resent));
    o.set("acks", static_cast<double>(c.acks));
    o.set("naks", static_cast<double>(c.naks));
    o.set("rxCrcErrors", static_cast<double>(c.rx_crc_errors));
    o.set("rxMalformed", static_cast<double>(c.rx_malformed));
    o.set("statuses", static_cast<double>(c.statuses));
    o.set("events", static_cast<double>(c.events));
    o.set("segmentsSent", static_cast<double>(c.segments_sent));
    o.set("segmentsAcked", static_cast<double>(c.segments_acked));
    return o;
  }
  val events() const {
    val a = val::array();
    for (const Event& e : s_.events()) {
      val o = val::object();
      o.set("fault", std::string(faultName(e.fault)));
      o.set("joint", e.joint == 0xFF ? val::null() : val(e.joint));
      o.set("segmentId", static_cast<double>(e.segment_id));
      o.set("value", e.value);
      a.call<void>("push", o);
    }
    return a;
  }

 private:
  /// The segments of a trajectory (JSON text) under the options of queueTrajectory, limit-checked.
  std::vector<Segment> buildChecked(const std::string& text, const val& options, double& duration) {
    const SampledTrajectory tr = parseTrajectory(text);
    const double dt = option(options, "segmentDt", 0.01);
    if (!(dt >= 1e-3)) throw Error("options.segmentDt: must be at least 0.001 s");
    const double first = option(options, "firstId", 1);
    if (!(first >= 1 && first < 4e9)) throw Error("options.firstId: must be a positive integer");
    const bool blend = option(options, "blendFirst", 0) != 0;
    const bool check = option(options, "checkLimits", 1) != 0;
    if (check && static_cast<int>(limits_.size()) < tr.dof())
      throw Error("trajectory has " + std::to_string(tr.dof()) + " joints, the controller was configured with " +
                  std::to_string(limits_.size()) + ": configure every joint first (or pass checkLimits: false)");
    if (check) {  // every sample of the file, before anything is built or queued
      const std::vector<bool>& angular = angularOf(options);
      std::vector<JointLimitsF> lim(limits_.begin(), limits_.begin() + tr.dof());
      checkSamples(tr, lim, global_.accel_margin, angular.empty() ? nullptr : &angular);
    }
    std::vector<Segment> segs =
        buildSegments(tr, dt, static_cast<uint32_t>(first), blend, check ? &limits_ : nullptr, global_.accel_margin);
    if (check) checkSegments(segs, limits_, global_.accel_margin, angular_.empty() ? nullptr : &angular_);
    duration = tr.t.back() - tr.t.front();
    return segs;
  }
  /// options.angular: one boolean per joint, so a refusal speaks the caller's units (degrees / metres).
  const std::vector<bool>& angularOf(const val& options) {
    angular_.clear();
    const val a = options.isUndefined() || options.isNull() ? val::undefined() : options["angular"];
    if (!a.isUndefined() && !a.isNull()) {
      if (!a.isArray()) throw Error("options.angular: must be an array of booleans, one per joint");
      const int k = a["length"].as<int>();
      for (int i = 0; i < k; ++i) angular_.push_back(a[i].as<bool>());
    }
    return angular_;
  }
  static val planOf(const std::vector<Segment>& segs, double duration) {
    val out = val::object();
    out.set("segments", static_cast<double>(segs.size()));
    out.set("firstId", static_cast<double>(segs.front().id));
    out.set("lastId", static_cast<double>(segs.back().id));
    out.set("duration", duration);
    std::vector<double> planned;
    for (int j = 0; j < segs.back().joints; ++j) planned.push_back(segs.back().b[j].q / kPosScale);
    out.set("planned", numbers(planned.data(), static_cast<int>(planned.size())));
    return out;
  }

  static HostOptions hostOptions(const val& o) {
    HostOptions h;
    if (o.isUndefined() || o.isNull()) return h;
    const val keys = val::global("Object").call<val>("keys", o);
    for (unsigned i = 0, n = keys["length"].as<unsigned>(); i < n; ++i) {
      const std::string k = keys[i].as<std::string>();
      if (k != "silencePeriods") throw Error("HostEngine: unknown option '" + achain::nameInput(k, 64) + "' (known: silencePeriods)");
    }
    const double v = option(o, "silencePeriods", h.silence_periods);
    if (!(v >= 1 && v <= 1000 && v == std::floor(v)))
      throw Error("HostEngine: silencePeriods must be a whole number of status periods from 1 to 1000");
    h.silence_periods = static_cast<int>(v);
    return h;
  }

  HostSession s_;
  std::unique_ptr<SendJob> job_;
  double send_id_ = 0;  // counts beginSend calls
  GlobalConfig global_;
  std::vector<JointLimitsF> limits_;
  std::vector<bool> angular_;
  std::vector<uint8_t> buf_;
};

/// The firmware on a simulated robot: the robot JSON text given (empty: the built-in prototype).
class VirtualControllerJs {
 public:
  VirtualControllerJs(int servo_hz, const std::string& robot_json)
      : vc_(guard([&] {
              const achain::Model m = robot_json.empty() ? achain::builtinModel("prototype-4a")
                                                         : achain::modelFromJsonString(robot_json);
              return simProfileFromModel(m);
            }),
            static_cast<uint16_t>(servo_hz > 0 && servo_hz <= 20000 ? servo_hz : 1000)) {}
  void write(const val& b) {
    guard([&] {
      const std::vector<uint8_t> v = bytesOf(b, "write");
      vc_.write(v.data(), v.size());
    });
  }
  val read() {
    uint8_t buf[SimHal::kOutCapacity];
    const size_t n = vc_.read(buf, sizeof buf);
    return uint8Array(buf, n);
  }
  void step(int n) { vc_.step(n > 0 ? n : 0); }
  double time() const { return vc_.timeSeconds(); }
  int joints() const { return vc_.joints(); }
  std::string state() { return stateName(vc_.controller().state()); }
  int faults() { return vc_.controller().faults(); }
  bool estop() { return vc_.controller().estopEngaged(); }
  double segmentsDone() { return static_cast<double>(vc_.controller().segmentsDone()); }
  val positions() const {
    double q[kMaxJoints];
    for (int j = 0; j < vc_.joints(); ++j) q[j] = vc_.position(j);
    return numbers(q, vc_.joints());
  }
  val commanded() {
    double q[kMaxJoints];
    for (int j = 0; j < vc_.joints(); ++j) q[j] = vc_.controller().commanded(j);
    return numbers(q, vc_.joints());
  }

 private:
  VirtualController vc_;
};

// ---- codec ----
int crc16Js(const val& b) {
  return guard([&] {
    const auto v = bytesOf(b, "crc16");
    return static_cast<int>(crc16(v.data(), v.size()));
  });
}
val cobsEncodeJs(const val& b) {
  return guard([&] {
    const auto v = bytesOf(b, "cobsEncode");
    std::vector<uint8_t> out(v.size() + v.size() / 254 + 2);
    return uint8Array(out.data(), cobsEncode(v.data(), v.size(), out.data(), out.size()));
  });
}
/// Null when the bytes are not valid COBS.
val cobsDecodeJs(const val& b) {
  return guard([&] {
    const auto v = bytesOf(b, "cobsDecode");
    std::vector<uint8_t> out(v.size() + 1);
    const int n = cobsDecode(v.data(), v.size(), out.data(), out.size());
    return n < 0 ? val::null() : uint8Array(out.data(), static_cast<size_t>(n));
  });
}
val buildFrameJs(int type, int seq, const val& body) {
  return guard([&] {
    if (type < 0 || type > 255 || seq < 0 || seq > 255) throw Error("buildFrame: type and seq must be bytes (0–255)");
    const auto v = bytesOf(body, "buildFrame body");
    if (v.size() > static_cast<size_t>(kMaxBody)) throw Error("buildFrame: body of " + std::to_string(v.size()) + " bytes exceeds " + std::to_string(kMaxBody));
    std::vector<uint8_t> out(2 * (v.size() + 8) + 8);
    const size_t n = buildFrame(static_cast<uint8_t>(type), static_cast<uint8_t>(seq), v.data(), v.size(), out.data(), out.size());
    return uint8Array(out.data(), n);
  });
}
/// One wire frame (ending in 0x00) → {type, seq, body} or {error: 'frame'|'crc'|'malformed'|'overrun'|'incomplete'}.
val decodeFrameJs(const val& b) {
  return guard([&] {
    const auto v = bytesOf(b, "decodeFrame");
    FrameDecoder d;
    val o = val::object();
    for (uint8_t byte : v) {
      const FrameDecoder::Result r = d.feed(byte);
      if (r == FrameDecoder::kFrame) {
        o.set("type", d.type());
        o.set("seq", d.seq());
        o.set("body", uint8Array(d.body(), static_cast<size_t>(d.bodyLength())));
        return o;
      }
      if (r != FrameDecoder::kNone) {
        static constexpr const char* kNames[] = {"", "frame", "crc", "malformed", "overrun"};
        const int k = static_cast<int>(r);
        o.set("error", std::string(k >= 1 && k <= 4 ? kNames[k] : "malformed"));
        return o;
      }
    }
    o.set("error", std::string("incomplete"));
    return o;
  });
}
/// The firmware's limit check of one cubic piece: limits {qMin, qMax, vMax, aMax} → {violation, worst}.
val checkPieceJs(double q0, double v0, double q1, double v1, double T, const JointConfig& lim, double margin) {
  double worst = 0;
  const LimitViolation r = checkPiece(q0, v0, q1, v1, T, JointLimitsF{lim.q_min, lim.q_max, lim.v_max, lim.a_max}, margin, &worst);
  val o = val::object();
  o.set("violation", std::string(kViolationNames[static_cast<int>(r)]));
  o.set("worst", worst);
  return o;
}
/// [{bit, name, text}] for every fault bit, in the firmware's own words.
val faultListJs() {
  val a = val::array();
  for (int b = 0; b < kFaultCount; ++b) {
    const uint16_t bit = static_cast<uint16_t>(1u << b);
    val o = val::object();
    o.set("bit", bit);
    o.set("name", std::string(faultName(bit)));
    o.set("text", std::string(faultText(bit)));
    a.call<void>("push", o);
  }
  return a;
}
val stateNames() {
  val a = val::array();
  for (int s = 0; s <= static_cast<int>(State::Fault); ++s) a.call<void>("push", std::string(stateName(static_cast<State>(s))));
  return a;
}
int protocolVersion() { return kProtocolVersion; }
int schemaIdJs() { return schemaId(); }
int queueCapacity() { return kQueueCapacity; }

val jointConfigsFromModelJs(WasmModel& m) {
  return guard([&] {
    val a = val::array();
    for (const JointConfig& c : jointConfigsFromModel(m.model)) a.call<void>("push", val(c));
    return a;
  });
}
GlobalConfig defaultGlobalConfig() { return GlobalConfig{}; }
std::string thesisTrapezoidJs(double dt) {
  return guard([&] {
    if (!(dt >= 1e-4 && dt <= 0.1)) throw Error("thesisTrapezoid: dt must be between 0.0001 and 0.1 s");
    return trajectoryToJson(thesisTrapezoid(dt)).dump();
  });
}
/// Checks an achain-trajectory (JSON text) as `achain send` does; throws naming the field, else {dof, samples, duration}.
val validateTrajectoryJs(const std::string& text) {
  return guard([&] {
    const SampledTrajectory tr = parseTrajectory(text);
    val o = val::object();
    o.set("dof", tr.dof());
    o.set("samples", static_cast<double>(tr.t.size()));
    o.set("duration", tr.t.back() - tr.t.front());
    return o;
  });
}


// ---- servo-bus codecs (Dynamixel Protocol 2.0, Feetech SCS/STS) ----
// Arguments are range-checked here, before narrowing: Embind would wrap an ID of 300 to 44 without a word.
namespace sv = achain::bridge::servo;

double integerIn(double x, double lo, double hi, const char* what) {
  if (!(x >= lo && x <= hi) || x != std::floor(x))
    throw Error(std::string(what) + ": must be a whole number from " + std::to_string(static_cast<long>(lo)) + " to " +
                std::to_string(static_cast<long>(hi)));
  return x;
}
/// An address or length of the protocol's width (16 bits for Dynamixel, 8 for Feetech), an ID or a byte.
template <class Word>
Word wordOf(double x, const char* what) {
  return static_cast<Word>(integerIn(x, 0, static_cast<double>(static_cast<Word>(~Word(0))), what));
}
uint8_t byteArg(double x, const char* what) { return wordOf<uint8_t>(x, what); }

/// An array of whole numbers that fit Word (each checked, never wrapped).
template <class Word>
std::vector<Word> wholeNumbers(const val& a, const char* what) {
  if (a.isNull() || a.isUndefined() || a.typeOf().as<std::string>() != "object" || !a["length"].isNumber())
    throw Error(std::string(what) + ": must be a Uint8Array or an array of numbers");
  std::vector<Word> v;
  const unsigned n = a["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) {
    const val x = a[i];
    const std::string at = std::string(what) + "[" + std::to_string(i) + "]";
    if (!x.isNumber()) throw Error(at + ": must be a number");
    v.push_back(wordOf<Word>(x.as<double>(), at.c_str()));
  }
  return v;
}
/// A Uint8Array (one bulk copy), or an array of whole numbers 0-255.
std::vector<uint8_t> byteList(const val& a, const char* what) {
  if (!a.isNull() && !a.isUndefined() && a.instanceof(val::global("Uint8Array"))) return bytesOf(a, what);
  return wholeNumbers<uint8_t>(a, what);
}

/// Runs a builder for a packet of about n parameter bytes: the packet as a Uint8Array, or an Error naming what
/// is wrong. The buffer has room for any header, checksum and Dynamixel stuffing (at most one byte per three).
template <class Build>
val packet(const char* what, size_t n, Build build) {
  std::vector<uint8_t> out(16 + n + n / 2);
  sv::Error e = sv::Error::None;
  const size_t k = build(out.data(), out.size(), &e);
  if (k == 0) throw Error(std::string(what) + ": " + sv::text(e));
  return uint8Array(out.data(), k);
}
void sameLength(size_t a, size_t b, const char* what) {
  if (a != b) throw Error(std::string(what) + ": ids, addresses and lengths must have one entry per servo");
}
void dataFits(size_t got, size_t want, const char* what, const char* rule) {
  if (got != want)
    throw Error(std::string(what) + ": data must hold " + rule + " = " + std::to_string(want) + " bytes, got " +
                std::to_string(got));
}

// The builders of both protocols through one wrapper per shape (Word: the address/length width).
using IdBuild = size_t (*)(uint8_t, uint8_t*, size_t, sv::Error*);
template <class Word>
using ReadBuild = size_t (*)(uint8_t, Word, Word, uint8_t*, size_t, sv::Error*);
template <class Word>
using WriteBuild = size_t (*)(uint8_t, Word, const uint8_t*, size_t, uint8_t*, size_t, sv::Error*);
template <class Word>
using SyncReadBuild = size_t (*)(Word, Word, const uint8_t*, size_t, uint8_t*, size_t, sv::Error*);
template <class Word>
using SyncWriteBuild = size_t (*)(Word, Word, const uint8_t*, const uint8_t*, size_t, uint8_t*, size_t, sv::Error*);
using StatusBuild = size_t (*)(uint8_t, uint8_t, const uint8_t*, size_t, uint8_t*, size_t, sv::Error*);

val idPacket(const char* what, IdBuild build, double id) {
  return guard([&] {
    const uint8_t i = byteArg(id, "id");
    return packet(what, 0, [&](uint8_t* o, size_t c, sv::Error* e) { return build(i, o, c, e); });
  });
}
template <class Word>
val readPacket(const char* what, ReadBuild<Word> build, double id, double address, double length) {
  return guard([&] {
    const uint8_t i = byteArg(id, "id");
    const Word a = wordOf<Word>(address, "address"), l = wordOf<Word>(length, "length");
    return packet(what, 4, [&](uint8_t* o, size_t c, sv::Error* e) { return build(i, a, l, o, c, e); });
  });
}
template <class Word>
val writePacket(const char* what, WriteBuild<Word> build, double id, double address, const val& data) {
  return guard([&] {
    const uint8_t i = byteArg(id, "id");
    const Word a = wordOf<Word>(address, "address");
    const auto d = byteList(data, "data");
    return packet(what, 2 + d.size(), [&](uint8_t* o, size_t c, sv::Error* e) { return build(i, a, d.data(), d.size(), o, c, e); });
  });
}
template <class Word>
val syncReadPacket(const char* what, SyncReadBuild<Word> build, double address, double length, const val& ids) {
  return guard([&] {
    const Word a = wordOf<Word>(address, "address"), l = wordOf<Word>(length, "length");
    const auto i = byteList(ids, "ids");
    return packet(what, 4 + i.size(), [&](uint8_t* o, size_t c, sv::Error* e) { return build(a, l, i.data(), i.size(), o, c, e); });
  });
}
/// data: ids.length × length bytes, servo by servo.
template <class Word>
val syncWritePacket(const char* what, SyncWriteBuild<Word> build, double address, double length, const val& ids,
                    const val& data) {
  return guard([&] {
    const Word a = wordOf<Word>(address, "address"), l = wordOf<Word>(length, "length");
    const auto i = byteList(ids, "ids");
    const auto d = byteList(data, "data");
    dataFits(d.size(), i.size() * l, what, "ids.length × length");
    return packet(what, 4 + i.size() + d.size(),
                  [&](uint8_t* o, size_t c, sv::Error* e) { return build(a, l, i.data(), d.data(), i.size(), o, c, e); });
  });
}
/// A status packet as a servo sends it (simulated buses, tests).
val statusPacket(const char* what, StatusBuild build, double id, double error, const val& params) {
  return guard([&] {
    const uint8_t i = byteArg(id, "id"), err = byteArg(error, "error");
    const auto p = byteList(params, "params");
    return packet(what, 1 + p.size(), [&](uint8_t* o, size_t c, sv::Error* e) { return build(i, err, p.data(), p.size(), o, c, e); });
  });
}

val dynamixelBulkRead(const val& ids, const val& addresses, const val& lengths) {
  return guard([&] {
    const auto i = byteList(ids, "ids");
    const auto a = wholeNumbers<uint16_t>(addresses, "addresses"), l = wholeNumbers<uint16_t>(lengths, "lengths");
    sameLength(i.size(), a.size(), "dynamixelBulkRead");
    sameLength(i.size(), l.size(), "dynamixelBulkRead");
    return packet("dynamixelBulkRead", 5 * i.size(), [&](uint8_t* o, size_t c, sv::Error* e) {
      return sv::dxl::bulkRead(i.data(), a.data(), l.data(), i.size(), o, c, e);
    });
  });
}
/// data: each servo's lengths[i] bytes, concatenated in servo order.
val dynamixelBulkWrite(const val& ids, const val& addresses, const val& lengths, const val& data) {
  return guard([&] {
    const auto i = byteList(ids, "ids");
    const auto a = wholeNumbers<uint16_t>(addresses, "addresses"), l = wholeNumbers<uint16_t>(lengths, "lengths");
    const auto d = byteList(data, "data");
    sameLength(i.size(), a.size(), "dynamixelBulkWrite");
    sameLength(i.size(), l.size(), "dynamixelBulkWrite");
    size_t total = 0;
    for (uint16_t x : l) total += x;
    dataFits(d.size(), total, "dynamixelBulkWrite", "the sum of lengths");
    return packet("dynamixelBulkWrite", 5 * i.size() + d.size(), [&](uint8_t* o, size_t c, sv::Error* e) {
      return sv::dxl::bulkWrite(i.data(), a.data(), l.data(), d.data(), i.size(), o, c, e);
    });
  });
}
int dynamixelCrc16(const val& b) {
  return guard([&] {
    const auto v = byteList(b, "dynamixelCrc16");
    return static_cast<int>(sv::dxl::crc16(v.data(), v.size()));
  });
}
int feetechChecksum(const val& b) {
  return guard([&] {
    const auto v = byteList(b, "feetechChecksum");
    return static_cast<int>(sv::feetech::checksum(v.data(), v.size()));
  });
}

/// The decoders' error codes as JS names.
const char* servoErrorCode(sv::Error e) {
  static constexpr const char* kCodes[] = {"none", "bufferTooSmall", "badArgument", "tooManyParams", "badId",
                                           "badLength", "checksum", "badStuffing", "notStatus", "truncated"};
  const int k = static_cast<int>(e);
  return k >= 0 && k < sv::kErrorCount ? kCodes[k] : "unknown";
}

/// [{number, name, text}] of the Dynamixel error numbers 1-7, and the alert bit's text.
val dynamixelErrors() {
  val a = val::array();
  for (uint8_t k = 1; k <= 7; ++k) {
    val o = val::object();
    o.set("number", k);
    o.set("name", std::string(sv::dxl::errorName(k)));
    o.set("text", std::string(sv::dxl::errorText(k)));
    a.call<void>("push", o);
  }
  return a;
}
std::string dynamixelAlertText() { return sv::dxl::alertText(); }
/// [{bit, name, text}] of the Feetech status bits.
val feetechStatusBits() {
  val a = val::array();
  for (int b = 0; b < 8; ++b) {
    const uint8_t bit = static_cast<uint8_t>(1u << b);
    if (!(bit & sv::feetech::kKnownStatusBits)) continue;
    val o = val::object();
    o.set("bit", bit);
    o.set("name", std::string(sv::feetech::statusBitName(bit)));
    o.set("text", std::string(sv::feetech::statusBitText(bit)));
    a.call<void>("push", o);
  }
  return a;
}

/// A streaming status decoder for JS: feed(bytes) returns what completed, in order: packets
/// {kind: 'packet', id, error, params, …} and errors {kind: 'error', code, message}.
template <class Decoder>
class ServoDecoderJs {
 public:
  val feed(const val& b) {
    return guard([&] {
      const auto v = byteList(b, "feed");
      val out = val::array();
      for (uint8_t x : v) drain(d_.feed(x), out);
      return out;
    });
  }
  /// The line went quiet (the caller's read timeout): a half-read packet (header and ID read) is reported as
  /// 'truncated' and its bytes searched again, until nothing is half-read; a header fragment is dropped silently.
  val timeout() {
    val out = val::array();
    while (d_.midPacket()) drain(d_.timeout(), out);
    return out;
  }
  bool midPacket() const { return d_.midPacket(); }
  void reset() { d_.reset(); }

 private:
  void drain(sv::Event e, val& out) {
    for (; e != sv::Event::None; e = d_.next()) {
      val o = val::object();
      if (e == sv::Event::Packet) {
        o.set("kind", std::string("packet"));
        o.set("id", d_.id());
        o.set("error", d_.errorByte());
        o.set("params", uint8Array(d_.params(), static_cast<size_t>(d_.paramCount())));
        describe(o);
      } else {
        o.set("kind", std::string("error"));
        o.set("code", std::string(servoErrorCode(d_.error())));
        o.set("message", std::string(sv::text(d_.error())));
      }
      out.call<void>("push", o);
    }
  }
  /// The status byte in words: Dynamixel alert + error number, Feetech status bits.
  void describe(val& o) const;
  Decoder d_;
};

template <>
void ServoDecoderJs<sv::dxl::StatusDecoder>::describe(val& o) const {
  o.set("alert", d_.alert());
  o.set("errorNumber", d_.errorNumber());
  val texts = val::array();
  if (d_.errorNumber() != 0) texts.call<void>("push", std::string(sv::dxl::errorText(d_.errorNumber())));
  if (d_.alert()) texts.call<void>("push", std::string(sv::dxl::alertText()));
  o.set("errorTexts", texts);
}
template <>
void ServoDecoderJs<sv::feetech::StatusDecoder>::describe(val& o) const {
  val names = val::array(), texts = val::array();
  for (int b = 0; b < 8; ++b) {
    const uint8_t bit = static_cast<uint8_t>(1u << b);
    if (!(d_.errorByte() & bit)) continue;
    names.call<void>("push", std::string(sv::feetech::statusBitName(bit)));
    texts.call<void>("push", std::string(sv::feetech::statusBitText(bit)));
  }
  o.set("errorNames", names);
  o.set("errorTexts", texts);
}
using DynamixelStatusDecoderJs = ServoDecoderJs<sv::dxl::StatusDecoder>;
using FeetechStatusDecoderJs = ServoDecoderJs<sv::feetech::StatusDecoder>;

}  // namespace

EMSCRIPTEN_BINDINGS(achain_bridge) {
  using namespace emscripten;
  value_object<JointConfig>("JointConfig")
      .field("joint", &JointConfig::joint)
      .field("gearRatio", &JointConfig::gear_ratio)
      .field("countsPerRev", &JointConfig::counts_per_rev)
      .field("zeroOffset", &JointConfig::zero_offset)
      .field("qMin", &JointConfig::q_min)
      .field("qMax", &JointConfig::q_max)
      .field("vMax", &JointConfig::v_max)
      .field("aMax", &JointConfig::a_max)
      .field("torqueMax", &JointConfig::torque_max)
      .field("kp", &JointConfig::kp)
      .field("ki", &JointConfig::ki)
      .field("kd", &JointConfig::kd)
      .field("inertiaFf", &JointConfig::inertia_ff)
      .field("viscousFf", &JointConfig::viscous_ff);
  value_object<GlobalConfig>("GlobalConfig")
      .field("watchdogMs", &GlobalConfig::watchdog_ms)
      .field("statusPeriodMs", &GlobalConfig::status_period_ms)
      .field("accelMargin", &GlobalConfig::accel_margin)
      .field("followingErrorMax", &GlobalConfig::following_error_max)
      .field("startTolerance", &GlobalConfig::start_tolerance);

  class_<HostEngine>("HostEngine")
      .constructor<>()
      .constructor<const val&>()
      .function("receive", &HostEngine::receive)
      .function("update", &HostEngine::update)
      .function("takeOutput", &HostEngine::takeOutput)
      .function("connect", &HostEngine::connect)
      .property("connected", &HostEngine::connected)
      .function("linkLost", &HostEngine::linkLost)
      .function("configureGlobal", &HostEngine::configureGlobal)
      .function("configureJoint", &HostEngine::configureJoint)
      .function("queueTrajectory", &HostEngine::queueTrajectory)
      .function("beginSend", &HostEngine::beginSend)
      .function("sendStep", &HostEngine::sendStep)
      .function("start", &HostEngine::start)
      .function("pause", &HostEngine::pause)
      .function("resume", &HostEngine::resume)
      .function("clearFaults", &HostEngine::clearFaults)
      .function("stop", &HostEngine::stop)
      .function("estop", &HostEngine::estop)
      .function("streamTarget", &HostEngine::streamTarget)
      .function("inject", &HostEngine::inject)
      .property("backlog", &HostEngine::backlog)
      .property("segmentsPending", &HostEngine::segmentsPending)
      .property("credits", &HostEngine::credits)
      .property("error", &HostEngine::error)
      .property("sessionLost", &HostEngine::sessionLost)
      .property("clearFaultsPending", &HostEngine::clearFaultsPending)
      .property("clearFaultsWhy", &HostEngine::clearFaultsWhy)
      .property("caps", &HostEngine::caps)
      .property("status", &HostEngine::status)
      .property("counters", &HostEngine::counters)
      .property("events", &HostEngine::events);

  class_<VirtualControllerJs>("VirtualController")
      .constructor<int, std::string>()
      .function("write", &VirtualControllerJs::write)
      .function("read", &VirtualControllerJs::read)
      .function("step", &VirtualControllerJs::step)
      .property("time", &VirtualControllerJs::time)
      .property("joints", &VirtualControllerJs::joints)
      .function("state", &VirtualControllerJs::state)
      .function("faults", &VirtualControllerJs::faults)
      .function("estop", &VirtualControllerJs::estop)
      .function("segmentsDone", &VirtualControllerJs::segmentsDone)
      .function("positions", &VirtualControllerJs::positions)
      .function("commanded", &VirtualControllerJs::commanded);

  function("crc16", &crc16Js);
  function("cobsEncode", &cobsEncodeJs);
  function("cobsDecode", &cobsDecodeJs);
  function("buildFrame", &buildFrameJs);
  function("decodeFrame", &decodeFrameJs);
  function("checkPiece", &checkPieceJs);
  function("faultList", &faultListJs);
  function("stateNames", &stateNames);
  function("protocolVersion", &protocolVersion);
  function("schemaId", &schemaIdJs);
  function("queueCapacity", &queueCapacity);
  function("jointConfigsFromModel", &jointConfigsFromModelJs);
  function("defaultGlobalConfig", &defaultGlobalConfig);
  function("thesisTrapezoid", &thesisTrapezoidJs);
  function("validateTrajectory", &validateTrajectoryJs);

  function("dynamixelPing", +[](double id) { return idPacket("dynamixelPing", sv::dxl::ping, id); });
  function("dynamixelRead", +[](double id, double address, double length) {
    return readPacket<uint16_t>("dynamixelRead", sv::dxl::read, id, address, length);
  });
  function("dynamixelWrite", +[](double id, double address, const val& data) {
    return writePacket<uint16_t>("dynamixelWrite", sv::dxl::write, id, address, data);
  });
  function("dynamixelRegWrite", +[](double id, double address, const val& data) {
    return writePacket<uint16_t>("dynamixelRegWrite", sv::dxl::regWrite, id, address, data);
  });
  function("dynamixelAction", +[](double id) { return idPacket("dynamixelAction", sv::dxl::action, id); });
  function("dynamixelReboot", +[](double id) { return idPacket("dynamixelReboot", sv::dxl::reboot, id); });
  function("dynamixelSyncRead", +[](double address, double length, const val& ids) {
    return syncReadPacket<uint16_t>("dynamixelSyncRead", sv::dxl::syncRead, address, length, ids);
  });
  function("dynamixelSyncWrite", +[](double address, double length, const val& ids, const val& data) {
    return syncWritePacket<uint16_t>("dynamixelSyncWrite", sv::dxl::syncWrite, address, length, ids, data);
  });
  function("dynamixelBulkRead", &dynamixelBulkRead);
  function("dynamixelBulkWrite", &dynamixelBulkWrite);
  function("dynamixelStatus", +[](double id, double error, const val& params) {
    return statusPacket("dynamixelStatus", sv::dxl::status, id, error, params);
  });
  function("dynamixelCrc16", &dynamixelCrc16);
  function("feetechPing", +[](double id) { return idPacket("feetechPing", sv::feetech::ping, id); });
  function("feetechRead", +[](double id, double address, double length) {
    return readPacket<uint8_t>("feetechRead", sv::feetech::read, id, address, length);
  });
  function("feetechWrite", +[](double id, double address, const val& data) {
    return writePacket<uint8_t>("feetechWrite", sv::feetech::write, id, address, data);
  });
  function("feetechRegWrite", +[](double id, double address, const val& data) {
    return writePacket<uint8_t>("feetechRegWrite", sv::feetech::regWrite, id, address, data);
  });
  function("feetechAction", +[](double id) { return idPacket("feetechAction", sv::feetech::action, id); });
  function("feetechSyncWrite", +[](double address, double length, const val& ids, const val& data) {
    return syncWritePacket<uint8_t>("feetechSyncWrite", sv::feetech::syncWrite, address, length, ids, data);
  });
  function("feetechSyncRead", +[](double address, double length, const val& ids) {
    return syncReadPacket<uint8_t>("feetechSyncRead", sv::feetech::syncRead, address, length, ids);
  });
  function("feetechStatus", +[](double id, double error, const val& params) {
    return statusPacket("feetechStatus", sv::feetech::status, id, error, params);
  });
  function("feetechChecksum", &feetechChecksum);
  function("dynamixelErrors", &dynamixelErrors);
  function("dynamixelAlertText", &dynamixelAlertText);
  function("feetechStatusBits", &feetechStatusBits);
  class_<DynamixelStatusDecoderJs>("DynamixelStatusDecoder")
      .constructor<>()
      .function("feed", &DynamixelStatusDecoderJs::feed)
      .function("timeout", &DynamixelStatusDecoderJs::timeout)
      .function("reset", &DynamixelStatusDecoderJs::reset)
      .property("midPacket", &DynamixelStatusDecoderJs::midPacket);
  class_<FeetechStatusDecoderJs>("FeetechStatusDecoder")
      .constructor<>()
      .function("feed", &FeetechStatusDecoderJs::feed)
      .function("timeout", &FeetechStatusDecoderJs::timeout)
      .function("reset", &FeetechStatusDecoderJs::reset)
      .property("midPacket", &FeetechStatusDecoderJs::midPacket);
}
