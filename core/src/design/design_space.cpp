// Design k of a design space (design/design_space.hpp): grid decoding, the seeded random draw and the Sobol
// sequence, each a pure function of (space, k) so that any shard computes any design without its predecessors.
#include <achain/design/design_space.hpp>

#include <cmath>

#include <achain/math/text.hpp>

namespace achain {

const char* toString(DesignSampleKind k) {
  switch (k) {
    case DesignSampleKind::Grid: return "grid";
    case DesignSampleKind::Random: return "random";
    case DesignSampleKind::Sobol: return "sobol";
  }
  return "?";
}

namespace design_detail {

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// A uniform number in [0, 1) from a 64-bit hash (its top 53 bits).
double unit(uint64_t h) { return double(h >> 11) * 0x1.0p-53; }

/// Joe & Kuo's direction numbers (new-joe-kuo-6.21201), dimensions 2 … 32: degree s, coefficients a, m_1 … m_s.
struct SobolRow {
  int s, a;
  int m[8];
};
constexpr SobolRow kJoeKuo[] = {
    {1, 0, {1}},                          {2, 1, {1, 3}},
    {3, 1, {1, 3, 1}},                    {3, 2, {1, 1, 1}},
    {4, 1, {1, 1, 3, 3}},                 {4, 4, {1, 3, 5, 13}},
    {5, 2, {1, 1, 5, 5, 17}},             {5, 4, {1, 1, 5, 5, 5}},
    {5, 7, {1, 1, 7, 11, 19}},            {5, 11, {1, 1, 5, 1, 1}},
    {5, 13, {1, 1, 1, 3, 11}},            {5, 14, {1, 3, 5, 5, 31}},
    {6, 1, {1, 3, 3, 9, 7, 49}},          {6, 13, {1, 1, 1, 15, 21, 21}},
    {6, 16, {1, 3, 1, 13, 27, 49}},       {6, 19, {1, 1, 1, 15, 7, 5}},
    {6, 22, {1, 3, 1, 15, 13, 25}},       {6, 25, {1, 1, 5, 5, 19, 61}},
    {7, 1, {1, 3, 7, 11, 23, 15, 103}},   {7, 4, {1, 3, 7, 13, 13, 15, 69}},
    {7, 7, {1, 1, 3, 13, 7, 35, 63}},     {7, 8, {1, 3, 5, 9, 1, 25, 53}},
    {7, 14, {1, 3, 1, 13, 9, 35, 107}},   {7, 19, {1, 3, 1, 5, 27, 61, 31}},
    {7, 21, {1, 1, 5, 11, 19, 41, 61}},   {7, 28, {1, 3, 5, 3, 3, 13, 69}},
    {7, 31, {1, 1, 7, 13, 1, 19, 1}},     {7, 32, {1, 3, 7, 5, 13, 19, 59}},
    {7, 37, {1, 1, 3, 9, 25, 29, 41}},    {7, 41, {1, 3, 5, 13, 23, 1, 55}},
    {7, 42, {1, 3, 7, 3, 13, 59, 17}},
};
constexpr int kSobolDimensions = 1 + int(sizeof(kJoeKuo) / sizeof(kJoeKuo[0]));

/// The 32 direction numbers V_1 … V_32 (as 32-bit integers) of dimension d (0-based; 0 = van der Corput).
void sobolDirections(int d, uint32_t V[32]) {
  if (d == 0) {
    for (int i = 0; i < 32; ++i) V[i] = uint32_t(1) << (31 - i);
    return;
  }
  const SobolRow& r = kJoeKuo[d - 1];
  for (int i = 0; i < 32; ++i) {
    if (i < r.s) {
      V[i] = uint32_t(r.m[i]) << (31 - i);
    } else {
      uint32_t v = V[i - r.s] ^ (V[i - r.s] >> r.s);
      for (int k = 1; k < r.s; ++k)
        if ((r.a >> (r.s - 1 - k)) & 1) v ^= V[i - k];
      V[i] = v;
    }
  }
}

/// Point k (not Gray-code order: x_k = XOR of V_i over the bits i of k) of dimension d, in [0, 1).
double sobol(uint64_t k, int d, uint64_t seed) {
  uint32_t V[32];
  sobolDirections(d, V);
  uint32_t x = 0;
  for (int i = 0; i < 32 && k; ++i, k >>= 1)
    if (k & 1) x ^= V[i];
  if (seed != 0) x ^= uint32_t(splitmix64(splitmix64(seed) + uint64_t(d)) >> 32);
  return double(x) * 0x1.0p-32;
}

}  // namespace design_detail

namespace design_detail {

double fromUnit(const DesignParameter& p, double u) {
  if (p.isList()) {
    size_t i = size_t(u * double(p.values.size()));
    if (i >= p.values.size()) i = p.values.size() - 1;
    return p.values[i];
  }
  return p.lower + (p.upper - p.lower) * u;
}

}  // namespace design_detail

using design_detail::fromUnit;

std::vector<double> designParameters(const DesignSpace& space, uint64_t k) {
  if (k >= space.count)
    throw Error("design " + std::to_string(k) + ": out of range (the design space has " + std::to_string(space.count) +
                " designs, 0 … " + std::to_string(space.count == 0 ? 0 : space.count - 1) + ")");
  const size_t n = space.parameters.size();
  std::vector<double> v(n);
  switch (space.sample.kind) {
    case DesignSampleKind::Grid: {
      uint64_t rest = k;
      for (size_t i = n; i-- > 0;) {
        const DesignParameter& p = space.parameters[i];
        const uint64_t c = p.isList() ? p.values.size() : uint64_t(p.count);
        const uint64_t j = rest % c;
        rest /= c;
        if (p.isList())
          v[i] = p.values[j];
        else
          v[i] = j + 1 == c ? p.upper : p.lower + (p.upper - p.lower) * double(j) / double(c - 1);
      }
      break;
    }
    case DesignSampleKind::Random: {
      const uint64_t h = design_detail::splitmix64(design_detail::splitmix64(space.sample.seed) + k);
      for (size_t i = 0; i < n; ++i)
        v[i] = fromUnit(space.parameters[i], design_detail::unit(design_detail::splitmix64(h + 0x632be59bd9b4e019ull * (i + 1))));
      break;
    }
    case DesignSampleKind::Sobol:
      for (size_t i = 0; i < n; ++i) {
        if (int(i) >= design_detail::kSobolDimensions)
          throw Error("sample: sobol has " + std::to_string(design_detail::kSobolDimensions) + " dimensions, the space has " +
                      std::to_string(n) + " parameters");
        v[i] = fromUnit(space.parameters[i], design_detail::sobol(k, int(i), space.sample.seed));
      }
      break;
  }
  return v;
}

std::vector<std::string> designMetricNames(const DesignSpace& space) {
  std::vector<std::string> out;
  const DesignMetricsSpec& m = space.metrics;
  if (m.workspace.enabled) {
    out.push_back("workspace_volume");
    out.push_back("workspace_voxels");
    if (m.workspace.has_target) out.push_back("target_coverage");
  }
  if (m.move.enabled)
    for (const char* s : {"peak_torque", "peak_torque_joints", "rms_torque", "rms_torque_joints", "energy", "move_duration"})
      out.push_back(s);
  if (m.collision.enabled) {
    out.push_back("collision_free_range");
    out.push_back("collision_free_range_joints");
  }
  if (m.manipulability.enabled) {
    out.push_back("manipulability_mean");
    out.push_back("manipulability_min");
  }
  if (m.ik.enabled) out.push_back("ik_success");
  return out;
}

std::string designMetricUnit(const std::string& name) {
  const std::string base = name.substr(0, name.find('['));
  static constexpr const char* kUnits[][2] = {
      {"workspace_volume", "m^3"},  {"workspace_voxels", ""},         {"target_coverage", ""},
      {"peak_torque", "N*m"},       {"peak_torque_joints", "N*m"},    {"rms_torque", "N*m"},
      {"rms_torque_joints", "N*m"}, {"energy", "J"},                  {"move_duration", "s"},
      {"collision_free_range", "rad"}, {"collision_free_range_joints", "rad"},
      {"manipulability_mean", ""},  {"manipulability_min", ""},       {"ik_success", ""}};
  for (const auto& u : kUnits)
    if (base == u[0]) return u[1];
  throw Error("metric " + quoteInput(name) + ": no such metric (docs/sweeps.md lists them)");
}

}  // namespace achain
