#include "host_session.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace achain {
namespace bridge {

double HostSession::rand01() {
  rng_ ^= rng_ << 13;
  rng_ ^= rng_ >> 17;
  rng_ ^= rng_ << 5;
  return (rng_ & 0xFFFFFF) / 16777216.0;
}

void HostSession::openBurst() {
  // a delimiter opens each write burst: line garbage that came before it (noise, a half frame of a dead
  // host) then ends as one bad frame instead of spoiling this one — with garbage every 30–50 ms on the
  // line, HELLO (resent every 80 ms) would otherwise never get through
  if (out_.empty()) out_.push_back(0x00);
}

void HostSession::emitRaw(const uint8_t* frame, size_t n) {
  if (drop_ > 0 && rand01() < drop_) return;  // injected loss (tests)
  openBurst();
  const size_t start = out_.size();
  out_.insert(out_.end(), frame, frame + n);
  if (corrupt_ > 0 && n > 2 && rand01() < corrupt_) {  // injected corruption: flip bits of one non-delimiter byte
    const size_t k = start + static_cast<size_t>(rand01() * (n - 1));
    uint8_t b = static_cast<uint8_t>(out_[k] ^ (1u << static_cast<int>(rand01() * 8)));
    if (b == 0) b = 0x5A;
    out_[k] = b;
  }
  last_tx_us_ = now_;
}

void HostSession::transmit(const Msg& m, bool resend) {
  uint8_t frame[kMaxEncoded];
  const size_t n = buildFrame(m.type, m.seq, m.body.data(), m.body.size(), frame, sizeof frame);
  if (!n) return;
  emitRaw(frame, n);
  ++counters_.frames_sent;
  if (resend) ++counters_.frames_resent;
}

void HostSession::sendUrgent(uint8_t type) {
  uint8_t frame[16];
  const size_t n = buildFrame(type, 0, nullptr, 0, frame, sizeof frame);
  // urgent frames are never dropped or corrupted by the test hooks: their repetition is tested separately
  openBurst();
  out_.insert(out_.end(), frame, frame + n);
  ++counters_.frames_sent;
  last_tx_us_ = now_;
  urgent_us_ = now_;
}

size_t HostSession::takeOutput(uint8_t* out, size_t cap) {
  const size_t n = out_.size() < cap ? out_.size() : cap;
  if (n) {
    std::memcpy(out, out_.data(), n);
    out_.erase(out_.begin(), out_.begin() + static_cast<long>(n));
  }
  return n;
}

void HostSession::enqueue(uint8_t type, const uint8_t* body, size_t n, bool segment, bool stream) {
  Msg m;
  m.type = type;
  m.body.assign(body, body + n);
  m.is_segment = segment;
  m.stream = stream;
  pending_.push_back(std::move(m));
}

void HostSession::connect(uint64_t now_us, uint32_t nonce) {
  now_ = now_us;
  pending_.clear();
  inflight_.clear();
  have_caps_ = false;
  have_status_ = false;
  error_.clear();
  lost_ = SessionLoss::None;
  credit_base_ = 0;
  clear_wanted_ = false;  // a new session starts from the controller's own report
  if (nonce == 0) {  // a fresh nonce per connect (splitmix64 of the time and a counter), never 0
    uint64_t z = now_us + 0x9E3779B97F4A7C15ull * (++connects_);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    nonce = static_cast<uint32_t>(z ^ (z >> 31));
    if (nonce == 0) nonce = 1;
  }
  nonce_ = nonce;
  Hello h;
  h.nonce = nonce;
  uint8_t b[16];
  enqueue(kHello, b, encode(h, b, sizeof b));
  hello_sent_ = true;
  hello_us_ = now_us;
  last_rx_us_ = now_us;
  last_status_us_ = last_update_us_ = now_us;
}

void HostSession::loseSession(SessionLoss why, const std::string& msg) {
  if (lost_ != SessionLoss::None) return;
  lost_ = why;
  error_ = msg;
  // nothing queued or in flight is ever resent into another session: stale motion would run from a
  // state the plan never assumed; STOP / ESTOP still go out (they need no session)
  pending_.clear();
  inflight_.clear();
  have_caps_ = false;
  have_target_ = target_moving_ = false;
}

void HostSession::configureGlobal(const GlobalConfig& g) {
  status_period_us_ = g.status_period_ms * 1000u;
  uint8_t b[kMaxBody];
  enqueue(kConfigGlobal, b, encode(g, b, sizeof b));
}
void HostSession::configureJoint(const JointConfig& c) {
  if (c.joint < kMaxJoints) {
    v_limit_[c.joint] = c.v_max;
    q_lo_[c.joint] = c.q_min;
    q_hi_[c.joint] = c.q_max;
  }
  uint8_t b[kMaxBody];
  enqueue(kConfigJoint, b, encode(c, b, sizeof b));
}
void HostSession::queueSegments(const std::vector<Segment>& segs) {
  uint8_t b[kMaxBody];
  if (!segs.empty() && (segs.front().flags & kSegBlend)) dropPendingSegments();  // a replacement plan
  for (const Segment& s : segs) enqueue(kSegment, b, encode(s, b, sizeof b), true, (s.flags & kSegBlend) != 0);
}
void HostSession::start() { enqueue(kStart, nullptr, 0); }
void HostSession::pause() { enqueue(kPause, nullptr, 0); }
void HostSession::resume() { enqueue(kResume, nullptr, 0); }
namespace {
bool atRest(State s) { return s != State::Running && s != State::Paused && s != State::Stopping; }
bool faulted(const Status& s) { return s.faults != 0 || s.estop != 0; }
}  // namespace

void HostSession::clearFaults() {
  estop_pending_ = stop_pending_ = false;
  clear_wanted_ = true;
  clear_reraised_ = false;
  clear_acked_at_ = UINT64_MAX;
  // the controller ignores CLEAR_FAULTS while it moves (a watchdog or limit stop still ramping down): wait for rest
  clear_sent_ = !have_status_ || atRest(status_.state);
  if (clear_sent_) enqueue(kClearFaults, nullptr, 0);
}

bool HostSession::clearFaultsPending() const {
  return clear_wanted_ && !clear_reraised_ && lost_ == SessionLoss::None && have_caps_;
}

std::string HostSession::clearFaultsWhy() const {
  if (!clear_wanted_) return "";
  if (lost_ != SessionLoss::None) return "the session with the controller has ended (" + error_ + ")";
  if (!have_caps_) return "not connected to a controller: connect first";
  if (!clear_sent_)
    return std::string("the controller is still ") + stateName(status_.state) +
           ": it clears faults only once the arm is at rest, and the request is sent then";
  if (clearFaultsPending()) return "waiting for the controller to confirm";
  std::string names;
  for (int b = 0; b < kFaultCount; ++b)
    if (status_.faults & (1u << b)) names += std::string(names.empty() ? "" : ", ") + faultName(static_cast<uint16_t>(1u << b));
  return "the controller raised " + (names.empty() ? std::string("its e-stop") : names) +
         " again right after clearing: the cause is still there (see its fault list)";
}
void HostSession::heartbeat() { enqueue(kHeartbeat, nullptr, 0); }
void HostSession::home(uint8_t joint, double q) {
  Home h;
  h.joint = joint;
  h.q = toFixed(q, kPosScale);
  uint8_t b[16];
  enqueue(kHome, b, encode(h, b, sizeof b));
}

void HostSession::streamTarget(const double* q, int n, double duration) {
  Segment s;
  s.id = 0xFFFF0000u;
  s.t_start_us = 0;
  s.duration_us = static_cast<uint32_t>(std::lround((duration > 0.001 ? duration : 0.001) * 1e6));
  s.flags = kSegBlend | kSegStream;
  s.joints = static_cast<uint8_t>(n > kMaxJoints ? kMaxJoints : n);
  // end the blend moving with the target (finite difference of successive targets, ≤ 0.5 s apart),
  // so a moving gizmo is tracked without a stop-and-go lag; a target that stays put ends at rest
  const double dt = (now_ - last_target_us_) * 1e-6;
  for (int j = 0; j < s.joints; ++j) {
    double v = (have_target_ && dt > 1e-3 && dt < 0.5) ? (q[j] - last_target_[j]) / dt : 0.0;
    const double vl = 0.9 * v_limit_[j];  // the host never asks for more than the configured limit
    v = v > vl ? vl : (v < -vl ? -vl : v);
    // aim where the target will be when the blend ends (constant-velocity prediction), inside the limits
    double q1 = q[j] + v * duration;
    q1 = q1 < q_lo_[j] ? q_lo_[j] : (q1 > q_hi_[j] ? q_hi_[j] : q1);
    if (q1 == q_lo_[j] || q1 == q_hi_[j]) v = 0;
    s.b[j].q = toFixed(q1, kPosScale);
    s.b[j].v = toFixed(v, kVelScale);
    last_target_[j] = q[j];
  }
  have_target_ = true;
  last_target_us_ = now_;
  last_target_n_ = s.joints;
  last_target_duration_ = duration;
  target_moving_ = false;
  for (int j = 0; j < s.joints; ++j) target_moving_ = target_moving_ || s.b[j].v != 0;
  uint8_t b[kMaxBody];
  const size_t len = encode(s, b, sizeof b);
  for (Msg& m : pending_)
    if (m.stream) {  // coalesce: the newest target wins
      m.body.assign(b, b + len);
      return;
    }
  dropPendingSegments();  // teleoperation replaces whatever plan was still waiting
  enqueue(kSegment, b, len, true, true);
}

void HostSession::dropPendingSegments() {
  for (auto it = pending_.begin(); it != pending_.end();) it = it->is_segment ? pending_.erase(it) : it + 1;
}

void HostSession::stop(uint64_t now_us) {
  now_ = now_us;
  dropPendingSegments();  // queued motion is meaningless after a stop
  stop_pending_ = true;
  urgent_repeats_ = 0;
  sendUrgent(kStop);
}

void HostSession::estop(uint64_t now_us) {
  now_ = now_us;
  pending_.clear();
  estop_pending_ = true;
  urgent_repeats_ = 0;
  sendUrgent(kEStop);
}

size_t HostSession::segmentsPending() const {
  size_t n = 0;
  for (const Msg& m : pending_) n += m.is_segment;
  for (const Msg& m : inflight_) n += m.is_segment;
  return n;
}

int HostSession::credits() const {
  int inflight_segments = 0;
  for (const Msg& m : inflight_) inflight_segments += (m.is_segment && !m.stream);
  return credit_base_ - inflight_segments;
}

void HostSession::resendAll(uint64_t now_us) {
  for (Msg& m : inflight_) {
    m.sent_us = now_us;
    transmit(m, true);
  }
  last_resend_us_ = now_us;
}

void HostSession::update(uint64_t now_us) {
  now_ = now_us;
  // urgent frames: repeat until the controller's status confirms them
  if ((estop_pending_ || stop_pending_) && now_us - urgent_us_ >= opt_.urgent_repeat_us && urgent_repeats_ < 100) {
    ++urgent_repeats_;
    sendUrgent(estop_pending_ ? kEStop : kStop);
  }
  if (hello_sent_ && !have_caps_ && now_us - hello_us_ > opt_.hello_timeout_us && error_.empty())
    error_ = "no answer from the controller (no CAPS within the hello timeout): wrong port or baud rate, or the controller is not running";
  if (have_caps_) {
    // a silent controller (dead firmware behind a port that stays open, a reboot, a cut cable): no STATUS
    // for a few status periods. A pause of this loop itself (a busy host) is not the controller's silence.
    const uint64_t period = std::max<uint64_t>(caps_.status_hz ? 1000000u / caps_.status_hz : 20000u, status_period_us_);
    const uint64_t limit = period * static_cast<uint64_t>(opt_.silence_periods > 0 ? opt_.silence_periods : 5);
    const uint64_t gap = now_us - last_update_us_;
    if (gap > limit / 2) last_status_us_ = std::min<uint64_t>(last_status_us_ + gap, now_us);
    if (now_us > last_status_us_ && now_us - last_status_us_ > limit)
      loseSession(SessionLoss::Silent,
                  "the controller is silent: no status for " + std::to_string((now_us - last_status_us_) / 1000) + " ms (" +
                      std::to_string(opt_.silence_periods) + " status periods of " + std::to_string(period / 1000) +
                      " ms): it stopped, rebooted or its link broke (a USB adapter can keep the port open); a moving arm "
                      "is stopped by its watchdog. Nothing more is sent: reconnect when it answers again");
  }
  last_update_us_ = now_us;
  if (lost_ != SessionLoss::None) return;
  // timeout → go-back-N resend
  if (!inflight_.empty() && now_us - inflight_.front().sent_us > opt_.resend_timeout_us) resendAll(now_us);
  // send new frames within the window; control frames may overtake segments that wait for credit
  bool progressed = true;
  while (progressed && static_cast<int>(inflight_.size()) < opt_.window && !pending_.empty()) {
    progressed = false;
    for (auto it = pending_.begin(); it != pending_.end(); ++it) {
      if (!have_caps_ && it->type != kHello) break;
      if (it->is_segment && !it->stream && credits() <= 0) continue;
      Msg m = std::move(*it);
      pending_.erase(it);
      m.seq = next_seq_++;
      m.sent_us = now_us;
      if (m.is_segment) ++counters_.segments_sent;
      transmit(m, false);
      inflight_.push_back(std::move(m));
      progressed = true;
      break;
    }
  }
  // teleoperation: when targets stop coming, settle exactly on the last one (at rest)
  if (have_target_ && target_moving_ && now_us - last_target_us_ > static_cast<uint64_t>(last_target_duration_ * 1e6) + 20000) {
    Segment s;
    s.id = 0xFFFF0000u;
    s.duration_us = static_cast<uint32_t>(std::lround(last_target_duration_ * 1e6));
    s.flags = kSegBlend | kSegStream;
    s.joints = static_cast<uint8_t>(last_target_n_);
    for (int j = 0; j < s.joints; ++j) s.b[j].q = toFixed(last_target_[j], kPosScale);
    uint8_t b[kMaxBody];
    dropPendingSegments();
    enqueue(kSegment, b, encode(s, b, sizeof b), true, true);
    target_moving_ = false;
  }
  // keep the watchdog fed while this engine runs — also when segments wait for credit (paused, full queue)
  if (have_caps_ && now_us - last_tx_us_ >= opt_.heartbeat_us && static_cast<int>(inflight_.size()) < opt_.window) {
    Msg m;
    m.type = kHeartbeat;
    m.seq = next_seq_++;
    m.sent_us = now_us;
    transmit(m, false);
    inflight_.push_back(std::move(m));
  }
}

bool HostSession::onAck(uint8_t next_seq, uint16_t credits) {
  // next_seq acknowledges every frame before it, so it can never lie beyond the frames this session
  // sent: that would be a controller whose sequence was restarted (a stray HELLO, a reboot, another host)
  const uint8_t ahead = static_cast<uint8_t>(next_seq - next_seq_);
  if (ahead >= 1 && ahead <= 127) return false;
  while (!inflight_.empty()) {
    const uint8_t d = static_cast<uint8_t>(next_seq - inflight_.front().seq);
    if (d < 1 || d > 128) break;
    if (inflight_.front().is_segment) ++counters_.segments_acked;
    if (inflight_.front().type == kClearFaults && clear_wanted_) clear_acked_at_ = counters_.statuses;
    inflight_.pop_front();
  }
  credit_base_ = credits;
  return true;
}

void HostSession::receive(const uint8_t* data, size_t n, uint64_t now_us) {
  now_ = now_us;
  for (size_t i = 0; i < n; ++i) {
    const FrameDecoder::Result r = dec_.feed(data[i]);
    if (r == FrameDecoder::kNone) continue;
    if (r == FrameDecoder::kCrcError) { ++counters_.rx_crc_errors; continue; }
    if (r != FrameDecoder::kFrame) { ++counters_.rx_malformed; continue; }
    last_rx_us_ = now_us;
    handle(dec_.type(), dec_.body(), dec_.bodyLength());
  }
}

void HostSession::handle(uint8_t type, const uint8_t* body, int n) {
  const size_t len = static_cast<size_t>(n);
  switch (type) {
    case kAck: {
      Ack a;
      if (!decode(body, len, a)) { ++counters_.rx_malformed; return; }
      if (!have_caps_) { ++counters_.stale_replies; return; }  // a reply to an earlier session's frames
      ++counters_.acks;
      if (!onAck(a.next_seq, a.credits))
        loseSession(SessionLoss::Reset,
                    "controller session reset: it acknowledged frames up to seq " + std::to_string(static_cast<uint8_t>(a.next_seq - 1)) +
                        " but this host has sent only up to seq " + std::to_string(static_cast<uint8_t>(next_seq_ - 1)) +
                        " (a stray HELLO, a reboot or another host restarted its sequence); frames it acknowledged "
                        "may never have run. Nothing is resent: reconnect, check the arm and send again");
      break;
    }
    case kNak: {
      Nak k;
      if (!decode(body, len, k)) { ++counters_.rx_malformed; return; }
      if (!have_caps_) { ++counters_.stale_replies; return; }
      ++counters_.naks;
      // the controller expects an in-flight frame or the next one; anything else means its sequence was
      // restarted (it expects a frame already acknowledged, or one never sent)
      if (static_cast<uint8_t>(next_seq_ - k.expected_seq) > inflight_.size() ||
          !onAck(k.expected_seq, static_cast<uint16_t>(credit_base_ < 0 ? 0 : credit_base_))) {
        loseSession(SessionLoss::Reset,
                    "controller session reset: it expects seq " + std::to_string(k.expected_seq) + ", which this host " +
                        (static_cast<uint8_t>(k.expected_seq - next_seq_) <= 127 ? "never sent" : "sent and saw acknowledged long ago") +
                        " (next seq " + std::to_string(next_seq_) + "; a stray HELLO, a reboot or another host restarted "
                        "its sequence). Nothing is resent: reconnect, check the arm and send again");
        return;
      }
      if (k.reason == kNakNoCredit) {
        credit_base_ = 0;
        if (!inflight_.empty()) inflight_.front().sent_us = now_;  // retry on the timeout, after credit returns
      } else if (now_ - last_resend_us_ >= 10000) {
        resendAll(now_);
      }
      break;
    }
    case kCaps: {
      Caps c;
      if (!decode(body, len, c)) { ++counters_.rx_malformed; return; }
      if (c.version != kProtocolVersion) {
        error_ = "controller speaks protocol version " + std::to_string(c.version) + ", this host speaks " +
                 std::to_string(kProtocolVersion) + ": update the firmware or the host";
        return;
      }
      if (c.schema != schemaId()) {
        error_ = "controller message layout (schema " + std::to_string(c.schema) + ") differs from the host's (" +
                 std::to_string(schemaId()) + "): build both from the same protocol.hpp";
        return;
      }
      if (c.nonce != nonce_ || have_caps_) {
        if (c.nonce == nonce_) break;  // our HELLO answered twice (it was resent or duplicated)
        if (!have_caps_) { ++counters_.stale_replies; break; }  // answers an earlier HELLO, not ours
        loseSession(SessionLoss::Reset, "controller session reset: it answered another HELLO (nonce " + std::to_string(c.nonce) +
                                            ", ours " + std::to_string(nonce_) + "): another host or a stray frame "
                                            "took it over. Nothing is resent: reconnect, check the arm and send again");
        break;
      }
      caps_ = c;
      have_caps_ = true;
      last_status_us_ = now_;
      break;
    }
    case kStatus: {
      Status s;
      if (!decode(body, len, s)) { ++counters_.rx_malformed; return; }
      if (!have_caps_ && lost_ == SessionLoss::None && hello_sent_) { ++counters_.stale_replies; return; }
      last_status_us_ = now_;
      status_ = s;
      have_status_ = true;
      ++counters_.statuses;
      credit_base_ = s.credits;
      if (estop_pending_ && s.estop) estop_pending_ = false;
      if (stop_pending_ && s.state != State::Running && s.state != State::Paused) stop_pending_ = false;
      if (clear_wanted_ && !clear_reraised_) {
        if (!clear_sent_) {
          if (atRest(s.state)) {
            enqueue(kClearFaults, nullptr, 0);  // the arm has stopped: send the request that waited
            clear_sent_ = true;
          }
        } else if (clear_acked_at_ != UINT64_MAX && counters_.statuses > clear_acked_at_) {
          // the controller handles a frame before it reports, so every status after the ACK shows the clear's effect
          if (faulted(s)) clear_reraised_ = true;
          else if (counters_.statuses >= clear_acked_at_ + 2) clear_wanted_ = false;  // done, and it stays so
        }
      }
      break;
    }
    case kEvent: {
      Event e;
      if (!decode(body, len, e)) { ++counters_.rx_malformed; return; }
      ++counters_.events;
      if (events_.size() < 256) events_.push_back(e);
      break;
    }
    default:
      ++counters_.rx_malformed;
  }
}

}  // namespace bridge
}  // namespace achain
