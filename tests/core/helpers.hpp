#pragma once
#include <initializer_list>
#include <random>

#include <achain/io/model_json.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/model/model.hpp>
#include <achain/model/robots.hpp>
#include <stdexcept>
#include <string>

namespace achain::test {

/// The robot file text of a built-in (e.g. to read its loop section).
inline std::string builtinRobotText(const std::string& name) {
  for (const auto& b : builtinRobots())
    if (b.name == name) return b.json;
  throw std::runtime_error(name + " is not a built-in robot");
}

/// Uniform random configuration inside the limits (or ±π / ±1 m where unbounded).
inline VecX randomConfiguration(const Model& m, std::mt19937& rng) {
  VecX q(m.nq);
  for (int i = 0; i < m.njoints(); ++i) {
    if (!m.jmodels[i].independent) continue;  // fixed or mimic: no coordinate of its own
    const auto& L = m.joints[i].limits;
    const double fallback = isAngular(m.joints[i].kind) ? kPi : 1.0;
    const double lo = std::isfinite(L.lower) ? L.lower : -fallback;
    const double hi = std::isfinite(L.upper) ? L.upper : fallback;
    q[m.idx_q[i]] = std::uniform_real_distribution<double>(lo, hi)(rng);
  }
  return q;
}

/// The tool pose at q (FK with a Data of its own).
inline SE3 fkPose(const Model& m, const VecX& q) {
  Data d(m);
  forwardKinematics(m, d, q);
  return d.oMtool;
}

constexpr double kInch = 0.0254;

/// Saving m as JSON and loading it back, as an object and through text, gives the same description.
inline bool jsonRoundTrips(const Model& m) {
  return modelFromJson(modelToJson(m)).sameDescription(m) && modelFromJsonString(modelToJson(m).dump()).sameDescription(m);
}

/// A joint vector from values in degrees.
inline VecX degrees(std::initializer_list<double> v) {
  VecX q(v.size());
  int i = 0;
  for (double x : v) q[i++] = x * kDeg;
  return q;
}

}  // namespace achain::test
