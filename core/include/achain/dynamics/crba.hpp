// Joint-space mass matrix M(q) by the composite-rigid-body algorithm, plus the legs' midpoint masses
// (LegModel::Full) and the rotor inertias J_m·G² (options.motors). M is symmetric positive definite
// for any chain whose bodies carry mass in every direction a joint moves them.
#pragma once
#include <achain/dynamics/options.hpp>

namespace achain {

/// M must be nv×nv. Runs forward kinematics into data. Allocation-free.
void massMatrix(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                const DynamicsOptions& options, Eigen::Ref<MatX> M);

}  // namespace achain
