// Robinson's sweep (the workspace job's default method): each joint, tool to base, sweeps the set so far.
#include "workspace_detail.hpp"

namespace achain {

Vec3 WorkspaceJob::Impl::representative(const VoxelSet& S, int64_t c, const Vec3& p) const {
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

void WorkspaceJob::Impl::trackHit(VoxelSet& S, int64_t f, const Vec3& p) {
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

void WorkspaceJob::Impl::hit(const Vec3& p) {
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
bool WorkspaceJob::Impl::startSweep() {
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

void WorkspaceJob::Impl::finishSweep() {
  WorkspaceSweep& S = res.sweeps[sweep];
  S.voxels = res.voxels.count();
  S.evaluations = src_end * motions.size();
  if (pruning) {
    S.pruned = pruner.pruned();
    res.pruned += S.pruned;
  }
}

double WorkspaceJob::Impl::robinsonRemaining() const {
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
bool WorkspaceJob::Impl::sourcesLeft() {
  if (src < src_end) return true;
  if (sweep >= 0) finishSweep();
  if (startSweep()) return true;
  finished = true;
  return false;
}

// Sequential Robinson slice.
void WorkspaceJob::Impl::robinsonSlice(double budget) {
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

void WorkspaceJob::Impl::robinsonRound(int nthreads, double budget) {
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

}  // namespace achain
