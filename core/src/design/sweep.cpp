// One design evaluated (design/sweep.hpp): its robot from io/design_json.hpp, then each metric by the existing
// algorithms — the voxel workspace (one thread), the planner and the RNEA along a move, the A-pair leg-collision
// range, Yoshikawa's measure, the numeric IK — and the constraints; the Pareto front of evaluated designs.
#include <achain/design/sweep.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <mutex>
#include <thread>

#include <achain/ik/numeric.hpp>
#include <achain/io/design_json.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/kinematics/jacobian.hpp>
#include <achain/kinematics/singularity.hpp>
#include <achain/model/apair_collision.hpp>
#include <achain/model/data.hpp>
#include <achain/reach/workspace.hpp>
#include <achain/trajectory/plan.hpp>
#include <achain/trajectory/torque_analysis.hpp>
#include <achain/trajectory/trajectory.hpp>

namespace achain {

namespace design_detail {
uint64_t splitmix64(uint64_t x);
double unit(uint64_t h);
}  // namespace design_detail

namespace sweep_detail {

void addScalar(DesignRecord& r, const char* name, double v) { r.metrics.push_back({name, {v}, false}); }
void addArray(DesignRecord& r, const char* name, std::vector<double> v) { r.metrics.push_back({name, std::move(v), true}); }

/// Volume of the overlap of two boxes [a0, a1] and [b0, b1].
double overlap(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1) {
  double v = 1;
  for (int i = 0; i < 3; ++i) {
    const double w = std::min(a1[i], b1[i]) - std::max(a0[i], b0[i]);
    if (w <= 0) return 0;
    v *= w;
  }
  return v;
}

void workspaceMetric(const WorkspaceMetricSpec& s, const Model& m, DesignRecord& r) {
  WorkspaceOptions o;
  o.voxel = s.voxel;
  o.point = s.point;
  o.threads = 1;
  const WorkspaceResult w = computeWorkspace(m, o);
  addScalar(r, "workspace_volume", w.volume());
  addScalar(r, "workspace_voxels", double(w.count()));
  if (s.has_target) {
    double covered = 0;
    const VoxelSet& v = w.voxels;
    const Vec3 edge = Vec3::Constant(v.voxel());
    v.forEach([&](int64_t c) {
      const Vec3 lo = v.corner(c);
      covered += overlap(lo, lo + edge, s.target_min, s.target_max);
    });
    const Vec3 d = s.target_max - s.target_min;
    addScalar(r, "target_coverage", covered / (d.x() * d.y() * d.z()));
  }
}

void moveMetric(const MoveMetricSpec& s, const Robot& robot, DesignRecord& r) {
  const Model& m = robot.model;
  if (!robot.defaults || !robot.defaults->move) throw Error("metrics.move: the design's robot has no defaults.move");
  PlanSpec spec;
  spec.profile = s.profile;
  spec.from = robot.defaults->move->from;
  spec.to = robot.defaults->move->to;
  const Plan plan = planJointPath(m, spec);
  const Trajectory tr = samplePath(m, *plan.path, s.rate);
  DynamicsOptions o;
  o.legs = s.legs;
  const TrajectoryAnalysis an = analyzeTrajectory(m, tr, o);
  const int n = m.nq;
  std::vector<double> peak(n), rms(n);
  const double T = tr.duration();
  for (int i = 0; i < n; ++i) {
    peak[i] = an.peak_tau[i];
    double integral = 0;  // ∫τ² dt, trapezoidal
    for (int k = 1; k < tr.samples(); ++k)
      integral += 0.5 * (tr.t[k] - tr.t[k - 1]) * (an.tau(k - 1, i) * an.tau(k - 1, i) + an.tau(k, i) * an.tau(k, i));
    rms[i] = T > 0 ? std::sqrt(integral / T) : std::abs(an.tau(0, i));
  }
  addScalar(r, "peak_torque", n ? *std::max_element(peak.begin(), peak.end()) : 0.0);
  addArray(r, "peak_torque_joints", peak);
  addScalar(r, "rms_torque", n ? *std::max_element(rms.begin(), rms.end()) : 0.0);
  addArray(r, "rms_torque_joints", rms);
  addScalar(r, "energy", an.total_work);
  addScalar(r, "move_duration", T);
}

void collisionMetric(const CollisionMetricSpec& s, const Model& m, DesignRecord& r) {
  std::vector<double> ranges;
  for (const Joint& j : m.joints) {
    if (j.kind != JointKind::A || !(j.rho > 0)) continue;
    if (s.leg_radius < 0) {
      ranges.push_back(apairUsableRange(j).range());
    } else {
      const double side = j.rho * 3 / std::sqrt(6.0);
      ranges.push_back(apairUsableRange(side, s.leg_radius).range());
    }
  }
  if (ranges.empty()) throw Error("metrics.collision: the design's robot has no A-pair with ρ > 0");
  addScalar(r, "collision_free_range", *std::min_element(ranges.begin(), ranges.end()));
  addArray(r, "collision_free_range_joints", ranges);
}

/// Coordinate c's position limits, refused when unbounded (a sample needs a box).
void coordinateBox(const Model& m, const char* metric, VecX& lo, VecX& hi) {
  lo.resize(m.nq);
  hi.resize(m.nq);
  for (int c = 0; c < m.nq; ++c) {
    const Joint& j = m.joints[m.coord_joint[c]];
    if (!std::isfinite(j.limits.lower) || !std::isfinite(j.limits.upper))
      throw Error(std::string("metrics.") + metric + ": joint '" + j.name + "' has no position limits (samples are drawn within them)");
    lo[c] = j.limits.lower;
    hi[c] = j.limits.upper;
  }
}

/// Sample s of a seeded uniform draw in the box (the same unit numbers for every design: common random numbers).
void boxSample(uint64_t seed, uint64_t s, const VecX& lo, const VecX& hi, VecX& q) {
  const uint64_t h = design_detail::splitmix64(design_detail::splitmix64(seed ^ 0x5851f42d4c957f2dull) + s);
  for (int c = 0; c < lo.size(); ++c)
    q[c] = lo[c] + (hi[c] - lo[c]) * design_detail::unit(design_detail::splitmix64(h + 0x632be59bd9b4e019ull * uint64_t(c + 1)));
}

void manipulabilityMetric(const ManipulabilityMetricSpec& s, const Model& m, DesignRecord& r) {
  VecX lo, hi;
  coordinateBox(m, "manipulability", lo, hi);
  Data d(m);
  VecX q(m.nq);
  MatX J(6, m.nv);
  // the Jacobian's rows the measure uses: all six, the linear three or the angular three (chosen once)
  const int row0 = s.rows == "angular" ? 3 : 0, nrows = s.rows == "all" ? 6 : 3;
  double sum = 0, mn = std::numeric_limits<double>::infinity();
  for (int k = 0; k < s.samples; ++k) {
    boxSample(s.seed, uint64_t(k), lo, hi, q);
    forwardKinematics(m, d, q);
    toolJacobian(m, d, J);
    const double w = manipulability(J.middleRows(row0, nrows)).yoshikawa;
    sum += w;
    mn = std::min(mn, w);
  }
  addScalar(r, "manipulability_mean", sum / s.samples);
  addScalar(r, "manipulability_min", mn);
}

void ikMetric(const IkMetricSpec& s, const Model& m, DesignRecord& r) {
  VecX lo, hi;
  coordinateBox(m, "ik", lo, hi);
  Data d(m);
  VecX q(m.nq);
  const VecX seed = 0.5 * (lo + hi);
  IkOptions o;
  o.restarts = s.restarts;
  o.position_only = s.position_only;
  IkResult res;
  int ok = 0;
  for (int k = 0; k < s.targets; ++k) {
    boxSample(s.seed, uint64_t(k), lo, hi, q);
    forwardKinematics(m, d, q);
    const SE3 target = d.oMtool;
    ikNumeric(m, d, target, seed, o, res);
    if (res.status == IkStatus::Ok) ++ok;
  }
  addScalar(r, "ik_success", double(ok) / s.targets);
}

std::string fmt(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

}  // namespace sweep_detail

using namespace sweep_detail;

DesignRecord evaluateDesign(const DesignSpace& space, uint64_t k) {
  DesignRecord r;
  r.design = k;
  r.parameters = designParameters(space, k);  // throws for k ≥ count: a caller's error, not the design's
  const auto t0 = std::chrono::steady_clock::now();
  try {
    const Robot robot = designRobot(space, k);
    robot.requireChain();
    const Model& m = robot.model;
    const DesignMetricsSpec& s = space.metrics;
    if (s.workspace.enabled) workspaceMetric(s.workspace, m, r);
    if (s.move.enabled) moveMetric(s.move, robot, r);
    if (s.collision.enabled) collisionMetric(s.collision, m, r);
    if (s.manipulability.enabled) manipulabilityMetric(s.manipulability, m, r);
    if (s.ik.enabled) ikMetric(s.ik, m, r);
    for (const DesignMetricValue& v : r.metrics)
      for (size_t i = 0; i < v.values.size(); ++i)
        if (!std::isfinite(v.values[i]))
          throw Error("metric " + (v.array ? v.name + "[" + std::to_string(i) + "]" : v.name) + " is not finite");
    checkDesignConstraints(space, r);
  } catch (const std::exception& e) {
    r.metrics.clear();
    r.violations.clear();
    r.feasible = false;
    r.error = e.what();
    if (r.error.empty()) r.error = "unknown error";
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

double designMetricValue(const DesignRecord& record, const DesignMetricRef& metric) {
  for (const DesignMetricValue& v : record.metrics) {
    if (v.name != metric.name) continue;
    if (!v.array) {
      if (metric.index >= 0) throw Error(metric.text() + ": " + v.name + " is a number, not an array");
      return v.values.at(0);
    }
    if (metric.index < 0) throw Error(metric.name + ": an array; name one element, e.g. " + metric.name + "[0]");
    if (size_t(metric.index) >= v.values.size())
      throw Error(metric.text() + ": design " + std::to_string(record.design) + " has " + std::to_string(v.values.size()) +
                  " values");
    return v.values[size_t(metric.index)];
  }
  throw Error(metric.text() + ": design " + std::to_string(record.design) + " has no such metric" +
              (record.error.empty() ? "" : " (its evaluation failed)"));
}

void checkDesignConstraints(const DesignSpace& space, DesignRecord& record) {
  record.violations.clear();
  if (!record.error.empty()) {
    record.feasible = false;
    return;
  }
  for (const DesignConstraint& c : space.constraints) {
    const double v = designMetricValue(record, c.metric);
    if (v < c.min) record.violations.push_back(c.metric.text() + " = " + fmt(v) + " < min " + fmt(c.min));
    if (v > c.max) record.violations.push_back(c.metric.text() + " = " + fmt(v) + " > max " + fmt(c.max));
  }
  record.feasible = record.violations.empty();
}

std::vector<uint64_t> paretoFront(const DesignSpace& space, const std::vector<DesignRecord>& records) {
  std::vector<uint64_t> front;
  const size_t no = space.objectives.size();
  if (no == 0) return front;
  // Every candidate's objective vector, as minimisation.
  struct Point {
    uint64_t design;
    std::vector<double> f;
  };
  std::vector<Point> pts;
  for (const DesignRecord& r : records) {
    if (!r.feasible || !r.error.empty()) continue;
    Point p{r.design, std::vector<double>(no)};
    for (size_t i = 0; i < no; ++i) {
      const double v = designMetricValue(r, space.objectives[i].metric);
      p.f[i] = space.objectives[i].maximize ? -v : v;
    }
    pts.push_back(std::move(p));
  }
  // Lexicographic order: a point can only be dominated by one before it, and if it is, then by one on the front
  // found so far (dominance is transitive), so each point is checked against the front only.
  std::sort(pts.begin(), pts.end(), [](const Point& a, const Point& b) {
    if (a.f != b.f) return a.f < b.f;
    return a.design < b.design;
  });
  std::vector<const Point*> kept;
  for (const Point& p : pts) {
    bool dominated = false;
    for (const Point* q : kept) {
      bool no_worse = true, better = false;
      for (size_t i = 0; i < no && no_worse; ++i) {
        if (q->f[i] > p.f[i]) no_worse = false;
        else if (q->f[i] < p.f[i]) better = true;
      }
      if (no_worse && better) {
        dominated = true;
        break;
      }
    }
    if (!dominated) kept.push_back(&p);
  }
  for (const Point* p : kept) front.push_back(p->design);
  std::sort(front.begin(), front.end());
  return front;
}

DesignRunSummary runDesigns(const DesignSpace& space, const std::vector<std::uint64_t>& designs, int threads,
                            const std::function<void(const DesignRecord&)>& record, const Progress& progress) {
  if (threads < 0) throw Error("threads: must be ≥ 0 (0 = every hardware thread)");
  DesignRunSummary out;
  const std::uint64_t total = designs.size();
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  out.threads = int(std::max<std::uint64_t>(1, std::min<std::uint64_t>(total ? total : 1, threads > 0 ? unsigned(threads) : hw)));
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex m;  // record calls, the counters, the first exception, `running`
  std::condition_variable wake;
  std::exception_ptr failure;
  int running = out.threads;
  auto worker = [&] {
    for (;;) {
      if (stop.load(std::memory_order_relaxed) || progress.stopRequested()) break;
      const size_t i = next++;
      if (i >= designs.size()) break;
      try {
        DesignRecord r;
        try {
          r = evaluateDesign(space, designs[i]);
        } catch (const std::exception& e) {  // not a design's own error (those are records): name the design
          throw Error("design " + std::to_string(designs[i]) + ": " + e.what());
        }
        std::lock_guard<std::mutex> g(m);
        record(r);
        out.errors += !r.error.empty();
        ++out.evaluated;
      } catch (...) {
        std::lock_guard<std::mutex> g(m);
        if (!failure) failure = std::current_exception();
        stop = true;
        break;
      }
    }
    std::lock_guard<std::mutex> g(m);
    --running;
    wake.notify_all();
  };
  if (!progress.empty() && total > 0 && !progress(0.0)) {  // asked once before any design starts
    out.cancelled = true;
    return out;
  }
  std::vector<std::thread> pool;
  pool.reserve(size_t(out.threads));
  for (int t = 0; t < out.threads; ++t) pool.emplace_back(worker);
  if (!progress.empty()) {  // the calling thread reports, so the Progress is only ever called from here
    std::unique_lock<std::mutex> lk(m);
    while (!wake.wait_for(lk, std::chrono::milliseconds(200), [&] { return running == 0; })) {
      const double f = total ? double(out.evaluated) / double(total) : 1.0;
      lk.unlock();
      const bool go_on = progress(f);
      lk.lock();
      if (!go_on) stop = true;
    }
  }
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  out.cancelled = out.evaluated < total;
  if (!out.cancelled && !progress.empty()) progress(1.0);
  return out;
}

}  // namespace achain
