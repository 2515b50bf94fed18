#include <achain/ik/closed_form.hpp>

#include <algorithm>
#include <cmath>

#include <achain/ik/closed_common.hpp>
#include <achain/model/dh_extract.hpp>

namespace achain {

using namespace ik_detail;

namespace {

using Chain = ClosedFormChain;  // the Model's closed-form constants (model/closed_form_chain.hpp)

/// Both classes' reasons, for the error message.
std::string noClosedFormMessage(const Model& m) {
  std::string a, b;
  isPrototypeClass(m, &a);
  isWristPartitioned6R(m, &b);
  return "closed-form IK: no closed form for '" + m.name + "' (prototype class: " + a + "; wrist-partitioned 6R: " + b + ")";
}

/// Joint variable from the total rotation θ = θ0 + rot·q (modulo one turn).
inline double qOf(const Chain& c, int i, double theta) { return wrapPi((theta - c.theta0[i]) / c.rot[i]); }

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

inline bool eulerFast(const Mat3& M, const Chain& c, double eps, WristAngles& E) {
  const double ca = c.ca_e, sa = c.sa_e, cb = c.cb_e, sb = c.sb_e;
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

// ---------------------------------------------------------------------------------------------------
// Prototype class

/// The angles the orientation fixes: θ₁, φ = θ₂ + c·θ₃ and θ₄, each with its cos and sin.
struct ProtoAngles {
  double th1, c1, s1, phi, cphi, sphi, th4, c4, s4;
};

/// Number of branch combinations a candidate expands to (two per two-turn joint).
int protoCombos(const Chain& c) {
  int n = 1;
  for (int i = 0; i < 4; ++i) n *= c.period[i] > 2 * kPi + 1e-9 ? 2 : 1;
  return n;
}

/// Visits every candidate (q, its chain-product pose error) of the orientation angles x: the branches
/// of every two-turn joint, θ₂ from the planar position, θ₃ = c·(φ − θ₂). With `prefilter`, candidates
/// failing the planar reach |v| = |a₂| or the axial consistency along axes 2, 3 are skipped (regular
/// case); without, every combination is visited, and `only` ≥ 0 selects the only-th of them.
template <class Visit>
void protoCandidates(const Chain& c, const SE3& T04, const SE3& Tt, const ProtoAngles& x,
                     bool prefilter, int only, Visit&& visit) {
  double b1[2], b4[2], b2[2], b3[2];
  const int n1 = rotationBranches(c.period[0], qOf(c, 0, x.th1), b1);
  const int n4 = rotationBranches(c.period[3], qOf(c, 3, x.th4), b4);
  int idx = 0;
  JointState j1, j2, j3, j4;
  for (int i1 = 0; i1 < n1; ++i1)
    for (int i4 = 0; i4 < n4; ++i4) {
      c.jm[0].evaluate(b1[i1], j1);
      c.jm[3].evaluate(b4[i4], j4);
      const SE3 T1 = dhLinkCS(x.c1, x.s1, j1.dz, c.a[0], c.ca[0], c.sa[0]);
      const SE3 T4 = dhLinkCS(x.c4, x.s4, j4.dz, c.a[3], c.ca[3], c.sa[3]);
      // position of T1⁻¹·T04·T4⁻¹
      const Vec3 p13 = T1.R.transpose() * (T04.p - T04.R * (T4.R.transpose() * T4.p) - T1.p);
      const double vx = p13.x() - c.a[2] * x.cphi, vy = p13.y() - c.a[2] * x.sphi;
      const double nv = std::sqrt(vx * vx + vy * vy);
      if (prefilter && std::abs(nv - std::abs(c.a[1])) > 1e-6 * (1 + std::abs(c.a[1]))) continue;
      // θ2 = atan2(v) − atan2(0, a2); θ3 = c·(φ − θ2)
      const double th2 = std::atan2(vy, vx) - c.atan_a1;
      const double c2 = nv > 0 ? c.sgn_a1 * vx / nv : std::cos(th2), s2 = nv > 0 ? c.sgn_a1 * vy / nv : std::sin(th2);
      const double th3 = c.c_a2 * (x.phi - th2);
      const double c3 = x.cphi * c2 + x.sphi * s2, s3 = c.c_a2 * (x.sphi * c2 - x.cphi * s2);
      const int n2 = rotationBranches(c.period[1], qOf(c, 1, th2), b2);
      const int n3 = rotationBranches(c.period[2], qOf(c, 2, th3), b3);
      const SE3 T4t = T4 * c.tool;
      for (int i2 = 0; i2 < n2; ++i2)
        for (int i3 = 0; i3 < n3; ++i3) {
          if (only >= 0 && idx++ != only) continue;
          c.jm[1].evaluate(b2[i2], j2);
          c.jm[2].evaluate(b3[i3], j3);
          // axial consistency along the parallel axes 2, 3: dz2 + cos(α2)·dz3 = z of T13
          if (prefilter && std::abs(j2.dz + c.c_a2 * j3.dz - p13.z()) > 1e-6 * (1 + std::abs(p13.z()))) continue;
          const double q[4] = {b1[i1], b2[i2], b3[i3], b4[i4]};
          // verification: the chain product of this candidate (θ's as computed, its own dz's)
          const SE3 T = T1 * dhLinkCS(c2, s2, j2.dz, c.a[1], c.ca[1], c.sa[1]) *
                        dhLinkCS(c3, s3, j3.dz, c.a[2], c.ca[2], c.sa[2]) * T4t;
          double pe, oe;
          poseErrorFast(T, Tt, pe, oe);
          visit(q, pe, oe);
        }
    }
}

/// Approach axis parallel to axis 1: θ₁ scanned over one turn per branch combination, the minima of
/// the pose error refined by golden section; a one-parameter family if (nearly) every θ₁ works.
void protoDegenerate(const Chain& c, const SE3& T04, const SE3& Tt, const Mat3& M, const double* seed,
                     IkCollector& set, IkSolutionSet& out) {
  const int combos = protoCombos(c);
  auto anglesAt = [&](double th1_hint) {
    const Euler3 e = euler3(M, c.alpha_e, c.beta_e, th1_hint, 1e-7);
    return ProtoAngles{e.t1[0], std::cos(e.t1[0]), std::sin(e.t1[0]), e.t2[0], std::cos(e.t2[0]),
                       std::sin(e.t2[0]), e.t3[0], std::cos(e.t3[0]), std::sin(e.t3[0])};
  };
  auto errAt = [&](double th1, int combo, double* qout) {
    double err = kInf;
    protoCandidates(c, T04, Tt, anglesAt(th1), false, combo, [&](const double* q, double pe, double oe) {
      err = pe + oe;
      if (qout) std::copy(q, q + 4, qout);
    });
    return err;
  };
  constexpr int N = 360;
  const double period = 2 * kPi;
  double g[N], q[4], q2[4];
  int good = 0, total = 0;
  for (int k = 0; k < combos; ++k) {
    for (int i = 0; i < N; ++i) {
      g[i] = errAt(period * i / N, k, nullptr);
      ++total;
      if (g[i] < 1e-7) ++good;
    }
    for (int i = 0; i < N; ++i) {
      const double gl = g[(i + N - 1) % N], gr = g[(i + 1) % N];
      if (!(g[i] <= gl && g[i] <= gr) || g[i] > 1e-2) continue;
      // golden-section refinement on [t_{i-1}, t_{i+1}]
      double a = period * (i - 1) / N, b = period * (i + 1) / N;
      const double r = 0.5 * (std::sqrt(5.0) - 1);
      double x1 = b - r * (b - a), x2 = a + r * (b - a);
      double f1 = errAt(x1, k, nullptr), f2 = errAt(x2, k, nullptr);
      for (int it = 0; it < 80; ++it) {
        if (f1 < f2) {
          b = x2; x2 = x1; f2 = f1; x1 = b - r * (b - a); f1 = errAt(x1, k, nullptr);
        } else {
          a = x1; x1 = x2; f1 = f2; x2 = a + r * (b - a); f2 = errAt(x2, k, nullptr);
        }
      }
      const ProtoAngles x = anglesAt(0.5 * (a + b));
      protoCandidates(c, T04, Tt, x, false, k, [&](const double* qq, double pe, double oe) { set.offer(qq, pe, oe, 0); });
    }
  }
  if (!(total > 0 && good > 0.9 * total)) {
    set.finish();
    out.closed.kase = ClosedIkCase::ScannedApproach;
    return;
  }
  // One-parameter family: θ1 free, θ4 follows; report the member nearest the seed (or mid-limits θ1).
  const auto& L0 = c.limits[0];
  const double qref = seed ? seed[0] : (std::isfinite(L0.lower) && std::isfinite(L0.upper) ? 0.5 * (L0.lower + L0.upper) : 0.0);
  const double th1 = c.theta0[0] + c.rot[0] * qref;
  int best_c = 0;
  double best_e = kInf;
  for (int k = 0; k < combos; ++k) {
    const double e = errAt(th1, k, nullptr);
    if (e < best_e) {
      best_e = e;
      best_c = k;
    }
  }
  errAt(th1, best_c, q);
  errAt(th1 + 1e-4, best_c, q2);
  IkCollector one(out, c.nq, c.limits.data(), c.period.data(), seed, set.tolerance());
  protoCandidates(c, T04, Tt, anglesAt(th1), false, best_c,
                  [&](const double* qq, double pe, double oe) { one.offer(qq, pe, oe, 0); });
  one.finish();
  out.status = IkStatus::Singular;
  out.closed.kase = ClosedIkCase::Family;
  for (int i = 0; i < 4; ++i) {
    out.closed.family_q0[i] = out.count > 0 ? out.sol(0).q[i] : q[i];
    out.closed.family_dir[i] = std::round(std::remainder(q2[i] - q[i], 2 * kPi) / 1e-4 * 1e3) / 1e3;
  }
}

void solvePrototype(const Chain& c, const SE3& Tt, const double* seed, IkCollector& set,
                    IkSolutionSet& out) {
  const SE3 T04 = Tt * c.tool_inv;
  const Mat3 M = T04.R * c.rx_last_t;
  WristAngles E;
  if (!eulerFast(M, c, 1e-7, E)) {
    set.finish();
    out.closed.kase = ClosedIkCase::OrientationUnreachable;
    return;
  }
  if (E.degenerate) return protoDegenerate(c, T04, Tt, M, seed, set, out);
  for (int k = 0; k < 2; ++k) {
    const ProtoAngles x{E.t1[k], E.c1[k], E.s1[k], E.t2[k], E.c2, E.s2[k], E.t3[k], E.c3[k], E.s3[k]};
    protoCandidates(c, T04, Tt, x, true, -1, [&](const double* q, double pe, double oe) { set.offer(q, pe, oe, 0); });
  }
  set.finish();
}

// ---------------------------------------------------------------------------------------------------
// Wrist-partitioned 6R

void solveWrist6R(const Chain& c, const SE3& Tt, const double* seed, IkCollector& set, IkSolutionSet& out) {
  const double c2s = c.c_a2;
  const SE3 T06 = Tt * c.tool_inv;
  const Mat3 R6 = T06.R * c.rx_last_t;
  const Vec3 W = T06.p - c.d[5] * R6.col(2);  // wrist centre o4 = o5 = o6 − d6·z5
  const double A = c.sa[0] * W.x(), B = -c.sa[0] * W.y(), C = c.h - c.ca[0] * (W.z() - c.d[0]);
  const double r = std::hypot(A, B);
  bool singular = false;
  double th1s[2], c1s[2], s1s[2];
  int n1 = 2;
  if (r < 1e-12) {  // wrist centre on axis 1
    if (std::abs(C) > 1e-12) {  // A sin θ1 + B cos θ1 = C ≠ 0 has no root: inside the shoulder offset
      set.finish();
      out.closed.kase = ClosedIkCase::ShoulderOutOfReach;
      return;
    }
    singular = true;  // every θ1 works: θ1 from the seed

    n1 = 1;
    th1s[0] = seed ? c.theta0[0] + c.rot[0] * seed[0] : c.theta0[0];
    c1s[0] = std::cos(th1s[0]);
    s1s[0] = std::sin(th1s[0]);
  } else {
    double cc = C / r;
    if (std::abs(cc) > 1 + 1e-12) {
      set.finish();
      out.closed.kase = ClosedIkCase::ShoulderOutOfReach;
      return;
    }
    cc = std::max(-1.0, std::min(1.0, cc));
    const double g = std::atan2(A, B), d = std::acos(cc);
    const double cg = B / r, sg = A / r, sd = std::sqrt(std::max(0.0, 1 - cc * cc));
    for (int i = 0; i < 2; ++i) {
      const double sig = i == 0 ? 1.0 : -1.0;
      th1s[i] = g + sig * d;
      c1s[i] = cg * cc - sig * sg * sd;
      s1s[i] = sg * cc + sig * cg * sd;
    }
  }
  const double L3 = c.L3, a2 = c.a[1];
  const double hint4 = seed ? c.theta0[3] + c.rot[3] * seed[3] : c.theta0[3];
  for (int i = 0; i < n1; ++i) {
    const double th1 = th1s[i];
    const SE3 T1 = dhLinkCS(c1s[i], s1s[i], c.d[0], c.a[0], c.ca[0], c.sa[0]);
    const Vec3 W1 = T1.R.transpose() * (W - T1.p);
    const double rr = W1.x() * W1.x() + W1.y() * W1.y();
    double cpsi = (rr - a2 * a2 - L3 * L3) / (2 * a2 * L3);
    if (std::abs(cpsi) > 1 + 1e-12) continue;
    cpsi = std::max(-1.0, std::min(1.0, cpsi));
    const double psi0 = std::acos(cpsi), spsi0 = std::sqrt(std::max(0.0, 1 - cpsi * cpsi));
    // arm right: the wrist centre lies in front of axis 1 along frame 1's x axis
    const std::uint8_t arm = W.dot(T1.R.col(0)) >= 0 ? kIkArmRight : 0;
    for (int j = 0; j < 2; ++j) {
      const double psi = j == 0 ? psi0 : -psi0, sp = j == 0 ? spsi0 : -spsi0;
      const double th3 = c2s * (psi - c.beta);
      const double c3 = cpsi * c.cbeta + sp * c.sbeta, s3 = c2s * (sp * c.cbeta - cpsi * c.sbeta);
      // θ2 = angle(W1.xy) − angle(a2 + L3 cos ψ, L3 sin ψ)
      const double x2 = a2 + L3 * cpsi, y2 = L3 * sp;
      const double cr = W1.y() * x2 - W1.x() * y2, dt = W1.x() * x2 + W1.y() * y2;
      const double n2 = std::sqrt(cr * cr + dt * dt);
      const double th2 = n2 > 0 ? std::atan2(cr, dt) : std::atan2(W1.y(), W1.x()) - std::atan2(y2, x2);
      const SE3 T2 = n2 > 0 ? dhLinkCS(dt / n2, cr / n2, c.d[1], c.a[1], c.ca[1], c.sa[1])
                            : dhLinkCS(std::cos(th2), std::sin(th2), c.d[1], c.a[1], c.ca[1], c.sa[1]);
      const SE3 T3 = dhLinkCS(c3, s3, c.d[2], c.a[2], c.ca[2], c.sa[2]);
      const SE3 T12 = T1 * T2;
      const SE3 T03 = T12 * T3;
      // elbow up: the elbow (origin of frame 2) lies above the shoulder–wrist line, along axis 1 (z0)
      const Vec3 o1 = T1.p, o2 = T12.p, u = (W - o1).normalized();
      const Vec3 e = (o2 - o1) - (o2 - o1).dot(u) * u;
      const std::uint8_t elbow = e.z() >= 0 ? kIkElbowUp : 0;
      const Mat3 M = T03.R.transpose() * R6;
      SE3 Tt3;  // the target seen from frame 3
      Tt3.R.noalias() = T03.R.transpose() * Tt.R;
      Tt3.p.noalias() = T03.R.transpose() * (Tt.p - T03.p);
      WristAngles E;
      if (!eulerFast(M, c, 1e-9, E)) continue;
      int nk = 2;
      std::uint8_t wrist_singular = 0;
      if (E.degenerate) {  // sin θ5 = 0: θ4 from the seed, θ6 follows
        singular = true;
        wrist_singular = kIkWristSingular;
        const Euler3 e3 = euler3(M, c.alpha_e, c.beta_e, hint4, 1e-9);
        nk = 1;
        E.t1[0] = e3.t1[0], E.t2[0] = e3.t2[0], E.t3[0] = e3.t3[0];
        E.c1[0] = std::cos(e3.t1[0]), E.s1[0] = std::sin(e3.t1[0]);
        E.c2 = std::cos(e3.t2[0]), E.s2[0] = std::sin(e3.t2[0]);
        E.c3[0] = std::cos(e3.t3[0]), E.s3[0] = std::sin(e3.t3[0]);
      }
      for (int k = 0; k < nk; ++k) {
        const double q[6] = {qOf(c, 0, th1),     qOf(c, 1, th2),     qOf(c, 2, th3),
                             qOf(c, 3, E.t1[k]), qOf(c, 4, E.t2[k]), qOf(c, 5, E.t3[k])};
        const std::uint8_t wrist = wrist_singular ? wrist_singular : E.s2[k] >= 0 ? kIkWristNoflip : 0;
        // verification in frame 3: the wrist (and tool) from its sin/cos against the target seen from
        // T03 (already computed) — the same |Δp| and angle as T03·T36·tool against the target
        const SE3 L4 = dhLinkCS(E.c1[k], E.s1[k], c.d[3], c.a[3], c.ca[3], c.sa[3]);
        const SE3 L5 = dhLinkCS(E.c2, E.s2[k], c.d[4], c.a[4], c.ca[4], c.sa[4]);
        const SE3 L6 = dhLinkCS(E.c3[k], E.s3[k], c.d[5], c.a[5], c.ca[5], c.sa[5]);
        const Mat3 R45 = L4.R * L5.R;
        SE3 T36;
        T36.R.noalias() = R45 * L6.R;
        T36.p = L4.p + L4.R * L5.p + R45 * L6.p;
        if (!c.tool_identity) T36 = T36 * c.tool;
        double pe, oe;
        poseErrorFast(T36, Tt3, pe, oe);
        set.offer(q, pe, oe, static_cast<std::uint8_t>(kIkHasFlags | arm | elbow | wrist));
      }
    }
  }
  set.finish();
  if (singular) {
    out.closed.kase = ClosedIkCase::FreeAngle;
    if (out.status == IkStatus::Ok) out.status = IkStatus::Singular;
  }
}

}  // namespace

bool isPrototypeClass(const Model& model, std::string* why) {
  const std::string p = prototypeClassProblem(model);
  if (why) *why = p;
  return p.empty();
}

bool isWristPartitioned6R(const Model& model, std::string* why) {
  const std::string p = wrist6RClassProblem(model);
  if (why) *why = p;
  return p.empty();
}

std::vector<std::pair<std::string, std::string>> closedIkFlagStrings(std::uint8_t f) {
  if (!(f & kIkHasFlags)) return {};
  return {{"arm", f & kIkArmRight ? "right" : "left"},
          {"elbow", f & kIkElbowUp ? "up" : "down"},
          {"wrist", f & kIkWristSingular ? "singular" : f & kIkWristNoflip ? "noflip" : "flip"}};
}

const char* closedIkNote(ClosedIkCase kase) {
  switch (kase) {
    case ClosedIkCase::Regular: return "";
    case ClosedIkCase::OrientationUnreachable: return "orientation not reachable by this chain (axis geometry)";
    case ClosedIkCase::ShoulderOutOfReach: return "wrist centre out of reach of the shoulder offset";
    case ClosedIkCase::ScannedApproach:
      return "approach axis parallel to axis 1 (sin(theta2 - theta3) = 0): isolated solutions found by scanning theta1";
    case ClosedIkCase::Family:
      return "approach axis parallel to axis 1 (sin(theta2 - theta3) = 0): one-parameter family "
             "q(t) = family_q0 + t*family_dir; solutions lists one member";
    case ClosedIkCase::FreeAngle:
      return "singular target (wrist centre on axis 1 or sin(theta5) = 0): the free angle is taken from the seed; "
             "the solutions listed are members of a one-parameter family";
  }
  return "";
}

void ikClosed(const Model& model, Data& data, const SE3& target, const double* seed, IkSolutionSet& out,
              double tol) {
  checkData(model, data);
  const Chain& c = model.closed_form;
  if (c.cls == Chain::kNone) throw Error(noClosedFormMessage(model));
  IkCollector set(out, c.nq, c.limits.data(), c.period.data(), seed, tol);  // empties out (case regular)
  const SE3 Tt = c.base_inv * target;  // compare chain·tool with this
  if (c.cls == Chain::kPrototype)
    solvePrototype(c, Tt, seed, set, out);
  else
    solveWrist6R(c, Tt, seed, set, out);
}

}  // namespace achain
