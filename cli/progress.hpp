// One progress line on stderr for the CLI's long commands (sweep, workspace, sim, control, send): the same look and
// the same rate everywhere. On a terminal the line is redrawn in place (at most 10 times a second); otherwise, or
// when stderr is a file or a pipe (a Slurm log), one line per report at most once a second, plus the last one.
// And one way to stop them: SIGINT/SIGTERM reach the core's Progress (StopOnSignal).
#pragma once
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>

namespace achain::cli {

/// "1.2 min", "40 s", "2.5 h".
std::string durationText(double seconds);

/// A 30-character bar, "[#####-----…]", for a fraction in [0, 1].
std::string progressBar(double fraction);

class ProgressLine {
 public:
  /// `command` names the line ("achain sweep"); a disabled line prints nothing. Thread-safe.
  ProgressLine(std::string command, bool enabled);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  /// fraction in [0, 1] (clamped): "achain CMD: [bar]  42 %  detail, ETA 1.2 min" (no ETA before 1 % or at 100 %).
  /// The ETA is the elapsed time scaled by what is left, or `eta_seconds` when given (≥ 0: a command that resumed
  /// part-done work knows its own rate).
  void report(double fraction, const std::string& detail = "", double eta_seconds = -1);
  /// Ends the line (a terminal's line is cleared); later reports are ignored.
  void finish();
  bool enabled() const { return enabled_; }

 private:
  std::string command_;
  bool enabled_, tty_, finished_ = false, printed_final_ = false;
  std::chrono::steady_clock::time_point start_, last_;
  bool any_ = false;
  std::mutex m_;
};

/// While alive, SIGINT and SIGTERM (Ctrl-C; Slurm's scancel and time limit) ask the running computation to stop
/// through its Progress (flag()) instead of killing the process, so a sweep keeps every record it wrote and a
/// simulation or workspace says where it stopped; the previous handlers come back after. run() turns the core's
/// Cancelled into one line and exit status 128 + the signal (130 for Ctrl-C, 143 for SIGTERM).
class StopOnSignal {
 public:
  StopOnSignal();
  ~StopOnSignal();
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;
  const std::atomic<bool>* flag() const;
};

/// The signal a StopOnSignal received (0: none).
int stopSignal();

}  // namespace achain::cli
