// The servo-bus host engine (issue 33, item 2): drives a Dynamixel Protocol 2.0 or Feetech STS bus the way
// HostSession drives our own controller: one state machine, no I/O and no clock of its own. The caller feeds
// received bytes (receive), supplies the time (update), writes what takeOutput() gives and sets the port's
// baud rate to baud() — so the same engine can drive a POSIX serial port, a PTY, the in-process simulated bus
// (sim/servo_bus_sim.hpp) or WebSerial through WebAssembly.
//
// One transaction at a time (the bus is half duplex): an instruction packet, then the replies it asks for,
// each checked (ID, length, CRC/checksum, status error bits) within a deadline computed from the bytes at the
// baud rate, the return delays and a margin. Streaming sends, every period, ONE sync write of all goal
// positions and ONE sync read of present position, velocity, load, voltage and temperature.
//
// Safety:
//   - every goal is checked against the joint's limits (calibration, in rad) and the servo's own position
//     limits (read from it at connect) BEFORE anything is queued: a goal outside is refused with a message
//     naming the joint and the limit, and nothing is written;
//   - a stream never moves a goal by more than the joint's max_velocity × period between two periods;
//   - e-stop, and any bus error while connected (a CRC/checksum error, a missing reply, a status error bit),
//     stop streaming and put the bus in the safe state the user chose: torque off on every servo, or hold
//     (torque on, every goal set to the servo's last present position). A bus error's message names the servo
//     ID, what happened and what to do.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <achain/model/model.hpp>

#include "../sim/servo_bus_sim.hpp"
#include "../servo/dynamixel.hpp"
#include "../servo/feetech.hpp"

namespace achain {
namespace bridge {

/// One joint driven by one servo.
struct ServoJoint {
  std::string name;
  int id = 1;
  int direction = 1;             // +1: joint angle grows with the servo's counts; -1: the other way
  int32_t zero_offset = 2048;    // servo counts at joint angle 0
  int counts_per_turn = 4096;
  double min = -3.14159;         // rad (from the robot model, narrowed by calibration)
  double max = 3.14159;          // rad
  double max_velocity = 2.0;     // rad/s: the stream's rate limit
};

/// A calibration file: the bus, its baud rate and the joint map. JSON:
///   {"format": "achain-servo-calibration", "version": 1, "protocol": "dynamixel"|"feetech", "baud": 1000000,
///    "joints": [{"name": "shoulder", "id": 1, "direction": 1, "zero_offset": 2048, "counts_per_turn": 4096,
///                "min": -1.57, "max": 1.57, "max_velocity": 2.0}, …]}
struct ServoCalibration {
  ServoProtocol protocol = ServoProtocol::Dynamixel;
  uint32_t baud = 1000000;
  std::vector<ServoJoint> joints;
};
std::string servoCalibrationToJson(const ServoCalibration& c);
/// Throws achain::Error naming the key (and joint) that is missing or wrong.
ServoCalibration servoCalibrationFromJson(const std::string& text);

/// Narrows each joint's min/max and max_velocity to the robot model's limits of the same coordinate (joint i of
/// the calibration drives coordinate i of the model): the limits a stream obeys are the tighter of the model's
/// and the calibration's. Throws achain::Error when the counts differ or a joint's range becomes empty.
void narrowToModel(ServoCalibration& c, const Model& model);
/// Where a calibration (after narrowToModel) covers less than the model's limits, one note per joint: the zero pose
/// outside the joint's limits, or a range cut to one servo turn around the zero. Empty when it covers them all.
std::vector<std::string> rangeNotes(const ServoCalibration& c, const Model& model);

/// Joint angle (rad) ↔ servo counts under a joint's map.
int32_t jointToCounts(const ServoJoint& j, double q);
double countsToJoint(const ServoJoint& j, double counts);

enum class EstopAction : uint8_t { TorqueOff, Hold };

struct ServoHostOptions {
  uint32_t period_us = 10000;          // streaming period (100 Hz)
  uint32_t return_delay_us = 500;      // longest return delay allowed per reply (Dynamixel initial: 250 × 2 µs)
  uint32_t timeout_margin_us = 1000;   // added to each transaction's expected duration
  EstopAction estop_action = EstopAction::TorqueOff;
  /// The adapter returns every byte the host sends (a half-duplex adapter without direction control: TX and RX
  /// tied together). The host then reads its own packet back before each reply, checks it byte for byte and
  /// discards it. Off (the default), a packet of ours that comes back is a bus error saying the adapter echoes.
  bool echo = false;
};

struct FoundServo {
  uint32_t baud;
  int id;
  int model;
};

/// The last present state read from one joint's servo.
struct ServoFeedback {
  bool valid = false;
  int32_t counts = 0;
  double position = 0;      // rad (joint side)
  double velocity = 0;      // rad/s (joint side)
  int load = 0;             // raw, signed: Dynamixel Present Current/Load units, Feetech 0.1 %
  double voltage = 0;       // V
  int temperature = 0;      // °C
  uint64_t at_us = 0;
};

/// Bytes and time of one streaming period (the last one completed).
struct ServoPeriodStats {
  size_t bytes_out = 0, bytes_in = 0;
  uint64_t started_us = 0, ended_us = 0;  // first byte out … last reply byte in
};

class ServoHost {
 public:
  explicit ServoHost(ServoProtocol p, ServoHostOptions o = ServoHostOptions());

  // ---- I/O ----
  void receive(const uint8_t* data, size_t n, uint64_t now_us);
  void update(uint64_t now_us);
  size_t takeOutput(uint8_t* out, size_t cap);
  /// The baud rate the port must be set to now (it changes during a scan).
  uint32_t baud() const { return baud_; }

  // ---- discovery ----
  /// Pings each ID at each baud rate (in order) and reads the model numbers; found() lists the answers.
  void scan(const std::vector<int>& ids, const std::vector<uint32_t>& bauds);
  const std::vector<FoundServo>& found() const { return found_; }

  // ---- session ----
  /// Takes a joint map and connects: at its baud rate, reads each joint's servo model and its position limits.
  void connect(const ServoCalibration& c);
  const ServoCalibration& calibration() const { return cal_; }
  /// True once connect() finished and no bus error stands.
  bool ready() const { return connected_ && error_.empty(); }
  /// Torque on: reads present positions, writes them as goals, then turns torque on (no jump). Off: torque off.
  void enableTorque(bool on);
  /// Starts streaming at the fixed rate from the servos' last present positions (after enableTorque(true)).
  /// Returns "" when started, else why not (not connected, a bus error stands, a position never read).
  std::string startStreaming(uint64_t now_us);
  bool streaming() const { return streaming_; }
  /// The goal (rad, one per joint) the stream moves to under the rate limit. Returns "" when accepted; else
  /// the refusal (the joint, the goal, the limit) and nothing is changed or written.
  std::string setTarget(const std::vector<double>& q);
  /// What setTarget(q) would answer, changing nothing: a whole trajectory is checked before its first goal.
  std::string checkTarget(const std::vector<double>& q) const { return refusal(q); }
  /// Reads the present state of every joint once per period (one sync read), writing nothing: a monitor of an
  /// arm moved by hand with torque off. Returns "" when started, else why not (as startStreaming).
  std::string startMonitoring(uint64_t now_us);
  bool monitoring() const { return monitoring_; }
  void stopMonitoring() { monitoring_ = false; }
  /// Ends a stream where it stands: no more goals are written (torque stays as it is).
  void stopStreaming() { streaming_ = false; }
  /// Stops streaming and sends the e-stop action (options().estop_action) at once, or right after the
  /// transaction on the wire.
  void estop(uint64_t now_us);
  void setEstopAction(EstopAction a) { opt_.estop_action = a; }

  // ---- state ----
  bool busy() const { return inflight_ || !queueEmpty(); }
  /// The standing bus error (empty when none): names the servo ID, what happened, what to do, the safe state.
  const std::string& error() const { return error_; }
  /// What the safe state (the e-stop action) does, in words: "streaming stopped and torque turned off on every servo …".
  std::string safeText() const;
  bool estopped() const { return estopped_; }
  const std::vector<ServoFeedback>& feedback() const { return fb_; }
  /// The goals (counts) sent in the last sync write.
  const std::vector<int32_t>& lastGoals() const { return last_goals_; }
  const ServoPeriodStats& lastPeriod() const { return period_stats_; }
  uint64_t periods() const { return periods_; }
  uint64_t overruns() const { return overruns_; }
  std::vector<int> models() const { return models_; }
  const ServoHostOptions& options() const { return opt_; }

 private:
  enum class Kind : uint8_t {
    ScanPing, ScanModel, ReadModel, ReadLimits, SyncReadInit, SyncWriteHoldInit, SyncWriteGoals, SyncReadFeedback,
    SyncWriteTorque, SyncWriteHold, ReadHwError
  };
  struct Txn {
    Kind kind;
    int id = 0;              // single-servo transactions
    int joint = -1;
    uint8_t value = 0;       // torque value
    uint32_t baud = 0;       // scan
  };
  void enqueue(const Txn& t, bool front = false);
  bool queueEmpty() const { return queue_head_ == queue_.size(); }
  void clearQueue() { queue_.clear(); queue_head_ = 0; }
  void startNext(uint64_t now_us);
  /// The transaction's packet into buf (at most cap bytes); its length.
  size_t build(const Txn& t, uint8_t* buf, size_t cap);
  /// Which IDs answer, in order, and how many parameter bytes each reply holds.
  void expectReplies(const Txn& t);
  void onPacket(uint8_t id, uint8_t err, const uint8_t* params, int n);
  void onBusError(const std::string& what);
  void finish();
  void safeState();
  void streamPeriod(uint64_t now_us);
  bool feedbackQueued() const;
  std::string notReadyText() const;  // a feedback read waits in the queue or is on the wire
  std::string refusal(const std::vector<double>& q) const;
  std::string missingText(int id) const;
  uint16_t feedbackAddress() const;
  uint16_t feedbackLength() const;
  void decodeFeedback(int joint, const uint8_t* p, int n);
  /// Echo on: how many leading bytes of `data` are our own echo (checked; a mismatch is a bus error).
  size_t takeEcho(const uint8_t* data, size_t n);
  /// Echo off: a decoded "reply" that is one of our own packets (the adapter echoes): sets the bus error, true.
  bool ownPacketBack(const uint8_t* raw, int len, uint8_t id);
  std::string echoText(const std::string& what) const;
  /// An echo problem: the bus error (with what to change), set during a scan too.
  void echoFault(const std::string& what);
  static constexpr size_t kPacketCapacity = 512;  // the longest packet the host builds
  static constexpr size_t kEchoCapacity = 4096;   // echo bytes outstanding

  ServoProtocol protocol_;
  const ServoRegisterMap& reg_;
  ServoHostOptions opt_;
  uint32_t baud_ = 1000000;
  uint64_t now_ = 0;
  // No allocation per streaming period: the queue, the packet scratch and the goal buffers keep their capacity
  // (sized by connect() and the first period); tests/firmware-bridge/test_bridge_servo_host.cpp counts.
  std::vector<uint8_t> out_;
  std::vector<Txn> queue_;   // FIFO from queue_head_; emptied (capacity kept) when the head reaches the end
  size_t queue_head_ = 0;
  std::vector<uint8_t> ids_;       // every joint's servo ID, in joint order (connect)
  std::vector<uint8_t> sync_data_; // a sync write's data bytes
  std::vector<uint32_t> raw_;      // a sync write's per-servo values
  bool inflight_ = false, aborted_ = false;  // aborted: a bus error ended it; its remaining replies are ignored
  uint64_t started_us_ = 0;
  uint64_t line_free_us_ = 0;  // when the bytes handed to the port so far have left it
  Txn cur_{Kind::ScanPing};
  std::vector<uint8_t> expect_ids_;
  int expect_params_ = 0;
  size_t got_ = 0;
  uint64_t deadline_ = 0;
  servo::dxl::StatusDecoder dxl_dec_;
  servo::feetech::StatusDecoder ft_dec_;
  // Echo on: the bytes handed to the port whose echo has not come back yet (from echo_head_). Echo off: the last
  // packet sent, to recognise it if it comes back. Both keep their capacity (reserved in the constructor).
  std::vector<uint8_t> echo_;
  size_t echo_head_ = 0;
  std::vector<uint8_t> sent_;

  std::vector<FoundServo> found_;
  ServoCalibration cal_;
  bool connected_ = false;
  std::vector<int> models_;
  std::vector<int32_t> servo_min_, servo_max_;  // the servos' own position limits (counts)
  std::vector<ServoFeedback> fb_;
  std::vector<double> target_, commanded_;      // rad
  std::vector<int32_t> last_goals_;
  bool streaming_ = false, estopped_ = false, monitoring_ = false;
  uint64_t next_period_us_ = 0;
  uint64_t periods_ = 0, overruns_ = 0;
  ServoPeriodStats period_stats_, cur_period_;
  std::string error_;
};

}  // namespace bridge
}  // namespace achain
