// Observers of the Paper IV E2b diagnostics (core/ndem/row_residuals.hpp, NdemSettings::record_row_residuals
// and reference_cold_start): the per-row residual probe is the solver's own residual of the next iteration,
// the observers leave the trajectory bitwise unchanged, and the cold reference is one reference for every
// warm start.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <numeric>

#include "core/ndem/row_residuals.hpp"
#include "tests/ndem/ndem_fixtures.hpp"

using namespace grainlab;
using namespace grainlab::ndem_test;

namespace {

// Two layers of pellets on a floor (a 4 x 4 square layer and 9 spheres in its hollows), settled for 20
// steps: friction, rolling and twisting rows all carry load.
World small_packing() {
  Material m = pellet();
  m.twisting_factor = m.rolling_friction / m.friction;
  World w = floor_world(m);
  const double d = pellet_d;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) w.add_sphere(Vec3(i * d, j * d, d / 2), d / 2, 0);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) w.add_sphere(Vec3((i + 0.5) * d, (j + 0.5) * d, d / 2 + 0.70 * d), d / 2, 0);
  NdemSettings s;
  s.iterations = 50;
  s.warm_start = NdemWarmStart::history;
  NdemStepper ndem(s);
  for (int k = 0; k < 20; ++k) ndem.step(w);
  return w;
}

double mean(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size()); }

}  // namespace

BOOST_AUTO_TEST_SUITE(ndem_row_residuals)

BOOST_AUTO_TEST_CASE(probe_is_the_next_iterations_residual) {
  const World start = small_packing();
  constexpr int K = 30;
  NdemSettings s;
  s.warm_start = NdemWarmStart::history;
  s.iterations = K + 1;
  s.record_residuals = true;
  World a = start;
  NdemStepper next(s);
  next.step(a);
  s.iterations = K;
  s.record_residuals = false;
  s.record_row_residuals = true;
  World b = start;
  NdemStepper probed(s);
  probed.step(b);
  const NdemStepStats& pn = next.stats();
  const NdemStepStats& pb = probed.stats();
  BOOST_TEST_REQUIRE(pb.contacts > 20u);
  BOOST_TEST(pb.row_residual_normal.size() == pb.contacts);
  BOOST_TEST(pb.row_residual_friction.size() == 2 * pb.contacts);
  BOOST_TEST(pb.row_residual_rolling.size() == 3 * pb.contacts);
  // Iteration K + 1's mean residual per type = the mean of the probe after K iterations.
  BOOST_TEST(mean(pb.row_residual_normal) == pn.residual_normal[K], boost::test_tools::tolerance(1e-9));
  BOOST_TEST(mean(pb.row_residual_friction) == pn.residual_friction[K], boost::test_tools::tolerance(1e-9));
  BOOST_TEST(mean(pb.row_residual_rolling) == pn.residual_rolling[K], boost::test_tools::tolerance(1e-9));
  BOOST_TEST(mean(pb.row_residual_rolling) > 0);
}

BOOST_AUTO_TEST_CASE(observers_leave_the_trajectory_bitwise_unchanged) {
  const World start = small_packing();
  NdemSettings s;
  s.iterations = 20;
  s.warm_start = NdemWarmStart::history;
  World plain = start, observed = start;
  NdemStepper a(s);
  s.record_row_residuals = true;
  s.record_residuals = true;
  s.reference_iterations = 40;
  s.reference_cold_start = true;
  NdemStepper b(s);
  for (int k = 0; k < 5; ++k) {
    a.step(plain);
    b.step(observed);
  }
  BOOST_TEST(a.stats().row_residual_normal.empty());  // off by default
  for (std::size_t i = 0; i < plain.particles.size(); ++i) {
    BOOST_TEST((plain.particles.position[i] == observed.particles.position[i]));
    BOOST_TEST((plain.particles.angular_velocity[i] == observed.particles.angular_velocity[i]));
  }
}

BOOST_AUTO_TEST_CASE(cold_reference_is_common_to_every_warm_start) {
  const World start = small_packing();
  constexpr int K = 40;
  auto final_error = [&](NdemWarmStart ws, bool cold_reference) {
    NdemSettings s;
    s.iterations = K;
    s.warm_start = ws;
    s.reference_iterations = K;
    s.reference_cold_start = cold_reference;
    World w = start;
    NdemStepper ndem(s);
    ndem.step(w);
    BOOST_TEST_REQUIRE(ndem.stats().multiplier_error.size() == std::size_t(K));
    return ndem.stats().multiplier_error.back();
  };
  // Own reference (Eq. 13 as printed): the solve's own last iterate, error 0 at k = K.
  BOOST_TEST(final_error(NdemWarmStart::history, false) == 0.0);
  // Cold reference: a cold solve of K iterations is its own reference; a warm-started one is not.
  BOOST_TEST(final_error(NdemWarmStart::cold, true) == 0.0);
  BOOST_TEST(final_error(NdemWarmStart::history, true) > 0.0);
}

BOOST_AUTO_TEST_SUITE_END()
