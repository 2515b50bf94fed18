// Forward dynamics q̈ = M(q)⁻¹(τ − b(q, q̇)), b = C q̇ + g + friction + Jᵀh_e, by a Cholesky solve
// of the CRBA mass matrix (Walker–Orin method 3). See docs/dynamics.md for the measured cost.
#pragma once
#include <achain/dynamics/options.hpp>

namespace achain {

/// qdd must have nv entries. Throws achain::Error if M is not positive definite
/// (a joint that moves no mass). Allocation-free.
void forwardDynamics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                     const Eigen::Ref<const VecX>& qd, const Eigen::Ref<const VecX>& tau,
                     const DynamicsOptions& options, Eigen::Ref<VecX> qdd);

}  // namespace achain
