// Internal to the reach area: numbers in error messages, six significant digits ("0.0127", "2e+09").
#pragma once
#include <cstdio>
#include <string>

namespace achain::reach_detail {

inline std::string shortNumber(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

}  // namespace achain::reach_detail
