// Scenes of the Paper I method checks (experiments/paper1_method_checks.hpp): a sphere at rest on a plane
// (M3), a head-on collision and a settling short column with both engines (M2), a resting column (P1-C33),
// and the experiment `paper1_method_checks` that runs one of them per run.
#include "experiments/paper1_method_checks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/sdem/sdem_stepper.hpp"
#include "core/stability_guard.hpp"
#include "core/world.hpp"
#include "experiments/experiment.hpp"

namespace grainlab::paper1 {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

World floor_world(const Material& m, const GravityRamp& g) {
  World w;
  w.gravity.g = Vec3(0, 0, -g.gravity);
  w.gravity.ramp_from = g.from;
  w.gravity.ramp_duration = g.ramp_time;
  w.add_material(m);
  Wall floor;
  floor.name = "floor";
  floor.shape = PlaneShape{};
  w.add_wall(floor);
  return w;
}

// The guard of a ramped run: the ramp does work on the system, so only the overlap and finiteness
// parts apply (as in ndem_column); a blow-up still shows as an overlap beyond the engine's limit.
StabilityGuard ramped_guard(const World& w, const NdemSettings& s, const char* label) {
  const double energy = w.gravity.ramp_duration > 0 ? std::numeric_limits<double>::infinity() : 2.0;
  return StabilityGuard(w, {.max_energy_gain = energy, .max_overlap_ratio = s.max_overlap_ratio}, label);
}

void require_positive(double value, const char* name) {
  if (!(value > 0) || !std::isfinite(value))
    throw InputError(fmt::format("paper1_method_checks: {} = {} is invalid (must be finite and > 0)", name, value));
}

}  // namespace

Material paper1_material(double youngs_modulus, double poisson_ratio) {
  Material m;
  m.name = "paper1";
  m.density = paper1_density;
  m.youngs_modulus = youngs_modulus;
  m.poisson_ratio = poisson_ratio;
  m.restitution = 0.0;
  m.friction = 0.7;
  return m;
}

DampingMapping parse_damping_mapping(const std::string& name) {
  if (name == "eH2") return DampingMapping::eH2;
  if (name == "eH") return DampingMapping::eH;
  throw InputError(fmt::format("paper1_method_checks: damping_mapping = '{}' is invalid (eH2, eH)", name));
}

RestResult run_rest(const RestSetup& s) {
  require_positive(s.time_step, "dt");
  require_positive(s.diameter, "diameter");
  if (!(s.duration > s.gravity.ramp_time))
    throw InputError(fmt::format("paper1_method_checks: duration = {} s must exceed gravity_ramp_time = {} s",
                                 s.duration, s.gravity.ramp_time));
  const double r = s.diameter / 2;
  World w = floor_world(s.material, s.gravity);
  w.add_sphere(Vec3(0, 0, r), r, 0);
  NdemSettings ns;
  ns.time_step = s.time_step;
  ns.iterations = s.iterations;
  NdemStepper ndem(ns);
  const StabilityGuard guard = ramped_guard(w, ns, "paper1_method_checks rest");
  RestResult out;
  out.steps = long(std::ceil(s.duration / s.time_step));
  for (long k = 0; k < out.steps; ++k) {
    ndem.step(w);
    guard.check(w);
  }
  out.overlap = r - w.particles.position[0].z();
  out.kinetic_energy = w.particles.kinetic_energy();
  out.solve_seconds = w.timers.solve;
  // Eq. 34: at rest the constraint force is k_n delta^{3/2} = m g. k_n from outside the engine (Eq. 11).
  const double kref = s.reference_kn_floor * s.material.youngs_modulus * std::sqrt(s.diameter);
  out.overlap_ref = kref > 0 ? std::pow(w.particles.mass[0] * s.gravity.gravity / kref, 2.0 / 3.0) : nan;
  out.rel_error_ref = (out.overlap - out.overlap_ref) / out.overlap_ref;
  return out;
}

namespace {

// The two engines of the h -> 0 comparison (M2), same h, same damping in the sense of Eq. 32.
struct LimitSteppers {
  SdemStepper sdem;
  NdemStepper ndem;
  double tau_n;
};

LimitSteppers limit_steppers(const Material& m, double damping, DampingMapping mapping, double h, int iterations) {
  require_positive(h, "dt");
  require_positive(damping, "damping");
  // SDEM: 000 Eq. 2/11, f_n = k_n (delta^{3/2} + c delta^{1/2} delta'); the engine takes the viscosity eta of
  // line 68, linear in c, so eta is scaled from the engine's own c per unit eta (no second copy of the formula).
  SdemSettings ss;
  ss.time_step = h;
  ss.normal_law = SdemNormalLaw::viscoelastic;
  ss.viscosity = 1.0;
  ss.viscosity = damping / sdem_pair_coefficients(m, m, ss).normal_damping;
  // NDEM: tau_n = max(n_s h, damping_time / e_H) (docs/ndem.md). Eq. 32 needs c = tau e_H, so the e_H^2
  // mapping gives damping_time = c; Paper I's printed gamma_n gives tau_n = c (damping_time = e_H c).
  NdemSettings ns;
  ns.time_step = h;
  ns.iterations = iterations;
  const double eH = ns.hertz_exponent();
  ns.damping_time = mapping == DampingMapping::eH2 ? damping : eH * damping;
  const double tau_n = std::max(ns.n_s * h, ns.damping_time / eH);
  if (tau_n <= ns.n_s * h)
    throw InputError(fmt::format("paper1_method_checks: damping = {} s gives tau_n = n_s h = {} s: the damping is "
                                 "clamped, not fixed, so this is not the h -> 0 limit of Eq. 31 (lower dt)",
                                 damping, tau_n));
  return LimitSteppers{SdemStepper(ss), NdemStepper(ns), tau_n};
}

// Overlap histories: per step (the state after each step, the same instants for both engines) the
// overlap of every contact, `contacts` values per step.
using History = std::vector<double>;

// max over steps and contacts |a - b| / max a; where one history has ended, its overlaps count as 0.
double history_difference(const History& a, const History& b) {
  const double peak = *std::max_element(a.begin(), a.end());
  double worst = 0;
  for (std::size_t k = 0; k < std::max(a.size(), b.size()); ++k) {
    const double x = k < a.size() ? a[k] : 0.0, y = k < b.size() ? b[k] : 0.0;
    worst = std::max(worst, std::abs(x - y) / peak);
  }
  return worst;
}

struct Trajectory {
  History overlap;
  double rebound = 0;  ///< separation speed / approach speed
  std::size_t impacts = 0;
};

World collision_world(const CollisionSetup& s) {
  const double r = s.diameter / 2;
  World w;
  w.gravity.g = Vec3::Zero();
  w.add_material(s.material);
  // Touching at t = 0 (overlap 0, not yet a contact in either engine), approaching at s.velocity.
  w.add_sphere(Vec3(-r, 0, 0), r, 0, Vec3(s.velocity / 2, 0, 0));
  w.add_sphere(Vec3(r, 0, 0), r, 0, Vec3(-s.velocity / 2, 0, 0));
  return w;
}

// Steps a two-sphere collision until the spheres separate.
template <class StepFn>
Trajectory collide(World& w, const CollisionSetup& s, StepFn&& step) {
  const StabilityGuard guard(w, {.max_energy_gain = 0.25, .max_overlap_ratio = 0.5}, "paper1_method_checks collision");
  Trajectory t;
  // Ten elastic contact times at 0.1 m/s is ~13 ms; a contact that has not ended by then is an error.
  const long max_steps = long(std::ceil(0.05 / s.time_step));
  bool touched = false;
  for (long k = 0; k < max_steps; ++k) {
    t.impacts += step(w);
    guard.check(w);
    const double delta = s.diameter - (w.particles.position[1] - w.particles.position[0]).norm();
    if (delta > 0) touched = true;
    if (touched && delta <= 0) {
      t.rebound = (w.particles.velocity[1] - w.particles.velocity[0]).x() / s.velocity;
      return t;
    }
    t.overlap.push_back(std::max(delta, 0.0));
  }
  throw InstabilityError(fmt::format("paper1_method_checks collision: the spheres did not separate within {} steps "
                                     "(h = {} s)", max_steps, s.time_step), w.step);
}

}  // namespace

CollisionResult run_collision(const CollisionSetup& s) {
  require_positive(s.velocity, "velocity");
  LimitSteppers e = limit_steppers(s.material, s.damping, s.mapping, s.time_step, s.iterations);
  World ws = collision_world(s), wn = collision_world(s);
  const Trajectory ts = collide(ws, s, [&](World& w) {
    e.sdem.step(w);
    return std::size_t(0);
  });
  const Trajectory tn = collide(wn, s, [&](World& w) {
    e.ndem.step(w);
    return e.ndem.stats().impacting;
  });
  CollisionResult out;
  out.tau_n = e.tau_n;
  out.peak_overlap_sdem = *std::max_element(ts.overlap.begin(), ts.overlap.end());
  out.peak_overlap_ndem = *std::max_element(tn.overlap.begin(), tn.overlap.end());
  out.peak_overlap_diff = std::abs(out.peak_overlap_ndem - out.peak_overlap_sdem) / out.peak_overlap_sdem;
  out.max_overlap_diff = history_difference(ts.overlap, tn.overlap);
  out.rebound_sdem = ts.rebound;
  out.rebound_ndem = tn.rebound;
  out.contact_steps_sdem = double(ts.overlap.size());
  out.contact_steps_ndem = double(tn.overlap.size());
  out.impacts = double(tn.impacts);
  out.solve_seconds = wn.timers.solve;
  return out;
}

SettleResult run_settle(const SettleSetup& s) {
  require_positive(s.duration, "duration");
  if (s.count < 1) throw InputError(fmt::format("paper1_method_checks: count = {} is invalid (>= 1)", s.count));
  LimitSteppers e = limit_steppers(s.material, s.damping, s.mapping, s.time_step, s.iterations);
  const double r = s.diameter / 2;
  auto run = [&](Stepper& stepper) {
    World w = floor_world(s.material, GravityRamp{.gravity = s.gravity, .from = 0, .ramp_time = 0});
    for (int i = 0; i < s.count; ++i) w.add_sphere(Vec3(0, 0, r + i * s.diameter), r, 0);
    // Full gravity on a touching column: the energy part of the guard applies (nothing drives it).
    const StabilityGuard guard(w, {.max_energy_gain = 0.25, .max_overlap_ratio = 0.5}, "paper1_method_checks settle");
    std::pair<History, double> out;  // overlaps, PGS seconds
    History& h = out.first;
    const long steps = long(std::ceil(s.duration / s.time_step));
    for (long k = 0; k < steps; ++k) {
      stepper.step(w);
      guard.check(w);
      const auto& x = w.particles.position;
      h.push_back(std::max(r - x[0].z(), 0.0));  // floor contact, then sphere j-1 on sphere j
      for (int j = 1; j < s.count; ++j) h.push_back(std::max(s.diameter - (x[j].z() - x[j - 1].z()), 0.0));
    }
    out.second = w.timers.solve;
    return out;
  };
  const History hs = run(e.sdem).first;
  const auto [hn, solve_seconds] = run(e.ndem);
  SettleResult out;
  out.solve_seconds = solve_seconds;
  out.tau_n = e.tau_n;
  out.peak_overlap_sdem = *std::max_element(hs.begin(), hs.end());
  out.max_overlap_diff = history_difference(hs, hn);
  // Both end near the static Hertz overlaps; the last step compares the settled states.
  for (int j = 0; j < s.count; ++j)
    out.final_overlap_diff = std::max(out.final_overlap_diff, std::abs(hs[hs.size() - s.count + j] - hn[hn.size() - s.count + j]) /
                                                                  hs[hs.size() - s.count + j]);
  return out;
}

ColumnResult run_column_rest(const ColumnSetup& s) {
  require_positive(s.time_step, "dt");
  require_positive(s.measure_time, "duration - gravity_ramp_time");
  if (s.count < 1) throw InputError(fmt::format("paper1_method_checks: count = {} is invalid (>= 1)", s.count));
  const double r = s.diameter / 2;
  World w = floor_world(s.material, s.gravity);
  for (int i = 0; i < s.count; ++i) w.add_sphere(Vec3(0, 0, r + i * s.diameter), r, 0);
  NdemSettings ns;
  ns.time_step = s.time_step;
  ns.iterations = s.iterations;
  NdemStepper ndem(ns);
  const StabilityGuard guard = ramped_guard(w, ns, "paper1_method_checks column");
  const long ramp_steps = long(std::ceil(s.gravity.ramp_time / s.time_step));
  const long measure_steps = long(std::ceil(s.measure_time / s.time_step));
  const long settle_steps = long(std::ceil(s.settle_time / s.time_step));
  if (!(settle_steps < measure_steps))
    throw InputError(fmt::format("paper1_method_checks: settle_time = {} s must be shorter than the measuring window "
                                 "duration - gravity_ramp_time = {} s", s.settle_time, s.measure_time));
  ColumnResult out;
  for (long k = 0; k < ramp_steps + measure_steps; ++k) {
    ndem.step(w);
    guard.check(w);
    out.iterations_total += ndem.stats().iterations_used;
    if (k < ramp_steps) continue;
    const double ke = w.particles.kinetic_energy();
    double speed = 0;
    for (const Vec3& v : w.particles.velocity) speed = std::max(speed, v.norm());
    out.history.push_back({w.time, ke, speed});
    out.kinetic_energy_window += ke / double(measure_steps);
    if (k < ramp_steps + settle_steps) continue;
    out.kinetic_energy_rest += ke / double(measure_steps - settle_steps);
    out.kinetic_energy_rest_max = std::max(out.kinetic_energy_rest_max, ke);
    out.max_speed_rest = std::max(out.max_speed_rest, speed);
  }
  out.weight_energy = s.count * w.particles.mass[0] * s.gravity.gravity * s.diameter;
  out.solve_seconds = w.timers.solve;
  return out;
}

}  // namespace grainlab::paper1

// --- The experiment: one scene per run, chosen by `scenario`; every run reports every metric (NaN where
// the scene does not measure it), as the study pipeline requires.

namespace grainlab {
namespace {

using namespace paper1;

RunResult run_method_check(const Parameters& p, RunContext&) {
  Material mat = paper1_material(p.real("youngs_modulus"), p.real("poisson_ratio"));
  mat.density = p.real("density");
  GravityRamp g{.gravity = p.real("gravity"), .from = p.real("gravity_ramp_from"), .ramp_time = p.real("gravity_ramp_time")};
  RunResult out;
  auto& x = out.metrics;
  for (const char* k : {"overlap_over_d", "overlap_rel_error_ref", "abs_overlap_rel_error_ref", "kinetic_energy_end",
                        "max_overlap_diff", "final_overlap_diff", "peak_overlap_diff", "rebound_ndem", "rebound_sdem", "tau_n", "impacts",
                        "kinetic_energy_window", "kinetic_energy_rest", "kinetic_energy_rest_max", "ke_rest_over_weight_energy", "max_speed_rest",
                        "iterations_total"})
    x[k] = std::numeric_limits<double>::quiet_NaN();
  const std::string scenario = p.text("scenario");
  if (scenario == "rest") {
    RestSetup s{.material = mat, .diameter = p.real("diameter"), .gravity = g, .duration = p.real("duration"),
                .time_step = p.real("dt"), .iterations = int(p.integer("iterations")),
                .reference_kn_floor = p.real("reference_kn_floor")};
    const RestResult r = run_rest(s);
    x["overlap_over_d"] = r.overlap / s.diameter;
    x["overlap_rel_error_ref"] = r.rel_error_ref;
    x["abs_overlap_rel_error_ref"] = std::abs(r.rel_error_ref);
    x["kinetic_energy_end"] = r.kinetic_energy;
    x["time_solve"] = r.solve_seconds;
  } else if (scenario == "collision") {
    CollisionSetup s{.material = mat, .diameter = p.real("diameter"), .velocity = p.real("velocity"),
                     .damping = p.real("damping"), .mapping = parse_damping_mapping(p.text("damping_mapping")),
                     .time_step = p.real("dt"), .iterations = int(p.integer("iterations"))};
    const CollisionResult r = run_collision(s);
    x["max_overlap_diff"] = r.max_overlap_diff;
    x["peak_overlap_diff"] = r.peak_overlap_diff;
    x["rebound_ndem"] = r.rebound_ndem;
    x["rebound_sdem"] = r.rebound_sdem;
    x["tau_n"] = r.tau_n;
    x["impacts"] = r.impacts;
    x["time_solve"] = r.solve_seconds;
  } else if (scenario == "settle") {
    SettleSetup s{.material = mat, .diameter = p.real("diameter"), .count = int(p.integer("count")),
                  .gravity = p.real("gravity"), .duration = p.real("duration"), .damping = p.real("damping"),
                  .mapping = parse_damping_mapping(p.text("damping_mapping")), .time_step = p.real("dt"),
                  .iterations = int(p.integer("iterations"))};
    const SettleResult r = run_settle(s);
    x["max_overlap_diff"] = r.max_overlap_diff;
    x["final_overlap_diff"] = r.final_overlap_diff;
    x["tau_n"] = r.tau_n;
    x["time_solve"] = r.solve_seconds;
  } else if (scenario == "column") {
    ColumnSetup s{.material = mat, .diameter = p.real("diameter"), .count = int(p.integer("count")), .gravity = g,
                  .measure_time = p.real("duration") - g.ramp_time, .settle_time = p.real("settle_time"),
                  .time_step = p.real("dt"),
                  .iterations = int(p.integer("iterations"))};
    const ColumnResult r = run_column_rest(s);
    x["kinetic_energy_window"] = r.kinetic_energy_window;
    x["kinetic_energy_rest"] = r.kinetic_energy_rest;
    x["kinetic_energy_rest_max"] = r.kinetic_energy_rest_max;
    x["ke_rest_over_weight_energy"] = r.kinetic_energy_rest / r.weight_energy;
    x["max_speed_rest"] = r.max_speed_rest;
    x["iterations_total"] = r.iterations_total;
    x["time_solve"] = r.solve_seconds;
    TimeSeries ke{{"time", "kinetic_energy", "max_speed"}, {}};
    for (const auto& row : r.history) ke.rows.push_back({row[0], row[1], row[2]});
    out.series["kinetic_energy"] = std::move(ke);
  } else {
    throw InputError(fmt::format("paper1_method_checks: scenario = '{}' is invalid (rest, collision, settle, column)", scenario));
  }
  return out;
}

const ExperimentRegistration reg{Experiment{
    .name = "paper1_method_checks",
    .description = "Paper I method checks with the semi-smooth NDEM (000 l.466-513, 681): sphere at rest on a plane "
                   "(Eq. 34), head-on collision vs explicit Hertz SDEM at the same h (Eq. 31-32), kinetic energy of "
                   "a resting 20-sphere column",
    .parameters =
        {
            {"scenario", ParamType::text, "", std::string("rest"), {}, {},
             "rest (sphere on a plane) | collision (two spheres, NDEM vs SDEM) | settle (short column dropped into "
             "contact, NDEM vs SDEM) | column (kinetic energy at rest)",
             {"rest", "collision", "settle", "column"}},
            {"dt", ParamType::real, "s", 0.01, 1e-9, 1.0, "time step h (both engines in collision)"},
            {"diameter", ParamType::real, "m", paper1_diameter, 1e-6, 10.0, "sphere diameter d"},
            {"density", ParamType::real, "kg/m^3", paper1_density, 1e-3, 1e5,
             "particle density (Paper I: m = 1e-3 kg at d = 0.01 m)"},
            {"youngs_modulus", ParamType::real, "Pa", 1.5e7 * 0.91, 1.0, 1e15,
             "Young's modulus E (Paper I: E/(1 - nu^2) = 1.5e7 gives the stated k_n = 0.5e6 between spheres)"},
            {"poisson_ratio", ParamType::real, "-", 0.3, 0.01, 0.49, "Poisson ratio nu"},
            {"gravity", ParamType::real, "m/s^2", 9.82, 0.0, 1e3, "gravity at the end of the ramp"},
            {"gravity_ramp_from", ParamType::real, "m/s^2", 0.01, 0.0, 1e3, "gravity at t = 0 (000 l.598)"},
            {"gravity_ramp_time", ParamType::real, "s", 1.0, 0.0, 1e4, "linear gravity ramp (rest, column)"},
            {"duration", ParamType::real, "s", 1.5, 0.0, 1e4,
             "simulated time, ramp included (rest, column: the column's kinetic energy is averaged after the ramp)"},
            {"settle_time", ParamType::real, "s", 1.0, 0.0, 1e4,
             "column: seconds after the ramp before the kinetic energy counts as 'at rest'"},
            {"iterations", ParamType::integer, "-", std::int64_t(500), 1.0, 1e7, "PGS iterations N_it (always all)"},
            {"count", ParamType::integer, "-", std::int64_t(20), 1.0, 1000.0, "spheres in the column (column, settle)"},
            {"reference_kn_floor", ParamType::real, "-", 0.0, 0.0, 1e3,
             "rest: independent k_n/(E sqrt(d)) of the sphere-plane contact (Eq. 11); 0: reference metrics NaN"},
            {"velocity", ParamType::real, "m/s", 0.1, 1e-6, 100.0, "collision: approach speed"},
            {"damping", ParamType::real, "s", 5e-4, 1e-9, 1.0,
             "collision, settle: SDEM damping c of f_n = k_n (delta^1.5 + c delta^0.5 delta') (000 Eq. 2/11)"},
            {"damping_mapping", ParamType::text, "", std::string("eH2"), {}, {},
             "collision, settle: NDEM tau_n = c/e_H (eH2, Papers III-V, what Eq. 32 needs) or tau_n = c (eH, Paper I as printed)",
             {"eH2", "eH"}},
        },
    .run = run_method_check}};

}  // namespace
}  // namespace grainlab
