// `grainlab advise --d 0.01 --E 1e7 --rho 2500 --l 100 --w 15 --I 0.1 --eps 0.05`: predicts tau/tau_real of
// SDEM and NDEM for a user's system on this machine from Paper I's cost model (experiments/cost_model.hpp,
// Eq. 35-41) with our measured scale factors, and names the faster method.
//
// Where the K's come from (printed with the answer), first that applies:
//   --K-sdem/--K-ndem     given by hand;
//   --measure             measured now on a reference pack of the user's material (about 1 s);
//   otherwise             pooled from the stored runs of study paper1_cost_model (tier full if it has runs,
//                         else quick), exactly as calibrate_cost_constants pools its own
//                         (experiments/cost_measurement.hpp); an error if there are none.
// How good the prediction is: study paper1_cost_prediction (within a factor 2 on a column, a pack, a flow;
// 2.5 for NDEM on the column, whose contacts fit in L1).
#include <algorithm>
#include <iostream>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "app/command.hpp"
#include "core/error.hpp"
#include "experiments/cost_measurement.hpp"
#include "experiments/cost_model.hpp"
#include "pipeline/driver.hpp"
#include "pipeline/study.hpp"

namespace grainlab {
namespace {

struct Options {
  CostInputs in;
  double K_sdem = 0, K_ndem = 0, K_ndem_overhead = 0;
  bool measure = false;
  std::string tier, results;
};

double param_or(const pipeline::StoredRun& r, const std::string& name) {
  const auto it = r.parameters.find(name);
  return it != r.parameters.end() && std::holds_alternative<double>(it->second) ? std::get<double>(it->second) : 0.0;
}

// The stored measurements of paper1_cost_model as CostTimings, and a sentence saying where they come from.
std::pair<std::vector<CostTiming>, std::string> stored_timings(const pipeline::Paths& paths, const std::string& tier_wanted) {
  const std::string file = pipeline::resolve_study(paths, "paper1_cost_model");
  const pipeline::Study study = pipeline::load_study(file, paths.source_root.string());
  const std::vector<std::string> tiers = tier_wanted.empty() ? std::vector<std::string>{"full", "quick"}
                                                             : std::vector<std::string>{tier_wanted};
  for (const std::string& tier : tiers) {
    const pipeline::RunOutcome o = pipeline::collect_study(study, tier, paths.results_root);
    std::vector<CostTiming> timings;
    std::set<std::string> seen, hosts, versions;
    std::string first, last;
    for (const pipeline::StoredRun& r : o.runs) {
      if (r.status != "ok" || !seen.insert(r.key).second) continue;
      const auto method = r.parameters.find("method");
      if (method == r.parameters.end() || !std::holds_alternative<std::string>(method->second)) continue;
      CostTiming t;
      t.method = parse_cost_method(std::get<std::string>(method->second));
      const auto metric = [&](const char* name) {
        const auto it = r.metrics.find(name);
        return it == r.metrics.end() ? 0.0 : it->second;
      };
      const auto stage = [&](const char* name) {
        const auto it = r.provenance.stage_seconds.find(name);
        return it == r.provenance.stage_seconds.end() ? 0.0 : it->second;
      };
      // Runs deliberately made unlike Eq. 38 (early stopping) are not measurements of K.
      if (param_or(r, "residual_tolerance") > 0) continue;
      t.particles = metric("N_p");
      t.steps = metric("steps_timed");
      t.particle_steps = metric("particle_steps");
      t.contact_iterations = metric("contact_iterations");
      t.stages.solve = stage("solve");
      t.total_s = stage("total");
      t.cpu_s = stage("cpu");
      timings.push_back(t);
      hosts.insert(r.provenance.host);
      versions.insert(r.provenance.version);
      if (first.empty() || r.provenance.started_utc < first) first = r.provenance.started_utc;
      last = std::max(last, r.provenance.started_utc);
    }
    if (timings.empty()) continue;
    auto join = [](const std::set<std::string>& s) {
      std::string out;
      for (const auto& x : s) out += (out.empty() ? "" : ", ") + x;
      return out;
    };
    return {timings, fmt::format("{} stored runs of paper1_cost_model, tier {} ({}), measured {} .. {} on {} (version {})",
                                 timings.size(), tier, study_results_dir(paths.results_root, study, tier).string(), first,
                                 last, join(hosts), join(versions))};
  }
  throw InputError(fmt::format("no measured K: study paper1_cost_model has no stored runs{} under {}; run `grainlab run "
                               "paper1_cost_model` first, or pass --measure (measure now) or --K-sdem and --K-ndem",
                               tier_wanted.empty() ? "" : " at tier " + tier_wanted, paths.results_root.string()));
}

// Below this many contacts a PGS sweep stayed in L1 and cost 1.6-1.8x less per contact-iteration than the
// reference systems' K (docs/paper1.md, cost against column length).
constexpr double fits_in_l1_contacts = 200;

int advise(const Options& o) {
  CostInputs in = o.in;
  std::string source;
  if (o.K_sdem > 0 || o.K_ndem > 0) {
    if (!(o.K_sdem > 0 && o.K_ndem > 0)) throw InputError("--K-sdem and --K-ndem must be given together (both > 0)");
    in.K_sdem = o.K_sdem;
    in.K_ndem = o.K_ndem;
    in.K_ndem_overhead = o.K_ndem_overhead;
    source = "given on the command line";
  } else {
    CostConstants k;
    if (o.measure) {
      k = calibrate_cost_constants();
      source = "measured now (--measure) on the reference pack of calibrate_cost_constants, N_p ~ 500";
    } else {
      auto paths = pipeline::default_paths();
      if (!o.results.empty()) paths.results_root = o.results;
      auto [timings, where] = stored_timings(paths, o.tier);
      k = pool_cost_constants(timings);
      if (k.sdem_runs == 0 || k.ndem_runs == 0)
        throw InputError("no measured K: the stored paper1_cost_model runs lack SDEM or NDEM runs; pass --measure");
      source = where;
    }
    in.K_sdem = k.K_sdem;
    in.K_ndem = k.K_ndem;
    in.K_ndem_overhead = k.K_ndem_overhead;
  }
  const CostEstimate e = estimate_cost(in);
  std::cout << fmt::format("system: d = {} m, E = {:g} Pa, rho = {:g} kg/m^3, l = {:g} d, w = {:g} d, I = {:g}, eps = {:g}\n", in.d,
                           in.youngs_modulus, in.density, in.length, in.width, in.inertial_number, in.tolerance);
  std::cout << fmt::format("K: K_SDEM = {:.3g} s per particle-step, K_NDEM^GS = {:.3g} s per contact-iteration, "
                           "NDEM rest of step = {:.3g} s per particle-step\n   ({})\n",
                           in.K_sdem, in.K_ndem, in.K_ndem_overhead, source);
  std::cout << fmt::format("model (Paper I Eq. 35-41): N_p = {:.4g}, N_c = {:.4g}, N_it = {:.3g}, h_SDEM = {:.3g} ms, h_NDEM = {:.3g} ms\n",
                           e.N_p, e.N_c, e.N_it, e.h_S * 1e3, e.h_N * 1e3);
  std::cout << fmt::format("tau_SDEM / tau_real = {:.3g}\ntau_NDEM / tau_real = {:.3g}\n", e.tauS_over_treal, e.tauN_over_treal);
  const double r = e.tauN_over_tauS();
  std::cout << fmt::format("faster: {} ({:.3g}x); prediction checked within a factor 2 by study paper1_cost_prediction\n",
                           r < 1 ? "NDEM" : "SDEM", r < 1 ? 1 / r : r);
  // The model has no cache term: a system this small runs its PGS sweep in L1 (docs/paper1.md).
  if (e.N_c < fits_in_l1_contacts)
    std::cout << fmt::format("note: N_c = {:.3g} contacts fit in the L1 cache; NDEM may run up to 2x faster than predicted "
                             "(checked within 2.5 on a column of 50)\n", e.N_c);
  return 0;
}

const CommandRegistration reg{
    "advise", "Predict SDEM and NDEM run time per real time for a system on this machine (Paper I cost model, measured K)",
    [](CLI::App& cmd) {
      auto o = std::make_shared<Options>();
      o->in.gravity = 9.82;
      o->in.width = 1.0;
      cmd.add_option("--d", o->in.d, "particle diameter, m")->required()->check(CLI::PositiveNumber);
      cmd.add_option("--E", o->in.youngs_modulus, "Young's modulus, Pa")->required()->check(CLI::PositiveNumber);
      cmd.add_option("--rho", o->in.density, "particle density, kg/m^3")->capture_default_str()->check(CLI::PositiveNumber);
      cmd.add_option("--l", o->in.length, "system height l in particle diameters")->required()->check(CLI::Range(1.0, 1e9));
      cmd.add_option("--w", o->in.width, "system width w in particle diameters (< 5: a 1D column)")
          ->capture_default_str()->check(CLI::Range(1.0, 1e9));
      cmd.add_option("--I", o->in.inertial_number, "inertial number of the flow (0: at rest)")->capture_default_str()->check(CLI::Range(0.0, 10.0));
      cmd.add_option("--eps", o->in.tolerance, "NDEM error tolerance (overlap / d)")->capture_default_str()->check(CLI::Range(1e-6, 1.0));
      cmd.add_option("--nu", o->in.poisson_ratio, "Poisson ratio")->capture_default_str()->check(CLI::Range(0.0, 0.49));
      cmd.add_option("--g", o->in.gravity, "gravity, m/s^2")->capture_default_str()->check(CLI::Range(0.0, 1000.0));
      cmd.add_option("--contacts-per-particle", o->in.contacts_per_particle,
                     "N_c / N_p (1: Paper I's Table I; ~3 in a 3D pack at rest)")->capture_default_str()->check(CLI::Range(0.0, 20.0));
      cmd.add_option("--c0", o->in.c0, "Eq. (41) c0")->capture_default_str();
      cmd.add_option("--c1", o->in.c1, "Eq. (41) c1")->capture_default_str();
      cmd.add_option("--c2", o->in.c2, "Eq. (41) c2")->capture_default_str();
      cmd.add_option("--h-ndem-max", o->in.h_ndem_max, "clamp of the NDEM step, s (0: none)")->capture_default_str();
      cmd.add_option("--K-sdem", o->K_sdem, "K_SDEM, s per particle-step (instead of measured)")->check(CLI::PositiveNumber);
      cmd.add_option("--K-ndem", o->K_ndem, "K_NDEM^GS, s per contact-iteration (instead of measured)")->check(CLI::PositiveNumber);
      cmd.add_option("--K-ndem-overhead", o->K_ndem_overhead, "NDEM time per particle-step outside the solve, s (with --K-ndem)");
      cmd.add_flag("--measure", o->measure, "measure the K's now instead of reading the stored paper1_cost_model runs");
      cmd.add_option("--tier", o->tier, "tier of the stored paper1_cost_model runs (default: full if stored, else quick)");
      cmd.add_option("--results", o->results, "results directory (default: <source>/results)");
      return [o] { return advise(*o); };
    },
    60};

}  // namespace
}  // namespace grainlab
