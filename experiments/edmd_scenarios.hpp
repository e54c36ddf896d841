#pragma once
// Small event-driven scenarios behind Gavrilov's method claims (ledger G-E9), shared by the unit tests
// (tests/edmd/) and the experiment edmd_method_checks:
//  - Fig. 3.6: scheduling only the first collision of each ball misses a later one (002 l.845-854);
//  - inelastic collapse of a ball dropped on a floor: the clock stalls at t_inf (002 l.622, 875-877);
//  - Fig. 3.7: a linear-spline trajectory in a strong field next to a wall loops collision -> predict ->
//    collision without advancing the clock (002 l.868-875); the stall guard must fire.
namespace grainlab::edmd_runs {

/// A-C collision at t = 0.58 found? `deflect`: D knocks B (and F knocks E) out of the way first.
bool fig36_a_meets_c(bool schedule_all, bool deflect = true);

struct CollapseResult {
  bool stalled = false;
  double stall_time = 0, t_infinity = 0;  ///< clock when the guard fired; drop time + 2 v0 eps / (g (1 - eps))
  double events = 0;
};
/// Ball dropped from `height` on a floor with restitution `eps`; `gravity` in the simulation,
/// `reference_gravity` in the formula for t_inf.
CollapseResult bouncing_collapse(double eps, double height, double gravity, double reference_gravity);

struct SplineLoopResult {
  bool stalled = false;
  double events = 0, time = 0;
};
/// One ball at `gap` above a wall in a field of acceleration `field` toward it, trajectories as linear
/// splines over steps of `step` (Eq. 3.3): events until `t_end` or a stall (guard limits as System's).
SplineLoopResult spline_wall_loop(double field, double step, double gap, double eps, double t_end);

}  // namespace grainlab::edmd_runs
