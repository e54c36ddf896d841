// Experiment ndem_belt_pile: an elongated pile (a ridge) formed by a rectangular source over a planar
// surface moving relative to it, stepped with the NDEM engine (Paper III E5, 000 l.1364, 1372; ledger
// ../shared/claims/paper3.md E5). Two layouts:
//  - belt (the paper's set-up): a source `source_length` long along the belt motion (x) and
//    `source_width` across (y), centres at `source_height`, emitting `feed_rate` kg/s at rest at random
//    points, over a ground plane whose surface moves at `belt_speed` along x. The source's downstream edge
//    is x = 0; the profile is averaged over 20 segments of 2.5 d between `measure_from` = 10 d and 60 d
//    downstream of it, at the end of the run (the source keeps running: the measured cross-sections left
//    it 1.3 - 7.6 s before); the early angle is that of the stretch 0 - 10 d downstream of the edge;
//  - ridge (a reduced stand-in, ledger E5 "quick"): x periodic over `ridge_length`, no belt motion; the
//    same mass per metre of belt, feed_rate / belt_speed, rains from the source strip over `fill_time`
//    (= source_length / belt_speed, the time a belt cross-section spends under the source), then
//    `settle_time` without a source; the profile is averaged over the 2.5 d slices of the whole period;
//    the early angle is the one when the source stops (a belt cross-section leaving the source).
// Angles: experiments/ridge_profile.hpp. Choices the paper leaves open: docs/paper3_e5.md.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/sources/emitter.hpp"
#include "experiments/experiment.hpp"
#include "experiments/material_parameters.hpp"
#include "experiments/ridge_profile.hpp"

namespace grainlab {
namespace {

// Nothing emitted at rest with e = 0.18 can legitimately rise 2 d above the source (as ndem_pile): the
// emitter adds potential energy all the time, so the energy part of the shared guard does not apply.
void check_nothing_flies_up(const World& w, double limit_z) {
  for (std::size_t i = 0; i < w.particles.size(); ++i)
    if (!(w.particles.position[i].z() < limit_z))
      throw InstabilityError(fmt::format("ndem_belt_pile: step {} (t = {:.6g} s): particle {} at z = {:.4g} m, more "
                                         "than 2 d above the source: the solver created energy",
                                         w.step, w.time, i, w.particles.position[i].z()),
                             w.step);
}

// The fitted flanks as a tent at y: the lower of the two lines (a line mirrored about the peak when one
// flank has no fit), not below the ground; NaN without a fit. For the profile figure.
double flank_tent(const FlankAngles& f, double y) {
  double a1 = f.left_intercept, b1 = f.left_slope, a2 = f.right_intercept, b2 = f.right_slope;
  if (!std::isfinite(b1) && !std::isfinite(b2)) return std::numeric_limits<double>::quiet_NaN();
  if (!std::isfinite(b1)) { b1 = -b2; a1 = a2 + 2 * b2 * f.peak_y; }
  if (!std::isfinite(b2)) { b2 = -b1; a2 = a1 + 2 * b1 * f.peak_y; }
  return std::max(0.0, std::min(a1 + b1 * y, a2 + b2 * y));
}

RunResult run_belt_pile(const Parameters& p, RunContext& ctx) {
  const double d = p.real("diameter"), r = d / 2;
  const bool belt = p.text("layout") == "belt";
  World w;
  w.gravity.g = Vec3(0, 0, -p.real("gravity"));
  const Material mat = material_from_parameters(p, "pellet");
  w.add_material(mat);  // pellet-belt contacts with the pellet parameters (ledger E5 default)
  const double belt_speed = p.real("belt_speed");
  Wall ground;
  ground.name = "belt";
  ground.shape = PlaneShape{};
  if (belt) ground.surface_velocity = Vec3(belt_speed, 0, 0);
  w.add_wall(ground);

  NdemSettings s;
  s.time_step = p.real("dt");
  s.iterations = int(p.integer("iterations"));
  s.warm_start = parse_warm_start(p.text("warm_start"));
  s.impact_velocity = p.real("impact_velocity");
  s.damping_time = p.real("damping_time");
  s.max_overlap_ratio = p.real("max_overlap_ratio");
  NdemStepper ndem(s);

  const double length = p.real("source_length"), width = p.real("source_width"), height = p.real("source_height");
  if (!(width >= d)) throw InputError(fmt::format("ndem_belt_pile: source_width = {} m must be >= d = {} m", width, d));
  if (!(height > 2 * d)) throw InputError(fmt::format("ndem_belt_pile: source_height = {} m must exceed 2 d", height));
  const double particle_mass = mat.density * M_PI * d * d * d / 6;
  const double fill_time = length / belt_speed;  // a belt cross-section's time under the source
  double rate = 0, end_of_feed = 0;
  std::size_t count = 0;
  sources::EmitterSettings es;
  const double slab = 0.5 * d * (1 + 1e-9);  // centres at the source height, a hair of room
  if (belt) {
    rate = p.real("feed_rate") / particle_mass;
    end_of_feed = p.real("run_time");
    count = std::numeric_limits<std::size_t>::max();
    es.region.lo = Vec3(-length, -width / 2, height - slab);
    es.region.hi = Vec3(0, width / 2, height + slab);
  } else {
    const double L = p.real("ridge_length");
    if (!(L >= 4 * d)) throw InputError(fmt::format("ndem_belt_pile: ridge_length = {} m must be >= 4 d", L));
    w.collision.set_periodic(0, 0, L);
    count = std::size_t(std::lround(p.real("feed_rate") / belt_speed * L / particle_mass));
    rate = double(count) / fill_time;
    end_of_feed = fill_time;
    // Centres in [r, L - r]: no sphere overlaps another's periodic image (the emitter does not wrap).
    es.region.lo = Vec3(0, -width / 2, height - slab);
    es.region.hi = Vec3(L, width / 2, height + slab);
  }
  if (rate * s.time_step > 50)
    throw InputError(fmt::format("ndem_belt_pile: {:.4g} particles per step: feed_rate too large for dt", rate * s.time_step));
  es.rate = rate;
  es.radii = sources::RadiusDistribution::mono(r);
  es.seed = std::uint64_t(p.integer("seed"));
  sources::ParticleEmitter emitter(es);

  RidgeProfileSettings rs;
  rs.segment_length = p.real("segment_length") * d;
  rs.bin_width = p.real("bin_width") * d;
  rs.half_width = p.real("profile_half_width");
  rs.surface_speed = p.real("surface_speed");
  rs.ground_velocity = ground.surface_velocity;
  rs.max_height = height - d;  // a particle 1 d below the source has fallen at >= 0.35 m/s
  if (belt) {
    rs.x_lo = p.real("measure_from") * d;
    rs.segments = int(p.integer("segments"));
  } else {
    rs.x_lo = 0;
    rs.segments = std::max(1, int(std::floor(p.real("ridge_length") / rs.segment_length + 1e-9)));
  }
  const double end = belt ? end_of_feed : end_of_feed + p.real("settle_time");
  const double max_feed_time = end_of_feed + p.real("extra_feed_time");
  const int sample_every = std::max(1, int(std::lround(p.real("sample_interval") / s.time_step)));

  TimeSeries series{{"time", "angle", "angle_left", "angle_right", "peak_d", "particles"}, {}};
  double fill_end_angle = std::numeric_limits<double>::quiet_NaN(), fed_until = 0;
  for (int k = 0;; ++k) {
    // The ridge's source emits until its `count` particles are in (a centre blocked by a falling
    // particle is retried at the next emission), at most `extra_feed_time` past the nominal fill time.
    const bool emitting = emitter.inserted() < count && w.time < (belt ? end_of_feed : max_feed_time);
    if (emitting) {
      emitter.emit(w, s.time_step);
      fed_until = w.time + s.time_step;
    }
    if (!emitting && w.time >= std::max(end, fed_until + (belt ? 0.0 : p.real("settle_time"))) - 1e-9 * s.time_step) break;
    ndem.step(w);
    w.wrap_periodic();  // the NDEM stepper leaves positions unwrapped; contacts use the minimum image
    w.check_stability(s.max_overlap_ratio);
    check_nothing_flies_up(w, height + 2 * d);
    if ((k + 1) % sample_every == 0) {
      const RidgeProfile m = measure_ridge(w.particles, rs);
      series.rows.push_back({w.time, m.fit.angle_deg, m.fit.left_deg, m.fit.right_deg, m.fit.peak / d,
                             double(w.particles.size())});
      // The angle when the source stops (ridge) = the angle a cross-section has as it leaves the source.
      if (!belt && std::isnan(fill_end_angle) && emitter.inserted() >= count) fill_end_angle = m.fit.angle_deg;
    }
    if (ctx.progress && k % 200 == 0) ctx.progress(std::min(1.0, w.time / end));
  }

  const RidgeProfile m = measure_ridge(w.particles, rs);
  RunResult out;
  out.metrics["angle_of_repose"] = m.fit.angle_deg;
  out.metrics["angle_left"] = m.fit.left_deg;
  out.metrics["angle_right"] = m.fit.right_deg;
  out.metrics["angle_sd"] = m.angle_sd_deg;
  out.metrics["flank_bins"] = double(m.fit.left_bins + m.fit.right_bins);
  out.metrics["peak_height_d"] = m.fit.peak / d;
  if (belt) {  // the cross-sections that just left the source: 0 - measure_from downstream of its edge
    RidgeProfileSettings early = rs;
    early.x_lo = 0;
    early.segments = std::max(1, int(std::lround(p.real("measure_from") * d / rs.segment_length)));
    fill_end_angle = measure_ridge(w.particles, early).fit.angle_deg;
  }
  out.metrics["angle_early"] = fill_end_angle;
  out.metrics["emitted"] = double(emitter.inserted());
  out.metrics["emission_failed"] = double(emitter.failed());
  out.metrics["feed_end_time"] = fed_until;
  out.metrics["mass_per_metre"] = belt ? p.real("feed_rate") / belt_speed
                                       : double(emitter.inserted()) * particle_mass / p.real("ridge_length");
  out.metrics["max_overlap_over_d"] = ndem.stats().max_overlap_over_d;
  out.metrics["time_solve"] = w.timers.solve;
  out.series["angle"] = std::move(series);
  TimeSeries profile{{"y_d", "height_d", "flank_fit_d"}, {}};
  for (std::size_t b = 0; b < m.y.size(); ++b)
    profile.rows.push_back({m.y[b] / d, m.surface[b] / d, flank_tent(m.fit, m.y[b]) / d});
  out.series["profile"] = std::move(profile);
  return out;
}

const ExperimentRegistration reg{Experiment{
    .name = "ndem_belt_pile",
    .description = "elongated pile from a rectangular source over a moving belt (or a periodic ridge), NDEM engine: "
                   "cross-section profile and angle of repose from the two flanks (Paper III E5, 000 l.1364)",
    .parameters =
        {
            {"layout", ParamType::text, "", std::string("ridge"), {}, {},
             "belt: source over a moving plane (the paper); ridge: periodic along the belt, no motion (reduced)",
             {"belt", "ridge"}},
            {"diameter", ParamType::real, "m", 0.0127, 1e-6, 10.0, "sphere diameter d (Table 1)"},
            {"density", ParamType::real, "kg/m^3", 3700.0, 1e-3, 1e5, "particle density"},
            {"youngs_modulus", ParamType::real, "Pa", 6.2e6, 1.0, 1e15, "Young's modulus E"},
            {"poisson_ratio", ParamType::real, "-", 0.25, -0.99, 0.49, "Poisson ratio"},
            {"restitution", ParamType::real, "-", 0.18, 0.0, 1.0, "restitution e"},
            {"friction", ParamType::real, "-", 0.91, 0.0, 100.0, "friction mu_s"},
            {"rolling_friction", ParamType::real, "-", 0.32, 0.0, 100.0, "rolling resistance mu_r"},
            {"gravity", ParamType::real, "m/s^2", 9.82, 0.0, 1e3, "gravity magnitude (Paper III: 9.82)"},
            {"dt", ParamType::real, "s", 0.005, 1e-9, 1.0, "time step"},
            {"iterations", ParamType::integer, "-", std::int64_t(150), 1.0, 1e7, "PGS iterations N_it (impact stage too)"},
            {"warm_start", ParamType::text, "", std::string("cold"), {}, {},
             "cold (Paper III) | history | history_normal_only | history_no_velocity_update | model",
             {"cold", "history", "history_normal_only", "history_no_velocity_update", "model"}},
            {"impact_velocity", ParamType::real, "m/s", 0.05, -1.0, 1e3, "v_imp (< 0: rule 0.02 d / dt, Paper III)"},
            {"damping_time", ParamType::real, "s", 0.001, 0.0, 10.0,
             "Hertz damping time c: tau_n = max(2 dt, c / e_H) (no effect for dt >= 0.4 ms)"},
            {"source_length", ParamType::real, "m", 0.4, 1e-4, 100.0, "source extent along the belt motion"},
            {"source_width", ParamType::real, "m", 0.05, 1e-4, 100.0, "source extent across the belt"},
            {"source_height", ParamType::real, "m", 0.3, 1e-4, 100.0, "height of the source's particle centres"},
            {"feed_rate", ParamType::real, "kg/s", 4.0, 1e-6, 1e4, "mass flow of the source (14.4 t/h)"},
            {"belt_speed", ParamType::real, "m/s", 0.1, 1e-6, 100.0,
             "surface speed relative to the source (ridge: sets the mass per metre and the fill time)"},
            {"run_time", ParamType::real, "s", 16.0, 0.0, 1e4, "belt: simulated time (the source runs throughout)"},
            {"ridge_length", ParamType::real, "m", 0.127, 1e-4, 100.0, "ridge: periodic length along the belt"},
            {"settle_time", ParamType::real, "s", 2.0, 0.0, 1e4, "ridge: simulated time after the source stopped"},
            {"extra_feed_time", ParamType::real, "s", 2.0, 0.0, 1e4,
             "ridge: the source may run this long past the nominal fill time to get every particle in"},
            {"measure_from", ParamType::real, "d", 10.0, 0.0, 1e5, "belt: start of the measured stretch downstream of the source"},
            {"segments", ParamType::integer, "-", std::int64_t(20), 1.0, 1e5, "belt: segments averaged"},
            {"segment_length", ParamType::real, "d", 2.5, 0.01, 1e5, "length of one segment along the belt"},
            {"bin_width", ParamType::real, "d", 0.5, 0.01, 1e5, "profile bin width across the belt"},
            {"profile_half_width", ParamType::real, "m", 0.5, 1e-3, 100.0, "the profile covers |y| up to this"},
            {"surface_speed", ParamType::real, "m/s", 0.2, 0.0, 1e3,
             "particles faster than this relative to the belt (the falling stream) are not surface"},
            {"seed", ParamType::integer, "-", std::int64_t(1), 0.0, 9e15, "seed of the source positions"},
            {"sample_interval", ParamType::real, "s", 0.1, 1e-6, 1e4, "interval of the angle series"},
            {"max_overlap_ratio", ParamType::real, "-", 2.0, 0.1, 100.0, "stop as unstable beyond this overlap / radius"},
        },
    .run = run_belt_pile}};

}  // namespace
}  // namespace grainlab
