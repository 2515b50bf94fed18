#include "servo_jobs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <achain/math/types.hpp>

namespace achain {
namespace bridge {

bool pumpServo(ServoHost& host, ServoLink& link, const std::function<bool()>& done, double timeout_s,
               const volatile std::sig_atomic_t* stop) {
  const uint64_t end = link.nowUs() + static_cast<uint64_t>(std::max(0.0, timeout_s) * 1e6);
  uint32_t baud_set = 0;
  uint8_t buf[1024];
  for (;;) {
    const uint64_t now = link.nowUs();
    size_t n;
    while ((n = link.read(buf, sizeof buf)) > 0) host.receive(buf, n, now);
    host.update(now);
    if (host.baud() != baud_set) {  // before the bytes meant for the new rate leave
      baud_set = host.baud();
      link.setBaud(baud_set);
    }
    while ((n = host.takeOutput(buf, sizeof buf)) > 0) link.write(buf, n);
    if (done()) return true;
    if ((stop && *stop) || now >= end) return false;
    link.wait(100);
  }
}

namespace {
/// Until the host has nothing left to do, then 5 ms more: its last packet (a safe state's sync write, say) has
/// crossed the wire at 1 Mbit/s (a real port has taken it already; the simulated bus needs its clock run).
bool settled(ServoHost& host, ServoLink& link, double timeout_s) {
  if (!pumpServo(host, link, [&] { return !host.busy(); }, timeout_s)) return false;
  const uint64_t until = link.nowUs() + 5000;
  pumpServo(host, link, [&] { return link.nowUs() >= until; }, 0.01);
  return true;
}
const char* protocolText(ServoProtocol p) { return p == ServoProtocol::Dynamixel ? "Dynamixel" : "Feetech"; }
}  // namespace

std::vector<FoundServo> scanServos(ServoHost& host, ServoLink& link, const std::vector<int>& ids,
                                   const std::vector<uint32_t>& bauds) {
  for (int id : ids)
    if (id < 0 || id > 252) throw Error("scan: servo ID " + std::to_string(id) + " is outside 0 .. 252");
  host.scan(ids, bauds);
  // an absent ID costs its reply deadline: the ping's bytes, a return delay and the margin (+ 1 ms of slack)
  const double per_ping = (host.options().return_delay_us + host.options().timeout_margin_us + 2000) * 1e-6;
  if (!settled(host, link, 1.0 + per_ping * static_cast<double>(ids.size() * bauds.size())))
    throw Error("scan: the bus host did not finish the scan");
  return host.found();
}

void connectServos(ServoHost& host, ServoLink& link, const ServoCalibration& cal) {
  if (cal.joints.empty()) throw Error("servo calibration: no joints");
  host.connect(cal);
  if (!settled(host, link, 2.0) || !host.ready())
    throw Error(host.error().empty() ? std::string(protocolText(cal.protocol)) + " bus: no answer while connecting"
                                     : host.error());
  // the present state once, torque untouched
  const std::string why = host.startMonitoring(link.nowUs());
  if (!why.empty()) throw Error(why);
  const bool read = pumpServo(host, link, [&] {
    if (!host.error().empty()) return true;
    for (const ServoFeedback& f : host.feedback())
      if (!f.valid) return false;
    return true;
  }, 1.0);
  host.stopMonitoring();
  settled(host, link, 0.5);
  if (!host.error().empty()) throw Error(host.error());
  if (!read) throw Error(std::string(protocolText(cal.protocol)) + " bus: the present positions were not read within 1 s");
}

std::string servoModelName(ServoProtocol p, int model) {
  if (p == ServoProtocol::Dynamixel) {
    if (model == kModelXM430W350) return "XM430-W350";
    if (model == kModelXL430W250) return "XL430-W250";
    if (model == kModelXL330M288) return "XL330-M288";
  } else if (model == kModelSTS3215) {
    return "STS3215";
  }
  return "model " + std::to_string(model);
}

ServoCalibration calibrateAtZero(ServoHost& host, ServoLink& link, ServoProtocol p, uint32_t baud, const Model& model,
                                 const std::vector<int>& ids, const std::vector<int>& directions) {
  if (static_cast<int>(ids.size()) != model.nq)
    throw Error("--ids: give one servo ID per coordinate of robot '" + model.name + "' (" + std::to_string(model.nq) +
                "), got " + std::to_string(ids.size()));
  if (!directions.empty() && directions.size() != ids.size())
    throw Error("--directions: give one per joint (" + std::to_string(ids.size()) + "), got " + std::to_string(directions.size()));
  ServoCalibration c;
  c.protocol = p;
  c.baud = baud;
  for (size_t i = 0; i < ids.size(); ++i) {
    ServoJoint j;
    j.name = model.joints[static_cast<size_t>(model.coord_joint[i])].name;
    j.id = ids[i];
    j.direction = directions.empty() ? 1 : directions[i];
    if (j.direction != 1 && j.direction != -1)
      throw Error("--directions: joint '" + j.name + "': 1 or -1, got " + std::to_string(j.direction));
    for (size_t k = 0; k < i; ++k)
      if (ids[k] == ids[i]) throw Error("--ids: servo ID " + std::to_string(ids[i]) + " is given twice");
    c.joints.push_back(j);
  }
  // connect with offsets 0 to read where each servo stands; that is the joint's zero
  connectServos(host, link, c);
  for (size_t i = 0; i < c.joints.size(); ++i) c.joints[i].zero_offset = host.feedback()[i].counts;
  narrowToModel(c, model);
  return c;
}

namespace {
/// The trajectory's joint values at time t (linear between samples; clamped to the ends).
void sampleAt(const SampledTrajectory& tr, double t, size_t& k, std::vector<double>& q) {
  while (k + 1 < tr.t.size() && tr.t[k + 1] <= t) ++k;
  if (k + 1 >= tr.t.size() || t <= tr.t[k]) {
    q = tr.q[k];
    return;
  }
  const double a = (t - tr.t[k]) / (tr.t[k + 1] - tr.t[k]);
  for (size_t j = 0; j < q.size(); ++j) q[j] = tr.q[k][j] + a * (tr.q[k + 1][j] - tr.q[k][j]);
}
}  // namespace

ServoSendReport sendToServos(ServoHost& host, ServoLink& link, const SampledTrajectory& tr, const ServoSendOptions& o) {
  ServoSendReport rep;
  if (tr.t.empty()) {
    rep.error = "the trajectory has no samples";
    return rep;
  }
  // 1. every sample against the limits, before anything moves
  for (size_t k = 0; k < tr.q.size(); ++k) {
    const std::string why = host.checkTarget(tr.q[k]);
    if (!why.empty()) {
      char at[64];
      std::snprintf(at, sizeof at, "sample %zu (t = %.3f s): ", k, tr.t[k]);
      rep.error = at + why;
      return rep;
    }
  }
  const uint64_t job_end = link.nowUs() + static_cast<uint64_t>(o.timeout * 1e6);
  auto remaining = [&] { return std::max(0.0, (static_cast<double>(job_end) - static_cast<double>(link.nowUs())) * 1e-6); };
  auto stopped = [&] { return o.stop && *o.stop; };
  // ends the job in the safe state the user chose; the message says why
  auto fail = [&](const std::string& why) {
    if (host.error().empty() && (host.streaming() || stopped())) host.estop(link.nowUs());
    settled(host, link, 0.5);  // the safe state (e-stop's, or the one a bus error queued) goes out
    rep.error = host.error().empty() ? why + ": " + host.safeText() : host.error();
    rep.periods = host.periods();
    rep.overruns = host.overruns();
    for (const ServoFeedback& f : host.feedback()) rep.final_q.push_back(f.position);  // where the arm stopped
    return rep;
  };
  // 2. torque on where each servo stands (no jump), then stream from there
  host.enableTorque(true);
  if (!settled(host, link, 2.0) || !host.error().empty()) return fail("torque on: the bus did not answer");
  const std::string why = host.startStreaming(link.nowUs());
  if (!why.empty()) return fail(why);
  // 3. to the first sample under the rate limit: the longest joint's distance / its speed, plus 0.3 s to settle
  std::vector<double> q = tr.q.front();
  host.setTarget(q);
  double longest = 0;
  for (size_t j = 0; j < q.size(); ++j)
    longest = std::max(longest, std::abs(q[j] - host.feedback()[j].position) / host.calibration().joints[j].max_velocity);
  const uint64_t a0 = link.nowUs();
  const uint64_t a_end = a0 + static_cast<uint64_t>((longest + 0.3) * 1e6);
  if (!pumpServo(host, link, [&] { return !host.error().empty() || link.nowUs() >= a_end; }, remaining(), o.stop) ||
      !host.error().empty())
    return fail(stopped() ? "stopped by a signal before the trajectory began" : "timed out moving to the first sample");
  rep.approach = static_cast<double>(link.nowUs() - a0) * 1e-6;
  // 4. the trajectory in real time, a goal per period
  const uint64_t t0 = link.nowUs();
  const double duration = tr.t.back() - tr.t.front();
  size_t k = 0;
  double last_progress = -1;
  const bool ran = pumpServo(host, link, [&] {
    if (!host.error().empty()) return true;
    const double t = static_cast<double>(link.nowUs() - t0) * 1e-6;
    sampleAt(tr, tr.t.front() + t, k, q);
    host.setTarget(q);  // within the limits: every sample was, and the limits are a box
    if (o.progress && t - last_progress >= 0.1) {
      last_progress = t;
      o.progress(std::min(t, duration), duration);
    }
    return t >= duration + o.settle;
  }, remaining(), o.stop);
  if (!ran || !host.error().empty())
    return fail(stopped() ? "stopped by a signal during the trajectory" : "timed out during the trajectory");
  if (o.progress) o.progress(duration, duration);
  rep.elapsed = static_cast<double>(link.nowUs() - t0) * 1e-6;
  // 5. the final error, read back
  const std::vector<double>& goal = tr.q.back();
  for (size_t j = 0; j < goal.size(); ++j) {
    const ServoFeedback& f = host.feedback()[j];
    const ServoJoint& s = host.calibration().joints[j];
    rep.final_q.push_back(f.position);
    rep.final_error.push_back(goal[j] - f.position);
    rep.final_error_counts.push_back(jointToCounts(s, goal[j]) - f.counts);
  }
  rep.periods = host.periods();
  rep.overruns = host.overruns();
  rep.last_period = host.lastPeriod();
  host.stopStreaming();
  if (o.torque_off_at_end) {
    host.enableTorque(false);
    settled(host, link, 0.5);
  }
  rep.ok = host.error().empty();
  if (!rep.ok) rep.error = host.error();
  return rep;
}

}  // namespace bridge
}  // namespace achain
