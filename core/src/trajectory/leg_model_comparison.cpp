// The serial leg models against the exact A-pair along planned moves (trajectory/leg_model_comparison.hpp).
#include <achain/trajectory/leg_model_comparison.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include <achain/apair/apair_platform.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/model/data.hpp>
#include <achain/trajectory/analysis.hpp>

namespace achain {

ExactComparison compareLegModels(const Model& model, const std::vector<Trapezoid1D>& moves, double dt) {
  const int n = model.nv;
  if (static_cast<int>(moves.size()) != n) throw Error("comparison: one move per joint (" + std::to_string(n) + ")");
  if (!(dt > 0) || !std::isfinite(dt)) throw Error("comparison: the sampling step must be finite and > 0");
  ExactComparison out;
  for (const auto& m : moves) out.duration = std::max(out.duration, m.T);
  if (!(out.duration > 0)) throw Error("comparison: the moves have zero duration");
  const int N = static_cast<int>(std::ceil(out.duration / dt)) + 1;
  if (N > 10000001) throw Error("comparison: too many samples (dt too small)");
  out.samples = N;
  std::vector<double> times(N);
  for (int k = 0; k < N; ++k) times[k] = std::min(out.duration, k * dt);
  std::vector<double> extra;
  for (const auto& m : moves)
    for (double s : {m.ta, m.td, m.T})
      for (double e : {-1e-9, 1e-9})
        if (s + e > 0 && s + e < out.duration) extra.push_back(s + e);
  const LegModel models[4] = {LegModel::Massless, LegModel::Lumped, LegModel::Full, LegModel::PotentialOnly};
  ExactApairChain E(model);
  Data data(model);
  DynamicsOptions o;
  VecX q(n), qd(n), qdd(n), te(n), ts(n), err(n);
  MatX power(N, 5 * n);
  out.exact_peak.setZero(n);
  out.exact_rms.setZero(n);
  out.rows.resize(4);
  for (int r = 0; r < 4; ++r) {
    out.rows[r].legs = models[r];
    out.rows[r].rms.setZero(n);
    out.rows[r].max.setZero(n);
  }
  const int total = N + static_cast<int>(extra.size());
  for (int k = 0; k < total; ++k) {
    const bool uniform = k < N;
    const double t = uniform ? times[k] : extra[k - N];
    for (int i = 0; i < n; ++i) moves[i].evaluate(t, q[i], qd[i], qdd[i]);
    E.inverseDynamics(q, qd, qdd, true, te);
    out.max_residual = std::max(out.max_residual, E.residual());
    out.exact_peak = out.exact_peak.cwiseMax(te.cwiseAbs());
    if (uniform) {
      out.exact_rms += te.cwiseAbs2();
      power.row(k).head(n) = te.cwiseProduct(qd).transpose();
    }
    for (int r = 0; r < 4; ++r) {
      o.legs = models[r];
      inverseDynamics(model, data, q, qd, qdd, o, ts);
      err = (ts - te).cwiseAbs();
      out.rows[r].max = out.rows[r].max.cwiseMax(err);
      if (uniform) {
        out.rows[r].rms += err.cwiseAbs2();
        power.row(k).segment((r + 1) * n, n) = ts.cwiseProduct(qd).transpose();
      }
    }
  }
  out.exact_rms = (out.exact_rms / N).cwiseSqrt();
  out.exact_work.resize(n);
  for (int i = 0; i < n; ++i) out.exact_work[i] = integrateAbs(times, power.col(i));
  for (int r = 0; r < 4; ++r) {
    out.rows[r].rms = (out.rows[r].rms / N).cwiseSqrt();
    out.rows[r].work.resize(n);
    for (int i = 0; i < n; ++i) out.rows[r].work[i] = integrateAbs(times, power.col((r + 1) * n + i));
  }
  return out;
}

}  // namespace achain
