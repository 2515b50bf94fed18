// One way for a long computation to say how far it is and to learn that it should stop. The workspace (every
// method, Monte Carlo included), simulate, simulateComputedTorque and runDesigns (a design sweep) take a
// Progress; the CLI and the wasm bindings drive them through it (docs/reliability.md, "Long computations").
//
// A Progress holds up to two hooks, both optional:
// - a report, told the fraction done (in [0, 1], non-decreasing) between pieces of work; returning false stops
//   the computation. It runs on the thread that called the computation (a threaded computation reports from
//   that thread only), so it may print or post a message.
// - a stop flag, an atomic another thread (a signal handler's flag, a UI) sets; polled between pieces of work.
// How a computation stops is part of its contract: a workspace job or a sweep returns what it finished, marked
// cancelled; a simulation throws Cancelled after the last sample it delivered.
#pragma once
#include <atomic>
#include <functional>
#include <type_traits>
#include <utility>

#include <achain/math/types.hpp>

namespace achain {

/// A computation stopped through its Progress (message: what stopped and where, e.g.
/// "simulate: cancelled at step 250 of 1000 (t = 0.25 s)").
class Cancelled : public Error {
 public:
  explicit Cancelled(const std::string& what) : Error(what) {}
};

class Progress {
 public:
  /// Told the fraction done; returns false to stop.
  using Report = std::function<bool(double fraction)>;

  Progress() = default;
  /// Any callable bool(double) (a lambda converts directly), and optionally a stop flag.
  template <class F, class = std::enable_if_t<std::is_invocable_r_v<bool, F&, double> &&
                                              !std::is_same_v<std::decay_t<F>, Progress>>>
  Progress(F&& report, const std::atomic<bool>* stop = nullptr) : report_(std::forward<F>(report)), stop_(stop) {}
  explicit Progress(const std::atomic<bool>* stop) : stop_(stop) {}

  /// Called by the computation between pieces of work: true to go on. False once the stop flag is set (the
  /// report is then not called) or when the report returns false.
  bool operator()(double fraction) const {
    if (stopRequested()) return false;
    return !report_ || report_(fraction);
  }
  /// The stop flag alone (a relaxed atomic load): cheap enough to poll inside a loop.
  bool stopRequested() const { return stop_ && stop_->load(std::memory_order_relaxed); }
  /// Neither hook: the computation may skip its bookkeeping.
  bool empty() const { return !report_ && !stop_; }

 private:
  Report report_;
  const std::atomic<bool>* stop_ = nullptr;
};

}  // namespace achain
