// Feetech SCS/STS bus-servo protocol codec (Feetech "SCS communication protocol" manual, republished by the
// distributor Juxi Tech at https://wiki.juxitech.com/en/tutorials/accessories/feetech/Feetech-SCS_Communication_Protocol.html):
// instruction packet builders and a streaming status decoder.
//
// Packet:  FF FF | ID | LEN | INST (or ERR in a reply) | PARAM … | CHECKSUM
//   - LEN = parameters + 2; CHECKSUM = ~(ID + LEN + INST + PARAM…) & 0xFF. No byte stuffing.
//   - IDs 0-253; 254 (0xFE) is broadcast (no reply except to PING).
//   - 2-byte control-table values: little-endian on STS/SMS (magnetic encoder, e.g. STS3215), big-endian on
//     SCS (potentiometer, e.g. SCS0009, SCS15): see put16/get16 in servo_common.hpp.
//   - SYNC READ (0x82) exists on the STS/SMS series only ("available for some serial bus servos").
//   - Reply ERR bits (status byte): Feetech STS memory table, section 3.2 "Servo Status"
//     (https://wiki.juxitech.com/en/tutorials/accessories/feetech/Feetech-Magnetic_Encoder_STS_Servo-Memory_Table_Analysis.html)
//     and Feetech's SCServo SDK (scservo_sdk/protocol_packet_handler.py ERRBIT_VOLTAGE = 1, ERRBIT_ANGLE = 2,
//     ERRBIT_OVERHEAT = 4, ERRBIT_OVERELE = 8, ERRBIT_OVERLOAD = 32; the SDK that lerobot's Feetech bus uses).
//
// Builders write into the caller's buffer and return the packet's length (0 on failure, with *err set
// when given). Portable C++17 subset: no heap, no exceptions, no RTTI (servo_common.hpp).
#pragma once
#include "servo/servo_common.hpp"

namespace achain {
namespace bridge {
namespace servo {
namespace feetech {

constexpr uint8_t kBroadcastId = 0xFE;
constexpr uint8_t kMaxId = 0xFD;
constexpr int kMaxRaw = 4 + 255;  // FF FF ID LEN + LEN bytes (the length is one byte)
constexpr int kMaxParams = 255 - 2;

enum Instruction : uint8_t {
  kPing = 0x01,
  kRead = 0x02,
  kWrite = 0x03,
  kRegWrite = 0x04,
  kAction = 0x05,
  kSyncRead = 0x82,
  kSyncWrite = 0x83,
};

/// Status (ERR) bits of a reply.
enum StatusBit : uint8_t {
  kVoltage = 0x01,      // input voltage outside the configured limits
  kAngleSensor = 0x02,  // angle sensor (magnetic encoder on STS) fault
  kOverheat = 0x04,     // temperature above the limit
  kOvercurrent = 0x08,  // current above the limit ("OverEle" in the SDK)
  kOverload = 0x20,     // load above the limit for too long: torque released
};
constexpr uint8_t kKnownStatusBits = kVoltage | kAngleSensor | kOverheat | kOvercurrent | kOverload;
/// Short name of one status bit ("voltage" …), "unknown status bit" for bits the manual does not define.
const char* statusBitName(uint8_t bit);
/// What one status bit means for a user and what to do.
const char* statusBitText(uint8_t bit);

/// ~(sum) & 0xFF of n bytes (ID … last parameter).
uint8_t checksum(const uint8_t* data, size_t n);

// ---- instruction packets ----
size_t buildInstruction(uint8_t id, uint8_t instruction, const uint8_t* params, size_t n, uint8_t* out, size_t cap,
                        Error* err = nullptr);
size_t ping(uint8_t id, uint8_t* out, size_t cap, Error* err = nullptr);
size_t read(uint8_t id, uint8_t address, uint8_t length, uint8_t* out, size_t cap, Error* err = nullptr);
size_t write(uint8_t id, uint8_t address, const uint8_t* data, size_t n, uint8_t* out, size_t cap, Error* err = nullptr);
size_t regWrite(uint8_t id, uint8_t address, const uint8_t* data, size_t n, uint8_t* out, size_t cap,
                Error* err = nullptr);
size_t action(uint8_t id, uint8_t* out, size_t cap, Error* err = nullptr);
/// SYNC WRITE (broadcast): data holds count × length bytes, servo i's at data + i·length.
size_t syncWrite(uint8_t address, uint8_t length, const uint8_t* ids, const uint8_t* data, size_t count, uint8_t* out,
                 size_t cap, Error* err = nullptr);
/// SYNC READ (broadcast, STS/SMS series): `length` bytes at `address` from each servo, replies in ID order.
size_t syncRead(uint8_t address, uint8_t length, const uint8_t* ids, size_t count, uint8_t* out, size_t cap,
                Error* err = nullptr);
/// A reply packet (what a servo sends; for simulated buses and round-trip tests).
size_t status(uint8_t id, uint8_t error, const uint8_t* params, size_t n, uint8_t* out, size_t cap,
              Error* err = nullptr);

/// Byte-at-a-time reply decoder with fixed buffers: finds FF FF in any byte stream, checks the length and the
/// checksum, and hands out ID, status byte and parameters. A damaged packet is reported (error()) and its
/// bytes after the first searched again. Safe on any input (fuzzed).
///
/// Feetech instruction and reply packets share one layout, so an adapter's echo of our own packet decodes as
/// a reply from that ID: the bus host must discard its echo by length before feeding replies.
class StatusDecoder : public StreamDecoder<StatusDecoder, kMaxRaw> {
 public:
  /// Valid after a Packet event (and until the next feed/next).
  uint8_t id() const { return raw_[2]; }
  uint8_t errorByte() const { return raw_[4]; }
  const uint8_t* params() const { return raw_ + 5; }
  int paramCount() const { return raw_[3] - 2; }
  const uint8_t* rawPacket() const { return raw_; }
  int rawLength() const { return 4 + raw_[3]; }

  Event step(uint8_t b);  // the protocol's state machine (StreamDecoder calls it)
  static constexpr int kHeaderBytes = 3;  // FF FF ID: less is a fragment that a timeout drops silently
};

}  // namespace feetech
}  // namespace servo
}  // namespace bridge
}  // namespace achain
