#include "controller.hpp"

#include <math.h>
#include <string.h>

namespace achain {
namespace bridge {

namespace {
constexpr double kTwoPi = 6.283185307179586;
inline double clampd(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }
inline bool finitef(float x) { return x == x && x < 3.0e38f && x > -3.0e38f; }
}  // namespace

Controller::Controller(Hal& hal, int joints, uint16_t servo_hz, const char* name)
    : hal_(hal), nj_(joints < 1 ? 1 : (joints > kMaxJoints ? kMaxJoints : joints)), servo_hz_(servo_hz ? servo_hz : 1000) {
  memset(name_, 0, sizeof name_);
  for (int i = 0; i < 11 && name && name[i]; ++i) name_[i] = name[i];
  for (int j = 0; j < kMaxJoints; ++j) {
    configured_[j] = false;
    q_meas_[j] = v_meas_[j] = q_prev_[j] = q_cmd_[j] = v_cmd_[j] = a_cmd_[j] = integ_[j] = 0;
    cfg_[j].joint = static_cast<uint8_t>(j);
  }
  last_rx_us_ = hal_.micros();
  last_status_us_ = last_rx_us_;
  hal_.setDriveEnabled(false);
}

bool Controller::allConfigured() const {
  for (int j = 0; j < nj_; ++j)
    if (!configured_[j]) return false;
  return true;
}

double Controller::countsToJoint(int j, int32_t c) const {
  const JointConfig& k = cfg_[j];
  return static_cast<double>(c - k.zero_offset) * kTwoPi / (static_cast<double>(k.counts_per_rev) * k.gear_ratio);
}

// ---------------------------------------------------------------- receive path (ISR context)
void Controller::onRxByte(uint8_t b) {
  const FrameDecoder::Result r = dec_.feed(b);
  if (r == FrameDecoder::kNone) return;
  if (r == FrameDecoder::kCrcError) { ++counters_.crc_errors; pending_nak_ = kNakCrc; return; }
  if (r == FrameDecoder::kMalformed) { ++counters_.malformed; pending_nak_ = kNakMalformed; return; }
  if (r == FrameDecoder::kOverrun) { ++counters_.overruns; pending_nak_ = kNakOverrun; return; }
  ++counters_.frames_ok;
  const uint8_t type = dec_.type();
  if (isUrgent(type)) {  // emergency parser: act now, ahead of the inbox and the queue
    last_rx_us_ = hal_.micros();
    urgent(type);
    return;
  }
  if (!isSequenced(type) || dec_.bodyLength() < 0 || dec_.bodyLength() > kMaxBody) {
    ++counters_.malformed;
    pending_nak_ = kNakMalformed;
    return;
  }
  const uint8_t next = static_cast<uint8_t>((in_head_ + 1) % kInboxCapacity);
  if (next == in_tail_) { ++counters_.inbox_full; pending_nak_ = kNakBusy; return; }
  InFrame& f = inbox_[in_head_];
  f.type = type;
  f.seq = dec_.seq();
  f.len = static_cast<uint8_t>(dec_.bodyLength());
  memcpy(f.body, dec_.body(), f.len);
  in_head_ = next;
}

void Controller::urgent(uint8_t type) {
  if (type == kEStop) {
    if (!estop_) estop_tick_ = ticks_;
    estop_ = true;
    // Cut torque right here, before the next servo tick.
    for (int j = 0; j < nj_; ++j) hal_.setMotorTorque(j, 0.0f);
    hal_.setDriveEnabled(false);
    drive_enabled_ = false;
    status_now_ = true;
  } else if (type == kStop) {
    stop_request_ = true;
    status_now_ = true;
  }
}

// ---------------------------------------------------------------- main loop
void Controller::poll() {
  while (in_tail_ != in_head_) {
    handleFrame(inbox_[in_tail_]);
    in_tail_ = static_cast<uint8_t>((in_tail_ + 1) % kInboxCapacity);
  }
  if (pending_nak_) {
    const uint8_t r = pending_nak_;
    pending_nak_ = 0;
    if (session_ && !nak_sent_) sendNak(r);
  }
  const uint32_t now = hal_.micros();
  if (status_now_ || static_cast<uint32_t>(now - last_status_us_) >= static_cast<uint32_t>(g_.status_period_ms) * 1000u) {
    status_now_ = false;
    last_status_us_ = now;
    if (session_) sendStatus();
  }
  // drain TX
  while (tx_tail_ != tx_head_) {
    const uint16_t end = tx_head_ > tx_tail_ ? tx_head_ : kTxCapacity;
    const size_t w = hal_.serialWrite(tx_ + tx_tail_, end - tx_tail_);
    if (w == 0) break;
    tx_tail_ = static_cast<uint16_t>((tx_tail_ + w) % kTxCapacity);
  }
}

void Controller::sendFrame(uint8_t type, const uint8_t* body, size_t n) {
  uint8_t frame[kMaxEncoded];
  const size_t len = buildFrame(type, 0, body, n, frame, sizeof frame);
  const int used = (tx_head_ - tx_tail_ + kTxCapacity) % kTxCapacity;
  if (len == 0 || static_cast<int>(len) >= kTxCapacity - 1 - used) return;  // drop: host tolerates lost replies
  for (size_t i = 0; i < len; ++i) {
    tx_[tx_head_] = frame[i];
    tx_head_ = static_cast<uint16_t>((tx_head_ + 1) % kTxCapacity);
  }
}

void Controller::sendAck() {
  uint8_t b[8];
  Ack a;
  a.next_seq = expected_seq_;
  a.credits = static_cast<uint16_t>(credits());
  sendFrame(kAck, b, encode(a, b, sizeof b));
}

void Controller::sendNak(uint8_t reason) {
  uint8_t b[4];
  Nak n;
  n.expected_seq = expected_seq_;
  n.reason = reason;
  sendFrame(kNak, b, encode(n, b, sizeof b));
  nak_sent_ = true;
  ++counters_.naks_sent;
}

void Controller::sendCaps(uint32_t nonce) {
  uint8_t b[kMaxBody];
  Caps c;
  c.schema = schemaId();
  c.joints = static_cast<uint8_t>(nj_);
  c.servo_hz = servo_hz_;
  c.queue_capacity = kQueueCapacity;
  c.status_hz = static_cast<uint16_t>(g_.status_period_ms ? 1000 / g_.status_period_ms : 0);
  c.nonce = nonce;
  memcpy(c.name, name_, sizeof c.name);
  sendFrame(kCaps, b, encode(c, b, sizeof b));
}

void Controller::sendStatus() {
  uint8_t b[kMaxBody];
  Status s;
  s.time_us = hal_.micros();
  s.state = state_;
  s.estop = estop_ ? 1 : 0;
  s.faults = faults_;
  s.fault_joint = fault_joint_;
  s.queue_fill = static_cast<uint16_t>(q_count_);
  s.credits = static_cast<uint16_t>(credits());
  s.segment_id = current_id_;
  s.segments_done = segments_done_;
  s.traj_time_us = traj_time_us_;
  s.joints = static_cast<uint8_t>(nj_);
  for (int j = 0; j < nj_; ++j) {
    s.q[j] = toFixed(q_meas_[j], kPosScale);
    s.v[j] = toFixed(v_meas_[j], kVelScale);
    s.q_cmd[j] = toFixed(q_cmd_[j], kPosScale);
  }
  sendFrame(kStatus, b, encode(s, b, sizeof b));
}

void Controller::raise(uint16_t fault, uint8_t joint, uint32_t seg, int32_t value) {
  faults_ |= fault;
  if (fault_joint_ == 0xFF) fault_joint_ = joint;
  uint8_t b[16];
  Event e;
  e.fault = fault;
  e.joint = joint;
  e.segment_id = seg;
  e.value = value;
  sendFrame(kEvent, b, encode(e, b, sizeof b));
  status_now_ = true;
}

void Controller::flushQueue() {
  q_head_ = 0;
  q_count_ = 0;
  have_tail_ = false;
  elapsed_ = 0;
}

void Controller::resetCommandToMeasured() {
  for (int j = 0; j < nj_; ++j) {
    // hold where the arm is — but never command outside the limits (an arm resting a hair beyond
    // its lower limit under gravity is pulled back in by at most the 0.02 rad position tolerance)
    q_cmd_[j] = configured_[j] ? clampd(q_meas_[j], cfg_[j].q_min, cfg_[j].q_max) : q_meas_[j];
    v_cmd_[j] = a_cmd_[j] = integ_[j] = 0;
  }
}

void Controller::beginStop(uint16_t fault, uint8_t joint) {
  if (fault) raise(fault, joint, current_id_, 0);
  flushQueue();
  if (state_ == State::EStop || state_ == State::Unconfigured) return;
  state_ = State::Stopping;
  scale_ = 1;
  status_now_ = true;
}

void Controller::handleFrame(const InFrame& f) {
  last_rx_us_ = hal_.micros();
  if (f.type == kHello) {  // (re)starts the session at whatever sequence the host chose
    Hello h;
    if (!decode(f.body, f.len, h)) { sendNak(kNakMalformed); return; }
    if (session_ && h.nonce == session_nonce_ && f.seq == session_hello_seq_) {
      // the session's own HELLO again (resent or duplicated on the wire): answer, keep the sequence
      ++counters_.duplicates;
      sendCaps(h.nonce);
      sendAck();
      return;
    }
    // a new session never inherits the previous one's motion: its host may be gone or may not know it
    if (state_ == State::Running || state_ == State::Paused) beginStop(0, 0xFF);
    session_ = true;
    session_nonce_ = h.nonce;
    session_hello_seq_ = f.seq;
    expected_seq_ = static_cast<uint8_t>(f.seq + 1);
    nak_sent_ = false;
    sendCaps(h.nonce);
    sendAck();
    status_now_ = true;
    return;
  }
  if (!session_) return;
  if (f.seq != expected_seq_) {
    const uint8_t behind = static_cast<uint8_t>(expected_seq_ - f.seq);
    if (behind >= 1 && behind <= 128) {  // duplicate of something already accepted: re-ACK
      ++counters_.duplicates;
      sendAck();
    } else {
      ++counters_.out_of_order;
      if (!nak_sent_) sendNak(kNakSequence);
    }
    return;
  }
  bool ok = true;
  switch (f.type) {
    case kConfigJoint: {
      JointConfig c;
      ok = decode(f.body, f.len, c);
      if (!ok) break;
      const bool moving = state_ == State::Running || state_ == State::Paused || state_ == State::Stopping;
      if (c.joint >= nj_ || moving) { raise(kFaultBadConfig, c.joint, 0, 0); break; }
      const bool valid = finitef(c.gear_ratio) && c.gear_ratio != 0.0f && c.counts_per_rev > 0 && finitef(c.q_min) &&
                         finitef(c.q_max) && c.q_min < c.q_max && finitef(c.v_max) && c.v_max > 0 && finitef(c.a_max) &&
                         c.a_max > 0 && finitef(c.torque_max) && c.torque_max > 0 && finitef(c.kp) && c.kp >= 0 &&
                         finitef(c.ki) && c.ki >= 0 && finitef(c.kd) && c.kd >= 0 && finitef(c.inertia_ff) &&
                         finitef(c.viscous_ff);
      if (!valid) { raise(kFaultBadConfig, c.joint, 0, 0); break; }
      cfg_[c.joint] = c;
      configured_[c.joint] = true;
      first_read_ = true;
      readEncoders();
      resetCommandToMeasured();
      if (state_ == State::Unconfigured && allConfigured()) state_ = State::Idle;
      break;
    }
    case kConfigGlobal: {
      GlobalConfig c;
      ok = decode(f.body, f.len, c);
      if (!ok) break;
      if (c.watchdog_ms < kWatchdogMsMin || c.watchdog_ms > kWatchdogMsMax || c.status_period_ms == 0 || !finitef(c.accel_margin) || c.accel_margin < 1.0f ||
          !finitef(c.following_error_max) || c.following_error_max <= 0 || !finitef(c.start_tolerance) ||
          c.start_tolerance < 0) {
        raise(kFaultBadConfig, 0xFF, 0, 0);
        break;
      }
      g_ = c;
      break;
    }
    case kSegment: {
      Segment s;
      ok = decode(f.body, f.len, s);
      if (!ok) break;
      if (q_count_ >= kQueueCapacity && !(s.flags & kSegBlend)) {  // host ignored its credit: refuse, resend later
        sendNak(kNakNoCredit);
        return;
      }
      handleSegment(s);
      break;
    }
    case kStart:
      if (!allConfigured()) { raise(kFaultNotConfigured, 0xFF, 0, 0); break; }
      if (faults_ || estop_) break;
      if (state_ == State::Idle || state_ == State::Paused) {
        state_ = State::Running;
        scale_ = 1;
        scale_target_ = 1;
      }
      break;
    case kPause:
      if (state_ == State::Running) {
        double t = 0.02;
        for (int j = 0; j < nj_; ++j) {
          const double tj = 2.0 * fabs(v_cmd_[j]) / cfg_[j].a_max;
          if (tj > t) t = tj;
        }
        scale_rate_ = 1.0 / t;
        scale_target_ = 0;
        state_ = State::Paused;
      }
      break;
    case kResume:
      if (state_ == State::Paused && !faults_ && !estop_) {
        if (scale_rate_ <= 0) scale_rate_ = 50;
        scale_target_ = 1;
        state_ = State::Running;
      }
      break;
    case kClearFaults: {
      const bool moving = state_ == State::Running || state_ == State::Paused || state_ == State::Stopping;
      if (moving) break;
      faults_ = 0;
      fault_joint_ = 0xFF;
      if (estop_) {
        estop_ = false;
        first_read_ = true;
        readEncoders();
      }
      resetCommandToMeasured();
      flushQueue();
      state_ = allConfigured() ? State::Idle : State::Unconfigured;
      break;
    }
    case kHeartbeat:
      break;
    case kHome: {
      Home h;
      ok = decode(f.body, f.len, h);
      if (!ok) break;
      if (h.joint >= nj_ || !configured_[h.joint] || !(state_ == State::Idle || state_ == State::Fault)) { raise(kFaultBadConfig, h.joint, 0, 0); break; }
      const JointConfig& k = cfg_[h.joint];
      const double counts_per_rad = static_cast<double>(k.counts_per_rev) * k.gear_ratio / kTwoPi;
      const int32_t now = hal_.readEncoder(h.joint);
      cfg_[h.joint].zero_offset = now - static_cast<int32_t>(lround(h.q / kPosScale * counts_per_rad));
      first_read_ = true;
      readEncoders();
      resetCommandToMeasured();
      break;
    }
    default:
      ok = false;
  }
  if (!ok) {  // a well-framed but undecodable message: skip it so the stream does not stall
    ++counters_.malformed;
  }
  expected_seq_ = static_cast<uint8_t>(expected_seq_ + 1);
  nak_sent_ = false;
  sendAck();
  status_now_ = status_now_ || f.type != kSegment;
}

void Controller::handleSegment(const Segment& s) {
  if (!allConfigured()) { raise(kFaultNotConfigured, 0xFF, s.id, 0); ++counters_.segments_rejected; return; }
  if (faults_ || estop_ || state_ == State::Stopping) { ++counters_.segments_rejected; return; }
  if (s.joints != nj_) { raise(kFaultBadConfig, 0xFF, s.id, s.joints); ++counters_.segments_rejected; return; }
  double T = s.duration_us * 1e-6;
  const bool blend = (s.flags & kSegBlend) != 0;
  double qa[kMaxJoints], va[kMaxJoints];
  for (int j = 0; j < nj_; ++j) {
    qa[j] = blend ? q_cmd_[j] : s.a[j].q / kPosScale;
    va[j] = blend ? v_cmd_[j] : s.a[j].v / kVelScale;
  }
  if (blend) {
    // Stretch the blend until every joint's cubic respects its limits (bounded search): first at
    // a_max itself, then — e.g. joining a plan that starts at full acceleration — within accel_margin.
    bool fits = false;
    if (T < 1e-3) T = 1e-3;
    const double T_req = T;
    const double margins[2] = {1.0, g_.accel_margin};
    for (int m = 0; m < 2 && !fits; ++m) {
      T = T_req;
      for (int it = 0; it < 40 && !fits; ++it) {
        fits = true;
        for (int j = 0; j < nj_ && fits; ++j) {
          // the arm may stand slightly outside its limits (sag, homing): a blend may start there
          const JointLimitsF lim{qa[j] < cfg_[j].q_min ? qa[j] : cfg_[j].q_min, qa[j] > cfg_[j].q_max ? qa[j] : cfg_[j].q_max,
                                 cfg_[j].v_max, cfg_[j].a_max};
          fits = checkPiece(qa[j], va[j], s.b[j].q / kPosScale, s.b[j].v / kVelScale, T, lim, margins[m], nullptr) ==
                 LimitViolation::None;
        }
        if (!fits) T *= 1.25;
      }
    }
    if (!fits || T > 60.0) {
      ++counters_.segments_rejected;
      beginStop(0, 0xFF);
      raise(kFaultSegmentLimit, 0xFF, s.id, 0);
      return;
    }
  } else {
    // Continuity: with the previous segment (exact, fixed point), or with the arm when starting.
    bool cont = true;
    if (have_tail_) {
      cont = s.t_start_us == tail_end_us_;
      for (int j = 0; j < nj_ && cont; ++j) cont = s.a[j].q == tail_.b[j].q && s.a[j].v == tail_.b[j].v;
    } else {
      for (int j = 0; j < nj_ && cont; ++j) cont = fabs(qa[j] - q_cmd_[j]) <= g_.start_tolerance && fabs(va[j]) <= 1e-3;
    }
    if (!cont) {
      ++counters_.segments_rejected;
      raise(kFaultDiscontinuity, 0xFF, s.id, static_cast<int32_t>(s.t_start_us));
      beginStop(0, 0xFF);
      return;
    }
    for (int j = 0; j < nj_; ++j) {
      const JointLimitsF lim{cfg_[j].q_min, cfg_[j].q_max, cfg_[j].v_max, cfg_[j].a_max};
      double worst = 0;
      const LimitViolation v =
          checkPiece(qa[j], va[j], s.b[j].q / kPosScale, s.b[j].v / kVelScale, T, lim, g_.accel_margin, &worst);
      if (v != LimitViolation::None) {
        ++counters_.segments_rejected;
        raise(kFaultSegmentLimit, static_cast<uint8_t>(j), s.id, toFixed(worst, kPosScale));
        beginStop(0, static_cast<uint8_t>(j));
        return;
      }
    }
  }
  if (blend) {
    flushQueue();
    executed_any_ = false;
    // A streamed target starts moving by itself; a blended plan waits for START like any other.
    if ((s.flags & kSegStream) && state_ == State::Idle) {
      state_ = State::Running;
      scale_ = scale_target_ = 1;
    }
  }
  QSeg& slot = queue_[(q_head_ + q_count_) % kQueueCapacity];
  slot.s = s;
  slot.dur = T;
  if (blend) {
    for (int j = 0; j < nj_; ++j) {
      slot.s.a[j].q = toFixed(qa[j], kPosScale);
      slot.s.a[j].v = toFixed(va[j], kVelScale);
    }
  }
  ++q_count_;
  tail_ = s;
  tail_end_us_ = s.t_start_us + s.duration_us;
  have_tail_ = true;
  ++counters_.segments_accepted;
}

// ---------------------------------------------------------------- servo tick
void Controller::readEncoders() {
  const double dt = 1.0 / servo_hz_;
  const double alpha = 1.0 - exp(-dt * kTwoPi * 150.0);  // 150 Hz velocity filter
  for (int j = 0; j < nj_; ++j) {
    const double q = configured_[j] ? countsToJoint(j, hal_.readEncoder(j)) : 0.0;
    if (first_read_) {
      q_prev_[j] = q;
      v_meas_[j] = 0;
    }
    const double raw_v = (q - q_prev_[j]) / dt;
    v_meas_[j] += alpha * (raw_v - v_meas_[j]);
    q_prev_[j] = q;
    q_meas_[j] = q;
  }
  first_read_ = false;
}

void Controller::interpolate(double dt) {
  // time scaling (pause/resume ramps along the path)
  double sdot = 0;
  if (scale_ != scale_target_) {
    const double step = scale_rate_ * dt;
    if (scale_ < scale_target_) { scale_ = scale_ + step > scale_target_ ? scale_target_ : scale_ + step; sdot = scale_rate_; }
    else { scale_ = scale_ - step < scale_target_ ? scale_target_ : scale_ - step; sdot = -scale_rate_; }
  }
  if (q_count_ == 0) {  // running with nothing queued: brake to a hold (stream idle / waiting for the first segment)
    if (!rampDown(dt))
      for (int j = 0; j < nj_; ++j) a_cmd_[j] = 0;
    return;
  }
  elapsed_ += scale_ * dt;
  while (q_count_ > 0 && elapsed_ >= queue_[q_head_].dur) {
    const QSeg& done = queue_[q_head_];
    elapsed_ -= done.dur;
    last_flags_ = done.s.flags;
    current_id_ = done.s.id;
    last_done_id_ = done.s.id;
    ++segments_done_;
    executed_any_ = true;
    if (q_count_ == 1) {
      // the last queued segment has finished: land exactly on its end
      for (int j = 0; j < nj_; ++j) {
        q_cmd_[j] = done.s.b[j].q / kPosScale;
        v_cmd_[j] = done.s.b[j].v / kVelScale;
        a_cmd_[j] = 0;
      }
      traj_time_us_ = done.s.t_start_us + done.s.duration_us;
    }
    q_head_ = (q_head_ + 1) % kQueueCapacity;
    --q_count_;
  }
  if (q_count_ == 0) {
    elapsed_ = 0;
    bool moving = false;
    for (int j = 0; j < nj_; ++j) moving = moving || fabs(v_cmd_[j]) > 1e-6;
    if (last_flags_ & kSegLast) {
      have_tail_ = false;
      if (moving) beginStop(0, 0xFF);
      else state_ = State::Idle;
      for (int j = 0; j < nj_; ++j) v_cmd_[j] = a_cmd_[j] = 0;
    } else if (last_flags_ & kSegStream) {
      // the stream ran dry while moving: brake within a_max but stay Running, ready for the next target
      if (moving) rampDown(dt);
      return;
    } else {
      beginStop(kFaultUnderrun, 0xFF);
    }
    status_now_ = true;
    return;
  }
  const QSeg& cur = queue_[q_head_];
  current_id_ = cur.s.id;
  traj_time_us_ = cur.s.t_start_us + static_cast<uint32_t>(elapsed_ * 1e6 * (cur.s.duration_us * 1e-6 / cur.dur));
  for (int j = 0; j < nj_; ++j) {
    double q, v, a;
    hermite(cur.s.a[j].q / kPosScale, cur.s.a[j].v / kVelScale, cur.s.b[j].q / kPosScale, cur.s.b[j].v / kVelScale,
            cur.dur, elapsed_, q, v, a);
    q_cmd_[j] = q;
    v_cmd_[j] = scale_ * v;
    a_cmd_[j] = scale_ * scale_ * a + sdot * v;
  }
}

void Controller::decelerate(double dt) {
  if (!rampDown(dt)) {
    for (int j = 0; j < nj_; ++j) a_cmd_[j] = 0;
    state_ = faults_ ? State::Fault : State::Idle;
    status_now_ = true;
  }
}

bool Controller::rampDown(double dt) {
  bool moving = false;
  for (int j = 0; j < nj_; ++j) {
    const double dv = cfg_[j].a_max * dt;
    double v = v_cmd_[j];
    if (fabs(v) <= dv) { a_cmd_[j] = -v / dt; v = 0; }
    else { a_cmd_[j] = v > 0 ? -cfg_[j].a_max : cfg_[j].a_max; v += v > 0 ? -dv : dv; moving = true; }
    q_cmd_[j] = clampd(q_cmd_[j] + 0.5 * (v + v_cmd_[j]) * dt, cfg_[j].q_min, cfg_[j].q_max);
    v_cmd_[j] = v;
  }
  return moving;
}

void Controller::tick() {
  ++ticks_;
  const double dt = 1.0 / servo_hz_;
  readEncoders();
  if (estop_) {
    for (int j = 0; j < nj_; ++j) hal_.setMotorTorque(j, 0.0f);
    hal_.setDriveEnabled(false);
    drive_enabled_ = false;
    if (state_ != State::EStop) {
      faults_ |= kFaultEStop;
      flushQueue();
      state_ = State::EStop;
      status_now_ = true;
    }
    resetCommandToMeasured();
    return;
  }
  if (state_ == State::Unconfigured) {
    for (int j = 0; j < nj_; ++j) hal_.setMotorTorque(j, 0.0f);
    hal_.setDriveEnabled(false);
    drive_enabled_ = false;
    return;
  }
  if (stop_request_) {
    stop_request_ = false;
    beginStop(0, 0xFF);
  }
  // watchdog: only while motion is commanded
  const bool active = state_ == State::Running || state_ == State::Paused;
  if (active && static_cast<uint32_t>(hal_.micros() - last_rx_us_) > static_cast<uint32_t>(g_.watchdog_ms) * 1000u)
    beginStop(kFaultWatchdog, 0xFF);

  if (state_ == State::Running || state_ == State::Paused) interpolate(dt);
  else if (state_ == State::Stopping) decelerate(dt);
  else
    for (int j = 0; j < nj_; ++j) v_cmd_[j] = a_cmd_[j] = 0;

  // supervision
  for (int j = 0; j < nj_; ++j) {
    if (fabs(q_cmd_[j] - q_meas_[j]) > g_.following_error_max && !(faults_ & kFaultFollowing)) {
      beginStop(kFaultFollowing, static_cast<uint8_t>(j));
      resetCommandToMeasured();
    }
    const double tol = 0.02;
    if ((q_meas_[j] < cfg_[j].q_min - tol || q_meas_[j] > cfg_[j].q_max + tol) && !(faults_ & kFaultPositionLimit))
      beginStop(kFaultPositionLimit, static_cast<uint8_t>(j));
  }

  // per-joint PID on position + velocity/acceleration feed-forward, joint side, then to the motor
  hal_.setDriveEnabled(true);
  drive_enabled_ = true;
  for (int j = 0; j < nj_; ++j) {
    const JointConfig& k = cfg_[j];
    const double e = q_cmd_[j] - q_meas_[j];
    double tau_pd = k.kp * e + k.kd * (v_cmd_[j] - v_meas_[j]) + k.inertia_ff * a_cmd_[j] + k.viscous_ff * v_cmd_[j];
    if (k.ki > 0) {
      const double lim = 0.5 * k.torque_max / k.ki;  // anti-windup: integral term ≤ half the torque
      integ_[j] = clampd(integ_[j] + e * dt, -lim, lim);
      tau_pd += k.ki * integ_[j];
    }
    const double tau = clampd(tau_pd, -k.torque_max, k.torque_max);
    hal_.setMotorTorque(j, static_cast<float>(tau / k.gear_ratio));  // τ_joint = N·τ_motor
  }
}

}  // namespace bridge
}  // namespace achain
