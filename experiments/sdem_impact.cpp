// Experiment sdem_impact: normal impact of a sphere on an equal sphere or on a plane, compared with
// elastic Hertz theory and the requested restitution (experiments/sdem_scenarios.hpp, docs/sdem.md).
#include "experiments/experiment.hpp"
#include "experiments/sdem_scenarios.hpp"

namespace grainlab {
namespace {

Experiment make() {
  sdem::SphereSpec d;
  d.restitution = 1.0;
  Experiment e;
  e.name = "sdem_impact";
  e.description = "SDEM normal impact (sphere-sphere or sphere-plane) vs Hertz theory and the requested restitution";
  e.parameters = {
      {"target", ParamType::text, "", std::string("sphere"), {}, {}, "\"sphere\" (head-on, equal spheres) or \"wall\""},
      {"velocity", ParamType::real, "m/s", 1.0, 1e-6, 1e3, "approach speed"},
      {"dt_fraction", ParamType::real, "-", 0.02, 1e-5, 1.0, "time step as a fraction of the Hertz contact time"},
  };
  for (auto& s : sdem::sphere_parameters(d, false)) e.parameters.push_back(s);
  e.run = [](const Parameters& p, RunContext&) {
    sdem::ImpactSetup s;
    s.sphere = sdem::sphere_from(p, false);
    s.target = p.text("target");
    s.velocity = p.real("velocity");
    s.dt_fraction = p.real("dt_fraction");
    const sdem::ImpactResult r = sdem::run_impact(s);
    RunResult out;
    out.metrics = {{"peak_overlap", r.peak_overlap},
                   {"peak_overlap_analytic", r.peak_overlap_analytic},
                   {"peak_force", r.peak_force},
                   {"peak_force_analytic", r.peak_force_analytic},
                   {"contact_time", r.contact_time},
                   {"contact_time_analytic", r.contact_time_analytic},
                   {"restitution_measured", r.restitution_measured},
                   {"restitution_requested", r.restitution_requested},
                   {"dt", r.time_step}};
    TimeSeries& series = out.series["contact"];
    series.columns = {"time", "overlap", "normal_force"};
    for (const auto& row : r.history) series.rows.push_back({row[0], row[1], row[2]});
    return out;
  };
  return e;
}

const ExperimentRegistration registration{make()};

}  // namespace
}  // namespace grainlab
