#!/usr/bin/env bash
# The result store under what happens to real users, through the real program:
#  1. many concurrent writers: 4 shards, a duplicate shard and 2 whole-study runs at once on one store;
#     every run computed exactly once, everyone exits 0, and the store equals a one-process run;
#  2. kill -9 at random points: no partial run is ever visible, leftovers are cleaned, the resumed
#     study equals the reference;
#  3. a full disk (a tiny tmpfs): a run that could not be stored is not "ok", the exit code says so,
#     the message names the file, nothing is left half-written;
#  4. a read-only results folder: refused before any run is computed.
# Cases 3 and 4 need mount(2) (root); without it they are skipped with a message, the others still run.
# Usage: store_faults.sh GRAINLAB SOURCE_DIR WORK_DIR
set -euo pipefail
grainlab=$1 src=$2 work=$3
study=$src/tests/pipeline/faults_study.toml
compare="python3 $src/tools/compare_results.py"
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
stored_ok_runs() { find "$1" -mindepth 1 -maxdepth 1 -regextype posix-extended -regex '.*/[0-9a-f]{16}' | wc -l; }
# Every run folder visible in a store is complete (has its checksum): no partial results.
check_no_partial() {
  local d
  for d in $(find "$1" -mindepth 1 -maxdepth 1 -regextype posix-extended -regex '.*/[0-9a-f]{16}'); do
    [ -f "$d/complete" ] || fail "partial run folder $d"
  done
}

echo "== reference: one process"
"$grainlab" run "$study" --results "$work/ref" --jobs 2 > "$work/ref.log" 2>&1 || { cat "$work/ref.log"; fail "reference run"; }
ref=$work/ref/faults_smoke/quick
n=$(stored_ok_runs "$ref")
[ "$n" = 12 ] || fail "reference has $n runs, expected 12"

echo "== 1. concurrent writers on one store"
pids=()
for k in 1 2 3 4 2; do
  "$grainlab" run "$study" --results "$work/shared" --jobs 1 --shard "$k/4" > "$work/shard-$k-$RANDOM.log" 2>&1 & pids+=($!)
done
for w in a b; do
  "$grainlab" run "$study" --results "$work/shared" --jobs 2 > "$work/whole-$w.log" 2>&1 & pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || { cat "$work"/*.log; fail "a concurrent writer exited non-zero"; }; done
"$grainlab" report "$study" --results "$work/shared" > "$work/report.log" 2>&1 || { cat "$work/report.log"; fail "report"; }
$compare "$work/ref" "$work/shared" faults_smoke quick || fail "concurrent store differs from the reference"
computed=$(cat "$work"/shard-*.log "$work"/whole-*.log | grep -cE '\] [0-9a-f]{16} ok \(' || true)
[ "$computed" = 12 ] || { cat "$work"/shard-*.log "$work"/whole-*.log; fail "$computed computations for 12 runs (each must run exactly once)"; }
check_no_partial "$work/shared/faults_smoke/quick"

echo "== 2. kill -9 at random points"
for delay in 0.15 0.4 0.9 1.7; do
  "$grainlab" run "$study" --results "$work/killed" --jobs 2 > "$work/killed.log" 2>&1 &
  pid=$!
  sleep "$delay"
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  [ -d "$work/killed/faults_smoke/quick" ] && check_no_partial "$work/killed/faults_smoke/quick"
done
"$grainlab" status "$study" --results "$work/killed" --tier quick > "$work/status.log" 2>&1 || { cat "$work/status.log"; fail "status"; }
"$grainlab" run "$study" --results "$work/killed" --jobs 2 > "$work/resumed.log" 2>&1 || { cat "$work/resumed.log"; fail "resume after kill -9"; }
leftover=$(find "$work/killed" -name '.tmp-*' | wc -l)
[ "$leftover" = 0 ] || fail "$leftover temporary folders left after resume"
$compare "$work/ref" "$work/killed" faults_smoke quick || fail "resumed store differs from the reference"

mnt=$work/mnt
mkdir -p "$mnt"
if ! mount -t tmpfs -o size=24k tmpfs "$mnt" 2>/dev/null; then
  echo "SKIP cases 3 and 4: cannot mount a tmpfs here (needs root)"
  echo "store faults: cases 1-2 passed"
  exit 0
fi
trap 'umount "$mnt" 2>/dev/null || true' EXIT

echo "== 3. disk full"
set +e
"$grainlab" run "$study" --results "$mnt/r" --jobs 2 > "$work/full.log" 2>&1
rc=$?
set -e
cat "$work/full.log" | tail -5
[ "$rc" != 0 ] || fail "a run on a full disk exited 0"
grep -q "No space left on device" "$work/full.log" || fail "no 'No space left on device' in the output"
grep -qE "cannot (create|write|replace|rename) '?$mnt/" "$work/full.log" || fail "the message does not name the file"
[ -d "$mnt/r/faults_smoke/quick" ] && check_no_partial "$mnt/r/faults_smoke/quick"
stored=$( [ -d "$mnt/r/faults_smoke/quick" ] && stored_ok_runs "$mnt/r/faults_smoke/quick" || echo 0)
claimed=$(grep -cE '\] [0-9a-f]{16} ok \(' "$work/full.log" || true)
[ "$claimed" = "$stored" ] || fail "$claimed runs reported ok but $stored stored"
[ "$stored" -lt 12 ] || fail "the tiny disk held every run: the case tested nothing"
umount "$mnt"

echo "== 4. read-only results folder"
mount -t tmpfs -o size=1m,ro tmpfs "$mnt"
set +e
"$grainlab" run "$study" --results "$mnt/r" --jobs 2 > "$work/ro.log" 2>&1
rc=$?
set -e
cat "$work/ro.log"
[ "$rc" = 2 ] || fail "read-only results: exit $rc, expected 2"
grep -q "Read-only file system" "$work/ro.log" || fail "the message does not say why"
! grep -qE '\] [0-9a-f]{16} ' "$work/ro.log" || fail "runs were computed before the folder was found unwritable"
umount "$mnt"
trap - EXIT
echo "store faults: all 4 cases passed"
