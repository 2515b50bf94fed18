// Reference motor-controller firmware: protocol endpoint, segment queue, interpolator, per-joint
// PID + feed-forward, supervision (limits, following error, watchdog, e-stop).
// No heap, no exceptions: every buffer is a fixed member; one Controller object per board.
//
// Execution model (MCU and simulator alike):
//   onRxByte(b)  — from the UART RX interrupt (or the sim's read loop), one byte at a time. Urgent
//                  frames (STOP, ESTOP) act here, as their last byte arrives, ahead of any queue;
//                  other valid frames go to a small inbox.
//   tick()       — from the servo timer at servo_hz: encoders → interpolation → supervision → PID → motors.
//   poll()       — from the main loop: handles the inbox, ACK/NAK, status, drains the TX ring.
#pragma once
#include "../protocol/protocol.hpp"
#include "hal.hpp"

namespace achain {
namespace bridge {

constexpr int kQueueCapacity = 64;
constexpr int kInboxCapacity = 20;  // ≥ the host window (16) + 1: a burst never overflows it
constexpr int kTxCapacity = 1024;

struct ControllerCounters {
  uint32_t frames_ok = 0, crc_errors = 0, malformed = 0, overruns = 0, naks_sent = 0, duplicates = 0,
           out_of_order = 0, segments_accepted = 0, segments_rejected = 0, inbox_full = 0;
};

class Controller {
 public:
  Controller(Hal& hal, int joints, uint16_t servo_hz, const char* name);

  void onRxByte(uint8_t b);
  void tick();
  void poll();

  // Introspection (simulator, tests, debug console).
  State state() const { return state_; }
  uint16_t faults() const { return faults_; }
  bool estopEngaged() const { return estop_; }
  bool driveEnabled() const { return drive_enabled_; }
  int queueFill() const { return q_count_; }
  double commanded(int j) const { return q_cmd_[j]; }
  double commandedVelocity(int j) const { return v_cmd_[j]; }
  double measured(int j) const { return q_meas_[j]; }
  uint32_t segmentsDone() const { return segments_done_; }
  uint32_t lastDoneId() const { return last_done_id_; }  // id of the segment that finished last
  uint32_t ticks() const { return ticks_; }
  uint32_t estopTick() const { return estop_tick_; }
  const ControllerCounters& counters() const { return counters_; }
  int joints() const { return nj_; }

 private:
  struct QSeg {
    Segment s;
    double dur;  // executed duration, s (a blend may be stretched)
  };
  struct InFrame {
    uint8_t type, seq, len;
    uint8_t body[kMaxBody];
  };

  void handleFrame(const InFrame& f);
  void handleSegment(const Segment& seg);
  void urgent(uint8_t type);
  void beginStop(uint16_t fault, uint8_t joint);
  void raise(uint16_t fault, uint8_t joint, uint32_t seg, int32_t value);
  void flushQueue();
  void resetCommandToMeasured();
  bool allConfigured() const;
  int credits() const { return kQueueCapacity - q_count_; }
  void sendFrame(uint8_t type, const uint8_t* body, size_t n);
  void sendAck();
  void sendNak(uint8_t reason);
  void sendStatus();
  void sendCaps(uint32_t nonce);
  void readEncoders();
  void interpolate(double dt);
  void decelerate(double dt);
  bool rampDown(double dt);  // per-joint deceleration at a_max; false once every joint is at rest
  double countsToJoint(int j, int32_t c) const;

  Hal& hal_;
  const int nj_;
  const uint16_t servo_hz_;
  char name_[12];

  JointConfig cfg_[kMaxJoints];
  bool configured_[kMaxJoints];
  GlobalConfig g_;

  FrameDecoder dec_;
  InFrame inbox_[kInboxCapacity];
  volatile uint8_t in_head_ = 0, in_tail_ = 0;
  volatile uint8_t pending_nak_ = 0;  // reason, set from the RX path, sent by poll()
  volatile bool stop_request_ = false;
  volatile bool status_now_ = false;
  volatile uint32_t last_rx_us_ = 0;

  uint8_t tx_[kTxCapacity];
  uint16_t tx_head_ = 0, tx_tail_ = 0;

  QSeg queue_[kQueueCapacity];
  int q_head_ = 0, q_count_ = 0;
  bool have_tail_ = false;
  Segment tail_;  // last accepted segment (contiguity check)
  uint32_t tail_end_us_ = 0;

  State state_ = State::Unconfigured;
  uint16_t faults_ = 0;
  uint8_t fault_joint_ = 0xFF;
  volatile bool estop_ = false;
  bool drive_enabled_ = false;
  uint8_t expected_seq_ = 0;
  bool nak_sent_ = false;
  bool session_ = false;
  uint32_t session_nonce_ = 0;
  uint8_t session_hello_seq_ = 0;

  double elapsed_ = 0;  // s into the head segment
  double scale_ = 1, scale_rate_ = 0, scale_target_ = 1;  // time scaling for pause/resume
  uint32_t current_id_ = 0, segments_done_ = 0, last_done_id_ = 0;
  uint32_t traj_time_us_ = 0;
  bool executed_any_ = false;
  uint8_t last_flags_ = 0;

  double q_meas_[kMaxJoints], v_meas_[kMaxJoints], q_prev_[kMaxJoints];
  double q_cmd_[kMaxJoints], v_cmd_[kMaxJoints], a_cmd_[kMaxJoints];
  double integ_[kMaxJoints];
  bool first_read_ = true;

  uint32_t ticks_ = 0, estop_tick_ = 0;
  uint32_t last_status_us_ = 0;
  ControllerCounters counters_;
};

}  // namespace bridge
}  // namespace achain
