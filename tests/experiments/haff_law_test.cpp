// Haff's law reference of studies/haff_cooling.toml (experiments/haff_law.hpp): the Carnahan-Starling
// contact value, the Enskog collision rate and tau against hand-computed values, and the deliberately
// wrong variants the perturbation tiers use.
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "experiments/haff_law.hpp"

using namespace grainlab;
namespace tt = boost::test_tools;

BOOST_AUTO_TEST_SUITE(haff_law)

BOOST_AUTO_TEST_CASE(reference_values) {
  BOOST_TEST(haff::chi_carnahan_starling(0.0) == 1.0);
  BOOST_TEST(haff::chi_carnahan_starling(0.15) == 0.925 / (0.85 * 0.85 * 0.85), tt::tolerance(1e-14));
  // phi = 0.15, sigma = 1 mm, T0 = 1/3 m^2/s^2: n = 0.9 / (pi 1e-9) = 2.8648e8 /m^3,
  // omega0 = 4 n sigma^2 chi sqrt(pi / 3) = 1766.25 /s (the quick tier's collision_rate).
  const double chi = haff::chi_carnahan_starling(0.15);
  const double omega = haff::enskog_collision_rate(0.15, 1e-3, 1.0 / 3, chi);
  BOOST_TEST(omega == 4 * (0.9 / (haff::pi * 1e-9)) * 1e-6 * chi * std::sqrt(haff::pi / 3), tt::tolerance(1e-14));
  BOOST_TEST(omega == 1766.25, tt::tolerance(1e-5));
  // tau = 6 / ((1 - e^2) omega0) = 6 / (0.19 x 1766.25) = 17.879 ms.
  BOOST_TEST(haff::haff_time(0.15, 1e-3, 1.0 / 3, 0.9) == 6 / (0.19 * omega), tt::tolerance(1e-14));
  BOOST_TEST(haff::haff_time(0.15, 1e-3, 1.0 / 3, 0.9) == 0.017879, tt::tolerance(1e-4));
  // The perturbations: chi = 1 gives tau x chi; (1 - e) gives tau x (1 + e).
  BOOST_TEST(haff::haff_time(0.15, 1e-3, 1.0 / 3, 0.9, "no_pair_correlation") == chi * haff::haff_time(0.15, 1e-3, 1.0 / 3, 0.9),
             tt::tolerance(1e-14));
  BOOST_TEST(haff::haff_time(0.15, 1e-3, 1.0 / 3, 0.9, "linear_restitution") == 1.9 * haff::haff_time(0.15, 1e-3, 1.0 / 3, 0.9),
             tt::tolerance(1e-14));
}

BOOST_AUTO_TEST_SUITE_END()
