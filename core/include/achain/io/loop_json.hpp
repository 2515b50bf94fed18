// The optional "loop" section of a robot file (docs/robot-format.md#loops): the loop-closure
// constraint of a single closed loop (closed_chains/loop_closure.hpp), in the file's units.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include <achain/closed_chains/loop_closure.hpp>

namespace achain {

/// The loop of a robot file whose model is `model` (modelFromJson of the same document). Throws
/// achain::Error naming the field ("loop.coordinates[1]: …"), or "loop: the robot file has no loop section".
LoopClosure loopFromJson(const nlohmann::json& j, const Model& model);
LoopClosure loopFromJsonString(const std::string& text, const Model& model);

/// The loop section of `model`'s robot file in SI (as modelToJson writes the rest): closure kind, ground
/// pose (4×4 matrix), the coordinates by joint name and the assembly when it has one. Written beside
/// modelToJson(model) as "loop", it loads back to the same closure.
nlohmann::json loopToJson(const LoopClosure& loop, const Model& model);

}  // namespace achain
