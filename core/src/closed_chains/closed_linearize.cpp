// The closed chain's linearised dynamics in its own coordinates y = (α; f) (loop_closure.hpp, linearizeClosedChain):
// the open chain's partials (linearizeDynamics) carried through the closure's G^φ_y, H^φ_yy and third order D^φ_yyy.
#include <achain/closed_chains/loop_closure.hpp>

#include <achain/dynamics/rnea.hpp>
#include <achain/ik/ik.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/kinematics/influence.hpp>
#include <achain/math/tensor3.hpp>

#include "closure_rows.hpp"
#include "dynamics/influence_rows.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include <cmath>

namespace achain {

void linearizeClosedChain(const Model& model, Data& data, const LoopClosure& loop, const Eigen::Ref<const VecX>& q,
                          const Eigen::Ref<const VecX>& yd, const Eigen::Ref<const VecX>& ydd,
                          const DynamicsOptions& options, const LinearizeOptions& lin, Linearization& out) {
  if (!lin.dc_motors.empty()) throw Error("linearize: DC motors are not linearised for a closed chain (torque inputs only)");
  if (lin.coordinates != "joints" || !lin.tool_rows.empty() || lin.output != "joints")
    throw Error("linearize: a closed chain's state is in its own coordinates y = (α; f); tool coordinates and tool "
                "outputs are not available for it");
  checkConfiguration(model, q);
  const int M = model.nv;
  ClosedChainModel cm;
  const VecX zero = VecX::Zero(M);
  closedChainModel(model, data, loop, q, zero, options, cm);  // runs forward kinematics at q
  const int Y = static_cast<int>(cm.y_in_w.size()), A = M - cm.N;
  if (yd.size() != Y || ydd.size() != Y)
    throw Error("linearize: the closed chain has " + std::to_string(Y) + " coordinates y = (α; f); yd and ydd must have " +
                std::to_string(Y) + " values (got " + std::to_string(yd.size()) + ", " + std::to_string(ydd.size()) + ")");
  for (int k = 0; k < Y; ++k)
    if (!std::isfinite(yd[k]) || !std::isfinite(ydd[k]))
      throw Error("linearize: yd[" + std::to_string(k) + "] or ydd[" + std::to_string(k) + "] is not a finite number");
  // q must be closed: the constrained rows of the free end on the ground
  {
    const SE3& T = data.oMtool;
    Vec6 r;
    r << T.p - loop.ground.p, rotationLog(T.R * loop.ground.R.transpose());
    double worst = 0;
    for (int row = 0; row < cm.R; ++row)  // the constrained rows come first in e's order (x, y[, z, rotations])
      worst = std::max(worst, std::abs(r[row]) / (row < 3 ? detail::chainReach(model) : 1.0));
    if (worst > 1e-8)
      throw Error("linearize: the loop is not closed at q (constraint residual " + std::to_string(worst) +
                  " relative); close it first (closeLoop)");
  }
  // the free end's third order; its rows must be true coordinates (symmetric H) for the inverse-function rule
  Influence inf;
  toolInfluence(model, data, inf, 3);
  auto eRow = [&](int i) { return detail::closureEndRow(loop.kind, i); };
  double hmax = 1;
  for (int i = 0; i < cm.N; ++i) hmax = std::max(hmax, cm.He.plane(i).cwiseAbs().maxCoeff());
  for (int i = 0; i < cm.N; ++i)
    if ((cm.He.plane(i) - cm.He.plane(i).transpose()).cwiseAbs().maxCoeff() > 1e-9 * hmax)
      throw Error(std::string("linearize: the free end's ") + (eRow(i) < 3 ? "translation" : "rotation") +
                  " row " + std::to_string(eRow(i)) + " is a quasi-coordinate here (its second-order influence is not "
                  "symmetric: rotations about non-parallel axes), so the closed chain's third-order transfer does not "
                  "apply; a planar pin on a planar chain, or a loop whose free-end rows are coordinates, is linearised");

  // G^φ_y (M × Y) and the operating joint rates
  const MatX& K = cm.Gphi_w;
  MatX Gy(M, Y);
  VecX wd = VecX::Zero(M), wdd = VecX::Zero(M);  // ẇ, ẅ: zero in the constrained rows
  for (int a = 0; a < Y; ++a) {
    Gy.col(a) = K.col(cm.y_in_w[a]);
    wd[cm.y_in_w[a]] = yd[a], wdd[cm.y_in_w[a]] = ydd[a];
  }
  const VecX phid = K * wd;
  const VecX g2dd = quadratic(cm.Hphi_ww, wd, wd);  // ẇᵀ H^φ_ww ẇ
  const VecX phidd = K * wdd + g2dd;

  // the open chain at (φ, φ̇, φ̈): its partials and its loads
  Linearization open;
  linearizeDynamics(model, data, q, phid, phidd, options, LinearizeOptions{}, open);
  VecX Tphi(M);
  inverseDynamics(model, data, q, phid, phidd, options, Tphi);

  // F2 = H^w_φφ, F3 = D^w_φφφ (α rows zero, e rows the free end's)
  auto F3 = [&](const VecX& u, const VecX& v, const VecX& w) {
    VecX outv = VecX::Zero(M);
    for (int i = 0; i < cm.N; ++i) {
      const int p = eRow(i);
      double s = 0;
      for (int l = 0; l < M; ++l) {
        if (u[l] == 0) continue;
        s += u[l] * v.dot(inf.D.slice(p, l) * w);
      }
      outv[A + i] = s;
    }
    return outv;
  };
  out.dT_dq.resize(Y, Y);
  out.dT_dqd.resize(Y, Y);
  for (int k = 0; k < Y; ++k) {
    VecX ek = VecX::Zero(M);
    ek[cm.y_in_w[k]] = 1;
    const VecX dphi = K * ek;                                   // ∂φ/∂y_k
    const VecX g2k = quadratic(cm.Hphi_ww, ek, wd);              // ∂φ̇/∂y_k = H^φ(e_k, ẇ)
    // ∂φ̈/∂y_k = H^φ(e_k, ẅ) + D^φ(e_k, ẇ, ẇ), D^φ by the inverse-function rule:
    // g3(a, b, c) = −K [F3(Ka, Kb, Kc) + F2(g2(a, b), Kc) + F2(g2(a, c), Kb) + F2(Ka, g2(b, c))]
    const VecX g3 = -K * (F3(dphi, phid, phid) + 2 * quadratic(cm.Hw_phiphi, g2k, phid) + quadratic(cm.Hw_phiphi, dphi, g2dd));
    const VecX dphidd = quadratic(cm.Hphi_ww, ek, wdd) + g3;
    // (∂G^φ_y/∂y_k)ᵀ T_φ: column a of ∂G/∂y_k is H^φ(e_k, e_a)
    VecX dGT(Y);
    for (int a = 0; a < Y; ++a) {
      VecX ea = VecX::Zero(M);
      ea[cm.y_in_w[a]] = 1;
      dGT[a] = quadratic(cm.Hphi_ww, ek, ea).dot(Tphi);
    }
    out.dT_dq.col(k) = dGT + Gy.transpose() * (open.dT_dq * dphi + open.dT_dqd * g2k + open.Istar * dphidd);
    out.dT_dqd.col(k) = Gy.transpose() * (open.dT_dqd * dphi + 2 * (open.Istar * g2k));
  }
  out.Istar = Gy.transpose() * open.Istar * Gy;

  Eigen::FullPivLU<MatX> lu(out.Istar);
  if (!lu.isInvertible()) throw Error("linearize: the closed chain's inertia I*_yy is singular at this configuration");
  const MatX Mi = lu.inverse();
  out.A.setZero(2 * Y, 2 * Y);
  out.A.block(0, Y, Y, Y).setIdentity();
  out.A.block(Y, 0, Y, Y) = -Mi * out.dT_dq;
  out.A.block(Y, Y, Y, Y) = -Mi * out.dT_dqd;
  out.B.setZero(2 * Y, Y);
  out.B.block(Y, 0, Y, Y) = Mi;
  out.C.setZero(Y, 2 * Y);
  out.C.block(0, 0, Y, Y).setIdentity();
  out.D.setZero(Y, Y);
  out.T.setIdentity(2 * Y, 2 * Y);
  for (const MatX* m : {&out.A, &out.dT_dq, &out.dT_dqd})
    for (int i = 0; i < m->size(); ++i)
      if (!std::isfinite(m->data()[i])) throw Error("linearize: the closed chain's partials are not finite at this configuration");
  out.poles = Eigen::EigenSolver<MatX>(out.A, false).eigenvalues();
}

}  // namespace achain
