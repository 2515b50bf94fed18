#include <achain/dynamics/lee.hpp>

#include "detail.hpp"

namespace achain {

void LeeTerms::resize(int n) {
  for (MatX* m : {&D, &D_tran, &D_rot}) m->setZero(n, n);
  for (VecX* v : {&h_tran, &h_rot, &c, &other}) v->setZero(n);
}

namespace {

struct LeeCtx {
  const Model& m;
  Data& data;
  const Eigen::Ref<const VecX>& qd;
  // per joint j (world): w_j = (∂θ/∂q) z_j → data.dyn.S_w; ω of j's parent body → data.dyn.A_w; velocity of o_j → data.dyn.A_v.
  bool supports(int j, int s) const {
    for (int i = s; i >= 0; i = m.joints[i].parent)
      if (i == j) return true;
    return false;
  }
  /// Translational influence of joint j on a world point x moved by j.
  Vec3 g(int j, const Vec3& x) const {
    const Data& d = data;
    return data.dyn.S_w[j].cross(x - d.oMj[j].p) + d.axial_rate[j] * d.oMj[j].R.col(2);
  }
  /// Velocity of a world point x fixed on body s (−1 = ground).
  Vec3 velocity(int s, const Vec3& x) const {
    Vec3 v = Vec3::Zero();
    for (int k = s; k >= 0; k = m.joints[k].parent) v += dyn_detail::at(qd, m.idx_q[k]) * g(k, x);
    return v;
  }
  /// Velocity-product (q̈ = 0) acceleration of a world point x fixed on body s: Lee Eq. L-16 as
  /// explicit sums over the joints below s, with the A/H/P-pair axial terms.
  Vec3 accelVP(int s, const Vec3& x) const {
    const Data& d = data;
    const Vec3 vx = velocity(s, x);
    Vec3 a = Vec3::Zero();
    for (int j = s; j >= 0; j = m.joints[j].parent) {
      const double v = dyn_detail::at(qd, m.idx_q[j]);
      if (v == 0) continue;
      const Vec3 z = d.oMj[j].R.col(2);
      const Vec3& wp = data.dyn.A_w[j];
      const double bp = d.axial_curv[j];
      a += v * (wp.cross(data.dyn.S_w[j]).cross(x - d.oMj[j].p) + data.dyn.S_w[j].cross(vx - data.dyn.A_v[j]) + bp * v * z +
                d.axial_rate[j] * wp.cross(z));
    }
    return a;
  }
};

}  // namespace

void leeTerms(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
              const Eigen::Ref<const VecX>& qd, const DynamicsOptions& options, LeeTerms& out) {
  const int n = model.nv, nj = model.njoints();
  if (out.D.rows() != n) out.resize(n);
  Data& d = data;
  forwardKinematics(model, d, q);
  LeeCtx L{model, data, qd};
  const auto& bodies = model.bodies[static_cast<int>(options.legs)];
  const Vec3 grav = options.gravityOf(model.gravity);
  // Joint axes, parents' angular velocities (Eq. L-6) and the velocities of the axis points.
  for (int j = 0; j < nj; ++j) data.dyn.S_w[j] = d.rot_rate[j] * d.oMj[j].R.col(2);
  for (int j = 0; j < nj; ++j) {
    Vec3 w = Vec3::Zero();
    for (int k = model.joints[j].parent; k >= 0; k = model.joints[k].parent) w += dyn_detail::at(qd, model.idx_q[k]) * data.dyn.S_w[k];
    data.dyn.A_w[j] = w;
    data.dyn.A_v[j] = L.velocity(model.joints[j].parent, d.oMj[j].p);
  }
  out.D_tran.setZero();
  out.D_rot.setZero();
  out.h_tran.setZero();
  out.h_rot.setZero();
  out.c.setZero();
  out.other.setZero();
  // Adds a point mass m at world x that moves like ½(point on body b1) + ½(point on body b2)
  // (b1 = b2 for a rigidly attached mass): D, h^tran, c contributions.
  auto pointMass = [&](double mass, const Vec3& x, int body, double weight_share) {
    // Jacobian columns: joints supporting `body`.
    const Vec3 avp = L.accelVP(body, x);
    for (int i = body; i >= 0; i = model.joints[i].parent) {
      const int ki = model.idx_q[i];
      if (ki < 0) continue;
      const Vec3 gi = L.g(i, x);
      out.h_tran[ki] += mass * avp.dot(gi);
      out.c[ki] -= weight_share * mass * grav.dot(gi);
      for (int j = body; j >= 0; j = model.joints[j].parent)
        if (model.idx_q[j] >= 0) out.D_tran(ki, model.idx_q[j]) += mass * gi.dot(L.g(j, x));
    }
  };
  for (int s = 0; s < nj; ++s) {
    const DynBody& b = bodies[s];
    const Mat3& R = d.oMi[s].R;
    if (b.mass != 0) pointMass(b.mass, d.oMi[s].act(b.com), s, 1.0);
    // Rotational part (Eqs. L-30 first term, L-32).
    const Mat3 Ic = R * b.inertia * R.transpose();
    Vec3 w = Vec3::Zero(), alpha = Vec3::Zero();
    for (int p = s; p >= 0; p = model.joints[p].parent) {
      const double v = dyn_detail::at(qd, model.idx_q[p]);
      w += v * data.dyn.S_w[p];
      alpha += v * data.dyn.A_w[p].cross(data.dyn.S_w[p]);  // Σ_{q<p} q̇_q q̇_p (w_q × w_p)
    }
    const Vec3 load = Ic * alpha + w.cross(Ic * w);
    for (int i = s; i >= 0; i = model.joints[i].parent) {
      const int ki = model.idx_q[i];
      if (ki < 0) continue;
      out.h_rot[ki] += data.dyn.S_w[i].dot(load);
      const Vec3 Iw = Ic * data.dyn.S_w[i];
      for (int j = s; j >= 0; j = model.joints[j].parent)
        if (model.idx_q[j] >= 0) out.D_rot(ki, model.idx_q[j]) += Iw.dot(data.dyn.S_w[j]);
    }
  }
  // Legs not rigid with one body: Full → midpoint particles 2m/3 with ½(J_B + J_P);
  // PotentialOnly → weight only, half at B and half at P.
  if (options.legs == LegModel::Full || options.legs == LegModel::PotentialOnly) {
    for (const DynLeg& leg : model.legs) {
      const Vec3 B = dyn_detail::legBase(data, leg);
      const Vec3 P = d.oMi[leg.joint].act(leg.P);
      if (options.legs == LegModel::PotentialOnly) {
        const double half = 0.5 * leg.mass;
        for (int i = leg.joint; i >= 0; i = model.joints[i].parent) {
          const int ki = model.idx_q[i];
          if (ki < 0) continue;
          out.c[ki] -= half * grav.dot(L.g(i, P));
          if (i != leg.joint) out.c[ki] -= half * grav.dot(L.g(i, B));
        }
        continue;
      }
      const double mass = 2.0 * leg.mass / 3.0;
      const Vec3 mid = 0.5 * (B + P);
      const Vec3 avp = 0.5 * (L.accelVP(leg.parent, B) + L.accelVP(leg.joint, P));
      auto jac = [&](int i) {  // column i of the midpoint's Jacobian
        return i == leg.joint ? Vec3(0.5 * L.g(i, P)) : L.g(i, mid);
      };
      for (int i = leg.joint; i >= 0; i = model.joints[i].parent) {
        const int ki = model.idx_q[i];
        if (ki < 0) continue;
        const Vec3 gi = jac(i);
        out.h_tran[ki] += mass * avp.dot(gi);
        out.c[ki] -= mass * grav.dot(gi);
        for (int j = leg.joint; j >= 0; j = model.joints[j].parent)
        if (model.idx_q[j] >= 0) out.D_tran(ki, model.idx_q[j]) += mass * gi.dot(jac(j));
      }
    }
  }
  out.D = out.D_tran + out.D_rot;
  if (options.motors) dyn_detail::addRotorInertias(model, out.D);
  DynamicsOptions o = options;
  o.motors = false;
  data.dyn.zero.setZero();
  dyn_detail::addActuationTerms(model, data, qd, data.dyn.zero, o, out.other);
}

void leeInverseDynamics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                        const Eigen::Ref<const VecX>& qd, const Eigen::Ref<const VecX>& qdd,
                        const DynamicsOptions& options, const LeeOptions& lee, LeeTerms& t, Eigen::Ref<VecX> tau) {
  leeTerms(model, data, q, qd, options, t);
  if (!lee.simplified) {
    tau.noalias() = t.D * qdd;
    tau += t.h_tran + t.h_rot + t.c + t.other;
    return;
  }
  const int n = model.nv;
  for (int i = 0; i < n; ++i) {
    const bool tr = i < lee.translational_joints;
    tau[i] = (tr ? t.D_tran.row(i) : t.D_rot.row(i)).dot(qdd) + (tr ? t.h_tran[i] : t.h_rot[i]) + t.c[i] + t.other[i];
    tau[i] += (t.D(i, i) - t.D_tran(i, i) - t.D_rot(i, i)) * qdd[i];  // rotor inertia
  }
}

}  // namespace achain
