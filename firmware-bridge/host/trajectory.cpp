#include "trajectory.hpp"

#include <cmath>

#include "types.hpp"

namespace achain {
namespace bridge {

using nlohmann::json;

namespace {

std::vector<std::vector<double>> readMatrix(const json& j, const char* key, size_t rows, size_t cols, bool optional) {
  std::vector<std::vector<double>> m;
  if (!j.contains(key)) {
    if (optional) return m;
    throw Error(std::string(key) + ": missing");
  }
  const json& a = j.at(key);
  if (!a.is_array() || a.size() != rows)
    throw Error(std::string(key) + ": must be an array of " + std::to_string(rows) + " rows (one per time sample)");
  m.resize(rows);
  for (size_t i = 0; i < rows; ++i) {
    const json& r = a[i];
    if (!r.is_array() || r.size() != cols)
      throw Error(std::string(key) + "[" + std::to_string(i) + "]: must have " + std::to_string(cols) + " entries (one per joint)");
    m[i].resize(cols);
    for (size_t k = 0; k < cols; ++k) {
      if (!r[k].is_number() || !std::isfinite(r[k].get<double>()))
        throw Error(std::string(key) + "[" + std::to_string(i) + "][" + std::to_string(k) + "]: not a finite number");
      m[i][k] = r[k].get<double>();
    }
  }
  return m;
}

struct Trap {
  double q0, q1, a, v, ta, tc, T;
};
Trap makeTrap(double q0, double q1, double a, double v) {
  Trap p{q0, q1, a, v, 0, 0, 0};
  const double d = std::fabs(q1 - q0);
  p.ta = v / a;
  if (a * p.ta * p.ta > d) {  // triangular profile
    p.ta = std::sqrt(d / a);
    p.v = a * p.ta;
  }
  p.tc = (d - a * p.ta * p.ta) / p.v;
  p.T = 2 * p.ta + p.tc;
  return p;
}
void evalTrap(const Trap& p, double t, double& q, double& qd, double& qdd) {
  const double s = p.q1 >= p.q0 ? 1.0 : -1.0;
  double x, v, a;
  if (t <= 0) { x = 0; v = 0; a = 0; }
  else if (t < p.ta) { x = 0.5 * p.a * t * t; v = p.a * t; a = p.a; }
  else if (t < p.ta + p.tc) { x = 0.5 * p.a * p.ta * p.ta + p.v * (t - p.ta); v = p.v; a = 0; }
  else if (t < p.T) {
    const double r = p.T - t;
    x = std::fabs(p.q1 - p.q0) - 0.5 * p.a * r * r; v = p.a * r; a = -p.a;
  } else { x = std::fabs(p.q1 - p.q0); v = 0; a = 0; }
  q = p.q0 + s * x;
  qd = s * v;
  qdd = s * a;
}

}  // namespace

SampledTrajectory trajectoryFromJson(const json& j) {
  if (!j.is_object()) throw Error("trajectory: must be a JSON object");
  if (j.value("schema", std::string()) != "achain-trajectory")
    throw Error("schema: must be \"achain-trajectory\"");
  if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int>() != 1)
    throw Error("version: only version 1 is supported");
  SampledTrajectory tr;
  tr.robot = j.value("robot", std::string());
  if (!j.contains("t") || !j["t"].is_array() || j["t"].size() < 2) throw Error("t: must be an array of at least 2 times");
  for (size_t i = 0; i < j["t"].size(); ++i) {
    const json& v = j["t"][i];
    if (!v.is_number() || !std::isfinite(v.get<double>())) throw Error("t[" + std::to_string(i) + "]: not a finite number");
    tr.t.push_back(v.get<double>());
    if (i > 0 && !(tr.t[i] > tr.t[i - 1])) throw Error("t[" + std::to_string(i) + "]: times must increase strictly");
  }
  size_t dof = 0;
  if (j.contains("joints")) {
    if (!j["joints"].is_array() || j["joints"].empty()) throw Error("joints: must be a non-empty array of names");
    for (const auto& n : j["joints"]) tr.joints.push_back(n.is_string() ? n.get<std::string>() : n.dump());
    dof = tr.joints.size();
  } else if (j.contains("q") && j["q"].is_array() && !j["q"].empty() && j["q"][0].is_array()) {
    dof = j["q"][0].size();
    for (size_t k = 0; k < dof; ++k) tr.joints.push_back("j" + std::to_string(k + 1));
  }
  if (dof == 0 || dof > static_cast<size_t>(kMaxJoints))
    throw Error("joints: between 1 and " + std::to_string(kMaxJoints) + " joints are supported");
  tr.q = readMatrix(j, "q", tr.t.size(), dof, false);
  tr.qd = readMatrix(j, "qd", tr.t.size(), dof, false);
  tr.qdd = readMatrix(j, "qdd", tr.t.size(), dof, true);
  return tr;
}

json trajectoryToJson(const SampledTrajectory& t) {
  json j = {{"schema", "achain-trajectory"}, {"version", 1}, {"robot", t.robot}, {"joints", t.joints},
            {"t", t.t}, {"q", t.q}, {"qd", t.qd}};
  if (!t.qdd.empty()) j["qdd"] = t.qdd;
  return j;
}

SampledTrajectory thesisTrapezoid(double dt) {
  if (!(dt > 0)) throw Error("dt: must be positive");
  const double deg = 3.14159265358979323846 / 180.0;
  Trap p[4];
  for (int k = 0; k < 3; ++k) p[k] = makeTrap(60 * deg, 300 * deg, 720 * deg, 180 * deg);
  p[3] = makeTrap(60 * deg, 300 * deg, 1430 * deg, 171 * deg);
  double T = 0;
  for (const Trap& x : p) T = std::max(T, x.T);
  SampledTrajectory tr;
  tr.robot = "prototype-4a";
  tr.joints = {"waist", "shoulder", "elbow", "wrist"};
  const int n = static_cast<int>(std::ceil(T / dt - 1e-9));
  for (int i = 0; i <= n; ++i) {
    const double t = i * dt;
    std::vector<double> q(4), qd(4), qdd(4);
    for (int k = 0; k < 4; ++k) evalTrap(p[k], t, q[k], qd[k], qdd[k]);
    tr.t.push_back(t);
    tr.q.push_back(q);
    tr.qd.push_back(qd);
    tr.qdd.push_back(qdd);
  }
  return tr;
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
