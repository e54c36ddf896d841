// Shared NDEM row projection (core/ndem/row_model.hpp): a point outside the friction disk lands on
// its circle along the same ray, a point inside stays bit for bit, and the box variant clamps each
// component independently.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <random>

#include "core/ndem/row_model.hpp"

using grainlab::ndem_rows::project_disk;
using grainlab::ndem_rows::project_pair;

BOOST_AUTO_TEST_CASE(outside_point_lands_on_the_cone_along_its_ray) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-5.0, 5.0), ub(0.1, 2.0);
  for (int k = 0; k < 1000; ++k) {
    const double bound = ub(rng);
    double x = u(rng), y = u(rng);
    const double m0 = std::hypot(x, y);
    if (m0 <= bound) continue;
    const double x0 = x, y0 = y;
    project_pair(x, y, bound, true);
    BOOST_TEST(std::hypot(x, y) == bound, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(x * y0 - y * x0 == 0.0, boost::test_tools::tolerance(1e-12));  // same ray
    BOOST_TEST(x * x0 + y * y0 > 0.0);                                         // same direction
  }
}

BOOST_AUTO_TEST_CASE(inside_point_stays) {
  double x = 0.3, y = -0.4;  // |(x, y)| = 0.5
  project_disk(x, y, 0.5000001);
  BOOST_TEST(x == 0.3);
  BOOST_TEST(y == -0.4);
  double zx = 0.0, zy = 0.0;  // zero bound, zero point: no division by zero
  project_disk(zx, zy, 0.0);
  BOOST_TEST(zx == 0.0);
  BOOST_TEST(zy == 0.0);
}

BOOST_AUTO_TEST_CASE(box_clamps_each_component) {
  double x = 3.0, y = -0.2;
  project_pair(x, y, 1.0, false);
  BOOST_TEST(x == 1.0);
  BOOST_TEST(y == -0.2);
  double a = -7.0, b = 9.0;
  project_pair(a, b, 2.0, false);
  BOOST_TEST(a == -2.0);
  BOOST_TEST(b == 2.0);
}
