// The serial leg models against the exact A-pair along moves (trajectory/leg_model_comparison.hpp).
#include <catch2/catch.hpp>

#include "helpers.hpp"
#include <achain/io/robot.hpp>
#include <achain/trajectory/apair_study.hpp>
#include <achain/trajectory/leg_model_comparison.hpp>

using namespace achain;

TEST_CASE("exact vs serial leg models along the thesis trapezoid (single A-pair and prototype-4a)", "[trajectory][apair-exact]") {
  ApairStudyParameters par;
  const Trapezoid1D t1 = Trapezoid1D::minimumTime(60 * kDeg, 300 * kDeg, 180 * kDeg, 720 * kDeg);
  CHECK(t1.T == Approx(1.5 + 1.0 / 12).epsilon(1e-12));
  for (Mounting mnt : {Mounting::Vertical, Mounting::Horizontal}) {
    const ExactComparison c = compareLegModels(apairStudyModel(par, mnt), {t1}, 1e-3);
    CHECK(c.max_residual < 1e-12);
    // full = exact (the serial rod is exact); the other three differ by their neglected leg terms.
    CHECK(c.rows[2].max[0] < 1e-10 * c.exact_peak[0]);
    CHECK(c.rows[0].max[0] > 1e-3 * c.exact_peak[0]);
    CHECK(c.rows[1].max[0] > 1e-3 * c.exact_peak[0]);
    CHECK(c.rows[3].max[0] > 1e-4 * c.exact_peak[0]);
    CHECK(c.rows[2].work[0] == Approx(c.exact_work[0]).epsilon(1e-9));
  }
  const Model M = builtinModel("prototype-4a");
  std::vector<Trapezoid1D> moves;
  for (int i = 0; i < 4; ++i)
    moves.push_back(Trapezoid1D::minimumTime(60 * kDeg, 300 * kDeg, M.joints[i].limits.velocity, M.joints[i].limits.acceleration));
  const ExactComparison c = compareLegModels(M, moves, 1e-2);
  CHECK(c.max_residual < 1e-12);
  for (int i = 0; i < 4; ++i) {
    CHECK(c.rows[2].max[i] < 1e-9 * c.exact_peak.maxCoeff());
    CHECK(c.rows[0].max[i] > 0);
  }
}
