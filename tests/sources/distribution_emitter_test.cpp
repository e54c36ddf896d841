// Radius distributions (moments against their analytic values) and the continuous emitter (rate over
// time, no overlaps, determinism, saved state, bad input).
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "core/error.hpp"
#include "tests/sources/source_test_helpers.hpp"
#include "core/sources/emitter.hpp"

using namespace grainlab;
using namespace grainlab::sources;
using namespace grainlab::test;

namespace {

struct Moments {
  double mean = 0, variance = 0;
};
Moments moments(const RadiusDistribution& d, int n, std::uint64_t seed) {
  SourceRng rng(seed);
  double s = 0, s2 = 0;
  for (int i = 0; i < n; ++i) {
    const double r = d.sample(rng);
    s += r;
    s2 += r * r;
  }
  const double mean = s / n;
  return {mean, s2 / n - mean * mean};
}




}  // namespace

BOOST_AUTO_TEST_SUITE(distributions)

// With n = 2e5 samples the standard error of the mean is sigma / sqrt(n) ~ 2.2e-3 sigma, and of the
// variance ~ sqrt(2/n) ~ 3.2e-3 relative (exact for a normal; same order for the others); the
// tolerances below are ~5 standard errors, so a wrong formula (e.g. a missing factor) fails clearly
// while the test does not flake. The seeds are fixed, so the outcome is deterministic anyway.
constexpr int n_samples = 200000;

BOOST_AUTO_TEST_CASE(uniform_moments) {
  const double a = 0.002, b = 0.005;
  const Moments m = moments(RadiusDistribution::uniform(a, b), n_samples, 3);
  BOOST_TEST(m.mean == (a + b) / 2, boost::test_tools::tolerance(0.002));
  BOOST_TEST(m.variance == (b - a) * (b - a) / 12, boost::test_tools::tolerance(0.02));
}

BOOST_AUTO_TEST_CASE(bidisperse_number_fraction) {
  const RadiusDistribution d = RadiusDistribution::bidisperse(0.002, 0.004, 0.3);
  SourceRng rng(5);
  int small = 0;
  for (int i = 0; i < n_samples; ++i) small += d.sample(rng) == 0.002;
  // Binomial: sd of the fraction sqrt(0.3*0.7/n) ~ 1e-3; 5 sd = 5e-3.
  BOOST_TEST(std::abs(double(small) / n_samples - 0.3) < 5e-3);
}

BOOST_AUTO_TEST_CASE(normal_moments_and_truncation) {
  // Wide bounds (+-6 sigma): truncation changes the moments by < 1e-8 relative.
  const Moments wide = moments(RadiusDistribution::normal(0.004, 0.0005, 0.001, 0.007), n_samples, 7);
  BOOST_TEST(wide.mean == 0.004, boost::test_tools::tolerance(0.002));
  BOOST_TEST(std::sqrt(wide.variance) == 0.0005, boost::test_tools::tolerance(0.01));
  // Truncated at +-1 sigma: mean unchanged by symmetry, variance = sigma^2 (1 - 2 phi(1) / (2 Phi(1) - 1))
  // = 0.29112 sigma^2 (standard truncated-normal result).
  const double sigma = 0.0005;
  const Moments cut = moments(RadiusDistribution::normal(0.004, sigma, 0.004 - sigma, 0.004 + sigma), n_samples, 9);
  const double phi1 = std::exp(-0.5) / std::sqrt(2 * pi), Phi_range = std::erf(1 / std::sqrt(2.0));
  BOOST_TEST(cut.mean == 0.004, boost::test_tools::tolerance(0.002));
  BOOST_TEST(cut.variance == sigma * sigma * (1 - 2 * phi1 / Phi_range), boost::test_tools::tolerance(0.02));
}

BOOST_AUTO_TEST_CASE(same_seed_same_numbers) {
  const RadiusDistribution d = RadiusDistribution::normal(0.004, 0.001, 0.002, 0.006);
  SourceRng a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 1000; ++i) {
    const double x = d.sample(a), y = d.sample(b), z = d.sample(c);
    BOOST_TEST_REQUIRE(x == y);
    differs |= x != z;
  }
  BOOST_TEST(differs);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(emitter)

EmitterSettings roomy() {
  EmitterSettings s;
  s.rate = 1000;
  s.region = {Vec3(0, 0, 0), Vec3(0.5, 0.5, 0.5)};
  s.velocity = Vec3(0, 0, -1);
  s.velocity_jitter = 0.1;
  s.radii = RadiusDistribution::uniform(0.002, 0.003);
  s.seed = 77;
  return s;
}

BOOST_AUTO_TEST_CASE(rate_over_time) {
  World w = one_material_world();
  ParticleEmitter e(roomy());
  const double dt = 1.7e-4;  // rate * dt = 0.17: not a whole number, exercises the carried fraction
  std::size_t after_half = 0;
  for (int i = 0; i < 5882; ++i) {  // 5882 * 1.7e-4 = 0.99994 s
    e.emit(w, dt);
    w.time += dt;
    if (i == 2940) after_half = w.particles.size();
  }
  // Exact accounting: inserted + failed = floor(rate * T) (+-1 for the rounding of the sum).
  const double expected = std::floor(1000 * 5882 * dt);
  BOOST_TEST(std::abs(double(e.inserted() + e.failed()) - expected) <= 1.0);
  BOOST_TEST(e.failed() == 0u);  // the region is nearly empty
  BOOST_TEST(w.particles.size() == e.inserted());
  BOOST_TEST(std::abs(double(after_half) - std::floor(1000 * 2941 * dt)) <= 1.0);
  BOOST_TEST(max_overlap(w) < 0);
  for (std::size_t i = 0; i < w.particles.size(); ++i) {
    const Vec3 v = w.particles.velocity[i];
    BOOST_TEST_REQUIRE(std::abs(v.x()) <= 0.1);
    BOOST_TEST_REQUIRE(std::abs(v.z() + 1) <= 0.1);
    BOOST_TEST_REQUIRE(contains_sphere(Region(roomy().region), w.particles.position[i], w.particles.radius[i]));
  }
}

BOOST_AUTO_TEST_CASE(time_window) {
  World w = one_material_world();
  EmitterSettings s = roomy();
  s.start_time = 0.1;
  s.end_time = 0.3;
  ParticleEmitter e(s);
  for (int i = 0; i < 500; ++i) {
    e.emit(w, 1e-3);
    w.time += 1e-3;
  }
  BOOST_TEST(std::abs(double(e.inserted()) - 200.0) <= 1.0);
}

BOOST_AUTO_TEST_CASE(counts_what_it_cannot_insert) {
  World w = one_material_world();
  EmitterSettings s = roomy();
  s.region = {Vec3(0, 0, 0), Vec3(0.012, 0.012, 0.012)};  // room for a handful of spheres
  s.rate = 1e4;
  ParticleEmitter e(s);
  for (int i = 0; i < 100; ++i) e.emit(w, 1e-4);  // nothing moves: the box fills up
  BOOST_TEST(e.inserted() + e.failed() == 100u);
  BOOST_TEST(e.failed() > 0u);
  BOOST_TEST(e.inserted() == w.particles.size());
  BOOST_TEST(max_overlap(w) < 0);
}

BOOST_AUTO_TEST_CASE(deterministic_and_restorable) {
  World a = one_material_world(), b = one_material_world(), c = one_material_world();
  ParticleEmitter ea(roomy()), eb(roomy());
  for (int i = 0; i < 300; ++i) {
    ea.emit(a, 1e-3);
    eb.emit(b, 1e-3);
  }
  BOOST_TEST((a.particles.position == b.particles.position));
  BOOST_TEST((a.particles.velocity == b.particles.velocity));
  // Restart: a fresh emitter given the saved state continues exactly like the original.
  ParticleEmitter ec(roomy());
  ec.restore_state(ea.save_state());
  c.particles = a.particles;
  for (int i = 0; i < 100; ++i) {
    ea.emit(a, 1e-3);
    ec.emit(c, 1e-3);
  }
  BOOST_TEST((a.particles.position == c.particles.position));
  BOOST_TEST(ea.inserted() == ec.inserted());
  BOOST_CHECK_THROW(ec.restore_state("garbage"), InputError);
}

BOOST_AUTO_TEST_CASE(bad_input_names_the_parameter) {
  EmitterSettings s = roomy();
  s.rate = 0;
  BOOST_TEST(message_has([&] { ParticleEmitter{s}; }, "rate = 0"));
  s = roomy();
  s.radii = RadiusDistribution::mono(-1);
  BOOST_TEST(message_has([&] { ParticleEmitter{s}; }, "radius = -1"));
  s = roomy();
  s.velocity_jitter = -0.1;
  BOOST_TEST(message_has([&] { ParticleEmitter{s}; }, "velocity_jitter"));
  s = roomy();
  s.attempts = 0;
  BOOST_TEST(message_has([&] { ParticleEmitter{s}; }, "attempts"));
  s = roomy();
  s.material = 4;
  ParticleEmitter e(s);
  World w = one_material_world();
  BOOST_TEST(message_has([&] { e.emit(w, 1e-3); }, "material = 4"));
  s.material = 0;
  ParticleEmitter ok(s);
  BOOST_TEST(message_has([&] { ok.emit(w, 0); }, "dt = 0"));
}

BOOST_AUTO_TEST_SUITE_END()
