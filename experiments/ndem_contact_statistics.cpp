// Experiment ndem_contact_statistics: Paper III E8 (Sec. 6.4, Figs. 19-20, 000 l.1416-1426; ledger
// paper3.md E8) on a proxy flow: contact statistics of a rotating drum of green pellets vs the time step.
// The paper's system (balling drum + outlet + conveyor, CAD not given) cannot be built; the proxy is a short
// drum (axis +y, gravity -z, smooth shell of diameter drum_diameter, two flat caps at +-w/2 turning with it,
// all of the pellet material) at the balling drum's Froude number, so its flowing layer has the drum's
// regime but not the belt drop (the source of the paper's 3-5 m/s impacts).
// Pellets: Table 1 (000 l.1163-1206), monosized d; NDEM settings of 000 l.1360 (N_it = 150, v_imp by the rule
// v_imp = eps d / dt with eps = 0.02, i.e. 0.05 m/s at 5 ms) and tau_n = max(n_s dt, c / e_H), c = 1 ms
// (000 l.1426: at 0.1 ms tau_n becomes c / e_H).
// Protocol: fill a jittered cubic lattice from the bottom, settle (gravity ramped) and spin up at prep_dt,
// shared between runs through the process memo (experiments/run_memo.hpp); each run continues from a copy
// at its own dt, relaxes relax_time and samples every step of measure_time
// (experiments/contact_step_statistics.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/sources/source_rng.hpp"
#include "core/stability_guard.hpp"
#include "experiments/capped_drum.hpp"
#include "experiments/contact_step_statistics.hpp"
#include "experiments/experiment.hpp"
#include "experiments/material_parameters.hpp"
#include "experiments/run_memo.hpp"

namespace grainlab {
namespace {

double drum_radius(const Parameters& p) { return 0.5 * p.real("drum_diameter"); }
double drum_width(const Parameters& p) { return p.real("drum_width_d") * p.real("diameter"); }

World build_drum(const Parameters& p) {
  World w;
  w.gravity.g = Vec3(0, 0, -p.real("gravity"));
  w.gravity.ramp_duration = p.real("settle_gravity_ramp");  // the loose lattice would collapse at 5 ms otherwise
  const std::uint16_t pellet = w.add_material(material_from_parameters(p, "pellet"));
  const double R = drum_radius(p), width = drum_width(p), d = p.real("diameter");
  add_capped_drum(w, R, width, pellet, pellet);
  // Lattice sites inside the drum (one d clear of the shell and caps), lowest first.
  const double a = p.real("fill_spacing") * d, jitter = 0.5 * (a - d);
  const double reach = R - d;
  const int ny = std::max(1, int(std::floor((width - d) / a)) + 1), nx = int(std::floor(reach / a));
  std::vector<Vec3> sites;
  for (int iz = -nx; iz <= nx; ++iz)
    for (int ix = -nx; ix <= nx; ++ix)
      for (int iy = 0; iy < ny; ++iy)
        if (double(ix * ix + iz * iz) * a * a <= reach * reach) sites.emplace_back(ix * a, (iy - 0.5 * (ny - 1)) * a, iz * a);
  const auto count = std::size_t(p.integer("count"));
  if (sites.size() < count)
    throw InputError(fmt::format("ndem_contact_statistics: count = {} does not fit the drum ({} lattice sites)", count,
                                 sites.size()));
  std::stable_sort(sites.begin(), sites.end(), [](const Vec3& l, const Vec3& r) { return l.z() < r.z(); });
  sources::SourceRng rng(std::uint64_t(p.integer("seed")));
  for (std::size_t i = 0; i < count; ++i) {
    const Vec3 offset(rng.uniform(-jitter, jitter), 0.0, rng.uniform(-jitter, jitter));
    w.add_sphere(sites[i] + offset, d / 2, pellet);
  }
  return w;
}

void set_rotation(World& w, double omega) {
  for (Wall& wall : w.walls) wall.angular_velocity = omega * Vec3::UnitY();
}

NdemSettings solver(const Parameters& p, double dt) {
  NdemSettings s;
  s.time_step = dt;
  s.iterations = int(p.integer("iterations"));
  s.n_s = int(p.integer("n_s"));
  s.damping_time = p.real("damping_time");
  s.impact_velocity = p.real("impact_velocity");
  s.impact_epsilon = p.real("impact_epsilon");
  s.max_overlap_ratio = p.real("max_overlap_ratio");
  return s;
}

// The turning drum feeds energy in: the energy part of the guard is off; overlap and finiteness stay.
StabilityGuard guard_for(const World& w, const Parameters& p) {
  return StabilityGuard(w, {.max_energy_gain = std::numeric_limits<double>::infinity(),
                            .max_overlap_ratio = p.real("max_overlap_ratio")}, "ndem_contact_statistics");
}

World prepare(const Parameters& p) {
  World w = build_drum(p);
  const double dt = p.real("prep_dt");
  NdemStepper stepper(solver(p, dt));
  const StabilityGuard guard = guard_for(w, p);
  const int settle = int(std::llround(p.real("settle_time") / dt)), spin = int(std::llround(p.real("spinup_time") / dt));
  for (int k = 0; k < settle + spin; ++k) {
    set_rotation(w, k < settle ? 0.0 : p.real("omega"));
    stepper.step(w);
    guard.check(w);
  }
  return w;
}

std::string preparation_key(const Parameters& p) {
  std::string key = "ndem_contact_statistics";
  for (const char* name : {"diameter", "density", "youngs_modulus", "poisson_ratio", "restitution", "friction",
                           "rolling_friction", "gravity", "drum_diameter", "drum_width_d", "omega", "fill_spacing",
                           "settle_gravity_ramp", "prep_dt", "settle_time", "spinup_time", "damping_time",
                           "impact_velocity", "impact_epsilon", "max_overlap_ratio"})
    key += fmt::format("|{}={:.17g}", name, p.real(name));
  for (const char* name : {"count", "seed", "iterations", "n_s"}) key += fmt::format("|{}={}", name, p.integer(name));
  return key;
}

RunResult run(const Parameters& p, RunContext& ctx) {
  const double dt = p.real("dt"), d = p.real("diameter"), g = p.real("gravity");
  const auto prepared = memoized<World>(preparation_key(p), [&] { return prepare(p); });
  World w = *prepared;
  NdemSettings settings = solver(p, dt);
  settings.record_contact_statistics = true;
  NdemStepper stepper(settings);
  const StabilityGuard guard = guard_for(w, p);
  set_rotation(w, p.real("omega"));
  ContactStepStatistics stats(
      {.reference_speed = p.real("reference_speed"), .high_speed = p.real("high_speed"),
       .overlap_error = p.real("overlap_error")},
      {.automatic = false, .lower = 0.0, .upper = p.real("histogram_overlap_max"), .bins = int(p.integer("histogram_bins"))},
      {.automatic = false, .lower = 0.0, .upper = p.real("histogram_speed_max"), .bins = int(p.integer("histogram_bins"))});
  const int relax = int(std::llround(p.real("relax_time") / dt)), measure = int(std::llround(p.real("measure_time") / dt));
  if (measure < 1) throw InputError("ndem_contact_statistics: measure_time must cover at least one step");
  double speed_sum = 0;
  for (int k = 0; k < relax + measure; ++k) {
    stepper.step(w);
    guard.check(w);
    if (ctx.progress && k % 50 == 0) ctx.progress(double(k) / (relax + measure));
    if (k < relax) continue;
    const NdemStepStats& s = stepper.stats();
    stats.add_step(s.contact_overlap_over_d, s.contact_approach_speed, s.contact_impact_speed);
    double v = 0;
    for (const Vec3& u : w.particles.velocity) v += u.norm();
    speed_sum += v / double(w.particles.size());
  }
  const double eH = settings.hertz_exponent();
  RunResult out;
  out.metrics = {
      {"particles", double(w.particles.size())},
      {"froude", p.real("omega") * p.real("omega") * drum_radius(p) / g},  // omega^2 R / g, the ledger's E6 Fr
      {"contact_steps", double(stats.samples())},
      {"contacts_per_step", double(stats.samples()) / double(stats.steps())},
      {"impact_threshold", stats.mean_impact_speed_threshold()},
      {"impact_threshold_rule", settings.impact_velocity >= 0 ? settings.impact_velocity : settings.impact_epsilon * d / dt},
      {"tau_n", std::max(settings.n_s * dt, settings.damping_time / eH)},
      {"impact_fraction", stats.impact_fraction()},
      {"above_reference_fraction", stats.above_reference_fraction()},
      {"high_speed_fraction", stats.high_speed_fraction()},
      {"overlap_error_fraction", stats.overlap_error_fraction()},
      {"max_overlap_d", stats.max_overlap_over_d()},
      {"max_approach_speed", stats.max_approach_speed()},
      {"overlap_overflow_fraction", stats.overlap_overflow_fraction()},
      {"speed_overflow_fraction", stats.speed_overflow_fraction()},
      {"mean_particle_speed", speed_sum / double(stats.steps())},
  };
  out.series["overlap_histogram"] = {{"overlap_d", "all", "continuous", "impact"}, stats.overlap_rows()};
  out.series["speed_histogram"] = {{"approach_speed", "all", "continuous", "impact"}, stats.speed_rows()};
  return out;
}

const ExperimentRegistration reg{Experiment{
    .name = "ndem_contact_statistics",
    .description = "Paper III E8 proxy: contact statistics (impact fraction, high-speed contacts, overlap errors, "
                   "overlap and normal-velocity histograms) of a rotating pellet drum vs the NDEM time step",
    .parameters =
        {
            {"row", ParamType::integer, "-", std::int64_t{0}, 0.0, 1e6, "label of the sweep point (studies filter on it; not used)"},
            {"diameter", ParamType::real, "m", 0.0127, 1e-4, 1.0, "pellet diameter d (Table 1)"},
            {"density", ParamType::real, "kg/m^3", 3700.0, 1.0, 1e5, "rho (Table 1)"},
            {"youngs_modulus", ParamType::real, "Pa", 6.2e6, 1e3, 1e12, "E (Table 1)"},
            {"poisson_ratio", ParamType::real, "-", 0.25, 0.0, 0.49, "nu (000 l.1194)"},
            {"restitution", ParamType::real, "-", 0.18, 0.0, 1.0, "e (Table 1)"},
            {"friction", ParamType::real, "-", 0.91, 0.0, 10.0, "mu_s (Table 1)"},
            {"rolling_friction", ParamType::real, "-", 0.32, 0.0, 10.0, "mu_r (Table 1)"},
            {"gravity", ParamType::real, "m/s^2", 9.82, 0.0, 100.0, "g (000 l.1140)"},
            {"drum_diameter", ParamType::real, "m", 0.6, 0.05, 10.0, "proxy drum diameter"},
            {"drum_width_d", ParamType::real, "d", 3.0, 1.0, 1000.0, "drum length between the caps, in d"},
            {"omega", ParamType::real, "rad/s", 1.317, 0.0, 100.0, "drum angular velocity (1.317: Fr = 0.053 of the 3.7 m drum at 0.53 rad/s for D = 0.6 m)"},
            {"count", ParamType::integer, "-", std::int64_t{800}, 1.0, 1e7, "pellets"},
            {"fill_spacing", ParamType::real, "d", 1.1, 1.0, 3.0, "lattice spacing of the fill"},
            {"seed", ParamType::integer, "-", std::int64_t{1}, 0.0, 1e15, "fill jitter"},
            {"settle_gravity_ramp", ParamType::real, "s", 0.2, 0.0, 100.0, "gravity ramp at the start of settling"},
            {"prep_dt", ParamType::real, "s", 0.005, 1e-6, 0.1, "time step of the shared preparation (settle, spin-up)"},
            {"settle_time", ParamType::real, "s", 0.5, 0.0, 100.0, "settling with the drum at rest"},
            {"spinup_time", ParamType::real, "s", 2.0, 0.0, 1000.0, "spin-up to a steady flow"},
            {"dt", ParamType::real, "s", 0.005, 1e-6, 0.1, "time step of the measured run"},
            {"iterations", ParamType::integer, "-", std::int64_t{150}, 1.0, 1e6, "N_it (000 l.1360)"},
            {"n_s", ParamType::integer, "-", std::int64_t{2}, 1.0, 100.0, "tau_n >= n_s dt (000 l.1505)"},
            {"damping_time", ParamType::real, "s", 0.001, 0.0, 1.0, "Hertz viscous damping time c (000 l.1426)"},
            {"impact_velocity", ParamType::real, "m/s", -1.0, -1.0, 1e3, "v_imp; < 0: the rule eps d / dt (000 l.1140)"},
            {"impact_epsilon", ParamType::real, "-", 0.02, 1e-6, 1.0, "eps of the v_imp rule (0.05 m/s at 5 ms)"},
            {"max_overlap_ratio", ParamType::real, "-", 2.0, 0.1, 100.0, "stability guard: overlap / smaller radius"},
            {"relax_time", ParamType::real, "s", 0.05, 0.0, 100.0, "run at dt before sampling"},
            {"measure_time", ParamType::real, "s", 1.0, 1e-6, 1000.0, "sampled window"},
            {"reference_speed", ParamType::real, "m/s", 0.05, 1e-6, 100.0, "fixed impact speed of the paper's 5 ms count (000 l.1418)"},
            {"high_speed", ParamType::real, "m/s", 1.0, 1e-6, 100.0, "high-speed contacts (000 l.1424)"},
            {"overlap_error", ParamType::real, "d", 0.02, 1e-6, 10.0, "overlap error tolerance eps (000 l.1424)"},
            {"histogram_overlap_max", ParamType::real, "d", 0.1, 1e-6, 10.0, "overlap histogram range [0, max]"},
            {"histogram_speed_max", ParamType::real, "m/s", 1.0, 1e-6, 100.0, "approach-speed histogram range [0, max]"},
            {"histogram_bins", ParamType::integer, "-", std::int64_t{50}, 1.0, 1e5, "bins of each histogram"},
        },
    .run = run}};

}  // namespace
}  // namespace grainlab
