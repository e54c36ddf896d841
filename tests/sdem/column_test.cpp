// A column of N spheres settled on a plane: the plane carries N m g, and each contact carries the
// weight above it with the Hertz overlap (load / k_n)^{2/3} (k_n with R* = R/2 between spheres, R*
// = R against the plane).
#include <boost/test/unit_test.hpp>

#include "experiments/sdem_scenarios.hpp"

using namespace grainlab;
using namespace grainlab::sdem;

BOOST_AUTO_TEST_SUITE(sdem_column)

// After settling, the residual oscillation is below 1e-6 of the static overlaps (max speed checked
// too); the static force balance is then exact to that level. Tolerance 1e-4 leaves margin for the
// decaying lowest column mode.
BOOST_AUTO_TEST_CASE(column_force_and_overlaps) {
  ColumnSetup s;
  s.count = 10;
  s.sphere.restitution = 0.3;
  const ColumnResult r = run_column(s);
  BOOST_TEST_MESSAGE("column: bottom " << r.bottom_force << " weight " << r.weight << " overlap error " << r.max_overlap_error
                                       << " max speed " << r.max_speed);
  BOOST_TEST(r.bottom_force == r.weight, boost::test_tools::tolerance(1e-4));
  BOOST_TEST(r.max_overlap_error < 1e-4);
}

BOOST_AUTO_TEST_SUITE_END()
