#include <achain/trajectory/path.hpp>

#include <cmath>

namespace achain {

TimeScaledPath::TimeScaledPath(JointPathPtr path, double k) : path_(std::move(path)), k_(k) {
  if (!path_) throw Error("time scaling: no path");
  if (!(k > 0) || !std::isfinite(k)) throw Error("time scaling: factor must be finite and > 0");
}

void TimeScaledPath::evaluate(double t, VecX& q, VecX& qd, VecX& qdd) const {
  path_->evaluate(t / k_, q, qd, qdd);
  qd /= k_;
  qdd /= k_ * k_;
}

std::vector<std::vector<double>> TimeScaledPath::breakpoints() const {
  auto b = path_->breakpoints();
  for (auto& j : b)
    for (auto& t : j) t *= k_;
  return b;
}

RateLimits rateLimitsFromModel(const Model& m, double vs, double as) {
  if (!(vs > 0) || !std::isfinite(vs)) throw Error("velocity scale: must be finite and > 0");
  if (!(as > 0) || !std::isfinite(as)) throw Error("acceleration scale: must be finite and > 0");
  RateLimits L{VecX(m.nq), VecX(m.nq)};
  for (int i = 0; i < m.njoints(); ++i) {
    if (!m.jmodels[i].independent) continue;  // fixed or mimic: no coordinate of its own
    L.velocity[m.idx_q[i]] = m.joints[i].limits.velocity * vs;
    L.acceleration[m.idx_q[i]] = m.joints[i].limits.acceleration * as;
  }
  return L;
}

void checkJointVector(const Model& m, const VecX& q, const std::string& what) {
  if (q.size() != m.nq)
    throw Error(what + ": robot '" + m.name + "' has " + std::to_string(m.nq) + " joints, got " + std::to_string(q.size()) +
                " values");
  for (int i = 0; i < q.size(); ++i)
    if (!std::isfinite(q[i])) throw Error(what + "[" + std::to_string(i) + "]: must be a finite number");
}

}  // namespace achain
