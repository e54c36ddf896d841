#pragma once
// A resting pile for measuring what model reduction saves (Paper V Sec. 6, seed 000 l.2190-2217): a square
// "cannonball" pyramid of equal spheres (face-centred cubic: each sphere rests in the pocket of four below)
// on a frictional ground plane, with the Paper V model and solver settings (ledger ../shared/claims/paper5.md,
// common settings: d = 13 mm, rho = 3700 kg/m^3, linear k_n = 3 kN/m (e_H = 1), e = 0.18, mu = 0.91,
// mu_r = 0.32, Dt = 5 ms, N_it = 150, gamma_t = gamma_r = 1e-6, n_s = 2, g = 9.81, v_imp = eps d/Dt with
// eps = 0.01, no warm start). A pyramid of n layers holds n(n+1)(2n+1)/6 spheres (n = 31: 10416; 67: 102510)
// and is built already at rest, so that a paper-size pile costs no emission phase; it settles by its static
// overlaps (~0.1 % d per weight) in a few steps.
// Also the timed stepping used by the measured speed-up experiment and bench/reduction_bench.cpp: per-step
// CPU time of the calling thread (robust to other programs on the machine) and the engine's stage timers.
#include <cstdint>
#include <vector>

#include "core/ndem/ndem_stepper.hpp"
#include "core/world.hpp"

namespace grainlab::paper5 {

struct RestingPile {
  int layers = 12;                  ///< n: the bottom layer is n x n spheres
  double diameter = 0.013;          ///< m
  double density = 3700.0;          ///< kg/m^3
  double restitution = 0.18;
  double friction = 0.91;           ///< spheres and ground
  double rolling_friction = 0.32;   ///< spheres and ground
  double gravity = 9.81;            ///< m/s^2
  double lattice_overlap = 1e-4;    ///< initial overlap of neighbours, in diameters (> 0: contacts active at once)
};

/// Spheres in a pyramid of n layers: n(n+1)(2n+1)/6.
std::size_t pyramid_count(int layers);
/// Fills an empty World with the pile and its ground plane. InputError naming the parameter on bad input.
void build_resting_pile(const RestingPile& pile, World& world);

/// Paper V's NDEM settings (linear law k_n, Dt, N_it, cold start, v_imp rule with eps = 0.01).
NdemSettings paper5_ndem_settings(double linear_stiffness = 3000.0, double time_step = 0.005, int iterations = 150);

/// What `time_steps` saw: sums over the timed steps.
struct TimedSteps {
  int steps = 0;
  double cpu_s = 0;                 ///< CPU time of the step() calls on this thread, s
  StageTimers stages;               ///< engine stage timers (wall clock) over the timed steps, s
  double contacts = 0;              ///< mean active contacts per step
  double solver_contacts = 0;       ///< mean contacts left in the solver (reduction on; else = contacts)
  double level = 0, level_free_only = 0, level_dof = 0;  ///< mean reduction levels (0 without reduction)
  double aggregates = 0;            ///< mean aggregate count
  double reduction_stats_s = 0;     ///< sum of ReductionStats::seconds_merge + seconds_split + seconds_trial, s
  /// Per step: wall seconds of the solve stage and of the reduction (reducer's timers), for medians that a
  /// preemption of one step on a busy machine does not move (the reduction takes ~10-30 us per step).
  std::vector<double> solve_per_step, reduction_per_step;
  /// Wall seconds of the reduction stage: the stage timer, or the reducer's own timers where the stepper does
  /// not book them into StageTimers::reduction.
  double reduction_s() const { return stages.reduction > 0 ? stages.reduction : reduction_stats_s; }
  /// CPU seconds of a stage: cpu_s split by the stage timers' shares (a preemption outside the timers would
  /// otherwise count against every stage).
  double stage_cpu_s(double stage_seconds) const { return timed_total() > 0 ? cpu_s * stage_seconds / timed_total() : 0.0; }
  /// Wall seconds of all timed stages, the reducer's included.
  double timed_total() const { return stages.total() + (stages.reduction > 0 ? 0.0 : reduction_stats_s); }
};

/// Median of the values (0 for none).
double median(std::vector<double> values);

/// Steps `ndem` `steps` times on this thread and times each step() call (the caller picks the thread:
/// run it inside a one-thread tbb::task_arena for single-core cost).
TimedSteps time_steps(World& world, NdemStepper& ndem, int steps);

/// Oracle reduction: the lowest round(fraction N_p) spheres (by height, then index) become one rigid aggregate
/// (form_body; their mutual contacts leave the solver). Returns the number frozen (0 when fewer than 2).
std::size_t freeze_lowest(World& world, double fraction);

/// Largest sphere speed, m/s.
double max_sphere_speed(const World& world);

}  // namespace grainlab::paper5
