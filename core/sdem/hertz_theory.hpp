#pragma once
// Analytic elastic Hertz impact (standard Hertz theory; e.g. Johnson, Contact Mechanics, 1985, §11.4),
// for f_n = k_n d^{3/2}, effective mass m*, approach speed v:
//   peak overlap   d_max = (5 m* v^2 / (4 k_n))^{2/5}          (energy: m* v^2/2 = 2/5 k_n d_max^{5/2})
//   peak force     f_max = k_n d_max^{3/2}
//   contact time   t_c = 2 d_max / v * I,  I = int_0^1 du / sqrt(1 - u^{5/2}) = (2/5) B(2/5, 1/2)
//                      = 3.2181... (m*/k_n)^{2/5} v^{-1/5}   (= 2.868 (m*^2 / (R* E*^2 v))^{1/5})
// Used to choose the SDEM time step (a fraction of t_c) and as the reference of the impact tests.
#include <cmath>

namespace grainlab::sdem {

inline double hertz_peak_overlap(double effective_mass, double kn, double speed) {
  return std::pow(1.25 * effective_mass * speed * speed / kn, 0.4);
}

inline double hertz_peak_force(double effective_mass, double kn, double speed) {
  const double d = hertz_peak_overlap(effective_mass, kn, speed);
  return kn * d * std::sqrt(d);
}

inline double hertz_contact_time(double effective_mass, double kn, double speed) {
  const double integral = 0.4 * std::tgamma(0.4) * std::tgamma(0.5) / std::tgamma(0.9);
  return 2.0 * hertz_peak_overlap(effective_mass, kn, speed) / speed * integral;
}

/// Period-like time of a linear spring-dashpot contact without damping: pi sqrt(m*/k).
inline double linear_contact_time(double effective_mass, double k) { return 3.14159265358979323846 * std::sqrt(effective_mass / k); }

}  // namespace grainlab::sdem
