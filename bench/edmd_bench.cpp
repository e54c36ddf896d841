// Event-driven MD throughput (issue 26: >= 1e6 collisions per second per core on G-E3). Collisions counted
// are events that change velocities (ball-ball + ball-wall); the rate is per CPU second (Google Benchmark
// divides rate counters by CPU time), so a loaded machine does not understate it.
//  - BM_IdealGas: G-E3 as in studies/gavrilov_e3_ideal_gas.toml (1000 balls of 0.5 mm, 1 m/s, g = 0, G-E2
//    cylinder, 0.16 % volume fraction; ~6 cell crossings per collision);
//  - BM_IdealGasDense: the same with 2 mm balls (10 % volume fraction, few crossings per collision);
//  - BM_Shaker: G-E2, 125 balls, 1.1 s at 52.6 Hz.
// Five repetitions each; the "max" row is the best repetition (the least disturbed by other load).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <vector>

#include "core/edmd/placement.hpp"
#include "core/edmd/system.hpp"
#include "experiments/edmd_shaker_run.hpp"

namespace {

using namespace grainlab;

void gas(benchmark::State& state, double r) {
  double collisions = 0;
  for (auto _ : state) {
    edmd::Cylinder c;
    edmd::Settings s;
    s.gravity = 0;
    edmd::System sys(c, s);
    std::mt19937_64 rng(1);
    for (const S3& p : edmd::random_positions(c, static_cast<int>(state.range(0)), r, rng))
      sys.add_ball(p, edmd::random_direction(rng), r, 1e-3);
    sys.start();
    sys.run_until(2.0);
    collisions += static_cast<double>(sys.tally().collisions());
  }
  state.counters["collisions_per_s"] = benchmark::Counter(collisions, benchmark::Counter::kIsRate);
}

void BM_IdealGas(benchmark::State& state) { gas(state, 0.5e-3); }
void BM_IdealGasDense(benchmark::State& state) { gas(state, 2e-3); }

void BM_Shaker(benchmark::State& state) {
  double collisions = 0;
  for (auto _ : state) {
    const auto r = edmd_runs::run_shaker(edmd_runs::ShakerSetup{});
    collisions += (r.rate_pair + r.rate_wall) * 1.0;  // over the 1-s window
  }
  state.counters["collisions_per_s"] = benchmark::Counter(collisions, benchmark::Counter::kIsRate);
}

double best(const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); }

BENCHMARK(BM_IdealGas)->Arg(1000)->Unit(benchmark::kMillisecond)->Repetitions(5)->ComputeStatistics("max", best);
BENCHMARK(BM_IdealGasDense)->Arg(1000)->Unit(benchmark::kMillisecond)->Repetitions(5)->ComputeStatistics("max", best);
BENCHMARK(BM_Shaker)->Unit(benchmark::kMillisecond)->Repetitions(5)->ComputeStatistics("max", best);

}  // namespace

BENCHMARK_MAIN();
