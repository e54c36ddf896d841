// Google Benchmark of adaptive model reduction (Paper V, issue 24): one NdemStepper::step on a resting
// pyramid pile (experiments/paper5_resting_pile.hpp: Paper V settings, linear k_n = 3 kN/m, Dt = 5 ms, cold
// start) with and without reduction, at the same N_it = 150. The issue asks for a reduced step >= 5x faster
// than the unreduced one at h >= 0.9 on a 10k pile: BM_pile_step/31/0/0 (10416 spheres, unreduced) against
// BM_pile_step/31/1/0 (reduction = c: merge + contact split, Table 2 defaults; measured 9.5-12.3x, h = 0.9999).
// Arguments: layers n (N_p = n(n+1)(2n+1)/6), reduced (0/1), frozen percent (0, or the oracle reduction of
// experiments/paper5_resting_pile.hpp freeze_lowest: that share of the spheres one aggregate, no merge/split
// cost, the ceiling of any reduction on this pile). The pile is built, settled for 10 unreduced
// steps and (reduced) given 5 reduced steps to merge before the timed iterations. Serial PGS, one thread
// (tbb::global_control). Counters:
//   particles, contacts, solver_contacts  (mean per timed step; solver_contacts: those left in the PGS)
//   h                                     mean reduction level 1 - (free + aggregates)/N_p
//   cpu_ms_per_step                        thread CPU time of one step (robust to other load)
//   solve_ms, collision_ms, setup_ms, integrate_ms, reduction_ms   stage split of the CPU time
// The speed-up is cpu_ms_per_step(/n/0) / cpu_ms_per_step(/n/1). The machine is shared: quote the CPU-time
// counters, not the wall column.
#include <benchmark/benchmark.h>

#include <tbb/global_control.h>

#include "core/ndem/ndem_stepper.hpp"
#include "experiments/paper5_resting_pile.hpp"

using namespace grainlab;

namespace {

void BM_pile_step(benchmark::State& state) {
  const int layers = int(state.range(0));
  const bool reduced = state.range(1) != 0;
  const double frozen = double(state.range(2)) / 100.0;  // oracle: lowest fraction of the spheres one aggregate
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
  paper5::RestingPile pile;
  pile.layers = layers;
  World w;
  paper5::build_resting_pile(pile, w);
  const NdemSettings s = paper5::paper5_ndem_settings();
  NdemStepper ref(s);
  for (int k = 0; k < 10; ++k) ref.step(w);
  NdemSettings sr = s;
  sr.reduction.enabled = reduced;  // Table 2 defaults: merge + contact split (reduction = c)
  if (frozen > 0) paper5::freeze_lowest(w, frozen);
  NdemStepper stepper(sr);
  if (reduced)
    for (int k = 0; k < 5; ++k) stepper.step(w);
  paper5::TimedSteps sum;
  for (auto _ : state) {
    const paper5::TimedSteps t = paper5::time_steps(w, stepper, 1);
    sum.steps += 1;
    sum.cpu_s += t.cpu_s;
    sum.contacts += t.contacts;
    sum.solver_contacts += t.solver_contacts;
    sum.level += t.level;
    for (auto [a, b] : {std::pair{&sum.stages.collision, t.stage_cpu_s(t.stages.collision)},
                        {&sum.stages.forces, t.stage_cpu_s(t.stages.forces)},
                        {&sum.stages.solve, t.stage_cpu_s(t.stages.solve)},
                        {&sum.stages.integrate, t.stage_cpu_s(t.stages.integrate)},
                        {&sum.stages.reduction, t.stage_cpu_s(t.reduction_s())}})
      *a += b;
  }
  const double n = std::max(sum.steps, 1);
  state.counters["particles"] = double(w.particles.size());
  state.counters["contacts"] = sum.contacts / n;
  state.counters["solver_contacts"] = sum.solver_contacts / n;
  const double n_p = double(w.particles.size());
  const double frozen_count = w.bodies.empty() ? 0.0 : double(w.bodies.front().members.size());
  state.counters["h"] = frozen > 0 ? 1.0 - (n_p - frozen_count + 1.0) / n_p : sum.level / n;
  state.counters["cpu_ms_per_step"] = 1e3 * sum.cpu_s / n;
  state.counters["solve_ms"] = 1e3 * sum.stages.solve / n;
  state.counters["collision_ms"] = 1e3 * sum.stages.collision / n;
  state.counters["setup_ms"] = 1e3 * sum.stages.forces / n;
  state.counters["integrate_ms"] = 1e3 * sum.stages.integrate / n;
  state.counters["reduction_ms"] = 1e3 * sum.stages.reduction / n;
}

}  // namespace

BENCHMARK(BM_pile_step)
    ->Args({12, 0, 0})->Args({12, 1, 0})->Args({12, 0, 90})
    ->Args({31, 0, 0})->Args({31, 1, 0})->Args({31, 0, 90})->Args({31, 0, 95})->Args({31, 0, 99})
    ->Unit(benchmark::kMillisecond)->Iterations(3);

BENCHMARK_MAIN();
