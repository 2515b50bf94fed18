#include <achain/trajectory/polynomial.hpp>

#include <Eigen/LU>
#include <algorithm>
#include <cmath>

namespace achain {

int polynomialDegree(const std::string& p) {
  if (p == "cubic") return 3;
  if (p == "quintic") return 5;
  if (p == "septic") return 7;
  throw Error("profile: '" + p + "' is not a polynomial profile (cubic, quintic, septic)");
}

namespace {
double falling(int k, int r) {  // k (k−1) … (k−r+1)
  double f = 1;
  for (int i = 0; i < r; ++i) f *= (k - i);
  return f;
}
}  // namespace

PolynomialPath::PolynomialPath(int degree, const VecX& q0, const VecX& q1, double T, const PolynomialBoundary& bc)
    : degree_(degree), T_(T), q0_(q0), q1_(q1) {
  if (degree != 3 && degree != 5 && degree != 7) throw Error("polynomial: degree must be 3, 5 or 7");
  const int n = static_cast<int>(q0.size());
  if (q1.size() != n) throw Error("polynomial: start and goal have different sizes");
  if (!(T > 0) || !std::isfinite(T)) throw Error("polynomial: duration must be finite and > 0");
  auto opt = [&](const VecX& v, const char* what) {
    if (v.size() == 0) return VecX(VecX::Zero(n));
    if (v.size() != n) throw Error(std::string("polynomial: ") + what + " has the wrong size");
    return v;
  };
  const VecX v0 = opt(bc.v0, "v0"), v1 = opt(bc.v1, "v1"), a0 = opt(bc.a0, "a0"), a1 = opt(bc.a1, "a1");
  if (degree == 3 && (a0.cwiseAbs().maxCoeff() > 0 || a1.cwiseAbs().maxCoeff() > 0))
    throw Error("polynomial: a cubic cannot meet boundary accelerations (use quintic or septic)");
  const int m = (degree + 1) / 2;  // conditions per end: derivatives 0 … m−1
  MatX A = MatX::Zero(degree + 1, degree + 1);
  for (int r = 0; r < m; ++r) {
    A(r, r) = falling(r, r);                                          // τ = 0
    for (int k = r; k <= degree; ++k) A(m + r, k) = falling(k, r);    // τ = 1
  }
  v0_ = v0;
  v1_ = v1;
  a0_ = a0;
  a1_ = a1;
  const Eigen::FullPivLU<MatX> lu(A);
  coef_.resize(degree + 1, n);
  VecX rhs(degree + 1);
  for (int j = 0; j < n; ++j) {
    rhs.setZero();
    rhs[0] = q0[j];
    rhs[m] = q1[j];
    if (m > 1) { rhs[1] = v0[j] * T; rhs[m + 1] = v1[j] * T; }
    if (m > 2) { rhs[2] = a0[j] * T * T; rhs[m + 2] = a1[j] * T * T; }
    coef_.col(j) = lu.solve(rhs);
  }
}

void PolynomialPath::evaluate(double t, VecX& q, VecX& qd, VecX& qdd) const {
  const int n = dof();
  if (q.size() != n) q.resize(n);
  if (qd.size() != n) qd.resize(n);
  if (qdd.size() != n) qdd.resize(n);
  const double tau = std::clamp(t / T_, 0.0, 1.0);
  for (int j = 0; j < n; ++j) {
    double p = 0, d = 0, dd = 0;  // Horner on q, q', q''
    for (int k = degree_; k >= 0; --k) {
      dd = dd * tau + 2 * d;
      d = d * tau + p;
      p = p * tau + coef_(k, j);
    }
    q[j] = p;
    qd[j] = d / T_;
    qdd[j] = dd / (T_ * T_);
  }
  // Exact endpoints (and the given boundary rates): the solve leaves rounding in the last bits.
  if (tau <= 0) {
    q = q0_;
    qd = v0_;
    if (degree_ > 3) qdd = a0_;
  } else if (tau >= 1) {
    q = q1_;
    qd = v1_;
    if (degree_ > 3) qdd = a1_;
  }
}

std::vector<std::vector<double>> PolynomialPath::breakpoints() const {
  return std::vector<std::vector<double>>(dof(), std::vector<double>{0.0, T_});
}

std::string PolynomialPath::profile() const {
  return degree_ == 3 ? "cubic" : degree_ == 5 ? "quintic" : "septic";
}

void PolynomialPath::peakFactors(int degree, double& v, double& a) {
  switch (degree) {
    case 3: v = 1.5; a = 6.0; break;                       // s = 3τ² − 2τ³
    case 5: v = 15.0 / 8.0; a = 10.0 / std::sqrt(3.0); break;  // s = 10τ³ − 15τ⁴ + 6τ⁵
    case 7: {                                              // s = 35τ⁴ − 84τ⁵ + 70τ⁶ − 20τ⁷
      v = 35.0 / 16.0;
      const double x = (5.0 - std::sqrt(5.0)) / 10.0;      // root of s''' in (0, ½)
      a = x * x * (420.0 - 1680.0 * x + 2100.0 * x * x - 840.0 * x * x * x);
      break;
    }
    default: throw Error("polynomial: degree must be 3, 5 or 7");
  }
}

double PolynomialPath::minimumDuration(int degree, const VecX& q0, const VecX& q1, const RateLimits& L) {
  double cv, ca;
  peakFactors(degree, cv, ca);
  double T = 0;
  for (int i = 0; i < q0.size(); ++i) {
    const double D = std::abs(q1[i] - q0[i]);
    if (D == 0) continue;
    const double V = L.velocity[i], A = L.acceleration[i];
    if (!(V > 0) || !(A > 0))
      throw Error("q" + std::to_string(i + 1) + ": speed and acceleration limits must be > 0");
    if (std::isfinite(V)) T = std::max(T, cv * D / V);
    if (std::isfinite(A)) T = std::max(T, std::sqrt(ca * D / A));
    if (!std::isfinite(V) && !std::isfinite(A))
      throw Error("q" + std::to_string(i + 1) +
                  ": no speed or acceleration limit, so no minimum duration (give a duration, or speed and acceleration limits)");
  }
  return T;
}

}  // namespace achain
