#!/usr/bin/env bash
# Builds the native library, CLI and tests (build/native) and the WebAssembly module
# (build/wasm → wasm/dist/). Incremental: re-running only rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache (when installed) hashes paths relative to the checkout, so a fresh clone in another folder (CI)
# reuses the objects an earlier build of the same sources left in the cache.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
jobs=$(nproc 2>/dev/null || echo 2)
mkdir -p build
# One build at a time: concurrent invocations (parallel work, watch scripts) wait here.
exec 9>build/.lock
flock 9
export NODE_PATH=/usr/share/nodejs   # Debian's emcc optimizer needs acorn from there

what="${ACHAIN_BUILD:-all}"   # all | native | wasm

if [ "$what" != wasm ]; then
  echo "build: native (build/native)"
  # Benchmarks are built by npm run bench only (ACHAIN_BUILD_BENCH=ON there): npm test and npm start skip them.
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release -DACHAIN_BUILD_BENCH="${ACHAIN_BUILD_BENCH:-OFF}" > build/native-configure.log 2>&1 || { cat build/native-configure.log; exit 1; }
  cmake --build build/native -j"$jobs"
fi

if [ "$what" != native ]; then
  echo "build: wasm (build/wasm -> wasm/dist)"
  if [ ! -f build/wasm/CMakeCache.txt ]; then
    emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release > build/wasm-configure.log 2>&1 || { cat build/wasm-configure.log; exit 1; }
  fi
  cmake --build build/wasm -j"$jobs"
fi
