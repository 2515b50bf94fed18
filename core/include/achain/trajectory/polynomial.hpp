// Point-to-point polynomial profiles: cubic (velocity boundary conditions), quintic (+ acceleration),
// septic (+ jerk). Rest to rest by default; boundary velocities / accelerations may be given.
#pragma once
#include <achain/trajectory/path.hpp>

namespace achain {

/// Boundary conditions beyond the positions; empty vectors mean zero.
struct PolynomialBoundary {
  VecX v0, v1;   ///< start / end velocity (cubic, quintic, septic)
  VecX a0, a1;   ///< start / end acceleration (quintic, septic); the cubic cannot take them
};

/// Polynomial degree 3, 5 or 7 per joint on [0, T]; jerk at the ends is zero for the septic.
class PolynomialPath final : public JointPath {
 public:
  PolynomialPath(int degree, const VecX& q0, const VecX& q1, double T, const PolynomialBoundary& bc = {});
  int dof() const override { return static_cast<int>(coef_.cols()); }
  double duration() const override { return T_; }
  void evaluate(double t, VecX& q, VecX& qd, VecX& qdd) const override;
  std::vector<std::vector<double>> breakpoints() const override;
  std::string profile() const override;
  int continuity() const override { return (degree_ - 1) / 2; }
  int degree() const { return degree_; }
  /// Coefficients in the normalised time τ = t/T: q_j(t) = Σ_k coef(k, j) τ^k.
  const MatX& coefficients() const { return coef_; }

  /// Peak |ds/dτ| and |d²s/dτ²| of the rest-to-rest normalised profile s(τ) (0 → 1):
  /// cubic 3/2 and 6; quintic 15/8 and 10/√3; septic 35/16 and 7.5132.
  static void peakFactors(int degree, double& velocity, double& acceleration);
  /// Shortest T for a rest-to-rest move that keeps every joint within the speed and acceleration limits.
  static double minimumDuration(int degree, const VecX& q0, const VecX& q1, const RateLimits& limits);

 private:
  int degree_;
  double T_;
  MatX coef_;  ///< (degree+1) × dof
  VecX q0_, q1_;
  VecX v0_, v1_, a0_, a1_;  ///< the boundary rates (zero when not given), returned exactly at the ends
};

/// "cubic" → 3, "quintic" → 5, "septic" → 7; anything else throws naming the accepted names.
int polynomialDegree(const std::string& profile);

}  // namespace achain
