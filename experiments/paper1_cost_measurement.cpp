// Experiment `paper1_cost_measurement`: times a short SDEM or NDEM run of one test system (column, pack,
// flow: experiments/cost_measurement.hpp) and reports what Paper I's cost model needs (seed 000 lines
// 525-552, Eq. 36 and 38): particle-steps, contact-iterations and the stage timings from which a study
// derives K_SDEM (whole step per particle-step) and K_NDEM^GS (solve stage per contact-iteration).
// Timings are reported as time_<stage> metrics, which the pipeline moves to the run's provenance
// (docs/studies.md), so the stored metrics are the counts only: the engine's stage timers (wall clock)
// time_collision, _forces, _solve, _integrate and their sum time_stages; time_total (wall) and time_cpu
// (CPU of the run's one thread) of the timed steps; time_solve_cpu = time_cpu * time_solve / time_stages.
// K_SDEM and K_NDEM^GS come from the CPU times (experiments/cost_measurement.hpp says why), the stage
// fractions (Paper I's profile statements, 000 l.527, 535) from the stage timers.
// Reads only its parameters; writes nothing; the engines run on the caller's arena.
#include "experiments/cost_measurement.hpp"
#include "experiments/cost_model.hpp"
#include "experiments/experiment.hpp"

namespace grainlab {
namespace {

CostSystem system_from(const Parameters& p) {
  CostSystem s;
  s.kind = parse_cost_system_kind(p.text("kind"));
  s.d = p.real("d");
  s.youngs_modulus = p.real("youngs_modulus");
  s.density = p.real("density");
  s.poisson_ratio = p.real("poisson_ratio");
  s.friction = p.real("friction");
  s.restitution = p.real("restitution");
  s.gravity = p.real("gravity");
  s.width = p.real("width");
  s.length = p.real("length");
  s.lattice_overlap = p.real("lattice_overlap");
  s.jitter = p.real("jitter");
  s.settle_time = p.real("settle_time");
  s.flow_speed = p.real("flow_speed");
  s.seed = std::uint64_t(p.integer("seed"));
  return s;
}

RunResult measure(const Parameters& p, RunContext&) {
  const CostSystem s = system_from(p);
  CostRunSettings r;
  r.method = parse_cost_method(p.text("method"));
  r.time_step = p.real("dt");
  if (r.time_step == 0.0) {  // the method's step of Paper I: h_S = sqrt(m/k) (Eq. 36), h = 0.01 s (000 l.596)
    CostInputs model;
    model.d = s.d;
    model.youngs_modulus = s.youngs_modulus;
    model.density = s.density;
    model.poisson_ratio = s.poisson_ratio;
    r.time_step = r.method == CostMethod::sdem ? estimate_cost(model).h_S : 0.01;
  }
  r.iterations = int(p.integer("iterations"));
  r.residual_tolerance = p.real("residual_tolerance");
  r.warmup_steps = int(p.integer("warmup_steps"));
  r.steps = int(p.integer("steps"));
  const CostTiming t = measure_cost(s, r);
  RunResult out;
  out.metrics = {{"N_p", t.particles},
                 {"steps_timed", t.steps},
                 {"particle_steps", t.particle_steps},
                 {"contact_iterations", t.contact_iterations},
                 {"contact_iterations_per_step", t.contact_iterations / t.steps},
                 // Eq. 38 with the cap: what the cost model assumes (equal to the above when every step uses N_it)
                 {"nominal_contact_iterations_per_step", double(r.iterations) * t.contacts_mean},
                 {"contacts_mean", t.contacts_mean},
                 {"contacts_per_particle", t.contacts_mean / t.particles},
                 {"iterations_mean", t.iterations_mean},
                 {"time_collision", t.stages.collision},
                 {"time_forces", t.stages.forces},
                 {"time_solve", t.stages.solve},
                 {"time_integrate", t.stages.integrate},
                 {"time_stages", t.stages.total()},
                 {"time_total", t.total_s},
                 {"time_cpu", t.cpu_s},
                 {"time_solve_cpu", t.solve_cpu_s()}};
  return out;
}

const ExperimentRegistration reg{Experiment{
    .name = "paper1_cost_measurement",
    .description = "Times a short SDEM or NDEM run of a column, pack or flow: particle-steps, contact-iterations and "
                   "stage timings for K_SDEM and K_NDEM^GS (Paper I Eq. 36, 38)",
    .parameters =
        {
            {"kind", ParamType::text, "", std::string("pack"), {}, {}, "test system: column | pack | flow",
             {"column", "pack", "flow"}},
            {"method", ParamType::text, "", std::string("ndem"), {}, {}, "sdem | ndem", {"sdem", "ndem"}},
            {"d", ParamType::real, "m", 0.01, 1e-5, 1.0, "sphere diameter"},
            {"youngs_modulus", ParamType::real, "Pa", 1e7, 1e3, 1e12, "Young's modulus E"},
            {"density", ParamType::real, "kg/m^3", 2500.0, 1.0, 1e5, "particle density rho"},
            {"poisson_ratio", ParamType::real, "-", 0.3, 0.0, 0.49, "Poisson ratio nu"},
            {"friction", ParamType::real, "-", 0.7, 0.0, 10.0, "friction mu (000 l.596)"},
            {"restitution", ParamType::real, "-", 0.1, 0.0, 1.0, "restitution e (SDEM needs e > 0 at h = sqrt(m/k))"},
            {"gravity", ParamType::real, "m/s^2", 9.82, 0.0, 1000.0, "gravity g"},
            {"width", ParamType::real, "d", 6.0, 1.0, 1000.0, "w: diameter of the pack in particle diameters (column: ignored)"},
            {"length", ParamType::real, "d", 10.0, 1.0, 10000.0, "l: layers of the pack / spheres of the column"},
            {"lattice_overlap", ParamType::real, "d", 0.0, 0.0, 0.09, "initial overlap of lattice neighbours"},
            {"jitter", ParamType::real, "d", 0.2, 0.0, 0.5, "pack, flow: random sideways shift of each lattice site, up to jitter d/2"},
            {"settle_time", ParamType::real, "s", 1.0, 0.0, 100.0, "pack: NDEM settling under gravity before the timed steps (untimed)"},
            {"flow_speed", ParamType::real, "m/s", 0.1, 0.0, 100.0, "flow: rms speed of the random initial velocities"},
            {"seed", ParamType::integer, "-", std::int64_t{1}, 0.0, 1e15, "flow: random velocities"},
            {"dt", ParamType::real, "s", 0.0, 0.0, 1.0, "time step; 0: SDEM sqrt(m/k) (Eq. 36), NDEM 0.01 s (000 l.596)"},
            {"iterations", ParamType::integer, "-", std::int64_t{50}, 1.0, 1e6, "NDEM PGS iterations N_it"},
            {"residual_tolerance", ParamType::real, "m/s", 0.0, 0.0, 1e3, "NDEM early stop; 0: always N_it (Paper I)"},
            {"warmup_steps", ParamType::integer, "-", std::int64_t{2}, 0.0, 1e6, "untimed steps first"},
            {"steps", ParamType::integer, "-", std::int64_t{20}, 1.0, 1e8, "timed steps"},
        },
    .run = measure}};

}  // namespace
}  // namespace grainlab
