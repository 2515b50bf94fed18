// Branch tracking while dragging (issue 14, item 3): every IK solution branch of the previous frame is
// followed to the new target by a short path-tracking step instead of a solve from scratch.
//
// Each branch is continued on its own: the pose path from the previous target to the new one (straight in
// position, geodesic in orientation) is followed by a predictor–corrector: the branch's motion in the last
// frame predicts the next (a secant predictor, which carries a branch straight through a point where it
// crosses another, at a singularity the drag passes through), and Newton steps on the chain's own FK and tool
// Jacobian correct it (least squares for chains with fewer than six coordinates). A segment whose Newton step exceeds
// max_joint_step, or that does not converge, is halved (up to max_halvings times), so a branch can neither
// jump to another branch nor be lost to a large frame step. A branch that cannot be continued even on the
// shortest segment ends there: near a fold (a singularity where two real branches meet and turn complex)
// both branches end in the same frame and each names the other (event Singular, partner); a branch that
// ends alone has event Ended. Two branches that arrive at the same configuration (within meet_distance)
// have met at a singularity too: the later one ends with event Singular, partner the earlier one. Periodic
// coordinates are shifted by whole periods into the limits when that fits (the same pose); a branch
// that crosses a limit stays tracked with within_limits false and event LeftLimits (EnteredLimits on the
// way back). Branches born at a fold are not found by tracking: solve from scratch again to pick them up.
// Allocation-free per frame (fixed capacity; the Data's FK).
#pragma once
#include <array>
#include <cstdint>

#include <achain/ik/ik.hpp>

namespace achain {

/// What happened to a branch in the last trackBranches call.
enum class BranchEvent : std::uint8_t {
  None,           ///< followed to the new target
  LeftLimits,     ///< followed, and left the joint limits in this frame
  EnteredLimits,  ///< followed, and came back inside the limits in this frame
  Singular,       ///< ended at a singularity: met branch `partner` (both ended, or it arrived on it)
  Ended,          ///< ended: could not be continued (the target left its reach), no partner branch
};

const char* toString(BranchEvent e);

struct IkBranches {
  static constexpr int kCapacity = 16;
  int count = 0;  ///< branches in [0, count); ended ones stay (alive false) so the indices are stable
  std::array<std::array<double, 6>, kCapacity> q{};  ///< first nq entries used
  std::array<bool, kCapacity> alive{}, within_limits{};
  std::array<BranchEvent, kCapacity> event{};
  std::array<int, kCapacity> partner{};    ///< Singular: the branch it met (−1 if none)
  std::array<double, kCapacity> error{};   ///< pose error at q after the step (m + rad)
  /// the branch's motion in the last frame (the secant predictor of the next one; 0 after addBranch)
  std::array<std::array<double, 6>, kCapacity> velocity{};
  SE3 target;                              ///< the pose every alive branch solves
  int newton_steps = 0;                    ///< Newton iterations of the last frame (all branches)
  int halvings = 0;                        ///< segment halvings of the last frame (all branches)
};

struct BranchTrackOptions {
  double max_joint_step = 0.25;  ///< largest accepted Newton step per coordinate (rad, or m); larger halves the segment
  int max_halvings = 14;         ///< halvings of one segment before the branch is declared ended
  double tolerance = 1e-10;      ///< pose error (m + rad) at the new target
  double meet_distance = 1e-6;   ///< two alive branches within this (every coordinate, modulo periods) have met
};

/// Starts an empty set at `target` (nq ≤ 6; throws Error otherwise).
void startBranches(const Model& model, const SE3& target, IkBranches& branches);

/// Adds one branch (nq values solving branches.target, e.g. from ikClosed or ikGeneral6R); returns its index.
/// Throws Error when the set is full or q is not finite.
int addBranch(const Model& model, IkBranches& branches, const double* q);

/// Follows every alive branch to `target` (from checkTarget) and sets its event; branches.target becomes
/// `target`. Uses `data`'s FK scratch. Throws Error for bad options.
void trackBranches(const Model& model, Data& data, const SE3& target, IkBranches& branches,
                   const BranchTrackOptions& options = {});

}  // namespace achain
