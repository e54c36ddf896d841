#pragma once
// Haff's law for a homogeneously cooling granular gas of smooth inelastic spheres (diameter sigma,
// solid fraction phi, normal restitution e), with the Enskog collision rate (docs/periodic.md derives it):
//   T(t) = T0 / (1 + t / tau)^2,   T = <|v - V|^2> / 3 (per unit mass),
//   tau = 6 / ((1 - e^2) omega0),  omega0 = 4 n sigma^2 chi(phi) sqrt(pi T0),  n = 6 phi / (pi sigma^3),
//   chi(phi) = (1 - phi/2) / (1 - phi)^3 (Carnahan-Starling contact value of the pair correlation).
// (Energy lost per collision, averaged over Maxwellian collisions: (1 - e^2) m T; collisions per unit time
// N omega / 2; kinetic energy 3 N m T / 2.) Pure functions.
#include <cmath>
#include <string>

namespace grainlab::haff {

inline constexpr double pi = 3.14159265358979323846;

/// Carnahan-Starling pair correlation at contact.
inline double chi_carnahan_starling(double phi) { return (1 - phi / 2) / ((1 - phi) * (1 - phi) * (1 - phi)); }

/// Enskog collision frequency per particle, 1/s (T0 per unit mass, m^2/s^2).
inline double enskog_collision_rate(double phi, double sigma, double temperature, double chi) {
  const double n = 6 * phi / (pi * sigma * sigma * sigma);
  return 4 * n * sigma * sigma * chi * std::sqrt(pi * temperature);
}

/// What the reference tau is built from: "enskog" (the law above); the deliberately wrong variants a
/// perturbation tier uses to show that the check can fail: "no_pair_correlation" (chi = 1, the dilute
/// Boltzmann rate), "linear_restitution" (1 - e instead of 1 - e^2).
inline double haff_time(double phi, double sigma, double temperature, double e, const std::string& model = "enskog") {
  const double chi = model == "no_pair_correlation" ? 1.0 : chi_carnahan_starling(phi);
  const double loss = model == "linear_restitution" ? 1 - e : 1 - e * e;
  return 6.0 / (loss * enskog_collision_rate(phi, sigma, temperature, chi));
}

}  // namespace grainlab::haff
