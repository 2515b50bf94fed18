// Total-degree homotopy continuation for N homogeneous quadrics in N + 1 unknowns (P^N): all isolated
// solutions of X·Q_k·X = 0, k = 1..N, by tracking the 2^N paths of
//   H(z, t) = (1 − t)·γ·g(z) + t·f(z),   g_k(z) = z_k² − 1   (start roots z_k = ±1),
// with a random complex γ (the gamma trick: with probability one no path meets a singularity for
// t < 1) and a random orthogonal affine chart X = M·(1, z), so that no coordinate of X is special.
// Euler predictor with adaptive step, Newton corrector, and an endgame that approaches t = 1 in
// geometrically shrinking steps. A path whose |z| exceeds `divergence` ends at infinity of the chart;
// a caller-defined exceptional set (e.g. a positive-dimensional component that is no solution of the
// application) can be recognised on the way and at the end.
//
// Used by the algebraic 4A IK (ik/algebraic_4a.cpp: 7 quadrics in the 8 Study parameters); tested on
// conics with known intersections (tests/core/math/test_homotopy.cpp). No state outside the call.
#pragma once
#include <Eigen/Dense>
#include <array>
#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <random>
#include <vector>

namespace achain {

/// Options of trackQuadricHomotopy.
struct HomotopyOptions {
  int max_steps = 5000;          ///< predictor–corrector steps per path before it counts as failed
  double divergence = 1e8;       ///< |z| beyond this: the path goes to infinity of the chart
  /// Optional: a measure (≥ 0) of how close an endpoint X is to the caller's exceptional set, or null.
  /// A path is exceptional when the measure drops below exceptional_near_end while 1 − t < 1e-3, or
  /// below exceptional_at_end when it stalls (1 − t < 1e-6) or ends.
  std::function<double(const Eigen::Matrix<std::complex<double>, Eigen::Dynamic, 1>&)> exceptional_measure;
  double exceptional_near_end = 2e-2;
  double exceptional_at_end = 5e-2;
  double max_step = 0.1;          ///< largest step in t
  double first_correction = 0.1;  ///< the corrector's first step may be at most this fraction of the predictor's
};

/// How the 2^N paths ended.
struct HomotopyStats {
  int paths = 0;        ///< 2^N
  int finite = 0;       ///< reached t = 1 at a finite point outside the exceptional set
  int diverged = 0;     ///< went to infinity of the chart
  int failed = 0;       ///< ran out of steps or stalled away from the exceptional set
  int exceptional = 0;  ///< ended on (or headed for) the exceptional set
};

/// Tracks all 2^N paths for the quadrics Q (symmetric (N+1)×(N+1), real) and appends every finite
/// endpoint X (homogeneous, complex, not normalised) to `ends`. The chart and γ are drawn from `rng`
/// (64 normal variates, then one uniform), so a seeded generator gives reproducible results.
template <int N>
HomotopyStats trackQuadricHomotopy(const std::array<Eigen::Matrix<double, N + 1, N + 1>, N>& Qr, std::mt19937_64& rng,
                                   std::vector<Eigen::Matrix<std::complex<double>, N + 1, 1>>& ends,
                                   const HomotopyOptions& opt = {}) {
  using C = std::complex<double>;
  using CVecX = Eigen::Matrix<C, N + 1, 1>;
  using CVecZ = Eigen::Matrix<C, N, 1>;
  using CMatZ = Eigen::Matrix<C, N, N>;
  using MatX = Eigen::Matrix<double, N + 1, N + 1>;
  std::array<Eigen::Matrix<C, N + 1, N + 1>, N> Q;
  for (int k = 0; k < N; ++k) Q[k] = Qr[k].template cast<C>();
  std::normal_distribution<double> Nd(0, 1);
  MatX Mc;
  for (int i = 0; i < N + 1; ++i)
    for (int j = 0; j < N + 1; ++j) Mc(i, j) = Nd(rng);
  const MatX Mo = Eigen::HouseholderQR<MatX>(Mc).householderQ();
  const Eigen::Matrix<C, N + 1, N + 1> chart = Mo.template cast<C>();
  const double angle = 2 * 3.14159265358979323846 * std::uniform_real_distribution<double>(0, 1)(rng);
  const C gamma = std::polar(1.0, angle);
  auto lift = [&](const CVecZ& z) {
    CVecX v;
    v[0] = 1;
    v.template tail<N>() = z;
    return (chart * v).eval();
  };
  auto measure = [&](const CVecX& X) {
    return opt.exceptional_measure ? opt.exceptional_measure(Eigen::Matrix<C, Eigen::Dynamic, 1>(X)) : 1e300;
  };
  auto evalH = [&](const CVecZ& z, double t, CVecZ& H, CMatZ* Hz, CVecZ* Ht) {
    const CVecX X = lift(z);
    for (int k = 0; k < N; ++k) {
      const CVecX QX = Q[k] * X;
      const C f = X.transpose() * QX;
      const C g = z[k] * z[k] - 1.0;
      H[k] = (1.0 - t) * gamma * g + t * f;
      if (Hz) {
        const Eigen::Matrix<C, 1, N> df = 2.0 * QX.transpose() * chart.template rightCols<N>();
        Hz->row(k) = t * df;
        (*Hz)(k, k) += (1.0 - t) * gamma * 2.0 * z[k];
      }
      if (Ht) (*Ht)[k] = f - gamma * g;
    }
  };
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  HomotopyStats st;
  st.paths = 1 << N;
  for (int path = 0; path < st.paths; ++path) {
    CVecZ z;
    for (int k = 0; k < N; ++k) z[k] = (path >> k) & 1 ? -1.0 : 1.0;
    double t = 0, dt = 0.02;
    bool ok = true;
    CVecZ H, Ht;
    CMatZ Hz;
    int steps = 0;
    while (t < 1 && ok) {
      if (++steps > opt.max_steps) {
        ok = false;
        ++st.failed;
        break;
      }
      // endgame: never step more than a fraction of the remaining distance near t = 1
      double h = std::min(dt, 1 - t);
      if (1 - t > 1e-12 && h > 0.5 * (1 - t) && 1 - t < 0.05) h = std::max(0.5 * (1 - t), 1e-14);
      if (1 - t <= 1e-12) h = 1 - t;
      evalH(z, t, H, &Hz, &Ht);
      Eigen::PartialPivLU<CMatZ> lu(Hz);
      const CVecZ dz = -lu.solve(Ht);
      CVecZ zn = z + h * dz;
      const double tn = t + h;
      bool conv = false;
      // Corrector: Newton must contract at once (each correction at most half the one before, the first a
      // fraction of the predictor's step) — a corrector that wanders converges onto another path
      // (path jumping), which loses a root; such a step is retried shorter. Measured on 100 random
      // 4A-chains (tests/core/ik/test_ik_sweep.cpp): without this guard the 4A homotopy lost the genuine
      // solution on 6 of them.
      const double pred = h * dz.norm();
      double last = kInfinity;
      for (int it = 0; it < 4; ++it) {
        evalH(zn, tn, H, &Hz, nullptr);
        const CVecZ corr = Eigen::PartialPivLU<CMatZ>(Hz).solve(-H);
        const double cn = corr.norm();
        if (tn < 1 && (!(cn <= 0.5 * last) || (it == 0 && cn > opt.first_correction * pred + 1e-12 * (1 + zn.norm()))))
          break;  // (at t = 1 the endpoint may be singular: Newton converges slowly there, plain steps)
        last = cn;
        zn += corr;
        if (!zn.allFinite()) break;
        if (cn <= 1e-10 * (1 + zn.norm())) {
          conv = true;
          break;
        }
      }
      if (conv || (tn >= 1 && zn.allFinite())) {
        t = tn;
        z = zn;
        dt = std::min(opt.max_step, dt * 1.6);
        if (z.norm() > opt.divergence) { ok = false; ++st.diverged; break; }
        if (1 - t < 1e-3 && measure(lift(z)) < opt.exceptional_near_end) { ok = false; ++st.exceptional; break; }
      } else {
        dt = h * 0.5;
        if (dt < 1e-13) {
          ok = false;
          // a stalled path: singular endpoints on the exceptional set converge slowly
          if (1 - t < 1e-6 && measure(lift(z)) < opt.exceptional_at_end) ++st.exceptional;
          else ++st.failed;
          break;
        }
      }
    }
    if (!ok) continue;
    const CVecX X = lift(z);
    if (measure(X) < opt.exceptional_at_end) {
      ++st.exceptional;
      continue;
    }
    ++st.finite;
    ends.push_back(X);
  }
  return st;
}

}  // namespace achain
