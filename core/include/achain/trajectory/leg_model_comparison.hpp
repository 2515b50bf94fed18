// The serial leg models against the exact A-pair (apair/apair_platform.hpp) along planned moves: the torque
// error of each of the four leg models (massless, lumped, full, potential only) per joint, over rest-to-rest
// trapezoids (docs/dynamics.md "The exact A-pair"; `achain apair-exact`). In the trajectory area because it runs
// along moves; the exact model itself is dynamics.
#pragma once
#include <vector>

#include <achain/dynamics/options.hpp>
#include <achain/model/model.hpp>
#include <achain/trajectory/trapezoid.hpp>

namespace achain {

/// A serial leg model's torque error against the exact model along one move, per joint (SI).
struct LegModelError {
  LegModel legs = LegModel::Massless;
  VecX rms, max;  ///< RMS over time and max |τ_serial − τ_exact|, N·m (N for prismatic joints)
  VecX work;      ///< ∫|τ_serial q̇| dt, J
};

struct ExactComparison {
  double duration = 0;        ///< s
  int samples = 0;            ///< uniform samples (plus both sides of every switch instant for the maxima)
  VecX exact_work, exact_peak, exact_rms;  ///< the exact model's work (J), peak |τ| and RMS τ per joint
  double max_residual = 0;    ///< largest closure residual met (m)
  std::vector<LegModelError> rows;  ///< massless, lumped, full, potential only
};

/// Every serial leg model against the exact model along rest-to-rest trapezoids (one per joint, all
/// starting at t = 0; a joint that has finished rests), sampled every dt.
ExactComparison compareLegModels(const Model& model, const std::vector<Trapezoid1D>& moves, double dt);

}  // namespace achain
