// Helpers of the servo-bus codec tests (test_bridge_servo_dynamixel.cpp, test_bridge_servo_feetech.cpp):
// packets written as the vendors print them ("FF FF FD 00 …"), and a decoder driven over a byte stream.
#pragma once
#include <catch2/catch.hpp>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "servo/servo_common.hpp"

namespace servo_test {

using achain::bridge::servo::Error;
using achain::bridge::servo::Event;

/// "FF FF FD 00 01" → bytes.
inline std::vector<uint8_t> bytes(const std::string& spaced_hex) {
  std::istringstream in(spaced_hex);
  std::vector<uint8_t> v;
  std::string b;
  while (in >> b) v.push_back(static_cast<uint8_t>(std::stoi(b, nullptr, 16)));
  return v;
}
/// Bytes → "FF FF FD 00 01" (the vendors' notation, so a failing CHECK shows both sides alike).
inline std::string hex(const uint8_t* p, size_t n) {
  static const char* k = "0123456789ABCDEF";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    if (i) s += ' ';
    s += k[p[i] >> 4];
    s += k[p[i] & 15];
  }
  return s;
}
inline std::string hex(const std::vector<uint8_t>& v) { return hex(v.data(), v.size()); }

/// What a decoder reported: a packet (id, error byte, parameters) or an error.
struct Decoded {
  Event event = Event::None;
  Error error = Error::None;
  int id = -1;
  int error_byte = -1;
  std::string params;  // hex
};

/// Feeds every byte (draining next() after each event); with `quiet_at_end`, then calls timeout() as a
/// caller would when the line goes quiet, until no packet is half-read (the bytes replayed after a truncated
/// false header can begin another one).
template <class Decoder>
std::vector<Decoded> decodeAll(Decoder& d, const std::vector<uint8_t>& in, bool quiet_at_end = false) {
  std::vector<Decoded> out;
  auto record = [&](Event e) {
    while (e != Event::None) {
      Decoded r;
      r.event = e;
      if (e == Event::Packet) {
        r.id = d.id();
        r.error_byte = d.errorByte();
        r.params = hex(d.params(), static_cast<size_t>(d.paramCount()));
      } else {
        r.error = d.error();
      }
      out.push_back(r);
      e = d.next();
    }
  };
  for (uint8_t b : in) record(d.feed(b));
  if (quiet_at_end)
    while (d.midPacket()) record(d.timeout());
  return out;
}

/// Runs a builder (out, cap, err) into a roomy buffer: the packet as "FF FF …", or "error: <text>".
template <class F>
std::string built(F&& build) {
  uint8_t out[512];
  Error err = Error::None;
  const size_t n = build(out, sizeof out, &err);
  if (n == 0) return std::string("error: ") + achain::bridge::servo::text(err);
  return hex(out, n);
}

/// A status packet as a vendor prints it, with where it is printed.
struct VendorStatus {
  const char* source;
  const char* packet;
  int id;
  const char* params;
};
/// Each printed status packet through a fresh Decoder gives exactly one packet (the ID, error byte 0, the
/// printed parameters), and the codec's status builder re-encodes it to the printed bytes.
template <class Decoder, class StatusBuild>
void checkVendorStatus(const std::vector<VendorStatus>& cases, StatusBuild status) {
  for (const VendorStatus& c : cases) {
    INFO(c.source);
    Decoder d;
    const auto r = decodeAll(d, bytes(c.packet));
    REQUIRE(r.size() == 1);
    REQUIRE(r[0].event == Event::Packet);
    CHECK(r[0].id == c.id);
    CHECK(r[0].error_byte == 0);
    CHECK(r[0].params == c.params);
    const auto p = bytes(c.params);
    CHECK(built([&](uint8_t* o, size_t n, Error* e) { return status(static_cast<uint8_t>(c.id), 0, p.data(), p.size(), o, n, e); }) ==
          c.packet);
  }
}

inline std::vector<uint8_t> concat(std::initializer_list<std::vector<uint8_t>> parts) {
  std::vector<uint8_t> v;
  for (const auto& p : parts) v.insert(v.end(), p.begin(), p.end());
  return v;
}

}  // namespace servo_test
