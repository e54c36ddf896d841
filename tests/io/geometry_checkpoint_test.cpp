// Checkpoints of every wall shape of core/geometry/ (rectangle, box, cylinder, smooth/sawtooth/bumpy
// drum): the reloaded world re-serialises to the same bytes (so every listed member round-trips
// bitwise), and a run in a turning sawtooth drum restarts bit for bit.
#include <boost/test/unit_test.hpp>

#include <cstring>

#include "core/io/checkpoint.hpp"
#include "tests/io/toy_stepper.hpp"

using namespace grainlab;

namespace {

World world_with_every_shape() {
  World w;
  w.add_material(Material{});
  auto add = [&](const char* name, WallShape shape) {
    Wall wall;
    wall.name = name;
    wall.shape = std::move(shape);
    w.add_wall(std::move(wall));
  };
  add("plane", PlaneShape{Vec3(0, 0, -1), Vec3::UnitZ()});
  RectangleShape plate;
  plate.center = Vec3(0.1, 0.2, 0.3);
  plate.half_u = 0.2;
  add("plate", plate);
  BoxShape box;
  box.half_extents = Vec3(0.3, 0.2, 0.4);
  box.orientation = Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ()));
  box.open_faces = BoxShape::open_top;
  add("box", box);
  CylinderShape cyl;
  cyl.radius = 0.25;
  cyl.length = 0.6;
  cyl.cap_lo = true;
  add("cylinder", cyl);
  CylinderShape body;
  body.axis = Vec3::UnitY();
  body.radius = 0.5;
  body.length = 0.2;
  add("smooth drum", make_smooth_drum(body, Vec3::UnitX(), "smooth drum"));
  add("sawtooth drum", make_sawtooth_drum(body, Vec3::UnitX(), SawtoothParams{}, "sawtooth drum"));
  BumpParams bumps;
  bumps.height_min = 0.01;
  bumps.height_max = 0.02;
  bumps.width = 0.03;
  bumps.density = 200;
  add("bumpy drum", make_bumpy_drum(body, Vec3::UnitX(), bumps, "bumpy drum"));
  return w;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(geometry_checkpoint)

BOOST_AUTO_TEST_CASE(every_shape_round_trips) {
  const World w = world_with_every_shape();
  BOOST_TEST_REQUIRE(std::get<BumpTexture>(std::get<DrumShape>(w.walls[6].shape).texture).bumps.size() > 10u);
  const std::string bytes = io::checkpoint_bytes(w);
  const World r = io::world_from_checkpoint(bytes);
  BOOST_REQUIRE_EQUAL(r.walls.size(), w.walls.size());
  for (std::size_t i = 0; i < w.walls.size(); ++i) BOOST_TEST(r.walls[i].shape.index() == w.walls[i].shape.index());
  BOOST_TEST((io::checkpoint_bytes(r) == bytes));
  const auto& bt = std::get<BumpTexture>(std::get<DrumShape>(r.walls[6].shape).texture);
  const auto& bt0 = std::get<BumpTexture>(std::get<DrumShape>(w.walls[6].shape).texture);
  BOOST_TEST(std::memcmp(&bt.bumps[3], &bt0.bumps[3], sizeof(Bump)) == 0);
  BOOST_TEST((bt.cell_items == bt0.cell_items));
}

BOOST_AUTO_TEST_CASE(turning_sawtooth_drum_restarts_bit_for_bit) {
  World w;
  w.add_material(Material{});
  CylinderShape body;
  body.axis = Vec3::UnitY();
  body.radius = 0.05;
  body.length = 0.03;
  body.cap_lo = body.cap_hi = true;
  SawtoothParams teeth;
  teeth.count = 16;
  teeth.height = 0.004;
  teeth.length = 0.012;
  Wall drum;
  drum.name = "drum";
  drum.shape = make_sawtooth_drum(body, Vec3::UnitX(), teeth, "drum");
  drum.angular_velocity = Vec3(0, 3, 0);
  w.add_wall(drum);
  for (int i = 0; i < 5; ++i)
    for (int k = 0; k < 3; ++k) w.add_sphere(Vec3(-0.02 + 0.01 * i, -0.008 + 0.008 * k, -0.03), 0.0035, 0);
  for (int i = 0; i < 400; ++i) test::toy_step(w, 1e-4);
  World restarted = io::world_from_checkpoint(io::checkpoint_bytes(w));
  for (int i = 0; i < 400; ++i) {
    test::toy_step(w, 1e-4);
    test::toy_step(restarted, 1e-4);
  }
  std::size_t wall_contacts = 0;
  for (const Contact& c : w.contacts()) wall_contacts += c.is_wall() && c.overlap > 0;
  BOOST_TEST(wall_contacts > 0u);
  w.timers = {};
  restarted.timers = {};
  BOOST_TEST((io::checkpoint_bytes(w) == io::checkpoint_bytes(restarted)));
}

BOOST_AUTO_TEST_SUITE_END()
