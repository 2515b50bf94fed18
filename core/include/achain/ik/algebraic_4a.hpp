// Algebraic IK of 4A-chains by kinematic mapping (Robinson/Pfurner): Study parameters of poses,
// change of frame T_b / T_m (with the corrected T_b row 2), and the pieces of the thesis method.
#pragma once
#include <array>
#include <functional>
#include <string>
#include <vector>

#include <achain/ik/ik.hpp>

namespace achain {

using Study = Eigen::Matrix<double, 8, 1>;  ///< (x0..x3, y0..y3)

/// Study parameters of a pose (Study's method, Eq. 2.14/2.15; largest-norm row), not normalised.
Study studyFromPose(const SE3& T);
/// Pose from Study parameters (Eq. 2.11); throws if x = 0.
SE3 poseFromStudy(const Study& s);
/// T_b(t) (Eq. 2.17, row 2 corrected): Study(T·A) = T_b(Study(T))·Study(A) up to scale.
Eigen::Matrix<double, 8, 8> studyBaseMatrix(const Study& t);
/// T_m(t) (Eq. 2.18): Study(A·T) = T_m(Study(T))·Study(A) up to scale.
Eigen::Matrix<double, 8, 8> studyMovingMatrix(const Study& t);

/// Homogeneous polynomial in the 8 Study parameters: coefficients over the monomials of one degree
/// (degree 1: 8; degree 2: 36 monomials x_i x_j, i ≤ j; degree 3: 120 monomials, i ≤ j ≤ k; index order 0..7 =
/// x0..x3, y0..y3). Coefficient vectors are normalised to unit length (polynomials are defined up to scale).
struct StudyPolynomial {
  int degree = 2;
  VecX c;
  double operator()(const Study& x) const;
};
/// Monomial values of x for a degree (2 or 3), in the coefficient order above.
VecX studyMonomials(const Study& x, int degree);
/// Index of the monomial with the given variable indices (sorted ascending), for readable tests.
int studyMonomialIndex(std::vector<int> vars);

/// Constraint variety of a 2-joint chain (Walter–Husty implicitization by a linear-algebra nullspace
/// over sampled points): every quadric through the variety (S²₆ included) and one cubic not generated
/// by the quadrics.
struct ConstraintVariety {
  std::vector<StudyPolynomial> linear;    ///< linear forms (only for special geometry, e.g. 2R with meeting axes)
  std::vector<StudyPolynomial> quadrics;  ///< basis of the quadrics vanishing on the variety
  StudyPolynomial cubic;                  ///< a cubic outside the ideal of the quadrics
  /// The polynomials transferred by a base change: P'(x) = P(T_b(t)·x).
  ConstraintVariety transferred(const Study& t) const;
  /// Max |P(x)| over all polynomials at unit-normalised x.
  double residual(const Study& x) const;
  Eigen::Matrix<double, 8, 8> transfer = Eigen::Matrix<double, 8, 8>::Identity();
};

/// Implicitizes the poses fk(q_a, q_b) of a two-joint sub-chain (joints ja, jb of the model, angles
/// sampled over their full periods).
ConstraintVariety implicitizeTwoJoint(const std::function<SE3(double, double)>& fk, double period_a, double period_b);

/// Two-joint sub-IK of joints `first`, `first + 1` of a standard-DH serial chain S: every (q_a, q_b)
/// with pose(q_a, q_b) = T (720° branches of A-pairs included), verified to `tol`. Used to recover
/// (u1, u2), (u3, u4) and to reject spurious intersection points.
std::vector<Eigen::Vector2d> ikTwoJoint(const Model& S, int first, const SE3& T, double tol = 1e-7);

/// What the algebraic method did (for tests and the CLI): the two varieties (right one in Σ0), the
/// Study parameters of the inverse target used in the transfer, the intersection points and which
/// were genuine, and u = tan(θ_v/4) of each solution.
struct AlgebraicReport {
  ConstraintVariety left, right_local, right;
  Study target_inverse;
  std::vector<Study> intersections;  ///< every real root (x0 = 1, or the largest x_i = 1 when x0 ≈ 0)
  std::vector<bool> genuine;         ///< both two-joint sub-IKs succeed
  std::vector<Eigen::Vector4d> u;
  std::string intersection_method;  ///< "homotopy" (total-degree continuation, all isolated roots) or "grid" (fallback)
  int homotopy_paths = 0;           ///< 2⁷ = 128 (Bézout number of the 7 quadrics)
  int homotopy_finite = 0;          ///< paths that ended at a finite point
  int homotopy_diverged = 0;        ///< paths to infinity
  int homotopy_failed = 0;          ///< paths given up (step size collapsed)
  int homotopy_complex = 0;         ///< finite endpoints that are not real
  int homotopy_exceptional = 0;     ///< paths ending on the exceptional set x = 0 (all quadrics → c·|y|²; no pose)
  std::vector<double> cubic_residual;  ///< per intersection point: max |cubic| (normalised point); the thesis's check
};

/// Algebraic IK of a 4-joint R/A chain (standard DH; base and tool included) after Robinson/Pfurner:
/// split after joint 2, implicitize both 2-joint chains, transfer the right one into Σ0 with T_b of
/// the inverse target pose, intersect (total-degree homotopy continuation on the 7 independent
/// quadrics, 128 paths, all isolated roots; the two cubics checked), recover (u1,u2) and (u3,u4) by the
/// two-joint sub-IKs, reject spurious points (no sub-IK), θ_v = 4·atan(u). No computer algebra; runs
/// in wasm. The grid intersection is kept only as a fallback for varieties without 7 independent
/// quadrics.
IkAllResult ikAlgebraic4A(const Model& model, const SE3& target, const VecX* seed = nullptr,
                             AlgebraicReport* report = nullptr);

}  // namespace achain
