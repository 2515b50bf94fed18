// Scratch workspace for the algorithms: sized once from a Model, reused every call.
#pragma once
#include <Eigen/Cholesky>
#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include <achain/math/tensor3.hpp>

#include <achain/model/model.hpp>

namespace achain {

/// One joint on the path from the base to a link, in world coordinates (kinematics scratch).
struct PathJoint {
  int col = 0;   ///< column (the coordinate the joint follows)
  Vec3 z;        ///< axis
  Vec3 w;        ///< (∂θ/∂q)·z
  Vec3 g;        ///< translational influence of the point: w × (P − o) + b z
  Vec3 after;    ///< scratch of J̇: w × (velocity of the point due to the joints after this one)
  double b2 = 0; ///< ∂²dz/∂q²
  double b3 = 0; ///< ∂³dz/∂q³
};

struct Data;
/// The error checkData throws (the model each was made for, by size and name).
[[noreturn]] void failDataMismatch(const Model& model, const Data& data);

/// Scratch for one thread: sized once from a Model, reused by every algorithm without allocation.
/// Each area's scratch sits in its own sub-block; results that callers read (oMi, oMtool, …) are
/// the top-level fields. No algorithm keeps state elsewhere (no statics), so threads that each own a
/// Data can share one Model.
struct Data {
  explicit Data(const Model& m);

  int nv = 0;       ///< the model size Data was made for (checkData)
  int njoints = 0;
  std::uint64_t model_fingerprint = 0;  ///< Model::fingerprint of the model Data was made for (checkData)

  std::vector<SE3> oMi;    ///< world ← link frame i (after FK)
  std::vector<SE3> oMj;    ///< world ← axis frame of joint i (z = joint axis, before its motion)
  SE3 oMtool;              ///< world ← tool frame
  std::vector<double> theta;  ///< total rotation about the joint axis (θ_f + s·q)
  std::vector<double> dz;     ///< total translation along the joint axis
  // Each joint's state from its joint model (model.jmodels[i].evaluate), derivatives with respect to the
  // coordinate the joint follows (model.idx_q[i]; zero for a fixed joint):
  std::vector<double> rot_rate;    ///< ∂θ/∂q: s for R/H/A, 0 for P
  std::vector<double> axial_rate;  ///< ∂dz/∂q: 0 (R), s (P), pitch·s (H), (ρ/2)·cos(q/2) (A)
  std::vector<double> axial_curv;  ///< ∂²dz/∂q²: −(ρ/4)·sin(q/2) for an A-pair
  std::vector<double> axial_jerk;  ///< ∂³dz/∂q³: −(ρ/8)·cos(q/2) for an A-pair

  /// Kinematics scratch (J̇, influence coefficients, statics). Mutable: it holds no result, so
  /// algorithms that take a const Data& (after FK) may still use it.
  struct Kinematics {
    std::vector<PathJoint> path;  ///< joints moving one link, base first
    MatX J;                       ///< a 6×nv Jacobian
  };
  mutable Kinematics kin;

  /// Dynamics (RNEA, CRBA, ABA, Coriolis, forward dynamics, integrators, Lee, Freeman).
  struct Dynamics {
    // per-joint, world frame, spatial vectors about the world origin
    std::vector<Vec3> S_w, S_v;     ///< motion subspace per unit q̇ (ω part, linear part at the origin)
    std::vector<Vec3> V_w, V_v;     ///< spatial velocity
    std::vector<Vec3> A_w, A_v;     ///< spatial acceleration (includes −g at the base)
    std::vector<Vec3> F_n, F_f;     ///< spatial force (moment about the origin, force)
    std::vector<Vec3> com_w;        ///< CoM in the world
    std::vector<Mat3> Ic_w;         ///< inertia about the CoM, world axes
    std::vector<double> mass;       ///< body mass for the current leg model
    std::vector<Eigen::Matrix<double, 6, 6>> Icomp;  ///< composite (CRBA) / articulated (ABA) inertias
    std::vector<Eigen::Matrix<double, 6, 1>> U6;     ///< ABA: U_i = IA_i S_i
    VecX tmp_a, tmp_b, tmp_c, tmp_d, zero;
    MatX M;                 ///< mass matrix scratch (forward dynamics)
    MatX MinvJt;            ///< nv×6 scratch: M⁻¹Jᵀ (operational-space inertia)
    Eigen::LLT<MatX> llt;   ///< Cholesky of M (forward dynamics)
    VecX k_q[4], k_v[4], q_stage, v_stage;  ///< integrator stages
  } dyn;

  /// Batch calls (dynamics/batch.hpp): the vectorised kernels' lane scratch and the call's constants in
  /// plain numbers, in one buffer sized on the first batch call with this Data (no allocation after it).
  struct Batch {
    std::vector<double> buffer;
  } batch;

  /// Inverse kinematics: the numeric solver's Levenberg–Marquardt scratch (the closed form's chain
  /// constants are the Model's: Model::closed_form).
  struct InverseKinematics {
    MatX J;         ///< 6×nv tool Jacobian (base frame)
    MatX Jw;        ///< weighted rows
    MatX A;         ///< JᵀJ (nv×nv)
    MatX Ar;        ///< reduced (active-set) system
    VecX e, g, dq, q, qtry, qbest, best_start, qkeep, gr, dqr, lo, hi;
    Eigen::VectorXi free_idx;
    Eigen::LLT<MatX> llt;  ///< Cholesky of the damped normal matrix (SPD)
    std::mt19937_64 rng;   ///< restarts (seeded from IkOptions::random_seed on each solve)
  } ik;

  /// Freeman's I*/P* form (influence coefficients of the bodies' points and rotations).
  struct Freeman {
    MatX Gc, Gw, Gb, Gp;
    Tensor3 Hc, Hw, Hb, Hp;
    VecX tmp;
  } freeman;
};

/// Throws achain::Error naming the mismatch when data was made for another model: a Data carries only
/// scratch sized for its model, and records that model's fingerprint, so one made for another model (even of the
/// same size) is refused rather than used. Checked on entry by FK, the dynamics and IK.
inline void checkData(const Model& model, const Data& data) {
  // one compare on the hot path: the fingerprint covers the joint count and every coordinate's kind
  if (__builtin_expect(data.model_fingerprint != model.fingerprint, 0)) failDataMismatch(model, data);
}

}  // namespace achain
