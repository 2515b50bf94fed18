// Forward kinematics: every link frame and the tool pose, allocation-free.
#pragma once
#include <achain/model/data.hpp>

namespace achain {

/// Fills data.oMi, data.oMj, data.oMtool for configuration q (size model.nq).
/// Does not allocate; does not validate q (see checkConfiguration).
void forwardKinematics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q);

/// Throws achain::Error if q has the wrong size or a non-finite entry ("q[2]: must be finite").
void checkConfiguration(const Model& model, const Eigen::Ref<const VecX>& q);

/// True if q lies within the position limits (tolerance tol).
bool withinLimits(const Model& model, const Eigen::Ref<const VecX>& q, double tol = 0.0);

}  // namespace achain
