#include <achain/trajectory/apair_study.hpp>
#include <achain/math/text.hpp>
#include <achain/model/caps.hpp>

#include <cmath>
#include <limits>

#include <achain/trajectory/analysis.hpp>
#include <achain/trajectory/polynomial.hpp>
#include <achain/trajectory/trapezoid.hpp>

namespace achain {

namespace {
double linkMass(const ApairStudyParameters& p, LegModel legs) {
  return legs == LegModel::Lumped ? p.link_mass + 6 * p.leg_mass : p.link_mass;
}
}  // namespace

double apairStudyTorque(const ApairStudyParameters& p, LegModel legs, Mounting mounting, double th, double thd, double thdd) {
  const double m = linkMass(p, legs), r = p.rho;
  const double Izz = m * (p.plate_a * p.plate_a + p.plate_b * p.plate_b) / 12.0;
  double B = r * r * m / 8 * (1 + std::cos(th)) + Izz;
  double dB = -r * r * m / 8 * std::sin(th);
  double g = 0.5 * r * m * p.gravity * std::cos(0.5 * th);
  if (legs == LegModel::Full) {
    B += p.exact_leg_inertia ? p.leg_mass * r * r / 8 * (7 + 2 * std::cos(th)) : p.leg_mass * r * r / 4 * (2 + std::cos(th));
    dB += -p.leg_mass * r * r / 4 * std::sin(th);  // the same for both
  }
  if (legs == LegModel::Full || legs == LegModel::PotentialOnly) g += 1.5 * r * p.leg_mass * p.gravity * std::cos(0.5 * th);
  if (mounting == Mounting::Horizontal) g = 0;  // the CoM moves along the horizontal axis only
  return B * thdd + 0.5 * dB * thd * thd + g;
}

Model apairStudyModel(const ApairStudyParameters& p, Mounting mounting) {
  Model m;
  m.name = "single-apair";
  m.description = "Robinson 2012 Sec. 3.8.6: one A-pair of the prototype, platform as a 10 x 8 in plate";
  m.gravity = mounting == Mounting::Vertical ? Vec3(0, 0, -p.gravity) : Vec3(-p.gravity, 0, 0);
  Joint j;
  j.name = "apair";
  j.kind = JointKind::A;
  j.rho = p.rho;
  j.leg_mass = p.leg_mass;
  j.limits.lower = 60 * kDeg;
  j.limits.upper = 300 * kDeg;
  j.link.mass = p.link_mass;
  const double a2 = p.plate_a * p.plate_a, b2 = p.plate_b * p.plate_b;
  j.link.inertia = Vec3(p.link_mass * b2 / 12, p.link_mass * a2 / 12, p.link_mass * (a2 + b2) / 12).asDiagonal();
  m.joints.push_back(j);
  m.finalize();
  return m;
}

ApairStudyResult apairStudy(const ApairStudyParameters& p, double T, const std::string& profile, int samples) {
  if (!(T >= kMinDuration && T <= kMaxDuration)) throw Error("duration: must be in [1e-6, 1e7] s (got " + shortNumber(T) + ")");
  if (samples < 3 || samples > kMaxTrajectorySamples) throw Error("samples: must be between 3 and 1e6 (got " + std::to_string(samples) + ")");
  // the parameters are a robot description's: the same physical range
  if (!(p.rho > 0 && p.rho <= kMaxLength)) throw Error("rho: must be > 0 and ≤ 1000 m (got " + shortNumber(p.rho) + " m)");
  for (const auto& [v, name] : {std::pair<double, const char*>{p.link_mass, "link_mass"}, {p.leg_mass, "leg_mass"}})
    if (!(v >= 0 && v <= kMaxMass)) throw Error(std::string(name) + ": must be in [0, 1e6] kg (got " + shortNumber(v) + ")");
  for (const auto& [v, name] : {std::pair<double, const char*>{p.plate_a, "plate_a"}, {p.plate_b, "plate_b"}})
    if (!(v >= 0 && v <= kMaxLength)) throw Error(std::string(name) + ": must be in [0, 1000] m (got " + shortNumber(v) + ")");
  if (!(std::abs(p.gravity) <= kMaxGravity)) throw Error("gravity: magnitude must be ≤ 1000 m/s² (got " + shortNumber(p.gravity) + ")");
  ApairStudyResult res;
  res.duration = T;
  res.profile = profile;
  res.parameters = p;
  VecX q0(1), q1(1);
  q0 << 60 * kDeg;
  q1 << 300 * kDeg;
  std::unique_ptr<JointPath> path;
  if (profile == "trapezoid") {
    const double ta = T / 4, v = (q1[0] - q0[0]) / (T - ta);
    RateLimits L{VecX::Constant(1, v), VecX::Constant(1, v / ta)};
    path = std::make_unique<TrapezoidPath>(q0, q1, L);
  } else {
    path = std::make_unique<PolynomialPath>(polynomialDegree(profile), q0, q1, T);
  }
  std::vector<double> t(samples);
  VecX pv(samples), ph(samples), q(1), qd(1), qdd(1);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // Thesis Tables 3.8 (10 s) and 3.9 (1 s), in-lb, rows massless / lumped / full / PE only.
  const double t38[4][2] = {{28.520, 0.090}, {33.279, 0.105}, {30.894, 0.092}, {30.892, nan}};
  const double t39[4][2] = {{44.999, 12.456}, {52.508, 14.535}, {47.955, 12.632}, {47.772, nan}};
  const double(*thesis)[2] = T == 10.0 ? t38 : T == 1.0 ? t39 : nullptr;
  const LegModel models[4] = {LegModel::Massless, LegModel::Lumped, LegModel::Full, LegModel::PotentialOnly};
  for (int r = 0; r < 4; ++r) {
    for (int k = 0; k < samples; ++k) {
      t[k] = T * k / (samples - 1);
      path->evaluate(t[k], q, qd, qdd);
      pv[k] = apairStudyTorque(p, models[r], Mounting::Vertical, q[0], qd[0], qdd[0]) * qd[0];
      ph[k] = apairStudyTorque(p, models[r], Mounting::Horizontal, q[0], qd[0], qdd[0]) * qd[0];
    }
    ApairStudyRow row;
    row.legs = models[r];
    row.vertical = integrateAbs(t, pv);
    row.horizontal = integrateAbs(t, ph);
    row.thesis_vertical = thesis ? thesis[r][0] * kInchPound : nan;
    row.thesis_horizontal = thesis ? thesis[r][1] * kInchPound : nan;
    res.rows.push_back(row);
  }
  return res;
}

}  // namespace achain
