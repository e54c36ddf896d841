// Experiment `paper5_speedup_model`: Paper V's speed-up model (Eq. 38-40, Fig. 14; seed 000 l.2190-2217)
// evaluated at one reduction level h for one overhead. No simulation: formulas only
// (experiments/paper5_speedup_model.hpp). The overhead delta is given directly (`overhead = "delta"`, the
// Fig. 14 curves), from Eq. 39 (`"contact"`: alpha N_p^{-gamma}) or from Eq. 40 (`"trial"`:
// beta^{1+gamma} eps/eps_mod). `overhead_scale` multiplies delta (1 = the paper; a perturbation tier sets 0.1,
// "delta read 10x too small", to show which checks can fail).
// Reads only its parameters; writes nothing; no threads.
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "experiments/experiment.hpp"
#include "experiments/paper5_speedup_model.hpp"

namespace grainlab {
namespace {

double overhead_of(const Parameters& p) {
  const std::string& kind = p.text("overhead");
  const double gamma = p.real("gamma");
  double delta = 0;
  if (kind == "delta") delta = p.real("delta");
  else if (kind == "contact") delta = paper5::contact_split_overhead(p.real("alpha"), p.real("particles"), gamma);
  else if (kind == "trial") delta = paper5::trial_split_overhead(p.real("beta"), p.real("tolerance_ratio"), gamma);
  else throw InputError("overhead: expected delta, contact or trial, got '" + kind + "'");
  return delta * p.real("overhead_scale");
}

RunResult speedup_model(const Parameters& p, RunContext&) {
  const double h = p.real("h"), gamma = p.real("gamma");
  const double delta = overhead_of(p);
  const double S = paper5::model_speedup(h, delta, gamma);
  const double S0 = paper5::model_speedup(h, 0.0, gamma);
  RunResult r;
  r.metrics = {{"speedup", S},
               {"speedup_no_overhead", S0},
               {"retained_fraction", S / S0},  // share of the overhead-free speed-up that survives delta
               {"delta", delta},
               {"speedup_cap", delta > 0 ? 1.0 / delta : std::numeric_limits<double>::infinity()},
               {"solve_fraction", paper5::reduced_solve_fraction(h, gamma)},
               {"h_for_speedup5", paper5::level_for_speedup(5.0, delta, gamma)},
               {"h_for_speedup50", paper5::level_for_speedup(50.0, delta, gamma)}};
  return r;
}

const ExperimentRegistration reg{Experiment{
    .name = "paper5_speedup_model",
    .description = "Paper V speed-up model (Eq. 38-40, Fig. 14): S = 1/(delta + (1-h)^(1+gamma)) at one reduction level",
    .parameters =
        {
            {"case", ParamType::integer, "-", std::int64_t{0}, 0.0, 1000.0, "case label (not used in the formulas)"},
            {"h", ParamType::real, "-", 0.0, 0.0, 1.0, "reduction level h = 1 - N~_p/N_p"},
            {"gamma", ParamType::real, "-", 1.0 / 3.0, 0.0, 10.0, "iteration exponent gamma = 1/n_D (000 l.2196; Fig. 14: 1/3)"},
            {"overhead", ParamType::text, "", std::string("delta"), std::nullopt, std::nullopt,
             "how delta is given: delta (directly), contact (Eq. 39: alpha N_p^-gamma), trial (Eq. 40: beta^(1+gamma) eps/eps_mod)",
             {"delta", "contact", "trial"}},
            {"delta", ParamType::real, "-", 0.0, 0.0, 100.0, "overhead t_mod/t_solve(h=0) (overhead = delta)"},
            {"alpha", ParamType::real, "-", 1.0, 0.0, 100.0, "Eq. 39 constant alpha (overhead = contact)"},
            {"particles", ParamType::real, "-", 1e4, 1.0, 1e12, "N_p (overhead = contact)"},
            {"beta", ParamType::real, "-", 1.0, 0.0, 1.0, "Eq. 40: fraction of the system in the trial solve (overhead = trial)"},
            {"tolerance_ratio", ParamType::real, "-", 1.0, 1e-9, 1e9, "Eq. 40: eps/eps_mod (overhead = trial)"},
            {"overhead_scale", ParamType::real, "-", 1.0, 0.0, 1e6, "factor on delta (1 = the paper; perturbation tiers only)"},
        },
    .run = speedup_model}};

}  // namespace
}  // namespace grainlab
