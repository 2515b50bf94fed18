// The rank-3 and rank-4 arrays of Freeman's notation, against explicit index sums on random data.
#include <catch2/catch.hpp>

#include <random>

#include <achain/math/tensor3.hpp>

using namespace achain;

namespace {
Tensor3 randomTensor(int P, int M, int N, std::mt19937& rng) {
  std::uniform_real_distribution<double> U(-1, 1);
  Tensor3 C(P, M, N);
  for (int p = 0; p < P; ++p)
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) C(p, m, n) = U(rng);
  return C;
}
}  // namespace

TEST_CASE("math: Tensor3 products equal their index sums", "[math]") {
  std::mt19937 rng(11);
  const int P = 3, M = 4, N = 4, K = 2;
  const Tensor3 C = randomTensor(P, M, N, rng);
  const VecX a = VecX::Random(M), b = VecX::Random(N);
  const MatX A = MatX::Random(K, P), D = MatX::Random(M, 3), E = MatX::Random(N, 2);
  // quadratic: entry p = aᵀ C_p b
  const VecX q = quadratic(C, a, b);
  for (int p = 0; p < P; ++p) {
    double s = 0;
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) s += a[m] * C(p, m, n) * b[n];
    CHECK(q[p] == Approx(s).epsilon(1e-14));
  }
  // generalized dot product: (A∘C)_k = Σ_p A(k,p) C_p
  const Tensor3 AC = dot(A, C);
  REQUIRE(AC.planes() == K);
  for (int k = 0; k < K; ++k)
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        double s = 0;
        for (int p = 0; p < P; ++p) s += A(k, p) * C(p, m, n);
        CHECK(AC(k, m, n) == Approx(s).margin(1e-14));
      }
  // congruence: plane p = Dᵀ C_p E
  Tensor3 DCE;
  congruence(D, C, E, DCE);
  REQUIRE(DCE.rows() == 3);
  REQUIRE(DCE.cols() == 2);
  for (int p = 0; p < P; ++p) {
    const MatX ref = D.transpose() * C.plane(p) * E;
    CHECK((DCE.plane(p) - ref).cwiseAbs().maxCoeff() < 1e-14);
  }
  // plane-wise transpose
  const Tensor3 T = transposePlanes(C);
  for (int p = 0; p < P; ++p)
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) CHECK(T(p, n, m) == C(p, m, n));
  // a bad shape is an error, not a crash
  CHECK_THROWS_AS(Tensor3(-1, 2, 2), Error);
}
