// Experiment ndem_drum_flow: Paper IV E3, dense rolling flow in a smooth rotating drum stepped with the
// semi-smooth NDEM engine (000 l.1681-1717; ledger ../shared/claims/paper4.md E3, P13, P15); convergence of
// the plug-zone fraction and of the dynamic angle of repose with the PGS iteration count N_it, cold vs
// history-based warm start.
//
// Scene: drum axis along +y through the origin, gravity -z; a smooth cylindrical shell of diameter
// D = drum_diameter_d d and width w = drum_width_d d (experiments/capped_drum.hpp)
// closed by two flat end caps (planes at y = +-w/2) that turn with it at omega about +y. Shell material =
// particle material (ledger E3 default); the caps take cap_friction / cap_rolling_friction (< 0: the
// particle values) so that their friction can be switched off (ledger P15).
// Particles: `count` spheres, a fraction `small_fraction` by number of diameter `diameter_small`, the rest
// `diameter` (Table 1: 13 and 10 mm, 50/50 assumed), on a jittered cubic grid of spacing fill_spacing d
// filling the drum from the bottom up, sizes shuffled (seed).
//
// Protocol (ledger E3 defaults): settle `settle_time` with the drum at rest, then spin up `spinup_time`
// at omega, both at N_it = prep_iterations, cold start: the preparation. Each run is a branch (warm_start,
// iterations, warm_start_beta) continued from a copy of the prepared state for `relax_time` (to
// re-equilibrate at its N_it) and then measured every step over `measure_time`. The preparation, the
// branch and the variant's own reference branch (N_it = reference_iterations, for Eq. 14 and theta'^500)
// and the cold reference are shared between runs through the process-wide memo
// (experiments/run_memo.hpp): pure functions of their parameters, computed once per process.
// Measures per step: experiments/drum_flow_stats.hpp. protocol = "kinematics" reports the setup numbers
// (Froude number, drum size, fill) without a run. Metrics: docs/paper4_e3.md.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/sources/source_rng.hpp"
#include "core/stability_guard.hpp"
#include "experiments/capped_drum.hpp"
#include "experiments/drum_bed.hpp"
#include "experiments/drum_flow_stats.hpp"
#include "experiments/experiment.hpp"
#include "experiments/material_parameters.hpp"
#include "experiments/run_memo.hpp"
#include "experiments/sample_statistics.hpp"

namespace grainlab {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

const std::vector<std::string> flow_metrics = {
    "plug_fraction", "plug_fraction_sd", "plug_ref", "eps_plug", "abs_eps_plug", "eps_plug_cold",
    "abs_eps_plug_cold", "theta_deg", "theta_sd_deg", "theta_ref_deg", "theta_cold_ref_deg", "theta_rel_error",
    "theta_rel_error_cold", "surface_angle_deg", "surface_angle_sd_deg", "contacts", "contacts_per_particle",
    "eps_c", "theta_over_ref", "plug_over_ref", "theta_minus_cold_ref_deg", "plug_fraction_printed_sign",
    "theta_sd_over_surface_sd"};

/// Parameters that select a branch; every other parameter shapes the preparation.
const std::set<std::string> branch_parameters = {"iterations", "warm_start", "warm_start_beta", "protocol"};

double drum_radius(const Parameters& p) { return 0.5 * p.real("drum_diameter_d") * p.real("diameter"); }
double drum_width(const Parameters& p) { return p.real("drum_width_d") * p.real("diameter"); }

/// Fr = D Omega^2 / 2g (000 l.1683).
double froude_number(const Parameters& p) {
  const double omega = p.real("omega");
  return 2 * drum_radius(p) * omega * omega / (2 * p.real("gravity"));
}

int small_count(const Parameters& p) { return int(std::llround(p.real("small_fraction") * double(p.integer("count")))); }

/// Sphere volume over the drum volume pi R^2 w.
double solid_fraction(const Parameters& p) {
  const double d = p.real("diameter"), d2 = p.real("diameter_small");
  const int small = small_count(p), large = int(p.integer("count")) - small;
  const double volume = pi / 6 * (large * d * d * d + small * d2 * d2 * d2);
  const double R = drum_radius(p);
  return volume / (pi * R * R * drum_width(p));
}

// Jittered cubic grid filling the drum from the bottom up; sizes shuffled (see the file comment).
void fill_drum(World& w, const Parameters& p, std::uint16_t material) {
  const int count = int(p.integer("count"));
  const double d = p.real("diameter"), d2 = p.real("diameter_small");
  if (d2 > d) throw InputError(fmt::format("ndem_drum_flow: diameter_small = {} m exceeds diameter = {} m", d2, d));
  const double a = p.real("fill_spacing") * d;
  const double jitter = p.real("fill_jitter") * d;
  if (a < d + 2 * jitter)
    throw InputError(fmt::format("ndem_drum_flow: fill_spacing = {} d must be at least 1 + 2 fill_jitter = {} d",
                                 p.real("fill_spacing"), 1 + 2 * p.real("fill_jitter")));
  const double width = drum_width(p);
  if (width < d + 2 * jitter)
    throw InputError(fmt::format("ndem_drum_flow: drum_width_d = {} is narrower than one particle",
                                 p.real("drum_width_d")));
  const int ny = int(std::floor((width - d - 2 * jitter) / a)) + 1;
  const double reach = drum_radius(p) - d / 2 - jitter;
  const int nx = int(std::floor(reach / a));
  std::vector<Vec3> sites;
  for (int iz = -nx; iz <= nx; ++iz)
    for (int ix = -nx; ix <= nx; ++ix)
      for (int iy = 0; iy < ny; ++iy) {
        const double x = ix * a, z = iz * a;
        if (x * x + z * z > reach * reach) continue;
        sites.emplace_back(x, (iy - 0.5 * (ny - 1)) * a, z);
      }
  if (int(sites.size()) < count)
    throw InputError(fmt::format("ndem_drum_flow: count = {} does not fit the fill grid ({} sites at fill_spacing = "
                                 "{} d)", count, sites.size(), p.real("fill_spacing")));
  std::stable_sort(sites.begin(), sites.end(), [](const Vec3& l, const Vec3& r) { return l.z() < r.z(); });
  sources::SourceRng rng(std::uint64_t(p.integer("seed")));
  std::vector<char> small(std::size_t(count), 0);
  std::fill(small.begin(), small.begin() + small_count(p), 1);
  for (std::size_t i = small.size(); i > 1; --i) {  // Fisher-Yates with the portable generator
    const auto j = std::min(i - 1, std::size_t(rng.uniform() * double(i)));
    std::swap(small[i - 1], small[j]);
  }
  for (int i = 0; i < count; ++i) {
    const Vec3 offset(rng.uniform(-jitter, jitter), rng.uniform(-jitter, jitter), rng.uniform(-jitter, jitter));
    w.add_sphere(sites[std::size_t(i)] + offset, (small[std::size_t(i)] ? d2 : d) / 2, material);
  }
}

World build_world(const Parameters& p) {
  World w;
  w.gravity.g = Vec3(0, 0, -p.real("gravity"));
  // The loose fill grid collapses under gravity; at dt = 5 ms a sudden collapse drives spheres up to a
  // diameter into each other (ledger P14), so gravity is ramped up from 0 over the first part of the settling.
  w.gravity.ramp_duration = p.real("settle_gravity_ramp");
  const Material grain = material_from_parameters(p, "grain");
  Material cap = grain;
  cap.name = "cap";
  if (p.real("cap_friction") >= 0) cap.friction = p.real("cap_friction");
  if (p.real("cap_rolling_friction") >= 0) cap.rolling_friction = p.real("cap_rolling_friction");
  const std::uint16_t grain_id = w.add_material(grain);
  Material shell_material = grain;
  shell_material.name = "shell";
  const std::uint16_t shell_id = w.add_material(shell_material);
  const std::uint16_t cap_id = w.add_material(cap);
  add_capped_drum(w, drum_radius(p), drum_width(p), shell_id, cap_id);
  fill_drum(w, p, grain_id);
  return w;
}

void set_drum_rotation(World& w, double omega) {
  for (Wall& wall : w.walls) wall.angular_velocity = omega * Vec3::UnitY();
}

NdemSettings solver_settings(const Parameters& p, int iterations, const std::string& warm_start, double beta) {
  NdemSettings s;
  s.time_step = p.real("dt");
  s.iterations = iterations;
  s.n_s = int(p.integer("n_s"));
  s.friction_shape = parse_friction_shape(p.text("friction_shape"));
  s.impact_velocity = p.real("impact_velocity");
  s.warm_start = parse_warm_start(warm_start);
  s.warm_start_beta = beta;
  s.max_overlap_ratio = p.real("max_overlap_ratio");
  return s;
}

// The turning drum feeds energy in: the energy part of the guard is off; overlap and finiteness stay.
StabilityGuard make_guard(const World& w, const Parameters& p) {
  return StabilityGuard(w, {.max_energy_gain = std::numeric_limits<double>::infinity(),
                            .max_overlap_ratio = p.real("max_overlap_ratio")}, "ndem_drum_flow");
}

int steps_of(double time, double dt) { return int(std::llround(time / dt)); }

/// Fill, settle at rest, spin up: the state every branch continues from.
World prepare(const Parameters& p, RunContext& ctx) {
  World w = build_world(p);
  NdemStepper stepper(solver_settings(p, int(p.integer("prep_iterations")), "cold", 0.0));
  const StabilityGuard guard = make_guard(w, p);
  const double dt = p.real("dt");
  const int settle = steps_of(p.real("settle_time"), dt), spin = steps_of(p.real("spinup_time"), dt);
  set_drum_rotation(w, 0.0);
  for (int k = 0; k < settle + spin; ++k) {
    if (k == settle) set_drum_rotation(w, p.real("omega"));
    stepper.step(w);
    guard.check(w);
    if (ctx.progress && k % 20 == 0) ctx.progress(0.5 * k / std::max(1, settle + spin));
  }
  return w;
}

/// What one branch measured over its window.
struct BranchResult {
  std::map<std::string, double> metrics;
  TimeSeries flow;
  StageTimers timers;
};

BranchResult run_branch(const World& prepared, const Parameters& p, int iterations, const std::string& warm_start,
                        double beta) {
  World w = prepared;
  w.timers = {};
  NdemStepper stepper(solver_settings(p, iterations, warm_start, beta));
  const StabilityGuard guard = make_guard(w, p);
  const double dt = p.real("dt");
  const int relax = steps_of(p.real("relax_time"), dt), measure = steps_of(p.real("measure_time"), dt);
  if (measure < 2) throw InputError("ndem_drum_flow: measure_time must cover at least 2 steps");

  DrumProbe probe;
  probe.omega = p.real("omega");
  probe.radius = drum_radius(p);
  probe.length = drum_width(p);
  const double threshold = p.real("plug_threshold");
  const double bin = p.real("surface_bin_width") * p.real("diameter");
  const double half_width = p.real("surface_half_width") * probe.radius;

  BranchResult b;
  b.flow = {{"time", "plug_fraction", "theta_deg", "surface_angle_deg", "contacts", "max_overlap_over_d"}, {}};
  std::vector<double> plug, printed, theta, surface, contacts, overlap;
  for (int k = 0; k < relax + measure; ++k) {
    stepper.step(w);
    guard.check(w);
    if (k < relax) continue;
    const auto t0 = std::chrono::steady_clock::now();
    const auto& x = w.particles.position;
    const DrumFrame frame = drum_frame(probe, x, w.particles.mass);
    plug.push_back(plug_fraction(probe, x, w.particles.velocity, threshold));
    printed.push_back(plug_fraction(probe, x, w.particles.velocity, threshold, true));
    theta.push_back(frame.tilt * 180 / pi);
    surface.push_back(surface_angle(probe, frame, x, w.particles.radius, bin, half_width) * 180 / pi);
    contacts.push_back(double(stepper.stats().contacts));
    overlap.push_back(stepper.stats().mean_overlap_over_d);
    b.flow.rows.push_back({w.time, plug.back(), theta.back(), surface.back(), contacts.back(),
                           stepper.stats().max_overlap_over_d});
    w.timers.observers += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  auto& m = b.metrics;
  m["plug_fraction"] = mean_of(plug);
  m["plug_fraction_sd"] = sd_of(plug);
  m["plug_fraction_printed_sign"] = mean_of(printed);
  m["theta_deg"] = mean_of(theta);
  m["theta_sd_deg"] = sd_of(theta);
  m["surface_angle_deg"] = mean_of(surface);
  m["surface_angle_sd_deg"] = sd_of(surface);
  m["theta_sd_over_surface_sd"] = m["theta_sd_deg"] / m["surface_angle_sd_deg"];
  m["contacts"] = mean_of(contacts);
  m["contacts_per_particle"] = mean_of(contacts) / double(w.particles.size());
  m["eps_c"] = mean_of(overlap);
  b.timers = w.timers;
  return b;
}

std::string preparation_key(const Parameters& p) {
  std::string key = "ndem_drum_flow";
  for (const auto& [name, value] : p.values)
    if (!branch_parameters.contains(name)) key += fmt::format("|{}={}", name, to_string(value));
  return key;
}

RunResult run_drum_flow(const Parameters& p, RunContext& ctx) {
  RunResult out;
  out.metrics["froude"] = froude_number(p);
  out.metrics["drum_diameter"] = 2 * drum_radius(p);
  out.metrics["drum_width"] = drum_width(p);
  out.metrics["particles"] = double(p.integer("count"));
  out.metrics["solid_fraction"] = solid_fraction(p);
  if (p.text("protocol") == "kinematics") {
    for (const auto& m : flow_metrics) out.metrics[m] = nan;
    return out;
  }
  const std::string prep_key = preparation_key(p);
  const auto prepared = memoized<World>(prep_key, [&] { return prepare(p, ctx); });
  auto branch = [&](int iterations, const std::string& warm_start, double beta) {
    const bool history = warm_start != "cold" && warm_start != "model";
    const std::string key = fmt::format("{}|branch={},{},{}", prep_key, iterations, warm_start, history ? beta : 0.0);
    return memoized<BranchResult>(key, [&] { return run_branch(*prepared, p, iterations, warm_start, beta); });
  };
  const std::string& variant = p.text("warm_start");
  const double beta = p.real("warm_start_beta");
  const int reference = int(p.integer("reference_iterations"));
  const auto own = branch(int(p.integer("iterations")), variant, beta);
  if (ctx.progress) ctx.progress(0.7);
  const auto ref = branch(reference, variant, beta);
  const auto cold = branch(reference, "cold", 0.0);
  for (const auto& [k, v] : own->metrics) out.metrics[k] = v;
  auto& m = out.metrics;
  const double f = m.at("plug_fraction"), theta = m.at("theta_deg");
  m["plug_ref"] = ref->metrics.at("plug_fraction");
  m["eps_plug"] = m["plug_ref"] - f;  // Eq. 14 with the variant's own N_it = 500 run
  m["abs_eps_plug"] = std::abs(m["eps_plug"]);
  m["eps_plug_cold"] = cold->metrics.at("plug_fraction") - f;  // Eq. 14 against the cold N_it = 500 run
  m["abs_eps_plug_cold"] = std::abs(m["eps_plug_cold"]);
  m["theta_ref_deg"] = ref->metrics.at("theta_deg");
  m["theta_cold_ref_deg"] = cold->metrics.at("theta_deg");
  m["theta_rel_error"] = std::abs(theta - m["theta_ref_deg"]) / m["theta_ref_deg"];
  m["theta_rel_error_cold"] = std::abs(theta - m["theta_cold_ref_deg"]) / m["theta_cold_ref_deg"];
  m["theta_over_ref"] = theta / m["theta_ref_deg"];
  m["plug_over_ref"] = f / m["plug_ref"];
  m["theta_minus_cold_ref_deg"] = theta - m["theta_cold_ref_deg"];
  m["time_solve"] = own->timers.solve;
  m["time_collision"] = own->timers.collision;
  m["time_observers"] = own->timers.observers;
  out.series["flow"] = own->flow;
  return out;
}

const ExperimentRegistration reg{Experiment{
    .name = "ndem_drum_flow",
    .description = "Paper IV E3: smooth rotating drum (D = 40 d, w = 7 d, Omega = 0.25 rad/s), NDEM; plug-zone "
                   "fraction, eps_plug (Eq. 14) and dynamic angle theta' vs N_it, cold vs warm start (000 l.1681-1717)",
    .parameters =
        {
            {"protocol", ParamType::text, "", std::string("simulate"), {}, {},
             "simulate | kinematics (setup numbers only: Froude number, drum size, fill; no run)",
             {"simulate", "kinematics"}},
            {"count", ParamType::integer, "-", std::int64_t(4864), 1.0, 200000.0, "number of spheres N_p (000 l.1683)"},
            {"diameter", ParamType::real, "m", 0.013, 1e-4, 1.0, "large sphere diameter d (Table 1)"},
            {"diameter_small", ParamType::real, "m", 0.010, 1e-4, 1.0, "small sphere diameter d_2 (Table 1)"},
            {"small_fraction", ParamType::real, "-", 0.5, 0.0, 1.0, "number fraction of small spheres (assumed 50/50)"},
            {"density", ParamType::real, "kg/m^3", 3700.0, 1.0, 1e5, "particle density (Table 1)"},
            {"youngs_modulus", ParamType::real, "Pa", 6e6, 1.0, 1e15, "Young's modulus E (Table 1)"},
            {"poisson_ratio", ParamType::real, "-", 0.25, -0.99, 0.49, "Poisson ratio (ledger 0.4)"},
            {"restitution", ParamType::real, "-", 0.18, 0.0, 1.0, "restitution e (Table 1)"},
            {"friction", ParamType::real, "-", 0.91, 0.0, 100.0, "friction mu_s, particles and shell (Table 1)"},
            {"rolling_friction", ParamType::real, "-", 0.32, 0.0, 100.0, "rolling resistance mu_r (Table 1)"},
            {"cap_friction", ParamType::real, "-", -1.0, -1.0, 100.0, "friction against the end caps (< 0: friction)"},
            {"cap_rolling_friction", ParamType::real, "-", -1.0, -1.0, 100.0,
             "rolling resistance against the end caps (< 0: rolling_friction)"},
            {"gravity", ParamType::real, "m/s^2", 9.81, 0.0, 1e3, "gravity magnitude (ledger 0.4)"},
            {"dt", ParamType::real, "s", 0.005, 1e-6, 0.1, "time step (Table 1)"},
            {"n_s", ParamType::integer, "-", std::int64_t(2), 1.0, 1000.0, "tau_n = n_s dt (000 l.1802)"},
            {"impact_velocity", ParamType::real, "m/s", 0.05, -1.0, 1e3, "v_imp (Table 1)"},
            {"friction_shape", ParamType::text, "", std::string("cone"), {}, {},
             "cone (disk, ledger 0.4) | box", {"cone", "box"}},
            {"max_overlap_ratio", ParamType::real, "-", 2.0, 0.1, 100.0, "stop as unstable beyond this overlap / radius"},
            {"drum_diameter_d", ParamType::real, "-", 40.0, 2.0, 1e4, "drum diameter D in units of d (000 l.1683)"},
            {"drum_width_d", ParamType::real, "-", 7.0, 1.0, 1e4, "drum width w in units of d (000 l.1683)"},
            {"omega", ParamType::real, "rad/s", 0.25, -100.0, 100.0, "drum angular velocity about +y (000 l.1683)"},
            {"fill_spacing", ParamType::real, "-", 1.05, 1.0, 10.0, "initial grid spacing in d"},
            {"fill_jitter", ParamType::real, "-", 0.02, 0.0, 1.0, "initial random offset per axis, in d"},
            {"seed", ParamType::integer, "-", std::int64_t(1), 0.0, 1e15, "seed of the size shuffle and offsets"},
            {"prep_iterations", ParamType::integer, "-", std::int64_t(500), 1.0, 1e5,
             "N_it of the preparation (cold start)"},
            {"settle_time", ParamType::real, "s", 2.0, 0.0, 1e4, "settling with the drum at rest (ledger E3)"},
            {"settle_gravity_ramp", ParamType::real, "s", 1.0, 0.0, 1e4,
             "gravity ramps linearly from 0 to full over this time at the start of the settling (0: none)"},
            {"spinup_time", ParamType::real, "s", 10.0, 0.0, 1e4, "rotation before branching (ledger E3)"},
            {"iterations", ParamType::integer, "-", std::int64_t(500), 1.0, 1e5, "PGS iterations N_it of the branch"},
            {"warm_start", ParamType::text, "", std::string("cold"), {}, {},
             "cold | history | history_normal_only | history_no_velocity_update | model",
             {"cold", "history", "history_normal_only", "history_no_velocity_update", "model"}},
            {"warm_start_beta", ParamType::real, "-", 0.85, 0.0, 1.0, "beta of the history warm start (Eq. 7)"},
            {"reference_iterations", ParamType::integer, "-", std::int64_t(500), 1.0, 1e5,
             "N_it of the reference branches (N_plug^500 of Eq. 14, theta'^500)"},
            {"relax_time", ParamType::real, "s", 4.0, 0.0, 1e4, "branch time to re-equilibrate at its N_it (ledger E3)"},
            {"measure_time", ParamType::real, "s", 2.0, 0.0, 1e4, "averaging window, every step (000 l.1693: 2 s)"},
            {"plug_threshold", ParamType::real, "-", 0.15, 0.0, 10.0, "plug zone: v_r <= this (000 l.1693)"},
            {"surface_bin_width", ParamType::real, "-", 1.0, 0.1, 100.0, "surface-fit bin width along the surface, in d"},
            {"surface_half_width", ParamType::real, "-", 0.5, 0.01, 1.0,
             "surface fit over |a| <= this x R around the centre-of-mass line"},
        },
    .run = run_drum_flow}};

}  // namespace
}  // namespace grainlab
