// libFuzzer target: the trajectory JSON reader (core/io/trajectory_json: trajectoryFromJson on the parsed
// document, as loadTrajectory reads `--traj file.json`). Any input either loads or throws achain::Error;
// a loaded trajectory has consistent sizes, finite samples, increasing times, and writes back
// (trajectoryToJson) to a document that loads to the same samples. Seeds: tests/fuzz/seeds/trajectory_json.
#include <cmath>
#include <cstdint>
#include <string>

#include <achain/io/trajectory_json.hpp>

using achain::Trajectory;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(reinterpret_cast<const char*>(data), reinterpret_cast<const char*>(data) + size);
  } catch (const nlohmann::json::exception&) {
    return 0;  // loadTrajectory turns any parser exception (parse_error, out_of_range for 1e999) into "not valid JSON"
  }
  Trajectory tr;
  try {
    tr = achain::trajectoryFromJson(j);
  } catch (const achain::Error&) {
    return 0;
  }
  const int N = static_cast<int>(tr.t.size()), n = tr.dof();
  if (N < 1 || n < 1 || static_cast<int>(tr.joints.size()) != n) __builtin_trap();
  for (const achain::MatX* M : {&tr.q, &tr.qd, &tr.qdd})
    if (M->rows() != N || M->cols() != n || !M->allFinite()) __builtin_trap();
  for (int k = 0; k < N; ++k) {
    if (!std::isfinite(tr.t[k])) __builtin_trap();
    if (k > 0 && !(tr.t[k] > tr.t[k - 1])) __builtin_trap();
  }
  const Trajectory back = achain::trajectoryFromJson(achain::trajectoryToJson(tr));
  if (back.t != tr.t || back.q != tr.q || back.qd != tr.qd || back.qdd != tr.qdd || back.joints != tr.joints) __builtin_trap();
  return 0;
}
