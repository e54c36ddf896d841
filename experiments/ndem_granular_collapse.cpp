// Experiment ndem_granular_collapse: Paper V E2, the granular collapse (000 l.2124, 2143-2176; ledger
// ../shared/claims/paper5.md E2). Bi-disperse spheres (13 / 10 mm, 50/50 by number) poured at random
// into a cube of side `box_side` d_large with frictionless side walls and a frictional floor (P12), settled
// without reduction until every particle is slower than `rest_speed` (or `settle_max`), then model
// reduction is switched on for `premerge_time` (the cube may start as an aggregate) and at t = 0 the +x
// wall rises at `wall_speed`. Measured over `collapse_time`: the inclination theta(t) of the least-squares
// plane through the particles that formed the top surface at release, still in the main contact network
// (000 l.2124), the final slope angle of the free surface at t = collapse_time (Fig. 9), the collapse
// duration, h(t) from the stepper and the largest h the merge tests allow on each frame (P5-C36).
// Choices the paper leaves open: docs/paper5_collapse.md.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/stability_guard.hpp"
#include "core/sources/fill.hpp"
#include "experiments/collapse_measures.hpp"
#include "experiments/experiment.hpp"
#include "experiments/material_parameters.hpp"
#include "experiments/reduction_parameters.hpp"

namespace grainlab {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Wall side_wall(std::string name, const Vec3& center, const Vec3& normal, const Vec3& u, double half_u, double half_v,
               std::uint16_t material) {
  Wall w;
  w.name = std::move(name);
  RectangleShape s;
  s.center = center;
  s.normal = normal;
  s.u_axis = u;
  s.half_u = half_u;
  s.half_v = half_v;
  w.shape = s;
  w.material = material;
  return w;
}

double max_speed(const World& w, const std::vector<char>* mask = nullptr) {
  double v = 0;
  for (std::size_t i = 0; i < w.particles.size(); ++i)
    if (!mask || (*mask)[i]) v = std::max(v, w.particles.velocity[i].norm());
  return v;
}

double mean_speed(const World& w, const std::vector<char>& mask) {
  double sum = 0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < w.particles.size(); ++i)
    if (mask[i]) sum += w.particles.velocity[i].norm(), ++n;
  return n ? sum / double(n) : 0.0;
}

// theta(t): the plane through the tracked top-surface particles still in the main network and above the
// floor layer (a particle that ran out onto the floor no longer belongs to the slope).
PlaneFit tracked_plane(const World& w, const std::vector<std::size_t>& tracked, const std::vector<char>& network,
                       double floor_layer) {
  std::vector<Vec3> pts;
  for (std::size_t i : tracked)
    if (network[i] && w.particles.position[i].z() >= floor_layer) pts.push_back(w.particles.position[i]);
  return fit_plane(pts);
}

// The free slope (Fig. 9): column tops of the main network in the mid section y in [2 d, L - 2 d] (away
// from the side walls' ends), above the floor layer and more than 1 d below the highest column (the
// undisturbed flat top is not slope).
PlaneFit slope_plane(const World& w, const std::vector<char>& network, double d, double side) {
  const auto& P = w.particles;
  const auto tops = column_tops(P.position, P.radius, network, d);
  double highest = -1e300;
  for (std::size_t i : tops) highest = std::max(highest, P.position[i].z());
  std::vector<Vec3> pts;
  for (std::size_t i : tops) {
    const Vec3& x = P.position[i];
    if (x.y() >= 2 * d && x.y() <= side - 2 * d && x.z() >= d && x.z() < highest - d) pts.push_back(x);
  }
  return fit_plane(pts);
}

RunResult run_collapse(const Parameters& p, RunContext& ctx) {
  const double d1 = p.real("diameter_large"), d2 = p.real("diameter_small");
  if (!(d2 <= d1)) throw InputError(fmt::format("ndem_granular_collapse: diameter_small = {} must be <= diameter_large = {}", d2, d1));
  const double side = p.real("box_side") * d1;
  const auto count = std::size_t(p.integer("count"));

  World w;
  w.gravity.g = Vec3(0, 0, -p.real("gravity"));
  const std::uint16_t grain = w.add_material(material_from_parameters(p, "particles"));
  Material smooth = w.materials[grain];
  smooth.name = "side walls";
  smooth.friction = p.real("side_wall_friction");
  smooth.rolling_friction = 0;
  const std::uint16_t side_material = w.add_material(smooth);

  // Pour region: the cube's footprint, as tall as `count` spheres need at `pour_fraction`.
  const double f1 = p.real("fraction_large");
  const double solid = double(count) * M_PI / 6 * (f1 * d1 * d1 * d1 + (1 - f1) * d2 * d2 * d2);
  const double pour_height = solid / (p.real("pour_fraction") * side * side);
  const double wall_height = pour_height + side;

  Wall floor;
  floor.name = "floor";
  floor.shape = PlaneShape{};
  floor.material = grain;  // frictional floor (P12)
  w.add_wall(floor);
  const double hu = side / 2, hv = wall_height / 2;
  w.add_wall(side_wall("back", Vec3(0, hu, hv), Vec3::UnitX(), Vec3::UnitY(), hu, hv, side_material));
  const std::size_t front =
      w.add_wall(side_wall("front", Vec3(side, hu, hv), -Vec3::UnitX(), Vec3::UnitY(), hu, hv, side_material));
  w.add_wall(side_wall("left", Vec3(hu, 0, hv), Vec3::UnitY(), Vec3::UnitX(), hu, hv, side_material));
  w.add_wall(side_wall("right", Vec3(hu, side, hv), -Vec3::UnitY(), Vec3::UnitX(), hu, hv, side_material));

  sources::RandomFill fill;
  fill.region = sources::BoxRegion{Vec3::Zero(), Vec3(side, side, pour_height)};
  fill.radii = sources::RadiusDistribution::bidisperse(d1 / 2, d2 / 2, f1);
  fill.count = count;
  fill.material = grain;
  fill.seed = std::uint64_t(p.integer("seed"));
  sources::random_fill(w, fill);

  NdemSettings s;
  s.time_step = p.real("dt");
  s.law = NdemContactLaw::linear;
  s.linear_stiffness = p.real("stiffness");
  s.impact_velocity = p.real("impact_velocity");
  s.impact_epsilon = p.real("impact_epsilon");
  s.damping_time = p.real("damping_time");
  s.warm_start = parse_warm_start(p.text("warm_start"));
  NdemSettings settle_settings = s;
  settle_settings.iterations = int(p.integer("settle_iterations"));
  s.iterations = int(p.integer("iterations"));
  s.reduction = reduction_settings(p);
  if (reduction_uses_sensors(p))
    throw InputError("ndem_granular_collapse: reduction = \"cs\" needs sensors, and the collapse has none (the paper "
                     "ran no cs collapse, 000 l.2143); use c, tr or ctr");
  const double dt = s.time_step;
  const double settle_min = p.real("settle_min"), settle_max = p.real("settle_max");
  const double premerge = p.real("premerge_time"), collapse_time = p.real("collapse_time");
  const double total = settle_max + premerge + collapse_time;

  // The shared guard, energy part included: the system is passive (static floor; the raised wall is
  // frictionless and moves along its own plane, so it does no work), so the mechanical energy only falls.
  const StabilityGuard guard(w, StabilityLimits{2.0, s.max_overlap_ratio}, "ndem_granular_collapse");

  // 1. Settle (no reduction; every run starts from the same packing whatever its N_it).
  NdemStepper settle(settle_settings);
  double settle_time = 0;
  bool at_rest = false;
  while (w.time < settle_max - 0.5 * dt) {
    settle.step(w);
    guard.check(w);
    if (w.time >= settle_min - 0.5 * dt && max_speed(w) < p.real("rest_speed")) {
      at_rest = true;
      break;
    }
    if (ctx.progress && w.step % 50 == 0) ctx.progress(w.time / total);
  }
  settle_time = w.time;
  const double settle_speed = max_speed(w);

  // 2. Reduction on, walls still closed, then release at t = 0.
  NdemStepper ndem(s);
  const double release = w.time + premerge;
  const auto steps_of = [dt](double t) { return int(std::lround(t / dt)); };
  for (int k = 0; k < steps_of(premerge); ++k) {
    ndem.step(w);
    guard.check(w);
  }

  const auto& P = w.particles;
  const double gap = p.real("network_gap") * d2;
  std::vector<char> network = main_contact_network(P.size(), w.contacts(), gap);
  const std::vector<std::size_t> tracked = top_surface(P.position, P.radius, network, d1, d1);
  double packing_top = 0;
  for (std::size_t i = 0; i < P.size(); ++i) packing_top = std::max(packing_top, P.position[i].z() + P.radius[i]);
  const double floor_layer = d1;  // centres below one large diameter lie on the floor

  w.walls[front].velocity = Vec3(0, 0, p.real("wall_speed"));
  const ReductionThresholds merge{s.reduction.merge};
  const int sample_every = std::max(1, steps_of(p.real("sample_interval")));
  TimeSeries series{{"time", "angle_deg", "slope_angle_deg", "h", "h_free_only", "h_dof", "h_theory", "max_speed",
                     "mean_speed", "network", "aggregates", "front_wall_bottom"},
                    {}};
  std::vector<Vec3> v_prev = P.velocity, w_prev = P.angular_velocity;
  double peak_max_speed = 0, peak_mean_speed = 0;
  const int collapse_steps = steps_of(collapse_time);
  for (int k = 1; k <= collapse_steps; ++k) {
    v_prev = P.velocity;
    w_prev = P.angular_velocity;
    ndem.step(w);
    guard.check(w);
    if (k % sample_every != 0 && k != collapse_steps) continue;
    network = main_contact_network(P.size(), w.contacts(), gap);
    FrameState frame{P.position, P.velocity, P.angular_velocity, v_prev, w_prev, P.mass, w.contacts(), w.gravity.g, dt};
    const MergePotential pot =
        merge_potential(frame, merge, s.reduction.merge_normal_acceleration, s.reduction.merge_force_balance);
    const ReductionStats& red = ndem.stats().reduction;
    const double t = w.time - release;
    const double vmax = max_speed(w, &network), vmean = mean_speed(w, network);
    peak_max_speed = std::max(peak_max_speed, vmax);
    peak_mean_speed = std::max(peak_mean_speed, vmean);
    std::size_t in_network = 0;
    for (char c : network) in_network += c;
    series.rows.push_back({t, tracked_plane(w, tracked, network, floor_layer).angle_deg,
                           slope_plane(w, network, d1, side).angle_deg, red.level, red.level_free_only, red.level_dof,
                           pot.level, vmax, vmean, double(in_network), double(red.aggregates),
                           std::get<RectangleShape>(w.walls[front].shape).center.z() - hv});
    if (ctx.progress) ctx.progress((settle_time + premerge + t) / total);
  }

  // Scalars from the series.
  const auto col = [&](const char* name) {
    return std::size_t(std::find(series.columns.begin(), series.columns.end(), name) - series.columns.begin());
  };
  const std::size_t T = col("time"), A = col("angle_deg"), H = col("h"), HT = col("h_theory"), VX = col("max_speed"),
                    VM = col("mean_speed");
  double angle_max = -1, angle_max_time = kNaN;
  for (const auto& r : series.rows)
    if (std::isfinite(r[A]) && r[A] > angle_max) angle_max = r[A], angle_max_time = r[T];
  // Collapse duration (P5-C30; ledger: "until max particle speed < 1 % of the peak"). The largest speed is
  // set by single rattlers that flare up long after the bulk has stopped (0.27 m/s at t = 0.8 s while the
  // mean is 1.6 mm/s in the quick ref-150 run), so the time it last exceeds 1 % of its peak measures the
  // rattlers; the mean speed of the main network first falling below 1 % of its peak measures the bulk.
  const auto last_above = [&](std::size_t c, double threshold) {
    double t_end = 0;
    for (const auto& r : series.rows)
      if (r[c] >= threshold) t_end = r[T];
    return t_end;
  };
  const auto first_below_after_peak = [&](std::size_t c, double peak) {
    bool peaked = false;
    for (const auto& r : series.rows) {
      peaked = peaked || r[c] >= peak;
      if (peaked && r[c] < 0.01 * peak) return r[T];
    }
    return kNaN;
  };
  const double early = p.real("early_time");
  double angle_early = kNaN;
  for (const auto& r : series.rows)
    if (std::abs(r[T] - early) <= 0.5 * dt * sample_every) angle_early = r[A];
  const double window_from = p.real("h_window_from");
  double h_min = 1e300, h_max = -1e300, h_sum = 0, h_sq = 0, ht_sum = 0, ht_min = 1e300, ht_max = -1e300;
  std::size_t nw = 0;
  for (const auto& r : series.rows) {
    if (r[T] < window_from - 1e-9) continue;
    h_min = std::min(h_min, r[H]), h_max = std::max(h_max, r[H]);
    h_sum += r[H], h_sq += r[H] * r[H];
    ht_sum += r[HT], ht_min = std::min(ht_min, r[HT]), ht_max = std::max(ht_max, r[HT]);
    ++nw;
  }
  const double h_mean = nw ? h_sum / double(nw) : kNaN;

  network = main_contact_network(P.size(), w.contacts(), gap);
  const PlaneFit final_slope = slope_plane(w, network, d1, side);
  const PlaneFit final_tracked = tracked_plane(w, tracked, network, floor_layer);
  double runout = 0;
  for (std::size_t i = 0; i < P.size(); ++i)
    if (network[i]) runout = std::max(runout, P.position[i].x() + P.radius[i]);

  RunResult out;
  out.metrics["angle_final"] = final_slope.angle_deg;
  out.metrics["angle_final_points"] = double(final_slope.points);
  out.metrics["angle_tracked_final"] = final_tracked.angle_deg;
  out.metrics["angle_max"] = angle_max;
  out.metrics["angle_max_time"] = angle_max_time;
  out.metrics["angle_drop_after_max"] = angle_max - final_tracked.angle_deg;
  out.metrics["angle_early"] = angle_early;
  out.metrics["collapse_duration"] = first_below_after_peak(VM, peak_mean_speed);
  out.metrics["collapse_duration_max_speed"] = last_above(VX, 0.01 * peak_max_speed);
  out.metrics["peak_speed"] = peak_max_speed;
  out.metrics["h_mean"] = h_mean;
  out.metrics["h_min"] = nw ? h_min : kNaN;
  out.metrics["h_max"] = nw ? h_max : kNaN;
  out.metrics["h_std"] = nw ? std::sqrt(std::max(0.0, h_sq / double(nw) - h_mean * h_mean)) : kNaN;
  out.metrics["h_theory_mean"] = nw ? ht_sum / double(nw) : kNaN;
  out.metrics["h_theory_min"] = nw ? ht_min : kNaN;
  out.metrics["h_theory_max"] = nw ? ht_max : kNaN;
  out.metrics["h_gap_to_theory"] = nw ? ht_sum / double(nw) - h_mean : kNaN;
  out.metrics["tracked_particles"] = double(tracked.size());
  out.metrics["packing_height_d"] = packing_top / d1;
  out.metrics["runout_d"] = runout / d1;
  out.metrics["settle_time"] = settle_time;
  out.metrics["settle_max_speed"] = settle_speed;
  out.metrics["settled"] = at_rest ? 1.0 : 0.0;
  out.metrics["particles"] = double(P.size());
  out.metrics["max_overlap_over_d"] = ndem.stats().max_overlap_over_d;
  out.metrics["time_solve"] = w.timers.solve;
  out.metrics["time_reduction"] = w.timers.reduction;
  out.series["collapse"] = std::move(series);
  return out;
}

std::vector<ParameterSpec> collapse_parameters() {
  std::vector<ParameterSpec> specs{
      {"count", ParamType::integer, "-", std::int64_t(4000), 10.0, 1e6, "particles N_p (000 l.2124)"},
      {"diameter_large", ParamType::real, "m", 0.013, 1e-4, 1.0, "d_1 (Table 1, 000 l.2080); sets the box"},
      {"diameter_small", ParamType::real, "m", 0.010, 1e-4, 1.0, "d_2 (Table 1)"},
      {"fraction_large", ParamType::real, "-", 0.5, 0.0, 1.0, "number fraction of d_1 (unspecified; ledger 50/50)"},
      {"box_side", ParamType::real, "d", 15.0, 3.0, 1e3, "cube side in d_1 (000 l.2124)"},
      {"pour_fraction", ParamType::real, "-", 0.3, 0.05, 0.34,
       "solid fraction of the random pour above the cube (its height follows)"},
      {"density", ParamType::real, "kg/m^3", 3700.0, 1e-3, 1e5, "rho (Table 1)"},
      {"youngs_modulus", ParamType::real, "Pa", 6e6, 1.0, 1e15, "unused by the linear law; material record only"},
      {"poisson_ratio", ParamType::real, "-", 0.25, -0.99, 0.49, "unused by the linear law"},
      {"stiffness", ParamType::real, "N/m", 3000.0, 1e-3, 1e12, "k_n of the linear law (Table 1, e_H = 1)"},
      {"restitution", ParamType::real, "-", 0.18, 0.0, 1.0, "e (Table 1)"},
      {"friction", ParamType::real, "-", 0.91, 0.0, 100.0, "mu_t, particles and floor (Table 1; P12)"},
      {"rolling_friction", ParamType::real, "-", 0.32, 0.0, 100.0, "mu_r, particles and floor (Table 1)"},
      {"side_wall_friction", ParamType::real, "-", 0.0, 0.0, 100.0, "side walls are frictionless (000 l.2124)"},
      {"gravity", ParamType::real, "m/s^2", 9.81, 0.0, 1e3, "g (000 l.2093)"},
      {"dt", ParamType::real, "s", 0.005, 1e-6, 1.0, "time step (Table 1)"},
      {"iterations", ParamType::integer, "-", std::int64_t(150), 1.0, 1e6, "N_it of the collapse (ref-150 / ref-500)"},
      {"settle_iterations", ParamType::integer, "-", std::int64_t(150), 1.0, 1e6,
       "N_it while the cube settles (one packing for every run)"},
      {"impact_velocity", ParamType::real, "m/s", -1.0, -1.0, 1e3, "v_imp; < 0: impact_epsilon d / dt (P15)"},
      {"impact_epsilon", ParamType::real, "-", 0.01, 0.0, 1.0, "epsilon of the v_imp rule (ledger P15: 0.01)"},
      {"damping_time", ParamType::real, "s", 0.0, 0.0, 10.0, "viscosity c (not given; tau_n = 2 dt for c < 10 ms)"},
      {"warm_start", ParamType::text, "", std::string("cold"), {}, {}, "PGS warm start (P15: none)",
       {"cold", "history", "history_normal_only", "model"}},
      {"rest_speed", ParamType::real, "m/s", 0.001, 0.0, 10.0, "settled when every particle is slower (ledger E2)"},
      {"settle_min", ParamType::real, "s", 0.5, 0.0, 100.0, "settle at least this long"},
      {"settle_max", ParamType::real, "s", 2.0, 0.0, 100.0, "settle at most this long"},
      {"premerge_time", ParamType::real, "s", 0.1, 0.0, 10.0,
       "reduction runs this long before the wall rises (the cube may start as an aggregate)"},
      {"wall_speed", ParamType::real, "m/s", 1.0, 0.0, 1e3, "speed of the raised wall (unspecified; ledger 1 m/s)"},
      {"collapse_time", ParamType::real, "s", 2.0, 0.01, 100.0, "simulated time after release (Fig. 9: t = 2 s)"},
      {"sample_interval", ParamType::real, "s", 0.02, 1e-4, 10.0, "interval of the theta(t), h(t) series"},
      {"network_gap", ParamType::real, "-", 0.05, 0.0, 1.0,
       "pairs closer than this * d_2 are connected in the contact network"},
      {"early_time", ParamType::real, "s", 0.3, 0.0, 100.0, "angle_early: theta at this time (P5-C31)"},
      {"h_window_from", ParamType::real, "s", 0.0, 0.0, 100.0, "h statistics over t >= this"},
      {"seed", ParamType::integer, "-", std::int64_t(1), 0.0, 9e15, "seed of the random pour"},
  };
  for (auto& r : reduction_parameters()) specs.push_back(std::move(r));
  return specs;
}

const ExperimentRegistration reg{Experiment{
    .name = "ndem_granular_collapse",
    .description = "Paper V E2: bi-disperse cube collapse when one frictionless side wall rises; theta(t) of the "
                   "top-surface plane, final slope angle, collapse duration, reduction level h(t) and the merge "
                   "tests' theoretical maximum (000 l.2124, 2162)",
    .parameters = collapse_parameters(),
    .run = run_collapse}};

}  // namespace
}  // namespace grainlab
