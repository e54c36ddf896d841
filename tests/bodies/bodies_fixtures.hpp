#pragma once
// Scenes shared by the rigid-body tests.
#include <cmath>

#include "core/bodies.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/sdem/sdem_stepper.hpp"
#include "core/world.hpp"
#include "tests/ndem/ndem_fixtures.hpp"

namespace grainlab::bodies_test {

/// Iron-ore pellet material (000 l.1160, Table 1), the NDEM tests' own.
using ndem_test::pellet;
inline constexpr double radius = 0.00635;
inline constexpr double g_acc = 9.82;

inline World empty_world(const Material& m = pellet()) {
  World w;
  w.gravity.g = Vec3(0, 0, -g_acc);
  w.add_material(m);
  return w;
}

inline void add_floor(World& w) { w.add_wall(Wall{.name = "floor", .shape = PlaneShape{Vec3::Zero(), Vec3::UnitZ()}}); }

/// An asymmetric 3-sphere aggregate (three different principal moments), centred near `c`.
inline std::size_t triple(World& w, const Vec3& c, const Vec3& v = Vec3::Zero(), const Vec3& omega = Vec3::Zero()) {
  const std::size_t i0 = w.add_sphere(c + Vec3(-0.009, 0.0, 0.0), 0.006, 0, v + omega.cross(Vec3(-0.009, 0, 0)), omega);
  const std::size_t i1 = w.add_sphere(c + Vec3(0.003, 0.0, 0.0), 0.007, 0, v + omega.cross(Vec3(0.003, 0, 0)), omega);
  const std::size_t i2 = w.add_sphere(c + Vec3(0.004, 0.010, 0.001), 0.005, 0, v + omega.cross(Vec3(0.004, 0.010, 0.001)), omega);
  return form_body(w, {i0, i1, i2});
}

inline double rel(const Vec3& a, const Vec3& b) { return (a - b).norm() / std::max(b.norm(), 1e-300); }

}  // namespace grainlab::bodies_test
