// Paper III arithmetic (experiments/paper3_formulas.*): each rule against a hand value or an identity.
#include <boost/test/unit_test.hpp>
#include <cmath>

#include "core/error.hpp"
#include "core/math.hpp"
#include "experiments/paper3_formulas.hpp"

using namespace grainlab;
using namespace grainlab::paper3;

BOOST_AUTO_TEST_SUITE(paper3_formulas)

// The identification formula E = 3 k_n (1 - nu^2)/sqrt(2d) (000 l.1194) is the inverse of the engine's Hertz
// law for a pellet on a plane of the same material: a round trip returns k_n, and 0.35e6 gives 6.18 MPa.
BOOST_AUTO_TEST_CASE(identification_is_the_engines_hertz_law) {
  for (double kn : {1e5, 0.35e6, 2e7})
    for (double nu : {0.0, 0.25, 0.45})
      BOOST_TEST(hertz_from_youngs_modulus(youngs_modulus_from_hertz(kn, nu, 0.0127), nu, 0.0127) == kn,
                 boost::test_tools::tolerance(1e-12));
  BOOST_TEST(youngs_modulus_from_hertz(0.35e6, 0.25, 0.0127) == 6.17652e6, boost::test_tools::tolerance(1e-5));
}

BOOST_AUTO_TEST_CASE(drop_test_speeds) {
  BOOST_TEST(fall_speed(9.82, 0.45) == std::sqrt(8.838), boost::test_tools::tolerance(1e-14));
  // d v = v dh / (2h): 12 +- 4 mm -> 0.4855 +- 0.0809 (000 l.1198 prints 0.49 +- 0.08).
  BOOST_TEST(fall_speed_uncertainty(9.82, 0.012, 0.004) == fall_speed(9.82, 0.012) / 6, boost::test_tools::tolerance(1e-14));
}

// A sphere on an incline rolls when tan(phi) > mu_r (torque balance about the contact point); the printed sin
// is the other convention. The derivative gives the +- (1/cos^2 for tan, cos for sin).
BOOST_AUTO_TEST_CASE(rolling_resistance_conventions) {
  const double phi = 17.8 * pi / 180, dphi = 1e-7;
  BOOST_TEST(rolling_resistance_from_onset(phi, "tan") == std::tan(phi));
  BOOST_TEST(rolling_resistance_from_onset(phi, "sin") == std::sin(phi));
  for (const char* c : {"tan", "sin"}) {
    const double numeric = (rolling_resistance_from_onset(phi + dphi, c) - rolling_resistance_from_onset(phi - dphi, c)) / 2;
    BOOST_TEST(rolling_resistance_uncertainty(phi, dphi, c) == numeric, boost::test_tools::tolerance(1e-6));
  }
  BOOST_CHECK_THROW(rolling_resistance_from_onset(phi, "cos"), InputError);
}

BOOST_AUTO_TEST_CASE(shape_factor_of_polygons) {
  BOOST_TEST(polygon_shape_factor(4) == pi / 4, boost::test_tools::tolerance(1e-14));
  BOOST_TEST(polygon_shape_factor(3) == pi / (3 * std::sqrt(3.0)), boost::test_tools::tolerance(1e-14));
  BOOST_TEST(polygon_shape_factor(100000) == 1.0, boost::test_tools::tolerance(1e-9));  // the circle
  BOOST_CHECK_THROW(polygon_shape_factor(2), InputError);
}

// Eq. 7 takes the smaller of the two limits; v_imp = eps d / dt inverts the first one.
BOOST_AUTO_TEST_CASE(time_step_and_impact_rules) {
  const double d = 0.0127, g = 9.82;
  BOOST_TEST(time_step_rule(0.01, d, 0.02, g) == std::sqrt(2 * 0.01 * d / g));  // gravity-bound
  BOOST_TEST(time_step_rule(0.01, d, 3.0, g) == resolving_time_step(0.01, d, 3.0));  // impact-bound
  BOOST_TEST(impact_threshold(0.02, d, resolving_time_step(0.02, d, 2.5)) == 2.5, boost::test_tools::tolerance(1e-14));
  BOOST_TEST(iteration_rule(12, 0.01) == 120, boost::test_tools::tolerance(1e-14));
}

// A free surface spanning 180 deg of wall is a half-full drum: the bed is R deep.
BOOST_AUTO_TEST_CASE(drum_geometry) {
  BOOST_TEST(bed_depth(1.85, 0, pi) == 1.85, boost::test_tools::tolerance(1e-14));
  BOOST_TEST(drum_shear_rate(0.53, 0, pi) == 2 * 0.53, boost::test_tools::tolerance(1e-14));
  BOOST_TEST(dem_time_step(0.17, 4.0, 1.0) == 0.34, boost::test_tools::tolerance(1e-14));
}

// Eq. 8 is linear in N_it/dt: the slides' DEM (0.02 ms, 1 iteration) and NDEM (5 ms, 250) lines cost the same.
BOOST_AUTO_TEST_CASE(cost_model_equivalence) {
  BOOST_TEST(compute_time_per_real_time(1e-6, 1, 3, 1e6, 1, 0.02e-3) == compute_time_per_real_time(1e-6, 250, 3, 1e6, 1, 5e-3),
             boost::test_tools::tolerance(1e-12));
  // The E7 estimate (ledger P14): 1e6 pellets, N_it = 150, 12 cores, 5 ms: 2500 alpha_p s per simulated s,
  // 25 alpha_p hours for the 36 s run.
  BOOST_TEST(compute_time_per_real_time(1e-6, 150, 1, 1e6, 12, 5e-3) == 2500.0, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_SUITE_END()
