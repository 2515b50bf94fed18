// The servo-bus host (firmware-bridge/host/servo_host.hpp) against the simulated Dynamixel and Feetech buses
// (firmware-bridge/sim/servo_bus_sim.hpp), in-process: scan, calibration file, a trapezoid streamed at 100 Hz,
// the rate limit, e-stop latency, bus errors (CRC/checksum, missing reply, overload, input voltage) with their
// messages and safe state, goals outside the limits refused before a byte is written, and the bytes and wire
// time of one streaming period for 6 servos at 1 Mbit/s, and no heap allocation by the host while it streams.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

#include <achain/io/model_json.hpp>
#include <achain/math/types.hpp>

#include "host/servo_host.hpp"
#include "servo/feetech.hpp"
#include "sim/servo_bus_sim.hpp"
// the one source of achain_tests_bridge that counts heap allocations (it interposes malloc)
#include "../core/alloc_counter.hpp"

namespace servo_host_test {

using namespace achain::bridge;

/// A host wired to a simulated bus, advanced in steps of dt µs (bus first, then the host, as a port loop would).
struct BusRig {
  VirtualServoBus bus;
  ServoHost host;
  uint64_t t = 0;
  uint64_t dt = 20;
  size_t bytes_written = 0;
  BusRig(ServoProtocol p, ServoHostOptions o = ServoHostOptions()) : bus(p), host(p, o) {}
  void tick() {
    t += dt;
    bus.advance(static_cast<double>(t));
    uint8_t buf[4096];
    size_t n = bus.read(buf, sizeof buf);
    if (n) host.receive(buf, n, t);
    host.update(t);
    bus.setPortBaud(host.baud());
    n = host.takeOutput(buf, sizeof buf);
    if (n) bus.write(buf, n);
    bytes_written += n;
  }
  void run(double seconds) {
    const uint64_t end = t + static_cast<uint64_t>(seconds * 1e6);
    while (t < end) tick();
  }
  /// Runs until the host has nothing left to do (at most `limit` s), then 5 ms more for its last bytes to
  /// cross the wire; false if it was still busy.
  bool settle(double limit = 1.0) {
    const uint64_t end = t + static_cast<uint64_t>(limit * 1e6);
    while (t < end) {
      tick();
      if (!host.busy()) {
        run(0.005);
        return true;
      }
    }
    return false;
  }
};

constexpr int kDxlModels[6] = {kModelXM430W350, kModelXM430W350, kModelXM430W350, kModelXL430W250, kModelXL430W250,
                               kModelXL330M288};

/// Six servos, IDs 1-6, at 1 Mbit/s, starting at different positions.
void addSix(VirtualServoBus& bus, uint8_t return_delay = 0) {
  for (int i = 0; i < 6; ++i) {
    SimServoParams s;
    s.id = static_cast<uint8_t>(i + 1);
    s.model = bus.protocol() == ServoProtocol::Dynamixel ? static_cast<uint16_t>(kDxlModels[i]) : kModelSTS3215;
    s.return_delay = return_delay;
    s.start_position = 1800 + 100 * i;
    s.voltage = bus.protocol() == ServoProtocol::Dynamixel ? 12.0 : 7.4;
    REQUIRE(bus.addServo(s));
  }
}

/// A joint map for addSix's servos: mixed directions and zero offsets, ±1.5 rad, 3 rad/s.
ServoCalibration sixJoints(ServoProtocol p) {
  ServoCalibration c;
  c.protocol = p;
  c.baud = 1000000;
  const char* names[6] = {"base", "shoulder", "elbow", "wrist_pitch", "wrist_roll", "gripper"};
  for (int i = 0; i < 6; ++i) {
    ServoJoint j;
    j.name = names[i];
    j.id = i + 1;
    j.direction = i % 2 ? -1 : 1;
    j.zero_offset = 2048 + 10 * i;
    j.min = -1.5;
    j.max = 1.5;
    j.max_velocity = 3.0;
    c.joints.push_back(j);
  }
  return c;
}

/// Connects, turns torque on and starts streaming; the rig's bus holds addSix's servos.
void startStream(BusRig& r, ServoProtocol p) {
  r.host.connect(sixJoints(p));
  REQUIRE(r.settle());
  REQUIRE(r.host.ready());
  r.host.enableTorque(true);
  REQUIRE(r.settle());
  REQUIRE(r.host.error() == "");
  for (int i = 0; i < 6; ++i) REQUIRE(r.bus.torqueOn(i));
  REQUIRE(r.host.startStreaming(r.t) == "");
}

const char* protocolName(ServoProtocol p) { return p == ServoProtocol::Dynamixel ? "dynamixel" : "feetech"; }


TEST_CASE("servo host: a scan finds the servos at their baud rate with their model numbers, nothing at another", "[servo][host]") {
  for (ServoProtocol p : {ServoProtocol::Dynamixel, ServoProtocol::Feetech}) {
    INFO(protocolName(p));
    BusRig r(p);
    addSix(r.bus);
    SimServoParams odd;  // one more servo, alone at 57600 baud
    odd.id = 9;
    odd.model = p == ServoProtocol::Dynamixel ? kModelXL330M288 : kModelSTS3215;
    odd.baud = 57600;
    REQUIRE(r.bus.addServo(odd));
    r.host.scan({1, 2, 3, 4, 5, 6, 7, 8, 9}, {115200, 57600, 1000000});
    REQUIRE(r.settle(2.0));
    const auto& f = r.host.found();
    REQUIRE(f.size() == 7);
    CHECK(f[0].baud == 57600);
    CHECK(f[0].id == 9);
    CHECK(f[0].model == odd.model);
    for (int i = 0; i < 6; ++i) {
      CHECK(f[static_cast<size_t>(i + 1)].baud == 1000000);
      CHECK(f[static_cast<size_t>(i + 1)].id == i + 1);
      CHECK(f[static_cast<size_t>(i + 1)].model == (p == ServoProtocol::Dynamixel ? kDxlModels[i] : kModelSTS3215));
    }
    CHECK(r.host.error() == "");  // a scan's silent IDs are not errors
  }
}

TEST_CASE("servo host: the calibration file round-trips through JSON, a wrong entry names the joint, the model narrows the limits", "[servo][host]") {
  ServoCalibration c = sixJoints(ServoProtocol::Feetech);
  c.joints[2].zero_offset = 1234;
  c.joints[3].min = -0.25;
  const std::string text = servoCalibrationToJson(c);
  const ServoCalibration back = servoCalibrationFromJson(text);
  CHECK(back.protocol == ServoProtocol::Feetech);
  CHECK(back.baud == 1000000);
  REQUIRE(back.joints.size() == 6);
  for (size_t i = 0; i < 6; ++i) {
    CHECK(back.joints[i].name == c.joints[i].name);
    CHECK(back.joints[i].id == c.joints[i].id);
    CHECK(back.joints[i].direction == c.joints[i].direction);
    CHECK(back.joints[i].zero_offset == c.joints[i].zero_offset);
    CHECK(back.joints[i].counts_per_turn == 4096);
    CHECK(back.joints[i].min == c.joints[i].min);
    CHECK(back.joints[i].max == c.joints[i].max);
    CHECK(back.joints[i].max_velocity == c.joints[i].max_velocity);
  }
  CHECK(servoCalibrationToJson(back) == text);
  std::string bad = text;
  bad.replace(bad.find("\"direction\": -1"), 15, "\"direction\": 2");
  CHECK_THROWS_WITH(servoCalibrationFromJson(bad), Catch::Contains("joint 'shoulder'") && Catch::Contains("direction"));
  std::string baud = text;
  baud.replace(baud.find("1000000"), 7, "1000001");
  CHECK_THROWS_WITH(servoCalibrationFromJson(baud), Catch::Contains("baud 1000001"));
  // integers are checked as numbers before they become integers (an id of 1e20 was cast to int: undefined behaviour,
  // and in wasm "id -2147483648 is out of range")
  auto with = [&](const char* from, size_t n, const char* to) {
    std::string t = text;
    t.replace(t.find(from), n, to);
    return t;
  };
  CHECK_THROWS_WITH(servoCalibrationFromJson(with("\"id\": 1", 7, "\"id\": 1e20")),
                    "servo calibration: joint 'base' \"id\" 1e+20 is not a whole number in 0…253");
  CHECK_THROWS_WITH(servoCalibrationFromJson(with("\"id\": 1", 7, "\"id\": 1.5")), Catch::Contains("\"id\" 1.5 is not a whole number"));
  CHECK_THROWS_WITH(servoCalibrationFromJson(with("\"zero_offset\": 2048", 19, "\"zero_offset\": 1e10")),
                    Catch::Contains("\"zero_offset\" 10000000000 is not a whole number in -1000000000…1000000000"));
  CHECK_THROWS_WITH(servoCalibrationFromJson(with("1000000", 7, "1e300")), Catch::Contains("\"baud\" 1e+300 is not a whole number"));
  CHECK_THROWS_WITH(servoCalibrationFromJson(with("\"counts_per_turn\": 4096", 23, "\"counts_per_turn\": -4096")),
                    Catch::Contains("\"counts_per_turn\" -4096 is not a whole number in 1…16777216"));
  // the model's limits narrow the calibration's (joint i drives coordinate i)
  const achain::Model m = achain::modelFromJsonString(R"({"schema_version": 1, "name": "two", "joints": [
    {"kind": "R", "a": 0, "d": 0, "alpha": 0, "limits": {"lower": -2, "upper": 1, "velocity": 5}},
    {"kind": "R", "a": 0.1, "d": 0, "alpha": 0, "limits": {"velocity": 1.25}}]})");
  ServoCalibration two = c;
  two.joints.resize(2);
  narrowToModel(two, m);
  CHECK(two.joints[0].min == -1.5);  // the calibration's, tighter
  CHECK(two.joints[0].max == 1.0);   // the model's, tighter
  CHECK(two.joints[0].max_velocity == 3.0);
  CHECK(two.joints[1].min == -1.5);
  CHECK(two.joints[1].max == 1.5);
  CHECK(two.joints[1].max_velocity == 1.25);
  CHECK_THROWS_WITH(narrowToModel(c, m), Catch::Contains("6 joints, but robot 'two' has 2 coordinates"));
  // joint angle ↔ counts: 2048 + 10·2 at zero, a quarter turn = 1024 counts, direction -1 reverses
  CHECK(jointToCounts(c.joints[1], 0.0) == 2058);
  CHECK(jointToCounts(c.joints[1], M_PI / 2) == 2058 - 1024);
  CHECK(countsToJoint(c.joints[1], 2058 - 1024) == Approx(M_PI / 2));
}

TEST_CASE("servo host: a joint-space trapezoid streamed at 100 Hz ends within one count on every servo", "[servo][host]") {
  for (ServoProtocol p : {ServoProtocol::Dynamixel, ServoProtocol::Feetech}) {
    INFO(protocolName(p));
    BusRig r(p);
    addSix(r.bus);
    startStream(r, p);
    const ServoCalibration cal = sixJoints(p);
    std::vector<double> q0, q1;
    for (const auto& f : r.host.feedback()) q0.push_back(f.position);
    for (int i = 0; i < 6; ++i) q1.push_back(-1.2 + 0.45 * i + 0.0123);
    // trapezoid in s ∈ [0, 1] over T = 2 s, accelerating for T/4: peak speed |Δq| / (0.75 T) ≤ 1.8 rad/s < 3 rad/s
    const double T = 2.0, Ta = T / 4, vs = 1.0 / (T - Ta);
    auto s = [&](double t) {
      if (t <= 0) return 0.0;
      if (t >= T) return 1.0;
      if (t < Ta) return 0.5 * vs / Ta * t * t;
      if (t <= T - Ta) return 0.5 * vs * Ta + vs * (t - Ta);
      return 1.0 - 0.5 * vs / Ta * (T - t) * (T - t);
    };
    const uint64_t t0 = r.t;
    const uint64_t periods0 = r.host.periods();
    for (int k = 0; k <= 200; ++k) {
      std::vector<double> q(6);
      for (size_t j = 0; j < 6; ++j) q[j] = q0[j] + (q1[j] - q0[j]) * s(k * 0.01);
      REQUIRE(r.host.setTarget(q) == "");
      while (r.t < t0 + static_cast<uint64_t>((k + 1) * 10000)) r.tick();
    }
    r.run(0.5);
    CHECK(r.host.error() == "");
    CHECK(r.host.overruns() == 0);
    CHECK(r.host.periods() - periods0 == Approx(250).margin(2));  // 2.51 s at 100 Hz
    for (int i = 0; i < 6; ++i) {
      const int32_t want = jointToCounts(cal.joints[static_cast<size_t>(i)], q1[static_cast<size_t>(i)]);
      INFO("servo ID " << i + 1 << " goal " << want << " counts, at " << r.bus.position(i));
      CHECK(r.bus.goal(i) == want);
      CHECK(std::fabs(r.bus.position(i) - want) <= 1.0);
      CHECK(std::abs(r.host.feedback()[static_cast<size_t>(i)].counts - want) <= 1);
    }
  }
}

TEST_CASE("servo host: the stream moves no goal faster than the joint's velocity limit", "[servo][host]") {
  BusRig r(ServoProtocol::Dynamixel);
  addSix(r.bus);
  startStream(r, ServoProtocol::Dynamixel);
  r.run(0.05);
  std::vector<int32_t> prev = r.host.lastGoals();  // the goals streamed so far: where the servos are
  REQUIRE(prev.size() == 6);
  std::vector<double> far(6, 1.4);
  REQUIRE(r.host.setTarget(far) == "");
  // 3 rad/s × 10 ms = 0.03 rad = 19.6 counts per period at most
  const double max_step = 3.0 * 0.01 / (2 * M_PI) * 4096;
  double worst = 0;
  uint64_t seen = r.host.periods();
  for (int k = 0; k < 150000 && r.host.periods() < seen + 150; ++k) {
    r.tick();
    if (r.host.lastGoals().size() == 6 && r.host.periods() != seen) {
      seen = r.host.periods();
      for (size_t j = 0; j < 6; ++j) worst = std::max(worst, std::fabs(double(r.host.lastGoals()[j] - prev[j])));
      prev = r.host.lastGoals();
    }
  }
  WARN("rate limit: largest goal step between two periods " << worst << " counts (limit " << max_step << ")");
  CHECK(worst <= std::ceil(max_step));
  CHECK(worst >= std::floor(max_step));  // it did run at the limit
  // and it got there: joint 'base' (direction +1, zero 2058 - 10) at 1.4 rad = 2048 + 913 counts
  CHECK(r.host.lastGoals()[0] == 2048 + 913);
}

TEST_CASE("servo host: e-stop reaches the bus within one period (torque off, or goals held)", "[servo][host]") {
  for (EstopAction a : {EstopAction::TorqueOff, EstopAction::Hold}) {
    const bool off = a == EstopAction::TorqueOff;
    INFO((off ? "torque off" : "hold"));
    BusRig r(ServoProtocol::Feetech);
    addSix(r.bus);
    r.host.setEstopAction(a);
    startStream(r, ServoProtocol::Feetech);
    std::vector<double> far(6, 1.4);
    REQUIRE(r.host.setTarget(far) == "");
    r.run(0.2537);  // moving, at some point inside a period
    const uint64_t te = r.t;
    r.host.estop(te);
    const uint32_t writes = r.bus.syncWrites();
    r.run(0.01);
    CHECK_FALSE(r.host.streaming());
    const double at = r.bus.lastSyncWriteAt(off ? 40 : 42);  // Torque Enable or Goal Position
    REQUIRE(at >= 0);
    const double latency = at - static_cast<double>(te);
    WARN("e-stop (" << (off ? "torque off" : "hold") << ") on the bus " << latency << " µs after estop()");
    CHECK(latency > 0);
    CHECK(latency <= 10000);
    CHECK(r.bus.syncWrites() == writes + 1);  // just the e-stop packet
    std::vector<double> at_stop;
    for (int i = 0; i < 6; ++i) {
      CHECK(r.bus.torqueOn(i) == !off);
      at_stop.push_back(r.bus.position(i));
    }
    r.run(0.3);
    CHECK(r.bus.syncWrites() == writes + 1);  // nothing streamed after it
    for (int i = 0; i < 6; ++i) {
      // held: the goal is the servo's last reported position, so it stops within a few counts of it
      if (!off) CHECK(std::fabs(r.bus.position(i) - at_stop[static_cast<size_t>(i)]) < 60);
      if (off) CHECK(r.bus.position(i) == at_stop[static_cast<size_t>(i)]);
    }
  }
}

TEST_CASE("servo host: a CRC error, a missing reply and an overload each give a clear message and the safe state", "[servo][host]") {
  struct Fault {
    const char* what;
    ServoProtocol p;
    EstopAction a;
    std::function<void(VirtualServoBus&)> inject;
    std::vector<const char*> message;
  };
  const std::vector<Fault> faults = {
      {"dynamixel CRC", ServoProtocol::Dynamixel, EstopAction::TorqueOff, [](VirtualServoBus& b) { b.injectCorruptReplies(3, 1); },
       {"servo ID 3: its reply failed the CRC-16 check", "check the cable and connectors of servo ID 3", "torque turned off"}},
      {"feetech checksum", ServoProtocol::Feetech, EstopAction::Hold, [](VirtualServoBus& b) { b.injectCorruptReplies(5, 1); },
       {"servo ID 5: its reply failed the checksum check", "holds its last present position"}},
      {"dynamixel missing reply", ServoProtocol::Dynamixel, EstopAction::Hold, [](VirtualServoBus& b) { b.injectSilence(4, -1); },
       {"servo ID 4 did not reply to the sync read of its present state", "is powered and its cable plugged in",
        "holds its last present position"}},
      {"feetech missing reply", ServoProtocol::Feetech, EstopAction::TorqueOff, [](VirtualServoBus& b) { b.injectSilence(6, 1); },
       {"servo ID 6 did not reply", "torque turned off"}},
      {"dynamixel overload", ServoProtocol::Dynamixel, EstopAction::TorqueOff,
       [](VirtualServoBus& b) { b.injectHardwareError(2, kDxlOverload); },
       {"servo ID 2 reports a hardware error, overload", "Hardware Error Status 0x20", "reboot the servo", "torque turned off"}},
      {"feetech overload", ServoProtocol::Feetech, EstopAction::TorqueOff,
       [](VirtualServoBus& b) { b.injectHardwareError(2, achain::bridge::servo::feetech::kOverload); },
       {"servo ID 2 reports overload", "free the joint", "torque turned off"}},
      {"feetech input voltage", ServoProtocol::Feetech, EstopAction::Hold,
       [](VirtualServoBus& b) { b.injectHardwareError(1, achain::bridge::servo::feetech::kVoltage); },
       {"servo ID 1 reports input voltage error", "check the supply", "holds its last present position"}},
      // (input voltage alone is not in the X series' initial Shutdown set: it raises no alert, see the docs)
      {"dynamixel input voltage with overload", ServoProtocol::Dynamixel, EstopAction::TorqueOff,
       [](VirtualServoBus& b) { b.injectHardwareError(1, kDxlInputVoltage | kDxlOverload); },
       {"servo ID 1 reports a hardware error, input voltage error", "overload", "torque turned off"}},
  };
  for (const Fault& f : faults) {
    INFO(f.what);
    ServoHostOptions o;
    o.estop_action = f.a;
    BusRig r(f.p, o);
    addSix(r.bus);
    startStream(r, f.p);
    std::vector<double> q(6, 0.5);
    REQUIRE(r.host.setTarget(q) == "");
    r.run(0.1);
    REQUIRE(r.host.streaming());
    f.inject(r.bus);
    r.run(0.05);  // the error shows within a period; the safe state follows at once
    INFO(r.host.error());
    for (const char* m : f.message) CHECK_THAT(r.host.error(), Catch::Contains(m));
    CHECK_FALSE(r.host.streaming());
    const uint32_t writes = r.bus.syncWrites();
    std::vector<int32_t> goals;
    for (int i = 0; i < 6; ++i) goals.push_back(r.bus.goal(i));
    r.run(0.2);
    CHECK(r.bus.syncWrites() == writes);  // nothing more after the safe state
    for (int i = 0; i < 6; ++i) {
      CHECK(r.bus.goal(i) == goals[static_cast<size_t>(i)]);
      if (f.a == EstopAction::TorqueOff) CHECK_FALSE(r.bus.torqueOn(i));
    }
    if (f.a == EstopAction::Hold)  // held: every servo (that kept its torque) stays at its goal
      for (int i = 0; i < 6; ++i)
        if (r.bus.torqueOn(i)) CHECK(std::fabs(r.bus.position(i) - r.bus.goal(i)) <= 1.0);
  }
}

TEST_CASE("servo host: a goal outside the joint's or the servo's limits is refused before a byte is written", "[servo][host]") {
  BusRig r(ServoProtocol::Dynamixel);
  addSix(r.bus);
  // servo ID 2's own position limits are narrower than its joint's calibrated range
  const uint8_t lim[8] = {0xB8, 0x0B, 0, 0, 0xE8, 0x03, 0, 0};  // Max 3000 (48), Min 1000 (52)
  uint8_t pkt[64];
  const size_t n = achain::bridge::servo::dxl::write(2, 48, lim, 8, pkt, sizeof pkt);
  r.bus.write(pkt, n);
  r.run(0.01);
  uint8_t sink[64];
  r.bus.read(sink, sizeof sink);
  r.host.connect(sixJoints(ServoProtocol::Dynamixel));
  REQUIRE(r.settle());
  // no stream before the present positions are known (it would start from a stale command)
  CHECK(r.host.startStreaming(r.t) ==
        "joint 'base' (servo ID 1): its present position was never read: enableTorque(true) first");
  r.host.enableTorque(true);
  REQUIRE(r.settle());
  const size_t before = r.bytes_written;
  const uint32_t instr = r.bus.instructions();
  std::vector<double> q(6, 0.1);
  q[4] = 1.6;  // wrist_roll: max 1.5 rad
  CHECK(r.host.setTarget(q) ==
        "joint 'wrist_roll' (servo ID 5): goal 1.6000 rad is above its maximum 1.5000 rad (calibration); refused, nothing was sent");
  q[4] = 0.1;
  q[1] = -1.4;  // shoulder, direction -1: 2058 + 1.4/2π·4096 = 2971 counts … inside; +1.4 rad → 1145 … inside; -1.49 → 3029: outside
  q[1] = -1.49;
  CHECK(r.host.setTarget(q) ==
        "joint 'shoulder' (servo ID 2): goal -1.4900 rad = 3029 counts is outside the servo's own position limits 1000 .. 3000 "
        "counts (read from the servo); refused, nothing was sent");
  q[1] = std::nan("");
  CHECK_THAT(r.host.setTarget(q), Catch::Contains("joint 'shoulder'") && Catch::Contains("not a number"));
  CHECK_THAT(r.host.setTarget({0.1, 0.1}), Catch::Contains("needs 6 joint values, got 2"));
  r.run(0.1);
  CHECK(r.bytes_written == before);  // not streaming and nothing refused reached the port
  CHECK(r.bus.instructions() == instr);
  // while streaming, a refused goal leaves the stream on its last accepted target
  REQUIRE(r.host.startStreaming(r.t) == "");
  q[1] = 0.2;
  REQUIRE(r.host.setTarget(q) == "");
  r.run(0.3);
  const std::vector<int32_t> held = r.host.lastGoals();
  q[0] = -1.6;
  CHECK(r.host.setTarget(q) != "");
  r.run(0.3);
  CHECK(r.host.lastGoals() == held);
  CHECK(r.host.error() == "");
}

TEST_CASE("servo host: one streaming period (one sync write + one sync read, 6 servos) fits 100 Hz at 1 Mbit/s", "[servo][host]") {
  // bytes: Dynamixel sync write of Goal Position (4 bytes each) 14 + 6·5 = 44; sync read of 126…146 (21 bytes)
  // 14 + 6 = 20; each status 11 + 21 = 32. Feetech sync write of Goal Position (2 bytes) 8 + 6·3 = 26; sync read
  // of 56…63 (8 bytes) 8 + 6 = 14; each reply 6 + 8 = 14.
  struct Case {
    ServoProtocol p;
    uint8_t return_delay;  // register value, × 2 µs
    size_t out, in;
  };
  const Case cases[] = {{ServoProtocol::Dynamixel, 0, 64, 192},
                        {ServoProtocol::Dynamixel, 250, 64, 192},  // the X series' factory return delay: 500 µs
                        {ServoProtocol::Feetech, 0, 40, 84}};
  for (const Case& c : cases) {
    INFO(protocolName(c.p) << ", return delay " << 2 * c.return_delay << " µs");
    ServoHostOptions o;
    BusRig r(c.p, o);
    r.dt = 5;
    addSix(r.bus, c.return_delay);
    startStream(r, c.p);
    r.run(0.2);
    const ServoPeriodStats s = r.host.lastPeriod();
    CHECK(s.bytes_out == c.out);
    CHECK(s.bytes_in == c.in);
    const double wire_us = (s.bytes_out + s.bytes_in) * 10.0 + 6 * 2.0 * c.return_delay;  // 10 bits a byte at 1 Mbit/s
    const double measured_us = static_cast<double>(s.ended_us - s.started_us);
    std::printf("servo bus %s, 6 servos, 1 Mbit/s, return delay %d us: %zu bytes out + %zu in = %zu bytes per period; "
                "wire time %.0f us (computed), %.0f us (measured on the simulated bus) of a 10000 us period: max rate %.0f Hz\n",
                protocolName(c.p), 2 * c.return_delay, s.bytes_out, s.bytes_in, s.bytes_out + s.bytes_in, wire_us,
                measured_us, 1e6 / measured_us);
    CHECK(measured_us >= wire_us);
    CHECK(measured_us <= wire_us + 2 * r.dt);
    CHECK(measured_us < 10000);  // ≥ 100 Hz fits
    CHECK(r.host.overruns() == 0);
  }
}

TEST_CASE("servo host: streaming allocates nothing (sync write + sync read every period, new targets each period)", "[servo][host]") {
  for (ServoProtocol p : {ServoProtocol::Dynamixel, ServoProtocol::Feetech})
  for (bool echo : {false, true}) {  // an adapter that echoes: every byte read back, checked and discarded
    INFO(protocolName(p) << (echo ? ", adapter echoes" : ""));
    ServoHostOptions o;
    o.echo = echo;
    BusRig r(p, o);
    r.bus.setEcho(echo);
    addSix(r.bus);
    startStream(r, p);
    r.run(0.1);  // the first periods size the goal and packet buffers
    std::vector<double> q(6);
    for (size_t j = 0; j < 6; ++j) q[j] = r.host.feedback()[j].position;
    const uint64_t periods0 = r.host.periods();
    long allocations = 0;
    uint8_t buf[4096];
    for (int step = 0; step < 50000; ++step) {  // 1 s of 20 µs ticks, the host's calls counted, the simulated bus's not
      r.t += r.dt;
      r.bus.advance(static_cast<double>(r.t));
      const size_t n_in = r.bus.read(buf, sizeof buf);
      size_t n_out = 0;
      bool accepted = true;
      if (step % 500 == 0)
        for (size_t j = 0; j < 6; ++j) q[j] += (j % 2 ? 1e-3 : -1e-3);
      allocations += achain::test::allocationsOf([&] {
        if (step % 500 == 0) accepted = r.host.setTarget(q).empty();
        if (n_in) r.host.receive(buf, n_in, r.t);
        r.host.update(r.t);
        n_out = r.host.takeOutput(buf, sizeof buf);
      });
      REQUIRE(accepted);
      if (n_out) r.bus.write(buf, n_out);
    }
    CHECK(r.host.error() == "");
    CHECK(r.host.periods() - periods0 == Approx(100).margin(2));
    CHECK(r.host.overruns() == 0);
    CHECK(allocations == 0);
  }
}

}  // namespace servo_host_test
