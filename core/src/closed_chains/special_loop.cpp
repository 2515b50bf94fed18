// Special single loops by the null space of the constraint (Freeman App. D); see special_loop.hpp.
#include <achain/closed_chains/special_loop.hpp>

#include <achain/ik/ik.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/kinematics/influence.hpp>

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>

#include "dynamics/influence_rows.hpp"

namespace achain {

namespace {

void checkRows(const std::vector<int>& rows, const LoopClosure& loop, int M) {
  if (rows.empty()) throw Error("loop: no constrained rows");
  for (int r : rows)
    if (r < 0 || r > 5) throw Error("loop: constrained row " + std::to_string(r) + " is not a tool influence row (0…5)");
  for (int c : loop.alpha)
    if (c < 0 || c >= M) throw Error("loop: coordinate " + std::to_string(c) + " is not a joint coordinate (0…" + std::to_string(M - 1) + ")");
}

// The constraint residual along the chosen rows: position error, then the rotation vector of T·groundᵀ.
void residual(const SE3& T, const SE3& ground, const std::vector<int>& rows, Eigen::Ref<VecX> r) {
  Vec6 e;
  e << T.p - ground.p, rotationLog(T.R * ground.R.transpose());
  for (size_t k = 0; k < rows.size(); ++k) r[k] = e[rows[k]];
}

}  // namespace

int closeNullSpaceLoop(const Model& model, Data& data, const LoopClosure& loop, Eigen::Ref<VecX> q, double tol,
                       int max_iter) {
  const std::vector<int> rows = constrainedRows(loop);
  const int M = model.nv, R = static_cast<int>(rows.size());
  checkRows(rows, loop, M);
  if (q.size() != M) throw Error("loop: q must have " + std::to_string(M) + " entries");
  std::vector<int> beta;
  for (int i = 0; i < M; ++i)
    if (std::find(loop.alpha.begin(), loop.alpha.end(), i) == loop.alpha.end()) beta.push_back(i);
  const int B = static_cast<int>(beta.size());
  Influence inf;
  MatX J(R, B);
  VecX r(R), step(B);
  double scale = 1, res = 0;
  for (int it = 0; it <= max_iter; ++it) {
    forwardKinematics(model, data, q);
    if (it == 0) scale = detail::chainReach(model);
    residual(data.oMtool, loop.ground, rows, r);
    res = 0;
    for (int k = 0; k < R; ++k) res = std::max(res, std::abs(r[k]) / (rows[k] < 3 ? scale : 1.0));
    if (res <= tol) return it;
    if (it == max_iter) break;
    toolInfluence(model, data, inf, 1);
    for (int k = 0; k < R; ++k)
      for (int b = 0; b < B; ++b) J(k, b) = inf.G(rows[k], beta[b]);
    Eigen::CompleteOrthogonalDecomposition<MatX> cod(J);
    cod.setThreshold(1e-10);
    step = -cod.solve(r);
    const double mx = step.cwiseAbs().maxCoeff();
    if (mx > 0.5) step *= 0.5 / mx;
    for (int b = 0; b < B; ++b) q[beta[b]] += step[b];
  }
  throw Error("loop cannot close: residual " + std::to_string(res) + " (relative) after " + std::to_string(max_iter) +
              " Gauss–Newton iterations");
}

void nullSpaceLoopModel(const Model& model, Data& data, const LoopClosure& loop, const Eigen::Ref<const VecX>& q,
                        const Eigen::Ref<const VecX>& qd, const DynamicsOptions& options, NullSpaceLoopModel& out) {
  const std::vector<int> rows = constrainedRows(loop);
  const int M = model.nv, R = static_cast<int>(rows.size()), Y = static_cast<int>(loop.alpha.size());
  checkRows(rows, loop, M);
  out.M = M;
  freemanModel(model, data, q, qd, options, out.open);  // runs forward kinematics
  Influence inf;
  toolInfluence(model, data, inf, 2);
  detail::influenceRows(inf, R, [&](int k) { return rows[k]; }, out.Gc, out.Hc);
  // (D-1): the null space of [G^c_φ] by the SVD.
  Eigen::JacobiSVD<MatX> svd(out.Gc, Eigen::ComputeFullV);
  const VecX& sv = svd.singularValues();
  const double thr = 1e-9 * std::max(1.0, sv.size() ? sv[0] : 0.0);
  out.rank = 0;
  for (int k = 0; k < sv.size(); ++k)
    if (sv[k] > thr) ++out.rank;
  const int nullity = M - out.rank;
  if (Y != nullity)
    throw Error("loop: " + std::to_string(Y) + " coordinates chosen, but the loop has " + std::to_string(nullity) +
                " freedoms here (M − rank[G^c_φ] = " + std::to_string(M) + " − " + std::to_string(out.rank) +
                "; the Grübler count M − R = " + std::to_string(M - R) + ")");
  out.nullspace = svd.matrixV().rightCols(nullity);
  // (D-2): [G^φ_y] = N (E N)⁻¹.
  MatX EN(Y, Y), E = MatX::Zero(Y, M);
  for (int a = 0; a < Y; ++a) E(a, loop.alpha[a]) = 1;
  EN = E * out.nullspace;
  Eigen::FullPivLU<MatX> lu(EN);
  lu.setThreshold(1e-9);
  if (lu.rank() < Y)
    throw Error("loop: the coordinates cannot parametrize the loop's motion at this configuration (rank " +
                std::to_string(lu.rank()) + " of " + std::to_string(Y) + "); choose other joints");
  out.Gphi_y = out.nullspace * lu.inverse();
  // Second order: [G^c; E] h_ab = (−sym(Gᵀ H^c_p G)_ab; 0), least squares.
  MatX A(R + Y, M);
  A << out.Gc, E;
  const Eigen::ColPivHouseholderQR<MatX> qr(A);
  Tensor3 GHG;
  congruence(out.Gphi_y, out.Hc, out.Gphi_y, GHG);  // plane p: Gᵀ H^c_p G
  out.Hphi_yy.resize(M, Y, Y);
  out.compatibility = 0;
  VecX rhs = VecX::Zero(R + Y), h(M);
  for (int a = 0; a < Y; ++a)
    for (int b = a; b < Y; ++b) {
      for (int p = 0; p < R; ++p) rhs[p] = -0.5 * (GHG(p, a, b) + GHG(p, b, a));
      h = qr.solve(rhs);
      out.compatibility = std::max(out.compatibility, (A * h - rhs).cwiseAbs().maxCoeff());
      for (int m = 0; m < M; ++m) out.Hphi_yy(m, a, b) = out.Hphi_yy(m, b, a) = h[m];
    }
  // S_y by virtual work.
  const MatX& G = out.Gphi_y;
  const MatX GtI = G.transpose() * out.open.Istar;
  out.y.Istar = GtI * G;
  Tensor3 t1, t2, t3;
  dot(GtI, out.Hphi_yy, t1);                 // (Gᵀ I*) ∘ [H^φ_yy]
  dot(G.transpose(), out.open.Pstar, t2);    // Gᵀ ∘ P*_φφφ
  congruence(G, t2, G, t3);
  out.y.Pstar.resize(Y, Y, Y);
  for (int a = 0; a < Y; ++a) out.y.Pstar.plane(a) = t1.plane(a) + t3.plane(a);
  out.y.TL = G.transpose() * out.open.TL;
}

}  // namespace achain
