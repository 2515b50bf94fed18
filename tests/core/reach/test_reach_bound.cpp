// The reach bound (reach/reach_bound.hpp): never below a link origin's or the tool's distance from the base over
// random configurations within the limits, and within a stated factor of the farthest one found.
#include <catch2/catch.hpp>

#include <random>

#include <achain/io/robot.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/reach/reach_bound.hpp>

#include "../helpers.hpp"

using namespace achain;

namespace {

/// The farthest link origin and tool origin from the base origin over n random configurations; checks the bound.
void sample(const Model& m, const ReachBound& b, int n, double& far_link, double& far_tool) {
  std::mt19937 rng(7);
  Data d(m);
  far_link = far_tool = 0;
  for (int k = 0; k < n; ++k) {
    forwardKinematics(m, d, test::randomConfiguration(m, rng));
    for (int i = 0; i < m.njoints(); ++i) {
      const double r = (d.oMi[i].p - m.base.p).norm();
      REQUIRE(r <= b.links[i] * (1 + 1e-12));
      far_link = std::max(far_link, r);
    }
    const double r = (d.oMtool.p - m.base.p).norm();
    REQUIRE(r <= b.tool * (1 + 1e-12));
    far_tool = std::max(far_tool, r);
  }
}

}  // namespace

TEST_CASE("reachBound: an upper bound, within 1.2x of the farthest tool for the PUMA 560 and the prototype", "[reach][bound]") {
  // measured (20 000 samples): PUMA 560 1.016 / 0.877 m = 1.16x, prototype-4a 1.063 / 0.979 m = 1.09x,
  // prototype-4r 0.870 / 0.695 m = 1.25x (its d2 = d3 = −ρ offsets lie across the links: the triangle inequality adds them)
  const std::pair<const char*, double> cases[] = {{"puma560", 1.2}, {"prototype-4a", 1.2}, {"prototype-4r", 1.3}};
  for (const auto& [name, factor] : cases) {
    const Model m = builtinModel(name);
    const ReachBound b = reachBound(m);
    double far_link, far_tool;
    sample(m, b, 20000, far_link, far_tool);
    INFO(name << ": bound " << b.radius << " m, farthest sampled tool " << far_tool << " m");
    CHECK(b.radius >= std::max(far_link, far_tool));
    CHECK(b.tool / far_tool < factor);
  }
  // the numbers: PUMA 560 (Corke) |a2| + hypot(d3, a3) + d4 = 0.4318 + 0.15053 + 0.4318
  const ReachBound p = reachBound(builtinModel("puma560"));
  CHECK(p.tool == Approx(0.4318 + std::hypot(0.15005, 0.0203) + 0.4318).epsilon(1e-3));
}

TEST_CASE("reachBound: trees, mimic and prismatic joints, and unbounded travel is infinite", "[reach][bound]") {
  for (const char* name : {"stanford", "five-bar", "space-arm", "general-6r"}) {
    const Model m = builtinModel(name);
    const ReachBound b = reachBound(m);
    double far_link, far_tool;
    sample(m, b, 5000, far_link, far_tool);
    INFO(name);
    CHECK(std::isfinite(b.radius));
    CHECK(b.radius >= far_tool);
  }
  Model m = builtinModel("stanford");
  for (Joint& j : m.joints)
    if (j.kind == JointKind::P) j.limits.lower = -kInf;
  m.finalize();
  CHECK(std::isinf(reachBound(m).radius));
}
