#include <achain/ik/closed_6r.hpp>

#include <achain/ik/closed_common.hpp>
#include <achain/ik/solution_set.hpp>

namespace achain {

using namespace ik_detail;

namespace {

bool check6r(const Model& m, std::string* why) {
  auto fail = [&](const std::string& s) {
    if (why) *why = s;
    return false;
  };
  if (const std::string p = serialChainProblem(m, 6, false); !p.empty()) return fail(p);
  Model conv;
  const auto& J = standardDH(m, conv).joints;
  if (std::abs(std::sin(J[0].alpha)) < 1e-6) return fail("joints[0].alpha: axis 2 must not be parallel to axis 1");
  if (std::abs(std::sin(J[1].alpha)) > 1e-9) return fail("joints[1].alpha: axes 2 and 3 must be parallel");
  if (std::abs(J[1].a) < 1e-9) return fail("joints[1].a: must be non-zero");
  if (std::abs(J[3].a) > 1e-12 || std::abs(J[4].a) > 1e-12 || std::abs(J[4].d) > 1e-12 || std::abs(J[5].a) > 1e-12)
    return fail("joints[3..5]: wrist axes 4, 5, 6 must meet in a point (a4 = a5 = d5 = a6 = 0)");
  if (std::abs(std::sin(J[3].alpha)) < 1e-6 || std::abs(std::sin(J[4].alpha)) < 1e-6)
    return fail("joints[3..4].alpha: wrist axes must not be parallel");
  return true;
}

}  // namespace

bool isWristPartitioned6R(const Model& model, std::string* why) { return check6r(model, why); }

IkAllResult solveWristPartitioned6R(const Model& model, const SE3& target, const VecX* seed, double tolerance) {
  std::string why;
  if (!check6r(model, &why)) throw Error("closed-form IK (wrist-partitioned 6R): " + why);
  Model conv;
  const Model& S = standardDH(model, conv);
  const auto& J = S.joints;
  const double c2s = std::cos(J[1].alpha) > 0 ? 1.0 : -1.0;
  const SE3 T06 = S.base.inverse() * target * S.tool.inverse();
  // wrist centre o4 = o5 = o6 − d6·z5, z5 = R6 Rx(α6)ᵀ ẑ
  const Vec3 W = T06.p - J[5].d * (T06.R * Rx(J[5].alpha).transpose() * Vec3::UnitZ());
  const Vec3 v3(J[2].a, -std::sin(J[2].alpha) * J[3].d, J[2].d + std::cos(J[2].alpha) * J[3].d);
  const double h = J[1].d + c2s * v3.z();
  const double sa1 = std::sin(J[0].alpha), ca1 = std::cos(J[0].alpha);
  const double A = sa1 * W.x(), B = -sa1 * W.y(), C = h - ca1 * (W.z() - J[0].d);
  const double r = std::hypot(A, B);

  SolutionSet set(model, target, seed, tolerance);
  IkAllResult res;
  res.method = IkMethod::Closed;
  bool singular = false;
  std::vector<double> th1s;
  if (r < 1e-12) {
    singular = true;  // wrist centre on axis 1: θ1 free
    th1s.push_back(seed ? J[0].theta_f + J[0].sign * (*seed)[0] : J[0].theta_f);
  } else {
    double c = C / r;
    if (std::abs(c) > 1 + 1e-12) {
      set.finish(res, "wrist centre out of reach of the shoulder offset");
      return res;
    }
    c = std::max(-1.0, std::min(1.0, c));
    const double g = std::atan2(A, B), d = std::acos(c);
    th1s = {g + d, g - d};
  }
  const Eigen::Vector2d b(v3.x(), c2s * v3.y());
  const double L3 = b.norm(), a2 = J[1].a;
  VecX q(6);
  for (double th1 : th1s) {
    const SE3 T1 = dhLink(th1, J[0].d, J[0].a, J[0].alpha);
    const Vec3 W1 = T1.inverse().act(W);
    const double rr = W1.x() * W1.x() + W1.y() * W1.y();
    double cpsi = (rr - a2 * a2 - L3 * L3) / (2 * a2 * L3);
    if (std::abs(cpsi) > 1 + 1e-12) continue;
    cpsi = std::max(-1.0, std::min(1.0, cpsi));
    const double psi0 = std::acos(cpsi);
    // arm right: the wrist centre lies in front of axis 1 along frame 1's x axis
    const std::string arm = W.dot(T1.R.col(0)) >= 0 ? "right" : "left";
    for (double psi : {psi0, -psi0}) {
      const double th3 = c2s * (psi - std::atan2(b.y(), b.x()));
      const double th2 = std::atan2(W1.y(), W1.x()) - std::atan2(L3 * std::sin(psi), a2 + L3 * std::cos(psi));
      const SE3 T2 = dhLink(th2, J[1].d, J[1].a, J[1].alpha);
      const SE3 T3 = dhLink(th3, J[2].d, J[2].a, J[2].alpha);
      const SE3 T03 = T1 * T2 * T3;
      // elbow up: the elbow (origin of frame 2) lies above the shoulder–wrist line, along axis 1 (z0)
      const Vec3 o1 = T1.p, o2 = (T1 * T2).p, u = (W - o1).normalized();
      const Vec3 e = (o2 - o1) - (o2 - o1).dot(u) * u;
      const std::string elbow = e.z() >= 0 ? "up" : "down";
      const Mat3 M = T03.R.transpose() * T06.R * Rx(J[5].alpha).transpose();
      const double hint = seed ? J[3].theta_f + J[3].sign * (*seed)[3] : J[3].theta_f;
      const Euler3 E = euler3(M, J[3].alpha, J[4].alpha, hint, 1e-9);
      if (E.degenerate) singular = true;
      for (int k = 0; k < E.count; ++k) {
        q << qFromTheta(J[0], th1), qFromTheta(J[1], th2), qFromTheta(J[2], th3), qFromTheta(J[3], E.t1[k]),
            qFromTheta(J[4], E.t2[k]), qFromTheta(J[5], E.t3[k]);
        const std::string wrist = E.degenerate ? "singular" : (std::sin(E.t2[k]) >= 0 ? "noflip" : "flip");
        set.offer(q, {{"arm", arm}, {"elbow", elbow}, {"wrist", wrist}});
      }
    }
  }
  set.finish(res, singular ? "singular target (wrist centre on axis 1 or sin(theta5) = 0): the free angle is "
                             "taken from the seed; the solutions listed are members of a one-parameter family"
                           : "");
  if (singular && res.status == IkStatus::Ok) res.status = IkStatus::Singular;
  return res;
}

}  // namespace achain
