#!/usr/bin/env bash
# Builds tests/consumer/project against achain, as another project would, and runs it.
#   run.sh install   SOURCE_DIR BUILD_DIR [SANITIZERS]
#                                        — cmake --install BUILD_DIR to a temporary prefix, then find_package;
#                                          a sanitizer build's library (ACHAIN_SANITIZE) needs the consumer
#                                          compiled and linked with the same -fsanitize list
#   run.sh subdir    SOURCE_DIR BUILD_DIR  — add_subdirectory of the source tree, built in BUILD_DIR-consumer-subdir
#                                          (kept, so a re-run is incremental). It compiles the whole core again, so
#                                          it is laid out to hit the ccache entries of BUILD_DIR's own build: a
#                                          folder beside BUILD_DIR (the same depth, so CCACHE_BASEDIR makes the
#                                          same relative paths), the same generator (Ninja runs every compile
#                                          from the build folder), batch and generated files under the top build
#                                          folder. With a cold cache it took 275 s in build/native/consumer-subdir
#                                          with Make (no hit), in a random /tmp folder 7 minutes.
set -euo pipefail
mode=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "$mode" = install ]; then
  cmake --install "$3" --prefix "$tmp/prefix" > "$tmp/install.log"
  test -f "$tmp/prefix/lib/cmake/achain/achainConfig.cmake" || { cat "$tmp/install.log"; exit 1; }
  san=()
  [ -n "${4:-}" ] && san=(-DCMAKE_CXX_FLAGS="-fsanitize=$4 -fno-sanitize-recover=all" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=$4")
  # The consumer is compiled by the compiler that built the installed library, as a real consumer of a C++ library
  # must be: with ASan, Eigen's aligned allocation depends on the compiler (gcc defines __SANITIZE_ADDRESS__, clang 14
  # does not), so a gcc consumer of a clang library linked one Eigen resize that allocates one way against the
  # library's inlined free of the other ("attempting free on address which was not malloc()-ed").
  cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$3/CMakeCache.txt")
  [ -n "$cxx" ] && san+=(-DCMAKE_CXX_COMPILER="$cxx")
  cmake -S "$src/tests/consumer/project" -B "$tmp/build" -DCMAKE_PREFIX_PATH="$tmp/prefix" "${san[@]}" > "$tmp/cfg.log" || { cat "$tmp/cfg.log"; exit 1; }
  out="$tmp/build"
else
  out="$3-consumer-subdir"
  gen=()
  grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$3/CMakeCache.txt" 2>/dev/null && gen=(-G Ninja)
  # a folder made earlier with another generator is re-made (CMake refuses to switch)
  if [ -f "$out/CMakeCache.txt" ] && ! grep -q "^CMAKE_GENERATOR:INTERNAL=${gen[1]:-Unix Makefiles}\$" "$out/CMakeCache.txt"; then
    rm -rf "$out/CMakeCache.txt" "$out/CMakeFiles"
  fi
  # the same compiler as BUILD_DIR (clang++ for build/native, scripts/lib.sh), or nothing would hit the cache
  cxx=()
  c=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$3/CMakeCache.txt" 2>/dev/null)
  [ -n "$c" ] && cxx=(-DCMAKE_CXX_COMPILER="$c")
  if [ -n "$c" ] && [ -f "$out/CMakeCache.txt" ] && [ "$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$out/CMakeCache.txt")" != "$c" ]; then
    rm -rf "$out/CMakeCache.txt" "$out/CMakeFiles"  # made with another compiler earlier
  fi
  cmake "${gen[@]}" -S "$src/tests/consumer/project" -B "$out" -DACHAIN_SOURCE_DIR="$src" "${cxx[@]}" \
        -DCMAKE_BUILD_TYPE=Release > "$tmp/cfg.log" || { cat "$tmp/cfg.log"; exit 1; }
fi
cmake --build "$out" -j"$(nproc 2>/dev/null || echo 2)" > "$tmp/build.log" 2>&1 || { tail -40 "$tmp/build.log"; exit 1; }
"$out/consumer"
