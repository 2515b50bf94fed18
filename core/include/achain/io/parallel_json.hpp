// The parallel robot file (docs/robot-format.md#parallel-mechanisms): one JSON document with a "parallel"
// section whose legs are ordinary robot descriptions (modelFromJson per leg), read into a ParallelRobot
// (closed_chains/parallel_robot.hpp). readRobot (io/robot.hpp) reads a parallel robot file or built-in
// (core/robots/parallel/*.json, builtinParallelRobots()) into Robot::parallel through this reader.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <achain/closed_chains/parallel_robot.hpp>
#include <achain/model/robots.hpp>

namespace achain {

/// Parses and validates a parallel robot file; values are converted to SI once, by the file's "units".
/// Throws achain::Error whose message starts with the field, e.g. "parallel.legs[1].joints: …".
ParallelRobot parallelFromJson(const nlohmann::json& j);
ParallelRobot parallelFromJsonString(const std::string& text);

/// True when the document is a parallel robot file (it has a "parallel" section).
bool isParallelRobot(const nlohmann::json& j);

}  // namespace achain
