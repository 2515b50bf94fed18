// The workspace job's private parts (reach/workspace.cpp and its siblings): the tool's joint path, the shared
// helpers, the reach balls, the job's state (WorkspaceJob::Impl) and the setup every method starts from. One file
// per role: workspace.cpp (the job and its API), workspace_sweep.cpp (Robinson's sweep), workspace_grid.cpp
// (Castelli's grid and Monte-Carlo), workspace_estimate.cpp (the reach balls, the estimate and the caps).
#pragma once
#include <achain/reach/workspace.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <vector>
#ifndef __EMSCRIPTEN__
#include <thread>
#endif

#include <achain/kinematics/fk.hpp>

#include "number_text.hpp"
#include "sweep_pruner.hpp"

namespace achain::reach_detail {

using Clock = std::chrono::steady_clock;


/// The joints that move the tool, base → tool, and their swept intervals.
struct Path {
  std::vector<int> joints;
  std::vector<double> lower, upper;
};

inline Path toolPath(const Model& m) {
  if (m.coupled)
    throw Error("workspace: the model has fixed or mimic joints; the voxel sweep needs one coordinate per joint");
  Path P;
  for (int j = m.toolLink(); j >= 0; j = m.joints[j].parent) P.joints.push_back(j);
  std::reverse(P.joints.begin(), P.joints.end());
  for (int j : P.joints) {
    const JointModel& JM = m.jmodels[j];
    double lo = m.joints[j].limits.lower, up = m.joints[j].limits.upper;
    const std::string p = "joints[" + std::to_string(j) + "].limits";
    if (JM.period > 0) {
      const double period = JM.period;  // 2π; 720° for A-pairs
      if (!std::isfinite(lo) && !std::isfinite(up)) {
        lo = JM.law.isZero() ? -0.5 * period : 0.0;  // a pure rotation centred on 0; an A-pair's θ_v from 0
        up = lo + period;
      } else if (!std::isfinite(lo)) {
        lo = up - period;
      } else if (!std::isfinite(up)) {
        up = lo + period;
      }
      up = std::min(up, lo + period);  // more than a period adds nothing
    } else if (!std::isfinite(lo) || !std::isfinite(up)) {
      throw Error(p + ": the workspace needs finite lower and upper limits for a " +
                  (!JM.angular() ? std::string("prismatic") : std::string("helical")) + " joint");
    }
    P.lower.push_back(lo);
    P.upper.push_back(up);
  }
  return P;
}

/// Largest |∂(axial)/∂q| over all q, and |∂θ/∂q| (from the joint model).
inline void jointSpeeds(const JointModel& jm, double& rot, double& axial) {
  rot = std::abs(jm.rot);
  axial = jm.axial_rate_bound;
}

/// Rotation and translation of a joint at its variable u.
inline void jointMotion(const JointModel& jm, double u, double& theta, double& dz) {
  JointState s;
  jm.evaluate(u, s);
  theta = s.theta;
  dz = s.dz;
}

inline int stepsFor(double range, double step, const std::string& what) {
  if (range <= 0) return 0;
  const double n = std::ceil(range / step - 1e-9);
  if (!(n <= 1e7)) throw Error(what + ": " + reach_detail::shortNumber(n) + " steps over the joint range; use a larger step or voxel");
  return std::max(1, int(n));
}

inline uint64_t splitmix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

inline int hardwareThreads() {
#ifdef __EMSCRIPTEN__
  return 1;
#else
  const unsigned n = std::thread::hardware_concurrency();
  return n ? int(n) : 1;
#endif
}

/// The threads runAll uses for these options.
inline int jobThreads(const WorkspaceOptions& opt) {
  return opt.threads > 0 ? std::min(opt.threads, hardwareThreads() * 4) : hardwareThreads();
}

template <class F>
inline void parallel(int n, F&& f) {
#ifdef __EMSCRIPTEN__
  for (int t = 0; t < n; ++t) f(t);
#else
  if (n <= 1) {
    f(0);
    return;
  }
  std::vector<std::thread> th;
  for (int t = 1; t < n; ++t) th.emplace_back([&f, t] { f(t); });
  f(0);
  for (auto& x : th) x.join();
#endif
}

/// The cells a witness sweep added, and the index of each one's representative: an open-addressing table
/// (linear probing, keys ≥ 0, -1 empty). It is asked once per moved point; in its place std::unordered_map
/// made the prototype at 0.25 in take 1.49 s on one thread instead of 1.12 s.
class FreshCells {
 public:
  void clear() {
    std::fill(keys_.begin(), keys_.end(), int64_t(-1));
    size_ = 0;
  }
  /// Adds (cell, index) unless cell is there.
  void emplace(int64_t cell, uint32_t index) {
    if (2 * (size_ + 1) > keys_.size()) grow();
    size_t i = slot(cell);
    while (keys_[i] >= 0) {
      if (keys_[i] == cell) return;
      i = (i + 1) & mask_;
    }
    keys_[i] = cell;
    vals_[i] = index;
    ++size_;
  }
  /// The index stored for cell, or nullptr.
  const uint32_t* find(int64_t cell) const {
    if (size_ == 0) return nullptr;
    for (size_t i = slot(cell);; i = (i + 1) & mask_) {
      if (keys_[i] == cell) return &vals_[i];
      if (keys_[i] < 0) return nullptr;
    }
  }

 private:
  size_t slot(int64_t cell) const { return size_t(splitmix(uint64_t(cell))) & mask_; }
  void grow() {
    std::vector<int64_t> keys = std::move(keys_);
    std::vector<uint32_t> vals = std::move(vals_);
    const size_t cap = std::max<size_t>(1024, 2 * keys.size());
    keys_.assign(cap, -1);
    vals_.assign(cap, 0);
    mask_ = cap - 1;
    size_ = 0;
    for (size_t i = 0; i < keys.size(); ++i)
      if (keys[i] >= 0) emplace(keys[i], vals[i]);
  }
  std::vector<int64_t> keys_;
  std::vector<uint32_t> vals_;
  size_t mask_ = 0, size_ = 0;
};


/// Balls (centre, radius) that hold the tool point whatever the joints from k on do (k = 0 … n: the last is the
/// point itself at the joints' lower limits), from the FK at the lower limits (workspace_estimate.cpp).
std::vector<std::pair<Vec3, double>> reachBalls(const Model& model, const WorkspaceOptions& opt, const Path& P, Data& d);

struct Setup {
  Path path;
  Vec3 lo, hi;
  double margin = 0;
  std::vector<double> axis_bound;
  std::vector<WorkspaceSweep> sweeps;
  std::vector<int> radix;
  double units = 0;
  WorkspaceEstimate estimate;
};
/// Validates the options, finds the path, estimates the job and refuses it past a cap (workspace_estimate.cpp).
Setup setUp(const Model& model, const WorkspaceOptions& opt, Data& data, bool check_caps, bool pilots);

}  // namespace achain::reach_detail

namespace achain {

using namespace reach_detail;

struct WorkspaceJob::Impl {
  const Model& model;  ///< the caller's (WorkspaceJob refers to its model, as a Data does)
  WorkspaceOptions opt;
  WorkspaceResult res;
  Path path;
  bool finished = false;
  bool cancel_requested = false;
  double done_work = 0;
  double reported = 0;
  size_t outside = 0;

  // Robinson
  Data data;
  std::vector<int64_t> cells;  // every cell of the set, in insertion order
  std::vector<Vec3> reps;      // the point that stands for each cell
  int sweep = -1;              // index into res.sweeps (tool → base)
  size_t src = 0, src_end = 0;
  std::vector<Motion> motions;  // relative motions of the current sweep (k = 1..N)
  std::vector<double> dtheta, dz;  // the same motions as rotation and axial shift about the joint axis
  reach_detail::SweepPruner pruner;  // the last sweep, pruned (opt.prune_above); shared by the threads
  bool pruning = false;
  std::vector<double> axis_bound;  // per path joint: bound on the point's distance from its axis

  // Castelli / Monte-Carlo
  double units = 0, next_unit = 0;
  std::vector<int> radix;  // Castelli: samples per path joint

  explicit Impl(const Model& m, const WorkspaceOptions& o) : model(m), opt(o), data(model) {}

  // The sources of the next sweep live on `track`: the output grid itself, or a finer grid
  // (voxel/refine, nested in the output lattice) so that each voxel keeps several points.
  VoxelSet fine;
  VoxelSet& track() { return opt.refine > 1 ? fine : res.voxels; }

  Vec3 representative(const VoxelSet& S, int64_t c, const Vec3& p) const;

  // Witness representatives: among the hits of a cell added in the current sweep keep the one
  // nearest the cell centre (a reachable point, placed like a centre). Cells of earlier sweeps are
  // frozen, so the sweep's sources do not change under it.
  bool last = false;  // the last sweep: only the output grid matters
  FreshCells fresh;
  void trackHit(VoxelSet& S, int64_t f, const Vec3& p);
  void hit(const Vec3& p);

  // ---- Robinson: start the next sweep (tool → base); false when none is left.
  bool startSweep();

  void finishSweep();

  double robinsonRemaining() const;

  // Sources of the current sweep left, or else the next sweep started; false (finished) when none is left.
  bool sourcesLeft();

  // Sequential Robinson slice.
  void robinsonSlice(double budget);

  // Threaded Robinson: rounds of sources, chunk-local candidate lists merged in source order,
  // which reproduces the sequential result exactly.
  struct Candidate {
    int64_t cell;
    Vec3 p;
  };
  // A thread's counts in a parallel round: points off the grid, voxels it set atomically, points it moved
  // (the pruned last sweep; the rest were skipped).
  struct Tally {
    size_t outside = 0, inserted = 0, moved = 0;
  };
  std::vector<std::vector<uint64_t>> local_bits;
  std::vector<std::vector<Candidate>> local_lists;

  void robinsonRound(int nthreads, double budget);

  // ---- Castelli: units are joint-grid combinations (mixed radix, tool joint fastest).
  void castelliRange(double u0, double u1, VoxelSet& G, bool atomic, Tally& out);

  // Marks the voxel of p in G (atomically when threads share G: counted in out.inserted), or counts p as outside.
  static void markPoint(VoxelSet& G, const Vec3& p, bool atomic, Tally& out);

  // ---- Monte-Carlo: unit s draws q from a counter-based generator (independent of slicing).
  void monteCarloRange(double u0, double u1, VoxelSet& G, bool atomic, Tally& out);

  void gridRound(int nthreads, double budget);

  void step(int nthreads, double budget);

  double progress();
};

}  // namespace achain
