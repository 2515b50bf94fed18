// Small 3-D and 4-D arrays for Freeman's influence coefficients, with the operators his transfer
// formulas are written in (Freeman 1985, App. A):
//   plane p of a P×M×N array:          C.plane(p)             (an M×N matrix, C(p, m, n))
//   quadratic form  aᵀ[C]b:            quadratic(C, a, b)     (vector, entry p = aᵀ C_p b)
//   generalized dot product  [A]∘[C]:  dot(A, C)              ((A∘C)_k = Σ_p A(k,p) C_p)
//   plane-wise congruence  [D]ᵀ[C][E]: congruence(D, C, E)    (plane p = Dᵀ C_p E)
//   plane-wise transpose  [C]ᵀ:        transposePlanes(C)
// Storage is plane-contiguous, each plane column-major, so plane(p) is a zero-copy Eigen map.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include <achain/math/types.hpp>

namespace achain {

/// A P×M×N array of doubles: P planes of M×N matrices. Index (p, m, n).
/// For influence coefficients H(p, m, n) = h^p_{mn} = ∂²u_p/∂q_m∂q_n (Freeman's order: ∂g_n/∂q_m).
class Tensor3 {
 public:
  Tensor3() = default;
  Tensor3(int planes, int rows, int cols) { resize(planes, rows, cols); }

  /// Sets the shape; reallocates only when the storage must grow. Contents are unspecified.
  void resize(int planes, int rows, int cols) {
    if (planes < 0 || rows < 0 || cols < 0) throw Error("Tensor3: negative dimension");
    P_ = planes;
    M_ = rows;
    N_ = cols;
    const size_t n = static_cast<size_t>(P_) * M_ * N_;
    if (v_.size() < n) v_.resize(n);
  }
  void setZero() { std::fill(v_.begin(), v_.begin() + size(), 0.0); }
  static Tensor3 Zero(int planes, int rows, int cols) {
    Tensor3 t(planes, rows, cols);
    t.setZero();
    return t;
  }

  int planes() const { return P_; }
  int rows() const { return M_; }
  int cols() const { return N_; }
  size_t size() const { return static_cast<size_t>(P_) * M_ * N_; }

  double& operator()(int p, int m, int n) { return v_[(static_cast<size_t>(p) * N_ + n) * M_ + m]; }
  double operator()(int p, int m, int n) const { return v_[(static_cast<size_t>(p) * N_ + n) * M_ + m]; }

  /// Plane p as an M×N matrix (zero-copy).
  Eigen::Map<MatX> plane(int p) { return Eigen::Map<MatX>(v_.data() + static_cast<size_t>(p) * M_ * N_, M_, N_); }
  Eigen::Map<const MatX> plane(int p) const {
    return Eigen::Map<const MatX>(v_.data() + static_cast<size_t>(p) * M_ * N_, M_, N_);
  }

  double* data() { return v_.data(); }
  const double* data() const { return v_.data(); }

  /// Largest |entry| (0 for an empty array).
  double maxAbs() const {
    double m = 0;
    for (size_t i = 0; i < size(); ++i) m = std::max(m, std::abs(v_[i]));
    return m;
  }

 private:
  int P_ = 0, M_ = 0, N_ = 0;
  std::vector<double> v_;
};

/// A P×L×M×N array (third-order influence coefficients D(p, l, m, n) = d^p_{lmn} = ∂h^p_{mn}/∂q_l).
/// slice(p, l) is the M×N matrix D(p, l, ·, ·).
class Tensor4 {
 public:
  Tensor4() = default;
  Tensor4(int planes, int l, int rows, int cols) { resize(planes, l, rows, cols); }
  void resize(int planes, int l, int rows, int cols) {
    if (planes < 0 || l < 0 || rows < 0 || cols < 0) throw Error("Tensor4: negative dimension");
    P_ = planes;
    L_ = l;
    M_ = rows;
    N_ = cols;
    if (v_.size() < size()) v_.resize(size());
  }
  void setZero() { std::fill(v_.begin(), v_.begin() + size(), 0.0); }
  int planes() const { return P_; }
  int dim1() const { return L_; }
  int rows() const { return M_; }
  int cols() const { return N_; }
  size_t size() const { return static_cast<size_t>(P_) * L_ * M_ * N_; }
  double& operator()(int p, int l, int m, int n) { return v_[((static_cast<size_t>(p) * L_ + l) * N_ + n) * M_ + m]; }
  double operator()(int p, int l, int m, int n) const {
    return v_[((static_cast<size_t>(p) * L_ + l) * N_ + n) * M_ + m];
  }
  Eigen::Map<MatX> slice(int p, int l) {
    return Eigen::Map<MatX>(v_.data() + (static_cast<size_t>(p) * L_ + l) * M_ * N_, M_, N_);
  }
  Eigen::Map<const MatX> slice(int p, int l) const {
    return Eigen::Map<const MatX>(v_.data() + (static_cast<size_t>(p) * L_ + l) * M_ * N_, M_, N_);
  }
  double* data() { return v_.data(); }
  const double* data() const { return v_.data(); }
  double maxAbs() const {
    double m = 0;
    for (size_t i = 0; i < size(); ++i) m = std::max(m, std::abs(v_[i]));
    return m;
  }

 private:
  int P_ = 0, L_ = 0, M_ = 0, N_ = 0;
  std::vector<double> v_;
};

/// aᵀ[C]b: out(p) = aᵀ C_p b. out must have C.planes() entries. Allocation-free.
inline void quadratic(const Tensor3& C, const Eigen::Ref<const VecX>& a, const Eigen::Ref<const VecX>& b,
                      Eigen::Ref<VecX> out) {
  if (a.size() != C.rows() || b.size() != C.cols() || out.size() != C.planes())
    throw Error("quadratic: shapes do not match the array");
  for (int p = 0; p < C.planes(); ++p) out[p] = a.dot(C.plane(p) * b);
}
inline VecX quadratic(const Tensor3& C, const Eigen::Ref<const VecX>& a, const Eigen::Ref<const VecX>& b) {
  VecX out(C.planes());
  quadratic(C, a, b, out);
  return out;
}

/// Σ_{l,m,n} D(p,l,m,n)·a_l·b_m·c_n for every plane p: Freeman's (aᵀ[D]b)c. Allocation-free.
inline void cubic(const Tensor4& D, const Eigen::Ref<const VecX>& a, const Eigen::Ref<const VecX>& b,
                  const Eigen::Ref<const VecX>& c, Eigen::Ref<VecX> out) {
  if (a.size() != D.dim1() || b.size() != D.rows() || c.size() != D.cols() || out.size() != D.planes())
    throw Error("cubic: shapes do not match the array");
  for (int p = 0; p < D.planes(); ++p) {
    double s = 0;
    for (int l = 0; l < D.dim1(); ++l)
      if (a[l] != 0) s += a[l] * b.dot(D.slice(p, l) * c);
    out[p] = s;
  }
}
inline VecX cubic(const Tensor4& D, const Eigen::Ref<const VecX>& a, const Eigen::Ref<const VecX>& b,
                  const Eigen::Ref<const VecX>& c) {
  VecX out(D.planes());
  cubic(D, a, b, c, out);
  return out;
}

/// Freeman's generalized dot product [A]∘[C] (App. A §3): A is K×P, C is P×M×N, the result
/// K×M×N with plane k = Σ_p A(k,p)·C_p. Identity: A·(bᵀ[C]b) = bᵀ(A∘C)b.
inline void dot(const Eigen::Ref<const MatX>& A, const Tensor3& C, Tensor3& out) {
  if (A.cols() != C.planes()) throw Error("dot: A must have as many columns as C has planes");
  if (&out == &C) throw Error("dot: out must not alias C");
  out.resize(static_cast<int>(A.rows()), C.rows(), C.cols());
  out.setZero();
  for (int k = 0; k < A.rows(); ++k) {
    auto Ok = out.plane(k);
    for (int p = 0; p < C.planes(); ++p)
      if (A(k, p) != 0) Ok += A(k, p) * C.plane(p);
  }
}
inline Tensor3 dot(const Eigen::Ref<const MatX>& A, const Tensor3& C) {
  Tensor3 out;
  dot(A, C, out);
  return out;
}

/// Plane-wise congruence [D]ᵀ[C][E] (App. A §1): plane p of the result is Dᵀ·C_p·E.
inline void congruence(const Eigen::Ref<const MatX>& D, const Tensor3& C, const Eigen::Ref<const MatX>& E,
                       Tensor3& out) {
  if (D.rows() != C.rows() || E.rows() != C.cols()) throw Error("congruence: shapes do not match the array");
  if (&out == &C) throw Error("congruence: out must not alias C");
  out.resize(C.planes(), static_cast<int>(D.cols()), static_cast<int>(E.cols()));
  for (int p = 0; p < C.planes(); ++p) out.plane(p).noalias() = D.transpose() * C.plane(p) * E;
}
/// [D]ᵀ[C][D].
inline Tensor3 congruence(const Eigen::Ref<const MatX>& D, const Tensor3& C) {
  Tensor3 out;
  congruence(D, C, D, out);
  return out;
}

/// [C]ᵀ: every plane transposed (Freeman's plane-wise transpose, used in the jerk formula).
inline Tensor3 transposePlanes(const Tensor3& C) {
  Tensor3 out(C.planes(), C.cols(), C.rows());
  for (int p = 0; p < C.planes(); ++p) out.plane(p) = C.plane(p).transpose();
  return out;
}

}  // namespace achain
