// Embind bindings of the servo-bus host and the simulated servo buses (issue 33), linked into the one achain
// wasm module beside bind_bridge.cpp and wrapped by firmware-bridge/js/servo.mjs:
//   ServoBusSim   a simulated Dynamixel or Feetech bus (VirtualServoBus, sim/servo_bus_sim.hpp) with its faults
//   ServoHost     the bus host engine (ServoHost, host/servo_host.hpp): bytes in, bytes out, the caller's clock
//   scanServos, connectServos, calibrateAtZero, sendToServos
//                 the jobs of `achain bus …` / `achain send --bus` (host/servo_jobs.hpp) on a ServoBusSim, run
//                 synchronously on the bus's own clock (VirtualServoLink), exactly as the native tests run them
//   ServoSendJob, servoJointMap, zeroAtPresent, limitAtPresent
//                 the same jobs in pieces for a caller that pumps the host itself in real time (the studio's bus
//                 worker, on a WebSerial port or a simulated bus)
//   servoCalibrationFromJson, narrowToModel, rangeNotes, servoModelName, jointToCounts, countsToJoint,
//   servoHardwareErrors
// Every name is the C++ one. Times are µs (the C++ engine's unit) as JS numbers; joint values rad (m). A
// calibration is given as its JSON text or as the parsed object, and returned as the text the C++ writes
// (servoCalibrationToJson). Arguments are checked here before they are narrowed (Embind would wrap an ID of
// 300 to 44 without a word); what the C++ checks itself (goals against the limits, a calibration's fields) it
// refuses in its own words.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <achain/math/text.hpp>

#include "../../wasm/wasm_common.hpp"
#include "host/segments.hpp"
#include "host/servo_host.hpp"
#include "host/servo_jobs.hpp"
#include "servo/dynamixel.hpp"
#include "servo/feetech.hpp"
#include "sim/servo_bus_sim.hpp"

using emscripten::val;
using namespace achain::bridge;
using achain::Error;
using achain::wasm::guard;
using achain::wasm::WasmModel;

namespace {

namespace sv = achain::bridge::servo;

// ---- arguments ----
ServoProtocol protocolOf(const std::string& name, const char* what) {
  if (name == "dynamixel") return ServoProtocol::Dynamixel;
  if (name == "feetech") return ServoProtocol::Feetech;
  throw Error(std::string(what) + ": 'dynamixel' or 'feetech' (got '" + achain::nameInput(name, 64) + "')");
}
const char* protocolName(ServoProtocol p) { return p == ServoProtocol::Dynamixel ? "dynamixel" : "feetech"; }
int maxId(ServoProtocol p) { return p == ServoProtocol::Dynamixel ? sv::dxl::kMaxId : sv::feetech::kMaxId; }

/// A whole number from lo to hi (never wrapped or rounded).
double wholeIn(double x, double lo, double hi, const std::string& what) {
  if (!(x >= lo && x <= hi) || x != std::floor(x))
    throw Error(what + ": must be a whole number from " + std::to_string(static_cast<long long>(lo)) + " to " +
                std::to_string(static_cast<long long>(hi)));
  return x;
}
double numberOf(const val& v, const std::string& what) {
  if (!v.isNumber()) throw Error(what + ": must be a number");
  return v.as<double>();
}
std::string numberText(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", x);
  return b;
}
double finiteIn(const val& v, double lo, double hi, const std::string& what) {
  const double x = numberOf(v, what);
  if (!(x >= lo && x <= hi))
    throw Error(what + ": must be a finite number from " + numberText(lo) + " to " + numberText(hi));
  return x;
}

/// A time in µs: finite, not negative, within 2^53 (exact in a double).
uint64_t microsOf(double us, const char* what) {
  if (!(us >= 0 && us <= 9007199254740992.0)) throw Error(std::string(what) + ": must be a time in µs from 0 to 2^53");
  return static_cast<uint64_t>(std::llround(us));
}

bool arrayLike(const val& a) {
  return !a.isNull() && !a.isUndefined() && a.typeOf().as<std::string>() == "object" && a["length"].isNumber();
}
/// A Uint8Array (one bulk copy) or an array of whole numbers 0-255.
std::vector<uint8_t> bytesOf(const val& a, const char* what) {
  if (!arrayLike(a)) throw Error(std::string(what) + ": must be a Uint8Array or an array of bytes");
  if (a.instanceof(val::global("Uint8Array"))) return emscripten::convertJSArrayToNumberVector<uint8_t>(a);
  std::vector<uint8_t> v;
  const unsigned n = a["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) {
    const std::string at = std::string(what) + "[" + std::to_string(i) + "]";
    v.push_back(static_cast<uint8_t>(wholeIn(numberOf(a[i], at), 0, 255, at)));
  }
  return v;
}
val uint8Array(const uint8_t* p, size_t n) {
  return val::global("Uint8Array").new_(val(emscripten::typed_memory_view(n, p)));
}
/// An array (or typed array) of numbers, each a JS number (NaN kept: the C++ refuses it in its own words).
std::vector<double> numbersOf(const val& a, const std::string& what) {
  if (!arrayLike(a)) throw Error(what + ": must be an array of numbers");
  if (val::global("ArrayBuffer").call<bool>("isView", a)) {
    if (a.instanceof(val::global("BigInt64Array")) || a.instanceof(val::global("BigUint64Array")))
      throw Error(what + ": must be an array of numbers");
    return emscripten::convertJSArrayToNumberVector<double>(a);
  }
  std::vector<double> v;
  const unsigned n = a["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) v.push_back(numberOf(a[i], what + "[" + std::to_string(i) + "]"));
  return v;
}
/// Whole numbers lo … hi, each checked.
std::vector<int> intsOf(const val& a, double lo, double hi, const std::string& what) {
  std::vector<int> v;
  const std::vector<double> x = numbersOf(a, what);
  for (size_t i = 0; i < x.size(); ++i)
    v.push_back(static_cast<int>(wholeIn(x[i], lo, hi, what + "[" + std::to_string(i) + "]")));
  return v;
}
/// A baud rate of the protocol's servos (servoBaudCode).
uint32_t baudOf(double x, ServoProtocol p, const std::string& what) {
  const auto b = static_cast<uint32_t>(wholeIn(x, 1, 4.5e6, what));
  if (servoBaudCode(p, b) < 0)
    throw Error(what + ": " + std::to_string(b) + " is not a baud rate of " + protocolName(p) + " servos");
  return b;
}
/// Baud rates of the protocol's servos, in the order given.
std::vector<uint32_t> baudsOf(const val& a, ServoProtocol p, const std::string& what) {
  std::vector<uint32_t> v;
  const std::vector<double> x = numbersOf(a, what);
  for (size_t i = 0; i < x.size(); ++i) v.push_back(baudOf(x[i], p, what + "[" + std::to_string(i) + "]"));
  return v;
}

/// Refuses keys of an options object that are not among `known` (a misspelt option is said, not ignored).
void knownKeys(const val& o, const std::vector<const char*>& known, const std::string& what) {
  const val keys = val::global("Object").call<val>("keys", o);
  for (unsigned i = 0, n = keys["length"].as<unsigned>(); i < n; ++i) {
    const std::string k = keys[i].as<std::string>();
    bool ok = false;
    std::string list;
    for (const char* c : known) {
      ok = ok || k == c;
      list += (list.empty() ? "" : ", ") + std::string(c);
    }
    if (!ok) throw Error(what + ": unknown option '" + achain::nameInput(k, 64) + "' (known: " + list + ")");
  }
}
bool absent(const val& v) { return v.isUndefined() || v.isNull(); }
/// An options argument: undefined/null (no options) or an object.
bool optionsGiven(const val& o, const std::string& what) {
  if (absent(o)) return false;
  if (o.typeOf().as<std::string>() != "object" || o.isArray()) throw Error(what + ": must be an object");
  return true;
}

/// A calibration given as its JSON text or as the parsed object, read by the C++ reader (which names what is wrong).
ServoCalibration calibrationOf(const val& c) {
  if (c.isString()) return servoCalibrationFromJson(c.as<std::string>());
  if (absent(c) || c.typeOf().as<std::string>() != "object")
    throw Error("servo calibration: give the calibration's JSON text or object");
  return servoCalibrationFromJson(val::global("JSON").call<std::string>("stringify", c));
}

EstopAction estopActionOf(const val& v, const char* what) {
  if (v.isString()) {
    const std::string s = v.as<std::string>();
    if (s == "torque-off") return EstopAction::TorqueOff;
    if (s == "hold") return EstopAction::Hold;
  }
  throw Error(std::string(what) + ": 'torque-off' or 'hold'");
}

// ---- the simulated bus ----
/// A simulated bus of one protocol's usual servos (XM430-W350 at 12 V, STS3215 at 7.4 V: the servos `achain
/// bus-sim` and `send --bus --virtual` simulate), each servo an ID or {id, …SimServoParams in camelCase}.
class ServoBusSimJs {
 public:
  ServoBusSimJs(const std::string& protocol, const val& servos)
      : bus_(guard([&] { return protocolOf(protocol, "ServoBusSim: protocol"); })) {
    guard([&] { addAll(servos); });
  }
  ServoProtocol protocolValue() const { return bus_.protocol(); }
  VirtualServoBus& bus() { return bus_; }

  std::string protocol() const { return protocolName(bus_.protocol()); }
  void write(const val& b) {
    guard([&] {
      const std::vector<uint8_t> v = bytesOf(b, "write");
      bus_.write(v.data(), v.size());
    });
  }
  val read() {
    std::vector<uint8_t> all;
    uint8_t buf[VirtualServoBus::kQueue];
    for (size_t n; (n = bus_.read(buf, sizeof buf)) > 0;) all.insert(all.end(), buf, buf + n);
    return uint8Array(all.data(), all.size());
  }
  void advance(double t_us) {
    guard([&] {
      if (!(t_us >= 0 && t_us - bus_.now() <= kMaxStepUs))
        throw Error("advance: the time must be 0 or more µs and at most 60 s past now()");
      bus_.advance(t_us);
    });
  }
  void step(double dt_us) {
    guard([&] {
      if (!(dt_us >= 0 && dt_us <= kMaxStepUs)) throw Error("step: dt must be from 0 to 60 000 000 µs (60 s)");
      bus_.step(dt_us);
    });
  }
  double now() const { return bus_.now(); }
  void setPortBaud(double baud) {
    guard([&] { bus_.setPortBaud(static_cast<uint32_t>(wholeIn(baud, 1, 4.5e6, "setPortBaud"))); });
  }
  double portBaud() const { return bus_.portBaud(); }
  /// The adapter echoes: every byte written comes back to read() ahead of any reply (VirtualServoBus::setEcho).
  void setEcho(const val& on) {
    guard([&] {
      if (on.typeOf().as<std::string>() != "boolean") throw Error("setEcho: must be true or false");
      bus_.setEcho(on.as<bool>());
    });
  }
  bool echo() const { return bus_.echo(); }
  int servoCount() const { return bus_.servoCount(); }
  int find(double id) const { return guard([&] { return bus_.find(static_cast<uint8_t>(wholeIn(id, 0, 255, "find: id"))); }); }
  double position(double i) const { return guard([&] { return bus_.position(index(i, "position")); }); }
  double goal(double i) const { return guard([&] { return static_cast<double>(bus_.goal(index(i, "goal"))); }); }
  bool torqueOn(double i) const { return guard([&] { return bus_.torqueOn(index(i, "torqueOn")); }); }
  int reg8(double i, double address) const {
    return guard([&] {
      const int k = index(i, "reg8");
      return static_cast<int>(bus_.reg8(k, static_cast<uint16_t>(wholeIn(address, 0, VirtualServoBus::kTableSize - 1, "reg8: address"))));
    });
  }
  double instructions() const { return bus_.instructions(); }
  double badInstructions() const { return bus_.badInstructions(); }
  double syncWrites() const { return bus_.syncWrites(); }
  double lastSyncWriteAt(double address) const {
    return guard([&] { return bus_.lastSyncWriteAt(static_cast<uint16_t>(wholeIn(address, 0, 65535, "lastSyncWriteAt: address"))); });
  }
  /// {address, atUs} of the last sync write of any address (atUs -1 when none yet).
  val lastSyncWrite() const {
    val o = val::object();
    o.set("address", bus_.lastSyncWriteAddress());
    o.set("atUs", bus_.lastSyncWriteTime());
    return o;
  }
  void injectCorruptReplies(double id, double count) {
    guard([&] { bus_.injectCorruptReplies(servoId(id, "injectCorruptReplies"), static_cast<int>(wholeIn(count, 0, 1e9, "injectCorruptReplies: count"))); });
  }
  /// A hand turns servo `id` (torque off) to `counts`; false when its torque is on.
  bool moveByHand(double id, double counts) {
    return guard([&] {
      return bus_.moveByHand(servoId(id, "moveByHand"), static_cast<int32_t>(wholeIn(counts, 0, 65535, "moveByHand: counts")));
    });
  }
  /// count -1: silent for ever.
  void injectSilence(double id, double count) {
    guard([&] { bus_.injectSilence(servoId(id, "injectSilence"), static_cast<int>(wholeIn(count, -1, 1e9, "injectSilence: count"))); });
  }
  /// Dynamixel Hardware Error Status bits / Feetech status bits (servoHardwareErrors(protocol)); 0 clears them.
  void injectHardwareError(double id, double bits) {
    guard([&] { bus_.injectHardwareError(servoId(id, "injectHardwareError"), static_cast<uint8_t>(wholeIn(bits, 0, 255, "injectHardwareError: bits"))); });
  }

 private:
  static constexpr double kMaxStepUs = 60e6;  // one call runs at most 60 s of bus time (300 000 servo steps)

  int index(double i, const char* what) const {
    return static_cast<int>(wholeIn(i, 0, bus_.servoCount() - 1.0, std::string(what) + ": servo index (0 .. servoCount() - 1)"));
  }
  /// The ID of a servo on this bus (a fault aimed at no servo is an error, not a no-op).
  uint8_t servoId(double id, const char* what) const {
    const auto k = static_cast<uint8_t>(wholeIn(id, 0, 253, std::string(what) + ": id"));
    if (bus_.find(k) < 0) throw Error(std::string(what) + ": no servo with ID " + std::to_string(k) + " on this bus");
    return k;
  }
  void addAll(const val& servos) {
    if (!arrayLike(servos) || servos.isString())
      throw Error("ServoBusSim: servos must be an array of IDs or of {id, baud, startPosition, …}");
    const unsigned n = servos["length"].as<unsigned>();
    if (n > static_cast<unsigned>(VirtualServoBus::kMaxServos))
      throw Error("ServoBusSim: at most " + std::to_string(VirtualServoBus::kMaxServos) + " servos on one bus");
    for (unsigned i = 0; i < n; ++i) {
      const SimServoParams s = paramsOf(servos[i], "servos[" + std::to_string(i) + "]");
      if (bus_.find(s.id) >= 0) throw Error("ServoBusSim: servo ID " + std::to_string(s.id) + " is given twice");
      if (!bus_.addServo(s)) throw Error("ServoBusSim: servo ID " + std::to_string(s.id) + " cannot be added");
    }
  }
  /// The protocol's usual servo (usualSimServo, as the CLI's simulated buses make it), overridden by the keys given.
  SimServoParams paramsOf(const val& e, const std::string& at) const {
    const ServoProtocol p = bus_.protocol();
    SimServoParams s = usualSimServo(p, 1);
    if (e.isNumber()) {
      s.id = static_cast<uint8_t>(wholeIn(e.as<double>(), 0, maxId(p), at));
      return s;
    }
    if (absent(e) || e.typeOf().as<std::string>() != "object" || e.isArray())
      throw Error(at + ": must be a servo ID or an object {id, …}");
    knownKeys(e, {"id", "model", "baud", "returnDelay", "maxSpeed", "timeConstant", "startPosition", "minLimit", "maxLimit",
                  "voltage", "temperature"}, at);
    auto key = [&](const char* k) { return at + "." + k; };
    if (absent(e["id"])) throw Error(key("id") + ": missing");
    s.id = static_cast<uint8_t>(wholeIn(numberOf(e["id"], key("id")), 0, maxId(p), key("id")));
    auto whole = [&](const char* k, double lo, double hi, double dflt) {
      const val v = e[k];
      return absent(v) ? dflt : wholeIn(numberOf(v, key(k)), lo, hi, key(k));
    };
    auto real = [&](const char* k, double lo, double hi, double dflt) {
      const val v = e[k];
      return absent(v) ? dflt : finiteIn(v, lo, hi, key(k));
    };
    s.model = static_cast<uint16_t>(whole("model", 0, 65535, s.model));
    if (!absent(e["baud"])) s.baud = baudOf(numberOf(e["baud"], key("baud")), p, key("baud"));
    s.return_delay = static_cast<uint8_t>(whole("returnDelay", 0, 255, s.return_delay));
    s.max_speed = real("maxSpeed", 1, 1e6, s.max_speed);
    s.time_constant = real("timeConstant", 1e-4, 10, s.time_constant);
    s.start_position = static_cast<int32_t>(whole("startPosition", 0, 4095, s.start_position));
    s.min_limit = static_cast<int32_t>(whole("minLimit", 0, 4095, s.min_limit));
    s.max_limit = static_cast<int32_t>(whole("maxLimit", 0, 4095, s.max_limit));
    if (s.min_limit > s.max_limit) throw Error(key("minLimit") + ": must not be above maxLimit");
    s.voltage = real("voltage", 0, 25.5, s.voltage);
    s.temperature = static_cast<uint8_t>(whole("temperature", 0, 255, s.temperature));
    return s;
  }

  VirtualServoBus bus_;
};

// ---- the host ----
val foundList(ServoProtocol p, const std::vector<FoundServo>& found) {
  val a = val::array();
  for (const FoundServo& f : found) {
    val o = val::object();
    o.set("baud", static_cast<double>(f.baud));
    o.set("id", f.id);
    o.set("model", f.model);
    o.set("modelName", servoModelName(p, f.model));
    a.call<void>("push", o);
  }
  return a;
}
val periodObject(const ServoPeriodStats& s) {
  val o = val::object();
  o.set("bytesOut", static_cast<double>(s.bytes_out));
  o.set("bytesIn", static_cast<double>(s.bytes_in));
  o.set("startedUs", static_cast<double>(s.started_us));
  o.set("endedUs", static_cast<double>(s.ended_us));
  return o;
}
template <class T>
val numberArray(const std::vector<T>& v) {
  val a = val::array();
  for (const T& x : v) a.call<void>("push", static_cast<double>(x));
  return a;
}

/// The bus host engine for JS. Options {periodUs (10000), returnDelayUs (500), timeoutMarginUs (1000),
/// estopAction ('torque-off' | 'hold'), echo (false)}: ServoHostOptions.
class ServoHostJs {
 public:
  explicit ServoHostJs(const std::string& protocol) : ServoHostJs(protocol, val::undefined()) {}
  ServoHostJs(const std::string& protocol, const val& options)
      : protocol_(guard([&] { return protocolOf(protocol, "ServoHost: protocol"); })),
        h_(protocol_, guard([&] { return optionsOf(options); })) {}
  ~ServoHostJs() { *alive_ = false; }
  ServoHostJs(const ServoHostJs&) = delete;
  ServoHostJs& operator=(const ServoHostJs&) = delete;
  ServoHost& host() { return h_; }
  ServoProtocol protocolValue() const { return protocol_; }
  /// False once this host is deleted: a ServoSendJob made on it refuses to step instead of reading freed memory.
  std::shared_ptr<const bool> alive() const { return alive_; }

  std::string protocol() const { return protocolName(protocol_); }
  // ---- I/O ----
  void receive(const val& b, double now_us) {
    guard([&] {
      const std::vector<uint8_t> v = bytesOf(b, "receive");
      h_.receive(v.data(), v.size(), microsOf(now_us, "receive: nowUs"));
    });
  }
  void update(double now_us) { guard([&] { h_.update(microsOf(now_us, "update: nowUs")); }); }
  val takeOutput() {
    out_.clear();
    uint8_t buf[1024];
    for (size_t n; (n = h_.takeOutput(buf, sizeof buf)) > 0;) out_.insert(out_.end(), buf, buf + n);
    return uint8Array(out_.data(), out_.size());
  }
  double baud() const { return h_.baud(); }
  // ---- discovery ----
  void scan(const val& ids, const val& bauds) {
    guard([&] { h_.scan(intsOf(ids, 0, 252, "scan: ids"), baudsOf(bauds, protocol_, "scan: bauds")); });
  }
  val found() const { return foundList(protocol_, h_.found()); }
  // ---- session ----
  void connect(const val& calibration) {
    guard([&] { h_.connect(calibrationFor(calibration)); });
  }
  /// The joint map connect() was given, as the calibration file's JSON text.
  std::string calibration() const { return servoCalibrationToJson(h_.calibration()); }
  bool ready() const { return h_.ready(); }
  void enableTorque(bool on) { h_.enableTorque(on); }
  std::string startStreaming(double now_us) { return guard([&] { return h_.startStreaming(microsOf(now_us, "startStreaming: nowUs")); }); }
  bool streaming() const { return h_.streaming(); }
  std::string setTarget(const val& q) { return guard([&] { return h_.setTarget(numbersOf(q, "setTarget: q")); }); }
  std::string checkTarget(const val& q) const { return guard([&] { return h_.checkTarget(numbersOf(q, "checkTarget: q")); }); }
  std::string startMonitoring(double now_us) { return guard([&] { return h_.startMonitoring(microsOf(now_us, "startMonitoring: nowUs")); }); }
  bool monitoring() const { return h_.monitoring(); }
  void stopMonitoring() { h_.stopMonitoring(); }
  void stopStreaming() { h_.stopStreaming(); }
  void estop(double now_us) { guard([&] { h_.estop(microsOf(now_us, "estop: nowUs")); }); }
  void setEstopAction(const val& a) { guard([&] { h_.setEstopAction(estopActionOf(a, "setEstopAction")); }); }
  // ---- state ----
  bool busy() const { return h_.busy(); }
  std::string error() const { return h_.error(); }
  std::string safeText() const { return h_.safeText(); }
  bool estopped() const { return h_.estopped(); }
  val feedback() const {
    val a = val::array();
    for (const ServoFeedback& f : h_.feedback()) {
      val o = val::object();
      o.set("valid", f.valid);
      o.set("counts", f.counts);
      o.set("position", f.position);
      o.set("velocity", f.velocity);
      o.set("load", f.load);
      o.set("voltage", f.voltage);
      o.set("temperature", f.temperature);
      o.set("atUs", static_cast<double>(f.at_us));
      a.call<void>("push", o);
    }
    return a;
  }
  val lastGoals() const { return numberArray(h_.lastGoals()); }
  val lastPeriod() const { return periodObject(h_.lastPeriod()); }
  double periods() const { return static_cast<double>(h_.periods()); }
  double overruns() const { return static_cast<double>(h_.overruns()); }
  val models() const { return numberArray(h_.models()); }
  val options() const {
    const ServoHostOptions& o = h_.options();
    val v = val::object();
    v.set("periodUs", o.period_us);
    v.set("returnDelayUs", o.return_delay_us);
    v.set("timeoutMarginUs", o.timeout_margin_us);
    v.set("estopAction", std::string(o.estop_action == EstopAction::TorqueOff ? "torque-off" : "hold"));
    v.set("echo", o.echo);
    return v;
  }

  /// A calibration for this host's protocol (one of another bus is refused by name).
  ServoCalibration calibrationFor(const val& c) const {
    ServoCalibration cal = calibrationOf(c);
    if (cal.protocol != protocol_)
      throw Error(std::string("servo calibration: it is for a ") + protocolName(cal.protocol) + " bus, this host drives a " +
                  protocolName(protocol_) + " bus");
    if (cal.joints.empty()) throw Error("servo calibration: no joints");
    return cal;
  }

 private:
  static ServoHostOptions optionsOf(const val& o) {
    ServoHostOptions h;
    if (!optionsGiven(o, "ServoHost: options")) return h;
    knownKeys(o, {"periodUs", "returnDelayUs", "timeoutMarginUs", "estopAction", "echo"}, "ServoHost");
    auto whole = [&](const char* k, double lo, double hi, uint32_t dflt) {
      const val v = o[k];
      const std::string at = std::string("ServoHost: options.") + k;
      return absent(v) ? dflt : static_cast<uint32_t>(wholeIn(numberOf(v, at), lo, hi, at));
    };
    h.period_us = whole("periodUs", 1000, 1000000, h.period_us);
    h.return_delay_us = whole("returnDelayUs", 0, 100000, h.return_delay_us);
    h.timeout_margin_us = whole("timeoutMarginUs", 0, 1000000, h.timeout_margin_us);
    if (!absent(o["estopAction"])) h.estop_action = estopActionOf(o["estopAction"], "ServoHost: options.estopAction");
    if (!absent(o["echo"])) {
      if (o["echo"].typeOf().as<std::string>() != "boolean") throw Error("ServoHost: options.echo: must be true or false");
      h.echo = o["echo"].as<bool>();
    }
    return h;
  }

  ServoProtocol protocol_;
  ServoHost h_;
  std::vector<uint8_t> out_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

// ---- the jobs on a simulated bus (servo_jobs.hpp), on the bus's own clock ----
void sameBus(const ServoHostJs& host, const ServoBusSimJs& bus, const char* what) {
  if (host.protocolValue() != bus.protocolValue())
    throw Error(std::string(what) + ": the host speaks " + protocolName(host.protocolValue()) + ", the bus is a " +
                protocolName(bus.protocolValue()) + " bus");
}

/// [{baud, id, model, modelName}] of the servos that answered, as `achain bus scan` lists them.
val scanServosJs(ServoHostJs& host, ServoBusSimJs& bus, const val& ids, const val& bauds) {
  return guard([&] {
    sameBus(host, bus, "scanServos");
    const std::vector<int> i = intsOf(ids, -1e9, 1e9, "scanServos: ids");  // the job says which is outside 0 .. 252
    const std::vector<uint32_t> b = baudsOf(bauds, host.protocolValue(), "scanServos: bauds");
    VirtualServoLink link(bus.bus());
    return foundList(host.protocolValue(), scanServos(host.host(), link, i, b));
  });
}

void connectServosJs(ServoHostJs& host, ServoBusSimJs& bus, const val& calibration) {
  guard([&] {
    sameBus(host, bus, "connectServos");
    const ServoCalibration cal = host.calibrationFor(calibration);
    VirtualServoLink link(bus.bus());
    connectServos(host.host(), link, cal);
  });
}

/// Directions of a joint map (absent: all +1). As `bus calibrate --directions`: anything but a whole number is
/// passed on as 0, which servoJointMap refuses naming the joint.
std::vector<int> directionsOf(const val& directions, const char* what) {
  std::vector<int> dirs;
  if (!absent(directions))
    for (double d : numbersOf(directions, what)) dirs.push_back(d == std::floor(d) && std::abs(d) <= 1 ? static_cast<int>(d) : 0);
  return dirs;
}

/// The calibration file's text (servoCalibrationToJson), as `achain bus calibrate` writes it.
std::string calibrateAtZeroJs(ServoHostJs& host, ServoBusSimJs& bus, const std::string& protocol, double baud,
                              WasmModel& model, const val& ids, const val& directions) {
  return guard([&] {
    const ServoProtocol p = protocolOf(protocol, "calibrateAtZero: protocol");
    sameBus(host, bus, "calibrateAtZero");
    if (p != host.protocolValue())
      throw Error(std::string("calibrateAtZero: protocol '") + protocolName(p) + "', but the host and the bus are " +
                  protocolName(host.protocolValue()));
    const uint32_t rate = baudOf(baud, p, "calibrateAtZero: baud");
    const std::vector<int> i = intsOf(ids, 0, maxId(p), "calibrateAtZero: ids");
    const std::vector<int> dirs = directionsOf(directions, "calibrateAtZero: directions");
    VirtualServoLink link(bus.bus());
    return servoCalibrationToJson(calibrateAtZero(host.host(), link, p, rate, model.model, i, dirs));
  });
}

/// A trajectory for sendToServos: an achain-trajectory (JSON text, or the object with its "schema" key: the
/// reader of `achain send`), or sampled arrays {t, q} with q an array of rows or flat, row-major, one value per
/// joint of the connected calibration (as model.planJointPath returns it).
SampledTrajectory trajectoryOf(const val& v, size_t joints) {
  std::string text;
  if (v.isString())
    text = v.as<std::string>();
  else if (!absent(v) && v.typeOf().as<std::string>() == "object" && !absent(v["schema"]))
    text = val::global("JSON").call<std::string>("stringify", v);
  if (!text.empty() || v.isString()) {
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(text);
    } catch (const std::exception& e) {
      throw Error(std::string("trajectory: not valid JSON (") + e.what() + ")");
    }
    return trajectoryFromJson(j);
  }
  if (absent(v) || v.typeOf().as<std::string>() != "object")
    throw Error("trajectory: give an achain-trajectory (JSON text or object) or {t, q}");
  SampledTrajectory tr;
  tr.t = numbersOf(v["t"], "trajectory.t");
  const size_t n = tr.t.size();
  if (n < 1) throw Error("trajectory.t: needs at least one sample");
  for (size_t k = 0; k < n; ++k) {
    if (!std::isfinite(tr.t[k])) throw Error("trajectory.t[" + std::to_string(k) + "]: must be a finite number");
    if (k > 0 && !(tr.t[k] > tr.t[k - 1])) throw Error("trajectory.t[" + std::to_string(k) + "]: times must increase");
  }
  const val q = v["q"];
  if (!arrayLike(q)) throw Error("trajectory.q: must be an array of rows or a flat array of samples × joints");
  const size_t m = q["length"].as<size_t>();
  if (m == n && arrayLike(q[0])) {
    for (size_t k = 0; k < n; ++k) {
      tr.q.push_back(numbersOf(q[k], "trajectory.q[" + std::to_string(k) + "]"));
      if (tr.q[k].size() != tr.q[0].size())
        throw Error("trajectory.q[" + std::to_string(k) + "]: " + std::to_string(tr.q[k].size()) + " values, q[0] has " +
                    std::to_string(tr.q[0].size()));
    }
  } else {
    if (joints == 0) throw Error("trajectory.q: a flat q needs a connected host (connectServos first: the joint count)");
    const std::vector<double> flat = numbersOf(q, "trajectory.q");
    if (flat.size() != n * joints)
      throw Error("trajectory.q: " + std::to_string(flat.size()) + " values, expected samples × joints = " +
                  std::to_string(n) + " × " + std::to_string(joints));
    for (size_t k = 0; k < n; ++k) tr.q.emplace_back(flat.begin() + k * joints, flat.begin() + (k + 1) * joints);
  }
  return tr;
}

/// sendToServos' and ServoSendJob's options: {settle (s, 0.5), timeout (s, 120), torqueOffAtEnd (false)}, and for
/// sendToServos also progress.
ServoSendOptions sendOptionsOf(const val& options, const char* what, bool with_progress) {
  ServoSendOptions o;
  if (!optionsGiven(options, std::string(what) + ": options")) return o;
  const std::string at = std::string(what) + ": options.";
  if (with_progress) knownKeys(options, {"settle", "timeout", "torqueOffAtEnd", "progress"}, what);
  else knownKeys(options, {"settle", "timeout", "torqueOffAtEnd"}, what);
  if (!absent(options["settle"])) o.settle = finiteIn(options["settle"], 0, 60, at + "settle");
  if (!absent(options["timeout"])) o.timeout = finiteIn(options["timeout"], 0, 86400, at + "timeout");
  const val off = options["torqueOffAtEnd"];
  if (!absent(off)) {
    if (off.typeOf().as<std::string>() != "boolean") throw Error(at + "torqueOffAtEnd: must be true or false");
    o.torque_off_at_end = off.as<bool>();
  }
  return o;
}

val reportObject(const ServoSendReport& r) {
  val out = val::object();
  out.set("ok", r.ok);
  out.set("error", r.error);
  out.set("approach", r.approach);
  out.set("elapsed", r.elapsed);
  out.set("periods", static_cast<double>(r.periods));
  out.set("overruns", static_cast<double>(r.overruns));
  out.set("finalQ", numberArray(r.final_q));
  out.set("finalError", numberArray(r.final_error));
  out.set("finalErrorCounts", numberArray(r.final_error_counts));
  out.set("lastPeriod", periodObject(r.last_period));
  return out;
}

/// Streams a trajectory as `achain send --bus` does (servo_jobs.hpp sendToServos) and returns its report.
/// Options {settle (s, 0.5), timeout (s, 120), torqueOffAtEnd (false), progress (function(t, duration), about
/// every 0.1 s of bus time; returning exactly false stops the job as Ctrl-C does: the e-stop action; a JS exception
/// it throws crosses the C++ frames without being caught, so js/servo.mjs turns it into a stop and rethrows it)}.
val sendToServosJs(ServoHostJs& host, ServoBusSimJs& bus, const val& trajectory, const val& options) {
  return guard([&] {
    sameBus(host, bus, "sendToServos");
    const SampledTrajectory tr = trajectoryOf(trajectory, host.host().calibration().joints.size());
    ServoSendOptions o = sendOptionsOf(options, "sendToServos", true);
    volatile std::sig_atomic_t stop = 0;
    if (optionsGiven(options, "sendToServos: options")) {
      const val progress = options["progress"];
      if (!absent(progress)) {
        if (progress.typeOf().as<std::string>() != "function") throw Error("sendToServos: options.progress: must be a function");
        o.progress = [progress, &stop](double t, double duration) {
          if (progress(t, duration).strictlyEquals(val(false))) stop = 1;
        };
      }
    }
    o.stop = &stop;
    o.stop_reason = "options.progress";
    VirtualServoLink link(bus.bus());
    return reportObject(sendToServos(host.host(), link, tr, o));
  });
}

/// sendToServos as a job the caller steps on its own clock (servo_jobs.hpp ServoSendJob): the studio's bus worker
/// pumps its ServoHost on a port or a simulated bus in real time and steps the job after each pump.
class ServoSendJobJs {
 public:
  ServoSendJobJs(ServoHostJs& host, const val& trajectory) : ServoSendJobJs(host, trajectory, val::undefined()) {}
  ServoSendJobJs(ServoHostJs& host, const val& trajectory, const val& options)
      : alive_(host.alive()),
        job_(guard([&] {
          return ServoSendJob(host.host(), trajectoryOf(trajectory, host.host().calibration().joints.size()),
                              sendOptionsOf(options, "ServoSendJob", false));
        })) {}
  bool step(double now_us) {
    return guard([&] {
      live("step");
      return job_.step(microsOf(now_us, "ServoSendJob.step: nowUs"));
    });
  }
  void stop(const std::string& reason) {
    guard([&] {
      live("stop");
      job_.stop(reason);
    });
  }
  bool done() const { return job_.done(); }
  std::string phase() const { return job_.phaseName(); }
  double t() const { return job_.t(); }
  double duration() const { return job_.duration(); }
  val report() const { return reportObject(job_.report()); }

 private:
  void live(const char* what) const {
    if (!*alive_) throw Error(std::string("ServoSendJob.") + what + ": its ServoHost was deleted");
  }
  std::shared_ptr<const bool> alive_;
  ServoSendJob job_;
};

/// The joint map of a calibration (servoJointMap): the calibration file's text, zero offsets at the default 2048.
std::string servoJointMapJs(const std::string& protocol, double baud, WasmModel& model, const val& ids,
                            const val& directions) {
  return guard([&] {
    const ServoProtocol p = protocolOf(protocol, "servoJointMap: protocol");
    const uint32_t rate = baudOf(baud, p, "servoJointMap: baud");
    const std::vector<int> i = intsOf(ids, 0, maxId(p), "servoJointMap: ids");
    return servoCalibrationToJson(servoJointMap(p, rate, model.model, i, directionsOf(directions, "servoJointMap: directions")));
  });
}

/// zeroAtPresent: the calibration with each zero offset at the host's present position (connected with this
/// map, its positions read), narrowed to the model.
std::string zeroAtPresentJs(const val& calibration, ServoHostJs& host, WasmModel& model) {
  return guard([&] {
    ServoCalibration cal = host.calibrationFor(calibration);
    zeroAtPresent(cal, host.host().feedback(), model.model);
    return servoCalibrationToJson(cal);
  });
}

/// limitAtPresent: joint `joint` at one end of its travel (its position read by the host); {calibration (the text
/// with that limit), note ("" or why the model's limit was kept)}.
val limitAtPresentJs(const val& calibration, ServoHostJs& host, WasmModel& model, double joint, const val& upper) {
  return guard([&] {
    ServoCalibration cal = host.calibrationFor(calibration);
    if (upper.typeOf().as<std::string>() != "boolean") throw Error("limitAtPresent: upper must be true or false");
    const int j = static_cast<int>(wholeIn(joint, 0, cal.joints.size() - 1.0, "limitAtPresent: joint"));
    const std::string note = limitAtPresent(cal, j, upper.as<bool>(), host.host().feedback(), model.model);
    val o = val::object();
    o.set("calibration", servoCalibrationToJson(cal));
    o.set("note", note);
    return o;
  });
}

// ---- calibration files ----
/// Reads and checks a calibration: its normalized text (servoCalibrationToJson), or an Error naming the key.
std::string servoCalibrationFromJsonJs(const val& c) {
  return guard([&] { return servoCalibrationToJson(calibrationOf(c)); });
}
std::string narrowToModelJs(const val& c, WasmModel& model) {
  return guard([&] {
    ServoCalibration cal = calibrationOf(c);
    narrowToModel(cal, model.model);
    return servoCalibrationToJson(cal);
  });
}
val rangeNotesJs(const val& c, WasmModel& model) {
  return guard([&] {
    val a = val::array();
    for (const std::string& s : rangeNotes(calibrationOf(c), model.model)) a.call<void>("push", s);
    return a;
  });
}
std::string servoModelNameJs(const std::string& protocol, double model) {
  return guard([&] {
    return servoModelName(protocolOf(protocol, "servoModelName: protocol"),
                          static_cast<int>(wholeIn(model, 0, 65535, "servoModelName: model")));
  });
}
/// Joint `joint` (index in the calibration) of a calibration.
ServoJoint jointOf(const val& c, double joint, const char* what) {
  const ServoCalibration cal = calibrationOf(c);
  if (cal.joints.empty()) throw Error("servo calibration: no joints");
  return cal.joints[static_cast<size_t>(wholeIn(joint, 0, cal.joints.size() - 1.0, std::string(what) + ": joint"))];
}
double jointToCountsJs(const val& c, double joint, double q) {
  return guard([&] {
    const ServoJoint j = jointOf(c, joint, "jointToCounts");
    if (!std::isfinite(q) || std::abs(q) > 1e6) throw Error("jointToCounts: q must be a finite number within ±1e6");
    return static_cast<double>(jointToCounts(j, q));
  });
}
double countsToJointJs(const val& c, double joint, double counts) {
  return guard([&] {
    const ServoJoint j = jointOf(c, joint, "countsToJoint");
    if (!std::isfinite(counts)) throw Error("countsToJoint: counts must be a finite number");
    return countsToJoint(j, counts);
  });
}
/// [{bit, name}] of the hardware fault bits a protocol's servos report (injectHardwareError's bits): Dynamixel
/// Hardware Error Status (address 70), Feetech status bits.
val servoHardwareErrors(const std::string& protocol) {
  return guard([&] {
    val a = val::array();
    auto add = [&](uint8_t bit, const std::string& name) {
      val o = val::object();
      o.set("bit", bit);
      o.set("name", name);
      a.call<void>("push", o);
    };
    if (protocolOf(protocol, "servoHardwareErrors: protocol") == ServoProtocol::Dynamixel) {
      add(kDxlInputVoltage, "input voltage");
      add(kDxlOverheating, "overheating");
      add(kDxlMotorEncoder, "motor encoder");
      add(kDxlElectricalShock, "electrical shock");
      add(kDxlOverload, "overload");
    } else {
      for (int b = 0; b < 8; ++b) {
        const auto bit = static_cast<uint8_t>(1u << b);
        if (bit & sv::feetech::kKnownStatusBits) add(bit, sv::feetech::statusBitName(bit));
      }
    }
    return a;
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(achain_servo) {
  using namespace emscripten;
  class_<ServoBusSimJs>("ServoBusSim")
      .constructor<std::string, const val&>()
      .function("protocol", &ServoBusSimJs::protocol)
      .function("write", &ServoBusSimJs::write)
      .function("read", &ServoBusSimJs::read)
      .function("advance", &ServoBusSimJs::advance)
      .function("step", &ServoBusSimJs::step)
      .function("now", &ServoBusSimJs::now)
      .function("setPortBaud", &ServoBusSimJs::setPortBaud)
      .function("portBaud", &ServoBusSimJs::portBaud)
      .function("setEcho", &ServoBusSimJs::setEcho)
      .function("echo", &ServoBusSimJs::echo)
      .function("servoCount", &ServoBusSimJs::servoCount)
      .function("find", &ServoBusSimJs::find)
      .function("position", &ServoBusSimJs::position)
      .function("goal", &ServoBusSimJs::goal)
      .function("torqueOn", &ServoBusSimJs::torqueOn)
      .function("reg8", &ServoBusSimJs::reg8)
      .function("instructions", &ServoBusSimJs::instructions)
      .function("badInstructions", &ServoBusSimJs::badInstructions)
      .function("syncWrites", &ServoBusSimJs::syncWrites)
      .function("lastSyncWriteAt", &ServoBusSimJs::lastSyncWriteAt)
      .function("lastSyncWrite", &ServoBusSimJs::lastSyncWrite)
      .function("injectCorruptReplies", &ServoBusSimJs::injectCorruptReplies)
      .function("injectSilence", &ServoBusSimJs::injectSilence)
      .function("moveByHand", &ServoBusSimJs::moveByHand)
      .function("injectHardwareError", &ServoBusSimJs::injectHardwareError);

  class_<ServoHostJs>("ServoHost")
      .constructor<std::string>()
      .constructor<std::string, const val&>()
      .function("protocol", &ServoHostJs::protocol)
      .function("receive", &ServoHostJs::receive)
      .function("update", &ServoHostJs::update)
      .function("takeOutput", &ServoHostJs::takeOutput)
      .function("baud", &ServoHostJs::baud)
      .function("scan", &ServoHostJs::scan)
      .function("found", &ServoHostJs::found)
      .function("connect", &ServoHostJs::connect)
      .function("calibration", &ServoHostJs::calibration)
      .function("ready", &ServoHostJs::ready)
      .function("enableTorque", &ServoHostJs::enableTorque)
      .function("startStreaming", &ServoHostJs::startStreaming)
      .function("streaming", &ServoHostJs::streaming)
      .function("setTarget", &ServoHostJs::setTarget)
      .function("checkTarget", &ServoHostJs::checkTarget)
      .function("startMonitoring", &ServoHostJs::startMonitoring)
      .function("monitoring", &ServoHostJs::monitoring)
      .function("stopMonitoring", &ServoHostJs::stopMonitoring)
      .function("stopStreaming", &ServoHostJs::stopStreaming)
      .function("estop", &ServoHostJs::estop)
      .function("setEstopAction", &ServoHostJs::setEstopAction)
      .function("busy", &ServoHostJs::busy)
      .function("error", &ServoHostJs::error)
      .function("safeText", &ServoHostJs::safeText)
      .function("estopped", &ServoHostJs::estopped)
      .function("feedback", &ServoHostJs::feedback)
      .function("lastGoals", &ServoHostJs::lastGoals)
      .function("lastPeriod", &ServoHostJs::lastPeriod)
      .function("periods", &ServoHostJs::periods)
      .function("overruns", &ServoHostJs::overruns)
      .function("models", &ServoHostJs::models)
      .function("options", &ServoHostJs::options);

  class_<ServoSendJobJs>("ServoSendJob")
      .constructor<ServoHostJs&, const val&>()
      .constructor<ServoHostJs&, const val&, const val&>()
      .function("step", &ServoSendJobJs::step)
      .function("stop", &ServoSendJobJs::stop)
      .function("done", &ServoSendJobJs::done)
      .function("phase", &ServoSendJobJs::phase)
      .function("t", &ServoSendJobJs::t)
      .function("duration", &ServoSendJobJs::duration)
      .function("report", &ServoSendJobJs::report);

  function("scanServos", &scanServosJs);
  function("servoJointMap", &servoJointMapJs);
  function("zeroAtPresent", &zeroAtPresentJs);
  function("limitAtPresent", &limitAtPresentJs);
  function("connectServos", &connectServosJs);
  function("calibrateAtZero", &calibrateAtZeroJs);
  function("sendToServos", &sendToServosJs);
  function("servoCalibrationFromJson", &servoCalibrationFromJsonJs);
  function("narrowToModel", &narrowToModelJs);
  function("rangeNotes", &rangeNotesJs);
  function("servoModelName", &servoModelNameJs);
  function("jointToCounts", &jointToCountsJs);
  function("countsToJoint", &countsToJointJs);
  function("servoHardwareErrors", &servoHardwareErrors);
}
