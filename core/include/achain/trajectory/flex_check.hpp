// Checking a planned joint trajectory against the chain with lumped joint flexibility before it is sent
// (issue 13 item 6; docs/flexible.md, "Trajectory check and input shaping"), and input shaping.
//
// The motors follow the plan exactly (an ideal, servo-stiff drive: θ(t) = plan(t)); the links respond through the
// joint springs and dampers (FlexibleJointChain::stepPrescribed), starting at rest in static equilibrium. Reported:
//   * the first natural frequency (motors locked, jointFlexibilityModes) at samples along the path;
//   * the plan's bandwidth: the frequency below which `energy_fraction` (95 %) of the energy of the joint
//     accelerations lies, Σ_j 2∫₀^f |Q̈_j(ν)|² dν = 0.95·Σ_j ∫ q̈_j(t)² dt (Parseval), and its ratio to the
//     lowest first frequency along the path;
//   * the peak tool-position error |p(q) − p(θ)| during the move (deflection and sag), the static sag at the end,
//     and the residual vibration after the move: max |p(q) − p(q*)| and max |q − q*|_∞ over the settling window,
//     q* the static equilibrium at the final motor angles.
// Input shaping (Singer & Seering 1990): with K = exp(−ζπ/√(1−ζ²)), ω_d = ω√(1−ζ²), half period t = π/ω_d,
//   ZV   amplitudes 1/(1+K), K/(1+K) at 0, t;
//   ZVD  amplitudes 1/(1+K)², 2K/(1+K)², K²/(1+K)² at 0, t, 2t.
// ShapedPath convolves a plan with the impulses: q_s(t) = Σ A_i·q(t − t_i). The amplitudes sum to 1 and are
// positive, so the shaped plan has the same end points and stays within the original speed and acceleration bounds.
#pragma once
#include <string>
#include <vector>

#include <achain/flexibility/joint_flexibility.hpp>
#include <achain/trajectory/path.hpp>

namespace achain {

enum class ShaperKind { None, ZV, ZVD };
/// "none" | "zv" | "zvd"; throws achain::Error otherwise.
ShaperKind shaperKindFromString(const std::string& s);
const char* toString(ShaperKind k);

struct InputShaper {
  ShaperKind kind = ShaperKind::None;
  double omega = 0;  ///< rad/s, the undamped natural frequency shaped for
  double zeta = 0;   ///< damping ratio, 0 ≤ ζ < 1
  std::vector<double> amplitude, time;  ///< impulses (sum of amplitudes 1), s
};
/// Throws achain::Error for ω ≤ 0 or non-finite, or ζ outside [0, 1).
InputShaper makeShaper(ShaperKind kind, double omega, double zeta);

/// Evaluated by one thread at a time (its scratch for the shaper's terms is a member, sized once in the constructor,
/// so evaluate allocates nothing): give each thread its own ShapedPath, as each thread has its own Data.
class ShapedPath final : public JointPath {
 public:
  ShapedPath(JointPathPtr path, InputShaper shaper);
  int dof() const override { return path_->dof(); }
  double duration() const override { return path_->duration() + shaper_.time.back(); }
  void evaluate(double t, VecX& q, VecX& qd, VecX& qdd) const override;
  std::vector<std::vector<double>> breakpoints() const override;
  std::string profile() const override { return path_->profile() + "+" + toString(shaper_.kind); }
  int continuity() const override { return path_->continuity(); }
  const InputShaper& shaper() const { return shaper_; }

 private:
  JointPathPtr path_;
  InputShaper shaper_;
  mutable VecX a_, b_, c_;  ///< one term of the shaped sum (scratch)
};

/// Plan bandwidth (see the file comment), Hz: the plan sampled at `rate` Hz, its spectrum on a grid of
/// 1/(8·duration) Hz. Throws achain::Error for a plan without acceleration.
double accelerationBandwidth(const JointPath& path, double rate = 1000, double energy_fraction = 0.95);

struct FlexCheckOptions {
  double dt = 0;              ///< integration step, s; 0 = stableStep (locked motors) at the start, at most 1 ms
  double settle = 0;          ///< s simulated after the plan ends; 0 = 5 periods of the lowest first frequency, ≥ 0.5 s
  int frequency_samples = 21; ///< configurations along the path for the first frequency (≥ 2)
  double sample_rate = 1000;  ///< Hz, plan sampling for the bandwidth
  double energy_fraction = 0.95;
  int trace_samples = 0;      ///< 0 = no trace; n > 0: the run is traced at the steps round(j·steps/n), j = 0…n
                              ///< (min(n, steps) + 1 points from t = 0 to the end; reserved once, before the run)
};

struct FlexCheckResult {
  std::vector<double> frequency_t;   ///< s, sample times along the plan
  std::vector<double> first_hz;      ///< first locked-motor natural frequency at each sample
  double first_hz_min = 0, first_hz_max = 0, first_hz_end = 0;
  double first_damping_ratio_end = 0;  ///< φ₁ᵀDφ₁/(2ω₁) at the end (mass-normalised φ₁)
  double highest_hz = 0;               ///< highest locked-motor frequency at the start
  double bandwidth_hz = 0, bandwidth_ratio = 0;  ///< ratio = bandwidth / first_hz_min
  double peak_tip_error = 0, peak_tip_error_time = 0;  ///< m, s: max |p(q) − p(θ)| over the whole run
  double peak_deflection = 0;                          ///< rad or m: max |q − θ|_∞
  double static_tip_sag = 0;                           ///< m: |p(q*) − p(θ_end)|
  double residual_tip_vibration = 0;                   ///< m: max |p(q) − p(q*)| after the plan's end
  double residual_deflection = 0;                      ///< rad or m: max |q − q*|_∞ after the plan's end
  double duration = 0, settle = 0, dt = 0;
  long steps = 0;
  /// With FlexCheckOptions::trace_samples > 0 (else empty): the run sampled at trace_t (s, from 0 to duration +
  /// settle): the tip error |p(q) − p(θ)| (m) and the deflection max |q − θ|_∞ (rad or m), the quantities whose
  /// maxima over every step are peak_tip_error and peak_deflection.
  std::vector<double> trace_t, trace_tip_error, trace_deflection;
};

/// See the file comment. Throws achain::Error for a plan whose dof is not the model's nv, bad flexibility
/// (checkJointFlexibility) or bad options.
FlexCheckResult checkFlexibleTrajectory(const Model& model, const JointFlexibility& flex, const JointPath& plan,
                                        const DynamicsOptions& options, const FlexCheckOptions& opt = {});

/// One row of checkShapedTrajectories: the shaper (kind None: no impulses) and the check of the shaped plan.
struct ShapedCheck {
  InputShaper shaper;
  FlexCheckResult result;
  double residual_reduction = 1;  ///< the unshaped residual tip vibration / this one (1 when the unshaped is 0)
};

struct ShapedCheckSet {
  FlexCheckResult unshaped;                  ///< the plan as given (the frequency map along it)
  double shaper_omega = 0, shaper_zeta = 0;  ///< rad/s and damping ratio the shapers were made for
  std::vector<ShapedCheck> rows;             ///< one per requested kind, in order (None: the unshaped result)
};

/// The plan checked as given, then shaped by each of `kinds` (makeShaper at ω = 2π·shaper_hz, or for shaper_hz ≤ 0
/// the unshaped plan's first_hz_end; ζ = shaper_zeta, or for shaper_zeta < 0 its first_damping_ratio_end), as
/// `achain flex-check --shaper` and the wasm model.checkFlexibleTrajectory report it. Throws as
/// checkFlexibleTrajectory and makeShaper do.
ShapedCheckSet checkShapedTrajectories(const Model& model, const JointFlexibility& flex, const JointPathPtr& plan,
                                       const DynamicsOptions& options, const FlexCheckOptions& opt,
                                       const std::vector<ShaperKind>& kinds, double shaper_hz = 0, double shaper_zeta = -1);

}  // namespace achain
