// Basic scalar/vector types, the rigid transform SE3, and the library's error type.
#pragma once
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <stdexcept>
#include <string>

namespace achain {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Mat4 = Eigen::Matrix4d;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Vec4 = Eigen::Vector4d;

/// Every error the library reports: a message that names what is wrong
/// (for model input, the JSON field path, e.g. "joints[2].rho: must be ≥ 0").
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

/// Rigid transform x' = R x + p, written [R p; 0 1].
struct SE3 {
  Mat3 R = Mat3::Identity();
  Vec3 p = Vec3::Zero();

  static SE3 Identity() { return SE3{}; }
  SE3 operator*(const SE3& b) const { return SE3{R * b.R, R * b.p + p}; }
  Vec3 act(const Vec3& x) const { return R * x + p; }
  SE3 inverse() const { return SE3{R.transpose(), -(R.transpose() * p)}; }
  Mat4 matrix() const {
    Mat4 T = Mat4::Identity();
    T.topLeftCorner<3, 3>() = R;
    T.topRightCorner<3, 1>() = p;
    return T;
  }
  static SE3 fromMatrix(const Mat4& T) { return SE3{T.topLeftCorner<3, 3>(), T.topRightCorner<3, 1>()}; }
  bool operator==(const SE3& o) const { return R == o.R && p == o.p; }
  bool operator!=(const SE3& o) const { return !(*this == o); }
};

inline SE3 rotX(double a) {
  SE3 T;
  const double c = std::cos(a), s = std::sin(a);
  T.R << 1, 0, 0, 0, c, -s, 0, s, c;
  return T;
}
inline SE3 rotZ(double a) {
  SE3 T;
  const double c = std::cos(a), s = std::sin(a);
  T.R << c, -s, 0, s, c, 0, 0, 0, 1;
  return T;
}
inline SE3 translation(const Vec3& p) {
  SE3 T;
  T.p = p;
  return T;
}
/// Roll-pitch-yaw (fixed-axis X, then Y, then Z): R = Rz(yaw) Ry(pitch) Rx(roll).
inline Mat3 rpyToMatrix(double roll, double pitch, double yaw) {
  return (Eigen::AngleAxisd(yaw, Vec3::UnitZ()) * Eigen::AngleAxisd(pitch, Vec3::UnitY()) *
          Eigen::AngleAxisd(roll, Vec3::UnitX()))
      .toRotationMatrix();
}

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180.0;

}  // namespace achain
