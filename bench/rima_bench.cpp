// Google Benchmark of RIMA against the Jacobi-CG (Gavrilov 1999 G-E7, seed 002 l.2530-2567): one QRB, a
// triangular packing of n disks 15 per long row (core/quasistatic/lattice_packing.hpp). Argument: n.
//   BM_rima_solve   D = Z F on the maintained inverse (dense, O(n^2))
//   BM_rima_update  one link removed (-C) and re-inserted (+C): two rank-2 updates per iteration
//   BM_cg_solve     Jacobi-CG to |r| <= 1e-8 |F| from zero (counter: iterations)
// The study studies/gavrilov_e7_rima_vs_cg.toml measures the same quantities inside the pipeline.
#include <benchmark/benchmark.h>

#include <numbers>

#include "core/quasistatic/lattice_packing.hpp"
#include "core/quasistatic/stiffness_solvers.hpp"

namespace {

using namespace grainlab::quasistatic;

LatticePacking packing(int n) {
  const double r = 0.01;
  return build_lattice_packing(n, 15, r, 1190.0 * std::numbers::pi * r * r, 9.81, {1.0e6, 1.0e5, 0.43},
                               {1.5e6, 1.5e5, 0.33});
}

void BM_rima_solve(benchmark::State& state) {
  const LatticePacking p = packing(int(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(p.rima.solve(p.gravity_loads));
}

void BM_rima_update(benchmark::State& state) {
  LatticePacking p = packing(int(state.range(0)));
  const Link& l = p.truss.links().back();
  const Mat2 c = link_stiffness(l.normal, l.spring);
  for (auto _ : state) {
    if (l.b == fixed_node) p.rima.add_fixed_link(l.a, -c), p.rima.add_fixed_link(l.a, c);
    else p.rima.add_link(l.a, l.b, -c), p.rima.add_link(l.a, l.b, c);
  }
}

void BM_cg_solve(benchmark::State& state) {
  const LatticePacking p = packing(int(state.range(0)));
  const Eigen::SparseMatrix<double> k = p.truss.stiffness();
  int iterations = 0;
  for (auto _ : state) {
    const CgResult r = solve_jacobi_cg(k, p.gravity_loads, 1e-8, 100000);
    iterations = r.iterations;
    benchmark::DoNotOptimize(r.x.data());
  }
  state.counters["iterations"] = iterations;
}

}  // namespace

BENCHMARK(BM_rima_solve)->Arg(50)->Arg(100)->Arg(200)->Arg(500)->Arg(1000);
BENCHMARK(BM_rima_update)->Arg(50)->Arg(100)->Arg(200)->Arg(500)->Arg(1000);
BENCHMARK(BM_cg_solve)->Arg(50)->Arg(100)->Arg(200)->Arg(500)->Arg(1000);
BENCHMARK_MAIN();
