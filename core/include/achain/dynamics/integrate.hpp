// Time integration of the joint-space dynamics: classical RK4 and semi-implicit (symplectic) Euler.
#pragma once
#include <functional>

#include <achain/dynamics/options.hpp>
#include <achain/math/progress.hpp>

namespace achain {

enum class Integrator { RK4, SemiImplicitEuler };
Integrator integratorFromString(const std::string& s);  ///< "rk4" | "euler" (semi-implicit)
const char* toString(Integrator m);

/// One step of length dt with τ held constant over the step; q, qd updated in place. Allocation-free.
void integrateStep(const Model& model, Data& data, Eigen::Ref<VecX> q, Eigen::Ref<VecX> qd,
                   const Eigen::Ref<const VecX>& tau, double dt, const DynamicsOptions& options,
                   Integrator method = Integrator::RK4);

/// The number of steps of length dt that cover `duration` s, ⌈duration/dt⌉ (a remainder under 1e-9·dt takes no
/// step): the step count of simulate() and simulateComputedTorque(). Throws achain::Error naming the bad value
/// when dt is not a finite number > 0, duration is not a finite number ≥ 0, dt is longer than a positive duration
/// (its one step would jump past the end), or the run would take more than kMaxSimulationSteps steps. The
/// messages name the values `duration_name` and `dt_name` (the CLI passes its options "--duration", "--dt").
int simulationSteps(double duration, double dt, const std::string& duration_name = "duration",
                    const std::string& dt_name = "dt");

/// Torque as a function of (t, q, q̇) for simulate(); writes into tau.
using TorqueFunction =
    std::function<void(double t, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& qd, Eigen::Ref<VecX> tau)>;

/// Runs `steps` steps from (q, qd) at t = 0; calls `sample(k, t, q, qd, tau)` after every
/// `every`-th step (and at k = 0) when given, and asks `progress` (math/progress.hpp) with the fraction of steps
/// done every 1 % of the run or 1000 steps, whichever comes first. When it says stop, simulate throws Cancelled
/// naming the step and time, after the samples already delivered. A step whose state turns non-finite throws
/// achain::Error naming the step and time.
struct SimulationSample {
  std::function<void(int k, double t, const VecX& q, const VecX& qd, const VecX& tau)> sample;
  Progress progress;
  int every = 1;
};
void simulate(const Model& model, Data& data, VecX& q, VecX& qd, double dt, int steps,
              const TorqueFunction& torque, const DynamicsOptions& options, Integrator method,
              const SimulationSample& io = {});

}  // namespace achain
