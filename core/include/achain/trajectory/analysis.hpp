// Along a sampled trajectory: joint torques (through an inverse-dynamics function), power τ_i·q̇_i,
// total work ∫|τ·q̇| dt, peaks against the effort limits; and uniform time scaling so that speed,
// acceleration and torque limits all hold.
#pragma once
#include <functional>

#include <achain/trajectory/trajectory.hpp>

namespace achain {

/// τ = f(q, q̇, q̈) (size nq). trajectory/torque_analysis.hpp makes one from the RNEA.
using InverseDynamicsFn = std::function<void(const VecX& q, const VecX& qd, const VecX& qdd, VecX& tau)>;
/// τ for count states at once, state-major (state k's q at q[k·nq …]; qd or qdd may be null: zero).
/// trajectory/torque_analysis.hpp makes one from the batch RNEA (dynamics/batch.hpp).
using InverseDynamicsSeriesFn =
    std::function<void(int count, const double* q, const double* qd, const double* qdd, double* tau)>;

struct TrajectoryAnalysis {
  MatX tau;                 ///< samples × joints (N·m or N)
  MatX power;               ///< τ_i·q̇_i, samples × joints (W)
  VecX work;                ///< ∫|τ_i q̇_i| dt per joint (J) — the thesis's "total work"
  VecX net_work;            ///< ∫ τ_i q̇_i dt per joint (J)
  double total_work = 0;    ///< Σ work
  VecX peak_tau;            ///< max |τ_i|
  VecX peak_tau_time;       ///< t at the peak
  VecX peak_power;          ///< max |τ_i q̇_i|
  VecX effort;              ///< limits.effort (inf when absent)
  VecX effort_ratio;        ///< peak_tau / effort (0 when unlimited)
  bool within_effort = true;
};

/// Torques from `id` at every sample, then analyzeTorques().
TrajectoryAnalysis analyzeTrajectory(const Model& m, const Trajectory& tr, const InverseDynamicsFn& id);
/// Power, work and peaks from given torques (samples × joints). Work integrates |P| piecewise
/// linearly between samples, splitting intervals where P changes sign (no spurious cancellation).
TrajectoryAnalysis analyzeTorques(const Model& m, const Trajectory& tr, const MatX& tau);
/// ∫|p| dt of a piecewise-linear signal p(t) (zero crossings located by linear interpolation).
double integrateAbs(const std::vector<double>& t, const Eigen::Ref<const VecX>& p);


/// Result of timeScaleToLimits: the factor k (>1 slower) and what binds.
struct TimeScaling {
  double factor = 1;
  std::string binding;      ///< "velocity", "acceleration", "torque" or "" (no finite limit)
  int joint = -1;           ///< index of the binding joint
  double time = 0;          ///< time on the unscaled path where it binds
};

struct TimeScalingOptions {
  int samples = 2000;             ///< evaluation points (plus every breakpoint, approached from both sides)
  bool allow_faster = false;      ///< also shrink time (k < 1) when the limits allow it
  bool velocity = true, acceleration = true;
  const InverseDynamicsFn* torque = nullptr;  ///< when given, |τ_i| ≤ limits.effort as well
  /// Instead of `torque`: the same check with every evaluation point in one batch call.
  const InverseDynamicsSeriesFn* torque_series = nullptr;
};

/// The uniform time-scaling factor k such that p(t/k) meets the model's limits with the binding one
/// met exactly: k ≥ |q̇|/v_max, k ≥ √(|q̈|/a_max), and for torque, with τ = a + g split into the
/// gravity part g = τ(q, 0, 0) and the rest a (which scales exactly as 1/k² without friction):
/// k² ≥ a/(τ_max − g) for a > 0 and k² ≥ −a/(τ_max + g) for a < 0; then verified with the full
/// inverse dynamics at the scaled states (friction included) and raised until it holds.
/// Throws when gravity alone exceeds an effort limit somewhere on the path (no time scaling helps).
TimeScaling timeScaleToLimits(const Model& m, const JointPath& path, const TimeScalingOptions& opt = {});

}  // namespace achain
