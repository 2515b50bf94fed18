// The batch kernels compiled with -mavx2 -mfma (x86-64 only, core/CMakeLists.txt); batch.cpp runs them
// only on a CPU that has both. Elsewhere this file is empty.
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
#define ACHAIN_BATCH_SUFFIX Avx2
#include "batch_kernel.hpp"
#endif
