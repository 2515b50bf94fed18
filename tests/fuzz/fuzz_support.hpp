// Shared checks of the reader fuzz targets (tests/fuzz/): what every successfully loaded model must satisfy.
// A violated property calls __builtin_trap(), which libFuzzer reports as a crash with the input saved.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>

#include <achain/dynamics/options.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/io/model_json.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/model/data.hpp>
#include <achain/model/model.hpp>

namespace achain::fuzz {

inline std::string text(const uint8_t* data, size_t size) { return std::string(reinterpret_cast<const char*>(data), size); }

/// The middle of each coordinate's limits (a finite end when only one is finite, else 0).
inline VecX midConfiguration(const Model& m) {
  VecX q = VecX::Zero(m.nq);
  for (int c = 0; c < m.nq; ++c) {
    const JointLimits& L = m.joints[m.coord_joint[c]].limits;
    const bool lo = std::isfinite(L.lower), hi = std::isfinite(L.upper);
    q[c] = lo && hi ? 0.5 * (L.lower + L.upper) : lo ? L.lower : hi ? L.upper : 0.0;
  }
  return q;
}

/// A loaded model (1) saves and loads back to the same description (model_json.hpp's contract) and
/// (2) gives finite forward kinematics and gravity torques inside its limits (validation bounds every
/// magnitude to a physical range, so no accepted model can overflow).
inline void checkLoadedModel(const Model& m) {
  const nlohmann::json saved = modelToJson(m);
  const Model back = modelFromJson(saved);  // an achain::Error here escapes: libFuzzer reports it
  if (!back.sameDescription(m)) __builtin_trap();
  if (m.nq > 64) return;  // the checks below are O(n²): keep the fuzzer fast on long chains
  Data d(m);
  const VecX q = midConfiguration(m);
  forwardKinematics(m, d, q);
  if (!d.oMtool.matrix().allFinite()) __builtin_trap();
  VecX g(m.nv);
  gravityTorques(m, d, q, DynamicsOptions{}, g);
  if (!g.allFinite()) __builtin_trap();
}

}  // namespace achain::fuzz
