// `achain send` as a library: connect, configure, then run the SendJob (send_job.hpp: stream a
// segment list under credit, start after a prefill, follow the controller's status to the end,
// settle, report) in a blocking loop. Runs over any Link: a
// POSIX serial port / PTY (posix_io.hpp) or the in-process virtual controller (virtual time).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "../sim/virtual_controller.hpp"
#include "send_job.hpp"

namespace achain {
namespace bridge {

class Link {
 public:
  virtual ~Link() = default;
  virtual void write(const uint8_t* data, size_t n) = 0;
  virtual size_t read(uint8_t* out, size_t cap) = 0;
  virtual uint64_t nowUs() = 0;
  /// Waits up to `us` for incoming bytes (virtual links advance the simulation instead).
  virtual void wait(uint32_t us) = 0;
};

/// In-process link to a VirtualController; time is the simulator's, one servo period per wait.
class VirtualLink : public Link {
 public:
  explicit VirtualLink(VirtualController& vc) : vc_(vc) {}
  void write(const uint8_t* d, size_t n) override { vc_.write(d, n); }
  size_t read(uint8_t* out, size_t cap) override { return vc_.read(out, cap); }
  uint64_t nowUs() override { return vc_.hal().time_us; }
  void wait(uint32_t us) override { vc_.step(us >= 2000 ? static_cast<int>(us / 1000) : 1); }
  VirtualController& vc() { return vc_; }

 private:
  VirtualController& vc_;
};

struct SendOptions {
  GlobalConfig global;
  std::vector<JointConfig> joints;
  std::vector<Segment> segments;
  bool clear_faults = false;
  /// Move to the plan's start first (withApproach, from the commanded position in the controller's status),
  /// with pieces of at least segment_dt s; the combined list is limit-checked (checkSegments, in the units
  /// of `angular`) before anything is queued.
  bool approach = false;
  double segment_dt = 0.01;
  std::vector<bool> angular;
  double timeout = 120;        // s overall
  double settle = 0.5;         // s after the last segment before the final measurement
  double abandon_after = -1;   // test hook: go silent after this many seconds of streaming (simulated host death)
  HostOptions host;
  double inject_drop = 0, inject_corrupt = 0;
  uint32_t inject_seed = 1;
  std::function<void(const SendProgress&)> progress;  // called about every 100 ms
};

SendReport sendTrajectory(Link& link, const SendOptions& opt);

}  // namespace bridge
}  // namespace achain
