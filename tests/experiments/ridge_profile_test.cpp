// Ridge cross-section measures (experiments/ridge_profile.hpp) on constructed ridges with a known answer,
// and the ndem_belt_pile experiment's bookkeeping on short runs.
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "core/error.hpp"
#include "experiments/experiment.hpp"
#include "experiments/ridge_profile.hpp"

using namespace grainlab;

namespace {
constexpr double d = 0.0127, r = d / 2, w = d / 2;  // bin width 0.5 d

double tan_deg(double a) { return std::tan(a * M_PI / 180); }

// A ridge along x: in every 2.5 d slice one sphere per 0.5 d bin (centred on the bin) whose top lies on
// a tent of slopes `left_deg` / `right_deg` with crest `crest` at y = 0, clipped at the ground.
ParticleStore ridge(double left_deg, double right_deg, double crest, int slices) {
  ParticleStore p;
  for (int s = 0; s < slices; ++s)
    for (int k = -40; k <= 40; ++k) {
      const double y = k * w;
      const double top = crest - (y < 0 ? tan_deg(left_deg) * -y : tan_deg(right_deg) * y);
      if (top < d) continue;
      p.add(Vec3((s + 0.5) * 2.5 * d, y, top - r), r, 3700, 0);
    }
  return p;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(ridge_profile)

BOOST_AUTO_TEST_CASE(tent_angles_are_recovered_per_flank) {
  const ParticleStore p = ridge(30, 40, 10 * d, 4);
  RidgeProfileSettings s;
  s.segments = 4;
  const RidgeProfile m = measure_ridge(p, s);
  BOOST_TEST(m.fit.left_deg == 30.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(m.fit.right_deg == 40.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(m.fit.angle_deg == 35.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(m.fit.peak == 10 * d, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(m.fit.peak_y == 0.0);
  BOOST_TEST(m.fit.left_bins >= 3);
  BOOST_TEST(m.fit.right_bins >= 3);
  BOOST_TEST(m.slice_angles == 4);
  BOOST_TEST(m.angle_sd_deg < 1e-9);  // identical slices
}

BOOST_AUTO_TEST_CASE(slices_are_averaged_and_empty_bins_are_ground) {
  // Two slices: one tent of 10 d crest, one empty. The mean surface is half the tent (same angles of
  // half the height: atan(tan(a) / 2)), and the empty slice has no angle.
  const ParticleStore p = ridge(36, 36, 10 * d, 1);
  RidgeProfileSettings s;
  s.segments = 2;
  const RidgeProfile m = measure_ridge(p, s);
  BOOST_TEST(m.fit.peak == 5 * d, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(m.fit.angle_deg == std::atan(tan_deg(36) / 2) * 180 / M_PI, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(m.slice_angles == 1);
  BOOST_TEST(std::isnan(m.angle_sd_deg));
}

BOOST_AUTO_TEST_CASE(falling_and_just_emitted_particles_are_not_surface) {
  ParticleStore p = ridge(36, 36, 10 * d, 1);
  RidgeProfileSettings s;
  s.segments = 1;
  s.max_height = 20 * d;
  const RidgeProfile ref = measure_ridge(p, s);
  p.add(Vec3(1.25 * d, 0, 15 * d), r, 3700, 0, Vec3(0, 0, -1.0));  // falling
  p.add(Vec3(1.25 * d, 3 * w, 25 * d), r, 3700, 0);                // at rest at the source
  const RidgeProfile m = measure_ridge(p, s);
  BOOST_TEST(m.fit.peak == ref.fit.peak);
  BOOST_TEST(m.fit.angle_deg == ref.fit.angle_deg);
}

BOOST_AUTO_TEST_CASE(bottom_layer_is_left_out_with_min_height) {
  // A 36 deg tent of 4 d crest on a skirt of single spheres resting on the ground out to |y| = 20 d. With a
  // 0.1 flank floor (0.4 d) the skirt bins (height d) join the flank fit and flatten it; leaving out the
  // centres below d (Paper V E1: "neglecting particles resting directly on the conveyor surface") restores
  // the tent's flanks down to the second layer.
  ParticleStore p = ridge(36, 36, 4 * d, 1);
  for (int k = -40; k <= 40; ++k) p.add(Vec3(1.25 * d, k * w, r), r, 3700, 0);
  RidgeProfileSettings s;
  s.segments = 1;
  s.flank_low = 0.1;
  const RidgeProfile with_skirt = measure_ridge(p, s);
  s.min_height = d;
  const RidgeProfile without = measure_ridge(p, s);
  BOOST_TEST(with_skirt.fit.angle_deg < 30.0);
  BOOST_TEST(without.fit.angle_deg == 36.0, boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(belt_velocity_is_the_rest_frame) {
  // Particles carried by a belt at 0.1 m/s are surface; at rest on a moving belt they are not.
  ParticleStore p = ridge(36, 36, 10 * d, 1);
  for (Vec3& v : p.velocity) v = Vec3(0.1, 0, 0);
  RidgeProfileSettings s;
  s.segments = 1;
  s.ground_velocity = Vec3(0.1, 0, 0);
  BOOST_TEST(measure_ridge(p, s).fit.angle_deg == 36.0, boost::test_tools::tolerance(1e-9));
  s.ground_velocity = Vec3(0.5, 0, 0);
  BOOST_TEST(measure_ridge(p, s).fit.peak == 0.0);
}

BOOST_AUTO_TEST_CASE(a_stray_particle_beyond_the_toe_is_not_flank) {
  // One sphere far out at y = 30 bins: in the band by height, but beyond bins below the band (the toe).
  ParticleStore p = ridge(36, 36, 10 * d, 1);
  p.add(Vec3(1.25 * d, 30 * w, 4 * d), r, 3700, 0);
  RidgeProfileSettings s;
  s.segments = 1;
  BOOST_TEST(measure_ridge(p, s).fit.right_deg == 36.0, boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(bad_settings_name_the_parameter) {
  RidgeProfileSettings s;
  s.bin_width = 0;
  BOOST_CHECK_EXCEPTION(measure_ridge(ParticleStore{}, s), InputError,
                        [](const InputError& x) { return std::string(x.what()).find("bin_width") != std::string::npos; });
}

// A short belt run: the source feeds feed_rate (emitted mass = rate x time, to one particle per step),
// the belt carries the first particles downstream, and the run reports the profile series.
BOOST_AUTO_TEST_CASE(belt_run_feeds_the_rate_and_carries_downstream) {
  const Experiment& e = find_experiment("ndem_belt_pile");
  const Parameters p = e.complete({{"layout", std::string("belt")}, {"run_time", 0.5}, {"feed_rate", 0.5},
                                   {"source_length", 0.1}, {"source_height", 0.1}, {"iterations", std::int64_t(20)}});
  RunContext ctx;
  const RunResult out = e.run(p, ctx);
  const double m = 3700 * M_PI * d * d * d / 6;
  BOOST_TEST(out.metrics.at("emitted") + out.metrics.at("emission_failed") == std::floor(0.5 * 0.5 / m + 1e-9));
  BOOST_TEST(out.metrics.at("mass_per_metre") == 5.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(!out.series.at("angle").rows.empty());
  BOOST_TEST(!out.series.at("profile").rows.empty());
}

BOOST_AUTO_TEST_CASE(ridge_run_emits_the_mass_per_metre) {
  // 10 kg/m (feed 1 kg/s at 0.1 m/s) over a 4 d period: round(10 x 4 d / m) particles, all in.
  const Experiment& e = find_experiment("ndem_belt_pile");
  const Parameters p = e.complete({{"ridge_length", 4 * d}, {"source_length", 0.05}, {"source_height", 0.1},
                                   {"feed_rate", 1.0}, {"settle_time", 0.2}, {"iterations", std::int64_t(20)}});
  RunContext ctx;
  const RunResult out = e.run(p, ctx);
  const double m = 3700 * M_PI * d * d * d / 6;
  BOOST_TEST(out.metrics.at("emitted") == double(std::lround(10 * 4 * d / m)));
  BOOST_TEST(out.metrics.at("mass_per_metre") == 10.0, boost::test_tools::tolerance(0.01));
  BOOST_TEST(std::isfinite(out.metrics.at("angle_early")));
}

BOOST_AUTO_TEST_SUITE_END()
