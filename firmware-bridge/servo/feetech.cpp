#include "servo/feetech.hpp"

namespace achain {
namespace bridge {
namespace servo {
namespace feetech {

namespace {
/// Writes one packet incrementally (FF FF ID LEN … CHECKSUM); remembers the first failure.
class PacketWriter {
 public:
  PacketWriter(uint8_t* out, size_t cap, uint8_t id, bool reply) : out_(out), cap_(cap) {
    if (id > kMaxId && !(id == kBroadcastId && !reply)) fail(Error::BadId);
    put(0xFF);
    put(0xFF);
    put(id);
    put(0);  // LEN, set by finish()
  }
  void put(uint8_t b) {
    if (err_ != Error::None) return;
    if (n_ >= cap_) return fail(Error::BufferTooSmall);
    out_[n_++] = b;
  }
  void putAll(const uint8_t* data, size_t n) {
    if (n > 0 && !data) return fail(Error::BadArgument);
    for (size_t i = 0; i < n; ++i) put(data[i]);
  }
  void fail(Error e) {
    if (err_ == Error::None) err_ = e;
  }
  size_t finish(Error* err) {
    const size_t len = n_ - 4 + 1;  // INST/ERR + parameters + checksum
    if (err_ == Error::None && len > 0xFF) fail(Error::TooManyParams);
    if (err_ == Error::None) {
      out_[3] = static_cast<uint8_t>(len);
      put(checksum(out_ + 2, n_ - 2));
    }
    if (err) *err = err_;
    return err_ == Error::None ? n_ : 0;
  }

 private:
  uint8_t* out_;
  size_t cap_;
  size_t n_ = 0;
  Error err_ = Error::None;
};

size_t addressed(uint8_t id, uint8_t instruction, uint8_t address, const uint8_t* data, size_t n, uint8_t* out,
                 size_t cap, Error* err) {
  PacketWriter w(out, cap, id, false);
  w.put(instruction);
  w.put(address);
  w.putAll(data, n);
  return w.finish(err);
}

/// The sync packets' common start: instruction, address, length; false (and BadArgument) when there are no
/// servos, no data length or no data.
bool syncStart(PacketWriter& w, uint8_t instruction, uint8_t address, uint8_t length, const uint8_t* ids, size_t count,
               bool have_data) {
  if (!ids || !have_data || count == 0 || length == 0) {
    w.fail(Error::BadArgument);
    return false;
  }
  w.put(instruction);
  w.put(address);
  w.put(length);
  return true;
}
void putId(PacketWriter& w, uint8_t id) {
  if (id > kMaxId) w.fail(Error::BadId);
  w.put(id);
}
}  // namespace

const char* statusBitName(uint8_t bit) {
  switch (bit) {
    case kVoltage: return "voltage";
    case kAngleSensor: return "angle sensor";
    case kOverheat: return "overheat";
    case kOvercurrent: return "overcurrent";
    case kOverload: return "overload";
  }
  return "unknown status bit";
}

const char* statusBitText(uint8_t bit) {
  switch (bit) {
    case kVoltage:
      return "input voltage error: the supply is outside the servo's voltage limits (an STS3215 7.4 V version on a "
             "12 V supply, a sagging battery or a weak power supply under load); check the supply";
    case kAngleSensor:
      return "angle sensor error: the servo cannot read its position (magnetic encoder fault on STS servos); "
             "power-cycle it, and replace it if the error stays";
    case kOverheat:
      return "overheat: the servo is above its temperature limit and may have released torque; let it cool and "
             "reduce the load or duty cycle";
    case kOvercurrent:
      return "overcurrent: the motor current exceeded the servo's limit (stall, collision or short); release the "
             "load, check the mechanism, then re-enable torque";
    case kOverload:
      return "overload: the load stayed above the servo's limit for too long and torque was released (blocked joint, "
             "too heavy a payload); free the joint, then re-enable torque";
  }
  return "unknown status bit: not defined by Feetech's documentation";
}

uint8_t checksum(const uint8_t* data, size_t n) {
  unsigned sum = 0;
  for (size_t i = 0; i < n; ++i) sum += data[i];
  return static_cast<uint8_t>(~sum & 0xFF);
}

size_t buildInstruction(uint8_t id, uint8_t instruction, const uint8_t* params, size_t n, uint8_t* out, size_t cap,
                        Error* err) {
  PacketWriter w(out, cap, id, false);
  w.put(instruction);
  w.putAll(params, n);
  return w.finish(err);
}
size_t ping(uint8_t id, uint8_t* out, size_t cap, Error* err) { return buildInstruction(id, kPing, nullptr, 0, out, cap, err); }
size_t action(uint8_t id, uint8_t* out, size_t cap, Error* err) { return buildInstruction(id, kAction, nullptr, 0, out, cap, err); }
size_t read(uint8_t id, uint8_t address, uint8_t length, uint8_t* out, size_t cap, Error* err) {
  return addressed(id, kRead, address, &length, 1, out, cap, err);
}
size_t write(uint8_t id, uint8_t address, const uint8_t* data, size_t n, uint8_t* out, size_t cap, Error* err) {
  return addressed(id, kWrite, address, data, n, out, cap, err);
}
size_t regWrite(uint8_t id, uint8_t address, const uint8_t* data, size_t n, uint8_t* out, size_t cap, Error* err) {
  return addressed(id, kRegWrite, address, data, n, out, cap, err);
}

size_t syncWrite(uint8_t address, uint8_t length, const uint8_t* ids, const uint8_t* data, size_t count, uint8_t* out,
                 size_t cap, Error* err) {
  PacketWriter w(out, cap, kBroadcastId, false);
  if (syncStart(w, kSyncWrite, address, length, ids, count, data != nullptr))
    for (size_t i = 0; i < count; ++i) {
      putId(w, ids[i]);
      w.putAll(data + i * length, length);
    }
  return w.finish(err);
}

size_t syncRead(uint8_t address, uint8_t length, const uint8_t* ids, size_t count, uint8_t* out, size_t cap, Error* err) {
  PacketWriter w(out, cap, kBroadcastId, false);
  if (syncStart(w, kSyncRead, address, length, ids, count, true))
    for (size_t i = 0; i < count; ++i) putId(w, ids[i]);
  return w.finish(err);
}

size_t status(uint8_t id, uint8_t error, const uint8_t* params, size_t n, uint8_t* out, size_t cap, Error* err) {
  PacketWriter w(out, cap, id, true);
  w.put(error);
  w.putAll(params, n);
  return w.finish(err);
}

Event StatusDecoder::step(uint8_t b) {
  if (!append(b)) return resync();  // unreachable: LEN is one byte, kMaxRaw holds the longest packet
  const int n = raw_len_;
  if (n <= 2) return b == 0xFF ? Event::None : resync();
  if (n == 3) return b <= kMaxId ? Event::None : resync();  // FF FF FF: one FF more; 0xFE never replies
  const int len = raw_[3];
  if (n == 4) return len >= 2 ? Event::None : fail(Error::BadLength);
  if (n < 4 + len) return Event::None;
  if (checksum(raw_ + 2, static_cast<size_t>(n - 3)) != raw_[n - 1]) return fail(Error::ChecksumMismatch);
  return accept();
}

}  // namespace feetech
}  // namespace servo
}  // namespace bridge
}  // namespace achain
