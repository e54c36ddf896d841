#pragma once
// How many cores this process may use: the CPU affinity mask (taskset, cgroup cpusets, a batch
// scheduler's binding), not the machine's core count, so `--jobs` defaults and per-run engine threads do
// not oversubscribe a restricted process.
namespace grainlab {

/// CPUs in this process's affinity mask (sched_getaffinity); hardware_concurrency where that fails; >= 1.
int available_cores();

}  // namespace grainlab
