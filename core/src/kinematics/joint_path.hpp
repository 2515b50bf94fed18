// Internal to the kinematics area: the joints that move one link, as world-frame quantities, shared by
// the Jacobian derivative and the influence coefficients; the link-index check of the area's entry points.
#pragma once
#include <achain/model/data.hpp>

#include <string>

namespace achain::kin_detail {

/// Refuses a link index outside the model.
inline void checkLink(const Model& model, int link) {
  if (link < 0 || link >= model.njoints())
    throw Error("link: must be in [0, " + std::to_string(model.njoints() - 1) + "] (got " + std::to_string(link) + ")");
}

/// Fills data.kin.path[0..K) with the joints that move `link` (those with a coordinate), base first,
/// for the world point P. Returns K.
inline int buildJointPath(const Model& model, const Data& data, int link, const Vec3& P) {
  std::vector<PathJoint>& path = data.kin.path;
  int K = 0;
  for (int i = link; i >= 0; i = model.joints[i].parent)
    if (model.idx_q[i] >= 0) ++K;
  int t = K;
  for (int i = link; i >= 0; i = model.joints[i].parent) {
    if (model.idx_q[i] < 0) continue;  // fixed joint: moves nothing
    PathJoint& pj = path[--t];
    pj.col = model.idx_q[i];
    pj.z = data.oMj[i].R.col(2);
    pj.w = data.rot_rate[i] * pj.z;
    pj.g = pj.w.cross(P - data.oMj[i].p) + data.axial_rate[i] * pj.z;
    pj.b2 = data.axial_curv[i];
    pj.b3 = data.axial_jerk[i];
  }
  return K;
}

}  // namespace achain::kin_detail
