// Reachable workspace of a point on the tool, on a voxel grid (Robinson 2012 §3.4):
//  * Robinson's sweep: joints from the tool back to the base; each joint's sweep moves only the
//    voxel set left by the previous sweep (cost Σ steps·|set|, not Π steps);
//  * Castelli's algorithm: every combination of joint values on a grid (the slow reference);
//  * Monte-Carlo: uniform random joint samples through FK (validation).
// All three mark the voxels of a global lattice (voxel faces at origin + k·voxel), so results of
// different methods, models and runs compare voxel by voxel.
//
// A WorkspaceJob runs in slices (run(budget)) for a browser worker, or all at once with threads,
// progress and cancellation through a Progress (runAll). The result does not depend on the slicing or the thread count.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <achain/math/progress.hpp>
#include <achain/model/caps.hpp>
#include <achain/model/model.hpp>
#include <achain/reach/voxel_set.hpp>

namespace achain {

enum class WorkspaceMethod { Robinson, Castelli, MonteCarlo };
/// The point that stands for a voxel when Robinson's sweep moves it (thesis §3.4.3).
///   Centre: the voxel centre (the thesis's default);
///   Witness: the reachable point that first marked the voxel (never marks an unreachable voxel);
///   NearCorner / FarCorner: the voxel corner nearest to / farthest from the base origin
///   (inner / outer estimates).
enum class Representative { Centre, Witness, NearCorner, FarCorner };

const char* toString(WorkspaceMethod m);
const char* toString(Representative r);
WorkspaceMethod workspaceMethodFromString(const std::string& s);   ///< "robinson" | "castelli" | "montecarlo"
Representative representativeFromString(const std::string& s);     ///< "centre" | "witness" | "near" | "far"

struct WorkspaceOptions {
  double voxel = 0;                   ///< voxel edge, m (required, > 0)
  WorkspaceMethod method = WorkspaceMethod::Robinson;
  double step = 0;                    ///< joint step for R/H/A joints, rad; 0 = automatic
  double step_linear = 0;             ///< joint step for P joints, m; 0 = automatic
  double spacing = 0.5;               ///< automatic step: largest point displacement per step, in voxels
  Representative representative = Representative::Witness;
  int refine = 1;                     ///< Robinson: sources kept on a grid `refine` times finer (1–8)
  Vec3 point = Vec3::Zero();          ///< swept point in the tool frame (e.g. the wrist centre)
  Vec3 origin = Vec3::Zero();         ///< lattice origin (voxel faces at origin + k·voxel), base frame
  double samples = 2e7;               ///< Monte-Carlo samples
  uint64_t seed = 1;                  ///< Monte-Carlo seed
  int threads = 0;                    ///< runAll: 0 = all hardware threads (always 1 in WebAssembly)
  /// Robinson: when the last sweep moves more points than this, skip those that provably land in voxels
  /// already set (exact: the same voxels; with threads, each thread prunes with bins of its own). Below it the checks cost more
  /// than they save (prototype at 0.5 in: 9 M points, 15 % slower pruned; at 0.25 in: 107 M, faster).
  /// 0 = always prune, infinity = never (tests compare the two).
  double prune_above = 3e7;
  // Resource caps (caps.hpp; docs/reliability.md#resource-caps): the job is refused before it allocates anything when
  // its estimate (estimateWorkspace) is past one of them; raise them to run a larger job on purpose.
  double max_cells = kWorkspaceMaxCells;              ///< cells of the grid box (1 bit each)
  double max_bytes = kWorkspaceMaxBytes;              ///< estimated memory of the job, bytes
  double max_evaluations = kWorkspaceMaxEvaluations;  ///< estimated point evaluations (the time)
};

/// What a job would cost, computed before it starts (no grid is allocated): the CLI's --estimate, the JS
/// model.workspaceEstimate(options), and the caps of WorkspaceJob.
struct WorkspaceEstimate {
  double cells = 0;        ///< cells of the output grid box
  double voxels = 0;       ///< filled voxels (Robinson: from two pilot runs on coarse grids; else the reach ball's, ≥ the result)
  double bytes = 0;        ///< memory: the grids' bitsets and the per-voxel arrays of Robinson's sweep
  double evaluations = 0;  ///< point evaluations (Robinson: the sweeps' steps × the sources the pilots predict; exact otherwise)
  double seconds = 0;      ///< evaluations at the nominal single-thread rate (caps.hpp)
  /// What max_evaluations is checked against: the time as Robinson point moves (seconds × kWorkspaceRobinsonRate).
  /// Equal to evaluations for Robinson; Castelli's and Monte-Carlo's FK evaluations count 40 times.
  double cost = 0;
  /// The time the options' max_evaluations stands for, s (max_evaluations Robinson point moves at the nominal rate):
  /// what a refusal past that cap quotes.
  double cap_seconds = 0;
};

/// Estimates a job without running it; validates the options as WorkspaceJob does (errors name the option).
WorkspaceEstimate estimateWorkspace(const Model& model, const WorkspaceOptions& options);

/// Why a job with estimate e is past one of the options' caps ("" when it is within them): the message a
/// WorkspaceJob throws, and what the CLI's and JS estimates report as within_caps / withinCaps.
std::string workspaceCapsProblem(const WorkspaceEstimate& e, const WorkspaceOptions& options);

/// Per swept joint (Robinson: tool → base; Castelli/Monte-Carlo: base → tool).
struct WorkspaceSweep {
  int joint = 0;          ///< joint index
  double lower = 0, upper = 0;  ///< swept interval (the joint limits; full period if unbounded)
  int steps = 0;          ///< intervals (samples = steps + 1)
  size_t voxels = 0;      ///< Robinson: set size after this joint's sweep
  size_t evaluations = 0; ///< Robinson: points moved in this sweep (those pruned included)
  size_t pruned = 0;      ///< Robinson: of those, points skipped because their voxels were provably set
};

struct WorkspaceResult {
  VoxelSet voxels;
  WorkspaceOptions options;
  std::vector<WorkspaceSweep> sweeps;
  size_t evaluations = 0;     ///< points transformed (Robinson) or FK evaluations (Castelli, Monte-Carlo)
  double seconds = 0;         ///< wall time of the computation
  int threads = 1;
  bool cancelled = false;
  size_t outside = 0;         ///< evaluations that fell outside the grid (0 unless something is wrong)
  size_t pruned = 0;          ///< Robinson: evaluations skipped because their voxels were provably set (opt.prune_above)
  size_t count() const { return voxels.count(); }
  double volume() const { return voxels.volume(); }
};

class WorkspaceJob {
 public:
  /// Validates the options (errors name the option: "voxel: …", "step: …") and allocates the grid. The job refers
  /// to `model` (no copy): the model must outlive the job, as a Data's model does.
  WorkspaceJob(const Model& model, const WorkspaceOptions& options);
  WorkspaceJob(Model&&, const WorkspaceOptions&) = delete;  ///< a temporary model would not outlive the job
  ~WorkspaceJob();
  WorkspaceJob(const WorkspaceJob&) = delete;
  WorkspaceJob& operator=(const WorkspaceJob&) = delete;

  /// Sequential slice: about `budget` point evaluations (at least one unit of work). True when done.
  bool run(double budget);
  /// Everything, with threads. `progress` (math/progress.hpp) is asked between rounds (about every 1–2 million
  /// evaluations per thread) and may stop the job: the result is then the partial grid, marked cancelled.
  /// Returns false if cancelled.
  bool runAll(const Progress& progress = {});
  void cancel();

  bool done() const;
  bool cancelled() const;
  double progress() const;        ///< estimate in [0, 1], non-decreasing
  double evaluations() const;
  const WorkspaceResult& result() const;  ///< valid once done (partial if cancelled)

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

/// One call: runs a job to the end (threads; a Progress may report and stop it, as runAll).
WorkspaceResult computeWorkspace(const Model& model, const WorkspaceOptions& options, const Progress& progress = {});

/// Conservative bounding box of the reachable set of the point (used to size the grid).
void workspaceReachBox(const Model& model, const WorkspaceOptions& options, Vec3& lo, Vec3& hi);

}  // namespace achain
