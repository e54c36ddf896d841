// Set-up fills: counts, no overlaps (brute force or the independently tested contact detector),
// everything inside the region, determinism by seed, and bad input named.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cmath>

#include "core/error.hpp"
#include "tests/sources/source_test_helpers.hpp"
#include "core/sources/fill.hpp"

using namespace grainlab;
using namespace grainlab::sources;
using namespace grainlab::test;

namespace {



bool all_inside(const World& w, const Region& region, std::size_t first = 0) {
  for (std::size_t i = first; i < w.particles.size(); ++i)
    if (!contains_sphere(region, w.particles.position[i], w.particles.radius[i])) return false;
  return true;
}


}  // namespace

BOOST_AUTO_TEST_SUITE(fills)

BOOST_AUTO_TEST_CASE(lattice_count_spacing_and_no_overlap) {
  World w = one_material_world();
  LatticeFill f;
  f.region = {Vec3(0, 0, 0), Vec3(0.1, 0.05, 0.2)};
  f.radius = 0.004;
  f.spacing = 0.01;
  f.jitter = 0.001;  // <= (0.01 - 0.008)/2
  const FillResult r = lattice_fill(w, f);
  // Sites per axis: floor((L - 2(r + jitter)) / spacing) + 1 = 10, 5, 20.
  BOOST_TEST(r.added == 10u * 5u * 20u);
  BOOST_TEST(w.particles.size() == r.added);
  BOOST_TEST(max_overlap(w) < 0);
  BOOST_TEST(all_inside(w, f.region));
  BOOST_TEST(r.volume_fraction == 1000 * 4.0 / 3.0 * pi * std::pow(0.004, 3) / 0.001, boost::test_tools::tolerance(1e-12));
  // Jitter is really applied, and bounded.
  double max_shift = 0;
  for (std::size_t i = 0; i < w.particles.size(); ++i) {
    const Vec3 rel = (w.particles.position[i] - Vec3::Constant(0.005)) / 0.01;
    max_shift = std::max(max_shift, ((rel.array() - rel.array().round()) * 0.01).abs().maxCoeff());
  }
  BOOST_TEST(max_shift > 0.0009);
  BOOST_TEST(max_shift <= 0.001 + 1e-15);

  World again = one_material_world();
  lattice_fill(again, f);
  BOOST_TEST((again.particles.position == w.particles.position));
}

BOOST_AUTO_TEST_CASE(lattice_clipped_to_a_cylinder_and_capped_in_count) {
  World w = one_material_world();
  LatticeFill f;
  f.region = {Vec3(-0.03, -0.03, 0), Vec3(0.03, 0.03, 0.5)};
  f.radius = 0.005;
  f.spacing = 0.0105;
  f.jitter = 0.0002;
  const CylinderRegion cyl{Vec3::Zero(), Vec3::UnitZ(), 0.03, 0.5};
  f.clip = Region(cyl);
  f.max_count = 250;
  const FillResult r = lattice_fill(w, f);
  BOOST_TEST(r.added == 250u);
  BOOST_TEST(r.skipped == 0u);
  BOOST_TEST(max_overlap(w) < 0);
  double lowest = 1, highest = 0;
  for (std::size_t i = 0; i < w.particles.size(); ++i) {
    const Vec3& c = w.particles.position[i];
    BOOST_TEST(std::hypot(c.x(), c.y()) <= 0.03 - 0.005 + 1e-15);
    lowest = std::min(lowest, c.z());
    highest = std::max(highest, c.z());
  }
  // Bottom layer first: the 250 spheres fill whole layers from the floor up (no gaps left below).
  BOOST_TEST(lowest < 0.0061);
  BOOST_TEST(highest < 0.5 / 2);
  BOOST_TEST(r.volume_fraction == 250 * 4.0 / 3.0 * pi * std::pow(0.005, 3) / (pi * 0.03 * 0.03 * 0.5),
             boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(lattice_skips_sites_taken_by_existing_particles) {
  World w = one_material_world();
  w.add_sphere(Vec3(0.025, 0.025, 0.025), 0.012, 0);
  LatticeFill f;
  f.region = {Vec3(0, 0, 0), Vec3(0.05, 0.05, 0.05)};
  f.radius = 0.004;
  f.spacing = 0.01;
  const FillResult r = lattice_fill(w, f);
  BOOST_TEST(r.skipped > 0u);
  BOOST_TEST(r.added + r.skipped == 125u);
  BOOST_TEST(max_overlap(w) <= 0);
}

BOOST_AUTO_TEST_CASE(lattice_bad_input_names_the_parameter) {
  World w = one_material_world();
  LatticeFill f;
  f.region = {Vec3(0, 0, 0), Vec3(0.05, 0.05, 0.05)};
  f.radius = -0.001;
  BOOST_TEST(message_has([&] { lattice_fill(w, f); }, "radius = -0.001"));
  f.radius = 0.004;
  f.spacing = 0.007;
  BOOST_TEST(message_has([&] { lattice_fill(w, f); }, "spacing"));
  f.spacing = 0.01;
  f.jitter = 0.0015;
  BOOST_TEST(message_has([&] { lattice_fill(w, f); }, "jitter"));
  f.jitter = 0;
  f.material = 3;
  BOOST_TEST(message_has([&] { lattice_fill(w, f); }, "material"));
  f.material = 0;
  f.region.hi.x() = -1;
  BOOST_TEST(message_has([&] { lattice_fill(w, f); }, "region.hi"));
  BOOST_TEST(w.particles.size() == 0u);
}

BOOST_AUTO_TEST_CASE(random_fill_box_count_polydisperse) {
  World w = one_material_world();
  RandomFill f;
  f.region = BoxRegion{Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.1)};
  f.radii = RadiusDistribution::uniform(0.002, 0.004);
  f.count = 1500;
  f.seed = 11;
  const FillResult r = random_fill(w, f);
  BOOST_TEST(r.added == 1500u);
  BOOST_TEST(max_overlap(w) <= 0);
  BOOST_TEST(all_inside(w, f.region));
  double lo = 1, hi = 0;
  for (double x : w.particles.radius) lo = std::min(lo, x), hi = std::max(hi, x);
  BOOST_TEST(lo >= 0.002);
  BOOST_TEST(hi <= 0.004);
  // Same seed -> same particles; another seed -> different ones.
  World same = one_material_world(), other = one_material_world();
  random_fill(same, f);
  f.seed = 12;
  random_fill(other, f);
  BOOST_TEST((same.particles.position == w.particles.position));
  BOOST_TEST((same.particles.radius == w.particles.radius));
  BOOST_TEST(!(other.particles.position == w.particles.position));
}

BOOST_AUTO_TEST_CASE(random_fill_cylinder_volume_fraction_around_existing) {
  World w = one_material_world();
  w.add_sphere(Vec3(0.03, 0.02, 0.05), 0.01, 0);  // an obstacle the fill must avoid
  CylinderRegion cyl;
  cyl.base = Vec3(0.02, 0.02, 0.0);
  cyl.axis = Vec3(0, 0.6, 0.8);
  cyl.radius = 0.03;
  cyl.height = 0.1;
  RandomFill f;
  f.region = cyl;
  f.radii = RadiusDistribution::bidisperse(0.002, 0.003, 0.7);
  f.volume_fraction = 0.25;
  const FillResult r = random_fill(w, f);
  BOOST_TEST(r.first == 1u);
  BOOST_TEST(all_inside(w, cyl, 1));
  BOOST_TEST(max_overlap(w) <= 0);
  // The target is reached, overshooting by less than one sphere of the larger radius.
  const double v_big = 4.0 / 3.0 * pi * std::pow(0.003, 3);
  BOOST_TEST(r.volume_fraction >= 0.25);
  BOOST_TEST(r.volume_fraction < 0.25 + v_big / volume(cyl));
  double sum = 0;
  for (std::size_t i = 1; i < w.particles.size(); ++i) sum += std::pow(w.particles.radius[i], 3);
  BOOST_TEST(4.0 / 3.0 * pi * sum / volume(cyl) == r.volume_fraction, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(random_fill_hundred_thousand_is_clean) {
  // 1e5 spheres at volume fraction 0.24 (cell-grid rejection sampler; its time is logged, not asserted:
  // speed belongs in benchmarks); overlaps checked with the contact detector (which is itself checked
  // against brute force in tests/core/collision_test.cpp).
  World w = one_material_world();
  RandomFill f;
  f.region = BoxRegion{Vec3(0, 0, 0), Vec3(0.36, 0.36, 0.36)};
  f.radii = RadiusDistribution::mono(0.003);
  f.count = 100000;
  const auto t0 = std::chrono::steady_clock::now();
  const FillResult r = random_fill(w, f);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  BOOST_TEST_MESSAGE("random fill of " << r.added << " spheres took " << seconds << " s");
  BOOST_TEST(r.added == 100000u);
  BOOST_TEST(r.volume_fraction == 1e5 * 4.0 / 3.0 * pi * std::pow(0.003, 3) / std::pow(0.36, 3), boost::test_tools::tolerance(1e-12));
  w.collision.skin = 1e-4;
  w.detect_contacts();
  std::size_t touching = 0;
  for (const Contact& c : w.contacts()) touching += c.overlap > 0;
  BOOST_TEST(touching == 0u);
  BOOST_TEST(all_inside(w, f.region));
}

BOOST_AUTO_TEST_CASE(random_fill_errors_name_the_parameter_and_leave_the_world_alone) {
  World w = one_material_world();
  RandomFill f;
  f.region = BoxRegion{Vec3(0, 0, 0), Vec3(0.05, 0.05, 0.05)};
  f.radii = RadiusDistribution::mono(-0.002);
  f.count = 10;
  BOOST_TEST(message_has([&] { random_fill(w, f); }, "radius = -0.002"));
  f.radii = RadiusDistribution::mono(0.003);
  f.count = 0;
  f.volume_fraction = 0.7;
  BOOST_TEST(message_has([&] { random_fill(w, f); }, "volume_fraction = 0.7 is impossible"));
  f.volume_fraction = 0.55;  // below random close packing, but beyond random insertion's jamming
  f.max_attempts = 200;
  BOOST_TEST(message_has([&] { random_fill(w, f); }, "volume_fraction = 0.55 cannot be reached"));
  f.volume_fraction = 0;
  f.count = 100000;
  BOOST_TEST(message_has([&] { random_fill(w, f); }, "count = 100000 is impossible"));
  f.count = 5;
  f.volume_fraction = 0.1;
  BOOST_TEST(message_has([&] { random_fill(w, f); }, "exactly one of count"));
  f.volume_fraction = 0;
  f.radii = RadiusDistribution::bidisperse(0.002, 0.003, 1.5);
  BOOST_TEST(message_has([&] { random_fill(w, f); }, "fraction_1"));
  f.radii = RadiusDistribution::uniform(0.004, 0.002);
  BOOST_TEST(message_has([&] { random_fill(w, f); }, "radius_max"));
  f.radii = RadiusDistribution::normal(0.001, 0.001, 0.002, 0.004);
  BOOST_TEST(message_has([&] { random_fill(w, f); }, "radius_mean"));
  f.radii = RadiusDistribution::mono(0.03);
  BOOST_TEST(message_has([&] { random_fill(w, f); }, "too small"));
  CylinderRegion bad;
  bad.radius = 0;
  f.region = bad;
  f.radii = RadiusDistribution::mono(0.003);
  BOOST_TEST(message_has([&] { random_fill(w, f); }, "region.radius"));
  BOOST_TEST(w.particles.size() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
