#include <achain/ik/closed_4a.hpp>

#include <algorithm>
#include <functional>

#include <achain/kinematics/fk.hpp>
#include <achain/ik/closed_common.hpp>
#include <achain/ik/solution_set.hpp>

namespace achain {

using namespace ik_detail;

namespace {

bool nearMultipleOfPi(double a) { return std::abs(std::sin(a)) < 1e-9; }

bool checkStructure(const Model& m, std::string* why) {
  auto fail = [&](const std::string& s) {
    if (why) *why = s;
    return false;
  };
  if (const std::string p = serialChainProblem(m, 4, true); !p.empty()) return fail(p);
  Model conv;
  const auto& J = standardDH(m, conv).joints;
  if (!nearMultipleOfPi(J[1].alpha)) return fail("joints[1].alpha: axes 2 and 3 must be parallel (alpha = 0 or 180 deg)");
  if (std::abs(std::sin(J[0].alpha)) < 1e-6) return fail("joints[0].alpha: axis 2 must not be parallel to axis 1");
  if (std::abs(std::sin(J[1].alpha + J[2].alpha)) < 1e-6) return fail("joints[2].alpha: axis 4 must not be parallel to axis 3");
  if (std::abs(J[1].a) < 1e-9) return fail("joints[1].a: must be non-zero");
  return true;
}

}  // namespace

bool isPrototypeClass(const Model& model, std::string* why) { return checkStructure(model, why); }

IkAllResult solvePrototypeClass(const Model& model, const SE3& target, const VecX* seed, double tolerance) {
  std::string why;
  if (!checkStructure(model, &why)) throw Error("closed-form IK (prototype class): " + why);
  Model conv;
  const Model& S = standardDH(model, conv);
  const auto& J = S.joints;
  const double c_a2 = std::cos(J[1].alpha) > 0 ? 1.0 : -1.0;
  const SE3 T04 = S.base.inverse() * target * S.tool.inverse();
  const Mat3 M = T04.R * Rx(J[3].alpha).transpose();

  SolutionSet set(model, target, seed, tolerance);

  // Candidates from (θ1, φ = θ2 + c·θ3, θ4) totals; calls visit(q) for every branch combination.
  bool prefilter = true;
  auto enumerate = [&](double th1, double phi, double th4, const std::function<void(const VecX&)>& visit) {
    double b1[2], b4[2], b2[2], b3[2];
    const int n1 = rotationBranches(J[0], qFromTheta(J[0], th1), b1);
    const int n4 = rotationBranches(J[3], qFromTheta(J[3], th4), b4);
    VecX q(4);
    for (int i1 = 0; i1 < n1; ++i1)
      for (int i4 = 0; i4 < n4; ++i4) {
        double t, dz1, dz4;
        jointMotion(J[0], b1[i1], t, dz1);
        jointMotion(J[3], b4[i4], t, dz4);
        const SE3 T1 = dhLink(th1, dz1, J[0].a, J[0].alpha);
        const SE3 T4 = dhLink(th4, dz4, J[3].a, J[3].alpha);
        const SE3 T13 = T1.inverse() * T04 * T4.inverse();
        const double vx = T13.p.x() - J[2].a * std::cos(phi), vy = T13.p.y() - J[2].a * std::sin(phi);
        const double th2 = std::atan2(vy, vx) - std::atan2(0.0, J[1].a);
        const double th3 = c_a2 * (phi - th2);
        // cheap consistency test before the FK check: the planar reach |v| = |a2|
        if (prefilter && std::abs(std::hypot(vx, vy) - std::abs(J[1].a)) > 1e-6 * (1 + std::abs(J[1].a))) continue;
        const int n2 = rotationBranches(J[1], qFromTheta(J[1], th2), b2);
        const int n3 = rotationBranches(J[2], qFromTheta(J[2], th3), b3);
        for (int i2 = 0; i2 < n2; ++i2)
          for (int i3 = 0; i3 < n3; ++i3) {
            if (prefilter) {
              // axial consistency along the parallel axes 2, 3: dz2 + cos(α2)·dz3 = z of T13
              double t2, t3, dz2, dz3;
              jointMotion(J[1], b2[i2], t2, dz2);
              jointMotion(J[2], b3[i3], t3, dz3);
              if (std::abs(dz2 + c_a2 * dz3 - T13.p.z()) > 1e-6 * (1 + std::abs(T13.p.z()))) continue;
            }
            q << b1[i1], b2[i2], b3[i3], b4[i4];
            visit(q);
          }
      }
  };

  const Euler3 E = euler3(M, J[0].alpha, J[1].alpha + J[2].alpha, 0.0, 1e-7);
  IkAllResult res;
  res.method = IkMethod::Closed;
  if (E.count == 0) {
    set.finish(res, "orientation not reachable by this chain (axis geometry)");
    return res;
  }
  if (!E.degenerate) {
    for (int k = 0; k < E.count; ++k) enumerate(E.t1[k], E.t2[k], E.t3[k], [&](const VecX& q) { set.offer(q); });
    set.finish(res, "");
    return res;
  }

  // Degenerate: approach axis parallel to axis 1; only a combination of θ1 and θ4 is fixed.
  prefilter = false;
  // Scan θ1, refine the minima of the pose error, and detect a one-parameter family.
  const int N = 360;
  const double period = 2 * kPi;
  auto errAt = [&](double th1, int combo, VecX* qout) {
    const Euler3 e = euler3(M, J[0].alpha, J[1].alpha + J[2].alpha, th1, 1e-7);
    int idx = 0;
    double err = kInf;
    enumerate(e.t1[0], e.t2[0], e.t3[0], [&](const VecX& q) {
      if (idx++ != combo) return;
      err = set.error(q);
      if (qout) *qout = q;
    });
    return err;
  };
  int combos = 0;
  {
    const Euler3 e = euler3(M, J[0].alpha, J[1].alpha + J[2].alpha, 0.0, 1e-7);
    enumerate(e.t1[0], e.t2[0], e.t3[0], [&](const VecX&) { ++combos; });
  }
  int good = 0, total = 0;
  VecX q(4), q2(4);
  std::vector<double> g(N);
  for (int c = 0; c < combos; ++c) {
    for (int i = 0; i < N; ++i) {
      g[i] = errAt(period * i / N, c, nullptr);
      ++total;
      if (g[i] < 1e-7) ++good;
    }
    for (int i = 0; i < N; ++i) {
      const double gl = g[(i + N - 1) % N], gr = g[(i + 1) % N];
      if (!(g[i] <= gl && g[i] <= gr) || g[i] > 1e-2) continue;
      // golden-section refinement on [t_{i-1}, t_{i+1}]
      double a = period * (i - 1) / N, b = period * (i + 1) / N;
      const double r = 0.5 * (std::sqrt(5.0) - 1);
      double x1 = b - r * (b - a), x2 = a + r * (b - a);
      double f1 = errAt(x1, c, nullptr), f2 = errAt(x2, c, nullptr);
      for (int it = 0; it < 80; ++it) {
        if (f1 < f2) {
          b = x2; x2 = x1; f2 = f1; x1 = b - r * (b - a); f1 = errAt(x1, c, nullptr);
        } else {
          a = x1; x1 = x2; f1 = f2; x2 = a + r * (b - a); f2 = errAt(x2, c, nullptr);
        }
      }
      errAt(0.5 * (a + b), c, &q);
      set.offer(q);
    }
  }
  if (total > 0 && good > 0.9 * total) {
    // One-parameter family: θ1 free, θ4 follows; report the member nearest the seed (or θ1 = θ_f1).
    const auto& L0 = model.joints[0].limits;
    const double qref = seed ? (*seed)[0]
                             : (std::isfinite(L0.lower) && std::isfinite(L0.upper) ? 0.5 * (L0.lower + L0.upper) : 0.0);
    const double th1 = J[0].theta_f + J[0].sign * qref;
    int best_c = 0;
    double best_e = kInf;
    for (int c = 0; c < combos; ++c) {
      const double e = errAt(th1, c, nullptr);
      if (e < best_e) { best_e = e; best_c = c; }
    }
    errAt(th1, best_c, &q);
    errAt(th1 + 1e-4, best_c, &q2);
    VecX dir(4);
    for (int i = 0; i < 4; ++i) dir[i] = std::remainder(q2[i] - q[i], 2 * kPi) / 1e-4;
    for (int i = 0; i < 4; ++i) dir[i] = std::round(dir[i] * 1e3) / 1e3;
    IkAllResult fam;
    SolutionSet one(model, target, seed, tolerance);
    one.offer(q);
    one.finish(fam, "");
    fam.method = IkMethod::Closed;
    fam.status = IkStatus::Singular;
    fam.family_q0 = !fam.solutions.empty() ? fam.solutions[0].q : !fam.outside_limits.empty() ? fam.outside_limits[0].q : q;
    fam.family_dir = dir;
    fam.note = "approach axis parallel to axis 1 (sin(theta2 - theta3) = 0): one-parameter family "
               "q(t) = family_q0 + t*family_dir; solutions lists one member";
    return fam;
  }
  set.finish(res, "approach axis parallel to axis 1 (sin(theta2 - theta3) = 0): isolated solutions found by scanning theta1");
  return res;
}

}  // namespace achain
