#include "servo_host.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include <achain/math/types.hpp>

namespace achain {
namespace bridge {

namespace sv = servo;

namespace {
constexpr double kTwoPi = 6.283185307179586;

std::string fmt(const char* f, double a) {
  char b[64];
  std::snprintf(b, sizeof b, f, a);
  return b;
}
std::string hexByte(uint8_t v) {
  char b[8];
  std::snprintf(b, sizeof b, "0x%02X", v);
  return b;
}
std::string idText(int id) { return "servo ID " + std::to_string(id); }

/// Dynamixel Hardware Error Status bits (e-Manual, Shutdown(63)), each with what to do.
std::string dxlHardwareText(uint8_t bits) {
  static const struct {
    uint8_t bit;
    const char* text;
  } k[] = {
      {kDxlInputVoltage, "input voltage error (the supply is outside the servo's voltage limits: check the supply)"},
      {kDxlOverheating, "overheating (let it cool; reduce the load or duty cycle)"},
      {kDxlMotorEncoder, "motor encoder error (power-cycle; replace the servo if it stays)"},
      {kDxlElectricalShock, "electrical shock error (check the motor and its wiring; the supply may be unstable)"},
      {kDxlOverload, "overload (the load stayed above the servo's limit: free the joint, reduce the payload)"},
  };
  std::string s;
  for (const auto& e : k)
    if (bits & e.bit) s += (s.empty() ? "" : ", ") + std::string(e.text);
  return s.empty() ? "no hardware error bit set" : s;
}

/// Feetech status bits in words, each with what to do (servo/feetech.cpp's texts).
std::string feetechStatusText(uint8_t bits) {
  std::string s;
  for (int b = 0; b < 8; ++b)
    if (bits & (1u << b)) s += (s.empty() ? "" : "; ") + std::string(sv::feetech::statusBitText(static_cast<uint8_t>(1u << b)));
  return s;
}

int32_t le32(const uint8_t* p) {
  return static_cast<int32_t>(p[0] | (p[1] << 8) | (p[2] << 16) | (static_cast<uint32_t>(p[3]) << 24));
}
}  // namespace

// ---- calibration file ----
int32_t jointToCounts(const ServoJoint& j, double q) {
  return j.zero_offset + static_cast<int32_t>(std::lround(j.direction * q / kTwoPi * j.counts_per_turn));
}
double countsToJoint(const ServoJoint& j, double counts) {
  return j.direction * (counts - j.zero_offset) * kTwoPi / j.counts_per_turn;
}

std::string servoCalibrationToJson(const ServoCalibration& c) {
  nlohmann::json j;
  j["format"] = "achain-servo-calibration";
  j["version"] = 1;
  j["protocol"] = c.protocol == ServoProtocol::Dynamixel ? "dynamixel" : "feetech";
  j["baud"] = c.baud;
  nlohmann::json joints = nlohmann::json::array();
  for (const ServoJoint& s : c.joints)
    joints.push_back({{"name", s.name}, {"id", s.id}, {"direction", s.direction}, {"zero_offset", s.zero_offset},
                      {"counts_per_turn", s.counts_per_turn}, {"min", s.min}, {"max", s.max},
                      {"max_velocity", s.max_velocity}});
  j["joints"] = joints;
  return j.dump(2);
}

ServoCalibration servoCalibrationFromJson(const std::string& text) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const std::exception& e) {
    throw Error(std::string("servo calibration: not JSON: ") + e.what());
  }
  auto need = [](const nlohmann::json& o, const char* key, const std::string& where) -> const nlohmann::json& {
    if (!o.is_object() || !o.contains(key)) throw Error("servo calibration: " + where + "has no \"" + key + "\"");
    return o[key];
  };
  auto number = [&](const nlohmann::json& o, const char* key, const std::string& where) {
    const nlohmann::json& v = need(o, key, where);
    if (!v.is_number()) throw Error("servo calibration: " + where + "\"" + key + "\" is not a number");
    return v.get<double>();
  };
  // A whole number in [lo, hi], checked before it becomes an integer (1e20 cast to int is undefined behaviour; in
  // wasm it became −2147483648, named as such).
  auto whole = [&](const nlohmann::json& o, const char* key, const std::string& where, double lo, double hi) {
    const double v = number(o, key, where);
    if (!(v >= lo && v <= hi) || v != std::floor(v)) {
      char b[64];
      std::snprintf(b, sizeof b, "%.15g", v);
      throw Error("servo calibration: " + where + "\"" + key + "\" " + b + " is not a whole number in " +
                  std::to_string(static_cast<long long>(lo)) + "…" + std::to_string(static_cast<long long>(hi)));
    }
    return v;
  };
  if (need(j, "format", "") != "achain-servo-calibration")
    throw Error("servo calibration: \"format\" is not \"achain-servo-calibration\"");
  ServoCalibration c;
  const std::string p = need(j, "protocol", "").is_string() ? j["protocol"].get<std::string>() : "";
  if (p != "dynamixel" && p != "feetech") throw Error("servo calibration: \"protocol\" must be \"dynamixel\" or \"feetech\"");
  c.protocol = p == "dynamixel" ? ServoProtocol::Dynamixel : ServoProtocol::Feetech;
  c.baud = static_cast<uint32_t>(whole(j, "baud", "", 1, 1e8));
  if (servoBaudCode(c.protocol, c.baud) < 0)
    throw Error("servo calibration: baud " + std::to_string(c.baud) + " is not a baud rate of " + p + " servos");
  const nlohmann::json& joints = need(j, "joints", "");
  if (!joints.is_array()) throw Error("servo calibration: \"joints\" is not a list");
  for (size_t i = 0; i < joints.size(); ++i) {
    const nlohmann::json& o = joints[i];
    const std::string where = "joint " + std::to_string(i) + " ";
    ServoJoint s;
    s.name = need(o, "name", where).is_string() ? o["name"].get<std::string>() : "";
    const std::string w = "joint '" + s.name + "' ";
    const int max_id = c.protocol == ServoProtocol::Dynamixel ? sv::dxl::kMaxId : sv::feetech::kMaxId;
    s.id = static_cast<int>(whole(o, "id", w, 0, max_id));
    const double direction = number(o, "direction", w);
    if (direction != 1 && direction != -1) throw Error("servo calibration: " + w + "\"direction\" must be 1 or -1");
    s.direction = static_cast<int>(direction);
    s.zero_offset = static_cast<int32_t>(whole(o, "zero_offset", w, -1e9, 1e9));
    s.counts_per_turn = static_cast<int>(whole(o, "counts_per_turn", w, 1, 1 << 24));
    s.min = number(o, "min", w);
    s.max = number(o, "max", w);
    s.max_velocity = number(o, "max_velocity", w);
    if (!(s.min < s.max)) throw Error("servo calibration: " + w + "\"min\" must be below \"max\"");
    if (!(s.max_velocity > 0)) throw Error("servo calibration: " + w + "\"max_velocity\" must be positive");
    c.joints.push_back(s);
  }
  return c;
}

void narrowToModel(ServoCalibration& c, const Model& model) {
  if (static_cast<int>(c.joints.size()) != model.nq)
    throw Error("servo calibration: " + std::to_string(c.joints.size()) + " joints, but robot '" + model.name + "' has " +
                std::to_string(model.nq) + " coordinates");
  for (size_t i = 0; i < c.joints.size(); ++i) {
    ServoJoint& s = c.joints[i];
    const JointLimits& L = model.joints[static_cast<size_t>(model.coord_joint[i])].limits;
    if (std::isfinite(L.lower)) s.min = std::max(s.min, L.lower);
    if (std::isfinite(L.upper)) s.max = std::min(s.max, L.upper);
    if (std::isfinite(L.velocity)) s.max_velocity = std::min(s.max_velocity, L.velocity);
    if (!(s.min < s.max))
      throw Error("servo calibration: joint '" + s.name + "': its range and the model's limits do not overlap");
  }
}

std::vector<std::string> rangeNotes(const ServoCalibration& c, const Model& model) {
  std::vector<std::string> notes;
  for (size_t i = 0; i < c.joints.size() && static_cast<int>(i) < model.nq; ++i) {
    const ServoJoint& s = c.joints[i];
    const JointLimits& L = model.joints[static_cast<size_t>(model.coord_joint[i])].limits;
    auto range = [](double a, double b) { return fmt("%.4f", a) + " .. " + fmt("%.4f", b) + " rad (" + fmt("%.1f", a * 180 / kPi) + "° .. " + fmt("%.1f", b * 180 / kPi) + "°)"; };
    const std::string who = "joint '" + s.name + "' (" + idText(s.id) + "): ";
    if ((std::isfinite(L.lower) && L.lower > 0) || (std::isfinite(L.upper) && L.upper < 0))
      notes.push_back(who + "its zero pose is outside the model's limits " + range(L.lower, L.upper) +
                      "; the calibration takes the servo's position as the joint's zero, so the arm must really stand there");
    const bool cut_low = std::isfinite(L.lower) ? s.min > L.lower + 1e-9 : true;
    const bool cut_high = std::isfinite(L.upper) ? s.max < L.upper - 1e-9 : true;
    // a calibration's default range is one servo turn around the zero (ServoJoint: ±3.14159); else it was recorded
    const bool one_turn = std::abs(s.min + 3.14159) < 1e-9 || std::abs(s.max - 3.14159) < 1e-9;
    if (cut_low || cut_high)
      notes.push_back(who + "streams are limited to " + range(s.min, s.max) +
                      (one_turn ? " (one servo turn around its zero)" : " (the calibration's limits)") + ", less than the model's " +
                      range(std::isfinite(L.lower) ? L.lower : -INFINITY, std::isfinite(L.upper) ? L.upper : INFINITY));
  }
  return notes;
}

// ---- the engine ----
ServoHost::ServoHost(ServoProtocol p, ServoHostOptions o) : protocol_(p), reg_(servoRegisters(p)), opt_(o) {
  echo_.reserve(kEchoCapacity);
  sent_.reserve(kPacketCapacity);
}

size_t ServoHost::takeOutput(uint8_t* out, size_t cap) {
  const size_t n = out_.size() < cap ? out_.size() : cap;
  std::copy(out_.begin(), out_.begin() + static_cast<long>(n), out);
  out_.erase(out_.begin(), out_.begin() + static_cast<long>(n));
  return n;
}

void ServoHost::enqueue(const Txn& t, bool front) {
  if (!front)
    queue_.push_back(t);
  else if (queue_head_ > 0)
    queue_[--queue_head_] = t;
  else
    queue_.insert(queue_.begin(), t);
}

void ServoHost::scan(const std::vector<int>& ids, const std::vector<uint32_t>& bauds) {
  found_.clear();
  for (uint32_t b : bauds)
    for (int id : ids) {
      Txn t{Kind::ScanPing};
      t.id = id;
      t.baud = b;
      enqueue(t);
    }
}

void ServoHost::connect(const ServoCalibration& c) {
  cal_ = c;
  baud_ = c.baud;
  const size_t n = c.joints.size();
  models_.assign(n, -1);
  servo_min_.assign(n, INT32_MIN);
  servo_max_.assign(n, INT32_MAX);
  fb_.assign(n, ServoFeedback());
  target_.assign(n, 0);
  commanded_.assign(n, 0);
  last_goals_.clear();
  ids_.clear();
  for (const ServoJoint& j : c.joints) ids_.push_back(static_cast<uint8_t>(j.id));
  sync_data_.reserve(4 * n);
  raw_.reserve(n);
  last_goals_.reserve(n);
  connected_ = streaming_ = estopped_ = monitoring_ = false;
  error_.clear();
  for (size_t j = 0; j < n; ++j) {
    Txn t{Kind::ReadModel};
    t.id = c.joints[j].id;
    t.joint = static_cast<int>(j);
    enqueue(t);
    t.kind = Kind::ReadLimits;
    enqueue(t);
  }
}

void ServoHost::enableTorque(bool on) {
  if (on) {
    enqueue(Txn{Kind::SyncReadInit});
    enqueue(Txn{Kind::SyncWriteHoldInit});
  }
  Txn t{Kind::SyncWriteTorque};
  t.value = on ? 1 : 0;
  enqueue(t);
}

std::string ServoHost::notReadyText() const {
  return error_.empty() ? "not connected: connect() to the bus first" : "a bus error stands (" + error_ + "): connect() again";
}

std::string ServoHost::startStreaming(uint64_t now_us) {
  if (!ready()) return notReadyText();
  for (size_t j = 0; j < fb_.size(); ++j)
    if (!fb_[j].valid) return "joint '" + cal_.joints[j].name + "' (" + idText(cal_.joints[j].id) +
                              "): its present position was never read: enableTorque(true) first";
  // the stream starts where the servos are (their last reported positions), never from a stale command
  for (size_t j = 0; j < fb_.size(); ++j) commanded_[j] = fb_[j].position;
  streaming_ = true;
  monitoring_ = estopped_ = false;
  next_period_us_ = now_us;
  return "";
}

std::string ServoHost::startMonitoring(uint64_t now_us) {
  if (!ready()) return notReadyText();
  if (streaming_) return "streaming: a stream already reads the present state every period";
  monitoring_ = true;
  next_period_us_ = now_us;
  return "";
}

std::string ServoHost::refusal(const std::vector<double>& q) const {
  if (q.size() != cal_.joints.size())
    return "a goal needs " + std::to_string(cal_.joints.size()) + " joint values, got " + std::to_string(q.size()) +
           "; refused, nothing was sent";
  for (size_t j = 0; j < q.size(); ++j) {
    const ServoJoint& s = cal_.joints[j];
    // the message is built only for a refused goal (a goal accepted every streaming period allocates nothing)
    auto who = [&] { return "joint '" + s.name + "' (" + idText(s.id) + "): goal " + fmt("%.4f", q[j]) + " rad "; };
    if (!std::isfinite(q[j])) return who() + "is not a number; refused, nothing was sent";
    if (q[j] < s.min) return who() + "is below its minimum " + fmt("%.4f", s.min) + " rad (calibration); refused, nothing was sent";
    if (q[j] > s.max) return who() + "is above its maximum " + fmt("%.4f", s.max) + " rad (calibration); refused, nothing was sent";
    const int32_t c = jointToCounts(s, q[j]);
    if (c < servo_min_[j] || c > servo_max_[j])
      return who() + "= " + std::to_string(c) + " counts is outside the servo's own position limits " +
             std::to_string(servo_min_[j]) + " .. " + std::to_string(servo_max_[j]) +
             " counts (read from the servo); refused, nothing was sent";
  }
  return "";
}

std::string ServoHost::setTarget(const std::vector<double>& q) {
  const std::string why = refusal(q);
  if (why.empty()) target_ = q;
  return why;
}

std::string ServoHost::safeText() const {
  return opt_.estop_action == EstopAction::TorqueOff
             ? "streaming stopped and torque turned off on every servo (e-stop action: torque off)"
             : "streaming stopped; every servo holds its last present position with torque on (e-stop action: hold)";
}

void ServoHost::safeState() {
  clearQueue();
  if (opt_.estop_action == EstopAction::TorqueOff) {
    Txn t{Kind::SyncWriteTorque};
    t.value = 0;
    enqueue(t);
  } else {
    enqueue(Txn{Kind::SyncWriteHold});
  }
}

void ServoHost::estop(uint64_t now_us) {
  streaming_ = monitoring_ = false;
  estopped_ = true;
  safeState();
  update(now_us);
}

/// The one block from the first to the last present-state item: load, velocity, position … temperature.
uint16_t ServoHost::feedbackAddress() const { return std::min({reg_.load, reg_.velocity, reg_.position}); }
uint16_t ServoHost::feedbackLength() const { return static_cast<uint16_t>(reg_.temperature + 1 - feedbackAddress()); }

size_t ServoHost::build(const Txn& t, uint8_t* buf, size_t cap) {
  size_t n = 0;
  const bool dxl = protocol_ == ServoProtocol::Dynamixel;
  const std::vector<uint8_t>& ids = ids_;
  const uint8_t id = static_cast<uint8_t>(t.id);
  // single reads: (address, length)
  auto readItem = [&](uint16_t a, uint16_t len) {
    return dxl ? sv::dxl::read(id, a, len, buf, cap) : sv::feetech::read(id, static_cast<uint8_t>(a), static_cast<uint8_t>(len), buf, cap);
  };
  // a sync write of one item to every joint's servo, `size` bytes each (the values in raw_)
  auto syncWrite = [&](uint16_t a, int size) {
    sync_data_.clear();
    for (uint32_t v : raw_)
      for (int k = 0; k < size; ++k) sync_data_.push_back(static_cast<uint8_t>(v >> (8 * k)));
    return dxl ? sv::dxl::syncWrite(a, static_cast<uint16_t>(size), ids.data(), sync_data_.data(), ids.size(), buf, cap)
               : sv::feetech::syncWrite(static_cast<uint8_t>(a), static_cast<uint8_t>(size), ids.data(), sync_data_.data(), ids.size(), buf, cap);
  };
  // the goals of last_goals_ as the protocol's raw register values
  auto goalsRaw = [&] {
    raw_.clear();
    for (int32_t c : last_goals_) raw_.push_back(dxl ? static_cast<uint32_t>(c) : sv::toSignMagnitude(c, 15));
  };
  switch (t.kind) {
    case Kind::ScanPing:
      n = dxl ? sv::dxl::ping(id, buf, cap) : sv::feetech::ping(id, buf, cap);
      break;
    case Kind::ScanModel:
    case Kind::ReadModel:
      n = dxl ? sv::dxl::ping(id, buf, cap) : readItem(reg_.model, 2);
      break;
    case Kind::ReadLimits: {
      const uint16_t a = std::min(reg_.min_limit, reg_.max_limit);
      n = readItem(a, static_cast<uint16_t>(2 * reg_.limit_size));
      break;
    }
    case Kind::ReadHwError:
      n = readItem(reg_.hw_error, 1);
      break;
    case Kind::SyncReadInit:
    case Kind::SyncReadFeedback:
      n = dxl ? sv::dxl::syncRead(feedbackAddress(), feedbackLength(), ids.data(), ids.size(), buf, cap)
              : sv::feetech::syncRead(static_cast<uint8_t>(feedbackAddress()), static_cast<uint8_t>(feedbackLength()), ids.data(),
                                      ids.size(), buf, cap);
      break;
    case Kind::SyncWriteTorque:
      raw_.assign(ids.size(), t.value);
      n = syncWrite(reg_.torque, 1);
      break;
    case Kind::SyncWriteHoldInit:
    case Kind::SyncWriteHold: {
      // every servo's goal = its last present position (or the last goal sent when it was never read)
      const bool sent = last_goals_.size() == ids.size();
      last_goals_.resize(ids.size());
      for (size_t j = 0; j < ids.size(); ++j)
        last_goals_[j] = fb_[j].valid ? fb_[j].counts : (sent ? last_goals_[j] : cal_.joints[j].zero_offset);
      goalsRaw();
      n = syncWrite(reg_.goal, reg_.goal_size);
      break;
    }
    case Kind::SyncWriteGoals: {
      last_goals_.resize(ids.size());
      for (size_t j = 0; j < ids.size(); ++j) last_goals_[j] = jointToCounts(cal_.joints[j], commanded_[j]);
      goalsRaw();
      n = syncWrite(reg_.goal, reg_.goal_size);
      break;
    }
  }
  return n;
}

void ServoHost::expectReplies(const Txn& t) {
  const bool dxl = protocol_ == ServoProtocol::Dynamixel;
  expect_ids_.clear();
  got_ = 0;
  expect_params_ = 0;
  switch (t.kind) {
    case Kind::ScanPing:
    case Kind::ScanModel:
    case Kind::ReadModel:
      expect_ids_.push_back(static_cast<uint8_t>(t.id));
      expect_params_ = dxl ? 3 : (t.kind == Kind::ScanPing ? 0 : 2);
      break;
    case Kind::ReadLimits:
      expect_ids_.push_back(static_cast<uint8_t>(t.id));
      expect_params_ = 2 * reg_.limit_size;
      break;
    case Kind::ReadHwError:
      expect_ids_.push_back(static_cast<uint8_t>(t.id));
      expect_params_ = 1;
      break;
    case Kind::SyncReadInit:
    case Kind::SyncReadFeedback:
      for (const ServoJoint& j : cal_.joints) expect_ids_.push_back(static_cast<uint8_t>(j.id));
      expect_params_ = feedbackLength();
      break;
    default:
      break;  // sync writes: no reply
  }
}

void ServoHost::startNext(uint64_t now_us) {
  cur_ = queue_[queue_head_++];
  if (queueEmpty()) clearQueue();
  if (cur_.kind == Kind::ScanPing || cur_.kind == Kind::ScanModel) baud_ = cur_.baud;
  uint8_t pkt[kPacketCapacity];
  const size_t pkt_size = build(cur_, pkt, sizeof pkt);
  out_.insert(out_.end(), pkt, pkt + pkt_size);
  if (opt_.echo) {
    if (echo_head_ == echo_.size()) echo_.clear(), echo_head_ = 0;
    if (echo_.size() + pkt_size > kEchoCapacity) {  // echoes of earlier packets never came back: start again
      echo_.erase(echo_.begin(), echo_.begin() + static_cast<long>(echo_head_));
      echo_head_ = 0;
      if (echo_.size() + pkt_size > kEchoCapacity) echo_.clear();
    }
    echo_.insert(echo_.end(), pkt, pkt + pkt_size);
  } else {
    sent_.assign(pkt, pkt + pkt_size);
  }
  expectReplies(cur_);
  dxl_dec_.reset();
  ft_dec_.reset();
  aborted_ = false;
  inflight_ = true;
  started_us_ = now_us;
  const size_t reply_bytes =
      expect_ids_.size() * (static_cast<size_t>(expect_params_) + (protocol_ == ServoProtocol::Dynamixel ? 11 : 6));
  // the packet leaves after the bytes still on the wire (a sync write handed over just before), then the replies
  const double byte_us = 10e6 / baud_;
  const uint64_t leaves = std::max(now_us, line_free_us_);
  line_free_us_ = leaves + static_cast<uint64_t>(std::ceil(pkt_size * byte_us));
  deadline_ = line_free_us_ + static_cast<uint64_t>(std::ceil(reply_bytes * byte_us)) +
              expect_ids_.size() * opt_.return_delay_us + (expect_ids_.empty() ? 0 : opt_.timeout_margin_us);
  if (cur_.kind == Kind::SyncWriteGoals) {
    cur_period_ = ServoPeriodStats();
    cur_period_.started_us = now_us;
  }
  if (cur_.kind == Kind::SyncWriteGoals || cur_.kind == Kind::SyncReadFeedback) cur_period_.bytes_out += pkt_size;
  if (expect_ids_.empty()) finish();  // a sync write is done once handed to the port (the line serialises it)
}

void ServoHost::finish() {
  inflight_ = false;
  switch (cur_.kind) {
    case Kind::ReadLimits:
      if (cur_.joint == static_cast<int>(cal_.joints.size()) - 1 && error_.empty()) connected_ = true;
      break;
    case Kind::SyncReadInit:
      for (size_t j = 0; j < fb_.size(); ++j) commanded_[j] = target_[j] = fb_[j].position;
      break;
    case Kind::SyncReadFeedback:
      cur_period_.ended_us = now_;
      period_stats_ = cur_period_;
      ++periods_;
      break;
    default:
      break;
  }
}

void ServoHost::onBusError(const std::string& what) {
  const bool scanning = cur_.kind == Kind::ScanPing || cur_.kind == Kind::ScanModel;
  aborted_ = true;  // the rest of this transaction's replies (if any) are ignored until its deadline
  if (scanning || !error_.empty()) return;  // a scan just finds nothing there; a first error stands
  error_ = what + "; " + safeText();
  streaming_ = monitoring_ = false;
  safeState();
}

std::string ServoHost::missingText(int id) const {
  const std::string what = cur_.kind == Kind::SyncReadFeedback || cur_.kind == Kind::SyncReadInit
                               ? "the sync read of its present state"
                               : "a read or ping";
  return idText(id) + " did not reply to " + what + " (waited up to " + fmt("%.1f", (deadline_ - started_us_) / 1000.0) +
         " ms at " + std::to_string(baud_) + " baud): check that " + idText(id) +
         " is powered and its cable plugged in, and that its ID and baud rate match the calibration (scan the bus)";
}

void ServoHost::decodeFeedback(int j, const uint8_t* p, int n) {
  (void)n;
  const ServoJoint& s = cal_.joints[static_cast<size_t>(j)];
  ServoFeedback& f = fb_[static_cast<size_t>(j)];
  if (protocol_ == ServoProtocol::Dynamixel) {
    // from Present Current/Load (126): current 2, velocity 4 (0.229 rev/min), position 4, …, voltage (144) 2, temperature (146) 1
    f.load = static_cast<int16_t>(p[0] | (p[1] << 8));
    f.velocity = s.direction * le32(p + 2) * 0.229 / 60.0 * kTwoPi;
    f.counts = le32(p + 6);
    f.voltage = (p[18] | (p[19] << 8)) * 0.1;
    f.temperature = p[20];
  } else {
    // from Present Position (56): position 2, speed 2 (counts/s, sign bit 15), load 2 (sign bit 10), voltage 1, temperature 1
    f.counts = sv::fromSignMagnitude(sv::get16(p, sv::Endian::Little), 15);
    f.velocity = s.direction * sv::fromSignMagnitude(sv::get16(p + 2, sv::Endian::Little), 15) * kTwoPi / s.counts_per_turn;
    f.load = sv::fromSignMagnitude(sv::get16(p + 4, sv::Endian::Little), 10);
    f.voltage = p[6] * 0.1;
    f.temperature = p[7];
  }
  f.position = countsToJoint(s, f.counts);
  f.valid = true;
  f.at_us = now_;
}

void ServoHost::onPacket(uint8_t id, uint8_t err, const uint8_t* params, int n) {
  if (aborted_ || got_ >= expect_ids_.size()) return;
  const int want = expect_ids_[got_];
  if (id != want) {
    // a later servo answered first: `want` stayed silent (in a sync read the others reply in their turn)
    for (size_t k = got_ + 1; k < expect_ids_.size(); ++k)
      if (expect_ids_[k] == id) return onBusError(missingText(want));
    onBusError("a reply came from " + idText(id) + " where " + idText(want) +
               " was expected: two servos may share an ID, or the calibration's IDs do not match the bus; scan the bus");
    return;
  }
  const bool scanning = cur_.kind == Kind::ScanPing || cur_.kind == Kind::ScanModel;
  if (!scanning && cur_.kind != Kind::ReadHwError) {
    if (protocol_ == ServoProtocol::Dynamixel && (err & 0x7F))
      return onBusError(idText(id) + " refused the instruction: " + sv::dxl::errorText(err & 0x7F));
    if (protocol_ == ServoProtocol::Dynamixel && (err & sv::dxl::kAlertBit)) {
      onBusError(idText(id) + " reports a hardware alert: " + sv::dxl::alertText());
      Txn t{Kind::ReadHwError};  // after the safe state: read which fault it is, for the message
      t.id = id;
      enqueue(t);
      return;
    }
    if (protocol_ == ServoProtocol::Feetech && err)
      return onBusError(idText(id) + " reports " + feetechStatusText(err));
  }
  if (n != expect_params_) {
    onBusError(idText(id) + " replied with " + std::to_string(n) + " data bytes where " + std::to_string(expect_params_) +
               " were expected: is it the model the calibration is for? (check its model number with a scan)");
    return;
  }
  const size_t j = static_cast<size_t>(cur_.joint);
  switch (cur_.kind) {
    case Kind::ScanPing:
      if (protocol_ == ServoProtocol::Dynamixel) {
        found_.push_back(FoundServo{cur_.baud, id, params[0] | (params[1] << 8)});
      } else {
        Txn t{Kind::ScanModel};
        t.id = id;
        t.baud = cur_.baud;
        enqueue(t, true);
      }
      break;
    case Kind::ScanModel:
      found_.push_back(FoundServo{cur_.baud, id, params[0] | (params[1] << 8)});
      break;
    case Kind::ReadModel:
      models_[j] = params[0] | (params[1] << 8);
      break;
    case Kind::ReadLimits: {
      const bool dxl = protocol_ == ServoProtocol::Dynamixel;
      // Dynamixel: Max Position Limit (48) then Min (52), 4 bytes each; Feetech: Min (9) then Max (11), 2 bytes each
      servo_min_[j] = dxl ? le32(params + 4) : sv::get16(params, sv::Endian::Little);
      servo_max_[j] = dxl ? le32(params) : sv::get16(params + 2, sv::Endian::Little);
      break;
    }
    case Kind::ReadHwError:
      error_ = idText(id) + " reports a hardware error, " + dxlHardwareText(params[0]) +
               " (Hardware Error Status " + hexByte(params[0]) + "); it turned its torque off: remove "
               "the cause, then reboot the servo (Reboot instruction or power cycle) to clear it; " + safeText();
      break;
    case Kind::SyncReadInit:
    case Kind::SyncReadFeedback:
      for (size_t k = 0; k < cal_.joints.size(); ++k)
        if (cal_.joints[k].id == id) decodeFeedback(static_cast<int>(k), params, n);
      break;
    default:
      break;
  }
  if (++got_ == expect_ids_.size()) finish();
}

size_t ServoHost::takeEcho(const uint8_t* data, size_t n) {
  size_t k = 0;
  for (; k < n && echo_head_ < echo_.size(); ++k, ++echo_head_) {
    if (data[k] == echo_[echo_head_]) continue;
    const size_t at = echo_head_;
    echo_.clear();
    echo_head_ = 0;
    echoFault("the adapter's echo of the host's own packet differs from what was sent (byte " + std::to_string(at) +
              " of the echo expected): either this adapter does not echo (turn the echo option off) or the line is "
              "damaged (check the cable and the baud rate, " + std::to_string(baud_) + ")");
    return n;  // nothing in this read can be trusted
  }
  return k;
}

bool ServoHost::ownPacketBack(const uint8_t* raw, int len, uint8_t id) {
  // a status packet never comes from the broadcast ID, and one equal to the packet just sent is that packet
  const bool own = id == sv::dxl::kBroadcastId ||  // 0xFE in both protocols
                   (len > 0 && static_cast<size_t>(len) == sent_.size() && std::equal(raw, raw + len, sent_.begin()));
  if (own) echoFault("a packet the host sent came back as if it were a reply: the adapter echoes what it sends");
  return own;
}

std::string ServoHost::echoText(const std::string& what) const {
  return what + (opt_.echo ? "" : "; turn on the adapter echo option (echo: the host then reads its own bytes back and "
                                  "discards them) or use an adapter with direction control");
}

void ServoHost::echoFault(const std::string& what) {
  // unlike a silent ID, an echo problem is the setup's, so it stands during a scan too
  aborted_ = true;
  if (!error_.empty()) return;
  if (cur_.kind == Kind::ScanPing || cur_.kind == Kind::ScanModel) {  // nothing is driven yet: no safe state to send
    error_ = echoText(what);
    clearQueue();  // the rest of the scan would fail the same way
    return;
  }
  error_ = echoText(what) + "; " + safeText();
  streaming_ = monitoring_ = false;
  safeState();
}

void ServoHost::receive(const uint8_t* data, size_t n, uint64_t now_us) {
  now_ = now_us;
  if (opt_.echo && echo_head_ < echo_.size()) {
    const size_t k = takeEcho(data, n);
    data += k;
    n -= k;
  }
  if (cur_.kind == Kind::SyncReadFeedback && inflight_) cur_period_.bytes_in += n;
  auto run = [&](auto& dec) {
    for (size_t i = 0; i < n; ++i) {
      for (sv::Event e = dec.feed(data[i]); e != sv::Event::None; e = dec.next()) {
        if (!inflight_ || aborted_) continue;  // stray bytes, or the tail of an abandoned transaction
        const int want = got_ < expect_ids_.size() ? expect_ids_[got_] : -1;
        if (e == sv::Event::Packet) {
          if (!opt_.echo && ownPacketBack(dec.rawPacket(), dec.rawLength(), dec.id())) continue;
          onPacket(dec.id(), dec.errorByte(), dec.params(), dec.paramCount());
        } else if (dec.error() == sv::Error::NotStatus) {
          echoFault("an instruction packet came back where " + idText(want) + "'s reply was expected: the adapter "
                    "echoes what the host sends");
        } else if (dec.error() == sv::Error::ChecksumMismatch) {
          onBusError(idText(want) + ": its reply failed the " +
                     std::string(protocol_ == ServoProtocol::Dynamixel ? "CRC-16" : "checksum") +
                     " check (damaged on the wire): check the cable and connectors of " + idText(want) +
                     ", the bus termination and the baud rate (" + std::to_string(baud_) +
                     "); a supply sagging under load does it too");
        } else {
          onBusError(idText(want) + ": its reply was unreadable (" + sv::text(dec.error()) + ")");
        }
      }
    }
  };
  if (protocol_ == ServoProtocol::Dynamixel)
    run(dxl_dec_);
  else
    run(ft_dec_);
}

void ServoHost::update(uint64_t now_us) {
  now_ = now_us;
  if (inflight_ && now_us >= deadline_) {
    if (opt_.echo && echo_head_ < echo_.size()) {  // not even our own bytes came back
      const size_t missing = echo_.size() - echo_head_;
      echo_.clear();
      echo_head_ = 0;
      if (!aborted_)
        echoFault("the echo option is on but " + std::to_string(missing) + " bytes the host sent never came back (waited " +
                  fmt("%.1f", (deadline_ - started_us_) / 1000.0) + " ms): this adapter does not echo; turn the echo "
                  "option off");
    } else if (!aborted_ && got_ < expect_ids_.size()) {
      onBusError(missingText(expect_ids_[got_]));
    }
    inflight_ = false;
    if (!aborted_) finish();
  }
  if ((streaming_ || monitoring_) && now_us >= next_period_us_) {
    if (streaming_)
      streamPeriod(now_us);
    else if (!feedbackQueued())
      enqueue(Txn{Kind::SyncReadFeedback});
    next_period_us_ += opt_.period_us;
    if (next_period_us_ <= now_us) next_period_us_ = now_us + opt_.period_us;  // fell behind: do not burst
  }
  while (!inflight_ && !queueEmpty()) startNext(now_us);
}

bool ServoHost::feedbackQueued() const {
  for (size_t k = queue_head_; k < queue_.size(); ++k)
    if (queue_[k].kind == Kind::SyncReadFeedback) return true;
  return inflight_ && cur_.kind == Kind::SyncReadFeedback;
}

void ServoHost::streamPeriod(uint64_t now_us) {
  (void)now_us;
  for (size_t k = queue_head_; k < queue_.size(); ++k)
    if (queue_[k].kind == Kind::SyncWriteGoals) {  // the last period's packets are still waiting: never pile up
      ++overruns_;
      return;
    }
  if (inflight_ && (cur_.kind == Kind::SyncReadFeedback)) ++overruns_;
  const double dt = opt_.period_us * 1e-6;
  for (size_t j = 0; j < commanded_.size(); ++j) {
    const double step = cal_.joints[j].max_velocity * dt;
    const double d = target_[j] - commanded_[j];
    commanded_[j] += d > step ? step : (d < -step ? -step : d);
  }
  enqueue(Txn{Kind::SyncWriteGoals});
  enqueue(Txn{Kind::SyncReadFeedback});
}

}  // namespace bridge
}  // namespace achain
