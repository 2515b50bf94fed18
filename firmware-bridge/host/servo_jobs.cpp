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
  const std::string before = host.error();  // a bus error that stands from a session is not the scan's
  host.scan(ids, bauds);
  // an absent ID costs its reply deadline: the ping's bytes, a return delay and the margin (+ 1 ms of slack)
  const double per_ping = (host.options().return_delay_us + host.options().timeout_margin_us + 2000) * 1e-6;
  if (!settled(host, link, 1.0 + per_ping * static_cast<double>(ids.size() * bauds.size())))
    throw Error("scan: the bus host did not finish the scan");
  if (host.error() != before) throw Error("scan: " + host.error());  // an echo problem (a silent ID is no error)
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

ServoCalibration servoJointMap(ServoProtocol p, uint32_t baud, const Model& model, const std::vector<int>& ids,
                               const std::vector<int>& directions) {
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
  return c;
}

void zeroAtPresent(ServoCalibration& c, const std::vector<ServoFeedback>& present, const Model& model) {
  if (present.size() != c.joints.size())
    throw Error("calibration at zero: " + std::to_string(present.size()) + " present positions for " +
                std::to_string(c.joints.size()) + " joints");
  for (size_t i = 0; i < c.joints.size(); ++i) {
    if (!present[i].valid)
      throw Error("calibration at zero: the present position of servo " + std::to_string(c.joints[i].id) + " (joint '" +
                  c.joints[i].name + "') has not been read");
    c.joints[i].zero_offset = present[i].counts;
  }
  narrowToModel(c, model);
}

std::string limitAtPresent(ServoCalibration& c, int joint, bool upper, const std::vector<ServoFeedback>& present,
                           const Model& model, double margin) {
  if (static_cast<int>(c.joints.size()) != model.nq)
    throw Error("calibration of the limits: " + std::to_string(c.joints.size()) + " joints, but robot '" + model.name +
                "' has " + std::to_string(model.nq) + " coordinates");
  if (joint < 0 || joint >= static_cast<int>(c.joints.size()))
    throw Error("calibration of the limits: joint " + std::to_string(joint) + " is outside 0 .. " +
                std::to_string(c.joints.size() - 1));
  if (!(margin >= 0 && margin < 0.5)) throw Error("calibration of the limits: the margin must be 0 or more and below 0.5 rad");
  if (present.size() != c.joints.size())
    throw Error("calibration of the limits: " + std::to_string(present.size()) + " present positions for " +
                std::to_string(c.joints.size()) + " joints");
  ServoJoint& s = c.joints[static_cast<size_t>(joint)];
  const std::string who = "joint '" + s.name + "' (servo " + std::to_string(s.id) + ")";
  if (!present[static_cast<size_t>(joint)].valid)
    throw Error("calibration of the limits: the present position of " + who + " has not been read");
  const auto deg = [](double q) { char b[32]; std::snprintf(b, sizeof b, "%.1f°", q * 180 / kPi); return std::string(b); };
  const double end = countsToJoint(s, present[static_cast<size_t>(joint)].counts);
  const double at = upper ? end - margin : end + margin;
  const JointLimits& L = model.joints[static_cast<size_t>(model.coord_joint[static_cast<size_t>(joint)])].limits;
  const double model_end = upper ? L.upper : L.lower;
  const bool past_model = std::isfinite(model_end) && (upper ? at > model_end : at < model_end);
  const double limit = past_model ? model_end : at;
  const double other = upper ? s.min : s.max;
  if (upper ? !(limit > other) : !(limit < other))
    throw Error("calibration of the limits: " + who + ": the " + (upper ? "upper" : "lower") + " end measured at " + deg(end) +
                " is " + (upper ? "at or below the lower" : "at or above the upper") + " limit " + deg(other) +
                ": move the joint the other way, or, if it turns the wrong way, set its direction to " +
                std::to_string(-s.direction) + " and take the zero again");
  (upper ? s.max : s.min) = limit;
  if (!past_model) return "";
  return who + ": the " + std::string(upper ? "upper" : "lower") + " end measured at " + deg(end) + " is past the model's " +
         (upper ? "upper" : "lower") + " limit " + deg(model_end) + "; the model's limit is kept";
}

ServoCalibration calibrateAtZero(ServoHost& host, ServoLink& link, ServoProtocol p, uint32_t baud, const Model& model,
                                 const std::vector<int>& ids, const std::vector<int>& directions) {
  ServoCalibration c = servoJointMap(p, baud, model, ids, directions);
  // connect with the map (default offsets) to read where each servo stands; that is the joint's zero
  connectServos(host, link, c);
  zeroAtPresent(c, host.feedback(), model);
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
constexpr uint64_t kSettleTailUs = 5000;  // after the host is idle: its last packet crosses the wire (see settled)
uint64_t usOf(double s) { return static_cast<uint64_t>(std::max(0.0, s) * 1e6); }
}  // namespace

ServoSendJob::ServoSendJob(ServoHost& host, SampledTrajectory tr, ServoSendOptions o)
    : host_(host), tr_(std::move(tr)), o_(std::move(o)) {
  if (tr_.t.empty()) {
    rep_.error = "the trajectory has no samples";
    phase_ = Phase::Done;
    return;
  }
  // 1. every sample against the limits, before anything moves
  for (size_t k = 0; k < tr_.q.size(); ++k) {
    const std::string why = host_.checkTarget(tr_.q[k]);
    if (!why.empty()) {
      char at[64];
      std::snprintf(at, sizeof at, "sample %zu (t = %.3f s): ", k, tr_.t[k]);
      rep_.error = at + why;
      phase_ = Phase::Done;
      return;
    }
  }
  q_ = tr_.q.front();
}

double ServoSendJob::duration() const { return tr_.t.empty() ? 0.0 : tr_.t.back() - tr_.t.front(); }

bool ServoSendJob::stopAsked() const { return !stop_reason_.empty() || (o_.stop && *o_.stop); }

std::string ServoSendJob::stopText(const char* when) const {
  return "stopped by " + (stop_reason_.empty() ? o_.stop_reason : stop_reason_) + " " + when;
}

void ServoSendJob::stop(const std::string& reason) {
  if (stop_reason_.empty()) stop_reason_ = reason.empty() ? std::string("the user") : reason;
}

bool ServoSendJob::settledAt(uint64_t now) {
  if (host_.busy()) {
    settle_until_ = 0;
    return false;
  }
  if (settle_until_ == 0) settle_until_ = now + kSettleTailUs;
  return now >= settle_until_;
}

void ServoSendJob::wait(Phase next, uint64_t now, double limit_s) {
  phase_ = next;
  settle_until_ = 0;
  wait_end_ = now + usOf(limit_s);
}

void ServoSendJob::fail(const std::string& why, uint64_t now) {
  // ends the job in the safe state the user chose; the message says why
  if (host_.error().empty() && (host_.streaming() || stopAsked())) host_.estop(now);
  why_ = why;
  wait(Phase::Failing, now, 0.5);  // the safe state (e-stop's, or the one a bus error queued) goes out
}

bool ServoSendJob::step(uint64_t now) {
  switch (phase_) {
    case Phase::Start:
      job_end_ = now + usOf(o_.timeout);
      // 2. torque on where each servo stands (no jump), then stream from there
      host_.enableTorque(true);
      wait(Phase::TorqueOn, now, 2.0);
      return false;
    case Phase::TorqueOn: {
      const bool settled = settledAt(now);
      if (!settled && now < wait_end_) return false;
      if (!settled || !host_.error().empty()) {
        fail("torque on: the bus did not answer", now);
        return false;
      }
      const std::string why = host_.startStreaming(now);
      if (!why.empty()) {
        fail(why, now);
        return false;
      }
      // 3. to the first sample under the rate limit: the longest joint's distance / its speed, plus 0.3 s to settle
      host_.setTarget(q_);
      double longest = 0;
      for (size_t j = 0; j < q_.size(); ++j)
        longest = std::max(longest, std::abs(q_[j] - host_.feedback()[j].position) /
                                        host_.calibration().joints[j].max_velocity);
      approach_start_ = now;
      approach_end_ = now + usOf(longest + 0.3);
      phase_ = Phase::Approach;
      return false;
    }
    case Phase::Approach:
      if (!host_.error().empty()) {
        fail("", now);
        return false;
      }
      if (now < approach_end_) {
        if (stopAsked()) fail(stopText("before the trajectory began"), now);
        else if (now >= job_end_) fail("timed out moving to the first sample", now);
        return false;
      }
      rep_.approach = static_cast<double>(now - approach_start_) * 1e-6;
      run_start_ = now;
      phase_ = Phase::Run;
      return step(now);
    case Phase::Run: {
      // 4. the trajectory in real time, a goal per period
      if (!host_.error().empty()) {
        fail("", now);
        return false;
      }
      const double t = static_cast<double>(now - run_start_) * 1e-6;
      sampleAt(tr_, tr_.t.front() + t, k_, q_);
      host_.setTarget(q_);  // within the limits: every sample was, and the limits are a box
      t_ = std::min(t, duration());
      if (o_.progress && t - last_progress_ >= 0.1) {
        last_progress_ = t;
        o_.progress(t_, duration());
      }
      if (t < duration() + o_.settle) {
        if (stopAsked()) fail(stopText("during the trajectory"), now);
        else if (now >= job_end_) fail("timed out during the trajectory", now);
        return false;
      }
      if (o_.progress) o_.progress(duration(), duration());
      rep_.elapsed = t;
      // 5. the final error, read back
      const std::vector<double>& goal = tr_.q.back();
      for (size_t j = 0; j < goal.size(); ++j) {
        const ServoFeedback& f = host_.feedback()[j];
        const ServoJoint& s = host_.calibration().joints[j];
        rep_.final_q.push_back(f.position);
        rep_.final_error.push_back(goal[j] - f.position);
        rep_.final_error_counts.push_back(jointToCounts(s, goal[j]) - f.counts);
      }
      rep_.periods = host_.periods();
      rep_.overruns = host_.overruns();
      rep_.last_period = host_.lastPeriod();
      host_.stopStreaming();
      if (o_.torque_off_at_end) {
        host_.enableTorque(false);
        wait(Phase::TorqueOff, now, 0.5);
        return false;
      }
      finish();
      return true;
    }
    case Phase::TorqueOff:
      if (!settledAt(now) && now < wait_end_) return false;
      finish();
      return true;
    case Phase::Failing:
      if (!settledAt(now) && now < wait_end_) return false;
      rep_.error = host_.error().empty() ? why_ + ": " + host_.safeText() : host_.error();
      rep_.periods = host_.periods();
      rep_.overruns = host_.overruns();
      rep_.final_q.clear();
      for (const ServoFeedback& f : host_.feedback()) rep_.final_q.push_back(f.position);  // where the arm stopped
      phase_ = Phase::Done;
      return true;
    case Phase::Done:
      return true;
  }
  return true;
}

void ServoSendJob::finish() {
  rep_.ok = host_.error().empty();
  if (!rep_.ok) rep_.error = host_.error();
  phase_ = Phase::Done;
}

const char* ServoSendJob::phaseName() const {
  switch (phase_) {
    case Phase::Start: return "start";
    case Phase::TorqueOn: return "torque on";
    case Phase::Approach: return "moving to the first sample";
    case Phase::Run: return "running";
    case Phase::TorqueOff: return "torque off";
    case Phase::Failing: return "stopping";
    case Phase::Done: return "done";
  }
  return "done";
}

ServoSendReport sendToServos(ServoHost& host, ServoLink& link, const SampledTrajectory& tr, const ServoSendOptions& o) {
  ServoSendJob job(host, tr, o);
  // the job keeps its own time limit (o.timeout) and stops on o.stop itself, so that its safe state goes out:
  // the pump's limit is only a backstop past both
  pumpServo(host, link, [&] { return job.step(link.nowUs()); }, o.timeout + 5.0);
  return job.report();
}

}  // namespace bridge
}  // namespace achain
