// Cartesian lines and arcs through the numeric IK: on the path, exact ends, smooth joints, errors.
#include <catch2/catch.hpp>

#include <achain/kinematics/fk.hpp>
#include <achain/io/trajectory_json.hpp>
#include <achain/io/robot.hpp>
#include <achain/trajectory/cartesian.hpp>
#include <achain/trajectory/trajectory.hpp>
#include "trajectory_test_support.hpp"

using namespace achain;

namespace {
VecX degv(std::initializer_list<double> v) {
  VecX q(v.size());
  int i = 0;
  for (double x : v) q[i++] = x * kDeg;
  return q;
}
SE3 fkTool(const Model& m, const VecX& q) {
  Data d(m);
  forwardKinematics(m, d, q);
  return d.oMtool;
}
}  // namespace

TEST_CASE("cartesian line (prototype-4a, position only): tool stays on the segment", "[trajectory][cartesian]") {
  const Model m = builtinModel("prototype-4a");
  const VecX q0 = degv({100, 200, 120, 150});
  CartesianPathSpec c;
  c.goal = fkTool(m, degv({140, 230, 100, 170}));
  const SE3 start = fkTool(m, q0);
  const CartesianPlan plan = planCartesianPath(m, q0, c);
  CHECK(plan.position_only);
  CHECK(plan.length == Approx((c.goal.p - start.p).norm()));
  CHECK(plan.max_ik_error < 1e-9);
  CHECK(plan.max_deviation < 2e-4);  // 41 knots on a 0.48 m line
  const Trajectory tr = samplePath(m, *plan.path, 200);
  const Vec3 u = (c.goal.p - start.p).normalized();
  double off = 0;
  for (int k = 0; k < tr.samples(); ++k) {
    const Vec3 p = fkTool(m, tr.q.row(k).transpose()).p - start.p;
    off = std::max(off, (p - p.dot(u) * u).norm());
  }
  CHECK(off <= plan.max_deviation * 1.5 + 1e-9);
  CHECK((fkTool(m, tr.q.row(tr.samples() - 1).transpose()).p - c.goal.p).norm() < 1e-9);
  CHECK(tr.q.row(0) == q0.transpose());
  CHECK(checkRateLimits(m, tr)["ok"] == true);
  achain::test::checkPath(*plan.path, 1e-5);
}

TEST_CASE("cartesian arc: tool on the circle through start, via point and goal", "[trajectory][cartesian]") {
  const Model m = builtinModel("prototype-4a");
  const VecX q0 = degv({100, 200, 120, 150});
  const SE3 start = fkTool(m, q0);
  CartesianPathSpec c;
  c.kind = CartesianKind::Arc;
  c.goal = fkTool(m, degv({140, 230, 100, 170}));
  const Vec3 mid = 0.5 * (start.p + c.goal.p);
  c.arc_via = mid + Vec3(0, 0, 0.05);
  // the circle: every pose of the parameterisation is equidistant from the centre
  const Vec3 ctr = [&] {
    const Vec3 a = c.arc_via - start.p, b = c.goal.p - start.p, n = a.cross(b);
    return Vec3(start.p + (b.squaredNorm() * n.cross(a) + a.squaredNorm() * b.cross(n)) / (2 * n.squaredNorm()));
  }();
  const double R = (start.p - ctr).norm();
  CHECK((c.arc_via - ctr).norm() == Approx(R).epsilon(1e-12));
  double nearest_via = 1e9;
  for (int k = 0; k <= 100; ++k) {
    const SE3 T = cartesianPose(start, c, k / 100.0);
    CHECK((T.p - ctr).norm() == Approx(R).epsilon(1e-12));
    nearest_via = std::min(nearest_via, (T.p - c.arc_via).norm());
  }
  CHECK(nearest_via < R * 2 * kPi / 100);  // the arc passes the via point
  CHECK((cartesianPose(start, c, 1.0).p - c.goal.p).norm() == 0.0);
  const CartesianPlan plan = planCartesianPath(m, q0, c);
  const Trajectory tr = samplePath(m, *plan.path, 200);
  for (int k = 0; k < tr.samples(); k += 7)
    CHECK((fkTool(m, tr.q.row(k).transpose()).p - ctr).norm() == Approx(R).margin(plan.max_deviation * 1.5 + 1e-9));
  CHECK((fkTool(m, tr.q.row(tr.samples() - 1).transpose()).p - c.goal.p).norm() < 1e-9);
  c.arc_via = mid;  // collinear
  CHECK_THROWS_WITH(planCartesianPath(m, q0, c), Catch::Contains("collinear"));
}

TEST_CASE("cartesian line with orientation (puma560): SLERP tracked, limits from --vmax style overrides", "[trajectory][cartesian]") {
  const Model m = builtinModel("puma560");
  const VecX q0 = degv({10, 40, -150, 20, 30, 10});
  CartesianPathSpec c;
  c.goal = fkTool(m, degv({30, 30, -130, 0, 50, 40}));
  const SE3 start = fkTool(m, q0);
  const CartesianPlan plan = planCartesianPath(m, q0, c);
  CHECK_FALSE(plan.position_only);
  CHECK(plan.rotation > 0.1);
  const Trajectory tr = samplePath(m, *plan.path, 100);
  const SE3 end = fkTool(m, tr.q.row(tr.samples() - 1).transpose());
  CHECK((end.p - c.goal.p).norm() < 1e-9);
  CHECK((end.R - c.goal.R).cwiseAbs().maxCoeff() < 1e-8);
  // halfway in time is halfway along the (symmetric) trapezoid law: the SLERP midpoint
  VecX q, qd, qdd;
  plan.path->evaluate(0.5 * plan.path->duration(), q, qd, qdd);
  const SE3 half = fkTool(m, q), want = cartesianPose(start, c, 0.5);
  CHECK((half.p - want.p).norm() < 1e-9);
  CHECK((half.R - want.R).cwiseAbs().maxCoeff() < 1e-8);
}

TEST_CASE("cartesian errors: unreachable goal names s", "[trajectory][cartesian][errors]") {
  const Model m = builtinModel("prototype-4a");
  const VecX q0 = degv({100, 200, 120, 150});
  CartesianPathSpec c;
  c.goal = fkTool(m, q0);
  c.goal.p += Vec3(3.0, 0, 0);  // 3 m away: out of reach
  CHECK_THROWS_WITH(planCartesianPath(m, q0, c), Catch::Contains("line: IK unreachable at s ="));
  c.goal = fkTool(m, q0);
  CHECK_THROWS_WITH(planCartesianPath(m, q0, c), Catch::Contains("nothing to move"));
}
