// achain bridge protocol v1: the single definition of the wire format shared by the firmware,
// the simulator, the native host (`achain send`) and, through WebAssembly, the browser/Node hosts.
//
// Frame on the wire:  COBS( type u8 | seq u8 | body … | crc16 LE ) 0x00
//   - CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over type, seq and body.
//   - type bit 7 set = controller → host.  Host frames of type < 0x10 are sequenced (reliable);
//     0x10..0x1F are urgent (STOP, ESTOP): seq ignored, acted upon when their last byte arrives.
//   - All integers little-endian. Positions in µrad (or µm), velocities in µrad/s (µm/s),
//     times in µs; configuration values are IEEE-754 float32 in SI units.
//
// Portable C++17 subset: no heap, no exceptions, no RTTI, no <iostream>; used on the MCU as is.
#pragma once
#include <stddef.h>
#include <stdint.h>

namespace achain {
namespace bridge {

constexpr uint16_t kProtocolVersion = 1;
constexpr int kMaxJoints = 6;
constexpr int kMaxBody = 112;                      // bytes after type/seq, before the CRC
constexpr int kMaxRaw = 2 + kMaxBody + 2;          // decoded frame
constexpr int kMaxEncoded = kMaxRaw + kMaxRaw / 254 + 2;  // COBS overhead + delimiter
constexpr double kPosScale = 1e6;                  // fixed point: 1 LSB = 1 µrad (or 1 µm)
constexpr double kVelScale = 1e6;                  // 1 LSB = 1 µrad/s (or 1 µm/s)

// ---- message types ----
enum MsgType : uint8_t {
  // host → controller, sequenced
  kHello = 0x01,
  kConfigJoint = 0x02,
  kConfigGlobal = 0x03,
  kSegment = 0x04,
  kStart = 0x05,
  kPause = 0x06,
  kResume = 0x07,
  kClearFaults = 0x08,
  kHeartbeat = 0x09,
  kHome = 0x0A,
  // host → controller, urgent (unsequenced, acted upon at the frame's last byte)
  kStop = 0x10,
  kEStop = 0x11,
  // controller → host
  kAck = 0x80,
  kCaps = 0x81,
  kNak = 0x82,
  kStatus = 0x83,
  kEvent = 0x84,
};
inline bool isUrgent(uint8_t type) { return type >= 0x10 && type <= 0x1F; }
inline bool isSequenced(uint8_t type) { return type >= 0x01 && type <= 0x0F; }

enum class State : uint8_t { Unconfigured = 0, Idle = 1, Running = 2, Paused = 3, Stopping = 4, EStop = 5, Fault = 6 };
const char* stateName(State s);

// Fault bits (latched until CLEAR_FAULTS); each has a user-facing sentence in faultText().
enum Fault : uint16_t {
  kFaultSegmentLimit = 1u << 0,     // a segment violated a position/velocity/acceleration limit
  kFaultWatchdog = 1u << 1,         // no valid frame from the host for watchdog_ms while moving
  kFaultFollowing = 1u << 2,        // |commanded − measured| exceeded following_error_max
  kFaultUnderrun = 1u << 3,         // the queue ran dry before the segment flagged LAST
  kFaultPositionLimit = 1u << 4,    // a measured joint left its position limits
  kFaultEStop = 1u << 5,            // emergency stop received
  kFaultNotConfigured = 1u << 6,    // motion command before every joint was configured
  kFaultDiscontinuity = 1u << 7,    // a segment does not join the previous one (time, q or v)
  kFaultBadConfig = 1u << 8,        // a configuration value is out of range
};
constexpr int kFaultCount = 9;
const char* faultName(uint16_t bit);
const char* faultText(uint16_t bit);

enum NakReason : uint8_t { kNakCrc = 1, kNakSequence = 2, kNakMalformed = 3, kNakOverrun = 4, kNakBusy = 5, kNakNoCredit = 6 };
const char* nakReasonName(uint8_t r);

enum SegmentFlags : uint8_t {
  kSegBlend = 1u << 0,   // flush the queue and blend from the current commanded state (within limits)
  kSegLast = 1u << 1,    // last segment of a trajectory: the controller holds and goes idle after it
  kSegStream = 1u << 2,  // streaming/teleoperation: running dry holds quietly instead of faulting
};

// ---- CRC and COBS ----
uint16_t crc16(const uint8_t* data, size_t n, uint16_t crc = 0xFFFF);
/// COBS-encodes n bytes into out (capacity cap); returns the encoded length (no delimiter) or 0.
size_t cobsEncode(const uint8_t* in, size_t n, uint8_t* out, size_t cap);
/// COBS-decodes n bytes (no delimiter) into out (capacity cap); returns decoded length or −1.
int cobsDecode(const uint8_t* in, size_t n, uint8_t* out, size_t cap);

/// Builds a complete wire frame (COBS + CRC + 0x00) from type, seq and body; returns its length or 0.
size_t buildFrame(uint8_t type, uint8_t seq, const uint8_t* body, size_t body_len, uint8_t* out, size_t cap);

/// Byte-at-a-time frame decoder with a fixed buffer (safe on any input: fuzzed).
class FrameDecoder {
 public:
  enum Result : uint8_t { kNone = 0, kFrame = 1, kCrcError = 2, kMalformed = 3, kOverrun = 4 };
  Result feed(uint8_t byte);
  /// Valid after kFrame: decoded frame (type, seq, body) without CRC.
  uint8_t type() const { return raw_[0]; }
  uint8_t seq() const { return raw_[1]; }
  const uint8_t* body() const { return raw_ + 2; }
  int bodyLength() const { return raw_len_ - 4; }
  void reset() { enc_len_ = 0; overrun_ = false; }

 private:
  uint8_t enc_[kMaxEncoded];
  uint8_t raw_[kMaxRaw];
  int enc_len_ = 0;
  int raw_len_ = 0;
  bool overrun_ = false;
};

// ---- bounded little-endian writer/reader ----
struct Writer {
  uint8_t* p;
  size_t cap;
  size_t n = 0;
  bool ok = true;
  Writer(uint8_t* buf, size_t c) : p(buf), cap(c) {}
  void u8(uint8_t v);
  void u16(uint16_t v);
  void u32(uint32_t v);
  void i32(int32_t v) { u32(static_cast<uint32_t>(v)); }
  void f32(float v);
};
struct Reader {
  const uint8_t* p;
  size_t n;
  size_t i = 0;
  bool ok = true;
  Reader(const uint8_t* buf, size_t len) : p(buf), n(len) {}
  uint8_t u8();
  uint16_t u16();
  uint32_t u32();
  int32_t i32() { return static_cast<int32_t>(u32()); }
  float f32();
  bool done() const { return ok && i == n; }
};

// ---- messages ----
struct Hello {
  uint16_t version = kProtocolVersion;
  uint32_t nonce = 0;
};
struct Caps {
  uint16_t version = kProtocolVersion;
  uint16_t schema = 0;         // schemaId(): CRC of the message layout text; hosts refuse a mismatch
  uint8_t joints = 0;
  uint16_t servo_hz = 0;
  uint16_t queue_capacity = 0;
  uint16_t max_body = kMaxBody;
  uint16_t status_hz = 0;
  uint32_t nonce = 0;          // echo of Hello.nonce
  char name[12] = {0};         // firmware/board name, NUL padded
};
struct JointConfig {
  uint8_t joint = 0;
  float gear_ratio = 1;        // motor turns per joint turn, with sign (prototype spline drive: −k_r)
  uint32_t counts_per_rev = 4096;  // encoder counts per motor revolution
  int32_t zero_offset = 0;     // encoder count at joint q = 0
  float q_min = -3.0f, q_max = 3.0f;  // rad (m)
  float v_max = 1, a_max = 1;  // rad/s, rad/s²
  float torque_max = 1;        // N·m at the joint (clamp of the controller output)
  float kp = 0, ki = 0, kd = 0;         // joint-side gains: N·m/rad, N·m/(rad·s), N·m·s/rad
  float inertia_ff = 0, viscous_ff = 0;  // feed-forward: τ += J·a + B·v
};
/// The watchdog values a controller accepts, ms (a GlobalConfig outside them is refused with kFaultBadConfig).
/// Hosts range-check the value before it is narrowed to the wire's 16 bits (bridge::watchdogMs), so 100000 is
/// an error, never 34,464 ms.
constexpr uint16_t kWatchdogMsMin = 10;
constexpr uint16_t kWatchdogMsMax = 10000;
struct GlobalConfig {
  uint16_t watchdog_ms = 200;
  uint16_t status_period_ms = 20;
  float accel_margin = 1.5f;            // allowed |a| of an interpolating cubic over a_max
  float following_error_max = 0.1f;     // rad
  float start_tolerance = 0.01f;        // rad: first segment q0 vs commanded position
};
struct JointKnot {
  int32_t q = 0;  // µrad
  int32_t v = 0;  // µrad/s
};
struct Segment {
  uint32_t id = 0;
  uint32_t t_start_us = 0;
  uint32_t duration_us = 0;
  uint8_t flags = 0;
  uint8_t joints = 0;
  JointKnot a[kMaxJoints];
  JointKnot b[kMaxJoints];
};
struct Home {
  uint8_t joint = 0;
  int32_t q = 0;  // µrad: the current reading becomes this value
};
struct Ack {
  uint8_t next_seq = 0;     // next sequence number expected (everything before is accepted)
  uint16_t credits = 0;     // free queue slots after processing
};
struct Nak {
  uint8_t expected_seq = 0;
  uint8_t reason = 0;
};
struct Status {
  uint32_t time_us = 0;     // controller clock
  State state = State::Unconfigured;
  uint8_t estop = 0;        // 1 while the e-stop is engaged (drive disabled, brake on)
  uint16_t faults = 0;
  uint8_t fault_joint = 0xFF;
  uint16_t queue_fill = 0;
  uint16_t credits = 0;
  uint32_t segment_id = 0;  // segment being executed (or last executed)
  uint32_t segments_done = 0;
  uint32_t traj_time_us = 0;
  uint8_t joints = 0;
  int32_t q[kMaxJoints] = {0};      // measured, µrad
  int32_t v[kMaxJoints] = {0};      // measured, µrad/s
  int32_t q_cmd[kMaxJoints] = {0};  // commanded, µrad
};
struct Event {
  uint16_t fault = 0;       // fault bit that was raised
  uint8_t joint = 0xFF;
  uint32_t segment_id = 0;
  int32_t value = 0;        // offending value (fixed point), context dependent
};

uint16_t schemaId();

// Body encoders return the body length (0 on overflow); decoders return false on malformed input.
size_t encode(const Hello& m, uint8_t* out, size_t cap);
size_t encode(const Caps& m, uint8_t* out, size_t cap);
size_t encode(const JointConfig& m, uint8_t* out, size_t cap);
size_t encode(const GlobalConfig& m, uint8_t* out, size_t cap);
size_t encode(const Segment& m, uint8_t* out, size_t cap);
size_t encode(const Home& m, uint8_t* out, size_t cap);
size_t encode(const Ack& m, uint8_t* out, size_t cap);
size_t encode(const Nak& m, uint8_t* out, size_t cap);
size_t encode(const Status& m, uint8_t* out, size_t cap);
size_t encode(const Event& m, uint8_t* out, size_t cap);
bool decode(const uint8_t* b, size_t n, Hello& m);
bool decode(const uint8_t* b, size_t n, Caps& m);
bool decode(const uint8_t* b, size_t n, JointConfig& m);
bool decode(const uint8_t* b, size_t n, GlobalConfig& m);
bool decode(const uint8_t* b, size_t n, Segment& m);
bool decode(const uint8_t* b, size_t n, Home& m);
bool decode(const uint8_t* b, size_t n, Ack& m);
bool decode(const uint8_t* b, size_t n, Nak& m);
bool decode(const uint8_t* b, size_t n, Status& m);
bool decode(const uint8_t* b, size_t n, Event& m);

// ---- interpolation and limits: the same code on both sides of the wire ----
/// Cubic Hermite from (q0, v0) to (q1, v1) over T seconds, evaluated at t ∈ [0, T].
void hermite(double q0, double v0, double q1, double v1, double T, double t, double& q, double& v, double& a);

struct JointLimitsF {
  double q_min, q_max, v_max, a_max;
};
enum class LimitViolation : uint8_t { None = 0, Position, Velocity, Acceleration, Duration };
/// Checks one joint's cubic piece against its limits: position exactly (1e-5 slack), velocity with a
/// 1 % interpolation allowance (a cubic through samples of a limit-respecting plan overshoots by
/// up to a·T/24), acceleration at the piece's ends against accel_margin·a_max (a cubic through samples of a
/// trapezoid reaches up to 4/3·a next to an acceleration step). `worst` receives the offending value (SI).
LimitViolation checkPiece(double q0, double v0, double q1, double v1, double T, const JointLimitsF& lim,
                          double accel_margin, double* worst);

inline int32_t toFixed(double x, double scale) {
  const double s = x * scale;
  if (s >= 2147483647.0) return 2147483647;
  if (s <= -2147483647.0) return -2147483647;
  return static_cast<int32_t>(s >= 0 ? s + 0.5 : s - 0.5);
}

}  // namespace bridge
}  // namespace achain
