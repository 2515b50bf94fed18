#include "segments.hpp"

#include <cmath>

#include <achain/model/robots.hpp>
#include <achain/io/trajectory_json.hpp>
#include <achain/trajectory/plan.hpp>
#include <achain/trajectory/trajectory.hpp>
#include <achain/math/types.hpp>

namespace achain {
namespace bridge {

using nlohmann::json;

namespace {
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
  int a = 0;
  while (a < n - 1) {
    int b = a + 1;
    while (b < n - 1 && tr.t[b] - tr.t[a] < segment_dt - 1e-9) ++b;
    Segment s = make(a, b);
    while (b > a + 1 && !fits(s)) s = make(a, --b);  // shorten until the cubic respects the limits
    s.id = first_id + static_cast<uint32_t>(segs.size());
    segs.push_back(s);
    a = b;
  }
  if (blend_first) segs.front().flags |= kSegBlend;
  segs.back().flags |= kSegLast;
  return segs;
}

void checkSegments(const std::vector<Segment>& segs, const std::vector<JointLimitsF>& limits, double accel_margin) {
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
        std::string bound;
        if (v == LimitViolation::Position) bound = "[" + std::to_string(L.q_min) + ", " + std::to_string(L.q_max) + "] rad";
        else if (v == LimitViolation::Velocity) bound = "±" + std::to_string(L.v_max) + " rad/s";
        else if (v == LimitViolation::Acceleration) bound = "±" + std::to_string(L.a_max * accel_margin) + " rad/s² (a_max × accel_margin)";
        else bound = "(0, 60] s";
        throw Error("segment " + std::to_string(i) + " (t = " + std::to_string(s.t_start_us * 1e-6) + " s), joint " +
                    std::to_string(j + 1) + ": " + kinds[static_cast<int>(v)] + " " + std::to_string(worst) +
                    " outside " + bound + "; refusing to send (re-plan within the limits)");
      }
    }
  }
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
