// Experiment edmd_shaker: Gavrilov's shaker ball mill (G-E1 energy dissipation, G-E2 collision rate),
// event-driven (core/edmd/, experiments/edmd_shaker_run.hpp, docs/gavrilov_edmd.md).
#include "experiments/edmd_shaker_run.hpp"
#include "experiments/experiment.hpp"

namespace grainlab {
namespace {

Experiment make() {
  Experiment e;
  e.name = "edmd_shaker";
  e.description = "Event-driven shaker ball mill (Gavrilov Ch. 3): dissipation H and collision rates of N balls in a cylinder shaken on Eq. (3.19)";
  e.parameters = edmd_runs::shaker_parameters();
  e.run = [](const Parameters& p, RunContext&) {
    const edmd_runs::ShakerResult r = edmd_runs::run_shaker(edmd_runs::shaker_from(p));
    RunResult out;
    out.metrics = {{"H_total", r.H_total},
                   {"H_pair", r.H_pair},
                   {"H_wall", r.H_wall},
                   {"rate_pair", r.rate_pair},
                   {"rate_wall", r.rate_wall},
                   {"rate_total", r.rate_total},
                   {"window_spread_pair", r.window_spread_pair},
                   {"window_spread_total", r.window_spread_total},
                   {"wall_power", r.wall_power},
                   {"wall_power_printed", r.wall_power_printed},
                   {"balance_error", r.balance_error},
                   {"kinetic_energy_mean", r.kinetic_energy_mean},
                   {"events", r.events}};
    TimeSeries& s = out.series["rates"];
    s.columns = {"time", "rate_pair", "rate_wall", "H_total"};
    s.rows = r.windows;
    return out;
  };
  return e;
}

const ExperimentRegistration registration{make()};

}  // namespace
}  // namespace grainlab
