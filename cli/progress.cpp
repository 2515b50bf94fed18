#include "progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>

namespace achain::cli {

std::string durationText(double s) {
  char b[32];
  if (!std::isfinite(s) || s < 0) return "?";
  if (s < 120) std::snprintf(b, sizeof b, "%.0f s", s);
  else if (s < 7200) std::snprintf(b, sizeof b, "%.1f min", s / 60);
  else std::snprintf(b, sizeof b, "%.1f h", s / 3600);
  return b;
}

std::string progressBar(double frac) {
  const int w = 30, k = static_cast<int>(std::round(std::min(1.0, std::max(0.0, frac)) * w));
  return "[" + std::string(k, '#') + std::string(w - k, '-') + "]";
}

ProgressLine::ProgressLine(std::string command, bool enabled)
    : command_(std::move(command)), enabled_(enabled), tty_(::isatty(2) != 0), start_(std::chrono::steady_clock::now()),
      last_(start_) {}

ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::report(double fraction, const std::string& detail, double eta_seconds) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> g(m_);
  if (finished_) return;
  fraction = std::isfinite(fraction) ? std::min(1.0, std::max(0.0, fraction)) : 0.0;
  const auto now = std::chrono::steady_clock::now();
  const bool done = fraction >= 1;
  if (done && printed_final_) return;
  const double since = std::chrono::duration<double>(now - last_).count();
  if (any_ && !done && since < (tty_ ? 0.1 : 1.0)) return;
  last_ = now;
  any_ = true;
  printed_final_ = done;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  std::string line = command_ + ": " + progressBar(fraction);
  char pct[16];
  std::snprintf(pct, sizeof pct, " %3.0f %%", 100 * fraction);
  line += pct;
  if (!detail.empty()) line += "  " + detail;
  if (!done && eta_seconds >= 0) line += ", ETA " + durationText(eta_seconds);
  else if (!done && fraction >= 0.01) line += ", ETA " + durationText(elapsed * (1 - fraction) / fraction);
  if (tty_) std::fprintf(stderr, "\r%s\x1b[K", line.c_str());
  else std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
}

void ProgressLine::finish() {
  if (!enabled_) return;
  std::lock_guard<std::mutex> g(m_);
  if (finished_) return;
  finished_ = true;
  if (tty_ && any_) {
    std::fprintf(stderr, "\n");
    std::fflush(stderr);
  }
}

namespace {
// A signal handler can only reach process-wide state: one flag and the signal's number (lock-free atomics).
std::atomic<bool> g_stop_requested{false};
std::atomic<int> g_stop_signal{0};
struct sigaction g_old_int, g_old_term;
void onStopSignal(int sig) {
  g_stop_signal.store(sig);
  g_stop_requested.store(true);
}
}  // namespace

StopOnSignal::StopOnSignal() {
  struct sigaction sa {};
  sa.sa_handler = onStopSignal;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, &g_old_int);
  ::sigaction(SIGTERM, &sa, &g_old_term);
}
StopOnSignal::~StopOnSignal() {
  ::sigaction(SIGINT, &g_old_int, nullptr);
  ::sigaction(SIGTERM, &g_old_term, nullptr);
}
const std::atomic<bool>* StopOnSignal::flag() const { return &g_stop_requested; }
int stopSignal() { return g_stop_signal.load(); }

}  // namespace achain::cli
