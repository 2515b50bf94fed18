// The reference firmware on the simulated prototype, driven by the host engine over an in-process
// link in virtual time: the thesis trapezoid (clean and damaged links), watchdog, e-stop, limits on
// both sides, blending, streaming, pause/resume, continuity, homing, configuration checks.
#include <catch2/catch.hpp>

#include "bridge_test_support.hpp"
#include "host/sender.hpp"
#include <achain/io/trajectory_json.hpp>
#include <achain/math/types.hpp>
#include <achain/io/robot.hpp>
#include <achain/trajectory/plan.hpp>
#include <achain/trajectory/trajectory.hpp>

using namespace bridge_test;

namespace {
constexpr double kDegr = 3.14159265358979323846 / 180.0;

std::vector<Segment> trapezoidSegments(const Rig& rig, double seg_dt = 0.01) {
  const auto lim = profileLimits(rig.profile);
  return buildSegments(thesisTrapezoid(0.001), seg_dt, 1, false, &lim, rig.profile.global.accel_margin);
}

/// The whole plan of n segments ran: every segment accepted and executed in order, no fault.
void checkPlanCompleted(Rig& rig, const Run& r, size_t n) {
  REQUIRE(r.ok);
  const auto& k = rig.vc.controller().counters();
  CHECK(k.segments_accepted == n);
  CHECK(k.segments_rejected == 0);
  CHECK(rig.vc.controller().segmentsDone() == n);
  CHECK(rig.vc.controller().faults() == 0);
  CHECK(r.ids_monotonic);
}
}  // namespace

TEST_CASE("bridge: the thesis trapezoid over a clean link", "[bridge][firmware]") {
  Rig rig;
  REQUIRE(rig.connectAndConfigure());
  const auto segs = trapezoidSegments(rig);
  const Run r = streamPlan(rig, segs);
  checkPlanCompleted(rig, r, segs.size());
  CHECK(r.max_cmd_dev < 1e-6 + 3.2 * 1e-3);  // the interpolator reproduces the plan (±1 servo period of time base)
  CHECK(r.max_track < 0.5 * kDegr);         // the simulated joints follow within half a degree
  CHECK(r.final_err < 0.1 * kDegr);         // acceptance: final error below 0.1° on every joint
  CHECK(rig.host.counters().frames_resent == 0);
  WARN("trapezoid: max tracking error " << r.max_track / kDegr << " deg, final " << r.final_err / kDegr << " deg");
}

TEST_CASE("bridge: corrupted and dropped frames in both directions are detected and recovered", "[bridge][firmware]") {
  Rig rig;
  rig.host.injectFaults(0.04, 0.04, 11);  // host → controller: 4 % of frames dropped, 4 % corrupted
  rig.up_drop = 0.0004;                   // controller → host: bytes lost / flipped
  rig.up_corrupt = 0.0004;
  REQUIRE(rig.connectAndConfigure());
  const auto segs = trapezoidSegments(rig);
  const Run r = streamPlan(rig, segs);
  // no lost, duplicated or reordered segment was executed: the firmware's continuity check would have faulted
  checkPlanCompleted(rig, r, segs.size());
  const auto& k = rig.vc.controller().counters();
  // and the damage was real and seen
  CHECK(k.crc_errors + k.malformed > 0);
  CHECK(k.out_of_order + k.duplicates > 0);
  CHECK(rig.host.counters().frames_resent > 0);
  CHECK(rig.host.counters().naks > 0);
  CHECK(rig.host.counters().rx_crc_errors + rig.host.counters().rx_malformed > 0);
  CHECK(r.final_err < 0.1 * kDegr);
}

TEST_CASE("bridge: a silent host triggers the watchdog and a controlled stop within the limits", "[bridge][firmware]") {
  Rig rig;
  REQUIRE(rig.connectAndConfigure());
  const auto segs = trapezoidSegments(rig);
  startAfterPrefill(rig, segs, 32, 3000);
  REQUIRE(rig.runUntil([&] { return rig.vc.controller().state() == State::Running; }, 100));
  rig.step(600);  // mid-cruise
  rig.host_alive = false;
  const uint64_t silent_at = rig.last_host_tx_us;
  uint64_t stop_at = 0;
  double max_dv = 0;
  double prev_v[kMaxJoints];
  for (int j = 0; j < 4; ++j) prev_v[j] = rig.vc.controller().commandedVelocity(j);
  for (int i = 0; i < 1500; ++i) {
    rig.step();
    const State s = rig.vc.controller().state();
    if (!stop_at && s == State::Stopping) stop_at = rig.now();
    for (int j = 0; j < 4; ++j) {
      const double v = rig.vc.controller().commandedVelocity(j);
      if (stop_at) max_dv = std::max(max_dv, std::fabs(v - prev_v[j]) / (rig.profile.config[j].a_max * 1e-3));
      prev_v[j] = v;
    }
  }
  REQUIRE(stop_at > 0);
  const double delay_ms = (stop_at - silent_at) * 1e-3;
  CHECK(delay_ms > rig.profile.global.watchdog_ms);
  CHECK(delay_ms <= rig.profile.global.watchdog_ms + 3.0);  // detection resolution: servo periods
  CHECK(max_dv <= 1.0 + 1e-9);  // the stop decelerates at most at a_max
  CHECK(rig.vc.controller().state() == State::Fault);
  CHECK((rig.vc.controller().faults() & kFaultWatchdog));
  for (int j = 0; j < 4; ++j) CHECK(std::fabs(rig.vc.velocity(j)) < 1e-3);
}

TEST_CASE("bridge: e-stop cuts the drive as its last byte arrives, ahead of a full queue", "[bridge][firmware]") {
  Rig rig;
  REQUIRE(rig.connectAndConfigure());
  const auto segs = trapezoidSegments(rig);
  startAfterPrefill(rig, segs, 64, 5000);
  rig.step(500);
  REQUIRE(rig.vc.controller().state() == State::Running);
  REQUIRE(rig.vc.hal().enabled);
  // bury the controller's inbox under segment frames it has not handled yet (no poll in between)
  uint8_t body[kMaxBody], frame[kMaxEncoded];
  for (int i = 0; i < 40; ++i) {
    const size_t n = encode(segs[static_cast<size_t>(i)], body, sizeof body);
    const size_t f = buildFrame(kSegment, static_cast<uint8_t>(200 + i), body, n, frame, sizeof frame);
    rig.vc.write(frame, f);
  }
  const uint32_t ticks_before = rig.vc.controller().ticks();
  rig.host.estop(rig.now());
  uint8_t out[256];
  const size_t k = rig.host.takeOutput(out, sizeof out);
  rig.vc.write(out, k);  // the bytes arrive: no servo tick has run yet
  CHECK(rig.vc.controller().estopEngaged());
  CHECK_FALSE(rig.vc.hal().enabled);
  for (int j = 0; j < 4; ++j) CHECK(rig.vc.hal().torque[j] == 0.0f);
  CHECK(rig.vc.controller().ticks() == ticks_before);  // halted within zero servo periods of the last byte
  rig.step(1);
  CHECK(rig.vc.controller().state() == State::EStop);
  // the host learns it from the status, so page and controller agree
  REQUIRE(rig.runUntil([&] { return rig.host.status().estop == 1; }, 100));
  CHECK((rig.host.status().faults & kFaultEStop));
  rig.step(300);  // brake
  for (int j = 0; j < 4; ++j) CHECK(rig.vc.velocity(j) == 0.0);
  // segments are refused while in e-stop; clearing brings the arm back to idle where it stands
  rig.host.clearFaults();
  REQUIRE(rig.runUntil([&] { return rig.host.status().state == State::Idle && rig.host.status().estop == 0; }, 500));
  rig.step(2);
  CHECK(rig.vc.hal().enabled);
}

TEST_CASE("bridge: out-of-limit segments are refused by the host and, if sent anyway, by the controller", "[bridge][firmware]") {
  Rig rig;
  // 25 % faster than Table 3.11 allows
  SampledTrajectory fast = thesisTrapezoid(0.001);
  for (size_t i = 0; i < fast.t.size(); ++i) {
    fast.t[i] /= 1.25;
    for (int j = 0; j < 4; ++j) {
      fast.qd[i][j] *= 1.25;
      fast.qdd[i][j] *= 1.25 * 1.25;
    }
  }
  const auto lim = profileLimits(rig.profile);
  const auto segs = buildSegments(fast, 0.01, 1);
  // host side
  try {
    checkSegments(segs, lim, rig.profile.global.accel_margin);
    FAIL("checkSegments accepted a trajectory 25 % over the velocity limit");
  } catch (const achain::Error& e) {
    const std::string msg = e.what();
    CHECK(msg.find("joint 1") != std::string::npos);
    CHECK((msg.find("velocity") != std::string::npos || msg.find("acceleration") != std::string::npos));
  }
  // controller side: bypass the host check
  REQUIRE(rig.connectAndConfigure());
  rig.host.queueSegments(segs);
  rig.host.start();
  REQUIRE(rig.runUntil([&] { return rig.host.status().faults != 0 && rig.host.status().state == State::Fault; }, 5000));
  CHECK((rig.host.status().faults & kFaultSegmentLimit));
  CHECK(rig.vc.controller().counters().segments_rejected >= 1);
  REQUIRE_FALSE(rig.host.events().empty());
  CHECK(rig.host.events().front().fault == kFaultSegmentLimit);
  CHECK(rig.host.events().front().joint < 4);
  // a position beyond 300°: refused too
  Rig rig2;
  REQUIRE(rig2.connectAndConfigure());
  Segment s;
  s.id = 1;
  s.duration_us = 2000000;
  s.joints = 4;
  for (int j = 0; j < 4; ++j) {
    s.a[j].q = toFixed(60 * kDegr, kPosScale);
    s.b[j].q = toFixed(j == 2 ? 310 * kDegr : 60 * kDegr, kPosScale);
  }
  s.flags = kSegLast;
  double w;
  CHECK(checkPiece(s.a[2].q / kPosScale, 0, s.b[2].q / kPosScale, 0, 2.0, lim[2], 1.5, &w) == LimitViolation::Position);
  rig2.host.queueSegments({s});
  REQUIRE(rig2.runUntil([&] { return (rig2.host.status().faults & kFaultSegmentLimit) != 0; }, 1000));
  CHECK(rig2.host.events().front().joint == 2);
  CHECK(std::fabs(rig2.vc.position(2) - 60 * kDegr) < 0.01);
}

TEST_CASE("bridge: replacing a running trajectory blends within the limits", "[bridge][firmware]") {
  Rig rig;
  REQUIRE(rig.connectAndConfigure());
  const auto segs = trapezoidSegments(rig);
  startAfterPrefill(rig, segs, 32, 3000);
  rig.step(700);  // cruising at 180°/s
  double prev_q[4], prev_v[4];
  for (int j = 0; j < 4; ++j) {
    prev_q[j] = rig.vc.controller().commanded(j);
    prev_v[j] = rig.vc.controller().commandedVelocity(j);
  }
  CHECK(std::fabs(prev_v[0]) > 3.0);
  // a new plan: go back to 150° and rest, requested unreasonably fast (50 ms): the controller stretches it
  Segment b;
  b.id = 1000;
  b.duration_us = 50000;
  b.flags = kSegBlend | kSegLast;
  b.joints = 4;
  for (int j = 0; j < 4; ++j) b.b[j].q = toFixed(150 * kDegr, kPosScale);
  rig.host.queueSegments({b});
  double max_v_ratio = 0, max_a_ratio = 0;
  for (int i = 0; i < 4000 && !(rig.vc.controller().state() == State::Idle); ++i) {
    rig.step();
    for (int j = 0; j < 4; ++j) {
      const double q = rig.vc.controller().commanded(j), v = rig.vc.controller().commandedVelocity(j);
      max_v_ratio = std::max(max_v_ratio, std::fabs(q - prev_q[j]) / 1e-3 / rig.profile.config[j].v_max);
      max_a_ratio = std::max(max_a_ratio, std::fabs(v - prev_v[j]) / 1e-3 / rig.profile.config[j].a_max);
      prev_q[j] = q;
      prev_v[j] = v;
    }
  }
  INFO("faults " << faultList(rig.vc.controller().faults()));
  CHECK(rig.vc.controller().state() == State::Idle);
  CHECK(rig.vc.controller().faults() == 0);
  CHECK(max_v_ratio < 1.02);  // no jump: never faster than v_max
  CHECK(max_a_ratio < 1.05);  // and never harder than a_max
  rig.step(500);
  for (int j = 0; j < 4; ++j) CHECK(std::fabs(rig.vc.position(j) - 150 * kDegr) < 0.1 * kDegr);
}

TEST_CASE("bridge: teleoperation streaming follows moving targets and holds when they stop", "[bridge][firmware]") {
  Rig rig;
  REQUIRE(rig.connectAndConfigure());
  double target[4];
  double worst_lag = 0;
  for (int i = 0; i < 150; ++i) {  // 3 s of targets at 50 Hz
    const double t = i * 0.02;
    for (int j = 0; j < 4; ++j) target[j] = (100 + 30 * std::sin(2 * 3.14159265 * 0.5 * t + j)) * kDegr;
    if (i == 0)
      for (int j = 0; j < 4; ++j) target[j] = rig.vc.position(j) + 0.001;
    rig.host.streamTarget(target, 4, 0.1);
    rig.step(20);
    if (i > 100)
      for (int j = 0; j < 4; ++j) worst_lag = std::max(worst_lag, std::fabs(rig.vc.position(j) - target[j]));
  }
  rig.host.streamTarget(target, 4, 0.1);  // the gizmo rests: the same target again ends at rest
  rig.step(1000);  // targets stop: the stream holds without an underrun fault
  INFO("faults " << faultList(rig.vc.controller().faults()));
  CHECK(rig.vc.controller().faults() == 0);
  for (int j = 0; j < 4; ++j) CHECK(std::fabs(rig.vc.position(j) - target[j]) < 0.1 * kDegr);
  // a 30°, 0.5 Hz sine (94°/s peak) streamed at 50 Hz with a 0.1 s look-ahead: about 0.1 s of lag
  CHECK(worst_lag < 15 * kDegr);
  WARN("teleoperation: worst lag behind a 94 deg/s target " << worst_lag / kDegr << " deg");
}

TEST_CASE("bridge: pause holds on the path and resume finishes the plan", "[bridge][firmware]") {
  Rig rig;
  REQUIRE(rig.connectAndConfigure());
  const auto segs = trapezoidSegments(rig);
  startAfterPrefill(rig, segs, 32, 3000);
  rig.step(600);
  rig.host.pause();
  rig.step(800);
  INFO("faults " << faultList(rig.vc.controller().faults()));
  REQUIRE(rig.vc.controller().state() == State::Paused);
  double q_paused[4];
  for (int j = 0; j < 4; ++j) {
    CHECK(std::fabs(rig.vc.controller().commandedVelocity(j)) < 1e-9);
    q_paused[j] = rig.vc.controller().commanded(j);
  }
  // joints 1–3 share one profile: on the path they stay equal while paused
  CHECK(q_paused[0] == Approx(q_paused[1]).margin(1e-9));
  CHECK(q_paused[1] == Approx(q_paused[2]).margin(1e-9));
  rig.step(500);  // heartbeats keep the watchdog quiet while paused
  CHECK(rig.vc.controller().faults() == 0);
  rig.host.resume();
  REQUIRE(rig.runUntil([&] { return rig.vc.controller().state() == State::Idle; }, 5000));
  rig.step(500);
  CHECK(rig.vc.controller().faults() == 0);
  for (int j = 0; j < 4; ++j) CHECK(std::fabs(rig.vc.position(j) - 300 * kDegr) < 0.1 * kDegr);
}

TEST_CASE("bridge: a missing segment is a refused discontinuity, not a jump", "[bridge][firmware]") {
  Rig rig;
  REQUIRE(rig.connectAndConfigure());
  auto segs = trapezoidSegments(rig);
  segs.erase(segs.begin() + 40);
  rig.host.queueSegments(segs);
  rig.host.start();
  REQUIRE(rig.runUntil([&] { return (rig.host.status().faults & kFaultDiscontinuity) != 0; }, 3000));
  REQUIRE(rig.runUntil([&] { return rig.vc.controller().state() == State::Fault; }, 3000));
  CHECK(rig.vc.controller().segmentsDone() <= 40);
}

TEST_CASE("bridge: joint-motor mapping — gear-ratio sign, encoder counts and homing", "[bridge][firmware]") {
  SimProfile p = prototypeProfile();
  p.plant[1].encoder_offset = -5000;  // the controller believes 0: it reads joint 2 off by 5000 counts
  Rig rig(p);
  REQUIRE(rig.connectAndConfigure());
  const double off = -5000.0 * 2 * 3.14159265358979 / (4096.0 * -50.0);
  CHECK(rig.host.status().q[1] / kPosScale == Approx(rig.vc.position(1) + off).margin(1e-4));
  rig.host.home(1, 60 * kDegr);
  REQUIRE(rig.runUntil([&] { return rig.host.backlog() == 0; }, 500));
  rig.step(50);
  CHECK(rig.host.status().q[1] / kPosScale == Approx(rig.vc.position(1)).margin(1e-4));
  // the spline drive reverses the direction: joint up, motor counts down
  const int32_t c0 = rig.vc.hal().encoder[0];
  Segment s;
  s.id = 1;
  s.duration_us = 500000;
  s.flags = kSegLast;
  s.joints = 4;
  for (int j = 0; j < 4; ++j) {
    s.a[j].q = toFixed(rig.host.status().q_cmd[j] / kPosScale, kPosScale);
    s.b[j].q = s.a[j].q + (j == 0 ? toFixed(10 * kDegr, kPosScale) : 0);
  }
  rig.host.queueSegments({s});
  rig.host.start();
  rig.step(1000);
  CHECK(rig.vc.controller().faults() == 0);
  CHECK(rig.vc.position(0) == Approx(70 * kDegr).margin(0.05 * kDegr));
  const double expect = -50.0 * 4096.0 * (10 * kDegr) / (2 * 3.14159265358979);
  CHECK(rig.vc.hal().encoder[0] - c0 == Approx(expect).margin(0.01 * std::fabs(expect)));
}

TEST_CASE("bridge: invalid configuration is refused with a fault", "[bridge][firmware]") {
  Rig rig;
  REQUIRE(rig.connectAndConfigure());
  JointConfig bad = rig.profile.config[0];
  bad.gear_ratio = 0;
  rig.host.configureJoint(bad);
  REQUIRE(rig.runUntil([&] { return (rig.host.status().faults & kFaultBadConfig) != 0; }, 500));
  std::string text = faultText(kFaultBadConfig);
  CHECK(text.find("gear ratio") != std::string::npos);
}

TEST_CASE("bridge: a watchdog outside 10…10000 ms is refused by the controller", "[bridge][firmware]") {
  // A host that did not range-check would send what it narrowed: the controller checks the wire value too.
  auto refused = [](uint16_t ms) {
    Rig rig;
    REQUIRE(rig.connectAndConfigure());
    GlobalConfig g = rig.profile.global;
    g.watchdog_ms = ms;
    rig.host.configureGlobal(g);
    rig.step(200);
    return (rig.host.status().faults & kFaultBadConfig) != 0;
  };
  for (const uint16_t ms : {uint16_t(0), uint16_t(9), uint16_t(10001), uint16_t(34464), uint16_t(65535)}) {
    INFO("watchdog_ms " << ms);
    CHECK(refused(ms));
  }
  CHECK_FALSE(refused(kWatchdogMsMin));
  CHECK_FALSE(refused(kWatchdogMsMax));
}

TEST_CASE("bridge: the send job (shared by achain send and the JS Streamer) runs, refuses and reports faults", "[bridge][firmware]") {
  SECTION("the thesis trapezoid: streaming, settling, done, final error below 0.1 deg") {
    Rig rig;
    REQUIRE(rig.connectAndConfigure());
    const auto segs = trapezoidSegments(rig);
    SendJob job(rig.host, segs, rig.profile.global.start_tolerance, 0.5, rig.now());
    REQUIRE(job.phase() == SendPhase::Streaming);
    std::vector<SendPhase> seen{job.phase()};
    size_t last_done = 0;
    bool monotonic = true;
    REQUIRE(rig.runUntil(
        [&] {
          const SendPhase p = job.step(rig.now());
          if (p != seen.back()) seen.push_back(p);
          const SendProgress pr = job.progress(rig.now());
          monotonic = monotonic && pr.segments_done >= last_done;
          last_done = pr.segments_done;
          return job.finished();
        },
        30000));
    CHECK(seen == std::vector<SendPhase>{SendPhase::Streaming, SendPhase::Settling, SendPhase::Done});
    const SendReport& r = job.report();
    CHECK(r.ok);
    CHECK(r.error.empty());
    CHECK(monotonic);
    CHECK(job.progress(rig.now()).segments_done == segs.size());
    CHECK(rig.vc.controller().segmentsDone() == segs.size());
    REQUIRE(r.final_error.size() == static_cast<size_t>(rig.vc.joints()));
    CHECK(r.max_abs_error < 0.1 * kDegr);
    for (int j = 0; j < rig.vc.joints(); ++j)
      CHECK(r.final_error[j] == Approx(rig.vc.position(j) - segs.back().b[j].q / kPosScale).margin(2e-4));
  }
  SECTION("refusals before anything is queued: emergency stop, start away from the arm") {
    Rig rig;
    REQUIRE(rig.connectAndConfigure());
    auto segs = trapezoidSegments(rig);
    for (int j = 0; j < segs.front().joints; ++j) segs.front().a[j].q += static_cast<int32_t>(0.2 * kPosScale);
    SendJob away(rig.host, segs, rig.profile.global.start_tolerance, 0.5, rig.now());
    CHECK(away.phase() == SendPhase::Failed);
    CHECK_THAT(away.report().error, Catch::Contains("joint 1 is at") && Catch::Contains("move there first (--approach"));
    CHECK(rig.host.segmentsPending() == 0);
    rig.host.estop(rig.now());
    REQUIRE(rig.runUntil([&] { return rig.host.status().estop != 0; }, 1000));
    SendJob stopped(rig.host, trapezoidSegments(rig), rig.profile.global.start_tolerance, 0.5, rig.now());
    CHECK(stopped.phase() == SendPhase::Failed);
    CHECK_THAT(stopped.report().error, Catch::Contains("emergency stop"));
  }
  SECTION("an emergency stop while running: stopping, then failed with the controller's fault") {
    Rig rig;
    REQUIRE(rig.connectAndConfigure());
    SendJob job(rig.host, trapezoidSegments(rig), rig.profile.global.start_tolerance, 0.5, rig.now());
    REQUIRE(rig.runUntil([&] { job.step(rig.now()); return rig.host.status().state == State::Running; }, 5000));
    rig.step(300);
    job.step(rig.now());
    rig.host.estop(rig.now());
    bool saw_stopping = false;
    REQUIRE(rig.runUntil(
        [&] {
          const SendPhase p = job.step(rig.now());
          saw_stopping = saw_stopping || p == SendPhase::Stopping;
          return job.finished();
        },
        5000));
    CHECK(saw_stopping);
    CHECK(job.phase() == SendPhase::Failed);
    CHECK(job.report().controller_fault);
    CHECK_THAT(job.report().error, Catch::Contains("controller fault"));
  }
  SECTION("a controlled stop (STOP) while running: failed, saying so, without a fault (not left streaming)") {
    Rig rig;
    REQUIRE(rig.connectAndConfigure());
    const auto segs = trapezoidSegments(rig);
    SendJob job(rig.host, segs, rig.profile.global.start_tolerance, 0.5, rig.now());
    REQUIRE(rig.runUntil([&] { job.step(rig.now()); return rig.host.status().state == State::Running; }, 5000));
    rig.step(300);
    job.step(rig.now());
    rig.host.stop(rig.now());
    REQUIRE(rig.runUntil([&] { job.step(rig.now()); return job.finished(); }, 3000));
    CHECK(job.phase() == SendPhase::Failed);
    CHECK_FALSE(job.report().controller_fault);
    CHECK_THAT(job.report().error, Catch::Contains("stopped before the end") && Catch::Contains(" of " + std::to_string(segs.size()) + " segments ran"));
    CHECK(rig.host.status().faults == 0);
    CHECK(rig.host.status().state == State::Idle);
  }
}

namespace {
/// The studio Motion view's default plan: the prototype's trapezoid 60° → 300° (or back) with the
/// per-joint switch times (no sync) sampled at 100 Hz — joint 4 (faster limits) stops at its limit
/// between two samples.
SampledTrajectory studioDefaultPlan(bool reverse) {
  const achain::Model m = achain::builtinModel("prototype-4a");
  achain::PlanSpec spec;
  spec.profile = "trapezoid";
  spec.from = achain::VecX::Constant(4, (reverse ? 300 : 60) * kDegr);
  spec.to = achain::VecX::Constant(4, (reverse ? 60 : 300) * kDegr);
  const achain::Plan plan = achain::planJointPath(m, spec);
  return achain::bridge::trajectoryFromJson(achain::trajectoryToJson(achain::samplePath(m, *plan.path, 100.0)));
}
}  // namespace

TEST_CASE("bridge: the studio's default plan streams: the segment fit preserves the joint limits (issue 18)", "[bridge][firmware]") {
  for (const bool reverse : {false, true}) {
    Rig rig;
    const auto lim = profileLimits(rig.profile);
    const double margin = rig.profile.global.accel_margin;
    const SampledTrajectory tr = studioDefaultPlan(reverse);
    // every sample is inside the limits ...
    for (const auto& q : tr.q)
      for (int j = 0; j < 4; ++j) REQUIRE((q[j] >= lim[j].q_min - 1e-5 && q[j] <= lim[j].q_max + 1e-5));  // checkPiece's slack (float limits)
    // ... but the plain cubic Hermite fit through them overshoots the limit next to joint 4's stop
    const auto plain = buildSegments(tr, 0.01, 1);
    bool overshoot = false;
    for (const Segment& s : plain)
      for (int j = 0; j < 4; ++j)
        overshoot = overshoot || checkPiece(s.a[j].q / kPosScale, s.a[j].v / kVelScale, s.b[j].q / kPosScale, s.b[j].v / kVelScale,
                                            s.duration_us * 1e-6, lim[j], margin, nullptr) == LimitViolation::Position;
    CHECK(overshoot);
    // the limit-preserving fit passes the host check (the same check the controller runs) ...
    const auto segs = buildSegments(tr, 0.01, 1, false, &lim, margin);
    REQUIRE_NOTHROW(checkSegments(segs, lim, margin));
    // ... stays C¹ at every knot, and still goes through every sample it keeps
    for (size_t i = 1; i < segs.size(); ++i)
      for (int j = 0; j < 4; ++j) {
        CHECK(segs[i].a[j].q == segs[i - 1].b[j].q);
        CHECK(segs[i].a[j].v == segs[i - 1].b[j].v);
      }
    double dev = 0;
    for (size_t k = 0; k < tr.t.size(); ++k) {
      double q[kMaxJoints];
      evaluateSegments(segs, tr.t[k] - tr.t[0], q);
      for (int j = 0; j < 4; ++j) dev = std::max(dev, std::fabs(q[j] - tr.q[k][j]));
    }
    CHECK(dev < 1e-5);
    // and the virtual controller runs it to the end without a fault (the arm starts at the plan's start)
    SimProfile p = prototypeProfile();
    for (int j = 0; j < 4; ++j) p.q_start[j] = tr.q[0][j];
    Rig run(p);
    REQUIRE(run.connectAndConfigure());
    const Run r = streamPlan(run, segs);
    checkPlanCompleted(run, r, segs.size());
    CHECK(r.final_err < 0.1 * kDegr);
  }
}
