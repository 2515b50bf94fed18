#!/usr/bin/env bash
# Where a build's compile time went, from Ninja's log: the N slowest steps and the seconds per area.
#   bash scripts/compile-times.sh build/asan [N]
# Times are wall-clock per step as Ninja saw them (on 2 cores with -j2, each step had about one core). A step
# that hit ccache takes well under a second, so measure a cold build: CCACHE_DIR=$(mktemp -d) npm test.
set -euo pipefail
dir=${1:?usage: $0 BUILD_DIR [N]}
n=${2:-15}
log="$dir/.ninja_log"
[ -f "$log" ] || { echo "$0: $log not found (is $dir a Ninja build?)" >&2; exit 1; }
# the log appends a line per step and run: keep each output's last run, compile and link steps only
awk -F'\t' 'NR > 1 && $4 !~ /verify_globs|\.stamp$/ { t[$4] = ($2 - $1) / 1000 } END { for (o in t) printf "%.1f\t%s\n", t[o], o }' "$log" \
  | sort -rn > "$dir/.compile-times.tsv"
echo "slowest $n steps in $dir (s):"
head -n "$n" "$dir/.compile-times.tsv"
echo
echo "by area (s, steps):"
awk -F'\t' '{ o = $2; a = "other";
  if (o ~ /achain_core\.dir/) a = "core"; else if (o ~ /achain\.dir/) a = "cli";
  else if (o ~ /achain_tests_|achain_test_main/) a = "tests"; else if (o ~ /bridge/) a = "firmware-bridge";
  else if (o ~ /example_/) a = "examples"; else if (o ~ /fuzz/) a = "fuzz targets"; else if (o ~ /achain_wasm/) a = "wasm bindings + link";
  s[a] += $1; c[a]++; tot += $1 }
  END { for (a in s) printf "  %-22s %7.1f  %3d\n", a, s[a], c[a]; printf "  %-22s %7.1f\n", "total", tot }' "$dir/.compile-times.tsv"
