#include <achain/dynamics/operational.hpp>

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <cmath>

#include <achain/dynamics/crba.hpp>
#include <achain/kinematics/jacobian.hpp>

namespace achain {

TaskRows taskRowsFromString(const std::string& s) {
  if (s == "all") return TaskRows::All;
  if (s == "linear") return TaskRows::Linear;
  if (s == "angular") return TaskRows::Angular;
  throw Error("rows: '" + s + "' is not one of all, linear, angular");
}

const char* toString(TaskRows r) {
  switch (r) {
    case TaskRows::Linear: return "linear";
    case TaskRows::Angular: return "angular";
    default: return "all";
  }
}

namespace {

using Mat6 = Eigen::Matrix<double, 6, 6>;
using MatS = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;  // ≤ 6×6, on the stack

struct RowBlock {
  int first = 0, count = 6;
};
RowBlock rowBlock(TaskRows r) {
  switch (r) {
    case TaskRows::Linear: return {0, 3};
    case TaskRows::Angular: return {3, 3};
    default: return {0, 6};
  }
}

double relativeTolerance(double rank_tol) {
  if (std::isnan(rank_tol) || std::isinf(rank_tol)) throw Error("rank_tol: must be a finite number");
  return rank_tol < 0 ? kOperationalRankTol : rank_tol;
}

/// M (CRBA, runs FK), the tool Jacobian into data.kin.J, M⁻¹Jᵀ into data.dyn.MinvJt, and the full
/// 6×6 mobility matrix J M⁻¹ Jᵀ (symmetrised).
void mobility(const Model& model, Data& data, const Eigen::Ref<const VecX>& q, const DynamicsOptions& options, Mat6& A) {
  checkData(model, data);
  if (q.size() != model.nq)
    throw Error("q: expected " + std::to_string(model.nq) + " values, got " + std::to_string(q.size()));
  if (!q.allFinite()) throw Error("q: must be finite numbers");
  massMatrix(model, data, q, options, data.dyn.M);
  toolJacobian(model, data, data.kin.J);
  data.dyn.llt.compute(data.dyn.M);
  if (data.dyn.llt.info() != Eigen::Success)
    throw Error("mass matrix: not positive definite at this configuration (a joint moves no mass?); "
                "the operational-space inertia needs M⁻¹");
  data.dyn.MinvJt = data.kin.J.transpose();
  data.dyn.llt.solveInPlace(data.dyn.MinvJt);
  A.noalias() = data.kin.J * data.dyn.MinvJt;
  A = 0.5 * (A + A.transpose()).eval();
}

/// Eigen-decomposition of the m×m block of A (descending) into out, and Λ as its (pseudo-)inverse.
void invert(const Mat6& A, RowBlock b, double rel_tol, CartesianInertia& out) {
  const int m = b.count;
  const MatS Ab = A.block(b.first, b.first, m, m);
  const Eigen::SelfAdjointEigenSolver<MatS> es(Ab);
  if (es.info() != Eigen::Success) throw Error("operational-space inertia: eigen-decomposition failed (non-finite J or M?)");
  out.Lambda_inv.resize(m, m);
  out.Lambda_inv = Ab;
  out.eigenvalues.resize(m);
  out.axes.resize(m, m);
  for (int i = 0; i < m; ++i) {
    out.eigenvalues[i] = es.eigenvalues()[m - 1 - i];
    out.axes.col(i) = es.eigenvectors().col(m - 1 - i);
  }
  out.rank_tolerance = rel_tol * std::max(out.eigenvalues[0], 0.0);
  out.rank = 0;
  out.Lambda.resize(m, m);
  out.Lambda.setZero();
  for (int i = 0; i < m; ++i) {
    const double mu = out.eigenvalues[i];
    if (!(mu > out.rank_tolerance) || !(mu > 0)) continue;
    ++out.rank;
    out.Lambda.noalias() += (out.axes.col(i) / mu) * out.axes.col(i).transpose();
  }
  out.Lambda = 0.5 * (out.Lambda + out.Lambda.transpose());
}

}  // namespace

void cartesianInertia(const Model& model, Data& data, const Eigen::Ref<const VecX>& q, const DynamicsOptions& options,
                      CartesianInertia& out, TaskRows rows, double rank_tol) {
  const double tol = relativeTolerance(rank_tol);
  Mat6 A;
  mobility(model, data, q, options, A);
  invert(A, rowBlock(rows), tol, out);
}

void dynamicManipulability(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                           const DynamicsOptions& options, DynamicManipulability& out, TaskRows rows, double rank_tol) {
  const double tol = relativeTolerance(rank_tol);
  Mat6 A;
  mobility(model, data, q, options, A);
  const RowBlock b = rowBlock(rows);
  invert(A, b, tol, out.inertia);
  const int m = b.count, n = model.nv;
  out.radii.resize(m);
  out.axes.resize(m, m);
  if (n <= 6) {
    // J M⁻¹ = (M⁻¹Jᵀ)ᵀ is m×n with m, n ≤ 6: its SVD on the stack (full accuracy, no allocation).
    const MatS JMi = data.dyn.MinvJt.block(0, b.first, n, m).transpose();
    const Eigen::JacobiSVD<MatS> svd(JMi, Eigen::ComputeFullU);
    const auto& sv = svd.singularValues();  // min(m, n), descending
    for (int i = 0; i < m; ++i) out.radii[i] = i < sv.size() ? sv[i] : 0.0;
    out.axes = svd.matrixU();
  } else {
    // A redundant chain: the eigen-decomposition of the m×m Gram matrix (J M⁻¹)(J M⁻¹)ᵀ = (M⁻¹Jᵀ)ᵀ(M⁻¹Jᵀ),
    // eigenvalues σ_i², eigenvectors the left singular vectors (relative accuracy of σ_i about ε·(σ₁/σ_i)²).
    Mat6 B;
    B.noalias() = data.dyn.MinvJt.transpose() * data.dyn.MinvJt;
    const MatS Bb = 0.5 * (B.block(b.first, b.first, m, m) + B.block(b.first, b.first, m, m).transpose());
    const Eigen::SelfAdjointEigenSolver<MatS> es(Bb);
    if (es.info() != Eigen::Success) throw Error("dynamic manipulability: eigen-decomposition failed (non-finite J or M?)");
    for (int i = 0; i < m; ++i) {
      out.radii[i] = std::sqrt(std::max(es.eigenvalues()[m - 1 - i], 0.0));
      out.axes.col(i) = es.eigenvectors().col(m - 1 - i);
    }
  }
  const int k = std::min(m, n);
  out.yoshikawa = 1;
  for (int i = 0; i < k; ++i) out.yoshikawa *= out.radii[i];
  out.rank = out.inertia.rank;
  const VecX& mu = out.inertia.eigenvalues;
  out.asada = out.rank == m ? mu[m - 1] / mu[0] : 0.0;
}

}  // namespace achain
