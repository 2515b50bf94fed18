#include <achain/model/apair_collision.hpp>

#include <algorithm>
#include <cmath>

#include <achain/model/apair.hpp>

namespace achain {

PluckerLine PluckerLine::through(const Vec3& x, const Vec3& y) {
  const Vec3 dir = y - x;
  const double n = dir.norm();
  if (!(n > 0)) throw Error("PluckerLine: the two points coincide");
  return PluckerLine{dir / n, x.cross(y) / n};
}

double reciprocalProduct(const PluckerLine& p, const PluckerLine& q) {
  return p.dir.dot(q.moment) + p.moment.dot(q.dir);
}

double lineDistance(const PluckerLine& p, const PluckerLine& q) {
  const double c = p.dir.cross(q.dir).norm();
  if (c > 1e-12) return std::abs(reciprocalProduct(p, q)) / c;
  const double s = p.dir.dot(q.dir) >= 0 ? 1.0 : -1.0;  // parallel: distance from the moments
  return p.dir.cross(p.moment - s * q.moment).norm();
}

namespace {

// Closest distance between segments P(s) = p + s·u and Q(t) = q + t·v, s, t ∈ [0, 1] (Ericson §5.1.9).
double segmentDistance(const Vec3& p, const Vec3& u, const Vec3& q, const Vec3& v) {
  const Vec3 r = p - q;
  const double a = u.squaredNorm(), e = v.squaredNorm(), f = v.dot(r);
  double s = 0, t = 0;
  const double eps = 1e-300;
  if (a <= eps && e <= eps) return r.norm();
  if (a <= eps) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = u.dot(r);
    if (e <= eps) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = u.dot(v), den = a * e - b * b;
      s = den > 0 ? std::clamp((b * f - c * e) / den, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1) {
        t = 1;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  return (p + s * u - (q + t * v)).norm();
}

}  // namespace

CylinderTest cylinderInterference(const Cylinder& A, const Cylinder& B) {
  CylinderTest out;
  const Vec3& c = A.start;
  const Vec3& s = A.axis;
  const Vec3& d = B.start;
  const Vec3& w = B.axis;
  const Vec3 n = s.cross(w);
  const double nn = n.squaredNorm();
  const double rr = A.radius + B.radius;
  const Vec3 dc = d - c;
  if (nn <= 1e-24 * s.squaredNorm() * w.squaredNorm()) {
    out.feet = FootCase::Parallel;
    out.distance = s.normalized().cross(dc).norm();
    out.clearance = segmentDistance(c, s, d, w) - rr;
  } else {
    out.distance = std::abs(dc.dot(n)) / std::sqrt(nn);
    out.t1 = dc.cross(w).dot(n) / nn;  // Eq. 2.98 with the corrected denominator n·n
    out.t2 = dc.cross(s).dot(n) / nn;
    const bool on1 = out.t1 > 0 && out.t1 < 1, on2 = out.t2 > 0 && out.t2 < 1;
    out.feet = on1 && on2 ? FootCase::OnOn : (on1 || on2 ? FootCase::OnOff : FootCase::OffOff);
    out.clearance = (out.feet == FootCase::OnOn ? out.distance : segmentDistance(c, s, d, w)) - rr;
  }
  out.collide = out.clearance <= 0;
  return out;
}

ApairLegs apairLegs(double side, double theta) {
  const ApairAnchors A = apairAnchors(side);
  const double rho = apairRhoFromSide(side);
  double h = 0, f1 = 0, f2 = 0, f3 = 0;
  apairLaw(rho).evaluate(theta, h, f1, f2, f3);  // plate separation ρ·sin(θ_v/2)
  const double c = std::cos(theta), s = std::sin(theta);
  ApairLegs L;
  for (int k = 0; k < 6; ++k) {
    L.base[k] = A.base[k];
    const Vec3& p = A.platform[k];
    L.platform[k] = Vec3(c * p.x() - s * p.y(), s * p.x() + c * p.y(), h);
  }
  return L;
}

LegPairSample legPairSample(double side, double theta) {
  const ApairLegs L = apairLegs(side, theta);
  const PluckerLine l1 = L.line(0), l2 = L.line(1), l6 = L.line(5);
  LegPairSample o;
  o.theta = theta;
  o.omega12 = reciprocalProduct(l1, l2);
  o.omega16 = reciprocalProduct(l1, l6);
  o.d12 = lineDistance(l1, l2);
  o.d16 = lineDistance(l1, l6);
  const CylinderTest c12 = cylinderInterference(L.cylinder(0, 0), L.cylinder(1, 0));
  const CylinderTest c16 = cylinderInterference(L.cylinder(0, 0), L.cylinder(5, 0));
  o.t1_12 = c12.t1;
  o.t2_12 = c12.t2;
  o.t1_16 = c16.t1;
  o.t2_16 = c16.t2;
  return o;
}

namespace {

struct PairState {
  double clearance;
  double signed_distance;  // Ω/|p×q| (sign flips where the centrelines pass through each other)
  bool on_on;
};

void pairStates(double side, double radius, double theta, PairState st[15], int ia[15], int ib[15]) {
  const ApairLegs L = apairLegs(side, theta);
  int k = 0;
  for (int a = 0; a < 6; ++a)
    for (int b = a + 1; b < 6; ++b, ++k) {
      const CylinderTest t = cylinderInterference(L.cylinder(a, radius), L.cylinder(b, radius));
      const PluckerLine pa = L.line(a), pb = L.line(b);
      const double cr = pa.dir.cross(pb.dir).norm();
      st[k] = {t.clearance, cr > 1e-12 ? reciprocalProduct(pa, pb) / cr : 1e300, t.feet == FootCase::OnOn};
      ia[k] = a;
      ib[k] = b;
    }
}

// True if some pair interferes at θ, or its centrelines passed through each other between θ0 and θ
// (needed for r = 0, where the distance only touches zero). Reports the pair.
bool blocked(double side, double radius, double theta0, double theta, int& la, int& lb) {
  PairState s0[15], s1[15];
  int ia[15], ib[15];
  pairStates(side, radius, theta0, s0, ia, ib);
  pairStates(side, radius, theta, s1, ia, ib);
  const double small = 0.05 * side;  // a crossing passes through 0; a parallel flip jumps by ~0.4·side
  for (int k = 0; k < 15; ++k) {
    const double a = s0[k].signed_distance, b = s1[k].signed_distance;
    // A sign change (an exact zero counts: the centrelines meet there) through small values.
    const bool cross = s1[k].on_on && ((a < 0) != (b < 0) || a == 0 || b == 0) && std::abs(a) + std::abs(b) < small;
    if (s1[k].clearance <= 0 || cross) {
      la = ia[k];
      lb = ib[k];
      return true;
    }
  }
  return false;
}

// From θ = 180° towards `dir` (±1): the first blocked angle, to ~1e-12 rad.
double searchLimit(double side, double radius, double dir, int legs[2]) {
  const double start = kPi, step = 0.1 * kDeg;
  double good = start;
  int la = 0, lb = 0;
  for (int k = 1; k <= 1800; ++k) {
    const double th = start + dir * k * step;
    if (blocked(side, radius, good, th, la, lb)) {
      double lo = good, hi = th;  // lo free, hi blocked
      for (int it = 0; it < 60; ++it) {
        const double mid = 0.5 * (lo + hi);
        if (blocked(side, radius, lo, mid, la, lb)) hi = mid; else lo = mid;
      }
      blocked(side, radius, lo, hi, la, lb);
      // The platform's 120° symmetry maps leg i to leg i+2: report the equivalent pair with the smallest numbers.
      int best_a = la, best_b = lb;
      for (int r = 2; r < 6; r += 2) {
        int a = (la + r) % 6, b = (lb + r) % 6;
        if (a > b) std::swap(a, b);
        if (a < best_a || (a == best_a && b < best_b)) {
          best_a = a;
          best_b = b;
        }
      }
      legs[0] = best_a;
      legs[1] = best_b;
      return 0.5 * (lo + hi);
    }
    good = th;
  }
  return good;
}

}  // namespace

double legClearance(double side, double radius, double theta, int* leg_a, int* leg_b) {
  PairState st[15];
  int ia[15], ib[15];
  pairStates(side, radius, theta, st, ia, ib);
  int best = 0;
  for (int k = 1; k < 15; ++k)
    if (st[k].clearance < st[best].clearance) best = k;
  if (leg_a) *leg_a = ia[best];
  if (leg_b) *leg_b = ib[best];
  return st[best].clearance;
}

ApairRange apairUsableRange(double side, double radius) {
  if (!(side > 0) || !std::isfinite(side)) throw Error("side: must be a positive finite length");
  if (!(radius >= 0) || !std::isfinite(radius)) throw Error("leg radius: must be ≥ 0");
  if (legClearance(side, radius, kPi) <= 0) {
    const double rmax = 0.5 * (legClearance(side, 0, kPi));
    throw Error("leg radius: legs of radius " + std::to_string(radius) + " collide even at full extension (θ = 180°); r/a must be below " +
                std::to_string(rmax / side));
  }
  ApairRange R;
  R.lower = searchLimit(side, radius, -1, R.lower_legs);
  R.upper = searchLimit(side, radius, +1, R.upper_legs);
  return R;
}

ApairRange apairUsableRange(const Joint& j) {
  if (j.kind != JointKind::A) throw Error(std::string("kind: only an A-pair has legs (kind is ") + toString(j.kind) + ")");
  if (!(j.rho > 0)) throw Error("rho: must be > 0 to derive limits from the legs");
  return apairUsableRange(apairSideFromRho(j.rho), j.leg_radius);
}

double apairClearance(const Joint& j, double q) {
  if (j.kind != JointKind::A) throw Error(std::string("kind: only an A-pair has legs (kind is ") + toString(j.kind) + ")");
  if (!(j.rho > 0)) throw Error("rho: must be > 0 for leg clearances");
  return legClearance(apairSideFromRho(j.rho), j.leg_radius, q);
}

}  // namespace achain
