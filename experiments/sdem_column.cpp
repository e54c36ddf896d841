// Experiment sdem_column: a column of spheres settled on a plane; bottom force vs weight and contact
// overlaps vs Hertz (experiments/sdem_scenarios.hpp, docs/sdem.md).
#include "experiments/experiment.hpp"
#include "experiments/sdem_scenarios.hpp"

namespace grainlab {
namespace {

Experiment make() {
  sdem::SphereSpec d;
  d.restitution = 0.3;
  Experiment e;
  e.name = "sdem_column";
  e.description = "SDEM column of spheres at rest on a plane: bottom force = N m g, overlaps = (load/k_n)^(2/3)";
  e.parameters = {
      {"count", ParamType::integer, "-", std::int64_t(10), 1.0, 1000.0, "number of spheres"},
      {"gravity", ParamType::real, "m/s^2", 9.81, 1e-6, 1e3, "gravitational acceleration"},
      {"duration", ParamType::real, "s", 2.0, 1e-3, 100.0, "settling time"},
      {"dt_fraction", ParamType::real, "-", 0.02, 1e-5, 1.0, "time step as a fraction of the Hertz contact time at 0.1 m/s"},
  };
  for (auto& s : sdem::sphere_parameters(d, false)) e.parameters.push_back(s);
  e.run = [](const Parameters& p, RunContext&) {
    sdem::ColumnSetup s;
    s.sphere = sdem::sphere_from(p, false);
    s.count = int(p.integer("count"));
    s.gravity = p.real("gravity");
    s.duration = p.real("duration");
    s.dt_fraction = p.real("dt_fraction");
    const sdem::ColumnResult r = sdem::run_column(s);
    RunResult out;
    out.metrics = {{"bottom_force", r.bottom_force},
                   {"weight", r.weight},
                   {"max_overlap_error", r.max_overlap_error},
                   {"max_speed", r.max_speed}};
    return out;
  };
  return e;
}

const ExperimentRegistration registration{make()};

}  // namespace
}  // namespace grainlab
