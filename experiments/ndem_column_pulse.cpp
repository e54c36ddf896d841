// Experiment ndem_column_pulse: the effective PGS "sound speed" of Paper IV (000 l.1552; 001 l.17;
// background from Paper I, 000 l.548: v_PGS = sqrt(N_it) d / Dt, "numeric elasticity").
//
// A column of N_p spheres on a floor settles under gravity at the N_it under test (the Paper IV E1
// column, Table 1 material). Then the floor is tapped: it moves up at tap_velocity for tap_steps steps
// (a step displacement Delta = v_tap tap_steps Dt) and stops. The same settled state is also continued
// without the tap; the difference of the two runs is the pure response u_j(t) of sphere j (the settling
// drift of an under-iterated column cancels). A sphere "has been reached" when u_j >= arrival_fraction
// Delta; arrival_time is that moment for the top sphere, counted from the start of the tap, and
// front_speed = (N_p - 1/2) d / arrival_time (the paper counts distance in diameters).
//
// The tap stays below v_imp (Table 1: 0.05 m/s) so that only the continuous (SPOOK) stage sees it: an
// impact would make the Newton stage treat the whole column as rigid (G v+ = 0) for one step.
// Sweep order (sweep_direction): the serial PGS visits contacts in key order, i.e. in particle creation
// order, pairs first, then wall contacts (core/collision.hpp). "up" stacks sphere 0 at the bottom, so a
// sweep runs bottom to top (with the floor last); "down" stacks sphere 0 at the top, so a sweep runs top
// to bottom; "random" stacks upwards and draws a fresh permutation per sweep (NdemContactOrder::random).
// Metrics and their use: docs/paper4_rapid.md.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/hertz.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/stability_guard.hpp"
#include "experiments/experiment.hpp"
#include "experiments/material_parameters.hpp"

namespace grainlab {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// Sphere index at height rank h (0 = bottom) for a column stacked in the given direction.
int sphere_at(int rank, int n, bool top_first) { return top_first ? n - 1 - rank : rank; }

RunResult run_pulse(const Parameters& p, RunContext& ctx) {
  const int n = int(p.integer("count"));
  const double d = p.real("diameter");
  const double dt = p.real("dt");
  const std::string direction = p.text("sweep_direction");
  if (direction != "up" && direction != "down" && direction != "random")
    throw InputError(fmt::format("ndem_column_pulse: sweep_direction = '{}' is invalid (up, down, random)", direction));
  const bool top_first = direction == "down";
  const double v_tap = p.real("tap_velocity");
  const int tap_steps = int(p.integer("tap_steps"));
  const double v_imp = p.real("impact_velocity");
  if (v_imp >= 0 && v_tap >= v_imp)
    throw InputError(fmt::format("ndem_column_pulse: tap_velocity = {} m/s must stay below impact_velocity = {} m/s "
                                 "(an impact makes the whole column rigid in the Newton stage; the test is about the "
                                 "continuous PGS solve)", v_tap, v_imp));
  const double fraction = p.real("arrival_fraction");

  World w;
  w.gravity.g = Vec3(0, 0, -p.real("gravity"));
  w.add_material(material_from_parameters(p, "column"));
  Wall floor;
  floor.name = "floor";
  floor.shape = PlaneShape{};
  w.add_wall(floor);
  // A small initial overlap makes every contact a constraint from the first step (no free fall of the
  // stack into itself; see ndem_column's initial_overlap).
  const double pre = p.real("initial_overlap") * d;
  for (int i = 0; i < n; ++i) {
    const int rank = top_first ? n - 1 - i : i;
    w.add_sphere(Vec3(0, 0, d / 2 - pre + rank * (d - pre)), d / 2, 0);
  }
  // Perfect 1D column: rotation locked (Paper I 000 l.598); the centres stay on the axis by symmetry.
  for (std::size_t i = 0; i < w.particles.size(); ++i) w.particles.inv_inertia[i] = 0;

  NdemSettings s;
  s.time_step = dt;
  s.iterations = int(p.integer("iterations"));
  s.warm_start = parse_warm_start(p.text("warm_start"));
  s.warm_start_beta = p.real("warm_start_beta");
  s.impact_velocity = v_imp;
  s.contact_order = direction == "random" ? NdemContactOrder::random : NdemContactOrder::sequential;
  s.contact_order_seed = std::uint64_t(p.integer("contact_order_seed"));
  NdemStepper settle(s);
  // Passive while settling (static floor): the energy guard of ndem_column (limit from the parameter).
  const StabilityGuard guard(w, {.max_energy_gain = p.real("max_energy_gain"), .max_overlap_ratio = s.max_overlap_ratio},
                             "ndem_column_pulse");
  const int settle_steps = int(std::ceil(p.real("settle_time") / dt - 1e-9));
  for (int k = 0; k < settle_steps; ++k) {
    settle.step(w);
    guard.check(w);
    if (ctx.progress && k % 100 == 0) ctx.progress(0.5 * k / settle_steps);
  }
  const int top = sphere_at(n - 1, n, top_first);
  const double height = w.particles.position[top].z();  // distance the tap travels: floor to the top centre

  // Two continuations of the settled state with identical solver state (the random order's generator too).
  World tapped = w, still = w;
  NdemStepper solver_tapped = settle, solver_still = settle;
  const int observe_steps = int(std::ceil(p.real("observe_time") / dt - 1e-9));
  const double delta = v_tap * dt * tap_steps;
  std::vector<double> arrival(n, nan);  // per height rank
  TimeSeries response{{"time", "u_bottom_over_delta", "u_middle_over_delta", "u_top_over_delta"}, {}};
  const int bottom = sphere_at(0, n, top_first), middle = sphere_at(n / 2, n, top_first);
  double max_u_top = -std::numeric_limits<double>::infinity();
  for (int k = 0; k < observe_steps; ++k) {
    tapped.walls[0].velocity = Vec3(0, 0, k < tap_steps ? v_tap : 0.0);
    solver_tapped.step(tapped);
    solver_still.step(still);
    // Driven floor: no energy test (the floor does work); the overlap and finiteness limits stay.
    tapped.check_stability(s.max_overlap_ratio);
    const double t = (k + 1) * dt;
    auto u = [&](int i) { return (tapped.particles.position[i].z() - still.particles.position[i].z()) / delta; };
    for (int rank = 0; rank < n; ++rank)
      if (std::isnan(arrival[rank]) && u(sphere_at(rank, n, top_first)) >= fraction) arrival[rank] = t;
    max_u_top = std::max(max_u_top, u(top));
    response.rows.push_back({t, u(bottom), u(middle), u(top)});
    if (ctx.progress && k % 100 == 0) ctx.progress(0.5 + 0.5 * k / observe_steps);
  }

  TimeSeries front{{"rank", "height_over_d", "arrival_time", "arrival_steps"}, {}};
  for (int rank = 0; rank < n; ++rank)
    front.rows.push_back({double(rank), tapped.particles.position[sphere_at(rank, n, top_first)].z() / d,
                          arrival[rank], arrival[rank] / dt});
  const double t_top = arrival[n - 1];
  const double v_pgs = std::sqrt(double(s.iterations)) * d / dt;  // Paper IV's formula (000 l.1552)
  // The physical reference: the travel time of a small-amplitude wave through the resting Hertz chain,
  // sum over the contacts of d / c_j with c_j = d sqrt(k_j / m) and the tangent stiffness of the contact
  // carrying the weight W_j of the spheres above it, k_j = (3/2) k_n^{2/3} W_j^{1/3} (the engine's k_n).
  const double mass = w.particles.mass[0], weight = mass * p.real("gravity");
  const Material& mat = w.materials[0];
  const double kn = hertz_stiffness(mat.youngs_modulus / (2 * (1 - mat.poisson_ratio * mat.poisson_ratio)), d / 4);
  double hertz_time = 0;
  for (int j = 1; j < n; ++j) hertz_time += std::sqrt(mass / (1.5 * std::cbrt(kn * kn * j * weight)));
  RunResult out;
  out.metrics["hertz_front_speed"] = weight > 0 ? (n - 0.5) * d / hertz_time : nan;
  out.metrics["arrival_time"] = t_top;
  out.metrics["arrival_steps"] = t_top / dt;
  // In the paper's units (distance = contacts crossed x d, 000 l.1552): (N_p - 1/2) d from the floor to the
  // top centre of the uncompressed column. An under-iterated column is compressed far beyond Hertz (N_it = 3:
  // to about half its height), so the speed over its actual height is reported beside it.
  const double nominal = (n - 0.5) * d;
  out.metrics["front_speed"] = nominal / t_top;
  out.metrics["front_speed_actual"] = height / t_top;
  out.metrics["v_pgs_paper"] = v_pgs;
  out.metrics["speed_over_v_pgs"] = nominal / t_top / v_pgs;
  // Contacts the front crosses per step: the paper's sqrt(N_it) is the diffusive reach of N_it sweeps.
  out.metrics["contacts_per_step"] = (n - 0.5) / (t_top / dt);
  out.metrics["max_u_top_over_delta"] = max_u_top;
  out.metrics["column_height"] = height + d / 2;
  out.metrics["time_solve"] = tapped.timers.solve + still.timers.solve;
  out.series["response"] = std::move(response);
  out.series["front"] = std::move(front);
  return out;
}

const ExperimentRegistration reg{Experiment{
    .name = "ndem_column_pulse",
    .description = "Tap the floor under a settled NDEM column and time the arrival of the step at the top: the "
                   "effective PGS sound speed v_PGS = sqrt(N_it) d/Dt (Paper IV 000 l.1552)",
    .parameters =
        {
            {"count", ParamType::integer, "-", std::int64_t(100), 2.0, 1000.0, "number of spheres N_p"},
            {"diameter", ParamType::real, "m", 0.013, 1e-6, 10.0, "sphere diameter d"},
            {"density", ParamType::real, "kg/m^3", 3700.0, 1e-3, 1e5, "particle density"},
            {"youngs_modulus", ParamType::real, "Pa", 6e6, 1.0, 1e15, "Young's modulus E"},
            {"poisson_ratio", ParamType::real, "-", 0.25, -0.99, 0.49, "Poisson ratio"},
            {"restitution", ParamType::real, "-", 0.18, 0.0, 1.0, "restitution e"},
            {"friction", ParamType::real, "-", 0.91, 0.0, 100.0, "friction mu"},
            {"rolling_friction", ParamType::real, "-", 0.32, 0.0, 100.0, "rolling resistance mu_r"},
            {"gravity", ParamType::real, "m/s^2", 9.81, 0.0, 1e3, "gravity magnitude"},
            {"dt", ParamType::real, "s", 0.005, 1e-6, 1.0, "time step"},
            {"iterations", ParamType::integer, "-", std::int64_t(100), 1.0, 1e7, "PGS iterations N_it (always all)"},
            {"warm_start", ParamType::text, "", std::string("cold"), {}, {},
             "cold | history | history_normal_only | history_no_velocity_update | model",
             {"cold", "history", "history_normal_only", "history_no_velocity_update", "model"}},
            {"warm_start_beta", ParamType::real, "-", 0.85, 0.0, 1.0, "beta of the history warm starts (Eq. 7)"},
            {"impact_velocity", ParamType::real, "m/s", 0.05, -1.0, 1e3, "v_imp (< 0: rule 0.02 d / dt)"},
            {"initial_overlap", ParamType::real, "d", 0.001, 0.0, 0.1, "overlap of every contact of the initial stack"},
            {"sweep_direction", ParamType::text, "", std::string("up"), {}, {},
             "PGS contact order along the column: up (bottom to top) | down (top to bottom) | random (a permutation "
             "per sweep)",
             {"up", "down", "random"}},
            {"contact_order_seed", ParamType::integer, "-", std::int64_t(1), 0.0, 9e15, "seed of the random order"},
            {"settle_time", ParamType::real, "s", 4.0, 0.0, 1e4, "settling before the tap, at the N_it under test"},
            {"tap_velocity", ParamType::real, "m/s", 0.02, 1e-9, 1e3, "floor speed during the tap (below v_imp)"},
            {"tap_steps", ParamType::integer, "-", std::int64_t(1), 1.0, 1e6, "steps the floor moves up"},
            {"observe_time", ParamType::real, "s", 2.0, 1e-6, 1e4, "time observed after the tap starts"},
            {"arrival_fraction", ParamType::real, "-", 0.5, 1e-3, 1.0,
             "a sphere is reached when its displacement response is this fraction of the floor's step"},
            {"max_energy_gain", ParamType::real, "-", 1000.0, 0.0, 1e6,
             "stability guard while settling (tall columns bounce; see studies/paper4_e1_column.toml)"},
        },
    .run = run_pulse}};

}  // namespace
}  // namespace grainlab
