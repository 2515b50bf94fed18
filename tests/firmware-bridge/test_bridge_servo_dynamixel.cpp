// DYNAMIXEL Protocol 2.0 codec (firmware-bridge/servo/dynamixel.hpp) against the packets printed in the
// ROBOTIS e-Manual, Protocol 2.0, https://emanual.robotis.com/docs/en/dxl/protocol2/ (source: the e-Manual's
// repository ROBOTIS-GIT/emanual, docs/en/dxl/protocol2.md, commit 01179568a085cfc99bdad6e880e43fa871bd318a);
// each packet below names its section. Then stuffing, the decoder's resynchronisation, CRC errors, truncated
// packets and the error texts.
#include <catch2/catch.hpp>
#include <algorithm>
#include <random>

#include "servo/dynamixel.hpp"
#include "servo_test_support.hpp"

namespace sv = achain::bridge::servo;
namespace dxl = sv::dxl;
using servo_test::built;
using servo_test::bytes;
using servo_test::concat;
using servo_test::decodeAll;
using servo_test::hex;

TEST_CASE("servo dynamixel: CRC-16 is the e-Manual's update_crc (poly 0x8005, init 0)", "[servo][dynamixel]") {
  // CRC-16/UMTS (= BUYPASS) in the reveng CRC catalogue: width 16, poly 0x8005, init 0, no reflection, check 0xFEE8
  const uint8_t check[] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
  CHECK(dxl::crc16(check, 9) == 0xFEE8);
  // e-Manual Protocol 2.0 > Ping > Example 1: CRC 0x4E19 of FF FF FD 00 01 03 00 01
  const auto ping = bytes("FF FF FD 00 01 03 00 01");
  CHECK(dxl::crc16(ping.data(), ping.size()) == 0x4E19);
}

TEST_CASE("servo dynamixel: instruction packets match the e-Manual byte for byte", "[servo][dynamixel]") {
  using namespace sv::dxl;
  // e-Manual Protocol 2.0 > Instruction Details > Ping > Example 1 (ID 1)
  CHECK(built([](uint8_t* o, size_t c, sv::Error* e) { return ping(1, o, c, e); }) == "FF FF FD 00 01 03 00 01 19 4E");
  // … > Ping > Example 2 (broadcast ID 254)
  CHECK(built([](uint8_t* o, size_t c, sv::Error* e) { return ping(kBroadcastId, o, c, e); }) == "FF FF FD 00 FE 03 00 01 31 42");
  // … > Read > Example: ID 1, Present Position (132, 4 bytes)
  CHECK(built([](uint8_t* o, size_t c, sv::Error* e) { return read(1, 132, 4, o, c, e); }) ==
        "FF FF FD 00 01 07 00 02 84 00 04 00 1D 15");
  // … > Write > Example: ID 1, 512 to Goal Position (116, 4 bytes)
  const uint8_t goal512[] = {0x00, 0x02, 0x00, 0x00};
  CHECK(built([&](uint8_t* o, size_t c, sv::Error* e) { return write(1, 116, goal512, 4, o, c, e); }) ==
        "FF FF FD 00 01 09 00 03 74 00 00 02 00 00 CA 89");
  // … > Reg Write > Example: ID 1, 200 to Goal Velocity (104, 4 bytes)
  const uint8_t vel200[] = {0xC8, 0x00, 0x00, 0x00};
  CHECK(built([&](uint8_t* o, size_t c, sv::Error* e) { return regWrite(1, 104, vel200, 4, o, c, e); }) ==
        "FF FF FD 00 01 09 00 04 68 00 C8 00 00 00 AE 8E");
  // … > Action > Example
  CHECK(built([](uint8_t* o, size_t c, sv::Error* e) { return action(1, o, c, e); }) == "FF FF FD 00 01 03 00 05 02 CE");
  // … > Reboot > Example
  CHECK(built([](uint8_t* o, size_t c, sv::Error* e) { return reboot(1, o, c, e); }) == "FF FF FD 00 01 03 00 08 2F 4E");
  // … > Factory Reset > Example (option 0x01, reset all except ID) and > Clear > Example (multi-turn clear),
  // through the generic builder
  const uint8_t reset_opt[] = {0x01};
  CHECK(built([&](uint8_t* o, size_t c, sv::Error* e) { return buildInstruction(1, kFactoryReset, reset_opt, 1, o, c, e); }) ==
        "FF FF FD 00 01 04 00 06 01 A1 E6");
  const uint8_t clear[] = {0x01, 0x44, 0x58, 0x4C, 0x22};
  CHECK(built([&](uint8_t* o, size_t c, sv::Error* e) { return buildInstruction(1, kClear, clear, 5, o, c, e); }) ==
        "FF FF FD 00 01 08 00 10 01 44 58 4C 22 B1 DC");
}

TEST_CASE("servo dynamixel: multi-servo packets match the e-Manual byte for byte", "[servo][dynamixel]") {
  using namespace sv::dxl;
  const uint8_t ids[] = {1, 2};
  // e-Manual Protocol 2.0 > Sync Read > Example: Present Position (132, 4 bytes) of ID 1 and ID 2
  CHECK(built([&](uint8_t* o, size_t c, sv::Error* e) { return syncRead(132, 4, ids, 2, o, c, e); }) ==
        "FF FF FD 00 FE 09 00 82 84 00 04 00 01 02 CE FA");
  // … > Sync Write > Example: Goal Position (116, 4 bytes) 150 to ID 1, 170 to ID 2
  const uint8_t goals[] = {0x96, 0x00, 0x00, 0x00, 0xAA, 0x00, 0x00, 0x00};
  CHECK(built([&](uint8_t* o, size_t c, sv::Error* e) { return syncWrite(116, 4, ids, goals, 2, o, c, e); }) ==
        "FF FF FD 00 FE 11 00 83 74 00 04 00 01 96 00 00 00 02 AA 00 00 00 82 87");
  // … > Bulk Read > Example: ID 1 Present Voltage (144, 2 bytes), ID 2 Present Temperature (146, 1 byte)
  const uint16_t raddr[] = {144, 146}, rlen[] = {2, 1};
  CHECK(built([&](uint8_t* o, size_t c, sv::Error* e) { return bulkRead(ids, raddr, rlen, 2, o, c, e); }) ==
        "FF FF FD 00 FE 0D 00 92 01 90 00 02 00 02 92 00 01 00 1A 05");
  // … > Bulk Write > Example: ID 1 Max Voltage Limit (32, 2 bytes) = 160, ID 2 Temperature Limit (31, 1 byte) = 80
  const uint16_t waddr[] = {32, 31}, wlen[] = {2, 1};
  const uint8_t wdata[] = {0xA0, 0x00, 0x50};
  CHECK(built([&](uint8_t* o, size_t c, sv::Error* e) { return bulkWrite(ids, waddr, wlen, wdata, 2, o, c, e); }) ==
        "FF FF FD 00 FE 10 00 93 01 20 00 02 00 A0 00 02 1F 00 01 00 50 B7 68");
}

TEST_CASE("servo dynamixel: the e-Manual's status packets decode, and re-encode to the same bytes", "[servo][dynamixel]") {
  servo_test::checkVendorStatus<dxl::StatusDecoder>({
      // Ping > Example 1/2: model number 1030 (0x0406, XM430-W210), firmware 38 (0x26)
      {"Ping, ID 1", "FF FF FD 00 01 07 00 55 00 06 04 26 65 5D", 1, "06 04 26"},
      {"Ping, ID 2", "FF FF FD 00 02 07 00 55 00 06 04 26 6F 6D", 2, "06 04 26"},
      // Read > Example and Sync Read > Example: Present Position 166 (ID 1) and 2079 (ID 2)
      {"Read / Sync Read, ID 1", "FF FF FD 00 01 08 00 55 00 A6 00 00 00 8C C0", 1, "A6 00 00 00"},
      {"Sync Read, ID 2", "FF FF FD 00 02 08 00 55 00 1F 08 00 00 BA BE", 2, "1F 08 00 00"},
      // Write / Reg Write / Action / Reboot > Example: no parameters
      {"Write", "FF FF FD 00 01 04 00 55 00 A1 0C", 1, ""},
      // Bulk Read > Example: Present Voltage 119 (ID 1), Present Temperature 36 (ID 2)
      {"Bulk Read, ID 1", "FF FF FD 00 01 06 00 55 00 77 00 C3 69", 1, "77 00"},
      {"Bulk Read, ID 2", "FF FF FD 00 02 05 00 55 00 24 8B A9", 2, "24"},
  }, dxl::status);
  // the present position of the Sync Read example as numbers (little-endian)
  CHECK(sv::get16(bytes("1F 08").data(), sv::Endian::Little) == 2079);
}

TEST_CASE("servo dynamixel: byte stuffing (FF FF FD → FF FF FD FD) and its round trip", "[servo][dynamixel]") {
  uint8_t out[64];
  auto stuffed = [&](const char* in) {
    const auto v = bytes(in);
    return hex(out, dxl::stuff(v.data(), v.size(), out, sizeof out));
  };
  CHECK(stuffed("FF FF FD") == "FF FF FD FD");
  CHECK(stuffed("FF FF FD FD") == "FF FF FD FD FD");
  CHECK(stuffed("00 FF FF FF FD 01") == "00 FF FF FF FD FD 01");
  CHECK(stuffed("FF FF FD FF FF FD") == "FF FF FD FD FF FF FD FD");
  CHECK(stuffed("FF FD FF FD") == "FF FD FF FD");  // no pattern: unchanged
  // broken stuffing is refused
  const auto bad = bytes("01 FF FF FD 02");
  CHECK(dxl::unstuff(bad.data(), bad.size(), out, sizeof out) == -1);
  const auto bad_end = bytes("01 FF FF FD");
  CHECK(dxl::unstuff(bad_end.data(), bad_end.size(), out, sizeof out) == -1);

  // a write whose data holds the pattern: LEN counts the stuffing byte, the CRC is over the stuffed bytes
  const uint8_t data[] = {0xFF, 0xFF, 0xFD, 0x00};
  uint8_t pkt[64];
  const size_t n = dxl::write(1, 116, data, 4, pkt, sizeof pkt);
  REQUIRE(n == 17);
  CHECK(hex(pkt, n - 2) == "FF FF FD 00 01 0A 00 03 74 00 FF FF FD FD 00");
  CHECK(dxl::crc16(pkt, n - 2) == (pkt[n - 2] | (pkt[n - 1] << 8)));

  // round trips on random data rich in FF and FD
  std::mt19937 rng(33);
  for (int it = 0; it < 2000; ++it) {
    std::vector<uint8_t> v(rng() % 40);
    for (auto& b : v) b = std::vector<uint8_t>{0xFF, 0xFD, 0x00, static_cast<uint8_t>(rng())}[rng() % 4];
    std::vector<uint8_t> s(v.size() * 2 + 1), back(v.size() + 1);
    const size_t k = dxl::stuff(v.data(), v.size(), s.data(), s.size());
    REQUIRE(k >= v.size());
    const int m = dxl::unstuff(s.data(), k, back.data(), back.size());
    REQUIRE(m == static_cast<int>(v.size()));
    CHECK(std::equal(v.begin(), v.end(), back.begin()));
    // and a status packet carrying them decodes to the same parameters
    std::vector<uint8_t> p(dxl::kMaxRaw);
    const size_t pn = dxl::status(7, 0, v.data(), v.size(), p.data(), p.size());
    REQUIRE(pn > 0);
    p.resize(pn);
    dxl::StatusDecoder d;
    const auto r = decodeAll(d, p);
    REQUIRE(r.size() == 1);
    CHECK(r[0].params == hex(v));
  }
}

TEST_CASE("servo dynamixel: the decoder resynchronises after garbage", "[servo][dynamixel]") {
  const auto ping1 = bytes("FF FF FD 00 01 07 00 55 00 06 04 26 65 5D");
  const auto read2 = bytes("FF FF FD 00 02 08 00 55 00 1F 08 00 00 BA BE");
  // noise with header fragments, then two replies back to back
  const auto stream = concat({bytes("00 FF 13 FF FF FF FD 01 FF FF FD FF FF FD 00 FD"), ping1, bytes("FF FF"), read2});
  dxl::StatusDecoder d;
  auto r = decodeAll(d, stream);
  // the false header "FF FF FD 00 FD" (ID 0xFD) is skipped silently; the two packets come out
  REQUIRE(r.size() == 2);
  CHECK((r[0].event == sv::Event::Packet && r[0].id == 1 && r[0].params == "06 04 26"));
  CHECK((r[1].event == sv::Event::Packet && r[1].id == 2 && r[1].params == "1F 08 00 00"));

  // a false header whose length swallows a real packet: the CRC fails, and the real packet hidden in the bytes
  // is found by the replay
  const auto swallow = concat({bytes("FF FF FD 00 03 14 00"), ping1, bytes("11 22 33 44 55 66")});
  dxl::StatusDecoder d2;
  r = decodeAll(d2, swallow);
  REQUIRE(r.size() == 2);
  CHECK((r[0].event == sv::Event::Error && r[0].error == sv::Error::ChecksumMismatch));
  CHECK((r[1].event == sv::Event::Packet && r[1].id == 1 && r[1].params == "06 04 26"));

  // random garbage before each reply never hides the reply
  std::mt19937 rng(7);
  for (int it = 0; it < 300; ++it) {
    std::vector<uint8_t> junk(rng() % 30);
    for (auto& b : junk) b = std::vector<uint8_t>{0xFF, 0xFD, 0x00, static_cast<uint8_t>(rng())}[rng() % 4];
    dxl::StatusDecoder dr;
    const auto out = decodeAll(dr, concat({junk, read2}), true);
    int found = 0;
    for (const auto& x : out) found += x.event == sv::Event::Packet && x.id == 2 && x.params == "1F 08 00 00";
    CHECK(found == 1);
  }
}

TEST_CASE("servo dynamixel: damaged, short and foreign packets are reported as such", "[servo][dynamixel]") {
  const auto write_ok = bytes("FF FF FD 00 01 04 00 55 00 A1 0C");
  SECTION("a CRC error") {
    auto bad = bytes("FF FF FD 00 01 08 00 55 00 A6 00 00 00 8C C0");
    bad[9] ^= 0x01;  // one bit of the present position
    dxl::StatusDecoder d;
    const auto r = decodeAll(d, concat({bad, write_ok}));
    REQUIRE(r.size() == 2);
    CHECK((r[0].event == sv::Event::Error && r[0].error == sv::Error::ChecksumMismatch));
    CHECK(std::string(sv::text(r[0].error)).find("CRC") != std::string::npos);
    CHECK((r[1].event == sv::Event::Packet && r[1].id == 1));
  }
  SECTION("a truncated packet, at a read timeout and followed by the next reply") {
    const auto full = bytes("FF FF FD 00 01 08 00 55 00 A6 00 00 00 8C C0");
    const std::vector<uint8_t> cut(full.begin(), full.begin() + 10);
    dxl::StatusDecoder d;
    auto r = decodeAll(d, cut, true);
    REQUIRE(r.size() == 1);
    CHECK((r[0].event == sv::Event::Error && r[0].error == sv::Error::Truncated));
    CHECK_FALSE(d.midPacket());
    // a header fragment at the timeout (no ID yet) is dropped without a report
    CHECK(decodeAll(d, bytes("00 FF FF FD 00"), true).empty());
    CHECK_FALSE(d.midPacket());
    dxl::StatusDecoder d2;
    r = decodeAll(d2, concat({cut, write_ok}));
    REQUIRE(r.size() == 2);
    CHECK((r[0].event == sv::Event::Error && r[0].error == sv::Error::ChecksumMismatch));
    CHECK((r[1].event == sv::Event::Packet && r[1].id == 1 && r[1].params.empty()));
  }
  SECTION("an impossible length field") {
    dxl::StatusDecoder d;
    auto r = decodeAll(d, concat({bytes("FF FF FD 00 01 02 00"), write_ok}));
    REQUIRE(r.size() == 2);
    CHECK((r[0].event == sv::Event::Error && r[0].error == sv::Error::BadLength));
    CHECK(r[1].event == sv::Event::Packet);
    dxl::StatusDecoder d2;
    r = decodeAll(d2, concat({bytes("FF FF FD 00 01 FF 7F"), write_ok}));  // 32 KiB: beyond the buffer
    REQUIRE(r.size() == 2);
    CHECK((r[0].event == sv::Event::Error && r[0].error == sv::Error::BadLength));
    CHECK(r[1].event == sv::Event::Packet);
  }
  SECTION("broken stuffing under a valid CRC") {
    std::vector<uint8_t> p = bytes("FF FF FD 00 01 08 00 55 00 FF FF FD 01");  // LEN 8: 55 00 FF FF FD 01 + CRC
    const uint16_t c = dxl::crc16(p.data(), p.size());
    p.push_back(static_cast<uint8_t>(c & 0xFF));
    p.push_back(static_cast<uint8_t>(c >> 8));
    dxl::StatusDecoder d;
    const auto r = decodeAll(d, p);
    REQUIRE(r.size() == 1);
    CHECK((r[0].event == sv::Event::Error && r[0].error == sv::Error::BadStuffing));
  }
  SECTION("our own instruction packet (a half-duplex echo) is not a status") {
    dxl::StatusDecoder d;
    const auto r = decodeAll(d, concat({bytes("FF FF FD 00 01 03 00 01 19 4E"), write_ok}));
    REQUIRE(r.size() == 2);
    CHECK((r[0].event == sv::Event::Error && r[0].error == sv::Error::NotStatus));
    CHECK(r[1].event == sv::Event::Packet);
  }
}

TEST_CASE("servo dynamixel: the status error byte: alert bit and error numbers 1-7 with their texts", "[servo][dynamixel]") {
  // names as in the e-Manual, Protocol 2.0 > Status Packet > sv::Error
  const char* names[] = {"result fail", "instruction error", "CRC error", "data range error",
                         "data length error", "data limit error", "access error"};
  std::vector<std::string> texts;  // each error number has its own text
  for (uint8_t k = 1; k <= 7; ++k) {
    INFO("error number " << int(k));
    CHECK(std::string(dxl::errorName(k)) == names[k - 1]);
    const std::string t = dxl::errorText(k);
    CHECK(t.rfind(names[k - 1], 0) == 0);  // the text begins with the name, then says what to do
    CHECK(t.size() > std::string(names[k - 1]).size() + 20);
    texts.push_back(t);
    // through the decoder, with and without the alert bit
    for (uint8_t alert : {uint8_t(0), dxl::kAlertBit}) {
      uint8_t p[32];
      const size_t n = dxl::status(3, static_cast<uint8_t>(alert | k), nullptr, 0, p, sizeof p);
      dxl::StatusDecoder d;
      sv::Event e = sv::Event::None;
      for (size_t i = 0; i < n; ++i) e = d.feed(p[i]);
      REQUIRE(e == sv::Event::Packet);
      CHECK(d.errorNumber() == k);
      CHECK(d.alert() == (alert != 0));
    }
  }
  std::sort(texts.begin(), texts.end());
  CHECK(std::unique(texts.begin(), texts.end()) == texts.end());
  CHECK(std::string(dxl::errorName(0)) == "none");
  CHECK(std::string(dxl::errorName(8)) == "unknown error number");
  CHECK(std::string(dxl::alertText()).find("Hardware Error Status") != std::string::npos);
  // the error number sits in the ERR byte right after INST 0x55 (layout of the e-Manual's Status Packet table)
  uint8_t p[32];
  const size_t n = dxl::status(1, dxl::kAccessError, nullptr, 0, p, sizeof p);
  CHECK(hex(p, n - 2) == "FF FF FD 00 01 04 00 55 07");
}

TEST_CASE("servo dynamixel: builders refuse bad arguments with a named error", "[servo][dynamixel]") {
  uint8_t out[64];
  sv::Error e = sv::Error::None;
  CHECK(dxl::ping(0xFD, out, sizeof out, &e) == 0);
  CHECK(e == sv::Error::BadId);
  CHECK(dxl::ping(1, out, 9, &e) == 0);  // a ping is 10 bytes
  CHECK(e == sv::Error::BufferTooSmall);
  CHECK(dxl::ping(1, out, 10, &e) == 10);
  CHECK(e == sv::Error::None);
  const uint8_t ids[] = {1, 0xFE};
  CHECK(dxl::syncRead(132, 4, ids, 0, out, sizeof out, &e) == 0);
  CHECK(e == sv::Error::BadArgument);
  CHECK(dxl::syncRead(132, 4, ids, 2, out, sizeof out, &e) == 0);  // broadcast is no servo of a sync read
  CHECK(e == sv::Error::BadId);
  CHECK(dxl::status(dxl::kBroadcastId, 0, nullptr, 0, out, sizeof out, &e) == 0);  // no status from broadcast
  CHECK(e == sv::Error::BadId);
  // every error has its own text
  std::vector<std::string> seen;
  for (int k = 0; k < sv::kErrorCount; ++k) {
    const std::string t = sv::text(static_cast<sv::Error>(k));
    CHECK(t != "unknown error");
    CHECK(std::find(seen.begin(), seen.end(), t) == seen.end());
    seen.push_back(t);
  }
}
