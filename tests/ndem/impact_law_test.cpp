// The impact-law observer of NdemStepStats (P3-C15, 000 l.1233): after the impact stage the normal velocity
// of every impacting contact is -e times its approach velocity, and the stats say so; and tau_n of
// NdemSettings::relaxation_time switches from n_s Dt to c/e_H as Paper III says (000 l.1426, 1501).
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "tests/ndem/ndem_fixtures.hpp"

using namespace grainlab;
using namespace grainlab::ndem_test;

BOOST_AUTO_TEST_SUITE(ndem_impact_law)

BOOST_AUTO_TEST_CASE(impact_stage_returns_minus_e_times_the_approach_velocity) {
  for (double e : {0.0, 0.18, 0.5, 1.0}) {
    Material m = pellet();
    m.restitution = e;
    World w = floor_world(m);
    const double r = pellet_d / 2;
    w.add_sphere(Vec3(0, 0, r - 1e-5), r, 0, Vec3(0, 0, -2.0));  // already touching, approaching at 2 m/s
    NdemSettings s;
    s.time_step = 0.005;
    s.impact_velocity = 0.05;
    NdemStepper ndem(s);
    ndem.step(w);
    BOOST_TEST(ndem.stats().impacting == 1u);
    BOOST_TEST(ndem.stats().impact_law_error < 1e-12);
    BOOST_TEST(ndem.stats().impact_restitution == e, boost::test_tools::tolerance(1e-12));
  }
}

BOOST_AUTO_TEST_CASE(no_impact_below_the_threshold) {
  const Material m = pellet();
  World w = floor_world(m);
  const double r = pellet_d / 2;
  w.add_sphere(Vec3(0, 0, r - 1e-5), r, 0, Vec3(0, 0, -0.01));
  NdemSettings s;
  s.impact_velocity = 0.05;
  NdemStepper ndem(s);
  ndem.step(w);
  BOOST_TEST(ndem.stats().impacting == 0u);
  BOOST_TEST(ndem.stats().impact_law_error == 0.0);
}

BOOST_AUTO_TEST_CASE(relaxation_time_takes_the_damping_branch_at_small_steps) {
  NdemSettings s;
  s.damping_time = 1e-3;  // c = 1 ms (000 l.1426)
  s.time_step = 5e-3;
  BOOST_TEST(s.relaxation_time() == 2 * 5e-3);  // n_s Dt = 10 ms
  s.time_step = 1e-4;
  BOOST_TEST(s.relaxation_time() == 1e-3 / 1.25);  // c / e_H = 0.8 ms
}

BOOST_AUTO_TEST_SUITE_END()
