// The workspace job's estimate and setup: the reach balls, the pilot runs, the size and time estimate, the caps.
#include "workspace_detail.hpp"

#include <cstdio>

namespace achain {

namespace reach_detail {

/// Balls holding the swept point's reachable set, sweep by sweep: balls[k] (centre, radius) holds the set the
/// joints after path joint k make (the sources of joint k's sweep); balls[0]'s successor, balls[n], holds the
/// whole workspace. From the tool back to the base each joint sweeps the ball about its axis (placed at the
/// lower limits of the joints before it). `data` is left at the FK of the lower limits.
std::vector<std::pair<Vec3, double>> reachBalls(const Model& model, const WorkspaceOptions& opt, const Path& P, Data& d) {
  VecX q = VecX::Zero(model.nq);
  for (size_t k = 0; k < P.joints.size(); ++k) q[model.idx_q[P.joints[k]]] = P.lower[k];
  forwardKinematics(model, d, q);
  Vec3 c = d.oMtool.act(opt.point);
  double r = 0;
  std::vector<std::pair<Vec3, double>> balls(P.joints.size() + 1);
  for (int k = int(P.joints.size()) - 1; k >= 0; --k) {
    balls[k] = {c, r};
    const JointModel& JM = model.jmodels[P.joints[k]];
    const SE3& A = d.oMj[P.joints[k]];
    const Vec3 cl = A.inverse().act(c);
    double th0 = 0, dz0 = 0;
    jointMotion(JM, P.lower[k], th0, dz0);
    // axial travel relative to the lower limit over the interval
    double zmin = 0, zmax = 0;
    const int n = 256;
    for (int i = 0; i <= n; ++i) {
      double th = 0, dz = 0;
      jointMotion(JM, P.lower[k] + (P.upper[k] - P.lower[k]) * i / n, th, dz);
      zmin = std::min(zmin, dz - dz0);
      zmax = std::max(zmax, dz - dz0);
    }
    for (int t = 0; t < JM.law.nsine; ++t) {  // sampled extremes of a sine law can miss the peak slightly
      zmin -= 1e-3 * std::abs(JM.law.sine[t].amplitude);
      zmax += 1e-3 * std::abs(JM.law.sine[t].amplitude);
    }
    const double half = 0.5 * (zmax - zmin), mid = 0.5 * (zmax + zmin);
    if (!JM.angular()) {
      c = A.act(cl + Vec3(0, 0, mid));
      r += half;
    } else {
      const double rad = std::hypot(cl.x(), cl.y());
      c = A.act(Vec3(0, 0, cl.z() + mid));
      r += std::hypot(rad, half);
    }
  }
  balls[P.joints.size()] = {c, r};
  return balls;
}

/// Robinson's sweeps before the job, tool → base: the steps each sweep will take (chosen as startSweep does,
/// with the sources' largest distance from the axis bounded by their ball), and a quick bound on the sources
/// each sweep moves (the set grows by the farthest source's path length in voxels, never past the voxels of
/// the ball holding the result). Sources live on the fine grid with refine > 1.
void robinsonSweeps(const Model& model, const Path& P, const std::vector<std::pair<Vec3, double>>& balls, const Data& d,
                    const WorkspaceOptions& opt, std::vector<double>& steps, std::vector<double>& sources) {
  const double tv = opt.voxel / opt.refine;  // the sources' grid
  double size = 1;
  steps.clear();
  sources.clear();
  for (int k = int(P.joints.size()) - 1; k >= 0; --k) {
    const JointModel& JM = model.jmodels[P.joints[k]];
    const SE3& A = d.oMj[P.joints[k]];
    const double range = P.upper[k] - P.lower[k];
    double rot = 0, axial = 0;
    jointSpeeds(JM, rot, axial);
    const auto& [c, r] = balls[k];
    const double speed = rot * ((c - A.p).cross(A.R.col(2)).norm() + r) + axial;
    double step = !JM.angular() ? opt.step_linear : opt.step;
    if (step <= 0) step = speed > 0 ? opt.spacing * opt.voxel / speed : range;
    steps.push_back(range > 0 ? std::max(1.0, std::ceil(range / step - 1e-9)) : 0);
    sources.push_back(size);
    const double rr = balls[k == 0 ? P.joints.size() : k - 1].second;
    size = std::min(4.0 / 3 * kPi * std::pow(rr / tv + 1, 3), size * std::max(1.0, speed * range / tv));
  }
}

}  // namespace reach_detail

void workspaceReachBox(const Model& model, const WorkspaceOptions& opt, Vec3& lo, Vec3& hi) {
  const Path P = toolPath(model);
  Data d(model);
  const auto balls = reachBalls(model, opt, P, d);
  const auto& [c, r] = balls.back();
  lo = c - Vec3::Constant(r);
  hi = c + Vec3::Constant(r);
}

namespace {

std::string bytesText(double b) {
  return b >= double(1u << 30) ? reach_detail::shortNumber(b / double(1u << 30)) + " GiB" : reach_detail::shortNumber(b / double(1u << 20)) + " MiB";
}

/// Everything a job decides before it allocates its grid: the validated options, the swept joints, the
/// reach box, the per-joint axis bounds, the sweeps (Castelli: their steps) and the estimate. `data` is
/// left at the forward kinematics of the joints' lower limits (Robinson's start). With check_caps, a job
/// past a cap is refused here, naming the cap and how to raise it.


void initJob(WorkspaceJob::Impl& I, bool pilots);

/// What a pilot run on a coarse grid measured, per sweep (tool → base): the sources each sweep moved; and the
/// voxels of the result.
struct Pilot {
  std::vector<double> sources;
  double voxels = 0;
  double pruned = 0;  ///< fraction of the last sweep's points pruned
};
Pilot runPilot(const Model& model, const WorkspaceOptions& opt, double voxel) {
  WorkspaceOptions o = opt;
  o.voxel = voxel;
  o.max_cells = kWorkspaceMaxCells;
  o.max_bytes = kWorkspaceMaxBytes;
  o.max_evaluations = kWorkspaceMaxEvaluations;
  o.prune_above = 0;  // measure the pruned fraction (a pilot's last sweep is below any useful threshold)
  WorkspaceJob::Impl P(model, o);
  initJob(P, false);
  while (!P.finished) P.step(1, 1e9);
  Pilot out;
  for (const WorkspaceSweep& S : P.res.sweeps) out.sources.push_back(S.steps > 0 ? double(S.evaluations) / S.steps : 0);
  out.voxels = double(P.res.voxels.count());
  const WorkspaceSweep& L = P.res.sweeps.back();
  out.pruned = L.evaluations > 0 ? double(L.pruned) / double(L.evaluations) : 0;
  return out;
}

/// Cells of a pilot run's grid (64³): the estimate of a larger job extrapolates from two pilots this size.
constexpr double kPilotCells = 262144;

/// The growth exponent of a count between grids of edge v and 2v (a curve 1, a surface 2, a volume 3).
double dimension(double fine, double coarse) {
  if (!(fine >= 1) || !(coarse >= 1)) return 3;
  return std::clamp(std::log2(fine / coarse), 0.0, 3.0);
}

}  // namespace

namespace reach_detail {

Setup setUp(const Model& model, const WorkspaceOptions& opt, Data& data, bool check_caps, bool pilots) {
  if (!(opt.voxel > 0) || !std::isfinite(opt.voxel)) throw Error("voxel: must be a positive finite length in metres (got " + reach_detail::shortNumber(opt.voxel) + ")");
  if (opt.voxel > kMaxLength) throw Error("voxel: " + reach_detail::shortNumber(opt.voxel) + " m is past the physical range (≤ " + reach_detail::shortNumber(kMaxLength) + " m)");
  if (!(opt.step >= 0) || !std::isfinite(opt.step)) throw Error("step: must be ≥ 0 (0 = automatic; got " + reach_detail::shortNumber(opt.step) + ")");
  if (!(opt.step_linear >= 0) || !std::isfinite(opt.step_linear)) throw Error("step_linear: must be ≥ 0 (0 = automatic; got " + reach_detail::shortNumber(opt.step_linear) + ")");
  if (!(opt.spacing > 0) || !std::isfinite(opt.spacing)) throw Error("spacing: must be > 0 (got " + reach_detail::shortNumber(opt.spacing) + ")");
  if (!opt.point.allFinite()) throw Error("point: must be finite");
  if (!opt.origin.allFinite()) throw Error("origin: must be finite");
  if (!(opt.samples >= 1) || !std::isfinite(opt.samples) || opt.samples > 1e13) throw Error("samples: must be a count ≥ 1 (got " + reach_detail::shortNumber(opt.samples) + ")");
  if (opt.threads < 0) throw Error("threads: must be ≥ 0");
  if (opt.refine < 1 || opt.refine > 8) throw Error("refine: must be between 1 and 8 (got " + std::to_string(opt.refine) + ")");
  if (!(opt.prune_above >= 0)) throw Error("prune_above: must be ≥ 0 (0 = always prune, infinity = never; got " + reach_detail::shortNumber(opt.prune_above) + ")");
  for (const auto& [v, name] : {std::pair<double, const char*>{opt.max_cells, "max_cells"}, {opt.max_bytes, "max_bytes"},
                                {opt.max_evaluations, "max_evaluations"}})
    if (!(v > 0)) throw Error(std::string(name) + ": must be > 0 (got " + reach_detail::shortNumber(v) + ")");
  Setup S;
  S.path = toolPath(model);
  const int n = int(S.path.joints.size());

  // Grid: the reach box plus a margin for representative drift (≤ one voxel diagonal per sweep).
  const auto balls = reachBalls(model, opt, S.path, data);
  S.lo = balls.back().first - Vec3::Constant(balls.back().second);
  S.hi = balls.back().first + Vec3::Constant(balls.back().second);
  S.margin = (n + 2) * std::sqrt(3.0) * opt.voxel;

  // Per joint: a bound on the point's distance from the joint axis (for automatic steps).
  VecX qmin = VecX::Zero(model.nq);
  for (int k = 0; k < n; ++k) qmin[model.idx_q[S.path.joints[k]]] = S.path.lower[k];
  forwardKinematics(model, data, qmin);
  S.axis_bound.assign(n, 0);
  const Vec3 d = S.hi - S.lo;
  const double radius = 0.5 * d.norm();
  const Vec3 centre = 0.5 * (S.lo + S.hi);
  for (int k = 0; k < n; ++k) {
    const SE3& A = data.oMj[S.path.joints[k]];
    S.axis_bound[k] = (centre - A.p).cross(A.R.col(2)).norm() + radius;
  }

  WorkspaceEstimate& E = S.estimate;
  const Vec3 margin = Vec3::Constant(S.margin);
  E.cells = VoxelSet::cellsFor(opt.voxel, opt.origin, S.lo - margin, S.hi + margin);
  E.voxels = std::min(E.cells, kPi / 6 * d.x() * d.y() * d.z() / (opt.voxel * opt.voxel * opt.voxel));  // the reach ball
  E.bytes = E.cells / 8;
  if (opt.method == WorkspaceMethod::Robinson) {
    for (int k = n - 1; k >= 0; --k) {
      WorkspaceSweep W;
      W.joint = S.path.joints[k];
      W.lower = S.path.lower[k];
      W.upper = S.path.upper[k];
      S.sweeps.push_back(W);
    }
    const double r3 = double(opt.refine) * opt.refine * opt.refine;
    std::vector<double> steps, sources;
    robinsonSweeps(model, S.path, balls, data, opt, steps, sources);
    double quick = 0, pruned = 0;  // pruned: the fraction of the last sweep's points the pruner will skip
    for (size_t k = 0; k < steps.size(); ++k) quick += steps[k] * sources[k];
    if (pilots && E.cells <= kPilotCells && quick <= 1e7) {
      // a small job: run on its own grid, the pilot is the job (its sources are exact)
      const Pilot a = runPilot(model, opt, opt.voxel);
      for (size_t k = 0; k < sources.size() && k < a.sources.size(); ++k) sources[k] = a.sources[k];
      E.voxels = a.voxels;
      pruned = a.pruned;
    } else if (pilots) {
      // Two pilot runs on coarse grids (about 64 and 32 cells across) measure how the set grows sweep by
      // sweep (a curve, a surface or a volume), extrapolated to the requested voxel: milliseconds.
      const double f = std::max(2.0, std::cbrt(E.cells / kPilotCells));
      const Pilot a = runPilot(model, opt, opt.voxel * f), b = runPilot(model, opt, opt.voxel * 2 * f);
      for (size_t k = 0; k < sources.size() && k < a.sources.size(); ++k)
        sources[k] = a.sources[k] * std::pow(f, dimension(a.sources[k], b.sources[k]));
      E.voxels = std::min(E.voxels, a.voxels * std::pow(f, dimension(a.voxels, b.voxels)));
      // the pruned fraction grows as the voxel shrinks (prototype: 32 % at 0.5 in, 74 % at 1/8 in): the finer
      // pilot's fraction keeps the time estimate on the safe side
      pruned = a.pruned;
    }
    E.evaluations = 0;
    double tracked = 0;
    for (size_t k = 0; k < steps.size(); ++k) {
      E.evaluations += steps[k] * sources[k];
      tracked = std::max(tracked, sources[k]);
    }
    if (opt.refine > 1) E.bytes += E.cells * r3 / 8;
    // per tracked voxel: its cell index and representative (32 bytes, vectors grown by doubling: ×1.5 on
    // average) and a witness-table entry while its sweep runs (12 bytes at a load of ¼ to ½: 24–48 bytes)
    E.bytes += tracked * (32 * 1.5 + 48);
    const bool prune = !steps.empty() && steps.back() * sources.back() > opt.prune_above;
    if (prune) {
      // the pruner, one per thread: per source of the last sweep its cylindrical coordinates (24 bytes), and its
      // bins about the base axis (ρ, z of kBin voxels, φ of kBin voxels at the largest radius) within the reach ball
      const double w = reach_detail::SweepPruner::kBin * opt.voxel, R = balls.back().second;
      const SE3& A = data.oMj[S.path.joints[0]];
      const double rho = std::min(R + (balls.back().first - A.p).cross(A.R.col(2)).norm(), 2 * R) + w;
      E.bytes += jobThreads(opt) * (24 * sources.back() + (rho / w + 2) * (2 * R / w + 3) * (2 * kPi * rho / w + 1) *
                                                              reach_detail::SweepPruner::bytesPerBin());
    }
    // the time: the points moved (those pruned skipped) at the nominal rate
    E.seconds = (E.evaluations - (prune ? pruned * steps.back() * sources.back() : 0)) / kWorkspaceRobinsonRate;
  } else {
    double total = 1;
    S.radix.resize(n);
    for (int k = 0; k < n; ++k) {
      WorkspaceSweep W;
      W.joint = S.path.joints[k];
      W.lower = S.path.lower[k];
      W.upper = S.path.upper[k];
      if (opt.method == WorkspaceMethod::Castelli) {
        double step = !model.jmodels[W.joint].angular() ? opt.step_linear : opt.step;
        if (step <= 0) {
          double rot = 0, axial = 0;
          jointSpeeds(model.jmodels[W.joint], rot, axial);
          step = opt.spacing * opt.voxel / (rot * S.axis_bound[k] + axial);
        }
        W.steps = stepsFor(W.upper - W.lower, step, "step (joint " + std::to_string(W.joint) + ")");
        S.radix[k] = W.steps + 1;
        total *= W.steps + 1;
      }
      S.sweeps.push_back(W);
    }
    if (opt.method == WorkspaceMethod::MonteCarlo) total = std::floor(opt.samples);
    S.units = total;
    E.evaluations = total;
    E.seconds = E.evaluations / kWorkspaceFkRate;
  }
  E.cost = E.seconds * kWorkspaceRobinsonRate;
  E.cap_seconds = opt.max_evaluations / kWorkspaceRobinsonRate;
  if (!check_caps) return S;
  if (const std::string why = workspaceCapsProblem(E, opt); !why.empty()) throw Error(why);
  return S;
}

}  // namespace reach_detail

std::string workspaceCapsProblem(const WorkspaceEstimate& E, const WorkspaceOptions& opt) {
  using reach_detail::shortNumber;
  if (E.cells > opt.max_cells)
    return "voxel: " + shortNumber(opt.voxel) + " m needs a grid of " + shortNumber(E.cells) + " cells over the reach box (cap max_cells = " +
           shortNumber(opt.max_cells) + "); use a larger voxel";
  if (E.bytes > opt.max_bytes)
    return "voxel: " + shortNumber(opt.voxel) + " m needs about " + bytesText(E.bytes) + " of memory (estimate; cap max_bytes = " +
           bytesText(opt.max_bytes) + "); use a larger voxel, or raise max_bytes (CLI --max-bytes, JS maxBytes) to run it anyway";
  // The cap is a time: max_evaluations point moves at Robinson's rate (2e10: about 17 min). Castelli and Monte-Carlo
  // run an FK chain per evaluation, 40 times slower, so their evaluations count at that ratio (cost): a Monte-Carlo
  // job of 1e9 samples, 2000 s, passed a cap on the raw count.
  if (E.cost > opt.max_evaluations) {
    const bool mc = opt.method == WorkspaceMethod::MonteCarlo, castelli = opt.method == WorkspaceMethod::Castelli;
    return std::string(mc ? "samples" : castelli ? "step" : "voxel") + ": about " + shortNumber(E.evaluations) + " point evaluations, " +
           shortNumber(E.seconds) + " s at the nominal rate (estimate; cap max_evaluations = " + shortNumber(opt.max_evaluations) +
           " Robinson point moves, " + shortNumber(E.cap_seconds) + " s)" +
           (castelli ? "; Castelli's cost is a product over the joints: use a larger step, or the robinson method"
            : mc     ? "; use fewer samples"
                     : "; use a larger voxel") +
           ", or raise max_evaluations (CLI --max-evaluations, JS maxEvaluations) to run it anyway";
  }
  return "";
}

WorkspaceEstimate estimateWorkspace(const Model& model, const WorkspaceOptions& options) {
  Data data(model);
  return setUp(model, options, data, false, true).estimate;
}

}  // namespace achain
