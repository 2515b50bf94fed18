// Flexible links by assumed modes (Tesar & Graves 1988, §2.3 and Appendices A–B; reference digest
// shared/reference/tesar-flexible.md §1.2, §1.5, §1.6, §3.4): the modal preprocessing of one link into its
// constant local inertia matrix (I_mm, I_mL, I_LL, I_mq, I_Lq, I_qq) and stiffness K.
//
// Geometry and units (SI inside; any consistent unit system works, the functions only integrate):
//  * The link is a straight beam of length L along its frame's x axis, from the origin (the clamped root,
//    joint i) to x = L. Its mass m is spread uniformly along that axis (μ = m/L) for the modal integrals.
//  * Each assumed mode j has a direction and a shape f_j(u), u = x/L, a polynomial Σ_k c_k·u^k:
//      Y bending  δ_j = (0, f_j(u), 0), ψ_j = 0   (metres per unit q_j; deflection along y, stiffness EI_y)
//      Z bending  δ_j = (0, 0, f_j(u)), ψ_j = 0   (deflection along z, stiffness EI_z)
//      Torsion    δ_j = 0, ψ_j = (f_j(u), 0, 0)   (radians per unit q_j, stiffness GJ, inertia density J/L)
//    As in the paper's example, bending modes carry no rotation (the digest's §3.4 "modelling limitation").
//  * A bending shape must be clamped at the root (f(0) = 0 and f'(0) = 0), a torsion shape must vanish there
//    (f(0) = 0); shapes must be non-zero and linearly independent (else I_qq is singular).
//
// Blocks (Appendix A, terms 1, 2, 4, 5, 7, 10 and –(A-73); the deflection-dependent terms 3, 6, 8, 9 are
// dropped as in the paper, so the matrix is constant in the link frame):
//   I_mm = m·1₃                     I_mL = m·[c̃m]ᵀ            I_LL = I_cm + m(cmᵀcm·1₃ − cm·cmᵀ)
//   I_mq(:, j) = ∫ρ δ_j dV           I_Lq(:, j) = ∫ρ x̃ δ_j dV + ∫(J/L) ψ_j dx
//   I_qq(j, k) = ∫ρ δ_j·δ_k dV + ∫(J/L) ψ_j·ψ_k dx
//   K(j, k) = ∫EI δ_j''·δ_k'' dx + ∫GJ ψ_j'·ψ_k' dx            (Appendix B, the curvature form)
// so for the clamped cubic family u², u² + r·u³ the closed forms of the digest's §3.7 item 1 follow:
// m/3, m/30, mL/4, mL/100, m/5, m/175, J/2, J/3 and K = EI/L³·(4, −3.2, 6.88) (r = −1.2), torsion GJ/L.
#pragma once
#include <string>
#include <vector>

#include <achain/math/modal.hpp>
#include <achain/model/model.hpp>

namespace achain {

/// Direction of one assumed mode in the link frame (x along the beam).
enum class ModeDirection { Y, Z, Torsion };
const char* toString(ModeDirection d);

/// One assumed mode: a direction and a shape f(u), u = x/L, given either
///  * analytically: a polynomial f(u) = Σ_k coefficients[k]·u^k, or
///  * tabulated (FEA or a modal test): values f(u_k) at stations u_k (u_samples: at least 4, strictly increasing,
///    from 0 to 1), interpolated by a cubic spline (not-a-knot; for a bending mode the root slope is set to 0, the
///    clamp), so that any cubic with the root conditions is reproduced exactly. Give one form, not both.
struct AssumedMode {
  ModeDirection direction = ModeDirection::Y;
  std::vector<double> coefficients;  ///< c_0, c_1, … (c_0 = c_1 = 0 for bending, c_0 = 0 for torsion)
  std::vector<double> u_samples;     ///< tabulated: stations u_k in [0, 1]
  std::vector<double> values;        ///< tabulated: f(u_k) (values[0] = 0 at the clamped root)
};

/// One flexible link's description.
struct FlexibleLink {
  double length = 0;                 ///< L, m (beam along the link's x axis from its origin)
  Inertial body;                     ///< rigid mass properties: mass (kg, also the beam's uniform mass), CoM, inertia about the CoM
  double ei_y = 0;                   ///< N·m², bending stiffness for deflection along y (needed by Y modes)
  double ei_z = 0;                   ///< N·m², bending stiffness for deflection along z (needed by Z modes)
  double gj = 0;                     ///< N·m²/rad, torsional stiffness (needed by torsion modes)
  double torsional_inertia = 0;      ///< J, kg·m²: the link's rotary inertia about its axis, spread uniformly (torsion modes)
  std::vector<AssumedMode> modes;
};

/// The link's constant local inertia blocks and stiffness (3×3, 3×3, 3×3, 3×m, 3×m, m×m, m×m).
struct FlexibleLinkMatrices {
  Mat3 I_mm = Mat3::Zero(), I_mL = Mat3::Zero(), I_LL = Mat3::Zero();
  MatX I_mq, I_Lq, I_qq, K;
  /// The (6+m)×(6+m) local inertia matrix [[I_mm, I_mL, I_mq], [I_mLᵀ, I_LL, I_Lq], [I_mqᵀ, I_Lqᵀ, I_qq]].
  MatX localInertia() const;
  /// Throws achain::Error unless localInertia() is positive definite: the link's rigid inertia about its origin
  /// (I_LL) must exceed what its uniform beam carries (e.g. m·L²/3 about a transverse axis through the root).
  void checkLocalInertia() const;
};

/// Modal preprocessing (see the file comment); the integrals are exact for polynomial and tabulated (piecewise-cubic)
/// shapes. Throws achain::Error naming the field or the mode: a non-positive or non-finite length, mass, EI, GJ or
/// torsional inertia that a mode needs; a shape that is empty, zero, not finite, or not clamped at the root; a table
/// with fewer than 4 stations, stations not increasing from 0 to 1, or both forms given; linearly dependent shapes.
FlexibleLinkMatrices flexibleLinkMatrices(const FlexibleLink& link);

/// The orthogonality condition (3.1-8) of the clamped cubic pair u² + r₁u³, u² + r₂u³ under uniform mass:
/// r₂ = −(42 + 35·r₁)/(35 + 30·r₁) (r₁ = 0 gives −1.2). Throws for r₁ = −7/6 (no orthogonal partner) or non-finite r₁.
double orthogonalCubicRatio(double r1);

/// The paper's five modes of links 2 and 3 (§3.4, (3.1-9)–(3.1-15)): c₁(u² + r₁u³), c₂(u² + r₂u³) along y, the same
/// pair along z, and a linear torsion u; r₂ from orthogonalCubicRatio(r₁). c₁, c₂ are the scale factors (non-zero).
std::vector<AssumedMode> clampedCubicModes(double c1 = 1, double c2 = 1, double r1 = 0);

/// Monomial modes u², …, u^{n+1} along y and along z (2n modes), then a linear torsion u when `torsion`; n from 1
/// to 8 (Rayleigh–Ritz with n modes per direction).
std::vector<AssumedMode> monomialModes(int n, bool torsion);

/// The mode's shape f(u) at the stations u (each in [0, 1]; u = x/L): its polynomial, or its table's spline as
/// flexibleLinkMatrices integrates it (so f(1) is the tip value the chain uses). For drawing a deflected beam.
std::vector<double> modeShapeValues(const AssumedMode& mode, const std::vector<double>& u);

/// Natural modes of the link alone with its root clamped: det(K − ω²·I_qq) = 0 (uncoupled from the chain).
NaturalModes clampedLinkModes(const FlexibleLinkMatrices& link);

/// One flexible link of a robot file: the joint whose link it is, and its description in SI (body = that joint's
/// link inertial, so the beam's mass is the link's mass).
struct FlexibleLinkEntry {
  int joint = -1;
  FlexibleLink link;
  /// SI per file unit of each modal coordinate (the file's length unit for a bending mode, its angle unit for a
  /// torsion mode): q_SI = coordinate_unit[j]·q_file. For printing results back in the file's units.
  std::vector<double> coordinate_unit;
};

/// The flexible links of a robot file and the file's units (SI per file unit), for printing results in them.
struct FlexibleLinks {
  std::vector<FlexibleLinkEntry> links;  ///< in joint order
  double length_unit = 1, angle_unit = 1, mass_unit = 1, force_unit = 1, torque_unit = 1;
  /// The entry of joint `joint`, or nullptr.
  const FlexibleLinkEntry* find(int joint) const;
};

}  // namespace achain
