#include "jacobian.hpp"

namespace achain {

bool supports(const Model& model, int j, int k) {
  for (int i = k; i >= 0; i = model.joints[i].parent)
    if (i == j) return true;
  return false;
}

namespace {
void worldPointJacobian(const Model& model, const Data& data, int link, const Vec3& p, Eigen::Ref<MatX> J) {
  J.setZero();
  for (int i = link; i >= 0; i = model.joints[i].parent) {
    const Vec3 z = data.oMj[i].R.col(2);
    const Vec3 w = data.rot_rate[i] * z;
    const int c = model.idx_q[i];
    J.block<3, 1>(0, c) = w.cross(p - data.oMj[i].p) + data.axial_rate[i] * z;
    J.block<3, 1>(3, c) = w;
  }
}
}  // namespace

void pointJacobian(const Model& model, const Data& data, int link, const Vec3& point_in_link, Eigen::Ref<MatX> J) {
  if (link < 0 || link >= model.njoints())
    throw Error("link: must be in [0, " + std::to_string(model.njoints() - 1) + "] (got " + std::to_string(link) + ")");
  if (J.rows() != 6 || J.cols() != model.nv) throw Error("J: must be 6×" + std::to_string(model.nv));
  worldPointJacobian(model, data, link, data.oMi[link].act(point_in_link), J);
}

void toolJacobian(const Model& model, const Data& data, Eigen::Ref<MatX> J, Frame frame) {
  if (J.rows() != 6 || J.cols() != model.nv) throw Error("J: must be 6×" + std::to_string(model.nv));
  worldPointJacobian(model, data, model.toolLink(), data.oMtool.p, J);
  if (frame == Frame::Tool) {
    const Mat3 Rt = data.oMtool.R.transpose();
    J.topRows<3>() = Rt * J.topRows<3>();
    J.bottomRows<3>() = Rt * J.bottomRows<3>();
  }
}

}  // namespace achain
