// The batch kernels compiled with the baseline flags (x86-64: SSE2; wasm: -msimd128, core/CMakeLists.txt).
#define ACHAIN_BATCH_SUFFIX Base
#include "batch_kernel.hpp"
