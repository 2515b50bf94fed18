// Allocation-free closed-form IK with fixed-size output (the hot path behind ikAll's closed forms).
// One ClosedIkWorkspace per model (holds the standard-DH copy of the chain and precomputed constants);
// ikClosed() fills a ClosedIkSolutions (fixed arrays, flags as bits) without touching the heap for the
// regular targets. Every candidate is verified by the chain product the solver already has (4A: the four
// links from the sin/cos it computed; 6R: the wrist T36 against the target seen from T03, which the arm
// solution built), not by a full FK: the error is |Δp| and the rotation angle 2·asin(‖R − R*‖_F / 2√2)
// (exact, well-conditioned near 0).
// Cold cases — a degenerate/singular target (family or free angle) — call the general solver and
// convert (fallback = true, allocates). An unreachable target reports count 0 without the nearest
// least-squares pose (ikAll computes that).
// Solution sets equal ikAll(…, IkMethod::Closed, …): same candidates, representatives, duplicates
// removal and order (inside the limits nearest the seed first, then outside the limits).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <achain/ik/ik.hpp>

namespace achain {

/// Configuration flags of a closed-form solution (bits). Wrist-partitioned 6R only; 0 for the 4A class.
enum ClosedIkFlag : std::uint8_t {
  kIkArmRight = 1,       ///< arm right (else left)
  kIkElbowUp = 2,        ///< elbow up (else down)
  kIkWristNoflip = 4,    ///< wrist noflip (else flip)
  kIkWristSingular = 8,  ///< wrist singular (sin θ5 = 0)
  kIkHasFlags = 16,      ///< the flags above are meaningful
};

struct ClosedIkSolution {
  std::array<double, 6> q{};  ///< first nq entries used
  double position_error = 0;  ///< m
  double orientation_error = 0;  ///< rad
  bool within_limits = false;
  std::uint8_t flags = 0;  ///< ClosedIkFlag bits
};

struct ClosedIkSolutions {
  static constexpr int kCapacity = 32;
  IkStatus status = IkStatus::Unreachable;
  int count = 0;     ///< solutions in sol[0 .. count)
  int n_inside = 0;  ///< sol[0 .. n_inside) inside the limits (nearest the seed first), then outside
  bool fallback = false;  ///< degenerate target: solved by the general (allocating) solver
  std::array<ClosedIkSolution, kCapacity> sol{};
};

class ClosedIkWorkspace {
 public:
  /// Throws Error (naming the failed condition) if the chain has no closed form.
  explicit ClosedIkWorkspace(const Model& model);
  const Model& model() const { return *model_; }
  bool prototypeClass() const { return proto_; }

 private:
  friend void ikClosed(ClosedIkWorkspace&, const SE3&, const double*, ClosedIkSolutions&, double);
  const Model* model_;
  Model S_;  ///< standard-DH copy
  bool proto_ = false;
  int nq_ = 0;
  std::array<double, 6> ca_{}, sa_{};  ///< cos/sin of the (standard) α's
  std::array<double, 6> period_{};     ///< jointPeriod of each joint
  SE3 base_inv_, tool_inv_;
  bool tool_identity_ = false;
  Mat3 rx_last_t_;            ///< Rx(α_last)ᵀ
  double c_a2_ = 1;           ///< sign of cos α₂ (axes 2 ∥ 3)
  double ca_e_ = 1, sa_e_ = 0, cb_e_ = 1, sb_e_ = 0;  ///< the Euler decomposition's two twist angles
  double atan_a1_ = 0, sgn_a1_ = 1;  ///< 4A: atan2(0, a₂) and its sign
  double h_ = 0, L3_ = 0, beta_ = 0, cbeta_ = 1, sbeta_ = 0;  ///< 6R: arm constants
  std::array<ClosedIkSolution, ClosedIkSolutions::kCapacity> in_, out_;  ///< scratch (inside / outside limits)
};

/// All closed-form solutions of target (seed: nq values or nullptr). Allocation-free unless fallback.
void ikClosed(ClosedIkWorkspace& ws, const SE3& target, const double* seed, ClosedIkSolutions& out,
              double tolerance = 1e-9);

/// Flags as ikAll reports them ({"arm","right"}, …; empty for the 4A class).
std::vector<std::pair<std::string, std::string>> closedIkFlagStrings(std::uint8_t flags);

}  // namespace achain
