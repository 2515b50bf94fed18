#include <achain/kinematics/jacobian.hpp>

#include "joint_path.hpp"

#include <cmath>
#include <string>

namespace achain {

bool supports(const Model& model, int j, int k) {
  for (int i = k; i >= 0; i = model.joints[i].parent)
    if (i == j) return true;
  return false;
}

namespace {
void checkShape(const Model& model, const Eigen::Ref<MatX>& J, const char* what) {
  if (J.rows() != 6 || J.cols() != model.nv) throw Error(std::string(what) + ": must be 6×" + std::to_string(model.nv));
}

void worldPointJacobian(const Model& model, const Data& data, int link, const Vec3& p, Eigen::Ref<MatX> J) {
  J.setZero();
  for (int i = link; i >= 0; i = model.joints[i].parent) {
    const int c = model.idx_q[i];
    if (c < 0) continue;  // fixed joint
    const Vec3 z = data.oMj[i].R.col(2);
    const Vec3 w = data.rot_rate[i] * z;
    J.block<3, 1>(0, c) += w.cross(p - data.oMj[i].p) + data.axial_rate[i] * z;  // mimics add into
    J.block<3, 1>(3, c) += w;                                                     // their coordinate
  }
}

void worldJacobianDerivative(const Model& model, const Data& data, int link, const Vec3& p,
                             const Eigen::Ref<const VecX>& qd, Eigen::Ref<MatX> Jdot) {
  std::vector<PathJoint>& path = data.kin.path;
  const int K = kin_detail::buildJointPath(model, data, link, p);
  Jdot.setZero();
  // Ω_n = Σ_{m before n} w_m q̇_m (angular velocity of the body carrying axis n);
  // S_n = Σ_{m after n} g_m q̇_m (velocity of p due to the joints after n).
  Vec3 S = Vec3::Zero();
  for (int k = K - 1; k >= 0; --k) {
    PathJoint& c = path[k];
    c.after = c.w.cross(S);
    S += c.g * qd[c.col];
  }
  Vec3 Omega = Vec3::Zero();
  for (int k = 0; k < K; ++k) {
    const PathJoint& c = path[k];
    const double v = qd[c.col];
    Jdot.block<3, 1>(0, c.col) += c.after + Omega.cross(c.g) + v * (c.w.cross(c.g) + c.b2 * c.z);
    Jdot.block<3, 1>(3, c.col) += Omega.cross(c.w);
    Omega += c.w * v;
  }
}
}  // namespace

void pointJacobian(const Model& model, const Data& data, int link, const Vec3& point_in_link, Eigen::Ref<MatX> J) {
  kin_detail::checkLink(model, link);
  checkShape(model, J, "J");
  worldPointJacobian(model, data, link, data.oMi[link].act(point_in_link), J);
}

void rotateJacobian(const Mat3& R, Eigen::Ref<MatX> J) {
  if (J.rows() != 6) throw Error("J: must have 6 rows");
  const Mat3 Rt = R.transpose();
  J.topRows<3>() = Rt * J.topRows<3>();
  J.bottomRows<3>() = Rt * J.bottomRows<3>();
}

void toolJacobian(const Model& model, const Data& data, Eigen::Ref<MatX> J, Frame frame) {
  checkShape(model, J, "J");
  worldPointJacobian(model, data, model.toolLink(), data.oMtool.p, J);
  if (frame == Frame::Tool) rotateJacobian(data.oMtool.R, J);
}

void pointJacobianDerivative(const Model& model, const Data& data, int link, const Vec3& point_in_link,
                             const Eigen::Ref<const VecX>& qd, Eigen::Ref<MatX> Jdot) {
  kin_detail::checkLink(model, link);
  checkShape(model, Jdot, "Jdot");
  if (qd.size() != model.nv) throw Error("qd: expected " + std::to_string(model.nv) + " values, got " + std::to_string(qd.size()));
  worldJacobianDerivative(model, data, link, data.oMi[link].act(point_in_link), qd, Jdot);
}

void toolJacobianDerivative(const Model& model, const Data& data, const Eigen::Ref<const VecX>& qd,
                            Eigen::Ref<MatX> Jdot) {
  checkShape(model, Jdot, "Jdot");
  if (qd.size() != model.nv) throw Error("qd: expected " + std::to_string(model.nv) + " values, got " + std::to_string(qd.size()));
  worldJacobianDerivative(model, data, model.toolLink(), data.oMtool.p, qd, Jdot);
}

Vec6 toolJacobianDotTimesQdot(const Model& model, const Data& data, const Eigen::Ref<const VecX>& qd) {
  MatX& Jdot = data.kin.J;
  toolJacobianDerivative(model, data, qd, Jdot);
  return Jdot * qd;
}

Vec3 matrixToRpy(const Mat3& R) {
  const double pitch = std::atan2(-R(2, 0), std::hypot(R(0, 0), R(1, 0)));
  const double yaw = std::atan2(R(1, 0), R(0, 0));  // 0 at pitch = ±90° exactly (atan2(0, 0))
  // Roll from row 1 of Rz(yaw)ᵀ·R = Ry(pitch)·Rx(roll) = (0, cos roll, −sin roll): entries of order 1 at any pitch.
  // Read from R(2,1), R(2,2) (both scaled by cos pitch) it lost digits near ±90°: 4.4e-11 at 3.7e-6 from it.
  const double cy = std::cos(yaw), sy = std::sin(yaw);
  const double roll = std::atan2(sy * R(0, 2) - cy * R(1, 2), cy * R(1, 1) - sy * R(0, 1));
  return Vec3(roll, pitch, yaw);
}

Mat3 rpyRateMatrix(const Vec3& rpy) {
  const double cp = std::cos(rpy[1]), sp = std::sin(rpy[1]);
  const double cy = std::cos(rpy[2]), sy = std::sin(rpy[2]);
  Mat3 E;
  // ω = ẏ·ez + ṗ·Rz(y)ey + ṙ·Rz(y)Ry(p)ex
  E << cy * cp, -sy, 0,
       sy * cp, cy, 0,
       -sp, 0, 1;
  return E;
}

void analyticalJacobian(const Model& model, const Data& data, Eigen::Ref<MatX> Ja) {
  checkShape(model, Ja, "Ja");
  const Vec3 rpy = matrixToRpy(data.oMtool.R);
  const double cp = std::cos(rpy[1]);
  if (std::abs(cp) < 1e-9)
    throw Error("orientation: roll-pitch-yaw rates are singular at pitch = ±90° (tool pitch = " +
                std::to_string(rpy[1] / kDeg) + " deg)");
  worldPointJacobian(model, data, model.toolLink(), data.oMtool.p, Ja);
  const double sp = std::sin(rpy[1]), cy = std::cos(rpy[2]), sy = std::sin(rpy[2]);
  Mat3 Einv;  // closed-form inverse of rpyRateMatrix
  Einv << cy / cp, sy / cp, 0,
          -sy, cy, 0,
          cy * sp / cp, sy * sp / cp, 1;
  Ja.bottomRows<3>() = (Einv * Ja.bottomRows<3>()).eval();
}

}  // namespace achain
