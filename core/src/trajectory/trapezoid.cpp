#include <achain/trajectory/trapezoid.hpp>

#include <algorithm>
#include <cmath>

namespace achain {

Trapezoid1D Trapezoid1D::minimumTime(double q0, double q1, double vmax, double amax) {
  if (!(vmax > 0) || !std::isfinite(vmax)) throw Error("trapezoid: velocity limit must be finite and > 0");
  if (!(amax > 0) || !std::isfinite(amax)) throw Error("trapezoid: acceleration limit must be finite and > 0");
  Trapezoid1D p;
  p.q0 = q0;
  p.q1 = q1;
  const double D = std::abs(q1 - q0);
  if (D == 0) return p;
  p.a = amax;
  if (D * amax <= vmax * vmax) {  // triangle: the speed limit is never reached
    p.ta = p.td = std::sqrt(D / amax);
    p.T = 2 * p.ta;
    p.v = amax * p.ta;
  } else {
    p.v = vmax;
    p.ta = vmax / amax;
    p.T = D / vmax + p.ta;
    p.td = p.T - p.ta;
  }
  return p;
}

Trapezoid1D Trapezoid1D::withTimes(double q0, double q1, double ta, double T) {
  Trapezoid1D p;
  p.q0 = q0;
  p.q1 = q1;
  const double D = std::abs(q1 - q0);
  if (!(T >= 0) || !(ta >= 0) || ta > 0.5 * T * (1 + 1e-12))
    throw Error("trapezoid: switch times must satisfy 0 <= ta <= T/2");
  ta = std::min(ta, 0.5 * T);
  p.T = T;
  p.ta = ta;
  p.td = T - ta;
  if (D == 0) return p;
  if (!(T > 0) || !(ta > 0)) throw Error("trapezoid: a move needs T > 0 and ta > 0");
  p.v = D / (T - ta);
  p.a = p.v / ta;
  return p;
}

void Trapezoid1D::evaluate(double t, double& q, double& qd, double& qdd) const {
  const double s = q1 >= q0 ? 1.0 : -1.0;
  if (T <= 0 || t >= T) {
    q = q1; qd = 0; qdd = 0;
    return;
  }
  if (t <= 0) {
    q = q0; qd = 0; qdd = 0;
    return;
  }
  if (t < ta) {
    q = q0 + s * 0.5 * a * t * t;
    qd = s * a * t;
    qdd = s * a;
  } else if (t < td) {
    q = q0 + s * (0.5 * a * ta * ta + v * (t - ta));
    qd = s * v;
    qdd = 0;
  } else {
    const double r = T - t;  // measured from the end so that q(T) = q1 exactly
    q = q1 - s * 0.5 * a * r * r;
    qd = s * a * r;
    qdd = -s * a;
  }
}

TrapezoidPath::TrapezoidPath(const VecX& q0, const VecX& q1, const RateLimits& L, TrapezoidOptions opt)
    : sync_(opt.synchronize) {
  const int n = static_cast<int>(q0.size());
  if (q1.size() != n) throw Error("trapezoid: start and goal have different sizes");
  if (L.velocity.size() != n || L.acceleration.size() != n) throw Error("trapezoid: limits do not match the joint count");
  auto need = [&](int i) {
    if (!(L.velocity[i] > 0) || !std::isfinite(L.velocity[i]))
      throw Error("q" + std::to_string(i + 1) + ": a trapezoid needs a finite speed limit > 0 (vmax)");
    if (!(L.acceleration[i] > 0) || !std::isfinite(L.acceleration[i]))
      throw Error("q" + std::to_string(i + 1) + ": a trapezoid needs a finite acceleration limit > 0 (amax)");
  };
  joints_.resize(n);
  if (!sync_) {
    for (int i = 0; i < n; ++i) {
      if (q1[i] != q0[i]) need(i);
      joints_[i] = q1[i] == q0[i] ? Trapezoid1D::withTimes(q0[i], q1[i], 0, 0)
                                  : Trapezoid1D::minimumTime(q0[i], q1[i], L.velocity[i], L.acceleration[i]);
      T_ = std::max(T_, joints_[i].T);
    }
    return;
  }
  // Common (ta, T): with tc = T − ta each joint needs tc ≥ D/V and ta·tc ≥ D/A, and ta ≤ tc.
  // T = ta + tc is smallest at tc = max(s, √p), ta = p/tc, where s = max D/V and p = max D/A.
  double s = 0, p = 0;
  for (int i = 0; i < n; ++i) {
    const double D = std::abs(q1[i] - q0[i]);
    if (D == 0) continue;
    need(i);
    s = std::max(s, D / L.velocity[i]);
    p = std::max(p, D / L.acceleration[i]);
  }
  double ta = 0, T = 0;
  if (p > 0) {
    const double tc = std::max(s, std::sqrt(p));
    ta = p / tc;
    T = ta + tc;
  }
  for (int i = 0; i < n; ++i) joints_[i] = Trapezoid1D::withTimes(q0[i], q1[i], ta, T);
  T_ = T;
}

void TrapezoidPath::evaluate(double t, VecX& q, VecX& qd, VecX& qdd) const {
  const int n = dof();
  if (q.size() != n) q.resize(n);
  if (qd.size() != n) qd.resize(n);
  if (qdd.size() != n) qdd.resize(n);
  for (int i = 0; i < n; ++i) joints_[i].evaluate(t, q[i], qd[i], qdd[i]);
}

std::vector<std::vector<double>> TrapezoidPath::breakpoints() const {
  std::vector<std::vector<double>> b;
  for (const auto& j : joints_) {
    if (j.T <= 0) b.push_back({0.0});
    else if (j.triangular()) b.push_back({0.0, j.ta, j.T});
    else b.push_back({0.0, j.ta, j.td, j.T});
  }
  return b;
}

}  // namespace achain
