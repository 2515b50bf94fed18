#include "servo/dynamixel.hpp"

namespace achain {
namespace bridge {
namespace servo {
namespace dxl {

namespace {
constexpr uint8_t kHeader[4] = {0xFF, 0xFF, 0xFD, 0x00};

/// Writes one packet incrementally: header, ID, length placeholder, then the INST … PARAM region stuffed on the
/// fly, then LEN and CRC. Remembers the first failure.
class PacketWriter {
 public:
  PacketWriter(uint8_t* out, size_t cap) : out_(out), cap_(cap) {}
  void begin(uint8_t id, bool status) {
    if (id > kMaxId && !(id == kBroadcastId && !status)) fail(Error::BadId);
    for (uint8_t h : kHeader) raw(h);
    raw(id);
    raw(0);
    raw(0);
    region_ = n_;
  }
  void put(uint8_t b) {
    raw(b);
    // the stuffing byte after every FF FF FD of the region (the inserted FD cannot start another pattern)
    if (n_ - region_ >= 3 && ok() && out_[n_ - 3] == 0xFF && out_[n_ - 2] == 0xFF && out_[n_ - 1] == 0xFD) raw(0xFD);
  }
  void put16(uint16_t v) {
    put(static_cast<uint8_t>(v & 0xFF));
    put(static_cast<uint8_t>(v >> 8));
  }
  void putAll(const uint8_t* data, size_t n) {
    if (n > 0 && !data) return fail(Error::BadArgument);
    for (size_t i = 0; i < n; ++i) put(data[i]);
  }
  void fail(Error e) {
    if (err_ == Error::None) err_ = e;
  }
  size_t finish(Error* err) {
    const size_t len = n_ - region_ + 2;  // INST … PARAM (stuffed) + CRC
    if (ok() && len > 0xFFFF) fail(Error::TooManyParams);
    if (ok()) {
      out_[5] = static_cast<uint8_t>(len & 0xFF);
      out_[6] = static_cast<uint8_t>(len >> 8);
      const uint16_t c = crc16(out_, n_);
      raw(static_cast<uint8_t>(c & 0xFF));
      raw(static_cast<uint8_t>(c >> 8));
    }
    if (err) *err = err_;
    return ok() ? n_ : 0;
  }

 private:
  bool ok() const { return err_ == Error::None; }
  void raw(uint8_t b) {
    if (!ok()) return;
    if (n_ >= cap_) return fail(Error::BufferTooSmall);
    out_[n_++] = b;
  }
  uint8_t* out_;
  size_t cap_;
  size_t n_ = 0;
  size_t region_ = 0;
  Error err_ = Error::None;
};

size_t addressed(uint8_t id, uint8_t instruction, uint16_t address, const uint8_t* data, size_t n, uint8_t* out,
                 size_t cap, Error* err) {
  PacketWriter w(out, cap);
  w.begin(id, false);
  w.put(instruction);
  w.put16(address);
  w.putAll(data, n);
  return w.finish(err);
}

/// A multi-servo packet must name at least one servo and carry what it needs.
bool need(PacketWriter& w, bool ok) {
  if (!ok) w.fail(Error::BadArgument);
  return ok;
}
}  // namespace

const char* errorName(uint8_t number) {
  switch (number) {
    case 0: return "none";
    case kResultFail: return "result fail";
    case kInstructionError: return "instruction error";
    case kCrcError: return "CRC error";
    case kDataRangeError: return "data range error";
    case kDataLengthError: return "data length error";
    case kDataLimitError: return "data limit error";
    case kAccessError: return "access error";
  }
  return "unknown error number";
}

const char* errorText(uint8_t number) {
  switch (number) {
    case 0: return "no error";
    case kResultFail:
      return "result fail: the servo could not carry out the instruction (for example a Clear while it moves); "
             "stop it and try again";
    case kInstructionError:
      return "instruction error: the servo does not know this instruction, or an Action came without a Reg Write "
             "(check the servo's protocol version and firmware)";
    case kCrcError:
      return "CRC error: the servo received our packet damaged; check wiring, termination and baud rate, then resend";
    case kDataRangeError:
      return "data range error: the value written is outside the item's minimum/maximum; nothing was written";
    case kDataLengthError:
      return "data length error: fewer bytes were written than the item holds (e.g. 2 bytes to a 4-byte item)";
    case kDataLimitError:
      return "data limit error: the value written is outside the limit configured in the servo (e.g. a goal position "
             "outside its position limits); nothing was written";
    case kAccessError:
      return "access error: the address is read-only, write-only or undefined, or an EEPROM item was written while "
             "torque is on (turn torque off first)";
  }
  return "unknown error number: not defined by Protocol 2.0";
}

const char* alertText() {
  return "hardware alert: the servo reports a hardware fault (overload, overheating, input voltage, encoder or "
         "electrical shock) and has turned its torque off; read its Hardware Error Status (address 70 on X series), "
         "remove the cause and reboot the servo to clear it";
}

uint16_t crc16(const uint8_t* data, size_t n, uint16_t crc) {
  for (size_t i = 0; i < n; ++i) {
    crc ^= static_cast<uint16_t>(data[i]) << 8;
    for (int k = 0; k < 8; ++k) crc = (crc & 0x8000) ? static_cast<uint16_t>((crc << 1) ^ 0x8005) : static_cast<uint16_t>(crc << 1);
  }
  return crc;
}

size_t stuff(const uint8_t* in, size_t n, uint8_t* out, size_t cap) {
  size_t o = 0;
  for (size_t i = 0; i < n; ++i) {
    if (o >= cap) return 0;
    out[o++] = in[i];
    if (o >= 3 && out[o - 3] == 0xFF && out[o - 2] == 0xFF && out[o - 1] == 0xFD) {
      if (o >= cap) return 0;
      out[o++] = 0xFD;
    }
  }
  return o;
}

int unstuff(const uint8_t* in, size_t n, uint8_t* out, size_t cap) {
  size_t o = 0;
  for (size_t i = 0; i < n; ++i) {
    if (o >= cap) return -1;
    out[o++] = in[i];
    if (i >= 2 && in[i - 2] == 0xFF && in[i - 1] == 0xFF && in[i] == 0xFD) {
      if (i + 1 >= n || in[i + 1] != 0xFD) return -1;
      ++i;  // the stuffing byte
    }
  }
  return static_cast<int>(o);
}

size_t buildInstruction(uint8_t id, uint8_t instruction, const uint8_t* params, size_t n, uint8_t* out, size_t cap,
                        Error* err) {
  PacketWriter w(out, cap);
  w.begin(id, false);
  w.put(instruction);
  w.putAll(params, n);
  return w.finish(err);
}

size_t ping(uint8_t id, uint8_t* out, size_t cap, Error* err) { return buildInstruction(id, kPing, nullptr, 0, out, cap, err); }
size_t action(uint8_t id, uint8_t* out, size_t cap, Error* err) { return buildInstruction(id, kAction, nullptr, 0, out, cap, err); }
size_t reboot(uint8_t id, uint8_t* out, size_t cap, Error* err) { return buildInstruction(id, kReboot, nullptr, 0, out, cap, err); }

size_t read(uint8_t id, uint16_t address, uint16_t length, uint8_t* out, size_t cap, Error* err) {
  uint8_t len[2] = {static_cast<uint8_t>(length & 0xFF), static_cast<uint8_t>(length >> 8)};
  return addressed(id, kRead, address, len, 2, out, cap, err);
}
size_t write(uint8_t id, uint16_t address, const uint8_t* data, size_t n, uint8_t* out, size_t cap, Error* err) {
  return addressed(id, kWrite, address, data, n, out, cap, err);
}
size_t regWrite(uint8_t id, uint16_t address, const uint8_t* data, size_t n, uint8_t* out, size_t cap, Error* err) {
  return addressed(id, kRegWrite, address, data, n, out, cap, err);
}

size_t syncRead(uint16_t address, uint16_t length, const uint8_t* ids, size_t count, uint8_t* out, size_t cap, Error* err) {
  PacketWriter w(out, cap);
  w.begin(kBroadcastId, false);
  if (need(w, ids && count > 0 && length > 0)) {
    w.put(kSyncRead);
    w.put16(address);
    w.put16(length);
    for (size_t i = 0; i < count; ++i) {
      if (ids[i] > kMaxId) w.fail(Error::BadId);
      w.put(ids[i]);
    }
  }
  return w.finish(err);
}

size_t syncWrite(uint16_t address, uint16_t length, const uint8_t* ids, const uint8_t* data, size_t count, uint8_t* out,
                 size_t cap, Error* err) {
  PacketWriter w(out, cap);
  w.begin(kBroadcastId, false);
  if (need(w, ids && data && count > 0 && length > 0)) {
    w.put(kSyncWrite);
    w.put16(address);
    w.put16(length);
    for (size_t i = 0; i < count; ++i) {
      if (ids[i] > kMaxId) w.fail(Error::BadId);
      w.put(ids[i]);
      w.putAll(data + i * length, length);
    }
  }
  return w.finish(err);
}

size_t bulkRead(const uint8_t* ids, const uint16_t* addresses, const uint16_t* lengths, size_t count, uint8_t* out,
                size_t cap, Error* err) {
  PacketWriter w(out, cap);
  w.begin(kBroadcastId, false);
  if (need(w, ids && addresses && lengths && count > 0)) {
    w.put(kBulkRead);
    for (size_t i = 0; i < count; ++i) {
      if (ids[i] > kMaxId) w.fail(Error::BadId);
      if (lengths[i] == 0) w.fail(Error::BadArgument);
      w.put(ids[i]);
      w.put16(addresses[i]);
      w.put16(lengths[i]);
    }
  }
  return w.finish(err);
}

size_t bulkWrite(const uint8_t* ids, const uint16_t* addresses, const uint16_t* lengths, const uint8_t* data,
                 size_t count, uint8_t* out, size_t cap, Error* err) {
  PacketWriter w(out, cap);
  w.begin(kBroadcastId, false);
  if (need(w, ids && addresses && lengths && data && count > 0)) {
    w.put(kBulkWrite);
    size_t at = 0;
    for (size_t i = 0; i < count; ++i) {
      if (ids[i] > kMaxId) w.fail(Error::BadId);
      if (lengths[i] == 0) w.fail(Error::BadArgument);
      w.put(ids[i]);
      w.put16(addresses[i]);
      w.put16(lengths[i]);
      for (size_t k = 0; k < lengths[i]; ++k) w.put(data[at++]);
    }
  }
  return w.finish(err);
}

size_t status(uint8_t id, uint8_t error, const uint8_t* params, size_t n, uint8_t* out, size_t cap, Error* err) {
  PacketWriter w(out, cap);
  w.begin(id, true);
  w.put(kStatus);
  w.put(error);
  w.putAll(params, n);
  return w.finish(err);
}

Event StatusDecoder::step(uint8_t b) {
  if (!append(b)) return resync();  // unreachable: the length check below keeps whole packets within raw_
  const int n = raw_len_;
  if (n <= 4) return b == kHeader[n - 1] ? Event::None : resync();
  if (n == 5) return b <= kMaxId ? Event::None : resync();  // no status comes from 0xFD..0xFF: a false header
  if (n < kHeaderSize) return Event::None;
  const int len = raw_[5] | (raw_[6] << 8);
  if (n == kHeaderSize) {
    if (len < 3) return fail(Error::BadLength);  // INST and CRC at least (a status packet also has ERR: below)
    if (kHeaderSize + len > kMaxRaw) return fail(Error::BadLength);
    return Event::None;
  }
  if (n < kHeaderSize + len) return Event::None;
  // complete: CRC over everything before it, as received (stuffed)
  const uint16_t got = static_cast<uint16_t>(raw_[n - 2] | (raw_[n - 1] << 8));
  if (crc16(raw_, static_cast<size_t>(n - 2)) != got) return fail(Error::ChecksumMismatch);
  const int m = unstuff(raw_ + kHeaderSize, static_cast<size_t>(len - 2), body_ + 1, sizeof body_ - 1);
  if (m < 0) return fail(Error::BadStuffing);
  if (body_[1] != kStatus) return reject(Error::NotStatus);
  if (m < 2) return fail(Error::BadLength);  // a status packet without its ERR byte
  // body_ = id, err, params: the unstuffed region was written from body_[1] (INST, ERR, params); shift out INST
  body_[kBodyId] = raw_[4];
  body_[kBodyErr] = body_[2];
  moveBytes(body_ + kBodyParams, body_ + 3, static_cast<size_t>(m - 2));
  params_len_ = m - 2;
  last_len_ = n;
  return accept();
}

}  // namespace dxl
}  // namespace servo
}  // namespace bridge
}  // namespace achain
