// The tool's operational-space (Cartesian) inertia Λ and the dynamic manipulability measures built on
// J and M: Yoshikawa's dynamic manipulability (1985) and Asada's generalized inertia ellipsoid (1983).
//
// J is the tool Jacobian in the base frame, rows (v, ω), reference point the tool origin
// (kinematics/jacobian.hpp), restricted to the chosen TaskRows; M is the mass matrix (CRBA, with the
// options' leg model and rotor inertia). With the mobility matrix Λ⁻¹ = J M⁻¹ Jᵀ (m×m, symmetric,
// positive semidefinite, rank = rank J):
//   Λ = (J M⁻¹ Jᵀ)⁻¹                 when rank J = m (= J⁻ᵀ M J⁻¹ for a square nonsingular J);
//   Λ = Σ_{μ_i > tol·μ_max} v_i v_iᵀ / μ_i   otherwise (the Moore–Penrose pseudo-inverse of J M⁻¹ Jᵀ from its
//     eigen-decomposition μ_i, v_i; directions with μ_i ≤ tol·μ_max count as zero: the rank is reported).
// For a chain with fewer joints than task rows and J of full column rank, JᵀΛJ = M exactly, so
// ½ẋᵀΛẋ is the kinetic energy ½q̇ᵀMq̇ for every ẋ = Jq̇ the chain can produce. Near a singularity of a
// 6-DOF arm the truncation keeps Λ finite (it never returns inf or NaN): the directions the arm cannot
// move in are dropped, and `rank` drops below m. See docs/dynamics.md.
#pragma once
#include <string>

#include <achain/dynamics/options.hpp>

namespace achain {

/// Task rows of the tool Jacobian: all six (v, ω), the linear three or the angular three.
enum class TaskRows { All, Linear, Angular };
/// "all" | "linear" | "angular"; throws achain::Error naming the accepted words.
TaskRows taskRowsFromString(const std::string& s);
const char* toString(TaskRows r);

/// Relative rank tolerance used when none is given: μ_i ≤ 1e-10·μ_max counts as zero.
constexpr double kOperationalRankTol = 1e-10;

struct CartesianInertia {
  MatX Lambda;           ///< m×m operational-space inertia (kg for v rows, kg·m² for ω rows, kg·m mixed)
  MatX Lambda_inv;       ///< m×m mobility matrix J M⁻¹ Jᵀ
  VecX eigenvalues;      ///< of Λ⁻¹ = J M⁻¹ Jᵀ, descending (μ_i; Λ's eigenvalues are 1/μ_i on its rank)
  MatX axes;             ///< m×m unit eigenvectors (columns, in the order of `eigenvalues`)
  int rank = 0;          ///< number of μ_i above rank_tolerance
  double rank_tolerance = 0;  ///< absolute: tol·μ_max
};

/// Λ of the tool at q. Runs forward kinematics and the CRBA into data; scratch in data (no allocation
/// once `out` has its size, i.e. when the same `out` is passed again). rank_tol: relative (≥ 0), < 0
/// selects kOperationalRankTol. Throws when M is not positive definite (a joint that moves no mass).
void cartesianInertia(const Model& model, Data& data, const Eigen::Ref<const VecX>& q, const DynamicsOptions& options,
                      CartesianInertia& out, TaskRows rows = TaskRows::All, double rank_tol = -1);

struct DynamicManipulability {
  /// Yoshikawa's dynamic manipulability w_d = √det(J (MᵀM)⁻¹ Jᵀ) = Π σ_i(J M⁻¹) for m ≤ n; for m > n the
  /// product of the n singular values, √det(M⁻ᵀJᵀJM⁻¹) (as `manipulability` does for a 6×4 J).
  double yoshikawa = 0;
  /// σ_i(J M⁻¹), descending (m entries): the semi-axes of the dynamic manipulability ellipsoid
  /// {ẍ = J M⁻¹ τ : ‖τ‖ ≤ 1} (velocity-dependent and gravity terms left out, as in Yoshikawa 1985).
  /// From the SVD of J M⁻¹ for chains of up to 6 joints; for more, from the eigenvalues of (J M⁻¹)(J M⁻¹)ᵀ
  /// (small σ_i then carry a relative error of about ε·(σ₁/σ_i)²).
  VecX radii;
  MatX axes;             ///< m×m unit principal directions of that ellipsoid (columns)
  /// Asada's measure (Robotics Toolbox `manipulability(…, 'asada')`): λ_min(Λ)/λ_max(Λ), the ratio of
  /// the generalized inertia ellipsoid's eigenvalues, in [0, 1]; 0 when rank J < m (as the Toolbox).
  double asada = 0;
  int rank = 0;          ///< rank of J (and of J M⁻¹)
  CartesianInertia inertia;  ///< Λ: the generalized inertia ellipsoid ẋᵀΛẋ = 1 (semi-axes √μ_i along `inertia.axes`)
};

/// The dynamic manipulability measures of the tool at q (computes `out.inertia` too). Same scratch,
/// allocation and error rules as cartesianInertia.
void dynamicManipulability(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                           const DynamicsOptions& options, DynamicManipulability& out, TaskRows rows = TaskRows::All,
                           double rank_tol = -1);

}  // namespace achain
