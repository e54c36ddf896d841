// Periodic boundary along one axis (CollisionSettings::periodic, World::wrap_periodic): the
// cell grid finds exactly the pairs a brute-force minimum-image search finds, with the right normals
// and overlaps across the seam, also for periods of only 1 or 2 cells, without duplicates.
#include <boost/test/unit_test.hpp>

#include <map>
#include <random>
#include <set>

#include "core/error.hpp"
#include "core/world.hpp"

using namespace grainlab;
namespace tt = boost::test_tools;

namespace {

World cloud(int n, unsigned seed, int axis, double period, double extent = 0.1) {
  World w;
  w.add_material(Material{});
  w.collision.set_periodic(axis, -0.02, -0.02 + period);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, extent), r(0.002, 0.005);
  for (int i = 0; i < n; ++i) {
    Vec3 x(u(rng), u(rng), u(rng));
    x[axis] = -0.02 + period * u(rng) / extent;
    w.add_sphere(x, r(rng), 0);
  }
  return w;
}

// Brute force: every pair, minimum image along the periodic axis.
std::map<std::uint64_t, std::pair<double, Vec3>> brute_force(const World& w) {
  std::map<std::uint64_t, std::pair<double, Vec3>> out;
  const auto& p = w.particles;
  int k = 0;
  while (!w.collision.periodic[k]) ++k;  // the one periodic axis
  const double L = w.collision.period(k);
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = i + 1; j < p.size(); ++j) {
      Vec3 best = Vec3::Constant(1e9);
      for (int image = -2; image <= 2; ++image) {  // explicit images instead of rounding
        Vec3 d = p.position[i] - p.position[j];
        d[k] += image * L;
        if (d.norm() < best.norm()) best = d;
      }
      const double overlap = p.radius[i] + p.radius[j] - best.norm();
      if (overlap > 0) out[pair_key(p.id[i], p.id[j])] = {overlap, best.normalized()};
    }
  return out;
}

void check_against_brute_force(World& w) {
  w.detect_contacts();
  const auto expected = brute_force(w);
  std::set<std::uint64_t> keys;
  std::map<std::uint64_t, const Contact*> got;
  for (std::size_t k = 0; k < w.pair_contact_count(); ++k) {
    const Contact& c = w.contacts()[k];
    BOOST_TEST(keys.insert(c.key).second);  // no duplicate candidates
    if (c.overlap > 0) got[c.key] = &c;
  }
  BOOST_REQUIRE_EQUAL(got.size(), expected.size());
  for (const auto& [key, e] : expected) {
    BOOST_REQUIRE(got.count(key));
    BOOST_TEST(got[key]->overlap == e.first, tt::tolerance(1e-9));
    BOOST_TEST((got[key]->normal - e.second).norm() < 1e-9);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(periodic)

BOOST_AUTO_TEST_CASE(pairs_match_minimum_image_brute_force) {
  for (int axis = 0; axis < 3; ++axis) {
    World w = cloud(1500, 21 + axis, axis, 0.1);
    check_against_brute_force(w);
  }
}

BOOST_AUTO_TEST_CASE(short_periods_of_one_and_two_cells) {
  // Cell size = 2 r_max + skin ~ 0.01035 m (r_max ~ 0.005 m, skin 0.1 x mean radius): a period of
  // 0.0205 m is 1 cell (every neighbour cell is the cell itself), 0.021 and 0.03 m are 2 cells (the
  // neighbours on both sides are the same cell). 4 r_max < 0.0205 keeps the minimum image valid.
  for (double period : {0.0205, 0.021, 0.03}) {
    World w = cloud(400, 5, 1, period);
    check_against_brute_force(w);
  }
}

BOOST_AUTO_TEST_CASE(contact_across_the_seam) {
  World w;
  w.add_material(Material{});
  w.collision.set_periodic(0, 0, 0.1);
  w.add_sphere(Vec3(0.001, 0.05, 0.05), 0.002, 0);  // a, just right of the seam
  w.add_sphere(Vec3(0.0985, 0.05, 0.05), 0.002, 0);  // b, just left of it
  w.detect_contacts();
  BOOST_REQUIRE_EQUAL(w.pair_contact_count(), 1u);
  const Contact& c = w.contacts()[0];
  BOOST_TEST(c.overlap == 0.0015, tt::tolerance(1e-9));   // distance 0.0025 through the seam
  BOOST_TEST((c.normal - Vec3::UnitX()).norm() < 1e-12);  // from b to a, across the seam
  // The contact point lies between a and b's image, 1.25 mm left of a.
  BOOST_TEST(c.point.x() == -0.00025 + 0.0, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(wrapping_keeps_pairs_and_needs_no_rebuild) {
  // A particle crossing the seam is wrapped by the world; the candidate list stays valid (distances
  // are minimum-image) so the wrap alone triggers no grid rebuild, and the contact persists.
  World w;
  w.add_material(Material{});
  w.collision.set_periodic(2, 0, 0.05);
  w.add_sphere(Vec3(0, 0, 0.00002), 0.002, 0);
  w.add_sphere(Vec3(0, 0, 0.0495), 0.002, 0);
  w.detect_contacts();  // skin = 0.1 x 2 mm: rebuild after a move of 0.1 mm
  const auto rebuilds = w.detector.stats().rebuilds;
  w.particles.position[0].z() -= 0.00005;  // crosses the seam (z = -0.00003), moved less than skin / 2
  w.wrap_periodic();
  BOOST_TEST(w.particles.position[0].z() == 0.04997, tt::tolerance(1e-9));
  w.detect_contacts();
  BOOST_TEST(w.detector.stats().rebuilds == rebuilds);
  BOOST_REQUIRE_EQUAL(w.pair_contact_count(), 1u);
  BOOST_TEST(w.contacts()[0].overlap == 0.004 - 0.00047, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(period_too_short_is_rejected) {
  // A period below 4 r_max would let a pair touch through two images at once (or a sphere touch its
  // own image): an InputError naming the periodic interval.
  World w;
  w.add_material(Material{});
  w.collision.set_periodic(0, 0, 0.007);
  w.add_sphere(Vec3(0.001, 0, 0), 0.002, 0);
  w.add_sphere(Vec3(0.004, 0, 0), 0.002, 0);
  BOOST_CHECK_EXCEPTION(w.detect_contacts(), InputError,
                        [](const InputError& e) { return std::string(e.what()).find("periodic") != std::string::npos; });
  w.collision.periodic_hi[0] = -1;
  BOOST_CHECK_THROW(w.detect_contacts(), InputError);
}

BOOST_AUTO_TEST_SUITE_END()
