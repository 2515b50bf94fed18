#include "sender.hpp"

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

namespace {
std::string faultSentences(uint16_t faults) {
  std::string s;
  for (int b = 0; b < kFaultCount; ++b)
    if (faults & (1u << b)) {
      if (!s.empty()) s += "; ";
      s += std::string(faultName(static_cast<uint16_t>(1u << b))) + ": " + faultText(static_cast<uint16_t>(1u << b));
    }
  return s;
}
}  // namespace

SendReport sendTrajectory(Link& link, const SendOptions& opt) {
  SendReport rep;
  HostSession hs(opt.host);
  if (opt.inject_drop > 0 || opt.inject_corrupt > 0) hs.injectFaults(opt.inject_drop, opt.inject_corrupt, opt.inject_seed);
  uint8_t buf[4096];
  const uint64_t t0 = link.nowUs();
  auto pump = [&](uint32_t wait_us) {
    hs.update(link.nowUs());
    size_t n;
    while ((n = hs.takeOutput(buf, sizeof buf)) > 0) link.write(buf, n);
    link.wait(wait_us);
    while ((n = link.read(buf, sizeof buf)) > 0) hs.receive(buf, n, link.nowUs());
  };
  auto elapsed = [&] { return (link.nowUs() - t0) * 1e-6; };
  auto fail = [&](const std::string& msg) {
    rep.error = msg;
    rep.counters = hs.counters();
    rep.events = hs.events();
    rep.final_status = hs.status();
    rep.elapsed = elapsed();
    return rep;
  };

  // 1. handshake
  hs.connect(link.nowUs());
  while (!hs.connected()) {
    if (!hs.error().empty()) return fail(hs.error());
    if (elapsed() > opt.timeout) return fail("timeout waiting for the controller");
    pump(1000);
  }
  rep.servo_hz = hs.caps().servo_hz;
  rep.queue_capacity = hs.caps().queue_capacity;
  rep.controller_name = hs.caps().name;
  const int nj = hs.caps().joints;
  if (static_cast<int>(opt.joints.size()) != nj)
    return fail("the controller has " + std::to_string(nj) + " joints, the configuration " + std::to_string(opt.joints.size()));
  if (!opt.segments.empty() && opt.segments.front().joints != nj)
    return fail("the trajectory has " + std::to_string(opt.segments.front().joints) + " joints, the controller " +
                std::to_string(nj));

  // 2. configuration, then a fresh status
  if (opt.clear_faults) hs.clearFaults();
  hs.configureGlobal(opt.global);
  for (const JointConfig& c : opt.joints) hs.configureJoint(c);
  while (hs.backlog() > 0) {
    if (elapsed() > opt.timeout) return fail("timeout configuring the controller");
    pump(1000);
  }
  const uint64_t seen = hs.statusCount();
  while (hs.statusCount() < seen + 2) {
    if (elapsed() > opt.timeout) return fail("no status from the controller after configuring");
    pump(1000);
  }
  const Status st0 = hs.status();
  if (st0.estop) return fail("the controller is in emergency stop: " + faultSentences(st0.faults) + " (use --clear-faults once safe)");
  if (st0.faults) return fail("the controller has latched faults: " + faultSentences(st0.faults) + " (use --clear-faults)");
  if (opt.segments.empty()) {
    rep.ok = true;
    rep.final_status = st0;
    rep.counters = hs.counters();
    rep.elapsed = elapsed();
    return rep;
  }
  const Segment& first = opt.segments.front();
  if (!(first.flags & kSegBlend)) {
    for (int j = 0; j < nj; ++j) {
      const double d = first.a[j].q / kPosScale - st0.q_cmd[j] / kPosScale;
      if (std::fabs(d) > opt.global.start_tolerance)
        return fail("joint " + std::to_string(j + 1) + " is at " + std::to_string(st0.q_cmd[j] / kPosScale) +
                    " rad but the trajectory starts at " + std::to_string(first.a[j].q / kPosScale) +
                    " rad: move there first or send with --approach (blend from the current position)");
    }
  }

  // 3. stream under credit; START after a prefill
  hs.queueSegments(opt.segments);
  const size_t total = opt.segments.size();
  const size_t prefill = std::min<size_t>(total, std::max<size_t>(1, hs.caps().queue_capacity / 2));
  bool started = false;
  const uint32_t last_id = opt.segments.back().id;
  double last_progress = -1;
  const double stream_t0 = elapsed();
  bool finished = false;
  while (!finished) {
    if (elapsed() > opt.timeout) return fail("timeout: the trajectory did not finish");
    if (opt.abandon_after >= 0 && elapsed() - stream_t0 > opt.abandon_after) {
      // simulated host death: stop talking, keep listening to see what the controller does
      for (int i = 0; i < 2000 && hs.status().state != State::Fault && hs.status().state != State::Idle; ++i) {
        link.wait(1000);
        size_t n;
        while ((n = link.read(buf, sizeof buf)) > 0) hs.receive(buf, n, link.nowUs());
      }
      for (int i = 0; i < 100; ++i) {  // let the final status arrive
        link.wait(1000);
        size_t n;
        while ((n = link.read(buf, sizeof buf)) > 0) hs.receive(buf, n, link.nowUs());
      }
      rep.controller_fault = hs.status().faults != 0;
      return fail("host went silent (test) — controller: " + std::string(stateName(hs.status().state)) +
                  (hs.status().faults ? ", faults: " + faultList(hs.status().faults) : std::string()));
    }
    pump(1000);
    if (!hs.error().empty()) return fail(hs.error());
    const Status& s = hs.status();
    if (!started && hs.counters().segments_acked >= prefill) {
      hs.start();
      started = true;
    }
    if (s.faults || s.estop) {
      // let the stop finish, then report
      for (int i = 0; i < 3000 && (hs.status().state == State::Stopping || hs.status().state == State::Running); ++i) pump(1000);
      rep.controller_fault = true;
      return fail("controller fault: " + faultSentences(hs.status().faults));
    }
    if (opt.progress && elapsed() - last_progress >= 0.1) {
      last_progress = elapsed();
      SendProgress p;
      p.elapsed = elapsed();
      p.segments_total = total;
      p.segments_acked = hs.counters().segments_acked;
      p.segments_done = s.segments_done;
      p.queue_fill = s.queue_fill;
      p.queue_capacity = hs.caps().queue_capacity;
      p.state = s.state;
      p.traj_time = s.traj_time_us * 1e-6;
      opt.progress(p);
    }
    finished = started && hs.backlog() == 0 && s.state == State::Idle && s.segment_id == last_id && s.queue_fill == 0;
  }
  // 4. settle and measure
  const double ts = elapsed();
  while (elapsed() - ts < opt.settle) pump(1000);
  const uint64_t seen2 = hs.statusCount();
  while (hs.statusCount() < seen2 + 1 && elapsed() - ts < opt.settle + 1.0) pump(1000);
  rep.final_status = hs.status();
  const Segment& last = opt.segments.back();
  rep.max_abs_error = 0;
  for (int j = 0; j < nj; ++j) {
    const double end = last.b[j].q / kPosScale, q = rep.final_status.q[j] / kPosScale;
    rep.planned_end.push_back(end);
    rep.final_q.push_back(q);
    rep.final_error.push_back(q - end);
    rep.max_abs_error = std::max(rep.max_abs_error, std::fabs(q - end));
  }
  rep.counters = hs.counters();
  rep.events = hs.events();
  rep.elapsed = elapsed();
  rep.controller_fault = rep.final_status.faults != 0;
  rep.ok = !rep.controller_fault;
  if (rep.controller_fault) rep.error = "controller fault: " + faultSentences(rep.final_status.faults);
  return rep;
}

}  // namespace bridge
}  // namespace achain
