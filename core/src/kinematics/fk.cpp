#include <achain/kinematics/fk.hpp>
#include <achain/model/limits.hpp>

#include <cmath>

namespace achain {

void forwardKinematics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q) {
  checkData(model, data);
  const int n = model.njoints();
  for (int i = 0; i < n; ++i) {
    const Joint& j = model.joints[i];
    const SE3& parent = j.parent < 0 ? model.base : data.oMi[j.parent];
    const JointModel& jm = model.jmodels[i];
    JointState js;
    jm.evaluate(jm.coord < 0 ? 0.0 : q[jm.coord], js);
    data.theta[i] = js.theta;
    data.dz[i] = js.dz;
    data.rot_rate[i] = js.rot_rate;
    data.axial_rate[i] = js.axial_rate;
    data.axial_curv[i] = js.axial_curv;
    data.axial_jerk[i] = js.axial_jerk;
    jm.placeLink(parent, js, data.oMj[i], data.oMi[i]);
  }
  data.oMtool = data.oMi[model.toolLink()] * model.tool;
}

void checkConfiguration(const Model& model, const Eigen::Ref<const VecX>& q) {
  if (q.size() != model.nq)
    throw Error("q: expected " + std::to_string(model.nq) + " values, got " + std::to_string(q.size()));
  for (int i = 0; i < q.size(); ++i)
    if (!std::isfinite(q[i])) throw Error("q[" + std::to_string(i) + "]: must be a finite number");
}

bool withinLimits(const Model& model, const Eigen::Ref<const VecX>& q, double tol) {
  return firstOutsideLimits(model, q, tol) < 0;
}

}  // namespace achain
