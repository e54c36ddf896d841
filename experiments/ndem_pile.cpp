// Experiment ndem_pile: a pile formed on a ground plane by a continuous source, stepped with the NDEM
// engine (Paper IV E2, 000 l.1654-1664; 001 l.126-135; ledger ../shared/claims/paper4.md E2).
// Monodisperse spheres appear at rest at random points of a square source `source_width` d wide whose
// centres lie at `source_height` d above the ground (core/sources/emitter.hpp), `emission_rate` per
// second (nominal), until `count` have been emitted; the run goes on for `rest_time` after the last emission
// ("the pile height is measured 10 s after the last emitted particle has come to approximate rest":
// the last particle lands within 0.3 s, so the rest window starts at the last emission). Metrics and the
// choices the paper leaves open: docs/paper4_e2.md.
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/sources/emitter.hpp"
#include "experiments/experiment.hpp"
#include "experiments/janssen_fit.hpp"
#include "experiments/material_parameters.hpp"
#include "experiments/pile_measures.hpp"

namespace grainlab {
namespace {

constexpr const char* kMeasuredMetrics[] = {"pile_height",        "pile_height_d",      "pile_height_top5",
                                            "pile_height_centroid", "angle_of_repose",    "flank_bins",         "melt_rate_d_per_s",
                                            "rest_height_change", "resting_fraction",   "last_emission_time",
                                            "max_overlap_over_d", "contacts"};

// A run that came apart, recorded as data (on_instability = "record"): NaN accuracy metrics, never
// "reaching" a tolerance (a min_reaching derived quantity treats NaN as a miss).
RunResult diverged(const World& w, const sources::ParticleEmitter& e) {
  RunResult out;
  for (const char* k : kMeasuredMetrics) out.metrics[k] = std::numeric_limits<double>::quiet_NaN();
  out.metrics["diverged"] = 1;
  out.metrics["diverged_time"] = w.time;
  out.metrics["emitted"] = double(e.inserted());
  out.metrics["emission_failed"] = double(e.failed());
  out.metrics["time_solve"] = w.timers.solve;
  return out;
}

// Energy creation the overlap guard cannot see: nothing emitted at rest below the source with e = 0.18 can
// legitimately rise more than 2 d above the source. The emitter adds potential energy all the time, so
// the energy part of the shared guard (core/stability_guard.hpp) does not apply; its overlap and
// finiteness parts (World::check_stability) do.
void check_nothing_flies_up(const World& w, double limit_z) {
  for (std::size_t i = 0; i < w.particles.size(); ++i)
    if (!(w.particles.position[i].z() < limit_z))
      throw InstabilityError(fmt::format("ndem_pile: step {} (t = {:.6g} s): particle {} at z = {:.4g} m, above the "
                                         "source by more than 2 d: the solver created energy (too few iterations "
                                         "for this warm start, or a time step too large)",
                                         w.step, w.time, i, w.particles.position[i].z()),
                             w.step);
}

RunResult run_pile(const Parameters& p, RunContext& ctx) {
  const double d = p.real("diameter");
  const auto count = std::size_t(p.integer("count"));
  World w;
  w.gravity.g = Vec3(0, 0, -p.real("gravity"));
  w.add_material(material_from_parameters(p, "pile"));
  Wall ground;
  ground.name = "ground";
  ground.shape = PlaneShape{};
  w.add_wall(ground);

  NdemSettings s;
  s.time_step = p.real("dt");
  s.iterations = int(p.integer("iterations"));
  s.warm_start = parse_warm_start(p.text("warm_start"));
  s.warm_start_beta = p.real("warm_start_beta");
  s.model_warm_start_factor = p.real("model_warm_start_factor");
  s.impact_velocity = p.real("impact_velocity");
  s.damping_time = p.real("damping_time");
  NdemStepper ndem(s);

  const double rate = p.real("emission_rate");
  if (rate * s.time_step > 1.0)  // so that the source never overshoots `count`
    throw InputError(fmt::format("ndem_pile: emission_rate * dt = {} * {} > 1: at most one particle per step (the "
                                 "run stops the source after exactly `count` particles)", rate, s.time_step));
  const double height = p.real("source_height") * d, half = p.real("source_width") * d / 2;
  if (!(half >= d / 2)) throw InputError(fmt::format("ndem_pile: source_width = {} d must be >= 1 d", p.real("source_width")));
  sources::EmitterSettings es;
  es.rate = rate;
  // Centres at the source height (a slab a hair thicker than d, so that a sphere fits whatever the rounding).
  const double slab = 0.5 * d * (1 + 1e-9);
  es.region.lo = Vec3(-half, -half, height - slab);
  es.region.hi = Vec3(half, half, height + slab);
  es.radii = sources::RadiusDistribution::mono(d / 2);
  es.seed = std::uint64_t(p.integer("seed"));
  sources::ParticleEmitter emitter(es);

  const std::string on_instability = p.text("on_instability");
  // The source emits until `count` particles are in: a particle whose random centres all overlap the ones
  // still falling through the 3d-wide opening is retried at the next emission (the opening passes about
  // 75 particles/s started at rest, d = 13 mm), so `emission_rate` is the nominal rate and the measured
  // `last_emission_time` says how long it took. A source blocked for `max_emission_time` (the pile has
  // reached it) stops: `emitted` < count.
  const double rest_time = p.real("rest_time"), max_emission_time = p.real("max_emission_time");
  const int sample_every = std::max(1, int(std::lround(p.real("sample_interval") / s.time_step)));

  PileMeasureSettings ms;
  ms.rest_speed = p.real("rest_speed");
  ms.bin_width = d;
  TimeSeries series{{"time", "height_d", "height_top5_d", "height_centroid_d", "particles", "resting_fraction"}, {}};
  double last_emission = 0;
  try {
    for (int k = 0;; ++k) {
      const bool emitting = emitter.inserted() < count && w.time < max_emission_time;
      if (!emitting && w.time >= last_emission + rest_time - 1e-9 * s.time_step) break;
      if (emitting && emitter.emit(w, s.time_step) > 0) last_emission = w.time;
      ndem.step(w);
      w.check_stability(s.max_overlap_ratio);  // the shared guard's overlap and finiteness parts
      check_nothing_flies_up(w, height + 2 * d);
      if ((k + 1) % sample_every == 0) {
        const PileMeasures m = measure_pile(w.particles, ms);
        series.rows.push_back({w.time, m.height / d, m.height_top / d, m.height_centroid / d, double(w.particles.size()),
                               w.particles.size() ? double(m.resting) / double(w.particles.size()) : 0.0});
      }
      if (ctx.progress && k % 200 == 0)
        ctx.progress(std::min(1.0, w.time / (double(count) / rate + rest_time)));
    }
  } catch (const InstabilityError&) {
    if (on_instability == "fail") throw;
    return diverged(w, emitter);
  }

  const PileMeasures m = measure_pile(w.particles, ms);
  // Melting after the source stopped (P4-C20, C32): slope of the centroid height over the samples from
  // `melt_window_delay` after the last emission (the last particles have landed) to the end.
  std::vector<double> t, h;
  for (const auto& row : series.rows)
    if (row[0] >= last_emission + p.real("melt_window_delay") && std::isfinite(row[3])) {
      t.push_back(row[0]);
      h.push_back(row[3]);
    }
  const double melt = t.size() >= 2 ? -fit_line(t, h).slope : std::numeric_limits<double>::quiet_NaN();
  RunResult out;
  out.metrics["pile_height"] = m.height;
  out.metrics["pile_height_d"] = m.height / d;
  out.metrics["pile_height_top5"] = m.height_top;
  out.metrics["pile_height_centroid"] = m.height_centroid;
  out.metrics["angle_of_repose"] = m.angle_deg;
  out.metrics["flank_bins"] = m.flank_bins;
  out.metrics["melt_rate_d_per_s"] = melt;
  out.metrics["rest_height_change"] = h.size() >= 2 ? (h.back() - h.front()) / h.front() : std::numeric_limits<double>::quiet_NaN();
  out.metrics["resting_fraction"] = w.particles.size() ? double(m.resting) / double(w.particles.size()) : 0.0;
  out.metrics["emitted"] = double(emitter.inserted());
  out.metrics["emission_failed"] = double(emitter.failed());
  out.metrics["last_emission_time"] = last_emission;
  out.metrics["max_overlap_over_d"] = ndem.stats().max_overlap_over_d;
  out.metrics["contacts"] = double(ndem.stats().contacts);
  out.metrics["diverged"] = 0;
  out.metrics["diverged_time"] = std::numeric_limits<double>::quiet_NaN();
  out.metrics["time_solve"] = w.timers.solve;
  out.series["height"] = std::move(series);
  TimeSeries profile{{"rho_d", "surface_d"}, {}};
  for (std::size_t b = 0; b < m.surface.size(); ++b)
    if (std::isfinite(m.surface[b])) profile.rows.push_back({double(b) + 0.5, m.surface[b] / d});
  out.series["profile"] = std::move(profile);
  return out;
}

const ExperimentRegistration reg{Experiment{
    .name = "ndem_pile",
    .description = "pile formed on a ground plane by a continuous source, NDEM engine: pile height, angle of "
                   "repose, height vs time (Paper IV E2, 000 l.1654-1664)",
    .parameters =
        {
            {"count", ParamType::integer, "-", std::int64_t(3363), 1.0, 1e6, "particles emitted N_p"},
            {"diameter", ParamType::real, "m", 0.013, 1e-6, 10.0, "sphere diameter d"},
            {"density", ParamType::real, "kg/m^3", 3700.0, 1e-3, 1e5, "particle density"},
            {"youngs_modulus", ParamType::real, "Pa", 6e6, 1.0, 1e15, "Young's modulus E"},
            {"poisson_ratio", ParamType::real, "-", 0.25, -0.99, 0.49, "Poisson ratio"},
            {"restitution", ParamType::real, "-", 0.18, 0.0, 1.0, "restitution e"},
            {"friction", ParamType::real, "-", 0.91, 0.0, 100.0, "friction mu_s"},
            {"rolling_friction", ParamType::real, "-", 0.32, 0.0, 100.0, "rolling resistance mu_r"},
            {"gravity", ParamType::real, "m/s^2", 9.81, 0.0, 1e3, "gravity magnitude"},
            {"dt", ParamType::real, "s", 0.005, 1e-9, 1.0, "time step"},
            {"iterations", ParamType::integer, "-", std::int64_t(50), 1.0, 1e7, "PGS iterations N_it (impact stage too)"},
            {"warm_start", ParamType::text, "", std::string("cold"), {}, {},
             "cold | history | history_normal_only | history_no_velocity_update | model",
             {"cold", "history", "history_normal_only", "history_no_velocity_update", "model"}},
            {"warm_start_beta", ParamType::real, "-", 0.85, 0.0, 1.0, "beta of the history warm starts (Eq. 7)"},
            {"model_warm_start_factor", ParamType::real, "-", -1.0, -1.0, 100.0,
             "prefactor f of Eq. 9 for warm_start = model; < 0: 1/e_H = 4/5 (the paper prints 5/4)"},
            {"impact_velocity", ParamType::real, "m/s", 0.05, -1.0, 1e3, "v_imp (< 0: rule 0.02 d / dt, Paper III)"},
            {"damping_time", ParamType::real, "s", 0.001, 0.0, 10.0,
             "Hertz damping time c: tau_n = max(2 dt, c / e_H) (ledger 0.4 default 1 ms; no effect for dt >= 0.4 ms)"},
            {"source_height", ParamType::real, "d", 15.0, 1.0, 1e4, "height of the source's particle centres above the ground"},
            {"source_width", ParamType::real, "d", 3.0, 1.0, 1e4, "side of the square source"},
            {"emission_rate", ParamType::real, "1/s", 200.0, 1e-3, 1e7, "particles emitted per second (at rest)"},
            {"rest_time", ParamType::real, "s", 10.0, 0.0, 1e4, "simulated time after the last emission"},
            {"max_emission_time", ParamType::real, "s", 1e3, 0.0, 1e6,
             "the source stops after this time even if fewer than `count` particles are in (pile reached it)"},
            {"seed", ParamType::integer, "-", std::int64_t(1), 0.0, 9e15, "seed of the source positions"},
            {"rest_speed", ParamType::real, "m/s", 0.01, 0.0, 1e3, "a particle slower than this rests (height, angle)"},
            {"sample_interval", ParamType::real, "s", 0.1, 1e-6, 1e4, "interval of the height series"},
            {"melt_window_delay", ParamType::real, "s", 1.0, 0.0, 1e4,
             "the melt rate is fitted from this long after the last emission to the end"},
            {"on_instability", ParamType::text, "", std::string("fail"), {}, {},
             "fail: a diverging run fails; record: it returns diverged = 1 and NaN heights", {"fail", "record"}},
        },
    .run = run_pile}};

}  // namespace
}  // namespace grainlab
