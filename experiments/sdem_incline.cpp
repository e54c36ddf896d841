// Experiment sdem_incline: sphere released at rest on an incline; rest / rolling / sliding and its
// acceleration vs rigid-body theory (experiments/sdem_scenarios.hpp, docs/sdem.md).
#include "experiments/experiment.hpp"
#include "experiments/sdem_scenarios.hpp"

namespace grainlab {
namespace {

Experiment make() {
  Experiment e;
  e.name = "sdem_incline";
  e.description = "SDEM sphere on an incline: rest (tan a <= mu_r), rolling (5/7 g (sin a - mu_r cos a)) or sliding";
  e.parameters = {
      {"angle_deg", ParamType::real, "deg", 20.0, 0.0, 89.0, "incline angle"},
      {"gravity", ParamType::real, "m/s^2", 9.81, 1e-6, 1e3, "gravitational acceleration"},
      {"duration", ParamType::real, "s", 0.3, 1e-3, 100.0, "simulated time (the fit uses the second half)"},
      {"dt_fraction", ParamType::real, "-", 0.02, 1e-5, 1.0, "time step as a fraction of the Hertz contact time at 0.1 m/s"},
  };
  for (auto& s : sdem::sphere_parameters(sdem::SphereSpec{}, true)) e.parameters.push_back(s);
  e.run = [](const Parameters& p, RunContext&) {
    sdem::InclineSetup s;
    s.sphere = sdem::sphere_from(p, true);
    s.angle_deg = p.real("angle_deg");
    s.gravity = p.real("gravity");
    s.duration = p.real("duration");
    s.dt_fraction = p.real("dt_fraction");
    const sdem::InclineResult r = sdem::run_incline(s);
    RunResult out;
    out.metrics = {{"acceleration", r.acceleration},   {"acceleration_analytic", r.acceleration_analytic},
                   {"regime", double(r.regime)},       {"regime_analytic", double(r.regime_analytic)},
                   {"displacement", r.displacement},   {"slip_ratio", r.slip_ratio}};
    return out;
  };
  return e;
}

const ExperimentRegistration registration{make()};

}  // namespace
}  // namespace grainlab
