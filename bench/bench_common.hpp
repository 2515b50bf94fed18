// Shared by the native benchmarks: reproducible random configurations inside the joint limits, and
// their KDL copies, so that achain and its peers time the same states; the batch rows' per-state timing.
#pragma once
#include <cmath>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>

#include <achain/dynamics/batch.hpp>
#include <achain/model/model.hpp>
#ifdef ACHAIN_HAVE_KDL
#include <kdl/jntarray.hpp>
#endif

namespace achain::bench {

/// How many states a benchmark cycles through: index them with `k++ & (kStates - 1)`.
constexpr int kStates = 256;

/// kStates configurations, uniform inside the joint limits (±3 where a limit is infinite), from `seed`.
inline std::vector<VecX> configurations(const Model& m, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<VecX> out;
  for (int k = 0; k < kStates; ++k) {
    VecX q(m.nq);
    for (int i = 0; i < m.nq; ++i) {
      const auto& L = m.joints[i].limits;
      q[i] = std::uniform_real_distribution<double>(std::isfinite(L.lower) ? L.lower : -3, std::isfinite(L.upper) ? L.upper : 3)(rng);
    }
    out.push_back(q);
  }
  return out;
}

/// A batch row timed per state: call() (one batch call over the kStates states) runs once every kStates
/// iterations, so an iteration's time is the call's time divided by kStates. BatchPath::Avx2 on a CPU
/// without it skips the row.
template <class Call>
void batchPerState(benchmark::State& st, BatchPath path, Call call) {
  if (path == BatchPath::Avx2 && !batchAvx2Available()) {
    st.SkipWithError("no AVX2 on this CPU");
    return;
  }
  size_t k = 0;
  for (auto _ : st)
    if (k++ % kStates == 0) call();
}

#ifdef ACHAIN_HAVE_KDL
inline KDL::JntArray kdlArray(const VecX& v) {
  KDL::JntArray a(v.size());
  a.data = v;
  return a;
}
inline std::vector<KDL::JntArray> kdlArrays(const std::vector<VecX>& vs) {
  std::vector<KDL::JntArray> out;
  for (const auto& v : vs) out.push_back(kdlArray(v));
  return out;
}
#endif

}  // namespace achain::bench
