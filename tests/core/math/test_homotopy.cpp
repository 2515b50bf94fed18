// The quadric homotopy of math/homotopy.hpp on conics in P² whose intersections are known in closed form.
#include <catch2/catch.hpp>

#include <achain/math/homotopy.hpp>

#include <algorithm>
#include <cmath>

using namespace achain;
using C = std::complex<double>;
using Mat3r = Eigen::Matrix<double, 3, 3>;
using CVec3 = Eigen::Matrix<C, 3, 1>;

namespace {

/// Symmetric matrix of a·w² + b·x² + c·y² + 2d·w·x + 2e·w·y + 2f·x·y over X = (w, x, y).
Mat3r conic(double a, double b, double c, double d = 0, double e = 0, double f = 0) {
  Mat3r Q;
  Q << a, d, e, d, b, f, e, f, c;
  return Q;
}

/// Affine points (x, y) of the endpoints with w ≠ 0, sorted.
std::vector<std::pair<C, C>> affine(const std::vector<CVec3>& ends) {
  std::vector<std::pair<C, C>> out;
  for (const CVec3& X : ends) out.emplace_back(X[1] / X[0], X[2] / X[0]);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.first.real() != b.first.real() ? a.first.real() < b.first.real() : a.second.real() < b.second.real();
  });
  return out;
}

}  // namespace

TEST_CASE("homotopy: a circle and an ellipse meet in the 4 real points of the closed form", "[math][homotopy]") {
  // x² + y² = 2 and x²/4 + y² = 1  →  x² = 4/3, y² = 2/3
  const std::array<Mat3r, 2> Q = {conic(-2, 1, 1), conic(-1, 0.25, 1)};
  std::mt19937_64 rng(7);
  std::vector<CVec3> ends;
  const HomotopyStats st = trackQuadricHomotopy<2>(Q, rng, ends);
  CHECK(st.paths == 4);
  CHECK(st.finite == 4);
  CHECK(st.diverged + st.failed + st.exceptional == 0);
  const auto p = affine(ends);
  REQUIRE(p.size() == 4);
  const double x = 2 / std::sqrt(3.0), y = std::sqrt(2.0 / 3.0);
  const double xs[4] = {-x, -x, x, x}, ys[4] = {-y, y, -y, y};
  for (int i = 0; i < 4; ++i) {
    CHECK(std::abs(p[i].first - xs[i]) < 1e-10);
    CHECK(std::abs(p[i].second - ys[i]) < 1e-10);
  }
}

TEST_CASE("homotopy: two circles meet in 2 finite points, the circular points at infinity are set apart", "[math][homotopy]") {
  // x² + y² = 1 and (x − 1)² + y² = 1: (1/2, ±√3/2), plus (0 : 1 : ±i) at w = 0, which every circle passes through
  const std::array<Mat3r, 2> Q = {conic(-1, 1, 1), conic(0, 1, 1, -1)};
  std::mt19937_64 rng(11);
  std::vector<CVec3> ends;
  HomotopyOptions opt;
  opt.exceptional_measure = [](const Eigen::Matrix<C, Eigen::Dynamic, 1>& X) { return std::abs(X[0]) / X.norm(); };
  const HomotopyStats st = trackQuadricHomotopy<2>(Q, rng, ends, opt);
  CHECK(st.paths == 4);
  CHECK(st.finite == 2);
  CHECK(st.exceptional + st.diverged == 2);
  const auto p = affine(ends);
  REQUIRE(p.size() == 2);
  for (int i = 0; i < 2; ++i) {
    CHECK(std::abs(p[i].first - 0.5) < 1e-10);
    CHECK(std::abs(std::abs(p[i].second) - std::sqrt(3.0) / 2) < 1e-10);
  }
  CHECK(std::abs(p[0].second + p[1].second) < 1e-10);
}

TEST_CASE("homotopy: a circle and a hyperbola that never meet in the real plane meet in 4 complex points", "[math][homotopy]") {
  // x² + y² = 1 and x·y = 2: x² = (1 ± i√15)/2, no real point
  const std::array<Mat3r, 2> Q = {conic(-1, 1, 1), conic(-2, 0, 0, 0, 0, 0.5)};
  std::mt19937_64 rng(3);
  std::vector<CVec3> ends;
  const HomotopyStats st = trackQuadricHomotopy<2>(Q, rng, ends);
  CHECK(st.finite == 4);
  const auto p = affine(ends);
  REQUIRE(p.size() == 4);
  for (int i = 0; i < 4; ++i) {
    const C x = p[i].first, y = p[i].second;
    CHECK(std::abs(x * x + y * y - 1.0) < 1e-10);
    CHECK(std::abs(x * y - 2.0) < 1e-10);
    CHECK(std::abs(x.imag()) > 0.1);
    const C x2 = x * x;
    CHECK(std::abs(x2.real() - 0.5) < 1e-10);
    CHECK(std::abs(std::abs(x2.imag()) - std::sqrt(15.0) / 2) < 1e-10);
    for (int k = 0; k < i; ++k) CHECK(std::abs(p[k].first - x) + std::abs(p[k].second - y) > 1e-6);
  }
}
