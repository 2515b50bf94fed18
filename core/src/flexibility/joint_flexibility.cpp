#include <achain/flexibility/joint_flexibility.hpp>

#include <cmath>

#include <achain/dynamics/crba.hpp>

namespace achain {

namespace {
void requirePositiveVector(const Model& model, const VecX& v, const char* field, bool zero_ok = false) {
  if (v.size() != model.nv)
    throw Error(std::string("joint flexibility: ") + field + " needs " + std::to_string(model.nv) + " values (one per coordinate), got " +
                std::to_string(v.size()));
  for (int i = 0; i < model.nv; ++i)
    if (!std::isfinite(v[i]) || v[i] < 0 || (v[i] == 0 && !zero_ok)) {
      const int j = model.coord_joint.empty() ? i : model.coord_joint[i];
      throw Error(std::string("joint flexibility: ") + field + "[" + std::to_string(i) + "] (joint '" + model.joints[j].name +
                  "') must be " + (zero_ok ? "zero or positive" : "positive") + " and finite (got " + std::to_string(v[i]) + ")");
    }
}
}  // namespace

void checkJointFlexibility(const Model& model, const JointFlexibility& flex, bool need_motor_inertia) {
  requirePositiveVector(model, flex.stiffness, "stiffness");
  if (flex.damping.size() != 0) requirePositiveVector(model, flex.damping, "damping", true);
  if (need_motor_inertia) requirePositiveVector(model, flex.motor_inertia, "motor_inertia");
}

const char* toString(MotorSide s) { return s == MotorSide::Locked ? "locked" : "free"; }

MotorSide motorSideFromString(const std::string& s) {
  if (s == "locked") return MotorSide::Locked;
  if (s == "free") return MotorSide::Free;
  throw Error("motor side: expected locked or free (got '" + s + "')");
}

NaturalModes jointFlexibilityModes(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                   const JointFlexibility& flex, MotorSide side, const DynamicsOptions& options) {
  if (q.size() != model.nq || !q.allFinite())
    throw Error("joint flexibility: q needs " + std::to_string(model.nq) + " finite values (got " + std::to_string(q.size()) + ")");
  checkJointFlexibility(model, flex, side == MotorSide::Free);
  const int n = model.nv;
  DynamicsOptions o = options;
  o.motors = false;
  MatX M(n, n);
  massMatrix(model, data, q, o, M);
  const MatX K = flex.stiffness.asDiagonal();
  if (side == MotorSide::Locked) return naturalModes(K, M, "jointFlexibilityModes");
  MatX Is = MatX::Zero(2 * n, 2 * n), Ks(2 * n, 2 * n);
  Is.topLeftCorner(n, n) = M;
  Is.bottomRightCorner(n, n) = flex.motor_inertia.asDiagonal();
  Ks << K, -K, -K, K;
  return naturalModes(Ks, Is, "jointFlexibilityModes");
}

}  // namespace achain
