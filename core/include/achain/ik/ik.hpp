// Inverse kinematics: common types, target checking, pose error, and the dispatcher ikAll().
//
// Algorithms (one per file):
//   closed_form.hpp   the closed forms, allocation-free: prototype-class 4-joint chains (R/A joints,
//                     axes 2 ∥ 3) and wrist-partitioned 6R chains (PUMA class, 8 solutions + flags)
//   algebraic_4a.hpp  Study-parameter (kinematic mapping) IK of 4A-chains (Robinson/Pfurner)
//   general6r.hpp     every solution of a general 6R chain (Raghavan–Roth / Manocha–Canny eigenvalue form)
//   three_r_three_p.hpp  every solution of a 3R3P chain (at most 2): Euler angles about the revolute axes, then
//                     a 3×3 linear system for the prismatic joints
//   sweep.hpp         every solution of a four-joint rotating chain (any 4A/4R/H chain): the orientation sweep
//   numeric.hpp       Levenberg–Marquardt with joint limits inside the solver, any R/P/H/A chain
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <achain/model/data.hpp>
#include <achain/model/caps.hpp>

namespace achain {

/// ok: reached within tolerance inside the limits. unreachable: no configuration reaches it (q is the
/// nearest reachable one, residual says how far). singular: degenerate target family (q is one member).
/// limits: reachable only outside the joint limits.
enum class IkStatus { Ok, Unreachable, Singular, Limits };
enum class IkMethod { Auto, Closed, Algebraic, General6R, Sweep, Numeric, ThreeRThreeP };

const char* toString(IkStatus s);
const char* toString(IkMethod m);
IkMethod ikMethodFromString(const std::string& s);  ///< "auto|closed|algebraic|general6r|3r3p|sweep|numeric", throws Error

struct IkOptions {
  double position_weight = 1.0;     ///< 1/m
  double orientation_weight = 1.0;  ///< 1/rad
  bool position_only = false;       ///< solve the tool position only
  int max_iterations = 100;         ///< LM iterations per start
  double tolerance = 1e-10;         ///< success: weighted error norm ≤ tolerance
  int restarts = 0;                 ///< extra random starts when the seed's start fails
  std::uint64_t random_seed = 1;    ///< seed of the restart generator (deterministic)
  bool respect_limits = true;       ///< enforce position limits inside the solver
  /// Singularity escape for dragging: when the start from the seed fails (at a stretched or folded pose
  /// the gradient of the pose error can vanish), one more start from the seed nudged by 3° (3 mm for
  /// prismatic joints) per coordinate, alternating in sign and kept inside the limits; its result is
  /// kept if it succeeds or at least halves the residual. Continuity is kept: the nudge is small.
  bool escape_singularity = false;
  /// Continuity bound for dragging (0: off): every coordinate of the answer stays within max_step of
  /// the seed (rad for angular coordinates, m for linear ones). The box [seed − max_step, seed + max_step]
  /// joins the joint limits inside the solver (the same bounded active-set step), so a target farther
  /// than one step, or outside the reachable set, is approached along the boundary of the box and of the
  /// limits — the arm slides or stops, it never jumps to another branch. The escape nudge and the
  /// restarts stay inside the box, and the escape's start is kept when it gets 10 % closer (a far target
  /// is not reached within one step). A result that rests on the box is 'unreachable' (within this step);
  /// the caller solves again from it to go on.
  double max_step = 0;
  /// ikAll's numeric multi-start (0: exact duplicates only): a solution whose every coordinate lies within
  /// min_separation of one already kept (rad, or m for linear coordinates) is the same posture and is
  /// dropped; kept first are the seed's start, then the solutions nearest the seed. In position-only mode on
  /// a chain with spare joints the solutions form a continuum, and this keeps distinct postures of it.
  double min_separation = 0;
};

struct IkResult {
  VecX q;
  IkStatus status = IkStatus::Unreachable;
  double position_error = 0;     ///< m
  double orientation_error = 0;  ///< rad (0 in position-only mode)
  double residual = 0;           ///< weighted error norm
  int iterations = 0;
};

struct IkSolution {
  VecX q;
  bool within_limits = true;
  double position_error = 0;
  double orientation_error = 0;
  std::vector<std::pair<std::string, std::string>> flags;  ///< e.g. {"arm","left"}
};

struct IkAllResult {
  IkStatus status = IkStatus::Unreachable;
  IkMethod method = IkMethod::Numeric;
  std::vector<IkSolution> solutions;       ///< inside the limits, nearest the seed first
  std::vector<IkSolution> outside_limits;  ///< exact solutions outside the limits
  double residual = 0;                     ///< smallest residual (0 when ok)
  /// unreachable: the nearest reachable configuration inside the limits (weighted least squares).
  bool has_nearest = false;
  IkSolution nearest;
  std::string note;                        ///< human-readable detail (degenerate family, fallback, …)
  /// singular family: q(t) = family_q0 + t·family_dir (in the joint space) for the free parameter t.
  VecX family_q0, family_dir;
};

/// Throws achain::Error if the 4×4 target is malformed: non-finite entries ("target[1][3]: must be a
/// finite number"), last row not (0 0 0 1), rotation not orthonormal or not proper (tolerance 1e-6).
SE3 checkTarget(const Mat4& T, const std::string& what = "target");

// Bounds of the IK inputs (kMaxTargetDistance, kMaxIkRestarts, kMaxIkIterations): achain/model/caps.hpp.

/// Position error |p − p*| and orientation angle |log(Rᵀ R*)| between two poses.
void poseError(const SE3& a, const SE3& b, double& position_error, double& orientation_error);

/// Orientation error vector log(R* Rᵀ) (axis·angle, world frame), robust near π.
Vec3 rotationLog(const Mat3& R);

/// Shorthand: FK of q and the pose error to the target.
void poseErrorAt(const Model& model, Data& data, const VecX& q, const SE3& target, double& pe, double& oe);

/// All solutions by the best method for the chain (method Auto: closed form when the chain has one, else
/// the exact 3R3P solver for three revolute and three prismatic joints (at most 2 solutions; numeric
/// multi-start when the arm or target is degenerate for it), the general 6R eigenvalue method for a 6R chain
/// (numeric multi-start when its geometry is degenerate for it), the orientation sweep for a four-joint rotating chain (R, A, H, law), otherwise numeric multi-start). seed (optional) orders the solutions nearest-first. The closed and
/// numeric methods use data's scratch (Data::ik).
IkAllResult ikAll(const Model& model, Data& data, const SE3& target, IkMethod method, const IkOptions& options,
                  const VecX* seed = nullptr);

/// The same with a Data of its own (one-off calls; loops should keep a Data).
IkAllResult ikAll(const Model& model, const SE3& target, IkMethod method, const IkOptions& options,
                  const VecX* seed = nullptr);

/// True when the chain has a closed-form solver (prototype class or wrist-partitioned 6R).
bool hasClosedForm(const Model& model);

}  // namespace achain
