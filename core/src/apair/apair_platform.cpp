// The exact A-pair (Griffis–Duffy platform) and the exact closed-chain model of an A-chain
// (apair/apair_platform.hpp; docs/dynamics.md "The exact A-pair (Griffis–Duffy platform)").
#include <achain/apair/apair_platform.hpp>

#include <Eigen/QR>
#include <Eigen/SVD>
#include <cmath>
#include <string>

#include <achain/math/text.hpp>

namespace achain {
namespace {

using Vec5 = Eigen::Matrix<double, 5, 1>;
using Mat65 = Eigen::Matrix<double, 6, 5>;
using Vec6r = Eigen::Matrix<double, 6, 1>;

Mat3 hat(const Vec3& v) {
  Mat3 K;
  K << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return K;
}

Mat3 rx(double a) { return Eigen::AngleAxisd(a, Vec3::UnitX()).toRotationMatrix(); }
Mat3 ry(double a) { return Eigen::AngleAxisd(a, Vec3::UnitY()).toRotationMatrix(); }
Mat3 rz(double a) { return Eigen::AngleAxisd(a, Vec3::UnitZ()).toRotationMatrix(); }

/// R = Rz(θ)·Ry(β)·Rx(α) and its partial derivatives (index a = α, b = β, t = θ).
struct Rotations {
  Mat3 R, Ra, Rb, Rt, Raa, Rab, Rat, Rbb, Rbt, Rtt;
  Rotations(double al, double be, double th) {
    const Mat3 Kx = hat(Vec3::UnitX()), Ky = hat(Vec3::UnitY()), Kz = hat(Vec3::UnitZ());
    const Mat3 X = rx(al), Y = ry(be), Z = rz(th);
    R = Z * Y * X;
    Ra = Z * Y * Kx * X;
    Rb = Z * Ky * Y * X;
    Rt = Kz * R;
    Raa = Z * Y * Kx * Kx * X;
    Rab = Z * Ky * Y * Kx * X;
    Rbb = Z * Ky * Ky * Y * X;
    Rat = Kz * Ra;
    Rbt = Kz * Rb;
    Rtt = Kz * Rt;
  }
};

std::string degText(double theta) { return shortNumber(theta / kDeg); }

/// ad_a b: the derivative of screw b when its frame moves with screw a (spatial twists (ω; v at the origin)).
Vec6 ad(const Vec6& a, const Vec6& b) {
  const Vec3 wa = a.head<3>(), va = a.tail<3>(), wb = b.head<3>(), vb = b.tail<3>();
  Vec6 r;
  r.head<3>() = wa.cross(wb);
  r.tail<3>() = wa.cross(vb) + va.cross(wb);
  return r;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// ApairPlatform

ApairPlatform::ApairPlatform(double rho) : rho_(rho) {
  if (!std::isfinite(rho) || rho < 0) throw Error("A-pair platform: ρ must be finite and ≥ 0 (got " + shortNumber(rho) + ")");
  if (rho == 0) throw Error("A-pair platform: ρ = 0 is an R-pair: it has no platform and no legs");
  side_ = apairSideFromRho(rho);
  l_ = side_ * std::sqrt(3.0) / 2;
  anchors_ = apairAnchors(side_);
}

void ApairPlatform::setStart(const Eigen::Matrix<double, 5, 1>& x) {
  if (!x.allFinite()) throw Error("A-pair platform: the start pose must be finite");
  start_ = x;
  have_prev_ = true;
}

const ApairPlatformState& ApairPlatform::solve(double theta) {
  if (!std::isfinite(theta)) throw Error("A-pair platform: θ_v must be finite (got " + shortNumber(theta) + ")");
  Vec5 x = have_prev_ ? start_ : Vec5(0, 0, 0.7 * l_, 0, 0);
  const double l2 = l_ * l_;
  const auto& B = anchors_.base;
  const auto& Pp = anchors_.platform;
  Mat65 J;
  Vec6r f;
  Eigen::ColPivHouseholderQR<Mat65> qr;
  auto evaluate = [&](const Vec5& y) {
    const Rotations r(y[3], y[4], theta);
    const Vec3 p = y.head<3>();
    for (int k = 0; k < 6; ++k) {
      const Vec3 u = p + r.R * Pp[k] - B[k];
      f[k] = u.squaredNorm() - l2;
      J.block<1, 3>(k, 0) = 2 * u.transpose();
      J(k, 3) = 2 * u.dot(r.Ra * Pp[k]);
      J(k, 4) = 2 * u.dot(r.Rb * Pp[k]);
    }
    return f.cwiseAbs().maxCoeff();
  };
  int it = 0;
  double err = evaluate(x);
  bool polished = false;
  for (; it < 60; ++it) {
    if (err <= 1e-13 * l2) {
      if (polished) break;
      polished = true;  // one more step once converged: Gauss–Newton converges quadratically here
    }
    qr.compute(J);
    Vec5 dx = qr.solve(-f);
    if (!dx.allFinite()) break;
    // Step limits: a quarter leg in translation, 0.3 rad in the tilts.
    const double st = dx.head<3>().norm() / (0.25 * l_), sa = dx.tail<2>().norm() / 0.3;
    const double s = std::max({1.0, st, sa});
    x += dx / s;
    err = evaluate(x);
  }
  // Leg-length residual in length units.
  const Rotations r(x[3], x[4], theta);
  double res = 0;
  for (int k = 0; k < 6; ++k) res = std::max(res, std::abs((x.head<3>() + r.R * Pp[k] - B[k]).norm() - l_));
  if (!(res <= 1e-9 * l_) || !x.allFinite()) {
    have_prev_ = false;
    throw Error("A-pair platform cannot close at θ_v = " + degText(theta) + "°: residual " + shortNumber(res) + " m");
  }
  ApairPlatformState& s = s_;
  s.theta = theta;
  s.x = x;
  s.R = r.R;
  s.p = x.head<3>();
  s.residual = res;
  s.iterations = it;
  // Implicit differentiation: F_x x' = −F_θ and F_x x'' = −2(|u_t|² + u·u_tt) (least squares; consistent).
  evaluate(x);
  qr.compute(J);
  Vec6r Ft, rhs;
  for (int k = 0; k < 6; ++k) Ft[k] = 2 * (s.p + r.R * Pp[k] - B[k]).dot(r.Rt * Pp[k]);
  s.x1 = qr.solve(-Ft);
  const double a1 = s.x1[3], b1 = s.x1[4];
  for (int k = 0; k < 6; ++k) {
    const Vec3 u = s.p + r.R * Pp[k] - B[k];
    const Vec3 ut = s.x1.head<3>() + (r.Ra * a1 + r.Rb * b1 + r.Rt) * Pp[k];
    const Vec3 utt = (r.Raa * a1 * a1 + r.Rbb * b1 * b1 + r.Rtt + 2 * r.Rab * a1 * b1 + 2 * r.Rat * a1 + 2 * r.Rbt * b1) * Pp[k];
    rhs[k] = -2 * (ut.squaredNorm() + u.dot(utt));
  }
  s.x2 = qr.solve(rhs);
  s.derivative_residual = std::max((J * s.x1 + Ft).cwiseAbs().maxCoeff(), (J * s.x2 - rhs).cwiseAbs().maxCoeff());
  s.dp = s.x1.head<3>();
  s.ddp = s.x2.head<3>();
  const Mat3 Z = rz(theta);
  const Vec3 ez = Vec3::UnitZ(), ay = Z * Vec3::UnitY(), ax = Z * ry(x[4]) * Vec3::UnitX();
  s.w = ez + b1 * ay + a1 * ax;
  s.dw = s.x2[4] * ay + b1 * ez.cross(ay) + s.x2[3] * ax + a1 * (ez.cross(ax) + b1 * ay.cross(ax));
  for (int k = 0; k < 6; ++k) s.P[k] = s.p + r.R * Pp[k];
  start_ = x;
  have_prev_ = true;
  return s;
}

// ---------------------------------------------------------------------------------------------
// ExactApairChain

ExactApairChain::ExactApairChain(const Model& model) : model_(model) {
  n_ = model_.nv;
  const int nj = model_.njoints();
  if (model_.coupled || n_ != nj)
    throw Error("exact A-pair model: every joint must own its coordinate (no fixed or mimic joints)");
  plat_idx_.assign(nj, -1);
  anc_.resize(nj);
  for (int i = 0; i < nj; ++i) {
    const Joint& j = model_.joints[i];
    if (model_.idx_q[i] != i) throw Error("exact A-pair model: joint " + std::to_string(i) + " does not follow coordinate " + std::to_string(i));
    if (j.parent >= i) throw Error("exact A-pair model: joints must follow their parents");
    anc_[i] = j.parent < 0 ? std::vector<int>{} : anc_[j.parent];
    anc_[i].push_back(i);
    if (j.kind == JointKind::A && j.rho > 0) {
      plat_idx_[i] = static_cast<int>(plats_.size());
      plats_.emplace_back(j.rho);
      for (int k = 0; k < 6; ++k) legs_.push_back(Leg{i, j.parent, k, j.leg_mass, Vec3::Zero(), Vec3::Zero()});
    }
  }
  oMi_.resize(nj);
  plate_.resize(nj);
  S_.assign(nj, Vec6::Zero());
  dS_.assign(nj, std::vector<Vec6>(nj, Vec6::Zero()));
  for (MatX* G : {&Gc_, &Gw_, &GB_, &GP_}) G->resize(3, n_);
  for (std::vector<Vec3>* H : {&Hc_, &Hw_, &HB_, &HP_}) H->assign(static_cast<size_t>(n_) * n_, Vec3::Zero());
  fm_.Istar.resize(n_, n_);
  fm_.Pstar.resize(n_, n_, n_);
  fm_.TL.resize(n_);
}

const ApairPlatformState& ExactApairChain::platform(int joint) const {
  if (joint < 0 || joint >= model_.njoints()) throw Error("joint " + std::to_string(joint) + ": no such joint");
  const int p = plat_idx_[joint];
  if (p < 0) {
    const Joint& j = model_.joints[joint];
    throw Error("joint " + std::to_string(joint) + " (" + j.name + "): " +
                (j.kind == JointKind::A ? "an A-pair with ρ = 0 is an R-pair: no platform, no legs" : "not an A-pair"));
  }
  return plats_[p].state();
}

double ExactApairChain::residual() const {
  double r = 0;
  for (const auto& p : plats_) r = std::max(r, p.state().residual);
  return r;
}

void ExactApairChain::update(const Eigen::Ref<const VecX>& q) {
  if (q.size() != n_) throw Error("q: expected " + std::to_string(n_) + " values, got " + std::to_string(q.size()));
  if (!q.allFinite()) throw Error("q: values must be finite");
  for (int i = 0; i < model_.njoints(); ++i) {
    const Joint& j = model_.joints[i];
    const JointModel& jm = model_.jmodels[i];
    const SE3& par = j.parent < 0 ? model_.base : oMi_[j.parent];
    JointState js;
    jm.evaluate(q[i], js);
    Vec3 w, v, dw, dv;  // relative screw in the reference frame (at its origin) and its ∂/∂q_i
    SE3& ref = plate_[i];
    if (plat_idx_[i] >= 0) {
      ApairPlatform& P = plats_[plat_idx_[i]];
      const ApairPlatformState& s = P.solve(js.u);
      // Sign −1 is the mirror image in y of the standard mechanism (model/apair.hpp): M = diag(1, −1, 1).
      const double my = j.sign > 0 ? 1.0 : -1.0;
      const Vec3 M(1, my, 1);
      const Mat3 Rrel = M.asDiagonal() * s.R * M.asDiagonal();
      const Vec3 prel = M.cwiseProduct(s.p);
      w = my * M.cwiseProduct(s.w);  // an angular velocity is a pseudovector: ω' = det(M)·M ω
      dw = my * M.cwiseProduct(s.dw);
      const Vec3 pd = M.cwiseProduct(s.dp), pdd = M.cwiseProduct(s.ddp);
      v = pd - w.cross(prel);
      dv = pdd - dw.cross(prel) - w.cross(pd);
      // the joint model's placement (pre, post) around the exact platform motion in place of Rz(θ)·Tz(dz)
      SE3 axis;
      composeFixed(par, jm.pre, axis);
      ref = axis * rotZ(j.theta_f);
      composeFixed(ref * SE3{Rrel, prel + Rrel.col(2) * j.d}, jm.post, oMi_[i]);
      for (Leg& L : legs_) {
        if (L.joint != i) continue;
        L.B = ref.act(M.cwiseProduct(P.anchors().base[L.k]));
        L.P = ref.act(M.cwiseProduct(s.P[L.k]));
      }
    } else {
      w = js.rot_rate * Vec3::UnitZ();
      v = js.axial_rate * Vec3::UnitZ();
      dw.setZero();
      dv = js.axial_curv * Vec3::UnitZ();
      jm.placeLink(par, js, ref, oMi_[i]);  // ref: the axis frame
    }
    const Vec3 W = ref.R * w, dW = ref.R * dw;
    S_[i] << W, ref.R * v + ref.p.cross(W);
    for (int k = 0; k < n_; ++k) dS_[i][k].setZero();
    dS_[i][i] << dW, ref.R * dv + ref.p.cross(dW);
    for (int k : anc_[i])
      if (k != i) dS_[i][k] = ad(S_[k], S_[i]);
  }
}

void ExactApairChain::legEndpoints(int joint, std::array<Vec3, 6>& B, std::array<Vec3, 6>& P) const {
  platform(joint);  // throws for a joint without a platform
  for (const Leg& L : legs_)
    if (L.joint == joint) {
      B[L.k] = L.B;
      P[L.k] = L.P;
    }
}

void ExactApairChain::pointInfluence(int link, const Vec3& x, MatX& G, std::vector<Vec3>& H) const {
  G.setZero();
  for (Vec3& h : H) h.setZero();
  if (link < 0) return;
  const std::vector<int>& a = anc_[link];
  for (int j : a) G.col(j) = S_[j].tail<3>() + S_[j].head<3>().cross(x);
  for (int j : a)
    for (int k : a) {
      const Vec6& d = dS_[j][k];
      H[static_cast<size_t>(j) * n_ + k] = d.tail<3>() + d.head<3>().cross(x) + S_[j].head<3>().cross(Vec3(G.col(k)));
    }
}

void ExactApairChain::addBody(double m, const Mat3& I, const MatX& Gc, const std::vector<Vec3>& Hc,
                              const MatX& Gw, const std::vector<Vec3>& Hw, FreemanModel& out) const {
  out.Istar.noalias() += m * Gc.transpose() * Gc + Gw.transpose() * I * Gw;
  out.TL.noalias() += Gc.transpose() * (m * model_.gravity);
  for (int k = 0; k < n_; ++k) {
    const Vec3 gk = Gc.col(k), wk = Gw.col(k), Iwk = I * wk;
    for (int a = 0; a < n_; ++a) {
      const Vec3 wka = wk.cross(Vec3(Gw.col(a)));
      for (int b = 0; b < n_; ++b) {
        const size_t ab = static_cast<size_t>(a) * n_ + b;
        out.Pstar(k, a, b) += m * gk.dot(Hc[ab]) + Iwk.dot(Hw[ab]) + (I * Gw.col(b)).dot(wka);
      }
    }
  }
}

void ExactApairChain::freeman(bool with_legs, FreemanModel& out) {
  out.Istar.setZero(n_, n_);
  out.Pstar.resize(n_, n_, n_);
  out.Pstar.setZero();
  out.TL.setZero(n_);
  for (int i = 0; i < model_.njoints(); ++i) {
    const Inertial& L = model_.joints[i].link;
    if (L.mass == 0 && L.inertia.isZero()) continue;
    const Vec3 c = oMi_[i].act(L.com);
    const Mat3 I = oMi_[i].R * L.inertia * oMi_[i].R.transpose();
    pointInfluence(i, c, Gc_, Hc_);
    Gw_.setZero();
    for (Vec3& h : Hw_) h.setZero();
    for (int j : anc_[i]) {
      Gw_.col(j) = S_[j].head<3>();
      for (int k : anc_[i]) Hw_[static_cast<size_t>(j) * n_ + k] = dS_[j][k].head<3>();
    }
    addBody(L.mass, I, Gc_, Hc_, Gw_, Hw_, out);
  }
  if (!with_legs) return;
  const size_t nn = static_cast<size_t>(n_) * n_;
  for (const Leg& g : legs_) {
    if (g.mass == 0) continue;
    pointInfluence(g.parent, g.B, GB_, HB_);
    pointInfluence(g.joint, g.P, GP_, HP_);
    const Vec3 u = g.P - g.B;
    const double l2 = u.squaredNorm();
    Gc_ = 0.5 * (GB_ + GP_);
    for (size_t t = 0; t < nn; ++t) Hc_[t] = 0.5 * (HB_[t] + HP_[t]);
    // Non-spinning rod frame: ω = u × u̇ / l² (a slender rod has no inertia about its own axis).
    for (int a = 0; a < n_; ++a) Gw_.col(a) = u.cross(Vec3(GP_.col(a) - GB_.col(a))) / l2;
    for (int a = 0; a < n_; ++a)
      for (int b = 0; b < n_; ++b) {
        const size_t ab = static_cast<size_t>(a) * n_ + b;
        const Vec3 gua = GP_.col(a) - GB_.col(a), gub = GP_.col(b) - GB_.col(b);
        Hw_[ab] = (gub.cross(gua) + u.cross(HP_[ab] - HB_[ab])) / l2;
      }
    const Mat3 I = g.mass * l2 / 12 * (Mat3::Identity() - u * u.transpose() / l2);
    addBody(g.mass, I, Gc_, Hc_, Gw_, Hw_, out);
  }
}

void ExactApairChain::inverseDynamics(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& qd,
                                      const Eigen::Ref<const VecX>& qdd, bool with_legs, Eigen::Ref<VecX> tau) {
  if (qd.size() != n_ || qdd.size() != n_ || tau.size() != n_)
    throw Error("exact A-pair model: q̇, q̈ and τ must have " + std::to_string(n_) + " values");
  if (!qd.allFinite() || !qdd.allFinite()) throw Error("exact A-pair model: q̇ and q̈ must be finite");
  update(q);
  freeman(with_legs, fm_);
  freemanTorque(fm_, qd, qdd, tau);
}

double ExactApairChain::kineticEnergy(const Eigen::Ref<const VecX>& qd, bool with_legs) const {
  double T = 0;
  MatX G(3, n_);
  std::vector<Vec3> H(static_cast<size_t>(n_) * n_);
  for (int i = 0; i < model_.njoints(); ++i) {
    const Inertial& L = model_.joints[i].link;
    pointInfluence(i, oMi_[i].act(L.com), G, H);
    Vec3 w = Vec3::Zero();
    for (int j : anc_[i]) w += S_[j].head<3>() * qd[j];
    T += 0.5 * L.mass * (G * qd).squaredNorm() + 0.5 * w.dot(oMi_[i].R * L.inertia * oMi_[i].R.transpose() * w);
  }
  if (!with_legs) return T;
  for (const Leg& g : legs_) {
    pointInfluence(g.parent, g.B, G, H);
    const Vec3 vB = G * qd;
    pointInfluence(g.joint, g.P, G, H);
    const Vec3 vP = G * qd, u = g.P - g.B;
    const double l2 = u.squaredNorm();
    const Vec3 w = u.cross(vP - vB) / l2;
    T += 0.5 * g.mass * (0.5 * (vB + vP)).squaredNorm() + 0.5 * (g.mass * l2 / 12) * w.squaredNorm();
  }
  return T;
}

double ExactApairChain::potentialEnergy(bool with_legs) const {
  double V = 0;
  for (int i = 0; i < model_.njoints(); ++i)
    V -= model_.joints[i].link.mass * model_.gravity.dot(oMi_[i].act(model_.joints[i].link.com));
  if (with_legs)
    for (const Leg& g : legs_) V -= g.mass * model_.gravity.dot(0.5 * (g.B + g.P));
  return V;
}

// ---------------------------------------------------------------------------------------------
// Checks and comparisons

ApairClosureCheck checkApairClosure(double rho, double from, double to, int samples) {
  if (!std::isfinite(from) || !std::isfinite(to)) throw Error("A-pair closure check: the θ_v range must be finite");
  if (samples < 2) throw Error("A-pair closure check: at least 2 samples");
  ApairPlatform P(rho);
  ApairClosureCheck c;
  c.samples = samples;
  const auto& A = P.anchors();
  for (int k = 0; k < samples; ++k) {
    const double th = from + (to - from) * k / (samples - 1);
    const ApairPlatformState& s = P.solve(th);
    const double d = rho * std::sin(th / 2);
    c.max_d_error = std::max(c.max_d_error, std::abs(s.p.z() - d));
    c.max_drift = std::max(c.max_drift, s.p.head<2>().norm());
    c.max_tilt = std::max(c.max_tilt, s.x.tail<2>().norm());
    c.max_residual = std::max(c.max_residual, s.residual);
    c.max_iterations = std::max(c.max_iterations, s.iterations);
    const Mat3 Z = rz(th);
    Eigen::Matrix<double, 6, 6> L;
    for (int l = 0; l < 6; ++l) {
      const Vec3 u = (s.P[l] - A.base[l]).normalized();
      L.row(l) << u.transpose(), (s.P[l] - s.p).cross(u).transpose();
    }
    const Vec6 sv = Eigen::JacobiSVD<Eigen::Matrix<double, 6, 6>>(L).singularValues();
    c.max_sigma6 = std::max(c.max_sigma6, sv[5] / sv[0]);
    c.min_sigma5 = std::min(c.min_sigma5, sv[4] / sv[0]);
    for (int l = 0; l < 6; ++l) {
      const Vec3 robinson = Z * A.platform[l] + Vec3(0, 0, d) - A.base[l];
      const Vec3 exact = s.P[l] - A.base[l];
      c.max_direction_error = std::max(c.max_direction_error, (exact.normalized() - robinson.normalized()).norm());
    }
    const double e = std::max({(s.dp - Vec3(0, 0, rho / 2 * std::cos(th / 2))).norm(), (s.w - Vec3::UnitZ()).norm(),
                               (s.ddp - Vec3(0, 0, -rho / 4 * std::sin(th / 2))).norm(), s.dw.norm()});
    c.max_derivative_error = std::max(c.max_derivative_error, e);
  }
  return c;
}

}  // namespace achain
