#pragma once
// Gavrilov's grinding models (Ch. 3, 002 l.905-998): powder in baskets r_i = r0 2^(-i/3), i = 0..k (3.22); a
// particle of basket i is ground by a ball-ball collision with probability p_i = V_gr / V_avail (3.20-3.21),
// V_gr = 4 pi R1 R2 / (R1 + R2) r^2, and splits into two of basket i+1; p_k = 0 (r_k ~ 1 um does not break).
//  - analytical: mass per basket X' = lambda P X (3.26-3.27; the printed row 3 "0, -p1, p2" is a typo for
//    "0, p1, -p2"), closed (Bateman) form (3.29), cross-checked with the matrix exponential;
//  - statistical: per collision N_i^c ~ Binomial(N_i, p_i) (3.23), run as tau-leaping with lambda p dt <= leap
//    (p over the occupied baskets): one binomial per basket per leap with 1 - (1 - p)^(lambda dt).
#include <cstdint>
#include <random>
#include <vector>

namespace grainlab::grinding {

struct Mill {
  double ball_radius = 3.2e-3;             ///< R1 = R2
  double available_volume = 303919e-9;     ///< V_shaker - V_balls, m^3 (G-E2: 303 919 mm^3)
};

struct Baskets {
  std::vector<double> radius;  ///< r_i, m
  std::vector<double> p;       ///< grinding probability per ball-ball collision; p.back() = 0
};

/// Baskets from r0 down to the last radius >= ~r_min (k = round(3 log2(r0 / r_min))).
Baskets make_baskets(const Mill& mill, double r0, double r_min);
double grinding_volume(double R1, double R2, double r);  ///< Eq. (3.20)

/// Mass fractions X_m(t) / M by the closed form (3.29).
std::vector<double> bateman(const Baskets& b, double lambda_t);
/// The same by the matrix exponential of lambda t P (Eigen), P with the printed row-3 typo when asked.
std::vector<double> matrix_exponential(const Baskets& b, double lambda_t, bool printed_typo = false);
/// lambda t at which the last basket holds `fraction` of the mass (bisection on (3.29)).
double collisions_until_last_holds(const Baskets& b, double fraction);

struct MonteCarloResult {
  std::vector<double> mass_fraction;  ///< per basket, at the end
  std::vector<double> count;          ///< particles per basket
};
/// One statistical-model run from n0 particles in basket 0 over `collisions` ball-ball collisions.
MonteCarloResult monte_carlo(const Baskets& b, std::int64_t n0, double collisions, double leap, std::mt19937_64& rng);

/// Collisions until the Fig. 3.8 toy chain (one particle, p(B0) = p0, p(B1) = p1) has all pieces in B2.
int toy_chain_collisions(double p0, double p1, std::mt19937_64& rng);

}  // namespace grainlab::grinding
