#include <achain/ik/three_r_three_p.hpp>

#include <algorithm>
#include <cmath>

#include <achain/ik/closed_common.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/kinematics/jacobian.hpp>

namespace achain {

namespace {

using Vec6q = Eigen::Matrix<double, 6, 1>;
using Mat6q = Eigen::Matrix<double, 6, 6>;

/// Relative thresholds: two revolute axes parallel (|e × e'|), a vector on the axis it turns about (its
/// perpendicular part), the prismatic axes coplanar (det over the product of the column lengths).
constexpr double kParallelTol = 1e-8, kOnAxisTol = 1e-8, kCoplanarTol = 1e-9;

/// Rotation by angle t about the unit axis e (Rodrigues).
Mat3 rotAbout(const Vec3& e, double t) { return Eigen::AngleAxisd(t, e).toRotationMatrix(); }

/// Paden–Kahan subproblem 1: the angle about the unit axis e that turns u onto v (|u| = |v| across e);
/// false if u lies on the axis (every angle does).
bool subproblem1(const Vec3& e, const Vec3& u, const Vec3& v, double& t) {
  const Vec3 up = u - e * e.dot(u), vp = v - e * e.dot(v);
  if (!(up.norm() > kOnAxisTol * std::max(1.0, u.norm()))) return false;
  t = std::atan2(e.dot(up.cross(vp)), up.dot(vp));
  return true;
}

/// Newton steps on the model from q (updated in place, left at the best iterate); returns its |e|.
double polish(const Model& model, Data& data, const SE3& target, Vec6q& q) {
  Mat6q J;
  Vec6q e, best_q = q;
  double best = kInf;
  for (int it = 0; it < 8; ++it) {
    forwardKinematics(model, data, q);
    e.head<3>() = target.p - data.oMtool.p;
    e.tail<3>() = rotationLog(target.R * data.oMtool.R.transpose());
    const double err = e.norm();
    if (!(err < best)) break;  // no progress (or not finite)
    best = err;
    best_q = q;
    if (err < 1e-15) break;
    toolJacobian(model, data, J);
    const Vec6q d = J.colPivHouseholderQr().solve(e);
    if (!d.allFinite()) break;
    q += d;
  }
  q = best_q;
  return best;
}

}  // namespace

bool isThreeRThreeP(const Model& m, std::string* why) {
  auto fail = [&](const std::string& s) {
    if (why) *why = s;
    return false;
  };
  const int n_revolute = ik_detail::sixJointRevoluteCount(m, why);
  if (n_revolute < 0) return false;
  if (n_revolute != 3) return fail("needs three revolute and three prismatic joints (3R3P), got " + std::to_string(n_revolute) + " revolute");
  return true;
}

void ikThreeRThreeP(const Model& model, Data& data, const SE3& target, IkSolutionSet& out, const double* seed,
                    double tolerance) {
  std::string why;
  if (!isThreeRThreeP(model, &why)) throw Error("method 3r3p: " + why);
  checkData(model, data);
  ik_detail::IkCollector set(out, model, seed, tolerance);  // empties out
  auto& diag = out.three_r_three_p;
  int rev[3], pri[3], nr = 0, np = 0;
  for (int i = 0; i < 6; ++i) (model.jmodels[i].angular() ? rev[nr++] : pri[np++]) = i;

  // the revolute axes and the tool rotation at q = 0: R(q) = Rot(e₁, φ₁) Rot(e₂, φ₂) Rot(e₃, φ₃) R(0)
  Vec6q q = Vec6q::Zero();
  forwardKinematics(model, data, q);
  Vec3 e[3];
  double rate[3];
  for (int k = 0; k < 3; ++k) {
    e[k] = data.oMj[rev[k]].R.col(2).normalized();
    rate[k] = data.rot_rate[rev[k]];
  }
  const Mat3 Q = target.R * data.oMtool.R.transpose();
  auto degenerate = [&](const char* w) {
    diag.degenerate = true;
    diag.why = w;
    set.finish();
  };
  if (!(e[0].cross(e[1]).norm() > kParallelTol))
    return degenerate("revolute axes 1 and 2 parallel: the orientation fixes only the sum of their angles (a continuum)");
  if (!(e[1].cross(e[2]).norm() > kParallelTol))
    return degenerate("revolute axes 2 and 3 parallel: the orientation fixes only the sum of their angles (a continuum)");

  // A cos φ₂ + B sin φ₂ = C
  const double e12 = e[0].dot(e[1]), e23 = e[1].dot(e[2]);
  const double A = e[0].dot(e[2]) - e12 * e23;
  const double B = e[0].dot(e[1].cross(e[2]));
  const double C = e[0].dot(Q * e[2]) - e12 * e23;
  const double r = std::hypot(A, B);
  double c = C / r;
  if (!(std::abs(c) <= 1 + 1e-12)) {  // the orientation is out of reach of the three axes
    set.finish();
    return;
  }
  c = std::max(-1.0, std::min(1.0, c));
  const double base = std::atan2(B, A), half = std::acos(c);
  const int nroots = half > 0 ? 2 : 1;
  diag.orientation_roots = nroots;

  // each root: φ₁, φ₃, then the prismatic coordinates; every root is checked for a continuum before any is offered
  Vec6q cand[2];
  for (int k = 0; k < nroots; ++k) {
    const double phi2 = base + (k == 0 ? half : -half);
    double phi1, phi3;
    if (!subproblem1(e[0], rotAbout(e[1], phi2) * e[2], Q * e[2], phi1))
      return degenerate("at this target revolute axis 3 turns onto axis 1: only the sum of their angles is fixed (a continuum)");
    const Mat3 M3 = rotAbout(e[1], -phi2) * rotAbout(e[0], -phi1) * Q;  // = Rot(e₃, φ₃)
    const Vec3 w = e[2].unitOrthogonal();
    const Vec3 mw = M3 * w;
    phi3 = std::atan2(e[2].dot(w.cross(mw)), w.dot(mw));
    const double phi[3] = {phi1, phi2, phi3};
    Vec6q& x = cand[k];
    x.setZero();
    for (int j = 0; j < 3; ++j) x[rev[j]] = ik_detail::wrapPi(phi[j] / rate[j]);
    // position: p(angles, 0) + Σ z_j (∂dz/∂q)_j q_j = p*
    forwardKinematics(model, data, x);
    Mat3 P;
    for (int j = 0; j < 3; ++j) P.col(j) = data.oMj[pri[j]].R.col(2) * data.axial_rate[pri[j]];
    const double det = P.determinant();
    if (!(std::abs(det) > kCoplanarTol * P.col(0).norm() * P.col(1).norm() * P.col(2).norm()))
      return degenerate("the three prismatic axes are coplanar at this orientation: the 3x3 system is singular (no isolated solution)");
    const Vec3 d = P.inverse() * (target.p - data.oMtool.p);
    for (int j = 0; j < 3; ++j) x[pri[j]] = d[j];
  }
  for (int k = 0; k < nroots; ++k) {
    polish(model, data, target, cand[k]);
    for (int j = 0; j < 3; ++j) cand[k][rev[j]] = ik_detail::wrapPi(cand[k][rev[j]]);
    double pe, oe;
    forwardKinematics(model, data, cand[k]);
    poseError(data.oMtool, target, pe, oe);
    set.offer(cand[k].data(), pe, oe);
  }
  set.finish();
}

}  // namespace achain
