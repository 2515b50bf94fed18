#include <achain/dynamics/rnea.hpp>

#include "detail.hpp"

namespace achain {
namespace dyn_detail {

void rnea(const Model& model, Data& data, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& qd,
          const Eigen::Ref<const VecX>& qdd, const Vec3& g, LegModel legs, Parts parts, Eigen::Ref<VecX> tau,
          bool run_fk) {
  Data& d = data;
  if (run_fk) forwardKinematics(model, d, q);  // checks data against model
  else checkData(model, data);
  const int n = model.njoints();
  const auto& bodies = model.bodies[static_cast<int>(legs)];
  const Vec3 a_base = -g;
  tau.setZero();
  // Forward pass: velocities and accelerations (spatial, world frame, about the origin).
  for (int i = 0; i < n; ++i) {
    const Joint& j = model.joints[i];
    const int k = model.idx_q[i];
    const Vec3 z = d.oMj[i].R.col(2);
    const Vec3& o = d.oMj[i].p;
    const Vec3 sw = d.rot_rate[i] * z;
    const Vec3 sv = o.cross(sw) + d.axial_rate[i] * z;
    data.dyn.S_w[i] = sw;
    data.dyn.S_v[i] = sv;
    const double v = at(qd, k), a = at(qdd, k);
    Vec3 pw, pv, paw, pav;
    if (j.parent < 0) {
      pw.setZero();
      pv.setZero();
      paw.setZero();
      pav = a_base;
    } else {
      pw = data.dyn.V_w[j.parent];
      pv = data.dyn.V_v[j.parent];
      paw = data.dyn.A_w[j.parent];
      pav = data.dyn.A_v[j.parent];
    }
    data.dyn.V_w[i] = pw + sw * v;
    data.dyn.V_v[i] = pv + sv * v;
    // A = A_p + S q̈ + (V_p ×m S) q̇ + (0, b'(q) q̇² z)
    data.dyn.A_w[i] = paw + sw * a + pw.cross(sw) * v;
    data.dyn.A_v[i] = pav + sv * a + (pw.cross(sv) + pv.cross(sw)) * v + (d.axial_curv[i] * v * v) * z;
    // Body force.
    const DynBody& b = bodies[i];
    const Mat3& R = d.oMi[i].R;
    Vec3 n_o = Vec3::Zero(), f = Vec3::Zero();
    if (parts.trans && b.mass != 0) {
      const Vec3 c = d.oMi[i].act(b.com);
      const Vec3& w = data.dyn.V_w[i];
      const Vec3 ac = data.dyn.A_v[i] + data.dyn.A_w[i].cross(c) + w.cross(data.dyn.V_v[i] + w.cross(c));
      f = b.mass * ac;
      n_o = c.cross(f);
    }
    if (parts.rot) {
      const Vec3 wl = R.transpose() * data.dyn.V_w[i];
      const Vec3 al = R.transpose() * data.dyn.A_w[i];
      n_o += R * (b.inertia * al + wl.cross(b.inertia * wl));
    }
    data.dyn.F_n[i] = n_o;
    data.dyn.F_f[i] = f;
  }
  // Legs that are not rigid with one body.
  if (parts.trans && (legs == LegModel::Full || legs == LegModel::PotentialOnly)) {
    for (const DynLeg& L : model.legs) {
      const Vec3 B = legBase(data, L);
      const Vec3 P = d.oMi[L.joint].act(L.P);
      Vec3 half;  // force supplied at each end
      if (legs == LegModel::Full) {
        // Midpoint particle 2m/3 (the m/6 end masses are in the bodies).
        const Vec3 aB = pointAcceleration(data, L.parent, B, a_base);
        const Vec3 aP = pointAcceleration(data, L.joint, P, a_base);
        half = (L.mass / 3.0) * 0.5 * (aB + aP);
      } else {
        half = -0.5 * L.mass * g;  // weight only
      }
      data.dyn.F_f[L.joint] += half;
      data.dyn.F_n[L.joint] += P.cross(half);
      if (L.parent >= 0) {
        data.dyn.F_f[L.parent] += half;
        data.dyn.F_n[L.parent] += B.cross(half);
      }
    }
  }
  // Backward pass.
  for (int i = n - 1; i >= 0; --i) {
    // Joints that follow one coordinate (mimics) add into it; a fixed joint has none.
    if (model.idx_q[i] >= 0)
      tau[model.idx_q[i]] += data.dyn.S_w[i].dot(data.dyn.F_n[i]) + data.dyn.S_v[i].dot(data.dyn.F_f[i]);
    const int p = model.joints[i].parent;
    if (p >= 0) {
      data.dyn.F_n[p] += data.dyn.F_n[i];
      data.dyn.F_f[p] += data.dyn.F_f[i];
    }
  }
}

void addWrench(const Model& model, Data& data, const DynamicsOptions& o, Eigen::Ref<VecX> tau) {
  if (!o.use_wrench) return;
  const Data& d = data;
  Vec3 f = o.wrench.head<3>(), m = o.wrench.tail<3>();
  if (o.wrench_frame == WrenchFrame::Tool) {
    f = d.oMtool.R * f;
    m = d.oMtool.R * m;
  }
  // Spatial force about the origin the tool link must supply: (m + p × f, f).
  const Vec3 n_o = m + d.oMtool.p.cross(f);
  for (int i = model.toolLink(); i >= 0; i = model.joints[i].parent) {
    const Vec3 z = d.oMj[i].R.col(2);
    const Vec3 sw = d.rot_rate[i] * z;
    const Vec3 sv = d.oMj[i].p.cross(sw) + d.axial_rate[i] * z;
    if (model.idx_q[i] >= 0) tau[model.idx_q[i]] += sw.dot(n_o) + sv.dot(f);
  }
}

void addActuationTerms(const Model& model, Data& data, const Eigen::Ref<const VecX>& qd,
                       const Eigen::Ref<const VecX>& qdd, const DynamicsOptions& o, Eigen::Ref<VecX> tau) {
  if (o.motors) {
    for (int i = 0; i < model.njoints(); ++i) {
      const Motor& mo = model.joints[i].motor;
      if (!mo.present || !model.jmodels[i].independent) continue;  // motors drive independent joints
      const int k = model.idx_q[i];
      tau[k] += reflectedInertia(mo) * qdd[k];
    }
  }
  if (o.friction) {
    for (int i = 0; i < model.njoints(); ++i) {
      const Motor& mo = model.joints[i].motor;
      if (!mo.present || !model.jmodels[i].independent) continue;
      const int k = model.idx_q[i];
      tau[k] += motorFriction(mo, qd[k]);
    }
  }
  addWrench(model, data, o, tau);
}

}  // namespace dyn_detail

using namespace dyn_detail;

void checkDynamicsInput(const Model& model, const Eigen::Ref<const VecX>& v, const char* what) {
  if (v.size() != model.nv)
    throw Error(std::string(what) + ": expected " + std::to_string(model.nv) + " values, got " + std::to_string(v.size()));
  for (int i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i])) throw Error(std::string(what) + "[" + std::to_string(i) + "]: must be a finite number");
}

void inverseDynamics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                     const Eigen::Ref<const VecX>& qd, const Eigen::Ref<const VecX>& qdd,
                     const DynamicsOptions& options, Eigen::Ref<VecX> tau) {
  rnea(model, data, q, qd, qdd, gravityVector(model, options), options.legs, Parts{}, tau, true);
  addActuationTerms(model, data, qd, qdd, options, tau);
}

void gravityTorques(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                    const DynamicsOptions& options, Eigen::Ref<VecX> g) {
  data.dyn.zero.setZero();
  rnea(model, data, q, data.dyn.zero, data.dyn.zero, gravityVector(model, options), options.legs, Parts{}, g, true);
}

void biasTorques(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                 const Eigen::Ref<const VecX>& qd, const DynamicsOptions& options, Eigen::Ref<VecX> b) {
  data.dyn.zero.setZero();
  rnea(model, data, q, qd, data.dyn.zero, gravityVector(model, options), options.legs, Parts{}, b, true);
  addActuationTerms(model, data, qd, data.dyn.zero, options, b);
}

void frictionTorques(const Model& model, const Eigen::Ref<const VecX>& qd, const DynamicsOptions& options,
                     Eigen::Ref<VecX> tau) {
  tau.setZero();
  if (!options.friction) return;
  for (int i = 0; i < model.njoints(); ++i) {
    const Motor& mo = model.joints[i].motor;
    if (!mo.present || !model.jmodels[i].independent) continue;
    const int k = model.idx_q[i];
    tau[k] = motorFriction(mo, qd[k]);
  }
}

void TorqueBreakdown::resize(int n) {
  for (VecX* v : {&total, &inertial, &velocity, &gravity, &friction, &wrench, &translational, &rotational, &rotor})
    v->setZero(n);
}

void torqueBreakdown(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                     const Eigen::Ref<const VecX>& qd, const Eigen::Ref<const VecX>& qdd,
                     const DynamicsOptions& options, TorqueBreakdown& out) {
  const int n = model.nv;
  if (out.total.size() != n) out.resize(n);
  const Vec3 g = gravityVector(model, options);
  const Vec3 g0 = Vec3::Zero();
  data.dyn.zero.setZero();
  forwardKinematics(model, data, q);
  rnea(model, data, q, data.dyn.zero, data.dyn.zero, g, options.legs, Parts{}, out.gravity, false);
  rnea(model, data, q, qd, data.dyn.zero, g0, options.legs, Parts{}, out.velocity, false);
  rnea(model, data, q, data.dyn.zero, qdd, g0, options.legs, Parts{}, out.inertial, false);
  rnea(model, data, q, qd, qdd, g, options.legs, Parts{true, false}, out.translational, false);
  rnea(model, data, q, qd, qdd, g0, options.legs, Parts{false, true}, out.rotational, false);
  out.rotor.setZero();
  out.friction.setZero();
  out.wrench.setZero();
  DynamicsOptions o = options;
  o.friction = false;
  o.use_wrench = false;
  addActuationTerms(model, data, data.dyn.zero, qdd, o, out.rotor);
  frictionTorques(model, qd, options, out.friction);
  addWrench(model, data, options, out.wrench);
  out.inertial += out.rotor;
  out.total = out.inertial + out.velocity + out.gravity + out.friction + out.wrench;
}

double kineticEnergy(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                     const Eigen::Ref<const VecX>& qd, const DynamicsOptions& options) {
  // ½ q̇ᵀ M q̇ = ½ q̇ᵀ τ(q, 0, q̇) without gravity, rotors as options say.
  data.dyn.zero.setZero();
  rnea(model, data, q, data.dyn.zero, qd, Vec3::Zero(), options.legs, Parts{}, data.dyn.tmp_d, true);
  DynamicsOptions o = options;
  o.friction = false;
  o.use_wrench = false;
  addActuationTerms(model, data, data.dyn.zero, qd, o, data.dyn.tmp_d);
  return 0.5 * qd.dot(data.dyn.tmp_d);
}

double potentialEnergy(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                       const DynamicsOptions& options) {
  Data& d = data;
  forwardKinematics(model, d, q);
  const Vec3 g = gravityVector(model, options);
  const auto& bodies = model.bodies[static_cast<int>(options.legs)];
  double U = 0;
  for (int i = 0; i < model.njoints(); ++i) U -= bodies[i].mass * g.dot(d.oMi[i].act(bodies[i].com));
  if (options.legs == LegModel::Full || options.legs == LegModel::PotentialOnly) {
    const double share = options.legs == LegModel::Full ? 2.0 / 3.0 : 1.0;
    for (const DynLeg& L : model.legs) {
      const Vec3 mid = 0.5 * (legBase(data, L) + d.oMi[L.joint].act(L.P));
      U -= share * L.mass * g.dot(mid);
    }
  }
  return U;
}

}  // namespace achain
