// DYNAMIXEL Protocol 2.0 codec (ROBOTIS e-Manual, https://emanual.robotis.com/docs/en/dxl/protocol2/ and
// https://emanual.robotis.com/docs/en/dxl/crc/): instruction packet builders and a streaming status decoder.
//
// Packet:  FF FF FD 00 | ID | LEN_L LEN_H | INST | PARAM … | CRC_L CRC_H
//   - LEN counts INST, the (stuffed) parameters and the CRC: parameters + 3.
//   - Status packets have INST 0x55 followed by the ERR byte (bit 7 alert, bits 0-6 error number 1-7).
//   - Byte stuffing over INST … last PARAM (ERR included): every FF FF FD gets an extra FD; LEN and CRC are
//     computed over the stuffed bytes.
//   - CRC-16: polynomial 0x8005, initial value 0, no reflection (the e-Manual's update_crc), over every byte
//     from the header to the last parameter.
//   - IDs 0-252; 254 (0xFE) is broadcast. Multi-byte values are little-endian.
//
// Builders write into the caller's buffer and return the packet's length (0 on failure, with *err set
// when given). Portable C++17 subset: no heap, no exceptions, no RTTI (servo_common.hpp).
#pragma once
#include "servo/servo_common.hpp"

namespace achain {
namespace bridge {
namespace servo {
namespace dxl {

constexpr uint8_t kBroadcastId = 0xFE;
constexpr uint8_t kMaxId = 0xFC;
constexpr int kHeaderSize = 7;        // FF FF FD 00 ID LEN_L LEN_H
constexpr int kMaxRaw = 384;          // the status decoder's packet buffer (header … CRC, stuffed)
constexpr int kMaxStatusParams = kMaxRaw - kHeaderSize - 4;  // INST, ERR, CRC×2

enum Instruction : uint8_t {
  kPing = 0x01,
  kRead = 0x02,
  kWrite = 0x03,
  kRegWrite = 0x04,
  kAction = 0x05,
  kFactoryReset = 0x06,
  kReboot = 0x08,
  kClear = 0x10,
  kStatus = 0x55,
  kSyncRead = 0x82,
  kSyncWrite = 0x83,
  kBulkRead = 0x92,
  kBulkWrite = 0x93,
};

constexpr uint8_t kAlertBit = 0x80;
/// The error number in a status packet's ERR byte (bits 0-6).
enum ErrorNumber : uint8_t {
  kResultFail = 1,
  kInstructionError = 2,
  kCrcError = 3,
  kDataRangeError = 4,
  kDataLengthError = 5,
  kDataLimitError = 6,
  kAccessError = 7,
};
/// Short name of an error number ("result fail" … "access error"), "unknown error number" outside 1-7, "none" for 0.
const char* errorName(uint8_t number);
/// What an error number means for a user and what to do (e-Manual, Status Packet / Error).
const char* errorText(uint8_t number);
/// What the alert bit means and what to do.
const char* alertText();

/// CRC-16 of Protocol 2.0 (poly 0x8005, init 0; CRC-16/UMTS, check value 0xFEE8 on "123456789").
uint16_t crc16(const uint8_t* data, size_t n, uint16_t crc = 0);
/// Byte stuffing of n bytes (one INST … PARAM region): returns the stuffed length, or 0 if cap is too small
/// (n == 0 gives 0 too).
size_t stuff(const uint8_t* in, size_t n, uint8_t* out, size_t cap);
/// Removes byte stuffing; returns the length, or -1 when an FF FF FD lacks its stuffing FD or cap is too small.
int unstuff(const uint8_t* in, size_t n, uint8_t* out, size_t cap);

// ---- instruction packets ----
/// Any instruction packet from its unstuffed parameters.
size_t buildInstruction(uint8_t id, uint8_t instruction, const uint8_t* params, size_t n, uint8_t* out, size_t cap,
                        Error* err = nullptr);
size_t ping(uint8_t id, uint8_t* out, size_t cap, Error* err = nullptr);
size_t read(uint8_t id, uint16_t address, uint16_t length, uint8_t* out, size_t cap, Error* err = nullptr);
size_t write(uint8_t id, uint16_t address, const uint8_t* data, size_t n, uint8_t* out, size_t cap, Error* err = nullptr);
size_t regWrite(uint8_t id, uint16_t address, const uint8_t* data, size_t n, uint8_t* out, size_t cap,
                Error* err = nullptr);
size_t action(uint8_t id, uint8_t* out, size_t cap, Error* err = nullptr);
size_t reboot(uint8_t id, uint8_t* out, size_t cap, Error* err = nullptr);
/// Sync read (broadcast): the same `length` bytes at `address` from each of `count` servos; each replies in turn.
size_t syncRead(uint16_t address, uint16_t length, const uint8_t* ids, size_t count, uint8_t* out, size_t cap,
                Error* err = nullptr);
/// Sync write (broadcast): data holds count × length bytes, servo i's at data + i·length.
size_t syncWrite(uint16_t address, uint16_t length, const uint8_t* ids, const uint8_t* data, size_t count, uint8_t* out,
                 size_t cap, Error* err = nullptr);
/// Bulk read (broadcast): servo i's lengths[i] bytes at addresses[i].
size_t bulkRead(const uint8_t* ids, const uint16_t* addresses, const uint16_t* lengths, size_t count, uint8_t* out,
                size_t cap, Error* err = nullptr);
/// Bulk write (broadcast): servo i's lengths[i] bytes at addresses[i], the data concatenated in servo order.
size_t bulkWrite(const uint8_t* ids, const uint16_t* addresses, const uint16_t* lengths, const uint8_t* data,
                 size_t count, uint8_t* out, size_t cap, Error* err = nullptr);
/// A status packet (what a servo sends; for simulated buses and round-trip tests).
size_t status(uint8_t id, uint8_t error, const uint8_t* params, size_t n, uint8_t* out, size_t cap,
              Error* err = nullptr);

/// Byte-at-a-time status-packet decoder with fixed buffers: finds the header in any byte stream, checks the
/// length, the CRC and the stuffing, and hands out ID, ERR and the unstuffed parameters. A damaged packet is
/// reported (error()) and its bytes after the first are searched again. Safe on any input (fuzzed).
class StatusDecoder : public StreamDecoder<StatusDecoder, kMaxRaw> {
 public:
  /// Valid after a Packet event.
  uint8_t id() const { return body_[kBodyId]; }
  uint8_t errorByte() const { return body_[kBodyErr]; }
  bool alert() const { return (errorByte() & kAlertBit) != 0; }
  uint8_t errorNumber() const { return errorByte() & 0x7F; }
  const uint8_t* params() const { return body_ + kBodyParams; }
  int paramCount() const { return params_len_; }
  /// The packet as received (stuffed, with header and CRC): valid after a Packet event until the next feed/next.
  const uint8_t* rawPacket() const { return raw_; }
  int rawLength() const { return last_len_; }

  Event step(uint8_t b);  // the protocol's state machine (StreamDecoder calls it)
  static constexpr int kHeaderBytes = 5;  // FF FF FD 00 ID: less is a fragment that a timeout drops silently

 private:
  static constexpr int kBodyId = 0, kBodyErr = 1, kBodyParams = 2;
  uint8_t body_[kMaxRaw];  // id, err, unstuffed params
  int params_len_ = 0;
  int last_len_ = 0;
};

}  // namespace dxl
}  // namespace servo
}  // namespace bridge
}  // namespace achain
