#include <achain/ik/numeric.hpp>

#include <algorithm>
#include <cmath>

#include <achain/ik/closed_form.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/kinematics/jacobian.hpp>
#include <achain/math/text.hpp>
#include <achain/model/caps.hpp>

namespace achain {

namespace {

struct Weights {
  double wp, wo;
  bool pos_only;
  int rows() const { return pos_only ? 3 : 6; }
};

/// FK at q, fills ik.e (weighted, target minus current) and returns its norm.
double errorAt(const Model& model, Data& data, const VecX& q, const SE3& target, const Weights& w) {
  auto& ik = data.ik;
  forwardKinematics(model, data, q);
  const SE3& T = data.oMtool;
  ik.e.head<3>() = w.wp * (target.p - T.p);
  if (!w.pos_only) ik.e.tail<3>() = w.wo * rotationLog(target.R * T.R.transpose());
  return ik.e.head(w.rows()).norm();
}

/// Weighted Jacobian of the current FK state into ik.Jw (rows × n).
void jacobianAt(const Model& model, Data& data, const Weights& w) {
  auto& ik = data.ik;
  toolJacobian(model, data, ik.J, Frame::Base);
  ik.Jw.topRows<3>() = w.wp * ik.J.topRows<3>();
  if (!w.pos_only) ik.Jw.bottomRows<3>() = w.wo * ik.J.bottomRows<3>();
}

/// Damped step with box constraints: joints whose step would leave [lo, hi] are fixed at the bound
/// and the remaining joints re-solve the damped normal equations with that contribution removed,
/// so the error is redistributed inside the solver (no clamping afterwards).
void boundedStep(Data::InverseKinematics& ik, const VecX& q, double lambda, bool limits) {
  const int n = static_cast<int>(ik.q.size());
  ik.dq.setZero();
  // free_idx[i] = 1 if free, 0 if fixed at a bound
  for (int i = 0; i < n; ++i) ik.free_idx[i] = 1;
  // common case first: no bound hit, full system; fixed-size 6×6 for 6-joint chains
  if (n == 6) {
    using M6 = Eigen::Matrix<double, 6, 6>;
    using V6 = Eigen::Matrix<double, 6, 1>;
    M6 M = Eigen::Map<const M6>(ik.A.data());
    M.diagonal() += lambda * (V6::Ones() + M.diagonal());
    const Eigen::LLT<M6> llt(M);
    const V6 d = llt.solve(Eigen::Map<const V6>(ik.g.data()));
    bool inside = true;
    if (limits)
      for (int i = 0; i < 6; ++i) inside = inside && q[i] + d[i] <= ik.hi[i] && q[i] + d[i] >= ik.lo[i];
    if (inside) {
      Eigen::Map<V6>(ik.dq.data()) = d;
      return;
    }
  }
  for (int pass = 0; pass <= n; ++pass) {
    int nf = 0;
    for (int i = 0; i < n; ++i)
      if (ik.free_idx[i]) ++nf;
    if (nf == 0) return;
    // reduced system over the free joints (packed into the top-left nf×nf block)
    int r = 0;
    for (int i = 0; i < n; ++i) {
      if (!ik.free_idx[i]) continue;
      double gi = ik.g[i];
      for (int k = 0; k < n; ++k)
        if (!ik.free_idx[k]) gi -= ik.A(i, k) * ik.dq[k];
      ik.gr[r] = gi;
      int c = 0;
      for (int k = 0; k < n; ++k) {
        if (!ik.free_idx[k]) continue;
        ik.Ar(r, c) = ik.A(i, k) + (i == k ? lambda * (1.0 + ik.A(i, i)) : 0.0);
        ++c;
      }
      ++r;
    }
    if (nf == n) {
      ik.llt.compute(ik.Ar);
      ik.dqr = ik.llt.solve(ik.gr);
    } else {
      // small, rare: solve the packed block in place without allocating (Cholesky by hand)
      auto M = ik.Ar.topLeftCorner(nf, nf);
      for (int j = 0; j < nf; ++j) {
        double d = M(j, j);
        for (int k = 0; k < j; ++k) d -= M(j, k) * M(j, k);
        d = std::sqrt(std::max(d, 1e-300));
        M(j, j) = d;
        for (int i2 = j + 1; i2 < nf; ++i2) {
          double s = M(i2, j);
          for (int k = 0; k < j; ++k) s -= M(i2, k) * M(j, k);
          M(i2, j) = s / d;
        }
      }
      for (int i2 = 0; i2 < nf; ++i2) {
        double s = ik.gr[i2];
        for (int k = 0; k < i2; ++k) s -= M(i2, k) * ik.dqr[k];
        ik.dqr[i2] = s / M(i2, i2);
      }
      for (int i2 = nf - 1; i2 >= 0; --i2) {
        double s = ik.dqr[i2];
        for (int k = i2 + 1; k < nf; ++k) s -= M(k, i2) * ik.dqr[k];
        ik.dqr[i2] = s / M(i2, i2);
      }
    }
    r = 0;
    bool changed = false;
    for (int i = 0; i < n; ++i) {
      if (!ik.free_idx[i]) continue;
      double d = ik.dqr[r++];
      if (limits) {
        if (q[i] + d > ik.hi[i]) {
          d = ik.hi[i] - q[i];
          ik.free_idx[i] = 0;
          changed = true;
        } else if (q[i] + d < ik.lo[i]) {
          d = ik.lo[i] - q[i];
          ik.free_idx[i] = 0;
          changed = true;
        }
      }
      ik.dq[i] = d;
    }
    if (!changed) return;
  }
}

struct StartResult {
  double err;
  int iterations;
};

/// One Levenberg–Marquardt run from ik.q (modified in place). Returns the final weighted error.
StartResult runLM(const Model& model, Data& data, const SE3& target, const Weights& w,
                  const IkOptions& opt, bool limits) {
  auto& ik = data.ik;
  const int n = model.nq;
  const int rows = w.rows();
  if (limits)
    for (int i = 0; i < n; ++i) ik.q[i] = std::min(std::max(ik.q[i], ik.lo[i]), ik.hi[i]);
  double E = errorAt(model, data, ik.q, target, w);
  double lambda = -1, nu = 2;
  int it = 0;
  for (; it < opt.max_iterations && E > opt.tolerance; ++it) {
    jacobianAt(model, data, w);
    if (n == 6 && rows == 6) {
      using M6 = Eigen::Matrix<double, 6, 6>;
      const Eigen::Map<const M6> Jf(ik.Jw.data());
      Eigen::Map<M6>(ik.A.data()).noalias() = Jf.transpose() * Jf;
      Eigen::Map<Eigen::Matrix<double, 6, 1>>(ik.g.data()).noalias() = Jf.transpose() * ik.e.head<6>();
    } else {
      auto Jr = ik.Jw.topRows(rows);
      ik.A.noalias() = Jr.transpose() * Jr;
      ik.g.noalias() = Jr.transpose() * ik.e.head(rows);
    }
    // initial damping (relative to the Marquardt scaling 1 + diag JᵀJ): 3e-2 measured best on random
    // PUMA / prototype starts (1e-3: 23.5 µs median, 1e-2: 20, 3e-2: 18.9, 1e-1: 19.3)
    // (near the solution, e.g. tracking a drag, a small start keeps Gauss–Newton's quadratic rate)
    if (lambda < 0) lambda = E < 0.05 ? 1e-3 : 3e-2;
    const double E2 = E * E;
    bool accepted = false;
    while (!accepted) {
      boundedStep(ik, ik.q, lambda, limits);
      const double step = ik.dq.norm();
      if (step <= 1e-15 * (1.0 + ik.q.norm())) return {E, it + 1};  // stationary (constrained) point
      ik.qtry = ik.q + ik.dq;
      // predicted reduction of ½|e|² for the linear model
      ik.gr.noalias() = ik.A * ik.dq;
      const double pred = ik.dq.dot(ik.g) - 0.5 * ik.dq.dot(ik.gr);  // g·dq − ½ dqᵀA dq
      const VecX& qt = ik.qtry;
      const double Et = errorAt(model, data, qt, target, w);
      const double actual = 0.5 * (E2 - Et * Et);
      if (Et < E) {
        const double rho = pred > 0 ? actual / pred : 0.0;
        ik.q = ik.qtry;
        const double rel = (E - Et) / E;
        E = Et;
        accepted = true;
        const double t = 2 * rho - 1;
        lambda *= std::max(1.0 / 3.0, 1.0 - t * t * t);
        nu = 2;
        if (rel < 1e-12 && E > opt.tolerance) return {E, it + 1};  // no further progress
      } else {
        lambda *= nu;
        nu *= 2;
        if (lambda > 1e14 * std::max(ik.A.diagonal().maxCoeff(), 1.0)) {
          errorAt(model, data, ik.q, target, w);  // restore FK state at q
          return {E, it + 1};
        }
      }
    }
  }
  return {E, it};
}

double jointDistance(const VecX& a, const VecX& b) { return (a - b).squaredNorm(); }

}  // namespace

void ikNumeric(const Model& model, Data& data, const SE3& target, const VecX& seed, const IkOptions& opt,
                  IkResult& out, bool analytic_start) {
  checkConfiguration(model, seed);
  checkData(model, data);
  auto& ik = data.ik;
  auto checkWeight = [](double w, const char* what) {
    if (!(w >= kMinIkWeight && w <= kMaxIkWeight))
      throw Error(std::string(what) + ": " + shortNumber(w) + " is outside [1e-6, 1e6] (only the ratio of the weights matters)");
  };
  checkWeight(opt.position_weight, "options.positionWeight");
  if (!opt.position_only) checkWeight(opt.orientation_weight, "options.orientationWeight");
  if (opt.max_iterations < 1) throw Error("options.maxIterations: must be ≥ 1");
  if (!(opt.tolerance > 0) || !std::isfinite(opt.tolerance)) throw Error("options.tolerance: must be a finite number > 0");
  if (opt.restarts < 0) throw Error("options.restarts: must be ≥ 0");
  if (opt.restarts > kMaxIkRestarts)
    throw Error("options.restarts: at most " + std::to_string(kMaxIkRestarts) + " (got " + std::to_string(opt.restarts) + ")");
  if (opt.max_iterations > kMaxIkIterations)
    throw Error("options.maxIterations: at most " + std::to_string(kMaxIkIterations) + " (got " +
                std::to_string(opt.max_iterations) + ")");
  if (!(opt.max_step >= 0) || !std::isfinite(opt.max_step)) throw Error("options.maxStep: must be a finite number ≥ 0");
  const Weights w{opt.position_weight, opt.orientation_weight, opt.position_only};
  const int n = model.nq;
  for (int i = 0; i < model.njoints(); ++i) {
    const JointLimits& L = model.joints[i].limits;
    if (!model.jmodels[i].independent) continue;
    const int c = model.idx_q[i];
    ik.lo[c] = opt.respect_limits ? L.lower : -kInf;
    ik.hi[c] = opt.respect_limits ? L.upper : kInf;
    if (opt.max_step > 0) {
      // the continuity box around the seed (a seed outside the limits is measured from the nearest bound)
      const double s = seed[c];
      ik.lo[c] = std::max(ik.lo[c], std::min(s, ik.hi[c]) - opt.max_step);
      ik.hi[c] = std::min(ik.hi[c], std::max(s, ik.lo[c]) + opt.max_step);
    }
  }
  // bounds inside the solver: the joint limits, the continuity box, or both
  const bool bounded = opt.respect_limits || opt.max_step > 0;
  if (out.q.size() != n) out.q.resize(n);
  int iterations = 0;
  double best = kInf, best_dist = kInf;
  bool found = false;

  // 0) analytic warm start: a chain with a closed form (prototype class, wrist-partitioned 6R) starts
  // from its closed-form solution nearest the seed (inside the limits when they are respected); LM
  // polishes it with the weights. Not for position-only solves (the closed form fixes the orientation)
  // nor inside the continuity box (the nearest solution may lie beyond one step).
  StartResult r{kInf, 0};
  if (analytic_start && !opt.position_only && !(opt.max_step > 0) && hasClosedForm(model)) {
    IkSolutionSet cs;  // holds the closed forms' solutions without allocating
    ikClosed(model, data, target, seed.data(), cs);
    int pick = -1;
    if (opt.respect_limits) {
      if (cs.n_inside > 0) pick = 0;  // inside the limits, nearest the seed first
    } else {
      double dmin = kInf;
      for (int s = 0; s < cs.count; ++s) {
        double dist = 0;
        const IkSolutionSet::Solution x = cs.sol(s);
        for (int i = 0; i < n; ++i) dist += (x.q[i] - seed[i]) * (x.q[i] - seed[i]);
        if (dist < dmin) dmin = dist, pick = s;
      }
    }
    if (pick >= 0) {
      ik.q = cs.sol(pick).q;
      r = runLM(model, data, target, w, opt, bounded);
      iterations += r.iterations;
      if (r.err <= opt.tolerance) {
        best = r.err;
        ik.qbest = ik.q;
        found = true;
      }
    }
  }

  // 1) from the seed (continuity)
  if (!found) {
    ik.q = seed;
    r = runLM(model, data, target, w, opt, bounded);
    iterations += r.iterations;
    best = r.err;
    ik.qbest = ik.q;
    found = r.err <= opt.tolerance;
  }

  // 1b) singularity escape: the seed nudged 3° (3 mm) per coordinate, alternating in sign, inside the limits
  if (!found && opt.escape_singularity) {
    for (int c = 0; c < n; ++c) {
      const double step = (c % 2 ? -1.0 : 1.0) * (model.jmodels[model.coord_joint[c]].angular() ? 3 * kDeg : 0.003);
      const double lo = ik.lo[c], hi = ik.hi[c], v = seed[c];
      const double x = v + step <= hi && v + step >= lo ? v + step : v - step;
      ik.q[c] = std::min(hi, std::max(lo, x));
    }
    const StartResult e = runLM(model, data, target, w, opt, bounded);
    iterations += e.iterations;
    // kept when it succeeds or halves the residual; inside the continuity box, where a far target is
    // not reached in one step, when it gets clearly (10 %) closer
    if (e.err <= opt.tolerance || e.err < (opt.max_step > 0 ? 0.9 : 0.5) * best) {
      best = e.err;
      ik.qbest = ik.q;
      found = e.err <= opt.tolerance;
    }
  }

  // 2) restarts: random starts, first near the seed, then spread over the whole range
  if (!found && opt.restarts > 0) {
    ik.rng.seed(opt.random_seed);
    std::uniform_real_distribution<double> U(0.0, 1.0);
    for (int k = 0; k < opt.restarts; ++k) {
      const double spread = k < 2 ? 0.25 * (k + 1) : 1.0;
      for (int j = 0; j < model.njoints(); ++j) {
        const int i = model.idx_q[j];
        if (i < 0 || !model.jmodels[j].independent) continue;  // fixed or mimic: no coordinate of its own
        const double fb = model.jmodels[j].angular() ? kPi : 1.0;
        const double lo = std::isfinite(ik.lo[i]) ? ik.lo[i] : seed[i] - fb;
        const double hi = std::isfinite(ik.hi[i]) ? ik.hi[i] : seed[i] + fb;
        const double s0 = std::min(std::max(seed[i], lo), hi);
        const double u = U(ik.rng);
        // blend between the (projected) seed and a uniform draw in [lo, hi]
        ik.q[i] = s0 + spread * ((lo + u * (hi - lo)) - s0);
      }
      ik.best_start = ik.q;
      r = runLM(model, data, target, w, opt, bounded);
      iterations += r.iterations;
      if (r.err > opt.tolerance && opt.respect_limits && !(opt.max_step > 0)) {
        // Stuck against a bound: solve without limits from the same start and shift periodic joints
        // by whole periods into their limits (the same pose). Accepted only if everything fits.
        ik.qkeep = ik.q;  // (not qtry: runLM writes its trial points there)
        ik.q = ik.best_start;
        StartResult u = runLM(model, data, target, w, opt, false);
        iterations += u.iterations;
        bool fits = u.err <= opt.tolerance;
        for (int j = 0; j < model.njoints() && fits; ++j) {
          const int i = model.idx_q[j];
          if (i < 0 || !model.jmodels[j].independent) continue;  // fixed or mimic: no coordinate of its own
          const double period = model.jmodels[j].period;
          if (ik.q[i] >= ik.lo[i] && ik.q[i] <= ik.hi[i]) continue;
          fits = false;
          if (period > 0)
            for (int k = -3; k <= 3 && !fits; ++k) {
              const double v = ik.q[i] + k * period;
              if (v >= ik.lo[i] && v <= ik.hi[i]) {
                ik.q[i] = v;
                fits = true;
              }
            }
        }
        if (fits) {
          r.err = errorAt(model, data, ik.q, target, w);
        } else {
          ik.q = ik.qkeep;  // keep the constrained result
        }
      }
      if (r.err <= opt.tolerance) {
        const double d = jointDistance(ik.q, seed);
        if (!found || d < best_dist) {
          best_dist = d;
          ik.qbest = ik.q;
          best = r.err;
        }
        found = true;
        break;
      }
      if (!found && r.err < best) {
        best = r.err;
        ik.qbest = ik.q;
      }
    }
  }

  out.q = ik.qbest;
  out.iterations = iterations;
  if (found) {
    out.status = IkStatus::Ok;
  } else {
    out.status = IkStatus::Unreachable;
    // With the continuity box the answer is 'unreachable' within this step: 'limits' would need a
    // solve beyond the box, which is what the box forbids.
    if (opt.respect_limits && !(opt.max_step > 0)) {
      // Reachable when the limits are ignored? Then the limits are what blocks the target.
      // (tried from the best constrained point and from the seed)
      for (int k = 0; k < 2 && out.status != IkStatus::Limits; ++k) {
        ik.q = k == 0 ? ik.qbest : seed;
        StartResult u = runLM(model, data, target, w, opt, false);
        out.iterations += u.iterations;
        if (u.err <= opt.tolerance) out.status = IkStatus::Limits;
      }
    }
  }
  // Final errors at the returned q (the inside-limits configuration even for 'limits').
  out.residual = errorAt(model, data, out.q, target, w);
  const SE3& T = data.oMtool;
  out.position_error = (T.p - target.p).norm();
  out.orientation_error = opt.position_only ? 0.0 : rotationLog(target.R * T.R.transpose()).norm();
}

IkResult ikNumeric(const Model& model, const SE3& target, const VecX& seed, const IkOptions& options) {
  Data data(model);
  IkResult r;
  ikNumeric(model, data, target, seed, options, r);
  return r;
}

}  // namespace achain
