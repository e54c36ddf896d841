#!/usr/bin/env bash
# CTest slurm_cluster (issue 20): a study run as a Slurm job array on a real one-node Slurm cluster must
# store the same results and verdicts, bit for bit, as a local run of the same study.
#
#   tests/slurm/slurm_test.sh GRAINLAB_BINARY SOURCE_DIR WORK_DIR
#
# 1. tests/slurm/cluster.sh start: installs slurm-wlm and munge if missing, starts munged, slurmctld and
#    slurmd (stopped again on any exit, by the trap below);
# 2. grainlab run tests/slurm/slurm_study.toml into WORK_DIR/local;
# 3. grainlab submit the same study as a 4-task array into WORK_DIR/cluster; waits until the array and
#    its report job have left the queue (SLURM_TEST_WAIT_TIMEOUT seconds, default 600);
# 4. every array task and the report job ended COMPLETED with exit code 0 (Slurm's job completion log);
# 5. tools/compare_results.py: same run folders, result.toml identical outside [provenance],
#    series_*.csv, verdicts.csv and the other CSVs identical.
# Exit 0 pass, 1 fail (with the Slurm and job logs printed), 77 skip (Slurm cannot be installed or
# started here; cluster.sh says why).
set -euo pipefail

if [[ $# -ne 3 ]]; then
  echo "usage: $0 GRAINLAB_BINARY SOURCE_DIR WORK_DIR" >&2
  exit 2
fi
GRAINLAB=$(readlink -f "$1")
SRC=$(readlink -f "$2")
mkdir -p "$3"
WORK=$(readlink -f "$3")
HERE=$SRC/tests/slurm
STUDY=$HERE/slurm_study.toml
STUDY_NAME=slurm_smoke
TIER=quick
ARRAY=4
WAIT_TIMEOUT=${SLURM_TEST_WAIT_TIMEOUT:-600}

say() { echo "slurm_test: $*" >&2; }

# The cluster's state directory sits under /tmp, not in WORK_DIR: munged wants every directory above
# its socket executable by all, which a build tree under /root (0700) is not. It is named after
# WORK_DIR, so that a rerun finds (and stops) daemons left by a run that was killed (CTest's timeout
# kills without a trap), and two build trees do not share one.
SLURM_TEST_DIR=/tmp/grainlab-slurm-$(printf '%s' "$WORK" | md5sum | cut -c1-12)
export SLURM_TEST_DIR

finish() {
  local rc=$?
  [[ -z ${waiter:-} ]] || kill "$waiter" 2>/dev/null || true
  "$HERE/cluster.sh" stop || true
  if [[ $rc == 0 || $rc == 77 ]]; then
    rm -rf "$SLURM_TEST_DIR"
  else
    say "cluster state and logs kept in $SLURM_TEST_DIR, results in $WORK"
  fi
  exit "$rc"
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

dump_logs() {
  local f
  for f in "$WORK"/cluster/slurm/* "$SLURM_TEST_DIR"/log/slurmctld.log "$SLURM_TEST_DIR"/log/slurmd.log \
           "$SLURM_TEST_DIR"/log/jobcomp.txt; do
    [[ -f $f ]] || continue
    echo "----- $f (last 40 lines)" >&2
    tail -n 40 "$f" >&2
  done
}

submitted=
fail() {
  say "FAIL: $*"
  [[ -z $submitted ]] || dump_logs   # the logs say nothing before jobs ran
  exit 1
}

command -v python3 >/dev/null || fail "python3 is needed to compare the results (apt-get install python3)"

# --- 1. the cluster -----------------------------------------------------------------------------------
rc=0
"$HERE/cluster.sh" start || rc=$?
if [[ $rc == 77 ]]; then
  say "SKIP: no Slurm cluster here (see cluster.sh's message above)"
  exit 77
elif [[ $rc != 0 ]]; then
  fail "the test cluster did not start (exit $rc; cluster.sh printed its logs)"
fi
# shellcheck source=/dev/null
source "$SLURM_TEST_DIR/env.sh"

rm -rf "$WORK/local" "$WORK/cluster"
cd "$WORK"   # the job script's working directory is the directory grainlab submit runs in

# --- 2. the local run ---------------------------------------------------------------------------------
say "local run: grainlab run $STUDY --tier $TIER --results $WORK/local --jobs 2"
"$GRAINLAB" run "$STUDY" --tier "$TIER" --results "$WORK/local" --jobs 2 \
  || fail "the local run of $STUDY failed (its checks must pass before Slurm is compared with it)"

# --- 3. the same study on Slurm -----------------------------------------------------------------------
say "submit: grainlab submit $STUDY --tier $TIER --array $ARRAY --results $WORK/cluster"
out=$("$GRAINLAB" submit "$STUDY" --tier "$TIER" --array "$ARRAY" --results "$WORK/cluster" 2>&1) \
  || fail "grainlab submit failed:"$'\n'"$out"
echo "$out"
array_id=$(sed -n 's/.*array job \([0-9][0-9]*\).*/\1/p' <<< "$out" | head -n 1)
report_id=$(sed -n 's/.*report job \([0-9][0-9]*\).*/\1/p' <<< "$out" | head -n 1)
[[ -n $array_id && -n $report_id ]] \
  || fail "grainlab submit did not print 'array job <ID>' and 'report job <ID>'"
submitted=1
say "waiting up to ${WAIT_TIMEOUT}s for array job $array_id and report job $report_id"
# In the background: bash runs the TERM/INT trap (which stops the cluster) only between commands, and
# `wait` is interruptible where a foreground command of up to WAIT_TIMEOUT seconds is not.
"$HERE/cluster.sh" wait "$WAIT_TIMEOUT" "$array_id" "$report_id" &
waiter=$!
wait "$waiter" || { waiter=; fail "the jobs did not finish within ${WAIT_TIMEOUT}s (set SLURM_TEST_WAIT_TIMEOUT to wait longer)"; }
waiter=

# --- 4. how every job ended ---------------------------------------------------------------------------
# Without accounting (no sacct) slurmctld's job completion log (jobcomp/filetxt) has one line per finished
# job or array task: "JobId=N ... JobState=S ... [ArrayJobId=A ArrayTaskId=K] ... ExitCode=E:S".
jobcomp_check() {
  python3 - "$SLURM_TEST_JOBCOMP" "$array_id" "$report_id" "$ARRAY" <<'EOF'
import sys
path, array_id, report_id, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
jobs = []
for line in open(path, encoding="utf-8", errors="replace"):
    fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
    jobs.append(fields)
tasks = [j for j in jobs if j.get("ArrayJobId") == array_id]
report = [j for j in jobs if j.get("JobId") == report_id]
bad = []
if sorted(int(t.get("ArrayTaskId", -1)) for t in tasks) != list(range(1, n + 1)):
    bad.append(f"array job {array_id}: tasks {sorted(t.get('ArrayTaskId') for t in tasks)} finished, "
               f"expected 1..{n}")
if len(report) != 1:
    bad.append(f"report job {report_id}: {len(report)} completion records")
for j in tasks + report:
    if j.get("JobState") != "COMPLETED" or j.get("ExitCode") != "0:0":
        what = f"array task {array_id}_{j['ArrayTaskId']}" if "ArrayTaskId" in j else f"report job {report_id}"
        bad.append(f"{what} (job {j.get('JobId')}): JobState={j.get('JobState')} ExitCode={j.get('ExitCode')}")
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
}
# slurmctld writes the record when the job ends; give it a moment past the last squeue.
for attempt in 1 2 3 4 5 6 7 8 9 10; do
  problems=$(jobcomp_check) && break
  [[ $attempt == 10 ]] && fail "not every job ended well:"$'\n'"$problems"
  sleep 1
done
say "all $ARRAY array tasks and the report job COMPLETED with exit code 0"

# --- 5. bit for bit -----------------------------------------------------------------------------------
python3 "$SRC/tools/compare_results.py" "$WORK/local" "$WORK/cluster" "$STUDY_NAME" "$TIER" \
  || fail "the Slurm run's results differ from the local run's (above)"
say "PASS: the Slurm job array stored the same results and verdicts as the local run"
