#!/bin/bash
# Alternates LIGGGHTS 3.8 (Debian `liggghts`, 1 process) and grainlab's bench_sdem_bed (1 thread) on the
# settled bed, REPS times each, so both see the same machine load. Logs go to build/bench_data/liggghts/.
#   bench/peers/run_side_by_side.sh [REPS] [RF: off|cdt] [SIZE: 10k|100k]
# The LIGGGHTS bed is settled once per size (10k: 20000 steps, ~1 min; 100k: 14000 steps, ~10 min on one core).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
REPS=${1:-3}; RF=${2:-off}; SIZE=${3:-10k}
case "$SIZE" in
  10k)  NX=20; NZ=25; NSETTLE=20000; L=0.24; NWARM=1000; NSTEPS=2000; KN=10 ;;
  100k) NX=50; NZ=40; NSETTLE=14000; L=0.60; NWARM=500;  NSTEPS=1000; KN=100 ;;
  *) echo "SIZE must be 10k or 100k" >&2; exit 2 ;;
esac
data=$root/build/bench_data/liggghts; mkdir -p "$data"; cd "$data"
[ -f "bed$SIZE.data" ] || liggghts -echo none -in "$root/bench/peers/in.settle" -var NX $NX -var NZ $NZ -var NSETTLE $NSETTLE \
    -var OUT "bed$SIZE.data" -log "settle$SIZE.log" > /dev/null
rolling=$([ "$RF" = cdt ] && echo 1 || echo 0)
for rep in $(seq 1 "$REPS"); do
  uptime
  log=liggghts_${SIZE}_${RF}_r${rep}.log
  liggghts -echo none -in "$root/bench/peers/in.bench" -var DATA "bed$SIZE.data" -var L $L -var NWARM $NWARM -var NSTEPS $NSTEPS \
      -var RF "$RF" -log "$log" > /dev/null
  awk '/BENCH_BEGIN/{f=1} f&&/Loop time|CPU use/{print "  liggghts:", $0}' "$log"
  (cd "$root/build" && ./bench_sdem_bed --benchmark_filter="kN:$KN/threads:1/rolling:$rolling/" 2>&1 | grep BM_ | sed 's/^/  grainlab: /')
done
