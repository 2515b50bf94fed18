// Singularity and manipulability measures of a Jacobian (SVD-based), and named singularity
// detectors: the A-pair axial singularity (θ_v = 180°, Robinson p. 131), collinear joint axes,
// and the wrist / elbow / shoulder singularities of a wrist-partitioned 6R arm such as the PUMA
// (handbook §1.12; Freeman App. B for the elbow/shoulder factors).
#pragma once
#include <string>
#include <vector>

#include <achain/model/data.hpp>

namespace achain {

/// SVD summary of a Jacobian (any shape m×n).
struct Manipulability {
  VecX singular_values;        ///< descending, min(m, n) entries
  MatX U;                      ///< m×m: task-space principal directions (columns)
  MatX V;                      ///< n×n: joint-space principal directions (columns)
  int rank = 0;                ///< number of σ above the rank tolerance
  double sigma_min = 0, sigma_max = 0;
  double condition = 0;        ///< σ_max/σ_min (+inf when σ_min is at or below the rank tolerance)
  double inverse_condition = 0;  ///< σ_min/σ_max ∈ [0, 1]
  double yoshikawa = 0;        ///< Π σ_i = √det(J Jᵀ) for m ≤ n (Yoshikawa 1985); √det(JᵀJ) for m > n (e.g. a 4-DOF arm's 6×4 J)
  double rank_tolerance = 0;
};

/// SVD of J. rank_tol < 0 selects max(m, n)·ε·σ_max (LAPACK's default).
Manipulability manipulability(const MatX& J, double rank_tol = -1);

/// One detected singular condition.
struct Singularity {
  std::string kind;         ///< "apair-axial", "collinear-axes", "wrist", "elbow", "shoulder", "rank-deficient"
  std::vector<int> joints;  ///< joints involved (0-based)
  double measure = 0;       ///< distance to the condition (0 at the singularity; see detectSingularities)
  std::string description;
};

/// Named singular conditions at the state in `data` (after forwardKinematics). A condition is
/// reported when its measure is below `tol`:
///   apair-axial:    |cos(θ_v/2)| of an A-pair with ρ > 0 (its axial rate (ρ/2)cos(θ_v/2) vanishes at θ_v = 180°
///                   (mod 360°): the joint cannot translate along its axis to first order)
///   collinear-axes: two rotary axes on one path on the same line, with equal Jacobian columns
///                   (measure: max(sin of the angle, distance between the lines / L))
///   wrist:          6R wrist-partitioned arm, |z4 × z6| (axes 4 and 6 aligned; θ5 = 0 for the PUMA)
///   elbow:          same arm, wrist centre in the plane of the parallel axes 2 and 3 (distance / L)
///   shoulder:       same arm, wrist centre in the plane through axis 1 spanned by z1, z2 (distance / L)
///   rank-deficient: σ_min/σ_max of the tool Jacobian (6×n, n ≤ 6; rows ω scaled by L) below tol
/// L is the arm's length scale Σ(|a| + |d| + ρ) (1 m if zero).
std::vector<Singularity> detectSingularities(const Model& model, const Data& data, double tol = 1e-6);

/// The arm's length scale used above.
double lengthScale(const Model& model);

/// True for a serial 6R arm whose last three axes meet in one point and whose axes 2 and 3 are parallel.
bool isWristPartitioned(const Model& model, const Data& data, double tol = 1e-9);

}  // namespace achain
