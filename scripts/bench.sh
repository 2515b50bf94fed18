#!/usr/bin/env bash
# npm run bench: build, then time native, wasm and peers in one run (bench/run.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
ACHAIN_BUILD_BENCH=ON bash scripts/build.sh
node bench/run.mjs
