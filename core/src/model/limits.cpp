#include <achain/model/limits.hpp>
#include <achain/model/labels.hpp>

#include <cmath>
#include <sstream>

namespace achain {

int firstOutsideLimits(const Model& model, const Eigen::Ref<const VecX>& q, double tol) {
  for (int i = 0; i < model.njoints(); ++i) {
    const JointModel& jm = model.jmodels[i];
    if (jm.coord < 0) continue;
    const double v = jm.scale * q[jm.coord] + jm.offset;  // the joint's own variable (mimics included)
    const JointLimits& L = model.joints[i].limits;
    if (v < L.lower - tol || v > L.upper + tol) return i;
  }
  return -1;
}

std::string limitsProblem(const Model& model, const Eigen::Ref<const VecX>& q, double tol) {
  const int i = firstOutsideLimits(model, q, tol);
  if (i < 0) return "";
  const JointModel& jm = model.jmodels[i];
  const JointLimits& L = model.joints[i].limits;
  const bool angular = jm.angular();
  const double f = angular ? 180.0 / M_PI : 1.0;
  const char* unit = angular ? "°" : " m";
  std::ostringstream s;
  s.precision(6);
  auto value = [&](double v) -> std::ostringstream& {
    if (std::isinf(v)) s << (v < 0 ? "−∞" : "∞");
    else s << v * f << unit;
    return s;
  };
  s << coordinateLabel(model, jm.coord) << " = ";
  value(jm.scale * q[jm.coord] + jm.offset) << " is outside its limits [";
  value(L.lower) << ", ";
  value(L.upper) << "]";
  return s.str();
}

}  // namespace achain
