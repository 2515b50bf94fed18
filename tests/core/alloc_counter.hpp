// Counts heap allocations while a test enables it (include this header in exactly one source file of a test
// executable). Every heap allocation goes through malloc: operator new (libstdc++) and Eigen's aligned_malloc
// alike. Normal builds interpose malloc (glibc lets the executable do so). The sanitizers interpose malloc
// themselves, so sanitizer builds (ASan, TSan; gcc or clang) count through the sanitizer allocator's hook
// (__sanitizer_install_malloc_and_free_hooks), which sees the same allocations.
#pragma once
#include <atomic>
#include <cstdlib>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ACHAIN_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define ACHAIN_TEST_SANITIZED 1
#endif
#endif

#ifdef ACHAIN_TEST_SANITIZED
#include <sanitizer/allocator_interface.h>
#endif

namespace achain::test {
inline std::atomic<bool> g_counting{false};
inline std::atomic<long> g_allocations{0};

/// Allocations made by fn() while counting.
template <class F>
long allocationsOf(F&& fn) {
  g_allocations = 0;
  g_counting = true;
  fn();
  g_counting = false;
  return g_allocations.load();
}

#ifdef ACHAIN_TEST_SANITIZED
namespace detail {
inline void onMalloc(const volatile void*, std::size_t) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
}
inline void onFree(const volatile void*) {}
inline const int g_hooks = __sanitizer_install_malloc_and_free_hooks(onMalloc, onFree);
}  // namespace detail
#endif
}  // namespace achain::test

#ifndef ACHAIN_TEST_SANITIZED
extern "C" void* __libc_malloc(std::size_t);
extern "C" void* malloc(std::size_t n) {
  if (achain::test::g_counting.load(std::memory_order_relaxed))
    achain::test::g_allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(n);
}
#endif
