// Experiment edmd_grinding: Gavrilov's grinding models (G-E4, 002 l.905-1032) fed by a collision rate:
// lambda_source = "measured" runs the G-E2 shaker (125 balls, experiments/edmd_shaker_run.hpp) and takes its
// ball-ball rate; "thesis" takes the thesis's 1e5 /s. Evaluates the analytical model (3.29) against the
// matrix exponential, the statistical (Monte Carlo) model against it, the r0 and amount independence, the
// r^2 law of p, the "first seconds" statement (l.909) and the Fig. 3.8 toy chain (experiments/grinding_model.hpp).
#include <algorithm>
#include <cmath>
#include <random>

#include "core/error.hpp"
#include "experiments/edmd_shaker_run.hpp"
#include "experiments/experiment.hpp"
#include "experiments/grinding_model.hpp"

namespace grainlab {
namespace {

struct Ensemble {
  std::vector<double> mean, se;
};

Ensemble ensemble(const grinding::Baskets& b, std::int64_t n0, double collisions, double leap, int runs,
                  std::uint64_t seed) {
  const std::size_t n = b.p.size();
  Ensemble e{std::vector<double>(n, 0.0), std::vector<double>(n, 0.0)};
  std::vector<double> sq(n, 0.0);
  for (int k = 0; k < runs; ++k) {
    std::mt19937_64 rng(seed * 1000003 + k);
    const auto r = grinding::monte_carlo(b, n0, collisions, leap, rng);
    for (std::size_t i = 0; i < n; ++i) e.mean[i] += r.mass_fraction[i], sq[i] += r.mass_fraction[i] * r.mass_fraction[i];
  }
  for (std::size_t i = 0; i < n; ++i) {
    e.mean[i] /= runs;
    const double var = std::max(0.0, sq[i] / runs - e.mean[i] * e.mean[i]) * runs / std::max(runs - 1, 1);
    e.se[i] = std::sqrt(var / runs);
  }
  return e;
}

Experiment make() {
  Experiment e;
  e.name = "edmd_grinding";
  e.description = "Gavrilov's grinding models (Monte Carlo and ODE, Eq. 3.20-3.29) fed by the measured or the thesis's collision rate";
  e.parameters = {
      {"lambda_source", ParamType::text, "", std::string("measured"), {}, {},
       "\"measured\" (G-E2 shaker, ball-ball rate) or \"thesis\" (1e5 /s)", {"measured", "thesis"}},
      {"lambda_seed", ParamType::integer, "-", std::int64_t(1), 0.0, 1e9, "seed of the G-E2 shaker run"},
      {"milling_time", ParamType::real, "s", 86400.0, 1.0, 1e8, "milling time (24 h)"},
      {"initial_radius", ParamType::real, "m", 2e-3, 1e-6, 0.01, "r0 (ledger default 2 mm)"},
      {"min_radius", ParamType::real, "m", 1e-6, 1e-9, 1e-3, "r_k, the radius that does not break (1 um)"},
      {"mc_runs", ParamType::integer, "-", std::int64_t(20), 2.0, 1e5, "Monte Carlo runs per ensemble"},
      {"mc_particles", ParamType::integer, "-", std::int64_t(1000), 1.0, 1e9, "N0, particles in basket 0"},
      {"leap", ParamType::real, "-", 0.01, 1e-6, 1.0, "tau-leaping bound lambda p_max dt"},
      {"early_time", ParamType::real, "s", 60.0, 1e-3, 1e8, "'first seconds' of l.909 (generously 60 s)"},
      {"toy_p0", ParamType::real, "-", 0.2, 0.0, 1.0, "Fig. 3.8 chain: p(B0)"},
      {"toy_p1", ParamType::real, "-", 0.1, 0.0, 1.0, "Fig. 3.8 chain: p(B1)"},
      {"toy_trials", ParamType::integer, "-", std::int64_t(20000), 10.0, 1e8, "Fig. 3.8 chain: runs"},
      {"printed_matrix", ParamType::boolean, "", false, {}, {}, "use the printed row 3 of (3.27) in the matrix exponential"},
      {"seed", ParamType::integer, "-", std::int64_t(1), 0.0, 1e9, "Monte Carlo seed"},
  };
  e.run = [](const Parameters& p, RunContext&) {
    double lambda = 1e5;
    if (p.text("lambda_source") == "measured") {
      edmd_runs::ShakerSetup s;
      s.seed = static_cast<std::uint64_t>(p.integer("lambda_seed"));
      lambda = edmd_runs::run_shaker(s).rate_pair;
    }
    // V_avail of the G-E2 mill: shaker volume minus 125 balls of 3.2 mm.
    grinding::Mill mill;
    mill.available_volume = M_PI * 0.0315 * 0.0315 * 0.103 - 125 * 4.0 / 3.0 * M_PI * std::pow(3.2e-3, 3);
    const double T = p.real("milling_time"), lt = lambda * T, r0 = p.real("initial_radius");
    const grinding::Baskets b = grinding::make_baskets(mill, r0, p.real("min_radius"));
    const std::size_t n = b.p.size();
    const std::vector<double> x = grinding::bateman(b, lt);
    const std::vector<double> xe = grinding::matrix_exponential(b, lt, p.boolean("printed_matrix"));
    double diff = 0, xmin = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double d = std::abs(x[i] - xe[i]);
      diff = std::isfinite(d) ? std::max(diff, d) : 1.0;  // NaN (the printed matrix overflows): as far off as fractions can be
      xmin = std::min(xmin, x[i]);
    }
    const std::size_t peak = std::max_element(x.begin(), x.end()) - x.begin();

    // Statistical model vs (3.29).
    const int runs = static_cast<int>(p.integer("mc_runs"));
    const auto n0 = p.integer("mc_particles");
    const auto seed = static_cast<std::uint64_t>(p.integer("seed"));
    const Ensemble mc = ensemble(b, n0, lt, p.real("leap"), runs, seed);
    const Ensemble mc10 = ensemble(b, 10 * n0, lt, p.real("leap"), runs, seed + 7919);
    double max_z = 0, max_rel = 0, amount_z = 0, amount_rel = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (x[i] < 0.01) continue;
      max_z = std::max(max_z, std::abs(mc.mean[i] - x[i]) / std::max(mc.se[i], 1e-300));
      max_rel = std::max(max_rel, std::abs(mc.mean[i] / x[i] - 1));
      amount_z = std::max(amount_z, std::abs(mc.mean[i] - mc10.mean[i]) /
                                        std::max(std::hypot(mc.se[i], mc10.se[i]), 1e-300));
      amount_rel = std::max(amount_rel, std::abs(mc.mean[i] / mc10.mean[i] - 1));
    }
    // r0 independence: r0 / 2 has the same baskets shifted by 3.
    const grinding::Baskets b_half = grinding::make_baskets(mill, r0 / 2, p.real("min_radius"));
    const std::vector<double> x_half = grinding::bateman(b_half, lt);
    double r0_rel = 0;
    for (std::size_t i = 3; i < n; ++i)
      if (x[i] > 0.01) r0_rel = std::max(r0_rel, std::abs(x_half[i - 3] / x[i] - 1));
    // p ~ r^2: log-log slope over the breakable baskets.
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    const double m = static_cast<double>(n - 1);
    for (std::size_t i = 0; i + 1 < n; ++i) {
      const double lx = std::log(b.radius[i]), ly = std::log(b.p[i]);
      sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly;
    }
    const double slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
    // l.909: a 1-mm particle (r0 = 0.5 mm) in one million 0.01-mm pieces (r <= 5 um) "during first seconds".
    const grinding::Baskets b_mm = grinding::make_baskets(mill, 0.5e-3, p.real("min_radius"));
    const std::vector<double> x_mm = grinding::bateman(b_mm, lambda * p.real("early_time"));
    double early = 0;
    for (std::size_t i = 0; i < b_mm.p.size(); ++i)
      if (b_mm.radius[i] <= 5e-6 * (1 + 1e-9)) early += std::max(0.0, x_mm[i]);
    // Fig. 3.8 toy chain.
    std::mt19937_64 rng(seed + 17);
    const int trials = static_cast<int>(p.integer("toy_trials"));
    double s1 = 0, s2 = 0;
    for (int k = 0; k < trials; ++k) {
      const double c = grinding::toy_chain_collisions(p.real("toy_p0"), p.real("toy_p1"), rng);
      s1 += c, s2 += c * c;
    }
    const double toy_mean = s1 / trials, toy_se = std::sqrt((s2 / trials - toy_mean * toy_mean) / (trials - 1));

    RunResult out;
    out.metrics = {{"lambda", lambda},
                   {"collisions_milling", lt},
                   {"collisions_to_99", grinding::collisions_until_last_holds(b, 0.99)},
                   {"hours_to_99", grinding::collisions_until_last_holds(b, 0.99) / lambda / 3600},
                   {"baskets", static_cast<double>(n)},
                   {"bateman_expm_max_diff", diff},
                   {"bateman_min", xmin},
                   {"mass_last_basket", x.back()},
                   {"peak_radius_um", b.radius[peak] * 1e6},
                   {"peak_mass", x[peak]},
                   {"mc_max_z", max_z},
                   {"mc_max_rel", max_rel},
                   {"mc_amount_max_z", amount_z},
                   {"mc_amount_max_rel", amount_rel},
                   {"r0_max_rel_diff", r0_rel},
                   {"p_slope", slope},
                   {"early_fraction", early},
                   {"toy_mean", toy_mean},
                   {"toy_se", toy_se},
                   {"toy_z", std::abs(toy_mean - 19.736842105263158) / toy_se}};
    TimeSeries& s = out.series["distribution"];
    s.columns = {"radius_um", "p", "mass_analytic", "mass_mc", "mass_mc_se", "mass_expm"};
    for (std::size_t i = 0; i < n; ++i) s.rows.push_back({b.radius[i] * 1e6, b.p[i], x[i], mc.mean[i], mc.se[i], xe[i]});
    return out;
  };
  return e;
}

const ExperimentRegistration registration{make()};

}  // namespace
}  // namespace grainlab
