// Kinematic wall motion: pistons move exactly for constant velocity, the rotation centre travels with
// the wall, translation + rotation compose as a rigid motion, conveyor surface velocity.
#include <boost/test/unit_test.hpp>

#include <set>

#include "core/error.hpp"
#include "core/world.hpp"
#include "helpers.hpp"

using namespace grainlab;
using namespace grainlab::test;
namespace tt = boost::test_tools;

BOOST_AUTO_TEST_SUITE(motion)

BOOST_AUTO_TEST_CASE(plane_piston_moves_exactly) {
  // A piston (plane facing down) descends at 2 mm/s; after 1000 steps of 1 ms it is 2 mm lower, so a
  // sphere whose centre is 1 mm below the moved piston, radius 2.5 mm, overlaps it by 1.5 mm.
  Wall piston;
  piston.name = "piston";
  piston.shape = PlaneShape{Vec3(0, 0, 0.1), -Vec3::UnitZ()};
  piston.velocity = Vec3(0, 0, -0.002);
  piston.rotation_center = Vec3(0, 0, 0.1);
  for (int i = 0; i < 1000; ++i) advance(piston, 1e-3);
  const auto& plane = std::get<PlaneShape>(piston.shape);
  // Rounding: 1000 additions of 2e-6 m to 0.1 m, each exact to 1.4e-17 m.
  BOOST_TEST(plane.point.z() == 0.098, tt::tolerance(1e-13));
  BOOST_TEST(piston.rotation_center.z() == 0.098, tt::tolerance(1e-13));
  const auto h = hits_of(piston.shape, Vec3(0.3, 0.2, 0.097), 0.0025);
  BOOST_REQUIRE_EQUAL(h.size(), 1u);
  BOOST_TEST(h[0].overlap == 0.0015, tt::tolerance(1e-9));
  BOOST_TEST((piston.velocity_at(Vec3(5, 5, 5)) - Vec3(0, 0, -0.002)).norm() == 0.0);
}

BOOST_AUTO_TEST_CASE(translation_and_rotation_compose_rigidly) {
  // A box spinning about its own centre while that centre moves: after time T the box is at
  // c0 + v T, turned by w T, independent of the step count (exact for constant velocities).
  auto run = [](int steps) {
    Wall w;
    w.name = "box";
    BoxShape box;
    box.center = Vec3(1, 2, 3);
    box.half_extents = Vec3(0.5, 0.3, 0.2);
    w.shape = box;
    w.rotation_center = box.center;
    w.velocity = Vec3(0.1, -0.2, 0.05);
    w.angular_velocity = Vec3(0.3, 0.4, 1.2);
    for (int i = 0; i < steps; ++i) advance(w, 2.0 / steps);
    return w;
  };
  const Wall a = run(10), b = run(1000);
  const auto& ba = std::get<BoxShape>(a.shape);
  const auto& bb = std::get<BoxShape>(b.shape);
  const Vec3 expected_center = Vec3(1, 2, 3) + 2.0 * Vec3(0.1, -0.2, 0.05);
  BOOST_TEST((ba.center - expected_center).norm() < 1e-14);
  BOOST_TEST((bb.center - expected_center).norm() < 1e-12);  // 1000 additions, each rounded by <= 4.4e-16 m
  BOOST_TEST((a.rotation_center - expected_center).norm() < 1e-14);
  const Quat expected(Eigen::AngleAxisd(2.0 * 1.3, Vec3(0.3, 0.4, 1.2) / 1.3));
  BOOST_TEST(ba.orientation.angularDistance(expected) < 1e-13);
  BOOST_TEST(bb.orientation.angularDistance(expected) < 1e-12);  // 1000 products of unit quaternions
}

BOOST_AUTO_TEST_CASE(rotation_about_an_off_centre_point) {
  // A plane rotating about a hinge line (a flap): a quarter turn about the x axis through (0, 1, 0)
  // maps the plane z = 0 (normal +z) to the plane y = 1 (normal -y).
  Wall flap;
  flap.name = "flap";
  flap.shape = PlaneShape{Vec3(0, 0, 0), Vec3::UnitZ()};
  flap.rotation_center = Vec3(0, 1, 0);
  flap.angular_velocity = Vec3(pi / 2, 0, 0);
  for (int i = 0; i < 100; ++i) advance(flap, 0.01);
  const auto& p = std::get<PlaneShape>(flap.shape);
  BOOST_TEST((p.normal - Vec3(0, -1, 0)).norm() < 1e-13);
  BOOST_TEST(std::abs((p.point - Vec3(0, 1, 0)).dot(p.normal)) < 1e-13);
  // Surface velocity at a point 0.5 m from the hinge: omega x r.
  BOOST_TEST((flap.velocity_at(Vec3(0, 1, -0.5)) - Vec3(0, pi / 4, 0)).norm() < 1e-15);
}

BOOST_AUTO_TEST_CASE(conveyor_plate) {
  // A finite belt 2 m x 0.4 m moving at 0.1 m/s along x (000 line 1366): the surface velocity is the
  // belt speed everywhere on it, tangential; the plate itself does not move.
  World world;
  world.add_material(Material{});
  Wall belt;
  belt.name = "belt";
  RectangleShape plate;
  plate.half_u = 1.0;
  plate.half_v = 0.2;
  belt.shape = plate;
  belt.surface_velocity = Vec3(0.1, 0, 0);
  world.add_wall(belt);
  const double r = 0.005;
  world.add_sphere(Vec3(0.7, 0.1, 0.0049), r, 0);   // resting on the belt
  world.add_sphere(Vec3(1.003, 0.0, 0.0), r, 0);    // at the far end, beside the edge
  world.add_sphere(Vec3(1.2, 0.0, -0.1), r, 0);     // fell off the end
  world.detect_contacts();
  const std::size_t first = world.pair_contact_count();
  BOOST_REQUIRE_EQUAL(world.contacts().size() - first, 2u);
  const Contact& on = world.contacts()[first];
  BOOST_TEST(on.overlap == 0.0001, tt::tolerance(1e-6));
  BOOST_TEST((on.normal - Vec3::UnitZ()).norm() < 1e-15);
  BOOST_TEST((world.walls[0].velocity_at(on.point) - Vec3(0.1, 0, 0)).norm() == 0.0);
  const Contact& edge = world.contacts()[first + 1];
  BOOST_TEST(edge.overlap == 0.002, tt::tolerance(1e-9));
  BOOST_TEST((edge.normal - Vec3::UnitX()).norm() < 1e-12);
  for (int i = 0; i < 10; ++i) world.advance_walls(0.1);
  BOOST_TEST((std::get<RectangleShape>(world.walls[0].shape).center - Vec3::Zero()).norm() == 0.0);
}

BOOST_AUTO_TEST_CASE(drum_in_a_world_keys_teeth_separately) {
  // A sphere in the valley between two teeth of a sawtooth drum: the detector makes two wall contacts
  // keyed by the two tooth features (3 + k), and they persist (age grows) while the drum turns slowly
  // underneath a sphere carried with it.
  World world;
  world.add_material(Material{});
  CylinderShape body;
  body.axis = Vec3::UnitY();
  body.radius = 0.412;
  body.length = 0.08;
  body.cap_lo = body.cap_hi = true;
  Wall w;
  w.name = "drum";
  w.shape = make_sawtooth_drum(body, Vec3(0, 0, -1), SawtoothParams{64, 0.012, 0.04, 50}, "drum");
  w.angular_velocity = 0.5 * body.axis;
  world.add_wall(w);
  const auto& drum = std::get<DrumShape>(world.walls[0].shape);
  const auto& t = std::get<SawtoothTexture>(drum.texture);
  // Deep enough in the valley of teeth 0 and 1 to touch both faces (see sawtooth_test valley_contacts).
  const double valley = 0.5 * (t.base_angle + t.pitch);
  world.add_sphere(drum.direction_at(valley) * (0.412 - 0.0052), 0.005, 0);
  world.detect_contacts();
  std::set<std::uint64_t> keys;
  for (std::size_t k = world.pair_contact_count(); k < world.contacts().size(); ++k) keys.insert(world.contacts()[k].key);
  BOOST_TEST(keys.size() == 2u);
  BOOST_TEST(keys.count(wall_key(0, 0, 3)) == 1u);
  BOOST_TEST(keys.count(wall_key(0, 0, 4)) == 1u);
  // Turn drum and sphere together by 0.05 rad in 50 steps: same contacts, age 50.
  const Eigen::AngleAxisd step_rotation(0.5 * 0.002, Vec3::UnitY());
  for (int i = 0; i < 50; ++i) {
    world.advance_walls(0.002);
    world.particles.position[0] = step_rotation * world.particles.position[0];
    world.detect_contacts();
  }
  BOOST_REQUIRE_EQUAL(world.contacts().size() - world.pair_contact_count(), 2u);
  for (std::size_t k = world.pair_contact_count(); k < world.contacts().size(); ++k) BOOST_TEST(world.contacts()[k].age == 50u);
}

BOOST_AUTO_TEST_CASE(drum_moved_off_its_axis) {
  // Rotation about a point off the drum axis and translation move the whole frame: a particle moved
  // by the same rigid motion sees the same contacts.
  CylinderShape body;
  body.radius = 0.412;
  body.length = 0.08;
  Wall w;
  w.name = "drum";
  w.shape = make_sawtooth_drum(body, Vec3::UnitX(), SawtoothParams{64, 0.012, 0.04, 50}, "drum");
  w.rotation_center = Vec3(0.3, 0, 0);
  w.angular_velocity = Vec3(0.2, 0.1, 0.4);
  w.velocity = Vec3(0.01, 0.02, 0);
  const DrumShape s0 = std::get<DrumShape>(w.shape);
  for (int i = 0; i < 100; ++i) advance(w, 0.01);
  const Quat q(Eigen::AngleAxisd(Vec3(0.2, 0.1, 0.4).norm(), Vec3(0.2, 0.1, 0.4).normalized()));
  auto moved = [&](const Vec3& x) { return Vec3(Vec3(0.3, 0, 0) + Vec3(0.01, 0.02, 0) + q * (x - Vec3(0.3, 0, 0))); };
  BOOST_TEST((w.rotation_center - Vec3(0.31, 0.02, 0)).norm() < 1e-14);  // 100 rounded additions
  for (int i = 0; i < 40; ++i) {
    const Vec3 c0 = s0.direction_at(0.157 * i) * (0.412 - 0.008) + Vec3(0, 0, 0.001 * i - 0.02);
    const auto h0 = hits_of(s0, c0, 0.005), h1 = hits_of(w.shape, moved(c0), 0.005);
    BOOST_REQUIRE_EQUAL(h0.size(), h1.size());
    for (std::size_t k = 0; k < h0.size(); ++k) {
      BOOST_TEST(h0[k].feature == h1[k].feature);
      BOOST_TEST(std::abs(h0[k].overlap - h1[k].overlap) < 1e-12);  // 100 composed rotations: ~1e-14 m drift
    }
  }
}

BOOST_AUTO_TEST_CASE(world_rejects_invalid_walls) {
  World world;
  world.add_material(Material{});
  Wall w;
  w.name = "bad";
  CylinderShape c;
  c.radius = 0;
  w.shape = c;
  BOOST_CHECK_THROW(world.add_wall(w), InputError);
  BOOST_TEST(world.walls.empty());
}

BOOST_AUTO_TEST_SUITE_END()
