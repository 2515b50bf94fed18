#!/usr/bin/env bash
# Submits a design sweep to Slurm: an array of SHARDS tasks (sweep.sbatch, one shard each) and a merge that
# runs when all of them have succeeded (sweep-merge.sbatch, --dependency=afterok). docs/sweeps-on-slurm.md.
#
#   docs/examples/submit-sweep.sh DESIGN.json SHARDS [OUTDIR] [-- extra sbatch options…]
#
# e.g. ACHAIN=$PWD/build/native/achain docs/examples/submit-sweep.sh my-design.json 64 runs/my-design -- -p long
# Prints the two job ids ("array <id>", "merge <id>") on stdout. The jobs' .out files land in the directory
# sbatch is run from; the shards and merged.json in OUTDIR (default: the design's stem).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
design=${1:?usage: submit-sweep.sh DESIGN.json SHARDS [OUTDIR] [-- sbatch options…]}
shards=${2:?usage: submit-sweep.sh DESIGN.json SHARDS [OUTDIR] [-- sbatch options…]}
shift 2
outdir=
if [ $# -gt 0 ] && [ "$1" != -- ]; then outdir=$1; shift; fi
if [ "${1:-}" = -- ]; then shift; fi
outdir=${outdir:-$(basename "${design%.json}")}
[[ $shards =~ ^[1-9][0-9]*$ ]] || { echo "submit-sweep: SHARDS must be a positive integer, not '$shards'" >&2; exit 2; }
# Absolute paths: the jobs may start in another directory (sbatch --chdir, a site's defaults).
design=$(realpath "$design")
mkdir -p "$outdir"
outdir=$(realpath "$outdir")
# A large array can be throttled to K tasks at a time with --array=0-$((shards - 1))%K.
array=$(sbatch --parsable --array=0-$((shards - 1)) "$@" "$here/sweep.sbatch" "$design" "$outdir")
array=${array%%;*}   # --parsable prints "id" or "id;cluster"
merge=$(sbatch --parsable --dependency=afterok:"$array" --kill-on-invalid-dep=yes "$@" "$here/sweep-merge.sbatch" "$design" "$outdir")
merge=${merge%%;*}
echo "array $array"
echo "merge $merge"
