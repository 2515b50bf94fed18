#include <achain/math/modal.hpp>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <cmath>
#include <string>

namespace achain {

namespace {
void checkSymmetricFinite(const MatX& A, const char* name, const std::string& what) {
  for (Eigen::Index i = 0; i < A.rows(); ++i)
    for (Eigen::Index j = 0; j < A.cols(); ++j)
      if (!std::isfinite(A(i, j)))
        throw Error(what + ": " + name + "(" + std::to_string(i) + "," + std::to_string(j) + ") is not finite");
  const double scale = A.cwiseAbs().maxCoeff();
  for (Eigen::Index i = 0; i < A.rows(); ++i)
    for (Eigen::Index j = i + 1; j < A.cols(); ++j)
      if (std::abs(A(i, j) - A(j, i)) > 1e-9 * scale)
        throw Error(what + ": " + name + " is not symmetric (entries (" + std::to_string(i) + "," + std::to_string(j) +
                    ") and (" + std::to_string(j) + "," + std::to_string(i) + ") differ)");
}
}  // namespace

NaturalModes naturalModes(const MatX& K, const MatX& M, const std::string& what) {
  const Eigen::Index n = M.rows();
  if (M.cols() != n || K.rows() != n || K.cols() != n)
    throw Error(what + ": K and M must be square and of the same size (K " + std::to_string(K.rows()) + "x" +
                std::to_string(K.cols()) + ", M " + std::to_string(M.rows()) + "x" + std::to_string(M.cols()) + ")");
  NaturalModes out;
  out.omega.resize(n);
  out.shapes.resize(n, n);
  if (n == 0) return out;
  checkSymmetricFinite(M, "M", what);
  checkSymmetricFinite(K, "K", what);
  Eigen::LLT<MatX> llt(M);
  if (llt.info() != Eigen::Success || M.diagonal().minCoeff() <= 0)
    throw Error(what + ": the mass matrix M is not positive definite");
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX> es(K, M, Eigen::ComputeEigenvectors | Eigen::Ax_lBx);
  if (es.info() != Eigen::Success) throw Error(what + ": the eigenvalue solver did not converge");
  const VecX& lambda = es.eigenvalues();
  const double scale = lambda.cwiseAbs().maxCoeff();
  for (Eigen::Index k = 0; k < n; ++k) {
    if (lambda[k] < -1e-9 * scale)
      throw Error(what + ": the stiffness matrix K is not positive semi-definite (eigenvalue " +
                  std::to_string(lambda[k]) + ")");
    out.omega[k] = lambda[k] > 0 ? std::sqrt(lambda[k]) : 0.0;
    Eigen::Index imax = 0;
    es.eigenvectors().col(k).cwiseAbs().maxCoeff(&imax);
    out.shapes.col(k) = es.eigenvectors().col(k) * (es.eigenvectors()(imax, k) < 0 ? -1.0 : 1.0);
  }
  return out;
}

}  // namespace achain
