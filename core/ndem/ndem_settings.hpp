#pragma once
// Settings of the nonsmooth (semi-smooth Hertz) DEM stepper and the statistics it reports.
// Sources: 000 lines 1520-1533 (parameter mapping, Paper III App. A), 1796-1802 (Paper IV App. A),
// 744-760 (impact stage), 1590-1617 (warm starting), 1140 (v_imp = eps d / dt).
// Full equations, the sign convention and corrections to the printed formulas: docs/ndem.md.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/ndem/reduction_settings.hpp"

namespace grainlab {

enum class NdemContactLaw {
  hertz,   ///< g = delta^{e_H}, e_H = 5/4, k_n = (4/3) E* sqrt(R*) (core/hertz.hpp) -> f = k_n delta^{3/2}
  linear,  ///< e_H = 1, f = k delta with k = NdemSettings::linear_stiffness (Paper V)
};

enum class NdemWarmStart {
  cold,                        ///< lambda_0 = 0
  history,                     ///< lambda_0 = beta lambda(t - dt), all rows, v_0 = M^-1 p + M^-1 G^T lambda_0 (Eq. 7-8)
  history_normal_only,         ///< as history, normal rows only
  history_no_velocity_update,  ///< as history but WITHOUT the velocity update (Paper IV: worse than cold)
  model,                       ///< lambda_n0 = f Dt k_n delta^{e_H}, friction/rolling from the regularised law, clamped (Eq. 9-11)
};

enum class NdemFrictionShape { box, cone };

/// Order in which the serial PGS visits the contacts in each sweep (000 l.725: "sequential or random
/// order of iterations was found to be of no significance").
enum class NdemContactOrder {
  sequential,  ///< detection order (pairs by key, then wall contacts): bottom to top for a column
  random,      ///< a fresh permutation per sweep from a generator seeded with contact_order_seed
};

struct NdemSettings {
  double time_step = 0.005;          ///< Dt, s (> 0)
  int iterations = 150;              ///< N_it, PGS iteration cap (>= 1), continuous stage
  int impact_iterations = -1;        ///< PGS iterations of the impact stage; < 0: same as `iterations`
  double residual_tolerance = 0.0;   ///< stop when the mean |residual| of all rows (m/s) falls below; 0 = always N_it
  double over_relaxation = 1.0;      ///< omega in (0, 2)
  NdemContactLaw law = NdemContactLaw::hertz;
  double linear_stiffness = 0.0;     ///< N/m, required (> 0) for the linear law
  double damping_time = 0.0;         ///< Hertz viscous damping time c (s): tau_n = max(n_s Dt, c / e_H)
  int n_s = 2;                       ///< tau_n >= n_s Dt (000 l.1533)
  double gamma_t = 1e-6;             ///< friction regularisation (000 l.1533)
  double gamma_r = 1e-6;             ///< rolling/twisting regularisation
  NdemFrictionShape friction_shape = NdemFrictionShape::box;
  double impact_velocity = -1.0;     ///< v_imp (m/s); < 0: rule v_imp = impact_epsilon * d / Dt per contact (000 l.1140)
  double impact_epsilon = 0.02;      ///< epsilon of the v_imp rule (Paper III)
  bool impact_stage = true;          ///< run the Newton-restitution impact stage
  /// Wrap positions into the periodic box after each step (World::wrap_periodic, as SDEM always does).
  /// Off (the default, as before): positions along a periodic axis grow unwrapped; detection and forces
  /// use nearest images either way, so only the coordinates differ (and their rounding far from the box).
  bool wrap_periodic = false;
  double overlap_floor_ratio = 1e-9; ///< delta floored at this * R* inside the scale factor e_H delta^{e_H-1}
  bool parallel = false;             ///< graph-coloured PGS, TBB parallel per colour (deterministic for any thread count)
  int max_colours = 32;              ///< colours tried before a contact goes to the serial overflow set (1..63)
  NdemContactOrder contact_order = NdemContactOrder::sequential;  ///< serial sweep order (random: not with parallel)
  std::uint64_t contact_order_seed = 1;  ///< seed of the random order (deterministic for a given seed)
  NdemWarmStart warm_start = NdemWarmStart::cold;
  double warm_start_beta = 0.85;     ///< beta of the history warm start
  double model_warm_start_factor = -1.0;  ///< prefactor f of Eq. 9; < 0: consistent value 1/e_H (= 4/5 for Hertz; paper prints 5/4)
  // Observers (cost nothing when off):
  bool record_residuals = false;     ///< per-iteration mean |residual| by row type, last step only
  int reference_iterations = 0;      ///< > 0: also solve with this many iterations and record the
                                     ///< multiplier error eps_lambda_k of Eq. 13 per iteration (costly)
  double max_overlap_ratio = 2.0;    ///< stop (InstabilityError) when an overlap exceeds this * smaller radius
  bool reference_cold_start = false; ///< the reference solve of reference_iterations starts cold (lambda = 0, no
                                     ///< warm-start velocity): one reference for every warm start (Paper IV E2b)
  bool record_row_residuals = false; ///< per-row residuals after the continuous solve (core/ndem/row_residuals.hpp)
  bool record_contact_statistics = false; ///< per-contact overlap / d, approach speed and v_imp (Paper III Figs. 19-20)
  ReductionSettings reduction;       ///< adaptive model reduction into rigid aggregates (Paper V); off by default

  /// Throws InputError naming the parameter on invalid values.
  void validate() const;
  double hertz_exponent() const { return law == NdemContactLaw::hertz ? 1.25 : 1.0; }
  /// tau_n = max(n_s Dt, c / e_H) (000 l.1501; c/e_H = eps_n/gamma_n with gamma_n^-1 = k_n c/e_H^2).
  double relaxation_time() const { return std::max(n_s * time_step, damping_time / hertz_exponent()); }
};

/// What the last step did (observers read it).
struct NdemStepStats {
  int iterations_used = 0;         ///< continuous-stage iterations
  int impact_iterations_used = 0;  ///< 0 when there were no impacts
  std::size_t contacts = 0;        ///< active contacts (overlap > 0)
  std::size_t impacting = 0;       ///< contacts handled by Newton restitution this step
  int colours = 0;                 ///< colours used by the parallel PGS (0 = serial)
  std::size_t overflow = 0;        ///< contacts in the serial overflow set
  double impacting_fraction = 0;   ///< impacting / contacts
  /// Impact law after the impact stage (000 l.1233, "to machine precision"): over the impacting contacts,
  /// the largest |G_n v+ + e G_n v-| / |G_n v-| and the mean of -G_n v+ / G_n v- (unscaled normal); both 0
  /// in a step without impacts.
  double impact_law_error = 0;
  double impact_restitution = 0;
  double mean_overlap_over_d = 0;  ///< <delta / d> over active contacts, d = r_a + r_b (2 r against a wall)
  double max_overlap_over_d = 0;
  double final_residual = 0;       ///< mean |residual| over all rows after the last iteration
  /// Per iteration (record_residuals): mean |residual| of normal, friction and rolling rows.
  std::vector<double> residual_normal, residual_friction, residual_rolling;
  /// Per iteration (reference_iterations > 0): Eq. 13, <|lambda_ref - lambda_k| / |lambda_ref|> over normal rows.
  std::vector<double> multiplier_error;
  /// After the continuous solve (record_row_residuals): |residual| of every normal, friction and rolling row
  /// (core/ndem/row_residuals.hpp; Paper IV Fig. 9 histograms).
  std::vector<double> row_residual_normal, row_residual_friction, row_residual_rolling;
  /// record_contact_statistics: per active sphere contact (rows in solve order; rigid-body contacts are not
  /// included) the overlap / d as detected, the approach speed -G_n v at the start of the step (before the
  /// impact stage and gravity; > 0 approaching) and the impact threshold v_imp that classified it.
  std::vector<double> contact_overlap_over_d, contact_approach_speed, contact_impact_speed;
  ReductionStats reduction;        ///< model reduction (settings.reduction.enabled)
};

/// "cold", "history", "history_normal_only", "history_no_velocity_update", "model"; InputError otherwise.
NdemWarmStart parse_warm_start(const std::string& name);
/// "box" or "cone"; InputError otherwise.
NdemFrictionShape parse_friction_shape(const std::string& name);
/// "sequential" or "random"; InputError otherwise.
NdemContactOrder parse_contact_order(const std::string& name);

}  // namespace grainlab
