#!/usr/bin/env bash
# Builds the wasm module with other optimisation flags into build/wasm-NAME/dist, for
# bench/wasm/variants.mjs (flag experiments; wasm/dist is untouched).
#   bash scripts/wasm-variant.sh NAME "COMPILE+LINK FLAGS" ["EXTRA LINK FLAGS"]
#   e.g. bash scripts/wasm-variant.sh simd "-O3;-flto;-msimd128"
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: $0 NAME 'FLAGS;…' ['LINK FLAGS;…']" >&2; exit 2; }
name=$1 opt=$2 link=${3:-}
mkdir -p build
exec 9>build/.lock
flock 9
export NODE_PATH=/usr/share/nodejs
dir=build/wasm-$name
emcmake cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DACHAIN_WASM_OPT="$opt" -DACHAIN_WASM_LINK_EXTRA="$link" \
  -DACHAIN_WASM_DIST="$PWD/$dir/dist" > "$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; exit 1; }
cmake --build "$dir" -j"$(nproc 2>/dev/null || echo 2)" --target achain_wasm
echo "wasm-variant: $dir/dist"
