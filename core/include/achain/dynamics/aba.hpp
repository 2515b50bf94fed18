// Forward dynamics by Featherstone's articulated-body algorithm (O(n)), world-frame spatial
// vectors, R/P/H/A joints (the A-pair's ∂dz/∂q and its q̇² term enter like in RNEA).
// The leg model Full adds leg-midpoint particles that move with two bodies at once, which the
// articulated-body recursion cannot absorb; for it (when the model has leg mass) use
// forwardDynamics (Cholesky). Every other option is supported. See docs/dynamics.md for the
// measured cost against the Cholesky solve.
#pragma once
#include <achain/dynamics/options.hpp>

namespace achain {

/// Throws achain::Error for LegModel::Full on a model with A-pair leg mass, or when an
/// articulated inertia is singular (a joint that moves no mass). Allocation-free.
void forwardDynamicsABA(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                        const Eigen::Ref<const VecX>& qd, const Eigen::Ref<const VecX>& tau,
                        const DynamicsOptions& options, Eigen::Ref<VecX> qdd);

}  // namespace achain
