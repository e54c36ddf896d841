// Per-material-pair overrides (World::pair_overrides, core/material.hpp): the override replaces the mixing
// rule for that pair only, in both engines, and survives a checkpoint. The bounce tests drop a sphere of a
// material with e = 0.9 on a floor of another material with e = 0.9, the pair overridden to e = 0.3: the
// measured rebound must follow 0.3 (without the override it is 0.9, so each test fails if an engine ignores it).
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "core/error.hpp"
#include "core/io/checkpoint.hpp"
#include "core/material.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/sdem/sdem_stepper.hpp"
#include "core/world.hpp"

using namespace grainlab;

namespace {

Material bouncy(const char* name) {
  Material m;
  m.name = name;
  m.density = 2500;
  m.youngs_modulus = 1e7;
  m.restitution = 0.9;
  m.friction = 0.5;
  return m;
}

// A sphere (material 0) `gap` above a floor (material 1), approaching at 1 m/s, no gravity.
World floor_world(bool overridden, double gap) {
  World w;
  w.gravity.g = Vec3::Zero();
  w.add_material(bouncy("ball"));
  const std::uint16_t floor_material = w.add_material(bouncy("floor"));
  Wall floor;
  floor.name = "floor";
  floor.material = floor_material;
  floor.shape = PlaneShape{Vec3::Zero(), Vec3::UnitZ()};
  w.add_wall(floor);
  w.add_sphere(Vec3(0, 0, 0.005 + gap), 0.005, 0, Vec3(0, 0, -1.0));
  if (overridden) {
    PairOverride o;
    o.restitution = 0.3;
    w.pair_overrides.set(1, 0, o);  // unordered: (floor, ball) is (ball, floor)
  }
  return w;
}

double sdem_rebound(bool overridden) {
  World w = floor_world(overridden, 1e-7);
  SdemSettings s;
  s.time_step = 2e-7;  // t_c ~ 1.8e-4 s; the ball is back at z = 5.2 mm after ~1.4e-3 s at e = 0.9
  SdemStepper sdem(s);
  for (int k = 0; k < 50000 && w.particles.position[0].z() < 0.0052; ++k) sdem.step(w);
  return w.particles.velocity[0].z();
}

double ndem_rebound(bool overridden) {
  World w = floor_world(overridden, -1e-5);  // already touching: the impact stage acts in the first step
  NdemSettings s;
  s.time_step = 1e-3;
  s.impact_velocity = 0.05;
  NdemStepper ndem(s);
  ndem.step(w);
  return w.particles.velocity[0].z();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pair_override)

BOOST_AUTO_TEST_CASE(override_replaces_the_mixing_rule_for_its_pair_only) {
  Material a = bouncy("a"), b = bouncy("b");
  a.friction = 0.2;
  PairOverrides table;
  PairOverride o;
  o.friction = 0.8;
  table.set(1, 0, o);
  const MaterialPair p = mix(a, b, table.find(0, 1));
  BOOST_TEST(p.friction == 0.8);
  BOOST_TEST(p.restitution == 0.9);  // unset: the rule (minimum)
  BOOST_TEST(mix(a, b, table.find(0, 0)).friction == 0.2);
  BOOST_TEST(table.find(2, 1) == nullptr);
  const auto rev = table.revision();
  table.set(0, 1, o);
  BOOST_TEST(table.revision() > rev);
}

BOOST_AUTO_TEST_CASE(bad_override_is_named) {
  PairOverrides table;
  PairOverride o;
  o.restitution = 1.5;
  try {
    table.set(0, 1, o);
    BOOST_FAIL("no error");
  } catch (const InputError& e) {
    BOOST_TEST(std::string(e.what()).find("materials 0 and 1: restitution = 1.5") != std::string::npos);
  }
  o = {};
  o.friction = -1;
  BOOST_CHECK_THROW(table.set(0, 1, o), InputError);
  BOOST_CHECK_THROW(table.set(-1, 0, PairOverride{}), InputError);
}

BOOST_AUTO_TEST_CASE(sdem_wall_pair_bounces_with_its_own_restitution) {
  const double plain = sdem_rebound(false), overridden = sdem_rebound(true);
  BOOST_TEST_MESSAGE("SDEM rebound: " << plain << " plain, " << overridden << " with the override");
  BOOST_TEST(plain == 0.9, boost::test_tools::tolerance(0.02));
  BOOST_TEST(overridden == 0.3, boost::test_tools::tolerance(0.02));
}

BOOST_AUTO_TEST_CASE(ndem_wall_pair_bounces_with_its_own_restitution) {
  const double plain = ndem_rebound(false), overridden = ndem_rebound(true);
  BOOST_TEST_MESSAGE("NDEM rebound: " << plain << " plain, " << overridden << " with the override");
  BOOST_TEST(plain == 0.9, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(overridden == 0.3, boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(overrides_survive_a_checkpoint) {
  const World w = floor_world(true, 1e-7);
  const World r = io::world_from_checkpoint(io::checkpoint_bytes(w));
  const PairOverride* o = r.pair_overrides.find(0, 1);
  BOOST_TEST_REQUIRE(o != nullptr);
  BOOST_TEST(*o->restitution == 0.3);
  BOOST_TEST(!o->friction.has_value());
  BOOST_TEST((io::checkpoint_bytes(r) == io::checkpoint_bytes(w)));
}

BOOST_AUTO_TEST_SUITE_END()
