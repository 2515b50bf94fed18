#!/usr/bin/env bash
# Builds tests/consumer/project against achain, as another project would, and runs it.
#   run.sh install   SOURCE_DIR BUILD_DIR [SANITIZERS]
#                                        — cmake --install BUILD_DIR to a temporary prefix, then find_package;
#                                          a sanitizer build's library (ACHAIN_SANITIZE) needs the consumer
#                                          compiled and linked with the same -fsanitize list
#   run.sh subdir    SOURCE_DIR BUILD_DIR  — add_subdirectory of the source tree, built in BUILD_DIR/consumer-subdir
#                                          (kept, so a re-run is incremental; inside the checkout, so ccache's
#                                          CCACHE_BASEDIR makes its paths relative and a fresh clone in another
#                                          folder reuses the objects of earlier builds — in a random /tmp folder
#                                          every object missed the cache and the test took 7 minutes)
set -euo pipefail
mode=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "$mode" = install ]; then
  cmake --install "$3" --prefix "$tmp/prefix" > "$tmp/install.log"
  test -f "$tmp/prefix/lib/cmake/achain/achainConfig.cmake" || { cat "$tmp/install.log"; exit 1; }
  san=()
  [ -n "${4:-}" ] && san=(-DCMAKE_CXX_FLAGS="-fsanitize=$4 -fno-sanitize-recover=all" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=$4")
  cmake -S "$src/tests/consumer/project" -B "$tmp/build" -DCMAKE_PREFIX_PATH="$tmp/prefix" "${san[@]}" > "$tmp/cfg.log" || { cat "$tmp/cfg.log"; exit 1; }
  out="$tmp/build"
else
  out="$3/consumer-subdir"
  cmake -S "$src/tests/consumer/project" -B "$out" -DACHAIN_SOURCE_DIR="$src" \
        -DCMAKE_BUILD_TYPE=Release > "$tmp/cfg.log" || { cat "$tmp/cfg.log"; exit 1; }
fi
cmake --build "$out" -j"$(nproc 2>/dev/null || echo 2)" > "$tmp/build.log" 2>&1 || { tail -40 "$tmp/build.log"; exit 1; }
"$out/consumer"
