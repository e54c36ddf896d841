// Experiment paper2_cost: Paper II E5 (000 l.920-936, 962, 995; ledger paper2.md E5, P8, P9), the cost and
// memory statements of the outlet-design campaign.
//
// 1. Arithmetic on the paper's own statements (parameters carry the printed numbers, so that a perturbation
//    tier can change one reading): the campaign total, the MLCP size 3N_p + (3/2)N_c with N_c = z N_p / 2,
//    the belt-particle cost factor, stated (200k + 80k) / 80k and from the feed rate (4.4 kg/s of 10 mm,
//    2500 kg/m^3 spheres over runs_on_belt runs of 15.6 s), the rolling-resistance equation factor
//    (rows + 2N_c) / rows, and the smallest gap over d.
// 2. With simulate = true, our cost and memory on an NDEM bed at Paper II's settings (N_it = 25, h = 0.01 s,
//    k = 25 kN/m^{3/2} pair stiffness, mu = 0.7, e = 0, d = 10 mm, rho = 2500): a settled pack of N_p ~
//    (pi/4) w^2 l spheres (experiments/cost_measurement.hpp, timed in CPU time on one thread), and the peak
//    resident memory of building, settling and stepping it (VmHWM, reset before: experiments/process_memory.hpp).
//    Memory per particle = (VmHWM - VmRSS before) / N_p, the whole process's footprint at 1.8M particles =
//    VmRSS before + 1.8M x that. Timings are reported as time_* metrics (provenance, not compared bit for bit).
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/hertz.hpp"
#include "core/material.hpp"
#include "core/math.hpp"
#include "experiments/cost_measurement.hpp"
#include "experiments/experiment.hpp"
#include "experiments/process_memory.hpp"

namespace grainlab {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

/// Young's modulus whose pair stiffness k_n = (4/3) E* sqrt(R*) (core/hertz.hpp), R* = d/4, equals `k`.
double modulus_for_pair_stiffness(double k, double d, double nu) {
  Material unit;
  unit.youngs_modulus = 1.0;
  unit.poisson_ratio = nu;
  return k / hertz_stiffness(mix(unit, unit).effective_modulus, d / 4);
}

void statement_arithmetic(const Parameters& p, RunResult& out) {
  const double wall = p.real("stated_wall_time"), evolution = p.real("stated_evolution_time");
  const double np = p.real("stated_particles"), design = p.real("design_sim_time");
  const double z = p.real("neighbours");
  const double run_s = wall * design / evolution;  // one design run at the stated speed
  const double rows = 3.0 + 1.5 * (z / 2);          // 3N_p + (3/2) N_c per particle, N_c = z N_p / 2
  const double d = p.real("d"), m = p.real("density") * pi / 6 * d * d * d;
  const double belt_feed = p.real("feed_rate") / m * design * p.real("runs_on_belt");
  const double belt_stated = (p.real("belt_particles") + np) / np;
  const double rolling = (rows + z) / rows;  // + 2 N_c = z N_p rolling rows
  out.metrics["paper_time_per_particle_step_iteration"] = wall / (np * evolution / p.real("dt") * p.real("iterations"));
  out.metrics["paper_time_per_real_second_per_1k"] = wall / evolution / (np / 1000);
  out.metrics["paper_design_run_s"] = run_s;
  out.metrics["campaign_cpu_s"] = p.real("campaign_runs") * run_s;
  out.metrics["campaign_hours"] = p.real("campaign_total_cpu_s") / 3600;
  out.metrics["campaign_days"] = p.real("campaign_total_cpu_s") / 86400;
  out.metrics["campaign_days_parallel"] = p.real("campaign_total_cpu_s") / 86400 / p.real("campaign_cpus");
  out.metrics["mlcp_variables_per_particle"] = rows;
  out.metrics["mlcp_variables"] = rows * np;
  out.metrics["belt_cost_factor_stated"] = belt_stated;
  out.metrics["belt_particles_from_feed"] = belt_feed;
  out.metrics["belt_cost_factor_from_feed"] = (belt_feed + np) / np;
  out.metrics["rolling_equation_factor"] = rolling;
  out.metrics["cpu_factor_rolling_and_belt"] = belt_stated * rolling;
  out.metrics["gap_min_over_d"] = p.real("gap_min") / d;
}

void measure_bed(const Parameters& p, RunResult& out) {
  CostSystem s;
  s.kind = CostSystemKind::pack;
  s.d = p.real("d");
  s.poisson_ratio = p.real("poisson_ratio");
  s.youngs_modulus = modulus_for_pair_stiffness(p.real("stiffness"), s.d, s.poisson_ratio);
  s.density = p.real("density");
  s.friction = p.real("friction");
  s.restitution = p.real("restitution");
  s.gravity = p.real("gravity");
  s.width = p.real("width");
  s.length = p.real("length");
  s.settle_time = p.real("settle_time");
  s.seed = std::uint64_t(p.integer("seed"));
  CostRunSettings r;
  r.method = CostMethod::ndem;
  r.time_step = p.real("dt");
  r.iterations = int(p.integer("iterations"));
  r.warmup_steps = int(p.integer("warmup_steps"));
  r.steps = int(p.integer("steps"));
  const double unit = p.real("memory_unit_bytes");
  const bool reset = reset_peak_rss();
  const auto before = read_process_memory(unit);
  const CostTiming t = measure_cost(s, r);
  const auto after = read_process_memory(unit);
  const double n = t.particles, its = t.steps * double(r.iterations) * n;
  const double k = t.cpu_s / its;  // our s per particle-step-iteration
  out.metrics["youngs_modulus"] = s.youngs_modulus;
  out.metrics["N_p"] = n;
  out.metrics["contacts_per_particle"] = t.contacts_mean / n;
  out.metrics["time_cpu"] = t.cpu_s;
  out.metrics["time_per_particle_step_iteration"] = k;
  out.metrics["time_per_real_second_per_1k"] = t.cpu_s / (t.steps * r.time_step) / (n / 1000);
  out.metrics["time_paper_evolution_run"] = k * p.real("stated_particles") * p.real("stated_evolution_time") / r.time_step * r.iterations;
  out.metrics["time_paper_design_run"] = k * p.real("stated_particles") * p.real("design_sim_time") / r.time_step * r.iterations;
  out.metrics["time_over_paper"] = k / out.metrics["paper_time_per_particle_step_iteration"];
  if (!before || !after) {
    for (const char* name : {"peak_reset", "rss_before_mb", "memory_per_particle_kb", "memory_target_gb", "memory_over_budget"})
      out.metrics[name] = nan;
    return;
  }
  const double per_particle = (after->peak_rss_bytes - before->rss_bytes) / n;
  const double target = before->rss_bytes + p.real("target_particles") * per_particle;
  out.metrics["peak_reset"] = reset ? 1.0 : 0.0;
  out.metrics["rss_before_mb"] = before->rss_bytes / 1e6;
  out.metrics["memory_per_particle_kb"] = per_particle / 1e3;
  out.metrics["memory_target_gb"] = target / 1e9;
  out.metrics["memory_over_budget"] = target / (p.real("memory_budget_gb") * 1e9);
}

RunResult run(const Parameters& p, RunContext&) {
  RunResult out;
  statement_arithmetic(p, out);
  if (p.boolean("simulate")) {
    measure_bed(p, out);
  } else {
    for (const char* name : {"youngs_modulus", "N_p", "contacts_per_particle", "time_over_paper", "peak_reset", "rss_before_mb",
                             "memory_per_particle_kb", "memory_target_gb", "memory_over_budget"})
      out.metrics[name] = nan;
  }
  return out;
}

const ExperimentRegistration reg{Experiment{
    .name = "paper2_cost",
    .description = "Paper II E5: the campaign's cost and memory statements recomputed, and our time per "
                   "particle-step-iteration and peak memory per particle on an NDEM bed at Paper II's settings",
    .parameters =
        {
            {"simulate", ParamType::boolean, "", true, {}, {}, "measure the bed (false: arithmetic only)"},
            {"d", ParamType::real, "m", 0.01, 1e-4, 1.0, "particle diameter (000 l.903)"},
            {"density", ParamType::real, "kg/m^3", 2500.0, 1.0, 1e5, "particle density (000 l.903)"},
            {"stiffness", ParamType::real, "N/m^1.5", 25e3, 1.0, 1e12, "Hertz k of a particle pair (000 l.920)"},
            {"poisson_ratio", ParamType::real, "-", 0.3, 0.0, 0.49, "nu (unspecified; only splits k into E)"},
            {"friction", ParamType::real, "-", 0.7, 0.0, 10.0, "mu (000 l.903)"},
            {"restitution", ParamType::real, "-", 0.0, 0.0, 1.0, "zero restitution (000 l.920)"},
            {"gravity", ParamType::real, "m/s^2", 9.82, 0.0, 100.0, "g"},
            {"width", ParamType::real, "d", 20.0, 1.0, 1000.0, "bed diameter w in d (N_p ~ pi/4 w^2 l)"},
            {"length", ParamType::real, "d", 16.0, 1.0, 10000.0, "bed layers l"},
            {"settle_time", ParamType::real, "s", 1.0, 0.0, 100.0, "untimed settling"},
            {"seed", ParamType::integer, "-", std::int64_t{1}, 0.0, 1e15, "lattice jitter"},
            {"dt", ParamType::real, "s", 0.01, 1e-6, 1.0, "h (000 l.920)"},
            {"iterations", ParamType::integer, "-", std::int64_t{25}, 1.0, 1e6, "N_it (000 l.920)"},
            {"warmup_steps", ParamType::integer, "-", std::int64_t{2}, 0.0, 1e6, "untimed steps"},
            {"steps", ParamType::integer, "-", std::int64_t{20}, 1.0, 1e8, "timed steps"},
            {"memory_unit_bytes", ParamType::real, "-", 1024.0, 1.0, 1e9, "bytes per 'kB' of /proc/self/status"},
            {"target_particles", ParamType::real, "-", 1.8e6, 1.0, 1e12, "particles of the full-scale runs (000 l.922)"},
            {"memory_budget_gb", ParamType::real, "-", 16.0, 1e-3, 1e6, "desktop memory, GB = 1e9 bytes (000 l.922)"},
            {"stated_wall_time", ParamType::real, "s", 585.0, 0.0, 1e9, "one drum evolution (000 l.922)"},
            {"stated_evolution_time", ParamType::real, "s", 2.6, 1e-6, 1e6, "simulated time of it (000 l.922)"},
            {"stated_particles", ParamType::real, "-", 80e3, 1.0, 1e12, "particles (000 l.920, 922)"},
            {"design_sim_time", ParamType::real, "s", 15.6, 1e-6, 1e6, "one design simulation (000 l.995)"},
            {"campaign_runs", ParamType::real, "-", 2000.0, 0.0, 1e9, "simulations of the campaign (000 l.995)"},
            {"campaign_total_cpu_s", ParamType::real, "s", 7.6e6, 0.0, 1e15, "stated total (000 l.995)"},
            {"campaign_cpus", ParamType::real, "-", 12.0, 1.0, 1e6, "CPUs of the batch (000 l.995)"},
            {"neighbours", ParamType::real, "-", 6.0, 0.0, 100.0, "contacting neighbours per particle z, N_c = z N_p / 2 (000 l.920)"},
            {"belt_particles", ParamType::real, "-", 200e3, 0.0, 1e12, "particles on the conveyor (000 l.936)"},
            {"feed_rate", ParamType::real, "kg/s", 4.4, 0.0, 1e6, "feed (000 l.903)"},
            {"runs_on_belt", ParamType::real, "-", 1.0, 0.0, 1e6, "design runs whose landed particles are counted"},
            {"gap_min", ParamType::real, "m", 0.01, 0.0, 10.0, "smallest beta of the design space (000 l.962)"},
        },
    .run = run}};

}  // namespace
}  // namespace grainlab
