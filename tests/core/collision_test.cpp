// Contact detection: the cell grid finds exactly the touching pairs a brute-force search finds, keys
// are stable, history survives rebuilds, and results do not depend on the thread count.
#include <boost/test/unit_test.hpp>

#include <random>
#include <set>

#include <tbb/global_control.h>

#include "core/error.hpp"
#include "core/world.hpp"

using namespace grainlab;

namespace {
World random_cloud(int n, unsigned seed) {
  World w;
  w.add_material(Material{});
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 0.1);
  std::uniform_real_distribution<double> r(0.002, 0.005);
  for (int i = 0; i < n; ++i) w.add_sphere(Vec3(u(rng), u(rng), u(rng)), r(rng), 0);
  return w;
}

std::set<std::uint64_t> touching(const World& w) {
  std::set<std::uint64_t> keys;
  for (std::size_t k = 0; k < w.pair_contact_count(); ++k)
    if (w.contacts()[k].overlap > 0) keys.insert(w.contacts()[k].key);
  return keys;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(collision)

BOOST_AUTO_TEST_CASE(grid_matches_brute_force) {
  World w = random_cloud(2000, 7);
  w.detect_contacts();
  std::set<std::uint64_t> expected;
  const auto& p = w.particles;
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = i + 1; j < p.size(); ++j)
      if ((p.position[i] - p.position[j]).norm() < p.radius[i] + p.radius[j]) expected.insert(pair_key(p.id[i], p.id[j]));
  BOOST_TEST(expected.size() > 100u);
  BOOST_TEST((touching(w) == expected));
}

BOOST_AUTO_TEST_CASE(sphere_pair_geometry) {
  World w;
  w.add_material(Material{});
  w.add_sphere(Vec3(0, 0, 0.019), 0.01, 0);
  w.add_sphere(Vec3(0, 0, 0), 0.01, 0);
  w.detect_contacts();
  BOOST_REQUIRE_EQUAL(w.pair_contact_count(), 1u);
  const Contact& c = w.contacts()[0];
  BOOST_TEST(c.overlap == 0.001, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(c.normal.z() == 1.0);  // from b (below) to a (above)
  BOOST_TEST(c.effective_radius == 0.005, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(c.point.z() == 0.0095, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(history_survives_rebuild) {
  World w = random_cloud(500, 3);
  w.keep_tangential_springs();
  w.detect_contacts();
  for (std::size_t k = 0; k < w.contacts().size(); ++k)
    w.model_history().tangential_springs[k] = {Vec3(double(w.contacts()[k].key % 97), 0, 0)};
  const auto before = w.contacts();
  w.detector.invalidate();
  w.detect_contacts();
  BOOST_REQUIRE_EQUAL(before.size(), w.contacts().size());
  for (std::size_t k = 0; k < before.size(); ++k) {
    BOOST_TEST(before[k].key == w.contacts()[k].key);
    if (w.contacts()[k].overlap > 0) {
      BOOST_TEST(w.model_history().tangential_springs[k].elongation.x() == double(w.contacts()[k].key % 97));
      BOOST_TEST(w.contacts()[k].age == 1u);
    }
  }
}

BOOST_AUTO_TEST_CASE(plane_contacts_and_keys) {
  World w;
  w.add_material(Material{});
  w.add_sphere(Vec3(0, 0, 0.009), 0.01, 0);
  w.add_sphere(Vec3(1, 0, 0.02), 0.01, 0);
  Wall floor;
  floor.name = "floor";
  floor.shape = PlaneShape{Vec3::Zero(), Vec3::UnitZ()};
  w.add_wall(floor);
  w.detect_contacts();
  BOOST_REQUIRE_EQUAL(w.contacts().size() - w.pair_contact_count(), 1u);
  const Contact& c = w.contacts().back();
  BOOST_TEST(c.is_wall());
  BOOST_TEST(c.wall_index() == 0);
  BOOST_TEST(c.overlap == 0.001, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(c.key == wall_key(0, 0, 0));
}

BOOST_AUTO_TEST_CASE(same_result_for_any_thread_count) {
  std::vector<Contact> one, two;
  {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 1);
    World w = random_cloud(5000, 11);
    w.detect_contacts();
    one = w.contacts();
  }
  {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 2);
    World w = random_cloud(5000, 11);
    w.detect_contacts();
    two = w.contacts();
  }
  BOOST_REQUIRE_EQUAL(one.size(), two.size());
  for (std::size_t k = 0; k < one.size(); ++k) {
    BOOST_TEST(one[k].key == two[k].key);
    BOOST_TEST(one[k].overlap == two[k].overlap);
  }
}

BOOST_AUTO_TEST_CASE(invalid_particles_rejected) {
  World w;
  w.add_material(Material{});
  BOOST_CHECK_THROW(w.add_sphere(Vec3::Zero(), -0.01, 0), InputError);
  Material bad;
  bad.poisson_ratio = 0.5;
  BOOST_CHECK_THROW(w.add_material(bad), InputError);
}

// Static plane walls are checked through candidate lists built at rebuilds. A plane that is edited or
// moved between steps must still be seen at once: the wall contacts always equal a brute-force check.
BOOST_AUTO_TEST_CASE(static_plane_candidates_follow_wall_changes) {
  World w = random_cloud(500, 11);
  Wall floor;
  floor.shape = PlaneShape{Vec3(0, 0, 0.01), Vec3::UnitZ()};
  const std::size_t f = w.add_wall(floor);
  auto wall_keys = [&] {
    std::set<std::uint64_t> keys;
    for (std::size_t k = w.pair_contact_count(); k < w.contacts().size(); ++k) keys.insert(w.contacts()[k].key);
    return keys;
  };
  auto brute_force = [&] {
    std::set<std::uint64_t> keys;
    const PlaneShape& pl = std::get<PlaneShape>(w.walls[f].shape);
    for (std::size_t i = 0; i < w.particles.size(); ++i)
      if (w.particles.radius[i] - (w.particles.position[i] - pl.point).dot(pl.normal) > 0)
        keys.insert(wall_key(w.particles.id[i], std::uint16_t(f), 0));
    return keys;
  };
  w.detect_contacts();
  const std::size_t before = brute_force().size();
  BOOST_TEST(before > 0u);
  BOOST_TEST((wall_keys() == brute_force()));
  // Edited without a velocity, far beyond the skin: the lists are rebuilt.
  std::get<PlaneShape>(w.walls[f].shape).point.z() = 0.05;
  w.detect_contacts();
  BOOST_TEST(brute_force().size() > 2 * before);
  BOOST_TEST((wall_keys() == brute_force()));
  // Moving with a velocity: checked for every particle while it moves.
  w.walls[f].velocity = Vec3(0, 0, 0.5);
  for (int step = 0; step < 5; ++step) {
    w.advance_walls(0.01);
    w.detect_contacts();
    BOOST_TEST((wall_keys() == brute_force()));
  }
}

BOOST_AUTO_TEST_SUITE_END()
