#!/bin/bash
# Alternates Bullet 3.24 (Debian `libbullet-dev`, bench/peers/bullet_pgs.cpp) and grainlab's bench_ndem_pgs
# (serial PGS, one thread) on the same settled random pile, REPS times each, so both see the same machine load.
# Both run 20 PGS iterations with warm start after 50 warm-up steps at dt = 5 ms; Bullet with 1 normal + 2 friction
# rows per contact (BT_2FRIC=1), grainlab with 3 rows (normal + 2 tangential). Logs go to build/bench_data/bullet/.
#   bench/peers/run_pgs_side_by_side.sh [REPS] [SIZE: 10k|100k]
# The pile is settled once per size by Bullet (`bullet_pgs settle`: 10k ~1 min, 100k ~15 min on one core) and
# read by both programs (bench/peer_pile.hpp).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
REPS=${1:-3}; SIZE=${2:-10k}
case "$SIZE" in
  10k)  NX=20; NZ=25; KN=10 ;;
  100k) NX=50; NZ=40; KN=100 ;;
  *) echo "SIZE must be 10k or 100k" >&2; exit 2 ;;
esac
data=$root/build/bench_data/bullet; mkdir -p "$data"; cd "$data"
[ -x bullet_pgs ] || g++ -O2 "$root/bench/peers/bullet_pgs.cpp" $(pkg-config --cflags --libs bullet) -o bullet_pgs
[ -f "pile$SIZE.bin" ] || ./bullet_pgs settle $NX $NZ "pile$SIZE.bin" > "settle$SIZE.log"
for rep in $(seq 1 "$REPS"); do
  uptime
  BT_2FRIC=1 taskset -c 0 ./bullet_pgs bench "pile$SIZE.bin" $NX 20 1 50 20 2>/dev/null | grep RESULT |
    grep -o ' N=[0-9]*\| contacts=[0-9.]*\| step_ms=[0-9.]*\|solve_ms=[0-9.]*\|iter_ms=[0-9.]*\|ns_per_contact_iter=[0-9.]*\|ns_per_row_iter=[0-9.]*' |
    tr '\n' ' ' | sed 's/^/  bullet:   /; s/$/\n/'
  (cd "$root/build" && taskset -c 0 ./bench_ndem_pgs --benchmark_filter="pile.*/$KN/0/0/" 2>&1 | grep BM_ | sed 's/^/  grainlab: /')
done
