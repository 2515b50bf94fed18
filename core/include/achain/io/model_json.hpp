// The JSON robot description (docs/robot-format.md): load with validation and unit
// conversion at the boundary; save in SI so that load(save(m)) reproduces m exactly.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include <achain/model/model.hpp>

namespace achain {

constexpr int kSchemaVersion = 1;

/// Parses and validates a robot description. Throws achain::Error whose message starts with
/// the offending field path, e.g. "joints[2].link.mass: must be ≥ 0 (got -1)".
Model modelFromJson(const nlohmann::json& j);
Model modelFromJsonString(const std::string& text);

/// Serialises in SI units (m, rad, kg, N·m, N).
nlohmann::json modelToJson(const Model& m);

}  // namespace achain
