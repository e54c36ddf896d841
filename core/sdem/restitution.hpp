#pragma once
// Exact damping coefficient for a requested coefficient of restitution e.
//
// Two normal laws have an e that does not depend on the impact speed (dimensional analysis; Antypov &
// Elliott, EPL 94 (2011) 50004 for the Hertz case):
//   hertz:  f_n = k_n d^{3/2} + eta sqrt(m* k_n) d^{1/4} d'      (d = overlap, d' = its rate)
//   linear: f_n = k_n d        + eta sqrt(m* k_n) d'              (eta = 2 zeta, zeta = damping ratio)
// with f_n clamped to >= 0 (no attraction), exactly as core/sdem/contact_law.hpp applies them. Scaling
// d = d0 x, t = tau s with d0 = (m* v^2 / k_n)^{2/5} (hertz) or v sqrt(m*/k_n) (linear) turns the impact
// into one parameter-free ODE per law,
//   hertz:  x'' = -max(0, x^{3/2} + eta x^{1/4} x'),   linear: x'' = -max(0, x + eta x'),
//   x(0) = 0, x'(0) = 1,
// and e = -x' at the end of contact (the force returns to zero while x' < 0; after that the bodies
// separate at constant speed). `restitution_of` integrates this ODE (RK4, step 1e-4 with the end of
// contact interpolated linearly in f); `damping_for_restitution` inverts it by bisection (e decreases
// monotonically with eta) and caches the answer per (law, e). We do NOT use the Tsuji/linear-spring
// mapping for the Hertz law: it misses the requested e (../shared/claims/README.md).
//
// Threading: `damping_for_restitution` is thread-safe (the cache is guarded by a mutex); call it at set-up,
// not per contact.
namespace grainlab::sdem {

enum class DampedLaw { hertz, linear };

/// Coefficient of restitution of the dimensionless clamped impact with damping coefficient eta >= 0.
double restitution_of(DampedLaw law, double eta, double step = 1e-4);

/// The eta for which restitution_of(law, eta) == e, to about 1e-9 in e. e = 1 gives 0. Requests below
/// what eta = 20 reaches (e < 3.0e-3 hertz, 2.4e-3 linear; e ~ 1/eta^2 there) return 20: a larger eta
/// makes the damping ratio so high (~0.4 eta) that explicit integration at dt = t_c/50 goes unstable
/// for no visible gain. Throws InputError for e outside [0, 1] or NaN.
double damping_for_restitution(DampedLaw law, double e);

/// The damping ratio of a linear spring-dashpot without clamping, zeta = -ln e / sqrt(pi^2 + ln^2 e);
/// used only to pick tangential and rolling damping ratios of the same strength as the normal one.
double equivalent_damping_ratio(double e);

}  // namespace grainlab::sdem
