#include <achain/trajectory/plan.hpp>
#include <achain/math/text.hpp>
#include <achain/model/caps.hpp>
#include <achain/model/labels.hpp>
#include <achain/model/limits.hpp>

#include <cmath>

#include <achain/trajectory/torque_analysis.hpp>
#include <achain/trajectory/polynomial.hpp>
#include <achain/trajectory/sequence.hpp>
#include <achain/trajectory/spline.hpp>
#include <achain/trajectory/trapezoid.hpp>

namespace achain {

namespace {
JointPathPtr pointToPoint(const std::string& profile, const VecX& a, const VecX& b, const RateLimits& L, bool sync) {
  if (profile == "trapezoid") return std::make_shared<TrapezoidPath>(a, b, L, TrapezoidOptions{sync});
  const int deg = polynomialDegree(profile);
  double T = PolynomialPath::minimumDuration(deg, a, b, L);
  if (T == 0) T = 1e-3;  // no motion: a short rest keeps the path well defined
  return std::make_shared<PolynomialPath>(deg, a, b, T);
}

/// Checks the sizes and values of the boundary rates; true when any is given and nonzero.
bool hasBoundaryRates(const Model& m, const PolynomialBoundary& b) {
  bool any = false;
  const std::pair<const VecX*, const char*> all[] = {{&b.v0, "v0"}, {&b.v1, "v1"}, {&b.a0, "a0"}, {&b.a1, "a1"}};
  for (const auto& [v, name] : all) {
    if (v->size() == 0) continue;
    if (v->size() != m.nq)
      throw Error(std::string(name) + ": expected " + std::to_string(m.nq) + " values, got " + std::to_string(v->size()));
    for (int i = 0; i < m.nq; ++i)
      if (!std::isfinite((*v)[i])) throw Error(std::string(name) + "[" + std::to_string(i) + "]: must be a finite number");
    any = any || v->cwiseAbs().maxCoeff() > 0;
  }
  return any;
}

/// Without a duration a profile takes its timing from the rate limits of each coordinate that moves: a trapezoid
/// needs a speed and an acceleration limit, the polynomials and the timed spline at least one of the two.
void requireRateLimits(const Model& m, const MatX& pts, const RateLimits& L, bool both) {
  for (int i = 0; i < m.nq; ++i) {
    bool moves = false;
    for (Eigen::Index k = 1; k < pts.rows(); ++k) moves = moves || pts(k, i) != pts(k - 1, i);
    const bool v = std::isfinite(L.velocity[i]), a = std::isfinite(L.acceleration[i]);
    if (!moves || (both ? v && a : v || a)) continue;
    const std::string limit = !both ? "speed or acceleration" : v ? "acceleration" : "speed";
    const std::string option = !both ? "vmax or amax" : v ? "amax" : "vmax";
    throw Error(coordinateLabel(m, i) + " has no " + limit + " limit, and the plan has no duration: give the joint " + (both && v ? "an " : "a ") +
                limit + " limit (" + option + ") or the plan a duration");
  }
}
}  // namespace

Plan planJointPath(const Model& m, const PlanSpec& s) {
  checkJointVector(m, s.from, "from");
  checkJointVector(m, s.to, "to");
  for (size_t k = 0; k < s.via.size(); ++k) checkJointVector(m, s.via[k], "via[" + std::to_string(k) + "]");
  // The goal and the via points must lie within the position limits (the start may not: a plan back inside them
  // from a pose outside is allowed). 1e-9 absorbs the rounding of a limit typed in degrees.
  for (size_t k = 0; k <= s.via.size(); ++k) {
    const bool goal = k == s.via.size();
    if (std::string why = limitsProblem(m, goal ? s.to : s.via[k], 1e-9); !why.empty())
      throw Error((goal ? std::string("goal: ") : "via point " + std::to_string(k + 1) + ": ") + why + "; choose a pose within the limits");
  }
  Plan plan;
  plan.limits = rateLimitsFromModel(m, 1.0, 1.0);
  if (s.velocity.size()) {
    if (s.velocity.size() != m.nq) throw Error("vmax: expected " + std::to_string(m.nq) + " values");
    plan.limits.velocity = s.velocity;
  }
  if (s.acceleration.size()) {
    if (s.acceleration.size() != m.nq) throw Error("amax: expected " + std::to_string(m.nq) + " values");
    plan.limits.acceleration = s.acceleration;
  }
  if (!(s.velocity_scale > 0) || !(s.acceleration_scale > 0)) throw Error("velocity/acceleration scale: must be > 0");
  plan.limits.velocity *= s.velocity_scale;
  plan.limits.acceleration *= s.acceleration_scale;
  if (std::isnan(s.duration)) throw Error("duration: must be a number");
  if (s.duration > 0 && !(s.duration >= kMinDuration && s.duration <= kMaxDuration))
    throw Error("duration: " + shortNumber(s.duration) + " s is outside the range [1e-6, 1e7] s");
  if (s.duration > 0) {
    // A given duration fixes the timing: joints without a speed or acceleration limit get a nominal
    // 1 (rad or m)/s and /s², which only shapes the profile before it is scaled to the duration.
    for (int i = 0; i < m.nq; ++i) {
      if (!std::isfinite(plan.limits.velocity[i])) plan.limits.velocity[i] = 1.0;
      if (!std::isfinite(plan.limits.acceleration[i])) plan.limits.acceleration[i] = 1.0;
    }
  }
  for (int i = 0; i < m.nq; ++i) {
    if (!(plan.limits.velocity[i] > 0)) throw Error("speed limit (vmax) of " + coordinateLabel(m, i) + ": must be > 0");
    if (!(plan.limits.acceleration[i] > 0)) throw Error("acceleration limit (amax) of " + coordinateLabel(m, i) + ": must be > 0");
  }

  MatX pts(s.via.size() + 2, m.nq);
  pts.row(0) = s.from.transpose();
  for (size_t k = 0; k < s.via.size(); ++k) pts.row(k + 1) = s.via[k].transpose();
  pts.row(pts.rows() - 1) = s.to.transpose();

  JointPathPtr path;
  const bool rates = hasBoundaryRates(m, s.boundary);
  if (!rates && !(s.duration > 0) && !(s.profile == "spline" && !s.times.empty()))
    requireRateLimits(m, pts, plan.limits, s.profile == "trapezoid");
  if (rates) {
    // jtraj: the boundary rates fix the time scale, so the duration is given and never rescaled.
    if (s.profile != "cubic" && s.profile != "quintic" && s.profile != "septic")
      throw Error("v0/v1/a0/a1: boundary velocities and accelerations need a cubic, quintic or septic profile (got '" +
                  s.profile + "')");
    if (!s.via.empty()) throw Error("v0/v1/a0/a1: boundary rates are for one from → to segment (no via points)");
    if (!(s.duration > 0) || !std::isfinite(s.duration))
      throw Error("duration: required (> 0) with boundary velocities or accelerations (they fix the time scale)");
    if (s.torque_limits) throw Error("torque limits: cannot slow down a path whose boundary velocities are given");
    path = std::make_shared<PolynomialPath>(polynomialDegree(s.profile), s.from, s.to, s.duration, s.boundary);
  } else if (s.profile == "spline") {
    if (!s.times.empty()) {
      if (s.times.size() != static_cast<size_t>(pts.rows()))
        throw Error("times: expected " + std::to_string(pts.rows()) + " knot times (from, each via, to)");
      path = std::make_shared<CubicSplinePath>(pts, s.times);
    } else {
      path = std::make_shared<CubicSplinePath>(CubicSplinePath::throughPoints(pts, plan.limits));
    }
  } else if (s.profile == "trapezoid" || s.profile == "cubic" || s.profile == "quintic" || s.profile == "septic") {
    if (!s.times.empty()) throw Error("times: only the spline profile takes knot times");
    if (pts.rows() == 2) {
      path = pointToPoint(s.profile, s.from, s.to, plan.limits, s.synchronize);
    } else {
      std::vector<JointPathPtr> segs;
      for (int k = 1; k < pts.rows(); ++k)
        segs.push_back(pointToPoint(s.profile, pts.row(k - 1).transpose(), pts.row(k).transpose(), plan.limits, s.synchronize));
      path = std::make_shared<SequencePath>(segs);
    }
  } else {
    throw Error("profile: '" + s.profile + "' is not one of trapezoid, cubic, quintic, septic, spline");
  }

  if (std::isnan(s.duration)) throw Error("duration: must be a number");
  if (s.duration > 0 && !rates) {
    if (!std::isfinite(s.duration)) throw Error("duration: must be finite");
    if (path->duration() > 0) path = std::make_shared<TimeScaledPath>(path, s.duration / path->duration());
  } else if (s.duration < 0) {
    throw Error("duration: must be > 0");
  }
  if (s.torque_limits) {
    const InverseDynamicsSeriesFn id = makeInverseDynamicsSeries(m, s.dynamics);  // every point in one batch call
    TimeScalingOptions o;  // speed and acceleration too: a forced --duration may have broken them
    o.torque_series = &id;
    plan.torque_scaling = timeScaleToLimits(m, *path, o);
    if (plan.torque_scaling.factor > 1) path = std::make_shared<TimeScaledPath>(path, plan.torque_scaling.factor);
  }
  plan.path = path;
  return plan;
}

}  // namespace achain
