// JSON of the trajectory area: the "achain-trajectory" v1 interchange format (the one reader and writer,
// shared by the CLI, the dynamics commands, the bridge and the wasm API) and the JSON reports.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include <achain/trajectory/analysis.hpp>
#include <achain/trajectory/trajectory.hpp>

namespace achain {

/// {"schema":"achain-trajectory","version":1,"robot":…,"joints":[…],"t":[…],"q":[[…]…],"qd":…,"qdd":…}
/// plus "profile", "duration" and "breakpoints" when known. q[k] is the joint vector at t[k].
nlohmann::json trajectoryToJson(const Trajectory& tr);
/// Reads the JSON above; checks schema, version, sizes and finiteness, naming the bad field.
/// "joints" may be omitted (names j1…jn, n from q[0]); "qd" and "qdd" may be omitted (zeros).
Trajectory trajectoryFromJson(const nlohmann::json& j);
/// Reads a trajectory file (JSON).
Trajectory loadTrajectory(const std::string& path);

/// Checks a sampled trajectory against the model's speed, acceleration and position limits.
/// Returns a JSON object: per joint peaks and margins, and "ok".
nlohmann::json checkRateLimits(const Model& m, const Trajectory& tr, double tolerance = 1e-9);

/// Torque, power and work along a trajectory (analyzeTrajectory) as JSON; series = include per-sample rows.
nlohmann::json analysisToJson(const Model& m, const Trajectory& tr, const TrajectoryAnalysis& a, bool series = true);

}  // namespace achain
