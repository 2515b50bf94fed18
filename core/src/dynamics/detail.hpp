// Internal pieces shared by the dynamics algorithms (not part of the public API).
#pragma once
#include <algorithm>
#include <cmath>
#include <string>

#include <achain/kinematics/fk.hpp>
#include <achain/math/progress.hpp>
#include <achain/math/text.hpp>
#include <achain/dynamics/options.hpp>
#include <achain/model/data.hpp>

namespace achain::dyn_detail {

/// How often a stepping loop of `steps` steps asks its Progress: every 1 % of the run or every 1000 steps,
/// whichever comes first (a 1e8-step run is stopped within 1000 steps, not within a million).
inline int progressTick(int steps) { return std::max(1, std::min(steps / 100, 1000)); }

/// The Cancelled error of a stepping loop stopped after `step` of `steps` steps, at time t.
inline Cancelled cancelledAt(const char* what, int step, int steps, double t) {
  return Cancelled(std::string(what) + ": cancelled at step " + std::to_string(step) + " of " + std::to_string(steps) +
                   " (t = " + shortNumber(t) + " s)");
}

/// Entry k of a joint-space vector, 0 for a joint without a coordinate (k = −1: fixed).
inline double at(const Eigen::Ref<const VecX>& x, int k) { return k < 0 ? 0.0 : x[k]; }

/// Which parts of the bodies' inertia a pass uses (Lee's split is linear in them).
struct Parts {
  bool trans = true;  ///< masses (links, leg points, leg weights)
  bool rot = true;    ///< rotational inertia about the CoMs
};

/// Gravity in the world frame for these options.
inline Vec3 gravityVector(const Model& m, const DynamicsOptions& o) { return o.gravityOf(m.gravity); }

/// Classical acceleration of the world point x moving with body i (−1 = the base, whose spatial
/// acceleration is (0, a_base)).
inline Vec3 pointAcceleration(const Data& data, int i, const Vec3& x, const Vec3& a_base) {
  if (i < 0) return a_base;
  const Vec3& w = data.dyn.V_w[i];
  return data.dyn.A_v[i] + data.dyn.A_w[i].cross(x) + w.cross(data.dyn.V_v[i] + w.cross(x));
}

/// World position of a leg's base anchor.
inline Vec3 legBase(const Data& data, const DynLeg& L) {
  return L.parent < 0 ? L.B : data.oMi[L.parent].act(L.B);
}

/// RNEA core: τ for (q̇, q̈) with base acceleration −g_accel (g_accel = gravity for the full
/// dynamics, 0 for none), bodies of leg model `legs`, parts `parts`. FK must already be in data
/// (set run_fk to compute it). Adds nothing for motors/friction/wrench.
/// Spatial inertia of body b about the world origin, blocks (angular, linear), for the link pose oMi.
/// The rotational block about the origin is I_o = R·I_c·Rᵀ − m·[c]×[c]× = R·I_c·Rᵀ + (h·c)·1 − h·cᵀ with
/// h = m·c (the first moment), since [c]×[c]× = c·cᵀ − (c·c)·1: 12 multiplies where m·[c]×·[c]× costs 36.
inline void rotationalInertiaAtOrigin(const DynBody& b, const SE3& oMi, Mat3& Io, Vec3& h) {
  const Vec3 c = oMi.act(b.com);
  h = b.mass * c;
  Io.noalias() = oMi.R * b.inertia * oMi.R.transpose();
  Io.noalias() -= h * c.transpose();
  Io.diagonal().array() += h.dot(c);
}

inline void spatialInertiaAtOrigin(const DynBody& b, const SE3& oMi, Eigen::Matrix<double, 6, 6>& I) {
  Mat3 Io;
  Vec3 h;
  rotationalInertiaAtOrigin(b, oMi, Io, h);
  Mat3 H;  // [h]× = m·[c]×
  H << 0, -h.z(), h.y(), h.z(), 0, -h.x(), -h.y(), h.x(), 0;
  I.topLeftCorner<3, 3>() = Io;
  I.topRightCorner<3, 3>() = H;
  I.bottomLeftCorner<3, 3>() = -H;
  I.bottomRightCorner<3, 3>() = b.mass * Mat3::Identity();
}

/// Reflected rotor inertia J_m·G² of a motor, seen at the joint.
inline double reflectedInertia(const Motor& mo) { return mo.rotor_inertia * mo.gear_ratio * mo.gear_ratio; }

/// Adds the reflected rotor inertias of the joints with a motor to the diagonal of a joint-space matrix.
template <class Matrix>
void addRotorInertias(const Model& model, Matrix& M) {
  for (int i = 0; i < model.njoints(); ++i) {
    const Motor& mo = model.joints[i].motor;
    if (mo.present && model.jmodels[i].independent) M(model.idx_q[i], model.idx_q[i]) += reflectedInertia(mo);
  }
}

/// Joint-side friction torque of a motor at joint rate v: G²·viscous·v ± |G|·Coulomb.
inline double motorFriction(const Motor& mo, double v) {
  const double G = mo.gear_ratio;
  double t = G * G * mo.viscous * v;
  if (v > 0) t += std::abs(G) * mo.coulomb_pos;
  else if (v < 0) t -= std::abs(G) * mo.coulomb_neg;
  return t;
}

void rnea(const Model& model, Data& data, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& qd,
          const Eigen::Ref<const VecX>& qdd, const Vec3& g, LegModel legs, Parts parts, Eigen::Ref<VecX> tau,
          bool run_fk);

/// Motor, friction and wrench terms added on top of the rigid-body τ (q̈ for the rotor term).
void addActuationTerms(const Model& model, Data& data, const Eigen::Ref<const VecX>& qd,
                       const Eigen::Ref<const VecX>& qdd, const DynamicsOptions& o, Eigen::Ref<VecX> tau);

/// The joint-limit stops of the options, added to f = τ − b (M: the CRBA mass matrix at q; forward.cpp).
void addLimitStops(const Model& model, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& qd,
                   const Eigen::Ref<const MatX>& M, const DynamicsOptions& o, VecX& f);

/// Jᵀh_e for the options' wrench (FK in data).
void addWrench(const Model& model, Data& data, const DynamicsOptions& o, Eigen::Ref<VecX> tau);

}  // namespace achain::dyn_detail
