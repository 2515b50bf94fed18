#!/usr/bin/env bash
# Builds tests/consumer/project against achain, as another project would, and runs it.
#   run.sh install   SOURCE_DIR BUILD_DIR [SANITIZERS]
#                                        — cmake --install BUILD_DIR to a temporary prefix, then find_package;
#                                          a sanitizer build's library (ACHAIN_SANITIZE) needs the consumer
#                                          compiled and linked with the same -fsanitize list
#   run.sh subdir    SOURCE_DIR            — add_subdirectory of the source tree (builds the core with the main
#                                          build's flags, so ccache, when present, reuses its objects)
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
else
  cmake -S "$src/tests/consumer/project" -B "$tmp/build" -DACHAIN_SOURCE_DIR="$src" \
        -DCMAKE_BUILD_TYPE=Release > "$tmp/cfg.log" || { cat "$tmp/cfg.log"; exit 1; }
fi
cmake --build "$tmp/build" -j"$(nproc 2>/dev/null || echo 2)" > "$tmp/build.log" 2>&1 || { tail -40 "$tmp/build.log"; exit 1; }
"$tmp/build/consumer"
