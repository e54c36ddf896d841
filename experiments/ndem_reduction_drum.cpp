// Experiment ndem_reduction_drum: Paper V E3, the slowly rotating drum with adaptive model reduction
// (000 l.2126, 2145-2146, 2164, 2180-2186; ledger ../shared/claims/paper5.md E3, P5, P7, P11, P14, P17).
//
// Scene: drum axis along +y through the origin, gravity -z; a cylindrical shell of diameter D = drum_diameter_d d
// and width w = drum_width_d d with the particle material (friction and rolling resistance "the same as
// between particles"), closed by two frictionless flat side caps (experiments/capped_drum.hpp), all turning
// at omega about +y. The bed lifts on the side where the shell rises.
// Particles: `count` spheres from a regular cubic lattice of spacing fill_spacing d filling the drum from the
// bottom up (no jitter: "a regular particle distribution", 000 l.2126), sizes alternating along the lattice
// order so that a fraction small_fraction has diameter diameter_small (ledger default: 50/50, 13/10 mm).
// Contact law: linear, k_n = linear_stiffness (e_H = 1, Table 1: 3 kN/m), Table 1 material, v_imp = eps d/Dt
// with eps = 0.01 (ledger P15).
//
// Protocol: settle `settle_time` with the drum at rest (gravity ramped from 0 over settle_gravity_ramp: the
// loose lattice collapses, as in ndem_drum_flow), then turn `spinup_time` at omega without reduction at
// N_it = prep_iterations: the preparation, shared by every run of a process (experiments/run_memo.hpp). Each
// run is a branch from it with its own N_it and reduction settings (experiments/reduction_parameters.hpp):
// `relax_time` to adapt (reduction merges from the branch start on), then `measure_time` sampled every
// `sample_every` steps. Each run also continues the same-N_it reference branch (reduction = none, N_it =
// `iterations`: the method error against ref-N, ledger P17) and, for a finite separation-split threshold,
// the same run without separation split (P5-C49), both memoised.
// Measures: theta_drum = surface fit in the D/2-wide window about the drum axis (experiments/drum_flow_stats.hpp
// surface_angle, half width R/2); the lab-frame profile over the whole drum for the steepest local slope, the
// lift height and the surface flatness (experiments/drum_lab_surface.hpp); plug creep; h(t) from the stepper
// (ReductionStats: h = 1 - (free + aggregates)/N_p and the P4 variants). Sensor (cs runs): a slab
// sensor_thickness_d d thick and sensor_length_d d long centred on the free surface of the prepared bed at the
// horizontal distance sensor_offset R from the axis on the lifted side, tilted with the surface, spanning the
// drum width, fixed in the lab (ledger E3 default). Docs: docs/paper5_drum.md.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/stability_guard.hpp"
#include "experiments/capped_drum.hpp"
#include "experiments/drum_bed.hpp"
#include "experiments/drum_flow_stats.hpp"
#include "experiments/drum_lab_surface.hpp"
#include "experiments/experiment.hpp"
#include "experiments/reduction_parameters.hpp"
#include "experiments/run_memo.hpp"
#include "experiments/sample_statistics.hpp"

namespace grainlab {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr const char* name_ = "ndem_reduction_drum";

/// Parameters that shape the preparation; every other parameter belongs to a branch.
const std::set<std::string> preparation_parameters = {
    "count", "diameter", "diameter_small", "small_fraction", "density", "restitution", "friction",
    "rolling_friction", "linear_stiffness", "gravity", "dt", "n_s", "impact_velocity", "friction_shape",
    "cap_friction", "cap_rolling_friction", "drum_diameter_d", "drum_width_d", "omega", "fill_spacing",
    "prep_iterations", "settle_time", "settle_gravity_ramp", "spinup_time", "max_overlap_ratio", "sample_every",
    "surface_bin_width", "surface_half_width"};

double drum_radius(const Parameters& p) { return 0.5 * p.real("drum_diameter_d") * p.real("diameter"); }
double drum_width(const Parameters& p) { return p.real("drum_width_d") * p.real("diameter"); }
double revolution(const Parameters& p) { return 2 * pi / std::abs(p.real("omega")); }
int steps_of(double time, double dt) { return int(std::llround(time / dt)); }

/// Fr = D Omega^2 / 2g (000 l.2126).
double froude_number(const Parameters& p) {
  const double omega = p.real("omega");
  return 2 * drum_radius(p) * omega * omega / (2 * p.real("gravity"));
}

DrumProbe make_probe(const Parameters& p) {
  DrumProbe probe;
  probe.omega = p.real("omega");
  probe.radius = drum_radius(p);
  probe.length = drum_width(p);
  return probe;
}

// Regular lattice from the bottom up, sizes alternating (see the file comment).
void fill_drum(World& w, const Parameters& p, std::uint16_t material) {
  const int count = int(p.integer("count"));
  const double d = p.real("diameter"), d2 = p.real("diameter_small");
  if (d2 > d) throw InputError(fmt::format("{}: diameter_small = {} m exceeds diameter = {} m", name_, d2, d));
  const double a = p.real("fill_spacing") * d, width = drum_width(p);
  if (width < d) throw InputError(fmt::format("{}: drum_width_d = {} is narrower than one particle", name_,
                                              p.real("drum_width_d")));
  const int ny = int(std::floor((width - d) / a)) + 1;
  const double reach = drum_radius(p) - d / 2;
  const int nx = int(std::floor(reach / a));
  std::vector<Vec3> sites;
  for (int iz = -nx; iz <= nx; ++iz)
    for (int ix = -nx; ix <= nx; ++ix)
      for (int iy = 0; iy < ny; ++iy) {
        const double x = ix * a, z = iz * a;
        if (x * x + z * z <= reach * reach) sites.emplace_back(x, (iy - 0.5 * (ny - 1)) * a, z);
      }
  if (int(sites.size()) < count)
    throw InputError(fmt::format("{}: count = {} does not fit the lattice ({} sites at fill_spacing = {} d)", name_,
                                 count, sites.size(), p.real("fill_spacing")));
  const double f = p.real("small_fraction");
  for (int i = 0; i < count; ++i) {  // site i is small when floor((i + 1) f) steps up: alternating for f = 1/2
    const bool small = std::floor((i + 1) * f) > std::floor(i * f);
    w.add_sphere(sites[std::size_t(i)], (small ? d2 : d) / 2, material);
  }
}

World build_world(const Parameters& p) {
  World w;
  w.gravity.g = Vec3(0, 0, -p.real("gravity"));
  w.gravity.ramp_duration = p.real("settle_gravity_ramp");
  Material grain;
  grain.name = "grain";
  grain.density = p.real("density");
  grain.restitution = p.real("restitution");
  grain.friction = p.real("friction");
  grain.rolling_friction = p.real("rolling_friction");
  Material shell = grain, cap = grain;
  shell.name = "shell";
  cap.name = "cap";
  cap.friction = p.real("cap_friction");
  cap.rolling_friction = p.real("cap_rolling_friction");
  const std::uint16_t grain_id = w.add_material(grain);
  const std::uint16_t shell_id = w.add_material(shell);
  const std::uint16_t cap_id = w.add_material(cap);
  add_capped_drum(w, drum_radius(p), drum_width(p), shell_id, cap_id);
  fill_drum(w, p, grain_id);
  return w;
}

void set_drum_rotation(World& w, double omega) {
  for (Wall& wall : w.walls) wall.angular_velocity = omega * Vec3::UnitY();
}

NdemSettings solver_settings(const Parameters& p, int iterations) {
  NdemSettings s;
  s.time_step = p.real("dt");
  s.iterations = iterations;
  s.law = NdemContactLaw::linear;
  s.linear_stiffness = p.real("linear_stiffness");
  s.n_s = int(p.integer("n_s"));
  s.friction_shape = parse_friction_shape(p.text("friction_shape"));
  s.impact_velocity = p.real("impact_velocity");
  s.max_overlap_ratio = p.real("max_overlap_ratio");
  return s;
}

// The turning drum feeds energy in: the energy part of the guard is off; overlap and finiteness stay.
StabilityGuard make_guard(const World& w, const Parameters& p) {
  return StabilityGuard(w, {.max_energy_gain = std::numeric_limits<double>::infinity(),
                            .max_overlap_ratio = p.real("max_overlap_ratio")}, name_);
}

double window_angle_deg(const Parameters& p, const DrumProbe& probe, const World& w) {
  const DrumFrame frame = drum_frame(probe, w.particles.position, w.particles.mass);
  return surface_angle(probe, frame, w.particles.position, w.particles.radius,
                       p.real("surface_bin_width") * p.real("diameter"), p.real("surface_half_width") * probe.radius) *
         180 / pi;
}

struct Prepared {
  World world;
  TimeSeries series;  ///< theta_drum during the spin-up (P5-C47)
};

/// Fill, settle at rest, spin up without reduction.
Prepared prepare(const Parameters& p, RunContext& ctx) {
  Prepared out{build_world(p), {{"time", "theta_deg"}, {}}};
  World& w = out.world;
  NdemStepper stepper(solver_settings(p, int(p.integer("prep_iterations"))));
  const StabilityGuard guard = make_guard(w, p);
  const DrumProbe probe = make_probe(p);
  const double dt = p.real("dt");
  const int settle = steps_of(p.real("settle_time"), dt), spin = steps_of(p.real("spinup_time"), dt);
  const int every = int(p.integer("sample_every"));
  set_drum_rotation(w, 0.0);
  for (int k = 0; k < settle + spin; ++k) {
    if (k == settle) set_drum_rotation(w, p.real("omega"));
    stepper.step(w);
    guard.check(w);
    if (k >= settle && (k - settle) % every == 0) out.series.rows.push_back({w.time, window_angle_deg(p, probe, w)});
    if (ctx.progress && k % 50 == 0) ctx.progress(0.4 * k / std::max(1, settle + spin));
  }
  set_drum_rotation(w, p.real("omega"));  // the branches turn even without a spin-up (spinup_time = 0)
  return out;
}

/// The cs sensor on the prepared bed's surface (see the file comment).
ReductionSensor surface_sensor(const Parameters& p, const World& prepared) {
  const DrumProbe probe = make_probe(p);
  const double d = p.real("diameter");
  const LabSurface surface = lab_surface(probe, prepared.particles.position, prepared.particles.radius,
                                         p.real("profile_bin_width") * d);
  const SurfaceLine line = fit_lab_surface(surface, p.real("wall_margin_d") * d);
  if (!line.valid) throw InputError(fmt::format("{}: no free surface to place the sensor on", name_));
  const double a = std::copysign(p.real("sensor_offset") * probe.radius, line.slope);  // on the lifted side
  const Vec3 h = lab_horizontal(probe), up = -probe.down;
  const Vec3 along = (h + line.slope * up).normalized();
  const Vec3 normal = along.cross(probe.axis).normalized();
  ReductionSensor s;
  s.center = probe.centre + a * h + (line.z0 + line.slope * a) * up;
  s.axes.row(0) = along.transpose();
  s.axes.row(1) = probe.axis.transpose();
  s.axes.row(2) = normal.transpose();
  s.half_extent = Vec3(0.5 * p.real("sensor_length_d") * d, 0.5 * drum_width(p) + d, 0.5 * p.real("sensor_thickness_d") * d);
  return s;
}

/// Least-squares slope of y over x.
double trend(const std::vector<double>& x, const std::vector<double>& y) {
  const double mx = mean_of(x), my = mean_of(y);
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
  }
  return sxx > 0 ? sxy / sxx : nan;
}

struct BranchResult {
  std::map<std::string, double> metrics;
  TimeSeries flow;
};

BranchResult run_branch(const Prepared& prepared, const Parameters& p, RunContext& ctx) {
  World w = prepared.world;
  NdemSettings settings = solver_settings(p, int(p.integer("iterations")));
  settings.reduction = reduction_settings(p);
  settings.reduction.start_time = std::max(settings.reduction.start_time, w.time);
  if (reduction_uses_sensors(p)) settings.reduction.sensors.push_back(surface_sensor(p, prepared.world));
  NdemStepper stepper(settings);
  const StabilityGuard guard = make_guard(w, p);
  const DrumProbe probe = make_probe(p);
  const double dt = p.real("dt"), d = p.real("diameter");
  const int relax = steps_of(p.real("relax_time"), dt), measure = steps_of(p.real("measure_time"), dt);
  const int every = int(p.integer("sample_every"));
  if (measure < 2 * every)
    throw InputError(fmt::format("{}: measure_time must cover at least two samples (sample_every = {} steps)", name_, every));
  const double bin = p.real("profile_bin_width") * d, margin = p.real("wall_margin_d") * d;
  const int base = int(p.integer("slope_base"));

  BranchResult b;
  b.flow = {{"time", "theta_deg", "h", "h_free_only", "max_slope_deg", "lift_height_d", "plug_creep"}, {}};
  std::vector<double> time, theta, theta_com, h, h_free, h_dof, slope, lift, rms, plug, creep;
  std::vector<double> contacts, solver_contacts, merged, split_c, split_s, split_sensor, split_t;
  double stepping = 0;
  for (int k = 0; k < relax + measure; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    stepper.step(w);
    stepping += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    guard.check(w);
    if (ctx.progress && k % 50 == 0) ctx.progress(0.4 + 0.5 * k / double(relax + measure));
    if (k < relax) continue;
    const ReductionStats& r = stepper.stats().reduction;
    h.push_back(r.level);
    h_free.push_back(r.level_free_only);
    h_dof.push_back(r.level_dof);
    contacts.push_back(double(stepper.stats().contacts));
    solver_contacts.push_back(double(r.solver_contacts));
    merged.push_back(double(r.merged));
    split_c.push_back(double(r.split_contact));
    split_s.push_back(double(r.split_separation));
    split_sensor.push_back(double(r.split_sensor));
    split_t.push_back(double(r.split_trial));
    if ((k - relax) % every != 0) continue;
    const auto& x = w.particles.position;
    time.push_back(w.time);
    theta.push_back(window_angle_deg(p, probe, w));
    theta_com.push_back(drum_frame(probe, x, w.particles.mass).tilt * 180 / pi);
    const LabSurface surface = lab_surface(probe, x, w.particles.radius, bin);
    slope.push_back(max_surface_slope_deg(surface, base, margin));
    lift.push_back(lift_height(surface) / d);
    rms.push_back(fit_lab_surface(surface, margin).rms / d);
    const PlugCreep c = plug_creep(probe, x, w.particles.velocity, p.real("plug_threshold"));
    plug.push_back(c.fraction);
    creep.push_back(c.creep);
    b.flow.rows.push_back({w.time, theta.back(), r.level, r.level_free_only, slope.back(), lift.back(), creep.back()});
  }
  auto& m = b.metrics;
  m["theta_deg"] = mean_of(theta);
  m["theta_sd_deg"] = sd_of(theta);
  m["theta_com_deg"] = mean_of(theta_com);
  m["theta_drift_deg_per_rev"] = trend(time, theta) * revolution(p);
  m["h_mean"] = mean_of(h);
  m["h_sd"] = sd_of(h);
  m["h_min"] = *std::min_element(h.begin(), h.end());
  m["h_max"] = *std::max_element(h.begin(), h.end());
  m["h_free_only_mean"] = mean_of(h_free);
  m["h_dof_mean"] = mean_of(h_dof);
  m["max_slope_deg"] = mean_of(slope);
  m["lift_height_d"] = mean_of(lift);
  m["surface_rms_d"] = mean_of(rms);
  m["plug_fraction"] = mean_of(plug);
  m["plug_creep"] = mean_of(creep);
  m["contacts"] = mean_of(contacts);
  m["solver_contacts"] = mean_of(solver_contacts);
  m["merged_per_step"] = mean_of(merged);
  m["split_contact_per_step"] = mean_of(split_c);
  m["split_separation_per_step"] = mean_of(split_s);
  m["split_sensor_per_step"] = mean_of(split_sensor);
  m["split_trial_per_step"] = mean_of(split_t);
  m["seconds_per_step"] = stepping / double(relax + measure);
  return b;
}

std::string preparation_key(const Parameters& p) {
  std::string key = name_;
  for (const auto& [name, value] : p.values)
    if (preparation_parameters.contains(name)) key += fmt::format("|{}={}", name, to_string(value));
  return key;
}

/// Every parameter the branch's stepping depends on: a run without reduction ignores the reduction and sensor
/// parameters, so the same-N_it reference of every run of a sweep is one branch.
std::string branch_key(const Parameters& p) {
  static const std::set<std::string> analysis_only = {"protocol", "label", "artefact_angle_deg", "artefact_lift_d"};
  static const std::set<std::string> reduction_only = [] {
    std::set<std::string> names = {"sensor_offset", "sensor_thickness_d", "sensor_length_d"};
    for (const auto& s : reduction_parameters())
      if (s.name != "reduction") names.insert(s.name);
    return names;
  }();
  const bool reduced = p.text("reduction") != "none", sensors = reduction_uses_sensors(p);
  std::string key = std::string(name_) + "|branch";
  for (const auto& [name, value] : p.values) {
    if (analysis_only.contains(name) || (!reduced && reduction_only.contains(name))) continue;
    if (!sensors && name.starts_with("sensor_")) continue;
    key += fmt::format("|{}={}", name, to_string(value));
  }
  return key;
}

const std::vector<std::string> run_metrics = {
    "theta_deg", "theta_sd_deg", "theta_com_deg", "theta_drift_deg_per_rev", "h_mean", "h_sd", "h_min", "h_max",
    "h_free_only_mean", "h_dof_mean", "max_slope_deg", "lift_height_d", "surface_rms_d", "plug_fraction",
    "plug_creep", "contacts", "solver_contacts", "merged_per_step", "split_contact_per_step",
    "split_separation_per_step", "split_sensor_per_step", "split_trial_per_step", "seconds_per_step",
    "theta_ref_deg", "theta_minus_ref_deg", "lift_minus_ref_d", "slope_minus_ref_deg", "h_without_artefact",
    "h_no_separation_split", "h_over_no_separation_split", "speedup_vs_ref"};

RunResult run_reduction_drum(const Parameters& p, RunContext& ctx) {
  RunResult out;
  out.metrics["froude"] = froude_number(p);
  out.metrics["drum_diameter"] = 2 * drum_radius(p);
  out.metrics["drum_width"] = drum_width(p);
  out.metrics["particles"] = double(p.integer("count"));
  out.metrics["revolution_s"] = revolution(p);
  if (p.text("protocol") == "kinematics") {
    for (const auto& m : run_metrics) out.metrics[m] = nan;
    return out;
  }
  const auto prepared = memoized<Prepared>(preparation_key(p), [&] { return prepare(p, ctx); });
  auto branch = [&](const Parameters& q) {
    return memoized<BranchResult>(branch_key(q), [&] { return run_branch(*prepared, q, ctx); });
  };
  const auto own = branch(p);
  Parameters ref = p;  // the same-N_it reference (ledger P17): everything else equal, no reduction
  ref.values["reduction"] = std::string("none");
  const auto reference = branch(ref);
  for (const auto& [k, v] : own->metrics) out.metrics[k] = v;
  auto& m = out.metrics;
  const auto& r = reference->metrics;
  m["theta_ref_deg"] = r.at("theta_deg");
  m["theta_minus_ref_deg"] = m["theta_deg"] - r.at("theta_deg");
  m["lift_minus_ref_d"] = m["lift_height_d"] - r.at("lift_height_d");
  m["slope_minus_ref_deg"] = m["max_slope_deg"] - r.at("max_slope_deg");
  m["speedup_vs_ref"] = r.at("seconds_per_step") / m["seconds_per_step"];
  // Reduction "without large approximation errors" (P5-C44/C45): h counts only where the angle and the lift
  // stay within the artefact tolerances of the same-N_it reference.
  const bool clean = std::abs(m["theta_minus_ref_deg"]) <= p.real("artefact_angle_deg") &&
                     m["lift_minus_ref_d"] <= p.real("artefact_lift_d");
  m["h_without_artefact"] = clean ? m["h_mean"] : 0.0;
  m["h_no_separation_split"] = nan;
  m["h_over_no_separation_split"] = nan;
  if (p.text("reduction") != "none" && std::isfinite(p.real("contact_separating_normal"))) {
    Parameters q = p;
    q.values["contact_separating_normal"] = std::numeric_limits<double>::infinity();
    const double h0 = branch(q)->metrics.at("h_mean");
    m["h_no_separation_split"] = h0;
    m["h_over_no_separation_split"] = h0 > 0 ? m["h_mean"] / h0 : nan;
  }
  out.series["flow"] = own->flow;
  out.series["preparation"] = prepared->series;
  return out;
}

std::vector<ParameterSpec> parameters() {
  std::vector<ParameterSpec> specs = {
      {"protocol", ParamType::text, "", std::string("simulate"), {}, {},
       "simulate | kinematics (setup numbers only: Froude number, drum size; no run)", {"simulate", "kinematics"}},
      {"label", ParamType::text, "", std::string("run"), {}, {},
       "run label for the study's filters and plots (ref-500, cs-150, ...); no effect on the run"},
      {"count", ParamType::integer, "-", std::int64_t(4864), 1.0, 200000.0, "number of spheres N_p (000 l.2126)"},
      {"diameter", ParamType::real, "m", 0.013, 1e-4, 1.0, "large sphere diameter d = the unit of D and w (Table 1)"},
      {"diameter_small", ParamType::real, "m", 0.010, 1e-4, 1.0, "small sphere diameter (Table 1)"},
      {"small_fraction", ParamType::real, "-", 0.5, 0.0, 1.0, "number fraction of small spheres (ledger: 50/50)"},
      {"density", ParamType::real, "kg/m^3", 3700.0, 1.0, 1e5, "particle density (Table 1)"},
      {"restitution", ParamType::real, "-", 0.18, 0.0, 1.0, "restitution e (Table 1)"},
      {"friction", ParamType::real, "-", 0.91, 0.0, 100.0, "friction mu_t, particles and shell (Table 1)"},
      {"rolling_friction", ParamType::real, "-", 0.32, 0.0, 100.0, "rolling resistance mu_r, particles and shell"},
      {"cap_friction", ParamType::real, "-", 0.0, 0.0, 100.0, "friction against the side caps (frictionless, 000 l.2126)"},
      {"cap_rolling_friction", ParamType::real, "-", 0.0, 0.0, 100.0, "rolling resistance against the side caps"},
      {"linear_stiffness", ParamType::real, "N/m", 3000.0, 1e-3, 1e12, "k_n of the linear law, e_H = 1 (Table 1)"},
      {"gravity", ParamType::real, "m/s^2", 9.81, 0.0, 1e3, "gravity magnitude (000 l.2093)"},
      {"dt", ParamType::real, "s", 0.005, 1e-6, 0.1, "time step (Table 1)"},
      {"n_s", ParamType::integer, "-", std::int64_t(2), 1.0, 1000.0, "tau_n = n_s dt (000 l.2263)"},
      {"impact_velocity", ParamType::real, "m/s", 0.026, -1.0, 1e3, "v_imp = eps d / dt, eps = 0.01 (ledger P15)"},
      {"friction_shape", ParamType::text, "", std::string("box"), {}, {}, "box (engine default) | cone", {"box", "cone"}},
      {"max_overlap_ratio", ParamType::real, "-", 2.0, 0.1, 100.0, "stop as unstable beyond this overlap / radius"},
      {"drum_diameter_d", ParamType::real, "-", 40.0, 2.0, 1e4, "drum diameter D in d (000 l.2126)"},
      {"drum_width_d", ParamType::real, "-", 7.0, 1.0, 1e4, "drum width w in d (000 l.2126)"},
      {"omega", ParamType::real, "rad/s", 0.5, -100.0, 100.0, "drum angular velocity about +y (000 l.2126)"},
      {"fill_spacing", ParamType::real, "-", 1.05, 1.0, 10.0, "lattice spacing in d (ledger E3)"},
      {"prep_iterations", ParamType::integer, "-", std::int64_t(150), 1.0, 1e5, "N_it of the preparation"},
      {"settle_time", ParamType::real, "s", 2.0, 0.0, 1e4, "settling with the drum at rest"},
      {"settle_gravity_ramp", ParamType::real, "s", 1.0, 0.0, 1e4, "gravity ramps from 0 over this time (0: none)"},
      {"spinup_time", ParamType::real, "s", 12.566, 0.0, 1e5, "rotation without reduction before the branches"},
      {"iterations", ParamType::integer, "-", std::int64_t(150), 1.0, 1e5, "PGS iterations N_it of the run"},
      {"relax_time", ParamType::real, "s", 2.0, 0.0, 1e5, "branch time before the measurement"},
      {"measure_time", ParamType::real, "s", 25.13, 0.0, 1e5, "measurement window"},
      {"sample_every", ParamType::integer, "-", std::int64_t(20), 1.0, 1e6, "steps between samples (10 Hz)"},
      {"surface_bin_width", ParamType::real, "-", 1.0, 0.1, 100.0, "theta_drum fit: bin width in d"},
      {"surface_half_width", ParamType::real, "-", 0.5, 0.01, 1.0, "theta_drum fit over |a| <= this x R (D/2 window)"},
      {"profile_bin_width", ParamType::real, "-", 2.0, 0.1, 100.0, "lab-frame surface profile: bin width in d"},
      {"slope_base", ParamType::integer, "-", std::int64_t(2), 1.0, 1000.0, "local slope over this many profile bins"},
      {"wall_margin_d", ParamType::real, "-", 2.0, 0.0, 100.0, "profile bins this close to the shell are not surface"},
      {"plug_threshold", ParamType::real, "-", 0.15, 0.0, 10.0, "plug zone: v_r <= this"},
      {"sensor_offset", ParamType::real, "-", 0.5, 0.0, 1.0, "cs sensor centre: horizontal distance from the axis / R"},
      {"sensor_thickness_d", ParamType::real, "-", 4.0, 0.1, 100.0, "cs sensor thickness normal to the surface, d"},
      {"sensor_length_d", ParamType::real, "-", 8.0, 0.1, 1000.0, "cs sensor length along the surface, d"},
      {"artefact_angle_deg", ParamType::real, "deg", 2.0, 0.0, 90.0,
       "h_without_artefact: |theta - theta_ref| at most this"},
      {"artefact_lift_d", ParamType::real, "-", 1.0, 0.0, 100.0, "h_without_artefact: lift excess at most this (d)"},
  };
  for (auto& s : reduction_parameters()) specs.push_back(std::move(s));
  return specs;
}

const ExperimentRegistration reg{Experiment{
    .name = name_,
    .description = "Paper V E3: slowly rotating drum (D = 40 d, w = 7 d, Omega = 0.5 rad/s, 4864 spheres), NDEM "
                   "with adaptive model reduction; theta_drum in the D/2 window, h(t), plug creep, cs artefacts "
                   "(000 l.2126, 2164, 2186)",
    .parameters = parameters(),
    .run = run_reduction_drum}};

}  // namespace
}  // namespace grainlab
