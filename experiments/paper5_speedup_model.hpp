#pragma once
// The speed-up model of adaptive model reduction, Paper V Sec. 6 (seed 000 l.2190-2217, Eq. 37-40; ledger
// ../shared/claims/paper5.md E4 and the computed table of §3). One implementation, used by the E4 study
// (experiment paper5_speedup_model), by the measured speed-up (experiment paper5_measured_speedup, which
// compares measured S(h) with Eq. 39 at the delta it measures) and by their tests.
//
//   t_comp = (t_real/Dt) [t_coll + t_mod + t_solve]                                (Eq. 37; t_coll dropped)
//   t_solve(h) = c K [(1 - h) N_p]^{1+gamma} / (eps S_par)                         (Eq. 38)
//   contact/sensor split: t_mod = alpha K n_p N_p / S_par -> delta = alpha N_p^{-gamma}     (Eq. 39)
//   trial split: t_mod = c K [beta N_p]^{1+gamma} / (eps_mod S_par) -> delta = beta^{1+gamma} eps/eps_mod (Eq. 40)
//   S = t_comp(0) / t_comp(h) = 1 / (delta + (1 - h)^{1+gamma})
// delta is the overhead relative to the unreduced solve, t_mod / t_solve(h = 0): that is how a measurement
// gives it (Eq. 39 silently absorbs eps/c and n_p into alpha; ledger P1).
// Pure functions; no state, no threads.

namespace grainlab::paper5 {

/// (1 - h)^{1+gamma}: the reduced solve time relative to the unreduced one (Eq. 38 at h over h = 0).
double reduced_solve_fraction(double h, double gamma);
/// Eq. 39's overhead: delta = alpha N_p^{-gamma}.
double contact_split_overhead(double alpha, double particles, double gamma);
/// Eq. 40's overhead: delta = beta^{1+gamma} eps/eps_mod.
double trial_split_overhead(double beta, double tolerance_ratio, double gamma);
/// Eq. 39/40: S = 1 / (delta + (1 - h)^{1+gamma}).
double model_speedup(double h, double delta, double gamma);
/// The reduction level at which Eq. 39/40 reach the speed-up S: h = 1 - (1/S - delta)^{1/(1+gamma)};
/// NaN when S >= 1/delta (never reached: the overhead caps S at 1/delta).
double level_for_speedup(double speedup, double delta, double gamma);
/// Measured overhead: delta = t_mod / t_solve(h = 0) (both per step).
double measured_overhead(double seconds_reduction, double seconds_solve_unreduced);

/// Throws InputError naming the parameter when h is outside [0, 1], gamma < 0, delta < 0 or a
/// ratio/count is not positive.
void validate_speedup_inputs(double h, double delta, double gamma);

}  // namespace grainlab::paper5
