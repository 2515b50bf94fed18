#include <achain/model/r_twin.hpp>

namespace achain {

Model rPairTwin(const Model& model) {
  Model t = model;
  t.name = model.name + "-r-twin";
  for (Joint& j : t.joints) {
    if (j.kind != JointKind::A) continue;
    j.kind = JointKind::R;
    j.rho = 0;
    j.leg_mass = 0;
    j.leg_radius = 0;
  }
  t.finalize();
  return t;
}

bool hasApair(const Model& model) {
  for (const Joint& j : model.joints)
    if (j.kind == JointKind::A) return true;
  return false;
}

}  // namespace achain
