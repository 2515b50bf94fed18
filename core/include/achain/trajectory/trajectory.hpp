// A sampled trajectory (the interchange format shared with the dynamics and firmware areas):
// sampling a JointPath at a rate, JSON ("achain-trajectory" v1) and CSV.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <achain/trajectory/path.hpp>

namespace achain {

/// Samples t[k] with q, q̇, q̈ as rows (samples × joints), SI units.
struct Trajectory {
  std::string robot;
  std::vector<std::string> joints;
  std::string profile;                              ///< optional, e.g. "trapezoid"
  std::vector<double> t;                            ///< s, increasing, t[0] = 0
  MatX q, qd, qdd;                                  ///< samples × joints
  std::vector<std::vector<double>> breakpoints;     ///< optional, per joint (s)
  int samples() const { return static_cast<int>(t.size()); }
  int dof() const { return static_cast<int>(q.cols()); }
  double duration() const { return t.empty() ? 0.0 : t.back(); }
};

/// Samples `path` every 1/rate s from 0; the last sample is always at the path's end (exact
/// endpoint), so the last interval may be shorter. rate in Hz, > 0. Names come from the model.
Trajectory samplePath(const Model& m, const JointPath& path, double rate);

/// {"schema":"achain-trajectory","version":1,"robot":…,"joints":[…],"t":[…],"q":[[…]…],"qd":…,"qdd":…}
/// plus "profile", "duration" and "breakpoints" when known. q[k] is the joint vector at t[k].
nlohmann::json trajectoryToJson(const Trajectory& tr);
/// Reads the JSON above; checks schema, version, sizes and finiteness, naming the bad field.
/// "joints" may be omitted (names j1…jn, n from q[0]); "qd" and "qdd" may be omitted (zeros).
/// This is the one reader of the format: the CLI, the dynamics commands and the bridge use it.
Trajectory trajectoryFromJson(const nlohmann::json& j);
/// Reads a trajectory file (JSON).
Trajectory loadTrajectory(const std::string& path);

/// CSV: header "t,q_<joint>…,qd_<joint>…,qdd_<joint>…", one row per sample, full precision.
std::string trajectoryToCsv(const Trajectory& tr);

/// Checks a sampled trajectory against the model's speed, acceleration and position limits.
/// Returns a JSON object: per joint peaks and margins, and "ok".
nlohmann::json checkRateLimits(const Model& m, const Trajectory& tr, double tolerance = 1e-9);

}  // namespace achain
