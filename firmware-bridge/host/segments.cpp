#include "segments.hpp"

#include <cmath>
#include <cstdio>

#include <achain/io/robot.hpp>
#include <achain/io/trajectory_json.hpp>
#include <achain/trajectory/plan.hpp>
#include <achain/trajectory/trajectory.hpp>
#include <achain/trajectory/trapezoid.hpp>
#include <achain/math/types.hpp>

namespace achain {
namespace bridge {

using nlohmann::json;

SampledTrajectory fromCore(const Trajectory& c) {
  SampledTrajectory tr;
  tr.robot = c.robot;
  tr.joints = c.joints;
  tr.t = c.t;
  auto rows = [&](const MatX& M, std::vector<std::vector<double>>& dst) {
    dst.resize(M.rows());
    for (auto& r : dst) r.resize(M.cols());
    for (int k = 0; k < M.rows(); ++k)
      for (int i = 0; i < M.cols(); ++i) dst[k][i] = M(k, i);
  };
  rows(c.q, tr.q);
  rows(c.qd, tr.qd);
  rows(c.qdd, tr.qdd);
  return tr;
}

namespace {
}  // namespace

SampledTrajectory trajectoryFromJson(const json& j) {
  // The format has one reader (core/trajectory); the bridge adds what streaming needs.
  if (j.is_object() && !j.contains("qd")) throw Error("qd: missing (streaming interpolates positions and velocities)");
  const Trajectory c = achain::trajectoryFromJson(j);
  if (c.samples() < 2) throw Error("t: must be an array of at least 2 times");
  if (c.dof() < 1 || c.dof() > kMaxJoints)
    throw Error("joints: between 1 and " + std::to_string(kMaxJoints) + " joints are supported");
  return fromCore(c);
}

json trajectoryToJson(const SampledTrajectory& t) {
  json j = {{"schema", "achain-trajectory"}, {"version", 1}, {"robot", t.robot}, {"joints", t.joints},
            {"t", t.t}, {"q", t.q}, {"qd", t.qd}};
  if (!t.qdd.empty()) j["qdd"] = t.qdd;
  return j;
}

SampledTrajectory thesisTrapezoid(double dt) {
  if (!(dt > 0)) throw Error("dt: must be positive");
  // The trajectory area's planner with the prototype's Table 3.11 limits (one trapezoid code).
  const Model m = builtinModel("prototype-4a");
  PlanSpec spec;
  spec.profile = "trapezoid";
  spec.from = VecX::Constant(4, 60 * kDeg);
  spec.to = VecX::Constant(4, 300 * kDeg);
  const Plan plan = planJointPath(m, spec);
  return fromCore(samplePath(m, *plan.path, 1.0 / dt));
}

namespace {
/// Fritsch–Carlson limiter on one joint of one piece (Fritsch & Carlson 1980, SIAM J. Numer. Anal. 17(2)):
/// with α = v0·T/Δq, β = v1·T/Δq, the cubic Hermite piece is monotone — so it stays between its end
/// positions — when α, β ≥ 0 and α² + β² ≤ 9. Velocities against the direction of Δq become 0, too
/// large ones are scaled onto that circle; a piece with Δq = 0 becomes flat.
void monotonePiece(double q0, double& v0, double q1, double& v1, double T) {
  const double dq = q1 - q0;
  if (dq == 0) {
    v0 = v1 = 0;
    return;
  }
  double al = v0 * T / dq, be = v1 * T / dq;
  if (al < 0) al = 0;
  if (be < 0) be = 0;
  const double r2 = al * al + be * be;
  if (r2 > 9) {
    const double k = 3 / std::sqrt(r2);
    al *= k;
    be *= k;
  }
  v0 = al * dq / T;
  v1 = be * dq / T;
}
}  // namespace

bool splitAtRest(const Segment& s, const std::vector<JointLimitsF>& limits, Segment& left, Segment& right) {
  const double T = s.duration_us * 1e-6;
  for (int j = 0; j < s.joints; ++j) {
    const double q0 = s.a[j].q / kPosScale, v0 = s.a[j].v / kVelScale, q1 = s.b[j].q / kPosScale, v1 = s.b[j].v / kVelScale;
    const JointLimitsF pos{limits[j].q_min, limits[j].q_max, kInf, kInf};
    if (checkPiece(q0, v0, q1, v1, T, pos, 1.0, nullptr) != LimitViolation::Position) continue;
    const double dq = q1 - q0;
    // constant acceleration to rest covers dq in 2·dq/v: stopping at the end, or starting at the beginning
    const bool stops = s.b[j].v == 0 && v0 * dq > 0, starts = s.a[j].v == 0 && v1 * dq > 0;
    if (!stops && !starts) return false;
    const double tau = 2 * dq / (stops ? v0 : v1);
    const auto tau_us = static_cast<uint32_t>(std::llround(tau * 1e6));
    if (tau_us < 1 || tau_us >= s.duration_us) return false;
    const uint32_t cut = stops ? tau_us : s.duration_us - tau_us;
    left = right = s;
    left.duration_us = cut;
    right.t_start_us = s.t_start_us + cut;
    right.duration_us = s.duration_us - cut;
    for (int k = 0; k < s.joints; ++k) {
      // the other joints: the same cubic, cut in two
      double q, v, acc;
      hermite(s.a[k].q / kPosScale, s.a[k].v / kVelScale, s.b[k].q / kPosScale, s.b[k].v / kVelScale, T, cut * 1e-6, q, v, acc);
      left.b[k].q = right.a[k].q = toFixed(q, kPosScale);
      left.b[k].v = right.a[k].v = toFixed(v, kVelScale);
    }
    // this joint: moving to rest then holding, or holding then moving off
    left.b[j] = right.a[j] = stops ? s.b[j] : s.a[j];
    return true;
  }
  return false;
}

void preserveLimits(std::vector<Segment>& segs, const std::vector<JointLimitsF>& limits) {
  // A piece between consecutive samples can still leave the position limits where the plan stops at a
  // limit between two samples (the cubic with the sampled velocities overshoots the stop). Such a
  // piece gets the Fritsch–Carlson velocities: it then stays between its end samples, which are inside
  // the limits. A knot's velocity is shared by the two pieces that meet there (the controller checks
  // that continuity exactly), and lowering it keeps a monotone neighbour monotone; a few passes
  // re-check the neighbours of every changed knot.
  const int m = static_cast<int>(segs.size());
  for (int pass = 0; pass < 8; ++pass) {
    bool changed = false;
    for (int i = 0; i < m; ++i) {
      Segment& s = segs[i];
      const double T = s.duration_us * 1e-6;
      for (int j = 0; j < s.joints; ++j) {
        const JointLimitsF& L = limits[j];
        const double q0 = s.a[j].q / kPosScale, q1 = s.b[j].q / kPosScale;
        double v0 = s.a[j].v / kVelScale, v1 = s.b[j].v / kVelScale;
        // position only: the samples themselves inside, the cubic between them outside
        const JointLimitsF pos{L.q_min, L.q_max, kInf, kInf};
        if (checkPiece(q0, v0, q1, v1, T, pos, 1.0, nullptr) != LimitViolation::Position) continue;
        if (checkPiece(q0, 0, q0, 0, 1.0, pos, 1.0, nullptr) != LimitViolation::None ||
            checkPiece(q1, 0, q1, 0, 1.0, pos, 1.0, nullptr) != LimitViolation::None)
          continue;  // a sample outside the limits: nothing to preserve, checkSegments reports it
        monotonePiece(q0, v0, q1, v1, T);
        const int32_t a = toFixed(v0, kVelScale), b = toFixed(v1, kVelScale);
        if (a == s.a[j].v && b == s.b[j].v) continue;
        s.a[j].v = a;
        s.b[j].v = b;
        if (i > 0) segs[i - 1].b[j].v = a;
        if (i + 1 < m) segs[i + 1].a[j].v = b;
        changed = true;
      }
    }
    if (!changed) break;
  }
}

std::vector<Segment> buildSegments(const SampledTrajectory& tr, double segment_dt, uint32_t first_id, bool blend_first,
                                   const std::vector<JointLimitsF>* limits, double accel_margin) {
  const int n = static_cast<int>(tr.t.size());
  const int dof = tr.dof();
  if (n < 2) throw Error("t: at least two samples are needed");
  if (dof > kMaxJoints) throw Error("joints: at most " + std::to_string(kMaxJoints) + " joints per segment");
  if (limits && static_cast<int>(limits->size()) != dof)
    throw Error("limits: " + std::to_string(limits->size()) + " joints, the trajectory has " + std::to_string(dof));
  const double t0 = tr.t[0];
  auto make = [&](int a, int b) {
    Segment s;
    const auto ta = static_cast<uint32_t>(std::llround((tr.t[a] - t0) * 1e6));
    const auto tb = static_cast<uint32_t>(std::llround((tr.t[b] - t0) * 1e6));
    if (tb <= ta) throw Error("t[" + std::to_string(b) + "]: samples closer than 1 µs");
    s.t_start_us = ta;
    s.duration_us = tb - ta;
    s.joints = static_cast<uint8_t>(dof);
    for (int j = 0; j < dof; ++j) {
      s.a[j].q = toFixed(tr.q[a][j], kPosScale);
      s.a[j].v = toFixed(tr.qd[a][j], kVelScale);
      s.b[j].q = toFixed(tr.q[b][j], kPosScale);
      s.b[j].v = toFixed(tr.qd[b][j], kVelScale);
    }
    return s;
  };
  auto fits = [&](const Segment& s) {
    if (!limits) return true;
    for (int j = 0; j < dof; ++j)
      if (checkPiece(s.a[j].q / kPosScale, s.a[j].v / kVelScale, s.b[j].q / kPosScale, s.b[j].v / kVelScale,
                     s.duration_us * 1e-6, (*limits)[j], accel_margin, nullptr) != LimitViolation::None)
        return false;
    return true;
  };
  std::vector<Segment> segs;
  auto push = [&](Segment s) {
    s.id = first_id + static_cast<uint32_t>(segs.size());
    segs.push_back(s);
  };
  int a = 0;
  while (a < n - 1) {
    int b = a + 1;
    while (b < n - 1 && tr.t[b] - tr.t[a] < segment_dt - 1e-9) ++b;
    Segment s = make(a, b);
    while (b > a + 1 && !fits(s)) s = make(a, --b);  // shorten until the cubic respects the limits
    // Between two consecutive samples: a joint that comes to rest (or starts) between them overshoots
    // with the sampled velocities; a knot where it stops (starts) keeps it between the samples.
    Segment left, right;
    if (limits && !fits(s) && splitAtRest(s, *limits, left, right) && fits(left) && fits(right)) {
      push(left);
      push(right);
    } else {
      push(s);
    }
    a = b;
  }
  if (limits) preserveLimits(segs, *limits);
  if (blend_first) segs.front().flags |= kSegBlend;
  segs.back().flags |= kSegLast;
  return segs;
}

void checkSegments(const std::vector<Segment>& segs, const std::vector<JointLimitsF>& limits, double accel_margin,
                   const std::vector<bool>* angular) {
  static const char* kinds[] = {"none", "position", "velocity", "acceleration", "duration"};
  for (size_t i = 0; i < segs.size(); ++i) {
    const Segment& s = segs[i];
    if (s.joints != limits.size())
      throw Error("segment " + std::to_string(i) + ": " + std::to_string(s.joints) + " joints, the controller has " +
                  std::to_string(limits.size()));
    for (int j = 0; j < s.joints; ++j) {
      double worst = 0;
      const LimitViolation v = checkPiece(s.a[j].q / kPosScale, s.a[j].v / kVelScale, s.b[j].q / kPosScale,
                                          s.b[j].v / kVelScale, s.duration_us * 1e-6, limits[j], accel_margin, &worst);
      if (v != LimitViolation::None) {
        const JointLimitsF& L = limits[j];
        // the caller's units: degrees for a joint it calls angular, metres for a linear one, SI "rad" otherwise
        const bool known = angular && j < static_cast<int>(angular->size());
        const bool deg = known && (*angular)[j];
        const double f = deg ? 180.0 / kPi : 1.0;
        const std::string u = deg ? "°" : known ? " m" : " rad";
        auto num = [&](double x) {
          char b[32];
          std::snprintf(b, sizeof b, deg ? "%.4f" : "%.6f", x * f);
          return std::string(b);
        };
        std::string bound;
        if (v == LimitViolation::Position) bound = "[" + num(L.q_min) + u + ", " + num(L.q_max) + u + "]";
        else if (v == LimitViolation::Velocity) bound = "±" + num(L.v_max) + u + "/s";
        else if (v == LimitViolation::Acceleration) bound = "±" + num(L.a_max * accel_margin) + u + "/s² (a_max × accel_margin)";
        else bound = "(0, 60] s";
        const std::string value = v == LimitViolation::Duration ? std::to_string(worst) + " s"
                                  : num(worst) + u + (v == LimitViolation::Velocity ? "/s" : v == LimitViolation::Acceleration ? "/s²" : "");
        char t[32];
        std::snprintf(t, sizeof t, "%.3f", s.t_start_us * 1e-6);
        throw Error("segment " + std::to_string(i) + " (t = " + t + " s), joint " + std::to_string(j + 1) + ": " +
                    kinds[static_cast<int>(v)] + " " + value + " outside " + bound +
                    "; refusing to send (re-plan within the limits)");
      }
    }
  }
}

namespace {
std::string fmtNum(double x, const char* f) {
  char b[48];
  std::snprintf(b, sizeof b, f, x);
  return b;
}
}  // namespace

void checkSamples(const SampledTrajectory& tr, const std::vector<JointLimitsF>& limits, double accel_margin,
                  const std::vector<bool>* angular) {
  const int dof = tr.dof();
  if (static_cast<int>(limits.size()) != dof)
    throw Error("the trajectory has " + std::to_string(dof) + " joints, the controller " + std::to_string(limits.size()));
  for (size_t k = 0; k < tr.t.size(); ++k) {
    for (int j = 0; j < dof; ++j) {
      const JointLimitsF& L = limits[static_cast<size_t>(j)];
      const bool known = angular && j < static_cast<int>(angular->size());
      const bool deg = known && (*angular)[static_cast<size_t>(j)];
      const double f = deg ? 180.0 / kPi : 1.0;
      const std::string u = deg ? "°" : known ? " m" : " rad";
      auto num = [&](double x) { return fmtNum(x * f, std::fabs(x * f) < 1e9 ? (deg ? "%.4f" : "%.6f") : "%.6g"); };
      const double q = tr.q[k][static_cast<size_t>(j)], qd = tr.qd[k][static_cast<size_t>(j)];
      const double qdd = tr.qdd.empty() ? 0.0 : tr.qdd[k][static_cast<size_t>(j)];
      std::string what;
      if (!std::isfinite(q) || q < L.q_min - 1e-5 || q > L.q_max + 1e-5)
        what = "position " + num(q) + u + " outside [" + num(L.q_min) + u + ", " + num(L.q_max) + u + "]";
      else if (!std::isfinite(qd) || std::fabs(qd) > L.v_max * (1 + 1e-6))
        what = "velocity " + num(qd) + u + "/s outside ±" + num(L.v_max) + u + "/s";
      else if (!std::isfinite(qdd) || std::fabs(qdd) > L.a_max * accel_margin * (1 + 1e-6))
        what = "acceleration " + num(qdd) + u + "/s² outside ±" + num(L.a_max * accel_margin) + u + "/s² (a_max × accel_margin)";
      if (!what.empty())
        throw Error("sample " + std::to_string(k) + " (t = " + fmtNum(tr.t[k], "%.4f") + " s), joint " + std::to_string(j + 1) +
                    ": " + what + "; refusing to send anything (fix or re-plan the trajectory)");
    }
  }
}

std::vector<Segment> withApproach(const std::vector<Segment>& plan, const double* q_from,
                                  const std::vector<JointLimitsF>& limits, double segment_dt, double accel_margin,
                                  double tolerance) {
  if (plan.empty()) return plan;
  const Segment& first = plan.front();
  const int dof = first.joints;
  if (static_cast<int>(limits.size()) != dof)
    throw Error("approach: the trajectory has " + std::to_string(dof) + " joints, the limits " + std::to_string(limits.size()));
  VecX q0(dof), q1(dof);
  double far = 0;
  for (int j = 0; j < dof; ++j) {
    const JointLimitsF& L = limits[static_cast<size_t>(j)];
    if (!std::isfinite(q_from[j]) || q_from[j] < L.q_min - 1e-5 || q_from[j] > L.q_max + 1e-5)
      throw Error("approach: joint " + std::to_string(j + 1) + " is at " + fmtNum(q_from[j], "%.6g") +
                  " rad, outside its limits: move it inside by hand first");
    q0[j] = q_from[j];
    q1[j] = first.a[j].q / kPosScale;
    far = std::max(far, std::fabs(q1[j] - q0[j]));
  }
  std::vector<Segment> out;
  if (far <= tolerance) {  // already there: the plan alone (the controller's start check accepts it)
    out = plan;
    out.front().flags &= static_cast<uint8_t>(~kSegBlend);
    return out;
  }
  for (int j = 0; j < dof; ++j)
    if (first.a[j].v != 0)
      throw Error("approach: the trajectory does not start at rest (joint " + std::to_string(j + 1) + " starts at " +
                  fmtNum(first.a[j].v / kVelScale, "%.6g") + " rad/s); the move to its start ends at rest, so plan it to "
                  "start from rest");
  // the core's planner: one synchronised trapezoid at 60 % of a_max (the cubic through a trapezoid's sampled
  // corners reaches up to 1.5x the planned acceleration; the studio's Move to start uses the same margin)
  RateLimits rl;
  rl.velocity.resize(dof);
  rl.acceleration.resize(dof);
  for (int j = 0; j < dof; ++j) {
    rl.velocity[j] = limits[static_cast<size_t>(j)].v_max;
    rl.acceleration[j] = 0.6 * limits[static_cast<size_t>(j)].a_max;
  }
  TrapezoidOptions topt;
  topt.synchronize = true;
  const TrapezoidPath path(q0, q1, rl, topt);
  SampledTrajectory tr;
  const double T = path.duration();
  // uniform samples of at most 1 ms: no sliver of an interval at the end, whose cubic the µrad fixed point
  // would bend far past a_max (0.5 µrad over 0.3 ms is 33 rad/s²)
  const int n = std::max(2, static_cast<int>(std::ceil(T / 1e-3)) + 1);
  VecX q(dof), qd(dof), qdd(dof);
  for (int k = 0; k < n; ++k) {
    const double t = k == n - 1 ? T : T * k / (n - 1);
    path.evaluate(t, q, qd, qdd);
    tr.t.push_back(t);
    tr.q.emplace_back(q.data(), q.data() + dof);
    tr.qd.emplace_back(qd.data(), qd.data() + dof);
  }
  for (int j = 0; j < dof; ++j) {  // exact ends: from the commanded position, at rest on the plan's first knot
    tr.q.front()[static_cast<size_t>(j)] = q_from[j];
    tr.q.back()[static_cast<size_t>(j)] = q1[j];
    tr.qd.front()[static_cast<size_t>(j)] = tr.qd.back()[static_cast<size_t>(j)] = 0;
  }
  out = buildSegments(tr, segment_dt, 1, false, &limits, accel_margin);
  Segment& last = out.back();
  last.flags &= static_cast<uint8_t>(~kSegLast);
  for (int j = 0; j < dof; ++j) {
    last.b[j].q = first.a[j].q;
    last.b[j].v = 0;
  }
  const uint32_t end_us = last.t_start_us + last.duration_us;
  const uint32_t id0 = static_cast<uint32_t>(out.size()) + 1;
  for (size_t i = 0; i < plan.size(); ++i) {
    Segment s = plan[i];
    s.t_start_us = s.t_start_us - first.t_start_us + end_us;
    s.id = id0 + static_cast<uint32_t>(i);
    if (i == 0) s.flags &= static_cast<uint8_t>(~kSegBlend);
    out.push_back(s);
  }
  return out;
}

void evaluateSegments(const std::vector<Segment>& segs, double t, double* q) {
  if (segs.empty()) return;
  const double t0 = segs.front().t_start_us * 1e-6;
  for (const Segment& s : segs) {
    const double a = s.t_start_us * 1e-6 - t0, T = s.duration_us * 1e-6;
    if (t <= a + T || &s == &segs.back()) {
      const double tau = t < a ? 0 : (t > a + T ? T : t - a);
      for (int j = 0; j < s.joints; ++j) {
        double v, acc;
        hermite(s.a[j].q / kPosScale, s.a[j].v / kVelScale, s.b[j].q / kPosScale, s.b[j].v / kVelScale, T, tau, q[j], v, acc);
      }
      return;
    }
  }
}

}  // namespace bridge
}  // namespace achain
