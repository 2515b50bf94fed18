#include <achain/ik/solution_set.hpp>

#include <achain/ik/closed_form.hpp>
#include <achain/ik/numeric.hpp>
#include <achain/kinematics/fk.hpp>

namespace achain::ik_detail {

void nearestLeastSquares(const Model& m, Data& data, const SE3& target, const VecX* seed,
                         const std::vector<VecX>& misses, IkAllResult& res) {
  IkOptions opt;
  opt.restarts = 4;
  IkResult best, r;
  best.residual = kInf;
  std::vector<VecX> starts;
  if (seed) starts.push_back(*seed);
  for (const VecX& q : misses) starts.push_back(q);
  if (starts.empty()) {
    VecX mid(m.nq);
    for (int j = 0; j < m.njoints(); ++j) {
      const auto& L = m.joints[j].limits;
      if (!m.jmodels[j].independent) continue;
      mid[m.idx_q[j]] = std::isfinite(L.lower) && std::isfinite(L.upper) ? 0.5 * (L.lower + L.upper) : 0.0;
    }
    starts.push_back(mid);
  }
  for (auto& s0 : starts) {
    for (int j = 0; j < m.njoints(); ++j) {
      const auto& L = m.joints[j].limits;
      if (!m.jmodels[j].independent) continue;
      s0[m.idx_q[j]] = std::min(std::max(s0[m.idx_q[j]], L.lower), L.upper);
    }
    ikNumeric(m, data, target, s0, opt, r);
    // the first start is kept even when its residual is not finite, so `nearest` always holds a configuration
    if (best.q.size() == 0 || r.residual < best.residual) best = r;
  }
  res.has_nearest = true;
  res.nearest.q = best.q;
  res.nearest.within_limits = withinLimits(m, best.q, 1e-12);
  res.nearest.position_error = best.position_error;
  res.nearest.orientation_error = best.orientation_error;
  res.residual = best.residual;
  if (res.note.empty()) res.note = "no exact solution; nearest reachable pose by weighted least squares";
}

IkAllResult toIkAllResult(const Model& m, Data& data, const SE3& target, const VecX* seed, const IkSolutionSet& set,
                          IkMethod method, const std::string& note) {
  IkAllResult res;
  res.method = method;
  res.status = set.status;
  res.note = note;
  res.solutions.reserve(set.n_inside);
  res.outside_limits.reserve(set.count - set.n_inside);
  for (int k = 0; k < set.count; ++k) {
    const IkSolutionSet::Solution x = set.sol(k);
    IkSolution s;
    s.q = x.q;
    s.within_limits = x.within_limits;
    s.position_error = x.position_error;
    s.orientation_error = x.orientation_error;
    s.flags = closedIkFlagStrings(x.flags);
    (k < set.n_inside ? res.solutions : res.outside_limits).push_back(std::move(s));
  }
  if (set.closed.kase == ClosedIkCase::Family) {
    res.family_q0 = Eigen::Map<const VecX>(set.closed.family_q0.data(), set.nq());
    res.family_dir = Eigen::Map<const VecX>(set.closed.family_dir.data(), set.nq());
  }
  if (set.status == IkStatus::Unreachable) {
    std::vector<VecX> misses;
    for (int k = 0; k < set.n_rejected; ++k) misses.push_back(set.rejected(k));
    nearestLeastSquares(m, data, target, seed, misses, res);
  }
  return res;
}

}  // namespace achain::ik_detail
