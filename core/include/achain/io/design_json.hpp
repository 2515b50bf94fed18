// The design-space file (docs/sweeps.md, "format": "achain-design-space") read into a DesignSpace; design k's robot
// description (the base robot's JSON with design k's values written at the parameters' pointers); and the sweep's
// JSON: one record per design (a shard file's line) and the merged file ("format": "achain-sweep").
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <achain/design/design_space.hpp>
#include <achain/design/sweep.hpp>
#include <achain/io/robot.hpp>

namespace achain {

/// A design-space document. The robot is a built-in name, a robot JSON file's path (relative paths from
/// `base_dir`, the design file's folder; "" = the current directory) or an inline robot description; a URDF or a
/// parallel robot file is refused. Throws achain::Error naming the field ("parameters[1].pointers[0]: …",
/// "metrics.workspace.voxel: …", "objectives[0].metric: …").
DesignSpace designSpaceFromJson(const nlohmann::json& document, const std::string& base_dir = "");
/// The same from text (bounded JSON parse; a syntax error names its line).
DesignSpace designSpaceFromJsonString(const std::string& text, const std::string& base_dir = "");
/// A design-space file; errors start with its path. Relative robot paths are taken from the file's folder.
DesignSpace readDesignSpace(const std::string& path);

/// Design k's robot description: the base robot's JSON with design k's values (designParameters) written at the
/// parameters' pointers, and, when metrics.move gives its own from/to, that move as defaults.move (so a front end
/// loading design k plans the move the sweep measured). Throws achain::Error for k ≥ space.count.
nlohmann::json designRobotJson(const DesignSpace& space, std::uint64_t k);
/// Design k's robot read (robotFromJson(designRobotJson(space, k))); throws what the robot reader throws.
Robot designRobot(const DesignSpace& space, std::uint64_t k);
/// Design k's parameters by name: {"leg_length": 6.5, …}.
nlohmann::json designParametersJson(const DesignSpace& space, std::uint64_t k);

/// A record as a shard line's object: {"design", "parameters", "metrics", "feasible", "violations", "error"
/// (null or a string)} and, with `seconds`, "seconds".
nlohmann::json designRecordToJson(const DesignSpace& space, const DesignRecord& record, bool seconds);
/// A record read back from such an object, checked against the space (design index < count, the parameter names,
/// the metric names, types); throws achain::Error naming the field.
DesignRecord designRecordFromJson(const DesignSpace& space, const nlohmann::json& line);

/// The merged sweep: {"format": "achain-sweep", "version": 1, "design_space", "count", "objectives", "designs"
/// (every record, sorted by design, without "seconds"), "pareto", "summary"}. `records` must hold every design
/// 0 … count−1 once, in order (throws achain::Error otherwise). Contains no wall-clock figure: the same records
/// give the same bytes.
nlohmann::json sweepMergedJson(const DesignSpace& space, const std::vector<DesignRecord>& records);

}  // namespace achain
