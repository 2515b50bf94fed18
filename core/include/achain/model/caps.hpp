// Every bound the library puts on its inputs and on the work one call may do, in one place (documented in
// docs/reliability.md#resource-caps). A value past a bound is refused with an achain::Error naming the input, before
// any memory is taken or time spent: never an out-of-memory kill, an hours-long call or a silent overflow.
#pragma once
#include <cstddef>

namespace achain {

// ---- The physical range of a robot description (Model::finalize): typing errors or units gone wrong
// (1e200 m) are refused at load instead of overflowing later (1e200 m squared is inf).
constexpr double kMaxLength = 1e3;    ///< m: a, d, ρ, leg radius, CoM, base/tool translation, pitch, law terms
constexpr double kMaxMass = 1e6;      ///< kg
constexpr double kMaxInertia = 1e6;   ///< kg·m²: inertia entries, rotor inertias
constexpr double kMaxGravity = 1e3;   ///< m/s², each component and the norm
constexpr double kMaxLimit = 1e6;     ///< rad or m: finite position limits, mimic terms, gear ratio
constexpr double kMaxRate = 1e9;      ///< finite velocity / acceleration / effort limits, friction

/// Joints in one model (any reader). The mass matrix and its factor are dof², so 1000 joints take about
/// 30 MB and 40 ms for one inverse dynamics call (10,000 joints took 2.4 GB and 4.5 s).
constexpr int kMaxJoints = 1000;
/// Joints for the outputs that grow as dof³ (Freeman's P*, third-order influence coefficients D = 6·dof³):
/// 100 joints make 48 MB.
constexpr int kMaxJointsCubic = 100;

// ---- Readers.
constexpr std::size_t kMaxRobotFileBytes = std::size_t(16) << 20;        ///< a robot file (JSON or URDF)
constexpr std::size_t kMaxTrajectoryFileBytes = std::size_t(256) << 20;  ///< a trajectory file
constexpr int kMaxJsonDepth = 64;                                    ///< nesting of arrays and objects
constexpr std::size_t kMaxJsonStringBytes = std::size_t(64) << 10;  ///< one string or key (64 KiB)

// ---- Work per call.
constexpr double kMaxTargetDistance = 1e6;  ///< m: an IK target's distance from the world origin
constexpr int kMaxIkRestarts = 10000;        ///< numeric IK restarts per call
constexpr int kMaxIkIterations = 100000;     ///< numeric IK iterations per start
/// Numeric IK weights (position, orientation): only their ratio matters, and outside this range their squares
/// overflow or vanish (a weight of 1e308 ran unbounded).
constexpr double kMinIkWeight = 1e-6;
constexpr double kMaxIkWeight = 1e6;
constexpr double kMaxTrajectorySamples = 1e6;  ///< samples of one sampled trajectory (duration × rate + 1)
/// samples × coordinates of one sampled trajectory or recorded run (each of q, qd, qdd: 160 MB at the cap);
/// 1,000 joints × 1e6 samples ended in bad_alloc
constexpr double kMaxTrajectoryValues = 2e7;
constexpr int kMaxCartesianKnots = 10000;      ///< IK solutions along one Cartesian path
constexpr double kMinDuration = 1e-6;          ///< s: shortest trajectory duration given explicitly
constexpr double kMaxDuration = 1e7;           ///< s: longest trajectory or simulation duration (116 days)
constexpr double kMaxSimulationSteps = 1e8;    ///< integration steps of one simulation (duration / dt)

// ---- Workspace (defaults of WorkspaceOptions; a caller may raise them: CLI --max-bytes / --max-evaluations,
// JS options maxBytes / maxEvaluations). The estimate is made before the grid is allocated.
constexpr double kWorkspaceMaxCells = double(1u << 30);   ///< cells of the grid box (1 bit each)
constexpr double kWorkspaceMaxBytes = double(1u << 30);   ///< estimated memory of one job (1 GiB)
constexpr double kWorkspaceMaxEvaluations = 2e10;          ///< estimated point evaluations of one job
/// Nominal single-thread speed for the time estimate (point evaluations per second, measured on the project's
/// 2-core machine, docs/reliability.md#resource-caps): Robinson moves a point by one 3×4 motion (1.9e7/s on the
/// prototype), Castelli and Monte-Carlo run a forward kinematics chain per evaluation (4.6e5/s).
constexpr double kWorkspaceRobinsonRate = 2e7;
constexpr double kWorkspaceFkRate = 5e5;

}  // namespace achain
