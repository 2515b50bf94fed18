#include <achain/trajectory/cartesian.hpp>

#include <Eigen/Geometry>
#include <cmath>

#include <achain/kinematics/fk.hpp>
#include <achain/ik/numeric.hpp>
#include <achain/trajectory/trapezoid.hpp>

namespace achain {

namespace {
struct ArcGeometry {
  Vec3 center, normal;
  double radius = 0, angle = 0;
};

ArcGeometry arcThrough(const Vec3& p0, const Vec3& pv, const Vec3& p1) {
  const Vec3 a = pv - p0, b = p1 - p0;
  const Vec3 n = a.cross(b);
  const double nn = n.squaredNorm();
  if (nn < 1e-18 * std::max(1e-12, a.squaredNorm() * b.squaredNorm()) || nn == 0)
    throw Error("arc: start, via point and goal are collinear (or coincide); no circle through them");
  // circumcentre of the triangle p0, pv, p1
  const Vec3 c = p0 + (b.squaredNorm() * n.cross(a) + a.squaredNorm() * b.cross(n)) / (2 * nn);
  ArcGeometry g;
  g.center = c;
  g.normal = n / std::sqrt(nn);
  g.radius = (p0 - c).norm();
  const Vec3 u = (p0 - c) / g.radius, w = g.normal.cross(u);
  double ang = std::atan2((p1 - c).dot(w), (p1 - c).dot(u));
  if (ang <= 0) ang += 2 * kPi;
  g.angle = ang;  // p0 → pv → p1 runs counter-clockwise about n
  return g;
}

double slerpAngle(const SE3& a, const SE3& b) {
  return Eigen::AngleAxisd(a.R.transpose() * b.R).angle();
}
}  // namespace

SE3 cartesianPose(const SE3& start, const CartesianPathSpec& spec, double s) {
  SE3 T;
  const Eigen::Quaterniond q0(start.R), q1(spec.goal.R);
  T.R = q0.slerp(s, q1).toRotationMatrix();
  if (spec.kind == CartesianKind::Line) {
    T.p = start.p + s * (spec.goal.p - start.p);
  } else {
    const ArcGeometry g = arcThrough(start.p, spec.arc_via, spec.goal.p);
    T.p = g.center + Eigen::AngleAxisd(s * g.angle, g.normal) * (start.p - g.center);
  }
  if (s >= 1) T.p = spec.goal.p;
  return T;
}

CartesianPlan planCartesianPath(const Model& m, const VecX& q0, const CartesianPathSpec& spec) {
  checkJointVector(m, q0, "from");
  const char* what = spec.kind == CartesianKind::Line ? "line" : "arc";
  if (spec.knots < 2) throw Error(std::string(what) + ": knots must be at least 2");
  for (double v : {spec.speed, spec.acceleration, spec.angular_speed, spec.angular_acceleration})
    if (!(v > 0) || !std::isfinite(v)) throw Error(std::string(what) + ": speeds and accelerations must be finite and > 0");
  CartesianPlan plan;
  plan.position_only = spec.position_only < 0 ? m.nq < 6 : spec.position_only == 1;
  Data data(m);
  forwardKinematics(m, data, q0);
  const SE3 start = data.oMtool;
  if (spec.kind == CartesianKind::Line) {
    plan.length = (spec.goal.p - start.p).norm();
  } else {
    const ArcGeometry g = arcThrough(start.p, spec.arc_via, spec.goal.p);
    plan.length = g.radius * g.angle;
  }
  plan.rotation = plan.position_only ? 0.0 : slerpAngle(start, spec.goal);
  if (plan.length == 0 && plan.rotation == 0) throw Error(std::string(what) + ": the goal equals the start pose; nothing to move");
  // Timing law s(t): a trapezoid in s with the tighter of the linear and angular limits.
  double vs = kInf, as = kInf;
  if (plan.length > 0) { vs = std::min(vs, spec.speed / plan.length); as = std::min(as, spec.acceleration / plan.length); }
  if (plan.rotation > 0) { vs = std::min(vs, spec.angular_speed / plan.rotation); as = std::min(as, spec.angular_acceleration / plan.rotation); }
  const Trapezoid1D law = Trapezoid1D::minimumTime(0, 1, vs, as);
  const double T = law.T;
  // IK at the knots (uniform in time), each seeded with the previous solution.
  const int K = spec.knots;
  MatX qk(K, m.nq);
  std::vector<double> tk(K);
  IkOptions io = spec.ik;
  io.position_only = plan.position_only;
  io.restarts = 0;
  IkResult res;
  VecX seed = q0;
  qk.row(0) = q0.transpose();
  for (int k = 1; k < K; ++k) {
    tk[k] = T * k / (K - 1);
    double s, sd, sdd;
    law.evaluate(tk[k], s, sd, sdd);
    const SE3 target = cartesianPose(start, spec, s);
    solveNumeric(m, data, target, seed, io, res);
    if (res.status != IkStatus::Ok) {
      char buf[200];
      std::snprintf(buf, sizeof buf, "%s: IK %s at s = %.4f (t = %.4f s, position error %.3g m)", what, toString(res.status), s,
                    tk[k], res.position_error);
      throw Error(buf);
    }
    const double step = (res.q - seed).cwiseAbs().maxCoeff();
    if (step > spec.max_joint_step) {
      char buf[200];
      std::snprintf(buf, sizeof buf, "%s: IK jumps %.1f deg between knots at s = %.4f (branch switch or singularity); "
                    "use more knots or another path", what, step / kDeg, s);
      throw Error(buf);
    }
    plan.max_ik_error = std::max(plan.max_ik_error, res.position_error);
    qk.row(k) = res.q.transpose();
    seed = res.q;
  }
  auto spline = std::make_shared<const CubicSplinePath>(qk, tk);
  plan.spline = spline;
  // deviation of the joint spline from the Cartesian path, midway between knots
  VecX q, qd, qdd;
  for (int k = 0; k + 1 < K; ++k) {
    const double t = 0.5 * (tk[k] + tk[k + 1]);
    spline->evaluate(t, q, qd, qdd);
    forwardKinematics(m, data, q);
    double s, sd, sdd;
    law.evaluate(t, s, sd, sdd);
    plan.max_deviation = std::max(plan.max_deviation, (data.oMtool.p - cartesianPose(start, spec, s).p).norm());
  }
  plan.path = spline;
  if (spec.joint_limits) {
    TimeScalingOptions o;
    plan.scaling = timeScaleToLimits(m, *spline, o);
    if (plan.scaling.factor > 1) plan.path = std::make_shared<TimeScaledPath>(spline, plan.scaling.factor);
  }
  return plan;
}

}  // namespace achain
