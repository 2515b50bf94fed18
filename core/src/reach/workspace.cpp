#include <achain/reach/workspace.hpp>
#include "number_text.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#ifndef __EMSCRIPTEN__
#include <thread>
#endif

#include <achain/kinematics/fk.hpp>

#include "sweep_pruner.hpp"

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
WorkspaceMethod parseWorkspaceMethod(const std::string& s) {
  if (s == "robinson") return WorkspaceMethod::Robinson;
  if (s == "castelli") return WorkspaceMethod::Castelli;
  if (s == "montecarlo" || s == "monte-carlo") return WorkspaceMethod::MonteCarlo;
  throw Error("method: unknown '" + s + "' (expected robinson, castelli or montecarlo)");
}
Representative parseRepresentative(const std::string& s) {
  if (s == "centre" || s == "center") return Representative::Centre;
  if (s == "witness") return Representative::Witness;
  if (s == "near" || s == "near-corner") return Representative::NearCorner;
  if (s == "far" || s == "far-corner") return Representative::FarCorner;
  throw Error("representative: unknown '" + s + "' (expected centre, witness, near or far)");
}

namespace {

using Clock = std::chrono::steady_clock;

using reach_detail::Motion;

/// The joints that move the tool, base → tool, and their swept intervals.
struct Path {
  std::vector<int> joints;
  std::vector<double> lower, upper;
};

Path toolPath(const Model& m) {
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
void jointSpeeds(const JointModel& jm, double& rot, double& axial) {
  rot = std::abs(jm.rot);
  axial = jm.axial_rate_bound;
}

/// Rotation and translation of a joint at its variable u.
void jointMotion(const JointModel& jm, double u, double& theta, double& dz) {
  JointState s;
  jm.evaluate(u, s);
  theta = s.theta;
  dz = s.dz;
}

int stepsFor(double range, double step, const std::string& what) {
  if (range <= 0) return 0;
  const double n = std::ceil(range / step - 1e-9);
  if (!(n <= 1e7)) throw Error(what + ": " + reach_detail::shortNumber(n) + " steps over the joint range; use a larger step or voxel");
  return std::max(1, int(n));
}

uint64_t splitmix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

int hardwareThreads() {
#ifdef __EMSCRIPTEN__
  return 1;
#else
  const unsigned n = std::thread::hardware_concurrency();
  return n ? int(n) : 1;
#endif
}

/// The threads runAll uses for these options.
int jobThreads(const WorkspaceOptions& opt) {
  return opt.threads > 0 ? std::min(opt.threads, hardwareThreads() * 4) : hardwareThreads();
}

template <class F>
void parallel(int n, F&& f) {
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

}  // namespace

namespace {

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

}  // namespace

void workspaceReachBox(const Model& model, const WorkspaceOptions& opt, Vec3& lo, Vec3& hi) {
  const Path P = toolPath(model);
  Data d(model);
  const auto balls = reachBalls(model, opt, P, d);
  const auto& [c, r] = balls.back();
  lo = c - Vec3::Constant(r);
  hi = c + Vec3::Constant(r);
}

struct WorkspaceJob::Impl {
  Model model;
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

  Vec3 representative(const VoxelSet& S, int64_t c, const Vec3& p) const {
    switch (opt.representative) {
      case Representative::Centre: return S.centre(c);
      case Representative::Witness: return p;
      case Representative::NearCorner:
      case Representative::FarCorner: {
        const Vec3 lo = S.corner(c), base = model.base.p;
        Vec3 out;
        for (int a = 0; a < 3; ++a) {
          const double l = lo[a], h = lo[a] + S.voxel();
          const bool near_lo = std::abs(l - base[a]) <= std::abs(h - base[a]);
          out[a] = (near_lo == (opt.representative == Representative::NearCorner)) ? l : h;
        }
        return out;
      }
    }
    return p;
  }

  // Witness representatives: among the hits of a cell added in the current sweep keep the one
  // nearest the cell centre (a reachable point, placed like a centre). Cells of earlier sweeps are
  // frozen, so the sweep's sources do not change under it.
  bool last = false;  // the last sweep: only the output grid matters
  FreshCells fresh;
  void trackHit(VoxelSet& S, int64_t f, const Vec3& p) {
    if (S.insert(f)) {
      if (opt.representative == Representative::Witness) fresh.emplace(f, uint32_t(reps.size()));
      cells.push_back(f);
      reps.push_back(representative(S, f, p));
    } else if (opt.representative == Representative::Witness) {
      const uint32_t* it = fresh.find(f);
      if (!it) return;
      const Vec3 m = S.centre(f);
      Vec3& r = reps[*it];
      if ((p - m).squaredNorm() < (r - m).squaredNorm()) r = p;
    }
  }
  void hit(const Vec3& p) {
    VoxelSet& G = res.voxels;
    const int64_t c = G.cellOf(p);
    if (c < 0) {
      ++outside;
      return;
    }
    if (last) {
      G.insert(c);
    } else if (opt.refine <= 1) {
      trackHit(G, c, p);
    } else {
      const int64_t f = fine.cellOf(p);
      if (f < 0) {
        ++outside;
        return;
      }
      G.insert(c);
      trackHit(fine, f, p);
    }
  }

  // ---- Robinson: start the next sweep (tool → base); false when none is left.
  bool startSweep() {
    while (++sweep < int(res.sweeps.size())) {
      WorkspaceSweep& S = res.sweeps[sweep];
      const JointModel& JM = model.jmodels[S.joint];
      const SE3& A = data.oMj[S.joint];
      double rot = 0, axial = 0;
      jointSpeeds(JM, rot, axial);
      double step = !JM.angular() ? opt.step_linear : opt.step;
      if (step <= 0) {
        double rmax = 0;
        const Vec3 z = A.R.col(2);
        for (const Vec3& x : reps) rmax = std::max(rmax, (x - A.p).cross(z).norm());
        const double speed = rot * rmax + axial;  // |dx/dq| bound
        step = speed > 0 ? opt.spacing * opt.voxel / speed : (S.upper - S.lower);
      }
      S.steps = stepsFor(S.upper - S.lower, step, "step (joint " + std::to_string(S.joint) + ")");
      motions.clear();
      dtheta.clear();
      dz.clear();
      double th0 = 0, dz0 = 0;
      jointMotion(JM, S.lower, th0, dz0);
      for (int i = 1; i <= S.steps; ++i) {
        double th = 0, d = 0;
        jointMotion(JM, S.lower + (S.upper - S.lower) * i / S.steps, th, d);
        SE3 moved;  // the joint's motion relative to its lower limit, about its axis frame A, in the world
        moveAlongZ(A, std::cos(th - th0), std::sin(th - th0), d - dz0, moved);
        const SE3 M = moved * A.inverse();
        motions.push_back(Motion{M.R, M.p});
        dtheta.push_back(th - th0);
        dz.push_back(d - dz0);
      }
      src = 0;
      src_end = cells.size();
      fresh.clear();
      last = sweep + 1 == int(res.sweeps.size());
      // The last sweep marks only output bits: its points that provably land in set voxels are skipped.
      // (The pruner keeps voxel indices in 32 bits: a grid past 2³² cells, only with a raised max_cells, runs plain.)
      pruning = last && !motions.empty() && double(src_end) * double(motions.size()) > opt.prune_above &&
                res.voxels.cells() < (int64_t(1) << 32);
      if (pruning) pruner.start(A, dtheta, dz, reps, 0, src_end, res.voxels);
      if (!motions.empty()) return true;
      S.voxels = res.voxels.count();
    }
    return false;
  }

  void finishSweep() {
    WorkspaceSweep& S = res.sweeps[sweep];
    S.voxels = res.voxels.count();
    S.evaluations = src_end * motions.size();
    if (pruning) {
      S.pruned = pruner.pruned();
      res.pruned += S.pruned;
    }
  }

  double robinsonRemaining() const {
    if (finished) return 0;
    double rem = 0, size = double(cells.size());
    if (sweep >= 0 && sweep < int(res.sweeps.size())) rem += double(src_end - src) * double(motions.size());
    const double cap = double(res.voxels.cells()) / 4;
    for (int s = std::max(sweep, 0) + (sweep >= 0 ? 1 : 0); s < int(res.sweeps.size()); ++s) {
      const WorkspaceSweep& S = res.sweeps[s];
      const int k = int(path.joints.size()) - 1 - s;
      const JointModel& JM = model.jmodels[S.joint];
      double rot = 0, axial = 0;
      jointSpeeds(JM, rot, axial);
      const double len = (rot * axis_bound[k] + axial) * (S.upper - S.lower) / opt.voxel;
      const double st = !JM.angular() ? opt.step_linear : opt.step;
      const double n = st > 0 ? std::ceil((S.upper - S.lower) / st) : len / opt.spacing;
      rem += n * size;
      size = std::min(cap, size * std::max(1.0, len));
    }
    return rem;
  }

  // Sources of the current sweep left, or else the next sweep started; false (finished) when none is left.
  bool sourcesLeft() {
    if (src < src_end) return true;
    if (sweep >= 0) finishSweep();
    if (startSweep()) return true;
    finished = true;
    return false;
  }

  // Sequential Robinson slice.
  void robinsonSlice(double budget) {
    double spent = 0;
    while (!finished && spent < budget) {
      if (!sourcesLeft()) break;
      const size_t n = motions.size();
      if (pruning) {
        while (src < src_end && spent < budget) {
          pruner.run(src, reps[src], motions, res.voxels, outside);
          ++src;
          spent += double(n);
        }
        continue;
      }
      while (src < src_end && spent < budget) {
        const Vec3 x = reps[src++];
        for (size_t k = 0; k < n; ++k) hit(motions[k].apply(x));
        spent += double(n);
      }
    }
    done_work += spent;
    res.evaluations += size_t(spent);
  }

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

  void robinsonRound(int nthreads, double budget) {
    if (!sourcesLeft()) return;
    const size_t n = motions.size();
    const size_t count = std::min(src_end - src, std::max<size_t>(1, size_t(budget / double(n))));
    const size_t i0 = src, i1 = src + count;
    const int T = int(std::min<size_t>(size_t(nthreads), count));
    // Threads where the result cannot depend on the order of the hits: the last sweep (only the
    // output bits), or order-free representatives on the output grid. Witness sweeps before the
    // last one (usually cheap) run sequentially.
    const bool order_free = last || (opt.representative != Representative::Witness && opt.refine <= 1);
    if (T <= 1 || !order_free) {
      robinsonSlice(double(count * n));
      return;
    }
    if (last) {  // only the output bits change: atomic ORs, no candidate lists
      VoxelSet& G = res.voxels;
      std::vector<Tally> tally(T);
      parallel(T, [&](int t) {
        Tally c;  // counted here, stored once (adjacent tallies would share a cache line)
        if (pruning) {
          // One pruner, its bins shared: what one thread proves full, the others skip. Each thread takes every
          // source of the round over its own arc of steps (splitting the sources instead measured the same).
          reach_detail::SweepPruner::Share share{size_t(t), size_t(T), 0};
          for (size_t i = i0; i < i1; ++i) c.moved += pruner.run(i, reps[i], motions, G, c.outside, &share);
          c.inserted = share.inserted;
        } else {
          const size_t a = i0 + count * t / T, b = i0 + count * (t + 1) / T;
          for (size_t i = a; i < b; ++i) {
            const Vec3 x = reps[i];
            for (size_t k = 0; k < n; ++k) {
              const int64_t cell = G.cellOf(motions[k].apply(x));
              if (cell < 0) ++c.outside;
              else if (!G.testRelaxed(cell) && G.insertAtomic(cell)) ++c.inserted;
            }
          }
        }
        tally[t] = c;
      });
      size_t moved = 0;
      for (const Tally& c : tally) {
        outside += c.outside;
        G.addCount(c.inserted);  // (a recount of the whole set after every round cost seconds at 1/8 in)
        moved += c.moved;
      }
      if (pruning) pruner.addPruned(count * n - moved);  // every point of the round was either moved or skipped
    } else {
      const VoxelSet& G = res.voxels;
      if (int(local_bits.size()) < T) {
        local_bits.resize(T);
        local_lists.resize(T);
      }
      std::vector<size_t> outside_t(T, 0);
      parallel(T, [&](int t) {
        auto& bits = local_bits[t];
        if (bits.size() != G.words().size()) bits.assign(G.words().size(), 0);
        auto& list = local_lists[t];
        list.clear();
        const size_t a = i0 + count * t / T, b = i0 + count * (t + 1) / T;
        for (size_t i = a; i < b; ++i) {
          const Vec3 x = reps[i];
          for (size_t k = 0; k < n; ++k) {
            const Vec3 p = motions[k].apply(x);
            const int64_t c = G.cellOf(p);
            if (c < 0) {
              ++outside_t[t];
              continue;
            }
            if (G.test(c)) continue;
            uint64_t& w = bits[size_t(c) >> 6];
            const uint64_t m = uint64_t(1) << (c & 63);
            if (w & m) continue;
            w |= m;
            list.push_back({c, p});
          }
        }
      });
      for (int t = 0; t < T; ++t) {
        for (const Candidate& cd : local_lists[t]) {
          local_bits[t][size_t(cd.cell) >> 6] = 0;
          if (!G.test(cd.cell)) hit(cd.p);
        }
        outside += outside_t[t];
      }
    }
    src = i1;
    done_work += double(count * n);
    res.evaluations += count * n;
    if (src >= src_end) {
      finishSweep();
      if (!startSweep()) finished = true;
    }
  }

  // ---- Castelli: units are joint-grid combinations (mixed radix, tool joint fastest).
  void castelliRange(double u0, double u1, VoxelSet& G, bool atomic, Tally& out) {
    const int n = int(path.joints.size());
    const Vec3 tp = model.tool.act(opt.point);
    std::vector<int> dig(n);
    std::vector<SE3> frame(n + 1), axis(n);  // frame[i + 1]: the link frame of path joint i
    frame[0] = model.base;
    auto value = [&](int i) {
      return radix[i] <= 1 ? path.lower[i] : path.lower[i] + (path.upper[i] - path.lower[i]) * dig[i] / (radix[i] - 1);
    };
    auto place = [&](int i) {
      const JointModel& jm = model.jmodels[path.joints[i]];
      JointState js;
      jm.evaluate(value(i), js);
      jm.placeLink(frame[i], js, axis[i], frame[i + 1]);
    };
    uint64_t u = uint64_t(u0);
    for (int i = n - 1; i >= 0; --i) {
      dig[i] = int(u % uint64_t(radix[i]));
      u /= uint64_t(radix[i]);
    }
    for (int i = 0; i < n; ++i) place(i);
    for (double w = u0; w < u1; w += 1) {
      markPoint(G, frame[n].act(tp), atomic, out);
      int i = n - 1;
      while (i >= 0 && ++dig[i] == radix[i]) dig[i--] = 0;
      if (i < 0) break;
      for (int k = i; k < n; ++k) place(k);
    }
  }

  // Marks the voxel of p in G (atomically when threads share G: counted in out.inserted), or counts p as outside.
  static void markPoint(VoxelSet& G, const Vec3& p, bool atomic, Tally& out) {
    const int64_t c = G.cellOf(p);
    if (c < 0) {
      ++out.outside;
    } else if (atomic) {
      if (!G.testRelaxed(c) && G.insertAtomic(c)) ++out.inserted;
    } else {
      G.insert(c);
    }
  }

  // ---- Monte-Carlo: unit s draws q from a counter-based generator (independent of slicing).
  void monteCarloRange(double u0, double u1, VoxelSet& G, bool atomic, Tally& out) {
    const int n = int(path.joints.size());
    const Vec3 tp = model.tool.act(opt.point);
    for (double w = u0; w < u1; w += 1) {
      const uint64_t s = uint64_t(w);
      SE3 T = model.base, axis, next;
      for (int i = 0; i < n; ++i) {
        const uint64_t r = splitmix(opt.seed * 0x2545f4914f6cdd1dull ^ (s * uint64_t(n) + uint64_t(i)));
        const double f = double(r >> 11) * (1.0 / 9007199254740992.0);
        const JointModel& jm = model.jmodels[path.joints[i]];
        JointState js;
        jm.evaluate(path.lower[i] + f * (path.upper[i] - path.lower[i]), js);
        jm.placeLink(T, js, axis, next);
        T = next;
      }
      markPoint(G, T.act(tp), atomic, out);
    }
  }

  void gridRound(int nthreads, double budget) {
    const double u0 = next_unit, u1 = std::min(units, next_unit + std::max(1.0, std::floor(budget)));
    const bool mc = opt.method == WorkspaceMethod::MonteCarlo;
    const int T = int(std::max(1.0, std::min(double(nthreads), u1 - u0)));
    VoxelSet& G = res.voxels;
    std::vector<Tally> tally(T);
    if (T <= 1) {
      if (mc) monteCarloRange(u0, u1, G, false, tally[0]);
      else castelliRange(u0, u1, G, false, tally[0]);
    } else {
      parallel(T, [&](int t) {
        const double a = u0 + std::floor((u1 - u0) * t / T), b = t + 1 == T ? u1 : u0 + std::floor((u1 - u0) * (t + 1) / T);
        Tally c;
        if (mc) monteCarloRange(a, b, G, true, c);
        else castelliRange(a, b, G, true, c);
        tally[t] = c;
      });
    }
    for (const Tally& c : tally) {
      outside += c.outside;
      G.addCount(c.inserted);
    }
    next_unit = u1;
    done_work += u1 - u0;
    res.evaluations += size_t(u1 - u0);
    if (next_unit >= units) finished = true;
  }

  void step(int nthreads, double budget) {
    if (opt.method == WorkspaceMethod::Robinson) {
      if (nthreads <= 1) robinsonSlice(budget);
      else robinsonRound(nthreads, budget);
    } else {
      gridRound(nthreads, budget);
    }
  }

  double progress() {
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
};

namespace {

std::string bytesText(double b) {
  return b >= double(1u << 30) ? reach_detail::shortNumber(b / double(1u << 30)) + " GiB" : reach_detail::shortNumber(b / double(1u << 20)) + " MiB";
}

/// Everything a job decides before it allocates its grid: the validated options, the swept joints, the
/// reach box, the per-joint axis bounds, the sweeps (Castelli: their steps) and the estimate. `data` is
/// left at the forward kinematics of the joints' lower limits (Robinson's start). With check_caps, a job
/// past a cap is refused here, naming the cap and how to raise it.
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
  if (!check_caps) return S;
  if (E.cells > opt.max_cells)
    throw Error("voxel: " + reach_detail::shortNumber(opt.voxel) + " m needs a grid of " + reach_detail::shortNumber(E.cells) + " cells over the reach box (cap max_cells = " +
                reach_detail::shortNumber(opt.max_cells) + "); use a larger voxel");
  if (E.bytes > opt.max_bytes)
    throw Error("voxel: " + reach_detail::shortNumber(opt.voxel) + " m needs about " + bytesText(E.bytes) + " of memory (estimate; cap max_bytes = " +
                bytesText(opt.max_bytes) + "); use a larger voxel, or raise max_bytes (CLI --max-bytes, JS maxBytes) to run it anyway");
  if (E.evaluations > opt.max_evaluations) {
    const char* what = opt.method == WorkspaceMethod::MonteCarlo ? "samples" : opt.method == WorkspaceMethod::Castelli ? "step" : "voxel";
    throw Error(std::string(what) + ": about " + reach_detail::shortNumber(E.evaluations) + " point evaluations, " + reach_detail::shortNumber(E.seconds) +
                " s at the nominal rate (estimate; cap max_evaluations = " + reach_detail::shortNumber(opt.max_evaluations) + ")" +
                (opt.method == WorkspaceMethod::Castelli ? "; Castelli's cost is a product over the joints: use a larger step, or the robinson method"
                                                         : "; use a larger voxel") +
                ", or raise max_evaluations (CLI --max-evaluations, JS maxEvaluations) to run it anyway");
  }
  return S;
}

}  // namespace

WorkspaceEstimate estimateWorkspace(const Model& model, const WorkspaceOptions& options) {
  Data data(model);
  return setUp(model, options, data, false, true).estimate;
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

bool WorkspaceJob::runAll(const WorkspaceProgress& progress, const std::atomic<bool>* cancel) {
  Impl& I = *impl_;
  const int T = jobThreads(I.opt);
  I.res.threads = T;
  const double round = 2e6 * T;
  while (!I.finished && !I.cancel_requested) {
    if (cancel && cancel->load(std::memory_order_relaxed)) {
      I.cancel_requested = true;
      break;
    }
    const auto t0 = Clock::now();
    I.step(T, round);
    I.res.seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    if (progress && !I.finished && !progress(I.progress())) I.cancel_requested = true;
  }
  I.res.outside = I.outside;
  if (I.cancel_requested) I.res.cancelled = true;
  else if (progress) progress(1.0);
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

WorkspaceResult computeWorkspace(const Model& model, const WorkspaceOptions& options, const WorkspaceProgress& progress) {
  WorkspaceJob job(model, options);
  job.runAll(progress);
  return job.result();
}

}  // namespace achain
