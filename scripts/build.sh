#!/usr/bin/env bash
# Builds the native library, CLI and bridge (build/native, Release) and the WebAssembly module
# (build/wasm → wasm/dist/). Incremental: re-running only rebuilds what changed.
#   ACHAIN_BUILD=all|native|wasm   what to build (default all)
#   ACHAIN_BUILD_TESTS=ON          also what npm test runs in build/native (the full-size cases, examples,
#                                  consumer builds; the whole suite is built by test.sh in build/asan)
#   ACHAIN_BUILD_BENCH=ON          also the benchmarks here (npm run bench builds its own, g++, in build/bench)
#   ACHAIN_NATIVE_CXX=g++          build/native's compiler (default clang++ when installed: scripts/lib.sh says why)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
mkdir -p build
# One build at a time: concurrent invocations (parallel work, watch scripts) wait here.
exec 9>build/.lock
flock 9

what="${ACHAIN_BUILD:-all}"

if [ "$what" != wasm ]; then
  echo "build: native (build/native)"
  # Every option the scripts rely on is passed, so a folder configured otherwise by hand is set back.
  achain_configure build/native -- -DCMAKE_CXX_COMPILER="$(native_cxx)" -DCMAKE_BUILD_TYPE=Release -DACHAIN_BUILD_BENCH="${ACHAIN_BUILD_BENCH:-OFF}" \
    -DACHAIN_BUILD_TESTS="${ACHAIN_BUILD_TESTS:-OFF}" -DACHAIN_TEST_SET=full-size -DACHAIN_BUILD_CLI=ON \
    -DACHAIN_BUILD_BRIDGE=ON -DACHAIN_SANITIZE=
  achain_build build/native
fi

if [ "$what" != native ]; then
  echo "build: wasm (build/wasm -> wasm/dist)"
  achain_configure build/wasm emcmake -- -DCMAKE_BUILD_TYPE=Release
  achain_build build/wasm
fi
