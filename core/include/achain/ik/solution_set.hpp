// Collects candidate configurations of the numeric multi-start and the algebraic solver (the closed
// form has its own allocation-free collector with the same rules, closed_form.cpp): verifies each by FK, picks the
// periodic representative inside the limits (nearest the seed), removes duplicates, and turns the set
// into an IkAllResult (status ok / limits / unreachable with the nearest least-squares pose).
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include <achain/kinematics/fk.hpp>
#include <achain/ik/closed_common.hpp>
#include <achain/ik/numeric.hpp>

namespace achain::ik_detail {

/// Unreachable target: the nearest reachable configuration inside the limits by weighted least squares
/// (numeric IK, 4 restarts), started from the seed and the given near misses (or mid-limits); fills
/// res.nearest, res.has_nearest and res.residual.
inline void nearestLeastSquares(const Model& m, Data& data, const SE3& target, const VecX* seed,
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

class SolutionSet {
 public:
  SolutionSet(const Model& m, const SE3& target, const VecX* seed, double tol)
      : m_(m), data_(m), target_(target), seed_(seed), tol_(tol) {}

  /// Offers a candidate (any representative); kept if FK reproduces the target.
  void offer(const VecX& q, std::vector<std::pair<std::string, std::string>> flags = {}) {
    double pe0, oe0;
    poseErrorAt(m_, data_, q, target_, pe0, oe0);
    const double err = pe0 + oe0;
    if (!(err <= tol_)) {
      if (rejected_.size() < 64) rejected_.push_back({err, q});
      return;
    }
    in_.reserve(8);
    out_.reserve(8);
    IkSolution s;
    s.q = q;
    s.flags = std::move(flags);
    bool inside = true;
    for (int j = 0; j < m_.njoints(); ++j) {
      const int i = m_.idx_q[j];
      if (i < 0 || !m_.jmodels[j].independent) continue;  // fixed or mimic: no coordinate of its own
      const double period = m_.jmodels[j].period;
      bool in = false;
      const double pref = seed_ ? (*seed_)[i] : 0.0;
      s.q[i] = pickRepresentative(m_.joints[j].limits, q[i], period, seed_ ? &pref : nullptr, in);
      inside = inside && in;
    }
    s.within_limits = inside;
    // representatives differ by whole periods (2π for R, 4π for A): the pose is the same
    s.position_error = pe0;
    s.orientation_error = oe0;
    auto& list = inside ? in_ : out_;
    for (const auto& o : list)
      if ((o.q - s.q).cwiseAbs().maxCoeff() < 1e-7) return;
    list.push_back(std::move(s));
  }

  void finish(IkAllResult& res, const std::string& note) {
    auto byDist = [&](const IkSolution& a, const IkSolution& b) {
      if (!seed_) return false;
      return (a.q - *seed_).squaredNorm() < (b.q - *seed_).squaredNorm();
    };
    std::stable_sort(in_.begin(), in_.end(), byDist);
    std::stable_sort(out_.begin(), out_.end(), byDist);
    res.solutions = std::move(in_);
    res.outside_limits = std::move(out_);
    in_.clear();
    out_.clear();
    res.note = note;
    res.residual = 0;
    if (!res.solutions.empty()) {
      res.status = IkStatus::Ok;
      return;
    }
    if (!res.outside_limits.empty()) {
      res.status = IkStatus::Limits;
      return;
    }
    // Unreachable: the nearest reachable configuration by weighted least squares, started from the
    // best candidates and the seed.
    res.status = IkStatus::Unreachable;
    std::sort(rejected_.begin(), rejected_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<VecX> misses;
    for (size_t k = 0; k < rejected_.size() && k < 6; ++k) misses.push_back(rejected_[k].second);
    nearestLeastSquares(m_, data_, target_, seed_, misses, res);
  }

 private:
  const Model& m_;
  Data data_;
  SE3 target_;
  const VecX* seed_;
  double tol_;
  std::vector<IkSolution> in_, out_;
  std::vector<std::pair<double, VecX>> rejected_;
};

}  // namespace achain::ik_detail
