// A-pair self-collision: the six legs as Plücker lines and as cylinders, the Ketchel–Larochelle
// cylinder-interference test, and the usable joint range as a function of leg radius
// (Robinson 2012 §2.8–2.9 and §3.2, with the corrected anchors B6, P4 and the corrected t₁ of Eq. 2.98).
#pragma once
#include <array>
#include <vector>

#include <achain/model/model.hpp>

namespace achain {

/// A line in normalized Plücker coordinates: unit direction and moment (p₀₁:p₀₂:p₀₃ : p₂₃:p₃₁:p₁₂)/‖dir‖.
struct PluckerLine {
  Vec3 dir = Vec3::UnitZ();
  Vec3 moment = Vec3::Zero();
  /// The line through x and y (x ≠ y). The unnormalized coordinates are dir = y − x, moment = x × y.
  static PluckerLine through(const Vec3& x, const Vec3& y);
};

/// Reciprocal product Ω(p, q) = p·q̄ + p̄·q (Eq. 2.90); zero iff the lines are coplanar.
double reciprocalProduct(const PluckerLine& p, const PluckerLine& q);

/// Distance between two lines (Eq. 2.97: |Ω| / |p × q|; for parallel lines the distance between them).
double lineDistance(const PluckerLine& p, const PluckerLine& q);

/// A finite cylinder: axis from `start` along `axis` (|axis| = length), radius `radius`.
struct Cylinder {
  Vec3 start = Vec3::Zero();
  Vec3 axis = Vec3::UnitZ();
  double radius = 0;
};

/// Where the common-normal feet fall on the two axes (Ketchel–Larochelle cases).
enum class FootCase { OnOn, OnOff, OffOff, Parallel };

struct CylinderTest {
  double distance = 0;  ///< distance between the infinite axes
  double t1 = 0, t2 = 0;  ///< common-normal feet: c + t1·s and d + t2·w (Eq. 2.98, corrected t1)
  FootCase feet = FootCase::OnOn;
  double clearance = 0;  ///< (shortest distance between the axis segments) − (r1 + r2); < 0 ⇒ interference
  bool collide = false;
};

/// Ketchel–Larochelle test. On-on (both feet inside 0 < t < 1): collision iff distance ≤ r1 + r2.
/// Other cases (which never occur for A-pair legs) use the exact segment–segment distance, i.e.
/// they treat the cylinders as capsules (conservative near the flat ends).
CylinderTest cylinderInterference(const Cylinder& a, const Cylinder& b);

/// The six legs of an A-pair of triangle side `side` at θ_v = theta, in the base-plate frame
/// (base anchors B_i at z = 0; platform anchors Rz(θ)·P_i + ρ·sin(θ/2)·ẑ).
struct ApairLegs {
  std::array<Vec3, 6> base;
  std::array<Vec3, 6> platform;
  PluckerLine line(int leg) const { return PluckerLine::through(base[leg], platform[leg]); }
  Cylinder cylinder(int leg, double radius) const { return Cylinder{base[leg], platform[leg] - base[leg], radius}; }
};
ApairLegs apairLegs(double side, double theta);

/// Centreline quantities of the adjacent legs 1&2 and 1&6 at θ (Robinson Figs. 3.3–3.5), side a.
struct LegPairSample {
  double theta = 0;
  double omega12 = 0, omega16 = 0;   ///< reciprocal products (normalized lines)
  double d12 = 0, d16 = 0;           ///< centreline distances
  double t1_12 = 0, t2_12 = 0, t1_16 = 0, t2_16 = 0;  ///< common-normal feet
};
LegPairSample legPairSample(double side, double theta);

/// Smallest clearance over all 15 leg pairs at θ (cylinders of radius r; < 0 ⇒ interference),
/// and which pair attains it.
double legClearance(double side, double radius, double theta, int* leg_a = nullptr, int* leg_b = nullptr);

/// Usable A-pair range centred on full extension (θ = 180°): the largest interval (lower, upper)
/// around 180° where no two legs of radius `radius` interfere. r = 0 gives 60°–300°.
struct ApairRange {
  double lower = 0, upper = 0;  ///< rad
  double range() const { return upper - lower; }
  int lower_legs[2] = {0, 5};   ///< legs (0-based) that collide at the lower limit (1&6 in thesis numbering)
  int upper_legs[2] = {0, 1};   ///< … at the upper limit (1&2)
};
/// Throws achain::Error if side ≤ 0, radius < 0 or the legs are too thick for any motion.
ApairRange apairUsableRange(double side, double radius);

/// The range for joint `joint` of a model from its ρ and legs.radius (side = ρ·3/√6).
ApairRange apairUsableRange(const Joint& joint);

/// Smallest leg clearance of an A-pair joint at θ_v = q (legs of the joint's legs.radius), m.
/// Negative: two legs interfere. A mirrored joint (sign −1) is the mirror image, same clearance.
/// The studio colours legs with it ("near a self-collision").
double apairClearance(const Joint& joint, double q);

}  // namespace achain
