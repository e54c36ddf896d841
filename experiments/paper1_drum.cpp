// Experiment paper1_drum: Paper I E3, the rotating sawtooth drum (000 l.600-602, 618-622, 650-660;
// ledger ../shared/claims/paper1.md E3, pitfalls P9, P10, P21), stepped with the semi-smooth NDEM engine.
//
// Scene: drum axis along +y through the origin, gravity -z, the drum turning at omega about +y (the
// teeth's attack faces lead). Shell with 64 sawteeth (core/geometry/drum.hpp) and flat end caps, same
// material as the particles. Diameter reading (`diameter_reading`): "tips" puts the tooth tips on the
// circle of diameter Phi (the shell radius is solved for it; 64 chords of 4 d then fit, 256 d on a
// 258 d circumference); "base" puts the shell (tooth bases) on Phi, where 64 x 4 d (256 d) cannot fit on
// 251 d, so the teeth are shortened to the pitch chord (3.93 d, no shell left between them).
//
// Protocol (000 l.602, ledger P9): spheres on a loose jittered cubic grid in the lower half, then
// `prep_time` at `prep_iterations` with the drum turning, then a continuation at N_it = `iterations` of
// `continuation_revolutions` revolutions (none at omega = 0) plus `continuation_time`; measurements over
// the last `measure_steps` steps, in windows of `window_steps` (the paper's "10 consecutive steps" is
// the last window; P9: several windows). The profile and bed quantities: experiments/drum_bed.hpp.
// protocol = "kinematics" computes only the derived numbers (Froude number, durations) without a run.
// Metrics are listed in docs of studies/paper1_e3_drum.toml.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/sources/source_rng.hpp"
#include "core/stability_guard.hpp"
#include "experiments/drum_bed.hpp"
#include "experiments/drum_pulsation.hpp"
#include "experiments/iteration_ladder.hpp"
#include "experiments/experiment.hpp"
#include "experiments/material_parameters.hpp"
#include "experiments/pair_override_parameters.hpp"
#include "experiments/sample_statistics.hpp"

namespace grainlab {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

const std::vector<std::string> simulation_metrics = {
    "eps_c", "eps_c_last10", "eps_c_window_spread", "bed_height_d", "bed_depth_d", "inertial_number",
    "particles", "contacts", "contacts_per_particle", "impacting_fraction", "impact_stage_fraction",
    "contact_iterations", "iterations_used", "plug_thickness", "plug_thickness_sd", "surface_angle_deg",
    "surface_angle_sd_deg", "surface_angle_period", "kinetic_energy", "kinetic_energy_rel_sd",
    "shell_radius", "tip_radius", "tooth_length_used", "n_it_required", "n_it_required_capped", "profile_deviation_ref"};

struct DrumGeometry {
  DrumShape shape;
  double tooth_length = 0;
};

// The drum for a diameter reading; see the file comment.
DrumGeometry build_drum(const Parameters& p) {
  const double phi = p.real("drum_diameter");
  SawtoothParams teeth;
  teeth.count = int(p.integer("teeth"));
  teeth.height = p.real("tooth_height");
  teeth.length = p.real("tooth_length");
  teeth.attack_angle_deg = p.real("attack_angle_deg");
  CylinderShape body;
  body.axis = Vec3::UnitY();
  body.length = p.real("drum_length");
  body.cap_lo = body.cap_hi = true;
  body.side = CylinderShape::Side::inside;
  const std::string& reading = p.text("diameter_reading");
  if (reading == "base") {
    body.radius = phi / 2;
    teeth.length = std::min(teeth.length, 2 * body.radius * std::sin(pi / teeth.count) * (1 - 1e-9));
    return {make_sawtooth_drum(body, Vec3::UnitX(), teeth, "drum"), teeth.length};
  }
  // tips: the innermost point of the tooth outline on Phi / 2 (fixed point on the shell radius; the tip
  // radius moves almost one-to-one with it, so a few rounds converge to rounding).
  body.radius = phi / 2 + teeth.height;
  DrumShape shape;
  for (int round = 0; round < 60; ++round) {
    shape = make_sawtooth_drum(body, Vec3::UnitX(), teeth, "drum");
    const double tip = std::get<SawtoothTexture>(shape.texture).min_radius;
    if (std::abs(tip - phi / 2) <= 1e-13 * phi) break;
    body.radius += phi / 2 - tip;
  }
  return {shape, teeth.length};
}

// Jittered cubic grid inside `inner` (the tips circle minus a margin), lowest sites first.
void fill_lower_half(World& w, const Parameters& p, double inner, std::uint16_t material) {
  const int count = int(p.integer("count"));
  const double d = p.real("diameter");
  const double a = p.real("fill_spacing") * d;
  const double jitter = p.real("fill_jitter") * d;
  if (a < d + 2 * jitter)
    throw InputError(fmt::format("paper1_drum: fill_spacing = {} d must be at least 1 + 2 fill_jitter = {} d (no "
                                 "overlaps on the grid)", p.real("fill_spacing"), 1 + 2 * p.real("fill_jitter")));
  const double length = p.real("drum_length");
  const int ny = int(std::floor((length - d - 2 * jitter) / a)) + 1;
  if (ny < 1) throw InputError("paper1_drum: drum_length is shorter than one particle");
  const double reach = inner - d / 2 - jitter;
  const int nx = int(std::floor(reach / a));
  std::vector<Vec3> sites;
  for (int iz = 0; iz <= nx; ++iz)
    for (int ix = -nx; ix <= nx; ++ix)
      for (int iy = 0; iy < ny; ++iy) {
        const double x = ix * a, z = -iz * a;
        if (x * x + z * z > reach * reach) continue;
        sites.emplace_back(x, (iy - 0.5 * (ny - 1)) * a, z);
      }
  if (int(sites.size()) < count)
    throw InputError(fmt::format("paper1_drum: count = {} does not fit the loose grid in the lower half ({} sites at "
                                 "fill_spacing = {} d)", count, sites.size(), p.real("fill_spacing")));
  std::stable_sort(sites.begin(), sites.end(), [](const Vec3& l, const Vec3& r) { return l.z() < r.z(); });
  sources::SourceRng rng(std::uint64_t(p.integer("seed")));
  for (int i = 0; i < count; ++i) {
    const Vec3 offset(rng.uniform(-jitter, jitter), rng.uniform(-jitter, jitter), rng.uniform(-jitter, jitter));
    w.add_sphere(sites[i] + offset, d / 2, material);
  }
}

double continuation_duration(const Parameters& p) {
  const double omega = std::abs(p.real("omega"));
  const double turns = omega > 0 ? p.real("continuation_revolutions") * 2 * pi / omega : 0.0;
  return turns + p.real("continuation_time");
}

// Keys of the active contacts (overlap > 0), sorted: "impacting" contacts are those new since the
// previous step (ledger C20/C21; 000 l.462: new contacts go to the impact stage).
void active_keys(const World& w, std::vector<std::uint64_t>& keys) {
  keys.clear();
  for (const Contact& c : w.contacts())
    if (c.overlap > 0) keys.push_back(c.key);
  std::sort(keys.begin(), keys.end());
}

std::size_t count_new(const std::vector<std::uint64_t>& now, const std::vector<std::uint64_t>& before) {
  std::size_t fresh = 0;
  auto it = before.begin();
  for (std::uint64_t k : now) {
    it = std::lower_bound(it, before.end(), k);
    if (it == before.end() || *it != k) ++fresh;
  }
  return fresh;
}

// What the continuation at one N_it measured (metrics and series of a run).
struct Continuation {
  std::map<std::string, double> metrics;
  TimeSeries flow, profile;
  double contact_iterations = 0;
  DrumBed bed;                 ///< profile over all measurement steps
  std::vector<double> samples; ///< particle samples per profile bin
};

/// One continuation: N_it, time step, duration and measurement (steps of that time step).
struct ContinuationPlan {
  int iterations = 0;
  double dt = 0;
  double duration = 0;
  int measure = 0, window = 0;
};

ContinuationPlan plan_from(const Parameters& p, int iterations) {
  return {iterations, p.real("dt"), continuation_duration(p), int(p.integer("measure_steps")),
          int(p.integer("window_steps"))};
}

// The small-step reference (C15): same continuation at reference_dt and reference_iterations (for
// reference_time when > 0), measured over the same time span (at most its second half) in windows of
// the same length.
ContinuationPlan reference_plan(const Parameters& p) {
  ContinuationPlan r;
  r.iterations = int(p.integer("reference_iterations"));
  r.dt = p.real("reference_dt");
  r.duration = p.real("reference_time") > 0 ? p.real("reference_time") : continuation_duration(p);
  const double span = std::min(double(p.integer("measure_steps")) * p.real("dt"), 0.5 * r.duration);
  r.window = std::max(1, int(std::llround(double(p.integer("window_steps")) * p.real("dt") / r.dt)));
  r.measure = std::max(1, int(std::llround(span / r.dt / r.window))) * r.window;
  return r;
}

// Runs the continuation `plan` on `w` (already prepared) and measures over its last steps.
Continuation continue_and_measure(World& w, const Parameters& p, const NdemSettings& base, const ContinuationPlan& plan,
                                  const StabilityGuard& guard) {
  const double d = p.real("diameter");
  const double omega = p.real("omega");
  const double phi = p.real("drum_diameter");
  const double dt = plan.dt;
  NdemSettings s = base;
  s.iterations = plan.iterations;
  s.time_step = dt;
  NdemStepper flow(s);
  const int steps = int(std::llround(plan.duration / dt));
  const int measure = plan.measure;
  const int window = plan.window;
  if (measure > steps)
    throw InputError(fmt::format("paper1_drum: measure_steps = {} exceeds the continuation ({} steps)", measure, steps));
  if (measure % window != 0)
    throw InputError(fmt::format("paper1_drum: measure_steps = {} is not a multiple of window_steps = {}", measure, window));
  const int pulsation = std::min(steps, int(std::llround(p.real("pulsation_time") / dt)));

  DrumProbe probe;
  probe.omega = omega;
  probe.length = p.real("drum_length");
  probe.radius = std::get<DrumShape>(w.walls[0].shape).body.radius;
  probe.strip_half_width = p.real("strip_half_width") * d;
  probe.bin_width = p.real("bin_width") * d;
  const double density = w.materials[0].density;
  DrumProfile all = make_profile(probe), part = make_profile(probe);

  Continuation c;
  c.flow = {{"time", "surface_angle_deg", "kinetic_energy", "eps_c", "contacts", "impacting_fraction"}, {}};
  c.profile = {{"window", "time", "z_over_R", "v_x", "v_rigid", "solid_fraction", "samples"}, {}};
  std::vector<double> eps_windows, plug_windows, eps_steps, angle_tail, ke_tail, ke_measure;
  double contacts_sum = 0, new_sum = 0, stage_sum = 0, iterations_sum = 0;
  std::vector<std::uint64_t> keys, previous;
  const World& cw = w;
  active_keys(cw, previous);
  auto add_profile_rows = [&](double index, const DrumBed& bed, const DrumProfile& prof) {
    for (std::size_t b = 0; b < bed.s.size(); ++b)
      if (prof.count[b] > 0)
        c.profile.rows.push_back({index, w.time, bed.s[b] / (phi / 2), bed.velocity[b], std::abs(omega) * bed.s[b],
                                  bed.solid_fraction[b], prof.count[b]});
  };
  for (int k = 0; k < steps; ++k) {
    flow.step(w);
    guard.check(w);
    const NdemStepStats& st = flow.stats();
    c.contact_iterations += double(st.iterations_used) * double(st.contacts);

    const auto t0 = std::chrono::steady_clock::now();
    active_keys(cw, keys);
    const double fresh = double(count_new(keys, previous));
    std::swap(keys, previous);
    const DrumFrame frame = drum_frame(probe, w.particles.position);
    const double ke = w.particles.kinetic_energy();
    c.flow.rows.push_back({w.time, frame.tilt * 180 / pi, ke, st.mean_overlap_over_d, double(st.contacts),
                           st.contacts ? fresh / double(st.contacts) : 0.0});
    const int from_end = steps - k;  // 1 at the last step
    if (from_end <= pulsation) {
      angle_tail.push_back(frame.tilt * 180 / pi);
      ke_tail.push_back(ke);
    }
    if (from_end <= measure) {
      contacts_sum += double(st.contacts);
      new_sum += fresh;
      stage_sum += double(st.impacting);
      iterations_sum += st.iterations_used;
      eps_steps.push_back(st.mean_overlap_over_d);
      ke_measure.push_back(ke);
      accumulate_profile(probe, frame, w.particles.position, w.particles.velocity, w.particles.radius, cw.contacts(), all);
      accumulate_profile(probe, frame, w.particles.position, w.particles.velocity, w.particles.radius, cw.contacts(), part);
      if ((from_end - 1) % window == 0) {  // a window ends
        eps_windows.push_back(std::accumulate(eps_steps.end() - window, eps_steps.end(), 0.0) / window);
        const DrumBed bed = finish_profile(probe, part, d, density);
        plug_windows.push_back(bed.plug / (phi / 2));
        add_profile_rows(double(eps_windows.size() - 1), bed, part);
        part = make_profile(probe);
      }
    }
    w.timers.observers += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  const DrumBed bed = finish_profile(probe, all, d, density);
  add_profile_rows(-1.0, bed, all);
  const PulsationStats pulse = pulsation_stats(angle_tail, dt);
  const auto [eps_lo, eps_hi] = std::minmax_element(eps_windows.begin(), eps_windows.end());
  const double n = double(w.particles.size());
  auto& m = c.metrics;
  m["eps_c"] = mean_of(eps_steps);
  m["eps_c_last10"] = mean_of(std::vector<double>(eps_steps.end() - std::min<int>(10, measure), eps_steps.end()));
  m["eps_c_window_spread"] = *eps_hi - *eps_lo;
  m["bed_height_d"] = bed.thickness / d;
  m["bed_depth_d"] = bed.depth / d;
  m["inertial_number"] = bed.inertial_number;
  m["particles"] = n;
  m["contacts"] = contacts_sum / measure;
  m["contacts_per_particle"] = contacts_sum / measure / n;
  m["impacting_fraction"] = contacts_sum > 0 ? new_sum / contacts_sum : nan;
  m["impact_stage_fraction"] = contacts_sum > 0 ? stage_sum / contacts_sum : nan;
  m["iterations_used"] = iterations_sum / measure;
  m["plug_thickness"] = bed.plug / (phi / 2);
  m["plug_thickness_sd"] = sd_of(plug_windows);
  m["surface_angle_deg"] = bed.tilt * 180 / pi;
  m["surface_angle_sd_deg"] = pulse.sd;
  m["surface_angle_period"] = pulse.period;
  m["kinetic_energy"] = mean_of(ke_measure);
  m["kinetic_energy_rel_sd"] = sd_of(ke_tail) / mean_of(ke_tail);
  c.bed = bed;
  c.samples = all.count;
  return c;
}

/// Largest |v_x'(a) - v_x'(b)| over the profile bins inside a's bed (from its free surface out) where both
/// have at least `min_samples` particle samples per step, in units of `speed`; NaN if no bin qualifies.
double profile_deviation(const Continuation& a, const Continuation& b, double steps_a, double steps_b, double speed) {
  double worst = nan;
  const std::size_t n = std::min(a.samples.size(), b.samples.size());
  for (std::size_t k = 0; k < n; ++k) {
    if (a.bed.s[k] < a.bed.surface || a.samples[k] < steps_a || b.samples[k] < steps_b) continue;
    const double dev = std::abs(a.bed.velocity[k] - b.bed.velocity[k]) / speed;
    worst = std::isnan(worst) ? dev : std::max(worst, dev);
  }
  return worst;
}

RunResult run_drum(const Parameters& p, RunContext& ctx) {
  const double d = p.real("diameter");
  const double omega = p.real("omega");
  const double phi = p.real("drum_diameter");
  const double dt = p.real("dt");
  const std::vector<int> ladder = parse_iteration_ladder("paper1_drum", p.text("iteration_ladder"));
  RunResult out;
  out.metrics["froude"] = std::abs(omega) * std::sqrt(phi / (2 * p.real("gravity")));
  out.metrics["width_d"] = phi / d;
  out.metrics["continuation_duration"] = continuation_duration(p);
  out.metrics["period"] = omega != 0 ? 2 * pi / std::abs(omega) : nan;
  if (p.text("protocol") == "kinematics") {
    for (const auto& m : simulation_metrics) out.metrics[m] = nan;
    out.metrics["particles"] = double(p.integer("count"));
    return out;
  }

  const Material m = material_from_parameters(p, "paper1");
  Material wall_material = m;
  wall_material.name = "drum";
  wall_material.friction = p.real("wall_friction");
  World w;
  w.gravity.g = Vec3(0, 0, -p.real("gravity"));
  const std::uint16_t grain = w.add_material(m);
  const std::uint16_t steel = w.add_material(wall_material);
  apply_pair_overrides(w, p);  // [[pair_override]] between "paper1" (the spheres) and "drum"
  const DrumGeometry drum = build_drum(p);
  const double tip_radius = std::get<SawtoothTexture>(drum.shape.texture).min_radius;
  Wall wall;
  wall.name = "drum";
  wall.shape = drum.shape;
  wall.material = steel;
  wall.angular_velocity = omega * Vec3::UnitY();
  w.add_wall(wall);
  fill_lower_half(w, p, tip_radius - 0.1 * d, grain);

  NdemSettings s;
  s.time_step = dt;
  s.n_s = int(p.integer("n_s"));
  s.friction_shape = parse_friction_shape(p.text("friction_shape"));
  s.impact_velocity = p.real("impact_velocity");
  s.warm_start = parse_warm_start(p.text("warm_start"));
  // Serial Gauss-Seidel in creation order unless asked: the graph-coloured sweep orders the rows
  // differently, so the numbers would depend on --jobs (the run's key does not).
  s.parallel = p.boolean("parallel_pgs");
  s.max_overlap_ratio = p.real("max_overlap_ratio");
  s.iterations = int(p.integer("prep_iterations"));
  NdemStepper prep(s);
  // The turning drum feeds energy in: the energy part of the guard is off, the overlap and finiteness
  // parts stay (an exploding run stops with a diagnosis).
  const StabilityGuard guard(w, {.max_energy_gain = std::numeric_limits<double>::infinity(),
                                 .max_overlap_ratio = s.max_overlap_ratio}, "paper1_drum");
  const int prep_steps = int(std::llround(p.real("prep_time") / dt));
  double contact_iterations = 0;
  for (int k = 0; k < prep_steps; ++k) {
    prep.step(w);
    guard.check(w);
    contact_iterations += double(prep.stats().iterations_used) * double(prep.stats().contacts);
    if (ctx.progress && k % 20 == 0) ctx.progress(0.2 * k / std::max(1, prep_steps));
  }

  // N_it ladder: each rung continues from a copy of the prepared state (000 l.602: "for each
  // combination of omega, N_p and N_it" after the same 2 s at N_it = 500).
  StageTimers timers = w.timers;
  auto add_timers = [&](const StageTimers& before, const StageTimers& after) {
    timers.collision += after.collision - before.collision;
    timers.solve += after.solve - before.solve;
    timers.observers += after.observers - before.observers;
  };
  TimeSeries ladder_series{{"iterations", "eps_c", "eps_c_last10", "bed_depth_d", "plug_thickness", "contacts"}, {}};
  const double threshold = p.real("threshold");
  double required = nan;
  bool reached_above = true;  // every larger rung reaches the threshold
  std::vector<std::vector<double>> ladder_rows(ladder.size());
  for (std::size_t r = ladder.size(); r-- > 0;) {
    World rung = w;
    const Continuation c = continue_and_measure(rung, p, s, plan_from(p, ladder[r]), guard);
    add_timers(w.timers, rung.timers);
    contact_iterations += c.contact_iterations;
    const auto& cm = c.metrics;
    ladder_rows[r] = {double(ladder[r]), cm.at("eps_c"), cm.at("eps_c_last10"), cm.at("bed_depth_d"),
                      cm.at("plug_thickness"), cm.at("contacts")};
    reached_above = reached_above && cm.at("eps_c") <= threshold;
    if (reached_above) required = ladder[r];
    if (ctx.progress) ctx.progress(0.2 + 0.6 * double(ladder.size() - r) / double(ladder.size()));
  }
  ladder_series.rows = std::move(ladder_rows);

  std::optional<Continuation> reference;
  ContinuationPlan ref_plan;
  if (p.real("reference_dt") > 0) {
    World copy = w;
    ref_plan = reference_plan(p);
    reference = continue_and_measure(copy, p, s, ref_plan, guard);
    add_timers(w.timers, copy.timers);
    contact_iterations += reference->contact_iterations;
  }

  const StageTimers before = w.timers;
  const ContinuationPlan main_plan = plan_from(p, int(p.integer("iterations")));
  Continuation main = continue_and_measure(w, p, s, main_plan, guard);
  add_timers(before, w.timers);
  contact_iterations += main.contact_iterations;
  // C15: the profile against the small-step reference, bins with >= 1 sample per measured step.
  out.metrics["profile_deviation_ref"] =
      reference && omega != 0 ? profile_deviation(main, *reference, main_plan.measure, ref_plan.measure, std::abs(omega) * phi / 2)
                              : nan;
  if (reference) out.series["reference_profile"] = std::move(reference->profile);
  for (auto& [k, v] : main.metrics) out.metrics[k] = v;
  out.metrics["n_it_required"] = required;
  // For trends (Fig. 10 vs omega): "never within the ladder" as the lower bound largest rung + 1.
  out.metrics["n_it_required_capped"] = std::isnan(required) && !ladder.empty() ? ladder.back() + 1.0 : required;
  out.metrics["contact_iterations"] = contact_iterations;
  out.metrics["shell_radius"] = drum.shape.body.radius;
  out.metrics["tip_radius"] = tip_radius;
  out.metrics["tooth_length_used"] = drum.tooth_length;
  out.metrics["time_solve"] = timers.solve;
  out.metrics["time_collision"] = timers.collision;
  out.metrics["time_observers"] = timers.observers;
  out.series["flow"] = std::move(main.flow);
  out.series["velocity_profile"] = std::move(main.profile);
  if (!ladder.empty()) out.series["ladder"] = std::move(ladder_series);
  return out;
}

const ExperimentRegistration reg{Experiment{
    .name = "paper1_drum",
    .description = "Paper I E3: rotating sawtooth drum (Phi = 80 d, 64 teeth) with the semi-smooth NDEM engine: "
                   "<eps_c>, bed depth, plug flow, impacting contacts (000 l.600-660)",
    .parameters =
        {
            {"count", ParamType::integer, "-", std::int64_t(1000), 1.0, 20000.0, "number of spheres N_p"},
            {"omega", ParamType::real, "rad/s", 0.63, -10.0, 10.0, "drum angular velocity about +y"},
            {"iterations", ParamType::integer, "-", std::int64_t(150), 1.0, 1e5, "PGS iterations N_it (continuation)"},
            {"iteration_ladder", ParamType::text, "", std::string(""), {}, {},
             "comma-separated increasing N_it list: each continues from a copy of the prepared state and gives "
             "n_it_required (empty: none)"},
            {"threshold", ParamType::real, "-", 0.05, 1e-9, 10.0,
             "n_it_required: smallest ladder N_it from which every larger rung has eps_c <= threshold"},
            {"reference_dt", ParamType::real, "s", 0.0, 0.0, 0.1,
             "> 0: also continue the prepared state at this time step (the Fig. 9 small-step reference, C15) and "
             "report profile_deviation_ref = max |v_x' - v_x'ref| / (omega Phi/2) over the bed bins"},
            {"reference_iterations", ParamType::integer, "-", std::int64_t(500), 1.0, 1e5, "N_it of the reference"},
            {"reference_time", ParamType::real, "s", -1.0, -1.0, 1e4,
             "duration of the reference continuation (<= 0: the run's continuation)"},
            {"prep_iterations", ParamType::integer, "-", std::int64_t(500), 1.0, 1e5, "PGS iterations of the preparation"},
            {"dt", ParamType::real, "s", 0.01, 1e-6, 0.1, "time step h"},
            {"protocol", ParamType::text, "", std::string("simulate"), {}, {},
             "simulate | kinematics (derived numbers only: Froude number, durations; no run)", {"simulate", "kinematics"}},
            {"diameter", ParamType::real, "m", 0.01, 1e-4, 1.0, "sphere diameter d"},
            {"density", ParamType::real, "kg/m^3", 1909.859317, 1.0, 1e5, "density (m = 1e-3 kg at d = 0.01 m)"},
            {"youngs_modulus", ParamType::real, "Pa", 1.365e7, 1.0, 1e15,
             "E; with nu = 0.3, E/(1 - nu^2) = 1.5e7 gives k_n = E sqrt(d)/(3(1 - nu^2)) = 0.5e6 (000 l.596)"},
            {"poisson_ratio", ParamType::real, "-", 0.3, -0.99, 0.49, "Poisson ratio nu"},
            {"restitution", ParamType::real, "-", 0.0, 0.0, 1.0, "restitution e (particles and drum)"},
            {"friction", ParamType::real, "-", 0.7, 0.0, 100.0, "friction mu between particles"},
            {"wall_friction", ParamType::real, "-", 0.7, 0.0, 100.0, "friction mu against the drum and caps"},
            pair_overrides_parameter(),
            {"gravity", ParamType::real, "m/s^2", 9.8, 0.0, 1e3, "gravity magnitude (000 l.596)"},
            {"n_s", ParamType::integer, "-", std::int64_t(2), 1.0, 1000.0, "tau_n = n_s h (000 l.494)"},
            {"friction_shape", ParamType::text, "", std::string("cone"), {}, {},
             "cone (000 App. B, l.797-799) | box", {"cone", "box"}},
            {"impact_velocity", ParamType::real, "m/s", -1.0, -1.0, 1e3, "v_imp (< 0: rule 0.02 d / h)"},
            {"warm_start", ParamType::text, "", std::string("cold"), {}, {},
             "cold | history | history_normal_only | history_no_velocity_update | model",
             {"cold", "history", "history_normal_only", "history_no_velocity_update", "model"}},
            {"parallel_pgs", ParamType::boolean, "", false, {}, {},
             "graph-coloured parallel PGS (deterministic for any thread count, another row order than the "
             "default serial sweep in creation order)"},
            {"max_overlap_ratio", ParamType::real, "-", 4.0, 0.1, 100.0,
             "stop as unstable beyond this overlap / radius (engine default 2; a tooth tip moving 1 d per step at "
             "omega = 2.5 rad/s can bury a sphere up to the tooth height 1.2 d = 2.4 r within one step)"},
            {"drum_diameter", ParamType::real, "m", 0.8, 0.01, 100.0, "Phi (80 d)"},
            {"drum_length", ParamType::real, "m", 0.08, 1e-3, 100.0, "drum length (8 d)"},
            {"diameter_reading", ParamType::text, "", std::string("tips"), {}, {},
             "tips: tooth tips on Phi | base: shell on Phi, teeth shortened to the pitch chord", {"tips", "base"}},
            {"teeth", ParamType::integer, "-", std::int64_t(64), 1.0, 10000.0, "number of sawteeth"},
            {"tooth_height", ParamType::real, "m", 0.012, 1e-5, 10.0, "tooth height (1.2 d)"},
            {"tooth_length", ParamType::real, "m", 0.04, 1e-5, 10.0, "tooth base chord (4 d)"},
            {"attack_angle_deg", ParamType::real, "deg", 50.0, 1.0, 90.0, "attack angle"},
            {"fill_spacing", ParamType::real, "-", 1.1, 1.0, 10.0, "initial grid spacing in d"},
            {"fill_jitter", ParamType::real, "-", 0.02, 0.0, 1.0, "initial random offset per axis, in d"},
            {"seed", ParamType::integer, "-", std::int64_t(1), 0.0, 1e15, "seed of the initial offsets"},
            {"prep_time", ParamType::real, "s", 2.0, 0.0, 1e4, "preparation at prep_iterations (000 l.602)"},
            {"continuation_revolutions", ParamType::real, "-", 1.0 / 3.0, 0.0, 100.0,
             "revolutions of the continuation at N_it (000 l.602: 1/3)"},
            {"continuation_time", ParamType::real, "s", 3.5, 0.0, 1e4, "plus this time (000 l.602: 3.5 s)"},
            {"measure_steps", ParamType::integer, "-", std::int64_t(100), 1.0, 1e7,
             "measurement steps at the end (several windows, ledger P9)"},
            {"window_steps", ParamType::integer, "-", std::int64_t(10), 1.0, 1e7,
             "steps per measurement window (000 l.602: 10)"},
            {"pulsation_time", ParamType::real, "s", 3.0, 0.0, 1e4,
             "the surface-angle statistics use the last this many seconds"},
            {"strip_half_width", ParamType::real, "-", 5.0, 0.5, 100.0, "half width of the z' profile strip, in d"},
            {"bin_width", ParamType::real, "-", 1.0, 0.1, 100.0, "profile bin width along z', in d"},
        },
    .run = run_drum}};

}  // namespace
}  // namespace grainlab
