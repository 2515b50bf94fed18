// Castelli's joint grid and Monte-Carlo sampling: the workspace job's other two methods.
#include "workspace_detail.hpp"

namespace achain {

// ---- Castelli: units are joint-grid combinations (mixed radix, tool joint fastest).
void WorkspaceJob::Impl::castelliRange(double u0, double u1, VoxelSet& G, bool atomic, Tally& out) {
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
void WorkspaceJob::Impl::markPoint(VoxelSet& G, const Vec3& p, bool atomic, Tally& out) {
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
void WorkspaceJob::Impl::monteCarloRange(double u0, double u1, VoxelSet& G, bool atomic, Tally& out) {
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

void WorkspaceJob::Impl::gridRound(int nthreads, double budget) {
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

}  // namespace achain
