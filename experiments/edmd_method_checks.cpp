// Experiment edmd_method_checks: Gavrilov's MD method claims (ledger G-E9, G-C20/C21/C23/C24/C25) as
// measured quantities: the collision laws (3.16)-(3.18) on random collisions, inelastic collapse of a
// dropped ball against t_inf, the Fig. 3.7 spline loop and the Fig. 3.6 scheduling scenario
// (experiments/edmd_scenarios.hpp).
#include <cmath>
#include <random>

#include "core/edmd/collision_law.hpp"
#include "experiments/edmd_scenarios.hpp"
#include "experiments/experiment.hpp"

namespace grainlab {
namespace {

Experiment make() {
  Experiment e;
  e.name = "edmd_method_checks";
  e.description = "Gavrilov Ch. 3 method checks: collision laws, wall energy input, inelastic collapse, spline loop, schedule-all";
  e.parameters = {
      {"restitution", ParamType::real, "-", 0.95, 0.0, 1.0, "eps of the random collisions (ball-wall 0.95, 002 l.1023)"},
      {"collapse_restitution", ParamType::real, "-", 0.5, 0.0, 0.999, "eps of the dropped ball"},
      {"gravity", ParamType::real, "m/s^2", 9.81, 0.1, 100.0, "g in the simulations"},
      {"reference_gravity", ParamType::real, "m/s^2", 9.81, 0.1, 100.0, "g in the t_inf formula"},
      {"spline_step", ParamType::real, "s", 0.1, 1e-6, 1.0, "linear-spline step of the Fig. 3.7 scenario"},
      {"deflect", ParamType::boolean, "", true, {}, {}, "Fig. 3.6: D and F knock B and E out of the way"},
      {"seed", ParamType::integer, "-", std::int64_t(1), 0.0, 1e9, "random collisions"},
  };
  e.run = [](const Parameters& p, RunContext&) {
    std::mt19937_64 rng(static_cast<std::uint64_t>(p.integer("seed")));
    std::uniform_real_distribution<double> mass(0.1, 2.0), vel(-3.0, 3.0);
    const double eps = p.real("restitution");
    double momentum = 0, loss = 0, restitution = 0, wall = 0, wall_printed = 0;
    for (int k = 0; k < 100000; ++k) {
      const double m1 = mass(rng), m2 = mass(rng), v10 = vel(rng), v20 = vel(rng);
      const edmd::PairOutcome o = edmd::pair_collision(m1, m2, v10, v20, eps);
      const double ke0 = 0.5 * (m1 * v10 * v10 + m2 * v20 * v20);
      momentum = std::max(momentum, std::abs(m1 * o.v1 + m2 * o.v2 - m1 * v10 - m2 * v20) / (std::abs(m1 * v10) + std::abs(m2 * v20)));
      loss = std::max(loss, std::abs(ke0 - 0.5 * (m1 * o.v1 * o.v1 + m2 * o.v2 * o.v2) - o.loss) / ke0);
      restitution = std::max(restitution, std::abs(std::abs(o.v2 - o.v1) - eps * std::abs(v20 - v10)) / std::abs(v20 - v10));
      const edmd::WallOutcome w = edmd::wall_collision(m1, v10, v20, eps);
      const double dke = 0.5 * m1 * (w.v1 * w.v1 - v10 * v10), scale = 0.5 * m1 * (v10 * v10 + v20 * v20);
      wall = std::max(wall, std::abs(dke - (w.wall_work - w.loss)) / scale);
      wall_printed = std::max(wall_printed, std::abs(dke - (edmd::wall_energy_printed(m1, v10, v20) - w.loss)) / scale);
    }
    const auto collapse = edmd_runs::bouncing_collapse(p.real("collapse_restitution"), 0.1, p.real("gravity"),
                                                       p.real("reference_gravity"));
    const auto loop = edmd_runs::spline_wall_loop(p.real("gravity"), p.real("spline_step"), 0.01, 0.9, 0.5);
    const bool all = edmd_runs::fig36_a_meets_c(true, p.boolean("deflect"));
    const bool first = edmd_runs::fig36_a_meets_c(false, p.boolean("deflect"));
    RunResult out;
    out.metrics = {{"pair_momentum_error", momentum},
                   {"pair_loss_error", loss},
                   {"pair_restitution_error", restitution},
                   {"wall_balance_error", wall},
                   {"wall_balance_error_printed", wall_printed},
                   {"collapse_stalled", collapse.stalled ? 1.0 : 0.0},
                   {"collapse_time", collapse.stall_time},
                   {"collapse_t_infinity", collapse.t_infinity},
                   {"collapse_relative_error", std::abs(collapse.stall_time / collapse.t_infinity - 1)},
                   {"collapse_events", collapse.events},
                   {"spline_loop_stalled", loop.stalled ? 1.0 : 0.0},
                   {"spline_loop_events", loop.events},
                   {"schedule_all_finds", all ? 1.0 : 0.0},
                   {"first_only_finds", first ? 1.0 : 0.0},
                   {"first_only_misses", (all && !first) ? 1.0 : 0.0}};
    return out;
  };
  return e;
}

const ExperimentRegistration registration{make()};

}  // namespace
}  // namespace grainlab
