// The servo-bus jobs (firmware-bridge/host/servo_jobs.hpp) on the simulated buses in virtual time: a scan,
// a calibration at the zero pose, a trapezoid and a teleoperation-like drag streamed to six servos (final
// error within one encoder count), refusals before anything moves, and the safe states after a bus error and
// after a stop. The same jobs run on a PTY in test_bridge_cli.cpp (`achain bus …`, `send --bus`).
#include <catch2/catch.hpp>
#include <cmath>
#include <csignal>
#include <vector>

#include <achain/io/robot.hpp>

#include "host/servo_jobs.hpp"
#include "servo/feetech.hpp"

namespace servo_jobs_test {

using namespace achain::bridge;

const char* name(ServoProtocol p) { return p == ServoProtocol::Dynamixel ? "dynamixel" : "feetech"; }

/// Six servos, IDs 1-6, at 1 Mbit/s, standing at different positions.
void addSix(VirtualServoBus& bus) {
  for (int i = 0; i < 6; ++i) {
    SimServoParams s;
    s.id = static_cast<uint8_t>(i + 1);
    s.model = bus.protocol() == ServoProtocol::Dynamixel ? kModelXM430W350 : kModelSTS3215;
    s.start_position = 1500 + 200 * i;
    REQUIRE(bus.addServo(s));
  }
}

/// A joint map for addSix's servos: j1…j6 on IDs 1-6, each zero where its servo stands, ±1 rad.
ServoCalibration sixJoints(ServoProtocol p) {
  ServoCalibration cal;
  cal.protocol = p;
  for (int i = 0; i < 6; ++i) {
    ServoJoint j;
    j.name = "j" + std::to_string(i + 1);
    j.id = i + 1;
    j.zero_offset = 1500 + 200 * i;
    j.min = -1;
    j.max = 1;
    cal.joints.push_back(j);
  }
  return cal;
}

/// A rest-to-rest trapezoid per joint from q0 to q1 (the same timing for all), sampled every dt.
SampledTrajectory trapezoid(const std::vector<double>& q0, const std::vector<double>& q1, double vmax, double amax, double dt) {
  double dmax = 0;
  for (size_t j = 0; j < q0.size(); ++j) dmax = std::max(dmax, std::abs(q1[j] - q0[j]));
  const double ta = vmax / amax, T = dmax / vmax + ta;  // (assumes dmax ≥ vmax·ta)
  SampledTrajectory tr;
  for (size_t j = 0; j < q0.size(); ++j) tr.joints.push_back("j" + std::to_string(j + 1));
  for (int k = 0;; ++k) {
    const double t = std::min(k * dt, T);
    double s;  // distance along the longest joint's profile, 0 … dmax
    if (t < ta)
      s = 0.5 * amax * t * t;
    else if (t < T - ta)
      s = 0.5 * amax * ta * ta + vmax * (t - ta);
    else
      s = dmax - 0.5 * amax * (T - t) * (T - t);
    std::vector<double> q(q0.size());
    for (size_t j = 0; j < q0.size(); ++j) q[j] = q0[j] + (q1[j] - q0[j]) * s / dmax;
    tr.t.push_back(t);
    tr.q.push_back(q);
    tr.qd.push_back(std::vector<double>(q0.size(), 0.0));
    if (t >= T) break;
  }
  return tr;
}

TEST_CASE("servo jobs: scan, calibrate at zero and stream a trapezoid to six servos within one count", "[servo][jobs]") {
  const achain::Model puma = achain::builtinModel("puma560");
  for (ServoProtocol p : {ServoProtocol::Dynamixel, ServoProtocol::Feetech}) {
    INFO(name(p));
    VirtualServoBus bus(p);
    addSix(bus);
    VirtualServoLink link(bus);
    ServoHost host(p);
    const auto found = scanServos(host, link, {1, 2, 3, 4, 5, 6, 7}, {57600, 1000000});
    REQUIRE(found.size() == 6);
    for (int i = 0; i < 6; ++i) {
      CHECK(found[i].id == i + 1);
      CHECK(found[i].baud == 1000000u);
      CHECK(servoModelName(p, found[i].model) == (p == ServoProtocol::Dynamixel ? "XM430-W350" : "STS3215"));
    }
    // the arm stands at its zero pose: each servo's present position becomes its joint's zero
    ServoHost h2(p);
    const ServoCalibration cal = calibrateAtZero(h2, link, p, 1000000, puma, {1, 2, 3, 4, 5, 6}, {1, -1, 1, -1, 1, -1});
    REQUIRE(cal.joints.size() == 6);
    for (int i = 0; i < 6; ++i) {
      CHECK(cal.joints[i].zero_offset == 1500 + 200 * i);
      CHECK(cal.joints[i].name == puma.joints[static_cast<size_t>(puma.coord_joint[i])].name);
    }
    CHECK(cal.joints[1].min == Approx(-45 * achain::kPi / 180));  // the model's limits (degrees in the file)
    CHECK(cal.joints[1].direction == -1);
    // one servo turn around the zero covers less than the PUMA's j2 (-45° … 225°), j3 (-225° … 45°) and j6 (±266°)
    const std::vector<std::string> notes = rangeNotes(cal, puma);
    REQUIRE(notes.size() == 3);
    CHECK(notes[0].rfind("joint 'j2' (servo ID 2): streams are limited to -0.7854 .. 3.1416 rad (-45.0° .. 180.0°)", 0) == 0);
    CHECK(notes[1].rfind("joint 'j3' (servo ID 3): ", 0) == 0);
    CHECK(notes[2].rfind("joint 'j6' (servo ID 6): ", 0) == 0);
    // a robot whose zero pose is outside its limits (the 4R twin: 60° … 300°) is said so
    const achain::Model twin = achain::builtinModel("prototype-4r");
    ServoCalibration c4 = cal;
    c4.joints.resize(4);
    for (auto& j : c4.joints) j.min = -3.14159, j.max = 3.14159;
    narrowToModel(c4, twin);
    const std::vector<std::string> n4 = rangeNotes(c4, twin);
    REQUIRE(n4.size() == 8);
    CHECK(n4[0].find("its zero pose is outside the model's limits 1.0472 .. 5.2360 rad (60.0° .. 300.0°)") != std::string::npos);
    // streamed: the rate limit (2 rad/s) is above the plan's 1.2 rad/s, so the servos follow it
    ServoHost h3(p);
    connectServos(h3, link, cal);
    const SampledTrajectory tr = trapezoid({0, 0, 0, 0, 0, 0}, {0.6, -0.4, 0.3, 0.8, -0.5, 0.7}, 1.2, 4.0, 0.01);
    ServoSendOptions o;
    int progress_calls = 0;
    o.progress = [&](double, double) { ++progress_calls; };
    const ServoSendReport rep = sendToServos(h3, link, tr, o);
    INFO(rep.error);
    REQUIRE(rep.ok);
    CHECK(progress_calls > 5);
    CHECK(rep.overruns == 0);
    CHECK(rep.elapsed == Approx(tr.t.back() + o.settle).margin(0.02));
    CHECK(rep.periods > static_cast<uint64_t>(0.9 * (tr.t.back() + o.settle) / 0.01));  // 100 Hz throughout
    for (int j = 0; j < 6; ++j) {
      CHECK(std::abs(rep.final_error_counts[j]) <= 1);
      CHECK(std::abs(rep.final_q[j] - tr.q.back()[j]) < 2 * achain::kPi / 4096 * 1.5);
      // the servo stands where the calibration puts the goal
      CHECK(std::abs(bus.position(bus.find(static_cast<uint8_t>(j + 1))) - jointToCounts(cal.joints[j], tr.q.back()[j])) <= 1.0);
      CHECK(bus.torqueOn(j));  // holds the last pose
    }
  }
}

TEST_CASE("servo jobs: a drag (a goal that moves every period, as IK teleoperation sends) ends within one count", "[servo][jobs]") {
  VirtualServoBus bus(ServoProtocol::Dynamixel);
  addSix(bus);
  VirtualServoLink link(bus);
  const ServoCalibration cal = sixJoints(ServoProtocol::Dynamixel);
  ServoHost host(ServoProtocol::Dynamixel);
  connectServos(host, link, cal);
  // a smooth wandering path sampled at 60 Hz (a pointer drag), 3 s
  SampledTrajectory tr;
  for (int k = 0; k <= 180; ++k) {
    const double t = k / 60.0;
    std::vector<double> q(6);
    for (int j = 0; j < 6; ++j) q[j] = 0.4 * std::sin(1.3 * t + j) * std::min(1.0, t);
    tr.t.push_back(t);
    tr.q.push_back(q);
  }
  const ServoSendReport rep = sendToServos(host, link, tr, ServoSendOptions());
  INFO(rep.error);
  REQUIRE(rep.ok);
  for (int j = 0; j < 6; ++j) CHECK(std::abs(rep.final_error_counts[j]) <= 1);
}

TEST_CASE("servo jobs: a sample outside the limits is refused before a byte moves a servo", "[servo][jobs]") {
  VirtualServoBus bus(ServoProtocol::Feetech);
  addSix(bus);
  VirtualServoLink link(bus);
  const ServoCalibration cal = sixJoints(ServoProtocol::Feetech);
  ServoHost host(ServoProtocol::Feetech);
  connectServos(host, link, cal);
  SampledTrajectory tr = trapezoid({0, 0, 0, 0, 0, 0}, {0.5, 0.5, 0.5, 0.5, 1.2, 0.5}, 1.0, 4.0, 0.01);
  const uint32_t writes_before = bus.syncWrites();
  const ServoSendReport rep = sendToServos(host, link, tr, ServoSendOptions());
  CHECK_FALSE(rep.ok);
  CHECK(rep.error.find("joint 'j5'") != std::string::npos);
  CHECK(rep.error.find("above its maximum 1.0000 rad") != std::string::npos);
  CHECK(rep.error.rfind("sample ", 0) == 0);
  CHECK(bus.syncWrites() == writes_before);
  for (int i = 0; i < 6; ++i) CHECK_FALSE(bus.torqueOn(i));
}

TEST_CASE("servo jobs: a silent servo mid-stream and a stop each end in the chosen safe state", "[servo][jobs]") {
  for (EstopAction action : {EstopAction::TorqueOff, EstopAction::Hold}) {
    for (bool by_stop : {false, true}) {
      INFO((action == EstopAction::TorqueOff ? "torque off" : "hold") << (by_stop ? ", stopped" : ", silent servo 3"));
      VirtualServoBus bus(ServoProtocol::Dynamixel);
      addSix(bus);
      VirtualServoLink link(bus);
      const ServoCalibration cal = sixJoints(ServoProtocol::Dynamixel);
      ServoHostOptions ho;
      ho.estop_action = action;
      ServoHost host(ServoProtocol::Dynamixel, ho);
      connectServos(host, link, cal);
      const SampledTrajectory tr = trapezoid({0, 0, 0, 0, 0, 0}, {0.5, 0.5, 0.5, 0.5, 0.5, 0.5}, 0.5, 2.0, 0.01);
      volatile std::sig_atomic_t stop = 0;
      ServoSendOptions o;
      o.stop = &stop;
      o.progress = [&](double t, double) {
        if (t < 0.4) return;
        if (by_stop)
          stop = 1;
        else
          bus.injectSilence(3, -1);
      };
      const ServoSendReport rep = sendToServos(host, link, tr, o);
      CHECK_FALSE(rep.ok);
      if (by_stop) {
        CHECK(rep.error.find("stopped by a signal during the trajectory") != std::string::npos);
      } else {
        CHECK(rep.error.find("servo ID 3") != std::string::npos);
        CHECK(rep.error.find(action == EstopAction::TorqueOff ? "torque turned off" : "holds its last present position") !=
              std::string::npos);
      }
      CHECK_FALSE(host.streaming());
      for (int i = 0; i < 6; ++i) {
        if (!by_stop && i == 2) continue;  // the silent one hears nothing
        CHECK(bus.torqueOn(i) == (action == EstopAction::Hold));
      }
    }
  }
}

TEST_CASE("servo jobs: ServoSendJob stepped on the caller's clock, stopped by a named reason, and the calibration in pieces", "[servo][jobs]") {
  const achain::Model puma = achain::builtinModel("puma560");
  for (ServoProtocol p : {ServoProtocol::Dynamixel, ServoProtocol::Feetech}) {
    INFO(name(p));
    // the calibration in pieces (the studio's bus worker: its own pump) equals calibrateAtZero's
    ServoCalibration direct, pieces;
    {
      VirtualServoBus bus(p);
      addSix(bus);
      VirtualServoLink link(bus);
      ServoHost host(p);
      direct = calibrateAtZero(host, link, p, 1000000, puma, {1, 2, 3, 4, 5, 6}, {1, -1, 1, -1, 1, -1});
    }
    {
      VirtualServoBus bus(p);
      addSix(bus);
      VirtualServoLink link(bus);
      ServoHost host(p);
      pieces = servoJointMap(p, 1000000, puma, {1, 2, 3, 4, 5, 6}, {1, -1, 1, -1, 1, -1});
      for (const ServoJoint& j : pieces.joints) CHECK(j.zero_offset == 2048);  // the default, not yet read
      host.connect(pieces);
      CHECK_THROWS_WITH(zeroAtPresent(pieces, host.feedback(), puma), Catch::Contains("has not been read"));
      REQUIRE(pumpServo(host, link, [&] { return host.ready(); }, 2.0));
      REQUIRE(host.startMonitoring(link.nowUs()).empty());
      REQUIRE(pumpServo(host, link, [&] {
        for (const ServoFeedback& f : host.feedback())
          if (!f.valid) return false;
        return true;
      }, 2.0));
      zeroAtPresent(pieces, host.feedback(), puma);
    }
    REQUIRE(pieces.joints.size() == 6);
    CHECK(servoCalibrationToJson(pieces) == servoCalibrationToJson(direct));
    for (int i = 0; i < 6; ++i) CHECK(pieces.joints[i].zero_offset == 1500 + 200 * i);
    CHECK_THROWS_WITH(servoJointMap(p, 1000000, puma, {1, 2, 3, 4, 5, 5}, {}), Catch::Contains("servo ID 5 is given twice"));

    // a job stepped by hand, stopped mid-trajectory: the e-stop action goes out, the report names who stopped it
    VirtualServoBus bus(p);
    addSix(bus);
    VirtualServoLink link(bus);
    ServoHost host(p);
    connectServos(host, link, sixJoints(p));
    ServoSendJob job(host, trapezoid({0, 0, 0, 0, 0, 0}, {0.5, 0.5, 0.5, 0.5, 0.5, 0.5}, 0.5, 2.0, 0.01), ServoSendOptions());
    CHECK(std::string(job.phaseName()) == "start");
    REQUIRE(pumpServo(host, link, [&] { return job.step(link.nowUs()) || job.t() >= 0.4; }, 10.0));
    CHECK(std::string(job.phaseName()) == "running");
    job.stop("the studio's E-STOP");
    job.stop("a second press");
    REQUIRE(pumpServo(host, link, [&] { return job.step(link.nowUs()); }, 1.0));
    CHECK_FALSE(job.report().ok);
    CHECK(job.report().error.rfind("stopped by the studio's E-STOP during the trajectory: streaming stopped and torque turned off", 0) == 0);
    for (int i = 0; i < 6; ++i) CHECK_FALSE(bus.torqueOn(i));
    for (double q : job.report().final_q) CHECK((q > 0.05 && q < 0.5));
  }
}

TEST_CASE("servo jobs: an adapter that echoes: discarded with the echo option, named without it, and its absence named", "[servo][jobs][echo]") {
  for (ServoProtocol p : {ServoProtocol::Dynamixel, ServoProtocol::Feetech}) {
    INFO(name(p));
    ServoHostOptions echo_on;
    echo_on.echo = true;
    {  // echo on both sides: the same scan and a stream to within one count, as without an echo
      VirtualServoBus bus(p);
      bus.setEcho(true);
      addSix(bus);
      VirtualServoLink link(bus);
      ServoHost host(p, echo_on);
      const auto found = scanServos(host, link, {1, 2, 3, 4, 5, 6, 7}, {1000000});
      CHECK(found.size() == 6);
      const ServoCalibration cal = sixJoints(p);
      ServoHost h2(p, echo_on);
      connectServos(h2, link, cal);
      const SampledTrajectory tr = trapezoid({0, 0, 0, 0, 0, 0}, {0.3, -0.2, 0.1, 0.4, -0.25, 0.35}, 1.0, 4.0, 0.01);
      const ServoSendReport rep = sendToServos(h2, link, tr, ServoSendOptions());
      INFO(rep.error);
      REQUIRE(rep.ok);
      CHECK(rep.overruns == 0);
      for (int j = 0; j < 6; ++j) CHECK(std::abs(rep.final_error_counts[j]) <= 1);
    }
    {  // the adapter echoes, the host is not told: no phantom servos (a Feetech ping's echo reads as a reply), a named error
      VirtualServoBus bus(p);
      bus.setEcho(true);
      addSix(bus);
      VirtualServoLink link(bus);
      ServoHost host(p);
      std::string why;
      try {
        scanServos(host, link, {1, 7, 8}, {1000000});
      } catch (const achain::Error& e) {
        why = e.what();
      }
      INFO(why);
      CHECK(why.find("the adapter echoes what") != std::string::npos);
      CHECK(why.find("turn on the adapter echo option") != std::string::npos);
      // connected before the fault is found, the stream stops in the safe state with the same words
      ServoHost h2(p);
      std::string why2;
      try {
        connectServos(h2, link, sixJoints(p));
      } catch (const achain::Error& e) {
        why2 = e.what();
      }
      CHECK(why2.find("the adapter echoes what") != std::string::npos);
    }
    {  // the host expects an echo the adapter does not send: an absent ID's silence, a present one's reply
      VirtualServoBus bus(p);
      addSix(bus);
      VirtualServoLink link(bus);
      auto scanError = [&](int id) {
        ServoHost host(p, echo_on);
        try {
          scanServos(host, link, {id}, {1000000});
        } catch (const achain::Error& e) {
          return std::string(e.what());
        }
        return std::string();
      };
      const std::string silent = scanError(9), answered = scanError(1);
      INFO(silent);
      INFO(answered);
      CHECK(silent.find("bytes the host sent never came back") != std::string::npos);
      CHECK(silent.find("turn the echo option off") != std::string::npos);
      CHECK(answered.find("differs from what was sent") != std::string::npos);
      CHECK(answered.find("this adapter does not echo (turn the echo option off)") != std::string::npos);
    }
    {  // an echo that differs from what was sent (a damaged line)
      ServoHost host(p, echo_on);
      host.scan({3}, {1000000});
      host.update(0);
      uint8_t out[64];
      const size_t n = host.takeOutput(out, sizeof out);
      REQUIRE(n > 4);
      out[n - 2] ^= 0x10;
      host.receive(out, n, 10);
      CHECK(host.error().find("echo of the host's own packet differs from what was sent (byte " + std::to_string(n - 2)) !=
            std::string::npos);
    }
  }
}

TEST_CASE("servo jobs: the limits taken at each end of travel (the guided calibration's second step)", "[servo][jobs][limits]") {
  const achain::Model puma = achain::builtinModel("puma560");
  const double deg = achain::kPi / 180;
  for (ServoProtocol p : {ServoProtocol::Dynamixel, ServoProtocol::Feetech}) {
    INFO(name(p));
    VirtualServoBus bus(p);
    addSix(bus);
    VirtualServoLink link(bus);
    ServoHost h(p);
    ServoCalibration cal = calibrateAtZero(h, link, p, 1000000, puma, {1, 2, 3, 4, 5, 6}, {1, -1, 1, -1, 1, -1});
    const double span = 2 * achain::kPi / 4096;  // rad per count
    // joint 2 (index 1, direction -1, zero at 1700 counts; the model's range -45° .. 225°): by hand to 1700 - 400
    // counts, which is +400 counts of joint angle: 35.2°; the upper limit goes 1° inside it
    REQUIRE(bus.moveByHand(2, 1700 - 400));
    connectServos(h, link, cal);
    CHECK(limitAtPresent(cal, 1, true, h.feedback(), puma) == "");
    CHECK(cal.joints[1].max == Approx(400 * span - kLimitMargin).margin(1e-12));
    // the lower end at -200 counts of joint angle (-17.6°): 1° inside it
    REQUIRE(bus.moveByHand(2, 1700 + 200));
    connectServos(h, link, cal);
    CHECK(limitAtPresent(cal, 1, false, h.feedback(), puma) == "");
    CHECK(cal.joints[1].min == Approx(-200 * span + kLimitMargin).margin(1e-12));
    // the range notes now name the recorded limits, not one servo turn
    int j2_notes = 0;
    for (const std::string& n : rangeNotes(cal, puma))
      if (n.rfind("joint 'j2'", 0) == 0) {
        ++j2_notes;
        CHECK(n.find("(the calibration's limits), less than the model's") != std::string::npos);
      }
    CHECK(j2_notes == 1);
    // connected with the new limits, a stream is refused past the measured ends before the bus sees it
    connectServos(h, link, cal);
    CHECK(h.checkTarget({0, 0.5 * 400 * span, 0, 0, 0, 0}) == "");
    CHECK(h.checkTarget({0, 400 * span, 0, 0, 0, 0}).find("j2") != std::string::npos);
    CHECK(h.checkTarget({0, -200 * span, 0, 0, 0, 0}).find("j2") != std::string::npos);
    // joint 5 (index 4, direction +1, zero 2300, the model's range ±100°): an end past the model's lower limit, at
    // -1252 counts (-110.0°), keeps the model's limit
    REQUIRE(bus.moveByHand(5, 2300 - 1252));
    connectServos(h, link, cal);
    const std::string note = limitAtPresent(cal, 4, false, h.feedback(), puma);
    INFO(note);
    CHECK(note.find("joint 'j5' (servo 5): the lower end measured at -110.0° is past the model's lower limit -100.0°") == 0);
    CHECK(cal.joints[4].min == Approx(-100 * deg));
    // the upper end taken where the lower one is: no range left; the message says what to change
    std::string why;
    try {
      limitAtPresent(cal, 4, true, h.feedback(), puma);
    } catch (const achain::Error& e) {
      why = e.what();
    }
    INFO(why);
    CHECK(why.find("joint 'j5' (servo 5): the upper end measured at -110.0° is at or below the lower limit -100.0°") !=
          std::string::npos);
    CHECK(why.find("set its direction to -1 and take the zero again") != std::string::npos);
    CHECK(cal.joints[4].max == Approx(100 * deg));  // unchanged
    // a position not read, and a joint that is not there
    std::vector<ServoFeedback> unread(6);
    CHECK_THROWS_WITH(limitAtPresent(cal, 2, true, unread, puma), Catch::Contains("the present position of joint 'j3' (servo 3) has not been read"));
    CHECK_THROWS_WITH(limitAtPresent(cal, 6, true, h.feedback(), puma), Catch::Contains("joint 6 is outside 0 .. 5"));
    // torque on: a hand cannot turn the servo
    ServoHost h2(p);
    connectServos(h2, link, cal);
    h2.enableTorque(true);
    REQUIRE(pumpServo(h2, link, [&] { return bus.torqueOn(bus.find(3)); }, 1.0));
    CHECK_FALSE(bus.moveByHand(3, 100));
  }
}

}  // namespace servo_jobs_test
