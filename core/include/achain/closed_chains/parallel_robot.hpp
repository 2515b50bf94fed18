// A parallel mechanism as a whole (Freeman 1985 §IV.B; digest §4.3, App. E = §6.3): N legs, each an open chain
// (its own Model) from the ground to the platform, whose tool frame is the platform frame (the platform's centroid
// and axes); the platform's N freedoms w; N actuated joints. Read from a parallel robot file
// (io/parallel_json.hpp, docs/robot-format.md#parallel-mechanisms) or built in code.
//
// At a platform pose every leg's joints follow by Newton on its tool pose (legInverseKinematics); the legs are
// then transferred to w and summed with the platform (parallelModel, closed_chains/parallel.hpp), and actuated at the
// declared joints (parallelActuate). The loads the actuators apply for platform rates (ẇ, ẅ):
//   q̇ = [G^q_w] ẇ,  q̈ = [G^q_w] ẅ + ẇᵀ[H^q_ww] ẇ,  T_q = I*_qq q̈ + q̇ᵀP*_qqq q̇ − T^L_q
//   (= [G^w_q]ᵀ T_w with T_w = I*_ww ẅ + ẇᵀP*_www ẇ − T^L_w, the load on the platform's freedoms).
// Planar mechanisms move in the world xy-plane: w = (x, y, θz); spatial ones have w rates (v, ω) in the world
// frame (ω is a quasi-coordinate rate).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include <achain/closed_chains/loop_closure.hpp>
#include <achain/closed_chains/parallel.hpp>

namespace achain {

struct ParallelRobot {
  std::string name, description;
  std::vector<std::string> notes;
  bool planar = true;
  std::vector<Model> legs;
  std::vector<std::string> leg_names;
  std::vector<VecX> assembly;                ///< per leg: the start of its inverse kinematics (SI)
  double platform_mass = 0;
  Mat3 platform_inertia = Mat3::Zero();      ///< about the centroid, in the platform frame
  SE3 pose;                                  ///< the platform's reference pose (world)
  std::vector<std::pair<int, int>> actuated; ///< (leg, coordinate of that leg), N of them

  int freedoms() const { return planar ? 3 : 6; }
};

/// The platform pose of a planar mechanism from (x, y, θz), at the height and tilt-free frame of `reference`.
SE3 planarPose(double x, double y, double theta, const SE3& reference);
/// The pose's coordinates: (x, y, θz) planar, (x, y, z, roll, pitch, yaw) spatial (rpy as the robot file's).
VecX poseCoordinates(const SE3& pose, bool planar);
SE3 poseFromCoordinates(const Eigen::Ref<const VecX>& c, bool planar, const SE3& reference);

/// Every leg's joints at the platform pose: Newton on leg r's tool frame, started from q[r] (the assembly when
/// q[r] is empty), until the tool frame is the platform frame to `tol` (relative to the leg's reach; angles in rad).
/// Returns the iterations per leg. Throws achain::Error "parallel.legs[r] (name): the platform pose is out of this
/// leg's reach: …" when a leg does not close.
std::vector<int> legInverseKinematics(const ParallelRobot& robot, std::vector<Data>& datas, const SE3& pose,
                                      std::vector<VecX>& q, double tol = 1e-12, int max_iter = 100);

/// The mechanism at one platform pose: the legs' joints, the summed model in w and the actuated model in q.
struct ParallelState {
  SE3 pose;
  std::vector<VecX> q;            ///< per leg joint coordinates
  std::vector<int> iterations;    ///< Newton iterations per leg
  ParallelModel pm;               ///< legs in w, summed with the platform (4-42…4-54)
  MatX Gq_w;                      ///< [G^q_w] (4-56…4-58)
  Tensor3 Hq_ww;                  ///< [H^q_ww] (4-59, 4-60)
  FreemanModel q_model;           ///< I*_qq, P*_qqq, T^L_q (4-61…4-64)
};

/// Builds the state at `pose` (legs solved from st.q when it holds one start per leg, else from the assembly).
/// Errors name the leg: a pose out of its reach, a singular leg Jacobian [_rG^w_φ], a singular [G^q_w].
void parallelAt(const ParallelRobot& robot, std::vector<Data>& datas, const SE3& pose, const DynamicsOptions& options,
                ParallelState& st);

/// Rates and loads for platform rates ẇ, ẅ.
struct ParallelMotion {
  std::vector<VecX> qd, qdd;  ///< per leg joint rates (3-14), (3-16)
  VecX q_d, q_dd;             ///< actuated joints' rates
  VecX Tw, Tq;                ///< loads on w and at the actuators
};
void parallelMotion(const ParallelState& st, const Eigen::Ref<const VecX>& wd, const Eigen::Ref<const VecX>& wdd,
                    ParallelMotion& out);

/// The same rates and loads as parallelAt + parallelMotion, in one pass over the legs (issue 34): no I*, P* or
/// their transfer. q: every leg's joints closed at `pose` (legInverseKinematics). Per leg r, [_rG^w_φ] is the N
/// closure rows of its tool Jacobian; φ̇_r = [_rG^w_φ]⁻¹ ẇ, φ̈_r = [_rG^w_φ]⁻¹ (ẅ − the rows of J̇φ̇_r) (4-42…4-45
/// without [_rH^φ_ww]); one RNEA of the leg at (φ_r, φ̇_r, φ̈_r) gives τ_r. By virtual work
///   T_w = (m a − m g; II α + ω × II ω) + Σ_r [_rG^w_φ]⁻ᵀ τ_r    (the platform in the plane: (m a_xy − m g_xy; I_zz θ̈))
/// and [G^q_w]ᵀ T_q = T_w, row n of [G^q_w] being row m of [_rG^w_φ]⁻¹ for actuator n = (r, m); q̇, q̈ of the
/// actuators are the legs' own. N ≤ 6 solves are fixed-size: no allocation once `out` and the Data have run.
/// Joint friction (options.friction) acts at the legs' rates here, while parallelModel builds its legs at rest.
/// Errors name what is wrong: the sizes, a leg's singular [_rG^w_φ], a singular [G^q_w].
void parallelInverseDynamics(const ParallelRobot& robot, std::vector<Data>& datas, const SE3& pose,
                             const std::vector<VecX>& q, const Eigen::Ref<const VecX>& wd,
                             const Eigen::Ref<const VecX>& wdd, const DynamicsOptions& options, ParallelMotion& out);

}  // namespace achain
