// Experiment ndem_column: a 1D column of spheres resting on a floor, stepped with the NDEM engine
// (Paper I 000 l.685/723: Hertz column; Paper IV 000 l.1625-1660: column height error vs N_it and
// warm starting). Metrics are documented in docs/ndem.md.
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/hertz.hpp"
#include "core/io/contact_histogram.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/stability_guard.hpp"
#include "experiments/experiment.hpp"
#include "experiments/material_parameters.hpp"

namespace grainlab {
namespace {

// Contact histogram observer from the histogram_* parameters (docs/io.md); null when histogram_bins = 0.
std::unique_ptr<io::ContactHistogramObserver> histogram_observer(const Parameters& p) {
  const int bins = int(p.integer("histogram_bins"));
  if (bins == 0) return nullptr;
  io::ContactHistogramSettings h;
  auto axis = [bins](double lo, double hi, const char* name) {
    if (lo > hi)
      throw InputError(fmt::format("ndem_column: histogram_{0}_min = {1} > histogram_{0}_max = {2} (equal values "
                                   "select automatic binning)", name, lo, hi));
    io::HistogramAxis a;
    a.bins = bins;
    a.automatic = lo == hi;
    a.lower = lo;
    a.upper = hi;
    return a;
  };
  h.overlap = axis(p.real("histogram_overlap_min"), p.real("histogram_overlap_max"), "overlap");
  h.normal_velocity = axis(p.real("histogram_velocity_min"), p.real("histogram_velocity_max"), "velocity");
  h.overlap_unit = io::parse_overlap_unit(p.text("histogram_overlap_unit"));
  return std::make_unique<io::ContactHistogramObserver>(h, std::uint64_t(p.integer("histogram_every")));
}

// A diverged run recorded instead of failed (on_instability = "record": a study that maps where a method
// diverges): accuracy metrics are NaN (never "reached" by a min_reaching derived quantity), `diverged` = 1
// at `diverged_time`.
// A buckled column or one whose spheres passed through each other (below) is recorded the same way,
// with `buckled` = 1 or `passed_through` = 1.
RunResult diverged(const World& w, double max_lateral_offset_d, bool buckled, double min_step, bool passed_through) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  RunResult out;
  for (const char* k : {"max_overlap_error_over_d", "mean_overlap_error", "height_error", "eps_l", "abs_eps_l",
                        "bottom_force_over_weight", "iterations_used", "mean_overlap_error_ref", "max_overlap_error_ref",
                        "eps_c", "eps_c_max", "eps_c_elastic", "eps_c_excess", "coordination_number"})
    out.metrics[k] = nan;
  out.metrics["time_solve"] = w.timers.solve;
  out.metrics["diverged"] = 1;
  out.metrics["diverged_time"] = w.time;
  out.metrics["max_lateral_offset_d"] = max_lateral_offset_d;
  out.metrics["buckled"] = buckled ? 1 : 0;
  out.metrics["min_centre_step_d"] = min_step;
  out.metrics["passed_through"] = passed_through ? 1 : 0;
  return out;
}

// Paper IV Fig. 4 (000 l.1644, 1652): the mean |residual| per row type at every PGS iteration of one solve,
// as run series `residuals` (k = 0 is the first sweep, whose residual is that of the initial guess), and
// the numbers its claims compare: the normal residual at k = 0, 10, N_it/2 and the last k, and its
// convergence rate = least-squares slope of ln mean|r_n| vs k for k >= 10 (per iteration; < 0 converging).
// NaN when nothing was recorded (off, or the run diverged before the recorded step).
void add_residual_series(RunResult& out, const NdemStepStats& st) {
  const auto& rn = st.residual_normal;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto at = [&](std::size_t k) { return k < rn.size() ? rn[k] : nan; };
  out.metrics["residual_normal_k0"] = at(0);
  out.metrics["residual_normal_k10"] = at(10);
  out.metrics["residual_normal_mid"] = at(rn.size() / 2);
  out.metrics["residual_normal_last"] = rn.empty() ? nan : rn.back();
  double sx = 0, sy = 0, sxx = 0, sxy = 0, m = 0;
  for (std::size_t k = 10; k < rn.size(); ++k)
    if (rn[k] > 0) {  // an exactly converged row set has no logarithm
      const double x = double(k), y = std::log(rn[k]);
      sx += x, sy += y, sxx += x * x, sxy += x * y, m += 1;
    }
  out.metrics["residual_normal_rate"] = m >= 2 ? (m * sxy - sx * sy) / (m * sxx - sx * sx) : nan;
  TimeSeries series{{"k", "normal", "friction", "rolling"}, {}};
  for (std::size_t k = 0; k < rn.size(); ++k)
    series.rows.push_back({double(k), rn[k], st.residual_friction[k], st.residual_rolling[k]});
  out.series["residuals"] = std::move(series);
}

// Largest distance of a sphere centre from the column axis (x = y = 0), in diameters.
double lateral_offset_over_d(const World& w, double d) {
  double worst = 0;
  for (const Vec3& x : w.particles.position) worst = std::max(worst, std::hypot(x.x(), x.y()) / d);
  return worst;
}

// Smallest height step (z_j - z_{j-1}) / d between consecutive spheres (1 = touching, 0 = concentric,
// < 0: sphere j has passed through sphere j - 1), and the j where it occurs.
std::pair<double, int> smallest_centre_step_over_d(const World& w, double d) {
  std::pair<double, int> out{std::numeric_limits<double>::infinity(), -1};
  const auto& x = w.particles.position;
  for (std::size_t j = 1; j < x.size(); ++j)
    if (const double step = (x[j].z() - x[j - 1].z()) / d; step < out.first) out = {step, int(j)};
  return out;
}

// lateral = "fixed": Paper I's "perfect 1D column" with the wall contacts deactivated (000 l.598): every
// sphere stays on the axis (x = y = 0, no lateral velocity) and does not spin (rotation locked through
// inv_inertia = 0). With the centres on the axis every contact normal is exactly vertical, so holding the
// lateral degrees of freedom changes nothing of the vertical solve: a perfect free column stays on its axis
// anyway (bitwise the same runs); the constraint matters for an imperfect one (lateral_perturbation), which
// a free column turns into buckling (docs/ndem.md, "Paper I E1").
void hold_on_axis(World& w) {
  for (std::size_t i = 0; i < w.particles.size(); ++i) {
    w.particles.position[i].x() = w.particles.position[i].y() = 0;
    w.particles.velocity[i].x() = w.particles.velocity[i].y() = 0;
    w.particles.angular_velocity[i].setZero();
  }
}

// Beyond this error (in diameters) a sphere is nowhere near its Hertz position, whatever the guard saw
// during the run (one step of the order of the settling time: dt = 1 s ends 755 d off). Under-iterated
// columns of the Paper IV study legitimately end up to ~3 d off (history warm start at N_it = 5 overshoots
// to 3.2 d; cold N_it = 2 sinks to 1 d): data, not divergence.
constexpr double absurd_overlap_error_over_d = 10.0;

RunResult run_column(const Parameters& p, RunContext& ctx) {
  const int n = int(p.integer("count"));
  const double d = p.real("diameter");
  const Material m = material_from_parameters(p, "column");
  World w;
  w.gravity.g = Vec3(0, 0, -p.real("gravity"));
  // Paper I's preparation (000 l.598): gravity ramped from a small value to full over a settling time, so
  // that a large step does not start from a column hit by full gravity at once.
  w.gravity.ramp_duration = p.real("gravity_ramp_time");
  w.gravity.ramp_from = p.real("gravity_ramp_from");
  if (w.gravity.ramp_duration > 0 && !(p.real("duration") > w.gravity.ramp_duration))
    throw InputError(fmt::format("ndem_column: duration = {} s must exceed gravity_ramp_time = {} s (the errors are "
                                 "measured at full gravity)", p.real("duration"), w.gravity.ramp_duration));
  w.add_material(m);
  Wall floor;
  floor.name = "floor";
  floor.shape = PlaneShape{};
  w.add_wall(floor);
  // The engine makes a contact a constraint only once the spheres overlap (no margin), so spheres stacked
  // at exactly zero overlap fall freely together until each lands on the one below: the stack collapses
  // from the bottom up and the upper spheres land at the free-fall speed, up to ~1 d per step at
  // dt = 10 ms (they can pass through each other, see on_pass_through). A small initial overlap makes
  // every contact active from the first step, Paper I's "perfect 1D column" (000 l.598).
  const double pre = p.real("initial_overlap") * d;
  for (int i = 0; i < n; ++i) w.add_sphere(Vec3(0, 0, d / 2 - pre + i * (d - pre)), d / 2, 0);
  w.particles.position[n - 1].x() += p.real("lateral_perturbation") * d;  // an imperfect column (tests, buckling)
  const std::string lateral = p.text("lateral");
  if (lateral != "free" && lateral != "fixed")
    throw InputError(fmt::format("ndem_column: lateral = '{}' is invalid (free, fixed)", lateral));
  const bool fixed_axis = lateral == "fixed";
  if (fixed_axis)
    for (std::size_t i = 0; i < w.particles.size(); ++i) w.particles.inv_inertia[i] = 0;
  const double buckle_limit = p.real("buckle_limit");

  NdemSettings s;
  s.time_step = p.real("dt");
  s.iterations = int(p.integer("iterations"));
  s.warm_start = parse_warm_start(p.text("warm_start"));
  s.warm_start_beta = p.real("warm_start_beta");
  s.residual_tolerance = p.real("residual_tolerance");
  s.impact_velocity = p.real("impact_velocity");
  s.model_warm_start_factor = p.real("model_warm_start_factor");
  s.contact_order = parse_contact_order(p.text("contact_order"));
  s.contact_order_seed = std::uint64_t(p.integer("contact_order_seed"));
  const std::string law = p.text("contact_law");
  if (law != "hertz" && law != "linear")
    throw InputError(fmt::format("ndem_column: contact_law = '{}' is invalid (hertz, linear)", law));
  s.law = law == "linear" ? NdemContactLaw::linear : NdemContactLaw::hertz;
  s.linear_stiffness = p.real("linear_stiffness");
  if (s.law == NdemContactLaw::linear && !(s.linear_stiffness > 0))
    throw InputError("ndem_column: linear_stiffness must be > 0 (N/m) with contact_law = \"linear\"");
  const std::string on_instability = p.text("on_instability");
  if (on_instability != "fail" && on_instability != "record")
    throw InputError(fmt::format("ndem_column: on_instability = '{}' is invalid (fail, record)", on_instability));
  NdemStepper ndem(s);
  // The column is passive (static floor, gravity only), but the SPOOK stabilisation turns overlap into
  // separation speed: settling columns of the Paper IV study (Dt = 5 ms, few iterations) gain up to ~0.3
  // of the energy scale Σ m g r and still converge, so the limit is 2 (a blow-up gains orders of
  // magnitude). Overlap limit: the engine's own (NdemSettings::max_overlap_ratio, 2 radii); settling
  // columns pass through transient overlaps beyond half a radius (0.64 r at t = 0.05 s) and converge.
  // Tall columns bounce by more (their compression energy grows ~N_p^2, the scale Σ m g r ~N_p: N_p = 100
  // at N_it = 60 rises 2.3x the scale at t = 0.15 s and then settles), so a study may raise the limit.
  // A gravity ramp does work on the column, so its mechanical energy may rise: the energy part of the guard
  // is off then (the overlap limit and the final-error bound below still catch a blow-up).
  const double energy_limit = w.gravity.ramp_duration > 0 ? std::numeric_limits<double>::infinity() : p.real("max_energy_gain");
  const StabilityGuard guard(w, {.max_energy_gain = energy_limit, .max_overlap_ratio = s.max_overlap_ratio},
                             "ndem_column");
  const auto histograms = histogram_observer(p);
  const int steps = int(std::ceil(p.real("duration") / s.time_step));
  const int tail = std::max(1, steps / 10);
  // <eps_c> (Paper I Eq. 40, 000 l.581, 614): the mean overlap / d over every active contact (floor
  // included), averaged over every step of the measurement window: after the gravity ramp (the paper's
  // 5 s at full gravity), or without a ramp the last tenth of the run (as eps_l).
  const int first_measured = w.gravity.ramp_duration > 0
                                 ? std::min(steps - 1, int(std::ceil(w.gravity.ramp_duration / s.time_step - 1e-9)))
                                 : steps - tail;
  double iterations_sum = 0, top_sum = 0, eps_c_sum = 0, eps_c_max_sum = 0, contacts_sum = 0;
  double max_offset = 0;
  double min_step = n > 1 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  const bool stop_on_pass_through = p.text("on_pass_through") == "stop";
  // Elastic overlaps of the resting column: contact j (0 = floor) carries (n - j) m g; Hertz with the engine's
  // k_n (R* = d/2 at the floor, d/4 between spheres), or the linear law's k.
  const double mg = w.particles.mass[0] * -w.gravity.g.z();
  const double estar = m.youngs_modulus / (2 * (1 - m.poisson_ratio * m.poisson_ratio));
  auto elastic_overlap = [&](int j) {
    if (s.law == NdemContactLaw::linear) return (n - j) * mg / s.linear_stiffness;
    return std::pow((n - j) * mg / hertz_stiffness(estar, j == 0 ? d / 2 : d / 4), 2.0 / 3.0);
  };
  auto resting_height = [&] {
    double l = n * d;
    for (int j = 0; j < n; ++j) l -= elastic_overlap(j);
    return l;
  };
  // Fig. 4: the residuals of the step starting at residual_series_time (the last step if later).
  const double residual_time = p.real("residual_series_time");
  const int residual_step =
      residual_time < 0 ? -1 : std::min(steps - 1, int(std::ceil(residual_time / s.time_step - 1e-9)));
  NdemStepStats recorded;
  // Fig. 2: the column height (top of the upper sphere) every height_series_every steps.
  const int height_every = int(p.integer("height_series_every"));
  std::vector<std::vector<double>> heights;
  // Optional outputs added to every result, the diverged ones included (their metrics then NaN).
  auto with_series = [&](RunResult out) {
    if (residual_step >= 0) add_residual_series(out, recorded);
    if (height_every > 0) {
      const double l = resting_height();
      for (auto& row : heights) row.push_back((l - row[1]) / l);
      out.series["height"] = TimeSeries{{"t", "height", "eps_l"}, std::move(heights)};
    }
    return out;
  };
  try {
    for (int k = 0; k < steps; ++k) {
      if (k == residual_step) ndem.set_record_residuals(true);
      ndem.step(w);
      if (k == residual_step) {
        recorded = ndem.stats();
        ndem.set_record_residuals(false);
      }
      if (height_every > 0 && (k + 1) % height_every == 0)
        heights.push_back({w.time, w.particles.position[n - 1].z() + d / 2});
      if (fixed_axis) hold_on_axis(w);
      guard.check(w);
      if (k >= first_measured) {
        eps_c_sum += ndem.stats().mean_overlap_over_d;
        eps_c_max_sum += ndem.stats().max_overlap_over_d;
        contacts_sum += double(ndem.stats().contacts);
      }
      max_offset = std::max(max_offset, lateral_offset_over_d(w, d));
      const auto [step, j] = smallest_centre_step_over_d(w, d);
      min_step = std::min(min_step, step);
      if (stop_on_pass_through && step < 0) {
        if (on_instability == "record") return with_series(diverged(w, max_offset, false, min_step, true));
        throw InstabilityError(
            fmt::format("ndem_column: step {} (t = {:.6g} s): spheres {} and {} passed through each other (centre "
                        "step {:.3g} d; their overlap approached d without reaching the 2-radii guard): the column "
                        "is no longer a chain in index order and its overlap errors would mean nothing. A contact "
                        "becomes a constraint only once it overlaps (no margin), so a stack at zero overlap falls "
                        "freely until each sphere lands on the one below, the upper ones at up to ~1 d per step, and "
                        "the SPOOK stabilisation of the deep overlaps throws spheres apart; start from a small "
                        "initial_overlap, ramp gravity up (gravity_ramp_time, Paper I 000 l.598) or reduce dt",
                        w.step, w.time, j - 1, j, step),
            w.step);
      }
      if (buckle_limit > 0 && max_offset > buckle_limit) {
        if (on_instability == "record") return with_series(diverged(w, max_offset, true, min_step, false));
        throw InstabilityError(
            fmt::format("ndem_column: step {} (t = {:.6g} s): the column buckled: a sphere is {:.3g} d off the axis "
                        "(buckle_limit = {} d, lateral = {}); its overlap errors would mean nothing. Paper I's 1D "
                        "column is held on its axis (000 l.598): set lateral = \"fixed\"",
                        w.step, w.time, max_offset, buckle_limit, lateral),
            w.step);
      }
      if (histograms) {
        const auto t0 = std::chrono::steady_clock::now();
        histograms->observe(w);
        w.timers.observers += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      }
      if (k >= steps - tail) {
        iterations_sum += ndem.stats().iterations_used;
        top_sum += w.particles.position[n - 1].z() + d / 2;
      }
      if (ctx.progress && k % 100 == 0) ctx.progress(double(k) / steps);
    }
  } catch (const InstabilityError&) {
    if (on_instability == "fail") throw;
    return with_series(diverged(w, max_offset, false, min_step, false));
  }
  double worst = 0, mean = 0, l = n * d, eps_c_elastic = 0;
  for (int j = 0; j < n; ++j) {
    const double h = elastic_overlap(j);
    eps_c_elastic += h / d / n;
    const double sim = j == 0 ? d / 2 - w.particles.position[0].z()
                              : d - (w.particles.position[j].z() - w.particles.position[j - 1].z());
    worst = std::max(worst, std::abs(sim - h) / d);
    mean += std::abs(sim - h) / d / n;
    l -= h;
  }
  if (!(worst <= absurd_overlap_error_over_d)) {
    if (on_instability == "record") return with_series(diverged(w, max_offset, false, min_step, min_step < 0));
    throw InstabilityError(fmt::format("ndem_column: step {} (t = {:.6g} s): overlap error {:.3g} d is "
                                       "beyond {} d, the column did not settle (time step too large?)",
                                       w.step, w.time, worst, absurd_overlap_error_over_d),
                           w.step);
  }
  // The same errors against a reference stiffness given from outside the engine (k_n/(E sqrt(d)) per contact type,
  // e.g. Paper I Eq. 11 written out in validation/paper1/hertz_column_reference.py): a k_n convention error
  // in the engine or in the hertz_stiffness-based reference above shows here. NaN when not given.
  const double kref_pair = p.real("reference_kn_pair") * m.youngs_modulus * std::sqrt(d);
  const double kref_floor = p.real("reference_kn_floor") * m.youngs_modulus * std::sqrt(d);
  double worst_ref = std::numeric_limits<double>::quiet_NaN(), mean_ref = worst_ref;
  if (kref_pair > 0 && kref_floor > 0) {
    worst_ref = mean_ref = 0;
    for (int j = 0; j < n; ++j) {
      const double h = std::pow((n - j) * mg / (j == 0 ? kref_floor : kref_pair), 2.0 / 3.0);
      const double sim = j == 0 ? d / 2 - w.particles.position[0].z()
                                : d - (w.particles.position[j].z() - w.particles.position[j - 1].z());
      worst_ref = std::max(worst_ref, std::abs(sim - h) / d);
      mean_ref += std::abs(sim - h) / d / n;
    }
  }
  const double lsim = w.particles.position[n - 1].z() + d / 2;
  RunResult out;
  out.metrics["mean_overlap_error_ref"] = mean_ref;
  out.metrics["max_overlap_error_ref"] = worst_ref;
  out.metrics["max_overlap_error_over_d"] = worst;
  out.metrics["mean_overlap_error"] = mean;
  out.metrics["height_error"] = (l - lsim) / l;
  // Paper IV Eq. 12 as the ledger measures it: l_Nit averaged over the last tenth of the run (an
  // under-iterated column may still breathe at the end); signed, > 0 = column too short.
  const double eps_l = (l - top_sum / tail) / l;
  out.metrics["eps_l"] = eps_l;
  out.metrics["abs_eps_l"] = std::abs(eps_l);
  out.metrics["bottom_force_over_weight"] = -w.walls[0].force.z() / (n * mg);
  out.metrics["iterations_used"] = iterations_sum / tail;
  out.metrics["time_solve"] = w.timers.solve;
  out.metrics["diverged"] = 0;
  out.metrics["diverged_time"] = std::numeric_limits<double>::quiet_NaN();
  const double measured = double(steps - first_measured);
  out.metrics["eps_c"] = eps_c_sum / measured;
  out.metrics["eps_c_max"] = eps_c_max_sum / measured;
  // Paper I calls overlaps beyond 0.01 d errors, not elasticity (000 l.596); in a tall column the elastic
  // overlap alone approaches 0.01 d (ledger P8), so the solver's error is <eps_c> minus this part.
  out.metrics["eps_c_elastic"] = eps_c_elastic;
  out.metrics["eps_c_excess"] = eps_c_sum / measured - eps_c_elastic;
  // Contacts per particle n_c = 2 N_c / N_p (000 l.544: N_c ~ (n_c/2) N_p), floor contact included.
  out.metrics["coordination_number"] = 2.0 * contacts_sum / measured / n;
  out.metrics["max_lateral_offset_d"] = max_offset;
  out.metrics["buckled"] = buckle_limit > 0 && max_offset > buckle_limit ? 1 : 0;
  out.metrics["min_centre_step_d"] = min_step;
  out.metrics["passed_through"] = min_step < 0 ? 1 : 0;
  if (histograms) {
    if (histograms->samples() == 0 || histograms->last().step != w.step) histograms->sample(w);  // final state
    out.series["contact_histogram_overlap"] = TimeSeries{io::histogram_columns(), histograms->overlap_rows()};
    out.series["contact_histogram_normal_velocity"] =
        TimeSeries{io::histogram_columns(), histograms->normal_velocity_rows()};
  }
  return with_series(std::move(out));
}

const ExperimentRegistration reg{Experiment{
    .name = "ndem_column",
    .description = "1D column of spheres on a floor with the NDEM engine: overlaps vs Hertz, height error, "
                   "floor load, iterations (Paper I l.685/723, Paper IV l.1625-1660)",
    .parameters =
        {
            {"count", ParamType::integer, "-", std::int64_t(20), 1.0, 1000.0, "number of spheres N_p"},
            {"diameter", ParamType::real, "m", 0.013, 1e-6, 10.0, "sphere diameter d"},
            {"density", ParamType::real, "kg/m^3", 3700.0, 1e-3, 1e5, "particle density"},
            {"youngs_modulus", ParamType::real, "Pa", 6e6, 1.0, 1e15, "Young's modulus E"},
            {"poisson_ratio", ParamType::real, "-", 0.25, -0.99, 0.49, "Poisson ratio"},
            {"restitution", ParamType::real, "-", 0.18, 0.0, 1.0, "restitution e"},
            {"friction", ParamType::real, "-", 0.91, 0.0, 100.0, "friction mu"},
            {"rolling_friction", ParamType::real, "-", 0.32, 0.0, 100.0, "rolling resistance mu_r"},
            {"gravity", ParamType::real, "m/s^2", 9.82, 0.0, 1e3, "gravity magnitude"},
            {"dt", ParamType::real, "s", 0.005, 1e-9, 1.0, "time step"},
            {"gravity_ramp_time", ParamType::real, "s", 0.0, 0.0, 1e4,
             "gravity grows linearly from gravity_ramp_from to gravity over this time (0 = full from the start)"},
            {"gravity_ramp_from", ParamType::real, "m/s^2", 0.0, 0.0, 1e3, "gravity magnitude at t = 0 of the ramp"},
            {"iterations", ParamType::integer, "-", std::int64_t(500), 1.0, 1e7, "PGS iteration cap N_it"},
            {"residual_tolerance", ParamType::real, "m/s", 0.0, 0.0, 1e3, "PGS stop tolerance (0 = always N_it)"},
            {"warm_start", ParamType::text, "", std::string("cold"), {}, {},
             "cold | history | history_normal_only | history_no_velocity_update | model",
             {"cold", "history", "history_normal_only", "history_no_velocity_update", "model"}},
            {"warm_start_beta", ParamType::real, "-", 0.85, 0.0, 1.0,
             "beta of the history warm starts, lambda_0 = beta lambda(t - dt) (Paper IV Eq. 7; 0 = cold guess)"},
            {"impact_velocity", ParamType::real, "m/s", 0.05, -1.0, 1e3, "v_imp (< 0: rule 0.02 d / dt)"},
            {"model_warm_start_factor", ParamType::real, "-", -1.0, -1.0, 100.0,
             "prefactor f of Paper IV Eq. 9 for warm_start = model; < 0: 1/e_H = 4/5 (the paper prints 5/4)"},
            {"initial_overlap", ParamType::real, "d", 0.0, 0.0, 0.1,
             "overlap of every contact (floor included) in the initial stack; 0 = touching at zero overlap"},
            {"lateral_perturbation", ParamType::real, "d", 0.0, -1.0, 1.0,
             "initial sideways offset of the top sphere (an imperfect column); 0 = on the axis"},
            {"lateral", ParamType::text, "", std::string("free"), {}, {},
             "free: the spheres may leave the axis; fixed: x, y, lateral velocity and spin held (Paper I's perfect "
             "1D column, 000 l.598)",
             {"free", "fixed"}},
            {"buckle_limit", ParamType::real, "d", 0.1, 0.0, 1e3,
             "largest lateral offset from the axis (in d) before the column counts as buckled and the run stops "
             "(on_instability); 0 = never stop"},
            {"on_pass_through", ParamType::text, "", std::string("continue"), {}, {},
             "spheres passing through each other (a centre below the one it rests on): continue (metric "
             "passed_through = 1) | stop (InstabilityError, or recorded with on_instability = record)",
             {"continue", "stop"}},
            {"residual_series_time", ParamType::real, "s", -1.0, -1.0, 1e4,
             "record the mean |residual| per row type at every PGS iteration of the step starting at this time "
             "(the last step if later; Paper IV Fig. 4) as series `residuals` and residual_normal_* metrics; "
             "< 0 = off"},
            {"height_series_every", ParamType::integer, "-", std::int64_t(0), 0.0, 1e9,
             "store the column height and eps_l(t) every this many steps as series `height` (Paper IV Fig. 2); "
             "0 = off"},
            {"contact_law", ParamType::text, "", std::string("hertz"), {}, {},
             "hertz (semi-smooth, e_H = 5/4) | linear (SPOOK NDEM, e_H = 1, k = linear_stiffness)", {"hertz", "linear"}},
            {"linear_stiffness", ParamType::real, "N/m", 0.0, 0.0, 1e15, "k of the linear contact law"},
            {"contact_order", ParamType::text, "", std::string("sequential"), {}, {},
             "PGS sweep order: sequential (creation order, bottom to top) | random (a permutation per sweep)",
             {"sequential", "random"}},
            {"contact_order_seed", ParamType::integer, "-", std::int64_t(1), 0.0, 9e15,
             "seed of the random contact order"},
            {"on_instability", ParamType::text, "", std::string("fail"), {}, {},
             "fail: a diverging run fails; record: it returns diverged = 1 and NaN accuracy metrics", {"fail", "record"}},
            {"duration", ParamType::real, "s", 2.0, 0.0, 1e4, "simulated time"},
            {"reference_kn_pair", ParamType::real, "-", 0.0, 0.0, 1e3,
             "independent reference k_n/(E sqrt(d)) between spheres (0: the *_ref metrics are NaN)"},
            {"reference_kn_floor", ParamType::real, "-", 0.0, 0.0, 1e3,
             "independent reference k_n/(E sqrt(d)) sphere-floor (0: the *_ref metrics are NaN)"},
            {"max_energy_gain", ParamType::real, "-", 2.0, 0.0, 1e6,
             "stability guard: largest rise of the mechanical energy over its start, in units of sum m g r"},
            {"histogram_bins", ParamType::integer, "-", std::int64_t(0), 0.0, 1e6,
             "contact histograms (overlap, normal velocity) with this many bins; 0 = off"},
            {"histogram_every", ParamType::integer, "-", std::int64_t(0), 0.0, 1e9,
             "sample the histograms every k steps (time series); 0 = final state only"},
            {"histogram_overlap_min", ParamType::real, "d or m", 0.0, -1e3, 1e3,
             "overlap histogram range; min = max: automatic (per sample)"},
            {"histogram_overlap_max", ParamType::real, "d or m", 0.0, -1e3, 1e3, "see histogram_overlap_min"},
            {"histogram_overlap_unit", ParamType::text, "", std::string("d"), {}, {},
             "overlap in units of the contact diameter (d) or in metres (m)", {"d", "m"}},
            {"histogram_velocity_min", ParamType::real, "m/s", 0.0, -1e6, 1e6,
             "normal-velocity histogram range (u_n > 0 separating); min = max: automatic"},
            {"histogram_velocity_max", ParamType::real, "m/s", 0.0, -1e6, 1e6, "see histogram_velocity_min"},
        },
    .run = run_column}};

}  // namespace
}  // namespace grainlab
