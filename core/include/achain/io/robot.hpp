// A robot file read once into one Robot: the Model and, where the file declares them, its loop-closure
// constraint, its drives (joint flexibility) and its flexible links; or, for a parallel robot file, its legs and
// platform (Robot::parallel). Every reader of a robot (the CLI's --robot,
// the wasm model handle, the benchmarks) goes through readRobot or robotFromJson, so a file is parsed once and
// its sections agree with the Model they were read against.
#pragma once
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include <achain/closed_chains/loop_closure.hpp>
#include <achain/closed_chains/parallel_robot.hpp>
#include <achain/flexibility/joint_flexibility.hpp>
#include <achain/io/urdf.hpp>
#include <achain/model/flexible_link.hpp>
#include <achain/model/model.hpp>
#include <achain/model/robots.hpp>

namespace achain {

/// Which reader filled a Robot: a robot JSON file, a URDF file, or a parallel robot file (JSON with a
/// "parallel" section: docs/robot-format.md#parallel-mechanisms).
enum class RobotFormat { Json, Urdf, Parallel };
const char* toString(RobotFormat f);

/// The robot file's optional "defaults" section (docs/robot-format.md#defaults): what a front end (the studio)
/// starts with for this robot instead of its generic choice. Every value in SI.
struct RobotDefaults {
  /// The default joint-space move (the Motion and Vibration views' plan): from → to, one value per coordinate.
  struct Move {
    std::string name;  ///< what it is, for display ("the thesis trapezoid"); may be empty
    VecX from, to;     ///< rad or m per coordinate, within the limits
  };
  /// A published workspace size at the default voxel, to compare a computed one with.
  struct WorkspaceReference {
    double voxels = 0;   ///< the published voxel count (> 0)
    std::string source;  ///< who published it ("the thesis (Robinson 2012)")
    std::string note;    ///< why a computed count may differ; may be empty
  };
  std::optional<Move> move;                                ///< "move"
  std::optional<double> workspace_voxel;                   ///< "workspace.voxel", m (> 0)
  std::optional<WorkspaceReference> workspace_reference;   ///< "workspace.reference" (needs "workspace.voxel")
  /// "drive_variant": the name of a variant file under core/robots/variants/ (without .json) whose drive blocks the
  /// robot gets when its own file declares none ("" = none).
  std::string drive_variant;
};

struct Robot {
  Model model;
  std::optional<LoopClosure> loop;             ///< the file's "loop" section (docs/robot-format.md#loops)
  std::optional<JointFlexibility> drives;      ///< the joints' "drive" blocks (docs/robot-format.md#drives)
  std::optional<FlexibleLinks> flexible_links; ///< the joints' "flexible" blocks (docs/robot-format.md#flexible-links)
  std::optional<RobotDefaults> defaults;       ///< the file's "defaults" section (docs/robot-format.md#defaults)
  /// A parallel robot file's mechanism (format Parallel): its legs (each a Model), platform and actuation. `model`
  /// is then empty: a parallel robot is not one chain.
  std::optional<ParallelRobot> parallel;
  RobotFormat format = RobotFormat::Json;
  std::string source;  ///< the built-in's name or the file's path ("" for text), for messages

  /// The loop, or achain::Error "<source>: the robot file has no loop section".
  const LoopClosure& requireLoop() const;
  /// The drives, or achain::Error "<source>: the robot file has no drive section (joints[i].drive)".
  const JointFlexibility& requireDrives() const;
  /// The flexible links, or achain::Error "<source>: the robot file has no flexible link (joints[i].flexible)".
  const FlexibleLinks& requireFlexibleLinks() const;
  /// The parallel mechanism, or achain::Error "<source>: not a parallel robot file (no parallel section)".
  const ParallelRobot& requireParallel() const;
  /// Throws achain::Error "<source>: a parallel robot file (…)" for a parallel robot: for readers of one chain.
  void requireChain() const;
};

/// A robot JSON document (docs/robot-format.md): the model and every optional section it has, or a parallel robot
/// file's mechanism. Throws achain::Error naming the field ("joints[2].link.mass: …", "loop.coordinates[1]: …").
Robot robotFromJson(const nlohmann::json& j);
/// The same from text (bounded JSON parse; a syntax error names its line).
Robot robotFromJsonString(const std::string& text);

/// The "defaults" section of a robot document read against its model, in SI. Throws achain::Error naming the field
/// ("defaults.move.from[2]: …", "defaults.workspace.voxel: must be > 0 …").
RobotDefaults robotDefaultsFromJson(const nlohmann::json& document, const Model& model);
/// The defaults as a "defaults" section in SI units (for a document written with SI "units", as modelToJson writes).
nlohmann::json robotDefaultsToJson(const RobotDefaults& defaults, const Model& model);

/// A built-in name, or else a path to a robot file: JSON, or URDF when the file's text is XML (native builds).
/// The URDF options are refused for JSON files and built-ins. Errors name the file ("arm.json: joints[1]…").
Robot readRobot(const std::string& name_or_path, const UrdfOptions& urdf = {});

/// readRobot(…).model, for callers that need only the Model (a parallel robot file is refused: requireChain).
Model loadRobot(const std::string& name_or_path, const UrdfOptions& urdf = {});
/// readRobot(…).parallel, for callers of a parallel mechanism (another robot is refused: requireParallel).
ParallelRobot loadParallel(const std::string& name_or_path);
/// A built-in's Model by name; throws achain::Error listing the known names otherwise.
Model builtinModel(const std::string& name);
/// The text of a robot file; throws achain::Error if it cannot be opened or is larger than 16 MiB.
std::string readRobotFile(const std::string& path);
/// The text of a built-in by name, or else of the robot file at the path.
std::string robotText(const std::string& name_or_path);

}  // namespace achain
