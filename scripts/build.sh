#!/usr/bin/env bash
# Builds the native library, CLI and tests (build/native) and the WebAssembly module
# (build/wasm → wasm/dist/). Incremental: re-running only rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
export NODE_PATH=/usr/share/nodejs   # Debian's emcc optimizer needs acorn from there

echo "build: native (build/native)"
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release > build-native-configure.log 2>&1 || { cat build-native-configure.log; exit 1; }
cmake --build build/native -j"$jobs"

echo "build: wasm (build/wasm -> wasm/dist)"
if [ ! -f build/wasm/CMakeCache.txt ]; then
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release > build-wasm-configure.log 2>&1 || { cat build-wasm-configure.log; exit 1; }
fi
cmake --build build/wasm -j"$jobs"
rm -f build-native-configure.log build-wasm-configure.log
