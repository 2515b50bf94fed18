// POSIX side of the bridge (native builds only): serial ports and pseudo-terminals, a Link over a
// file descriptor, and the real-time loop that runs the simulated controller on a PTY.
#pragma once
#include <csignal>
#include <cstdint>
#include <functional>
#include <string>

#include "sender.hpp"
#include "servo_jobs.hpp"

namespace achain {
namespace bridge {

/// The baud rates a port can be opened at (openSerial, FdServoLink::setBaud).
constexpr uint32_t kSerialBauds[] = {9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, 1000000, 2000000};
/// "`what`: N is not a supported rate (9600, …)" when `baud` is not one of kSerialBauds, else "".
std::string serialBaudProblem(double baud, const std::string& what);

/// Opens a serial device (or PTY slave) raw, 8N1, non-blocking, at `baud`; throws achain::Error.
int openSerial(const std::string& path, int baud);

struct Pty {
  int master = -1;
  int slave = -1;  // kept open by the simulator so the port survives hosts coming and going
  std::string path;
};
/// Creates a pseudo-terminal pair in raw mode; throws achain::Error.
Pty openPty();

class FdLink : public Link {
 public:
  explicit FdLink(int fd) : fd_(fd) {}
  void write(const uint8_t* data, size_t n) override;
  size_t read(uint8_t* out, size_t cap) override;
  uint64_t nowUs() override;
  void wait(uint32_t us) override;

 private:
  int fd_;
};

/// A serial port or PTY for a servo bus: setBaud changes the port's rate (a PTY records it for the simulated
/// bus on its other side, runServoBusSim).
class FdServoLink : public ServoLink {
 public:
  explicit FdServoLink(int fd) : fd_(fd), io_(fd) {}
  void write(const uint8_t* data, size_t n) override { io_.write(data, n); }
  size_t read(uint8_t* out, size_t cap) override { return io_.read(out, cap); }
  uint64_t nowUs() override { return io_.nowUs(); }
  void wait(uint32_t us) override { io_.wait(us); }
  void setBaud(uint32_t baud) override;

 private:
  int fd_;
  FdLink io_;
};

struct BusSimRunOptions {
  double duration = 0;                          // s of wall time; 0 = until *stop is set
  volatile std::sig_atomic_t* stop = nullptr;   // set by a signal handler
  /// Called every loop with the bus and the seconds since the start (fault injection).
  std::function<void(VirtualServoBus&, double)> each;
};
/// Runs a simulated servo bus in real time on `fd` (a PTY's master): the host's bytes go onto the bus at the
/// rate the host set on its end of the PTY (a servo at another rate does not hear them), the bus clock follows
/// CLOCK_MONOTONIC, and the servos' replies come back as they finish crossing the simulated wire.
void runServoBusSim(int fd, VirtualServoBus& bus, const BusSimRunOptions& opt);

struct SimRunOptions {
  double duration = 0;                          // s of wall time; 0 = until *stop is set
  volatile std::sig_atomic_t* stop = nullptr;   // set by a signal handler
  /// JSON Lines log, streamed to disk (bounded memory; flushed at least every 50 ms and at each event, so
  /// a SIGKILL loses at most the last 50 ms): a header line {"log":"achain-controller-sim","version":2,…},
  /// one {"t","q","q_cmd","state","done"} line per log_period, an {"exec":id,"n":1,"t"} line each time a
  /// segment finishes (n > 1: several in one servo period), event lines {"event":"estop"|"fault"|"stall"|
  /// "glitch",…} as they happen, and a last {"summary":…} line on a clean exit.
  std::string log_path;
  double log_period = 0.005;                    // s between logged samples
  /// Plant faults requested by a signal handler (SIGUSR1: stall, SIGUSR2: encoder glitch): the runner
  /// applies them at the next servo period and clears the flag.
  volatile std::sig_atomic_t* stall_request = nullptr;
  volatile std::sig_atomic_t* glitch_request = nullptr;
};
/// Runs the controller in real time on `fd` (servo periods paced by CLOCK_MONOTONIC).
void runSimulator(int fd, VirtualController& vc, const SimRunOptions& opt);

}  // namespace bridge
}  // namespace achain
