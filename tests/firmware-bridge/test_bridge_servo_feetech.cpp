// Feetech SCS/STS codec (firmware-bridge/servo/feetech.hpp) against the packets printed in Feetech's SCS
// communication protocol manual, as republished by the distributor Juxi Tech: "Steering Gear SCS Communication
// Protocol", https://wiki.juxitech.com/en/tutorials/accessories/feetech/Feetech-SCS_Communication_Protocol.html
// (section "4 Instruction Types"; each packet below names its example). Then the byte orders, the decoder's
// resynchronisation, checksum errors, truncated packets and the status bits' texts.
#include <catch2/catch.hpp>
#include <algorithm>
#include <random>

#include "servo/feetech.hpp"
#include "servo_test_support.hpp"

namespace sv = achain::bridge::servo;
namespace feetech = sv::feetech;
using servo_test::built;
using servo_test::bytes;
using servo_test::concat;
using servo_test::decodeAll;
using servo_test::hex;

TEST_CASE("servo feetech: checksum = ~(ID + LEN + INST + params) & 0xFF", "[servo][feetech]") {
  // manual section 2 (Instruction Frame) and Example 1: FF FF 01 02 01 FB
  const auto body = bytes("01 02 01");
  CHECK(feetech::checksum(body.data(), body.size()) == 0xFB);
  // a sum above 255 keeps its lowest byte (Example 7's sync write sums to 0x5A7: checksum 0x58)
  const auto sync = bytes("FE 20 83 2A 06 01 00 08 00 00 E8 03 02 00 08 00 00 E8 03 03 00 08 00 00 E8 03 04 00 08 00 00 E8 03");
  CHECK(feetech::checksum(sync.data(), sync.size()) == 0x58);
}

TEST_CASE("servo feetech: instruction packets match the manual byte for byte", "[servo][feetech]") {
  using namespace sv::feetech;
  // 4.1 PING, Example 1: ID 1
  CHECK(built([](uint8_t* o, size_t c, sv::Error* e) { return ping(1, o, c, e); }) == "FF FF 01 02 01 FB");
  // 4.2 READ DATA, Example 2: present position of ID 1 (address 0x38, 2 bytes)
  CHECK(built([](uint8_t* o, size_t c, sv::Error* e) { return read(1, 0x38, 2, o, c, e); }) == "FF FF 01 04 02 38 02 BE");
  // 4.3 WRITE DATA, Example 3: broadcast, ID (address 5) := 1
  const uint8_t new_id[] = {0x01};
  CHECK(built([&](uint8_t* o, size_t c, sv::Error* e) { return write(kBroadcastId, 0x05, new_id, 1, o, c, e); }) ==
        "FF FF FE 04 03 05 01 F4");
  // 4.3 WRITE DATA, Example 4: ID 1 to position 2048 at speed 1000 (address 0x2A: position, reserved, speed; STS
  // little-endian)
  uint8_t goal[6];
  sv::put16(goal, 2048, sv::Endian::Little);
  sv::put16(goal + 2, 0, sv::Endian::Little);
  sv::put16(goal + 4, 1000, sv::Endian::Little);
  CHECK(hex(goal, 6) == "00 08 00 00 E8 03");
  CHECK(built([&](uint8_t* o, size_t c, sv::Error* e) { return write(1, 0x2A, goal, 6, o, c, e); }) ==
        "FF FF 01 09 03 2A 00 08 00 00 E8 03 D5");
  // 4.4 REG WRITE, Example 5: the same goal to ID 1 and ID 10, executed later by ACTION
  CHECK(built([&](uint8_t* o, size_t c, sv::Error* e) { return regWrite(1, 0x2A, goal, 6, o, c, e); }) ==
        "FF FF 01 09 04 2A 00 08 00 00 E8 03 D4");
  CHECK(built([&](uint8_t* o, size_t c, sv::Error* e) { return regWrite(10, 0x2A, goal, 6, o, c, e); }) ==
        "FF FF 0A 09 04 2A 00 08 00 00 E8 03 CB");
  // 4.5 ACTION, Example 6: broadcast
  CHECK(built([](uint8_t* o, size_t c, sv::Error* e) { return action(kBroadcastId, o, c, e); }) == "FF FF FE 02 05 FA");
  // 4.6 SYNC WRITE, Example 7: position 0x0800, time 0, speed 0x03E8 at 0x2A to ID 1…4
  const uint8_t ids[] = {1, 2, 3, 4};
  uint8_t goals[24];
  for (int i = 0; i < 4; ++i) std::copy(goal, goal + 6, goals + 6 * i);
  CHECK(built([&](uint8_t* o, size_t c, sv::Error* e) { return syncWrite(0x2A, 6, ids, goals, 4, o, c, e); }) ==
        "FF FF FE 20 83 2A 06 01 00 08 00 00 E8 03 02 00 08 00 00 E8 03 03 00 08 00 00 E8 03 04 00 08 00 00 E8 03 58");
  // 4.7 SYNC READ, Example 8: 8 bytes at 0x38 (position, speed, load, voltage, temperature) of ID 1 and ID 2
  CHECK(built([&](uint8_t* o, size_t c, sv::Error* e) { return syncRead(0x38, 8, ids, 2, o, c, e); }) ==
        "FF FF FE 06 82 38 08 01 02 36");
}

TEST_CASE("servo feetech: the manual's reply packets decode, and re-encode to the same bytes", "[servo][feetech]") {
  servo_test::checkVendorStatus<feetech::StatusDecoder>({
      {"4.1 PING, Example 1 (also 4.3 Example 4)", "FF FF 01 02 00 FC", 1, ""},
      {"4.2 READ DATA, Example 2: position 0x0518", "FF FF 01 04 00 18 05 DD", 1, "18 05"},
      {"4.4 REG WRITE, Example 5, ID 10", "FF FF 0A 02 00 F3", 10, ""},
      {"4.7 SYNC READ, Example 8, ID 1", "FF FF 01 0A 00 00 08 00 00 00 00 79 1E 55", 1, "00 08 00 00 00 00 79 1E"},
      {"4.7 SYNC READ, Example 8, ID 2", "FF FF 02 0A 00 FF 07 00 00 00 00 77 23 53", 2, "FF 07 00 00 00 00 77 23"},
  }, feetech::status);
  // Example 2 reads position 1304 (0x0518, little-endian on STS); Example 8: ID 1 at 2048, 12.1 V, 30 °C
  CHECK(sv::get16(bytes("18 05").data(), sv::Endian::Little) == 1304);
  const auto id1 = bytes("00 08 00 00 00 00 79 1E");
  CHECK(sv::get16(id1.data(), sv::Endian::Little) == 2048);
  CHECK(id1[6] == 121);  // voltage, 0.1 V
  CHECK(id1[7] == 30);   // temperature, °C
}

TEST_CASE("servo feetech: 2-byte values in both byte orders (STS little-endian, SCS big-endian), sign-magnitude",
          "[servo][feetech]") {
  uint8_t b[2];
  sv::put16(b, 1304, sv::Endian::Little);
  CHECK(hex(b, 2) == "18 05");
  sv::put16(b, 1304, sv::Endian::Big);  // SCS0009 and other potentiometer servos: high byte first (manual, section 1)
  CHECK(hex(b, 2) == "05 18");
  CHECK(sv::get16(b, sv::Endian::Big) == 1304);
  CHECK(sv::get16(b, sv::Endian::Little) == 0x1805);
  // an SCS goal-position write of 512 at 0x2A: big-endian data, same framing
  uint8_t pos[2];
  sv::put16(pos, 512, sv::Endian::Big);
  uint8_t out[16];
  const size_t n = feetech::write(1, 0x2A, pos, 2, out, sizeof out);
  CHECK(hex(out, n) == "FF FF 01 05 03 2A 02 00 CA");
  // STS signed values: sign-magnitude, sign in bit 15 (goal position, speed) or bit 10 (load)
  CHECK(sv::toSignMagnitude(-1000, 15) == 0x83E8);
  CHECK(sv::fromSignMagnitude(0x83E8, 15) == -1000);
  CHECK(sv::fromSignMagnitude(1000, 15) == 1000);
  CHECK(sv::toSignMagnitude(-5000, 10) == (1023 | 1024));  // clamped to the magnitude that fits
  for (int v = -32767; v <= 32767; v += 97) CHECK(sv::fromSignMagnitude(sv::toSignMagnitude(v, 15), 15) == v);
}

TEST_CASE("servo feetech: the decoder resynchronises after garbage", "[servo][feetech]") {
  const auto pos = bytes("FF FF 01 04 00 18 05 DD");
  const auto id2 = bytes("FF FF 02 0A 00 FF 07 00 00 00 00 77 23 53");
  // a lone FF, FF FF FF runs and a broadcast "reply" (never sent by a servo) before the replies
  const auto stream = concat({bytes("00 FF 10 FF FF FF FE 02 FF 00 FF FF"), pos, bytes("FF FF FF"), id2});
  feetech::StatusDecoder d;
  auto r = decodeAll(d, stream);
  REQUIRE(r.size() == 2);
  CHECK((r[0].event == sv::Event::Packet && r[0].id == 1 && r[0].params == "18 05"));
  CHECK((r[1].event == sv::Event::Packet && r[1].id == 2 && r[1].params == "FF 07 00 00 00 00 77 23"));

  // a false header whose LEN swallows a real reply: the checksum fails and the replay finds the reply
  feetech::StatusDecoder d2;
  r = decodeAll(d2, concat({bytes("FF FF 05 0C"), pos, bytes("01 02 03 04 05")}));
  REQUIRE(r.size() == 2);
  CHECK((r[0].event == sv::Event::Error && r[0].error == sv::Error::ChecksumMismatch));
  CHECK((r[1].event == sv::Event::Packet && r[1].id == 1 && r[1].params == "18 05"));

  std::mt19937 rng(11);
  for (int it = 0; it < 300; ++it) {
    std::vector<uint8_t> junk(rng() % 30);
    for (auto& b : junk) b = std::vector<uint8_t>{0xFF, 0x00, 0x02, static_cast<uint8_t>(rng())}[rng() % 4];
    feetech::StatusDecoder dr;
    const auto out = decodeAll(dr, concat({junk, id2}), true);
    int found = 0;
    for (const auto& x : out) found += x.event == sv::Event::Packet && x.id == 2 && x.params == "FF 07 00 00 00 00 77 23";
    CHECK(found == 1);
  }
}

TEST_CASE("servo feetech: damaged and short packets are reported as such", "[servo][feetech]") {
  const auto ok = bytes("FF FF 01 02 00 FC");
  SECTION("a checksum error") {
    auto bad = bytes("FF FF 01 04 00 18 05 DD");
    bad[5] = 0x19;
    feetech::StatusDecoder d;
    const auto r = decodeAll(d, concat({bad, ok}));
    REQUIRE(r.size() == 2);
    CHECK((r[0].event == sv::Event::Error && r[0].error == sv::Error::ChecksumMismatch));
    CHECK(std::string(sv::text(r[0].error)).find("checksum") != std::string::npos);
    CHECK((r[1].event == sv::Event::Packet && r[1].id == 1));
  }
  SECTION("a truncated packet, at a read timeout and followed by the next reply") {
    const auto cut = bytes("FF FF 02 0A 00 FF 07 00");
    feetech::StatusDecoder d;
    auto r = decodeAll(d, cut, true);
    REQUIRE(r.size() == 1);
    CHECK((r[0].event == sv::Event::Error && r[0].error == sv::Error::Truncated));
    CHECK_FALSE(d.midPacket());
    // a header fragment at the timeout (no ID yet) is dropped without a report
    CHECK(decodeAll(d, bytes("FF FF"), true).empty());
    CHECK_FALSE(d.midPacket());
    feetech::StatusDecoder d2;
    r = decodeAll(d2, concat({cut, ok, ok}));
    // the cut packet's LEN (10) swallows the first reply: a checksum error; the second comes through whole
    REQUIRE(r.size() >= 2);
    CHECK((r.front().event == sv::Event::Error && r.front().error == sv::Error::ChecksumMismatch));
    CHECK((r.back().event == sv::Event::Packet && r.back().id == 1));
  }
  SECTION("LEN below 2") {
    feetech::StatusDecoder d;
    const auto r = decodeAll(d, concat({bytes("FF FF 01 01"), ok}));
    REQUIRE(r.size() == 2);
    CHECK((r[0].event == sv::Event::Error && r[0].error == sv::Error::BadLength));
    CHECK(r[1].event == sv::Event::Packet);
  }
}

TEST_CASE("servo feetech: each status bit has its name and text", "[servo][feetech]") {
  // bits of Feetech's STS memory table (section 3.2 Servo Status) and the SCServo SDK's ERRBIT_* constants
  struct Bit {
    uint8_t bit;
    const char* name;
    const char* word;  // a word the text must contain
  };
  const Bit bits[] = {{0x01, "voltage", "voltage"},
                      {0x02, "angle sensor", "sensor"},
                      {0x04, "overheat", "cool"},
                      {0x08, "overcurrent", "current"},
                      {0x20, "overload", "torque"}};
  std::vector<std::string> texts;
  for (const Bit& b : bits) {
    INFO(b.name);
    CHECK(std::string(feetech::statusBitName(b.bit)) == b.name);
    const std::string t = feetech::statusBitText(b.bit);
    CHECK(t.find(b.word) != std::string::npos);
    texts.push_back(t);
    // a reply carrying the bit decodes with it
    uint8_t p[16];
    const size_t n = feetech::status(1, b.bit, nullptr, 0, p, sizeof p);
    feetech::StatusDecoder d;
    sv::Event e = sv::Event::None;
    for (size_t i = 0; i < n; ++i) e = d.feed(p[i]);
    REQUIRE(e == sv::Event::Packet);
    CHECK(d.errorByte() == b.bit);
  }
  std::sort(texts.begin(), texts.end());
  CHECK(std::unique(texts.begin(), texts.end()) == texts.end());
  CHECK(feetech::kKnownStatusBits == 0x2F);
  CHECK(std::string(feetech::statusBitName(0x10)) == "unknown status bit");
  CHECK(std::string(feetech::statusBitText(0x80)).find("unknown") == 0);
  // several states at once add up (the memory table's example: over-voltage and overheating = 4 + 1 = 5);
  // here overload + overheat
  uint8_t p[16];
  CHECK(hex(p, feetech::status(1, 0x24, nullptr, 0, p, sizeof p)) == "FF FF 01 02 24 D8");
}

TEST_CASE("servo feetech: builders refuse bad arguments with a named error", "[servo][feetech]") {
  uint8_t out[300];
  sv::Error e = sv::Error::None;
  CHECK(feetech::ping(0xFF, out, sizeof out, &e) == 0);
  CHECK(e == sv::Error::BadId);
  CHECK(feetech::ping(1, out, 5, &e) == 0);
  CHECK(e == sv::Error::BufferTooSmall);
  const uint8_t ids[] = {1, 2};
  CHECK(feetech::syncWrite(0x2A, 2, ids, nullptr, 2, out, sizeof out, &e) == 0);
  CHECK(e == sv::Error::BadArgument);
  CHECK(feetech::syncRead(0x38, 0, ids, 2, out, sizeof out, &e) == 0);
  CHECK(e == sv::Error::BadArgument);
  uint8_t big[254] = {0};
  CHECK(feetech::write(1, 0, big, 253, out, sizeof out, &e) == 0);  // LEN 256 does not fit one byte
  CHECK(e == sv::Error::TooManyParams);
  CHECK(feetech::write(1, 0, big, 252, out, sizeof out, &e) == 259);  // LEN 255
  CHECK(e == sv::Error::None);
  CHECK(feetech::status(feetech::kBroadcastId, 0, nullptr, 0, out, sizeof out, &e) == 0);
  CHECK(e == sv::Error::BadId);
}
