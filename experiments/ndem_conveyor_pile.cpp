// Experiment ndem_conveyor_pile: Paper V E1 (000 l.2093-2095, 2122, 2132, 2158; ledger
// ../shared/claims/paper5.md E1): a conveyor with continuous pile formation at one end and discharge over
// the other, stepped with the NDEM engine and the linear contact law of Paper V, with or without adaptive
// model reduction (experiments/reduction_parameters.hpp; runs ref-500, ref-150, cs-150 of 000 l.2130).
//  - belt: a finite plate z = 0, x in [0, L] (L = belt_length d), |y| <= belt_width / 2, whose surface moves
//    at belt_speed along +x (the AgX conveyor idiom: a surface velocity on a static body, ledger default);
//    particles leave it over the edge x = L (discharge) and, where they roll back, over x = 0;
//  - source: feed_rate particles/s at rest (or at source_speed downwards), centres at source_height above the belt at random points of a
//    source_length x source_width rectangle (along x, across y) whose upstream edge is source_offset from
//    x = 0 (ledger defaults: 15 d x 4 d, 5 d); an emission overlapping a particle is retried, then dropped;
//  - discharge: centres passing the plane z = -discharge_drop d (15 d, 000 l.2158) downstream of the belt's
//    middle are recorded (experiments/discharge_plane.hpp); particles below -removal_drop d are deleted (an
//    aggregate member is freed first)
//    (ledger default 20 d; this is why the count stays near 5-7e3, not "90e3", ledger P6);
//  - measurements over the last `window` seconds (6 s, 000 l.2158), sampled every sample_interval: the
//    ridge angle theta_conv from the two flanks of the cross-section profile averaged over the 2.5 d slices
//    of the measured stretch [measure_from, measure_to] x L (mid 50 %, ledger default), particles centred less
//    than d above the belt left out (the layer resting on it), flanks fitted between 0.2 and 0.8 of the crest
//    height (experiments/ridge_profile.hpp),
//    its time mean and sd (the paper's +-); the crest height; h(t) (ReductionStats: three variants, P4);
//    the fraction of particles at least rest_age old, on the belt between the source's downstream edge (the
//    pile carried away, no longer under the falling stream) and rest_edge_margin before the discharge edge,
//    whose speed relative to the belt is below rest_speed (C23); the discharge centre and spread.
// Choices the paper leaves open: docs/paper5_conveyor.md.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/bodies.hpp"
#include "core/error.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/ndem/reduction.hpp"
#include "core/sources/emitter.hpp"
#include "experiments/discharge_plane.hpp"
#include "experiments/experiment.hpp"
#include "experiments/material_parameters.hpp"
#include "experiments/reduction_parameters.hpp"
#include "experiments/ridge_profile.hpp"

namespace grainlab {
namespace {

// Nothing emitted at rest with e = 0.18 can legitimately rise 2 d above the source (as ndem_belt_pile).
void check_nothing_flies_up(const World& w, double limit_z) {
  for (std::size_t i = 0; i < w.particles.size(); ++i)
    if (!(w.particles.position[i].z() < limit_z))
      throw InstabilityError(fmt::format("ndem_conveyor_pile: step {} (t = {:.6g} s): particle {} at z = {:.4g} m, "
                                         "more than 2 d above the source: the solver created energy",
                                         w.step, w.time, i, w.particles.position[i].z()),
                             w.step);
}

double mean_of(const std::vector<double>& v) {
  double s = 0;
  int n = 0;
  for (double x : v)
    if (std::isfinite(x)) { s += x; ++n; }
  return n ? s / n : std::numeric_limits<double>::quiet_NaN();
}

double sd_of(const std::vector<double>& v) {
  const double m = mean_of(v);
  double s = 0;
  int n = 0;
  for (double x : v)
    if (std::isfinite(x)) { s += (x - m) * (x - m); ++n; }
  return n > 1 ? std::sqrt(s / (n - 1)) : std::numeric_limits<double>::quiet_NaN();
}

struct Geometry {
  double d, L, half_width;
};

/// The sensor of the cs runs (ledger E1 default): a box over the whole belt width from sensor_length d
/// before the discharge edge to the discharge plane, up above any crest, and 15 d beyond the edge (the
/// stream falls there): an aggregate carried into it dissolves before it tips over the edge.
ReductionSensor discharge_sensor(const Parameters& p, const Geometry& g) {
  const double x_lo = g.L - p.real("sensor_length") * g.d, x_hi = g.L + 15 * g.d;
  const double z_lo = -p.real("discharge_drop") * g.d, z_hi = p.real("source_height");
  ReductionSensor s;
  s.center = Vec3((x_lo + x_hi) / 2, 0, (z_lo + z_hi) / 2);
  s.half_extent = Vec3((x_hi - x_lo) / 2, g.half_width + 5 * g.d, (z_hi - z_lo) / 2);
  return s;
}

RunResult run_conveyor_pile(const Parameters& p, RunContext& ctx) {
  const double d = p.real("diameter"), r = d / 2;
  const Geometry g{d, p.real("belt_length") * d, p.real("belt_width") * d / 2};
  World w;
  w.gravity.g = Vec3(0, 0, -p.real("gravity"));
  const Material mat = material_from_parameters(p, "particle");
  w.add_material(mat);  // particle-belt contacts with the particle parameters (ledger E1 default)
  const Vec3 belt_velocity(p.real("belt_speed"), 0, 0);
  Wall belt;
  belt.name = "belt";
  RectangleShape plate;
  plate.center = Vec3(g.L / 2, 0, 0);
  plate.half_u = g.L / 2;
  plate.half_v = g.half_width;
  belt.shape = plate;
  belt.surface_velocity = belt_velocity;
  w.add_wall(belt);

  NdemSettings s;
  s.time_step = p.real("dt");
  s.iterations = int(p.integer("iterations"));
  s.law = NdemContactLaw::linear;
  s.linear_stiffness = p.real("linear_stiffness");
  s.impact_velocity = p.real("impact_velocity");
  s.damping_time = p.real("damping_time");
  s.max_overlap_ratio = p.real("max_overlap_ratio");
  s.reduction = reduction_settings(p);
  if (reduction_uses_sensors(p)) s.reduction.sensors.push_back(discharge_sensor(p, g));
  NdemStepper ndem(s);

  const double height = p.real("source_height");
  const double src_lo = p.real("source_offset") * d, src_hi = src_lo + p.real("source_length") * d;
  const double src_half_width = p.real("source_width") * d / 2;
  if (!(src_half_width >= r))
    throw InputError(fmt::format("ndem_conveyor_pile: source_width = {} d must be >= 1 d", p.real("source_width")));
  if (!(src_hi <= g.L)) throw InputError("ndem_conveyor_pile: source_offset + source_length must be <= belt_length");
  if (!(src_half_width <= g.half_width)) throw InputError("ndem_conveyor_pile: source_width must be <= belt_width");
  if (!(height > 2 * d)) throw InputError(fmt::format("ndem_conveyor_pile: source_height = {} m must exceed 2 d", height));
  if (p.real("feed_rate") * s.time_step > 50)
    throw InputError(fmt::format("ndem_conveyor_pile: {:.4g} particles per step: feed_rate too large for dt",
                                 p.real("feed_rate") * s.time_step));
  sources::EmitterSettings es;
  const double slab = 0.5 * d * (1 + 1e-9);  // centres at the source height, a hair of room
  es.region.lo = Vec3(src_lo, -src_half_width, height - slab);
  es.region.hi = Vec3(src_hi, src_half_width, height + slab);
  es.rate = p.real("feed_rate");
  es.velocity = Vec3(0, 0, -p.real("source_speed"));
  es.radii = sources::RadiusDistribution::mono(r);
  es.seed = std::uint64_t(p.integer("seed"));
  sources::ParticleEmitter emitter(es);

  const double run_time = p.real("run_time"), window = p.real("window");
  if (!(window <= run_time)) throw InputError("ndem_conveyor_pile: window must be <= run_time");
  const double t_measure = run_time - window;
  const double measure_from = p.real("measure_from"), measure_to = p.real("measure_to");
  if (!(measure_to > measure_from)) throw InputError("ndem_conveyor_pile: measure_to must exceed measure_from");
  RidgeProfileSettings rs;
  rs.segment_length = p.real("segment_length") * d;
  rs.bin_width = p.real("bin_width") * d;
  rs.half_width = g.half_width;
  rs.surface_speed = p.real("surface_speed");
  rs.ground_velocity = belt_velocity;
  rs.max_height = height - d;
  rs.min_height = d;  // the bottom layer (centres at d/2) is not surface (000 l.2095; ledger: centre < d)
  rs.x_lo = measure_from * g.L;
  rs.segments = std::max(1, int(std::floor((measure_to - measure_from) * g.L / rs.segment_length + 1e-9)));

  const double plane_z = -p.real("discharge_drop") * d, removal_z = -p.real("removal_drop") * d;
  if (!(removal_z < plane_z)) throw InputError("ndem_conveyor_pile: removal_drop must exceed discharge_drop");
  const double rest_speed = p.real("rest_speed"), rest_age = p.real("rest_age");
  const double rest_x_hi = g.L - p.real("rest_edge_margin") * d;
  const int sample_every = std::max(1, int(std::lround(p.real("sample_interval") / s.time_step)));
  const int steps = int(std::lround(run_time / s.time_step));

  std::vector<double> birth;  // emission time by particle id
  std::vector<DischargeCrossing> crossings, step_crossings;
  std::vector<double> angles, peaks, levels, levels_free, levels_dof, rest_fractions, counts;
  TimeSeries angle_series{{"time", "angle", "angle_left", "angle_right", "peak_d"}, {}};
  TimeSeries h_series{{"time", "h", "h_free_only", "h_dof", "particles", "free", "aggregates", "merged", "split_contact",
                       "split_sensor"},
                      {}};
  std::size_t removed = 0, spilled_upstream = 0, removed_aggregated = 0;
  std::vector<char> keep;
  for (int k = 0; k < steps; ++k) {
    const std::size_t before = w.particles.size();
    emitter.emit(w, s.time_step);
    for (std::size_t i = before; i < w.particles.size(); ++i) {
      const std::uint32_t id = w.particles.id[i];
      if (birth.size() <= id) birth.resize(id + 1, 0.0);
      birth[id] = w.time;
    }
    ndem.step(w);
    w.check_stability(s.max_overlap_ratio);
    check_nothing_flies_up(w, height + 2 * d);
    step_crossings.clear();
    record_crossings(w.particles, plane_z, s.time_step, w.time, step_crossings);
    for (const auto& c : step_crossings) {
      if (c.x > g.L / 2)
        crossings.push_back(c);
      else
        ++spilled_upstream;  // rolled back over x = 0 (or off a side near the source): not discharge
    }
    // Delete the particles below the removal plane; aggregate members are freed first (release_members
    // relabels only), so an aggregate that falls off the edge in one piece is not left behind.
    bool any = false, any_aggregated = false;
    keep.assign(w.particles.size(), 1);
    for (std::size_t i = 0; i < w.particles.size(); ++i) {
      if (!(w.particles.position[i].z() < removal_z)) continue;
      if (w.particles.body[i] >= 0) { ++removed_aggregated; any_aggregated = true; }
      keep[i] = 0;
      any = true;
      ++removed;
    }
    if (any) {
      if (any_aggregated) {
        std::vector<char> release(keep.size());
        for (std::size_t i = 0; i < keep.size(); ++i) release[i] = !keep[i];
        release_members(w, release);
      }
      w.particles.compact(keep);
      if (!w.bodies.empty()) resolve_members(w);
      w.detector.invalidate();
    }

    if ((k + 1) % sample_every == 0) {
      const ReductionStats& rst = ndem.stats().reduction;
      h_series.rows.push_back({w.time, rst.level, rst.level_free_only, rst.level_dof, double(w.particles.size()),
                               double(rst.free_particles), double(rst.aggregates), double(rst.merged),
                               double(rst.split_contact), double(rst.split_sensor)});
      if (w.time >= t_measure - 1e-9) {
        const RidgeProfile m = measure_ridge(w.particles, rs);
        angle_series.rows.push_back({w.time, m.fit.angle_deg, m.fit.left_deg, m.fit.right_deg, m.fit.peak / d});
        angles.push_back(m.fit.angle_deg);
        peaks.push_back(m.fit.peak / d);
        levels.push_back(rst.level);
        levels_free.push_back(rst.level_free_only);
        levels_dof.push_back(rst.level_dof);
        counts.push_back(double(w.particles.size()));
        std::size_t old = 0, resting = 0;
        for (std::size_t i = 0; i < w.particles.size(); ++i) {
          const Vec3& x = w.particles.position[i];
          if (w.time - birth[w.particles.id[i]] < rest_age || x.z() < 0 || x.x() < src_hi || x.x() > rest_x_hi) continue;
          ++old;
          if ((w.particles.velocity[i] - belt_velocity).norm() < rest_speed) ++resting;
        }
        rest_fractions.push_back(old ? double(resting) / double(old) : std::numeric_limits<double>::quiet_NaN());
      }
    }
    if (ctx.progress && k % 200 == 0) ctx.progress(double(k) / steps);
  }

  DischargeGrid grid;
  grid.cell = p.real("discharge_cell") * d;
  grid.x_lo = g.L - 5 * d;
  grid.nx = std::max(1, int(std::ceil(20 * d / grid.cell)));
  grid.y_lo = -g.half_width;
  grid.ny = std::max(1, int(std::ceil(2 * g.half_width / grid.cell)));
  const DischargeDistribution dd = discharge_distribution(crossings, t_measure, run_time, grid);

  RunResult out;
  out.metrics["angle_of_repose"] = mean_of(angles);
  out.metrics["angle_sd"] = sd_of(angles);
  out.metrics["angle_samples"] = double(std::count_if(angles.begin(), angles.end(), [](double a) { return std::isfinite(a); }));
  out.metrics["peak_height_d"] = mean_of(peaks);
  out.metrics["h_mean"] = mean_of(levels);
  out.metrics["h_sd"] = sd_of(levels);
  out.metrics["h_mean_free_only"] = mean_of(levels_free);
  out.metrics["h_mean_dof"] = mean_of(levels_dof);
  out.metrics["rest_fraction"] = mean_of(rest_fractions);
  out.metrics["particles_mean"] = mean_of(counts);
  out.metrics["discharge_count"] = double(dd.count);
  out.metrics["discharge_rate"] = double(dd.count) / window;
  out.metrics["discharge_x_c_d"] = (dd.x_c - g.L) / d;  // downstream of the belt edge
  out.metrics["discharge_y_c_d"] = dd.y_c / d;
  out.metrics["discharge_sd_x_d"] = dd.sd_x / d;
  out.metrics["discharge_sd_y_d"] = dd.sd_y / d;
  out.metrics["discharge_outside"] = dd.outside;
  out.metrics["emitted"] = double(emitter.inserted());
  out.metrics["emission_failed"] = double(emitter.failed());
  out.metrics["emission_rate"] = double(emitter.inserted()) / run_time;  // the feed rate actually delivered
  out.metrics["removed"] = double(removed);
  out.metrics["removal_waiting_aggregated"] = double(removed_aggregated);  // removed while in an aggregate
  out.metrics["spilled_upstream"] = double(spilled_upstream);
  out.metrics["max_overlap_over_d"] = ndem.stats().max_overlap_over_d;
  out.metrics["time_solve"] = w.timers.solve;
  out.metrics["time_reduction"] = w.timers.reduction;
  out.metrics["time_step_total"] = w.timers.total();
  // The crest of a ridge of fixed angle and packing scales with the square root of its cross-section, i.e. of
  // the mass per metre of belt: 1 at the paper's 1000 /s and 0.1 m/s (000 l.2095), 1/2 at the quick 250 /s.
  out.metrics["ridge_height_scale"] = std::sqrt(p.real("feed_rate") / p.real("belt_speed") / 1e4);
  // One row of the run's main scalars: a series_distance derived quantity gives |a - a_ref| between runs.
  out.series["summary"] = TimeSeries{{"angle", "x_c_d", "y_c_d", "h_mean"},
                                     {{out.metrics["angle_of_repose"], out.metrics["discharge_x_c_d"],
                                       out.metrics["discharge_y_c_d"], out.metrics["h_mean"]}}};
  out.series["angle"] = std::move(angle_series);
  out.series["reduction"] = std::move(h_series);
  TimeSeries hist{{"x_d", "y_d", "fraction"}, {}};
  for (int ix = 0; ix < grid.nx; ++ix)
    for (int iy = 0; iy < grid.ny; ++iy)
      hist.rows.push_back({(grid.x_lo + (ix + 0.5) * grid.cell - g.L) / d, (grid.y_lo + (iy + 0.5) * grid.cell) / d,
                           dd.histogram[std::size_t(ix) * std::size_t(grid.ny) + std::size_t(iy)]});
  out.series["discharge"] = std::move(hist);
  return out;
}

std::vector<ParameterSpec> conveyor_parameters() {
  std::vector<ParameterSpec> ps = {
      {"diameter", ParamType::real, "m", 0.013, 1e-6, 10.0, "sphere diameter d (Table 1: 13 mm, ledger E1 default)"},
      {"density", ParamType::real, "kg/m^3", 3700.0, 1e-3, 1e5, "particle density (Table 1)"},
      {"youngs_modulus", ParamType::real, "Pa", 6.2e6, 1.0, 1e15, "Young's modulus (unused by the linear law)"},
      {"poisson_ratio", ParamType::real, "-", 0.25, -0.99, 0.49, "Poisson ratio (unused by the linear law)"},
      {"linear_stiffness", ParamType::real, "N/m", 3000.0, 1e-6, 1e15, "k_n of the linear contact law (Table 1)"},
      {"restitution", ParamType::real, "-", 0.18, 0.0, 1.0, "restitution e (Table 1)"},
      {"friction", ParamType::real, "-", 0.91, 0.0, 100.0, "friction mu_t (Table 1; belt too)"},
      {"rolling_friction", ParamType::real, "-", 0.32, 0.0, 100.0, "rolling resistance mu_r (Table 1; belt too)"},
      {"gravity", ParamType::real, "m/s^2", 9.81, 0.0, 1e3, "gravity magnitude (000 l.2093)"},
      {"dt", ParamType::real, "s", 0.005, 1e-9, 1.0, "time step (Table 1)"},
      {"iterations", ParamType::integer, "-", std::int64_t(150), 1.0, 1e7, "PGS iterations N_it (impact stage too)"},
      {"impact_velocity", ParamType::real, "m/s", 0.026, -1.0, 1e3,
       "v_imp (ledger P15: 0.01 d / dt = 0.026 m/s for d = 13 mm; < 0: engine rule)"},
      {"damping_time", ParamType::real, "s", 0.0, 0.0, 10.0, "viscosity c: tau_n = max(2 dt, c) (unspecified; no effect below 10 ms)"},
      {"belt_length", ParamType::real, "d", 50.0, 2.0, 1e5, "belt length L along the motion (000 l.2095)"},
      {"belt_width", ParamType::real, "d", 30.0, 2.0, 1e5, "belt width (ledger default >= 30 d, no side walls)"},
      {"belt_speed", ParamType::real, "m/s", 0.1, 0.0, 100.0, "belt surface speed along +x (000 l.2095)"},
      {"feed_rate", ParamType::real, "1/s", 1000.0, 1e-3, 1e6, "particles emitted per second (000 l.2095)"},
      {"source_length", ParamType::real, "d", 15.0, 0.1, 1e5, "source extent along the belt (000 l.2095)"},
      {"source_width", ParamType::real, "d", 4.0, 1.0, 1e5, "source extent across the belt (000 l.2095)"},
      {"source_offset", ParamType::real, "d", 5.0, 0.0, 1e5, "upstream edge of the source from the belt's start (ledger default)"},
      {"source_height", ParamType::real, "m", 0.1, 1e-4, 100.0, "height of the emitted centres above the belt (000 l.2095)"},
      {"source_speed", ParamType::real, "m/s", 0.0, 0.0, 100.0,
       "downward speed of emitted particles (ledger: 0; at 0 a 15 d x 4 d source rejects ~40 % of 1000 /s as overlaps)"},
      {"run_time", ParamType::real, "s", 20.0, 0.0, 1e5, "simulated time"},
      {"window", ParamType::real, "s", 6.0, 0.0, 1e5, "measurement window at the end of the run (000 l.2158: 6 s)"},
      {"sample_interval", ParamType::real, "s", 0.1, 1e-6, 1e4, "interval of the samples (10 Hz, ledger default)"},
      {"measure_from", ParamType::real, "-", 0.25, 0.0, 1.0, "start of the measured stretch, fraction of L (mid 50 %)"},
      {"measure_to", ParamType::real, "-", 0.75, 0.0, 1.0, "end of the measured stretch, fraction of L"},
      {"segment_length", ParamType::real, "d", 2.5, 0.01, 1e5, "slice length along the belt (as Paper III E5)"},
      {"bin_width", ParamType::real, "d", 0.5, 0.01, 1e5, "profile bin width across the belt"},
      {"surface_speed", ParamType::real, "m/s", 0.2, 0.0, 1e3,
       "particles faster than this relative to the belt (the falling stream) are not surface"},
      {"discharge_drop", ParamType::real, "d", 15.0, 0.0, 1e5, "discharge plane below the belt (000 l.2158)"},
      {"removal_drop", ParamType::real, "d", 20.0, 0.0, 1e5, "free particles below this are deleted (ledger default)"},
      {"discharge_cell", ParamType::real, "d", 1.0, 0.01, 1e5, "cell of the discharge histogram"},
      {"rest_speed", ParamType::real, "m/s", 0.001, 0.0, 1e3, "at rest relative to the belt below this (C23: 1 mm/s)"},
      {"rest_age", ParamType::real, "s", 1.3, 0.0, 1e5, "rest counted for particles at least this old (0.14 s fall + ~1 s)"},
      {"rest_edge_margin", ParamType::real, "d", 5.0, 0.0, 1e5, "rest counted downstream of the source and this far short of the discharge edge"},
      {"sensor_length", ParamType::real, "d", 5.0, 0.0, 1e5, "cs: the sensor starts this far before the discharge edge"},
      {"seed", ParamType::integer, "-", std::int64_t(1), 0.0, 9e15, "seed of the source positions"},
      {"max_overlap_ratio", ParamType::real, "-", 2.0, 0.1, 100.0, "stop as unstable beyond this overlap / radius"},
  };
  for (auto& spec : reduction_parameters()) ps.push_back(std::move(spec));
  return ps;
}

const ExperimentRegistration reg{Experiment{
    .name = "ndem_conveyor_pile",
    .description = "Paper V E1: conveyor with a pile forming under a source and discharge over the far edge, NDEM "
                   "with the linear law, optional model reduction: theta_conv, crest height, h(t), discharge "
                   "distribution 15 d below the belt (000 l.2095, 2158)",
    .parameters = conveyor_parameters(),
    .run = run_conveyor_pile}};

}  // namespace
}  // namespace grainlab
