# Shared by build.sh, test.sh and bench.sh (sourced, from the checkout's top folder).

# ccache (when installed) hashes paths relative to the checkout, so a fresh clone in another folder (CI)
# reuses the objects an earlier build of the same sources left in the cache; the sanitizer builds carry -g1
# line tables, and without CCACHE_NOHASHDIR ccache would also hash the build folder.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
export NODE_PATH=/usr/share/nodejs   # Debian's emcc optimizer needs acorn from there
ACHAIN_JOBS=$(nproc 2>/dev/null || echo 2)

# achain_configure DIR [emcmake] -- [cmake arguments…]
# Configures DIR with Ninja (the log goes to DIR-configure.log, shown only on failure). A folder configured
# earlier with another generator (Unix Makefiles, before 2026-11-28) is re-made: CMake refuses to switch.
# A folder configured with another C++ compiler than the one asked for (-DCMAKE_CXX_COMPILER=…) is re-made too:
# build/native was g++ before 2026-12-02 (see native_cxx).
achain_configure() {
  local dir=$1 wrap=()
  shift
  [ "${1:-}" = emcmake ] && { wrap=(emcmake); shift; }
  [ "${1:-}" = -- ] && shift
  if [ -f "$dir/CMakeCache.txt" ] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$dir/CMakeCache.txt"; then
    rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
  fi
  local a want had
  for a in "$@"; do [[ $a == -DCMAKE_CXX_COMPILER=* ]] && want=$(command -v "${a#*=}" || echo "${a#*=}"); done
  if [ -n "${want:-}" ] && [ -f "$dir/CMakeCache.txt" ]; then
    had=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$dir/CMakeCache.txt")
    [ "$(realpath -m "$had")" = "$(realpath -m "$want")" ] || rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
  fi
  mkdir -p "$dir"
  "${wrap[@]}" cmake -G Ninja -S . -B "$dir" "$@" > "$dir-configure.log" 2>&1 || { cat "$dir-configure.log"; return 1; }
}

# achain_build DIR [targets…]: builds DIR (all targets, or the ones named) on every core.
achain_build() {
  local dir=$1
  shift
  local t=()
  for x in "$@"; do t+=(--target "$x"); done
  cmake --build "$dir" -j"$ACHAIN_JOBS" "${t[@]}"
}

# native_cxx: the compiler of the tested native build (build/native: library, CLI, bridge, full-size cases).
# clang++ when installed: it compiles this code base in half the time g++ takes (a cold build/native: 607 s of
# one core against 1,148 s; algebraic_4a.cpp alone 55 s against 155 s at -O3), and the sanitizer and wasm
# builds are clang already. The benchmarks keep g++ -O3 in their own folder (scripts/bench.sh, build/bench), so
# docs/benchmarks.md stays comparable. ACHAIN_NATIVE_CXX=g++ picks another.
native_cxx() {
  if [ -n "${ACHAIN_NATIVE_CXX:-}" ]; then echo "$ACHAIN_NATIVE_CXX"
  elif command -v clang++ >/dev/null; then echo clang++
  else echo c++; fi
}
