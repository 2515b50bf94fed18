#include <achain/dynamics/freeman.hpp>
#include <achain/model/caps.hpp>

#include <Eigen/LU>

#include "detail.hpp"

namespace achain {

namespace {

/// Adds a point mass with influence coefficients (G 3×n, H 3×n×n) to I*, P* and the gravity load.
void addPoint(double mass, const MatX& G, const Tensor3& H, const Vec3& grav, double weight_share, FreemanModel& out,
              bool inertia = true) {
  const int n = static_cast<int>(G.cols());
  if (inertia) {
    out.Istar.noalias() += mass * G.transpose() * G;
    for (int k = 0; k < n; ++k) {
      const Vec3 gk = G.col(k);
      if (gk.isZero(0)) continue;
      auto Pk = out.Pstar.plane(k);
      for (int p = 0; p < 3; ++p)
        if (gk[p] != 0) Pk += (mass * gk[p]) * H.plane(p);
    }
  }
  out.TL.noalias() += weight_share * mass * G.transpose() * grav;
}

}  // namespace

void freemanModel(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                  const Eigen::Ref<const VecX>& qd, const DynamicsOptions& options, FreemanModel& out) {
  const int n = model.nv, nj = model.njoints();
  if (n > kMaxJointsCubic)
    throw Error("freemanModel: P* has dof³ entries; at most " + std::to_string(kMaxJointsCubic) + " joints (this model has " +
                std::to_string(n) + ")");
  Data& d = data;
  forwardKinematics(model, d, q);
  out.Istar.setZero(n, n);
  out.Pstar.resize(n, n, n);
  out.Pstar.setZero();
  out.TL.setZero(n);
  for (MatX* G : {&data.freeman.Gc, &data.freeman.Gw, &data.freeman.Gb, &data.freeman.Gp})
    if (G->rows() != 3 || G->cols() != n) G->setZero(3, n);
  const auto& bodies = model.bodies[static_cast<int>(options.legs)];
  const Vec3 grav = options.gravityOf(model.gravity);
  for (int s = 0; s < nj; ++s) {
    const DynBody& b = bodies[s];
    pointInfluence(model, d, s, b.com, data.freeman.Gc, &data.freeman.Hc);
    addPoint(b.mass, data.freeman.Gc, data.freeman.Hc, grav, 1.0, out);
    // Rotation: I* += Gωᵀ II Gω; P*_{k;m;n} += (II g_k)·h_mn + (II g_n)·(g_k × g_m)   (2-196, 2-197)
    rotationInfluence(model, d, s, data.freeman.Gw, &data.freeman.Hw);
    const Mat3& R = d.oMi[s].R;
    const Mat3 II = R * b.inertia * R.transpose();
    out.Istar.noalias() += data.freeman.Gw.transpose() * II * data.freeman.Gw;
    for (int k = 0; k < n; ++k) {
      const Vec3 gk = data.freeman.Gw.col(k);
      if (gk.isZero(0)) continue;
      const Vec3 IIgk = II * gk;
      auto Pk = out.Pstar.plane(k);
      for (int p = 0; p < 3; ++p)
        if (IIgk[p] != 0) Pk += IIgk[p] * data.freeman.Hw.plane(p);
      for (int m = 0; m < n; ++m) {
        const Vec3 gm = data.freeman.Gw.col(m);
        const Vec3 c = gk.cross(gm);
        if (c.isZero(0)) continue;
        for (int nn = 0; nn < n; ++nn) Pk(m, nn) += (II * data.freeman.Gw.col(nn)).dot(c);
      }
    }
  }
  // Legs not rigid with one body.
  if (options.legs == LegModel::Full || options.legs == LegModel::PotentialOnly) {
    for (const DynLeg& leg : model.legs) {
      pointInfluence(model, d, leg.joint, leg.P, data.freeman.Gp, &data.freeman.Hp);
      if (leg.parent >= 0) {
        pointInfluence(model, d, leg.parent, leg.B, data.freeman.Gb, &data.freeman.Hb);
      } else {
        data.freeman.Gb.setZero(3, n);
        data.freeman.Hb.resize(3, n, n);
        data.freeman.Hb.setZero();
      }
      // Midpoint: G = ½(G_B + G_P), H = ½(H_B + H_P).
      data.freeman.Gc = 0.5 * (data.freeman.Gb + data.freeman.Gp);
      data.freeman.Hc.resize(3, n, n);
      for (int p = 0; p < 3; ++p) data.freeman.Hc.plane(p) = 0.5 * (data.freeman.Hb.plane(p) + data.freeman.Hp.plane(p));
      if (options.legs == LegModel::Full)
        addPoint(2.0 * leg.mass / 3.0, data.freeman.Gc, data.freeman.Hc, grav, 1.0, out);
      else
        addPoint(leg.mass, data.freeman.Gc, data.freeman.Hc, grav, 1.0, out, false);
    }
  }
  if (options.motors) dyn_detail::addRotorInertias(model, out.Istar);
  // Friction and the tool wrench are applied loads too: T^L −= τ_friction + Jᵀh_e.
  DynamicsOptions o = options;
  o.motors = false;
  data.freeman.tmp.setZero(n);
  data.dyn.zero.setZero();
  dyn_detail::addActuationTerms(model, data, qd, data.dyn.zero, o, data.freeman.tmp);
  out.TL -= data.freeman.tmp;
}

void freemanTorque(const FreemanModel& fm, const Eigen::Ref<const VecX>& qd, const Eigen::Ref<const VecX>& qdd,
                   Eigen::Ref<VecX> tau) {
  tau.noalias() = fm.Istar * qdd;
  for (int k = 0; k < tau.size(); ++k) tau[k] += qd.dot(fm.Pstar.plane(k) * qd);
  tau -= fm.TL;
}

void transferModel(const FreemanModel& in, const MatX& J, const Tensor3& Hu, FreemanModel& out) {
  const int n = static_cast<int>(in.Istar.rows());
  if (J.rows() != n || J.cols() != n) throw Error("transfer: J must be " + std::to_string(n) + "×" + std::to_string(n));
  if (Hu.planes() != n || Hu.rows() != n || Hu.cols() != n)
    throw Error("transfer: H^u must be " + std::to_string(n) + "×" + std::to_string(n) + "×" + std::to_string(n));
  Eigen::FullPivLU<MatX> lu(J);
  if (!lu.isInvertible() || lu.rcond() < 1e-12) throw Error("transfer: J is singular (rcond " + std::to_string(lu.rcond()) + ")");
  const MatX Ji = lu.inverse();
  const MatX JiT = Ji.transpose();
  out.Istar = JiT * in.Istar * Ji;                         // (3-34)
  Tensor3 a, b;
  dot(JiT, in.Pstar, a);                                   // J⁻ᵀ ∘ P*
  dot(out.Istar, Hu, b);                                   // I*_uu ∘ H^u
  for (int k = 0; k < n; ++k) a.plane(k) -= b.plane(k);
  congruence(Ji, a, Ji, out.Pstar);                        // J⁻ᵀ{…}J⁻¹   (3-35)
  out.TL = JiT * in.TL;                                    // (3-36)
}

}  // namespace achain
