#include <achain/trajectory/cartesian.hpp>
#include <achain/math/text.hpp>
#include <achain/model/caps.hpp>

#include <Eigen/Geometry>
#include <cmath>

#include <achain/kinematics/fk.hpp>
#include <achain/ik/numeric.hpp>
#include <achain/trajectory/polynomial.hpp>
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

/// SLERP from R0 to R1: R(s) = R0·Rot(k, s·θ), (k, θ) the axis-angle of R0ᵀR1 (θ ∈ [0, π]); exact at the ends.
/// The one rotation interpolation of both the IK-tracked paths and interpolateCartesian.
struct Slerp {
  Mat3 R0, R1;
  Vec3 k = Vec3::UnitZ();
  double angle = 0;
  Slerp(const Mat3& a, const Mat3& b) : R0(a), R1(b) {
    const Eigen::AngleAxisd aa(a.transpose() * b);
    angle = aa.angle();
    if (angle > 0) k = aa.axis();
  }
  Mat3 at(double s) const {
    if (s <= 0) return R0;
    if (s >= 1) return R1;
    return R0 * Eigen::AngleAxisd(s * angle, k).toRotationMatrix();
  }
  Vec3 worldAxis() const { return angle > 0 ? Vec3(R0 * k) : Vec3::Zero(); }
};

/// The timing law of a Cartesian path of `length` m and `rotation` rad: a minimum-time trapezoid in s under
/// the tighter of the linear and angular limits.
Trapezoid1D minimumTimeLaw(double length, double rotation, double v, double a, double w, double wa) {
  double vs = kInf, as = kInf;
  if (length > 0) { vs = std::min(vs, v / length); as = std::min(as, a / length); }
  if (rotation > 0) { vs = std::min(vs, w / rotation); as = std::min(as, wa / rotation); }
  return Trapezoid1D::minimumTime(0, 1, vs, as);
}
}  // namespace

SE3 cartesianPose(const SE3& start, const CartesianPathSpec& spec, double s) {
  SE3 T;
  T.R = Slerp(start.R, spec.goal.R).at(s);
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
  if (spec.knots < 2 || spec.knots > kMaxCartesianKnots)
    throw Error(std::string(what) + ": knots must be between 2 and " + std::to_string(kMaxCartesianKnots) + " (got " + std::to_string(spec.knots) + ")");
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
  plan.rotation = plan.position_only ? 0.0 : Slerp(start.R, spec.goal.R).angle;
  if (plan.length == 0 && plan.rotation == 0) throw Error(std::string(what) + ": the goal equals the start pose; nothing to move");
  // Timing law s(t): a trapezoid in s with the tighter of the linear and angular limits.
  const Trapezoid1D law = minimumTimeLaw(plan.length, plan.rotation, spec.speed, spec.acceleration, spec.angular_speed,
                                         spec.angular_acceleration);
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
    ikNumeric(m, data, target, seed, io, res);
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

CartesianInterpolation interpolateCartesian(const SE3& start, const SE3& goal, const CartesianInterpolationSpec& spec) {
  for (const auto& [v, name] : {std::pair<double, const char*>{spec.speed, "speed"}, {spec.acceleration, "acceleration"},
                                {spec.angular_speed, "angular_speed"}, {spec.angular_acceleration, "angular_acceleration"}})
    if (!(v > 0) || !std::isfinite(v)) throw Error(std::string(name) + ": must be finite and > 0");
  if (!(spec.rate > 0) || !std::isfinite(spec.rate)) throw Error("rate: must be finite and > 0");
  if (!(spec.duration >= 0) || !std::isfinite(spec.duration)) throw Error("duration: must be finite and ≥ 0 (0: from the limits)");
  if (spec.duration > 0 && !(spec.duration >= kMinDuration && spec.duration <= kMaxDuration))
    throw Error("duration: " + shortNumber(spec.duration) + " s is outside the range [1e-6, 1e7] s");
  if (!start.R.allFinite() || !start.p.allFinite()) throw Error("start: must be finite");
  if (!goal.R.allFinite() || !goal.p.allFinite()) throw Error("goal: must be finite");
  const bool trapezoid = spec.profile == "trapezoid";
  const int degree = trapezoid ? 0 : polynomialDegree(spec.profile);  // throws naming the profile
  CartesianInterpolation out;
  out.profile = spec.profile;
  const Slerp slerp(start.R, goal.R);
  const Vec3 dp = goal.p - start.p;
  out.length = dp.norm();
  out.rotation = slerp.angle;
  out.axis = slerp.worldAxis();
  if (spec.duration == 0 && out.length == 0 && out.rotation == 0)
    throw Error("goal: equals the start pose; nothing to move (give a duration to hold the pose)");
  // s(t)
  Trapezoid1D law;
  std::shared_ptr<PolynomialPath> poly;
  if (trapezoid) {
    law = spec.duration > 0 ? Trapezoid1D::withTimes(0, 1, spec.duration / 3, spec.duration)
                            : minimumTimeLaw(out.length, out.rotation, spec.speed, spec.acceleration, spec.angular_speed,
                                             spec.angular_acceleration);
    out.duration = law.T;
  } else {
    double T = spec.duration;
    if (T == 0) {  // the rest-to-rest polynomial's minimum time: length and angle as two "joints"
      RateLimits L;
      L.velocity = Eigen::Vector2d(spec.speed, spec.angular_speed);
      L.acceleration = Eigen::Vector2d(spec.acceleration, spec.angular_acceleration);
      T = PolynomialPath::minimumDuration(degree, VecX::Zero(2), Eigen::Vector2d(out.length, out.rotation), L);
    }
    poly = std::make_shared<PolynomialPath>(degree, VecX::Zero(1), VecX::Ones(1), T);
    out.duration = T;
  }
  const double T = out.duration;
  const double steps = std::ceil(T * spec.rate - 1e-9);
  if (steps + 1 > kMaxTrajectorySamples) throw Error("rate: more than 1e6 samples (duration × rate)");
  const int N = static_cast<int>(steps) + 1;
  VecX sv(1), sdv(1), sddv(1);
  for (int k = 0; k < N; ++k) {
    const double t = k + 1 == N ? T : k / spec.rate;
    double s, sd, sdd;
    if (trapezoid) {
      law.evaluate(t, s, sd, sdd);
    } else {
      poly->evaluate(t, sv, sdv, sddv);
      s = sv[0], sd = sdv[0], sdd = sddv[0];
    }
    if (k + 1 == N) s = 1;
    SE3 P;
    P.R = slerp.at(s);
    P.p = s >= 1 ? goal.p : start.p + s * dp;
    Vec6 tw, acc;
    tw << sd * dp, sd * out.rotation * out.axis;
    acc << sdd * dp, sdd * out.rotation * out.axis;
    out.t.push_back(t);
    out.s.push_back(s);
    out.sd.push_back(sd);
    out.sdd.push_back(sdd);
    out.poses.push_back(P);
    out.twists.push_back(tw);
    out.accelerations.push_back(acc);
  }
  return out;
}

}  // namespace achain
