#include <achain/ik/sweep.hpp>

#include <algorithm>
#include <cmath>

#include <achain/ik/closed_common.hpp>
#include <achain/kinematics/fk.hpp>

namespace achain {

namespace {

using Mat6x4 = Eigen::Matrix<double, 6, 4>;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Vec4 = Eigen::Vector4d;

constexpr double kStep = 3.0 * kDeg;    ///< sample step of the held joint (rad of its coordinate)
constexpr int kMaxTurns = 8;            ///< turns of one joint's coordinate followed (period or limits)
constexpr int kMaxCombos = 64;          ///< period branches of the three solved joints together
constexpr int kMaxTracks = 2 * kMaxCombos;
constexpr int kMaxCandidates = 96;      ///< local minima polished (the lowest kept)
constexpr double kGoodCondition = 0.05; ///< sin∠(a,b)·sin∠(c,b) above which a held joint is well conditioned
constexpr double kMinCondition = 1e-6;

/// The chain as T = H₀ J₀ H₁ J₁ H₂ J₂ H₃ J₃ H₄, J_i = Rz(θ_i)·Tz(dz_i), θ_i = th0_i + k_i·q_i (k = ±1).
struct Chain4 {
  std::array<SE3, 5> H;
  std::array<double, 4> th0{}, k{};
  std::array<const JointModel*, 4> jm{};
  std::array<int, 4> turns{};      ///< 2π branches of the coordinate for one rotation (1 R, 2 A, …)
  std::array<double, 4> turn0{};   ///< first branch offset (in turns) for a joint without a period
  std::array<double, 4> lo{}, hi{};  ///< the coordinate's domain when held (one period, or the limits)
};

void buildChain(const Model& m, Chain4& c) {
  for (int i = 0; i < 4; ++i) {
    const JointModel& jm = m.jmodels[i];
    c.jm[i] = &jm;
    c.th0[i] = jm.theta0 + jm.rot * jm.offset;
    c.k[i] = jm.rot * jm.scale;
    c.H[i] = (i == 0 ? m.base : m.jmodels[i - 1].post.toSE3()) * jm.pre.toSE3();  // the joint model's placement
    const JointLimits& L = m.joints[i].limits;
    if (jm.period > 0) {
      c.turns[i] = static_cast<int>(std::lround(jm.period / (2 * kPi)));
      c.turn0[i] = 0;
      c.lo[i] = 0;
      c.hi[i] = jm.period;
    } else {  // e.g. an H-pair: every turn inside the limits (a rotation's coordinate lies in (−π, π] + 2πm)
      const double m0 = std::floor((L.lower + kPi) / (2 * kPi)), m1 = std::ceil((L.upper - kPi) / (2 * kPi));
      c.turn0[i] = m0;
      c.turns[i] = static_cast<int>(m1 - m0) + 1;
      c.lo[i] = L.lower;
      c.hi[i] = L.upper;
    }
  }
  c.H[4] = m.jmodels[3].post.toSE3() * m.tool;
}

/// The chain's pose at coordinates q, with the axis directions z and points o (world, before each joint's
/// motion) and the world-frame Jacobian (v, ω) if J is given.
void chainPose(const Chain4& c, const double* q, SE3& T, Mat6x4* J) {
  Vec3 z[4], o[4];
  double rate[4], axial[4];
  SE3 A = c.H[0];
  for (int i = 0; i < 4; ++i) {
    JointState s;
    c.jm[i]->evaluate(q[i], s);
    z[i] = A.R.col(2);
    o[i] = A.p;
    rate[i] = s.rot_rate;
    axial[i] = s.axial_rate;
    SE3 Z = rotZ(s.theta);
    Z.p.z() = s.dz;
    A = A * Z * c.H[i + 1];
  }
  T = A;
  if (J)
    for (int i = 0; i < 4; ++i) {
      J->col(i).head<3>() = rate[i] * z[i].cross(T.p - o[i]) + axial[i] * z[i];
      J->col(i).tail<3>() = rate[i] * z[i];
    }
}

/// Gauss–Newton on the whole chain from q (updated; left at the best iterate). Position rows are divided
/// by `len` so that metres and radians weigh alike. Returns the best |e| (scaled).
double polish(const Chain4& c, const SE3& target, double len, double* q) {
  SE3 T;
  Mat6x4 J;
  Vec6 e;
  double best = kInf, best_q[4];
  for (int it = 0; it < 16; ++it) {
    chainPose(c, q, T, &J);
    e.head<3>() = (target.p - T.p) / len;
    e.tail<3>() = rotationLog(target.R * T.R.transpose());
    J.topRows<3>() /= len;
    const double err = e.norm();
    if (!(err < best)) break;  // no progress (or not finite): back to the best iterate
    // a start in a root's basin converges quadratically within a few steps; one that still creeps after
    // five is heading for a least-squares minimum that is no solution
    if (it >= 5 && err > 0.3 * best) {
      best = err;
      std::copy(q, q + 4, best_q);
      break;
    }
    best = err;
    std::copy(q, q + 4, best_q);
    if (err < 1e-15) break;
    const Eigen::Matrix4d N = J.transpose() * J;
    const Vec4 d = N.ldlt().solve(J.transpose() * e);
    if (!d.allFinite()) break;
    for (int i = 0; i < 4; ++i) q[i] += d[i];
  }
  std::copy(best_q, best_q + 4, q);
  return best;
}

/// Rotation parts of the chain split around the three solved joints a < b < c with joint s held at θ_s:
/// R = P₀ Rz(θ_a) P₁ Rz(θ_b) P₂ Rz(θ_c) P₃ (Zs = Rz(θ_s)).
void splitRotations(const Chain4& c, int s, const Mat3& Zs, Mat3 P[4]) {
  int seg = 0;
  P[0] = c.H[0].R;
  for (int i = 0; i < 4; ++i) {
    if (i == s) {
      P[seg] = P[seg] * Zs;
    } else {
      ++seg;
      P[seg].setIdentity();
    }
    P[seg] = P[seg] * c.H[i + 1].R;
  }
}

/// |(x, y)| of unit-scale components (no overflow to guard against: cheaper than std::hypot, notably in wasm).
inline double len2(double x, double y) { return std::sqrt(x * x + y * y); }

/// sin∠(a,b)·sin∠(c,b) for the held joint s at θ_s: the size of the middle joint's equation.
double condition(const Chain4& c, int s, double theta_s) {
  Mat3 P[4];
  splitRotations(c, s, rotZ(theta_s).R, P);
  const Vec3 a = P[1].row(2).transpose(), b = P[2].col(2);
  return len2(a.x(), a.y()) * len2(b.x(), b.y());
}

/// The joint to hold: well conditioned everywhere, then the fewest samples × branches; -1 if none.
int chooseHeld(const Chain4& c, double* cond_out = nullptr) {
  int best = -1;
  double best_cost = kInf, best_cond = 0;
  for (int s = 0; s < 4; ++s) {
    if (!std::isfinite(c.lo[s]) || !std::isfinite(c.hi[s])) continue;
    double cond = kInf;
    for (int k = 0; k < 12; ++k) cond = std::min(cond, condition(c, s, c.th0[s] + k * (2 * kPi / 12) + 0.1));
    if (cond < kMinCondition) continue;
    double combos = 1;
    for (int i = 0; i < 4; ++i)
      if (i != s) combos *= c.turns[i];
    if (combos > kMaxCombos) continue;
    const double cost = (c.hi[s] - c.lo[s]) * combos * (cond >= kGoodCondition ? 1.0 : 1e6);
    if (cost < best_cost || (cost == best_cost && cond > best_cond)) {
      best = s;
      best_cost = cost;
      best_cond = cond;
    }
  }
  if (cond_out) *cond_out = best_cond;
  return best;
}

double unwrapNear(double a, double prev) { return a + 2 * kPi * std::round((prev - a) / (2 * kPi)); }

struct Candidate {
  double e;
  std::array<double, 4> q;
};

/// Keeps the kMaxCandidates lowest candidates (a max-heap on e).
struct CandidatePool {
  std::array<Candidate, kMaxCandidates> c;
  int n = 0;
  void offer(double e, const double* q) {
    auto less = [](const Candidate& x, const Candidate& y) { return x.e < y.e; };
    if (n == kMaxCandidates) {
      if (!(e < c[0].e)) return;
      std::pop_heap(c.begin(), c.begin() + n, less);
      --n;
    }
    c[n].e = e;
    std::copy(q, q + 4, c[n].q.begin());
    ++n;
    std::push_heap(c.begin(), c.begin() + n, less);
  }
};

std::string chainProblem(const Model& m, Chain4* chain_out, int* held_out) {
  if (m.njoints() != 4 || m.nq != 4) return "needs exactly 4 joints with a coordinate each";
  for (int i = 0; i < 4; ++i) {
    if (m.joints[i].parent != i - 1) return "joints[" + std::to_string(i) + "].parent: not a serial chain";
    const JointModel& jm = m.jmodels[i];
    if (!jm.independent || jm.coord != i) return "joints[" + std::to_string(i) + "]: must own its coordinate (no mimic)";
    if (!jm.angular() || std::abs(std::abs(jm.rot * jm.scale) - 1) > 1e-12)
      return "joints[" + std::to_string(i) + "].kind: only rotating joints (R, A, H or a law; one turn per turn of the coordinate)";
    if (jm.period > 0) {
      const double n = jm.period / (2 * kPi);
      if (std::abs(n - std::round(n)) > 1e-9 || std::round(n) > kMaxTurns)
        return "joints[" + std::to_string(i) + "]: the motion's period must be 1 to 8 whole turns";
    } else {
      const JointLimits& L = m.joints[i].limits;
      if (!std::isfinite(L.lower) || !std::isfinite(L.upper) || L.upper - L.lower > 2 * kPi * (kMaxTurns - 1))
        return "joints[" + std::to_string(i) + "].limits: a joint without a period (an H-pair) needs finite limits within " +
               std::to_string(kMaxTurns - 1) + " turns";
    }
  }
  if (m.toolLink() != 3) return "tool_link: the tool must sit on the last link";
  Chain4 c;
  buildChain(m, c);
  const int s = chooseHeld(c);
  if (s < 0) return "no joint can be held: every choice leaves a middle axis parallel to a neighbour (or too many turns)";
  if (chain_out) *chain_out = c;
  if (held_out) *held_out = s;
  return "";
}

}  // namespace

bool isSweepChain(const Model& model, std::string* why) {
  const std::string p = chainProblem(model, nullptr, nullptr);
  if (why) *why = p;
  return p.empty();
}

void ikSweep(const Model& model, Data& data, const SE3& target, IkSolutionSet& out, const double* seed,
             double tolerance) {
  Chain4 c;
  int s = -1;
  const std::string why = chainProblem(model, &c, &s);
  if (!why.empty()) throw Error("method sweep: " + why);
  checkData(model, data);
  ik_detail::IkCollector set(out, model, seed, tolerance);  // empties out
  // length scale of the chain (the target's distance included), for the polish's weighting
  double len = target.p.norm();
  for (const SE3& H : c.H) len += H.p.norm();
  len = std::max(len / 6, 1e-3);

  int other[3], n = 0;
  for (int i = 0; i < 4; ++i)
    if (i != s) other[n++] = i;
  const int ia = other[0], ib = other[1], ic = other[2];
  // period branches of the three solved joints: combo index → turn offsets
  const int combos = c.turns[ia] * c.turns[ib] * c.turns[ic];
  const int tracks = 2 * combos;
  out.sweep.sweep_joint = s;
  out.sweep.branches = tracks;

  const int N = std::max(8, static_cast<int>(std::ceil((c.hi[s] - c.lo[s]) / kStep)));
  const double h = (c.hi[s] - c.lo[s]) / N;
  const bool periodic = c.jm[s]->period > 0;
  const int last = periodic ? N + 1 : N;  // periodic: two samples past the period, so its start is an interior point
  out.sweep.samples = last + 1;

  std::array<double, kMaxTracks> e1, e2;   // error at the previous two samples (kInf: none)
  std::array<std::array<double, 4>, kMaxTracks> q1;  // coordinates at the previous sample
  e1.fill(kInf);
  e2.fill(kInf);
  std::array<bool, 2> have{false, false};
  std::array<std::array<double, 3>, 2> prev{};  // unwrapped θ_a, θ_b, θ_c per orientation branch
  CandidatePool pool;

  // A local minimum of |p − p*| at sample j is a candidate when it is V-shaped: where the branch passes
  // through the target, |e| vanishes linearly (or quadratically at a double root), so the minimum sample
  // is at most a quarter of its two neighbours' sum (0.3 with a margin), while a minimum that does not
  // vanish is flat at the sample scale. Minima at the end of a branch (an end of the θ_b interval) are
  // always candidates.
  auto push = [&](int t, double e, const double* q) {
    if (e1[t] < kInf && e1[t] <= e2[t] && e1[t] <= e &&
        (e2[t] == kInf || e == kInf || e1[t] <= 0.3 * (e2[t] + e)))
      pool.offer(e1[t], q1[t].data());
    e2[t] = e1[t];
    e1[t] = e;
    if (q) std::copy(q, q + 4, q1[t].begin());
  };

  for (int j = 0; j <= last + 1; ++j) {
    const bool flush = j == last + 1;
    const double qs = c.lo[s] + j * h;
    bool valid[2] = {false, false};
    double th[2][3];
    Mat3 Zr[2][3];  // Rz of the solved joints' rotations, from the vectors that gave them (no sin/cos calls)
    Mat3 Zs;
    if (!flush) {
      Zs = rotZ(c.th0[s] + c.k[s] * qs).R;
      Mat3 P[4];
      splitRotations(c, s, Zs, P);
      const Mat3 W = P[0].transpose() * target.R * P[3].transpose();
      const Vec3 av = P[1].row(2).transpose(), bv = P[2].col(2);
      const double A = av.x() * bv.x() + av.y() * bv.y(), B = av.y() * bv.x() - av.x() * bv.y();
      const double C = W(2, 2) - av.z() * bv.z(), rr = len2(A, B);
      if (rr > 1e-12 && std::abs(C) <= rr * (1 + 1e-12)) {
        const double cd = std::max(-1.0, std::min(1.0, C / rr)), sd = std::sqrt(1 - cd * cd);
        const double base = std::atan2(B, A), delta = std::acos(cd);
        const Vec3 w = W.col(2), wr = W.row(2).transpose();
        const double nw = len2(w.x(), w.y()), nwr = len2(wr.x(), wr.y());
        for (int b = 0; b < 2; ++b) {
          const double tb = b == 0 ? base + delta : base - delta;
          const double sg = b == 0 ? 1.0 : -1.0;
          const double cb = (A * cd - sg * B * sd) / rr, sb = (B * cd + sg * A * sd) / rr;  // cos, sin of base ± δ
          Mat3& Zb = Zr[b][1];
          Zb << cb, -sb, 0, sb, cb, 0, 0, 0, 1;
          const Vec3 v = P[1] * (Zb * bv), u = P[2].transpose() * (Zb.transpose() * av);
          const double nv = len2(v.x(), v.y()), nu = len2(u.x(), u.y());
          if (nv < 1e-9 || nu < 1e-9 || nw < 1e-9 || nwr < 1e-9) continue;
          // θ_a turns v onto w about z; θ_c turns w' = W's last row onto u
          const double ca = (v.x() * w.x() + v.y() * w.y()) / (nv * nw), sa = (v.x() * w.y() - v.y() * w.x()) / (nv * nw);
          const double cc = (u.x() * wr.x() + u.y() * wr.y()) / (nu * nwr), sc = (u.y() * wr.x() - u.x() * wr.y()) / (nu * nwr);
          Zr[b][0] << ca, -sa, 0, sa, ca, 0, 0, 0, 1;
          Zr[b][2] << cc, -sc, 0, sc, cc, 0, 0, 0, 1;
          double t[3] = {std::atan2(sa, ca), tb, std::atan2(sc, cc)};
          if (have[b])
            for (int k = 0; k < 3; ++k) t[k] = unwrapNear(t[k], prev[b][k]);
          for (int k = 0; k < 3; ++k) th[b][k] = prev[b][k] = t[k];
          valid[b] = true;
        }
      }
    }
    for (int b = 0; b < 2; ++b) {
      have[b] = valid[b];
      if (!valid[b]) {
        for (int t = b * combos; t < (b + 1) * combos; ++t) push(t, kInf, nullptr);
        continue;
      }
      // coordinates (first branch of each solved joint), the rotation-only pose and the world axes
      double q[4];
      q[s] = qs;
      for (int k = 0; k < 3; ++k) q[other[k]] = c.k[other[k]] * (th[b][k] - c.th0[other[k]]) + 2 * kPi * c.turn0[other[k]];
      Vec3 z[4];
      SE3 A = c.H[0];
      JointState js;
      c.jm[s]->evaluate(qs, js);
      const double dz_s = js.dz;
      for (int i = 0, k = 0; i < 4; ++i) {
        z[i] = A.R.col(2);
        const Mat3& Z = i == s ? Zs : Zr[b][k++];
        A.p += A.R * (Z * c.H[i + 1].p);
        A.R = A.R * (Z * c.H[i + 1].R);
      }
      const Vec3 p0 = A.p + dz_s * z[s] - target.p;
      // the translations of each solved joint's turns
      double dz[3][kMaxTurns];
      for (int k = 0; k < 3; ++k)
        for (int m = 0; m < c.turns[other[k]]; ++m) {
          c.jm[other[k]]->evaluate(q[other[k]] + 2 * kPi * m, js);
          dz[k][m] = js.dz;
        }
      int t = b * combos;
      for (int ma = 0; ma < c.turns[ia]; ++ma)
        for (int mb = 0; mb < c.turns[ib]; ++mb)
          for (int mc = 0; mc < c.turns[ic]; ++mc, ++t) {
            const Vec3 p = p0 + dz[0][ma] * z[ia] + dz[1][mb] * z[ib] + dz[2][mc] * z[ic];
            double qt[4];
            qt[s] = qs;
            qt[ia] = q[ia] + 2 * kPi * ma;
            qt[ib] = q[ib] + 2 * kPi * mb;
            qt[ic] = q[ic] + 2 * kPi * mc;
            push(t, p.norm(), qt);
          }
    }
  }

  // polish every candidate, lowest first, and offer it to the collector (FK check; a repeat of a kept solution
  // is dropped before it; a miss is kept among the rejected, the least-squares starts when nothing is reached)
  std::sort(pool.c.begin(), pool.c.begin() + pool.n, [](const Candidate& x, const Candidate& y) { return x.e < y.e; });
  out.sweep.candidates = pool.n;
  VecX& qv = data.ik.qtry;  // Data's scratch (sized nq = 4): no allocation
  for (int k = 0; k < pool.n; ++k) {
    std::array<double, 4> q = pool.c[k].q;
    if (!std::isfinite(polish(c, target, len, q.data()))) continue;  // diverged: no solution, no start
    for (int i = 0; i < 4; ++i) qv[i] = q[i];
    set.offerChecked(data, target, qv);
  }
  set.finish();
}

}  // namespace achain
