#include "sender.hpp"

#include "segments.hpp"

#include <cmath>

namespace achain {
namespace bridge {

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
  if (opt.segments.empty()) {
    const Status st0 = hs.status();
    if (std::string why = controllerRefusal(st0); !why.empty()) return fail(why);
    rep.ok = true;
    rep.final_status = st0;
    rep.counters = hs.counters();
    rep.elapsed = elapsed();
    return rep;
  }

  // 3. the move to the start, planned from where the controller holds the arm
  std::vector<Segment> segments = opt.segments;
  if (opt.approach) {
    if (std::string why = controllerRefusal(hs.status()); !why.empty()) return fail(why);
    std::vector<JointLimitsF> lim;
    for (const JointConfig& c : opt.joints) lim.push_back({c.q_min, c.q_max, c.v_max, c.a_max});
    double from[kMaxJoints];
    for (int j = 0; j < nj; ++j) from[j] = hs.status().q_cmd[j] / kPosScale;
    try {
      segments = withApproach(opt.segments, from, lim, opt.segment_dt, opt.global.accel_margin, 0.5 * opt.global.start_tolerance);
      checkSegments(segments, lim, opt.global.accel_margin, opt.angular.empty() ? nullptr : &opt.angular);
    } catch (const std::exception& e) {
      return fail(std::string("approach: ") + e.what());
    }
  }

  // 4. the send itself (status checks, prefill, START, follow, settle, measure): the shared job
  SendJob job(hs, segments, opt.global.start_tolerance, opt.settle, link.nowUs());
  auto finish = [&] {  // the job's outcome plus what this loop knows (caps, counters, events, time)
    SendReport r = job.report();
    r.servo_hz = rep.servo_hz;
    r.queue_capacity = rep.queue_capacity;
    r.controller_name = rep.controller_name;
    r.counters = hs.counters();
    r.events = hs.events();
    r.elapsed = elapsed();
    return r;
  };
  if (job.finished()) return finish();
  const double stream_t0 = elapsed();
  double last_progress = -1;
  while (!job.finished()) {
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
    job.step(link.nowUs());
    if (opt.progress && job.phase() == SendPhase::Streaming && elapsed() - last_progress >= 0.1) {
      last_progress = elapsed();
      SendProgress p = job.progress(link.nowUs());
      p.elapsed = elapsed();
      opt.progress(p);
    }
  }
  return finish();
}

}  // namespace bridge
}  // namespace achain
