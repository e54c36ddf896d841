#include "experiments/cost_measurement.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <random>
#include <time.h>

#include <tbb/task_arena.h>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/hertz.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/sdem/sdem_stepper.hpp"
#include "core/stability_guard.hpp"
#include "experiments/cost_model.hpp"

namespace grainlab {

CostSystemKind parse_cost_system_kind(const std::string& name, const std::string& parameter) {
  if (name == "column") return CostSystemKind::column;
  if (name == "pack") return CostSystemKind::pack;
  if (name == "flow") return CostSystemKind::flow;
  throw InputError(fmt::format("{} = '{}' is invalid (column, pack, flow)", parameter, name));
}

CostMethod parse_cost_method(const std::string& name, const std::string& parameter) {
  if (name == "sdem") return CostMethod::sdem;
  if (name == "ndem") return CostMethod::ndem;
  throw InputError(fmt::format("{} = '{}' is invalid (sdem, ndem)", parameter, name));
}

namespace {

// Material, gravity, floor and (pack, flow) the cylinder: the World without spheres.
void add_container(const CostSystem& s, World& w) {
  Material m;
  m.name = "cost";
  m.density = s.density;
  m.youngs_modulus = s.youngs_modulus;
  m.poisson_ratio = s.poisson_ratio;
  m.restitution = s.restitution;
  m.friction = s.friction;
  w.add_material(m);
  w.gravity.g = Vec3(0, 0, -s.gravity);
  Wall floor;
  floor.name = "floor";
  floor.shape = PlaneShape{};
  w.add_wall(floor);
  if (s.kind == CostSystemKind::column) return;
  Wall shell;
  shell.name = "cylinder";
  CylinderShape c;
  c.radius = (s.width * (1.0 + s.jitter) + 1) * s.d / 2;
  c.length = std::numeric_limits<double>::infinity();
  shell.shape = c;
  w.add_wall(shell);
}

constexpr double settle_gap = 0.1;  ///< pack: spheres settle larger by this fraction of d (see build_cost_system)

// Lattice sites of a square grid centred on the axis whose centre lies within w/2 diameters of it: about
// (pi/4) w^2 per layer (Gauss's circle problem), Table I's N_p / l.
std::vector<Vec3> lattice(const CostSystem& s) {
  const int layers = int(std::lround(s.length));
  std::vector<Vec3> sites;
  if (s.kind == CostSystemKind::column) {
    // At rest: contact j (0 = floor) carries the weight of the l - j spheres above it, with its Hertz overlap
    // ((l - j) m g / k_n)^{2/3}, k_n = (4/3) E* sqrt(R*) (R* = d/2 at the floor, d/4 between spheres).
    const double estar = s.youngs_modulus / (2 * (1 - s.poisson_ratio * s.poisson_ratio));
    const double mg = s.density * std::numbers::pi * s.d * s.d * s.d / 6 * s.gravity;
    double z = 0;
    for (int k = 0; k < layers; ++k) {
      const double load = (layers - k) * mg;
      z += (k == 0 ? s.d / 2 : s.d) - std::pow(load / hertz_stiffness(estar, k == 0 ? s.d / 2 : s.d / 4), 2.0 / 3.0);
      sites.emplace_back(0, 0, z);
    }
    return sites;
  }
  // Spacing d (1 + jitter) - lattice_overlap d: the random sideways shifts never make two spheres overlap.
  const double a = s.d * (1.0 + s.jitter - s.lattice_overlap);
  const int half = int(std::ceil(s.width / 2)) + 1;
  const double shift = int(std::lround(s.width)) % 2 == 0 ? 0.5 : 0.0;  // symmetric grid for even w
  const double reach = s.width / 2 * (1 + 1e-12);                         // in lattice units
  for (int k = 0; k < layers; ++k)
    for (int i = -half; i <= half; ++i)
      for (int j = -half; j <= half; ++j)
        if (std::hypot(i + shift, j + shift) <= reach) sites.emplace_back((i + shift) * a, (j + shift) * a, s.d / 2 + k * a);
  return sites;
}

}  // namespace

void build_cost_system(const CostSystem& s, World& w) {
  if (!(s.d > 0)) throw InputError(fmt::format("cost system: d = {} must be > 0", s.d));
  if (!(s.length >= 1)) throw InputError(fmt::format("cost system: length = {} must be >= 1 (diameters)", s.length));
  if (s.kind != CostSystemKind::column && !(s.width >= 1))
    throw InputError(fmt::format("cost system: width = {} must be >= 1 (diameters)", s.width));
  if (!(s.lattice_overlap >= 0 && s.lattice_overlap < 0.1))
    throw InputError(fmt::format("cost system: lattice_overlap = {} must be in [0, 0.1) diameters", s.lattice_overlap));
  if (!(s.jitter >= 0 && s.jitter <= 0.5)) throw InputError(fmt::format("cost system: jitter = {} must be in [0, 0.5]", s.jitter));
  if (!(s.flow_speed >= 0)) throw InputError(fmt::format("cost system: flow_speed = {} must be >= 0", s.flow_speed));
  if (!(s.settle_time >= 0)) throw InputError(fmt::format("cost system: settle_time = {} must be >= 0", s.settle_time));
  if (s.kind == CostSystemKind::pack && s.settle_time > 0 && !(s.gravity > 0))
    throw InputError(fmt::format("cost system: gravity = {} must be > 0 to settle a pack (or settle_time = 0)", s.gravity));
  add_container(s, w);
  std::vector<Vec3> sites = lattice(s);
  if (s.kind == CostSystemKind::pack && s.settle_time > 0)  // room for the larger settling spheres (below)
    for (Vec3& p : sites) p.z() += settle_gap * s.d / 2;
  std::mt19937_64 rng(s.seed);
  if (s.kind != CostSystemKind::column) {  // break the lattice's columns so that the pack collapses
    std::uniform_real_distribution<double> shake(-s.jitter * s.d / 2, s.jitter * s.d / 2);
    for (Vec3& p : sites) p += Vec3(shake(rng), shake(rng), 0);
  }
  if (s.kind == CostSystemKind::pack && s.settle_time > 0) {
    // Settle under gravity with NDEM (large steps: cheap), with spheres larger by settle_gap d in the same
    // container, then put the spheres at the resting centres: the PGS's overlap error (~1 % d)
    // becomes a small gap (wall contacts: half of it) instead of an overlap, which an SDEM run would turn
    // into an explosion at large E (its elastic energy grows with E, the error does not shrink).
    // The settling material is soft (E = 1e7 Pa) whatever the system's: at E = 1e10 Pa NDEM at h = 0.01 s
    // vibrates (Paper I, 000 l.681) and leaves overlaps beyond the gap; only the positions are kept.
    const double gap = settle_gap * s.d;
    CostSystem soft = s;
    soft.youngs_modulus = 1e7;
    World settle;
    add_container(soft, settle);
    for (const Vec3& p : sites) settle.add_sphere(p, (s.d + gap) / 2, 0);
    NdemSettings n;
    n.time_step = std::sqrt(2 * 0.05 * s.d / s.gravity);  // Eq. 37's gravity step at eps = 0.05: 0.0101 s at d = 0.01 m
    // N_it of Eq. 41 for a 1 % overlap error in this pack (at least 60): 89 at w = 10, l = 8; 213 at w = l = 20,
    // where 60 left overlaps of a third of d.
    CostInputs size;
    size.width = s.width;
    size.length = s.length;
    size.tolerance = 0.01;
    n.iterations = std::max(60, int(std::ceil(estimate_cost(size).N_it)));
    NdemStepper stepper(n);
    const StabilityGuard guard(settle, {.max_energy_gain = 2.0, .max_overlap_ratio = n.max_overlap_ratio}, "cost system (settling)");
    for (int k = 0; k < int(std::ceil(s.settle_time / n.time_step)); ++k) {
      stepper.step(settle);
      guard.check(settle);
    }
    for (std::size_t i = 0; i < sites.size(); ++i) sites[i] = settle.particles.position[i];
  }
  std::normal_distribution<double> normal(0.0, s.flow_speed / std::sqrt(3.0));  // rms of |v| = flow_speed
  for (const Vec3& p : sites) {
    Vec3 v = Vec3::Zero();
    if (s.kind == CostSystemKind::flow) v = Vec3(normal(rng), normal(rng), normal(rng));
    w.add_sphere(p, s.d / 2, 0, v);
  }
}

namespace {

std::unique_ptr<Stepper> make_stepper(const CostRunSettings& r) {
  if (r.method == CostMethod::sdem) {
    SdemSettings s;
    s.time_step = r.time_step;
    s.validate();
    return std::make_unique<SdemStepper>(s);
  }
  NdemSettings s;  // Paper I: tau_n = 2 h (n_s = 2), cold start (warm start "no significant effect", 000 l.725)
  s.time_step = r.time_step;
  s.iterations = r.iterations;
  s.residual_tolerance = r.residual_tolerance;
  s.validate();
  return std::make_unique<NdemStepper>(s);
}

}  // namespace

namespace {

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

CostTiming measure_on_this_thread(const CostSystem& system, const CostRunSettings& r) {
  World w;
  build_cost_system(system, w);
  const auto stepper = make_stepper(r);
  const auto* ndem = dynamic_cast<const NdemStepper*>(stepper.get());
  // The documented limits: SDEM 0.25 and half a radius, NDEM 2 and the engine's overlap limit.
  const StabilityLimits limits = ndem ? StabilityLimits{.max_energy_gain = 2.0, .max_overlap_ratio = ndem->settings().max_overlap_ratio}
                                      : StabilityLimits{};
  const StabilityGuard guard(w, limits, r.method == CostMethod::sdem ? "cost measurement (sdem)" : "cost measurement (ndem)");
  // A settled pack starts with gaps of up to settle_gap d (see build_cost_system), closed by a fall of
  // ~sqrt(2 settle_gap d / g); warm up twice that, so that the timed steps see the pack's contacts (SDEM's
  // cost per particle-step doubles from the falling to the resting pack).
  int warmup = r.warmup_steps;
  if (system.kind == CostSystemKind::pack && system.settle_time > 0)
    warmup = std::max(warmup, int(std::ceil(2 * std::sqrt(2 * settle_gap * system.d / system.gravity) / r.time_step)));
  for (int k = 0; k < warmup; ++k) {
    stepper->step(w);
    guard.check(w);
  }
  CostTiming t;
  t.method = r.method;
  t.particles = double(w.particles.size());
  t.steps = r.steps;
  t.particle_steps = t.particles * r.steps;
  w.timers = {};
  double contacts = 0, iterations = 0;
  for (int k = 0; k < r.steps; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = thread_cpu_seconds();
    stepper->step(w);
    t.cpu_s += thread_cpu_seconds() - c0;
    t.total_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    guard.check(w);  // untimed: not part of a step
    if (ndem) {
      const auto& st = ndem->stats();
      t.contact_iterations += double(st.iterations_used) * double(st.contacts);
      contacts += double(st.contacts);
      iterations += st.iterations_used;
    }
  }
  t.stages = w.timers;
  if (ndem) {
    t.contacts_mean = contacts / r.steps;
    t.iterations_mean = iterations / r.steps;
  } else {
    std::size_t touching = 0;
    for (const Contact& c : w.contacts()) touching += c.overlap > 0;
    t.contacts_mean = double(touching);
  }
  return t;
}

}  // namespace

CostTiming measure_cost(const CostSystem& system, const CostRunSettings& r) {
  if (r.steps < 1) throw InputError(fmt::format("cost measurement: steps = {} must be >= 1", r.steps));
  if (r.warmup_steps < 0) throw InputError(fmt::format("cost measurement: warmup_steps = {} must be >= 0", r.warmup_steps));
  // One thread, so that its CPU time is the run's whole cost whatever else the machine runs.
  tbb::task_arena one(1);
  return one.execute([&] { return measure_on_this_thread(system, r); });
}

double CostTiming::solve_cpu_s() const { return stages.total() > 0 ? cpu_s * stages.solve / stages.total() : 0.0; }

CostConstants pool_cost_constants(const std::vector<CostTiming>& timings) {
  CostConstants k;
  double s_cpu = 0, s_count = 0;
  // NDEM: cpu/step = K_ndem x + K_ndem_overhead n (x = contact-iterations, n = particles per step), least
  // squares in relative terms, sum ((K x + K_o n)/y - 1)^2 -> normal equations in a = x/y, b = n/y.
  double aa = 0, ab = 0, bb = 0, a1 = 0, b1 = 0;
  for (const CostTiming& t : timings) {
    if (t.method == CostMethod::sdem) {
      s_cpu += t.cpu_s;
      s_count += t.particle_steps;
      ++k.sdem_runs;
      continue;
    }
    if (!(t.cpu_s > 0 && t.contact_iterations > 0)) continue;
    const double y = t.cpu_s / t.steps, a = t.contact_iterations / t.steps / y, b = t.particles / y;
    aa += a * a, ab += a * b, bb += b * b, a1 += a, b1 += b;
    ++k.ndem_runs;
  }
  if (s_count > 0) k.K_sdem = s_cpu / s_count;
  if (k.ndem_runs > 0) {
    const double det = aa * bb - ab * ab;
    if (k.ndem_runs >= 2 && det > 1e-9 * aa * bb) {
      k.K_ndem = (a1 * bb - b1 * ab) / det;
      k.K_ndem_overhead = (b1 * aa - a1 * ab) / det;
    }
    if (!(k.K_ndem > 0 && k.K_ndem_overhead >= 0)) {  // one run, collinear runs or a negative part: no overhead term
      k.K_ndem = a1 / aa;
      k.K_ndem_overhead = 0;
    }
  }
  return k;
}

CostConstants calibrate_cost_constants() {
  CostSystem pack;
  pack.kind = CostSystemKind::pack;
  pack.width = 8;
  pack.length = 10;
  CostSystem column;
  column.kind = CostSystemKind::column;
  column.length = 200;
  CostInputs model;
  model.d = pack.d;
  model.youngs_modulus = pack.youngs_modulus;
  model.density = pack.density;
  model.poisson_ratio = pack.poisson_ratio;
  model.gravity = pack.gravity;
  model.tolerance = 0.05;
  const CostEstimate e = estimate_cost(model);  // h_S of Eq. 36; h_N of Eq. 37 (gravity branch, eps = 0.05)
  const double h_N = std::min(e.h_N, 0.01);
  std::vector<CostTiming> t;
  // SDEM: equal particle-steps in both (~0.75 M), so that the pooled K_SDEM weighs them alike.
  t.push_back(measure_cost(pack, {.method = CostMethod::sdem, .time_step = e.h_S, .warmup_steps = 5, .steps = 1500}));
  t.push_back(measure_cost(column, {.method = CostMethod::sdem, .time_step = e.h_S, .warmup_steps = 5, .steps = 3750}));
  // NDEM: N_it a decade apart, ~0.02-0.1 s of CPU each, so that the pooled fit separates the per-iteration
  // cost from the rest of the step (two short runs at N_it = 10 and 80 gave K_NDEM 2x off once).
  t.push_back(measure_cost(pack, {.method = CostMethod::ndem, .time_step = h_N, .iterations = 10, .steps = 100}));
  t.push_back(measure_cost(pack, {.method = CostMethod::ndem, .time_step = h_N, .iterations = 100, .steps = 25}));
  t.push_back(measure_cost(column, {.method = CostMethod::ndem, .time_step = h_N, .iterations = 10, .steps = 200}));
  t.push_back(measure_cost(column, {.method = CostMethod::ndem, .time_step = h_N, .iterations = 100, .steps = 50}));
  return pool_cost_constants(t);
}

}  // namespace grainlab
