#include "sim/servo_bus_sim.hpp"

#include <math.h>
#include <string.h>

#include "servo/dynamixel.hpp"
#include "servo/feetech.hpp"

namespace achain {
namespace bridge {

namespace sv = servo;

namespace {
// The addresses and sizes of servo_bus_sim.hpp's header comment (sources cited there).
constexpr ServoRegisterMap kDxlRegisters = {0, 7, 8, 9, 52, 48, 64, 116, 126, 128, 132, 144, 146, 70,
                                            4, 4, 4, 4, 2, 64, 147};
constexpr ServoRegisterMap kFeetechRegisters = {3, 5, 6, 7, 9, 11, 40, 42, 60, 58, 56, 62, 63, 65,
                                                2, 2, 2, 2, 1, 40, 73};
constexpr uint16_t kDxlShutdown = 63;
constexpr uint32_t kDxlBauds[8] = {9600, 57600, 115200, 1000000, 2000000, 3000000, 4000000, 4500000};
constexpr uint32_t kFeetechBauds[8] = {1000000, 500000, 250000, 128000, 115200, 57600, 38400, 19200};
constexpr uint8_t kFeetechReleasing = sv::feetech::kOverload | sv::feetech::kOvercurrent | sv::feetech::kOverheat;

bool overlaps(uint16_t a, uint16_t n, uint16_t lo, uint16_t hi) { return a < hi && a + n > lo; }
}  // namespace

const ServoRegisterMap& servoRegisters(ServoProtocol p) {
  return p == ServoProtocol::Dynamixel ? kDxlRegisters : kFeetechRegisters;
}
uint32_t servoBaudOf(ServoProtocol p, uint8_t code) {
  if (code > 7) return 0;
  return p == ServoProtocol::Dynamixel ? kDxlBauds[code] : kFeetechBauds[code];
}
int servoBaudCode(ServoProtocol p, uint32_t baud) {
  for (int c = 0; c < 8; ++c)
    if (servoBaudOf(p, static_cast<uint8_t>(c)) == baud) return c;
  return -1;
}

VirtualServoBus::VirtualServoBus(ServoProtocol p) : protocol_(p), reg_(servoRegisters(p)) {}

uint32_t VirtualServoBus::get(const Servo& s, uint16_t a, int size) const {
  uint32_t v = 0;
  for (int k = size - 1; k >= 0; --k) v = (v << 8) | s.table[a + k];  // little-endian (X series, STS)
  return v;
}
void VirtualServoBus::put(Servo& s, uint16_t a, int size, uint32_t v) {
  for (int k = 0; k < size; ++k) s.table[a + k] = static_cast<uint8_t>(v >> (8 * k));
}

bool VirtualServoBus::addServo(const SimServoParams& p) {
  const int code = servoBaudCode(protocol_, p.baud);
  if (count_ >= kMaxServos || find(p.id) >= 0 || code < 0) return false;
  Servo& s = servo_[count_++];
  memset(s.table, 0, sizeof s.table);
  put(s, reg_.model, 2, p.model);
  s.table[reg_.id] = p.id;
  s.table[reg_.baud] = static_cast<uint8_t>(code);
  s.table[reg_.return_delay] = p.return_delay;
  put(s, reg_.min_limit, reg_.limit_size, static_cast<uint32_t>(p.min_limit));
  put(s, reg_.max_limit, reg_.limit_size, static_cast<uint32_t>(p.max_limit));
  if (protocol_ == ServoProtocol::Dynamixel) {
    s.table[6] = 48;            // Firmware Version
    s.table[11] = 3;            // Operating Mode: position control
    s.table[kDxlShutdown] = kDxlOverheating | kDxlElectricalShock | kDxlOverload;  // initial value 52
    put(s, reg_.voltage, 2, static_cast<uint32_t>(lround(p.voltage * 10)));
  } else {
    s.table[reg_.voltage] = static_cast<uint8_t>(lround(p.voltage * 10));
  }
  s.table[reg_.temperature] = p.temperature;
  s.pos = p.start_position;
  s.vel = 0;
  s.max_speed = p.max_speed;
  s.tau = p.time_constant > 1e-4 ? p.time_constant : 1e-4;
  put(s, reg_.goal, reg_.goal_size, static_cast<uint32_t>(p.start_position));
  publish(s);
  return true;
}

int VirtualServoBus::find(uint8_t id) const {
  for (int i = 0; i < count_; ++i)
    if (servo_[i].table[reg_.id] == id) return i;
  return -1;
}
bool VirtualServoBus::listening(const Servo& s) const { return servoBaudOf(protocol_, s.table[reg_.baud]) == port_baud_; }
int VirtualServoBus::match(uint8_t id) const {
  const int i = find(id);
  return i >= 0 && listening(servo_[i]) ? i : -1;
}

int32_t VirtualServoBus::goal(int i) const {
  const uint32_t raw = get(servo_[i], reg_.goal, reg_.goal_size);
  return protocol_ == ServoProtocol::Dynamixel ? static_cast<int32_t>(raw)
                                               : sv::fromSignMagnitude(static_cast<uint16_t>(raw), 15);
}
bool VirtualServoBus::torqueOn(int i) const { return servo_[i].table[reg_.torque] != 0; }

bool VirtualServoBus::moveByHand(uint8_t id, int32_t counts) {
  const int i = find(id);
  if (i < 0 || servo_[i].table[reg_.torque]) return false;
  servo_[i].pos = counts;
  servo_[i].vel = 0;
  publish(servo_[i]);
  return true;
}

void VirtualServoBus::injectCorruptReplies(uint8_t id, int count) {
  const int i = find(id);
  if (i >= 0) servo_[i].corrupt = count;
}
void VirtualServoBus::injectSilence(uint8_t id, int count) {
  const int i = find(id);
  if (i >= 0) servo_[i].silent = count;
}
void VirtualServoBus::injectHardwareError(uint8_t id, uint8_t bits) {
  const int i = find(id);
  if (i < 0) return;
  Servo& s = servo_[i];
  s.table[reg_.hw_error] = bits;
  releaseTorqueOnFault(s);
}
void VirtualServoBus::releaseTorqueOnFault(Servo& s) {
  const uint8_t bits = s.table[reg_.hw_error];
  const uint8_t releasing = protocol_ == ServoProtocol::Dynamixel ? s.table[kDxlShutdown] : kFeetechReleasing;
  if (bits & releasing) s.table[reg_.torque] = 0;
}

uint8_t VirtualServoBus::statusByte(const Servo& s) const {
  if (protocol_ == ServoProtocol::Feetech) return s.table[reg_.hw_error];
  return (s.table[reg_.hw_error] & s.table[kDxlShutdown]) ? sv::dxl::kAlertBit : 0;
}

// ---- the wire ----
void VirtualServoBus::write(const uint8_t* data, size_t n) {
  double t = in_free_us_ > now_us_ ? in_free_us_ : now_us_;
  for (size_t k = 0; k < n; ++k) {
    const int next = (in_tail_ + 1) % kQueue;
    if (next == in_head_) break;  // the line's buffer is full: the rest is lost
    t += byteUs();
    in_[in_tail_] = Timed{data[k], t};
    in_tail_ = next;
  }
  in_free_us_ = t;
}

size_t VirtualServoBus::read(uint8_t* dst, size_t cap) {
  size_t n = 0;
  while (n < cap && out_head_ != out_tail_ && out_[out_head_].t <= now_us_) {
    dst[n++] = out_[out_head_].b;
    out_head_ = (out_head_ + 1) % kQueue;
  }
  return n;
}

void VirtualServoBus::advance(double t_us) {
  while (in_head_ != in_tail_ && in_[in_head_].t <= t_us) {
    const Timed b = in_[in_head_];
    in_head_ = (in_head_ + 1) % kQueue;
    if (b.t > now_us_) {
      integrate((b.t - now_us_) * 1e-6);
      now_us_ = b.t;
    }
    feed(b.b, b.t);
  }
  if (t_us > now_us_) {
    integrate((t_us - now_us_) * 1e-6);
    now_us_ = t_us;
  }
}

// ---- instruction parsing ----
void VirtualServoBus::feed(uint8_t b, double t) {
  if (echo_) {  // back to the host as it crosses the line; a reply starts after it
    const int next = (out_tail_ + 1) % kQueue;
    if (next != out_head_) {
      out_[out_tail_] = Timed{b, t};
      out_tail_ = next;
    }
    if (out_free_us_ < t) out_free_us_ = t;
  }
  const bool done = protocol_ == ServoProtocol::Dynamixel ? parseDxl(b) : parseFeetech(b);
  if (done) execute(t);
}

bool VirtualServoBus::drop() {
  pkt_len_ = 0;
  ++bad_instructions_;
  return false;
}

bool VirtualServoBus::take(uint8_t id, const uint8_t* body, int n) {
  id_ = id;
  inst_ = body[0];
  nparams_ = n - 1;
  memmove(params_, body + 1, static_cast<size_t>(nparams_));  // (Dynamixel: body is params_ itself)
  return true;
}

bool VirtualServoBus::parseDxl(uint8_t b) {
  static constexpr uint8_t kHeader[4] = {0xFF, 0xFF, 0xFD, 0x00};
  if (pkt_len_ < 4 && b != kHeader[pkt_len_]) {
    // FF FF FF …: the last two FFs may still start a header
    pkt_len_ = (b == 0xFF) ? (pkt_len_ == 2 ? 2 : 1) : 0;
    if (pkt_len_) pkt_[0] = pkt_[1] = 0xFF;
    return false;
  }
  pkt_[pkt_len_++] = b;
  if (pkt_len_ < 7) return false;
  const int len = pkt_[5] | (pkt_[6] << 8);
  if (len < 3 || 7 + len > static_cast<int>(sizeof pkt_)) return drop();
  if (pkt_len_ < 7 + len) return false;
  const int n = pkt_len_;
  pkt_len_ = 0;
  const uint16_t crc = static_cast<uint16_t>(pkt_[n - 2] | (pkt_[n - 1] << 8));
  const int m = sv::dxl::crc16(pkt_, static_cast<size_t>(n - 2)) == crc
                    ? sv::dxl::unstuff(pkt_ + 7, static_cast<size_t>(len - 2), params_, sizeof params_)
                    : -1;
  if (m < 1) return drop();
  return take(pkt_[4], params_, m);
}

bool VirtualServoBus::parseFeetech(uint8_t b) {
  if (pkt_len_ < 2) {
    pkt_len_ = b == 0xFF ? pkt_len_ + 1 : 0;
    pkt_[0] = pkt_[1] = 0xFF;
    return false;
  }
  if (pkt_len_ == 2 && b == 0xFF) return false;  // FF FF FF: still a header
  pkt_[pkt_len_++] = b;
  if (pkt_len_ < 4) return false;
  const int len = pkt_[3];
  if (len < 2) return drop();
  if (pkt_len_ < 4 + len) return false;
  const int n = pkt_len_;
  pkt_len_ = 0;
  if (sv::feetech::checksum(pkt_ + 2, static_cast<size_t>(n - 3)) != pkt_[n - 1]) return drop();
  return take(pkt_[2], pkt_ + 4, len - 1);
}

// ---- carrying out an instruction ----
void VirtualServoBus::execute(double t) {
  ++instructions_;
  const bool is_dxl = protocol_ == ServoProtocol::Dynamixel;
  const uint8_t* p = params_;
  const int n = nparams_;
  // Dynamixel addresses and lengths are 2 bytes, Feetech's 1 byte
  const int w = is_dxl ? 2 : 1;
  auto field = [&](int at) -> uint16_t { return w == 2 ? static_cast<uint16_t>(p[at] | (p[at + 1] << 8)) : p[at]; };
  switch (inst_) {
    case sv::dxl::kPing: {  // (same code, 0x01, in both protocols)
      if (is_dxl && id_ == sv::dxl::kBroadcastId) {
        for (int i = 0; i < count_; ++i)
          if (listening(servo_[i])) {
            const uint8_t info[3] = {servo_[i].table[0], servo_[i].table[1], servo_[i].table[6]};
            reply(i, 0, info, 3, t);
          }
        return;
      }
      const int i = match(id_);
      if (i < 0) return;
      const uint8_t info[3] = {servo_[i].table[0], servo_[i].table[1], servo_[i].table[6]};
      reply(i, 0, info, is_dxl ? 3 : 0, t);
      return;
    }
    case sv::dxl::kRead: {
      const int i = match(id_);
      if (i >= 0 && n >= 2 * w) replyRead(i, field(0), field(w), t);
      return;
    }
    case sv::dxl::kWrite: {
      const int i = match(id_);
      if (i < 0 || n < w) return;
      const uint8_t err = writeItem(i, field(0), p + w, static_cast<uint16_t>(n - w));
      reply(i, err, nullptr, 0, t);
      return;
    }
    case sv::dxl::kSyncWrite: {
      if (n < 2 * w) return;
      const uint16_t address = field(0), length = field(w);
      ++sync_writes_;
      last_sync_write_addr_ = address;
      last_sync_write_us_ = t;
      for (int at = 2 * w; length > 0 && at + 1 + length <= n; at += 1 + length) {
        const int i = match(p[at]);
        if (i >= 0) writeItem(i, address, p + at + 1, length);  // no status: a refused value is just not written
      }
      return;
    }
    case sv::dxl::kSyncRead: {
      if (n < 2 * w) return;
      for (int at = 2 * w; at < n; ++at) {
        const int i = match(p[at]);
        if (i >= 0) replyRead(i, field(0), field(w), t);
      }
      return;
    }
    case sv::dxl::kBulkRead: {
      if (!is_dxl) return;
      for (int at = 0; at + 5 <= n; at += 5) {
        const int i = match(p[at]);
        if (i >= 0) replyRead(i, field(at + 1), field(at + 3), t);
      }
      return;
    }
    default: {
      const int i = match(id_);
      if (i >= 0 && is_dxl) reply(i, sv::dxl::kInstructionError, nullptr, 0, t);
      return;
    }
  }
}

void VirtualServoBus::replyRead(int i, uint16_t address, uint16_t length, double t) {
  if (length == 0 || address + length > reg_.table_size) {
    if (protocol_ == ServoProtocol::Dynamixel) reply(i, sv::dxl::kAccessError, nullptr, 0, t);
    return;  // (an STS servo does not answer a read past its table)
  }
  reply(i, 0, servo_[i].table + address, length, t);
}

uint8_t VirtualServoBus::writeItem(int i, uint16_t address, const uint8_t* data, uint16_t n) {
  Servo& s = servo_[i];
  const bool dxl = protocol_ == ServoProtocol::Dynamixel;
  const uint8_t access = dxl ? sv::dxl::kAccessError : 1;
  if (n == 0 || address + n > reg_.table_size) return access;
  // read-only items: Dynamixel Model Number … Firmware Version, Registered Instruction, Hardware Error Status,
  // Realtime Tick … Present Temperature; Feetech versions and model, the present values and the status
  const bool read_only = dxl ? (overlaps(address, n, 0, 7) || overlaps(address, n, 69, 71) || overlaps(address, n, 120, 147))
                             : (overlaps(address, n, 0, 5) || overlaps(address, n, 56, 71));
  if (read_only) return access;
  if (dxl && address < reg_.eeprom_end && s.table[reg_.torque]) return access;
  uint8_t buf[kTableSize];
  memcpy(buf, data, n);
  if (overlaps(address, n, reg_.goal, reg_.goal + reg_.goal_size) && address <= reg_.goal &&
      address + n >= reg_.goal + reg_.goal_size) {
    uint8_t* g = buf + (reg_.goal - address);
    const int32_t lo = static_cast<int32_t>(get(s, reg_.min_limit, reg_.limit_size));
    const int32_t hi = static_cast<int32_t>(get(s, reg_.max_limit, reg_.limit_size));
    if (dxl) {
      const int32_t v = static_cast<int32_t>(g[0] | (g[1] << 8) | (g[2] << 16) | (static_cast<uint32_t>(g[3]) << 24));
      if (v < lo || v > hi) return sv::dxl::kDataLimitError;  // nothing written
    } else {
      int32_t v = sv::fromSignMagnitude(static_cast<uint16_t>(g[0] | (g[1] << 8)), 15);
      v = v < lo ? lo : (v > hi ? hi : v);  // an STS servo clamps the goal to its angle limits
      sv::put16(g, sv::toSignMagnitude(v, 15), sv::Endian::Little);
    }
  }
  memcpy(s.table + address, buf, n);
  releaseTorqueOnFault(s);  // torque cannot be enabled while a releasing fault stands
  return 0;
}

void VirtualServoBus::reply(int i, uint8_t err, const uint8_t* params, size_t n, double t) {
  Servo& s = servo_[i];
  if (s.silent != 0) {
    if (s.silent > 0) --s.silent;
    return;
  }
  uint8_t pkt[400];
  const uint8_t id = s.table[reg_.id];
  const size_t len = protocol_ == ServoProtocol::Dynamixel
                         ? sv::dxl::status(id, static_cast<uint8_t>(err | statusByte(s)), params, n, pkt, sizeof pkt)
                         : sv::feetech::status(id, statusByte(s), params, n, pkt, sizeof pkt);
  if (len == 0) return;
  if (s.corrupt > 0) {
    --s.corrupt;
    pkt[len - 1] ^= 0x5A;  // the last CRC/checksum byte
  }
  double at = (out_free_us_ > t ? out_free_us_ : t) + 2.0 * s.table[reg_.return_delay];
  for (size_t k = 0; k < len; ++k) {
    const int next = (out_tail_ + 1) % kQueue;
    if (next == out_head_) break;
    at += byteUs();
    out_[out_tail_] = Timed{pkt[k], at};
    out_tail_ = next;
  }
  out_free_us_ = at;
}

// ---- the servos ----
void VirtualServoBus::publish(Servo& s) {
  const bool on = s.table[reg_.torque] != 0;
  const int32_t pos = static_cast<int32_t>(lround(s.pos));
  const int32_t g = static_cast<int32_t>(protocol_ == ServoProtocol::Dynamixel
                                             ? get(s, reg_.goal, 4)
                                             : static_cast<uint32_t>(sv::fromSignMagnitude(static_cast<uint16_t>(get(s, reg_.goal, 2)), 15)));
  double load = on ? (g - s.pos) * 2.0 : 0.0;  // a stiffness-like load: ±1000 at 500 counts of following error
  load = load > 1000 ? 1000 : (load < -1000 ? -1000 : load);
  if (protocol_ == ServoProtocol::Dynamixel) {
    put(s, reg_.position, 4, static_cast<uint32_t>(pos));
    put(s, reg_.velocity, 4, static_cast<uint32_t>(static_cast<int32_t>(lround(s.vel * 60.0 / 4096.0 / 0.229))));
    put(s, reg_.load, 2, static_cast<uint32_t>(static_cast<uint16_t>(static_cast<int16_t>(lround(load)))));
  } else {
    put(s, reg_.position, 2, static_cast<uint32_t>(pos < 0 ? 0 : pos));
    put(s, reg_.velocity, 2, sv::toSignMagnitude(static_cast<int32_t>(lround(s.vel)), 15));
    put(s, reg_.load, 2, sv::toSignMagnitude(static_cast<int32_t>(lround(load)), 10));
  }
}

void VirtualServoBus::integrate(double dt_s) {
  while (dt_s > 0) {
    const double h = dt_s > 2e-4 ? 2e-4 : dt_s;
    dt_s -= h;
    for (int i = 0; i < count_; ++i) {
      Servo& s = servo_[i];
      if (s.table[reg_.torque]) {
        double v = (goal(i) - s.pos) / s.tau;
        v = v > s.max_speed ? s.max_speed : (v < -s.max_speed ? -s.max_speed : v);
        s.vel = v;
        s.pos += v * h;
      } else {
        s.vel = 0;
      }
    }
  }
  for (int i = 0; i < count_; ++i) publish(servo_[i]);
}

}  // namespace bridge
}  // namespace achain
