// Pile measures (experiments/pile_measures.hpp) on constructed piles with a known answer, and the
// ndem_pile experiment's bookkeeping on a small run.
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "experiments/experiment.hpp"
#include "experiments/pile_measures.hpp"

using namespace grainlab;

namespace {
constexpr double d = 0.013, r = d / 2;

// A cone of slope `angle_deg` whose surface spheres sit at rho = (k + 1/2) d (the bin centres), with one
// sphere under each surface sphere, along alternating directions around the axis.
ParticleStore cone(double angle_deg, double apex_top) {
  ParticleStore p;
  const double t = std::tan(angle_deg * M_PI / 180);
  for (int k = 0; k < 10; ++k) {
    const double rho = (k + 0.5) * d, phi = 0.7 * k;
    const double top = apex_top - t * rho;
    if (top < d) break;
    p.add(Vec3(rho * std::cos(phi), rho * std::sin(phi), top - r), r, 3700, 0);
    p.add(Vec3(rho * std::cos(phi), rho * std::sin(phi), top - r - d), r, 3700, 0);
  }
  return p;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(pile_measures)

BOOST_AUTO_TEST_CASE(cone_angle_and_height_are_recovered) {
  for (double angle : {25.0, 35.0, 45.0}) {
    const ParticleStore p = cone(angle, 10 * d);
    const PileMeasures m = measure_pile(p, PileMeasureSettings{});
    BOOST_TEST(m.height == 10 * d - std::tan(angle * M_PI / 180) * 0.5 * d, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(m.angle_deg == angle, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(m.flank_bins >= 3);
    BOOST_TEST(m.resting == p.size());
    double z = 0;
    for (const Vec3& x : p.position) z += x.z();
    BOOST_TEST(m.height_centroid == 4 * z / double(p.size()), boost::test_tools::tolerance(1e-12));
  }
}

BOOST_AUTO_TEST_CASE(moving_particles_are_not_part_of_the_pile) {
  ParticleStore p = cone(35, 10 * d);
  const double h = measure_pile(p, PileMeasureSettings{}).height;
  p.add(Vec3(0, 0, 20 * d), r, 3700, 0, Vec3(0, 0, -0.5));  // still falling from the source
  const PileMeasures m = measure_pile(p, PileMeasureSettings{});
  BOOST_TEST(m.height == h);
  BOOST_TEST(m.resting == p.size() - 1);
  // The mean of the 5 highest resting tops (cone surface at 10 d - tan(35 deg) (k + 1/2) d, the sphere under
  // each one d lower): surface k = 0, 1, 2 (9.650, 8.950, 8.249 d) and under k = 0, 1 (8.650, 7.950 d).
  const double t = std::tan(35 * M_PI / 180);
  const double expected = (48 - 6.5 * t) * d / 5;
  BOOST_TEST(m.height_top == expected, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(no_resting_particle_gives_nan) {
  ParticleStore p;
  p.add(Vec3(0, 0, r), r, 3700, 0, Vec3(1, 0, 0));
  const PileMeasures m = measure_pile(p, PileMeasureSettings{});
  BOOST_TEST(std::isnan(m.height));
  BOOST_TEST(std::isnan(m.angle_deg));
}

// A small pile (40 spheres from 4 d) runs, emits exactly `count`, and ends at rest on the ground.
BOOST_AUTO_TEST_CASE(small_pile_emits_count_and_comes_to_rest) {
  const Experiment& e = find_experiment("ndem_pile");
  const Parameters p = e.complete({{"count", std::int64_t(40)}, {"source_height", 4.0}, {"emission_rate", 100.0},
                                   {"rest_time", 1.0}, {"iterations", std::int64_t(30)}, {"warm_start", std::string("history")}});
  RunContext ctx;
  const RunResult out = e.run(p, ctx);
  BOOST_TEST(out.metrics.at("emitted") == 40.0);
  BOOST_TEST(out.metrics.at("diverged") == 0.0);
  BOOST_TEST(out.metrics.at("resting_fraction") > 0.9);
  BOOST_TEST(out.metrics.at("pile_height_d") >= 1.0);
  BOOST_TEST(out.metrics.at("pile_height_d") <= 4.5);
  BOOST_TEST(!out.series.at("height").rows.empty());
}

BOOST_AUTO_TEST_CASE(bad_emission_rate_names_the_parameter) {
  const Experiment& e = find_experiment("ndem_pile");
  const Parameters p = e.complete({{"emission_rate", 500.0}, {"count", std::int64_t(5)}});
  RunContext ctx;
  BOOST_CHECK_EXCEPTION(e.run(p, ctx), std::exception,
                        [](const std::exception& x) { return std::string(x.what()).find("emission_rate") != std::string::npos; });
}

BOOST_AUTO_TEST_SUITE_END()
