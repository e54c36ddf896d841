// Google Benchmark of the NDEM projected Gauss-Seidel on a resting bed (issue 8, Performance) and on the
// settled random pile that the Bullet peer runs (issue 27 item 7; bench/peer_pile.hpp: BM_ndem_pile_step,
// BM_pgs_solve_pile, and with GRAINLAB_BENCH_MILLION=1 BM_ndem_million, 10^6 spheres with peak RSS).
// Lattice scene: n^3 spheres (d = 13 mm, pellet material) in a simple cubic lattice with spacing 0.9999 d on a
// floor, so every lattice neighbour pair is a touching contact (about 3 per sphere) from the first step.
// One benchmark iteration = one NdemStepper::step with N_it = 20 PGS iterations. Counters:
//   ns_per_contact_iter  solve wall seconds / (contacts * N_it)  (warm start + PGS; impact stage off)
//   cpu_ns_per_contact_iter  the same from thread CPU time (the step's CPU time x the solve's wall share)
//   setup_ms, detect_ms  constraint set-up and contact detection per step
//   rows_bytes_per_contact  solver SoA memory per contact (NdemRows), contact_bytes = sizeof(Contact) + sizeof(MultiplierHistory),
//   packed_bytes_per_contact / _per_wall_contact / _per_body  the packed sweep records (core/ndem/pgs.cpp:
//   particle pairs, walls and other general contacts, bodies)
//   bytes_per_particle  everything held after the run (capacities), split into particle_, contact_ (with the
//   multipliers), detector_, stepper_ (rows, bodies, colouring, impact impulses) and scratch_bytes_per_particle
//   (the solver's per-thread packed and wide records)
// Third argument: 0 = serial PGS, 1/2 = graph-coloured PGS on 1/2 TBB threads. The machine is shared:
// report the load average when quoting numbers (cpu_ns_per_contact_iter is per thread of the caller).
//
// BM_pgs_floor_memory and BM_pgs_floor_compute are floor probes beside BM_pgs_solve_pile (see there).
//
// BM_pgs_solve times solve_continuous alone (packing, 20 sweeps, unpacking) on the rows of the same bed,
// built here as NdemStepper::setup builds them (Hertz, history warm start from the bed's settled
// multipliers), and reports thread CPU time per contact-iteration of exactly that call (with 2 threads:
// the calling thread's CPU time, which then undercounts the work; use the wall column there).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <string>

#include <sys/resource.h>

#include <tbb/global_control.h>

#include "core/hertz.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/ndem/pgs.hpp"
#include "core/world.hpp"
#include "memory.hpp"
#include "peer_pile.hpp"

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

NdemSettings bench_settings(int threads) {
  NdemSettings s;
  s.time_step = 0.005;
  s.iterations = 20;
  s.warm_start = NdemWarmStart::history;
  s.parallel = threads > 0;
  // The lattice is not perfectly at rest (it settles by a few micrometres and rings), so with the impact
  // stage on ~7 % of contacts trigger a full extra impact PGS pass each step. The benchmark measures the
  // continuous PGS (warm start + iterations); the impact stage costs at most one more such pass.
  s.impact_stage = false;
  return s;
}

// Bytes held per particle after the run (capacities): bytes_per_particle in all and its split into the
// particle arrays, the contact list with its multipliers, the detector, the stepper (rows, bodies,
// colouring, impact impulses) and the solver's per-thread scratch (packed and wide records).
void memory_counters(benchmark::State& state, World& w, const NdemStepper& ndem, bool rolling) {
  const double n = double(w.particles.size());
  const double particles = double(bench::particle_bytes(w.particles)), contacts = double(bench::contact_bytes(w));
  const double detector = double(w.detector.memory_bytes()), stepper = double(ndem.memory_bytes());
  const double scratch = double(pgs_thread_scratch_bytes(rolling));
  state.counters["bytes_per_particle"] = (particles + contacts + detector + stepper + scratch) / n;
  state.counters["particle_bytes_per_particle"] = particles / n;
  state.counters["contact_bytes_per_particle"] = contacts / n;
  state.counters["detector_bytes_per_particle"] = detector / n;
  state.counters["stepper_bytes_per_particle"] = stepper / n;
  state.counters["scratch_bytes_per_particle"] = scratch / n;
}

// Whole NdemStepper::step on `w`: one benchmark iteration = one step (see the header for the counters).
// `warmup` steps first (the first builds the grid).
void step_benchmark(benchmark::State& state, World w, double mu_r, int threads, int warmup) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::max(threads, 1));
  const NdemSettings s = bench_settings(threads);
  NdemStepper ndem(s);
  for (int k = 0; k < warmup; ++k) ndem.step(w);
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
  // NdemRows of a particle pair (SoA, kept between steps: indices, n, t1, a's lever arm, scalars with b's arm,
  // per-row D^-1 and multipliers; a wall contact adds its bias per row) + the packed record the sweep streams
  // (rebuilt each solve). (3-row solves: no angular-row inputs or multipliers, NdemRows::resize)
  const double rows_bytes = 3 * 4 + 3 * sizeof(Vec3) + (mu_r > 0 ? 11 + 12 : 9 + 6) * sizeof(double);
  state.counters["rows_bytes_per_contact"] = rows_bytes;
  state.counters["packed_bytes_per_contact"] = double(pgs_packed_bytes_per_contact(mu_r > 0));
  state.counters["packed_bytes_per_wall_contact"] = double(pgs_packed_bytes_per_general_contact(mu_r > 0));
  state.counters["packed_bytes_per_body"] = double(pgs_packed_bytes_per_body);
  state.counters["contact_bytes"] =  // NDEM keeps its multipliers (the angular ones with rolling resistance)
      double(sizeof(Contact) + sizeof(MultiplierHistory) + (mu_r > 0 ? sizeof(AngularMultiplierHistory) : 0));
  memory_counters(state, w, ndem, mu_r > 0);
  state.counters["colours"] = ndem.stats().colours;
  state.counters["impacting"] = double(ndem.stats().impacting);
  state.counters["impact_its"] = ndem.stats().impact_iterations_used;
  state.counters["KE_J"] = w.particles.kinetic_energy();
}

void BM_ndem_step(benchmark::State& state) {
  const double mu_r = state.range(1) ? 0.32 : 0.0;
  step_benchmark(state, bed(int(state.range(0)), mu_r), mu_r, int(state.range(2)), 1);
}

// Bullet's settled random pile (bench/peer_pile.hpp): 10k = 20 x 20 x 25, 100k = 50 x 50 x 40.
World pile(int thousands, double mu_r) {
  const int nx = thousands >= 100 ? 50 : 20, nz = thousands >= 100 ? 40 : 25;
  return bench::tiled_pile(bench::settled_pile(nx, nz), nx * bench::pile_spacing, 1, 1, mu_r);
}

void BM_ndem_pile_step(benchmark::State& state) {
  const double mu_r = state.range(1) ? 0.32 : 0.0;
  // 50 warm-up steps, as the Bullet side runs (bullet_pgs bench ... NWARM = 50): the rigid pile sinks into
  // its NDEM compliance and the warm start fills.
  step_benchmark(state, pile(int(state.range(0)), mu_r), mu_r, int(state.range(2)), 50);
}

double thread_cpu_seconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// Rows of the touching contacts of `w`, as NdemStepper::setup builds them (floor at rest: no bias).
void build_rows(const World& w, const NdemSettings& S, NdemRows& R, NdemBodies& B) {
  const ParticleStore& P = w.particles;
  B.v = P.velocity;
  B.w = P.angular_velocity;
  B.inv_mass = P.inv_mass;
  B.inv_inertia = P.inv_inertia;
  std::vector<std::size_t> active;
  std::size_t walls = 0;  // the walls' contacts come last (static walls: their bias stays zero)
  for (std::size_t k = 0; k < w.contacts().size(); ++k)
    if (w.contacts()[k].overlap > 0) active.push_back(k), walls += w.contacts()[k].is_wall();
  R.resize(active.size(), walls, true);
  const double dt = S.time_step, eH = S.hertz_exponent();
  R.sigma_t = S.gamma_t / dt;
  R.sigma_r = S.gamma_r / dt;
  const double upsilon = 1.0 / (1.0 + 4.0 * S.n_s);
  for (std::size_t i = 0; i < active.size(); ++i) {
    const Contact& c = w.contacts()[active[i]];
    const bool wall = c.is_wall();
    R.contact[i] = std::uint32_t(active[i]);
    R.a[i] = c.a;
    R.b[i] = wall ? -1 : c.b;
    const Vec3 n = c.normal, t1 = any_orthogonal(n);
    R.n[i] = n;
    R.t1[i] = t1;
    // Lever arm from the contact geometry (positions moved since the contacts were detected).
    R.ra[i] = -(P.radius[c.a] - (wall ? 1.0 : 0.5) * c.overlap) * n;
    R.arm_b[i] = wall ? 0.0 : P.radius[c.b] - 0.5 * c.overlap;
    const MaterialPair mp = mix(w.materials[0], w.materials[0]);
    const double kn = hertz_stiffness(mp.effective_modulus, c.effective_radius);
    R.scale[i] = eH * std::pow(c.overlap, eH - 1.0);
    R.overlap[i] = c.overlap;
    R.stiffness[i] = kn;
    R.sigma_n[i] = 4.0 * (eH / kn) * upsilon / (dt * dt);
    R.q_n[i] = 4.0 / dt * upsilon * std::pow(c.overlap, eH);
    R.mu[i] = mp.friction;
    R.mu_roll[i] = mp.rolling_friction * c.effective_radius;
    R.mu_twist[i] = mp.twisting_factor * mp.friction * c.effective_radius;
    R.rolling = R.rolling || R.mu_roll[i] > 0 || R.mu_twist[i] > 0;
    const ModelHistory& h = w.model_history();
    const MultiplierHistory m = h.multipliers_kept ? h.multipliers[active[i]] : MultiplierHistory{};
    const AngularMultiplierHistory am = h.angular_multipliers_kept ? h.angular_multipliers[active[i]] : AngularMultiplierHistory{};
    for (int r = 0; r < 3; ++r) R.lambda[r][i] = S.warm_start_beta * m.lambda[r];
    for (int r = 3; r < 6; ++r) R.lambda[r][i] = S.warm_start_beta * am.lambda[r - 3];
  }
  for (std::size_t i = 0; i < R.size(); ++i) {
    R.inv_diag[0][i] = 1.0 / (R.scale[i] * R.scale[i] * ndem_row_mass(R, B, i, 0) + R.sigma_n[i]);
    for (int r = 1; r < 6; ++r) R.inv_diag[r][i] = 1.0 / (ndem_row_mass(R, B, i, r) + (r < 3 ? R.sigma_t : R.sigma_r));
  }
}

// solve_continuous alone on the rows of `w` after `warmup` steps (settled multipliers for the warm start),
// with `iterations` sweeps (0: the settings' 20).
void solve_benchmark(benchmark::State& state, World w, double mu_r, int threads, int warmup, int iterations = 0) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::max(threads, 1));
  NdemSettings s = bench_settings(threads);
  s.parallel = false;  // the steps before; the solve below colours by itself
  if (iterations > 0) s.iterations = iterations;
  NdemStepper ndem(s);
  for (int k = 0; k < warmup; ++k) ndem.step(w);
  NdemRows rows0;
  NdemBodies bodies0;
  build_rows(w, s, rows0, bodies0);
  NdemColouring colouring;
  if (threads > 0) colouring.build(rows0, bodies0.v.size(), s.max_colours);
  PgsOptions opt;
  opt.iterations = s.iterations;
  if (threads > 0) opt.colouring = &colouring;
  NdemRows rows = rows0;
  NdemBodies bodies = bodies0;
  double cpu = 0, wall = 0;
  for (auto _ : state) {
    state.PauseTiming();
    rows.lambda = rows0.lambda;
    bodies.v = bodies0.v;
    bodies.w = bodies0.w;
    state.ResumeTiming();
    const double c0 = thread_cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(solve_continuous(rows, bodies, opt));
    wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    cpu += thread_cpu_seconds() - c0;
  }
  const double its = double(state.iterations()) * double(rows.size()) * s.iterations;
  state.counters["contacts"] = double(rows.size());
  state.counters["rows_per_contact"] = mu_r > 0 ? 6 : 3;
  state.counters["cpu_ns_per_contact_iter"] = 1e9 * cpu / its;
  state.counters["ns_per_contact_iter"] = 1e9 * wall / its;
  state.counters["packed_bytes_per_contact"] = double(pgs_packed_bytes_per_contact(mu_r > 0));
}

void BM_pgs_solve(benchmark::State& state) {
  const double mu_r = state.range(1) ? 0.32 : 0.0;
  solve_benchmark(state, bed(int(state.range(0)), mu_r), mu_r, int(state.range(2)), 3);
}

void BM_pgs_solve_pile(benchmark::State& state) {
  const double mu_r = state.range(1) ? 0.32 : 0.0;
  solve_benchmark(state, pile(int(state.range(0)), mu_r), mu_r, int(state.range(2)), 50);
}

// ---- Floor probes: what the kernel could reach on this host (issue 27 item 7) ----
//
// BM_pgs_floor_memory: the serial packed sweep's memory traffic on the pile without its maths. Per contact,
// in contact order: one 176-byte record read (a double from each of its three cache lines, as
// SphereContact<3> in core/ndem/pgs.cpp) and a multiplier written into it, and the two 64-byte body
// records read, changed and written back (a wall contact: one body), 20 sweeps. A kernel that streams
// these records in this order cannot be faster than this on this host.
// BM_pgs_floor_compute: the kernel itself (solve_continuous, 200 sweeps) on a 4^3 lattice whose 160
// records and 64 bodies (about 32 kB) stay in the first-level caches: its arithmetic and dependency
// chains without waiting for memory.
struct FloorRecord {
  std::int32_t a, b;
  double x[21];
};
static_assert(sizeof(FloorRecord) == 176, "the packed record of a 3-row sphere contact");

void BM_pgs_floor_memory(benchmark::State& state) {
  World w = pile(int(state.range(0)), 0.0);
  const NdemSettings s = bench_settings(0);
  NdemStepper ndem(s);
  for (int k = 0; k < 50; ++k) ndem.step(w);
  NdemRows rows;
  NdemBodies bodies;
  build_rows(w, s, rows, bodies);
  std::vector<FloorRecord> records(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    records[i].a = rows.a[i], records[i].b = rows.b[i];
    for (int j = 0; j < 21; ++j) records[i].x[j] = 1e-6 * double((i + std::size_t(j)) % 7);
  }
  struct alignas(64) Body {
    double v[8];
  };
  std::vector<Body> body(bodies.v.size());
  for (std::size_t i = 0; i < body.size(); ++i) body[i] = {{0, 0, 0, 0, 0, 0, bodies.inv_mass[i], bodies.inv_inertia[i]}};
  double cpu = 0;
  for (auto _ : state) {
    const double c0 = thread_cpu_seconds();
    for (int it = 0; it < s.iterations; ++it)
      for (FloorRecord& r : records) {
        const double p = r.x[0] + r.x[8] + r.x[16];
        double* A = body[std::size_t(r.a)].v;
        for (int j = 0; j < 6; ++j) A[j] += p * A[6 + j / 3];
        if (r.b >= 0) {
          double* B = body[std::size_t(r.b)].v;
          for (int j = 0; j < 6; ++j) B[j] -= p * B[6 + j / 3];
        }
        r.x[18] = p;
      }
    benchmark::DoNotOptimize(body.data());
    benchmark::DoNotOptimize(records.data());
    cpu += thread_cpu_seconds() - c0;
  }
  state.counters["contacts"] = double(rows.size());
  state.counters["cpu_ns_per_contact_iter"] = 1e9 * cpu / (double(state.iterations()) * double(rows.size()) * s.iterations);
}

void BM_pgs_floor_compute(benchmark::State& state) {
  const double mu_r = state.range(0) ? 0.32 : 0.0;
  solve_benchmark(state, bed(4, mu_r), mu_r, int(state.range(1)), 3, 200);
}

long peak_rss_bytes() {
  rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss * 1024L;  // Linux reports kilobytes
}

// A 10^6-sphere settled bed: the 10k pile tiled 10 x 10 (2.4 m square, 25 layers). Registered only with
// GRAINLAB_BENCH_MILLION=1 (it needs ~GBs and minutes). Reports the step time and the peak RSS of the
// whole process, and the RSS growth from the empty process per sphere (everything: particles, contacts,
// detector, rows, packed records).
void BM_ndem_million(benchmark::State& state) {
  const int threads = int(state.range(0));
  const long rss0 = peak_rss_bytes();
  World w = bench::tiled_pile(bench::settled_pile(20, 25), 20 * bench::pile_spacing, 10, 10, 0.0);
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::max(threads, 1));
  NdemStepper ndem(bench_settings(threads));
  for (int k = 0; k < 50; ++k) ndem.step(w);  // as the 10k pile: the rigid pile sinks into its compliance
  w.timers = StageTimers{};
  std::size_t contacts = 0;
  for (auto _ : state) {
    ndem.step(w);
    contacts += ndem.stats().contacts;
  }
  const double n = double(w.particles.size()), steps = double(state.iterations());
  state.counters["N"] = n;
  state.counters["contacts_per_particle"] = double(contacts) / steps / n;
  state.counters["s_per_step"] = w.timers.total() / steps;
  state.counters["solve_s_per_step"] = w.timers.solve / steps;
  state.counters["detect_s_per_step"] = w.timers.collision / steps;
  state.counters["peak_rss_GB"] = double(peak_rss_bytes()) / 1e9;
  state.counters["rss_bytes_per_particle"] = double(peak_rss_bytes() - rss0) / n;
  state.counters["KE_J"] = w.particles.kinetic_energy();
  memory_counters(state, w, ndem, false);
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

BENCHMARK(BM_pgs_solve)
    ->ArgsProduct({{22}, {0, 1}, {0, 1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->MinTime(1.0)
    ->UseRealTime();
BENCHMARK(BM_pgs_solve)->ArgsProduct({{47}, {0, 1}, {0, 1, 2}})->Unit(benchmark::kMillisecond)->Iterations(5)->UseRealTime();

// Bullet's settled random pile. Args: {thousands of spheres (10: 20 x 20 x 25, 100: 50 x 50 x 40), rolling rows?,
// threads (0 = serial PGS)}.
BENCHMARK(BM_ndem_pile_step)
    ->ArgsProduct({{10}, {0, 1}, {0, 1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0)
    ->UseRealTime();
BENCHMARK(BM_ndem_pile_step)->ArgsProduct({{100}, {0, 1}, {0, 1, 2}})->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_pgs_solve_pile)
    ->ArgsProduct({{10}, {0, 1}, {0, 1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->MinTime(1.0)
    ->UseRealTime();
BENCHMARK(BM_pgs_solve_pile)->ArgsProduct({{100}, {0, 1}, {0, 1, 2}})->Unit(benchmark::kMillisecond)->Iterations(5)->UseRealTime();

// Floor probes beside BM_pgs_solve_pile. Args: thousands of spheres; rolling rows?
BENCHMARK(BM_pgs_floor_memory)->Arg(10)->Unit(benchmark::kMillisecond)->MinTime(1.0)->UseRealTime();
BENCHMARK(BM_pgs_floor_memory)->Arg(100)->Unit(benchmark::kMillisecond)->Iterations(5)->UseRealTime();
// BM_pgs_floor_compute args: rolling rows?, 0 = serial sweep (each contact waits for the bodies its
// predecessor wrote), 1 = coloured on one thread (independent contacts one after another).
BENCHMARK(BM_pgs_floor_compute)->ArgsProduct({{0, 1}, {0, 1}})->Unit(benchmark::kMillisecond)->MinTime(1.0)->UseRealTime();

int main(int argc, char** argv) {
  if (const char* m = std::getenv("GRAINLAB_BENCH_MILLION"); m && std::string(m) == "1")
    benchmark::RegisterBenchmark("BM_ndem_million", BM_ndem_million)
        ->ArgsProduct({{0, 2}})
        ->Unit(benchmark::kSecond)
        ->Iterations(3)
        ->UseRealTime();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
