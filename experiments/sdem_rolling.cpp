// Experiment sdem_rolling: sphere launched rolling without slip on a flat plane; rolling resistance
// decelerates it at 5/7 mu_r g (000 line 1247; experiments/sdem_scenarios.hpp, docs/sdem.md).
#include "experiments/experiment.hpp"
#include "experiments/sdem_scenarios.hpp"

namespace grainlab {
namespace {

Experiment make() {
  sdem::SphereSpec d;
  d.friction = 0.7;
  d.rolling_friction = 0.32;  // pellet value, 000 line 1168
  Experiment e;
  e.name = "sdem_rolling";
  e.description = "SDEM rolling resistance: deceleration of a rolling sphere on a plane vs 5/7 mu_r g";
  e.parameters = {
      {"velocity", ParamType::real, "m/s", 1.0, 1e-6, 1e3, "initial rolling speed"},
      {"gravity", ParamType::real, "m/s^2", 9.81, 1e-6, 1e3, "gravitational acceleration"},
      {"dt_fraction", ParamType::real, "-", 0.02, 1e-5, 1.0, "time step as a fraction of the Hertz contact time at 0.1 m/s"},
  };
  for (auto& s : sdem::sphere_parameters(d, true)) e.parameters.push_back(s);
  e.run = [](const Parameters& p, RunContext&) {
    sdem::RollingSetup s;
    s.sphere = sdem::sphere_from(p, true);
    s.velocity = p.real("velocity");
    s.gravity = p.real("gravity");
    s.dt_fraction = p.real("dt_fraction");
    const sdem::RollingResult r = sdem::run_rolling(s);
    RunResult out;
    out.metrics = {{"deceleration", r.deceleration},
                   {"deceleration_analytic", r.deceleration_analytic},
                   {"slip_ratio", r.slip_ratio}};
    TimeSeries& series = out.series["speed"];
    series.columns = {"time", "speed"};
    for (const auto& row : r.history) series.rows.push_back({row[0], row[1]});
    return out;
  };
  return e;
}

const ExperimentRegistration registration{make()};

}  // namespace
}  // namespace grainlab
