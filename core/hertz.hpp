#pragma once
// Hertz contact stiffness shared by both methods (standard Hertz theory):
//   f_n = k_n delta^{3/2},  k_n = (4/3) E* sqrt(R*),  1/E* = sum (1 - nu^2)/E,  R* = r_a r_b / (r_a + r_b)
// (against a wall R* is the particle radius). For equal spheres this equals 000 line 68,
// k_n = E sqrt(2d) / (3 (1 - nu^2)) with d the effective diameter; Papers III/IV print other forms
// that differ by up to 2.8x (../shared/claims/README.md) — studies record which one their reference assumes.
#include <cmath>

namespace grainlab {

inline double hertz_stiffness(double effective_modulus, double effective_radius) {
  return 4.0 / 3.0 * effective_modulus * std::sqrt(effective_radius);
}

}  // namespace grainlab
