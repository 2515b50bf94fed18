// The workspace job (reach/workspace.hpp): the method names, the job's steps, its run/cancel API and computeWorkspace.
// The methods themselves: workspace_sweep.cpp (Robinson), workspace_grid.cpp (Castelli, Monte-Carlo); the setup and
// estimate: workspace_estimate.cpp; the shared state: workspace_detail.hpp.
#include "workspace_detail.hpp"

#include <achain/math/text.hpp>

namespace achain {

const char* toString(WorkspaceMethod m) {
  switch (m) {
    case WorkspaceMethod::Robinson: return "robinson";
    case WorkspaceMethod::Castelli: return "castelli";
    case WorkspaceMethod::MonteCarlo: return "montecarlo";
  }
  return "?";
}
const char* toString(Representative r) {
  switch (r) {
    case Representative::Centre: return "centre";
    case Representative::Witness: return "witness";
    case Representative::NearCorner: return "near";
    case Representative::FarCorner: return "far";
  }
  return "?";
}
// One spelling per value: the words toString writes.
WorkspaceMethod workspaceMethodFromString(const std::string& s) {
  for (WorkspaceMethod m : {WorkspaceMethod::Robinson, WorkspaceMethod::Castelli, WorkspaceMethod::MonteCarlo})
    if (s == toString(m)) return m;
  throw Error("method: unknown " + quoteInput(s) + " (expected robinson, castelli or montecarlo)");
}
Representative representativeFromString(const std::string& s) {
  for (Representative r : {Representative::Centre, Representative::Witness, Representative::NearCorner, Representative::FarCorner})
    if (s == toString(r)) return r;
  throw Error("representative: unknown " + quoteInput(s) + " (expected centre, witness, near or far)");
}

void WorkspaceJob::Impl::step(int nthreads, double budget) {
  if (opt.method == WorkspaceMethod::Robinson) {
    if (nthreads <= 1) robinsonSlice(budget);
    else robinsonRound(nthreads, budget);
  } else {
    gridRound(nthreads, budget);
  }
}

double WorkspaceJob::Impl::progress() {
  if (finished) return 1.0;
  double p;
  if (opt.method == WorkspaceMethod::Robinson) {
    const double rem = robinsonRemaining();
    p = done_work / std::max(1.0, done_work + rem);
  } else {
    p = done_work / std::max(1.0, units);
  }
  reported = std::max(reported, std::min(p, 0.999));
  return reported;
}

namespace {
void initJob(WorkspaceJob::Impl& I, bool pilots) {
  const WorkspaceOptions& opt = I.opt;
  Setup S = setUp(I.model, opt, I.data, true, pilots);  // validates, estimates and refuses past a cap: nothing allocated yet
  I.res.options = opt;
  I.path = std::move(S.path);
  I.axis_bound = std::move(S.axis_bound);
  I.res.sweeps = std::move(S.sweeps);
  I.radix = std::move(S.radix);
  I.units = S.units;
  const Vec3 margin = Vec3::Constant(S.margin);
  I.res.voxels = VoxelSet(opt.voxel, opt.origin, S.lo - margin, S.hi + margin, opt.max_cells);
  if (opt.method == WorkspaceMethod::Robinson) {
    const Vec3 p0 = I.data.oMtool.act(opt.point);  // I.data holds the FK of the lower limits (setUp)
    if (I.opt.refine > 1) I.fine = VoxelSet(opt.voxel / opt.refine, opt.origin, S.lo - margin, S.hi + margin, opt.max_cells * opt.refine * opt.refine * opt.refine);
    I.hit(p0);
    if (I.res.voxels.count() != 1) throw Error("workspace: internal error, the start point lies outside the grid");
  }
}
}  // namespace

WorkspaceJob::WorkspaceJob(const Model& model, const WorkspaceOptions& o) : impl_(new Impl(model, o)) { initJob(*impl_, true); }

WorkspaceJob::~WorkspaceJob() = default;

bool WorkspaceJob::run(double budget) {
  Impl& I = *impl_;
  if (I.finished || I.cancel_requested) return true;
  if (!(budget >= 1) || !std::isfinite(budget)) budget = 1;
  const auto t0 = Clock::now();
  I.step(1, budget);
  I.res.seconds += std::chrono::duration<double>(Clock::now() - t0).count();
  I.res.threads = 1;
  I.res.outside = I.outside;
  return I.finished;
}

bool WorkspaceJob::runAll(const Progress& progress) {
  Impl& I = *impl_;
  const int T = jobThreads(I.opt);
  I.res.threads = T;
  const double round = 2e6 * T;
  while (!I.finished && !I.cancel_requested) {
    if (progress.stopRequested()) {
      I.cancel_requested = true;
      break;
    }
    const auto t0 = Clock::now();
    I.step(T, round);
    I.res.seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    if (!progress.empty() && !I.finished && !progress(I.progress())) I.cancel_requested = true;
  }
  I.res.outside = I.outside;
  if (I.cancel_requested) I.res.cancelled = true;
  else if (!progress.empty()) progress(1.0);
  return !I.res.cancelled;
}

void WorkspaceJob::cancel() {
  impl_->cancel_requested = true;
  impl_->res.cancelled = !impl_->finished;
}
bool WorkspaceJob::done() const { return impl_->finished || impl_->cancel_requested; }
bool WorkspaceJob::cancelled() const { return impl_->res.cancelled; }
double WorkspaceJob::progress() const { return impl_->progress(); }
double WorkspaceJob::evaluations() const { return impl_->done_work; }
const WorkspaceResult& WorkspaceJob::result() const { return impl_->res; }

WorkspaceResult computeWorkspace(const Model& model, const WorkspaceOptions& options, const Progress& progress) {
  WorkspaceJob job(model, options);
  job.runAll(progress);
  return job.result();
}

}  // namespace achain
