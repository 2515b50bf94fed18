#include "send_job.hpp"

#include <algorithm>
#include <cmath>

namespace achain {
namespace bridge {

std::string faultList(uint16_t faults) {
  std::string s;
  for (int b = 0; b < kFaultCount; ++b)
    if (faults & (1u << b)) {
      if (!s.empty()) s += ", ";
      s += faultName(static_cast<uint16_t>(1u << b));
    }
  return s;
}

std::string faultSentences(uint16_t faults) {
  std::string s;
  for (int b = 0; b < kFaultCount; ++b)
    if (faults & (1u << b)) {
      if (!s.empty()) s += "; ";
      s += std::string(faultName(static_cast<uint16_t>(1u << b))) + ": " + faultText(static_cast<uint16_t>(1u << b));
    }
  return s;
}

const char* sendPhaseName(SendPhase p) {
  switch (p) {
    case SendPhase::Streaming: return "streaming";
    case SendPhase::Stopping: return "stopping";
    case SendPhase::Settling: return "settling";
    case SendPhase::Done: return "done";
    case SendPhase::Failed: return "failed";
  }
  return "?";
}

std::string controllerRefusal(const Status& st) {
  if (st.estop)
    return "the controller is in emergency stop: " + faultSentences(st.faults) +
           " (clear faults once the cell is safe: --clear-faults, or Clear faults in the studio)";
  if (st.faults)
    return "the controller has latched faults: " + faultSentences(st.faults) +
           " (clear them first: --clear-faults, or Clear faults in the studio)";
  return "";
}

std::string SendJob::refusal(double start_tolerance) const {
  if (!hs_.connected()) return "not connected to a controller: connect and configure first";
  if (!hs_.haveStatus()) return "no status from the controller: connect and configure first";
  if (segs_.empty()) return "the trajectory has no segments";
  if (!(settle_s_ >= 0) || !std::isfinite(settle_s_)) return "settle: must be a finite number of seconds >= 0";
  const Status& st0 = hs_.status();
  if (std::string why = controllerRefusal(st0); !why.empty()) return why;
  const int nj = hs_.caps().joints;
  const Segment& first = segs_.front();
  if (first.joints != nj)
    return "the trajectory has " + std::to_string(first.joints) + " joints, the controller " + std::to_string(nj);
  if (!(first.flags & kSegBlend))
    for (int j = 0; j < nj; ++j) {
      const double d = first.a[j].q / kPosScale - st0.q_cmd[j] / kPosScale;
      if (std::fabs(d) > start_tolerance)
        return "joint " + std::to_string(j + 1) + " is at " + std::to_string(st0.q_cmd[j] / kPosScale) +
               " rad but the trajectory starts at " + std::to_string(first.a[j].q / kPosScale) +
               " rad: move there first (--approach, or approach: true in JS, plans that move)";
    }
  return "";
}

SendJob::SendJob(HostSession& hs, std::vector<Segment> segments, double start_tolerance, double settle_s, uint64_t now_us)
    : hs_(hs), segs_(std::move(segments)), t0_us_(now_us), phase_us_(now_us), last_step_us_(now_us), settle_s_(settle_s) {
  const std::string why = refusal(start_tolerance);
  if (!why.empty()) {
    fail(why);
    return;
  }
  done0_ = hs.status().segments_done;
  acked0_ = hs.counters().segments_acked;
  counters0_ = hs.counters();
  prefill_ = std::min<size_t>(segs_.size(), std::max<size_t>(1, hs.caps().queue_capacity / 2));
  hs.cancelPendingSegments();  // what an earlier plan left unsent never runs after this one
  hs.queueSegments(segs_);
}

void SendJob::fail(const std::string& msg) {
  // the rest of a failed plan must never reach the controller, e.g. after its faults are cleared
  if (phase_ != SendPhase::Failed) hs_.cancelPendingSegments();
  phase_ = SendPhase::Failed;
  rep_.ok = false;
  rep_.error = msg;
  rep_.final_status = hs_.status();
}

void SendJob::measure() {
  rep_.final_status = hs_.status();
  // every segment sent ran exactly once: the controller's own count, not the host's acknowledgements
  const uint32_t ran = rep_.final_status.segments_done - done0_;
  if (ran < segs_.size()) {
    fail("the controller executed " + std::to_string(ran) + " of the " + std::to_string(segs_.size()) +
         " segments sent although each was acknowledged; its session was probably restarted mid-stream");
    return;
  }
  const Segment& last = segs_.back();
  rep_.max_abs_error = 0;
  rep_.planned_end.clear();
  rep_.final_q.clear();
  rep_.final_error.clear();
  for (int j = 0; j < last.joints; ++j) {
    const double end = last.b[j].q / kPosScale, q = rep_.final_status.q[j] / kPosScale;
    rep_.planned_end.push_back(end);
    rep_.final_q.push_back(q);
    rep_.final_error.push_back(q - end);
    rep_.max_abs_error = std::max(rep_.max_abs_error, std::fabs(q - end));
  }
  rep_.controller_fault = rep_.final_status.faults != 0;
  rep_.ok = !rep_.controller_fault;
  if (rep_.controller_fault) rep_.error = faultReport(rep_.final_status.faults);
  phase_ = rep_.ok ? SendPhase::Done : SendPhase::Failed;
}

std::string SendJob::faultReport(uint16_t faults) const {
  std::string s = "controller fault: " + faultSentences(faults);
  // An underrun or a watchdog on a damaged link is the link's doing: the controller cannot tell a slow host from a
  // lossy link (its text used to say "host too slow"), while the host's counters show the resends.
  if (!(faults & (kFaultUnderrun | kFaultWatchdog))) return s;
  // A host that was not run for a while (a loaded or suspended machine) sent nothing meanwhile: its own evidence.
  // 50 ms is the heartbeat period: a longer pause is one the controller can notice.
  if (max_pause_us_ >= 50000)
    s += " — this host's own loop paused for up to " + std::to_string(max_pause_us_ / 1000) +
         " ms during the stream (a busy or suspended machine), sending nothing meanwhile";
  const HostCounters& c = hs_.counters();
  const uint64_t resent = c.frames_resent - counters0_.frames_resent, sent = c.frames_sent - counters0_.frames_sent;
  const uint64_t naks = c.naks - counters0_.naks, damaged = (c.rx_crc_errors - counters0_.rx_crc_errors) +
                                                               (c.rx_malformed - counters0_.rx_malformed);
  // resends alone can be ACK timeouts of a stalled host; refused or damaged frames are the link's own evidence
  if (naks == 0 && damaged == 0) return s;
  return s + " — during this stream the host resent " + std::to_string(resent) + " of " + std::to_string(sent) +
         " frames (" + std::to_string(naks) + " refused by the controller, " + std::to_string(damaged) +
         " damaged replies): the serial link is losing or corrupting frames; check the cable, baud rate and grounding";
}

SendPhase SendJob::step(uint64_t now_us) {
  if (!finished() && now_us > last_step_us_) {
    max_pause_us_ = std::max(max_pause_us_, now_us - last_step_us_);
    rep_.max_host_pause_ms = max_pause_us_ * 1e-3;
  }
  last_step_us_ = now_us;
  const double in_phase = (now_us - phase_us_) * 1e-6;
  if (!finished() && hs_.lost() != SessionLoss::None) {  // reset or silent: the controller's side, whatever the phase
    fail(hs_.error());
    return phase_;
  }
  switch (phase_) {
    case SendPhase::Streaming: {
      if (!hs_.error().empty()) {
        fail(hs_.error());
        break;
      }
      const Status& s = hs_.status();
      if (!started_ && hs_.counters().segments_acked - acked0_ >= prefill_) {
        hs_.start();
        started_ = true;
      }
      if (started_ && s.state != State::Idle) ran_ = true;
      if (s.faults || s.estop) {  // let the stop finish, then report
        phase_ = SendPhase::Stopping;
        phase_us_ = now_us;
      } else if (started_ && hs_.backlog() == 0 && s.state == State::Idle && s.segment_id == segs_.back().id &&
                 s.queue_fill == 0) {
        phase_ = SendPhase::Settling;
        phase_us_ = now_us;
        statuses_at_settle_ = 0;
      } else if (ran_ && hs_.backlog() == 0 && s.state == State::Idle && s.queue_fill == 0) {
        // idle before the last segment without a fault: a controlled stop (STOP) ended the run
        const uint32_t done = s.segments_done - done0_;
        fail("stopped before the end: " + std::to_string(done) + " of " + std::to_string(segs_.size()) +
             " segments ran; the arm holds where it stopped");
      }
      break;
    }
    case SendPhase::Stopping: {
      const State st = hs_.status().state;
      if ((st != State::Stopping && st != State::Running) || in_phase > 3.0) {
        rep_.controller_fault = true;
        fail(faultReport(hs_.status().faults));
      }
      break;
    }
    case SendPhase::Settling:
      if (in_phase < settle_s_) break;
      if (statuses_at_settle_ == 0) statuses_at_settle_ = hs_.statusCount() + 1;  // one more status after settling
      if (hs_.statusCount() >= statuses_at_settle_ || in_phase > settle_s_ + 1.0) measure();
      break;
    case SendPhase::Done:
    case SendPhase::Failed: break;
  }
  return phase_;
}

SendProgress SendJob::progress(uint64_t now_us) const {
  SendProgress p;
  const Status& s = hs_.status();
  p.elapsed = (now_us - t0_us_) * 1e-6;
  p.segments_total = segs_.size();
  p.segments_acked = static_cast<size_t>(hs_.counters().segments_acked - acked0_);
  p.segments_done = s.segments_done - done0_;
  p.queue_fill = s.queue_fill;
  p.queue_capacity = hs_.caps().queue_capacity;
  p.state = s.state;
  p.traj_time = s.traj_time_us * 1e-6;
  return p;
}

}  // namespace bridge
}  // namespace achain
