// Lee, Lee & Nigam (1982) generalized d'Alembert (G-D) equations of motion, reference digest
// handbook-puma-lee.md §2.4 (Eqs. L-29…L-33), extended from rotary joints to R/P/H/A joints:
//
//   τ_i = Σ_j D_ij q̈_j + h_i^tran + h_i^rot + c_i            (+ rotor, friction, Jᵀh_e as in RNEA)
//   D_ij = Σ_s [ m_s g_is·g_js  +  w_iᵀ Ic_s w_j ]           (translational + rotational)
//   h_i^tran = Σ_s m_s a_s^vp · g_is,   h_i^rot = Σ_s w_i·(Ic_s α_s^vp + ω_s × Ic_s ω_s)
//   c_i = −g · Σ_s m_s g_is
// with w_j = (∂θ/∂q)z_j the joint's rotation axis, g_js = w_j × (c_s − o_j) + b_j z_j the CoM's
// translational influence (b_j = ∂dz/∂q: the A-pair's (ρ/2)cos(q/2)), a_s^vp and α_s^vp the
// velocity-product (q̈ = 0) accelerations written out as Lee's explicit cross-product sums
// (Eq. L-16 generalized: the A-pair adds b'_j q̇_j² z_j and 2 b_j q̇_j ω × z_j terms).
// Bodies and leg masses follow the leg model exactly as in RNEA (leg midpoints are translational).
// O(n³), like the paper's G-D count; use RNEA for speed and this for structure.
#pragma once
#include <achain/dynamics/options.hpp>

namespace achain {

struct LeeTerms {
  MatX D, D_tran, D_rot;   ///< D = D_tran + D_rot (+ rotor inertia on the diagonal when motors)
  VecX h_tran, h_rot, c;   ///< velocity terms and gravity loading
  VecX other;              ///< friction + Jᵀh_e (zero unless asked)
  void resize(int n);
};

/// The simplified-model switch (Lee §3): rows i < translational_joints keep only the translational
/// parts of D and h, the remaining rows only the rotational parts (c_i kept everywhere).
struct LeeOptions {
  bool simplified = false;
  int translational_joints = 3;
};

/// All G-D terms at (q, q̇). Runs forward kinematics into data.
void leeTerms(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
              const Eigen::Ref<const VecX>& qd, const DynamicsOptions& options, LeeTerms& out);

/// τ = D q̈ + h^tran + h^rot + c (+ other), honouring the simplified-model switch.
void leeInverseDynamics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                        const Eigen::Ref<const VecX>& qd, const Eigen::Ref<const VecX>& qdd,
                        const DynamicsOptions& options, const LeeOptions& lee, LeeTerms& terms,
                        Eigen::Ref<VecX> tau);

}  // namespace achain
