// NdemSettings::record_contact_statistics (Paper III E8, Figs. 19-20): per active contact the overlap / d as
// detected, the approach speed -G_n v at the start of the step and v_imp = eps d / dt; off by default and
// without effect on the trajectory.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <vector>

#include "core/ndem/ndem_stepper.hpp"

using namespace grainlab;

namespace {

constexpr double r = 0.01;  // d = 0.02 m for every contact

// Three touching contacts, gravity off (ledger-free numbers):
//   sphere on the floor, falling at 0.3 m/s, overlap 1 mm (0.05 d)        -> approach +0.3
//   horizontal pair closing at 0.2 m/s, overlap 0.5 mm (0.025 d)         -> approach +0.2
//   sphere on a wall x = -1 that moves away at 0.4 m/s, overlap 1.5 mm   -> approach -0.4
World three_contacts() {
  World w;
  w.gravity.g = Vec3::Zero();
  Material m;
  m.name = "glass";
  m.density = 2500;
  m.youngs_modulus = 1e7;
  m.poisson_ratio = 0.25;
  m.restitution = 0.5;
  m.friction = 0.5;
  w.add_material(m);
  Wall floor;
  floor.name = "floor";
  floor.shape = PlaneShape{Vec3::Zero(), Vec3::UnitZ()};
  w.add_wall(floor);
  Wall side;
  side.name = "side";
  side.shape = PlaneShape{Vec3(-1, 0, 0), Vec3::UnitX()};
  side.velocity = Vec3(-0.4, 0, 0);
  w.add_wall(side);
  w.add_sphere(Vec3(0, 0, r - 0.001), r, 0, Vec3(0, 0, -0.3));
  w.add_sphere(Vec3(2, 0, 0.5), r, 0, Vec3(0.1, 0, 0));
  w.add_sphere(Vec3(2 + 2 * r - 0.0005, 0, 0.5), r, 0, Vec3(-0.1, 0, 0));
  w.add_sphere(Vec3(-1 + r - 0.0015, 0, 0.5), r, 0);
  return w;
}

NdemSettings settings(bool record) {
  NdemSettings s;
  s.time_step = 1e-3;
  s.iterations = 20;
  s.impact_epsilon = 0.02;
  s.record_contact_statistics = record;
  return s;
}

std::vector<double> sorted(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ndem_contact_statistics_record)

BOOST_AUTO_TEST_CASE(records_overlap_approach_speed_and_threshold) {
  World w = three_contacts();
  NdemStepper stepper(settings(true));
  stepper.step(w);
  const NdemStepStats& s = stepper.stats();
  BOOST_TEST_REQUIRE(s.contact_overlap_over_d.size() == 3u);
  BOOST_TEST_REQUIRE(s.contact_approach_speed.size() == 3u);
  BOOST_TEST_REQUIRE(s.contact_impact_speed.size() == 3u);
  const auto overlap = sorted(s.contact_overlap_over_d), speed = sorted(s.contact_approach_speed);
  BOOST_TEST(overlap[0] == 0.025, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(overlap[1] == 0.05, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(overlap[2] == 0.075, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(speed[0] == -0.4, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(speed[1] == 0.2, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(speed[2] == 0.3, boost::test_tools::tolerance(1e-9));
  for (double v : s.contact_impact_speed) BOOST_TEST(v == 0.02 * 0.02 / 1e-3, boost::test_tools::tolerance(1e-12));
  // v_imp = 0.4 m/s: none of the three approaches that fast, so none is an impact.
  BOOST_TEST(s.impacting == 0u);
}

BOOST_AUTO_TEST_CASE(off_by_default_and_without_effect_on_the_trajectory) {
  BOOST_TEST(!NdemSettings{}.record_contact_statistics);
  World a = three_contacts(), b = three_contacts();
  NdemStepper off(settings(false)), on(settings(true));
  for (int k = 0; k < 5; ++k) {
    off.step(a);
    on.step(b);
  }
  BOOST_TEST(off.stats().contact_approach_speed.empty());
  BOOST_TEST(off.stats().contact_overlap_over_d.empty());
  for (std::size_t i = 0; i < a.particles.size(); ++i) {
    BOOST_TEST((a.particles.position[i] == b.particles.position[i]));
    BOOST_TEST((a.particles.velocity[i] == b.particles.velocity[i]));
  }
}

BOOST_AUTO_TEST_SUITE_END()
