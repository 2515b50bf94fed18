// A parallel mechanism at a platform pose (closed_chains/parallel_robot.hpp): the legs' inverse kinematics by Newton,
// the summed model in w and the actuated model in q (Freeman §IV.B), and the actuator loads for platform rates.
#include <achain/closed_chains/parallel_robot.hpp>

#include <achain/dynamics/rnea.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/kinematics/jacobian.hpp>

#include "closure_rows.hpp"

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

void parallelInverseDynamics(const ParallelRobot& robot, std::vector<Data>& datas, const SE3& pose,
                             const std::vector<VecX>& q, const Eigen::Ref<const VecX>& wd,
                             const Eigen::Ref<const VecX>& wdd, const DynamicsOptions& options, ParallelMotion& out) {
  using MatN = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;  // N ≤ 6: no heap
  using VecN = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1>;
  const int N = robot.freedoms();
  const size_t L = robot.legs.size();
  if (L == 0) throw Error("parallel: no legs");
  if (datas.size() != L || q.size() != L)
    throw Error("parallel: " + std::to_string(L) + " legs need as many Data and q (got " + std::to_string(datas.size()) +
                ", " + std::to_string(q.size()) + ")");
  if (wd.size() != N || wdd.size() != N)
    throw Error("parallel: the platform has " + std::to_string(N) + " freedoms; the rates ẇ, ẅ must have as many (got " +
                std::to_string(wd.size()) + ", " + std::to_string(wdd.size()) + ")");
  if (static_cast<int>(robot.actuated.size()) != N)
    throw Error("actuated: the platform has " + std::to_string(N) + " freedoms; " +
                std::to_string(robot.actuated.size()) + " actuated joints given");
  const ClosureKind space = robot.planar ? ClosureKind::PlanarPin : ClosureKind::Pose;
  auto row = [&](int i) { return detail::closureEndRow(space, i); };

  // The platform, its centroid at the w point (4-50…4-54): (m a − m g; II α + ω × II ω), II in world axes.
  const Vec3 g = options.gravityOf(robot.legs[0].gravity);
  const Mat3 II = pose.R * robot.platform_inertia * pose.R.transpose();
  VecN Tw(N);
  if (robot.planar) {
    Tw << robot.platform_mass * (wdd.head<2>() - g.head<2>()), II(2, 2) * wdd[2];
  } else {
    const Vec3 w = wd.tail<3>();
    Tw << robot.platform_mass * (wdd.head<3>() - g), II * wdd.tail<3>() + w.cross(II * w);
  }

  out.qd.resize(L);
  out.qdd.resize(L);
  out.q_d.resize(N);
  out.q_dd.resize(N);
  MatN Gq(N, N);  // [G^q_w]
  for (size_t r = 0; r < L; ++r) {
    const Model& m = robot.legs[r];
    Data& d = datas[r];
    if (m.nv != N)
      throw Error(legName(robot, r) + ": has " + std::to_string(m.nv) + " coordinates; a " +
                  (robot.planar ? "planar" : "spatial") + " platform needs " + std::to_string(N) + " per leg");
    if (q[r].size() != m.nq)
      throw Error(legName(robot, r) + ": q has " + std::to_string(q[r].size()) + " entries; the leg has " +
                  std::to_string(m.nq));
    forwardKinematics(m, d, q[r]);
    MatX& J = d.kin.J;
    toolJacobian(m, d, J);
    MatN G(N, N);  // [_rG^w_φ]: the closure rows of the tool Jacobian
    for (int i = 0; i < N; ++i)
      for (int k = 0; k < N; ++k) G(i, k) = J(row(i), k);
    const Eigen::FullPivLU<MatN> lu(G);
    if (!lu.isInvertible())
      throw Error(legName(robot, r) + ": [G^w_φ] is singular at this configuration (rank " + std::to_string(lu.rank()) +
                  " of " + std::to_string(N) + ")");
    const MatN Ginv = lu.inverse();  // [_rG^φ_w]
    VecX& qd = out.qd[r];
    VecX& qdd = out.qdd[r];
    qd.resize(N);
    qdd.resize(N);
    qd.noalias() = Ginv * wd;
    // ẅ = [G^w_φ] φ̈ + the free end's acceleration at φ̈ = 0 (J̇φ̇, its closure rows)
    const Vec6 bias = toolJacobianDotTimesQdot(m, d, qd);
    VecN a(N);
    for (int i = 0; i < N; ++i) a[i] = wdd[i] - bias[row(i)];
    qdd.noalias() = Ginv * a;
    VecX& tau = d.dyn.tmp_c;
    inverseDynamics(m, d, q[r], qd, qdd, options, tau);
    Tw.noalias() += Ginv.transpose() * tau;  // τ_φ = [G^w_φ]ᵀ T_w, each leg's share
    for (int n = 0; n < N; ++n) {
      const auto& [leg, c] = robot.actuated[size_t(n)];
      if (leg != static_cast<int>(r)) continue;
      if (c < 0 || c >= N)
        throw Error("actuated[" + std::to_string(n) + "]: no joint " + std::to_string(c) + " on leg " + std::to_string(leg));
      Gq.row(n) = Ginv.row(c);
      out.q_d[n] = qd[c];
      out.q_dd[n] = qdd[c];
    }
  }
  for (int n = 0; n < N; ++n) {
    const int leg = robot.actuated[size_t(n)].first;
    if (leg < 0 || leg >= static_cast<int>(L))
      throw Error("actuated[" + std::to_string(n) + "]: no leg " + std::to_string(leg));
  }
  const Eigen::FullPivLU<MatN> luq(Gq);
  if (!luq.isInvertible())
    throw Error("actuated: [G^q_w] is singular at this configuration (rank " + std::to_string(luq.rank()) + " of " +
                std::to_string(N) + ")");
  out.Tw = Tw;
  out.Tq = luq.transpose().solve(Tw);
}

}  // namespace achain
