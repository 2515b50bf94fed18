// Coriolis/centrifugal matrix in Christoffel form, C_ij = Σ_k c_ijk q̇_k with
// c_ijk = ½(∂M_ij/∂q_k + ∂M_ik/∂q_j − ∂M_jk/∂q_i), so that Ṁ − 2C is skew-symmetric and
// C q̇ is the velocity part of inverse dynamics. Computed exactly (no finite differences) by
// polarizing the RNEA velocity term h(v) = Σ_jk c_ijk v_j v_k, which is a quadratic form whose
// symmetric bilinear form is the Christoffel symbol: column j of C is ¼[h(e_j + q̇) − h(e_j − q̇)].
// Cost: 2·nv RNEA passes.
#pragma once
#include <achain/dynamics/options.hpp>

namespace achain {

/// C must be nv×nv. Allocation-free.
void coriolisMatrix(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                    const Eigen::Ref<const VecX>& qd, const DynamicsOptions& options, Eigen::Ref<MatX> C);

}  // namespace achain
