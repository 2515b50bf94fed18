// Scratch space of the dynamics algorithms: sized once from a Model, then reused by every call
// (inverseDynamics, massMatrix, coriolisMatrix, forwardDynamics, integrators, Lee, Freeman) without
// allocating. One workspace per thread; it remembers the model size it was made for.
#pragma once
#include <Eigen/Cholesky>
#include <array>
#include <vector>

#include <achain/model/data.hpp>
#include <achain/dynamics/options.hpp>

namespace achain {

/// Mass properties of one rigid body as the dynamics sees it (link frame): the link itself plus,
/// depending on the leg model, the leg masses rigidly attached to it.
struct DynBody {
  double mass = 0;
  Vec3 com = Vec3::Zero();      ///< link frame
  Mat3 inertia = Mat3::Zero();  ///< about the CoM, link axes
};

/// One A-pair leg: base anchor B (fixed on the joint's parent link, in that link's frame — or in the
/// base frame when the parent is the base) and platform anchor P (fixed on the joint's link).
struct DynLeg {
  int joint = -1;
  int parent = -1;
  Vec3 B = Vec3::Zero();
  Vec3 P = Vec3::Zero();
  double mass = 0;  ///< one leg
};

struct DynamicsWorkspace {
  explicit DynamicsWorkspace(const Model& model);

  int nv = 0;
  int njoints = 0;
  Data data;
  /// Rigid bodies for each LegModel (index = static_cast<int>(LegModel)).
  std::array<std::vector<DynBody>, 4> bodies;
  std::vector<DynLeg> legs;  ///< every leg of every A-pair with leg_mass > 0

  // ---- per-joint scratch, world frame, spatial vectors about the world origin ----
  std::vector<Vec3> S_w, S_v;     ///< motion subspace per unit q̇ (ω part, linear part at the origin)
  std::vector<Vec3> V_w, V_v;     ///< spatial velocity
  std::vector<Vec3> A_w, A_v;     ///< spatial acceleration (includes −g at the base)
  std::vector<Vec3> F_n, F_f;     ///< spatial force (moment about the origin, force)
  std::vector<Vec3> com_w;        ///< CoM in the world
  std::vector<Mat3> Ic_w;         ///< inertia about the CoM, world axes
  std::vector<double> mass;       ///< body mass for the current leg model
  std::vector<Eigen::Matrix<double, 6, 6>> Icomp;  ///< composite (CRBA) / articulated (ABA) spatial inertias
  std::vector<Eigen::Matrix<double, 6, 1>> U6;     ///< ABA: U_i = IA_i S_i

  // ---- vectors and matrices ----
  VecX tmp_a, tmp_b, tmp_c, tmp_d, zero;
  MatX M;                 ///< mass matrix scratch (forward dynamics)
  MatX J3;                ///< 3×nv scratch (leg-point Jacobians)
  Eigen::LLT<MatX> llt;   ///< Cholesky of M (forward dynamics)
  // integrator stages
  VecX k_q[4], k_v[4], q_stage, v_stage;
};

/// Throws achain::Error when the workspace was made for a model of another size.
void checkWorkspace(const Model& model, const DynamicsWorkspace& ws);

}  // namespace achain
