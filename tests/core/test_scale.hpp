// Problem sizes of the heavy tests. Sanitizer builds (ACHAIN_SANITIZE, build/asan in npm test) run ctest with
// ACHAIN_TEST_SCALE=reduced, where the full sizes would take tens of minutes: those tests then run the same
// code on smaller problems with checks that hold at that size. Every test still runs; none is skipped.
#pragma once
#include <cstdlib>
#include <cstring>

namespace achain::test {

/// True when ACHAIN_TEST_SCALE=reduced (set by tests/CMakeLists.txt for sanitizer builds).
inline bool reducedSizes() {
  const char* s = std::getenv("ACHAIN_TEST_SCALE");
  return s != nullptr && std::strcmp(s, "reduced") == 0;
}

/// `full` normally, `reduced` under ACHAIN_TEST_SCALE=reduced.
template <class T>
T scaled(T full, T reduced) {
  return reducedSizes() ? reduced : full;
}

}  // namespace achain::test
