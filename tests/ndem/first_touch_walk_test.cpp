// The NDEM first-touch guard finds last step's contacts by one merge walk through the sorted pair keys: a
// pair contact held for many steps is a first touch once. Three stacked pellets pressed together (two pair
// contacts, one floor contact) approach and rebound for 50 steps; at most three first touches.
#include <boost/test/unit_test.hpp>

#include "tests/ndem/ndem_fixtures.hpp"

using namespace grainlab;
using namespace grainlab::ndem_test;

BOOST_AUTO_TEST_CASE(ndem_held_pair_contacts_touch_first_once) {
  World w = floor_world(pellet());
  const double d = pellet_d, overlap = 1e-5;
  for (int k = 0; k < 3; ++k) w.add_sphere(Vec3(0, 0, d / 2 + k * (d - overlap) - overlap), d / 2, 0, Vec3(0, 0, -0.05 * k));
  NdemSettings s;
  s.time_step = 1e-4;
  NdemStepper ndem(s);
  for (int k = 0; k < 50; ++k) ndem.step(w);
  BOOST_TEST(ndem.stats().contacts == 3u);
  BOOST_TEST(ndem.guards().restitution_first_touches() <= 3u);
}
