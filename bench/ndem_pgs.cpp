// Google Benchmark of the NDEM projected Gauss-Seidel on a resting bed (issue 8, Performance).
// Scene: n^3 spheres (d = 13 mm, pellet material) in a simple cubic lattice with spacing 0.9999 d on a
// floor, so every lattice neighbour pair is a touching contact (about 3 per sphere) from the first step.
// One benchmark iteration = one NdemStepper::step with N_it = 20 PGS iterations. Counters:
//   ns_per_contact_iter  solve wall seconds / (contacts * N_it)  (warm start + PGS; impact stage off)
//   cpu_ns_per_contact_iter  the same from thread CPU time (the step's CPU time x the solve's wall share)
//   setup_ms, detect_ms  constraint set-up and contact detection per step
//   rows_bytes_per_contact  solver SoA memory per contact (NdemRows), contact_bytes = sizeof(Contact)
// Third argument: 0 = serial PGS, 1/2 = graph-coloured PGS on 1/2 TBB threads. The machine is shared:
// report the load average when quoting numbers (cpu_ns_per_contact_iter is per thread of the caller).
#include <benchmark/benchmark.h>

#include <cmath>
#include <ctime>

#include <tbb/global_control.h>

#include "core/ndem/ndem_stepper.hpp"
#include "core/world.hpp"

using namespace grainlab;

namespace {

World bed(int n, double mu_r) {
  World w;
  Material m;
  m.density = 3700;
  m.youngs_modulus = 6e6;
  m.restitution = 0.18;
  m.friction = 0.91;
  m.rolling_friction = mu_r;
  w.add_material(m);
  Wall floor;
  floor.name = "floor";
  floor.shape = PlaneShape{};
  w.add_wall(floor);
  const double d = 0.013, a = 0.9999 * d;
  w.particles.reserve(std::size_t(n) * n * n);
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) w.add_sphere(Vec3(i * a, j * a, 0.4999 * d + k * a), d / 2, 0);
  return w;
}

void BM_ndem_step(benchmark::State& state) {
  const int n = int(state.range(0));
  const double mu_r = state.range(1) ? 0.32 : 0.0;
  const int threads = int(state.range(2));  // 0: serial PGS; 1, 2: graph-coloured PGS on that many threads
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::max(threads, 1));
  World w = bed(n, mu_r);
  NdemSettings s;
  s.time_step = 0.005;
  s.iterations = 20;
  s.warm_start = NdemWarmStart::history;
  s.parallel = threads > 0;
  // The lattice is not perfectly at rest (it settles by a few micrometres and rings), so with the impact
  // stage on ~7 % of contacts trigger a full extra impact PGS pass each step. The benchmark measures the
  // continuous PGS (warm start + iterations); the impact stage costs at most one more such pass.
  s.impact_stage = false;
  NdemStepper ndem(s);
  ndem.step(w);  // first step builds the grid
  w.timers = StageTimers{};
  std::size_t contacts = 0;
  long steps = 0;
  double cpu = 0;
  for (auto _ : state) {
    timespec t0, t1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    ndem.step(w);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
    cpu += double(t1.tv_sec - t0.tv_sec) + 1e-9 * double(t1.tv_nsec - t0.tv_nsec);
    contacts += ndem.stats().contacts;
    ++steps;
  }
  const double c = double(contacts) / double(steps);
  state.counters["contacts"] = c;
  state.counters["rows_per_contact"] = mu_r > 0 ? 6 : 3;
  state.counters["ns_per_contact_iter"] = 1e9 * w.timers.solve / (double(contacts) * s.iterations);
  // Thread CPU time of the step scaled by the solve's share of wall time: robust to a loaded machine.
  const double wall = w.timers.total();
  state.counters["cpu_ns_per_contact_iter"] = wall > 0 ? 1e9 * cpu * (w.timers.solve / wall) / (double(contacts) * s.iterations) : 0;
  state.counters["setup_ms"] = 1e3 * w.timers.forces / double(steps);
  state.counters["detect_ms"] = 1e3 * w.timers.collision / double(steps);
  state.counters["integrate_ms"] = 1e3 * w.timers.integrate / double(steps);
  const double rows_bytes = 3 * 4 + 9 * sizeof(Vec3) + 10 * sizeof(double) + 18 * sizeof(double);
  state.counters["rows_bytes_per_contact"] = rows_bytes;
  state.counters["contact_bytes"] = double(sizeof(Contact));
  state.counters["colours"] = ndem.stats().colours;
  state.counters["impacting"] = double(ndem.stats().impacting);
  state.counters["impact_its"] = ndem.stats().impact_iterations_used;
}

}  // namespace

// 22^3 = 10 648 spheres (~31k contacts), 47^3 = 103 823 spheres (~300k contacts).
// Args: {lattice n, rolling rows?, threads (0 = serial PGS)}.
BENCHMARK(BM_ndem_step)
    ->ArgsProduct({{22}, {0, 1}, {0, 1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0)
    ->UseRealTime();
BENCHMARK(BM_ndem_step)->ArgsProduct({{47}, {0, 1}, {0, 2}})->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

BENCHMARK_MAIN();
