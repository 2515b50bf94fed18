// Kinematic influence coefficients (Freeman 1985 Ch. II; Thomas & Tesar 1982) of serial/tree
// chains with R, P, H and A joints: first order G, second order H, third order D of
//   * the rotation of a link  (ω = G q̇;  ω̇ = G q̈ + q̇ᵀHq̇)          rows "ω"
//   * a point fixed on a link (ṗ = G q̇;  p̈ = G q̈ + q̇ᵀHq̇)            rows "v"
// Index order follows Freeman (2-6), (2-17), (2-42):
//   G(p, n) = g^p_n = ∂u_p/∂q_n,  H(p, m, n) = h^p_{mn} = ∂g^p_n/∂q_m,  D(p, l, m, n) = ∂h^p_{mn}/∂q_l.
// Rotational H is NOT symmetric in (m, n) (h_{mn} = w_m × w_n for m before n, 0 otherwise);
// translational H and D are symmetric.
//
// Per joint i (axis z_i, a point o_i on it, both before the joint's own motion):
//   w_i = (∂θ/∂q)·z_i  (s for R/H/A, 0 for P),  b_i = ∂dz/∂q,  b_i' = ∂²dz/∂q²,  b_i'' = ∂³dz/∂q³,
//   all from the joint model through Data (rot_rate, axial_rate, axial_curv, axial_jerk).
// Joints that follow one coordinate (mimics) add into its column; fixed joints have none.
// Translation of point P on link k (i < k means "i is a strict ancestor of k"):
//   g_n = w_n × (P − o_n) + b_n z_n
//   h_{mn} = w_i × g_k  with i = min, k = max (i ≠ k);   h_{nn} = w_n × g_n + b_n' z_n
//   d_{l,mn}: derivative of the above (implemented in influence.cpp; the A-pair's b'' enters d_{nnn}).
#pragma once
#include <achain/model/data.hpp>
#include <achain/math/tensor3.hpp>

namespace achain {

/// The names of a frame's six influence rows (translation x, y, z; rotation wx, wy, wz; world frame), as the CLI,
/// JS and the core's messages spell them.
inline constexpr const char* kInfluenceRowNames[6] = {"x", "y", "z", "wx", "wy", "wz"};

/// Influence coefficients of the 6-vector u = (ṗ of a point; ω of its link):
/// rows 0–2 translation of the point, rows 3–5 rotation of the link (the Jacobian's row order),
/// all in the base (world) frame. G is the geometric Jacobian.
struct Influence {
  MatX G;     ///< 6×nv
  Tensor3 H;  ///< 6×nv×nv
  Tensor4 D;  ///< 6×nv×nv×nv (filled only for order 3)
  int order = 0;  ///< highest order computed (1, 2 or 3)
};

/// G, H (order ≥ 2) and D (order 3) of the point `point_in_link` (link coordinates) on link `link`
/// (0-based; the body joint `link` moves), after forwardKinematics(). `out` is resized on first use
/// and reused without allocation afterwards. Throws achain::Error for a bad link or order.
void influence(const Model& model, const Data& data, int link, const Vec3& point_in_link, Influence& out,
               int order = 2);

/// The same for the tool frame (point = tool origin, link = the tool's link).
void toolInfluence(const Model& model, const Data& data, Influence& out, int order = 2);

/// Rotation of link `link` only: G is 3×nv; H (if non-null) 3×nv×nv; D (if non-null) 3×nv×nv×nv.
/// H and D are resized as needed.
void rotationInfluence(const Model& model, const Data& data, int link, Eigen::Ref<MatX> G, Tensor3* H = nullptr,
                       Tensor4* D = nullptr);

/// A point fixed on link `link` (link coordinates) only: G 3×nv, H 3×nv×nv, D 3×nv×nv×nv.
void pointInfluence(const Model& model, const Data& data, int link, const Vec3& point_in_link, Eigen::Ref<MatX> G,
                    Tensor3* H = nullptr, Tensor4* D = nullptr);

/// ü = G q̈ + q̇ᵀ H q̇  (Freeman 2-27). out has G.rows() entries.
void influenceAcceleration(const MatX& G, const Tensor3& H, const Eigen::Ref<const VecX>& qd,
                           const Eigen::Ref<const VecX>& qdd, Eigen::Ref<VecX> out);

/// u⃛ = G q⃛ + Σ_{a,b}(2h_ab + h_ba) q̇_a q̈_b + Σ d_lmn q̇_l q̇_m q̇_n  (Freeman 2-44, weighting as derived).
void influenceJerk(const MatX& G, const Tensor3& H, const Tensor4& D, const Eigen::Ref<const VecX>& qd,
                   const Eigen::Ref<const VecX>& qdd, const Eigen::Ref<const VecX>& qddd, Eigen::Ref<VecX> out);

}  // namespace achain
