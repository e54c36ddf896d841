// SDEM steps on a settled bed of 10k and 100k spheres (issue 6, "Performance").
//
// The scene is the one LIGGGHTS runs in ../shared/peers (RESULTS.md section A, liggghts/in.settle; copies
// in bench/peers/): spheres d = 0.01 m, rho = 2500, E = 5 MPa, nu = 0.25, e = 0.5, mu = 0.7, dt = 5e-5 s,
// g = 9.81 along -z, plane walls on the 4 sides and the floor of a square box. The bed is a jittered
// simple-cubic lattice (spacing 1.2 d, jitter +-0.09 d) that falls and settles:
//   10k:  20 x 20 x 25 spheres in a 0.24 m box, 20000 settling steps (LIGGGHTS: 20000)
//   100k: 50 x 50 x 40 spheres in a 0.60 m box, 14000 settling steps (LIGGGHTS: 14000)
//   1k:   10 x 10 x 10 spheres in a 0.12 m box, 20000 settling steps (no peer: the compute floor, below)
// Settling is done once and cached in <build>/bench_data/bed<N>.bin (format below), regenerated when
// missing. Each benchmark loads the bed, runs a warm-up (1000 steps for 10k, 500 for 100k, as LIGGGHTS'
// in.bench, so the tangential springs are rebuilt) and then times whole SDEM steps (symplectic Euler,
// contact detection included). Variants: 1 or 2 TBB threads, rolling resistance off or mu_r = 0.05
// (LIGGGHTS "cdt" rows).
//
// Counters: s_per_particle_step (wall time / (N steps)), median_s_per_particle_step (the median step / N:
// on a shared machine it shrugs off steps that another tenant disturbed, but it also leaves out the
// rarer steps that rebuild the candidate list), contacts_per_particle (touching particle-particle
// pairs x 2 / N: the coordination number Z, LIGGGHTS 4.78 / 5.05), collision/forces/integrate
// (world.timers per particle-step), bytes_per_particle (particles + contacts with their model history, if
// any, and deferred state + detector + stepper buffers, by capacity, / N; contact_, detector_ and
// stepper_bytes_per_particle are its parts), rebuilds (candidate-list rebuilds during the timed steps).
//
// BM_sdem_bed_scaling alternates batches of steps on one and on two threads in one run and reports the
// two-thread efficiency T1/(2 T2), over all rounds and as the median of the rounds' ratios, and next to it
// how the host's memory bandwidth (memory_scaling_median) and its arithmetic throughput
// (compute_scaling_median) scale from one thread to two at the same time (2: perfect scaling).
//
// Run by hand: `make bench` or build/bench_sdem_bed [--benchmark_filter=kN:10/]. The data folder can be
// moved with GRAINLAB_BENCH_DATA; GRAINLAB_BENCH_WARMUP and GRAINLAB_BENCH_STEPS override the warm-up and
// timed step counts (for profiling under valgrind --tool=callgrind); GRAINLAB_BENCH_REGIONS sets the regions
// of the fused force stage (SdemStepper::set_regions; default one per thread).
//
// Cache file format (little-endian, this machine only): "GLBED1\0\0", uint64 N, then N records of
// position (3 double), velocity (3 double), angular velocity (3 double), radius (double).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include <fmt/format.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "core/sdem/sdem_stepper.hpp"
#include "core/world.hpp"
#include "memory.hpp"
#include "peer_pile.hpp"

using namespace grainlab;

namespace {

constexpr double diameter = 0.01;
constexpr double dt = 5e-5;

struct BedSpec {
  int nx, nz;
  double box;
  int settle_steps, warmup_steps;
};

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && std::atoi(v) > 0 ? std::atoi(v) : fallback;
}

BedSpec spec_for(int n_thousands) {
  if (n_thousands == 1) return {10, 10, 0.12, 20000, 1000};  // the floor probe: a bed that stays in the caches
  if (n_thousands == 10) return {20, 25, 0.24, 20000, 1000};
  return {50, 40, 0.60, 14000, 500};
}

Material bed_material(double rolling_friction) {
  Material m;
  m.name = "glass";
  m.density = 2500;
  m.youngs_modulus = 5e6;
  m.poisson_ratio = 0.25;
  m.restitution = 0.5;
  m.friction = 0.7;
  m.rolling_friction = rolling_friction;
  return m;
}

SdemSettings bed_settings() {
  SdemSettings s;
  s.time_step = dt;
  return s;
}

World empty_bed(double box, double rolling_friction) { return bench::open_box(box, bed_material(rolling_friction)); }

struct Bed {
  std::vector<Vec3> x, v, w;
  std::vector<double> r;
};

using bench::data_dir;  // build/bench_data under `make bench`; GRAINLAB_BENCH_DATA moves it

bool load(const std::filesystem::path& file, Bed& bed) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return false;
  char magic[8];
  std::uint64_t n = 0;
  in.read(magic, 8);
  in.read(reinterpret_cast<char*>(&n), sizeof n);
  if (!in || std::memcmp(magic, "GLBED1\0\0", 8) != 0 || n == 0 || n > 10'000'000) return false;
  bed.x.resize(n), bed.v.resize(n), bed.w.resize(n), bed.r.resize(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    double rec[10];
    in.read(reinterpret_cast<char*>(rec), sizeof rec);
    bed.x[i] = Vec3(rec[0], rec[1], rec[2]);
    bed.v[i] = Vec3(rec[3], rec[4], rec[5]);
    bed.w[i] = Vec3(rec[6], rec[7], rec[8]);
    bed.r[i] = rec[9];
  }
  return bool(in);
}

void save(const std::filesystem::path& file, const World& world) {
  std::filesystem::create_directories(file.parent_path());
  const std::filesystem::path tmp = file.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out.write("GLBED1\0\0", 8);
    const std::uint64_t n = world.particles.size();
    out.write(reinterpret_cast<const char*>(&n), sizeof n);
    const ParticleStore& p = world.particles;
    for (std::size_t i = 0; i < n; ++i) {
      const double rec[10] = {p.position[i].x(), p.position[i].y(), p.position[i].z(), p.velocity[i].x(),
                              p.velocity[i].y(), p.velocity[i].z(), p.angular_velocity[i].x(),
                              p.angular_velocity[i].y(), p.angular_velocity[i].z(), p.radius[i]};
      out.write(reinterpret_cast<const char*>(rec), sizeof rec);
    }
  }
  std::filesystem::rename(tmp, file);
}

// Jittered lattice -> fall -> settle (as liggghts/in.settle: lattice sites at (i + 0.5) a, jitter
// uniform in +-0.09 d per axis).
void settle(const BedSpec& s, Bed& bed) {
  World world = empty_bed(s.box, 0.0);
  const double a = 1.2 * diameter;
  std::mt19937_64 rng(15485863);
  std::uniform_real_distribution<double> jitter(-0.09 * diameter, 0.09 * diameter);
  for (int k = 0; k < s.nz; ++k)
    for (int j = 0; j < s.nx; ++j)
      for (int i = 0; i < s.nx; ++i) {
        const Vec3 site((i + 0.5) * a, (j + 0.5) * a, (k + 0.5) * a);
        world.add_sphere(site + Vec3(jitter(rng), jitter(rng), jitter(rng)), 0.5 * diameter, 0);
      }
  SdemStepper stepper(bed_settings());
  std::fprintf(stderr, "settling %zu spheres for %d steps (once; cached)...\n", world.particles.size(), s.settle_steps);
  for (int step = 0; step < s.settle_steps; ++step) {
    stepper.step(world);
    if ((step + 1) % 2000 == 0)
      std::fprintf(stderr, "  step %d  KE %.3e J\n", step + 1, world.particles.kinetic_energy());
  }
  const ParticleStore& p = world.particles;
  bed.x = p.position, bed.v = p.velocity, bed.w = p.angular_velocity, bed.r = p.radius;
  save(data_dir() / fmt::format("bed{}k.bin", p.size() / 1000), world);
}

const Bed& cached_bed(int n_thousands) {
  static Bed beds[3];
  Bed& bed = beds[n_thousands == 1 ? 0 : n_thousands == 10 ? 1 : 2];
  if (!bed.x.empty()) return bed;
  const auto file = data_dir() / fmt::format("bed{}k.bin", n_thousands);
  if (!load(file, bed)) settle(spec_for(n_thousands), bed);
  return bed;
}

using bench::bytes;
using bench::particle_bytes;

// args: thousands of particles, threads, rolling resistance (0/1)
void BM_sdem_bed(benchmark::State& state) {
  const int nk = int(state.range(0));
  const int threads = int(state.range(1));
  const double mu_r = state.range(2) ? 0.05 : 0.0;
  const BedSpec spec = spec_for(nk);
  const Bed& bed = cached_bed(nk);
  tbb::global_control threads_control(tbb::global_control::max_allowed_parallelism, threads);

  World world = empty_bed(spec.box, mu_r);
  for (std::size_t i = 0; i < bed.x.size(); ++i) world.add_sphere(bed.x[i], bed.r[i], 0, bed.v[i], bed.w[i]);
  SdemStepper stepper(bed_settings());
  stepper.set_regions(std::size_t(env_int("GRAINLAB_BENCH_REGIONS", 0)));
  const int warmup = env_int("GRAINLAB_BENCH_WARMUP", spec.warmup_steps);
  for (int i = 0; i < warmup; ++i) stepper.step(world);
  world.timers = {};
  const std::uint64_t rebuilds0 = world.detector.stats().rebuilds;

  std::vector<double> step_seconds;  // each step's wall time: the median shrugs off a disturbed step
  step_seconds.reserve(std::size_t(state.max_iterations));
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    stepper.step(world);
    step_seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::nth_element(step_seconds.begin(), step_seconds.begin() + step_seconds.size() / 2, step_seconds.end());

  const double n = double(world.particles.size());
  const double steps = double(state.iterations());
  std::size_t touching = 0;
  const std::vector<Contact>& contacts = world.contacts();
  for (std::size_t k = 0; k < world.pair_contact_count(); ++k) touching += contacts[k].overlap > 0;
  const double per = 1.0 / (n * steps);
  state.counters["N"] = n;
  state.counters["s_per_particle_step"] =
      benchmark::Counter(n, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["median_s_per_particle_step"] = step_seconds[step_seconds.size() / 2] / n;
  state.counters["contacts_per_particle"] = 2.0 * double(touching) / n;
  state.counters["wall_contacts"] = double(world.contacts().size() - world.pair_contact_count());
  state.counters["candidates_per_particle"] = double(world.pair_contact_count()) / n;
  state.counters["collision"] = world.timers.collision * per;
  state.counters["forces"] = world.timers.forces * per;
  state.counters["integrate"] = world.timers.integrate * per;
  const double contact_bytes = double(bench::contact_bytes(world) + bytes(world.deferred_contacts().history) +
                                      bytes(world.deferred_contacts().force));
  state.counters["bytes_per_particle"] =
      (double(particle_bytes(world.particles) + world.detector.memory_bytes() + stepper.memory_bytes()) + contact_bytes) / n;
  // The split of bytes_per_particle (the particle arrays are the rest).
  state.counters["contact_bytes_per_particle"] = contact_bytes / n;
  state.counters["detector_bytes_per_particle"] = double(world.detector.memory_bytes()) / n;
  state.counters["stepper_bytes_per_particle"] = double(stepper.memory_bytes()) / n;
  state.counters["rebuilds"] = double(world.detector.stats().rebuilds - rebuilds0);
}

// The cost of a candidate rebuild within a step: every timed step rebuilds the candidate list (the
// detector is invalidated first), as a fast flow would every few steps. The difference from BM_sdem_bed's
// step is the rebuild (grid, candidate search, history carry by key, the stepper's adjacency).
// args: thousands of particles.
void BM_sdem_rebuild_step(benchmark::State& state) {
  const int nk = int(state.range(0));
  const BedSpec spec = spec_for(nk);
  const Bed& bed = cached_bed(nk);
  tbb::global_control threads_control(tbb::global_control::max_allowed_parallelism, 1);
  World world = empty_bed(spec.box, 0.0);
  for (std::size_t i = 0; i < bed.x.size(); ++i) world.add_sphere(bed.x[i], bed.r[i], 0, bed.v[i], bed.w[i]);
  SdemStepper stepper(bed_settings());
  for (int i = 0; i < 100; ++i) stepper.step(world);
  world.timers = {};
  for (auto _ : state) {
    world.detector.invalidate();
    stepper.step(world);
  }
  const double n = double(world.particles.size());
  state.counters["s_per_particle_step"] =
      benchmark::Counter(n, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["collision"] = world.timers.collision / (n * double(state.iterations()));
  state.counters["detector_bytes_per_particle"] = double(world.detector.memory_bytes()) / n;
}

// Memory bandwidth that `threads` threads get, each adding 1 to its own 64 MB (read and write): what the
// host gives at the moment. A step that waits on memory scales at most as this does.
double update_bandwidth(std::vector<std::vector<double>>& buffers, int threads) {
  tbb::global_control threads_control(tbb::global_control::max_allowed_parallelism, threads);
  const auto t0 = std::chrono::steady_clock::now();
  tbb::parallel_for(0, threads, [&](int t) {
    for (double& x : buffers[std::size_t(t)]) x += 1;
  }, tbb::simple_partitioner());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return 2.0 * double(threads) * double(buffers[0].size() * sizeof(double)) / seconds;
}

// Arithmetic throughput that `threads` threads get, each running the same 16 independent multiply-add
// chains with no memory traffic: on a shared host another tenant on the same physical core or a
// descheduled vCPU shows here even though nothing is shared with our own work.
double compute_throughput(int threads) {
  constexpr int passes = 1 << 20;
  tbb::global_control threads_control(tbb::global_control::max_allowed_parallelism, threads);
  std::vector<double> sink(static_cast<std::size_t>(threads));
  const auto t0 = std::chrono::steady_clock::now();
  tbb::parallel_for(0, threads, [&](int t) {
    double a[16];
    for (int j = 0; j < 16; ++j) a[j] = 1.0 + 1e-3 * j;
    for (int i = 0; i < passes; ++i)
      for (double& x : a) x = x * 0.999999 + 1e-6;
    double sum = 0;
    for (double x : a) sum += x;
    sink[std::size_t(t)] = sum;
  }, tbb::simple_partitioner());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  benchmark::DoNotOptimize(sink.data());
  return double(threads) / seconds;
}

// Two-thread efficiency T1/(2 T2) with both measured under the same machine load: rounds of a batch of
// steps on one thread then a batch on two, on the same bed (one stepper per thread count, so that each
// keeps its own schedule; the results do not depend on the thread count). On a shared host the load
// drifts within seconds, so separate runs scatter the ratio; the median of the rounds' ratios does not
// drift with it. args: thousands of particles.
void BM_sdem_bed_scaling(benchmark::State& state) {
  const int nk = int(state.range(0));
  const BedSpec spec = spec_for(nk);
  const Bed& bed = cached_bed(nk);
  World world = empty_bed(spec.box, 0.0);
  for (std::size_t i = 0; i < bed.x.size(); ++i) world.add_sphere(bed.x[i], bed.r[i], 0, bed.v[i], bed.w[i]);
  SdemStepper one(bed_settings()), two(bed_settings());
  const int batch = nk >= 100 ? 50 : 200;  // about half a second on one thread
  auto run_batch = [&](SdemStepper& stepper, int threads) {
    tbb::global_control threads_control(tbb::global_control::max_allowed_parallelism, threads);
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < batch; ++i) stepper.step(world);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  const int warmup = env_int("GRAINLAB_BENCH_WARMUP", spec.warmup_steps);
  for (int i = 0; i < warmup; i += 2 * batch) run_batch(one, 1), run_batch(two, 2);
  double t1 = 0, t2 = 0;
  std::vector<double> ratios, memory, compute;
  std::vector<std::vector<double>> buffers(2, std::vector<double>(std::size_t(8) << 20, 0.0));
  for (auto _ : state) {
    // Each batch after the probes; the bandwidth probe also leaves both batches the same cold caches.
    const double throughput1 = compute_throughput(1), bandwidth1 = update_bandwidth(buffers, 1);
    const double round1 = run_batch(one, 1);
    const double throughput2 = compute_throughput(2), bandwidth2 = update_bandwidth(buffers, 2);
    const double round2 = run_batch(two, 2);
    t1 += round1, t2 += round2;
    ratios.push_back(round1 / (2 * round2));
    memory.push_back(bandwidth2 / bandwidth1);
    compute.push_back(throughput2 / throughput1);
  }
  std::sort(ratios.begin(), ratios.end());
  std::sort(memory.begin(), memory.end());
  std::sort(compute.begin(), compute.end());
  const double per = 1.0 / (double(world.particles.size()) * double(batch) * double(state.iterations()));
  state.counters["s_per_particle_step_1"] = t1 * per;
  state.counters["s_per_particle_step_2"] = t2 * per;
  state.counters["efficiency"] = t1 / (2 * t2);
  state.counters["efficiency_median"] = ratios[ratios.size() / 2];
  state.counters["efficiency_min"] = ratios.front();
  state.counters["efficiency_max"] = ratios.back();
  state.counters["memory_scaling_median"] = memory[memory.size() / 2];  // two threads' bandwidth / one's
  state.counters["compute_scaling_median"] = compute[compute.size() / 2];  // two threads' throughput / one's
  state.counters["compute_scaling_min"] = compute.front();
}

}  // namespace

// Steps timed: 2000 (10k) and 1000 (100k), as LIGGGHTS' in.bench.
BENCHMARK(BM_sdem_bed)
    ->ArgNames({"kN", "threads", "rolling"})
    ->Args({10, 1, 0})->Args({10, 2, 0})->Args({10, 1, 1})->Args({10, 2, 1})
    ->Iterations(env_int("GRAINLAB_BENCH_STEPS", 2000))->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_sdem_bed)
    ->ArgNames({"kN", "threads", "rolling"})
    ->Args({100, 1, 0})->Args({100, 2, 0})->Args({100, 1, 1})->Args({100, 2, 1})
    ->Iterations(env_int("GRAINLAB_BENCH_STEPS", 1000))->UseRealTime()->Unit(benchmark::kMillisecond);

// The compute floor beside them: the same scene with 1000 spheres (10 x 10 x 10 in a 0.12 m box), whose
// ~2 MB stay in the caches, 20000 steps: the step's arithmetic without waiting for memory.
BENCHMARK(BM_sdem_bed)
    ->ArgNames({"kN", "threads", "rolling"})
    ->Args({1, 1, 0})
    ->Iterations(env_int("GRAINLAB_BENCH_STEPS", 20000))->UseRealTime()->Unit(benchmark::kMillisecond);

BENCHMARK(BM_sdem_rebuild_step)->ArgName("kN")->Arg(10)->Iterations(200)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_sdem_rebuild_step)->ArgName("kN")->Arg(100)->Iterations(40)->Unit(benchmark::kMillisecond);

// Rounds of a batch on one thread and one on two (200 / 50 steps each): 10 (10k) and 20 (100k), as many
// steps as the runs above.
BENCHMARK(BM_sdem_bed_scaling)->ArgName("kN")->Arg(10)->Iterations(10)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_sdem_bed_scaling)->ArgName("kN")->Arg(100)->Iterations(20)->UseRealTime()->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
