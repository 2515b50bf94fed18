#include <achain/trajectory/analysis.hpp>

#include <algorithm>
#include <cmath>
#include <set>

namespace achain {



double integrateAbs(const std::vector<double>& t, const Eigen::Ref<const VecX>& p) {
  double w = 0;
  for (size_t k = 1; k < t.size(); ++k) {
    const double h = t[k] - t[k - 1], a = p[k - 1], b = p[k];
    if ((a >= 0) == (b >= 0) || a == 0 || b == 0) {
      w += 0.5 * h * (std::abs(a) + std::abs(b));
    } else {  // sign change: two triangles
      const double s = h * std::abs(a) / (std::abs(a) + std::abs(b));
      w += 0.5 * s * std::abs(a) + 0.5 * (h - s) * std::abs(b);
    }
  }
  return w;
}

TrajectoryAnalysis analyzeTorques(const Model& m, const Trajectory& tr, const MatX& tau) {
  const int N = tr.samples(), n = tr.dof();
  if (n != m.nq) throw Error("trajectory: has " + std::to_string(n) + " joints, robot '" + m.name + "' has " + std::to_string(m.nq));
  if (tau.rows() != N || tau.cols() != n) throw Error("tau: must be samples x joints");
  TrajectoryAnalysis a;
  a.tau = tau;
  a.power = tau.cwiseProduct(tr.qd);
  a.work.resize(n);
  a.net_work.resize(n);
  a.peak_tau.resize(n);
  a.peak_tau_time.resize(n);
  a.peak_power.resize(n);
  a.effort.resize(n);
  a.effort_ratio.resize(n);
  for (int i = 0; i < n; ++i) {
    a.work[i] = integrateAbs(tr.t, a.power.col(i));
    double net = 0;
    for (int k = 1; k < N; ++k) net += 0.5 * (tr.t[k] - tr.t[k - 1]) * (a.power(k, i) + a.power(k - 1, i));
    a.net_work[i] = net;
    Eigen::Index kmax = 0;
    a.peak_tau[i] = N ? tau.col(i).cwiseAbs().maxCoeff(&kmax) : 0;
    a.peak_tau_time[i] = N ? tr.t[kmax] : 0;
    a.peak_power[i] = N ? a.power.col(i).cwiseAbs().maxCoeff() : 0;
  }
  for (int j = 0; j < m.njoints(); ++j) {
    const int i = m.idx_q[j];
    if (i < 0 || !m.jmodels[j].independent) continue;  // fixed or mimic: no coordinate of its own
    a.effort[i] = m.joints[j].limits.effort;
    a.effort_ratio[i] = std::isfinite(a.effort[i]) && a.effort[i] > 0 ? a.peak_tau[i] / a.effort[i] : 0;
    if (a.effort_ratio[i] > 1 + 1e-9) a.within_effort = false;
  }
  a.total_work = a.work.sum();
  return a;
}

TrajectoryAnalysis analyzeTrajectory(const Model& m, const Trajectory& tr, const InverseDynamicsFn& id) {
  if (tr.dof() != m.nq) throw Error("trajectory: has " + std::to_string(tr.dof()) + " joints, robot '" + m.name + "' has " + std::to_string(m.nq));
  MatX tau(tr.samples(), m.nq);
  VecX q(m.nq), qd(m.nq), qdd(m.nq), t(m.nq);
  for (int k = 0; k < tr.samples(); ++k) {
    q = tr.q.row(k).transpose();
    qd = tr.qd.row(k).transpose();
    qdd = tr.qdd.row(k).transpose();
    id(q, qd, qdd, t);
    if (!t.allFinite()) throw Error("inverse dynamics: non-finite torque at t = " + std::to_string(tr.t[k]) + " s");
    tau.row(k) = t.transpose();
  }
  return analyzeTorques(m, tr, tau);
}

namespace {
/// Evaluation times: a uniform grid plus each breakpoint approached from both sides.
std::vector<double> evaluationTimes(const JointPath& path, int samples) {
  const double T = path.duration();
  std::set<double> ts;
  const int N = std::max(samples, 2);
  for (int k = 0; k <= N; ++k) ts.insert(T * k / N);
  const double eps = 1e-9 * std::max(T, 1e-9);
  for (const auto& joint : path.breakpoints())
    for (double b : joint) {
      ts.insert(std::clamp(b - eps, 0.0, T));
      ts.insert(std::clamp(b + eps, 0.0, T));
    }
  return std::vector<double>(ts.begin(), ts.end());
}
}  // namespace

TimeScaling timeScaleToLimits(const Model& m, const JointPath& path, const TimeScalingOptions& opt) {
  if (path.dof() != m.nq) throw Error("time scaling: path has " + std::to_string(path.dof()) + " joints, robot has " + std::to_string(m.nq));
  TimeScaling res;
  res.factor = 0;
  const std::vector<double> ts = evaluationTimes(path, opt.samples);
  const int n = m.nq;
  VecX q(n), qd(n), qdd(n), tau(n), g(n), zero = VecX::Zero(n);
  auto raise = [&](double k, const char* what, int joint, double t) {
    if (k > res.factor) { res.factor = k; res.binding = what; res.joint = joint; res.time = t; }
  };
  // Batch torque check: every evaluation point's state (state-major), its τ and its gravity part g at once.
  const int N = static_cast<int>(ts.size());
  std::vector<double> Q, QD, QDD, TAU, G;
  if (opt.torque_series) {
    Q.resize(static_cast<size_t>(n) * N);
    QD.resize(Q.size());
    QDD.resize(Q.size());
    TAU.resize(Q.size());
    G.resize(Q.size());
    for (int k = 0; k < N; ++k) {
      path.evaluate(ts[k], q, qd, qdd);
      Eigen::Map<VecX>(&Q[static_cast<size_t>(n) * k], n) = q;
      Eigen::Map<VecX>(&QD[static_cast<size_t>(n) * k], n) = qd;
      Eigen::Map<VecX>(&QDD[static_cast<size_t>(n) * k], n) = qdd;
    }
    (*opt.torque_series)(N, Q.data(), nullptr, nullptr, G.data());
    (*opt.torque_series)(N, Q.data(), QD.data(), QDD.data(), TAU.data());
  }
  for (int kt = 0; kt < N; ++kt) {
    const double t = ts[kt];
    path.evaluate(t, q, qd, qdd);
    for (int j = 0; j < m.njoints(); ++j) {
      const int i = m.idx_q[j];
      if (i < 0 || !m.jmodels[j].independent) continue;  // fixed or mimic: no coordinate of its own
      const auto& L = m.joints[j].limits;
      if (opt.velocity && std::isfinite(L.velocity)) raise(std::abs(qd[i]) / L.velocity, "velocity", j, t);
      if (opt.acceleration && std::isfinite(L.acceleration)) raise(std::sqrt(std::abs(qdd[i]) / L.acceleration), "acceleration", j, t);
    }
    if (opt.torque || opt.torque_series) {
      if (opt.torque_series) {
        g = Eigen::Map<const VecX>(&G[static_cast<size_t>(n) * kt], n);
        tau = Eigen::Map<const VecX>(&TAU[static_cast<size_t>(n) * kt], n);
      } else {
        (*opt.torque)(q, zero, zero, g);
        (*opt.torque)(q, qd, qdd, tau);
      }
      for (int j = 0; j < m.njoints(); ++j) {
        const int i = m.idx_q[j];
        if (i < 0 || !m.jmodels[j].independent) continue;  // fixed or mimic: no coordinate of its own
        const double E = m.joints[j].limits.effort;
        if (!std::isfinite(E)) continue;
        if (std::abs(g[i]) >= E)
          throw Error("joints[" + std::to_string(j) + "].limits.effort: gravity alone needs " + std::to_string(std::abs(g[i])) +
                      " at t = " + std::to_string(t) + " s on the path, more than the limit " + std::to_string(E) +
                      "; no time scaling can hold it");
        const double a = tau[i] - g[i];
        const double k2 = a > 0 ? a / (E - g[i]) : a < 0 ? -a / (E + g[i]) : 0.0;
        raise(std::sqrt(k2), "torque", j, t);
      }
    }
  }
  if (res.factor == 0) {  // nothing limits (or the path does not move)
    res.factor = 1;
    return res;
  }
  if (!opt.allow_faster && res.factor < 1) {
    res.factor = 1;
    res.binding.clear();
    res.joint = -1;
    return res;
  }
  if (opt.torque_series) {  // as below, with every point in one batch call per trial factor
    std::vector<double> SQD(QD.size()), SQDD(QDD.size());
    for (int iter = 0; iter < 200; ++iter) {
      const double k = res.factor;
      for (size_t i = 0; i < QD.size(); ++i) {
        SQD[i] = QD[i] / k;
        SQDD[i] = QDD[i] / (k * k);
      }
      (*opt.torque_series)(N, Q.data(), SQD.data(), SQDD.data(), TAU.data());
      bool ok = true;
      for (int kt = 0; kt < N && ok; ++kt)
        for (int j = 0; j < m.njoints() && ok; ++j) {
          const double E = m.joints[j].limits.effort;
          if (m.jmodels[j].independent && std::isfinite(E) && std::abs(TAU[static_cast<size_t>(n) * kt + m.idx_q[j]]) > E * (1 + 1e-9))
            ok = false;
        }
      if (ok) break;
      res.factor *= 1.01;
    }
  }
  if (opt.torque) {  // friction does not scale as 1/k²: verify with the full model, raise until it holds
    for (int iter = 0; iter < 200; ++iter) {
      bool ok = true;
      const double k = res.factor;
      for (double t : ts) {
        path.evaluate(t, q, qd, qdd);
        qd /= k;
        qdd /= k * k;
        (*opt.torque)(q, qd, qdd, tau);
        for (int j = 0; j < m.njoints() && ok; ++j) {
          const double E = m.joints[j].limits.effort;
          if (m.jmodels[j].independent && std::isfinite(E) && std::abs(tau[m.idx_q[j]]) > E * (1 + 1e-9)) ok = false;
        }
        if (!ok) break;
      }
      if (ok) break;
      res.factor *= 1.01;
    }
  }
  return res;
}

}  // namespace achain
