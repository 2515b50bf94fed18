// The chain description (Model): immutable once built, shared by every algorithm.
// Scratch buffers live in Data (data.hpp); algorithms are free functions over both.
#pragma once
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <achain/math/types.hpp>
#include <achain/model/joint.hpp>

namespace achain {

/// Joint kinds. Joint variable u (θ_v for A-pairs) enters as:
///   R: rotation θ_f + s·u about z
///   P: translation d + s·u along z (rotation θ_f fixed)
///   H: rotation θ_f + s·u, translation d + pitch·s·u   (pitch in m/rad)
///   A: rotation θ_f + s·u, translation d + ρ·sin(u/2)   (u kept unwrapped, 720° period)
///   Law: rotation θ_f + s·u, translation d + f(u) for a declared axial law f (other algebraic screws)
///   Fixed: no motion and no coordinate (θ_f, d only)
/// s is the joint's direction sign (±1). For an A-pair s = −1 is the mirror-image platform.
/// u is the joint's own coordinate, or k·q_m + c for a joint that mimics joint m (Joint::mimic).
/// How each kind moves is written once, in makeJointModel (joint.hpp / joint.cpp).
enum class JointKind { R, P, H, A, Law, Fixed };

/// Where the DH constants sit relative to the joint motion.
///   Standard (distal):  ^{i-1}T_i = Rz(θ) Tz(d) · Tx(a) Rx(α)
///   Modified (proximal): ^{i-1}T_i = Rx(α) Tx(a) · Rz(θ) Tz(d)
enum class DHConvention { Standard, Modified };

const char* toString(JointKind k);
const char* toString(DHConvention c);

constexpr double kInf = std::numeric_limits<double>::infinity();

struct JointLimits {
  double lower = -kInf;         ///< rad or m
  double upper = kInf;          ///< rad or m
  double velocity = kInf;       ///< rad/s or m/s (magnitude)
  double acceleration = kInf;   ///< rad/s² or m/s² (magnitude)
  double effort = kInf;         ///< N·m or N (magnitude)
  bool operator==(const JointLimits& o) const;
};

/// Optional drive data (motor-referenced, as in Corke's toolbox). Used by dynamics only when asked.
struct Motor {
  bool present = false;
  double rotor_inertia = 0;     ///< kg·m², at the motor
  double gear_ratio = 1;        ///< motor turns per joint turn, with sign
  double viscous = 0;           ///< N·m·s/rad, at the motor
  double coulomb_pos = 0;       ///< N·m, at the motor, for positive velocity
  double coulomb_neg = 0;       ///< N·m, at the motor, for negative velocity (magnitude)
  int encoder_counts = 0;       ///< encoder counts per motor revolution (0: not given); used by the controller bridge
  bool operator==(const Motor& o) const;
};

/// Mass properties of the link carried by a joint, in that link's frame.
struct Inertial {
  double mass = 0;                   ///< kg
  Vec3 com = Vec3::Zero();           ///< m, in the link frame
  Mat3 inertia = Mat3::Zero();       ///< kg·m², about the CoM, axes parallel to the link frame
  bool operator==(const Inertial& o) const;
};

struct Joint {
  std::string name;
  JointKind kind = JointKind::R;
  int parent = -1;        ///< index of the parent link (−1 = base); chains use i−1
  // Where the joint sits, one of two ways:
  //  * DH constants a, alpha (with d, theta_f) in the model's convention (has_origin = false), or
  //  * an origin and an axis (has_origin = true; URDF's <origin>/<axis>): the joint frame is `origin` in the
  //    parent link frame and the joint moves along/about `axis` (unit, in the joint frame), so the child link
  //    frame is origin·Rot(axis, θ)·Trans(axis, dz). a and alpha are then 0 (the convention does not apply).
  bool has_origin = false;
  SE3 origin;                  ///< parent link frame ← joint frame (has_origin only)
  Vec3 axis = Vec3::UnitZ();   ///< unit joint axis in the joint frame (has_origin only)
  // DH constants. In the modified convention a/alpha are a_{i−1}, α_{i−1} of Craig's notation.
  double a = 0;           ///< m
  double alpha = 0;       ///< rad
  double d = 0;           ///< m (fixed offset; the home offset for A-pairs)
  double theta_f = 0;     ///< rad (fixed angle; θ = θ_f + s·q)
  int sign = 1;           ///< direction sign, ±1
  double pitch = 0;       ///< H only: m/rad
  double rho = 0;         ///< A only: ρ = a_side·√6/3 = (2√2/3)·leg length, m
  double leg_mass = 0;    ///< A only: mass of one of the six legs, kg
  double leg_radius = 0;  ///< A only: leg radius for collision limits (0 = centrelines), m
  AxialLaw law;           ///< Law only: dz − d = f(u)
  int mimic = -1;         ///< ≥ 0: this joint follows joint `mimic`, u = mimic_multiplier·u_m + mimic_offset
  double mimic_multiplier = 1;
  double mimic_offset = 0;  ///< rad or m
  JointLimits limits;
  Motor motor;
  Inertial link;          ///< the link this joint moves
  bool operator==(const Joint& o) const;
};

/// A shape drawn on a link (URDF <visual>/<collision>): kept for drawing and export only; no algorithm reads it.
struct Geometry {
  enum class Shape { Box, Cylinder, Sphere, Mesh };
  int link = -1;                 ///< joint index whose link carries it (−1 = the base)
  bool collision = false;        ///< a <collision> shape (else <visual>)
  std::string name;              ///< the element's name attribute (may be empty)
  SE3 origin;                    ///< link frame ← shape frame
  Shape shape = Shape::Box;
  Vec3 size = Vec3::Zero();      ///< box: x, y, z; cylinder: radius, length, 0; sphere: radius, 0, 0 (m)
  std::string mesh;              ///< mesh: the file name as written (package://, relative or absolute)
  Vec3 scale = Vec3::Ones();     ///< mesh: scale per axis
  bool has_color = false;
  Vec4 rgba = Vec4(0.7, 0.7, 0.7, 1.0);  ///< colour (has_color only), 0…1
  bool operator==(const Geometry& o) const;
};
const char* toString(Geometry::Shape s);

/// How the dynamics treats A-pair legs (see dynamics/options.hpp for the four models).
enum class LegModel { Massless, Lumped, Full, PotentialOnly };

/// Mass properties of one rigid body as the dynamics sees it (link frame): the link itself plus,
/// depending on the leg model, the leg masses rigidly attached to it.
struct DynBody {
  double mass = 0;
  Vec3 com = Vec3::Zero();      ///< link frame
  Mat3 inertia = Mat3::Zero();  ///< about the CoM, link axes
};

/// One A-pair leg: base anchor B (fixed on the joint's parent link, in that link's frame — or in the
/// base frame when the parent is the base) and platform anchor P (fixed on the joint's link).
struct DynLeg {
  int joint = -1;
  int parent = -1;
  Vec3 B = Vec3::Zero();
  Vec3 P = Vec3::Zero();
  double mass = 0;  ///< one leg
};

/// The constants of a chain's closed-form IK (ik/closed_form.hpp), derived from the description by
/// Model::finalize (model/closed_form_chain.cpp): which closed form the chain has, and its standard-DH
/// numbers. Plain numbers, no copy of the model.
struct ClosedFormChain {
  enum Class : int { kNone = 0, kPrototype = 1, kWrist6R = 2 };
  int cls = kNone;  ///< which closed form the chain has
  int nq = 0;
  /// per joint: standard-DH a, cos α, sin α, d; θ = θ0 + rot·q; the period of its motion
  std::array<double, 6> a{}, ca{}, sa{}, d{}, theta0{}, rot{}, period{};
  std::array<JointModel, 6> jm{};       ///< per coordinate: the standard-DH chain's joint models
  std::array<JointLimits, 6> limits{};  ///< per coordinate: its limits
  SE3 base_inv, tool, tool_inv;         ///< standard-DH base⁻¹, tool and tool⁻¹
  bool tool_identity = false;
  Mat3 rx_last_t = Mat3::Identity();  ///< Rx(α_last)ᵀ
  double c_a2 = 1;                     ///< sign of cos α₂ (axes 2 ∥ 3)
  double ca_e = 1, sa_e = 0, cb_e = 1, sb_e = 0;  ///< the Euler decomposition's two twist angles
  double alpha_e = 0, beta_e = 0;
  double atan_a1 = 0, sgn_a1 = 1;      ///< prototype class: atan2(0, a₂) and its sign
  double h = 0, L3 = 0, beta = 0, cbeta = 1, sbeta = 0;  ///< wrist-partitioned 6R: arm constants
};

/// An immutable chain (or tree) description. Build it with the JSON loader or
/// by filling `joints` and calling finalize().
struct Model {
  std::string name;
  std::string description;
  std::vector<std::string> notes;   ///< provenance and interpretation choices
  DHConvention convention = DHConvention::Standard;
  Vec3 gravity = Vec3(0, 0, -9.80665);  ///< m/s², world frame (the frame `base` maps into)
  SE3 base;                         ///< world ← frame 0
  SE3 tool;                         ///< last link ← tool frame
  int tool_link = -1;               ///< link the tool is attached to (−1 = last joint's link)
  std::vector<Joint> joints;
  std::vector<Geometry> geometry;   ///< visual and collision shapes (drawing and export only)

  // ---- derived by finalize(); not part of the description ----
  int nq = 0;                       ///< number of generalized coordinates
  int nv = 0;                       ///< number of generalized velocities
  std::vector<int> idx_q;           ///< coordinate each joint follows (−1 for a fixed joint)
  std::vector<JointModel> jmodels;  ///< how each joint moves (the joint model), from makeJointModel
  std::vector<int> coord_joint;     ///< the joint that owns each coordinate (size nq)
  bool coupled = false;             ///< some joint is fixed or a mimic (nq < njoints)
  std::vector<char> is_chain_parent;  ///< joint i's parent is i−1 (or −1 for i = 0)
  bool has_dh = true;               ///< every joint is placed by DH constants (no joint has_origin)
  /// The rigid bodies as the dynamics sees them, one list per LegModel (index = static_cast<int>(LegModel)): each
  /// link's inertial plus, for Lumped and Full, its A-pair legs' masses.
  std::array<std::vector<DynBody>, 4> bodies;
  std::vector<DynLeg> legs;         ///< every leg of every A-pair with leg mass > 0
  ClosedFormChain closed_form;      ///< the closed-form IK's chain constants (cls = kNone: it has none)
  /// A digest of the description (every number the algorithms read): a Data records the fingerprint of the
  /// model it was made for, and checkData refuses it with another model.
  std::uint64_t fingerprint = 0;

  int njoints() const { return static_cast<int>(joints.size()); }
  int toolLink() const { return tool_link < 0 ? njoints() - 1 : tool_link; }
  /// The coordinates that move the tool (those of the joints on the path from the tool's link to the base, a mimic
  /// joint's being its leader's), ascending: a finger of a hand has few, whatever the hand's dof. Allocates.
  std::vector<int> toolCoordinates() const;

  /// Validates and computes the derived fields. Throws achain::Error naming the field.
  void finalize();

  /// Description equality (derived fields follow from it).
  bool sameDescription(const Model& o) const;
};

/// A rotation whose third column is the unit vector a (R_align for a joint placed by origin/axis).
Mat3 alignZ(const Vec3& a);

/// True when the joint variable is an angle (R, H, A, law): the joint rotates. The same answer as the joint model's
/// JointModel::angular() (a fixed joint has no variable and does not rotate), for code that has only the kind.
inline bool isAngular(JointKind k) { return k != JointKind::P && k != JointKind::Fixed; }

/// The joint model of a joint placed in the model's DH convention and following coordinate `coord` with
/// u = scale·q + offset (joint.cpp): its motion law and its placement (pre, post).
JointModel makeJointModel(const Joint& j, DHConvention convention, int coord, double scale = 1, double offset = 0);

/// A-pair geometry conversions (Robinson Eq. 3.3–3.4): ρ = a√6/3, l = a√3/2, ρ = (2√2/3) l.
inline double apairRhoFromSide(double side) { return side * std::sqrt(6.0) / 3.0; }
inline double apairRhoFromLeg(double leg) { return leg * 2.0 * std::sqrt(2.0) / 3.0; }
inline double apairSideFromRho(double rho) { return rho * 3.0 / std::sqrt(6.0); }
inline double apairLegFromRho(double rho) { return rho * 3.0 / (2.0 * std::sqrt(2.0)); }

/// The same arm written in the other DH convention (standard ↔ modified): the same tool
/// pose for every q; link frames move to the other convention's placement, and each link's
/// inertial is re-expressed there, so dynamics agree too. The base/tool transforms absorb the
/// constants that move across the chain's ends. Only serial chains (parent = i−1) convert.
Model convertConvention(const Model& m, DHConvention target);

}  // namespace achain
