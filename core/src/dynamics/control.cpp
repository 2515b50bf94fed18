#include <achain/dynamics/control.hpp>
#include <achain/model/caps.hpp>

#include <algorithm>
#include <cmath>
#include <memory>

#include <achain/dynamics/rnea.hpp>

#include "detail.hpp"

namespace achain {

DesiredMotion sampledMotion(std::vector<double> t, std::vector<VecX> q, std::vector<VecX> qd, std::vector<VecX> qdd) {
  const size_t N = t.size();
  if (N == 0) throw Error("t: no samples");
  if (q.size() != N || qd.size() != N || qdd.size() != N) throw Error("trajectory: q, qd, qdd need one row per time");
  for (size_t k = 1; k < N; ++k)
    if (!(t[k] > t[k - 1])) throw Error("t: must increase (t[" + std::to_string(k) + "])");
  auto T = std::make_shared<std::vector<double>>(std::move(t));
  auto Q = std::make_shared<std::vector<VecX>>(std::move(q));
  auto V = std::make_shared<std::vector<VecX>>(std::move(qd));
  auto A = std::make_shared<std::vector<VecX>>(std::move(qdd));
  return [T, Q, V, A](double time, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v, Eigen::Ref<VecX> a) {
    const auto& t = *T;
    const size_t N = t.size();
    if (time <= t.front() || N == 1) { q = Q->front(); v = V->front(); a = A->front(); return; }
    if (time >= t.back()) { q = Q->back(); v.setZero(); a.setZero(); return; }
    const size_t k = std::upper_bound(t.begin(), t.end(), time) - t.begin() - 1;
    const double h = t[k + 1] - t[k], s = (time - t[k]) / h;
    const double h00 = 2 * s * s * s - 3 * s * s + 1, h10 = s * s * s - 2 * s * s + s, h01 = -2 * s * s * s + 3 * s * s,
                 h11 = s * s * s - s * s;
    q = h00 * (*Q)[k] + h10 * h * (*V)[k] + h01 * (*Q)[k + 1] + h11 * h * (*V)[k + 1];
    v = (1 - s) * (*V)[k] + s * (*V)[k + 1];
    a = (1 - s) * (*A)[k] + s * (*A)[k + 1];
  };
}

ControlRun simulateComputedTorque(const Model& model, const DesiredMotion& desired, const VecX& q0, const VecX& qd0,
                                  double duration, const ComputedTorqueOptions& o,
                                  const Progress& progress) {
  const int n = model.nv;
  if (q0.size() != n || qd0.size() != n) throw Error("control: q0 and qd0 must have " + std::to_string(n) + " values");
  const int steps = simulationSteps(duration, o.dt);
  const double w = 2 * kPi * 5;
  const VecX kp = o.kp.size() ? o.kp : VecX::Constant(n, w * w);
  const VecX kv = o.kv.size() ? o.kv : VecX::Constant(n, 2 * w);
  if (kp.size() != n || kv.size() != n) throw Error("gains: kp and kv need " + std::to_string(n) + " values");
  Data plant(model), ctrl(model);
  VecX G = VecX::Ones(n), cur = VecX::Zero(n), ic_prev = VecX::Zero(n), volt = VecX::Zero(n), tau_m(n);
  if (o.dc_motor) {
    for (const VecX* v : {&o.R, &o.L, &o.Kt, &o.Ke})
      if (v->size() != n) throw Error("motor: R, L, Kt and Ke need " + std::to_string(n) + " values");
    for (int i = 0; i < n; ++i) {
      if (!(o.R[i] > 0) || !(o.L[i] >= 0) || o.Kt[i] == 0 || !std::isfinite(o.Ke[i]))
        throw Error("motor[" + std::to_string(i) + "]: needs R > 0, L ≥ 0, Kt ≠ 0, finite Ke");
      const Motor& mo = model.joints[i].motor;
      if (mo.present && model.jmodels[i].independent) G[model.idx_q[i]] = mo.gear_ratio;
    }
  }
  VecX q = q0, qd = qd0, qdes(n), vdes(n), ades(n), aref(n), tau(n), e(n);
  ControlRun run;
  run.max_abs_error = VecX::Zero(n);
  VecX sq = VecX::Zero(n);
  const int every = std::max(1, o.every);
  if (double(steps) / every + 1 > kMaxTrajectorySamples)
    throw Error("every: " + std::to_string(steps / every + 1) + " recorded samples; at most 1e6 (record every more steps)");
  if ((double(steps) / every + 1) * n > kMaxTrajectoryValues)
    throw Error("every: " + std::to_string(steps / every + 1) + " recorded samples × " + std::to_string(n) +
                " coordinates; at most 2e7 values (record every more steps)");
  const int tick = dyn_detail::progressTick(steps);
  for (int k = 0; k <= steps; ++k) {
    const double t = k * o.dt;
    desired(t, qdes, vdes, ades);
    e = qdes - q;
    aref = ades + kv.cwiseProduct(vdes - qd) + kp.cwiseProduct(e);
    inverseDynamics(model, ctrl, q, qd, aref, o.controller, tau);
    if (o.dc_motor) {
      // Freeman's nominal drive: current for τ_c, voltage feed-forward with back-EMF.
      const VecX ic = tau.cwiseQuotient(o.Kt.cwiseProduct(G));
      const VecX dic = k == 0 ? VecX::Zero(n) : VecX((ic - ic_prev) / o.dt);
      volt = o.R.cwiseProduct(ic) + o.L.cwiseProduct(dic) + o.Ke.cwiseProduct(G).cwiseProduct(qd);
      ic_prev = ic;
    }
    run.max_abs_error = run.max_abs_error.cwiseMax(e.cwiseAbs());
    sq += e.cwiseAbs2();
    if (k % every == 0 || k == steps) {
      run.t.push_back(t);
      run.q.push_back(q);
      run.qd.push_back(qd);
      run.q_des.push_back(qdes);
      run.tau.push_back(tau);
      run.error.push_back(e);
      if (o.dc_motor) {
        run.current.push_back(cur);
        run.voltage.push_back(volt);
      }
    }
    if (k == steps) break;
    if (o.dc_motor) {
      // Exact current over the period with q̇ held: i → i_ss + (i − i_ss)e^{−t R/L}; mean torque applied.
      for (int i = 0; i < n; ++i) {
        const double iss = (volt[i] - o.Ke[i] * G[i] * qd[i]) / o.R[i];
        const double x = o.L[i] > 0 ? o.R[i] * o.dt / o.L[i] : kInf;
        const double decay = std::isinf(x) ? 0.0 : std::exp(-x);
        const double mean = std::isinf(x) ? 0.0 : (1 - decay) / x;
        tau_m[i] = o.Kt[i] * G[i] * (iss + (cur[i] - iss) * mean);
        cur[i] = iss + (cur[i] - iss) * decay;
      }
      integrateStep(model, plant, q, qd, tau_m, o.dt, o.plant, o.integrator);
    } else {
      integrateStep(model, plant, q, qd, tau, o.dt, o.plant, o.integrator);
    }
    if (!q.allFinite() || !qd.allFinite())
      throw Error("control: the state became non-finite at t = " + std::to_string(t + o.dt) + " s; reduce dt or the gains");
    if (!progress.empty() && (k + 1) % tick == 0 && !progress(double(k + 1) / steps))
      throw dyn_detail::cancelledAt("control", k + 1, steps, t + o.dt);
  }
  run.rms_error = (sq / double(steps + 1)).cwiseSqrt();
  return run;
}

}  // namespace achain
