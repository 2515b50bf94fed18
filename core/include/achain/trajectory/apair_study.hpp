// The single-A-pair study of Robinson (2012) Sec. 3.8.6, Tables 3.8/3.9: the work needed to move one
// A-pair from rest at θ = 60° to rest at θ = 300° in 10 s or 1 s, with the axis vertical or
// horizontal, for the four leg models. Closed-form equations of motion (Robinson Eq. 3.63 with the
// corrected leg terms of the reference digest §5.3):
//   B(θ) = (ρ²m/8)(1 + cos θ) + I_zz  [+ B_legs(θ) for the full model]
//   C(θ, θ̇) = ½ B'(θ) θ̇,   g(θ) = (ρ m g/2) cos(θ/2)  [+ (3/2) ρ m_leg g cos(θ/2) full / PE only]
// B_legs: six uniform rods from the fixed base anchors to the platform anchors, T = Σ (m_leg/6)|v_P|².
// With the Griffis–Duffy anchors (three platform anchors at edge midpoints, radius ρ√2/4, three at
// vertices, radius ρ√2/2) this is exactly B_legs = (m_leg ρ²/8)(7 + 2 cos θ) — what the RNEA's "full"
// leg model computes. The thesis / digest value (m_leg ρ²/4)(2 + cos θ) is six times leg 1 (a midpoint
// leg); it differs by the constant 3 m_leg ρ²/8 (same C_legs). Both are available (full_leg_inertia).
// with the link a 10 in × 8 in plate: I_zz = (m/12)(10² + 8²) in² (scaled with the mass when lumped).
// Why only ratios can match the thesis: docs/trajectories.md and robinson-apairs.md §7.5.
#pragma once
#include <string>
#include <vector>

#include <achain/dynamics/options.hpp>
#include <achain/model/model.hpp>

namespace achain {

enum class Mounting { Vertical, Horizontal };

struct ApairStudyParameters {
  double rho = 4 * std::sqrt(2.0) * 0.0254;  ///< m (thesis: 4√2 in)
  double link_mass = 4.135 * 0.45359237;    ///< kg (thesis: 4.135 lb platform plate)
  double leg_mass = 0.115 * 0.45359237;     ///< kg, one of six legs (0.115 lb)
  double plate_a = 10 * 0.0254, plate_b = 8 * 0.0254;  ///< m, I_zz = m(a² + b²)/12
  double gravity = 9.80665;                 ///< m/s² (thesis 386.088 in/s²)
  /// Full model leg inertia: true = exact rods on the Griffis–Duffy anchors (m_leg ρ²/8)(7 + 2cos θ),
  /// as the RNEA; false = six times leg 1, (m_leg ρ²/4)(2 + cos θ) (reference digest §5.3).
  bool exact_leg_inertia = true;
};

/// Closed-form joint torque of the single A-pair (SI).
double apairStudyTorque(const ApairStudyParameters& p, LegModel legs, Mounting mounting, double theta, double thetad,
                        double thetadd);

/// The same A-pair as a one-joint Model (for the RNEA): CoM on the axis at the platform, I_zz of the
/// plate; gravity −z (vertical) or −x (horizontal); the leg model is chosen at the RNEA call.
Model apairStudyModel(const ApairStudyParameters& p, Mounting mounting);

struct ApairStudyRow {
  LegModel legs;
  double vertical = 0, horizontal = 0;                  ///< J
  double thesis_vertical = 0, thesis_horizontal = 0;    ///< J (Tables 3.8/3.9; horizontal PE-only: NaN)
};

struct ApairStudyResult {
  double duration = 0;
  std::string profile;
  ApairStudyParameters parameters;
  std::vector<ApairStudyRow> rows;  ///< massless, lumped, full, PE only
};

/// Work ∫|τ θ̇| dt from 60° to 300° in `duration` s (10 or 1 for the thesis tables; others allowed,
/// then no thesis values) along a rest-to-rest profile ("cubic", "quintic", "septic", "trapezoid" —
/// the trapezoid reaches its peak speed with acceleration = speed/(duration/4)).
ApairStudyResult apairStudy(const ApairStudyParameters& p, double duration, const std::string& profile = "quintic",
                            int samples = 20001);

/// 1 lbf·in in N·m (0.45359237 · 9.80665 · 0.0254).
constexpr double kInchPound = 0.45359237 * 9.80665 * 0.0254;

}  // namespace achain
