// A parallel mechanism at a platform pose (closed_chains/parallel_robot.hpp): the legs' inverse kinematics by Newton,
// the summed model in w and the actuated model in q (Freeman §IV.B), and the actuator loads for platform rates.
#include <achain/closed_chains/parallel_robot.hpp>

#include <achain/kinematics/jacobian.hpp>

#include <cmath>

namespace achain {

SE3 planarPose(double x, double y, double theta, const SE3& reference) {
  SE3 T;
  T.R = rpyToMatrix(0, 0, theta);
  T.p = Vec3(x, y, reference.p.z());
  return T;
}

VecX poseCoordinates(const SE3& pose, bool planar) {
  if (planar) return Vec3(pose.p.x(), pose.p.y(), std::atan2(pose.R(1, 0), pose.R(0, 0)));
  VecX c(6);
  c << pose.p, matrixToRpy(pose.R);
  return c;
}

SE3 poseFromCoordinates(const Eigen::Ref<const VecX>& c, bool planar, const SE3& reference) {
  const int n = planar ? 3 : 6;
  if (c.size() != n)
    throw Error(std::string("pose: a ") + (planar ? "planar platform has 3 coordinates (x, y, theta)" :
                "spatial platform has 6 coordinates (x, y, z, roll, pitch, yaw)") + "; got " + std::to_string(c.size()));
  if (planar) return planarPose(c[0], c[1], c[2], reference);
  SE3 T;
  T.p = c.head<3>();
  T.R = rpyToMatrix(c[3], c[4], c[5]);
  return T;
}

namespace {
std::string legName(const ParallelRobot& robot, size_t r) {
  std::string s = "parallel.legs[" + std::to_string(r) + "]";
  if (r < robot.leg_names.size() && !robot.leg_names[r].empty()) s += " (" + robot.leg_names[r] + ")";
  return s;
}
}  // namespace

std::vector<int> legInverseKinematics(const ParallelRobot& robot, std::vector<Data>& datas, const SE3& pose,
                                      std::vector<VecX>& q, double tol, int max_iter) {
  const size_t L = robot.legs.size();
  if (datas.size() != L) throw Error("parallel: " + std::to_string(L) + " legs need as many Data");
  q.resize(L);
  std::vector<int> iterations(L);
  LoopClosure closure;  // the leg's tool tied to the platform frame; every joint solved (α empty)
  closure.kind = robot.planar ? ClosureKind::PlanarPin : ClosureKind::Pose;
  closure.ground = pose;
  VecX theta;
  if (robot.planar) theta = Eigen::Matrix<double, 1, 1>(std::atan2(pose.R(1, 0), pose.R(0, 0)));
  for (size_t r = 0; r < L; ++r) {
    if (q[r].size() != robot.legs[r].nq) q[r] = robot.assembly[r];
    try {
      iterations[r] = closeLoop(robot.legs[r], datas[r], closure, q[r], theta, tol, max_iter);
    } catch (const Error& e) {
      throw Error(legName(robot, r) + ": the platform pose is out of this leg's reach: " + e.what());
    }
  }
  return iterations;
}

void parallelAt(const ParallelRobot& robot, std::vector<Data>& datas, const SE3& pose, const DynamicsOptions& options,
                ParallelState& st) {
  st.pose = pose;
  st.iterations = legInverseKinematics(robot, datas, pose, st.q);
  std::vector<const Model*> legs;
  for (const Model& m : robot.legs) legs.push_back(&m);
  PlatformInertia platform;
  platform.mass = robot.platform_mass;
  platform.inertia = pose.R * robot.platform_inertia * pose.R.transpose();  // world axes (4-51)
  try {
    parallelModel(legs, datas, st.q, robot.planar, platform, options, st.pm);
  } catch (const Error& e) {  // "parallel: leg r: …" → the leg's field and name
    std::string msg = e.what();
    const std::string pre = "parallel: leg ";
    if (msg.compare(0, pre.size(), pre) == 0) {
      const size_t colon = msg.find(':', pre.size());
      const size_t r = std::stoul(msg.substr(pre.size(), colon - pre.size()));
      msg = legName(robot, r) + msg.substr(colon);
    }
    throw Error(msg);
  }
  parallelActuate(st.pm, robot.actuated, st.Gq_w, st.Hq_ww, st.q_model);
}

void parallelMotion(const ParallelState& st, const Eigen::Ref<const VecX>& wd, const Eigen::Ref<const VecX>& wdd,
                    ParallelMotion& out) {
  const int N = st.pm.N;
  if (wd.size() != N || wdd.size() != N)
    throw Error("parallel: the platform has " + std::to_string(N) + " freedoms; the rates ẇ, ẅ must have as many (got " +
                std::to_string(wd.size()) + ", " + std::to_string(wdd.size()) + ")");
  const size_t L = st.pm.Gphi_w.size();
  out.qd.resize(L);
  out.qdd.resize(L);
  for (size_t r = 0; r < L; ++r) {
    out.qd[r] = st.pm.Gphi_w[r] * wd;                                      // (3-14)
    out.qdd[r] = st.pm.Gphi_w[r] * wdd + quadratic(st.pm.Hphi_ww[r], wd, wd);  // (3-16)
  }
  out.q_d = st.Gq_w * wd;
  out.q_dd = st.Gq_w * wdd + quadratic(st.Hq_ww, wd, wd);
  out.Tw = st.pm.w.Istar * wdd + quadratic(st.pm.w.Pstar, wd, wd) - st.pm.w.TL;
  out.Tq = st.q_model.Istar * out.q_dd + quadratic(st.q_model.Pstar, out.q_d, out.q_d) - st.q_model.TL;
}

}  // namespace achain
