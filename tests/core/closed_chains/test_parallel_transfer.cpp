// Parallel mechanisms by model transfer (Freeman §IV.B): the 3-DOF planar parallel robot of App. E
// (Table E-1, leg 1, to ±0.001; the geometry reconstructed in freeman-influence.md §6.3) and the round
// trip to I*_qq = diag(1, 2, 3), P*_qqq = 0; the platform's own inertia terms (4-50…4-54).
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include <achain/closed_chains/loop_closure.hpp>
#include <achain/closed_chains/parallel.hpp>
#include <achain/closed_chains/redundant.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/io/model_json.hpp>
#include <achain/kinematics/influence.hpp>

#include "table_check.hpp"

using namespace achain;

namespace {

// Leg r of App. E: leg 1's joints relative to the platform point P = 0 (in, numerically; any consistent
// units give the same numbers): R1 = (−2.55, −1.475), R2 = (−2.28, 0), R3 = (−0.866, −0.5), rotated by
// 120°·r about P; only the base link has inertia, r + 1 about its pivot.
struct Leg {
  Model model;
  VecX q;
};

Leg appELeg(int r) {
  const double c = std::cos(2 * kPi / 3 * r), s = std::sin(2 * kPi / 3 * r);
  auto rot = [&](double x, double y) { return Eigen::Vector2d(c * x - s * y, s * x + c * y); };
  const Eigen::Vector2d R1 = rot(-2.55, -1.475), R2 = rot(-2.28, 0), R3 = rot(-0.866, -0.5), P(0, 0);
  const Eigen::Vector2d l1 = R2 - R1, l2 = R3 - R2, l3 = P - R3;
  auto ang = [](const Eigen::Vector2d& v) { return std::atan2(v.y(), v.x()); };
  char buf[1024];
  std::snprintf(buf, sizeof buf, R"({"schema_version": 1, "gravity": [0, 0, -9.81],
    "base": {"xyz": [%.17g, %.17g, 0], "rpy": [0, 0, %.17g]},
    "joints": [
      {"kind": "R", "a": %.17g, "alpha": 0, "link": {"mass": 0, "com": [%.17g, 0, 0], "inertia": [0, 0, %d, 0, 0, 0]}},
      {"kind": "R", "a": %.17g, "alpha": 0}, {"kind": "R", "a": %.17g, "alpha": 0}]})",
                R1.x(), R1.y(), ang(l1), l1.norm(), -l1.norm(), r + 1, l2.norm(), l3.norm());
  Leg leg{modelFromJsonString(buf), VecX(3)};
  leg.q << 0, ang(l2) - ang(l1), ang(l3) - ang(l2);
  return leg;
}

using test::symPlane;
using test::within;

// The three legs of App. E at Freeman's configuration and their summed model (massless platform).
struct AppE {
  std::vector<Leg> legs = {appELeg(0), appELeg(1), appELeg(2)};
  std::vector<const Model*> models;
  std::vector<Data> datas;
  std::vector<VecX> qs;
  ParallelModel pm;
  AppE() {
    for (auto& l : legs) models.push_back(&l.model), datas.emplace_back(l.model), qs.push_back(l.q);
    parallelModel(models, datas, qs, true, PlatformInertia{}, DynamicsOptions{}, pm);
  }
};

}  // namespace

TEST_CASE("App. E parallel robot: leg 1 transferred to the platform (Table E-1 to ±0.001)", "[dynamics][closed]") {
  AppE e;
  const ParallelModel& pm = e.pm;
  const double t = 0.001;
  CHECK(within(pm.Gphi_w[0], {{-0.637, 0.225, -0.513}, {0.758, 0.439, -0.001}, {-0.122, -0.664, 1.514}}, t));
  CHECK(within(pm.legs_w[0].Istar, {{0.405, -0.143, 0.327}, {-0.143, 0.051, -0.116}, {0.327, -0.116, 0.264}}, t));
  CHECK(within(pm.Hphi_ww[0].plane(0), {{0.050, -0.105, 0.116}, {-0.105, -0.439, 0.328}, {0.116, 0.328, -0.665}}, t));
  CHECK(within(pm.Hphi_ww[0].plane(1), {{0.358, -0.053, 0.225}, {-0.053, 0.419, -0.390}, {0.225, -0.390, 1.327}}, t));
  CHECK(within(pm.Hphi_ww[0].plane(2), {{-0.408, 0.158, -0.341}, {0.158, 0.019, 0.062}, {-0.341, 0.062, -0.662}}, t));
  const Tensor3& P = pm.legs_w[0].Pstar;
  CHECK(within(symPlane(P, 0), {{-0.032, 0.067, -0.074}, {0.067, 0.280, -0.209}, {-0.074, -0.209, 0.423}}, t));
  CHECK(within(symPlane(P, 1), {{0.011, -0.024, 0.026}, {-0.024, -0.099, 0.074}, {0.026, 0.074, -0.150}}, t));  // [fix] +0.026
  CHECK(within(symPlane(P, 2), {{-0.026, 0.054, -0.059}, {0.054, 0.225, -0.168}, {-0.059, -0.168, 0.341}}, t));
  // Table E-2 (summed), against the digest's derived values (several printed entries are OCR-damaged).
  CHECK(within(pm.w.Istar, {{1.227, 0.369, -0.590}, {0.369, 1.510, -0.110}, {-0.590, -0.110, 1.581}}, t));
  CHECK(within(symPlane(pm.w.Pstar, 0), {{-0.480, 0.434, 0.190}, {0.434, 0.033, -0.631}, {0.190, -0.631, -0.764}}, t));

  // Actuated at the base joints q = (_1φ1, _2φ1, _3φ1): the round trip to diag(1, 2, 3) and P* = 0 (E-7).
  MatX Gq;
  Tensor3 Hq;
  FreemanModel mq;
  parallelActuate(pm, {{0, 0}, {1, 0}, {2, 0}}, Gq, Hq, mq);
  CHECK(within(Gq, {{-0.637, 0.225, -0.513}, {0.123, -0.664, -0.513}, {0.513, 0.439, -0.513}}, t));
  CHECK((mq.Istar - Eigen::Vector3d(1, 2, 3).asDiagonal().toDenseMatrix()).cwiseAbs().maxCoeff() < 1e-10);
  CHECK(mq.Pstar.maxAbs() < 1e-10);
  CHECK_THROWS_WITH(parallelActuate(pm, {{0, 0}, {1, 0}}, Gq, Hq, mq), Catch::Contains("3 freedoms"));
}

TEST_CASE("App. E parallel robot: Table E-2's printed entries (to 5e-3)", "[dynamics][closed]") {
  // The printed complete hand-referenced model, with the digest's errata (freeman-influence.md §6.3): the OCR
  // interleaved its two columns; [H^q]_1(1,2) = −0.105 (printed −0.159), [H^q]_2(2,3) = −0.063 (printed −0.633),
  // [H^q]_3(1,1) = −0.225 (printed 0.225). Every other entry is as printed, except P*_2(3,3) below.
  AppE e;
  const ParallelModel& pm = e.pm;
  const double t = 0.005;
  MatX Gq;
  Tensor3 Hq;
  FreemanModel mq;
  parallelActuate(pm, {{0, 0}, {1, 0}, {2, 0}}, Gq, Hq, mq);
  CHECK(within(Gq, {{-0.637, 0.225, -0.513}, {0.124, -0.665, -0.514}, {0.513, 0.439, -0.513}}, t));
  CHECK(within(pm.w.Istar, {{1.225, 0.367, -0.589}, {0.367, 1.513, -0.106}, {-0.589, -0.106, 1.582}}, t));
  CHECK(within(Hq.plane(0), {{0.050, -0.105, 0.116}, {-0.105, -0.439, 0.326}, {0.116, 0.326, -0.665}}, t));
  CHECK(within(Hq.plane(1), {{-0.408, -0.159, -0.342}, {-0.159, 0.018, -0.063}, {-0.342, -0.063, -0.665}}, t));
  CHECK(within(Hq.plane(2), {{-0.225, 0.263, 0.225}, {0.263, -0.165, -0.263}, {0.225, -0.263, -0.664}}, t));
  CHECK(within(symPlane(pm.w.Pstar, 0), {{-0.479, 0.432, 0.188}, {0.432, 0.031, -0.629}, {0.188, -0.629, -0.762}}, t));
  // (3,3): printed −0.137; this rebuild and the digest's both give −0.142 (5.05e-3 away, one last-digit slip of
  // the print or the OCR): compared at 5.1e-3, every other entry at 5e-3.
  CHECK(within(symPlane(pm.w.Pstar, 1), {{0.259, 0.534, 0.777}, {0.534, -0.340, -0.188}, {0.777, -0.188, -0.142}}, t));
  CHECK(std::abs(symPlane(pm.w.Pstar, 1)(2, 2) - -0.137) < 5.1e-3);
  CHECK(within(symPlane(pm.w.Pstar, 2), {{0.741, -0.188, -0.054}, {-0.188, 0.459, 0.302}, {-0.054, 0.302, 2.045}}, t));
}

TEST_CASE("parallel: the platform's own terms give ω × IIω (4-50…4-54)", "[dynamics][closed]") {
  // Two spatial 6R legs are not needed for the platform terms: one PUMA-like 6-joint leg suffices to build w.
  const Model leg = modelFromJsonString(R"({"schema_version": 1, "joints": [
      {"kind": "R", "a": 0, "alpha": 1.5708, "d": 0.6}, {"kind": "R", "a": 0.43, "alpha": 0},
      {"kind": "R", "a": 0.02, "alpha": -1.5708, "d": 0.15}, {"kind": "R", "a": 0, "alpha": 1.5708, "d": 0.43},
      {"kind": "R", "a": 0, "alpha": -1.5708}, {"kind": "R", "a": 0, "alpha": 0}]})");
  std::vector<Data> datas;
  datas.emplace_back(leg);
  VecX q(6);
  q << 0.1, -0.4, 0.3, 0.5, 0.7, -0.2;
  PlatformInertia plat;
  plat.mass = 2.5;
  plat.inertia << 0.3, 0.02, -0.01, 0.02, 0.5, 0.04, -0.01, 0.04, 0.7;
  ParallelModel pm;
  parallelModel({&leg}, datas, {q}, false, plat, DynamicsOptions{}, pm);
  ParallelModel bare;
  parallelModel({&leg}, datas, {q}, false, PlatformInertia{}, DynamicsOptions{}, bare);
  VecX wd(6);
  wd << 0.3, -0.2, 0.1, 1.1, -0.7, 0.4;
  const Vec3 w = wd.tail<3>();
  const Vec3 gyro = w.cross(plat.inertia * w);
  const VecX diff = quadratic(pm.w.Pstar, wd, wd) - quadratic(bare.w.Pstar, wd, wd);
  CHECK(diff.head<3>().cwiseAbs().maxCoeff() < 1e-12);
  CHECK((diff.tail<3>() - gyro).cwiseAbs().maxCoeff() < 1e-12);
  const MatX dI = pm.w.Istar - bare.w.Istar;
  CHECK((dI.topLeftCorner<3, 3>() - 2.5 * Mat3::Identity()).cwiseAbs().maxCoeff() < 1e-12);
  CHECK((dI.bottomRightCorner<3, 3>() - plat.inertia).cwiseAbs().maxCoeff() < 1e-12);
  CHECK_THROWS_WITH(parallelModel({&leg}, datas, {q}, true, plat, DynamicsOptions{}, pm),
                    Catch::Contains("leg 0: has 6 coordinates"));
}

TEST_CASE("over-constrained: the minimum-norm split of the App. E platform's loads over six actuators (4-80…4-90)",
          "[dynamics][closed]") {
  AppE e;
  const ParallelModel& pm = e.pm;
  MatX Gq_u(6, 3);  // base and middle joints of the three legs (Freeman's Fig. 4-4 actuation)
  for (int r = 0; r < 3; ++r) Gq_u.row(2 * r) = pm.Gphi_w[r].row(0), Gq_u.row(2 * r + 1) = pm.Gphi_w[r].row(1);
  FreemanModel split;
  overconstrainedTransfer(Gq_u, pm.w, split);
  const VecX ud = Eigen::Vector3d(0.4, -0.2, 0.9), udd = Eigen::Vector3d(-1.0, 0.5, 2.0);
  const VecX Tu = pm.w.Istar * udd + quadratic(pm.w.Pstar, ud, ud) - pm.w.TL;
  const VecX Tq = split.Istar * udd + quadratic(split.Pstar, ud, ud) - split.TL;
  CHECK((Gq_u.transpose() * Tq - Tu).cwiseAbs().maxCoeff() < 1e-12 * (1 + Tu.cwiseAbs().maxCoeff()));  // (4-80)
  // the minimum-norm solution of [G^q_u]ᵀT = T_u, by a complete orthogonal decomposition
  const VecX Tmin = Gq_u.transpose().completeOrthogonalDecomposition().solve(Tu);
  CHECK((Tq - Tmin).cwiseAbs().maxCoeff() < 1e-12 * (1 + Tmin.cwiseAbs().maxCoeff()));
  CHECK(Tq.norm() > 0.1);
  CHECK_THROWS_WITH(overconstrainedTransfer(MatX::Zero(6, 3), pm.w, split), Catch::Contains("rank 0 < 3"));
}

TEST_CASE("redundant: KE-weighted pseudo-inverse and partial transfer of a planar 3R arm on a 2-D task (4-70…4-75)",
          "[dynamics][closed]") {
  const Model arm = modelFromJsonString(R"({"schema_version": 1, "gravity": [0, -9.81, 0], "joints": [
      {"kind": "R", "a": 0.5, "alpha": 0, "link": {"mass": 2, "com": [-0.25, 0, 0], "inertia": [0.01, 0.05, 0.05, 0, 0, 0]}},
      {"kind": "R", "a": 0.4, "alpha": 0, "link": {"mass": 1.5, "com": [-0.2, 0, 0], "inertia": [0.01, 0.03, 0.03, 0, 0, 0]}},
      {"kind": "R", "a": 0.2, "alpha": 0, "link": {"mass": 0.5, "com": [-0.1, 0, 0], "inertia": [0.002, 0.004, 0.004, 0, 0, 0]}}]})");
  Data d(arm);
  const VecX q = Eigen::Vector3d(0.3, 0.8, -0.5);
  FreemanModel fm;
  freemanModel(arm, d, q, VecX::Zero(3), DynamicsOptions{}, fm);
  Influence inf;
  toolInfluence(arm, d, inf, 2);
  const MatX Gu = inf.G.topRows(2);
  Tensor3 Hu(2, 3, 3);
  for (int p = 0; p < 2; ++p) Hu.plane(p) = inf.H.plane(p);
  RedundantTransfer rt;
  redundantTransfer(Gu, Hu, fm, rt);
  CHECK((Gu * rt.Gq_u - MatX::Identity(2, 2)).cwiseAbs().maxCoeff() < 1e-12);
  const VecX ud = Eigen::Vector2d(0.3, -0.7), udd = Eigen::Vector2d(1.2, 0.4);
  const VecX qd = rt.Gq_u * ud, qdd = rt.Gq_u * udd + quadratic(rt.Hq_uu, ud, ud);
  // KE-minimal: the joint rates are I*-orthogonal to the self-motion
  const Eigen::FullPivLU<MatX> lu(Gu);
  const VecX n = lu.kernel().col(0);
  CHECK(std::abs(qd.dot(fm.Istar * n)) < 1e-12 * qd.norm() * fm.Istar.norm() * n.norm());
  // the task acceleration is reproduced, and the partial transfer gives the joint-space torques
  CHECK((Gu * qdd + quadratic(Hu, qd, qd) - udd).cwiseAbs().maxCoeff() < 1e-12);
  const VecX Tq = rt.Iqu * udd + quadratic(rt.Pquu, ud, ud) - fm.TL;
  const VecX Tjoint = fm.Istar * qdd + quadratic(fm.Pstar, qd, qd) - fm.TL;
  CHECK((Tq - Tjoint).cwiseAbs().maxCoeff() < 1e-12 * (1 + Tjoint.cwiseAbs().maxCoeff()));
  // and equals the recursive Newton–Euler torques at (q, q̇, q̈)
  VecX tau(3);
  inverseDynamics(arm, d, q, qd, qdd, DynamicsOptions{}, tau);
  CHECK((Tq - tau).cwiseAbs().maxCoeff() < 1e-10 * (1 + tau.cwiseAbs().maxCoeff()));
}
