// URDF import (docs/robot-format.md, "URDF"): one function maps an XML element tree (xml_tree.hpp) to a
// Model, so the CLI (pugixml) and the wasm module (the page's XML parser) share the semantics.
#pragma once
#include <string>
#include <vector>

#include <achain/io/xml_tree.hpp>
#include <achain/model/model.hpp>

namespace achain {

/// The XML namespace of achain's URDF extension elements (<achain:apair …/>, declared on <robot> as
/// xmlns:achain="urn:achain:urdf"; any prefix bound to this name works).
constexpr const char* kAchainUrdfNamespace = "urn:achain:urdf";

struct UrdfOptions {
  /// The link carrying the tool. Empty: the single leaf link (an error listing the leaves when there are several).
  std::string tool_link;
  /// Inertias that break the triangle inequality (a warning by default) are replaced by the mean of their
  /// principal moments, as MuJoCo's `balanceinertia` does.
  bool balance_inertia = false;
  /// Keep fixed joints as joints of the model. By default each fixed joint's link is merged into its parent
  /// (inertial added, geometry, child joints and the tool moved), as MuJoCo's fusestatic does, so that the
  /// algorithms that need one coordinate per joint (ABA, the voxel workspace) take the model.
  bool keep_fixed = false;
};

/// Maps a URDF <robot> tree to a Model: links and inertials, revolute/continuous/prismatic/fixed joints placed
/// by origin/axis, limits, mimic couplings, trees, visual and collision geometry, and the achain A-pair
/// extension. What the model cannot represent is reported in Model::notes ("URDF warning: …", naming the
/// element and line) or, when it would change the robot's meaning, thrown as achain::Error naming the
/// element and line.
Model modelFromUrdf(const XmlElement& robot, const UrdfOptions& options = {});

/// parseXml + modelFromUrdf (native builds).
Model modelFromUrdfString(const std::string& text, const UrdfOptions& options = {});

/// A joint of a URDF as the file gives it (urdfTree).
struct UrdfTreeJoint {
  std::string name;
  std::string type;    ///< revolute, continuous, prismatic, fixed, floating or planar (modelTree: also helical, A-pair, law)
  bool angular = false;  ///< its coordinate is an angle (limits in rad), else a length (m)
  JointLimits limits;  ///< of a moving joint: lower/upper in rad or m, velocity, effort (±inf: none); acceleration unused
  std::string mimic;   ///< the joint this one mimics (as written, not composed), or empty
  double mimic_multiplier = 1, mimic_offset = 0;
};

/// A link of a URDF and the joint whose child it is.
struct UrdfTreeLink {
  std::string name;
  int parent = -1;      ///< index into UrdfTree::links of the parent link (−1: the root)
  int depth = 0;        ///< 0 for the root
  UrdfTreeJoint joint;  ///< the parent joint (empty name for the root)
};

/// The link/joint tree of a URDF, without building a Model: what a user needs to choose the tool link.
struct UrdfTree {
  std::string name;                 ///< the robot's name attribute
  std::vector<UrdfTreeLink> links;  ///< depth-first from the root (first), child joints in document order
  std::string root;                 ///< the root link's name
  std::vector<std::string> leaves;  ///< links with no child joint (the tool candidates), in document order
  std::string tool_link;            ///< the link the file names in <achain:tool link="…"/>, or empty
  std::vector<std::string> notes;   ///< "URDF warning: …" met while reading the tree and the joints' limits
};

/// Describes a URDF's tree with the reader's own checks (one root, no cycles, links defined, limits valid;
/// achain::Error naming the element and line otherwise). Inertials and geometry are not read.
UrdfTree urdfTree(const XmlElement& robot);

/// parseXml + urdfTree (native builds).
UrdfTree urdfTreeString(const std::string& text);

/// A model's link tree in urdfTree's shape, named as modelToUrdf writes it: "base_link", then links[i + 1] is
/// joint i's link (linkName in model/labels.hpp). tool_link is the model's tool link. The tree panel of a built-in or designed
/// robot shows it: picking links[i + 1] makes joint i's link the tool.
UrdfTree modelTree(const Model& m);

/// Writes any achain model as URDF: one <link> per joint's link ("<joint name>_link", the base "base_link"),
/// joints placed by origin/axis (DH constants, the base transform and θ_f, d folded into the origins and
/// link frames), inertials, limits, mimic, <dynamics> for joint-side friction, the A-pair extension element,
/// achain:gravity and achain:tool (the tool link), the tool transform as a fixed joint to "tool0", and the
/// model's geometry — or, when it has none, simple visuals (a cylinder per link and per joint axis, the two
/// plates of each A-pair). modelFromUrdf reads it back to the same kinematics and dynamics. What URDF cannot
/// carry (acceleration limits, geared motor data) is listed in `warnings` when given; H and law joints and
/// mirror-image (sign −1) A-pairs cannot be written and throw achain::Error naming the joint.
std::string modelToUrdf(const Model& m, std::vector<std::string>* warnings = nullptr);

}  // namespace achain
