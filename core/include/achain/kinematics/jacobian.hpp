// Geometric Jacobians: rows (v, ω), v of a point fixed on a link, in the base (world) frame
// unless asked otherwise. Column i is the twist of joint i per unit q_i:
//   ω = (∂θ/∂q)·z,  v = ω × (p − o) + (∂dz/∂q)·z
// with z, o the joint's axis and origin; an A-pair adds (ρ/2)·cos(θ_v/2)·z, an H-pair pitch·z.
// Also: the time derivative J̇ (and J̇·q̇), and an analytical Jacobian for roll-pitch-yaw angles.
// Higher orders (Freeman's H, D) are in influence.hpp.
#pragma once
#include <achain/model/data.hpp>

namespace achain {

enum class Frame { Base, Tool };


/// Jacobian of a point fixed on link `link` (coordinates in that link's frame) after
/// forwardKinematics(). J must be 6×nv; columns of joints that do not move the link are zero.
void pointJacobian(const Model& model, const Data& data, int link, const Vec3& point_in_link,
                   Eigen::Ref<MatX> J);

/// Jacobian of the tool frame (reference point: the tool origin), in the base or tool frame.
void toolJacobian(const Model& model, const Data& data, Eigen::Ref<MatX> J, Frame frame = Frame::Base);

/// True if joint j moves link k (j is k or one of its ancestors).
bool supports(const Model& model, int j, int k);

/// Rows of a base-frame Jacobian re-expressed in the frame with rotation R (world ← frame):
/// J_frame = diag(Rᵀ, Rᵀ)·J (handbook Eq. H-47). In place.
void rotateJacobian(const Mat3& R, Eigen::Ref<MatX> J);

/// dJ/dt of pointJacobian (base frame) for joint rates qd: J̇(p, n) = Σ_m h^p_{mn} q̇_m.
/// O(n) per column, no allocation. The A-pair's ∂²dz/∂q² enters its own column.
void pointJacobianDerivative(const Model& model, const Data& data, int link, const Vec3& point_in_link,
                             const Eigen::Ref<const VecX>& qd, Eigen::Ref<MatX> Jdot);

/// dJ/dt of the tool Jacobian (base frame, reference point the tool origin).
void toolJacobianDerivative(const Model& model, const Data& data, const Eigen::Ref<const VecX>& qd,
                            Eigen::Ref<MatX> Jdot);

/// J̇·q̇ of the tool: the tool's (linear; angular) acceleration at q̈ = 0, base frame.
Vec6 toolJacobianDotTimesQdot(const Model& model, const Data& data, const Eigen::Ref<const VecX>& qd);

// ---- analytical Jacobian: orientation as roll-pitch-yaw, R = Rz(yaw)·Ry(pitch)·Rx(roll) ----

/// (roll, pitch, yaw) of a rotation matrix, pitch in [−π/2, π/2] (the inverse of rpyToMatrix); exact to rounding at
/// any pitch (at ±90° yaw is 0 and roll carries the rest). The URDF export writes origins with it.
Vec3 matrixToRpy(const Mat3& R);

/// E(rpy) with ω = E·(roll˙, pitch˙, yaw˙) (base frame). det E = cos(pitch).
Mat3 rpyRateMatrix(const Vec3& rpy);

/// Analytical Jacobian of the tool: rows (ẋ, ẏ, ż, roll˙, pitch˙, yaw˙) = diag(I, E⁻¹)·J.
/// Throws achain::Error when |cos(pitch)| < 1e-9 (the representation singularity at pitch = ±90°).
void analyticalJacobian(const Model& model, const Data& data, Eigen::Ref<MatX> Ja);

}  // namespace achain
