// Experiment `paper3_bed_statistics_rows`: can one row of Paper III Table 4's bed-profile block (000 l.1312-1331)
// hold, given Eq. (14)-(15) (000 l.1343-1352, 1398-1400)? A simulated profile h with sigma_h, the observed
// profile h_bar with sigma_obs and the printed sigma_{h-h_bar}: Eq. (15) can only take values in
// relative_variation_range(sigma_h, sigma_obs, <h>/<h_bar>) (experiments/bed_profile.hpp). With equal means
// the implied correlation of the two profile shapes, cos phi = (sigma_h^2 + sigma_obs^2 - sigma_rel^2) /
// (2 sigma_h sigma_obs), must lie in [-1, 1]; it also says how alike the printed numbers make the shapes.
// `eq15_prefactor` reads Eq. (15) with another factor than its 4 (a perturbation: 1 is the misreading that
// drops it); `hbar_reading = mean` takes h_bar for the observed mean height (another misreading). The row's
// Eq. (15) is also evaluated on a constructed pair of cosine profiles with the printed sigmas and the implied
// phase (equal means), so the range is the code's, not only the formula's.
// Reads only its parameters; writes nothing.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/error.hpp"
#include "experiments/bed_profile.hpp"
#include "experiments/experiment.hpp"

namespace grainlab {
namespace {

RunResult check_row(const Parameters& p, RunContext&) {
  const double sh = p.real("sigma_h"), so = p.real("sigma_obs"), ratio = p.real("mean_ratio");
  // The printed value under this reading of Eq. (15): a prefactor c instead of 4 scales it by sqrt(c/4),
  // so the value Eq. (15) with its 4 would give is printed * sqrt(4/c).
  const double rel = p.real("sigma_rel") * std::sqrt(4 / p.real("eq15_prefactor"));
  const RelativeVariationRange range = relative_variation_range(sh, so, ratio);
  const double correlation = (sh * sh + so * so - rel * rel) / (2 * sh * so);

  // Constructed pair (equal means, 2.4 m belt at 0.025 m): h_bar = 1 + sqrt2 so cos(ky),
  // h = 1 + sqrt2 sh cos(ky + phi) with cos phi = the implied correlation (clamped).
  const double phi = std::acos(std::clamp(correlation, -1.0, 1.0));
  std::vector<double> h(96), hb(96);
  for (std::size_t j = 0; j < h.size(); ++j) {
    const double ky = 2 * std::numbers::pi * (static_cast<double>(j) + 0.5) / static_cast<double>(h.size());
    hb[j] = 1 + std::sqrt(2.0) * so * std::cos(ky);
    h[j] = 1 + std::sqrt(2.0) * sh * std::cos(ky + phi);
  }
  // The reference Eq. (15) compares with: the observed profile, or (misreading) its mean height.
  std::vector<double> reference = hb;
  if (p.text("hbar_reading") == "mean") {
    double m = 0;
    for (double v : hb) m += v;
    reference.assign(hb.size(), m / static_cast<double>(hb.size()));
  }
  const BedProfileStatistics st = bed_profile_statistics(h, reference);

  RunResult out;
  out.metrics = {{"sigma_rel_eq15", rel},
                 {"range_low", range.lowest},
                 {"range_high", range.highest},
                 {"margin_low", rel - range.lowest},
                 {"margin_high", range.highest - rel},
                 {"shape_correlation", correlation},
                 {"constructed_sigma_h", st.sigma_h},
                 {"constructed_sigma_obs", coefficient_of_variation(hb)},
                 {"constructed_sigma_rel", st.sigma_h_minus_reference},
                 {"constructed_self", relative_coefficient_of_variation(hb, reference)}};
  return out;
}

const ExperimentRegistration reg{Experiment{
    .name = "paper3_bed_statistics_rows",
    .description = "Paper III Table 4 bed-profile rows against Eq. (14)-(15): the range Eq. (15) allows for the "
                   "printed sigma_h and sigma_obs, the implied shape correlation, and a constructed profile pair",
    .parameters =
        {
            {"row", ParamType::integer, "-", std::int64_t{1}, 1.0, 100.0, "row number (plots)"},
            {"circuit", ParamType::text, "", std::string("RK1"), {}, {}, "RK1 | RK5", {"RK1", "RK5"}},
            {"outlet", ParamType::text, "", std::string("o"), {}, {}, "o | m | c | ic (000 l.1392-1404)",
             {"o", "m", "c", "ic"}},
            {"sigma_h", ParamType::real, "-", 0.83, 1e-6, 10.0, "printed sigma_h of the simulation (Eq. 14)"},
            {"sigma_obs", ParamType::real, "-", 0.41, 1e-6, 10.0, "printed sigma_h of the observation (Eq. 14)"},
            {"sigma_rel", ParamType::real, "-", 1.01, 0.0, 10.0, "printed sigma_{h-h_bar} (Eq. 15)"},
            {"mean_ratio", ParamType::real, "-", 1.0, 0.01, 100.0, "<h>/<h_bar> (1: equal feed and belt speed)"},
            {"eq15_prefactor", ParamType::real, "-", 4.0, 0.01, 100.0, "the factor in Eq. (15) (printed: 4)"},
            {"hbar_reading", ParamType::text, "", std::string("profile"), {}, {},
             "h_bar in Eq. (15): profile (the observed h_bar(y)) | mean (a misreading: its mean height, perturbation)",
             {"profile", "mean"}},
        },
    .run = check_row}};

}  // namespace
}  // namespace grainlab
