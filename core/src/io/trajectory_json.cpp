// JSON for sampled trajectories ("achain-trajectory" v1): the one reader and writer of the format,
// and the JSON reports of the trajectory area.
#include <achain/io/trajectory_json.hpp>
#include <achain/io/json_text.hpp>
#include <achain/math/text.hpp>

#include <cstdint>

#include <cmath>
#include <fstream>
#include <sstream>

namespace achain {

using nlohmann::json;

namespace {
json rows(const MatX& M) {
  json r = json::array();
  for (int i = 0; i < M.rows(); ++i) {
    json row = json::array();
    for (int c = 0; c < M.cols(); ++c) row.push_back(M(i, c));
    r.push_back(std::move(row));
  }
  return r;
}

/// j[key] as a string, "" when absent; any other type is an error naming the key.
std::string optionalString(const json& j, const char* key) {
  if (!j.contains(key)) return std::string();
  if (!j[key].is_string()) throw Error(std::string(key) + ": must be a string");
  return j[key].get<std::string>();
}

/// j[key] as N rows of n finite numbers; an error naming the key when it is missing or malformed.
MatX readRows(const json& j, const char* key, int N, int n) {
  if (!j.contains(key)) throw Error(std::string(key) + ": missing");
  const json& a = j.at(key);
  if (!a.is_array() || static_cast<int>(a.size()) != N)
    throw Error(std::string(key) + ": must be an array of " + std::to_string(N) + " samples (one per t)");
  MatX M(N, n);
  for (int k = 0; k < N; ++k) {
    const json& row = a[k];
    if (!row.is_array() || static_cast<int>(row.size()) != n)
      throw Error(std::string(key) + "[" + std::to_string(k) + "]: must be an array of " + std::to_string(n) + " numbers");
    for (int i = 0; i < n; ++i) {
      if (!row[i].is_number())
        throw Error(std::string(key) + "[" + std::to_string(k) + "][" + std::to_string(i) + "]: must be a number");
      M(k, i) = row[i].get<double>();
      if (!std::isfinite(M(k, i)))
        throw Error(std::string(key) + "[" + std::to_string(k) + "][" + std::to_string(i) + "]: must be finite");
    }
  }
  return M;
}
}  // namespace

json trajectoryToJson(const Trajectory& tr) {
  json j = {{"schema", "achain-trajectory"}, {"version", 1}, {"robot", tr.robot}, {"joints", tr.joints}};
  if (!tr.profile.empty()) j["profile"] = tr.profile;
  j["duration"] = tr.duration();
  if (!tr.breakpoints.empty()) j["breakpoints"] = tr.breakpoints;
  j["t"] = tr.t;
  j["q"] = rows(tr.q);
  j["qd"] = rows(tr.qd);
  j["qdd"] = rows(tr.qdd);
  return j;
}

Trajectory trajectoryFromJson(const json& j) {
  if (!j.is_object()) throw Error("trajectory: must be a JSON object");
  // Every field is type-checked before it is read: nlohmann's value()/get() would throw its own type_error
  // (no field name) for a wrong type, and get<int>() would truncate 4294967297 to 1.
  if (!j.contains("schema") || !j["schema"].is_string() || j["schema"].get<std::string>() != "achain-trajectory")
    throw Error("schema: must be \"achain-trajectory\"");
  // compared as the 64-bit integer it is: 4294967297 is not read as 1
  if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<std::int64_t>() != 1)
    throw Error("version: must be 1");
  Trajectory tr;
  tr.robot = optionalString(j, "robot");
  if (j.contains("joints")) {
    if (!j["joints"].is_array() || j["joints"].empty()) throw Error("joints: must be a non-empty array of joint names");
    for (size_t i = 0; i < j["joints"].size(); ++i) {
      if (!j["joints"][i].is_string()) throw Error("joints[" + std::to_string(i) + "]: must be a string");
      tr.joints.push_back(j["joints"][i].get<std::string>());
    }
  } else {
    // Without names, the joint count comes from the first sample: j1, j2, …
    if (!j.contains("q") || !j["q"].is_array() || j["q"].empty() || !j["q"][0].is_array() || j["q"][0].empty())
      throw Error("joints: missing, and q[0] does not give the joint count");
    for (size_t i = 0; i < j["q"][0].size(); ++i) tr.joints.push_back("j" + std::to_string(i + 1));
  }
  if (!j.contains("t") || !j["t"].is_array() || j["t"].empty()) throw Error("t: must be a non-empty array of times (s)");
  if (double(j["t"].size()) > kMaxTrajectorySamples)
    throw Error("t: " + std::to_string(j["t"].size()) + " samples; at most " + std::to_string(std::int64_t(kMaxTrajectorySamples)));
  if (tr.joints.size() > std::size_t(kMaxJoints))
    throw Error("joints: " + std::to_string(tr.joints.size()) + " joints; at most " + std::to_string(kMaxJoints));
  const int N = static_cast<int>(j["t"].size()), n = static_cast<int>(tr.joints.size());
  if (double(N) * n > kMaxTrajectoryValues)
    throw Error("t: " + std::to_string(N) + " samples × " + std::to_string(n) + " joints; at most 2e7 values");
  tr.t.resize(N);
  for (int k = 0; k < N; ++k) {
    if (!j["t"][k].is_number()) throw Error("t[" + std::to_string(k) + "]: must be a number");
    tr.t[k] = j["t"][k].get<double>();
    if (!std::isfinite(tr.t[k])) throw Error("t[" + std::to_string(k) + "]: must be finite");
    if (k > 0 && !(tr.t[k] > tr.t[k - 1])) throw Error("t[" + std::to_string(k) + "]: times must increase");
  }
  tr.q = readRows(j, "q", N, n);
  // Rates the file leaves out are differentiated from the samples, never taken as rest: a file without qdd read
  // as zero accelerations gave peak torques a third of the true ones and "within effort" where they were not.
  auto rate = [&](const char* key, const MatX& of, const char* of_key) -> MatX {
    if (j.contains(key)) return readRows(j, key, N, n);
    tr.notes.push_back(std::string(key) + ": not in the file; differentiated from " + of_key +
                       " (second-order finite differences)");
    return sampleDerivative(tr.t, of);
  };
  tr.qd = rate("qd", tr.q, "q");
  tr.qdd = rate("qdd", tr.qd, "qd");
  tr.profile = optionalString(j, "profile");
  if (j.contains("breakpoints")) {
    try {
      tr.breakpoints = j["breakpoints"].get<std::vector<std::vector<double>>>();
    } catch (const std::exception&) {
      throw Error("breakpoints: must be an array (per joint) of arrays of times");
    }
  }
  return tr;
}

Trajectory loadTrajectory(const std::string& path) {
  const std::string text = readTextFile(path, kMaxTrajectoryFileBytes, path);
  json j;
  try {
    j = parseJsonText(text);
  } catch (const Error& e) {
    throw Error(nameInput(path) + ": not valid JSON (" + e.what() + ")");
  }
  try {
    return trajectoryFromJson(j);
  } catch (const Error& e) {
    throw Error(nameInput(path) + ": " + e.what());
  }
}

json checkRateLimits(const Model& m, const Trajectory& tr, double tol) {
  if (tr.dof() != m.nq) throw Error("trajectory: has " + std::to_string(tr.dof()) + " joints, robot '" + m.name + "' has " + std::to_string(m.nq));
  json joints = json::array();
  bool ok = true;
  auto lim = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
  for (int i = 0; i < m.njoints(); ++i) {
    const int c = m.idx_q[i];
    if (!m.jmodels[i].independent) continue;  // fixed or mimic: no coordinate of its own
    const auto& L = m.joints[i].limits;
    const double vp = tr.qd.col(c).cwiseAbs().maxCoeff(), ap = tr.qdd.col(c).cwiseAbs().maxCoeff();
    const double qlo = tr.q.col(c).minCoeff(), qhi = tr.q.col(c).maxCoeff();
    const bool vok = vp <= L.velocity * (1 + tol) + tol, aok = ap <= L.acceleration * (1 + tol) + tol;
    const bool pok = qlo >= L.lower - tol && qhi <= L.upper + tol;
    ok = ok && vok && aok && pok;
    joints.push_back({{"joint", m.joints[i].name}, {"peak_velocity", vp}, {"velocity_limit", lim(L.velocity)},
                      {"peak_acceleration", ap}, {"acceleration_limit", lim(L.acceleration)},
                      {"min_q", qlo}, {"max_q", qhi}, {"velocity_ok", vok}, {"acceleration_ok", aok}, {"position_ok", pok}});
  }
  return {{"ok", ok}, {"joints", joints}};
}
json analysisToJson(const Model& m, const Trajectory& tr, const TrajectoryAnalysis& a, bool series) {
  auto vec = [](const VecX& v) {
    json r = json::array();
    for (int i = 0; i < v.size(); ++i) r.push_back(std::isfinite(v[i]) ? json(v[i]) : json(nullptr));
    return r;
  };
  json peaks = json::array();
  for (int j = 0; j < m.njoints(); ++j) {
    const int i = m.idx_q[j];
    if (i < 0 || !m.jmodels[j].independent) continue;  // fixed or mimic: no coordinate of its own
    peaks.push_back({{"joint", m.joints[j].name}, {"peak_tau", a.peak_tau[i]}, {"time", a.peak_tau_time[i]},
                     {"effort", std::isfinite(a.effort[i]) ? json(a.effort[i]) : json(nullptr)},
                     {"ratio", a.effort_ratio[i]}, {"ok", a.effort_ratio[i] <= 1 + 1e-9},
                     {"peak_power", a.peak_power[i]}, {"work", a.work[i]}, {"net_work", a.net_work[i]}});
  }
  json out = {{"robot", m.name}, {"joints", tr.joints}, {"duration", tr.duration()}, {"samples", tr.samples()},
              {"work", vec(a.work)}, {"net_work", vec(a.net_work)}, {"total_work", a.total_work},
              {"peak_tau", vec(a.peak_tau)}, {"peak_power", vec(a.peak_power)}, {"within_effort", a.within_effort},
              {"peaks", peaks}};
  if (series) {
    auto rows = [](const MatX& M) {
      json r = json::array();
      for (int k = 0; k < M.rows(); ++k) {
        json row = json::array();
        for (int c = 0; c < M.cols(); ++c) row.push_back(M(k, c));
        r.push_back(row);
      }
      return r;
    };
    out["t"] = tr.t;
    out["tau"] = rows(a.tau);
    out["power"] = rows(a.power);
  }
  return out;
}

}  // namespace achain
