// The simulated servo buses (firmware-bridge/sim/servo_bus_sim.hpp) on their own: replies byte for byte (built
// and decoded by the codecs of servo/), the wire timing (10 bits a byte, return delay, sync-read turns), the
// baud rate, the control tables' limits and access rules, the servo model, and the injected faults.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "servo/dynamixel.hpp"
#include "servo/feetech.hpp"
#include "servo_test_support.hpp"
#include "sim/servo_bus_sim.hpp"

namespace servo_sim_test {

using namespace achain::bridge;
namespace sv = achain::bridge::servo;
using servo_test::bytes;
using servo_test::decodeAll;
using servo_test::hex;

/// Writes a packet at the bus's current time and collects the reply bytes with their arrival times (µs).
struct Exchange {
  std::vector<uint8_t> reply;
  std::vector<double> at;
};
Exchange transact(VirtualServoBus& bus, const std::vector<uint8_t>& pkt, double wait_us = 5000, double dt = 1) {
  Exchange e;
  bus.write(pkt.data(), pkt.size());
  const double end = bus.now() + wait_us;
  while (bus.now() < end) {
    bus.step(dt);
    uint8_t b[512];
    const size_t n = bus.read(b, sizeof b);
    for (size_t k = 0; k < n; ++k) {
      e.reply.push_back(b[k]);
      e.at.push_back(bus.now());
    }
  }
  return e;
}
template <class F>
std::vector<uint8_t> packet(F&& build) {
  uint8_t out[512];
  const size_t n = build(out, sizeof out);
  return std::vector<uint8_t>(out, out + n);
}

SimServoParams servoAt(uint8_t id, uint16_t model, uint8_t return_delay = 0) {
  SimServoParams s;
  s.id = id;
  s.model = model;
  s.return_delay = return_delay;
  return s;
}

TEST_CASE("servo sim: a Dynamixel ping is answered with the model number after the return delay, 10 µs a byte", "[servo][sim]") {
  VirtualServoBus bus(ServoProtocol::Dynamixel);
  REQUIRE(bus.addServo(servoAt(1, kModelXM430W350, 5)));  // 10 µs return delay
  const auto ping = packet([](uint8_t* o, size_t c) { return sv::dxl::ping(1, o, c); });
  REQUIRE(ping.size() == 10);
  const Exchange e = transact(bus, ping);
  // model 1020 = 0x03FC, firmware 48 (0x30): FF FF FD 00 01 07 00 55 00 FC 03 30 CRC CRC
  const auto want = packet([](uint8_t* o, size_t c) {
    const uint8_t p[3] = {0xFC, 0x03, 0x30};
    return sv::dxl::status(1, 0, p, 3, o, c);
  });
  CHECK(hex(e.reply) == hex(want));
  REQUIRE(e.at.size() == 14);
  // the ping's last byte arrives at 100 µs, the reply starts 10 µs later and each byte takes 10 µs
  CHECK(e.at.front() == Approx(100 + 10 + 10));
  CHECK(e.at.back() == Approx(100 + 10 + 140));
}

TEST_CASE("servo sim: a servo at another baud rate never answers", "[servo][sim]") {
  VirtualServoBus bus(ServoProtocol::Feetech);
  SimServoParams s = servoAt(3, kModelSTS3215);
  s.baud = 115200;
  REQUIRE(bus.addServo(s));
  const auto ping = packet([](uint8_t* o, size_t c) { return sv::feetech::ping(3, o, c); });
  bus.setPortBaud(1000000);
  CHECK(transact(bus, ping).reply.empty());
  bus.setPortBaud(115200);
  const Exchange e = transact(bus, ping, 10000);
  CHECK(hex(e.reply) == "FF FF 03 02 00 FA");
  REQUIRE(e.at.size() == 6);
  CHECK(e.at.back() - e.at.front() == Approx(5 * 10e6 / 115200).margin(1));
}

TEST_CASE("servo sim: sync read replies come in the listed order, one after the other", "[servo][sim]") {
  VirtualServoBus bus(ServoProtocol::Dynamixel);
  for (uint8_t id : {1, 2, 3}) REQUIRE(bus.addServo(servoAt(id, kModelXL430W250, 2)));  // 4 µs return delay
  const uint8_t ids[] = {3, 1, 2};
  const auto rd = packet([&](uint8_t* o, size_t c) { return sv::dxl::syncRead(132, 4, ids, 3, o, c); });
  const Exchange e = transact(bus, rd);
  sv::dxl::StatusDecoder d;
  const auto r = decodeAll(d, e.reply);
  REQUIRE(r.size() == 3);
  CHECK(r[0].id == 3);
  CHECK(r[1].id == 1);
  CHECK(r[2].id == 2);
  CHECK(r[1].params == "00 08 00 00");  // Present Position 2048
  // 17 instruction bytes, then 3 × (4 µs delay + 15 bytes)
  CHECK(e.at.back() == Approx(17 * 10 + 3 * (4 + 150)));
}

TEST_CASE("servo sim: Dynamixel limits and access rules, a Feetech goal is clamped", "[servo][sim]") {
  VirtualServoBus bus(ServoProtocol::Dynamixel);
  SimServoParams s = servoAt(1, kModelXM430W350);
  s.min_limit = 1000;
  s.max_limit = 3000;
  REQUIRE(bus.addServo(s));
  auto writeStatus = [&](uint16_t address, std::vector<uint8_t> data) {
    sv::dxl::StatusDecoder d;
    const auto r = decodeAll(d, transact(bus, packet([&](uint8_t* o, size_t c) {
                                           return sv::dxl::write(1, address, data.data(), data.size(), o, c);
                                         })).reply);
    REQUIRE(r.size() == 1);
    return r[0].error_byte;
  };
  CHECK(writeStatus(116, {0xB9, 0x0B, 0, 0}) == sv::dxl::kDataLimitError);  // 3001 > Max Position Limit
  CHECK(bus.goal(0) == 2048);
  CHECK(writeStatus(116, {0xB8, 0x0B, 0, 0}) == 0);  // 3000
  CHECK(bus.goal(0) == 3000);
  CHECK(writeStatus(132, {0, 0, 0, 0}) == sv::dxl::kAccessError);  // Present Position is read-only
  CHECK(writeStatus(64, {1}) == 0);
  CHECK(writeStatus(48, {0xFF, 0x0F, 0, 0}) == sv::dxl::kAccessError);  // EEPROM with torque on
  // with torque on, the servo tracks the goal: speed-capped (3000 counts/s), then first order (20 ms)
  const double p0 = bus.position(0);
  bus.step(10000);
  CHECK(bus.position(0) - p0 == Approx(3000 * 0.01).margin(0.5));
  bus.step(500000);
  CHECK(bus.position(0) == Approx(3000).margin(0.01));

  VirtualServoBus ft(ServoProtocol::Feetech);
  SimServoParams f = servoAt(2, kModelSTS3215);
  f.min_limit = 500;
  f.max_limit = 3500;
  REQUIRE(ft.addServo(f));
  const uint8_t goal[2] = {0xA0, 0x0F};  // 4000
  const Exchange e = transact(ft, packet([&](uint8_t* o, size_t c) { return sv::feetech::write(2, 42, goal, 2, o, c); }));
  CHECK(hex(e.reply) == "FF FF 02 02 00 FB");
  CHECK(ft.goal(0) == 3500);
}

TEST_CASE("servo sim: injected faults: a damaged reply, a missing reply, hardware error bits", "[servo][sim]") {
  VirtualServoBus bus(ServoProtocol::Feetech);
  REQUIRE(bus.addServo(servoAt(1, kModelSTS3215)));
  const auto ping = packet([](uint8_t* o, size_t c) { return sv::feetech::ping(1, o, c); });
  bus.injectCorruptReplies(1, 1);
  sv::feetech::StatusDecoder d;
  auto r = decodeAll(d, transact(bus, ping).reply);
  REQUIRE(r.size() == 1);
  CHECK(r[0].error == sv::Error::ChecksumMismatch);
  auto damaged = ping;
  damaged.back() ^= 0x01;  // our own instruction damaged on the wire: the servo drops it and stays silent
  CHECK(transact(bus, damaged).reply.empty());
  CHECK(bus.badInstructions() == 1);
  bus.injectSilence(1, 2);
  CHECK(transact(bus, ping).reply.empty());
  CHECK(transact(bus, ping).reply.empty());
  CHECK(hex(transact(bus, ping).reply) == "FF FF 01 02 00 FC");  // answers again
  const uint8_t on = 1;
  transact(bus, packet([&](uint8_t* o, size_t c) { return sv::feetech::write(1, 40, &on, 1, o, c); }));
  REQUIRE(bus.torqueOn(0));
  bus.injectHardwareError(1, sv::feetech::kVoltage);
  CHECK(bus.torqueOn(0));  // a voltage error is only reported
  CHECK(hex(transact(bus, ping).reply) == "FF FF 01 02 01 FB");
  bus.injectHardwareError(1, sv::feetech::kOverload);
  CHECK_FALSE(bus.torqueOn(0));  // overload releases torque
  CHECK(hex(transact(bus, ping).reply) == "FF FF 01 02 20 DC");

  VirtualServoBus dx(ServoProtocol::Dynamixel);
  REQUIRE(dx.addServo(servoAt(1, kModelXL330M288)));
  dx.injectHardwareError(1, kDxlInputVoltage);  // not in the initial Shutdown (52): no alert
  const auto dping = packet([](uint8_t* o, size_t c) { return sv::dxl::ping(1, o, c); });
  sv::dxl::StatusDecoder dd;
  r = decodeAll(dd, transact(dx, dping).reply);
  REQUIRE(r.size() == 1);
  CHECK(r[0].error_byte == 0);
  dx.injectHardwareError(1, kDxlOverload);
  r = decodeAll(dd, transact(dx, dping).reply);
  REQUIRE(r.size() == 1);
  CHECK(r[0].error_byte == 0x80);
  CHECK(r[0].params == "B0 04 30");  // XL330-M288: model 1200
  CHECK(dx.reg8(0, 70) == kDxlOverload);
}

}  // namespace servo_sim_test
