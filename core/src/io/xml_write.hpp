// Shared by the XML writers (urdf.cpp, mjcf.cpp): text helpers and the link frames an exported tree uses.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

#include <achain/model/model.hpp>

namespace achain::xmlw {

inline std::string xmlEscape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&apos;"; break;
      default: o += c;
    }
  }
  return o;
}

inline std::string g17(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v == 0 ? 0.0 : v);  // no "-0"
  return buf;
}
inline std::string triple(const Vec3& v) { return g17(v.x()) + " " + g17(v.y()) + " " + g17(v.z()); }

/// The frames of an exported tree whose joints sit at their link frames' origins (URDF links, MJCF bodies).
/// The exported frame U_i of joint i's link relates to achain's link frame F_i by F_i = U_i·C_i; the root
/// (parent −1) is the world, so C_{−1} = base. origin[i] places U_i in its parent's U at q = 0 (θ_f folded in),
/// and axis[i] is the joint axis in U_i with the joint's sign (the child moves by Rot(axis, u)·Trans(axis, ·)).
struct ExportFrames {
  std::vector<SE3> C, origin;
  std::vector<Vec3> axis;      ///< signed
  std::vector<Vec3> raw_axis;  ///< unsigned (the direction of a law's translation)
  const SE3& c(const Model& m, int k) const { return k < 0 ? m.base : C[k]; }
};

inline ExportFrames exportFrames(const Model& m) {
  const int n = m.njoints();
  ExportFrames f;
  f.C.resize(n);
  f.origin.resize(n);
  f.axis.resize(n);
  f.raw_axis.resize(n);
  for (int i = 0; i < n; ++i) {
    const Joint& j = m.joints[i];
    const SE3 Q = j.has_origin ? m.jmodels[i].post.toSE3() : SE3::Identity();
    const SE3& Cpar = j.parent < 0 ? m.base : f.C[j.parent];
    f.origin[i] = Cpar * m.jmodels[i].pre.toSE3() * rotZ(j.theta_f) * Q;
    f.C[i] = Q.inverse() * translation(Vec3(0, 0, j.d)) * m.jmodels[i].post.toSE3();
    f.raw_axis[i] = j.has_origin ? j.axis : Vec3::UnitZ();
    f.axis[i] = double(j.sign) * f.raw_axis[i];
  }
  return f;
}

/// A cylinder along the segment a→b (in one frame), for the generated visuals.
inline Geometry segment(int link, const Vec3& a, const Vec3& b, double r) {
  Geometry g;
  g.link = link;
  g.shape = Geometry::Shape::Cylinder;
  const Vec3 d = b - a;
  g.size = Vec3(r, d.norm(), 0);
  g.origin.p = 0.5 * (a + b);
  g.origin.R = alignZ(d / d.norm());
  return g;
}

}  // namespace achain::xmlw
