// Natural modes of an undamped linear system M·ẍ + K·x = 0: det(K − ω²·M) = 0. Shared by the flexible-link
// preprocessing (model/flexible_link.hpp) and the lumped joint-flexibility analysis
// (flexibility/joint_flexibility.hpp). Analysis-time code: it allocates (not for hot loops).
#pragma once
#include <achain/math/types.hpp>

namespace achain {

/// Natural frequencies and mode shapes, lowest first.
struct NaturalModes {
  VecX omega;   ///< rad/s, ascending; a rigid-body (zero-stiffness) mode gives 0
  MatX shapes;  ///< column k: mode k, mass-normalised (shapeᵀ·M·shape = 1), largest-magnitude entry positive
};

/// Solves K·v = ω²·M·v. M must be symmetric positive definite and K symmetric positive semi-definite (both n×n,
/// finite); a negative eigenvalue beyond round-off (|λ| > 1e-9·max|λ|) is an error, a tiny one is taken as 0.
/// Throws achain::Error naming `what` and the problem (size, asymmetry, non-finite entry, M not positive definite,
/// K indefinite).
NaturalModes naturalModes(const MatX& K, const MatX& M, const std::string& what = "modal analysis");

}  // namespace achain
