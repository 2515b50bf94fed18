// The A-pair as its exact mechanism (issue 12, item 5; docs/dynamics.md "The exact A-pair"):
// a Griffis–Duffy platform in Robinson's special geometry — two congruent equilateral plates of side
// a joined by six legs of length l = a√3/2 with spherical ends (anchors of model/apair.hpp).
//
// ApairPlatform closes one A-pair: given θ_v (the platform's rotation about the joint axis, the Z angle
// of R = Rz(θ_v)·Ry(β)·Rx(α)), it solves the other five pose coordinates x = (p_x, p_y, p_z, α, β)
// from the six leg-length equations f_k = |p + R P_k − B_k|² − l² = 0 by Gauss–Newton (the 6×5
// system is consistent on the self-motion: the architecture is singular, rank 5), continuing from the
// previous solution. First and second derivatives of the pose with respect to θ_v follow by implicit
// differentiation of f(x(θ), θ) = 0 (no finite differences).
//
// ExactApairChain composes these along a chain (each A-pair's base plate rides on the previous link)
// and forms Freeman's model by the transfer over all bodies — the links (platform + attached link)
// and every leg as a uniform slender rod between its spherical joints (no inertia about its own axis):
//   I* = Σ M G_cᵀG_c + G_ωᵀ I G_ω,  P* per freeman.hpp (2-197),  T^L = Σ G_cᵀ M g.
// Joints other than A-pairs with ρ > 0 (R, P, H, law joints; an A-pair with ρ = 0 is an R-pair) move
// as in the serial model.
#pragma once
#include <array>
#include <vector>

#include <achain/dynamics/freeman.hpp>
#include <achain/model/apair.hpp>

namespace achain {

/// One A-pair's platform relative to its base plate (base-plate frame: origin at the base triangle's
/// centroid, z along the joint axis), and its first and second θ_v-derivatives.
struct ApairPlatformState {
  double theta = 0;                   ///< θ_v, rad
  Eigen::Matrix<double, 5, 1> x;      ///< p_x, p_y, p_z (m), α, β (rad)
  Eigen::Matrix<double, 5, 1> x1, x2; ///< dx/dθ_v, d²x/dθ_v²
  Mat3 R = Mat3::Identity();          ///< base plate ← platform rotation
  Vec3 p = Vec3::Zero();              ///< platform centroid in the base plate
  Vec3 dp = Vec3::Zero(), ddp = Vec3::Zero();  ///< ∂p/∂θ_v, ∂²p/∂θ_v²
  Vec3 w = Vec3::Zero(), dw = Vec3::Zero();    ///< angular velocity per unit θ̇_v and its θ_v-derivative
  std::array<Vec3, 6> P;              ///< platform anchors in the base plate
  double residual = 0;                ///< max over legs of | |P_k − B_k| − l |, m
  double derivative_residual = 0;     ///< max |F_x x' + F_θ| and |F_x x'' + …| (consistency of the 6×5 solves)
  int iterations = 0;                 ///< Gauss–Newton iterations of the last solve
};

class ApairPlatform {
 public:
  /// ρ > 0 (m). ρ = 0 is an R-pair: it has no platform and no legs (achain::Error).
  explicit ApairPlatform(double rho);
  double rho() const { return rho_; }
  double side() const { return side_; }
  double legLength() const { return l_; }
  const ApairAnchors& anchors() const { return anchors_; }

  /// Closes the platform at θ_v (rad, finite), starting from the previous solution (or, on the first
  /// call and after reset(), from plates parallel and centred at separation 0.7·l). Throws
  /// achain::Error "A-pair platform cannot close at θ_v = …°: residual … m" when Gauss–Newton fails.
  const ApairPlatformState& solve(double theta_v);
  /// Start the next solve from x = (p_x, p_y, p_z, α, β) instead of the previous solution.
  void setStart(const Eigen::Matrix<double, 5, 1>& x);
  void reset() { have_prev_ = false; }
  const ApairPlatformState& state() const { return s_; }

 private:
  double rho_, side_, l_;
  ApairAnchors anchors_;
  ApairPlatformState s_;
  Eigen::Matrix<double, 5, 1> start_;
  bool have_prev_ = false;
};

/// The exact closed-chain model of a serial chain whose A-pairs are Griffis–Duffy platforms (24 legs
/// for the prototype: six per A-pair, each A-pair one closed chain). Not for mimic or fixed joints.
/// The chain is the model's platforms and their scratch; the Model itself is referred to, never copied.
class ExactApairChain {
 public:
  /// Refers to `model` (no copy): the model must outlive the chain, as a Data's model does.
  explicit ExactApairChain(const Model& model);
  ExactApairChain(Model&&) = delete;  ///< a temporary model would not outlive the chain
  const Model& model() const { return model_; }

  /// Closes every platform at q (continuing from the previous call) and forms the joint screws and
  /// their derivatives. Throws achain::Error on non-finite q or when a platform cannot close.
  void update(const Eigen::Ref<const VecX>& q);
  /// Freeman's model at the last update: I*, P*, T^L (gravity). with_legs = false drops the leg rods.
  void freeman(bool with_legs, FreemanModel& out);
  /// τ = I* q̈ + q̇ᵀP* q̇ − T^L at q (calls update).
  void inverseDynamics(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& qd,
                       const Eigen::Ref<const VecX>& qdd, bool with_legs, Eigen::Ref<VecX> tau);
  /// Kinetic and potential energy at the last update, summed body by body from the body velocities
  /// (legs: ½ m v_c² + ½ (m l²/12) |ω⊥|²).
  double kineticEnergy(const Eigen::Ref<const VecX>& qd, bool with_legs) const;
  double potentialEnergy(bool with_legs) const;

  /// Platform of joint i (A-pair with ρ > 0), at the last update.
  const ApairPlatformState& platform(int joint) const;
  bool exact(int joint) const { return plat_idx_.at(joint) >= 0; }
  /// World pose of link i at the last update (compare with forwardKinematics).
  const SE3& link(int i) const { return oMi_[i]; }
  /// World leg endpoints of joint i at the last update.
  void legEndpoints(int joint, std::array<Vec3, 6>& B, std::array<Vec3, 6>& P) const;
  int legCount() const { return static_cast<int>(legs_.size()); }
  /// Largest closure residual of the last update (m).
  double residual() const;

 private:
  struct Leg {
    int joint, parent, k;
    double mass;
    Vec3 B, P;  ///< world, at the last update
  };
  /// Influence coefficients of a point fixed on the link of `link` (−1: base) at world x.
  void pointInfluence(int link, const Vec3& x, MatX& G, std::vector<Vec3>& H) const;
  void addBody(double m, const Mat3& I, const MatX& Gc, const std::vector<Vec3>& Hc, const MatX& Gw,
               const std::vector<Vec3>& Hw, FreemanModel& out) const;

  const Model& model_;
  int n_ = 0;
  std::vector<ApairPlatform> plats_;
  std::vector<int> plat_idx_;        ///< per joint: index into plats_ or −1
  std::vector<SE3> oMi_, plate_;     ///< link frames; frames the joint screws are referred to (axis/base plate)
  std::vector<std::vector<int>> anc_;  ///< per link: the joints moving it (base first)
  std::vector<Vec6> S_;                 ///< per joint: world screw (ω; v at the world origin) per unit q̇
  std::vector<std::vector<Vec6>> dS_;  ///< dS_[j][k] = ∂S_j/∂q_k
  std::vector<Leg> legs_;
  // scratch
  MatX Gc_, Gw_, GB_, GP_;
  std::vector<Vec3> Hc_, Hw_, HB_, HP_;
  FreemanModel fm_;
};

/// Closure of one A-pair over a range of θ_v against Robinson's model (Eq. 2.28: rotation θ_v about z,
/// translation ρ·sin(θ_v/2) along z; leg k from B_k to P_k(θ_v)), by continuation from `from` to `to`.
struct ApairClosureCheck {
  int samples = 0;
  double max_d_error = 0;          ///< max |p_z − ρ sin(θ_v/2)|, m
  double max_drift = 0;            ///< max in-plane drift |(p_x, p_y)|, m
  double max_tilt = 0;             ///< max |(α, β)|, rad
  double max_direction_error = 0;  ///< max over legs of |û_exact − û_Robinson|
  double max_residual = 0;         ///< max leg-length residual, m
  double max_derivative_error = 0; ///< max |dp/dθ − (ρ/2)cos(θ/2) ẑ|, |ω − ẑ| (implicit differentiation vs Robinson)
  int max_iterations = 0;
  /// Singular values of the 6×6 constraint Jacobian (rows: leg lines (û; (P − p) × û)), relative to the
  /// largest: σ6/σ1 stays at rounding level (architecture singular, rank 5 on and off the self-motion's
  /// tangent), σ5/σ1 away from 0 (rank exactly 5).
  double max_sigma6 = 0, min_sigma5 = 1;
};
ApairClosureCheck checkApairClosure(double rho, double from, double to, int samples);

}  // namespace achain
