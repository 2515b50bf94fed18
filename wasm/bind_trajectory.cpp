// Embind surface of the trajectory area (core/trajectory/*): planning + sampling, and torque / power /
// work along a trajectory. Hot-path convention: inputs in h.in, results in h.out (see trajectory.mjs).
#include <nlohmann/json.hpp>

#include <achain/ik/ik.hpp>
#include <achain/trajectory/apair_study.hpp>
#include <achain/trajectory/cartesian.hpp>
#include <achain/trajectory/torque_analysis.hpp>
#include <achain/trajectory/plan.hpp>
#include <achain/trajectory/trajectory.hpp>
#include "wasm_common.hpp"

using namespace emscripten;

namespace achain::wasm {
namespace {

const char* kProfiles[] = {"trapezoid", "cubic", "quintic", "septic", "spline"};
constexpr int kPlanHeader = 16;   // input header doubles
constexpr int kOutHeader = 8;     // output header doubles

double finiteAt(const std::vector<double>& in, int i, const char* what) {
  if (i < 0 || static_cast<size_t>(i) >= in.size()) throw Error(std::string(what) + ": input too short");
  const double v = in[i];
  if (!std::isfinite(v)) throw Error(std::string(what) + ": must be a finite number");
  return v;
}

/// Output layout shared by trajectoryPlan and trajectoryCartesian (see trajectory.mjs), then `extra`.
void writeTrajectory(WasmModel& h, const Trajectory& tr, int continuity, double f4, double f5, const std::vector<double>& extra) {
  const int N = tr.samples(), n = tr.dof();
  size_t nb = 0;
  for (const auto& b : tr.breakpoints) nb += 1 + b.size();
  double* o = h.output(kOutHeader + N + 3 * static_cast<size_t>(N) * n + nb + extra.size());
  o[0] = N;
  o[1] = n;
  o[2] = tr.duration();
  o[3] = continuity;
  o[4] = f4;
  o[5] = f5;
  o[6] = static_cast<double>(nb);
  o[7] = static_cast<double>(extra.size());
  double* p = o + kOutHeader;
  for (int k = 0; k < N; ++k) *p++ = tr.t[k];
  for (const MatX* M : {&tr.q, &tr.qd, &tr.qdd})
    for (int k = 0; k < N; ++k)
      for (int i = 0; i < n; ++i) *p++ = (*M)(k, i);
  for (const auto& b : tr.breakpoints) {
    *p++ = static_cast<double>(b.size());
    for (double t : b) *p++ = t;
  }
  for (double e : extra) *p++ = e;
}

/// Input: header[12] = {kind (0 line, 1 arc), rate, speed, acceleration, angularSpeed, angularAcceleration,
/// knots, positionOnly (−1 auto, 0, 1), jointLimits, 0, 0, 0}, from[n], goal[16] (row-major 4×4), arcVia[3].
/// Output: as trajectoryPlan with header slots 4/5 = joint-limit factor / −1, then extra
/// {length, rotation, maxIkError, maxDeviation, positionOnly}.
uintptr_t trajectoryCartesian(WasmModel& h) {
  return guard([&] {
    const Model& m = h.model;
    const int n = m.nq;
    const auto& in = h.in;
    CartesianPathSpec c;
    const int kind = static_cast<int>(finiteAt(in, 0, "options.kind"));
    if (kind != 0 && kind != 1) throw Error("options.kind: must be 'line' or 'arc'");
    c.kind = kind == 0 ? CartesianKind::Line : CartesianKind::Arc;
    const double rate = finiteAt(in, 1, "options.rate");
    c.speed = finiteAt(in, 2, "options.speed");
    c.acceleration = finiteAt(in, 3, "options.acceleration");
    c.angular_speed = finiteAt(in, 4, "options.angularSpeed");
    c.angular_acceleration = finiteAt(in, 5, "options.angularAcceleration");
    c.knots = static_cast<int>(finiteAt(in, 6, "options.knots"));
    c.position_only = static_cast<int>(finiteAt(in, 7, "options.positionOnly"));
    c.joint_limits = in[8] != 0;
    int off = 12;
    VecX q0(n);
    for (int i = 0; i < n; ++i) q0[i] = finiteAt(in, off++, "from");
    Mat4 G;
    for (int r = 0; r < 4; ++r)
      for (int k = 0; k < 4; ++k) G(r, k) = finiteAt(in, off++, "goal");
    c.goal = checkTarget(G, "goal");
    c.arc_via = Vec3(finiteAt(in, off, "options.arcVia"), finiteAt(in, off + 1, "options.arcVia"), finiteAt(in, off + 2, "options.arcVia"));
    const CartesianPlan plan = planCartesianPath(m, q0, c);
    Trajectory tr = samplePath(m, *plan.path, rate);
    writeTrajectory(h, tr, plan.path->continuity(), plan.scaling.factor, -1,
                    {plan.length, plan.rotation, plan.max_ik_error, plan.max_deviation, plan.position_only ? 1.0 : 0.0});
    return h.outAddress();
  });
}

/// Output: {N, n, duration, continuity, torqueFactor, bindingJoint, nbreak, 0}, t[N], q[N·n], qd[N·n],
/// qdd[N·n] (row-major, sample by sample), then per joint: count, times….
uintptr_t trajectoryPlan(WasmModel& h) {
  return guard([&] {
    double rate = 0;
    int end = 0;
    const Plan plan = planJointPath(h.model, planSpecFromInput(h, rate, end));
    const Trajectory tr = samplePath(h.model, *plan.path, rate);
    writeTrajectory(h, tr, plan.path->continuity(), plan.torque_scaling.factor, plan.torque_scaling.joint, {});
    return h.outAddress();
  });
}

/// Input: {N, legs, motors, friction}, t[N], q[N·n], qd[N·n], qdd[N·n] (row-major).
/// Output: work[n], netWork[n], peakTau[n], peakTime[n], effortRatio[n], peakPower[n],
/// {totalWork, withinEffort}, tau[N·n], power[N·n].
uintptr_t trajectoryAnalyze(WasmModel& h) {
  return guard([&] {
    const Model& m = h.model;
    const int n = m.nq;
    const auto& in = h.in;
    const int N = static_cast<int>(finiteAt(in, 0, "trajectory.samples"));
    if (N < 1) throw Error("trajectory: needs at least one sample");
    DynamicsOptions o;
    o.legs = legModelFromCode(in[1]);
    o.motors = in[2] != 0;
    o.friction = in[3] != 0;
    Trajectory tr;
    tr.robot = m.name;
    for (const auto& j : m.joints) tr.joints.push_back(j.name);
    tr.t.resize(N);
    int off = 4;
    for (int k = 0; k < N; ++k) {
      tr.t[k] = finiteAt(in, off++, "trajectory.t");
      if (k > 0 && !(tr.t[k] > tr.t[k - 1])) throw Error("trajectory.t[" + std::to_string(k) + "]: times must increase");
    }
    for (MatX* M : {&tr.q, &tr.qd, &tr.qdd}) {
      M->resize(N, n);
      for (int k = 0; k < N; ++k)
        for (int i = 0; i < n; ++i) (*M)(k, i) = finiteAt(in, off++, "trajectory.q/qd/qdd");
    }
    const TrajectoryAnalysis a = analyzeTrajectory(m, tr, o);
    double* out = h.output(6 * n + 2 + 2 * static_cast<size_t>(N) * n);
    for (const VecX* v : {&a.work, &a.net_work, &a.peak_tau, &a.peak_tau_time, &a.effort_ratio, &a.peak_power})
      for (int i = 0; i < n; ++i) *out++ = (*v)[i];
    *out++ = a.total_work;
    *out++ = a.within_effort ? 1 : 0;
    for (const MatX* M : {&a.tau, &a.power})
      for (int k = 0; k < N; ++k)
        for (int i = 0; i < n; ++i) *out++ = (*M)(k, i);
    return h.outAddress();
  });
}

/// A row-major 4×4 pose from a JS array of 16 numbers (checked: finite, rotation orthonormal).
SE3 poseFrom(const val& arr, const char* what) {
  double v[16];
  readVector(arr, v, 16, what);
  Mat4 T;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) T(r, c) = v[4 * r + c];
  return checkTarget(T, what);
}

/// interpolateCartesian (no model): returns a Float64Array (a copy) [N, duration, length, rotation, axis (3),
/// 0], t[N], s[N], sd[N], sdd[N], poses[N·16] (row-major 4×4), twists[N·6], accelerations[N·6].
val interpolateCartesianJS(const val& start, const val& goal, const std::string& profile, double duration, double speed,
                           double acceleration, double angular_speed, double angular_acceleration, double rate) {
  return guard([&] {
    CartesianInterpolationSpec spec;
    spec.profile = profile;
    spec.duration = duration;
    spec.speed = speed;
    spec.acceleration = acceleration;
    spec.angular_speed = angular_speed;
    spec.angular_acceleration = angular_acceleration;
    spec.rate = rate;
    const CartesianInterpolation c = interpolateCartesian(poseFrom(start, "start"), poseFrom(goal, "goal"), spec);
    const size_t N = c.t.size();
    std::vector<double> out;
    out.reserve(8 + N * (4 + 16 + 12));
    out.insert(out.end(), {static_cast<double>(N), c.duration, c.length, c.rotation, c.axis.x(), c.axis.y(), c.axis.z(), 0.0});
    for (const auto* v : {&c.t, &c.s, &c.sd, &c.sdd}) out.insert(out.end(), v->begin(), v->end());
    for (const SE3& P : c.poses) {
      const Mat4 T = P.matrix();
      for (int r = 0; r < 4; ++r)
        for (int k = 0; k < 4; ++k) out.push_back(T(r, k));
    }
    for (const auto* v : {&c.twists, &c.accelerations})
      for (const Vec6& x : *v) out.insert(out.end(), x.data(), x.data() + 6);
    return val::global("Float64Array").new_(view(out.data(), out.size()));
  });
}

/// Robinson's single-A-pair work study (cold path, JSON text).
std::string apairStudyJSON(double duration, const std::string& profile, double rho_in, bool exact_leg_inertia) {
  return guard([&] {
    ApairStudyParameters p;
    if (!(rho_in > 0)) throw Error("rhoIn: must be > 0");
    p.rho = rho_in * 0.0254;
    p.exact_leg_inertia = exact_leg_inertia;
    const ApairStudyResult r = apairStudy(p, duration, profile);
    nlohmann::json rows = nlohmann::json::array();
    auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
    for (const auto& row : r.rows)
      rows.push_back({{"legs", toString(row.legs)}, {"vertical", row.vertical}, {"horizontal", row.horizontal},
                      {"thesisVertical", num(row.thesis_vertical)}, {"thesisHorizontal", num(row.thesis_horizontal)}});
    return nlohmann::json{{"duration", r.duration}, {"profile", r.profile}, {"rhoIn", rho_in},
                          {"inchPound", kInchPound}, {"rows", rows}}
        .dump();
  });
}

}  // namespace
}  // namespace achain::wasm

namespace achain::wasm {

/// Input: header[16] = {profile, sync, rate, duration, nvia, ntimes, hasVmax, hasAmax, velocityScale,
/// accelerationScale, torqueLimits, legs, motors, friction, boundary (bits 1 v0, 2 v1, 4 a0, 8 a1), 0}, then
/// from[n], to[n], via[nvia·n], times[ntimes], vmax[n]?, amax[n]?, then v0[n]?, v1[n]?, a0[n]?, a1[n]? as the bits say.
PlanSpec planSpecFromInput(const WasmModel& h, double& rate, int& end) {
  const int n = h.model.nq;
  const auto& in = h.in;
  const int prof = static_cast<int>(finiteAt(in, 0, "options.profile"));
  if (prof < 0 || prof > 4) throw Error("options.profile: unknown profile");
  PlanSpec s;
  s.profile = kProfiles[prof];
  s.synchronize = in[1] != 0;
  rate = finiteAt(in, 2, "options.rate");
  s.duration = finiteAt(in, 3, "options.duration");
  const int nvia = static_cast<int>(finiteAt(in, 4, "options.via")), ntimes = static_cast<int>(finiteAt(in, 5, "options.times"));
  const bool hasV = in[6] != 0, hasA = in[7] != 0;
  s.velocity_scale = finiteAt(in, 8, "options.velocityScale");
  s.acceleration_scale = finiteAt(in, 9, "options.accelerationScale");
  s.torque_limits = in[10] != 0;
  s.dynamics.legs = legModelFromCode(in[11]);
  s.dynamics.motors = in[12] != 0;
  s.dynamics.friction = in[13] != 0;
  int off = kPlanHeader;
  auto vec = [&](const std::string& what) {
    VecX v(n);
    for (int i = 0; i < n; ++i) v[i] = finiteAt(in, off + i, (what + "[" + std::to_string(i) + "]").c_str());
    off += n;
    return v;
  };
  s.from = vec("from");
  s.to = vec("to");
  for (int k = 0; k < nvia; ++k) s.via.push_back(vec("via[" + std::to_string(k) + "]"));
  for (int k = 0; k < ntimes; ++k) s.times.push_back(finiteAt(in, off++, "options.times"));
  if (hasV) s.velocity = vec("options.vmax");
  if (hasA) s.acceleration = vec("options.amax");
  const int bits = static_cast<int>(finiteAt(in, 14, "options.boundary"));
  if (bits & 1) s.boundary.v0 = vec("options.v0");
  if (bits & 2) s.boundary.v1 = vec("options.v1");
  if (bits & 4) s.boundary.a0 = vec("options.a0");
  if (bits & 8) s.boundary.a1 = vec("options.a1");
  end = off;
  return s;
}

}  // namespace achain::wasm

EMSCRIPTEN_BINDINGS(achain_trajectory) {
  using namespace achain::wasm;
  function("planJointPath", &trajectoryPlan);
  function("analyzeTrajectory", &trajectoryAnalyze);
  function("planCartesianPath", &trajectoryCartesian);
  function("apairStudy", &apairStudyJSON);
  function("interpolateCartesian", &interpolateCartesianJS);
}
