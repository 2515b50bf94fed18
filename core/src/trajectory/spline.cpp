#include <achain/trajectory/spline.hpp>

#include <algorithm>
#include <cmath>

#include <achain/trajectory/trapezoid.hpp>

namespace achain {

CubicSplinePath::CubicSplinePath(const MatX& points, const std::vector<double>& times, const VecX& v0in, const VecX& v1in)
    : t_(times), y_(points) {
  const int K = static_cast<int>(points.rows()), n = static_cast<int>(points.cols());
  if (K < 2) throw Error("spline: needs at least two points");
  if (static_cast<int>(times.size()) != K)
    throw Error("spline: " + std::to_string(K) + " points but " + std::to_string(times.size()) + " times");
  if (times[0] != 0) throw Error("spline: times[0] must be 0");
  for (int k = 1; k < K; ++k)
    if (!(times[k] > times[k - 1]) || !std::isfinite(times[k]))
      throw Error("spline: times[" + std::to_string(k) + "] must be finite and greater than times[" + std::to_string(k - 1) + "]");
  if (!points.allFinite()) throw Error("spline: points must be finite");
  const VecX v0 = v0in.size() ? v0in : VecX(VecX::Zero(n));
  const VecX v1 = v1in.size() ? v1in : VecX(VecX::Zero(n));
  if (v0.size() != n || v1.size() != n) throw Error("spline: end velocities have the wrong size");
  M_.resize(K, n);
  // Clamped spline: tridiagonal system in the knot second derivatives, solved by the Thomas algorithm.
  std::vector<double> a(K), b(K), c(K), d(K), cp(K), dp(K);
  for (int j = 0; j < n; ++j) {
    const double h0 = t_[1] - t_[0], hN = t_[K - 1] - t_[K - 2];
    a[0] = 0; b[0] = 2 * h0; c[0] = h0;
    d[0] = 6 * ((y_(1, j) - y_(0, j)) / h0 - v0[j]);
    for (int k = 1; k < K - 1; ++k) {
      const double hl = t_[k] - t_[k - 1], hr = t_[k + 1] - t_[k];
      a[k] = hl; b[k] = 2 * (hl + hr); c[k] = hr;
      d[k] = 6 * ((y_(k + 1, j) - y_(k, j)) / hr - (y_(k, j) - y_(k - 1, j)) / hl);
    }
    a[K - 1] = hN; b[K - 1] = 2 * hN; c[K - 1] = 0;
    d[K - 1] = 6 * (v1[j] - (y_(K - 1, j) - y_(K - 2, j)) / hN);
    cp[0] = c[0] / b[0];
    dp[0] = d[0] / b[0];
    for (int k = 1; k < K; ++k) {
      const double m = b[k] - a[k] * cp[k - 1];
      cp[k] = c[k] / m;
      dp[k] = (d[k] - a[k] * dp[k - 1]) / m;
    }
    M_(K - 1, j) = dp[K - 1];
    for (int k = K - 2; k >= 0; --k) M_(k, j) = dp[k] - cp[k] * M_(k + 1, j);
  }
}

CubicSplinePath CubicSplinePath::throughPoints(const MatX& points, const RateLimits& L) {
  const int K = static_cast<int>(points.rows());
  if (K < 2) throw Error("spline: needs at least two points");
  std::vector<double> times(K, 0.0);
  for (int k = 1; k < K; ++k) {
    const TrapezoidPath seg(points.row(k - 1).transpose(), points.row(k).transpose(), L, {true});
    // Coincident points still need a little time so the knots stay distinct.
    times[k] = times[k - 1] + std::max(seg.duration(), 1e-3);
  }
  CubicSplinePath first(points, times);
  VecX vp, ap;
  first.peakRates(vp, ap);
  double k = 0;
  for (int j = 0; j < vp.size(); ++j) {
    if (std::isfinite(L.velocity[j]) && vp[j] > 0) k = std::max(k, vp[j] / L.velocity[j]);
    if (std::isfinite(L.acceleration[j]) && ap[j] > 0) k = std::max(k, std::sqrt(ap[j] / L.acceleration[j]));
  }
  if (!(k > 0)) return first;
  for (auto& t : times) t *= k;
  return CubicSplinePath(points, times);
}

void CubicSplinePath::evaluate(double t, VecX& q, VecX& qd, VecX& qdd) const {
  const int n = dof(), K = static_cast<int>(t_.size());
  if (q.size() != n) q.resize(n);
  if (qd.size() != n) qd.resize(n);
  if (qdd.size() != n) qdd.resize(n);
  if (t >= t_.back()) {  // exact end point
    t = t_.back();
  } else if (t < 0) {
    t = 0;
  }
  int k = static_cast<int>(std::upper_bound(t_.begin(), t_.end(), t) - t_.begin()) - 1;
  k = std::clamp(k, 0, K - 2);
  const double h = t_[k + 1] - t_[k], s = t - t_[k], r = t_[k + 1] - t;
  for (int j = 0; j < n; ++j) {
    const double Ml = M_(k, j), Mr = M_(k + 1, j);
    const double A = y_(k, j) / h - Ml * h / 6, B = y_(k + 1, j) / h - Mr * h / 6;
    q[j] = Ml * r * r * r / (6 * h) + Mr * s * s * s / (6 * h) + A * r + B * s;
    qd[j] = -Ml * r * r / (2 * h) + Mr * s * s / (2 * h) - A + B;
    qdd[j] = Ml * r / h + Mr * s / h;
    if (s == 0) q[j] = y_(k, j);
    else if (r == 0) q[j] = y_(k + 1, j);
  }
}

std::vector<std::vector<double>> CubicSplinePath::breakpoints() const {
  return std::vector<std::vector<double>>(dof(), t_);
}

void CubicSplinePath::peakRates(VecX& vp, VecX& ap) const {
  const int n = dof(), K = static_cast<int>(t_.size());
  vp = VecX::Zero(n);
  ap = VecX::Zero(n);
  VecX q, qd, qdd;
  for (int k = 0; k < K - 1; ++k) {
    const double h = t_[k + 1] - t_[k];
    for (int j = 0; j < n; ++j) {
      ap[j] = std::max({ap[j], std::abs(M_(k, j)), std::abs(M_(k + 1, j))});
    }
    evaluate(t_[k], q, qd, qdd);
    vp = vp.cwiseMax(qd.cwiseAbs());
    evaluate(t_[k + 1] - 1e-15 * h, q, qd, qdd);
    vp = vp.cwiseMax(qd.cwiseAbs());
    for (int j = 0; j < n; ++j) {  // vertex of the quadratic velocity: where q̈ = 0 inside the piece
      const double Ml = M_(k, j), Mr = M_(k + 1, j);
      if ((Ml < 0) == (Mr < 0) || Ml == Mr) continue;
      const double s = h * Ml / (Ml - Mr);
      VecX qq, vv, aa;
      evaluate(t_[k] + s, qq, vv, aa);
      vp[j] = std::max(vp[j], std::abs(vv[j]));
    }
  }
}

}  // namespace achain
