#!/bin/bash
# Alternates LIGGGHTS 3.8 (Debian `liggghts`, 1 process) and grainlab's bench_sdem_bed (1 thread) on the
# 10k settled bed, REPS times each, so both see the same machine load. Logs go to build/bench_data/liggghts/.
#   bench/peers/run_side_by_side.sh [REPS] [RF: off|cdt]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
REPS=${1:-3}; RF=${2:-off}
data=$root/build/bench_data/liggghts; mkdir -p "$data"; cd "$data"
[ -f bed10k.data ] || liggghts -echo none -in "$root/bench/peers/in.settle" -var NX 20 -var NZ 25 -var NSETTLE 20000 \
    -var OUT bed10k.data -log settle10k.log > /dev/null
rolling=$([ "$RF" = cdt ] && echo 1 || echo 0)
for rep in $(seq 1 "$REPS"); do
  uptime
  log=liggghts_10k_${RF}_r${rep}.log
  liggghts -echo none -in "$root/bench/peers/in.bench" -var DATA bed10k.data -var L 0.24 -var NWARM 1000 -var NSTEPS 2000 \
      -var RF "$RF" -log "$log" > /dev/null
  awk '/BENCH_BEGIN/{f=1} f&&/Loop time|CPU use/{print "  liggghts:", $0}' "$log"
  (cd "$root/build" && ./bench_sdem_bed --benchmark_filter="kN:10/threads:1/rolling:$rolling/" 2>&1 | grep BM_ | sed 's/^/  grainlab: /')
done
