// The host streaming engine: one state machine, no I/O and no clock of its own. The caller feeds
// received bytes, asks for bytes to write and supplies the time — so the same engine drives the
// native CLI (POSIX serial / PTY), the in-process virtual controller, Node (serialport) and the
// browser (WebSerial or the virtual controller in a Worker) through WebAssembly.
//
// Reliability: sequenced frames with go-back-N resend on NAK or timeout; credit-based flow control
// for segments from the ACK/STATUS credits; heartbeats while idle so the controller's watchdog only
// fires when this engine (the application) stops; STOP/ESTOP sent at once and repeated until the
// controller's status confirms them.
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "../protocol/protocol.hpp"

namespace achain {
namespace bridge {

struct HostOptions {
  int window = 16;                  // frames in flight
  uint32_t resend_timeout_us = 80000;
  uint32_t heartbeat_us = 50000;
  uint32_t urgent_repeat_us = 20000;
  uint32_t hello_timeout_us = 2000000;
  uint32_t link_timeout_us = 1000000;  // no byte from the controller this long → link lost
  /// No STATUS for this many status periods (the period from CAPS) → the controller is declared silent
  /// (error(), nothing more is sent but STOP/ESTOP); a pause of the host's own loop does not count.
  int silence_periods = 5;
};

struct HostCounters {
  uint64_t frames_sent = 0, frames_resent = 0, acks = 0, naks = 0, rx_crc_errors = 0, rx_malformed = 0,
           statuses = 0, events = 0, segments_sent = 0, segments_acked = 0, stale_replies = 0;
};

/// Why a session ended on the controller's side (HostSession::lost()).
enum class SessionLoss : uint8_t {
  None,
  Reset,   // the controller's sequence jumped (an ACK for frames never sent, a NAK for acknowledged ones) or an
           // unsolicited CAPS: its session was restarted (a stray HELLO, a reboot, another host)
  Silent,  // no STATUS for silence_periods status periods while the host kept polling
};

class HostSession {
 public:
  explicit HostSession(HostOptions o = HostOptions()) : opt_(o) {}

  // ---- I/O ----
  void receive(const uint8_t* data, size_t n, uint64_t now_us);
  void update(uint64_t now_us);
  /// Bytes to write to the port (appended since the last call).
  size_t takeOutput(uint8_t* out, size_t cap);
  size_t pendingOutput() const { return out_.size(); }

  // ---- commands ----
  /// Starts (or restarts) a session with HELLO. nonce 0: a fresh one derived from the time and a counter,
  /// so a CAPS can be told apart from one answering another host's (or an earlier) HELLO.
  void connect(uint64_t now_us, uint32_t nonce = 0);
  void configureGlobal(const GlobalConfig& g);
  void configureJoint(const JointConfig& c);
  /// Queues segments for sending under credit; ids/times are the caller's. A list starting with a
  /// kSegBlend segment replaces the plan: segments not yet sent are dropped first.
  void queueSegments(const std::vector<Segment>& segs);
  /// Drops the segments not yet sent (a failed or replaced plan): none of them may reach the controller
  /// after its faults are cleared. Control frames stay queued.
  void cancelPendingSegments() { dropPendingSegments(); }
  void start();
  void pause();
  void resume();
  /// Clears latched faults and the e-stop. The controller clears them only at rest: while its status shows it
  /// still stopping the arm, the request waits here and is sent when a status shows the arm stopped.
  void clearFaults();
  /// True while a clearFaults() request waits: for the arm to stop, to be sent, or for a status that shows it done.
  bool clearFaultsPending() const;
  /// Why the last clearFaults() request has not taken effect, in words: while it is pending, what it waits for;
  /// after, what stands in the way (a lost session, faults raised again). Empty once the faults are cleared.
  std::string clearFaultsWhy() const;
  void home(uint8_t joint, double q);
  void heartbeat();  // (also sent automatically: every heartbeat_us without other traffic)
  /// Teleoperation: blend from the current command to q (SI) over `duration` s, ending with the
  /// target's own velocity (finite difference, ≤ 0.9·v_max) at its predicted position. Replaces a
  /// target that has not been sent yet, so a fast gizmo never piles up a backlog; when targets stop
  /// coming, the engine sends the last one again at rest so the arm settles exactly on it.
  void streamTarget(const double* q, int n, double duration);
  void stop(uint64_t now_us);
  void estop(uint64_t now_us);

  // ---- state ----
  bool connected() const { return have_caps_; }
  bool linkLost(uint64_t now_us) const { return have_caps_ && now_us - last_rx_us_ > opt_.link_timeout_us; }
  const Caps& caps() const { return caps_; }
  bool haveStatus() const { return have_status_; }
  const Status& status() const { return status_; }
  uint64_t statusCount() const { return counters_.statuses; }
  const HostCounters& counters() const { return counters_; }
  const std::vector<Event>& events() const { return events_; }
  const std::string& error() const { return error_; }
  /// Set when the controller's side ended the session (reset or silence): error() says which, in words.
  /// Every queued and in-flight sequenced frame was discarded, so no stale motion is resent; connect()
  /// starts a new session (the controller then reports its state, e.g. unconfigured after a reboot).
  SessionLoss lost() const { return lost_; }
  /// Frames queued or in flight (0 when everything sent has been acknowledged).
  size_t backlog() const { return pending_.size() + inflight_.size(); }
  size_t segmentsPending() const;
  int credits() const;
  /// Test hook: corrupt or drop outgoing frames with these probabilities (deterministic PRNG).
  void injectFaults(double drop, double corrupt, uint32_t seed) { drop_ = drop; corrupt_ = corrupt; rng_ = seed ? seed : 1; }

 private:
  struct Msg {
    uint8_t type;
    std::vector<uint8_t> body;
    uint8_t seq = 0;
    uint64_t sent_us = 0;
    bool is_segment = false;
    bool stream = false;
  };
  void dropPendingSegments();
  void enqueue(uint8_t type, const uint8_t* body, size_t n, bool segment = false, bool stream = false);
  void transmit(const Msg& m, bool resend);
  void openBurst();
  void emitRaw(const uint8_t* frame, size_t n);
  void sendUrgent(uint8_t type);
  void handle(uint8_t type, const uint8_t* body, int n);
  bool onAck(uint8_t next_seq, uint16_t credits);  // false: the ACK is inconsistent with what was sent
  void loseSession(SessionLoss why, const std::string& msg);
  void resendAll(uint64_t now_us);
  double rand01();

  HostOptions opt_;
  FrameDecoder dec_;
  std::vector<uint8_t> out_;
  std::deque<Msg> pending_;
  std::deque<Msg> inflight_;
  uint8_t next_seq_ = 0;
  int credit_base_ = 0;
  bool have_caps_ = false, hello_sent_ = false;
  uint64_t hello_us_ = 0;
  uint32_t nonce_ = 0;
  Caps caps_;
  bool have_status_ = false;
  Status status_;
  std::vector<Event> events_;
  std::string error_;
  HostCounters counters_;
  uint64_t now_ = 0, last_tx_us_ = 0, last_rx_us_ = 0, last_resend_us_ = 0;
  uint64_t last_status_us_ = 0, last_update_us_ = 0;
  uint32_t connects_ = 0;
  uint32_t status_period_us_ = 0;
  SessionLoss lost_ = SessionLoss::None;
  bool estop_pending_ = false, stop_pending_ = false;
  // a clearFaults() request: wanted until a status shows no fault and no e-stop; sent (now or once the arm stopped);
  // acknowledged at this status count (a later status shows its effect); UINT64_MAX: not acknowledged yet
  // (done: two statuses after the acknowledgement without a fault; a fault in one of them: raised again)
  bool clear_wanted_ = false, clear_sent_ = false, clear_reraised_ = false;
  uint64_t clear_acked_at_ = UINT64_MAX;
  uint64_t urgent_us_ = 0;
  int urgent_repeats_ = 0;
  bool have_target_ = false;
  double last_target_[kMaxJoints] = {0};
  uint64_t last_target_us_ = 0;
  int last_target_n_ = 0;
  double last_target_duration_ = 0.1;
  bool target_moving_ = false;
  double v_limit_[kMaxJoints] = {1e9, 1e9, 1e9, 1e9, 1e9, 1e9};
  double q_lo_[kMaxJoints] = {-1e9, -1e9, -1e9, -1e9, -1e9, -1e9};
  double q_hi_[kMaxJoints] = {1e9, 1e9, 1e9, 1e9, 1e9, 1e9};
  double drop_ = 0, corrupt_ = 0;
  uint32_t rng_ = 1;
};

}  // namespace bridge
}  // namespace achain
