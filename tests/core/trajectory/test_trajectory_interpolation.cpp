// Robotics Toolbox's jtraj and ctraj: polynomial joint paths with given boundary rates through
// planJointPath, and the Cartesian interpolation between two poses without IK (interpolateCartesian).
#include <catch2/catch.hpp>

#include <Eigen/Geometry>

#include <achain/io/robot.hpp>
#include <achain/trajectory/cartesian.hpp>
#include <achain/trajectory/plan.hpp>
#include "trajectory_test_support.hpp"

using namespace achain;

namespace {
VecX vec(std::initializer_list<double> v) {
  VecX q(v.size());
  int i = 0;
  for (double x : v) q[i++] = x;
  return q;
}
double angleBetween(const Mat3& a, const Mat3& b) { return Eigen::AngleAxisd(a.transpose() * b).angle(); }
}  // namespace

TEST_CASE("jtraj: quintic with boundary velocities and accelerations through planJointPath", "[trajectory][jtraj]") {
  const Model m = builtinModel("puma560");
  PlanSpec s;
  s.profile = "quintic";
  s.from = vec({0.1, -0.4, 0.3, 0, 0.5, -0.2});
  s.to = vec({1.2, 0.3, -0.6, 0.8, -0.1, 0.4});
  s.duration = 2.5;
  s.boundary.v0 = vec({0.5, -0.2, 0, 0.1, 0, 0.3});
  s.boundary.v1 = vec({-0.3, 0.1, 0.2, 0, -0.4, 0});
  s.boundary.a1 = vec({0, 0, 1.0, 0, 0, -0.5});  // a0 left empty: zero
  const Plan p = planJointPath(m, s);
  CHECK(p.path->duration() == 2.5);  // the given duration, not rescaled
  VecX q, qd, qdd;
  p.path->evaluate(0, q, qd, qdd);
  CHECK(q == s.from);
  CHECK(qd == s.boundary.v0);
  CHECK(qdd == VecX::Zero(6));
  p.path->evaluate(2.5, q, qd, qdd);
  CHECK(q == s.to);
  CHECK(qd == s.boundary.v1);
  CHECK(qdd == s.boundary.a1);
  // Just inside the ends the polynomial itself meets them (not only the exact endpoint values).
  p.path->evaluate(1e-7, q, qd, qdd);
  CHECK((qd - s.boundary.v0).cwiseAbs().maxCoeff() < 1e-5);
  p.path->evaluate(2.5 - 1e-7, q, qd, qdd);
  CHECK((qd - s.boundary.v1).cwiseAbs().maxCoeff() < 1e-5);
  CHECK((q - s.to).cwiseAbs().maxCoeff() < 1e-6);
  test::checkPath(*p.path);  // finite differences: q against q̇, q̇ against q̈

  // The cubic meets velocities; septic too (zero jerk at the ends).
  for (const char* prof : {"cubic", "septic"}) {
    PlanSpec c = s;
    c.profile = prof;
    c.boundary.a1.resize(0);
    const Plan pc = planJointPath(m, c);
    pc.path->evaluate(2.5, q, qd, qdd);
    CHECK(qd == s.boundary.v1);
    test::checkPath(*pc.path);
  }
}

TEST_CASE("jtraj: refusals name the option", "[trajectory][jtraj][errors]") {
  const Model m = builtinModel("puma560");
  PlanSpec s;
  s.profile = "quintic";
  s.from = VecX::Zero(6);
  s.to = VecX::Constant(6, 0.5);
  s.boundary.v0 = VecX::Constant(6, 0.1);
  CHECK_THROWS_WITH(planJointPath(m, s), Catch::Contains("duration: required"));
  s.duration = 2;
  PlanSpec t = s;
  t.profile = "trapezoid";
  CHECK_THROWS_WITH(planJointPath(m, t), Catch::Contains("need a cubic, quintic or septic profile"));
  t = s;
  t.via.push_back(VecX::Constant(6, 0.2));
  CHECK_THROWS_WITH(planJointPath(m, t), Catch::Contains("no via points"));
  t = s;
  t.boundary.v1 = VecX::Zero(5);
  CHECK_THROWS_WITH(planJointPath(m, t), Catch::Contains("v1: expected 6 values, got 5"));
  t = s;
  t.profile = "cubic";
  t.boundary.a0 = VecX::Constant(6, 1.0);
  CHECK_THROWS_WITH(planJointPath(m, t), Catch::Contains("cubic cannot meet boundary accelerations"));
  t = s;
  t.torque_limits = true;
  CHECK_THROWS_WITH(planJointPath(m, t), Catch::Contains("torque limits"));
  // All-zero rates are the ordinary rest-to-rest plan (a duration still rescales it).
  t = s;
  t.boundary.v0 = VecX::Zero(6);
  CHECK(planJointPath(m, t).path->duration() == Approx(2).epsilon(1e-12));
}

TEST_CASE("interpolateCartesian (ctraj): exact ends, straight line, SLERP about a constant axis, twists by FD",
          "[trajectory][ctraj]") {
  SE3 a, b;
  a.R = rpyToMatrix(0.3, -0.2, 0.9);
  a.p = Vec3(0.4, -0.1, 0.6);
  b.R = rpyToMatrix(-0.5, 0.4, 2.1);
  b.p = Vec3(0.1, 0.5, 0.3);
  for (const char* profile : {"quintic", "trapezoid"}) {
    CartesianInterpolationSpec spec;
    spec.profile = profile;
    spec.duration = 2;
    spec.rate = 200;
    const CartesianInterpolation c = interpolateCartesian(a, b, spec);
    INFO(profile);
    CHECK(c.duration == 2);
    CHECK(c.t.back() == 2);
    CHECK(c.t.size() == 401);
    CHECK(c.poses.front() == a);  // exact, bit for bit
    CHECK(c.poses.back() == b);
    CHECK(c.length == Approx((b.p - a.p).norm()).epsilon(1e-15));
    CHECK(c.rotation == Approx(angleBetween(a.R, b.R)).epsilon(1e-12));
    const Vec3 k = c.axis;
    CHECK(k.norm() == Approx(1).epsilon(1e-12));
    double last = -1;
    for (size_t i = 0; i < c.t.size(); ++i) {
      const SE3& P = c.poses[i];
      CHECK((P.R.transpose() * P.R - Mat3::Identity()).norm() < 1e-14);  // orthonormal
      CHECK(P.R.determinant() == Approx(1).epsilon(1e-14));
      // on the segment, at s
      CHECK((P.p - (a.p + c.s[i] * (b.p - a.p))).norm() < 1e-15);
      // rotation angle from the start: monotone, equal to s·θ, about the one axis (base frame)
      const Eigen::AngleAxisd rel(P.R * a.R.transpose());
      CHECK(rel.angle() >= last - 1e-14);
      last = rel.angle();
      CHECK(rel.angle() == Approx(c.s[i] * c.rotation).margin(1e-12));
      if (rel.angle() > 1e-6) CHECK((rel.axis() - k).norm() < 1e-9);
      // twists: ω along the axis, v along the segment
      CHECK((c.twists[i].tail<3>() - c.sd[i] * c.rotation * k).norm() < 1e-15);
      CHECK((c.twists[i].head<3>() - c.sd[i] * (b.p - a.p)).norm() < 1e-15);
    }
    // Finite differences of the poses against the twists (central, interior samples).
    const double h = 1.0 / spec.rate;
    for (size_t i = 1; i + 1 < c.t.size(); i += 7) {
      const Vec3 v = (c.poses[i + 1].p - c.poses[i - 1].p) / (2 * h);
      const Eigen::AngleAxisd dR(c.poses[i + 1].R * c.poses[i - 1].R.transpose());
      const Vec3 w = dR.angle() * dR.axis() / (2 * h);
      const double scale = std::max(1.0, c.twists[i].norm());
      CHECK((v - c.twists[i].head<3>()).norm() < 1e-3 * scale);
      CHECK((w - c.twists[i].tail<3>()).norm() < 1e-3 * scale);
      const Vec6 fd_a = (c.twists[i + 1] - c.twists[i - 1]) / (2 * h);
      if (std::string(profile) == "quintic") CHECK((fd_a - c.accelerations[i]).norm() < 1e-3 * std::max(1.0, c.accelerations[i].norm()));
    }
    CHECK(c.twists.front().norm() == 0);
    CHECK(c.twists.back().norm() < 1e-12);
  }
}

TEST_CASE("interpolateCartesian: shortest duration within the limits, trapezoid of a given duration cruises at 1.5/T",
          "[trajectory][ctraj]") {
  SE3 a, b;
  b.p = Vec3(0.5, 0, 0);
  b.R = rpyToMatrix(0, 0, 0.2);
  CartesianInterpolationSpec spec;
  spec.profile = "trapezoid";
  spec.speed = 0.25;
  spec.acceleration = 1;
  spec.rate = 1000;
  const CartesianInterpolation c = interpolateCartesian(a, b, spec);
  double vmax = 0, wmax = 0;
  for (const Vec6& tw : c.twists) {
    vmax = std::max(vmax, tw.head<3>().norm());
    wmax = std::max(wmax, tw.tail<3>().norm());
  }
  CHECK(vmax == Approx(0.25).epsilon(1e-12));  // the linear limit binds
  CHECK(wmax <= 1.0);
  CHECK(c.duration == Approx(0.5 / 0.25 + 0.25 / 1).epsilon(1e-12));  // L/v + v/a
  // Quintic: the peak speed is 15/8 · L / T at the minimum T.
  spec.profile = "quintic";
  const CartesianInterpolation q = interpolateCartesian(a, b, spec);
  CHECK(q.duration == Approx(std::max(15.0 / 8 * 0.5 / 0.25, std::sqrt(10 / std::sqrt(3.0) * 0.5 / 1))).epsilon(1e-12));
  // Given duration, trapezoid: ṡ cruises at 1.5/T from T/3 to 2T/3 (lspb's default).
  spec.profile = "trapezoid";
  spec.duration = 3;
  const CartesianInterpolation g = interpolateCartesian(a, b, spec);
  CHECK(g.sd[1500] == Approx(1.5 / 3).epsilon(1e-12));
  CHECK(g.sdd[500] == Approx(0.5 / 1).epsilon(1e-12));
}

TEST_CASE("interpolateCartesian: errors name the field", "[trajectory][ctraj][errors]") {
  SE3 a, b;
  b.p = Vec3(0.1, 0, 0);
  CartesianInterpolationSpec spec;
  spec.profile = "linear";
  CHECK_THROWS_WITH(interpolateCartesian(a, b, spec), Catch::Contains("profile: 'linear'"));
  spec.profile = "quintic";
  spec.rate = 0;
  CHECK_THROWS_WITH(interpolateCartesian(a, b, spec), Catch::Contains("rate: must be finite and > 0"));
  spec.rate = 100;
  spec.duration = -1;
  CHECK_THROWS_WITH(interpolateCartesian(a, b, spec), Catch::Contains("duration"));
  spec.duration = 0;
  spec.speed = 0;
  CHECK_THROWS_WITH(interpolateCartesian(a, b, spec), Catch::Contains("speed: must be finite and > 0"));
  spec.speed = 0.25;
  CHECK_THROWS_WITH(interpolateCartesian(a, a, spec), Catch::Contains("equals the start pose"));
  spec.duration = 1;  // holding a pose for a given time is fine
  const CartesianInterpolation hold = interpolateCartesian(a, a, spec);
  CHECK(hold.poses.back() == a);
  CHECK(hold.axis.norm() == 0);
}
