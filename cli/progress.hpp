// One progress line on stderr for the CLI's long commands (sweep, workspace, send): the same look and the same
// rate everywhere. On a terminal the line is redrawn in place (at most 10 times a second); otherwise, or when
// stderr is a file or a pipe (a Slurm log), one line per report at most once a second, plus the last one.
#pragma once
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

}  // namespace achain::cli
