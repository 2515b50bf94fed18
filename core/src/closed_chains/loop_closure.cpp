// Single closed loops by model transfer (Freeman 1985 §IV.A); see loop_closure.hpp for the equations.
#include <achain/closed_chains/loop_closure.hpp>

#include <achain/dynamics/rnea.hpp>
#include <achain/ik/ik.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/kinematics/influence.hpp>
#include <achain/kinematics/jacobian.hpp>
#include <achain/kinematics/transfer.hpp>

#include "closure_rows.hpp"
#include "dynamics/influence_rows.hpp"

#include <Eigen/LU>
#include <Eigen/SVD>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>

namespace achain {

namespace {

std::string listIndices(const std::vector<int>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

int numericRank(const MatX& A) {
  if (A.size() == 0) return 0;
  Eigen::FullPivLU<MatX> lu(A);
  lu.setThreshold(1e-9);
  return static_cast<int>(lu.rank());
}

double wrapAngle(double a) { return std::atan2(std::sin(a), std::cos(a)); }

}  // namespace

ClosureKind closureKindFromString(const std::string& s) {
  if (s == "planar_pin") return ClosureKind::PlanarPin;
  if (s == "point") return ClosureKind::Point;
  if (s == "pose") return ClosureKind::Pose;
  throw Error("closure: unknown kind \"" + s + "\" (expected planar_pin, point or pose)");
}

const char* toString(ClosureKind k) {
  switch (k) {
    case ClosureKind::PlanarPin: return "planar_pin";
    case ClosureKind::Point: return "point";
    default: return "pose";
  }
}

int closureSpaceSize(ClosureKind k) { return k == ClosureKind::PlanarPin ? 3 : 6; }
int closureConstraintCount(ClosureKind k) {
  return k == ClosureKind::PlanarPin ? 2 : (k == ClosureKind::Point ? 3 : 6);
}

std::vector<int> constrainedRows(const LoopClosure& loop) {
  if (!loop.rows.empty()) return loop.rows;
  if (loop.kind == ClosureKind::PlanarPin) return {0, 1};
  if (loop.kind == ClosureKind::Point) return {0, 1, 2};
  return {0, 1, 2, 3, 4, 5};
}

namespace {

/// The model transfer constrains the kind's rows only; other rows need the null-space method.
void requireKindRows(const LoopClosure& loop) {
  if (loop.rows.empty()) return;
  LoopClosure kind_only = loop;
  kind_only.rows.clear();
  if (loop.rows != constrainedRows(kind_only))
    throw Error(std::string("loop.rows: a ") + toString(loop.kind) +
                " closure constrains its own rows; other rows need the null-space method (closeNullSpaceLoop, "
                "achain special-loop)");
}

}  // namespace

VecX closureEnd(const Model& model, const Data& data, ClosureKind kind) {
  (void)model;
  const SE3& T = data.oMtool;
  if (kind == ClosureKind::PlanarPin) return Vec3(T.p.x(), T.p.y(), std::atan2(T.R(1, 0), T.R(0, 0)));
  return T.p;
}

namespace {

/// β: the coordinates not kept as α, in model order (N of them once the count is right).
struct Beta {
  std::array<int, 6> idx{};
  int count = 0;
  std::vector<int> list() const { return std::vector<int>(idx.begin(), idx.begin() + count); }
};

/// The checks both closed-chain dynamics paths make before they build [G^e_φ]: the closure's rows, the space
/// against the chain's coordinates, the coordinate choice α (in range, none twice; the count is part of the mobility
/// check). Allocation-free. Returns β when it has at most N entries (else count = N + 1: the mobility check names it).
Beta checkClosure(const Model& model, const LoopClosure& loop) {
  requireKindRows(loop);
  const int M = model.nv;
  const int N = closureSpaceSize(loop.kind);
  if (M < N)
    throw Error("loop: a " + std::string(toString(loop.kind)) + " closure acts in a " + std::to_string(N) +
                "-space; the open chain has only " + std::to_string(M) + " coordinates");
  const size_t A = loop.alpha.size();
  for (size_t k = 0; k < A; ++k) {
    const int a = loop.alpha[k];
    if (a < 0 || a >= M)
      throw Error("loop.coordinates[" + std::to_string(k) + "]: " + std::to_string(a) + " is not a coordinate (0…" +
                  std::to_string(M - 1) + ")");
    for (size_t j = 0; j < k; ++j)
      if (loop.alpha[j] == a) throw Error("loop.coordinates[" + std::to_string(k) + "]: coordinate " + std::to_string(a) + " given twice");
  }
  Beta beta;
  for (int i = 0; i < M && beta.count <= N; ++i)
    if (std::find(loop.alpha.begin(), loop.alpha.end(), i) == loop.alpha.end()) {
      if (beta.count < N) beta.idx[size_t(beta.count)] = i;
      ++beta.count;
    }
  return beta;
}

/// Mobility and [G^e_β] at this configuration (Ge: the free end's N×M influence). Throws the error that names
/// what is wrong; returns when both hold.
void checkMobility(const LoopClosure& loop, const MatX& Ge, const Beta& beta) {
  const int M = static_cast<int>(Ge.cols());
  const int N = closureSpaceSize(loop.kind);
  const int R = closureConstraintCount(loop.kind);
  const int grubler = M - R;
  const int rank_c = numericRank(Ge.topRows(R));
  const int chosen = static_cast<int>(loop.alpha.size()) + (N - R);
  if (rank_c != R || chosen != grubler) {
    throw Error("loop: mobility mismatch: " + std::to_string(chosen) + " coordinates chosen (α = " +
                listIndices(loop.alpha) + " plus " + std::to_string(N - R) +
                " free-end components); Grübler/Kutzbach count M − R = " + std::to_string(M) + " − " +
                std::to_string(R) + " = " + std::to_string(grubler) + ", rank count M − rank[G^c_φ] = " +
                std::to_string(M) + " − " + std::to_string(rank_c) + " = " + std::to_string(M - rank_c) +
                (chosen != grubler ? " (choose " + std::to_string(M - N) + " joints as α)" : ""));
  }
  MatX Ge_beta(N, N);
  for (int k = 0; k < N; ++k) Ge_beta.col(k) = Ge.col(beta.idx[size_t(k)]);
  const int rank_beta = numericRank(Ge_beta);
  if (rank_beta < N)
    throw Error("loop: [G^e_β] is singular at this configuration (rank " + std::to_string(rank_beta) + " of " +
                std::to_string(N) + "): the coordinates α = " + listIndices(loop.alpha) +
                " cannot be kept here; choose other joints");
}

}  // namespace

void closedChainModel(const Model& model, Data& data, const LoopClosure& loop, const Eigen::Ref<const VecX>& q,
                      const Eigen::Ref<const VecX>& qd, const DynamicsOptions& options, ClosedChainModel& out) {
  const int M = model.nv;
  if (q.size() != M || qd.size() != M)
    throw Error("loop: q and qd must have " + std::to_string(M) + " entries (got " + std::to_string(q.size()) + ", " +
                std::to_string(qd.size()) + ")");
  const Beta beta = checkClosure(model, loop);
  const int N = closureSpaceSize(loop.kind);
  const int R = closureConstraintCount(loop.kind);

  // Open chain at q: free-end influence coefficients (4-1), (4-2) and I*, P*, T^L (4-3)…(4-5).
  freemanModel(model, data, q, qd, options, out.open);  // runs forward kinematics
  Influence inf;
  toolInfluence(model, data, inf, 2);
  detail::influenceRows(inf, N, [&](int i) { return detail::closureEndRow(loop.kind, i); }, out.Ge, out.He);
  checkMobility(loop, out.Ge, beta);  // the Grübler/Kutzbach and rank counts; [G^e_β] regular (4-18)

  out.M = M;
  out.N = N;
  out.R = R;
  out.alpha = loop.alpha;
  out.beta = beta.list();

  // [G^w_φ], [H^w_φφ] (4-11)…(4-17), rows w = (α; e), columns φ in model order.
  const int A = M - N;
  out.Gw_phi.setZero(M, M);
  out.Hw_phiphi.resize(M, M, M);
  out.Hw_phiphi.setZero();
  for (int k = 0; k < A; ++k) out.Gw_phi(k, loop.alpha[k]) = 1;
  for (int i = 0; i < N; ++i) {
    out.Gw_phi.row(A + i) = out.Ge.row(i);
    out.Hw_phiphi.plane(A + i) = out.He.plane(i);
  }
  // [G^φ_w], [H^φ_ww] (4-18)…(4-23) and the model in w (4-24)…(4-28).
  reverseInfluence(out.Gw_phi, out.Hw_phiphi, out.Gphi_w, out.Hphi_ww);
  transferModel(out.open, out.Gw_phi, out.Hw_phiphi, out.w);

  // Closure (4-30), (4-31): y = (α; f), c.
  out.y_in_w.clear();
  out.c_in_w.clear();
  for (int k = 0; k < A; ++k) out.y_in_w.push_back(k);
  for (int i = R; i < N; ++i) out.y_in_w.push_back(A + i);
  for (int i = 0; i < R; ++i) out.c_in_w.push_back(A + i);
  const int Y = static_cast<int>(out.y_in_w.size());
  out.y.Istar.resize(Y, Y);
  out.y.Pstar.resize(Y, Y, Y);
  out.y.TL.resize(Y);
  out.Icy.resize(R, Y);
  out.Pcyy.resize(R, Y, Y);
  out.TLc.resize(R);
  for (int a = 0; a < Y; ++a) {
    out.y.TL[a] = out.w.TL[out.y_in_w[a]];
    for (int b = 0; b < Y; ++b) {
      out.y.Istar(a, b) = out.w.Istar(out.y_in_w[a], out.y_in_w[b]);
      for (int d = 0; d < Y; ++d) out.y.Pstar(a, b, d) = out.w.Pstar(out.y_in_w[a], out.y_in_w[b], out.y_in_w[d]);
    }
  }
  for (int r = 0; r < R; ++r) {
    out.TLc[r] = out.w.TL[out.c_in_w[r]];
    for (int b = 0; b < Y; ++b) {
      out.Icy(r, b) = out.w.Istar(out.c_in_w[r], out.y_in_w[b]);
      for (int d = 0; d < Y; ++d) out.Pcyy(r, b, d) = out.w.Pstar(out.c_in_w[r], out.y_in_w[b], out.y_in_w[d]);
    }
  }
}

namespace {
// ẇ from ẏ (ċ = 0).
VecX wFromY(const ClosedChainModel& cm, const Eigen::Ref<const VecX>& y) {
  if (y.size() != static_cast<int>(cm.y_in_w.size()))
    throw Error("loop: the closed chain has " + std::to_string(cm.y_in_w.size()) + " coordinates y (got " +
                std::to_string(y.size()) + " values)");
  VecX w = VecX::Zero(cm.M);
  for (size_t a = 0; a < cm.y_in_w.size(); ++a) w[cm.y_in_w[a]] = y[a];
  return w;
}
}  // namespace

void closedChainRates(const ClosedChainModel& cm, const Eigen::Ref<const VecX>& yd, const Eigen::Ref<const VecX>& ydd,
                      Eigen::Ref<VecX> qd, Eigen::Ref<VecX> qdd) {
  const VecX wd = wFromY(cm, yd), wdd = wFromY(cm, ydd);
  qd = cm.Gphi_w * wd;
  qdd = cm.Gphi_w * wdd + quadratic(cm.Hphi_ww, wd, wd);
}

void closedChainLoads(const ClosedChainModel& cm, const Eigen::Ref<const VecX>& yd, const Eigen::Ref<const VecX>& ydd,
                      Eigen::Ref<VecX> Ty, Eigen::Ref<VecX> Tc) {
  wFromY(cm, yd);  // size check
  wFromY(cm, ydd);
  Ty = cm.y.Istar * ydd + quadratic(cm.y.Pstar, yd, yd) - cm.y.TL;
  Tc = cm.Icy * ydd + quadratic(cm.Pcyy, yd, yd) - cm.TLc;
}

void closedChainInverseDynamics(const Model& model, Data& data, const LoopClosure& loop, const Eigen::Ref<const VecX>& q,
                                const Eigen::Ref<const VecX>& yd, const Eigen::Ref<const VecX>& ydd,
                                const DynamicsOptions& options, Eigen::Ref<VecX> qd, Eigen::Ref<VecX> qdd,
                                Eigen::Ref<VecX> Ty, Eigen::Ref<VecX> Tc) {
  using MatN = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;  // N ≤ 6: no heap
  using VecN = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1>;
  const int M = model.nv;
  const int N = closureSpaceSize(loop.kind);
  const int R = closureConstraintCount(loop.kind);
  const Beta beta = checkClosure(model, loop);
  const int A = static_cast<int>(loop.alpha.size());
  const int Y = M - R;  // y = (α; f): the closed chain's coordinates when the mobility count holds
  if (q.size() != M || qd.size() != M || qdd.size() != M)
    throw Error("loop: q, qd and qdd must have " + std::to_string(M) + " entries (got " + std::to_string(q.size()) + ", " +
                std::to_string(qd.size()) + ", " + std::to_string(qdd.size()) + ")");
  if (beta.count == N && (yd.size() != Y || ydd.size() != Y || Ty.size() != Y || Tc.size() != R))
    throw Error("loop: the closed chain has " + std::to_string(Y) + " coordinates y and " + std::to_string(R) +
                " constraint loads (got yd " + std::to_string(yd.size()) + ", ydd " + std::to_string(ydd.size()) + ", Ty " +
                std::to_string(Ty.size()) + ", Tc " + std::to_string(Tc.size()) + ")");

  // [G^e_φ] of the free end from the tool Jacobian (its rows are the first-order influence coefficients, 4-1).
  forwardKinematics(model, data, q);
  MatX& J = data.kin.J;
  toolJacobian(model, data, J);
  auto row = [&](int i) { return detail::closureEndRow(loop.kind, i); };
  MatN Gb(N, N);
  if (beta.count == N)
    for (int i = 0; i < N; ++i)
      for (int k = 0; k < N; ++k) Gb(i, k) = J(row(i), beta.idx[size_t(k)]);
  const Eigen::FullPivLU<MatN> lu = beta.count == N ? Eigen::FullPivLU<MatN>(Gb) : Eigen::FullPivLU<MatN>();
  if (beta.count != N || !lu.isInvertible()) {  // name what is wrong, as closedChainModel does
    MatX Ge(N, M);
    for (int i = 0; i < N; ++i) Ge.row(i) = J.row(row(i));
    checkMobility(loop, Ge, beta);
    throw Error("loop: [G^e_β] is singular at this configuration: the coordinates α = " + listIndices(loop.alpha) +
                " cannot be kept here; choose other joints");
  }

  // Rates (4-18…4-23 without forming [G^φ_w]): α̇ = ẏ_α; ė = (ċ = 0; ḟ); [G^e_β] β̇ = ė − [G^e_α] α̇.
  VecN rhs = VecN::Zero(N);
  for (int i = R; i < N; ++i) rhs[i] = yd[A + i - R];
  qd.setZero();
  for (int k = 0; k < A; ++k) qd[loop.alpha[size_t(k)]] = yd[k];
  for (int i = 0; i < N; ++i)
    for (int k = 0; k < A; ++k) rhs[i] -= J(row(i), loop.alpha[size_t(k)]) * yd[k];
  VecN b = lu.solve(rhs);
  for (int k = 0; k < N; ++k) qd[beta.idx[size_t(k)]] = b[k];
  // Accelerations: ë = [G^e_φ] φ̈ + φ̇ᵀ[H^e_φφ]φ̇, the second term the free end's acceleration at φ̈ = 0 (J̇φ̇).
  rhs.setZero();
  for (int i = R; i < N; ++i) rhs[i] = ydd[A + i - R];
  qdd.setZero();
  for (int k = 0; k < A; ++k) qdd[loop.alpha[size_t(k)]] = ydd[k];
  for (int i = 0; i < N; ++i)
    for (int k = 0; k < A; ++k) rhs[i] -= J(row(i), loop.alpha[size_t(k)]) * ydd[k];
  const Vec6 bias = toolJacobianDotTimesQdot(model, data, qd);  // overwrites data.kin.J
  for (int i = 0; i < N; ++i) rhs[i] -= bias[row(i)];
  b = lu.solve(rhs);
  for (int k = 0; k < N; ++k) qdd[beta.idx[size_t(k)]] = b[k];

  // One RNEA of the open chain at the closure's rates, then the loads in w = (α; e) by virtual work (4-24…4-31):
  // τ_φ = [G^w_φ]ᵀ T_w, so [G^e_β]ᵀ T_e = τ_β and T_α = τ_α − [G^e_α]ᵀ T_e.
  VecX& tau = data.dyn.tmp_c;
  inverseDynamics(model, data, q, qd, qdd, options, tau);
  toolJacobian(model, data, J);  // [G^e_φ] again (J̇φ̇ used its storage)
  VecN tb(N);
  for (int k = 0; k < N; ++k) tb[k] = tau[beta.idx[size_t(k)]];
  const VecN Te = lu.transpose().solve(tb);
  for (int k = 0; k < A; ++k) {
    const int a = loop.alpha[size_t(k)];
    double t = tau[a];
    for (int i = 0; i < N; ++i) t -= J(row(i), a) * Te[i];
    Ty[k] = t;
  }
  for (int i = R; i < N; ++i) Ty[A + i - R] = Te[i];
  for (int i = 0; i < R; ++i) Tc[i] = Te[i];
}

void reactuate(const ClosedChainModel& cm, const std::vector<int>& actuated, MatX& Gq_y, Tensor3& Hq_yy,
               FreemanModel& out) {
  const int Y = static_cast<int>(cm.y_in_w.size());
  if (static_cast<int>(actuated.size()) != Y)
    throw Error("actuated: the closed chain has " + std::to_string(Y) + " degrees of freedom; " +
                std::to_string(actuated.size()) + " actuated joints given");
  Gq_y.resize(Y, Y);
  Hq_yy.resize(Y, Y, Y);
  for (int n = 0; n < Y; ++n) {
    const int j = actuated[n];
    if (j < 0 || j >= cm.M)
      throw Error("actuated[" + std::to_string(n) + "]: " + std::to_string(j) + " is not a coordinate (0…" +
                  std::to_string(cm.M - 1) + ")");
    // Row φ_j of [G^φ_w] restricted to the y columns (4-33), (4-35); α rows are unit rows there and their
    // planes of [H^φ_ww] vanish (4-36), so one rule serves α and β.
    for (int a = 0; a < Y; ++a) {
      Gq_y(n, a) = cm.Gphi_w(j, cm.y_in_w[a]);
      for (int b = 0; b < Y; ++b) Hq_yy(n, a, b) = cm.Hphi_ww(j, cm.y_in_w[a], cm.y_in_w[b]);
    }
  }
  const int rank = numericRank(Gq_y);
  if (rank < Y)
    throw Error("actuated: [G^q_y] is singular at this configuration (rank " + std::to_string(rank) + " of " +
                std::to_string(Y) + "): joints " + listIndices(actuated) + " cannot drive the loop here");
  transferModel(cm.y, Gq_y, Hq_yy, out);  // (4-39)…(4-41)
}

namespace {

// closeLoop's Newton iteration on the β coordinates, with matrices of type Mat: fixed storage up to 6×6 (no heap:
// every closure with at most 6 solved coordinates, the legs of a parallel mechanism included) or dynamic.
template <class Mat>
int newtonClose(const Model& model, Data& data, const LoopClosure& loop, Eigen::Ref<VecX> q,
                const Eigen::Ref<const VecX>& f_target, const int* beta, int B, int E, double tol, int max_iter) {
  using Vec = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, Mat::MaxColsAtCompileTime, 1>;
  using VecE = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1>;
  const bool with_f = f_target.size() > 0;
  Mat Jb(E, B);
  VecE r(E);
  Vec step(B);
  MatX& J = data.kin.J;
  double scale = 1.0;  // length scale of the residual: the chain's reach
  double res = 0;
  for (int it = 0; it <= max_iter; ++it) {
    forwardKinematics(model, data, q);
    const SE3& T = data.oMtool;
    // the chain's reach, at least its offsets (a welded loop's tool may sit on its base)
    if (it == 0) scale = std::max((T.p - model.base.p).norm() + (loop.ground.p - model.base.p).norm(), detail::chainReach(model));
    // Residual in e's order: constrained components, then (with a target) the free one.
    if (loop.kind == ClosureKind::PlanarPin) {
      r[0] = T.p.x() - loop.ground.p.x();
      r[1] = T.p.y() - loop.ground.p.y();
      if (with_f) r[2] = wrapAngle(std::atan2(T.R(1, 0), T.R(0, 0)) - f_target[0]);
    } else {
      r.template head<3>() = T.p - loop.ground.p;
      if (loop.kind == ClosureKind::Pose) r.template tail<3>() = rotationLog(T.R * loop.ground.R.transpose());
    }
    double lin = r.head(std::min(E, 3)).norm() / scale, ang = E > 3 ? r.tail(E - 3).norm() : 0;
    if (loop.kind == ClosureKind::PlanarPin && with_f) ang = std::abs(r[2]), lin = r.template head<2>().norm() / scale;
    res = std::max(lin, ang);
    if (res <= tol) return it;
    if (it == max_iter) break;
    toolJacobian(model, data, J);  // the free end's first-order influence coefficients (4-1)
    for (int e = 0; e < E; ++e)
      for (int b = 0; b < B; ++b) Jb(e, b) = J(detail::closureEndRow(loop.kind, e), beta[b]);
    // as many equations as coordinates (a leg of a parallel mechanism, a loop with its mobility kept): LU, a
    // third of the least-squares decomposition's time; otherwise the minimum-norm step
    Eigen::Index rank;
    if (E == B) {
      Eigen::FullPivLU<Mat> lu(Jb);
      lu.setThreshold(1e-10);
      rank = lu.rank();
      if (rank == E) step = -lu.solve(r);
    } else {
      Eigen::CompleteOrthogonalDecomposition<Mat> cod(Jb);
      cod.setThreshold(1e-10);
      rank = cod.rank();
      if (rank == E) step = -cod.solve(r);
    }
    if (rank < E)
      throw Error("loop cannot close: [G^c_β] is singular at iteration " + std::to_string(it) + " (rank " +
                  std::to_string(rank) + " of " + std::to_string(E) + "); residual " + std::to_string(res));
    const double mx = step.cwiseAbs().maxCoeff();
    if (mx > 0.5) step *= 0.5 / mx;  // damp long steps so a drag stays on its assembly branch
    for (int b = 0; b < B; ++b) q[beta[b]] += step[b];
  }
  throw Error("loop cannot close: residual " + std::to_string(res) + " (relative) after " + std::to_string(max_iter) +
              " Newton iterations; the chain cannot reach the ground with the kept coordinates α = " +
              listIndices(loop.alpha));
}

}  // namespace

int closeLoop(const Model& model, Data& data, const LoopClosure& loop, Eigen::Ref<VecX> q,
              const Eigen::Ref<const VecX>& f_target, double tol, int max_iter) {
  requireKindRows(loop);
  const int M = model.nv;
  const int N = closureSpaceSize(loop.kind);
  const int R = closureConstraintCount(loop.kind);
  if (q.size() != M) throw Error("loop: q must have " + std::to_string(M) + " entries (got " + std::to_string(q.size()) + ")");
  const bool with_f = f_target.size() > 0;
  if (with_f && (loop.kind != ClosureKind::PlanarPin || f_target.size() != N - R))
    throw Error(std::string("loop: a free-end target is available for the planar pin only (θz, 1 value); got ") +
                std::to_string(f_target.size()) + " values for a " + toString(loop.kind) + " closure");
  for (int a : loop.alpha)
    if (a < 0 || a >= M) throw Error("loop.coordinates: " + std::to_string(a) + " is not a coordinate");
  // β: the coordinates not kept, in order (at most 6 of them in a fixed array: no allocation)
  auto solved = [&](int i) { return std::find(loop.alpha.begin(), loop.alpha.end(), i) == loop.alpha.end(); };
  int B = 0;
  for (int i = 0; i < M; ++i) B += solved(i);
  const int E = with_f ? N : R;  // equations solved
  auto fill = [&](int* beta) {
    for (int i = 0, b = 0; i < M; ++i)
      if (solved(i)) beta[b++] = i;
  };
  if (B <= 6) {
    std::array<int, 6> beta{};
    fill(beta.data());
    return newtonClose<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>>(model, data, loop, q, f_target,
                                                                                       beta.data(), B, E, tol, max_iter);
  }
  std::vector<int> beta(size_t(B), 0);
  fill(beta.data());
  return newtonClose<MatX>(model, data, loop, q, f_target, beta.data(), B, E, tol, max_iter);
}

}  // namespace achain

namespace achain {

void closedChainForwardDynamics(const ClosedChainModel& cm, const Eigen::Ref<const VecX>& yd,
                                const Eigen::Ref<const VecX>& Ty, Eigen::Ref<VecX> ydd) {
  const int Y = static_cast<int>(cm.y_in_w.size());
  if (yd.size() != Y || Ty.size() != Y || ydd.size() != Y)
    throw Error("loop: the closed chain has " + std::to_string(Y) + " coordinates y; ẏ, T_y and ÿ must have as many");
  Eigen::LLT<MatX> llt(cm.y.Istar);
  if (llt.info() != Eigen::Success) throw Error("loop: I*_yy is not positive definite at this configuration");
  ydd = llt.solve(Ty + cm.y.TL - quadratic(cm.y.Pstar, yd, yd));
}

VecX closedChainCoordinates(const Model& model, Data& data, const LoopClosure& loop, const Eigen::Ref<const VecX>& q) {
  if (loop.kind == ClosureKind::Point)
    throw Error("loop: a point closure's free rotations are quasi-coordinates; it has no coordinates y to integrate");
  const bool planar = loop.kind == ClosureKind::PlanarPin;
  VecX y(loop.alpha.size() + (planar ? 1 : 0));
  for (size_t k = 0; k < loop.alpha.size(); ++k) y[k] = q[loop.alpha[k]];
  if (planar) {
    forwardKinematics(model, data, q);
    y[y.size() - 1] = closureEnd(model, data, loop.kind)[2];
  }
  return y;
}

namespace {

/// σ_min/σ_max of [G^e_β] for the kept joints α (β: the columns of Ge not in α): how well α describes the loop at
/// the configuration of Ge; 0 where it cannot (the loop's closure in β is singular there).
double keptConditioning(const MatX& Ge, const std::vector<int>& alpha) {
  const int M = static_cast<int>(Ge.cols()), N = static_cast<int>(Ge.rows());
  MatX Gb(N, N);
  for (int i = 0, b = 0; i < M; ++i)
    if (std::find(alpha.begin(), alpha.end(), i) == alpha.end()) Gb.col(b++) = Ge.col(i);
  const VecX sv = Eigen::JacobiSVD<MatX>(Gb).singularValues();
  return sv[0] > 0 ? sv[sv.size() - 1] / sv[0] : 0.0;
}

/// The joints an integration step keeps: α itself while it describes the loop well (conditioning ≥ 0.1), else the
/// combination of as many joints with the best conditioning, when that is at least twice α's.
std::vector<int> keptJointsForStep(const MatX& Ge, const std::vector<int>& alpha) {
  const double own = keptConditioning(Ge, alpha);
  if (own >= 0.1 || alpha.empty()) return alpha;
  const int M = static_cast<int>(Ge.cols()), A = static_cast<int>(alpha.size());
  std::vector<int> best = alpha, pick(A);
  double best_c = own;
  std::iota(pick.begin(), pick.end(), 0);
  for (;;) {  // every A-subset of the M joints, in lexicographic order
    if (const double c = keptConditioning(Ge, pick); c > best_c) best_c = c, best = pick;
    int k = A - 1;
    while (k >= 0 && pick[k] == M - A + k) --k;
    if (k < 0) break;
    ++pick[k];
    for (int l = k + 1; l < A; ++l) pick[l] = pick[l - 1] + 1;
  }
  return best_c >= 2 * own ? best : alpha;
}

/// One RK4 step in the loop's own coordinates y (q closed on entry and on return).
void rk4Step(const Model& model, Data& data, const LoopClosure& loop, VecX& q, VecX& y, VecX& yd,
             const VecX& Ty, double dt, const DynamicsOptions& options, ClosedChainModel& cm) {
  const bool planar = loop.kind == ClosureKind::PlanarPin;
  const int Y = static_cast<int>(y.size());
  VecX qs = q;
  // ÿ at (y, ẏ): close the loop at y (from the previous stage's joints), build the model, solve.
  auto accel = [&](const VecX& ys, const VecX& yds) {
    for (size_t k = 0; k < loop.alpha.size(); ++k) qs[loop.alpha[k]] = ys[k];
    closeLoop(model, data, loop, qs, planar ? VecX(ys.tail(1)) : VecX());
    VecX qd(model.nv), qdd(model.nv), a(Y);
    closedChainModel(model, data, loop, qs, VecX::Zero(model.nv), options, cm);
    closedChainRates(cm, yds, VecX::Zero(Y), qd, qdd);
    if (options.friction) closedChainModel(model, data, loop, qs, qd, options, cm);
    closedChainForwardDynamics(cm, yds, Ty, a);
    return a;
  };
  const VecX y0 = y, v0 = yd;
  const VecX a1 = accel(y0, v0);
  const VecX v2 = v0 + 0.5 * dt * a1;
  const VecX a2 = accel(y0 + 0.5 * dt * v0, v2);
  const VecX v3 = v0 + 0.5 * dt * a2;
  const VecX a3 = accel(y0 + 0.5 * dt * v2, v3);
  const VecX v4 = v0 + dt * a3;
  const VecX a4 = accel(y0 + dt * v3, v4);
  y = y0 + dt / 6 * (v0 + 2 * v2 + 2 * v3 + v4);
  yd = v0 + dt / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
  for (size_t k = 0; k < loop.alpha.size(); ++k) qs[loop.alpha[k]] = y[k];
  closeLoop(model, data, loop, qs, planar ? VecX(y.tail(1)) : VecX());
  closedChainModel(model, data, loop, qs, VecX::Zero(model.nv), options, cm);
  q = qs;
}

/// One RK4 step of h in the best kept joints at q (α itself unless it describes the loop poorly there), y and ẏ
/// read back in α.
void switchingStep(const Model& model, Data& data, const LoopClosure& loop, VecX& q, VecX& y, VecX& yd,
                   const VecX& Ty, double dt, const DynamicsOptions& options, ClosedChainModel& cm) {
  const int Y = static_cast<int>(y.size()), A = static_cast<int>(loop.alpha.size());
  // Near some configurations the loop's own kept joints α cannot describe it ([G^e_β] turns singular: the
  // five-bar's coupler stretched, where α's crank reaches the end of its travel and turns back). The step is
  // then integrated in the joints that describe the loop best there; y and ẏ are read back in α.
  forwardKinematics(model, data, q);
  Influence inf;
  toolInfluence(model, data, inf, 1);
  const int N = closureSpaceSize(loop.kind);
  MatX Ge(N, model.nv);
  for (int e = 0; e < N; ++e) Ge.row(e) = inf.G.row(detail::closureEndRow(loop.kind, e));
  LoopClosure work = loop;
  work.alpha = keptJointsForStep(Ge, loop.alpha);
  if (work.alpha == loop.alpha) return rk4Step(model, data, loop, q, y, yd, Ty, dt, options, cm);
  VecX qd(model.nv), qdd(model.nv);
  closedChainModel(model, data, loop, q, VecX::Zero(model.nv), options, cm);
  closedChainRates(cm, yd, VecX::Zero(Y), qd, qdd);  // the state as joint rates
  VecX qs = q, yw = y, ydw = yd;  // y' = (α'; f): f (a planar pin's θz) is the same coordinate in both
  for (int k = 0; k < A; ++k) yw[k] = q[work.alpha[k]], ydw[k] = qd[work.alpha[k]];
  // The loads in y': equal virtual work, T_y'ᵀ δy' = T_yᵀ δy with δy = J δy', J = ∂y/∂y' (α's rows of [G^φ_y'];
  // f's row picks f).
  closedChainModel(model, data, work, q, VecX::Zero(model.nv), options, cm);
  MatX J = MatX::Zero(Y, Y);
  for (int b = 0; b < Y; ++b) {
    for (int k = 0; k < A; ++k) J(k, b) = cm.Gphi_w(loop.alpha[k], cm.y_in_w[b]);
    for (int k = A; k < Y; ++k) J(k, b) = k == b ? 1.0 : 0.0;
  }
  const VecX Tyw = J.transpose() * Ty;
  rk4Step(model, data, work, qs, yw, ydw, Tyw, dt, options, cm);
  closedChainRates(cm, ydw, VecX::Zero(Y), qd, qdd);
  for (int k = 0; k < A; ++k) y[k] = qs[loop.alpha[k]], yd[k] = qd[loop.alpha[k]];
  for (int k = A; k < Y; ++k) y[k] = yw[k], yd[k] = ydw[k];
  q = qs;
}

}  // namespace

void closedChainStep(const Model& model, Data& data, const LoopClosure& loop, Eigen::Ref<VecX> q, Eigen::Ref<VecX> y,
                     Eigen::Ref<VecX> yd, const Eigen::Ref<const VecX>& Ty, double dt, const DynamicsOptions& options,
                     ClosedChainModel& cm) {
  if (loop.kind == ClosureKind::Point)
    throw Error("loop: a point closure's free rotations are quasi-coordinates; its motion cannot be integrated in y");
  if (!(dt > 0) || !std::isfinite(dt)) throw Error("dt: must be a finite number > 0");
  // Step control by step doubling: a step of h is kept when one RK4 step and two of h/2 agree (the two halves are
  // kept), else h shrinks. A nearly massless link can whip round in a fraction of a millisecond (the five-bar's
  // 1e-5-mass crank at 1e4 rad/s when its links line up); a fixed step left the loop there or jumped branches.
  VecX qc = q, yc = y, ydc = yd, Tyc = Ty;
  VecX q1, y1, yd1, q2, y2, yd2;
  double t = 0, h = dt;
  const double h_min = dt * 1e-6;
  std::string last_failure;  // why the last rejected trial step failed, when it threw (said if the step gets too short)
  while (t < dt) {
    h = std::min(h, dt - t);
    double err = std::numeric_limits<double>::infinity();
    try {
      q1 = qc, y1 = yc, yd1 = ydc;
      switchingStep(model, data, loop, q1, y1, yd1, Tyc, h, options, cm);
      q2 = qc, y2 = yc, yd2 = ydc;
      switchingStep(model, data, loop, q2, y2, yd2, Tyc, 0.5 * h, options, cm);
      switchingStep(model, data, loop, q2, y2, yd2, Tyc, 0.5 * h, options, cm);
      // 1e-10 rad (or m) in y, 1e-8 of the speed scale (at least 1e-8 per s) in ẏ
      const double vs = std::max(1.0, ydc.cwiseAbs().maxCoeff());
      err = std::max((y1 - y2).cwiseAbs().maxCoeff() / 1e-10, (yd1 - yd2).cwiseAbs().maxCoeff() / (1e-8 * vs));
      if (!std::isfinite(err)) err = std::numeric_limits<double>::infinity();
    } catch (const Error& e) {
      // a trial step whose loop does not close is too long: shorter
      last_failure = e.what();
    }
    if (err <= 1) {
      last_failure.clear();
      qc = q2, yc = y2, ydc = yd2;
      t += h;
      h *= err > 0 ? std::min(2.0, 0.9 * std::pow(err, -0.2)) : 2.0;
    } else {
      h *= std::isfinite(err) ? std::max(0.1, 0.9 * std::pow(err, -0.2)) : 0.25;
      if (h < h_min)
        throw Error("loop: the motion is too fast to integrate at t + " + std::to_string(t) + " s of this step (step below " +
                    std::to_string(h_min) + " s): a link with almost no mass may be whipping round" +
                    (last_failure.empty() ? std::string() : " (the last trial step failed: " + last_failure + ")"));
    }
  }
  q = qc, y = yc, yd = ydc;
  closedChainModel(model, data, loop, q, VecX::Zero(model.nv), options, cm);
}

}  // namespace achain
