// Experiment ndem_pile_diagnostics: Paper IV E2b, solver diagnostics on a stationary pile (000 l.1664-1691;
// 001 l.135-159; ledger ../shared/claims/paper4.md E2b). A pile is emitted and settled with N_it =
// prepare_iterations (experiments/pile_preparation.hpp), then two branches start from that same state: COLD
// and the warm start `warm_start` (WH: history, beta = warm_start_beta, velocity update Eq. 8). Each runs
// run_time (1 s) at N_it = run_iterations (100), recording the per-row residuals of its last solve (Fig. 9),
// then takes one more step with N_it = measure_iterations (500) that records, per iteration k:
//   - the multiplier error eps_lambda_k of Eq. 13 against its own iterate lambda_500 (as printed; the
//     stepper's reference_iterations observer solves the same step from the same start, so lambda_ref IS
//     lambda_500), contacts with lambda_500 = 0 skipped;
//   - the same against a common reference: a cold 2000-iteration solve of that step (ledger E2b);
//   - the mean |residual| over all rows and per row type (Fig. 8; the residual of docs/ndem.md, Eq. 6 corrected).
// Metrics and series are documented in docs/paper4_e2b.md.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>
#include <tbb/parallel_invoke.h>

#include "core/error.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/stability_guard.hpp"
#include "experiments/convergence_curves.hpp"
#include "experiments/experiment.hpp"
#include "experiments/material_parameters.hpp"
#include "experiments/pile_preparation.hpp"

namespace grainlab {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// What one branch (COLD or the warm start) measured.
struct Branch {
  std::vector<double> rows_n, rows_t, rows_r;  ///< per-row |r| of the last run_iterations solve (Fig. 9)
  std::vector<double> eps_own, eps_common;     ///< Eq. 13 per iteration of the measurement solve
  std::vector<double> res_all, res_n, res_t, res_r;  ///< mean |r| per iteration of the measurement solve
  std::size_t contacts = 0;
  double max_speed = 0, top = 0;               ///< after run_time
};

// The stepper records mean |r| per type; the mean over all rows weights the types by their row counts
// (1 normal, 2 friction, 3 rolling per contact), as PgsResult::final_residual does.
std::vector<double> all_rows_mean(const NdemStepStats& st) {
  const std::size_t n = st.residual_normal.size();
  std::vector<double> out(n);
  const bool rolling = !st.residual_rolling.empty();
  for (std::size_t k = 0; k < n; ++k)
    out[k] = rolling ? (st.residual_normal[k] + 2 * st.residual_friction[k] + 3 * st.residual_rolling[k]) / 6.0
                     : (st.residual_normal[k] + 2 * st.residual_friction[k]) / 3.0;
  return out;
}

Branch run_branch(const World& pile, NdemSettings s, const Parameters& p) {
  Branch b;
  World w = pile;
  s.iterations = int(p.integer("run_iterations"));
  s.record_row_residuals = true;  // one probing sweep per step (1 % at N_it = 100); only the last one is kept
  NdemStepper run(s);
  const StabilityGuard guard(w, {.max_energy_gain = 2.0, .max_overlap_ratio = s.max_overlap_ratio},
                             "ndem_pile_diagnostics");
  const int steps = int(std::llround(p.real("run_time") / s.time_step));
  for (int k = 0; k < steps; ++k) {
    run.step(w);
    guard.check(w);
  }
  if (steps > 0) {
    b.rows_n = run.stats().row_residual_normal;
    b.rows_t = run.stats().row_residual_friction;
    b.rows_r = run.stats().row_residual_rolling;
  }
  b.max_speed = max_particle_speed(w);
  b.top = pile_top(w);

  // The measurement step, twice from the same state: own reference (lambda_500 of this solve) and the common
  // cold reference.
  World wc = w;
  NdemSettings m = s;
  m.record_row_residuals = false;
  m.iterations = int(p.integer("measure_iterations"));
  m.record_residuals = true;
  m.reference_iterations = m.iterations;
  NdemStepper own(m);
  own.step(w);
  b.contacts = own.stats().contacts;
  b.eps_own = own.stats().multiplier_error;
  b.res_n = own.stats().residual_normal;
  b.res_t = own.stats().residual_friction;
  b.res_r = own.stats().residual_rolling;
  b.res_all = all_rows_mean(own.stats());
  NdemSettings c = m;
  c.record_residuals = false;
  c.reference_iterations = int(p.integer("common_reference_iterations"));
  c.reference_cold_start = true;
  NdemStepper common(c);
  common.step(wc);
  b.eps_common = common.stats().multiplier_error;
  return b;
}

RunResult run_diagnostics(const Parameters& p, RunContext& ctx) {
  Material mat = material_from_parameters(p, "pellet");
  // Paper IV bounds the whole rolling block, twisting included, by mu_r r* |G_n^T lambda_n| (000 l.1572);
  // grainlab's twisting limit is alpha_rn mu r*, so alpha_rn = mu_r / mu gives Paper IV's twisting bound.
  const std::string twisting = p.text("twisting");
  if (twisting == "rolling_limit") {
    if (!(mat.friction > 0) || mat.rolling_friction > mat.friction)
      throw InputError(fmt::format("ndem_pile_diagnostics: twisting = rolling_limit needs 0 < rolling_friction <= "
                                   "friction (got {} and {}); use twisting = none",
                                   mat.rolling_friction, mat.friction));
    mat.twisting_factor = mat.rolling_friction / mat.friction;
  } else if (twisting != "none") {
    throw InputError(fmt::format("ndem_pile_diagnostics: twisting = '{}' is invalid (rolling_limit, none)", twisting));
  }
  const int n_measure = int(p.integer("measure_iterations"));
  const int slope_from = int(p.integer("slope_from")), slope_to = int(p.integer("slope_to"));
  if (slope_to > n_measure || slope_from >= slope_to)
    throw InputError(fmt::format("ndem_pile_diagnostics: slope_from = {} < slope_to = {} <= measure_iterations = {} "
                                 "is required", slope_from, slope_to, n_measure));
  for (const char* k : {"sample_k1", "sample_k2", "sample_k3"})
    if (p.integer(k) > n_measure)
      throw InputError(fmt::format("ndem_pile_diagnostics: {} = {} exceeds measure_iterations = {}", k, p.integer(k),
                                   n_measure));

  NdemSettings s;
  s.time_step = p.real("dt");
  s.impact_velocity = p.real("impact_velocity");
  s.warm_start_beta = p.real("warm_start_beta");
  s.iterations = int(p.integer("prepare_iterations"));
  s.warm_start = parse_warm_start(p.text("prepare_warm_start"));

  World pile = pile_world(mat, p.real("gravity"));
  PileSource src;
  src.diameter = p.real("diameter");
  src.height = p.real("source_height");
  src.width = p.real("source_width");
  src.rate = p.real("emission_rate");
  src.count = int(p.integer("count"));
  src.seed = std::uint64_t(p.integer("seed"));
  PileRestRule rest;
  rest.rest_speed = p.real("rest_speed");
  rest.settle_min = p.real("settle_min_time");
  rest.settle_max = p.real("settle_max_time");
  NdemStepper prepare(s);
  auto progress = [&](double f) {
    if (ctx.progress) ctx.progress(0.8 * f);
  };
  const PileStats prep = prepare_resting_pile(pile, src, rest, prepare, progress);

  NdemSettings cold = s, warm = s;
  cold.warm_start = NdemWarmStart::cold;
  warm.warm_start = parse_warm_start(p.text("warm_start"));
  Branch bc, bw;
  auto run_cold = [&] { bc = run_branch(pile, cold, p); };
  auto run_warm = [&] { bw = run_branch(pile, warm, p); };
  if (ctx.threads > 1)
    tbb::parallel_invoke(run_cold, run_warm);  // independent worlds: the same results as one after the other
  else {
    run_cold();
    run_warm();
  }
  if (ctx.progress) ctx.progress(1.0);

  RunResult out;
  auto& M = out.metrics;
  const double d = src.diameter;
  M["particles"] = double(prep.particles);
  M["pile_height_d"] = prep.height / d;
  M["prep_settle_time"] = prep.settle_time;
  M["prep_max_speed"] = prep.max_speed;
  M["prep_at_rest"] = prep.at_rest ? 1 : 0;
  const std::pair<const char*, const Branch*> branches[] = {{"cold", &bc}, {"wh", &bw}};
  for (const auto& [name, b] : branches) {
    const std::string v = name;
    M["contacts_" + v] = double(b->contacts);
    M["max_speed_" + v] = b->max_speed;
    M["pile_height_d_" + v] = b->top / d;
    for (const char* k : {"sample_k1", "sample_k2", "sample_k3"}) {
      const int kk = int(p.integer(k));
      const std::string at = fmt::format("_k{}", kk);
      M["eps_lambda_" + v + at] = kk <= int(b->eps_own.size()) ? b->eps_own[kk - 1] : nan;
      M["eps_lambda_common_" + v + at] = kk <= int(b->eps_common.size()) ? b->eps_common[kk - 1] : nan;
      M["mean_residual_" + v + at] = kk <= int(b->res_all.size()) ? b->res_all[kk - 1] : nan;
    }
    M["eps_lambda_common_" + v + "_final"] = b->eps_common.empty() ? nan : b->eps_common.back();
    M["mean_residual_" + v + "_k1"] = b->res_all.empty() ? nan : b->res_all.front();
    M["mean_residual_" + v + "_final"] = b->res_all.empty() ? nan : b->res_all.back();
    M["residual_slope_" + v] = log10_slope(b->res_all, slope_from, slope_to);
    M["residual_n_" + v] = mean_value(b->rows_n);
    M["residual_t_" + v] = mean_value(b->rows_t);
    M["residual_r_" + v] = mean_value(b->rows_r);
  }
  // COLD / warm ratios (the paper's "roughly five times", 000 l.1669, 1679).
  for (const char* k : {"sample_k1", "sample_k2", "sample_k3"}) {
    const int kk = int(p.integer(k));
    M[fmt::format("eps_lambda_ratio_k{}", kk)] = curve_ratio_at(bc.eps_own, bw.eps_own, kk);
    M[fmt::format("eps_lambda_common_ratio_k{}", kk)] = curve_ratio_at(bc.eps_common, bw.eps_common, kk);
    M[fmt::format("residual_ratio_k{}", kk)] = curve_ratio_at(bc.res_all, bw.res_all, kk);
  }
  // C28: warm below cold at every k < N (eps_lambda_N = 0 by definition with the own reference).
  const CurveRatioRange eo = curve_ratio_range(bc.eps_own, bw.eps_own, 1, n_measure - 1);
  M["eps_lambda_ratio_min"] = eo.min;
  M["eps_lambda_ratio_min_at"] = eo.argmin;
  const CurveRatioRange ec = curve_ratio_range(bc.eps_common, bw.eps_common, 1, n_measure);
  M["eps_lambda_common_ratio_min"] = ec.min;
  M["eps_lambda_common_ratio_min_at"] = ec.argmin;
  // C30: the residual lead over k = 1 ... N.
  const CurveRatioRange rr = curve_ratio_range(bc.res_all, bw.res_all, 1, n_measure);
  M["residual_ratio_min"] = rr.min;
  M["residual_ratio_max"] = rr.max;
  M["residual_ratio_min_at"] = rr.argmin;
  M["residual_ratio_max_at"] = rr.argmax;
  M["residual_ratio_final"] = curve_ratio_at(bc.res_all, bw.res_all, n_measure);
  // C29: convergence rates (slopes of log10 mean |r| vs k).
  M["residual_slope_ratio"] = M["residual_slope_cold"] / M["residual_slope_wh"];
  // C03/C31: R_X = mean |r_X| (COLD) / mean |r_X| (warm) after run_time at N_it = run_iterations.
  for (const char* x : {"n", "t", "r"})
    M[fmt::format("R_{}", x)] = M[fmt::format("residual_{}_cold", x)] / M[fmt::format("residual_{}_wh", x)];
  M["R_t_over_R_n"] = M["R_t"] / M["R_n"];
  M["R_r_over_R_n"] = M["R_r"] / M["R_n"];
  M["time_solve"] = pile.timers.solve;  // preparation only (the branches' worlds are copies)

  // Series: per-iteration curves (Figs. 7, 8) and residual histograms (Fig. 9).
  TimeSeries eps{{"k", "cold", "wh", "cold_common", "wh_common", "ratio", "ratio_common"}, {}};
  TimeSeries res{{"k", "cold", "wh", "ratio", "cold_normal", "cold_friction", "cold_rolling", "wh_normal",
                  "wh_friction", "wh_rolling"},
                 {}};
  auto at = [](const std::vector<double>& v, int k) { return k <= int(v.size()) ? v[k - 1] : nan; };
  for (int k = 1; k <= n_measure; ++k) {
    eps.rows.push_back({double(k), at(bc.eps_own, k), at(bw.eps_own, k), at(bc.eps_common, k), at(bw.eps_common, k),
                        curve_ratio_at(bc.eps_own, bw.eps_own, k), curve_ratio_at(bc.eps_common, bw.eps_common, k)});
    res.rows.push_back({double(k), at(bc.res_all, k), at(bw.res_all, k), curve_ratio_at(bc.res_all, bw.res_all, k),
                        at(bc.res_n, k), at(bc.res_t, k), at(bc.res_r, k), at(bw.res_n, k), at(bw.res_t, k),
                        at(bw.res_r, k)});
  }
  out.series["multiplier_error"] = std::move(eps);
  out.series["mean_residual"] = std::move(res);

  const std::vector<std::span<const double>> sets = {bc.rows_n, bc.rows_t, bc.rows_r, bw.rows_n, bw.rows_t, bw.rows_r};
  const io::HistogramAxis axis = log10_axis(sets, int(p.integer("histogram_bins_per_decade")));
  TimeSeries hist{{"log10_residual", "cold_normal", "cold_friction", "cold_rolling", "wh_normal", "wh_friction",
                   "wh_rolling"},
                  {}};
  std::vector<io::Histogram> hs;
  const char* zero_names[] = {"cold_normal", "cold_friction", "cold_rolling", "wh_normal", "wh_friction", "wh_rolling"};
  for (std::size_t i = 0; i < sets.size(); ++i) {
    std::size_t zeros = 0;
    hs.push_back(log10_histogram(sets[i], axis, zeros));
    M[fmt::format("zero_residual_fraction_{}", zero_names[i])] =
        sets[i].empty() ? nan : double(zeros) / double(sets[i].size());
  }
  for (int bin = 0; bin < axis.bins; ++bin) {
    std::vector<double> row{axis.lower + (bin + 0.5) * (axis.upper - axis.lower) / axis.bins};
    for (std::size_t i = 0; i < sets.size(); ++i)
      row.push_back(sets[i].empty() ? 0.0 : double(hs[i].counts[bin]) / double(sets[i].size()));
    hist.rows.push_back(std::move(row));
  }
  out.series["residual_histogram"] = std::move(hist);
  return out;
}

const ExperimentRegistration reg{Experiment{
    .name = "ndem_pile_diagnostics",
    .description = "Paper IV E2b (000 l.1664-1691): a pile prepared at N_it = 500, then COLD and a warm start each "
                   "1 s at N_it = 100; multiplier error (Eq. 13), mean residual vs iteration and residual histograms "
                   "per row type",
    .parameters =
        {
            {"count", ParamType::integer, "-", std::int64_t(3363), 1.0, 1e6, "particles emitted N_p"},
            {"diameter", ParamType::real, "m", 0.013, 1e-6, 10.0, "sphere diameter d"},
            {"density", ParamType::real, "kg/m^3", 3700.0, 1e-3, 1e5, "particle density"},
            {"youngs_modulus", ParamType::real, "Pa", 6e6, 1.0, 1e15, "Young's modulus E"},
            {"poisson_ratio", ParamType::real, "-", 0.25, -0.99, 0.49, "Poisson ratio"},
            {"restitution", ParamType::real, "-", 0.18, 0.0, 1.0, "restitution e"},
            {"friction", ParamType::real, "-", 0.91, 0.0, 100.0, "friction mu_s"},
            {"rolling_friction", ParamType::real, "-", 0.32, 0.0, 100.0, "rolling resistance mu_r"},
            {"twisting", ParamType::text, "", std::string("rolling_limit"), {}, {},
             "rolling_limit: twisting bounded like rolling, mu_r r* |f_n| (Paper IV's 3-row rolling block, 000 "
             "l.1572) | none: no twisting resistance",
             {"rolling_limit", "none"}},
            {"gravity", ParamType::real, "m/s^2", 9.81, 0.0, 1e3, "gravity magnitude (-z)"},
            {"dt", ParamType::real, "s", 0.005, 1e-9, 1.0, "time step"},
            {"impact_velocity", ParamType::real, "m/s", 0.05, -1.0, 1e3, "v_imp (< 0: rule 0.02 d / dt)"},
            {"source_height", ParamType::real, "d", 15.0, 1.0, 1e4, "emission patch height above the ground"},
            {"source_width", ParamType::real, "d", 3.0, 1.0, 1e4, "side of the square emission patch"},
            {"emission_rate", ParamType::real, "1/s", 200.0, 1e-3, 1e6, "particles emitted per second"},
            {"seed", ParamType::integer, "-", std::int64_t(1), 0.0, 9e15, "emitter seed"},
            {"rest_speed", ParamType::real, "m/s", 0.01, 1e-9, 1e3, "the pile is at rest when every particle is slower"},
            {"settle_min_time", ParamType::real, "s", 1.0, 0.0, 1e4, "settling after the last emission, at least"},
            {"settle_max_time", ParamType::real, "s", 10.0, 0.0, 1e4, "settling after the last emission, at most"},
            {"prepare_iterations", ParamType::integer, "-", std::int64_t(500), 1.0, 1e7, "N_it of the preparation"},
            {"prepare_warm_start", ParamType::text, "", std::string("cold"), {}, {}, "warm start of the preparation",
             {"cold", "history", "history_normal_only", "history_no_velocity_update", "model"}},
            {"warm_start", ParamType::text, "", std::string("history"), {}, {},
             "the warm branch compared with COLD (history = WH of Paper IV)",
             {"cold", "history", "history_normal_only", "history_no_velocity_update", "model"}},
            {"warm_start_beta", ParamType::real, "-", 0.85, 0.0, 1.0, "beta of the history warm starts (Eq. 7)"},
            {"run_time", ParamType::real, "s", 1.0, 0.0, 1e4, "each branch's run before the measurement"},
            {"run_iterations", ParamType::integer, "-", std::int64_t(100), 1.0, 1e7, "N_it of the branches' run"},
            {"measure_iterations", ParamType::integer, "-", std::int64_t(500), 2.0, 1e7,
             "N_it of the measurement solve (Eq. 13's lambda_500)"},
            {"common_reference_iterations", ParamType::integer, "-", std::int64_t(2000), 1.0, 1e8,
             "iterations of the common cold reference solve"},
            {"sample_k1", ParamType::integer, "-", std::int64_t(10), 1.0, 1e7, "iteration k sampled in the metrics"},
            {"sample_k2", ParamType::integer, "-", std::int64_t(50), 1.0, 1e7, "iteration k sampled in the metrics"},
            {"sample_k3", ParamType::integer, "-", std::int64_t(100), 1.0, 1e7, "iteration k sampled in the metrics"},
            {"slope_from", ParamType::integer, "-", std::int64_t(10), 1.0, 1e7, "first k of the residual slope fit"},
            {"slope_to", ParamType::integer, "-", std::int64_t(500), 2.0, 1e7, "last k of the residual slope fit"},
            {"histogram_bins_per_decade", ParamType::integer, "-", std::int64_t(4), 1.0, 1000.0,
             "bins per decade of the log10 residual histograms"},
        },
    .run = run_diagnostics}};

}  // namespace
}  // namespace grainlab
