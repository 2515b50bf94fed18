// A chain with flexible links (Tesar & Graves 1988 §2.1–2.3; digest shared/reference/tesar-flexible.md §1.2–§1.6):
// the rigid Model plus, for some links, an assumed-modes beam (model/flexible_link.hpp). The Model's joints stay
// one-axis screws; the modal coordinates live in this layer.
//
// Generalized coordinates φ = (q: the model's nv joint coordinates, then per flexible link, in joint order, its
// m_i modal coordinates, then — with a translating base — the base's translation x_b, 3 world coordinates in m).
// dof = nv + Σ m_i (+ 3). The paper's space arm: "the base link, (the spacecraft) could translate"; a rotating base
// is not handled.
//
// Kinematics (deflected forward kinematics). A flexible link's beam runs along its frame's x axis from the origin
// (the clamped root) to the tip (L, 0, 0). Its modes move everything attached distal to it (the child joints'
// frames and the tool, when attached to it) rigidly: by the tip translation d = δ(L)·q_i and the tip rotation
// θ = ψ(L)·q_i about the tip, both in the link frame:
//     X_child = X_link · Tip · D(q_i) · Tip⁻¹ · X_child,rigid,    Tip = Trans(L, 0, 0),   D = (exp(θ̃), d)
// The paper writes the rotation as [TΘ] = 1 + θ̃ (2.1-3); exp(θ̃) equals it to first order and stays a rotation,
// so the Jacobian below is the exact derivative of this forward kinematics (its rotation column for mode j is
// R_link·J_l(θ)·ψ_j(L), J_l the left Jacobian of SO(3); = R_link·ψ_j(L) when θ ∥ ψ_j, as for one torsion mode).
// The link's own frame does not move with its own modes; its interior deflection enters through the local inertia.
//
// Inertia (2.3-8/2.3-26): I*(φ) = Σ_i 𝒢_iᵀ·𝒯_i·ᶦI_i·𝒯_iᵀ·𝒢_i, with 𝒢_i = [6×dof Jacobian of link i's frame origin
// (linear velocity of the origin, angular velocity, world); the 0/1 selector of link i's modal rates], 𝒯_i =
// blockdiag(R_i, R_i, 1) and ᶦI_i the local (6+m_i) inertia about the link origin (flexibleLinkMatrices(); a rigid
// link's is the 6×6 [[m·1, m·c̃ᵀ], [m·c̃, I_o]]). With no flexible link this is the composite-rigid-body mass matrix
// (massMatrix with LegModel::Massless: A-pair leg masses are not included here). K* = blockdiag of the links' K on
// the modal coordinates (no joint springs, no gravity stiffness).
#pragma once
#include <string>
#include <vector>

#include <Eigen/Cholesky>

#include <achain/math/progress.hpp>
#include <achain/math/modal.hpp>
#include <achain/model/flexible_link.hpp>
#include <achain/model/model.hpp>

namespace achain {

/// Options of makeFlexibleChain.
struct FlexibleChainOptions {
  bool translating_base = false;  ///< the base (world ← frame 0 = Trans(x_b)·model.base) translates freely
  double base_mass = 0;           ///< kg, the base body's mass (its CoM at frame 0's origin); > 0 with translating_base
};

/// The flexible links of a rigid model (immutable once built). The chain refers to its Model, never copies it:
/// the model must outlive the chain, as a Data's model does.
struct FlexibleChain {
  const Model& model() const { return *rigid; }
  const Model* rigid = nullptr;                 ///< the rigid model (makeFlexibleChain's argument)
  std::vector<FlexibleLink> links;              ///< per flexible link (in joint order)
  std::vector<int> joint;                       ///< per flexible link: the joint whose link it is
  std::vector<FlexibleLinkMatrices> matrices;   ///< per flexible link: flexibleLinkMatrices(links[k])
  std::vector<int> offset;                      ///< per flexible link: index of its first modal coordinate in φ
  std::vector<int> flex_of_joint;               ///< per joint: index into links, or −1 (rigid)
  std::vector<MatX> tip_translation;            ///< per flexible link: 3×m, column j = δ_j(L) (link frame)
  std::vector<MatX> tip_rotation;               ///< per flexible link: 3×m, column j = ψ_j(L)
  MatX K;                                       ///< dof×dof K* (flexibleStiffness)
  int nv = 0;                                   ///< joint coordinates
  int nf = 0;                                   ///< modal coordinates
  int nb = 0;                                   ///< base coordinates (3 with a translating base, else 0)
  double base_mass = 0;                         ///< kg (translating base)
  int dof = 0;                                  ///< nv + nf + nb
};

/// Builds the chain. Each entry's joint must exist and appear once; the descriptions are checked by
/// flexibleLinkMatrices and their local inertia must be positive definite. Throws achain::Error naming the entry.
FlexibleChain makeFlexibleChain(const Model& model, const std::vector<FlexibleLinkEntry>& links,
                                const FlexibleChainOptions& options = {});
/// A temporary model would not outlive the chain.
FlexibleChain makeFlexibleChain(Model&& model, const std::vector<FlexibleLinkEntry>& links,
                                const FlexibleChainOptions& options = {}) = delete;

/// Scratch and results of the flexible-chain algorithms; sized once by the constructor, reused every call.
struct FlexibleChainData {
  explicit FlexibleChainData(const FlexibleChain& chain);
  SE3 base;                    ///< world ← frame 0 (moved by the base translation)
  std::vector<SE3> oMi;        ///< deflected link frames (world)
  std::vector<SE3> oMj;        ///< joint axis frames (world): the axis is z, through the origin
  std::vector<Vec3> tip;       ///< per joint with a flexible link: the deflected tip point (world)
  std::vector<Mat3> tip_rot;   ///< per joint with a flexible link: world rotation rate per unit θ̇: R_link·J_l(θ)
  std::vector<Vec3> theta;     ///< per joint with a flexible link: the tip rotation θ = ψ(L)·q (link frame)
  SE3 oMtool;                  ///< deflected tool frame
  std::vector<MatX> J;         ///< per joint: 6×dof Jacobian of the link frame's origin (rows v, ω; world)
  MatX J_tool;                 ///< 6×dof Jacobian of the tool frame's origin
  MatX I;                      ///< dof×dof: I*(φ) after flexibleMassMatrix
  MatX work;                   ///< 6×dof scratch
  // dynamics scratch
  MatX Ia, Ib;                 ///< dof×dof
  MatX Wc, C2;                 ///< 6×m, dof×m (the coupling blocks of one flexible link)
  VecX p, v, c, a[4], w[4];    ///< dof
  Eigen::LLT<MatX> llt, llt_f;
};

/// Deflected forward kinematics at φ (size dof): oMi, oMj, tip, tip_rot, theta, oMtool.
void flexibleKinematics(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& phi);

/// Kinematics, then the 6×dof world Jacobians of every link frame origin and of the tool (data.J, data.J_tool):
/// columns for the joint coordinates and for every modal coordinate proximal to the frame.
void flexibleJacobians(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& phi);

/// I*(φ) (dof×dof) into data.I (runs flexibleJacobians). Symmetric positive definite when every direction a
/// coordinate moves carries mass.
void flexibleMassMatrix(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& phi);

/// K* (dof×dof): the links' stiffness on their modal coordinates, zero on the joints.
MatX flexibleStiffness(const FlexibleChain& chain);

/// How far the links bend at φ: the tool's deflected pose against the rigid pose (same q, modes zero) and the
/// largest tip rotation |θ| of a link, against the paper's small-angle limits (3° for < 5 % geometric error; 5°
/// for the modal model, beyond which it advises sub-links).
struct FlexibleDeflection {
  Vec3 tool_displacement = Vec3::Zero();  ///< deflected − rigid tool position, world (m)
  double tool_position_error = 0;         ///< |tool_displacement| (m)
  double tool_rotation_error = 0;         ///< angle of R_rigidᵀ·R_deflected (rad)
  double max_link_rotation = 0;           ///< max over links of |θ| at the tip (rad)
  int max_rotation_joint = -1;            ///< the joint whose link has it (−1 without flexible links)
  bool above_3deg = false;                ///< max_link_rotation > 3°
  bool above_5deg = false;                ///< max_link_rotation > 5°
};
FlexibleDeflection flexibleDeflection(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& phi);

/// Linearised modes about configuration q (size nv) with the joints locked and the links undeflected:
/// det(K_ff − ω²·I*_ff) = 0 on the modal coordinates (naturalModes; shapes over the nf modal coordinates), and the
/// base coordinates with a translating base (then 3 rigid-body modes at ω = 0 come first; shapes over nf + 3).
NaturalModes flexibleChainModes(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& q);

/// Static deflection under a wrench at the tool (force and moment about the tool origin, world, SI), joints locked,
/// linearised at the undeflected configuration q: K_ff·φ_f = 𝒢_fᵀ·w (𝒢_f: the tool Jacobian's modal columns).
/// Refused with a translating base (a free body has no static equilibrium under a load).
struct FlexibleStaticResult {
  VecX phi;                    ///< dof: (q, φ_f)
  VecX modal;                  ///< nf: φ_f
  FlexibleDeflection deflection;  ///< at phi
};
FlexibleStaticResult flexibleStaticDeflection(const FlexibleChain& chain, FlexibleChainData& data,
                                              const Eigen::Ref<const VecX>& q, const Vec3& force, const Vec3& moment);

/// The system's centre of mass (world): the links' (their CoMs moved by the deflection's first moment R·I_mq·q), plus
/// the base's mass at frame 0's origin with a translating base; with `jacobian` also its 3×dof Jacobian (exact
/// derivative of that point). Runs flexibleJacobians.
Vec3 flexibleCenterOfMass(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& phi,
                          MatX* jacobian = nullptr);

// ---- Dynamics (Lagrange, 2.3-16…2.3-25): τ = I*(φ)·φ̈ + c(φ, φ̇) + K*·φ, no gravity, no damping ----
// c(φ, φ̇) = İ*·φ̇ − ½·∂(φ̇ᵀI*φ̇)/∂φ is the paper's φ̇ᵀP*φ̇. The derivatives of I* are taken by central differences
// (step 1e-6 in each coordinate's SI unit; rad, m), which costs 2·dof + 2 evaluations of I* per call and is accurate
// to about 1e-9 relative; the exact second-order influence coefficients (2.3-37) are not implemented.

/// c(φ, φ̇) (size dof) into c.
void flexibleBiasForces(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& phi,
                        const Eigen::Ref<const VecX>& phidot, Eigen::Ref<VecX> c);

/// τ = I*·φ̈ + c + K*·φ: the joint torques (first nv entries) and modal forces (the rest) that produce φ̈.
void flexibleInverseDynamics(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& phi,
                             const Eigen::Ref<const VecX>& phidot, const Eigen::Ref<const VecX>& phiddot,
                             Eigen::Ref<VecX> tau);

/// φ̈ = I*⁻¹·(τ − c − K*·φ) for generalized forces τ (size dof: joint torques, then modal forces; a tool wrench w
/// enters as J_toolᵀ·w). With lock_joints the joints are held (servo-stiff: their accelerations are 0, their rates
/// must be 0, their torques are what holding takes) and only the modal rows are solved, I*_ff·φ̈_f = (τ − c − K*·φ)_f.
void flexibleForwardDynamics(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& phi,
                             const Eigen::Ref<const VecX>& phidot, const Eigen::Ref<const VecX>& tau,
                             Eigen::Ref<VecX> phiddot, bool lock_joints = false);

/// ½·φ̇ᵀ·I*·φ̇ + ½·φᵀ·K*·φ.
double flexibleEnergy(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& phi,
                      const Eigen::Ref<const VecX>& phidot);

/// One classical RK4 step of length dt with τ held, in place (lock_joints as in flexibleForwardDynamics).
void flexibleStep(const FlexibleChain& chain, FlexibleChainData& data, Eigen::Ref<VecX> phi, Eigen::Ref<VecX> phidot,
                  const Eigen::Ref<const VecX>& tau, double dt, bool lock_joints = false);

/// 2π/ω_max/20: ω_max the highest natural frequency of det(K* − ω²·I*(φ)) = 0 over all coordinates (joints free),
/// or over the modal coordinates with lock_joints. RK4 is stable for ω·dt < 2.8; here ω_max·dt = 0.31.
double flexibleStableStep(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& phi,
                          bool lock_joints = false);

// ---- For output and drawing ----

/// One name per modal coordinate, "joint_name q1 (y bending)", in φ's order; then "base x", "base y", "base z" with a
/// translating base when `base`.
std::vector<std::string> flexibleCoordinateNames(const FlexibleChain& chain, bool base = true);

/// A flexible link's beam centreline for drawing, `samples` (≥ 2) points from the root (u = x/L = 0) to the tip
/// (u = 1), world, as columns of 3×samples matrices: deflected = oMi(φ)·((u·L, 0, 0) + Σ_j δ_j(u)·q_j) (the link's
/// frame moved by the proximal links' modes, its own modes' shapes by modeShapeValues; torsion does not move the
/// centreline), rigid = the same straight beam in the rigid chain (φ with every modal coordinate zero, as
/// flexibleDeflection's reference). The deflected last point is data.tip[joint]. `joint` must carry a flexible link.
/// Leaves data holding the kinematics of φ.
struct FlexibleLinkCurve {
  std::vector<double> u;  ///< the stations, evenly spaced
  MatX deflected;         ///< 3×samples, m
  MatX rigid;             ///< 3×samples, m
};
FlexibleLinkCurve flexibleLinkCurve(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& phi,
                                    int joint, int samples);

// ---- Time response to a tool load (what `achain flex-simulate` and the wasm model.flexibleSimulate run) ----

/// The load's time history: a step from `start`, a pulse from `start` to `stop`, or a sine sin(2π·frequency·(t −
/// start)) from `start`, times the wrench.
enum class FlexibleLoadKind { Step, Pulse, Sine };
const char* toString(FlexibleLoadKind k);
/// "step", "pulse" or "sine"; throws achain::Error otherwise.
FlexibleLoadKind flexibleLoadKindFromString(const std::string& s);

/// (An aggregate: FlexibleSimulationOptions{load, frequency, start, stop, duration, dt, samples, lock_joints}.)
struct FlexibleSimulationOptions {
  FlexibleLoadKind load = FlexibleLoadKind::Step;
  double frequency = 0;    ///< Hz (sine, > 0)
  double start = 0;        ///< s
  double stop = 0;         ///< s (pulse, > start)
  double duration = 2;     ///< s, in (0, 1e4]
  double dt = 0;           ///< s; 0: flexibleStableStep (then evened out to divide the duration)
  int samples = 101;       ///< output samples from 0 to duration, 2 … 100000
  bool lock_joints = true; ///< joints held (servo-stiff) or free with zero torque
};

/// The response, sampled: SI (modal coordinates in the chain's SI units).
struct FlexibleSimulation {
  double dt = 0;                   ///< the step used, s (duration / steps)
  long steps = 0;
  std::vector<double> t;           ///< samples
  MatX modal;                      ///< samples × nf
  MatX tool_displacement;          ///< samples × 3, deflected − initial tool position (world, m)
  MatX base_translation;           ///< samples × 3 with a translating base, else 0 × 3
  double peak_tool_deflection = 0; ///< max over every step of |tool − initial tool|, m
  double peak_link_rotation = 0;   ///< max over every step and link of |θ| at the tip, rad
};

/// From rest at q (size nv) with the links undeflected (and the base at 0), the wrench (force; moment about the tool
/// origin, world) times the load history acts at the tool (generalized forces J_toolᵀ·w, held over each RK4 step of
/// flexibleStep). Throws achain::Error naming the option ("flexibleSimulate: frequency: ..."). `progress` is asked
/// every 1 % of the steps or every 1000 steps, whichever comes first; a stop throws Cancelled
/// ("flexibleSimulate: cancelled at step k of N (t = … s)").
FlexibleSimulation flexibleSimulate(const FlexibleChain& chain, FlexibleChainData& data, const Eigen::Ref<const VecX>& q,
                                    const Vec3& force, const Vec3& moment, const FlexibleSimulationOptions& options,
                                    const Progress& progress = {});

}  // namespace achain
