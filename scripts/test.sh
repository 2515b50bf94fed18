#!/usr/bin/env bash
# npm test: set up, build, then run every suite — Catch2 (ctest), node tests of the wasm
# module, browser tests in headless Chromium. Each suite prints its own counts.
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache (when installed) hashes paths relative to the checkout, so a fresh clone in another folder (CI)
# reuses the objects an earlier build of the same sources left in the cache.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
# the sanitizer builds carry -g1 line tables: without this ccache would also hash the build folder
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
bash scripts/setup.sh
bash scripts/build.sh

echo
echo "=== C++ (Catch2 via ctest) ==="
(cd build/native && ctest --output-on-failure -j"$(nproc 2>/dev/null || echo 2)")

echo
echo "=== C++ under ThreadSanitizer (threads sharing one Model, each with its own Data) ==="
# A separate, incremental -O1 build of the core and the one concurrency test; TSan fails it on any race.
cmake -S . -B build/tsan -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS=-O1 -DACHAIN_SANITIZE=thread \
      -DACHAIN_BUILD_CLI=OFF -DACHAIN_BUILD_BENCH=OFF -DACHAIN_BUILD_BRIDGE=OFF -DACHAIN_BUILD_WASM=OFF \
      > build/tsan-configure.log 2>&1 || { cat build/tsan-configure.log; exit 1; }
cmake --build build/tsan -j"$(nproc 2>/dev/null || echo 2)" --target achain_tests_concurrency
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" build/tsan/tests/achain_tests_concurrency

echo
echo "=== C++ under AddressSanitizer + UndefinedBehaviorSanitizer (the whole ctest suite) ==="
# A separate, incremental -O1 build (build/asan) of the core, CLI, bridge and every test, with
# -fno-sanitize-recover=all: any ASan or UBSan report aborts its test. The heavy cases run at reduced
# sizes there (ACHAIN_TEST_SCALE=reduced, set by CMake for sanitizer builds), never skipped. With clang
# (faster to build under the sanitizers, and libFuzzer's compiler) the same build holds the readers'
# libFuzzer targets (tests/fuzz/, label fuzz, 20 s each). The frame decoder's fuzz target runs in the
# build/native ctest above, so it is not built again here.
asan_start=$(date +%s)
asan_cxx=()
command -v clang++ >/dev/null && asan_cxx=(-DCMAKE_CXX_COMPILER=clang++)
cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS=-O1 -DACHAIN_SANITIZE=address,undefined \
      "${asan_cxx[@]}" -DACHAIN_BUILD_BENCH=OFF -DACHAIN_BUILD_WASM=OFF \
      > build/asan-configure.log 2>&1 || { cat build/asan-configure.log; exit 1; }
cmake --build build/asan -j"$(nproc 2>/dev/null || echo 2)"
(cd build/asan && ASAN_OPTIONS="detect_leaks=1:abort_on_error=0" UBSAN_OPTIONS="print_stacktrace=1" \
   ctest --output-on-failure -j"$(nproc 2>/dev/null || echo 2)")
echo "asan+ubsan stage: $(( $(date +%s) - asan_start )) s (build and ctest)"

echo
echo "=== WebAssembly module and hosts (node --test) ==="
node_suites=(tests/wasm/)
[ -d tests/firmware-bridge ] && ls tests/firmware-bridge/*.test.mjs >/dev/null 2>&1 && node_suites+=(tests/firmware-bridge/)
# --single-threaded (a V8 flag the runner passes on to each test file's process): no V8 background tasks, so a
# file's process cannot hang at exit in NodePlatform::DrainTasks (Node's shutdown deadlock, nodejs/node#54918, seen
# here once: a wasm test file that had passed all its tests never exited).
node --single-threaded --test --test-concurrency=2 --test-reporter=spec "${node_suites[@]}"
npx tsc --noEmit -p tests/wasm/types/tsconfig.json && echo "tsc: wasm/achain.d.ts + wasm/types/*.d.ts type-check tests/wasm/types/usage.ts"
npx tsc --noEmit -p tests/firmware-bridge/types/tsconfig.json && echo "tsc: firmware-bridge/js/bridge.d.mts type-checks tests/firmware-bridge/types/usage.ts"

echo
echo "=== Browser (playwright-core + Debian chromium, headless) ==="
npx vite build --config web/vite.config.mjs --logLevel warn
node --single-threaded --test --test-concurrency=1 --test-reporter=spec tests/web/
