// Shared by the native benchmarks: reproducible random configurations inside the joint limits, and
// their KDL copies, so that achain and its peers time the same states.
#pragma once
#include <cmath>
#include <random>
#include <vector>

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
