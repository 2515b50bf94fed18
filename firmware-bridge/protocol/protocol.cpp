#include "protocol.hpp"

#include <math.h>
#include <string.h>

namespace achain {
namespace bridge {

const char* stateName(State s) {
  switch (s) {
    case State::Unconfigured: return "unconfigured";
    case State::Idle: return "idle";
    case State::Running: return "running";
    case State::Paused: return "paused";
    case State::Stopping: return "stopping";
    case State::EStop: return "estop";
    case State::Fault: return "fault";
  }
  return "unknown";
}

const char* faultName(uint16_t bit) {
  switch (bit) {
    case kFaultSegmentLimit: return "segment_limit";
    case kFaultWatchdog: return "watchdog";
    case kFaultFollowing: return "following_error";
    case kFaultUnderrun: return "underrun";
    case kFaultPositionLimit: return "position_limit";
    case kFaultEStop: return "estop";
    case kFaultNotConfigured: return "not_configured";
    case kFaultDiscontinuity: return "discontinuity";
    case kFaultBadConfig: return "bad_config";
  }
  return "unknown";
}

const char* faultText(uint16_t bit) {
  switch (bit) {
    case kFaultSegmentLimit:
      return "a trajectory segment exceeded a joint limit and was refused; the arm stopped. Re-plan within the limits, then clear faults";
    case kFaultWatchdog:
      return "no message from the host within the watchdog time while moving; the arm made a controlled stop. Check the link/host, then clear faults";
    case kFaultFollowing:
      return "a joint lagged its command by more than following_error_max (blocked, overloaded or mis-tuned); the arm stopped. Check the joint, then clear faults";
    case kFaultUnderrun:
      return "the segment queue ran dry before the last segment (segments came too late: a slow host or a lossy link); the arm made a controlled stop. Clear faults and resend";
    case kFaultPositionLimit:
      return "a measured joint position left its limits; the arm stopped. Move it back by hand or jog, then clear faults";
    case kFaultEStop:
      return "emergency stop: drive disabled, brake engaged. Make the cell safe, then clear faults";
    case kFaultNotConfigured:
      return "motion was requested before every joint was configured. Send the configuration first";
    case kFaultDiscontinuity:
      return "a segment does not continue the previous one (time, position or velocity) or the plan does not start at the arm's position; refused";
    case kFaultBadConfig:
      return "a configuration value is out of range (zero gear ratio or counts, empty limits, non-finite number)";
  }
  return "unknown fault";
}

const char* nakReasonName(uint8_t r) {
  switch (r) {
    case kNakCrc: return "crc";
    case kNakSequence: return "sequence";
    case kNakMalformed: return "malformed";
    case kNakOverrun: return "overrun";
    case kNakBusy: return "busy";
    case kNakNoCredit: return "no_credit";
  }
  return "unknown";
}

uint16_t crc16(const uint8_t* data, size_t n, uint16_t crc) {
  for (size_t i = 0; i < n; ++i) {
    crc ^= static_cast<uint16_t>(data[i]) << 8;
    for (int k = 0; k < 8; ++k) crc = (crc & 0x8000) ? static_cast<uint16_t>((crc << 1) ^ 0x1021) : static_cast<uint16_t>(crc << 1);
  }
  return crc;
}

size_t cobsEncode(const uint8_t* in, size_t n, uint8_t* out, size_t cap) {
  // Canonical COBS: blocks of up to 254 non-zero bytes; no empty block after a full one at the end.
  if (cap == 0) return 0;
  size_t code_pos = 0, o = 1;
  uint8_t code = 1;
  bool after_full = false;
  for (size_t i = 0; i < n; ++i) {
    after_full = false;
    if (in[i] == 0) {
      out[code_pos] = code;
      code_pos = o++;
      code = 1;
      if (o > cap) return 0;
    } else {
      if (o >= cap) return 0;
      out[o++] = in[i];
      if (++code == 0xFF) {
        out[code_pos] = code;
        code_pos = o++;
        code = 1;
        after_full = true;
        if (o > cap && i + 1 < n) return 0;
      }
    }
  }
  if (after_full) return o - 1;  // drop the reserved code byte of the empty trailing block
  out[code_pos] = code;
  return o;
}

int cobsDecode(const uint8_t* in, size_t n, uint8_t* out, size_t cap) {
  size_t i = 0, o = 0;
  while (i < n) {
    const uint8_t code = in[i++];
    if (code == 0) return -1;
    for (uint8_t k = 1; k < code; ++k) {
      if (i >= n || o >= cap) return -1;
      if (in[i] == 0) return -1;
      out[o++] = in[i++];
    }
    if (code != 0xFF && i < n) {
      if (o >= cap) return -1;
      out[o++] = 0;
    }
  }
  return static_cast<int>(o);
}

size_t buildFrame(uint8_t type, uint8_t seq, const uint8_t* body, size_t body_len, uint8_t* out, size_t cap) {
  if (body_len > static_cast<size_t>(kMaxBody)) return 0;
  uint8_t raw[kMaxRaw];
  raw[0] = type;
  raw[1] = seq;
  if (body_len) memcpy(raw + 2, body, body_len);
  const uint16_t c = crc16(raw, body_len + 2);
  raw[body_len + 2] = static_cast<uint8_t>(c & 0xFF);
  raw[body_len + 3] = static_cast<uint8_t>(c >> 8);
  if (cap < 1) return 0;
  const size_t e = cobsEncode(raw, body_len + 4, out, cap - 1);
  if (e == 0) return 0;
  out[e] = 0;
  return e + 1;
}

FrameDecoder::Result FrameDecoder::feed(uint8_t byte) {
  if (byte != 0) {
    if (enc_len_ < kMaxEncoded) enc_[enc_len_++] = byte;
    else overrun_ = true;
    return kNone;
  }
  const int n = enc_len_;
  const bool over = overrun_;
  enc_len_ = 0;
  overrun_ = false;
  if (over) return kOverrun;
  if (n == 0) return kNone;  // idle delimiters resynchronise
  const int r = cobsDecode(enc_, static_cast<size_t>(n), raw_, sizeof raw_);
  if (r < 4) return kMalformed;
  const uint16_t want = static_cast<uint16_t>(raw_[r - 2] | (raw_[r - 1] << 8));
  if (crc16(raw_, static_cast<size_t>(r - 2)) != want) return kCrcError;
  raw_len_ = r;
  return kFrame;
}

// ---- writer / reader ----
void Writer::u8(uint8_t v) {
  if (n + 1 > cap) { ok = false; return; }
  p[n++] = v;
}
void Writer::u16(uint16_t v) { u8(static_cast<uint8_t>(v)); u8(static_cast<uint8_t>(v >> 8)); }
void Writer::u32(uint32_t v) { u16(static_cast<uint16_t>(v)); u16(static_cast<uint16_t>(v >> 16)); }
void Writer::f32(float v) {
  uint32_t u;
  memcpy(&u, &v, 4);
  u32(u);
}
uint8_t Reader::u8() {
  if (i + 1 > n) { ok = false; return 0; }
  return p[i++];
}
uint16_t Reader::u16() { const uint16_t lo = u8(); return static_cast<uint16_t>(lo | (u8() << 8)); }
uint32_t Reader::u32() { const uint32_t lo = u16(); return lo | (static_cast<uint32_t>(u16()) << 16); }
float Reader::f32() {
  const uint32_t u = u32();
  float v;
  memcpy(&v, &u, 4);
  return v;
}

uint16_t schemaId() {
  static const char kLayout[] =
      "achain-bridge/1;hello:u16 u32;caps:u16 u16 u8 u16 u16 u16 u16 u32 c12;"
      "joint:u8 f32 u32 i32 f32x10;global:u16 u16 f32 f32 f32;segment:u32 u32 u32 u8 (i32 i32 i32 i32)*n;"
      "home:u8 i32;ack:u8 u16;nak:u8 u8;status:u32 u8 u8 u16 u8 u16 u16 u32 u32 u32 (i32 i32 i32)*n;event:u16 u8 u32 i32";
  return crc16(reinterpret_cast<const uint8_t*>(kLayout), sizeof kLayout - 1);
}

// ---- messages: one field list per message serves both directions ----
// fields(io, m) names every field once, in wire order; Put writes them (m const), Get reads them back.
namespace {
struct Put {
  Writer w;
  void u8(uint8_t v) { w.u8(v); }
  void u16(uint16_t v) { w.u16(v); }
  void u32(uint32_t v) { w.u32(v); }
  void i32(int32_t v) { w.i32(v); }
  void f32(float v) { w.f32(v); }
  void ch(char c) { w.u8(static_cast<uint8_t>(c)); }
  void state(State s) { w.u8(static_cast<uint8_t>(s)); }
  size_t finish() const { return w.ok ? w.n : 0; }
};
struct Get {
  Reader r;
  void u8(uint8_t& v) { v = r.u8(); }
  void u16(uint16_t& v) { v = r.u16(); }
  void u32(uint32_t& v) { v = r.u32(); }
  void i32(int32_t& v) { v = r.i32(); }
  void f32(float& v) { v = r.f32(); }
  void ch(char& c) { c = static_cast<char>(r.u8()); }
  void state(State& s) {  // an unknown state fails the decode
    const uint8_t v = r.u8();
    if (v > static_cast<uint8_t>(State::Fault)) r.ok = false;
    else s = static_cast<State>(v);
  }
};

template <class IO>
void fields(IO& io, Hello& m) {
  io.u16(m.version);
  io.u32(m.nonce);
}
template <class IO>
void fields(IO& io, Caps& m) {
  io.u16(m.version);
  io.u16(m.schema);
  io.u8(m.joints);
  io.u16(m.servo_hz);
  io.u16(m.queue_capacity);
  io.u16(m.max_body);
  io.u16(m.status_hz);
  io.u32(m.nonce);
  for (int i = 0; i < 12; ++i) io.ch(m.name[i]);
}
template <class IO>
void fields(IO& io, JointConfig& m) {
  io.u8(m.joint);
  io.f32(m.gear_ratio);
  io.u32(m.counts_per_rev);
  io.i32(m.zero_offset);
  io.f32(m.q_min);
  io.f32(m.q_max);
  io.f32(m.v_max);
  io.f32(m.a_max);
  io.f32(m.torque_max);
  io.f32(m.kp);
  io.f32(m.ki);
  io.f32(m.kd);
  io.f32(m.inertia_ff);
  io.f32(m.viscous_ff);
}
template <class IO>
void fields(IO& io, GlobalConfig& m) {
  io.u16(m.watchdog_ms);
  io.u16(m.status_period_ms);
  io.f32(m.accel_margin);
  io.f32(m.following_error_max);
  io.f32(m.start_tolerance);
}
template <class IO>
void fields(IO& io, Segment& m) {  // m.joints: from the body length (see decode)
  io.u32(m.id);
  io.u32(m.t_start_us);
  io.u32(m.duration_us);
  io.u8(m.flags);
  for (int j = 0; j < m.joints; ++j) {
    io.i32(m.a[j].q);
    io.i32(m.a[j].v);
    io.i32(m.b[j].q);
    io.i32(m.b[j].v);
  }
}
template <class IO>
void fields(IO& io, Home& m) {
  io.u8(m.joint);
  io.i32(m.q);
}
template <class IO>
void fields(IO& io, Ack& m) {
  io.u8(m.next_seq);
  io.u16(m.credits);
}
template <class IO>
void fields(IO& io, Nak& m) {
  io.u8(m.expected_seq);
  io.u8(m.reason);
}
template <class IO>
void fields(IO& io, Status& m) {  // m.joints: from the body length (see decode)
  io.u32(m.time_us);
  io.state(m.state);
  io.u8(m.estop);
  io.u16(m.faults);
  io.u8(m.fault_joint);
  io.u16(m.queue_fill);
  io.u16(m.credits);
  io.u32(m.segment_id);
  io.u32(m.segments_done);
  io.u32(m.traj_time_us);
  for (int j = 0; j < m.joints; ++j) {
    io.i32(m.q[j]);
    io.i32(m.v[j]);
    io.i32(m.q_cmd[j]);
  }
}
template <class IO>
void fields(IO& io, Event& m) {
  io.u16(m.fault);
  io.u8(m.joint);
  io.u32(m.segment_id);
  io.i32(m.value);
}

/// Joints of a variable-length body: `head` fixed bytes, then `per_joint` bytes a joint; -1 if malformed.
int jointsOf(size_t n, size_t head, size_t per_joint) {
  if (n < head || (n - head) % per_joint != 0 || (n - head) / per_joint > static_cast<size_t>(kMaxJoints)) return -1;
  return static_cast<int>((n - head) / per_joint);
}


/// Writes m's fields (Put only reads them: the const_cast lets one field list serve both directions).
template <class M>
size_t encodeFields(const M& m, uint8_t* out, size_t cap) {
  Put io{Writer(out, cap)};
  fields(io, const_cast<M&>(m));
  return io.finish();
}
template <class M>
bool decodeFields(const uint8_t* b, size_t n, M& m) {
  Get io{Reader(b, n)};
  fields(io, m);
  return io.r.done();
}
}  // namespace

size_t encode(const Hello& m, uint8_t* out, size_t cap) { return encodeFields(m, out, cap); }
size_t encode(const Caps& m, uint8_t* out, size_t cap) { return encodeFields(m, out, cap); }
size_t encode(const JointConfig& m, uint8_t* out, size_t cap) { return encodeFields(m, out, cap); }
size_t encode(const GlobalConfig& m, uint8_t* out, size_t cap) { return encodeFields(m, out, cap); }
size_t encode(const Segment& m, uint8_t* out, size_t cap) { return m.joints > kMaxJoints ? 0 : encodeFields(m, out, cap); }
size_t encode(const Home& m, uint8_t* out, size_t cap) { return encodeFields(m, out, cap); }
size_t encode(const Ack& m, uint8_t* out, size_t cap) { return encodeFields(m, out, cap); }
size_t encode(const Nak& m, uint8_t* out, size_t cap) { return encodeFields(m, out, cap); }
size_t encode(const Status& m, uint8_t* out, size_t cap) { return m.joints > kMaxJoints ? 0 : encodeFields(m, out, cap); }
size_t encode(const Event& m, uint8_t* out, size_t cap) { return encodeFields(m, out, cap); }

bool decode(const uint8_t* b, size_t n, Hello& m) { return decodeFields(b, n, m); }
bool decode(const uint8_t* b, size_t n, Caps& m) {
  const bool ok = decodeFields(b, n, m);
  m.name[11] = 0;
  return ok && m.joints <= kMaxJoints;
}
bool decode(const uint8_t* b, size_t n, JointConfig& m) { return decodeFields(b, n, m); }
bool decode(const uint8_t* b, size_t n, GlobalConfig& m) { return decodeFields(b, n, m); }
bool decode(const uint8_t* b, size_t n, Segment& m) {
  const int joints = jointsOf(n, 13, 16);
  if (joints < 0) return false;
  m.joints = static_cast<uint8_t>(joints);
  return decodeFields(b, n, m);
}
bool decode(const uint8_t* b, size_t n, Home& m) { return decodeFields(b, n, m); }
bool decode(const uint8_t* b, size_t n, Ack& m) { return decodeFields(b, n, m); }
bool decode(const uint8_t* b, size_t n, Nak& m) { return decodeFields(b, n, m); }
bool decode(const uint8_t* b, size_t n, Status& m) {
  const int joints = jointsOf(n, 25, 12);
  if (joints < 0) return false;
  m.joints = static_cast<uint8_t>(joints);
  return decodeFields(b, n, m);
}
bool decode(const uint8_t* b, size_t n, Event& m) { return decodeFields(b, n, m); }

// ---- interpolation ----
void hermite(double q0, double v0, double q1, double v1, double T, double t, double& q, double& v, double& a) {
  const double c2 = (3.0 * (q1 - q0) / T - 2.0 * v0 - v1) / T;
  const double c3 = (2.0 * (q0 - q1) / T + v0 + v1) / (T * T);
  q = q0 + t * (v0 + t * (c2 + t * c3));
  v = v0 + t * (2.0 * c2 + 3.0 * c3 * t);
  a = 2.0 * c2 + 6.0 * c3 * t;
}

LimitViolation checkPiece(double q0, double v0, double q1, double v1, double T, const JointLimitsF& lim,
                          double accel_margin, double* worst) {
  double dummy;
  if (!worst) worst = &dummy;
  if (!(T > 0) || !(T <= 60.0)) { *worst = T; return LimitViolation::Duration; }
  const double c2 = (3.0 * (q1 - q0) / T - 2.0 * v0 - v1) / T;
  const double c3 = (2.0 * (q0 - q1) / T + v0 + v1) / (T * T);
  const double qtol = 1e-5, vtol = 1e-5 + 1e-2 * lim.v_max, atol = 1e-4 * lim.a_max * accel_margin;
  // position: endpoints and interior extrema (roots of v(t) = v0 + 2c2 t + 3c3 t²)
  double qs[4] = {q0, q1, q0, q0};
  int nq = 2;
  const double A = 3.0 * c3, B = 2.0 * c2, C = v0;
  if (fabs(A) > 1e-15) {
    const double disc = B * B - 4.0 * A * C;
    if (disc >= 0) {
      const double sq = sqrt(disc);
      const double r[2] = {(-B - sq) / (2.0 * A), (-B + sq) / (2.0 * A)};
      for (double t : r)
        if (t > 0 && t < T) qs[nq++] = q0 + t * (v0 + t * (c2 + t * c3));
    }
  } else if (fabs(B) > 1e-15) {
    const double t = -C / B;
    if (t > 0 && t < T) qs[nq++] = q0 + t * (v0 + t * (c2 + t * c3));
  }
  for (int i = 0; i < nq; ++i) {
    if (!(qs[i] >= lim.q_min - qtol) || !(qs[i] <= lim.q_max + qtol)) { *worst = qs[i]; return LimitViolation::Position; }
  }
  // velocity: endpoints and the vertex of the parabola
  double vs[3] = {v0, v1, v0};
  int nv = 2;
  if (fabs(c3) > 1e-15) {
    const double t = -c2 / (3.0 * c3);
    if (t > 0 && t < T) vs[nv++] = v0 + t * (2.0 * c2 + 3.0 * c3 * t);
  }
  for (int i = 0; i < nv; ++i)
    if (!(fabs(vs[i]) <= lim.v_max + vtol)) { *worst = vs[i]; return LimitViolation::Velocity; }
  // acceleration is linear in t: endpoints
  const double a0 = 2.0 * c2, a1 = 2.0 * c2 + 6.0 * c3 * T;
  const double amax = lim.a_max * accel_margin + atol;
  if (!(fabs(a0) <= amax)) { *worst = a0; return LimitViolation::Acceleration; }
  if (!(fabs(a1) <= amax)) { *worst = a1; return LimitViolation::Acceleration; }
  return LimitViolation::None;
}

}  // namespace bridge
}  // namespace achain
