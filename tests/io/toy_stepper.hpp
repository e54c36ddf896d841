#pragma once
// Test-only helpers for the io tests: a small world with walls, contacts and contact history, and a
// tiny explicit stepper (linear spring-dashpot normal force, tangential spring with Coulomb limit,
// semi-implicit Euler) that exercises every piece of state a checkpoint must carry. It is NOT the
// engine's SDEM stepper (core/sdem); it exists so these tests do not depend on it.
#include <random>

#include "core/world.hpp"

namespace grainlab::test {

inline void toy_step(World& w, double dt) {
  w.keep_tangential_springs();
  w.keep_multipliers();  // the checkpoint carries them: give it something to carry
  w.detect_contacts();
  auto& p = w.particles;
  p.clear_forces();
  const Vec3 g = w.gravity.at(w.time);
  for (std::size_t i = 0; i < p.size(); ++i) p.force[i] += p.mass[i] * g;
  const double k = 2e3, damping = 0.5, mu = 0.4;
  for (std::size_t ci = 0; ci < w.contacts().size(); ++ci) {
    Contact& c = w.contacts()[ci];
    if (c.overlap <= 0) continue;
    const Vec3 va = p.velocity[c.a] + p.angular_velocity[c.a].cross(c.point - p.position[c.a]);
    const Vec3 vb = c.is_wall() ? w.walls[c.wall_index()].velocity_at(c.point)
                                : Vec3(p.velocity[c.b] + p.angular_velocity[c.b].cross(c.point - p.position[c.b]));
    const Vec3 v = va - vb;
    const double vn = v.dot(c.normal);
    const Vec3 vt = v - vn * c.normal;
    const double fn = std::max(0.0, k * c.overlap - damping * vn);
    Vec3& spring = w.model_history().tangential_springs[ci].elongation;
    spring -= spring.dot(c.normal) * c.normal;
    spring += vt * dt;
    Vec3 ft = -k * spring;
    if (ft.norm() > mu * fn) {
      ft *= mu * fn / ft.norm();
      spring = -ft / k;
    }
    c.force = fn * c.normal + ft;
    w.model_history().multipliers[ci].lambda[0] = fn * dt;
    p.force[c.a] += c.force;
    p.torque[c.a] += (c.point - p.position[c.a]).cross(ft);
    if (!c.is_wall()) {
      p.force[c.b] -= c.force;
      p.torque[c.b] -= (c.point - p.position[c.b]).cross(ft);
    } else {
      w.walls[c.wall_index()].force -= c.force;
    }
  }
  for (std::size_t i = 0; i < p.size(); ++i) {
    p.velocity[i] += dt * p.inv_mass[i] * p.force[i];
    p.angular_velocity[i] += dt * p.inv_inertia[i] * p.torque[i];
    p.position[i] += dt * p.velocity[i];
    const Vec3 wdt = p.angular_velocity[i] * dt;
    if (wdt.norm() > 0) p.orientation[i] = (Quat(Eigen::AngleAxisd(wdt.norm(), wdt.normalized())) * p.orientation[i]).normalized();
  }
  w.advance_walls(dt);
  w.time += dt;
  ++w.step;
}

/// About 60 spheres dropped into a box of planes, with a moving floor and a gravity ramp.
inline World toy_world(unsigned seed = 1) {
  World w;
  Material m;
  m.name = "glass";
  m.density = 2500;
  w.add_material(m);
  Material m2 = m;
  m2.name = "steel";
  m2.friction = 0.3;
  w.add_material(m2);
  const double L = 0.05;
  auto plane = [&](Vec3 point, Vec3 normal, const char* name) {
    Wall wall;
    wall.name = name;
    wall.shape = PlaneShape{point, normal};
    wall.material = 1;
    return wall;
  };
  Wall floor = plane(Vec3(0, 0, 0), Vec3::UnitZ(), "floor");
  floor.surface_velocity = Vec3(0.01, 0, 0);
  w.add_wall(std::move(floor));
  w.add_wall(plane(Vec3(0, 0, 0), Vec3::UnitX(), "x0"));
  w.add_wall(plane(Vec3(L, 0, 0), -Vec3::UnitX(), "x1"));
  w.add_wall(plane(Vec3(0, 0, 0), Vec3::UnitY(), "y0"));
  w.add_wall(plane(Vec3(0, L, 0), -Vec3::UnitY(), "y1"));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> jitter(-1e-4, 1e-4);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k)
        w.add_sphere(Vec3(0.006 + 0.0115 * i + jitter(rng), 0.006 + 0.0115 * j + jitter(rng), 0.0052 + 0.0101 * k),
                     0.005 + jitter(rng), std::uint16_t((i + j + k) % 2), Vec3(jitter(rng), 0, 0) * 100);
  w.gravity.ramp_from = 1.0;
  w.gravity.ramp_duration = 0.05;
  return w;
}

}  // namespace grainlab::test
