// Protocol codec: golden vectors (shared with the JS/wasm tests), CRC/COBS reference values,
// encode∘decode identities on random messages, decoder resynchronisation on random garbage.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstring>

#include "bridge_test_support.hpp"

using namespace bridge_test;

TEST_CASE("bridge: CRC-16/CCITT-FALSE reference values", "[bridge][codec]") {
  const uint8_t check[] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
  CHECK(crc16(check, 9) == 0x29B1);  // the catalogued check value of CRC-16/CCITT-FALSE
  // golden() returns by value: keep it alive for the loop (a range-for over golden()[...] would walk a
  // destroyed temporary; ASan reported a heap-use-after-free here)
  const nlohmann::json vectors = golden();
  for (const auto& v : vectors["crc16"]) {
    const auto d = fromHex(v["data"]);
    CHECK(crc16(d.data(), d.size()) == v["crc"].get<int>());
  }
}

TEST_CASE("bridge: COBS golden vectors (canonical encoding, both directions)", "[bridge][codec]") {
  const nlohmann::json vectors = golden();  // alive for the whole loop (see the CRC test)
  for (const auto& v : vectors["cobs"]) {
    const auto raw = fromHex(v["raw"]), enc = fromHex(v["encoded"]);
    std::vector<uint8_t> out(raw.size() + raw.size() / 254 + 2);
    const size_t n = cobsEncode(raw.data(), raw.size(), out.data(), out.size());
    CHECK(toHex(out.data(), n) == v["encoded"].get<std::string>());
    std::vector<uint8_t> back(raw.size() + 1);
    const int m = cobsDecode(enc.data(), enc.size(), back.data(), back.size());
    REQUIRE(m == static_cast<int>(raw.size()));
    CHECK(toHex(back.data(), m) == v["raw"].get<std::string>());
  }
}

namespace {
template <class M>
void checkGolden(const nlohmann::json& g, const M& m) {
  uint8_t body[kMaxBody];
  const size_t n = encode(m, body, sizeof body);
  CHECK(toHex(body, n) == g["body"].get<std::string>());
  uint8_t frame[kMaxEncoded];
  const size_t f = buildFrame(g["type"].get<uint8_t>(), g["seq"].get<uint8_t>(), body, n, frame, sizeof frame);
  CHECK(toHex(frame, f) == g["frame"].get<std::string>());
  // and back through the byte-wise decoder
  FrameDecoder d;
  const auto wire = fromHex(g["frame"]);
  FrameDecoder::Result r = FrameDecoder::kNone;
  for (uint8_t b : wire) r = d.feed(b);
  REQUIRE(r == FrameDecoder::kFrame);
  CHECK(d.type() == g["type"].get<int>());
  CHECK(d.seq() == g["seq"].get<int>());
  M back;
  REQUIRE(decode(d.body(), d.bodyLength(), back));
  uint8_t again[kMaxBody];
  CHECK(toHex(again, encode(back, again, sizeof again)) == g["body"].get<std::string>());
}
}  // namespace

TEST_CASE("bridge: message golden vectors from the independent Python encoder", "[bridge][codec]") {
  const nlohmann::json vectors = golden();  // alive for the whole loop (see the CRC test)
  for (const auto& g : vectors["messages"]) {
    const std::string name = g["name"];
    const auto& f = g["fields"];
    INFO(name);
    if (name == "hello") {
      Hello m;
      m.version = f["version"];
      m.nonce = f["nonce"];
      checkGolden(g, m);
    } else if (name == "caps") {
      Caps m;
      m.version = f["version"];
      m.schema = f["schema"];
      m.joints = f["joints"];
      m.servo_hz = f["servo_hz"];
      m.queue_capacity = f["queue_capacity"];
      m.max_body = f["max_body"];
      m.status_hz = f["status_hz"];
      m.nonce = f["nonce"];
      std::strncpy(m.name, f["name"].get<std::string>().c_str(), 11);
      checkGolden(g, m);
    } else if (name == "config_joint") {
      JointConfig m;
      m.joint = f["joint"];
      m.gear_ratio = f["gear_ratio"];
      m.counts_per_rev = f["counts_per_rev"];
      m.zero_offset = f["zero_offset"];
      m.q_min = f["q_min"];
      m.q_max = f["q_max"];
      m.v_max = f["v_max"];
      m.a_max = f["a_max"];
      m.torque_max = f["torque_max"];
      m.kp = f["kp"];
      m.ki = f["ki"];
      m.kd = f["kd"];
      m.inertia_ff = f["inertia_ff"];
      m.viscous_ff = f["viscous_ff"];
      checkGolden(g, m);
    } else if (name == "config_global") {
      GlobalConfig m;
      m.watchdog_ms = f["watchdog_ms"];
      m.status_period_ms = f["status_period_ms"];
      m.accel_margin = f["accel_margin"];
      m.following_error_max = f["following_error_max"];
      m.start_tolerance = f["start_tolerance"];
      checkGolden(g, m);
    } else if (name == "segment") {
      Segment m;
      m.id = f["id"];
      m.t_start_us = f["t_start_us"];
      m.duration_us = f["duration_us"];
      m.flags = f["flags"];
      m.joints = static_cast<uint8_t>(f["a"].size());
      for (int j = 0; j < m.joints; ++j) {
        m.a[j].q = f["a"][j][0];
        m.a[j].v = f["a"][j][1];
        m.b[j].q = f["b"][j][0];
        m.b[j].v = f["b"][j][1];
      }
      checkGolden(g, m);
    } else if (name == "home") {
      Home m;
      m.joint = f["joint"];
      m.q = f["q"];
      checkGolden(g, m);
    } else if (name == "ack") {
      Ack m;
      m.next_seq = f["next_seq"];
      m.credits = f["credits"];
      checkGolden(g, m);
    } else if (name == "nak") {
      Nak m;
      m.expected_seq = f["expected_seq"];
      m.reason = f["reason"];
      checkGolden(g, m);
    } else if (name == "status") {
      Status m;
      m.time_us = f["time_us"];
      m.state = static_cast<State>(f["state"].get<int>());
      m.estop = f["estop"];
      m.faults = f["faults"];
      m.fault_joint = f["fault_joint"];
      m.queue_fill = f["queue_fill"];
      m.credits = f["credits"];
      m.segment_id = f["segment_id"];
      m.segments_done = f["segments_done"];
      m.traj_time_us = f["traj_time_us"];
      m.joints = static_cast<uint8_t>(f["q"].size());
      for (int j = 0; j < m.joints; ++j) {
        m.q[j] = f["q"][j];
        m.v[j] = f["v"][j];
        m.q_cmd[j] = f["q_cmd"][j];
      }
      checkGolden(g, m);
    } else if (name == "event") {
      Event m;
      m.fault = f["fault"];
      m.joint = f["joint"];
      m.segment_id = f["segment_id"];
      m.value = f["value"];
      checkGolden(g, m);
    } else {  // empty bodies: start, stop, estop
      uint8_t frame[16];
      const size_t n = buildFrame(g["type"].get<uint8_t>(), g["seq"].get<uint8_t>(), nullptr, 0, frame, sizeof frame);
      CHECK(toHex(frame, n) == g["frame"].get<std::string>());
    }
  }
}

TEST_CASE("bridge: encode∘decode = identity on random messages", "[bridge][codec][property]") {
  std::mt19937 rng(12345);
  std::uniform_int_distribution<uint32_t> u32;
  std::uniform_int_distribution<int> nj(0, kMaxJoints);
  for (int it = 0; it < 2000; ++it) {
    Segment s;
    s.id = u32(rng);
    s.t_start_us = u32(rng);
    s.duration_us = u32(rng);
    s.flags = static_cast<uint8_t>(u32(rng));
    s.joints = static_cast<uint8_t>(nj(rng));
    for (int j = 0; j < s.joints; ++j) {
      s.a[j].q = static_cast<int32_t>(u32(rng));
      s.a[j].v = static_cast<int32_t>(u32(rng));
      s.b[j].q = static_cast<int32_t>(u32(rng));
      s.b[j].v = static_cast<int32_t>(u32(rng));
    }
    uint8_t body[kMaxBody], frame[kMaxEncoded];
    const size_t n = encode(s, body, sizeof body);
    REQUIRE(n == 13u + 16u * s.joints);
    const size_t f = buildFrame(kSegment, static_cast<uint8_t>(it), body, n, frame, sizeof frame);
    REQUIRE(f > 0);
    for (size_t k = 0; k + 1 < f; ++k) REQUIRE(frame[k] != 0);  // COBS: the only zero is the delimiter
    FrameDecoder d;
    FrameDecoder::Result r = FrameDecoder::kNone;
    for (size_t k = 0; k < f; ++k) r = d.feed(frame[k]);
    REQUIRE(r == FrameDecoder::kFrame);
    Segment back;
    REQUIRE(decode(d.body(), d.bodyLength(), back));
    REQUIRE(back.id == s.id);
    REQUIRE(back.t_start_us == s.t_start_us);
    REQUIRE(back.duration_us == s.duration_us);
    REQUIRE(back.flags == s.flags);
    REQUIRE(back.joints == s.joints);
    for (int j = 0; j < s.joints; ++j) {
      REQUIRE(back.a[j].q == s.a[j].q);
      REQUIRE(back.a[j].v == s.a[j].v);
      REQUIRE(back.b[j].q == s.b[j].q);
      REQUIRE(back.b[j].v == s.b[j].v);
    }
    Status st;
    st.time_us = u32(rng);
    st.state = static_cast<State>(u32(rng) % 7);
    st.estop = static_cast<uint8_t>(u32(rng));
    st.faults = static_cast<uint16_t>(u32(rng));
    st.joints = static_cast<uint8_t>(nj(rng));
    for (int j = 0; j < st.joints; ++j) st.q[j] = static_cast<int32_t>(u32(rng));
    const size_t sn = encode(st, body, sizeof body);
    Status sb;
    REQUIRE(decode(body, sn, sb));
    REQUIRE(sb.time_us == st.time_us);
    REQUIRE(sb.state == st.state);
    REQUIRE(sb.faults == st.faults);
    for (int j = 0; j < st.joints; ++j) REQUIRE(sb.q[j] == st.q[j]);
  }
  // COBS round trip on random byte strings, zeros included
  for (int it = 0; it < 2000; ++it) {
    std::vector<uint8_t> raw(u32(rng) % 700);
    for (auto& b : raw) b = (u32(rng) % 4 == 0) ? 0 : static_cast<uint8_t>(u32(rng));
    std::vector<uint8_t> enc(raw.size() + raw.size() / 254 + 2), dec(raw.size() + 1);
    const size_t n = cobsEncode(raw.data(), raw.size(), enc.data(), enc.size());
    REQUIRE(n > 0);
    const int m = cobsDecode(enc.data(), n, dec.data(), dec.size());
    REQUIRE(m == static_cast<int>(raw.size()));
    REQUIRE(std::equal(raw.begin(), raw.end(), dec.begin()));
  }
}

TEST_CASE("bridge: the decoder recovers every intact frame from a stream with garbage and damage", "[bridge][codec][property]") {
  std::mt19937 rng(99);
  std::vector<uint8_t> stream;
  std::vector<uint32_t> intact;
  uint8_t body[kMaxBody], frame[kMaxEncoded];
  for (uint32_t i = 0; i < 500; ++i) {
    Ack a;
    a.next_seq = static_cast<uint8_t>(i);
    a.credits = static_cast<uint16_t>(i);
    const size_t n = encode(a, body, sizeof body);
    const size_t f = buildFrame(kAck, static_cast<uint8_t>(i), body, n, frame, sizeof frame);
    const int what = static_cast<int>(rng() % 5);
    if (what == 0) {  // corrupt one byte (never into a zero: that is a "drop" below)
      frame[rng() % (f - 1)] ^= static_cast<uint8_t>(1 + rng() % 255);
      for (size_t k = 0; k + 1 < f; ++k)
        if (frame[k] == 0) frame[k] = 0x33;
    } else if (what == 1) {  // random garbage before the frame
      for (int g = 0; g < 20; ++g) stream.push_back(static_cast<uint8_t>(rng()));
      stream.push_back(0);
      intact.push_back(i);
    } else {
      intact.push_back(i);
    }
    stream.insert(stream.end(), frame, frame + f);
  }
  FrameDecoder d;
  std::vector<uint32_t> got;
  int errors = 0;
  for (uint8_t b : stream) {
    const auto r = d.feed(b);
    if (r == FrameDecoder::kFrame && d.type() == kAck) {
      Ack a;
      if (decode(d.body(), d.bodyLength(), a)) got.push_back(a.credits);
    } else if (r != FrameDecoder::kNone && r != FrameDecoder::kFrame) {
      ++errors;
    }
  }
  // every intact frame arrives, in order; garbage may by chance form a valid frame (CRC 1/65536)
  std::vector<uint32_t> matched;
  for (uint32_t v : got)
    if (std::find(intact.begin(), intact.end(), v) != intact.end()) matched.push_back(v);
  CHECK(matched == intact);
  CHECK(errors > 50);
}

TEST_CASE("bridge: limit check of a cubic piece", "[bridge][codec]") {
  const JointLimitsF L{0.0, 1.0, 2.0, 10.0};
  double w = 0;
  CHECK(checkPiece(0.1, 0, 0.2, 0, 0.5, L, 1.0, &w) == LimitViolation::None);
  // overshoot inside the piece: ends inside, the cubic leaves [0, 1]
  CHECK(checkPiece(0.9, 1.9, 0.95, 0, 0.5, L, 100.0, &w) == LimitViolation::Position);
  CHECK(w > 1.0);
  CHECK(checkPiece(0.1, 2.5, 0.6, 2.5, 0.2, L, 1.0, &w) == LimitViolation::Velocity);
  CHECK(checkPiece(0.1, 0, 0.9, 0, 0.1, L, 1.0, &w) == LimitViolation::Velocity);  // mid-piece peak 12 rad/s
  CHECK(checkPiece(0.1, 0, 0.3, 0, 0.4, L, 1.0, &w) == LimitViolation::None);          // |a(0)| = 6·0.2/0.16 = 7.5
  CHECK(checkPiece(0.1, 0, 0.4, 0, 0.4, L, 1.0, &w) == LimitViolation::Acceleration);  // |a(0)| = 11.25
  CHECK(w == Approx(11.25));
  CHECK(checkPiece(0.1, 0, 0.4, 0, 0.4, L, 1.5, &w) == LimitViolation::None);          // within the margin
  CHECK(checkPiece(0.1, 0, 0.4, 0, 0.0, L, 1.5, &w) == LimitViolation::Duration);
}
