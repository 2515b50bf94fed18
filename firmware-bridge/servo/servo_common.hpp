// Shared pieces of the servo-bus codecs (dynamixel.hpp, feetech.hpp): error codes with their user-facing text,
// 16-bit values in either byte order, sign-magnitude numbers, and the byte queue behind both streaming status
// decoders (resynchronisation after a damaged packet replays its bytes after the first through the decoder,
// so a real header hidden inside garbage is still found).
//
// Portable C++17 subset as protocol/protocol.hpp: no heap, no exceptions, no RTTI; runs on an MCU as is.
#pragma once
#include <stddef.h>
#include <stdint.h>
#include <string.h>

namespace achain {
namespace bridge {
namespace servo {

/// What went wrong in a builder or a decoder (one set for both protocols); text() names it for a user.
enum class Error : uint8_t {
  None = 0,
  BufferTooSmall,    // builder: the caller's output buffer cannot hold the packet
  BadArgument,       // builder: zero servos, zero data length, or no data where data is needed
  TooManyParams,     // builder: the packet would overflow the protocol's length field
  BadId,             // builder: an ID the protocol does not allow
  BadLength,         // decoder: a length field too short for a status packet or longer than the decoder's buffer
  ChecksumMismatch,  // decoder: CRC-16 (Dynamixel) or checksum (Feetech) does not match: damaged on the wire
  BadStuffing,       // decoder (Dynamixel): FF FF FD inside the packet not followed by the stuffing byte FD
  NotStatus,         // decoder (Dynamixel): a valid instruction packet, not a status packet (our own echo?)
  Truncated,         // decoder: the line went quiet in the middle of a packet (timeout() was called)
};
constexpr int kErrorCount = 10;

inline const char* text(Error e) {
  switch (e) {
    case Error::None: return "no error";
    case Error::BufferTooSmall: return "the output buffer is too small for this packet";
    case Error::BadArgument: return "no servos, a zero data length, or missing data for a multi-servo packet";
    case Error::TooManyParams: return "the packet would exceed the protocol's length field: send fewer servos or bytes per packet";
    case Error::BadId: return "servo ID out of range (Dynamixel 0-252, Feetech 0-253; 254 is broadcast)";
    case Error::BadLength:
      return "a received length field is impossible (too short for a status packet, or longer than the decoder's buffer): "
             "noise, a baud-rate mismatch or another device on the bus; the bytes were searched again for a packet";
    case Error::ChecksumMismatch:
      return "checksum/CRC mismatch: a reply was damaged on the wire (noise, loose wiring, missing termination, baud rate "
             "at its limit); the packet was dropped, ask again";
    case Error::BadStuffing:
      return "broken byte stuffing (FF FF FD inside a packet without the stuffing FD): the packet was dropped";
    case Error::NotStatus:
      return "an instruction packet where a status packet was expected: most likely the echo of our own transmission "
             "on a half-duplex adapter that does not suppress it";
    case Error::Truncated:
      return "the line went quiet in the middle of a reply: the servo's packet was cut short (timeout, collision, "
             "unplugged cable or power loss)";
  }
  return "unknown error";
}

/// memmove for the overlapping copies of the decoders (the MCU shims, mcu/board_m4/include, have memcpy only).
inline void moveBytes(uint8_t* dst, const uint8_t* src, size_t n) {
  if (dst < src)
    for (size_t i = 0; i < n; ++i) dst[i] = src[i];
  else
    for (size_t i = n; i > 0; --i) dst[i - 1] = src[i - 1];
}

/// What one step of a status decoder produced.
enum class Event : uint8_t { None = 0, Packet = 1, Error = 2 };

// ---- 16-bit values: Dynamixel and Feetech STS (magnetic encoder) are little-endian, Feetech SCS
// (potentiometer, e.g. SCS0009, SCS15) big-endian (Feetech SCS protocol manual, section 1) ----
enum class Endian : uint8_t { Little = 0, Big = 1 };
inline void put16(uint8_t* p, uint16_t v, Endian e) {
  const uint8_t lo = static_cast<uint8_t>(v & 0xFF), hi = static_cast<uint8_t>(v >> 8);
  p[0] = e == Endian::Little ? lo : hi;
  p[1] = e == Endian::Little ? hi : lo;
}
inline uint16_t get16(const uint8_t* p, Endian e) {
  return e == Endian::Little ? static_cast<uint16_t>(p[0] | (p[1] << 8)) : static_cast<uint16_t>((p[0] << 8) | p[1]);
}
/// Feetech STS signed values (goal position, speed, load …) are sign-magnitude: bit `sign_bit` is the sign.
/// Magnitudes that do not fit below the sign bit are clamped.
inline uint16_t toSignMagnitude(int32_t v, int sign_bit) {
  const int32_t max = (1 << sign_bit) - 1;
  const int32_t m = v < 0 ? (-v > max ? max : -v) : (v > max ? max : v);
  return static_cast<uint16_t>(v < 0 ? (m | (1 << sign_bit)) : m);
}
inline int32_t fromSignMagnitude(uint16_t raw, int sign_bit) {
  const int32_t m = raw & ((1 << sign_bit) - 1);
  return (raw >> sign_bit) & 1 ? -m : m;
}

/// The byte queue and packet buffer of a streaming decoder. Derived (CRTP) names kHeaderBytes (header and ID)
/// and implements `Event step(uint8_t b)`: it appends b to raw_ and calls resync() on a header mismatch (silently),
/// fail(e) on a damaged packet (reported, bytes after the first replayed) or reject(e) on a well-formed
/// packet that is not wanted (reported, nothing replayed).
template <class Derived, int kRaw>
class StreamDecoder {
 public:
  /// Feeds one received byte; returns Packet or Error when one completes (then read the decoder).
  Event feed(uint8_t b) {
    if (qlen_ < kQueue) q_[qlen_++] = b;  // always true (see replay's bound); kept for memory safety
    return next();
  }
  /// Processes bytes still queued after an event (a replay after a damaged packet can hold a whole
  /// packet): call until it returns None before waiting for more input.
  Event next() {
    while (qpos_ < qlen_) {
      const Event e = static_cast<Derived*>(this)->step(q_[qpos_++]);
      if (e != Event::None) return e;
    }
    qpos_ = qlen_ = 0;
    return Event::None;
  }
  /// The line went quiet (the caller's read timeout): a packet whose header and ID were read but not its end
  /// is reported as Truncated, and its bytes after the first are searched again (a reply hidden behind a false
  /// header); a mere header fragment is dropped silently (None). Call until midPacket() is false.
  Event timeout() {
    if (raw_len_ == 0) return next();
    if (raw_len_ < Derived::kHeaderBytes) {
      raw_len_ = 0;
      return next();
    }
    return fail(Error::Truncated);
  }
  /// After an Error event: what was wrong.
  Error error() const { return error_; }
  /// True while bytes of an unfinished packet are held.
  bool midPacket() const { return raw_len_ > 0 || qpos_ < qlen_; }
  void reset() { raw_len_ = qpos_ = qlen_ = 0; error_ = Error::None; }

 protected:
  static constexpr int kQueue = kRaw + 8;
  /// Appends b to the packet buffer; false (and a silent restart) if it cannot hold it.
  bool append(uint8_t b) {
    if (raw_len_ >= kRaw) return false;
    raw_[raw_len_++] = b;
    return true;
  }
  Event resync() {
    replay();
    return Event::None;
  }
  Event fail(Error e) {
    error_ = e;
    replay();
    return Event::Error;
  }
  Event reject(Error e) {
    error_ = e;
    raw_len_ = 0;
    return Event::Error;
  }
  Event accept() {
    error_ = Error::None;
    raw_len_ = 0;
    return Event::Packet;
  }
  uint8_t raw_[kRaw];
  int raw_len_ = 0;

 private:
  /// Puts raw_[1..raw_len_) in front of the unread queue. Bound: every byte is either in raw_ or queued,
  /// raw_len_ <= kRaw, and each event consumes at least one byte, so the queue never exceeds kRaw + 1.
  void replay() {
    const int keep = raw_len_ > 1 ? raw_len_ - 1 : 0;
    const int rest = qlen_ - qpos_;
    const int n = keep + rest <= kQueue ? keep : kQueue - rest;  // never false in practice
    moveBytes(q_ + n, q_ + qpos_, static_cast<size_t>(rest));
    if (n > 0) memcpy(q_, raw_ + 1, static_cast<size_t>(n));
    qpos_ = 0;
    qlen_ = n + rest;
    raw_len_ = 0;
  }
  uint8_t q_[kQueue];
  int qpos_ = 0, qlen_ = 0;
  Error error_ = Error::None;
};

}  // namespace servo
}  // namespace bridge
}  // namespace achain
