#include <achain/dynamics/integrate.hpp>
#include <achain/math/text.hpp>
#include <achain/model/caps.hpp>

#include <cmath>
#include <cstdio>

#include <achain/dynamics/forward.hpp>

#include "detail.hpp"

namespace achain {

Integrator integratorFromString(const std::string& s) {
  if (s == "rk4") return Integrator::RK4;
  if (s == "euler" || s == "semi-implicit-euler" || s == "symplectic-euler") return Integrator::SemiImplicitEuler;
  throw Error("integrator: expected rk4 or euler (got '" + s + "')");
}
const char* toString(Integrator m) { return m == Integrator::RK4 ? "rk4" : "euler"; }

void integrateStep(const Model& model, Data& data, Eigen::Ref<VecX> q, Eigen::Ref<VecX> qd,
                   const Eigen::Ref<const VecX>& tau, double dt, const DynamicsOptions& options, Integrator method) {
  if (method == Integrator::SemiImplicitEuler) {
    forwardDynamics(model, data, q, qd, tau, options, data.dyn.k_v[0]);
    qd += dt * data.dyn.k_v[0];
    q += dt * qd;
    return;
  }
  // Classical RK4 on (q, q̇).
  data.dyn.k_q[0] = qd;
  forwardDynamics(model, data, q, qd, tau, options, data.dyn.k_v[0]);
  for (int s = 1; s < 4; ++s) {
    const double h = s == 3 ? dt : 0.5 * dt;
    data.dyn.q_stage = q + h * data.dyn.k_q[s - 1];
    data.dyn.v_stage = qd + h * data.dyn.k_v[s - 1];
    data.dyn.k_q[s] = data.dyn.v_stage;
    forwardDynamics(model, data, data.dyn.q_stage, data.dyn.v_stage, tau, options, data.dyn.k_v[s]);
  }
  q += (dt / 6.0) * (data.dyn.k_q[0] + 2.0 * data.dyn.k_q[1] + 2.0 * data.dyn.k_q[2] + data.dyn.k_q[3]);
  qd += (dt / 6.0) * (data.dyn.k_v[0] + 2.0 * data.dyn.k_v[1] + 2.0 * data.dyn.k_v[2] + data.dyn.k_v[3]);
}

int simulationSteps(double duration, double dt, const std::string& duration_name, const std::string& dt_name) {
  if (!(dt > 0) || !std::isfinite(dt)) throw Error(dt_name + ": must be a finite number > 0 (got " + shortNumber(dt) + ")");
  if (!(duration >= 0) || !std::isfinite(duration))
    throw Error(duration_name + ": must be a finite number ≥ 0 (got " + shortNumber(duration) + ")");
  // A step longer than the run jumps past its end (dt 1e9 s for 20 s was one step to t = 1e9 s).
  if (duration > 0 && dt > duration)
    throw Error(dt_name + ": " + shortNumber(dt) + " s is longer than the simulated time (" + shortNumber(duration) +
                " s); give a smaller " + dt_name);
  const double steps = std::ceil(duration / dt - 1e-9);
  if (steps > kMaxSimulationSteps) {  // before the count becomes an int: 1e9 s at 1 ms would overflow it
    char count[32];
    std::snprintf(count, sizeof count, "%.15g", steps);  // whole: shortNumber would print 100000001 as 1e+08
    throw Error(duration_name + ": " + shortNumber(duration) + " s is " + count + " steps of " + dt_name + " (" +
                shortNumber(dt) + " s); at most 1e8");
  }
  return static_cast<int>(steps);
}

void simulate(const Model& model, Data& data, VecX& q, VecX& qd, double dt, int steps,
              const TorqueFunction& torque, const DynamicsOptions& options, Integrator method,
              const SimulationSample& io) {
  if (!(dt > 0) || !std::isfinite(dt)) throw Error("dt: must be a positive number");
  if (steps < 0) throw Error("steps: must be ≥ 0");
  if (steps > kMaxSimulationSteps) throw Error("steps: " + std::to_string(steps) + "; at most 1e8 (duration / dt)");
  if (q.size() != model.nv || qd.size() != model.nv) throw Error("simulate: q and qd must have nv entries");
  VecX tau = VecX::Zero(model.nv);
  const int every = std::max(1, io.every);
  if (io.sample && double(steps) / every + 1 > kMaxTrajectorySamples)
    throw Error("every: " + std::to_string(steps / every + 1) + " recorded samples; at most 1e6 (record every more steps)");
  if (io.sample && (double(steps) / every + 1) * model.nv > kMaxTrajectoryValues)
    throw Error("every: " + std::to_string(steps / every + 1) + " recorded samples × " + std::to_string(model.nv) +
                " coordinates; at most 2e7 values (record every more steps)");
  const int tick = dyn_detail::progressTick(steps);
  for (int k = 0; k <= steps; ++k) {
    const double t = k * dt;
    if (torque) torque(t, q, qd, tau);
    else tau.setZero();
    if (io.sample && (k % every == 0 || k == steps)) io.sample(k, t, q, qd, tau);
    if (k == steps) break;
    integrateStep(model, data, q, qd, tau, dt, options, method);
    if (!q.allFinite() || !qd.allFinite())
      throw Error("simulate: the state became non-finite at step " + std::to_string(k + 1) + " (t = " +
                  std::to_string(t + dt) + " s); reduce dt");
    if (!io.progress.empty() && (k + 1) % tick == 0 && !io.progress(double(k + 1) / steps))
      throw dyn_detail::cancelledAt("simulate", k + 1, steps, t + dt);
  }
}

}  // namespace achain
