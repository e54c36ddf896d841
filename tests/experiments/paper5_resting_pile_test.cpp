// The resting pyramid of the measured speed-up (experiments/paper5_resting_pile.*): its count formula, its
// FCC geometry (every sphere above the bottom rests on four touching spheres below) and that it is at rest
// under the Paper V settings, and the timed stepping's bookkeeping.
#include <boost/test/unit_test.hpp>
#include <cmath>

#include "core/error.hpp"
#include "experiments/paper5_resting_pile.hpp"

using namespace grainlab;
using namespace grainlab::paper5;

BOOST_AUTO_TEST_SUITE(paper5_resting_pile)

BOOST_AUTO_TEST_CASE(count_and_geometry) {
  BOOST_TEST(pyramid_count(1) == 1u);
  BOOST_TEST(pyramid_count(31) == 10416u);
  BOOST_TEST(pyramid_count(67) == 102510u);
  RestingPile pile;
  pile.layers = 5;
  World w;
  build_resting_pile(pile, w);
  BOOST_REQUIRE(w.particles.size() == pyramid_count(5));
  const double a = pile.diameter * (1.0 - pile.lattice_overlap);
  // Each sphere of layer k >= 1 has exactly four neighbours at distance a in layer k - 1.
  const auto& x = w.particles.position;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i].z() < pile.diameter) continue;  // bottom layer
    int below = 0;
    for (std::size_t j = 0; j < x.size(); ++j)
      if (x[j].z() < x[i].z() - 1e-9 && std::abs((x[i] - x[j]).norm() - a) < 1e-12) ++below;
    BOOST_TEST(below == 4);
  }
}

// Built at rest with Paper V settings, the pile stays at rest: after 20 steps of 5 ms no sphere moves faster
// than 1 mm/s (a free fall over the same time reaches 0.98 m/s), and the top sphere sinks by less than 1 % d.
BOOST_AUTO_TEST_CASE(stays_at_rest) {
  RestingPile pile;
  pile.layers = 6;
  World w;
  build_resting_pile(pile, w);
  double top0 = 0;
  for (const Vec3& p : w.particles.position) top0 = std::max(top0, p.z());
  NdemStepper ndem(paper5_ndem_settings());
  const TimedSteps t = time_steps(w, ndem, 20);
  BOOST_TEST(t.steps == 20);
  BOOST_TEST(t.cpu_s > 0.0);
  BOOST_TEST(t.contacts > double(w.particles.size()));  // ~3-5 contacts per sphere, floor included
  BOOST_TEST(t.level == 0.0);                            // no reduction
  BOOST_TEST(max_sphere_speed(w) < 1e-3);
  double top = 0;
  for (const Vec3& p : w.particles.position) top = std::max(top, p.z());
  BOOST_TEST(top0 - top < 0.01 * pile.diameter);
}

BOOST_AUTO_TEST_CASE(bad_input_names_the_parameter) {
  RestingPile pile;
  pile.layers = 0;
  World w;
  BOOST_CHECK_EXCEPTION(build_resting_pile(pile, w), InputError,
                        [](const InputError& e) { return std::string(e.what()).find("layers") != std::string::npos; });
}

BOOST_AUTO_TEST_SUITE_END()
