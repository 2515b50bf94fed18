// The trajectory area's link to the dynamics area: an InverseDynamicsFn over the RNEA
// (dynamics/rnea.hpp) with its own workspace, and torque-aware time scaling.
#pragma once
#include <achain/dynamics/options.hpp>
#include <achain/trajectory/analysis.hpp>

namespace achain {

/// τ(q, q̇, q̈) by the RNEA with the given options (leg model, motors, friction, gravity, wrench).
/// The returned function owns its workspace (copyable; copies share it — one per thread).
InverseDynamicsFn makeInverseDynamics(const Model& m, const DynamicsOptions& options = {});

/// The same τ for count states in one call (inverseDynamicsSeries, dynamics/batch.hpp), own workspace.
InverseDynamicsSeriesFn makeInverseDynamicsSeries(const Model& m, const DynamicsOptions& options = {});

/// Torque, power and work along a trajectory with the RNEA (every sample in one batch call, dynamics/batch.hpp).
TrajectoryAnalysis analyzeTrajectory(const Model& m, const Trajectory& tr, const DynamicsOptions& options);

}  // namespace achain
