#!/usr/bin/env bash
# npm run bench: build, then time native, wasm and peers in one run (bench/run.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
ACHAIN_BUILD=wasm bash scripts/build.sh
# The native benchmarks: g++ -O3 (Release), in a folder of their own, as docs/benchmarks.md has measured them
# since the start; build/native, the tested build, is compiled by clang (scripts/lib.sh, native_cxx).
source scripts/lib.sh
achain_configure build/bench -- -DCMAKE_CXX_COMPILER="${ACHAIN_BENCH_CXX:-g++}" -DCMAKE_BUILD_TYPE=Release \
  -DACHAIN_BUILD_BENCH=ON -DACHAIN_BUILD_TESTS=OFF -DACHAIN_BUILD_CLI=OFF -DACHAIN_BUILD_BRIDGE=OFF -DACHAIN_BUILD_WASM=OFF \
  -DACHAIN_BUILD_FUZZ=OFF -DACHAIN_SANITIZE=
achain_build build/bench achain_bench
node bench/run.mjs
