// The parallel robot file (docs/robot-format.md#parallel-mechanisms): one JSON document with a "parallel"
// section whose legs are ordinary robot descriptions (modelFromJson per leg), read into a ParallelRobot
// (dynamics/parallel_robot.hpp). Built-in parallel robots live in core/robots/parallel/*.json, apart from
// the serial built-ins (builtinRobots(): every one of those is a Model).
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <achain/dynamics/parallel_robot.hpp>
#include <achain/model/robots.hpp>

namespace achain {

/// Parses and validates a parallel robot file; values are converted to SI once, by the file's "units".
/// Throws achain::Error whose message starts with the field, e.g. "parallel.legs[1].joints: …".
ParallelRobot parallelFromJson(const nlohmann::json& j);
ParallelRobot parallelFromJsonString(const std::string& text);

/// The built-in parallel robots (name and file text).
const std::vector<BuiltinRobot>& builtinParallelRobots();
/// A built-in parallel robot by name, or else a parallel robot file by path.
ParallelRobot loadParallel(const std::string& name_or_path);
/// The text of a built-in parallel robot by name, or else of the file at the path.
std::string parallelText(const std::string& name_or_path);

}  // namespace achain
