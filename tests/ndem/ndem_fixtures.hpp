#pragma once
// Scenes shared by the NDEM tests: iron-ore pellet material (000 l.1160, Table 1) and helpers.
#include <cmath>

#include "core/hertz.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/world.hpp"

namespace grainlab::ndem_test {

inline Material pellet() {
  Material m;
  m.name = "pellet";
  m.density = 3700;
  m.youngs_modulus = 6.2e6;
  m.poisson_ratio = 0.25;
  m.restitution = 0.18;
  m.friction = 0.91;
  m.rolling_friction = 0.32;
  return m;
}

inline constexpr double pellet_d = 0.0127;
inline constexpr double g_acc = 9.82;

/// E* of two identical materials.
inline double estar(const Material& m) { return m.youngs_modulus / (2 * (1 - m.poisson_ratio * m.poisson_ratio)); }

/// World with one material and a floor plane z = 0 (normal +z).
inline World floor_world(const Material& m, Vec3 normal = Vec3::UnitZ()) {
  World w;
  w.gravity.g = Vec3(0, 0, -g_acc);
  w.add_material(m);
  Wall floor;
  floor.name = "floor";
  floor.shape = PlaneShape{Vec3::Zero(), normal.normalized()};
  w.add_wall(floor);
  return w;
}

}  // namespace grainlab::ndem_test
