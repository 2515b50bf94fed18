// Geometric Jacobians: rows (v, ω), v of a point fixed on a link, in the base (world) frame
// unless asked otherwise. Column i is the twist of joint i per unit q_i:
//   ω = (∂θ/∂q)·z,  v = ω × (p − o) + (∂dz/∂q)·z
// with z, o the joint's axis and origin; an A-pair adds (ρ/2)·cos(θ_v/2)·z, an H-pair pitch·z.
#pragma once
#include "data.hpp"

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

}  // namespace achain
