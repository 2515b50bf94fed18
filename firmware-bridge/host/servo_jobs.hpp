// Jobs on a servo bus (issue 33, items 2 and 5): the loops that move a ServoHost's bytes over a link and drive
// it through a scan, a connection, a calibration at the zero pose, a monitor and a streamed trajectory. The
// same jobs run on a serial port or PTY (FdServoLink, posix_io.hpp: wall time) and on the in-process
// simulated bus (VirtualServoLink: the bus's own clock, so tests are exact and fast). The CLI's `achain bus …`
// and `achain send --bus` are thin layers over them.
#pragma once
#include <csignal>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "segments.hpp"
#include "sender.hpp"
#include "servo_host.hpp"

namespace achain {
namespace bridge {

/// A Link whose port baud rate the host sets (a scan walks baud rates; a PTY records the rate for the
/// simulated bus behind it).
class ServoLink : public Link {
 public:
  virtual void setBaud(uint32_t baud) = 0;
};

/// The in-process simulated bus in its own time: wait(us) runs the bus clock us forward.
class VirtualServoLink : public ServoLink {
 public:
  explicit VirtualServoLink(VirtualServoBus& bus) : bus_(bus) {}
  void write(const uint8_t* d, size_t n) override { bus_.write(d, n); }
  size_t read(uint8_t* out, size_t cap) override { return bus_.read(out, cap); }
  uint64_t nowUs() override { return static_cast<uint64_t>(bus_.now()); }
  void wait(uint32_t us) override { bus_.step(us); }
  void setBaud(uint32_t baud) override { bus_.setPortBaud(baud); }
  VirtualServoBus& bus() { return bus_; }

 private:
  VirtualServoBus& bus_;
};

/// Moves bytes between host and link (receive, update, baud, output) until done() holds: true, or until
/// timeout_s of the link's clock pass: false. `stop` (a signal flag) ends it early: false.
bool pumpServo(ServoHost& host, ServoLink& link, const std::function<bool()>& done, double timeout_s,
               const volatile std::sig_atomic_t* stop = nullptr);

/// Pings every ID at every baud rate and reads the model numbers of those that answer.
std::vector<FoundServo> scanServos(ServoHost& host, ServoLink& link, const std::vector<int>& ids,
                                   const std::vector<uint32_t>& bauds);

/// Connects with a joint map (reads each servo's model and position limits) and reads the present positions;
/// throws achain::Error with the host's message (the servo ID, what happened) when the bus does not answer.
void connectServos(ServoHost& host, ServoLink& link, const ServoCalibration& cal);

/// Model name of a servo model number ("XM430-W350", "STS3215", …; "model N" when unknown).
std::string servoModelName(ServoProtocol p, int model);

/// The joint map of a calibration for a model: joint i of the model is driven by the servo ids[i]; directions as
/// given (+1/-1, default +1); counts per turn 4096 (both protocols' servos); zero offsets at ServoJoint's default
/// (2048, mid-turn) until zeroAtPresent reads them. Throws achain::Error
/// naming what is wrong (a count mismatch, an ID given twice, a direction that is not ±1).
ServoCalibration servoJointMap(ServoProtocol p, uint32_t baud, const Model& model, const std::vector<int>& ids,
                               const std::vector<int>& directions);

/// How far inside a measured end of travel limitAtPresent puts the limit (1°): a stream never presses a joint
/// against its stop.
constexpr double kLimitMargin = 0.017453292519943295;

/// The arm stands at the model's zero pose: each joint's zero offset becomes its servo's present position
/// (`present`, one per joint, as ServoHost::feedback() after a connection with this map), then limits and speed
/// from the model (narrowToModel). Throws when a position has not been read.
void zeroAtPresent(ServoCalibration& c, const std::vector<ServoFeedback>& present, const Model& model);

/// The guided calibration's second step: joint `joint` stands at one end of its travel (moved there by hand,
/// torque off), and that end, `margin` rad inside it, becomes the joint's lower (`upper` false) or upper limit.
/// The position is the servo's present count (`present`, as ServoHost::feedback()) through this calibration's zero
/// and direction. The limit stays within the model's (narrowToModel): a measured end past the model's limit keeps
/// the model's, and the returned note says so ("" otherwise). Throws achain::Error when the position has not been
/// read, or when the end leaves no range: an upper end at or below the lower limit (or a lower end at or above the
/// upper), which means the joint was moved the other way or its direction is wrong.
std::string limitAtPresent(ServoCalibration& c, int joint, bool upper, const std::vector<ServoFeedback>& present,
                           const Model& model, double margin = kLimitMargin);

/// A calibration taken with the arm held at the robot's zero pose: servoJointMap, a connection that reads where
/// each servo stands, then zeroAtPresent. Throws achain::Error naming what is missing (a servo that does not
/// answer, a count mismatch).
ServoCalibration calibrateAtZero(ServoHost& host, ServoLink& link, ServoProtocol p, uint32_t baud, const Model& model,
                                 const std::vector<int>& ids, const std::vector<int>& directions);

struct ServoSendOptions {
  double settle = 0.5;    // s held at the last sample before the final error is read
  double timeout = 120;   // s for the whole job
  /// After the trajectory: keep torque on (the arm holds the last pose; default) or turn it off.
  bool torque_off_at_end = false;
  /// Called about every 0.1 s with the trajectory time reached and the total.
  std::function<void(double t, double duration)> progress;
  const volatile std::sig_atomic_t* stop = nullptr;  // set by SIGINT/SIGTERM: e-stop now
  std::string stop_reason = "a signal";              // who sets `stop`, for the report: "stopped by a signal …"
};

struct ServoSendReport {
  bool ok = false;
  std::string error;                  // why not ok (a refusal; a bus error or a stop, with the safe state sent)
  double approach = 0;                // s spent moving from the present pose to the first sample
  double elapsed = 0;                 // s from the first sample to the end of the settle time
  uint64_t periods = 0, overruns = 0;
  std::vector<double> final_q;        // rad (joint side), read back from the servos (where the arm stopped, when not ok)
  std::vector<double> final_error;    // goal − present, rad
  std::vector<int32_t> final_error_counts;
  ServoPeriodStats last_period;
};

/// Streams a sampled trajectory to a connected bus, as a job its caller steps: every sample is checked against
/// the limits before anything moves (a refusal names the sample and the joint, and the job is done at once);
/// torque on without a jump; a rate-limited move to the first sample; then the goal follows the trajectory's time
/// at the host's period; then it settles and reads the final error back. A bus error, a stop or the timeout ends
/// it in the chosen safe state. sendToServos pumps it on a link in the link's time; the studio's bus worker
/// steps it on the wall clock between its own pumps (firmware-bridge/js/servo.worker.mjs).
class ServoSendJob {
 public:
  ServoSendJob(ServoHost& host, SampledTrajectory tr, ServoSendOptions o);
  /// Advances the job to now_us; call it after the host has received and updated at now_us, then send the host's
  /// output. Returns done().
  bool step(uint64_t now_us);
  /// Stops the job as a signal does (the e-stop action goes out; done() a moment later). `reason` completes the
  /// report's "stopped by … during the trajectory" ("the user" when empty); a second stop keeps the first reason.
  void stop(const std::string& reason = "");
  bool done() const { return phase_ == Phase::Done; }
  /// Where the job is, in words: "torque on", "moving to the first sample", "running", "stopping", "done", …
  const char* phaseName() const;
  /// Trajectory time reached (s, from 0 to duration()).
  double t() const { return t_; }
  double duration() const;
  /// Final once done().
  const ServoSendReport& report() const { return rep_; }

 private:
  enum class Phase { Start, TorqueOn, Approach, Run, TorqueOff, Failing, Done };
  bool settledAt(uint64_t now);
  void wait(Phase next, uint64_t now, double limit_s);
  void fail(const std::string& why, uint64_t now);
  void finish();
  bool stopAsked() const;
  std::string stopText(const char* when) const;

  ServoHost& host_;
  SampledTrajectory tr_;
  ServoSendOptions o_;
  ServoSendReport rep_;
  Phase phase_ = Phase::Start;
  std::vector<double> q_;
  std::string why_, stop_reason_;
  size_t k_ = 0;
  double t_ = 0, last_progress_ = -1;
  uint64_t job_end_ = 0, wait_end_ = 0, settle_until_ = 0, approach_start_ = 0, approach_end_ = 0, run_start_ = 0;
};

/// ServoSendJob pumped on a link until done, in the link's time (a serial port's wall clock, or the simulated
/// bus's own clock).
ServoSendReport sendToServos(ServoHost& host, ServoLink& link, const SampledTrajectory& tr, const ServoSendOptions& o);

}  // namespace bridge
}  // namespace achain
