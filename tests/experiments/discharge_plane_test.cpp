// Discharge-plane measures (experiments/discharge_plane.hpp) on constructed crossings with a known answer.
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "core/error.hpp"
#include "experiments/discharge_plane.hpp"

using namespace grainlab;

BOOST_AUTO_TEST_SUITE(discharge_plane)

BOOST_AUTO_TEST_CASE(crossing_point_is_interpolated_on_the_last_step) {
  // A centre that moved from (0, 0, 0.1) to (0.2, -0.1, -0.1) in dt = 0.01 s (v = x - before over dt)
  // passed z = 0 half way: at (0.1, -0.05). One already below and one still above do not count.
  ParticleStore p;
  const double dt = 0.01;
  p.add(Vec3(0.2, -0.1, -0.1), 0.005, 3700, 0, Vec3(0.2, -0.1, -0.2) / dt);
  p.add(Vec3(0, 0, -0.2), 0.005, 3700, 0, Vec3(0, 0, -1));   // was at -0.19: below already
  p.add(Vec3(0, 0, 0.05), 0.005, 3700, 0, Vec3(0, 0, -1));   // still above
  std::vector<DischargeCrossing> c;
  record_crossings(p, 0.0, dt, 1.5, c);
  BOOST_REQUIRE_EQUAL(c.size(), 1u);
  BOOST_CHECK_CLOSE(c[0].x, 0.1, 1e-9);
  BOOST_CHECK_CLOSE(c[0].y, -0.05, 1e-9);
  BOOST_CHECK_EQUAL(c[0].time, 1.5);
}

BOOST_AUTO_TEST_CASE(centre_spread_and_histogram_of_a_window) {
  // Four crossings in the window at the corners of a 2 x 2 cm square centred on (0.05, 0.03), one
  // before the window (ignored), one inside the window but off the grid (counted outside).
  std::vector<DischargeCrossing> c = {{0.5, 9, 9},          {1.0, 0.04, 0.02}, {1.0, 0.06, 0.02},
                                      {1.5, 0.04, 0.04},    {2.0, 0.06, 0.04}, {2.0, 0.5, 0.03}};
  DischargeGrid g;
  g.x_lo = 0.03;
  g.y_lo = 0.01;
  g.cell = 0.02;
  g.nx = 2;
  g.ny = 2;
  const auto d = discharge_distribution(c, 1.0, 2.0, g);
  BOOST_CHECK_EQUAL(d.count, 5u);
  BOOST_CHECK_CLOSE(d.x_c, (0.04 + 0.06 + 0.04 + 0.06 + 0.5) / 5, 1e-9);
  BOOST_CHECK_CLOSE(d.y_c, 0.03, 1e-9);
  BOOST_CHECK_CLOSE(d.outside, 0.2, 1e-9);
  // cells: (0,0) holds (0.04, 0.02); (1,0) (0.06, 0.02); (0,1) (0.04, 0.04); (1,1) (0.06, 0.04)
  for (double h : d.histogram) BOOST_CHECK_CLOSE(h, 0.2, 1e-9);
  // sd_y of {0.02, 0.02, 0.04, 0.04, 0.03}: mean 0.03, sum of squares 4e-4 -> sqrt(1e-4)
  BOOST_CHECK_CLOSE(d.sd_y, 0.01, 1e-9);
}

BOOST_AUTO_TEST_CASE(l1_distance_is_zero_for_equal_and_two_for_disjoint) {
  DischargeGrid g;
  g.cell = 1;
  g.nx = 2;
  g.ny = 1;
  const auto a = discharge_distribution({{0, 0.5, 0.5}}, 0, 1, g);
  const auto b = discharge_distribution({{0, 1.5, 0.5}}, 0, 1, g);
  BOOST_CHECK_EQUAL(histogram_l1_distance(a, a), 0.0);
  BOOST_CHECK_CLOSE(histogram_l1_distance(a, b), 2.0, 1e-12);
  DischargeGrid g3 = g;
  g3.nx = 3;
  BOOST_CHECK_THROW(histogram_l1_distance(a, discharge_distribution({}, 0, 1, g3)), InputError);
}

BOOST_AUTO_TEST_CASE(empty_window_gives_nan_and_bad_grid_throws) {
  DischargeGrid g;
  const auto d = discharge_distribution({}, 0, 1, g);
  BOOST_CHECK_EQUAL(d.count, 0u);
  BOOST_CHECK(std::isnan(d.x_c));
  g.cell = 0;
  BOOST_CHECK_THROW(discharge_distribution({}, 0, 1, g), InputError);
}

BOOST_AUTO_TEST_SUITE_END()
