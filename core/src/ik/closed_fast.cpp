#include <achain/ik/closed_fast.hpp>

#include <algorithm>
#include <cmath>

#include <achain/ik/closed_4a.hpp>
#include <achain/ik/closed_6r.hpp>
#include <achain/ik/closed_common.hpp>

namespace achain {

using namespace ik_detail;

namespace {

/// Standard-DH link with precomputed cos/sin of θ and α.
EIGEN_STRONG_INLINE SE3 dhLinkCS(double c, double s, double dz, double a, double ca, double sa) {
  SE3 T;
  T.R << c, -s * ca, s * sa, s, c * ca, -c * sa, 0, sa, ca;
  T.p << a * c, a * s, dz;
  return T;
}

/// |Δp| and the rotation angle between R and R* from ‖R − R*‖_F = 2√2·sin(angle/2).
inline void poseErrorFast(const SE3& T, const SE3& target, double& pe, double& oe) {
  pe = (T.p - target.p).norm();
  const double f = (T.R - target.R).norm() / (2.0 * std::sqrt(2.0));
  oe = 2.0 * std::asin(std::min(1.0, f));
}


/// The three-axis decomposition M = Rz(t1) Rx(α) Rz(t2) Rx(β) Rz(t3) of closed_common.hpp's euler3,
/// with the sin/cos of every angle taken from the vectors that define it (no sin/cos calls).
/// Returns false if the orientation is not reachable (|cos t2| > 1); degenerate as in euler3.
struct WristAngles {
  bool degenerate = false;
  double c2 = 0;
  std::array<double, 2> t1{}, t2{}, t3{}, c1{}, s1{}, s2{}, c3{}, s3{};
};

inline bool eulerFast(const Mat3& M, double ca, double sa, double cb, double sb, double eps, WristAngles& E) {
  double c2 = (ca * cb - M(2, 2)) / (sa * sb);
  if (std::abs(c2) > 1 + 1e-9) return false;
  c2 = std::max(-1.0, std::min(1.0, c2));
  const double base = std::acos(c2), sbase = std::sqrt(1 - c2 * c2);  // = sin(acos c2)
  if (sbase < eps) {
    E.degenerate = true;
    return true;
  }
  E.c2 = c2;
  const double mzx = M(0, 2), mzy = M(1, 2), mrx = M(2, 0), mry = M(2, 1);
  for (int k = 0; k < 2; ++k) {
    const double st = k == 0 ? sbase : -sbase;
    // w = N·ẑ, r = ẑᵀ·N for N = Rx(α) Rz(t2) Rx(β)
    const double wx = st * sb, wy = -ca * c2 * sb - sa * cb;
    const double rx = sa * st, ry = sa * c2 * cb + ca * sb;
    // t1 = angle(mz) − angle(w), t3 = angle(r) − angle(mr)
    const double c1 = mzx * wx + mzy * wy, s1 = mzy * wx - mzx * wy, n1 = std::sqrt(c1 * c1 + s1 * s1);
    const double c3 = rx * mrx + ry * mry, s3 = ry * mrx - rx * mry, n3 = std::sqrt(c3 * c3 + s3 * s3);
    E.t1[k] = std::atan2(s1, c1);
    E.t3[k] = std::atan2(s3, c3);
    E.t2[k] = k == 0 ? base : -base;
    E.s2[k] = st;
    E.c1[k] = c1 / n1;
    E.s1[k] = s1 / n1;
    E.c3[k] = c3 / n3;
    E.s3[k] = s3 / n3;
  }
  return true;
}

/// The candidate collector of SolutionSet (representatives, duplicates, order) on fixed arrays.
using SolutionArray = std::array<ClosedIkSolution, ClosedIkSolutions::kCapacity>;

struct FixedSet {
  FixedSet(const Model& m_, const double* period_, const double* seed_, double tol_, int nq_, SolutionArray& in_,
           SolutionArray& out_)
      : joints(m_.joints.data()), period(period_), seed(seed_), tol(tol_), nq(nq_), in(in_), out(out_) {}
  const Joint* joints;
  const double* period;
  const double* seed;
  double tol;
  int nq;
  SolutionArray &in, &out;  // scratch held by the workspace
  int n_in = 0, n_out = 0;
  bool overflow = false;

  void offer(const double* q, double pe, double oe, std::uint8_t flags) {
    if (!(pe + oe <= tol)) return;
    std::array<double, 6> r;
    bool inside = true;
    for (int j = 0; j < nq; ++j) {
      bool ok = false;
      r[j] = pickRepresentative(joints[j], q[j], period[j], seed ? seed + j : nullptr, ok);
      inside = inside && ok;
    }
    auto& list = inside ? in : out;
    int& n = inside ? n_in : n_out;
    for (int k = 0; k < n; ++k) {  // duplicate: every joint within 1e-7 (stops at the first that differs)
      int j = 0;
      while (j < nq && std::abs(list[k].q[j] - r[j]) < 1e-7) ++j;
      if (j == nq) return;
    }
    if (n == ClosedIkSolutions::kCapacity) {
      overflow = true;
      return;
    }
    ClosedIkSolution& s = list[n++];
    s.q = r;
    s.within_limits = inside;
    s.position_error = pe;
    s.orientation_error = oe;
    s.flags = flags;
  }

  double dist2(const ClosedIkSolution& s) const {
    double d = 0;
    for (int j = 0; j < nq; ++j) d += (s.q[j] - seed[j]) * (s.q[j] - seed[j]);
    return d;
  }

  void finish(ClosedIkSolutions& res) {
    auto sortList = [&](SolutionArray& list, int n) {
      if (!seed) return;
      // stable insertion sort by the distance to the seed (as std::stable_sort in SolutionSet)
      for (int i = 1; i < n; ++i) {
        const ClosedIkSolution x = list[i];
        const double dx = dist2(x);
        int k = i - 1;
        while (k >= 0 && dx < dist2(list[k])) {
          list[k + 1] = list[k];
          --k;
        }
        list[k + 1] = x;
      }
    };
    sortList(in, n_in);
    sortList(out, n_out);
    res.count = 0;
    for (int k = 0; k < n_in; ++k) res.sol[res.count++] = in[k];
    for (int k = 0; k < n_out && res.count < ClosedIkSolutions::kCapacity; ++k) res.sol[res.count++] = out[k];
    res.n_inside = n_in;
    res.status = n_in > 0 ? IkStatus::Ok : n_out > 0 ? IkStatus::Limits : IkStatus::Unreachable;
  }
};

std::uint8_t flagBits(const std::vector<std::pair<std::string, std::string>>& flags) {
  std::uint8_t b = 0;
  for (const auto& f : flags) {
    b |= kIkHasFlags;
    if (f.first == "arm" && f.second == "right") b |= kIkArmRight;
    if (f.first == "elbow" && f.second == "up") b |= kIkElbowUp;
    if (f.first == "wrist" && f.second == "noflip") b |= kIkWristNoflip;
    if (f.first == "wrist" && f.second == "singular") b |= kIkWristSingular;
  }
  return b;
}

/// Cold path: the general solver, converted.
void fallback(ClosedIkWorkspace& ws, const SE3& target, const double* seed, ClosedIkSolutions& out, double tol) {
  const Model& m = ws.model();
  VecX s;
  if (seed) s = Eigen::Map<const VecX>(seed, m.nq);
  const IkAllResult r = ws.prototypeClass() ? solvePrototypeClass(m, target, seed ? &s : nullptr, tol)
                                            : solveWristPartitioned6R(m, target, seed ? &s : nullptr, tol);
  out.fallback = true;
  out.status = r.status;
  out.count = 0;
  auto put = [&](const IkSolution& x) {
    if (out.count == ClosedIkSolutions::kCapacity) return;
    ClosedIkSolution& o = out.sol[out.count++];
    for (int j = 0; j < m.nq; ++j) o.q[j] = x.q[j];
    o.position_error = x.position_error;
    o.orientation_error = x.orientation_error;
    o.within_limits = x.within_limits;
    o.flags = flagBits(x.flags);
  };
  for (const auto& x : r.solutions) put(x);
  out.n_inside = out.count;
  for (const auto& x : r.outside_limits) put(x);
}

}  // namespace

ClosedIkWorkspace::ClosedIkWorkspace(const Model& model) : model_(&model) {
  std::string a, b;
  if (isPrototypeClass(model, &a)) {
    proto_ = true;
  } else if (!isWristPartitioned6R(model, &b)) {
    throw Error("closed-form IK: no closed form for '" + model.name + "' (prototype class: " + a +
                "; wrist-partitioned 6R: " + b + ")");
  }
  S_ = model.convention == DHConvention::Standard ? model : convertConvention(model, DHConvention::Standard);
  nq_ = model.nq;
  for (int i = 0; i < nq_; ++i) {
    ca_[i] = std::cos(S_.joints[i].alpha);
    sa_[i] = std::sin(S_.joints[i].alpha);
    period_[i] = jointPeriod(model.joints[i]);
  }
  const auto& J = S_.joints;
  base_inv_ = S_.base.inverse();
  tool_inv_ = S_.tool.inverse();
  tool_identity_ = S_.tool == SE3::Identity();
  rx_last_t_ = Rx(J[nq_ - 1].alpha).transpose();
  c_a2_ = std::cos(J[1].alpha) > 0 ? 1.0 : -1.0;
  if (proto_) {
    ca_e_ = std::cos(J[0].alpha), sa_e_ = std::sin(J[0].alpha);
    cb_e_ = std::cos(J[1].alpha + J[2].alpha), sb_e_ = std::sin(J[1].alpha + J[2].alpha);
    atan_a1_ = std::atan2(0.0, J[1].a);
    sgn_a1_ = J[1].a > 0 ? 1.0 : -1.0;
  } else {
    ca_e_ = ca_[3], sa_e_ = sa_[3], cb_e_ = ca_[4], sb_e_ = sa_[4];
    const Vec3 v3(J[2].a, -std::sin(J[2].alpha) * J[3].d, J[2].d + std::cos(J[2].alpha) * J[3].d);
    h_ = J[1].d + c_a2_ * v3.z();
    const double bx = v3.x(), by = c_a2_ * v3.y();
    L3_ = std::hypot(bx, by);
    beta_ = std::atan2(by, bx);
    cbeta_ = bx / L3_;
    sbeta_ = by / L3_;
  }
}

std::vector<std::pair<std::string, std::string>> closedIkFlagStrings(std::uint8_t f) {
  if (!(f & kIkHasFlags)) return {};
  return {{"arm", f & kIkArmRight ? "right" : "left"},
          {"elbow", f & kIkElbowUp ? "up" : "down"},
          {"wrist", f & kIkWristSingular ? "singular" : f & kIkWristNoflip ? "noflip" : "flip"}};
}

void ikClosed(ClosedIkWorkspace& ws, const SE3& target, const double* seed, ClosedIkSolutions& out, double tol) {
  out.fallback = false;
  out.count = out.n_inside = 0;
  out.status = IkStatus::Unreachable;
  const Model& S = ws.S_;
  const auto& J = S.joints;
  FixedSet set(ws.model(), ws.period_.data(), seed, tol, ws.nq_, ws.in_, ws.out_);
  const SE3 Tt = ws.base_inv_ * target;  // compare chain·tool with this

  if (ws.proto_) {
    // --- prototype class: the closed form of solvePrototypeClass (closed_4a.cpp), non-degenerate case,
    // with every sin/cos taken from the vectors that define the angle (one atan2 per angle) ---
    const double c_a2 = ws.c_a2_;
    const SE3 T04 = Tt * ws.tool_inv_;
    const Mat3 M = T04.R * ws.rx_last_t_;
    WristAngles E;
    if (!eulerFast(M, ws.ca_e_, ws.sa_e_, ws.cb_e_, ws.sb_e_, 1e-7, E)) return;
    if (E.degenerate) return fallback(ws, target, seed, out, tol);
    for (int k = 0; k < 2; ++k) {
      const double th1 = E.t1[k], th4 = E.t3[k];
      const double cphi = E.c2, sphi = E.s2[k];
      double b1[2], b4[2], b2[2], b3[2];
      const int n1 = rotationBranches(J[0], qFromTheta(J[0], th1), b1);
      const int n4 = rotationBranches(J[3], qFromTheta(J[3], th4), b4);
      for (int i1 = 0; i1 < n1; ++i1)
        for (int i4 = 0; i4 < n4; ++i4) {
          double t1, t4, dz1, dz4;
          jointMotion(J[0], b1[i1], t1, dz1);
          jointMotion(J[3], b4[i4], t4, dz4);
          const SE3 T1 = dhLinkCS(E.c1[k], E.s1[k], dz1, J[0].a, ws.ca_[0], ws.sa_[0]);
          const SE3 T4 = dhLinkCS(E.c3[k], E.s3[k], dz4, J[3].a, ws.ca_[3], ws.sa_[3]);
          // position of T1⁻¹·T04·T4⁻¹
          const Vec3 p13 = T1.R.transpose() * (T04.p - T04.R * (T4.R.transpose() * T4.p) - T1.p);
          const double vx = p13.x() - J[2].a * cphi, vy = p13.y() - J[2].a * sphi;
          const double nv = std::sqrt(vx * vx + vy * vy);
          if (std::abs(nv - std::abs(J[1].a)) > 1e-6 * (1 + std::abs(J[1].a))) continue;
          // θ2 = atan2(v) − atan2(0, a2); θ3 = c·(φ − θ2)
          const double c2 = ws.sgn_a1_ * vx / nv, s2 = ws.sgn_a1_ * vy / nv;
          const double th2 = std::atan2(vy, vx) - ws.atan_a1_;
          const double th3 = c_a2 * (E.t2[k] - th2);
          const double c3 = cphi * c2 + sphi * s2, s3 = c_a2 * (sphi * c2 - cphi * s2);
          const int n2 = rotationBranches(J[1], qFromTheta(J[1], th2), b2);
          const int n3 = rotationBranches(J[2], qFromTheta(J[2], th3), b3);
          const SE3 T4t = T4 * S.tool;
          for (int i2 = 0; i2 < n2; ++i2)
            for (int i3 = 0; i3 < n3; ++i3) {
              double t2, t3, dz2, dz3;
              jointMotion(J[1], b2[i2], t2, dz2);
              jointMotion(J[2], b3[i3], t3, dz3);
              if (std::abs(dz2 + c_a2 * dz3 - p13.z()) > 1e-6 * (1 + std::abs(p13.z()))) continue;
              const double q[4] = {b1[i1], b2[i2], b3[i3], b4[i4]};
              // verification: the chain product of this candidate (θ's as computed, its own dz's)
              const SE3 T = T1 * dhLinkCS(c2, s2, dz2, J[1].a, ws.ca_[1], ws.sa_[1]) *
                            dhLinkCS(c3, s3, dz3, J[2].a, ws.ca_[2], ws.sa_[2]) * T4t;
              double pe, oe;
              poseErrorFast(T, Tt, pe, oe);
              set.offer(q, pe, oe, 0);
            }
        }
    }
  } else {
    // --- wrist-partitioned 6R: the closed form of solveWristPartitioned6R (closed_6r.cpp), regular
    // case, sin/cos from the defining vectors (no sin/cos calls), verified with T03 and the wrist ---
    const double c2s = ws.c_a2_;
    const SE3 T06 = Tt * ws.tool_inv_;
    const Mat3 R6 = T06.R * ws.rx_last_t_;
    const Vec3 W = T06.p - J[5].d * R6.col(2);
    const double A = ws.sa_[0] * W.x(), B = -ws.sa_[0] * W.y(), C = ws.h_ - ws.ca_[0] * (W.z() - J[0].d);
    const double r = std::hypot(A, B);
    if (r < 1e-12) return fallback(ws, target, seed, out, tol);
    double c = C / r;
    if (std::abs(c) > 1 + 1e-12) return;
    c = std::max(-1.0, std::min(1.0, c));
    const double g = std::atan2(A, B), d = std::acos(c);
    const double cg = B / r, sg = A / r, sd = std::sqrt(std::max(0.0, 1 - c * c));
    const double L3 = ws.L3_, a2 = J[1].a;
    for (int i = 0; i < 2; ++i) {
      const double sig = i == 0 ? 1.0 : -1.0;
      const double th1 = g + sig * d;
      const SE3 T1 = dhLinkCS(cg * c - sig * sg * sd, sg * c + sig * cg * sd, J[0].d, J[0].a, ws.ca_[0], ws.sa_[0]);
      const Vec3 W1 = T1.R.transpose() * (W - T1.p);
      const double rr = W1.x() * W1.x() + W1.y() * W1.y();
      double cpsi = (rr - a2 * a2 - L3 * L3) / (2 * a2 * L3);
      if (std::abs(cpsi) > 1 + 1e-12) continue;
      cpsi = std::max(-1.0, std::min(1.0, cpsi));
      const double psi0 = std::acos(cpsi), spsi0 = std::sqrt(std::max(0.0, 1 - cpsi * cpsi));
      const std::uint8_t arm = W.dot(T1.R.col(0)) >= 0 ? kIkArmRight : 0;
      for (int j = 0; j < 2; ++j) {
        const double psi = j == 0 ? psi0 : -psi0, sp = j == 0 ? spsi0 : -spsi0;
        const double th3 = c2s * (psi - ws.beta_);
        const double c3 = cpsi * ws.cbeta_ + sp * ws.sbeta_, s3 = c2s * (sp * ws.cbeta_ - cpsi * ws.sbeta_);
        // θ2 = angle(W1.xy) − angle(a2 + L3 cos ψ, L3 sin ψ)
        const double x2 = a2 + L3 * cpsi, y2 = L3 * sp;
        const double cr = W1.y() * x2 - W1.x() * y2, dt = W1.x() * x2 + W1.y() * y2;
        const double n2 = std::sqrt(cr * cr + dt * dt);
        if (!(n2 > 0)) return fallback(ws, target, seed, out, tol);
        const double th2 = std::atan2(cr, dt);
        const SE3 T2 = dhLinkCS(dt / n2, cr / n2, J[1].d, J[1].a, ws.ca_[1], ws.sa_[1]);
        const SE3 T3 = dhLinkCS(c3, s3, J[2].d, J[2].a, ws.ca_[2], ws.sa_[2]);
        const SE3 T12 = T1 * T2;
        const SE3 T03 = T12 * T3;
        const Vec3 o1 = T1.p, o2 = T12.p, u = (W - o1).normalized();
        const Vec3 e = (o2 - o1) - (o2 - o1).dot(u) * u;
        const std::uint8_t elbow = e.z() >= 0 ? kIkElbowUp : 0;
        const Mat3 M = T03.R.transpose() * R6;
        SE3 Tt3;  // the target seen from frame 3
        Tt3.R.noalias() = T03.R.transpose() * Tt.R;
        Tt3.p.noalias() = T03.R.transpose() * (Tt.p - T03.p);
        WristAngles E;
        if (!eulerFast(M, ws.ca_e_, ws.sa_e_, ws.cb_e_, ws.sb_e_, 1e-9, E)) continue;
        if (E.degenerate) return fallback(ws, target, seed, out, tol);
        for (int k = 0; k < 2; ++k) {
          const double q[6] = {qFromTheta(J[0], th1),    qFromTheta(J[1], th2),    qFromTheta(J[2], th3),
                               qFromTheta(J[3], E.t1[k]), qFromTheta(J[4], E.t2[k]), qFromTheta(J[5], E.t3[k])};
          const std::uint8_t wrist = E.s2[k] >= 0 ? kIkWristNoflip : 0;
          // verification in frame 3: the wrist (and tool) from its sin/cos against the target seen from
          // T03 (already computed) — the same |Δp| and angle as T03·T36·tool against the target
          const SE3 L4 = dhLinkCS(E.c1[k], E.s1[k], J[3].d, J[3].a, ws.ca_[3], ws.sa_[3]);
          const SE3 L5 = dhLinkCS(E.c2, E.s2[k], J[4].d, J[4].a, ws.ca_[4], ws.sa_[4]);
          const SE3 L6 = dhLinkCS(E.c3[k], E.s3[k], J[5].d, J[5].a, ws.ca_[5], ws.sa_[5]);
          const Mat3 R45 = L4.R * L5.R;
          SE3 T36;
          T36.R.noalias() = R45 * L6.R;
          T36.p = L4.p + L4.R * L5.p + R45 * L6.p;
          if (!ws.tool_identity_) T36 = T36 * S.tool;
          double pe, oe;
          poseErrorFast(T36, Tt3, pe, oe);
          set.offer(q, pe, oe, static_cast<std::uint8_t>(kIkHasFlags | arm | elbow | wrist));
        }
      }
    }
  }
  if (set.overflow) return fallback(ws, target, seed, out, tol);
  set.finish(out);
}

}  // namespace achain
