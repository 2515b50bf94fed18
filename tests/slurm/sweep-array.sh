#!/usr/bin/env bash
# A sharded design sweep as a Slurm job array, on a one-node cluster this script starts and stops (issue 36,
# docs/sweeps-on-slurm.md):
#   1. the same sweep in one process (`--shard 0/1`) and merged: the reference;
#   2. a throwaway cluster in a temporary directory: its own munge key and munged socket, its own slurm.conf
#      (free ports, state, spool and logs in the directory), slurmctld and slurmd in the foreground (-D) as
#      children of this script;
#   3. docs/examples/submit-sweep.sh: an array of 3 tasks (docs/examples/sweep.sbatch, `--shard auto`) and the
#      merge (docs/examples/sweep-merge.sbatch) as a job that depends on it (afterok);
#   4. tasks 1 and 2 are killed midway: their first run writes under a file-size limit (prlimit), so the kernel
#      kills achain in the middle of a line, and the task then sleeps. Task 1 is requeued (`scontrol requeue`);
#      task 2 is cancelled (the merge is cancelled with it) and resubmitted alone (`sbatch --array=2
#      sweep.sbatch DESIGN OUTDIR 3`) with a new merge after it. Each second run must skip exactly the designs
#      the killed run finished; sweep.sbatch must refuse `--array=2` without the shard count;
#   5. the merge from Slurm must equal the reference byte for byte, and every array task must have its shard.
# On exit, however it exits: every job cancelled, slurmd, slurmctld and munged stopped by pid, and no process
# left that names the temporary directory in its command line or environment (a leftover fails the test).
#
#   tests/slurm/sweep-array.sh        ACHAIN_CLI=… (default build/native/achain)
#                                     ACHAIN_SWEEP_DESIGN=… (default docs/examples/sweep-prototype.json)
#                                     ACHAIN_SLURM_KEEP=1 keeps the temporary directory (logs, shards)
#
# Needs slurm-wlm (slurmctld, slurmd, slurm-client) and munge: scripts/setup.sh installs them when run as root.
# Not root: prints "skipped: …" (the packages missing, or that slurmd must run as root) and exits 0. Root: it
# runs, and a missing package or a daemon that does not start is a failure (with the daemons' logs).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
t_start=$(date +%s)
achain=$(realpath -m "${ACHAIN_CLI:-build/native/achain}")
design=$(realpath -m "${ACHAIN_SWEEP_DESIGN:-docs/examples/sweep-prototype.json}")
shards=3
export PATH="$PATH:/usr/sbin:/sbin"   # slurmctld, slurmd and munged live in /usr/sbin

say() { printf '[slurm %3ds] %s\n' "$(( $(date +%s) - t_start ))" "$*"; }
fail() { say "FAIL: $*" >&2; exit 1; }

missing=()
for c in munged slurmctld slurmd sbatch squeue sinfo scontrol scancel prlimit; do
  command -v "$c" >/dev/null 2>&1 || missing+=("$c")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "skipped: not root, and ${missing[*]} not installed (scripts/setup.sh, run as root, installs slurm-wlm and munge)"
    exit 0
  fi
  fail "${missing[*]} not installed (scripts/setup.sh installs slurm-wlm and munge from scripts/deps.sh)"
fi
if [ "$(id -u)" != 0 ]; then
  # slurmd starts each job's slurmstepd as root and then switches to the job's user: a cluster of one
  # unprivileged user is not something Debian's packages support.
  echo "skipped: slurmd must run as root to start jobs (run npm test as root)"
  exit 0
fi
[ -x "$achain" ] || fail "no achain binary at $achain (build it first: ACHAIN_BUILD=native bash scripts/build.sh)"
"$achain" sweep --help >/dev/null 2>&1 || fail "$achain has no sweep subcommand"
[ -f "$design" ] || fail "no design file $design"

T=$(mktemp -d /tmp/achain-slurm.XXXXXX)
chmod 755 "$T"   # munged: every directory above its socket must be searchable by all
mkdir -p "$T"/{munge,state,spool,log,run,local,cluster}
export SLURM_CONF=$T/slurm.conf   # every Slurm command, daemon and job of this script uses this cluster only
unset SLURM_JOB_ID SLURM_ARRAY_JOB_ID SLURM_ARRAY_TASK_ID SBATCH_PARTITION SBATCH_ACCOUNT SBATCH_QOS
munged_pid= slurmctld_pid= slurmd_pid=

show_logs() {
  local f
  for f in "$T"/log/*.log "$T"/cluster/*.out; do
    [ -f "$f" ] || continue
    case $f in *.stderr.log) [ -s "${f%.stderr.log}.log" ] && continue ;; esac   # the same lines as the daemon's log
    echo "----- ${f#"$T"/} (last 40 lines) -----"
    tail -n 40 "$f"
  done
}

# stop PID NAME: SIGTERM, up to 10 s, then SIGKILL; waits for it (a child of this shell).
stop() {
  local pid=$1 name=$2 i
  [ -n "$pid" ] || return 0
  kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null; return 0; }
  kill -TERM "$pid" 2>/dev/null
  for i in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then say "$name (pid $pid) ignored SIGTERM for 10 s: SIGKILL"; kill -KILL "$pid" 2>/dev/null; fi
  wait "$pid" 2>/dev/null || true
  say "stopped $name (pid $pid)"
}

# Processes that name the temporary directory in their command line (daemons, job scripts, achain) or their
# environment (slurmstepd and every job inherit SLURM_CONF=$T/slurm.conf); this script and its own children
# (the scan's tr and grep) are not counted.
mine() {  # mine PID: PID is this script or one of its descendants
  local p=$1 i
  for i in $(seq 64); do
    [ "$p" = $$ ] && return 0
    [ -n "$p" ] && [ "$p" -gt 1 ] || return 1
    p=$(awk '$1 == "PPid:" {print $2}' "/proc/$p/status" 2>/dev/null)
  done
  return 1
}
ours() {
  local p
  for p in $(grep -laF "$T" /proc/[0-9]*/cmdline /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3 | sort -u); do
    [ -d "/proc/$p" ] && ! mine "$p" && echo "$p"
  done
}

cleanup() {
  local rc=$? pids p i
  set +e
  trap - EXIT INT TERM
  if [ -n "$slurmctld_pid" ] && kill -0 "$slurmctld_pid" 2>/dev/null; then
    scancel --quiet --user="$(id -un)" 2>/dev/null
    for i in $(seq 100); do [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break; sleep 0.1; done
  fi
  [ $rc = 0 ] || { say "logs of the cluster in $T:"; show_logs; }
  stop "$slurmd_pid" slurmd
  stop "$slurmctld_pid" slurmctld
  stop "$munged_pid" munged
  export -n SLURM_CONF   # the scan's own commands do not carry it
  pids=$(ours)
  if [ -n "$pids" ]; then
    say "FAIL: processes left running after the cluster stopped (killed now):"
    for p in $pids; do ps -o pid=,args= -p "$p"; done
    kill -KILL $pids 2>/dev/null
    rc=1
  fi
  if pgrep -f "$T/slurm.conf" >/dev/null; then say "FAIL: pgrep -f $T/slurm.conf still finds:"; pgrep -af "$T/slurm.conf"; rc=1; fi
  if [ "${ACHAIN_SLURM_KEEP:-0}" = 1 ]; then say "kept $T"; else rm -rf "$T"; fi
  say "$([ $rc = 0 ] && echo passed || echo "FAILED (exit $rc)") in $(( $(date +%s) - t_start )) s$([ -z "$pids" ] && echo "; nothing left running")"
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- 1. the reference: the whole sweep in one process ----
say "local: $achain sweep $(realpath --relative-to="$repo" "$design") --shard 0/1"
"$achain" sweep "$design" --shard 0/1 --out "$T/local/shard-0.jsonl" >"$T/local/sweep.json" 2>"$T/local/sweep.err" ||
  { cat "$T/local/sweep.err"; fail "the local sweep failed"; }
"$achain" sweep-merge "$design" "$T/local/shard-0.jsonl" --out "$T/local/merged.json" >"$T/local/merge.json" 2>"$T/local/merge.err" ||
  { cat "$T/local/merge.err"; fail "the local merge failed"; }
designs=$(wc -l <"$T/local/shard-0.jsonl")
say "local: $designs designs, merged.json $(wc -c <"$T/local/merged.json") bytes"
[ "$designs" -ge $((2 * shards)) ] || fail "the design file has $designs designs; the test needs at least $((2 * shards)) (two per shard)"

# ---- 2. the cluster ----
free_port() {  # a TCP port nothing listens on now (the kernel's choice)
  node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}
ctld_port=$(free_port)
slurmd_port=$(free_port)
while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port); done
node_name=$(hostname -s)
mkdir -p "$T/spool/$node_name"
cluster=achain$$

# munge: a fresh key (munged wants ≥ 32 bytes, mode 0600, owned by its user) and every path in $T.
dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none
chmod 600 "$T/munge/munge.key"
munge_socket=$T/munge/munge.socket
munged -F --socket="$munge_socket" --key-file="$T/munge/munge.key" --pid-file="$T/run/munged.pid" \
  --log-file="$T/log/munged.log" --seed-file="$T/munge/munged.seed" >"$T/log/munged.stderr.log" 2>&1 &
munged_pid=$!

cat >"$SLURM_CONF" <<EOF
# Written by tests/slurm/sweep-array.sh: a one-node cluster for one test run, everything under $T.
ClusterName=$cluster
SlurmctldHost=$node_name(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# cred_expire: a job step credential's lifetime, also how long a requeued job waits before it may start again
# (default 120 s; the test requeues a task; 10 s leaves a loaded machine time to launch a job).
AuthInfo=socket=$munge_socket,cred_expire=10
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool/%n
SlurmctldPidFile=$T/run/slurmctld.pid
SlurmdPidFile=$T/run/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups: processes tracked through their parent pids, no task binding, no resource gathering.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
# No accounting (no slurmdbd): finished jobs are visible to scontrol for MinJobAge seconds.
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MinJobAge=600
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=sched_interval=2
DependencyParameters=kill_invalid_depend
MpiDefault=none
ReturnToService=2
KillWait=2
MailProg=/bin/true
NodeName=$node_name NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$node_name Default=YES MaxTime=INFINITE State=UP
EOF

for i in $(seq 50); do [ -S "$munge_socket" ] && break; kill -0 "$munged_pid" 2>/dev/null || break; sleep 0.1; done
[ -S "$munge_socket" ] || fail "munged did not start (no socket $munge_socket)"
slurmctld -D -i -f "$SLURM_CONF" >"$T/log/slurmctld.stderr.log" 2>&1 &
slurmctld_pid=$!
slurmd -D -f "$SLURM_CONF" -N "$node_name" >"$T/log/slurmd.stderr.log" 2>&1 &
slurmd_pid=$!
say "cluster $cluster: munged $munged_pid, slurmctld $slurmctld_pid (port $ctld_port), slurmd $slurmd_pid (port $slurmd_port), node $node_name with $(nproc) CPUs"

state=
for i in $(seq 300); do
  kill -0 "$slurmctld_pid" 2>/dev/null || fail "slurmctld exited"
  kill -0 "$slurmd_pid" 2>/dev/null || fail "slurmd exited"
  state=$(sinfo -h -N -n "$node_name" -o %t 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.1
done
[ "$state" = idle ] || fail "node $node_name not idle after 30 s (sinfo: '${state:-no answer}')"
say "node $node_name idle"

# ---- 3. the array and its dependent merge ----
# ACHAIN (read by the sbatch scripts) is a wrapper: the first run of tasks 1 and 2 writes its shard under a
# file-size limit of one and a half of the reference's average line, so the kernel kills achain (SIGXFSZ) in
# the middle of its second design's line, as a lost node or an OOM kill would stop it; the task then sleeps
# until this script deals with it. Every other run is plain achain.
line_bytes=$(( $(wc -c <"$T/local/shard-0.jsonl") / designs ))
limit=$(( line_bytes * 3 / 2 ))
cat >"$T/achain-wrapper" <<WRAPPER
#!/usr/bin/env bash
task=\${SLURM_ARRAY_TASK_ID:-}
if [ "\$1" = sweep ] && { [ "\$task" = 1 ] || [ "\$task" = 2 ]; } && [ ! -e "$T/cluster/task\$task-killed" ]; then
  prlimit --fsize=$limit "$achain" "\$@" && echo "task \$task: not stopped by the file-size limit" >&2
  echo "task \$task, first run: achain ended (exit \$?) at the $limit-byte file-size limit; waiting" >&2
  echo "\$SLURM_JOB_ID" >"$T/cluster/task\$task-killed"
  exec sleep 120
fi
exec "$achain" "\$@"
WRAPPER
chmod +x "$T/achain-wrapper"
export ACHAIN=$T/achain-wrapper

cd "$T/cluster"
submitted=$("$repo/docs/examples/submit-sweep.sh" "$design" "$shards" "$T/cluster" -- --cpus-per-task=1 --time=5) ||
  fail "submit-sweep.sh failed"
array=$(awk '$1 == "array" {print $2}' <<<"$submitted")
merge=$(awk '$1 == "merge" {print $2}' <<<"$submitted")
[ -n "$array" ] && [ -n "$merge" ] || fail "submit-sweep.sh printed no job ids: $submitted"
say "submitted array job $array (tasks 0-$((shards - 1))) and merge job $merge (afterok:$array)"

job_state() { scontrol -o show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | head -n 1 | cut -d= -f2; }
# wait_for JOB SECONDS: until JOB has ended; fails unless it COMPLETED.
wait_for() {
  local job=$1 deadline=$(( $(date +%s) + $2 )) st
  while :; do
    st=$(job_state "$job")
    case $st in
      COMPLETED) return 0 ;;
      FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED)
        squeue
        fail "job $job ended $st: $(scontrol -o show job "$job" | grep -o 'Reason=[^ ]* .*ExitCode=[^ ]*' | cut -c1-200)" ;;
    esac
    [ "$(date +%s)" -lt "$deadline" ] || { squeue; fail "job $job not done after $2 s (state ${st:-unknown})"; }
    sleep 0.2
  done
}
wait_killed() {  # wait_killed TASK: until the first run of array task TASK has been stopped by the limit
  local i
  for i in $(seq 600); do [ -s "$T/cluster/task$1-killed" ] && return 0; sleep 0.1; done
  fail "task $1's first run did not reach its file-size limit in 60 s"
}
complete_lines() { wc -l <"$1"; }   # lines ended by a newline: the designs a shard file holds
# summary_of OUTFILE: the last JSON summary in an array task's output (--open-mode=append keeps every run's)
summary_of() { grep '^{' "$1" | tail -n 1; }
field() { grep -o "\"$2\":[0-9]*" <<<"$1" | cut -d: -f2; }

# ---- 4a. task 1: killed midway, requeued by Slurm (scontrol requeue), resumed ----
wait_killed 1
kept1=$(complete_lines shard-1.jsonl)
say "task 1 killed: shard-1.jsonl holds $kept1 whole line(s) in $(wc -c <shard-1.jsonl) bytes; scontrol requeue ${array}_1"
[ "$kept1" -ge 1 ] || fail "task 1 was killed before it finished a design (limit $limit bytes): nothing to resume"
scontrol requeue "${array}_1" || fail "scontrol requeue ${array}_1 failed"

# ---- 4b. task 2: killed midway, cancelled (the merge goes with it), resubmitted alone, merged again ----
wait_killed 2
kept2=$(complete_lines shard-2.jsonl)
say "task 2 killed: shard-2.jsonl holds $kept2 whole line(s); scancel ${array}_2"
[ "$kept2" -ge 1 ] || fail "task 2 was killed before it finished a design (limit $limit bytes): nothing to resume"
scancel "${array}_2"
resub=$(sbatch --parsable --array=2 --cpus-per-task=1 --time=5 "$repo/docs/examples/sweep.sbatch" "$design" "$T/cluster" "$shards")
resub=${resub%%;*}
# The new merge waits for the resubmitted task and for the first array's other tasks (task 1: still requeued).
merge2=$(sbatch --parsable --dependency=afterok:"${array}_0:${array}_1:$resub" --kill-on-invalid-dep=yes --time=5 \
  "$repo/docs/examples/sweep-merge.sbatch" "$design" "$T/cluster")
merge2=${merge2%%;*}
say "task 2 resubmitted: array job $resub (--array=2, sweep.sbatch … $shards), merge job $merge2 (afterok:${array}_0:${array}_1:$resub)"
# Without the shard count, sweep.sbatch refuses a one-task array (--shard auto would read it as shard 0 of 1).
guard=$(sbatch --parsable --array=2 --cpus-per-task=1 --time=5 "$repo/docs/examples/sweep.sbatch" "$design" "$T/cluster")
guard=${guard%%;*}
wait_for "$merge2" 60
say "merge job $merge2 completed"
wait_for "${array}_1" 5   # done, or the merge would not have run
wait_for "${array}_0" 5

# ---- 5. checks ----
for ((k = 0; k < shards; k++)); do
  [ -s "shard-$k.jsonl" ] || fail "array task $k left no shard file shard-$k.jsonl"
done
[ "$(job_state "$merge")" = CANCELLED ] ||
  fail "merge job $merge is $(job_state "$merge"), not CANCELLED, after task 2 was (DependencyParameters=kill_invalid_depend)"
say "merge job $merge was cancelled with task 2 (its afterok could no longer be met)"
for i in $(seq 100); do [ "$(job_state "${guard}_2")" = FAILED ] && break; sleep 0.1; done
[ "$(job_state "${guard}_2")" = FAILED ] && grep -q 'not one range from 0' "achain-sweep-${guard}_2.out" ||
  fail "sweep.sbatch ran a one-task array without the shard count (job ${guard}_2: $(job_state "${guard}_2"))"
say "sweep.sbatch refused --array=2 without the shard count (job ${guard}_2 FAILED): $(grep -c '' "achain-sweep-${guard}_2.out") line of output"
restarts=$(scontrol -o show job "${array}_1" | grep -o 'Restarts=[0-9]*' | cut -d= -f2)
[ "${restarts:-0}" -ge 1 ] || fail "array task ${array}_1 was not restarted (Restarts=${restarts:-?})"
# A resumed run skips exactly the designs its killed run had finished and computes only the others.
check_resume() {  # check_resume TASK OUTFILE KEPT HOW
  local sum skipped computed lines
  sum=$(summary_of "$2")
  skipped=$(field "$sum" skipped) computed=$(field "$sum" computed) lines=$(complete_lines "shard-$1.jsonl")
  say "task $1, $4: $sum"
  [ "$skipped" = "$3" ] || fail "task $1's second run skipped ${skipped:-?} designs; its killed run had finished $3"
  [ "$(( skipped + computed ))" = "$lines" ] || fail "task $1: skipped $skipped + computed $computed ≠ $lines lines in shard-$1.jsonl"
}
check_resume 1 "achain-sweep-${array}_1.out" "$kept1" "requeued (Restarts=$restarts)"
check_resume 2 "achain-sweep-${resub}_2.out" "$kept2" "resubmitted as job $resub"
total=0
for ((k = 0; k < shards; k++)); do total=$(( total + $(complete_lines "shard-$k.jsonl") )); done
[ "$total" = "$designs" ] || fail "the shards hold $total lines; the design space has $designs designs"
if ! cmp "$T/local/merged.json" "$T/cluster/merged.json"; then
  echo "--- diff of the two, pretty-printed (first 40 lines): < one process, > Slurm array ---"
  pretty() { node -e 'console.log(JSON.stringify(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")), null, 1))' "$1"; }
  diff <(pretty "$T/local/merged.json") <(pretty "$T/cluster/merged.json") | head -n 40
  fail "the merge of the Slurm array differs from the one-process sweep"
fi
say "merged.json of the array ($shards tasks, one requeued, one resubmitted) = the one-process merged.json, byte for byte ($(wc -c <merged.json) bytes)"
