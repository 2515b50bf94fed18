// Counts heap allocations while a test enables it: an interposed malloc (include this header in exactly
// one source file of a test executable). Every heap allocation goes through malloc: operator new
// (libstdc++) and Eigen's aligned_malloc alike. glibc lets the executable interpose malloc; the
// sanitizers interpose it themselves, so there the count is not available (kCanCount false).
#pragma once
#include <atomic>
#include <cstdlib>

namespace achain::test {
inline std::atomic<bool> g_counting{false};
inline std::atomic<long> g_allocations{0};

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kCanCount = false;
#else
constexpr bool kCanCount = true;
#endif

/// Allocations made by fn() while counting.
template <class F>
long allocationsOf(F&& fn) {
  g_allocations = 0;
  g_counting = true;
  fn();
  g_counting = false;
  return g_allocations.load();
}
}  // namespace achain::test

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
extern "C" void* __libc_malloc(std::size_t);
extern "C" void* malloc(std::size_t n) {
  if (achain::test::g_counting.load(std::memory_order_relaxed))
    achain::test::g_allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(n);
}
#endif
