// One trajectory send as a step-driven state machine over a connected, configured HostSession: it
// checks the controller's status before anything moves, queues the segments, STARTs after a prefill,
// follows the status to the last segment (or to a fault, letting the controller's stop finish),
// settles, and measures the final error. No I/O and no clock of its own: the caller pumps the session
// and calls step(now) after every pump. The blocking `achain send` loop (sender.cpp) and the JS
// Streamer (through wasm, HostEngine.beginSend / sendStep) drive this same job.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "host_session.hpp"

namespace achain {
namespace bridge {

struct SendProgress {
  double elapsed = 0;          // s since connect (sendTrajectory) or since the job began (SendJob)
  size_t segments_total = 0, segments_acked = 0;
  uint32_t segments_done = 0;  // executed by the controller
  int queue_fill = 0, queue_capacity = 0;
  State state = State::Unconfigured;
  double traj_time = 0;
};

struct SendReport {
  bool ok = false;              // finished without controller faults
  bool controller_fault = false;
  std::string error;            // what went wrong, in words
  Status final_status;
  std::vector<double> planned_end, final_q, final_error;  // rad
  double max_abs_error = 0;     // rad
  HostCounters counters;
  std::vector<Event> events;
  double elapsed = 0;
  /// The longest this host went between two steps of the send (ms): its own loop's pause (a busy or suspended
  /// machine), during which nothing reached the controller.
  double max_host_pause_ms = 0;
  uint32_t servo_hz = 0;
  uint16_t queue_capacity = 0;
  std::string controller_name;
};

enum class SendPhase : uint8_t {
  Streaming,  // segments going out under credit; START sent after the prefill
  Stopping,   // the controller faulted: waiting (≤ 3 s) for its stop to finish before reporting
  Settling,   // the last segment ran: waiting `settle` s and one more status before measuring
  Done,       // report().ok: finished without faults; the final error measured
  Failed,     // report().error says why (a refusal, a fault, or a controlled stop before the end)
};

const char* sendPhaseName(SendPhase p);

class SendJob {
 public:
  /// Checks the session's latest status — no emergency stop, no latched faults, and (unless the first
  /// segment blends from the current position) the first segment starting within `start_tolerance`
  /// rad of the commanded position — then queues `segments`. A refusal leaves the job Failed, with
  /// nothing queued.
  SendJob(HostSession& hs, std::vector<Segment> segments, double start_tolerance, double settle_s, uint64_t now_us);

  /// Advances the job after the caller pumped the session; returns the phase.
  SendPhase step(uint64_t now_us);
  SendPhase phase() const { return phase_; }
  bool finished() const { return phase_ == SendPhase::Done || phase_ == SendPhase::Failed; }
  SendProgress progress(uint64_t now_us) const;
  /// ok, controller_fault, error, final_status and the final errors (the caller adds counters, events, timing).
  const SendReport& report() const { return rep_; }

 private:
  std::string refusal(double start_tolerance) const;  // "" when the send may begin
  void fail(const std::string& msg);
  void measure();

  HostSession& hs_;
  std::vector<Segment> segs_;
  SendPhase phase_ = SendPhase::Streaming;
  SendReport rep_;
  uint64_t t0_us_ = 0, phase_us_ = 0;
  uint64_t last_step_us_ = 0, max_pause_us_ = 0;  // this host's own pauses between steps
  uint64_t acked0_ = 0, statuses_at_settle_ = 0;
  HostCounters counters0_;  ///< the session's counters when the job began (the link's damage during this job)
  /// "controller fault: …", with the link's damage during the job when the fault is one a damaged link causes.
  std::string faultReport(uint16_t faults) const;
  uint32_t done0_ = 0;
  size_t prefill_ = 1;
  bool started_ = false;
  bool ran_ = false;  // the controller left Idle after START
  double settle_s_ = 0.5;
};

/// Why a controller in this status must not start a send (emergency stop, latched faults), or "".
std::string controllerRefusal(const Status& st);

/// "watchdog, underrun": the names of the set fault bits.
std::string faultList(uint16_t faults);
/// "watchdog: …; underrun: …": each set fault bit's name and description.
std::string faultSentences(uint16_t faults);

}  // namespace bridge
}  // namespace achain
