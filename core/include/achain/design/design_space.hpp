// A design space (docs/sweeps.md): a base robot, the parameters that vary (each written at JSON pointers into the
// robot's JSON description), how designs are drawn (grid, seeded random, Sobol), the metrics each design gets,
// constraints on them and the objectives of a Pareto front. Every design is fully determined by the space and its
// index k: designParameters(space, k) here, designRobotJson(space, k) in io/design_json.hpp (which also reads the
// file: designSpaceFromJson). The structs hold no JSON (io/ is the only area that includes nlohmann-json).
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <achain/dynamics/options.hpp>
#include <achain/math/types.hpp>

namespace achain {

/// How the designs are drawn from the parameters: "grid" (the Cartesian product of every parameter's values),
/// "random" (each parameter uniform in its range, or a uniform pick of its list; a fixed hash of the seed, the
/// design index and the parameter), "sobol" (the Sobol sequence, Joe–Kuo direction numbers, digitally shifted by
/// the seed; seed 0 = the plain sequence).
enum class DesignSampleKind { Grid, Random, Sobol };
const char* toString(DesignSampleKind k);

/// Where a parameter's value v is written: value scale·v + offset at the JSON pointer (RFC 6901) into the robot
/// description, in the robot file's own units.
struct DesignPointer {
  std::string pointer;
  double scale = 1, offset = 0;
};

struct DesignParameter {
  std::string name;
  std::vector<DesignPointer> pointers;
  std::vector<double> values;  ///< a list parameter ("values"); empty for a range
  double lower = 0, upper = 0; ///< a range parameter ("range": [lower, upper], lower < upper)
  int count = 0;               ///< a range's grid points (lower … upper, evenly spaced; grid sample only)
  bool isList() const { return !values.empty(); }
};

struct DesignSample {
  DesignSampleKind kind = DesignSampleKind::Grid;
  std::uint64_t count = 0;  ///< random / sobol: how many designs
  std::uint64_t seed = 0;
};

/// "metrics.workspace": Robinson's voxel sweep (reach/workspace.hpp, one thread per design).
struct WorkspaceMetricSpec {
  bool enabled = false;
  double voxel = 0;                   ///< m
  Vec3 point = Vec3::Zero();          ///< swept point in the tool frame, m
  bool has_target = false;
  Vec3 target_min = Vec3::Zero(), target_max = Vec3::Zero();  ///< target box in the base frame, m
};

/// "metrics.move": a rest-to-rest move planned at the joint velocity/acceleration limits (planJointPath) and its
/// torques by the RNEA (analyzeTrajectory).
struct MoveMetricSpec {
  bool enabled = false;
  bool has_move = false;           ///< from/to given; else the robot's defaults.move
  std::vector<double> from, to;    ///< in the robot file's units (as its defaults.move)
  std::string profile = "trapezoid";
  double rate = 1000;              ///< samples per second
  LegModel legs = LegModel::Full;
};

/// "metrics.collision": the A-pairs' leg-collision ranges (apairUsableRange).
struct CollisionMetricSpec {
  bool enabled = false;
  double leg_radius = -1;  ///< m; < 0: each joint's own legs.radius
};

/// "metrics.manipulability": Yoshikawa's measure at seeded uniform samples within the joint limits.
struct ManipulabilityMetricSpec {
  bool enabled = false;
  int samples = 200;
  std::uint64_t seed = 1;
  std::string rows = "all";  ///< rows of the tool Jacobian: "all" (6×n), "linear" (3×n), "angular" (3×n)
};

/// "metrics.ik": the numeric IK's success rate on targets from FK of seeded samples, solved from the centre of the limits.
struct IkMetricSpec {
  bool enabled = false;
  int targets = 50;
  std::uint64_t seed = 1;
  int restarts = 0;
  bool position_only = false;
};

struct DesignMetricsSpec {
  WorkspaceMetricSpec workspace;
  MoveMetricSpec move;
  CollisionMetricSpec collision;
  ManipulabilityMetricSpec manipulability;
  IkMetricSpec ik;
};

/// A metric named in a constraint or objective: "peak_torque", or one element of an array metric
/// "peak_torque_joints[1]" (index ≥ 0).
struct DesignMetricRef {
  std::string name;
  int index = -1;
  std::string text() const { return index < 0 ? name : name + "[" + std::to_string(index) + "]"; }
};

struct DesignConstraint {
  DesignMetricRef metric;
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
};

struct DesignObjective {
  DesignMetricRef metric;
  bool maximize = false;  ///< "goal": "max" (else "min")
};

struct DesignSpace {
  std::string document;      ///< the design-space JSON (compact text) with the base robot inline: a file that stands alone
  std::string robot_json;    ///< the base robot's JSON description (compact text)
  std::string robot_source;  ///< the built-in's name, the robot file's path, or "(inline)"
  int nq = 0;                ///< the base robot's coordinates
  std::vector<DesignParameter> parameters;
  DesignSample sample;
  std::uint64_t count = 0;   ///< designs: the grid's product, or sample.count
  DesignMetricsSpec metrics;
  std::vector<DesignConstraint> constraints;
  std::vector<DesignObjective> objectives;
};

/// The most designs a space may hold (a grid's product or a sample's count).
constexpr std::uint64_t kMaxDesigns = std::uint64_t(1) << 40;

/// Design k's parameter values (one per parameter, in order, in the robot file's units). Grid: k in mixed radix,
/// the last parameter varying fastest. Throws achain::Error for k ≥ space.count.
std::vector<double> designParameters(const DesignSpace& space, std::uint64_t k);

/// The names of the metrics the space's "metrics" produce, in the order records list them; the array metrics
/// (one value per coordinate or per A-pair) end in "_joints".
std::vector<std::string> designMetricNames(const DesignSpace& space);

/// The SI unit of a metric ("m^3", "N*m", "J", "s", "rad"; "" for a count, a fraction or Yoshikawa's measure, whose
/// unit depends on the chain); an element "peak_torque_joints[1]" has its array's unit. Throws achain::Error for a
/// name no metric has.
std::string designMetricUnit(const std::string& name);

}  // namespace achain
