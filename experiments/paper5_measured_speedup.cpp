// Experiment `paper5_measured_speedup`: the speed-up that model reduction gives, measured (Paper V Sec. 6,
// seed 000 l.2190-2217: the paper has only the model, Eq. 37-40; its Lua prototype "do not scale sufficiently
// well ... to verify these estimates", l.2211). On a resting pile (experiments/paper5_resting_pile.hpp, Paper
// V settings) the run
//   1. settles the pile for `settle_steps` without reduction (untimed);
//   2. times `measure_steps` unreduced steps (ref): CPU time per step on one thread and the stage split
//      (collision, row set-up, solve = impact + PGS, integration). solve_fraction = solve / step (C09;
//      Paper V cites 88 % from another code, 000 l.2196);
//   3. with `reduction` other than none, switches the reduced stepper on for `merge_steps` (untimed: the
//      aggregates form), then times `measure_steps` reduced steps at the same N_it:
//      speedup = t_step(ref) / t_step(reduced), at the mean reduction level h over the timed steps;
//      delta = t_mod / t_solve(ref) (the overhead of Eq. 39 as a measurement gives it: median wall seconds of
//      the reduction stage per step over the median unreduced solve per step); speedup_eq39 = Eq. 39 at that h and delta.
// `free_top_layers` > 0 with reduction = cs puts a sensor over the top layers of the pyramid, so that they
// stay resolved and h can be set below 1 (the sensor split of 000 l.2050).
// `frozen_fraction` f > 0 (with reduction = none) is an oracle reduction: after the reference timing the
// lowest round(f N_p) spheres are made one rigid aggregate (core/bodies.hpp form_body; their mutual contacts
// leave the solver, mask_self_contacts) and the step is timed the same way. It measures what the reduced
// model itself costs at h = 1 - (N_p - n_f + 1)/N_p, without any merge or split test (delta = 0): the ceiling
// of the speed-up any merge/split implementation can reach on this pile, and Eq. 38's solve-time law.
// Timing is CPU time in a one-thread TBB arena (single-core cost, as the model's K, and unaffected by other
// programs on the machine); timings are reported as time_* metrics (provenance), the ratios as metrics.
// Reads its parameters; writes nothing; one thread.
#include <algorithm>
#include <cmath>

#include <tbb/task_arena.h>

#include "core/error.hpp"
#include "core/stability_guard.hpp"
#include "experiments/experiment.hpp"
#include "experiments/paper5_resting_pile.hpp"
#include "experiments/paper5_speedup_model.hpp"
#include "experiments/reduction_parameters.hpp"

namespace grainlab {
namespace {

RunResult measured_speedup(const Parameters& p, RunContext& ctx) {
  paper5::RestingPile pile;
  pile.layers = int(p.integer("layers"));
  pile.diameter = p.real("diameter");
  pile.density = p.real("density");
  pile.restitution = p.real("restitution");
  pile.friction = p.real("friction");
  pile.rolling_friction = p.real("rolling_friction");
  pile.gravity = p.real("gravity");
  NdemSettings s = paper5::paper5_ndem_settings(p.real("linear_stiffness"), p.real("dt"), int(p.integer("iterations")));
  const int settle = int(p.integer("settle_steps")), merge = int(p.integer("merge_steps")),
            measure = int(p.integer("measure_steps"));
  ReductionSettings reduction = reduction_settings(p);
  const int free_top = int(p.integer("free_top_layers"));
  if (free_top > 0 && !reduction_uses_sensors(p))
    throw InputError("free_top_layers: needs reduction = \"cs\" (the top layers are kept resolved by a sensor)");
  if (free_top >= pile.layers) throw InputError("free_top_layers: must be less than layers");
  const double frozen = p.real("frozen_fraction");
  if (frozen > 0 && reduction.enabled)
    throw InputError("frozen_fraction: the oracle aggregate needs reduction = \"none\" (it replaces the merge)");
  const bool second_phase = reduction.enabled || frozen > 0;

  auto body = [&] {
    World w;
    paper5::build_resting_pile(pile, w);
    const StabilityGuard guard(w, {.max_energy_gain = 2.0, .max_overlap_ratio = s.max_overlap_ratio},
                               "paper5_measured_speedup");
    NdemStepper ref(s);
    const int total = settle + measure + (second_phase ? merge + measure : 0);
    int done = 0;
    auto progress = [&](int k) {
      done += k;
      if (ctx.progress) ctx.progress(double(done) / double(std::max(total, 1)));
    };
    for (int k = 0; k < settle; ++k) {
      ref.step(w);
      guard.check(w);
    }
    progress(settle);
    const paper5::TimedSteps R = paper5::time_steps(w, ref, measure);
    guard.check(w);
    progress(measure);
    RunResult out;
    const double ref_step = R.cpu_s / measure, ref_solve = R.stage_cpu_s(R.stages.solve) / measure;
    out.metrics = {{"particles", double(w.particles.size())},
                   {"contacts", R.contacts},
                   {"contacts_per_particle", R.contacts / double(w.particles.size())},
                   {"solve_fraction", R.stages.total() > 0 ? R.stages.solve / R.stages.total() : 0.0},
                   {"collision_fraction", R.stages.total() > 0 ? R.stages.collision / R.stages.total() : 0.0},
                   {"setup_fraction", R.stages.total() > 0 ? R.stages.forces / R.stages.total() : 0.0},
                   {"time_ref_step", ref_step},
                   {"time_ref_solve", ref_solve},
                   {"max_speed_ref", paper5::max_sphere_speed(w)}};
    if (!second_phase) return out;

    if (free_top > 0) {  // a sensor box over the top free_top layers (z above the centre of layer n - free_top)
      const double a = pile.diameter, z_cut = 0.5 * a + (pile.layers - free_top - 0.5) * a / std::sqrt(2.0);
      const double top = 0.5 * a + pile.layers * a, half_width = 0.5 * (pile.layers + 2) * a;
      ReductionSensor sensor;
      sensor.center = Vec3(0, 0, 0.5 * (z_cut + top));
      sensor.half_extent = Vec3(half_width, half_width, 0.5 * (top - z_cut));
      reduction.sensors.push_back(sensor);
    }
    NdemSettings sr = s;
    sr.reduction = reduction;
    sr.reduction.start_time = 0.0;  // the pile is at rest: merging may start at once
    const std::size_t frozen_count = frozen > 0 ? paper5::freeze_lowest(w, frozen) : 0;
    NdemStepper reduced(sr);
    for (int k = 0; k < merge; ++k) {
      reduced.step(w);
      guard.check(w);
    }
    progress(merge);
    const paper5::TimedSteps M = paper5::time_steps(w, reduced, measure);
    guard.check(w);
    progress(measure);
    const double red_step = M.cpu_s / measure, red_solve = M.stage_cpu_s(M.stages.solve) / measure,
                 red_mod = M.stage_cpu_s(M.reduction_s()) / measure;
    const double gamma = p.real("gamma");
    // delta from per-step medians of the wall-clock stage seconds: the reduction takes ~10-30 us per step, so
    // one preempted step on a busy machine would otherwise decide the mean.
    const double delta = paper5::measured_overhead(paper5::median(M.reduction_per_step), paper5::median(R.solve_per_step));
    const double n_p = double(w.particles.size());
    const double level = frozen_count > 0 ? 1.0 - (n_p - double(frozen_count) + 1.0) / n_p : M.level;
    const double h = std::clamp(level, 0.0, 1.0);
    const double model = paper5::model_speedup(h, delta, gamma);
    out.metrics.insert({{"level", level},
                        {"level_free_only", frozen_count > 0 ? double(frozen_count) / n_p : M.level_free_only},
                        {"level_dof", frozen_count > 0 ? level : M.level_dof},  // one 6-DOF body per sphere or aggregate
                        {"aggregates", frozen_count > 0 ? 1.0 : M.aggregates},
                        {"solver_contacts", M.solver_contacts},
                        {"solver_contact_fraction", R.contacts > 0 ? M.solver_contacts / R.contacts : 0.0},
                        {"time_red_step", red_step},
                        {"time_red_solve", red_solve},
                        {"time_red_reduction", red_mod},
                        {"speedup", ref_step / red_step},
                        {"speedup_solve", red_solve > 0 ? ref_solve / red_solve : 0.0},
                        {"delta", delta},
                        {"speedup_eq39", model},
                        {"speedup_over_model", ref_step / red_step / model},
                        // What Eq. 37 drops: the share of the reduced step outside the solve and the reduction
                        // (detection, row set-up of every contact, integration), the cap of any measured speed-up.
                        {"red_other_fraction", M.timed_total() > 0 ? 1.0 - (M.stages.solve + M.reduction_s()) / M.timed_total() : 0.0},
                        {"max_speed_red", paper5::max_sphere_speed(w)}});
    return out;
  };
  tbb::task_arena one(1);  // single-core cost: CPU time of this thread is the run's whole cost
  return one.execute(body);
}

std::vector<ParameterSpec> measured_speedup_parameters() {
  std::vector<ParameterSpec> v = {
      {"layers", ParamType::integer, "-", std::int64_t{12}, 2.0, 200.0, "pyramid layers n (N_p = n(n+1)(2n+1)/6: 12 -> 650, 31 -> 10416)"},
      {"diameter", ParamType::real, "m", 0.013, 1e-4, 1.0, "sphere diameter d (Table 1, 000 l.2080)"},
      {"density", ParamType::real, "kg/m^3", 3700.0, 1.0, 1e5, "rho (000 l.2081)"},
      {"linear_stiffness", ParamType::real, "N/m", 3000.0, 1.0, 1e12, "linear k_n, e_H = 1 (000 l.2082, 2263)"},
      {"restitution", ParamType::real, "-", 0.18, 0.0, 1.0, "e (000 l.2083)"},
      {"friction", ParamType::real, "-", 0.91, 0.0, 10.0, "mu_t (000 l.2084)"},
      {"rolling_friction", ParamType::real, "-", 0.32, 0.0, 10.0, "mu_r (000 l.2085)"},
      {"dt", ParamType::real, "s", 0.005, 1e-6, 0.1, "time step (000 l.2086)"},
      {"iterations", ParamType::integer, "-", std::int64_t{150}, 1.0, 100000.0, "N_it of both runs (000 l.2088)"},
      {"gravity", ParamType::real, "m/s^2", 9.81, 0.0, 1000.0, "g (000 l.2093)"},
      {"settle_steps", ParamType::integer, "-", std::int64_t{20}, 0.0, 1e6, "unreduced steps before timing (untimed)"},
      {"merge_steps", ParamType::integer, "-", std::int64_t{5}, 0.0, 1e6, "reduced steps before timing (untimed): aggregates form"},
      {"measure_steps", ParamType::integer, "-", std::int64_t{5}, 1.0, 1e6, "timed steps of each run"},
      {"frozen_fraction", ParamType::real, "-", 0.0, 0.0, 1.0, "reduction = none: the lowest fraction of the spheres made one rigid aggregate (oracle reduction, no merge/split cost)"},
      {"free_top_layers", ParamType::integer, "-", std::int64_t{0}, 0.0, 200.0, "reduction = cs: top layers kept resolved by a sensor (sets h < 1)"},
      {"gamma", ParamType::real, "-", 1.0 / 3.0, 0.0, 10.0, "exponent of Eq. 39 for speedup_eq39 (1/3: 3D)"},
  };
  for (ParameterSpec& r : reduction_parameters()) v.push_back(std::move(r));
  return v;
}

const ExperimentRegistration reg{Experiment{
    .name = "paper5_measured_speedup",
    .description = "Paper V measured speed-up: CPU time per NDEM step with and without model reduction on a resting pyramid pile; solve fraction",
    .parameters = measured_speedup_parameters(),
    .run = measured_speedup}};

}  // namespace
}  // namespace grainlab
