// A MuJoCo model built from an achain Model (R and P joints, serial chains or trees): MJCF text
// generated in memory and loaded with mj_loadXML from a temporary file. Body i sits at joint i's
// motion frame (axis frame turned by θ_f and shifted by d), its hinge/slide is the local z axis
// with the joint's sign, and a site "link<i>" marks the achain link frame. Inertials are
// explicit (no geoms, so no contacts); limits, damping, friction and actuators are off; armature
// is J_m·G² when asked (that is achain's `motors` option).
#pragma once
#ifdef ACHAIN_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#include <unistd.h>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <cstdio>
#include <functional>
#include <vector>
#include <fstream>
#include <sstream>
#include <string>

#include <achain/model/model.hpp>

namespace achain::peers {

inline std::string mjcfPose(const SE3& T) {
  const Eigen::Quaterniond qt(T.R);
  std::ostringstream os;
  os.precision(17);
  os << "pos=\"" << T.p.x() << " " << T.p.y() << " " << T.p.z() << "\" quat=\"" << qt.w() << " " << qt.x() << " " << qt.y()
     << " " << qt.z() << "\"";
  return os.str();
}

/// MJCF text of the model. Throws achain::Error for A or H joints.
inline std::string toMjcf(const Model& m, bool armature = false) {
  std::ostringstream os;
  os.precision(17);
  const Vec3 g = m.gravity;
  os << "<mujoco model=\"" << m.name << "\">\n"
     << "  <compiler angle=\"radian\" inertiafromgeom=\"false\" boundmass=\"0\" boundinertia=\"0\"/>\n"
     << "  <option gravity=\"" << g.x() << " " << g.y() << " " << g.z() << "\" timestep=\"0.001\" integrator=\"RK4\">\n"
     << "    <flag contact=\"disable\" constraint=\"disable\" limit=\"disable\" equality=\"disable\" frictionloss=\"disable\"/>\n"
     << "  </option>\n  <worldbody>\n";
  const int n = m.njoints();
  // children lists
  std::vector<std::vector<int>> children(n + 1);
  for (int i = 0; i < n; ++i) children[m.joints[i].parent + 1].push_back(i);
  std::function<void(int, int)> emit = [&](int i, int depth) {
    const Joint& j = m.joints[i];
    if (j.kind == JointKind::A || j.kind == JointKind::H) throw Error("MuJoCo peer: no A or H joints in MuJoCo");
    const SE3 parentToAxis = (j.parent < 0 ? m.base : m.jmodels[j.parent].post.toSE3()) * m.jmodels[i].pre.toSE3();
    const SE3 motion0 = rotZ(j.theta_f) * translation(Vec3(0, 0, j.d));
    const std::string ind(2 * depth + 4, ' ');
    os << ind << "<body name=\"b" << i << "\" " << mjcfPose(parentToAxis * motion0) << ">\n";
    const double arm = (armature && j.motor.present) ? j.motor.rotor_inertia * j.motor.gear_ratio * j.motor.gear_ratio : 0.0;
    os << ind << "  <joint name=\"" << j.name << "\" type=\"" << (j.kind == JointKind::R ? "hinge" : "slide")
       << "\" pos=\"0 0 0\" axis=\"0 0 " << j.sign << "\" limited=\"false\" damping=\"0\" armature=\"" << arm << "\"/>\n";
    const SE3 post = m.jmodels[i].post.toSE3();
    // Principal axes computed here (MuJoCo's own 3×3 eigensolver for fullinertia is only ~1e-10 exact).
    Eigen::SelfAdjointEigenSolver<Mat3> es(j.link.inertia);
    Mat3 V = es.eigenvectors();
    if (V.determinant() < 0) V.col(2) = -V.col(2);
    const SE3 principal{post.R * V, post.act(j.link.com)};
    const Vec3 ev = es.eigenvalues();
    os << ind << "  <inertial " << mjcfPose(principal) << " mass=\"" << j.link.mass << "\" diaginertia=\"" << ev.x() << " "
       << ev.y() << " " << ev.z() << "\"/>\n";
    os << ind << "  <site name=\"link" << i << "\" " << mjcfPose(post) << "/>\n";
    for (int c2 : children[i + 1]) emit(c2, depth + 1);
    os << ind << "</body>\n";
  };
  for (int r : children[0]) emit(r, 0);
  os << "  </worldbody>\n</mujoco>\n";
  return os.str();
}

/// Loads the generated MJCF (through a temporary file). Caller frees with mj_deleteModel.
inline mjModel* toMujoco(const Model& m, bool armature = false) {
  const std::string xml = toMjcf(m, armature);
  char path[] = "/tmp/achain_mjcf_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) throw Error("MuJoCo peer: cannot create a temporary file");
  close(fd);
  const std::string file = std::string(path) + ".xml";
  std::rename(path, file.c_str());
  {
    std::ofstream f(file);
    f << xml;
  }
  char err[1000] = "";
  mjModel* mm = mj_loadXML(file.c_str(), nullptr, err, sizeof err);
  std::remove(file.c_str());
  if (!mm) throw Error(std::string("MuJoCo peer: ") + err);
  return mm;
}

}  // namespace achain::peers
#endif
