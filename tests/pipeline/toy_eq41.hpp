#pragma once
// Stand-ins for the Paper I E2 (cylinders) and E3 (drum) experiments, for the E4 refit of Eq. (41): they
// report the metrics the E4 study reads, as the real paper1_cylinder / paper1_drum do (eps_c, bed_height_d,
// width_d, inertial_number, particles, contacts; the drum's n_it_required from an N_it ladder), computed
// from Eq. (41) itself with known coefficients, so that a fit of the grid-quantised N_it^0.05 must recover
// them. <eps_c> = 0.05 N_true/N_it: it falls below 0.05 exactly from N_it = N_true on (N_it ~ 1/eps,
// 000 l.664). toy_cylinder: w = diameter_ratio, l = N_p/(0.6 pi/4 w^2), I = 0. toy_drum: w = 80,
// l = 0.15 sqrt(N_p), I = 0.5 omega (a toy: a larger rate dependence than a real drum, so that c1 is
// determined); with iteration_ladder = "5,10,..." n_it_required = the smallest rung >= N_true (NaN if none,
// and NaN without a ladder). Both have the real experiments' warm_start parameter (only "cold" changes nothing).
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>
#include <string>

#include "experiments/cost_model.hpp"
#include "experiments/experiment.hpp"

namespace toy_eq41 {
inline constexpr double c0 = 0.3, c1 = 2.0, c2 = 0.44;  // the paper's (000 l.677)

/// The smallest rung of a ladder "5,10,25" that is >= n; NaN for none or an empty ladder.
inline double smallest_rung(const std::string& ladder, double n) {
  std::istringstream in(ladder);
  std::string rung;
  while (std::getline(in, rung, ','))
    if (std::stod(rung) >= n) return std::stod(rung);
  return std::numeric_limits<double>::quiet_NaN();
}

inline grainlab::RunResult report(const grainlab::Parameters& p, double l, double w, double I) {
  const double truth = grainlab::eq41_iterations(l, w, I, 0.05, c0, c1, c2);
  grainlab::RunResult r;
  if (p.values.count("iteration_ladder")) r.metrics["n_it_required"] = smallest_rung(p.text("iteration_ladder"), truth);
  r.metrics["eps_c"] = 0.05 * truth / double(p.integer("iterations"));
  r.metrics["bed_height_d"] = l;
  r.metrics["width_d"] = w;
  r.metrics["inertial_number"] = I;
  r.metrics["particles"] = double(p.integer("count"));
  r.metrics["contacts"] = 3.0 * double(p.integer("count"));
  return r;
}

inline const grainlab::ExperimentRegistration cylinder{grainlab::Experiment{
    .name = "toy_cylinder",
    .description = "Eq. (41) stand-in for the Paper I cylinders (E4 tests)",
    .parameters = {{"iterations", grainlab::ParamType::integer, "-", std::int64_t{10}, 1.0, 1e6, "N_it"},
                   {"count", grainlab::ParamType::integer, "-", std::int64_t{1000}, 1.0, 1e7, "N_p"},
                   {"diameter_ratio", grainlab::ParamType::real, "-", 6.0, 1.0, 100.0, "Phi/d"},
                   {"label", grainlab::ParamType::text, "", std::string(""), {}, {}, "variant name"},
                   {"warm_start", grainlab::ParamType::text, "", std::string("cold"), {}, {}, "as paper1_cylinder"}},
    .run = [](const grainlab::Parameters& p, grainlab::RunContext&) {
      const double w = p.real("diameter_ratio");
      return report(p, double(p.integer("count")) / (0.6 * std::numbers::pi / 4 * w * w), w, 0.0);
    }}};

inline const grainlab::ExperimentRegistration drum{grainlab::Experiment{
    .name = "toy_drum",
    .description = "Eq. (41) stand-in for the Paper I drum (E4 tests)",
    .parameters = {{"iterations", grainlab::ParamType::integer, "-", std::int64_t{10}, 1.0, 1e6, "N_it"},
                   {"count", grainlab::ParamType::integer, "-", std::int64_t{1000}, 1.0, 1e7, "N_p"},
                   {"omega", grainlab::ParamType::real, "rad/s", 0.0, 0.0, 10.0, "drum rotation"},
                   {"iteration_ladder", grainlab::ParamType::text, "", std::string(""), {}, {}, "N_it rungs, e.g. 5,10,25"},
                   {"warm_start", grainlab::ParamType::text, "", std::string("cold"), {}, {}, "as paper1_drum"}},
    .run = [](const grainlab::Parameters& p, grainlab::RunContext&) {
      return report(p, 0.15 * std::sqrt(double(p.integer("count"))), 80.0, 0.5 * p.real("omega"));
    }}};
}  // namespace toy_eq41
